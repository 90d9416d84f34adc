"""The routes of a game (docs/api.md "Endpoints"): create one (a person against the computer,
or a table of people), read its state, act, resign, keep the hand order, ask for a hint, read
its fairness record. The table service (:class:`~ginrummy.web.tables.service.TableService`)
does the work; the routes translate JSON to its calls.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from fastapi import FastAPI, Header, Query, Request
from fastapi.responses import Response

from ...errors import RulesError
from ...rules import check_new_target
from ..http.encoding import JSONAnswer
from ..http.errors import from_engine
from ..http.schemas import (
    ActionIn,
    ErrorOut,
    HintOut,
    NewGame,
    OrderIn,
    documented,
    error_response,
)
from ..http.workers import Workers
from ..tables.service import TableService

__all__ = ["install_games"]


def install_games(app: FastAPI, service: TableService, workers: Workers, *,
                  bearer: Callable[[str | None], str | None],
                  limited: Callable[[Request, str], Response | None]) -> None:
    """Add the game routes. ``workers``: the threads of the hot paths (a state, an action);
    ``bearer(authorization)`` reads the token; ``limited(request, reason)``: the 429 answer when
    the client made too many games, else None."""

    @app.post("/api/games", status_code=201, responses=documented(413, 422, 429))
    def new_game(body: NewGame, request: Request) -> Response:
        refused = limited(request, "too_many_games")
        if refused is not None:
            return refused
        try:
            check_new_target((body.rules or {}).get("target"))  # presets are all below
        except RulesError as e:
            return error_response(422, "rules", *from_engine(e))
        seats = None if body.seats is None else [s.model_dump() for s in body.seats]
        made = service.create(request.state.player_id, body.level, body.preset, body.rules,
                              body.scoring, seats=seats, name=body.name,
                              turn_clock=body.turn_clock)
        if body.seats is None and body.name is None and body.turn_clock is None:
            out = {k: made[k] for k in ("game_id", "token", "state")}  # as before tables
        else:
            out = made
        return JSONAnswer(out, status_code=201)

    # The state is plain JSON already: returned as a JSONResponse it is not validated and
    # re-serialised as a dict (one threadpool trip less per answer); response_model keeps the
    # OpenAPI schema as it was.
    @app.get("/api/games/{game_id}", response_model=dict[str, Any],
             responses=documented(404, 422, 429))
    async def get_game(game_id: str, since: int | None = Query(default=None),
                       authorization: str | None = Header(default=None)) -> Response:
        return JSONAnswer(await workers.call(service.get, game_id, bearer(authorization),
                                               since))

    @app.post("/api/games/{game_id}/actions", response_model=dict[str, Any],
              responses=documented(404, 409, 413, 422, 429))
    async def post_action(game_id: str, body: ActionIn,
                          authorization: str | None = Header(default=None)) -> Response:
        state, _duplicate = await workers.call(service.act, game_id, bearer(authorization),
                                               body.action, body.seq)
        return JSONAnswer(state)

    @app.post("/api/games/{game_id}/resign", response_model=dict[str, Any], responses={
        **documented(404, 422, 429),
        409: {"model": ErrorOut, "description": "the game is over (game_over) or has people "
                                                 "at it (people: leave the table instead)"}})
    def resign(game_id: str, authorization: str | None = Header(default=None)) -> Response:
        """Give up the game in play against the computer: it is over and counts as lost
        (docs/api.md)."""
        return JSONAnswer(service.resign(game_id, bearer(authorization)))

    @app.put("/api/games/{game_id}/order", responses=documented(404, 413, 422, 429))
    def put_order(game_id: str, body: OrderIn,
                  authorization: str | None = Header(default=None)) -> dict[str, Any]:
        service.set_order(game_id, bearer(authorization), body.cards)
        return {"ok": True}

    @app.get("/api/games/{game_id}/hint", response_model=HintOut,
             responses=documented(404, 422, 429))
    def get_hint(game_id: str, authorization: str | None = Header(default=None)) -> Response:
        """The suggested move for the person, explained; changes nothing (docs/api.md)."""
        return JSONAnswer(service.hint(game_id, bearer(authorization)))

    @app.get("/api/games/{game_id}/record", responses={
        **documented(404, 422, 429),
        409: {"model": ErrorOut, "description": "the table has not started (not_started)"}})
    def get_record(game_id: str,
                   authorization: str | None = Header(default=None)) -> dict[str, Any]:
        return service.record(game_id, bearer(authorization))
