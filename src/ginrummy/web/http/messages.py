"""The server's messages in the person's language (issue 13): a reason code and its parameters
(:data:`ginrummy.errors.REASONS`) worded from the same catalogs as the pages (``locales/*.json``,
keys ``err.<code>``), so that the API's ``message`` and the page say the same thing.

How a parameter is shown (static/i18n.js ``reasonText`` does the same on the page):

* a whole number: written the language's way (Babel: ``100.000`` in Indonesian);
* ``card``: the card's name (``card.name``: "7 of hearts"); ``cards``: the names, listed;
* ``field``: the catalog's ``errv.field.<name>`` or ``field.<name>`` (never the raw field name
  when the catalog has a word for it);
* ``scoring``, ``preset``, ``level``: their catalog names when they are ones we know;
* ``value`` next to a ``field``: its ``choice.<field>.<value>`` name when it has one;
* ``choices``: each as its ``choice.<field>.<v>``, ``level.<v>``, ``preset.<v>``,
  ``scoring.<v>`` or ``quick.<v>`` name, listed; any other list: its texts, listed;
* anything else as it is (names, the text the person typed).

A reason with a ``hand`` (and ``table``) parameter is placed: "Hand 3: ..." (``err.at_hand``,
``err.at_table``, whose ``{what}`` is the reason's text). A count ``n`` of 1 takes the key's
``_one`` form when the catalog has it.
"""

from __future__ import annotations

import functools
import json
import re
from contextvars import ContextVar
from pathlib import Path
from typing import Any, Final

from babel.numbers import format_decimal

from ...errors import REASONS
from .i18n import DEFAULT_LANGUAGE, LANGUAGES

__all__ = ["catalog", "reason_text", "language", "LANGUAGE", "reason_key", "REASONS",
           "placeholders"]

LOCALES_DIR: Final = Path(__file__).resolve().parent.parent / "locales"

#: the language of the request being answered (set per request by ``app.PerRequest``)
LANGUAGE: ContextVar[str] = ContextVar("ginrummy_language", default=DEFAULT_LANGUAGE)

_PLACEHOLDER = re.compile(r"\{(\w+)\}")
#: the catalog prefixes a choice may be named from, in order
_CHOICE_KEYS: Final = ("level", "preset", "scoring", "quick")


def language() -> str:
    """The language of the request being answered (English outside a request)."""
    return LANGUAGE.get()


@functools.cache
def catalog(lang: str) -> dict[str, str]:
    """The flat ``{key: text}`` catalog of ``lang`` (read once; English for an unknown code).

    :raises OSError: the English catalog is missing (a broken install).
    """
    if lang not in LANGUAGES:
        lang = DEFAULT_LANGUAGE
    data: dict[str, str] = json.loads((LOCALES_DIR / f"{lang}.json").read_text("utf-8"))
    return data


def reason_key(code: str) -> str:
    """The catalog key of a reason code."""
    return f"err.{code}"


def placeholders(text: str) -> set[str]:
    """The ``{name}`` placeholders of a catalog text."""
    return set(_PLACEHOLDER.findall(text))


def _t(lang: str, key: str) -> str | None:
    text = catalog(lang).get(key)
    if text is None and lang != DEFAULT_LANGUAGE:
        text = catalog(DEFAULT_LANGUAGE).get(key)
    return text


def _card(card: Any, lang: str) -> str:
    c = str(card)
    if len(c) != 2:
        return c
    rank = _t(lang, f"rankName.{c[0]}") or c[0]
    suit = _t(lang, f"suit.{c[1]}") or c[1]
    return (_t(lang, "card.name") or "{rank} {suit}").format(rank=rank, suit=suit)


def _listed(items: list[str], lang: str) -> str:
    return (_t(lang, "list.sep") or ", ").join(items)


def _named(value: Any, lang: str, keys: tuple[str, ...]) -> str:
    for k in keys:
        text = _t(lang, f"{k}.{value}")
        if text is not None:
            return text
    return str(value)


def _shown(name: str, value: Any, params: dict[str, Any], lang: str) -> str:
    """A parameter as the person reads it (see the module docstring)."""
    if isinstance(value, bool):
        return str(value).lower()
    if name == "seat" and isinstance(value, int):
        value += 1  # seats are 0-based in the API, counted from 1 on the page ("Seat 1")
    if isinstance(value, int | float):
        return format_decimal(value, locale=lang)
    if name == "card":
        return _card(value, lang)
    if name == "cards" and isinstance(value, list):
        return _listed([_card(c, lang) for c in value], lang)
    if name == "field":
        return _named(value, lang, ("errv.field", "field"))
    if name in ("scoring", "preset", "level"):
        return _named(value, lang, (name,))
    if name == "value" and params.get("field"):
        return _named(value, lang, (f"choice.{params['field']}",))
    if name == "choices" and isinstance(value, list):
        field = params.get("field")
        keys = ((f"choice.{field}",) if field else ()) + _CHOICE_KEYS
        return _listed([_named(v, lang, keys) for v in value], lang)
    if isinstance(value, list):
        return _listed([str(v) for v in value], lang)
    return str(value)


def reason_text(code: str, params: dict[str, Any] | None = None, lang: str | None = None) -> str:
    """The reason ``code`` with ``params`` in words, in ``lang`` (default: the request's).

    >>> reason_text("over_knock_limit", {"deadwood": 15, "limit": 10, "hand": 1}, "en")
    "Hand 1: The knocker's deadwood is 15, over the knock limit of 10."
    """
    lang = lang if lang in LANGUAGES else language()
    params = dict(params or {})
    key = reason_key(code)
    if params.get("n") == 1 and _t(lang, f"{key}_one") is not None:
        key = f"{key}_one"
    text = _t(lang, key)
    if text is None:  # a code the catalogs lack: its parameters as they are
        text = code.replace("_", " ") + "".join(f" {{{p}}}" for p in params)
    shown = {k: _shown(k, v, params, lang) for k, v in params.items()}
    out = _PLACEHOLDER.sub(lambda m: shown.get(m.group(1), m.group(0)), text)
    if "hand" in params:
        where = "err.at_table" if "table" in params else "err.at_hand"
        frame = _t(lang, where) or "{hand}: {what}"
        before, _, after = frame.partition("{what}")
        place: dict[str, str] = {k: shown[k] for k in ("hand", "table") if k in shown}
        out = "".join((_PLACEHOLDER.sub(lambda m: place.get(m.group(1), m.group(0)), before),
                       out, _PLACEHOLDER.sub(lambda m: place.get(m.group(1), m.group(0)), after)))
    if not out.strip():  # e.g. ``other`` with no text: never an empty message
        out = _t(lang, "error.generic") or code
    return out
