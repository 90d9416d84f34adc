"""The table service's refusals, turned into API answers by :mod:`ginrummy.web.app`
(docs/api.md, docs/tables.md)."""

from __future__ import annotations

from typing import Any

__all__ = ["NotFound", "BadRequest", "Illegal", "Unavailable", "Refused", "Stale"]


class NotFound(Exception):
    """No such game for this token (404 ``not_found``)."""


class BadRequest(Exception):
    """A request that cannot be understood (bad card codes, bad rules, unknown level, a bad
    name): 422 with ``code``."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


class Illegal(BadRequest):
    """An action the rules forbid now. ``reason``: why the seat may not act now, as a code
    (``not_your_turn``, ``hand_over``, ``sitting_out``, ``waiting``), the ``reason`` of a hint
    answer."""

    def __init__(self, message: str, reason: str = "not_your_turn") -> None:
        super().__init__("illegal", message)
        self.reason = reason


class Unavailable(Exception):
    """What was asked for does not exist or cannot be given now: ``status`` (404, 409),
    ``code`` and ``message`` of the answer."""

    def __init__(self, status: int, code: str, message: str) -> None:
        super().__init__(message)
        self.status = status
        self.code = code
        self.message = message


class Refused(Unavailable):
    """A table operation refused (403 ``not_creator``; 409 ``table_full``, ``seat_taken``,
    ``started``, ``seats_open``, ``not_waiting``)."""


class Stale(Exception):
    """The action was made on an older (or unknown) sequence number."""

    def __init__(self, state: dict[str, Any]) -> None:
        super().__init__("stale")
        self.state = state
