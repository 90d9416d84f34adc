"""Request bodies of the JSON API (docs/api.md). Responses are plain dicts built by
:mod:`ginrummy.web.tables.state`."""

from __future__ import annotations

from typing import Any

from fastapi.responses import JSONResponse
from pydantic import BaseModel, ConfigDict, Field, StrictInt, model_validator

from ...errors import check_reason
from .encoding import JSONAnswer
from .messages import language, reason_text
from .text import Text, has_lone_surrogate, printable

__all__ = ["Body", "NewGame", "SeatIn", "JoinIn", "RejoinIn", "SeatPut", "MessageIn", "ActionIn",
           "TryIn", "OrderIn",
           "ErrorOut", "StaleOut", "MalformedOut", "HintOut", "ReasonOut", "error_response"]


def _check_texts(value: Any, depth: int = 0) -> None:
    """:class:`ValueError` if any text or key in the JSON ``value`` is not valid Unicode."""
    if isinstance(value, str):
        if has_lone_surrogate(value):
            raise ValueError("text must be valid Unicode (a lone surrogate such as \\ud800 is "
                             "not)")
    elif depth < 64 and isinstance(value, dict):
        for k, v in value.items():
            _check_texts(k, depth + 1)
            _check_texts(v, depth + 1)
    elif depth < 64 and isinstance(value, list):
        for v in value:
            _check_texts(v, depth + 1)


class Body(BaseModel):
    """A JSON request body: refused whole (422) if any text in it, a key or a value at any
    depth, even one the model ignores, is not valid Unicode (:mod:`ginrummy.web.http.text`)."""

    @model_validator(mode="before")
    @classmethod
    def _valid_unicode(cls, data: Any) -> Any:
        _check_texts(data)
        return data


class SeatIn(Body):
    """One seat of a new table (docs/tables.md): ``person`` (seat 0 only), ``computer`` at a
    level, or ``open``."""

    model_config = ConfigDict(extra="ignore")

    kind: Text = Field(max_length=16)
    level: Text | None = Field(default=None, max_length=64)


class NewGame(Body):
    """``POST /api/games``: level, rules preset and field overrides (all optional); with
    ``seats`` (and ``name``, ``turn_clock``) a table of people (docs/tables.md)."""

    model_config = ConfigDict(extra="ignore")

    level: Text | None = Field(default=None, max_length=64)
    preset: Text | None = Field(default=None, max_length=64)
    rules: dict[str, Any] | None = Field(default=None, max_length=40)
    scoring: Text | None = Field(default=None, max_length=32)  # docs/variants.md
    seats: list[SeatIn] | None = Field(default=None, max_length=4)
    name: Text | None = Field(default=None, max_length=200)
    turn_clock: StrictInt | None = Field(default=None, ge=0, le=10**6)


class JoinIn(Body):
    """``POST /api/invites/{code}/join``: the display name and, optionally, the seat."""

    model_config = ConfigDict(extra="ignore")

    name: Text = Field(max_length=200)
    seat: StrictInt | None = Field(default=None, ge=0, le=3)


class RejoinIn(Body):
    """``POST /api/games/{id}/rejoin``: the seat and its own link's code (``table.rejoin``)."""

    model_config = ConfigDict(extra="ignore")

    seat: StrictInt = Field(ge=0, le=3)
    code: Text = Field(max_length=64)


class SeatPut(Body):
    """``PUT /api/games/{id}/seats/{seat}``: ``computer`` (with a level), ``open`` or
    ``person``."""

    model_config = ConfigDict(extra="ignore")

    kind: Text = Field(max_length=16)
    level: Text | None = Field(default=None, max_length=64)


class MessageIn(Body):
    """``POST /api/games/{id}/messages``: one of the preset message codes."""

    model_config = ConfigDict(extra="ignore")

    message: Text = Field(max_length=32)


class ActionIn(Body):
    """``POST /api/games/{id}/actions``: an action text and the seq it was made on."""

    model_config = ConfigDict(extra="ignore")

    action: Text = Field(min_length=1, max_length=200)
    seq: StrictInt = Field(ge=0, le=10**9)


class TryIn(Body):
    """``POST /api/games/{id}/hands/{number}/exercises/{step}``: the move tried (an action
    text, as posted to play it)."""

    model_config = ConfigDict(extra="ignore")

    action: Text = Field(min_length=1, max_length=200)


class OrderIn(Body):
    """``PUT /api/games/{id}/order``: the person's own order of the hand's cards."""

    model_config = ConfigDict(extra="ignore")

    cards: list[Text] = Field(max_length=52)


# ------------------------------------------------------------ error answers (OpenAPI only)
class ReasonOut(BaseModel):
    """Why, as a stable code and its parameters (docs/api.md "Reasons"): what a page words in
    the person's language."""

    code: str
    params: dict[str, Any]


class ErrorDetail(BaseModel):
    code: str
    message: str
    reason: ReasonOut


class ErrorOut(BaseModel):
    """Every error of docs/api.md: ``{"detail": {"code", "message", "reason"}}``."""

    detail: ErrorDetail


class StaleOut(ErrorOut):
    """409 ``stale``: the current state comes with it."""

    state: dict[str, Any]


class MalformedOut(BaseModel):
    """422 for a body or parameter of the wrong shape: FastAPI's validation list, and its
    reason in words (a refused name's own, e.g. ``name_control``, else ``body_invalid``)."""

    detail: list[dict[str, Any]]
    message: str
    reason: ReasonOut


# ------------------------------------------------------------ hint answer (OpenAPI only)
class HintAlternative(BaseModel):
    """The face-up card not taken, and what taking it would have given."""

    kind: str
    card: str
    deadwood_after: int
    then_discard: str | None


class HintComparison(BaseModel):
    """A discard compared with the one leaving the least deadwood now."""

    card: str
    deadwood: int
    expected: float
    expected_other: float
    danger: float
    danger_other: float


class HintBody(BaseModel):
    """:meth:`ginrummy.bots.hints.Hint.to_json` (docs/api.md, "Hints")."""

    action: str
    kind: str
    card: str | None
    reason: str
    deadwood: int
    deadwood_after: int | None
    then_discard: str | None
    knock_limit: int
    alternative: HintAlternative | None
    comparison: HintComparison | None
    could_knock: int | None
    undercut_risk: float | None
    late_max: int | None
    danger: float | None = None
    #: the plain deadwood-count move, whether the search overrules it, and the search's
    #: estimates of both moves (``value_kind`` units; docs/api.md "Hints")
    plain: str | None = None
    overrules: bool = False
    value: float | None = None
    plain_value: float | None = None
    value_kind: str | None = None


class HintOut(BaseModel):
    """``GET /api/games/{id}/hint``: the hint for the state ``seq``, or ``hint: null`` with a
    ``reason`` code when the person is not to move."""

    seq: int
    hint: HintBody | None
    reason: str | None = None


def error_response(status: int, code: str, reason: str, params: dict[str, Any] | None = None,
                   **extra: Any) -> JSONResponse:
    """The API's error answer: ``{"detail": {"code", "message", "reason": {"code", "params"}},
    **extra}`` (:class:`ErrorOut`, docs/api.md): ``message`` is the reason worded in the
    request's language (:func:`ginrummy.web.http.messages.reason_text`), which ``Content-Language``
    names. Text quoting the request is made sendable (:func:`printable`).

    :raises ValueError: ``reason`` is not a code of :data:`ginrummy.errors.REASONS` with these
        parameters.
    """
    params = dict(params or {})
    check_reason(reason, params)
    lang = language()
    detail = {"code": code, "message": printable(reason_text(reason, params, lang)),
              "reason": {"code": reason, "params": printable(params)}}
    return JSONAnswer({"detail": detail, **extra}, status_code=status,
                        headers={"Content-Language": lang, "Vary": "Accept-Language, Cookie"})


def documented(*statuses: int) -> dict[int | str, dict[str, Any]]:
    """OpenAPI ``responses`` of a game route: its error answers (docs/api.md)."""
    what = {404: (ErrorOut, "no such game, or not this token's"),
            409: (StaleOut, "stale seq: the current state is attached"),
            413: (ErrorOut, "body too large"),
            422: (ErrorOut | MalformedOut, "invalid, illegal, or a malformed body"),
            429: (ErrorOut, "rate limited (header Retry-After)")}
    return {s: {"model": what[s][0], "description": what[s][1]} for s in statuses}
