"""The table service's refusals, turned into API answers by :mod:`ginrummy.web.http.app`
(docs/api.md, docs/tables.md).

Each carries a *reason*: a code of :data:`ginrummy.errors.REASONS` and its parameters, which the
answer gives as ``detail.reason`` (``{"code", "params"}``) and words as ``detail.message`` in the
request's language (:mod:`ginrummy.web.http.messages`)."""

from __future__ import annotations

from typing import Any

from ...errors import GinRummyError, check_reason

__all__ = ["NotFound", "BadRequest", "Illegal", "Unavailable", "Refused", "RateLimited", "Stale",
           "Reasoned", "from_engine", "text_reason"]


class Reasoned(Exception):
    """An error with a reason code (``reason``) and its parameters (``params``).

    :raises ValueError: the code is not in :data:`~ginrummy.errors.REASONS` or the parameters
        are not its own.
    """

    def __init__(self, reason: str, params: dict[str, Any]) -> None:
        check_reason(reason, params)
        self.reason = reason
        self.params = params
        super().__init__(self.message)

    @property
    def message(self) -> str:
        """The reason in words, in English (logs); answers word it in the request's language."""
        from .messages import reason_text

        return reason_text(self.reason, self.params, "en")


def from_engine(e: GinRummyError) -> tuple[str, dict[str, Any]]:
    """The reason of an engine error: its own, else ``other`` with its English text."""
    if e.reason:
        return e.reason, dict(e.params)
    return "other", {"text": str(e)}


def text_reason(e: ValueError) -> tuple[str, dict[str, Any]]:
    """The reason of a refused text (:mod:`ginrummy.web.http.text`): its own, else ``other``."""
    reason = getattr(e, "reason", None)
    if isinstance(reason, str):
        return reason, dict(getattr(e, "params", {}))
    return "other", {"text": str(e)}


class NotFound(Reasoned):
    """No such game for this token (404 ``not_found``, reason ``no_game``)."""

    def __init__(self, reason: str = "no_game", **params: Any) -> None:
        super().__init__(reason, params)


class BadRequest(Reasoned):
    """A request that cannot be understood (bad card codes, bad rules, unknown level, a bad
    name): 422 with ``code``, worded by ``reason`` and ``params``."""

    def __init__(self, code: str, reason: str, **params: Any) -> None:
        self.code = code
        super().__init__(reason, params)

    @classmethod
    def of(cls, code: str, e: GinRummyError) -> BadRequest:
        """422 ``code`` for an engine error, with the engine's reason."""
        reason, params = from_engine(e)
        return cls(code, reason, **params)


class Illegal(BadRequest):
    """An action the rules forbid now (422 ``illegal``). ``reason``: why, as a code; when the
    seat may not act now (``not_your_turn``, ``hand_over``, ``sitting_out``, ``waiting``) it is
    also the ``reason`` of a hint answer."""

    def __init__(self, reason: str = "not_your_turn", **params: Any) -> None:
        super().__init__("illegal", reason, **params)

    @classmethod
    def because(cls, e: GinRummyError) -> Illegal:
        """422 ``illegal`` for an engine error, with the engine's reason."""
        reason, params = from_engine(e)
        return cls(reason, **params)


class Unavailable(Reasoned):
    """What was asked for does not exist or cannot be given now: ``status`` (404, 409) and
    ``code`` of the answer, worded by ``reason`` and ``params``."""

    def __init__(self, status: int, code: str, reason: str, **params: Any) -> None:
        self.status = status
        self.code = code
        super().__init__(reason, params)


class Refused(Unavailable):
    """A table operation refused (403 ``not_creator``; 409 ``table_full``, ``seat_taken``,
    ``started``, ``seats_open``, ``not_waiting``, ``not_away``, ``name_taken``)."""


class RateLimited(Reasoned):
    """Over a limit (429 ``rate_limited``, header ``Retry-After``): ``seconds`` to wait, a whole
    number at least 1, worded by ``reason`` (e.g. ``too_many_messages``)."""

    def __init__(self, reason: str, wait: float) -> None:
        self.seconds = max(1, int(wait + 0.999))
        super().__init__(reason, {"seconds": self.seconds})


class Stale(Exception):
    """The action was made on an older (or unknown) sequence number. ``current``: the game's
    row as the store found it, when a save lost a race (another request, perhaps on another
    process, saved the game first)."""

    def __init__(self, state: dict[str, Any], current: Any = None) -> None:
        super().__init__("stale")
        self.state = state
        self.current = current
