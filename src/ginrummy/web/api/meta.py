"""``GET /api/meta`` (docs/api.md, docs/variants.md): what the page's menus offer: the rules
presets and fields, the computer levels and their ratings, the languages, and the forms of the
game (the scorings with their players and the fields each fixes, and when each rules field
matters)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import fields
from typing import Any

from fastapi import FastAPI, Request

from ... import __version__
from ... import rules as rules_module
from ...bots import DEFAULT_LEVEL, LEVELS
from ...bots.strength import level_ratings
from ...rules import FIELD_CHOICES, NEW_TARGET_MAX, PRESETS, Rules
from ...variants import FIELD_REQUIRES, PLAYER_COUNT, SCORING_FIXED, SCORING_PRESET, SCORINGS
from ..http.i18n import LANGUAGE_NAMES, LANGUAGES
from ..http.schemas import documented

__all__ = ["install_meta", "menu_meta", "rules_fields"]


def menu_meta() -> dict[str, Any]:
    """What ``GET /api/meta`` adds for the new-game menu: the scorings (with the players of
    each and the fields each fixes) and when each field matters
    (:data:`ginrummy.variants.FIELD_REQUIRES`; the page applies them as
    :func:`ginrummy.variants.constrain` does)."""
    return {
        "scorings": [{"name": s, "players": PLAYER_COUNT[s], "fixed": dict(SCORING_FIXED[s]),
                      **({"preset": SCORING_PRESET[s]} if s in SCORING_PRESET else {})}
                     for s in SCORINGS],
        "requires": {k: [dict(c) for c in v] for k, v in FIELD_REQUIRES.items()},
        "defaults": Rules().to_dict(),
    }


def rules_fields() -> list[dict[str, Any]]:
    ranges: dict[str, tuple[int, int]] = getattr(rules_module, "_RANGES", {})
    out: list[dict[str, Any]] = []
    for f in fields(Rules):
        if f.name in FIELD_CHOICES:
            out.append({"name": f.name, "type": "choice", "choices": list(FIELD_CHOICES[f.name])})
        elif isinstance(getattr(PRESETS["standard"], f.name), bool):
            out.append({"name": f.name, "type": "bool"})
        else:
            d: dict[str, Any] = {"name": f.name, "type": "int"}
            if f.name in ranges:
                d["min"], d["max"] = ranges[f.name]
            if f.name == "target":
                d["max"] = min(d["max"], NEW_TARGET_MAX)  # what a new table may choose
            if f.name == "big_gin_bonus":
                d["nullable"] = True  # null = big gin not played
            out.append(d)
    return out


def install_meta(app: FastAPI, *, language: Callable[[Request], str]) -> None:
    """Add ``GET /api/meta``; ``language(request)``: the language negotiated for a request."""

    @app.get("/api/meta", responses=documented(429))
    def meta(request: Request) -> dict[str, Any]:
        return {
            "presets": {name: r.to_dict() for name, r in PRESETS.items()},
            "fields": rules_fields(),
            "levels": list(LEVELS),
            "level_ratings": {k: round(v.rating, 1) for k, v in level_ratings().items()
                              if k in LEVELS},
            "default_level": DEFAULT_LEVEL,
            "languages": list(LANGUAGES),
            "language_names": dict(LANGUAGE_NAMES),
            "language": language(request),
            "version": __version__,
            **menu_meta(),  # scorings and field dependencies (docs/variants.md)
        }
