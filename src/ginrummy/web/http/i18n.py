"""Language negotiation for the web game: en, id, ms, jv (default en).

Order of precedence: an explicit ``?lang=`` (pages), the ``lang`` cookie, then the browser's
``Accept-Language`` header negotiated with Babel.

>>> negotiate("id-ID,id;q=0.9,en-US;q=0.8")
'id'
>>> negotiate("fr-FR, ms;q=0.5")
'ms'
>>> negotiate("de", cookie="jv")
'jv'
>>> negotiate(None)
'en'
"""

from __future__ import annotations

from typing import Final

from babel import negotiate_locale

__all__ = ["LANGUAGES", "DEFAULT_LANGUAGE", "LANGUAGE_NAMES", "negotiate", "parse_accept_language",
           "valid_language"]

LANGUAGES: Final = ("en", "id", "ms", "jv")
DEFAULT_LANGUAGE: Final = "en"
#: each language's name in itself (for switchers).
LANGUAGE_NAMES: Final = {
    "en": "English", "id": "Bahasa Indonesia", "ms": "Bahasa Melayu", "jv": "Basa Jawa",
}


def valid_language(code: str | None) -> str | None:
    """``code`` normalised if it is one of :data:`LANGUAGES`, else None."""
    if not code or not isinstance(code, str):
        return None
    c = code.strip().lower()
    return c if c in LANGUAGES else None


def parse_accept_language(header: str | None) -> list[str]:
    """The language tags of an ``Accept-Language`` header, most preferred first (q=0 dropped).

    >>> parse_accept_language("en;q=0.5, id-ID, ms;q=0")
    ['id-ID', 'en']
    """
    if not header:
        return []
    items: list[tuple[float, int, str]] = []
    for i, part in enumerate(header[:1000].split(",")):
        bits = part.strip().split(";")
        tag = bits[0].strip()
        if not tag or tag == "*" or len(tag) > 35:
            continue
        q = 1.0
        for b in bits[1:]:
            k, _, v = b.strip().partition("=")
            if k.strip().lower() == "q":
                try:
                    q = float(v)
                except ValueError:
                    q = 0.0
        if q > 0:
            items.append((-q, i, tag))
    items.sort()
    return [t for _, _, t in items]


def negotiate(accept_language: str | None, cookie: str | None = None,
              query: str | None = None) -> str:
    """The language to use (see the module docstring)."""
    for explicit in (query, cookie):
        v = valid_language(explicit)
        if v:
            return v
    preferred = parse_accept_language(accept_language)
    if preferred:
        got = negotiate_locale(preferred, list(LANGUAGES), sep="-")
        if got:
            return got.split("-")[0].lower()
        # Babel's aliases may not know the bare language with a region separator we use.
        for tag in preferred:
            v = valid_language(tag.replace("_", "-").split("-")[0])
            if v:
                return v
    return DEFAULT_LANGUAGE
