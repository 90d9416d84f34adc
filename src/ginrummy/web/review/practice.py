"""A person's own past mistakes to practise (issue 20, "On the replay": "a list of a person's
own past mistakes to practise"; docs/api.md "Practice").

The list is made from what is stored already, nothing more: the browser's games (those it
created and the tables it joined, each from the seat it held: :mod:`ginrummy.web.tables.stats`
counts the same games) and the reviews made of them (:class:`ginrummy.store.ReviewStore`, at
the server's search budget). Every decision of the browser's own seat graded ``mistake`` or
``blunder`` in a review of a game or of a hand is one position to practise, once, newest
first. A review covers finished deals only, so nothing of a deal in play is ever in the list;
and no browser sees another's: the list is read for the asking browser's own games.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

__all__ = ["OwnGame", "PRACTISED", "PRACTICE_SHOWN", "practice_list"]

log = logging.getLogger("ginrummy.web")

#: the grades a position to practise has (docs/review.md "Grades and accuracy")
PRACTISED = ("mistake", "blunder")
#: the newest positions listed at most
PRACTICE_SHOWN = 100


@dataclass(frozen=True)
class OwnGame:
    """A game of the browser: its id, the seat it held, when it was played (its end, else its
    start: seconds since the epoch), its form (``scoring``) and rules preset."""

    game_id: str
    seat: int
    at: float
    scoring: str = "standard"
    preset: str = "standard"


def _move(m: Mapping[str, Any]) -> dict[str, Any]:
    return {"action": m.get("action"), "kind": m.get("kind"), "card": m.get("card")}


def _face_up(d: Mapping[str, Any]) -> str | None:
    """The face-up card a take, pass or pile draw is about, as the decision's hints name it
    (the upcard or the discard pile's top: public)."""
    for key in ("played_hint", "best_hint"):
        hint = d.get(key)
        if isinstance(hint, Mapping) and isinstance(hint.get("card"), str):
            return str(hint["card"])
    return None


def practice_list(games: Iterable[OwnGame], reviews: Iterable[tuple[str, str, str]],
                  shown: int = PRACTICE_SHOWN) -> dict[str, Any]:
    """The positions to practise: ``{"positions": [...], "total": n}``, the ``shown`` newest
    of ``total``. Pure.

    :param games: the browser's games (the seat it held in each).
    :param reviews: ``(game_id, scope, data)``: the reviews made of them (their JSON texts,
        ``ginrummy review --json``'s shape); one that cannot be read is left out (logged).
    :returns: per position ``{"game_id", "hand", "step", "seat", "grade", "kind", "played",
        "face_up", "drop", "drop_points", "scoring", "preset", "at"}``: the decision before
        the action at ``step`` of hand (deal) ``hand``, as the review's decision and its
        exercise (``.../hands/{hand}/exercises/{step}``) number it; ``played`` the move played
        (action, kind, card), not the best one (the exercise asks for it); ``face_up`` the card
        a take, pass or pile draw is about (an offer or draw decision; else None); newest game
        first, then its later hands and steps
        first.
    """
    own = {g.game_id: g for g in games}
    found: dict[tuple[str, int, int], dict[str, Any]] = {}
    for game_id, scope, data in reviews:
        g = own.get(game_id)
        if g is None:
            continue
        try:
            hands = json.loads(data)["hands"]
            mine = [(h, d) for h in hands for d in h["decisions"]
                    if d["seat"] == g.seat and d["grade"] in PRACTISED]
        except (ValueError, KeyError, TypeError):
            log.error("review %s of game %s cannot be read for practice", scope, game_id)
            continue
        for h, d in mine:
            key = (game_id, int(h["hand"]), int(d["step"]))
            found.setdefault(key, {
                "game_id": game_id, "hand": key[1], "step": key[2], "seat": g.seat,
                "grade": d["grade"], "kind": d["kind"], "played": _move(d["played"]),
                "face_up": _face_up(d) if d["kind"] in ("offer", "draw") else None,
                "drop": d["drop"], "drop_points": d["drop_points"], "scoring": g.scoring,
                "preset": g.preset, "at": g.at})
    positions = sorted(found.values(), key=lambda p: (-p["at"], p["game_id"], -p["hand"],
                                                      -p["step"]))
    return {"positions": positions[:shown], "total": len(positions)}
