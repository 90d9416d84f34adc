"""Text that comes from a request: checks shared by every route (issue 14, docs/api.md "Text").

* Any text must be valid Unicode: a JSON string may carry a lone surrogate (``"\\ud800"``),
  which Python decodes but no answer, log line or page can encode. :func:`valid_text` refuses it.
* A name (a sheet's players, a display name) must also hold no control character (C0, C1, DEL),
  no line or paragraph separator and no bidirectional formatting character (the embeddings,
  overrides and isolates U+202A-U+202E, U+2066-U+2069, and the marks U+200E, U+200F, U+061C),
  which would hide or reorder what is shown next to it. :func:`valid_name` refuses those, strips
  the spaces around and bounds the length.

The pydantic types :data:`Text` and :data:`Name` apply them in a request model; a refusal is
FastAPI's 422 validation answer, which :func:`printable` makes safe to send back.

Two names are the same name to a person when :func:`name_key` gives them one key (a table of
people seats a name once: docs/tables.md).
"""

from __future__ import annotations

import functools
import unicodedata
from typing import Annotated, Any

from confusable_homoglyphs import confusables  # type: ignore[import-untyped]
from pydantic import AfterValidator

__all__ = ["TextError", "valid_text", "valid_name", "has_lone_surrogate", "printable", "Text",
           "Name", "NAME_MAX", "BIDI_CONTROLS", "PRINTABLE_DEPTH", "name_key"]

#: the longest name, in characters (after stripping the spaces around it)
NAME_MAX = 40

#: bidirectional formatting characters (Unicode TR9: embeddings, overrides, isolates, marks)
BIDI_CONTROLS = frozenset("\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e"
                          "\u2066\u2067\u2068\u2069")


class TextError(ValueError):
    """A refused text: ``reason`` (a code of :data:`ginrummy.errors.REASONS`) and ``params``
    say why (docs/api.md "Reasons"); pydantic reports it as any :class:`ValueError`."""

    def __init__(self, message: str, reason: str, **params: Any) -> None:
        super().__init__(message)
        self.reason = reason
        self.params = params


def has_lone_surrogate(s: str) -> bool:
    """True if ``s`` holds a code point U+D800-U+DFFF (never valid on its own in Unicode)."""
    try:
        s.encode("utf-8")
    except UnicodeEncodeError:
        return True
    return False


def valid_text(s: str) -> str:
    """``s`` unchanged if it is valid Unicode text.

    :raises ValueError: on a lone surrogate.
    """
    if has_lone_surrogate(s):
        raise TextError("text must be valid Unicode (a lone surrogate such as \\ud800 is not)",
                        "name_control", char="U+D800-U+DFFF")
    return s


def valid_name(s: str, max_length: int = NAME_MAX) -> str:
    """``s`` without the spaces around it, if it is a name: 1 to ``max_length`` characters of
    valid Unicode with no control, separator or bidirectional formatting character.

    :raises ValueError: saying what is wrong (the character by its code point, never itself).
    """
    valid_text(s)
    s = s.strip()
    if not s:
        raise TextError("a name cannot be empty", "name_empty")
    if len(s) > max_length:
        raise TextError(f"a name has at most {max_length} characters", "name_long",
                        max=max_length)
    for ch in s:
        if ch in BIDI_CONTROLS or unicodedata.category(ch) in ("Cc", "Zl", "Zp"):
            raise TextError(f"a name cannot hold the control or direction character "
                            f"U+{ord(ch):04X}", "name_control", char=f"U+{ord(ch):04X}")
    return s


#: the joiners that shape a word or an emoji sequence (kept inside one by :func:`name_key`)
_JOINERS = "\u200c\u200d"


def _unseen(ch: str) -> bool:
    """A character that changes nothing a person sees in a name: a format character (Unicode
    category Cf: zero-width space, soft hyphen, word joiner, BOM...) other than the joiners and
    the emoji tag characters, or a variation selector."""
    o = ord(ch)
    if 0xFE00 <= o <= 0xFE0F or 0xE0100 <= o <= 0xE01EF or o == 0x034F:
        return True
    return (unicodedata.category(ch) == "Cf" and ch not in _JOINERS
            and not 0xE0020 <= o <= 0xE007F)


@functools.cache
def _latin_look_alike(ch: str) -> str:
    """The ASCII letter that ``ch`` is drawn like (Unicode's confusables, through the
    ``confusable_homoglyphs`` package: Cyrillic "а" and "В", Greek "ο", the digit "0" as "O"),
    a lower-case one first; ``ch`` itself when it looks like none, or is an ASCII letter."""
    if ch.isascii() and ch.isalpha():
        return ch
    like = [h["c"] for h in confusables.confusables_data.get(ch, ())
            if len(h["c"]) == 1 and h["c"].isascii() and h["c"].isalpha()]
    return min(like, key=lambda c: (not c.islower(), c)) if like else ch


def _fold_look_alikes(s: str) -> str:
    return "".join(_latin_look_alike(ch) for ch in s)


def name_key(name: str) -> str:
    """The form in which two display names are compared: two names with one key read as the
    same name to a person. Unicode's compatibility forms folded (NFKC: fullwidth "Ａｙｕ" is
    "Ayu"; composed and decomposed "ë" alike), letters drawn like an ASCII letter made that
    letter (Cyrillic "Аyu" is "Ayu", "B0b" is "Bob": :func:`_latin_look_alike`), case folded
    ("AYU", "ayu"; "ß" and "ss"), the characters that show nothing dropped (see
    :func:`_unseen`), joiners kept only between two characters of a word (a joined emoji family
    is not three emoji), runs of spaces made one and the spaces around removed. (ASCII letters
    stay themselves: "Ian" and "lan" are two names.)

    >>> name_key("  \uff21YU\u200b  Putri ")
    'ayu putri'
    >>> name_key("\u0410yu") == name_key("Ayu") and name_key("\u0412ob") == name_key("Bob")
    True
    """
    s = unicodedata.normalize("NFKC", name)
    # before case folding (Cyrillic "В" is drawn as "B", its small "в" as no ASCII letter), and
    # after it (Cyrillic "Ａ" folds to "а", drawn as "a")
    s = _fold_look_alikes(unicodedata.normalize("NFKC", _fold_look_alikes(s).casefold()))
    s = unicodedata.normalize("NFKC", s.casefold())
    s = "".join(ch for ch in s if not _unseen(ch))
    words = (w.strip(_JOINERS) for w in s.split())
    return " ".join(w for w in words if w)


#: how deep :func:`printable` copies nested lists and objects
PRINTABLE_DEPTH = 12


def printable(value: Any, depth: int = PRINTABLE_DEPTH) -> Any:
    """``value`` (JSON-shaped: dicts, lists, text, numbers; anything else is kept as it is) made
    safe to send back in an error answer: every lone surrogate in its texts and keys replaced by
    U+FFFD, and what is nested deeper than ``depth`` replaced by ``"…"`` (a request may nest
    thousands of levels, more than an encoder can write)."""
    if isinstance(value, str):
        return (value.encode("utf-16", "surrogatepass").decode("utf-16", "replace")
                if has_lone_surrogate(value) else value)
    if isinstance(value, dict | list | tuple) and depth <= 0:
        return "…"
    if isinstance(value, dict):
        return {printable(k, 0): printable(v, depth - 1) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [printable(v, depth - 1) for v in value]
    return value


#: any text field of a request body
Text = Annotated[str, AfterValidator(valid_text)]
#: a person's name in a request body (see :func:`valid_name`)
Name = Annotated[str, AfterValidator(valid_name)]
