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
from fastapi.responses import HTMLResponse, JSONResponse, Response

from ..records import HandRecord
from ..replay import replay_hand
from .schemas import ErrorOut
from .service import GameService
from .state import YOU

__all__ = ["install_replay"]


def _error(status: int, code: str, message: str) -> JSONResponse:
    return JSONResponse({"detail": {"code": code, "message": message}}, status_code=status)


def _finished_deal(service: GameService, game_id: str, token: str | None, number: int
                   ) -> dict[str, Any] | JSONResponse:
    """Under the game's lock: the record of deal ``number`` if it is over, with who sat where;
    else the error answer. :raises NotFound: unknown game or wrong token (404)."""
    with service._lock(game_id):
        variant = service.variants.owns(game_id)
        table = service.variants if variant else service
        row = table._authorize(game_id, token)
        if variant:
            m = service.variants._load(row).match
            deals, infos, scoring = m.deals, [s.number for s in m.seatings], m.scoring
            seatings: list[Any] = list(m.seatings)
        else:
            g = service._load(row).game
            deals, infos, scoring = g.deals, list(range(1, len(g.deals) + 1)), "standard"
            seatings = []
        finished = [n for n, h in zip(infos, deals, strict=True) if h.is_over]
        if number not in infos:
            return _error(404, "not_found", f"no hand {number} in this game")
        i = infos.index(number)
        h = deals[i]
        if not h.is_over:
            return _error(409, "hand_in_play", f"hand {number} is still being played: it can "
                                               "be replayed once it is over")
        record = HandRecord.of(h)  # copies: a finished deal never changes
        out: dict[str, Any] = {"game_id": game_id, "number": number, "scoring": scoring,
                               "level": row.level, "preset": row.preset,
                               "finished_hands": finished}
        if seatings:
            s = seatings[i]
            out.update(hand=s.hand, table=s.table, players=list(s.players),
                       you=s.seat_of(0))
        else:
            out.update(hand=number, table=0, players=[0, 1], you=YOU)
        out["record"] = record
        return out


def install_replay(app: FastAPI, service: GameService, *,
                   page: Callable[[Request, str | None, str, str], Response],
                   bearer: Callable[[str | None], str | None]) -> None:
    """Add the ``/replay`` page and the replay endpoint to ``app`` (helpers passed by
    :mod:`ginrummy.web.app`: ``page(request, lang, file, missing)`` serves a page of the front
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
        got = _finished_deal(service, game_id, bearer(authorization), number)
        if isinstance(got, JSONResponse):
            return got
        record: HandRecord = got.pop("record")
        replay = replay_hand(record.rules, record.dealer, record.deck, record.actions)
        return JSONResponse({**got, **replay.to_json()})
