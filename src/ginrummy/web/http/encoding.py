"""The JSON of the web game's answers and live messages, encoded with orjson (about ten times
faster than the standard library's ``json``: a table's state is encoded once per answer and once
per live message).

- :func:`dumps`: compact UTF-8 JSON bytes; ``NaN`` and the infinities become ``null`` (JSON has
  none); a value orjson cannot encode (an integer beyond 64 bits, a key that is not a string, a
  number or a boolean) falls back to the standard library, as before.
- :class:`JSONAnswer`: Starlette's ``JSONResponse`` rendered with :func:`dumps` (the app's
  default answer class).
"""

from __future__ import annotations

import json
from typing import Any

import orjson
from fastapi.responses import JSONResponse

__all__ = ["JSONAnswer", "dumps"]

_OPTIONS = orjson.OPT_NON_STR_KEYS


def dumps(obj: Any) -> bytes:
    """``obj`` as compact UTF-8 JSON bytes (keys in their order, no spaces).

    :raises TypeError: a value JSON cannot carry (as ``json.dumps``).
    :raises ValueError: text that is not valid Unicode (a lone surrogate).
    """
    try:
        return orjson.dumps(obj, option=_OPTIONS)
    except orjson.JSONEncodeError:
        # the standard library tells the two apart (a lone surrogate cannot be UTF-8 at all)
        return json.dumps(obj, ensure_ascii=False, allow_nan=False,
                          separators=(",", ":")).encode("utf-8")


class JSONAnswer(JSONResponse):
    """A JSON answer encoded with :func:`dumps` (``application/json``)."""

    def render(self, content: Any) -> bytes:
        return dumps(content)
