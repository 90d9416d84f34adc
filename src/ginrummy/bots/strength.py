"""The computer players' measured ratings, as shipped in the package (``bots/ratings.json``).

The file is written by ``benchmarks/ratings.py`` from a round robin of every player (fitted by
:func:`ginrummy.rating.fit_round_robin`: the Elo scale, ``simple`` = 1500; the measurement is in
``benchmarks/results/ratings-<date>.md``); it is re-fitted by that one command whenever a bot
changes. The web game shows the levels' ratings in its level menu and rates a person's games
against the computer with them held fixed.
"""

from __future__ import annotations

import json
from functools import cache
from importlib import resources
from typing import Any

from ..rating import FittedRating, Glicko

__all__ = ["level_ratings", "ratings_file", "as_opponent"]


@cache
def ratings_file() -> dict[str, Any]:
    """The parsed ``ratings.json`` (``{"fitted", "anchor", "rules", "games_per_pair",
    "ratings": {name: {"rating", "se", "low", "high"}}, ...}``), or ``{}`` when the package has
    none (the levels are then shown and rated without ratings)."""
    try:
        text = resources.files("ginrummy.bots").joinpath("ratings.json").read_text("utf-8")
    except (FileNotFoundError, OSError):
        return {}
    data = json.loads(text)
    return data if isinstance(data, dict) else {}


def level_ratings() -> dict[str, FittedRating]:
    """Every measured player's rating (points, Elo scale) and standard error, by name."""
    out = {}
    for name, r in (ratings_file().get("ratings") or {}).items():
        out[name] = FittedRating(name, float(r["rating"]), float(r["se"]))
    return out


def as_opponent(r: FittedRating) -> Glicko:
    """A computer player as a Glicko-2 opponent: its fitted rating, its standard error as the
    rating deviation (it is not updated by a person's games)."""
    return Glicko(r.rating, r.se)
