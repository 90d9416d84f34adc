"""The review's endpoints (issue 20, docs/api.md "Review"): the review of a finished game and
of a finished hand, and the "try again" exercise of a graded decision with its answer, for
games of every form (two players, Hollywood, three players, partnership). The
reviews are made by :class:`ginrummy.web.review.reviews.Reviews` (its pool, its store): a review not
made yet is answered 202 with its progress and ``Retry-After`` (ask again), a full pool 503
``busy`` with ``Retry-After``. Same ownership as every game endpoint: the game's bearer token,
else 404. And the practice of a person's own past mistakes (``/api/practice``, the ``/practice``
page): the list of the browser's mistakes and blunders in the reviews made of its games, each
position offered again as the same exercise, for the browser (its ``ginrummy_player`` cookie)
that held that seat.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from fastapi import FastAPI, Header, Query, Request
from fastapi.responses import HTMLResponse, Response

from ..http.encoding import JSONAnswer, dumps
from ..http.errors import Unavailable
from ..http.schemas import ErrorOut, TryIn, error_response
from ..review.reviews import Busy, Pending, Ready, Reviews

__all__ = ["install_review", "POLL_SECONDS"]

#: ``Retry-After`` of a review being made: when to ask again (seconds)
POLL_SECONDS = 1

_ERRORS: dict[int | str, dict[str, Any]] = {
    202: {"description": "being made: {status, progress: {done, total}}; ask again after "
                         "Retry-After"},
    404: {"model": ErrorOut, "description": "no such game, hand or decision, or not this "
                                            "token's"},
    409: {"model": ErrorOut, "description": "the game or hand is in play (game_in_play, "
                                            "hand_in_play), or not started"},
    422: {"description": "a number that is not an integer; a move that cannot be read or is "
                         "not legal there"},
    429: {"model": ErrorOut, "description": "rate limited (header Retry-After)"},
    500: {"model": ErrorOut, "description": "the review failed (review_failed)"},
    503: {"model": ErrorOut, "description": "too many reviews being made (busy, header "
                                            "Retry-After)"},
}


def _answer(head: dict[str, Any], got: Ready | Pending, key: str) -> Response:
    """200 with ``head`` and the stored JSON text under ``key`` (not parsed again), with
    ``checking`` (the checked review's ``{status, progress}``) and ``Retry-After`` while the
    search's review stands for the checked one; or 202 with ``head`` and the progress."""
    if isinstance(got, Ready):
        if got.checking is not None:
            head = {**head, "checking": got.checking.to_json()}
        body = dumps(head)[:-1] + b',"' + key.encode() + b'":' + got.data.encode("utf-8") + b"}"
        if got.checking is not None:
            return Response(body, media_type="application/json",
                            headers={"Retry-After": str(POLL_SECONDS)})
        return Response(body, media_type="application/json")
    return JSONAnswer({**head, **got.to_json()}, status_code=202,
                      headers={"Retry-After": str(POLL_SECONDS)})


def _refused(e: Unavailable) -> Response:
    resp = error_response(e.status, e.code, e.reason, e.params)
    if isinstance(e, Busy):
        resp.headers["Retry-After"] = str(e.seconds)
    return resp


def install_review(app: FastAPI, reviews: Reviews, *,
                   bearer: Callable[[str | None], str | None],
                   page: Callable[[Request, str | None, str, str], Response] | None = None
                   ) -> None:
    """Add the review's endpoints to ``app`` (``bearer(authorization)`` reads the token) and,
    given ``page(request, lang, file, missing)`` (serves a page of the front end), the
    ``/review`` page."""

    if page is not None:
        serve = page

        @app.get("/review", response_class=HTMLResponse)
        def review_page(request: Request, lang: str | None = Query(default=None)) -> Response:
            """The review page (issue 20): a game's or a hand's review, drawn from the API."""
            return serve(request, lang, "review.html", "The review page is not installed.")

        @app.get("/practice", response_class=HTMLResponse)
        def practice_page(request: Request, lang: str | None = Query(default=None)
                          ) -> Response:
            """The browser's own past mistakes to practise (issue 20), from ``/api/practice``."""
            return serve(request, lang, "practice.html", "The practice page is not installed.")

    def _tried(game_id: str, seat: int, number: int, step: int, got: Any) -> Response:
        """A tried move's answer: the stored comparison as it is, else its progress."""
        if isinstance(got, Ready):
            return Response(got.data.encode("utf-8"), media_type="application/json")
        return _answer({"game_id": game_id, "you": seat, "hand": number, "step": step}, got,
                       "tried")

    @app.get("/api/practice", response_model=dict[str, Any], responses={429: _ERRORS[429]})
    def practice(request: Request) -> Response:
        """The browser's mistakes and blunders to practise (docs/api.md "Practice")."""
        return JSONAnswer(reviews.practice(request.state.player_id))

    @app.get("/api/practice/{game_id}/hands/{number}/exercises/{step}",
             response_model=dict[str, Any], responses=_ERRORS)
    def practice_exercise(request: Request, game_id: str, number: int, step: int
                          ) -> Response:
        """Try again at a position of the browser's own game (docs/api.md "Practice")."""
        try:
            return JSONAnswer(reviews.practice_exercise(game_id, request.state.player_id,
                                                        number, step))
        except Unavailable as e:
            return _refused(e)

    @app.post("/api/practice/{game_id}/hands/{number}/exercises/{step}",
              response_model=dict[str, Any], responses={**_ERRORS, 413: {
                  "model": ErrorOut, "description": "body too large"}})
    def practice_answer(request: Request, game_id: str, number: int, step: int, body: TryIn
                        ) -> Response:
        """How a move tried there compares (docs/api.md "Practice"); changes nothing."""
        try:
            seat, got = reviews.practice_answer(game_id, request.state.player_id, number,
                                                step, body.action)
        except Unavailable as e:
            return _refused(e)
        return _tried(game_id, seat, number, step, got)

    @app.get("/api/games/{game_id}/review", response_model=dict[str, Any], responses=_ERRORS)
    def game_review(game_id: str, authorization: str | None = Header(default=None)
                    ) -> Response:
        """The review of the whole game once it is over (docs/api.md "Review")."""
        try:
            seat, got = reviews.game(game_id, bearer(authorization))
        except Unavailable as e:
            return _refused(e)
        return _answer({"game_id": game_id, "you": seat}, got, "review")

    @app.get("/api/games/{game_id}/hands/{number}/review", response_model=dict[str, Any],
             responses=_ERRORS)
    def hand_review(game_id: str, number: int,
                    authorization: str | None = Header(default=None)) -> Response:
        """The review of a finished hand (docs/api.md "Review")."""
        try:
            seat, got = reviews.hand(game_id, bearer(authorization), number)
        except Unavailable as e:
            return _refused(e)
        return _answer({"game_id": game_id, "you": seat, "hand": number}, got, "review")

    @app.get("/api/games/{game_id}/hands/{number}/exercises/{step}",
             response_model=dict[str, Any], responses=_ERRORS)
    def exercise(game_id: str, number: int, step: int,
                 authorization: str | None = Header(default=None)) -> Response:
        """Try again: a graded decision's position as its seat saw it (docs/api.md)."""
        try:
            return JSONAnswer(reviews.exercise(game_id, bearer(authorization), number, step))
        except Unavailable as e:
            return _refused(e)

    @app.post("/api/games/{game_id}/hands/{number}/exercises/{step}",
              response_model=dict[str, Any], responses={**_ERRORS, 413: {
                  "model": ErrorOut, "description": "body too large"}})
    def exercise_answer(game_id: str, number: int, step: int, body: TryIn,
                        authorization: str | None = Header(default=None)) -> Response:
        """How a move tried there compares (docs/api.md "Review"); changes nothing."""
        try:
            seat, got = reviews.answer(game_id, bearer(authorization), number, step,
                                       body.action)
        except Unavailable as e:
            return _refused(e)
        return _tried(game_id, seat, number, step, got)
