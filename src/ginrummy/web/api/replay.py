"""Hand replay on the web (docs/api.md, "Hand replay"): the ``/replay`` page and
``GET /api/games/{game_id}/hands/{number}/replay``.

A finished deal is shown face up, step by step (:mod:`ginrummy.replay`): everything in it is
revealed anyway once it is over (docs/fairness.md: its deck and the actions are in the game's
record). A deal in play is NEVER answered (409, with nothing of the deal): its stock order and
the opponent's hand are hidden information (DESIGN.md principle 6). Same ownership as the other
game endpoints: the game's bearer token, else 404. Standard games and the variant tables
(Hollywood, three players, partnership) alike: every deal of a variant table is a plain two-seat
deal; the answer says which players sat at its seats.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from fastapi import FastAPI, Header, Query, Request
from fastapi.responses import HTMLResponse, Response

from ...replay import replay_hand
from ..http.encoding import JSONAnswer
from ..http.errors import Unavailable
from ..http.schemas import ErrorOut, error_response
from ..tables.service import TableService

__all__ = ["install_replay"]


def install_replay(app: FastAPI, service: TableService, *,
                   page: Callable[[Request, str | None, str, str], Response],
                   bearer: Callable[[str | None], str | None]) -> None:
    """Add the ``/replay`` page and the replay endpoint to ``app`` (helpers passed by
    :mod:`ginrummy.web.http.app`: ``page(request, lang, file, missing)`` serves a page of the front
    end; ``bearer(authorization)`` reads the token)."""

    @app.get("/replay", response_class=HTMLResponse)
    def replay_page(request: Request, lang: str | None = Query(default=None)) -> Response:
        return page(request, lang, "replay.html", "The hand replay is not installed.")

    @app.get("/api/games/{game_id}/hands/{number}/replay", response_model=dict[str, Any],
             responses={404: {"model": ErrorOut,
                              "description": "no such game or hand, or not this token's"},
                        409: {"model": ErrorOut, "description": "the hand is still being played"},
                        422: {"description": "a hand number that is not an integer"},
                        429: {"model": ErrorOut,
                              "description": "rate limited (header Retry-After)"}})
    def hand_replay(game_id: str, number: int,
                    authorization: str | None = Header(default=None)) -> Response:
        """A finished hand face up, step by step, with its markers (docs/api.md)."""
        try:
            about, record = service.finished_deal(game_id, bearer(authorization), number)
        except Unavailable as e:
            return error_response(e.status, e.code, e.reason, e.params)
        replay = replay_hand(record.rules, record.dealer, record.deck, record.actions)
        return JSONAnswer({"game_id": game_id, **about, **replay.to_json()})
