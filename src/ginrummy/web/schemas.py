"""Request bodies of the JSON API (docs/api.md). Responses are plain dicts built by
:mod:`ginrummy.web.state`."""

from __future__ import annotations

from typing import Any

from fastapi.responses import JSONResponse
from pydantic import BaseModel, ConfigDict, Field, StrictInt

__all__ = ["NewGame", "SeatIn", "JoinIn", "SeatPut", "MessageIn", "ActionIn", "OrderIn",
           "ErrorOut", "StaleOut", "MalformedOut", "HintOut"]


class SeatIn(BaseModel):
    """One seat of a new table (docs/tables.md): ``person`` (seat 0 only), ``computer`` at a
    level, or ``open``."""

    model_config = ConfigDict(extra="ignore")

    kind: str = Field(max_length=16)
    level: str | None = Field(default=None, max_length=64)


class NewGame(BaseModel):
    """``POST /api/games``: level, rules preset and field overrides (all optional); with
    ``seats`` (and ``name``, ``turn_clock``) a table of people (docs/tables.md)."""

    model_config = ConfigDict(extra="ignore")

    level: str | None = Field(default=None, max_length=64)
    preset: str | None = Field(default=None, max_length=64)
    rules: dict[str, Any] | None = Field(default=None, max_length=40)
    scoring: str | None = Field(default=None, max_length=32)  # docs/variants.md
    seats: list[SeatIn] | None = Field(default=None, max_length=4)
    name: str | None = Field(default=None, max_length=200)
    turn_clock: StrictInt | None = Field(default=None, ge=0, le=10**6)


class JoinIn(BaseModel):
    """``POST /api/invites/{code}/join``: the display name and, optionally, the seat."""

    model_config = ConfigDict(extra="ignore")

    name: str = Field(max_length=200)
    seat: StrictInt | None = Field(default=None, ge=0, le=3)


class SeatPut(BaseModel):
    """``PUT /api/games/{id}/seats/{seat}``: ``computer`` (with a level), ``open`` or
    ``person``."""

    model_config = ConfigDict(extra="ignore")

    kind: str = Field(max_length=16)
    level: str | None = Field(default=None, max_length=64)


class MessageIn(BaseModel):
    """``POST /api/games/{id}/messages``: one of the preset message codes."""

    model_config = ConfigDict(extra="ignore")

    message: str = Field(max_length=32)


class ActionIn(BaseModel):
    """``POST /api/games/{id}/actions``: an action text and the seq it was made on."""

    model_config = ConfigDict(extra="ignore")

    action: str = Field(min_length=1, max_length=200)
    seq: StrictInt = Field(ge=0, le=10**9)


class OrderIn(BaseModel):
    """``PUT /api/games/{id}/order``: the person's own order of the hand's cards."""

    model_config = ConfigDict(extra="ignore")

    cards: list[str] = Field(max_length=52)


# ------------------------------------------------------------ error answers (OpenAPI only)
class ErrorDetail(BaseModel):
    code: str
    message: str


class ErrorOut(BaseModel):
    """Every error of docs/api.md: ``{"detail": {"code", "message"}}``."""

    detail: ErrorDetail


class StaleOut(ErrorOut):
    """409 ``stale``: the current state comes with it."""

    state: dict[str, Any]


class MalformedOut(BaseModel):
    """422 for a body or parameter of the wrong shape: FastAPI's validation list."""

    detail: list[dict[str, Any]]


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


class HintOut(BaseModel):
    """``GET /api/games/{id}/hint``: the hint for the state ``seq``, or ``hint: null`` with a
    ``reason`` code when the person is not to move."""

    seq: int
    hint: HintBody | None
    reason: str | None = None


def error_response(status: int, code: str, message: str, **extra: Any) -> JSONResponse:
    """The API's error answer: ``{"detail": {"code", "message"}, **extra}`` (:class:`ErrorOut`,
    docs/api.md)."""
    return JSONResponse({"detail": {"code": code, "message": message}, **extra},
                        status_code=status)
