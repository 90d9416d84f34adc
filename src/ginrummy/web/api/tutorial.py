"""The interactive tutorial for first-time players: the ``/tutorial`` page and
``GET /api/tutorial``, the lessons' fixed hands with every answer worked out by the engine
(melds R-1.3, deadwood R-1.2/R-1.5, the draw and the discard R-1.6/R-3.6, knock and gin R-4.2/R-4.6,
layoffs and the undercut R-6.x/R-7.x), so that the page holds no rules: it only compares what the
person clicked with these answers (``static/tutorial_model.js``).
"""

from __future__ import annotations

from collections.abc import Callable
from functools import lru_cache
from typing import Any

from fastapi import FastAPI, Query, Request
from fastapi.responses import HTMLResponse, JSONResponse, Response

from ...cards import CardSet
from ...melds import (
    all_arrangements,
    best_arrangement,
    evaluate_discards,
    is_meld,
    melds_in,
    min_deadwood,
)
from ...rules import Rules
from ...scoring import score_showdown
from ..http.encoding import JSONAnswer

__all__ = ["LESSON_HANDS", "install_tutorial", "lessons"]

#: The fixed hands of the lessons (card text, see :mod:`ginrummy.cards`).
LESSON_HANDS: dict[str, Any] = {
    "set": "8S 8H 8D 5C 6C 7C KD",
    "run": "QH KH AH 2H 3H 9S 9C",
    "deadwood": "3S 4S 5S 8H 8D 8C KH AD 6C 2C",
    "turn": {"hand": "5H 6H 9S 9C 9D 2D 3D KC QS 4C", "upcard": "7H"},
    "knock": "AS 2S 3S 8C 8D 8H 5H 6H 7H JC QC",  # RULES.md T-4b
    "layoff": {"knocker": "3S 4S 5S 9H 9D 9C JD QD KD 4H",  # RULES.md T-5
               "defender": "6S 7S QC QH QS 4C 5C 6C AC 2D"},
}


def _melds(hand: CardSet) -> list[dict[str, Any]]:
    """Every meld in ``hand`` with its kind (R-1.3)."""
    out = []
    for m in melds_in(hand.mask):
        cs = CardSet(m)
        ranks = {c % 13 for c in cs}
        out.append({"cards": cs.texts(), "kind": "set" if len(ranks) == 1 else "run"})
    return out


@lru_cache(maxsize=1)
def lessons() -> dict[str, Any]:
    """The lessons' hands and answers (standard rules), as served by ``GET /api/tutorial``."""
    rules = Rules.preset("standard")
    out: dict[str, Any] = {"rules": {"knock_limit": rules.knock_limit,
                                     "gin_bonus": rules.gin_bonus,
                                     "undercut_bonus": rules.undercut_bonus}}
    for key in ("set", "run"):
        hand = CardSet.parse(LESSON_HANDS[key])
        out[key] = {"hand": LESSON_HANDS[key].split(), "melds": _melds(hand)}

    # deadwood: every arrangement of minimum deadwood (R-1.5) is a right answer
    text = LESSON_HANDS["deadwood"]
    hand = CardSet.parse(text)
    best = best_arrangement(hand)
    out["deadwood"] = {
        "hand": text.split(), "melds": [m.texts() for m in best.melds],
        "deadwood_points": best.deadwood_points,
        "deadwood_options": [a.deadwood.texts()
                             for a in all_arrangements(hand, best.deadwood_points)
                             if a.deadwood_points == best.deadwood_points],
    }

    # a turn: the upcard against the stock, then each legal discard (R-1.6, R-3.6)
    turn = LESSON_HANDS["turn"]
    hand = CardSet.parse(turn["hand"])
    up = CardSet.parse(turn["upcard"])
    options = evaluate_discards(hand | up, forbidden=up)
    out["turn"] = {
        "hand": turn["hand"].split(), "upcard": turn["upcard"],
        "melds": [m.texts() for m in best_arrangement(hand).melds],
        "deadwood_points": min_deadwood(hand),
        "upcard_melds": [CardSet(m).texts() for m in melds_in((hand | up).mask)
                         if m & up.mask],
        "discards": {o.discard: o.deadwood_points for o in options},
        "best_after": options[0].deadwood_points,
        "forbidden": turn["upcard"],
    }

    # knock or gin: the best discard of 11 cards (R-1.6), then the limit (R-4.2) and gin (R-4.6)
    text = LESSON_HANDS["knock"]
    options = evaluate_discards(CardSet.parse(text))
    first = options[0]
    dw = first.deadwood_points
    out["knock"] = {
        "hand": text.split(), "discard": first.discard,
        "melds": [m.texts() for m in first.arrangement.melds],
        "deadwood": first.arrangement.deadwood.texts(), "deadwood_points": dw,
        "answer": "gin" if dw == 0 else "knock" if dw <= rules.knock_limit else "discard",
    }

    # layoffs and the undercut (R-6.1..R-6.5, R-7.4)
    lay = LESSON_HANDS["layoff"]
    spread = best_arrangement(lay["knocker"])
    defender = CardSet.parse(lay["defender"])
    show = score_showdown(rules, spread, defender)
    own = best_arrangement(defender)
    layable = {c for c in lay["defender"].split()
               if any(is_meld(m | CardSet.parse(c)) for m in spread.melds)}
    out["layoff"] = {
        "knocker": {"melds": [m.texts() for m in spread.melds],
                    "deadwood": spread.deadwood.texts(),
                    "deadwood_points": spread.deadwood_points},
        "defender": lay["defender"].split(),
        "defender_melds": [m.texts() for m in own.melds],
        "defender_deadwood_before": own.deadwood_points,
        "layoffs": [x.card for x in show.defender.layoffs],
        "layoffs_onto": [x.onto for x in show.defender.layoffs],
        "fits_directly": sorted(layable),
        "defender_deadwood": show.defender_deadwood_points,
        "kind": show.kind, "winner": show.winner, "points": show.points,
    }
    return out


def install_tutorial(app: FastAPI, page: Callable[[Request, str | None, str, str], Response]
                     ) -> None:
    """Add ``/tutorial`` and ``GET /api/tutorial`` to ``app`` (``page(request, lang, file,
    missing)`` serves a page of the front end in the person's language, see
    :mod:`ginrummy.web.http.app`)."""

    @app.get("/tutorial", response_class=HTMLResponse)
    def tutorial_page(request: Request, lang: str | None = Query(default=None)) -> Response:
        return page(request, lang, "tutorial.html", "The tutorial is not installed.")

    @app.get("/api/tutorial", include_in_schema=False)
    def tutorial_lessons() -> JSONResponse:
        return JSONAnswer(lessons())
