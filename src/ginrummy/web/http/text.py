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

import bisect
import functools
import unicodedata
from typing import Annotated, Any

from confusable_homoglyphs import confusables  # type: ignore[import-untyped]
from pydantic import AfterValidator

__all__ = ["TextError", "valid_text", "valid_name", "has_lone_surrogate", "printable", "Text",
           "Name", "NAME_MAX", "BIDI_CONTROLS", "PRINTABLE_DEPTH", "name_key", "visible",
           "default_ignorable", "DEFAULT_IGNORABLE", "BLANKS"]

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

#: Unicode's Default_Ignorable_Code_Point (DerivedCoreProperties.txt; the same list from
#: Unicode 14.0 to 16.0), as ranges of code points, first and last included: characters that
#: show nothing unless a renderer draws them on purpose (zero-width spaces and joiners, soft
#: hyphen, bidirectional marks, variation selectors, tag characters, the Hangul fillers, the
#: Khmer inherent vowels, and code points reserved to stay invisible)
DEFAULT_IGNORABLE: tuple[tuple[int, int], ...] = (
    (0x00AD, 0x00AD), (0x034F, 0x034F), (0x061C, 0x061C), (0x115F, 0x1160),
    (0x17B4, 0x17B5), (0x180B, 0x180F), (0x200B, 0x200F), (0x202A, 0x202E),
    (0x2060, 0x206F), (0x3164, 0x3164), (0xFE00, 0xFE0F), (0xFEFF, 0xFEFF),
    (0xFFA0, 0xFFA0), (0xFFF0, 0xFFF8), (0x1BCA0, 0x1BCA3), (0x1D173, 0x1D17A),
    (0xE0000, 0xE0FFF),
)
_IGNORABLE_STARTS = [a for a, _ in DEFAULT_IGNORABLE]

#: characters drawn as an empty space that Unicode does not class as spaces: the braille blank
#: and the Hangul fillers (which most fonts draw as a space; :func:`name_key` reads all of them
#: as a space, and a name needs a character besides them)
BLANKS = frozenset("\u2800\u3164\u115f\u1160\uffa0")

#: the emoji tag sequences (a subdivision flag: U+1F3F4, tags U+E0020-U+E007E, U+E007F): the
#: only place where tag characters show something
_FLAG_BASE = "\U0001f3f4"
_TAG_FIRST, _TAG_LAST, _TAG_END = 0xE0020, 0xE007E, 0xE007F


def default_ignorable(ch: str) -> bool:
    """Whether ``ch`` is one of Unicode's default-ignorable code points
    (:data:`DEFAULT_IGNORABLE`).

    >>> default_ignorable("\u3164"), default_ignorable("\u200b"), default_ignorable("A")
    (True, True, False)
    """
    o = ord(ch)
    i = bisect.bisect_right(_IGNORABLE_STARTS, o) - 1
    return i >= 0 and o <= DEFAULT_IGNORABLE[i][1]


def _flag_tags(s: str) -> set[int]:
    """The positions in ``s`` of tag characters that belong to an emoji tag sequence (a flag
    base, one or more tags, a cancel tag)."""
    kept: set[int] = set()
    i = 0
    while i < len(s):
        if s[i] == _FLAG_BASE:
            j = i + 1
            while j < len(s) and _TAG_FIRST <= ord(s[j]) <= _TAG_LAST:
                j += 1
            if j > i + 1 and j < len(s) and ord(s[j]) == _TAG_END:
                kept.update(range(i + 1, j + 1))
                i = j
        i += 1
    return kept


def visible(ch: str) -> bool:
    """Whether ``ch`` shows something in a name by itself: a letter, digit, punctuation mark or
    symbol (categories L, N, P, S) that is neither default-ignorable nor a blank
    (:data:`BLANKS`).

    >>> visible("A"), visible("\u3164"), visible("\u2800"), visible("\U0001f3f4")
    (True, False, False, True)
    """
    return (unicodedata.category(ch)[0] in "LNPS" and ch not in BLANKS
            and not default_ignorable(ch))


def _shown(s: str) -> str:
    """``s`` as a person sees it: blanks made spaces, default-ignorable characters removed but
    the tags of an emoji tag sequence and the joiners between two characters that are not
    ASCII (an emoji sequence, a word of a script that joins its letters)."""
    flags = _flag_tags(s)

    def kept(i: int, ch: str) -> bool:
        if not default_ignorable(ch) or i in flags:
            return True
        return ch in _JOINERS and 0 < i < len(s) - 1 and not s[i - 1].isascii() \
            and not s[i + 1].isascii()

    return "".join(" " if ch in BLANKS else ch for i, ch in enumerate(s)
                   if ch in BLANKS or kept(i, ch))


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
    ("AYU", "ayu"; "ß" and "ss"), the characters that show nothing dropped (Unicode's
    default-ignorable code points, :data:`DEFAULT_IGNORABLE`: a Hangul filler after "Ann" is
    still "Ann"; tag characters are kept only in an emoji tag sequence, joiners only between
    two characters that are not ASCII: a joined emoji family is not three emoji), blanks
    (:data:`BLANKS`, the braille blank U+2800) read as spaces, runs of spaces made one and the
    spaces around removed. (ASCII letters stay themselves: "Ian" and "lan" are two names.)

    >>> name_key("  \uff21YU\u200b  Putri ")
    'ayu putri'
    >>> name_key("\u0410yu") == name_key("Ayu") and name_key("\u0412ob") == name_key("Bob")
    True
    """
    s = unicodedata.normalize("NFKC", _shown(name))
    # before case folding (Cyrillic "В" is drawn as "B", its small "в" as no ASCII letter), and
    # after it (Cyrillic "Ａ" folds to "а", drawn as "a")
    s = _fold_look_alikes(unicodedata.normalize("NFKC", _fold_look_alikes(s).casefold()))
    s = _shown(unicodedata.normalize("NFKC", s.casefold()))
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
