"""Bounds on the live streams of this process (issue 21 item 2, docs/deploy.md "Live streams").

Each open live stream holds a connection, hence a file descriptor, for as long as its client
likes. Without a bound one client held 500 streams on one seat's token, and a server at its
descriptor limit then reset every other client's connections. :class:`StreamGate` bounds them:

* per seat (:attr:`StreamLimits.seat`): a new stream of a seat that has as many open already
  *replaces* the oldest one (which ends with an ``event: replaced``): a reload, or a phone
  coming back, never waits for its old stream to time out;
* per client address (:attr:`StreamLimits.address`) and per process
  (:attr:`StreamLimits.process`, by default half the descriptors the process may open, less a
  reserve): beyond them a new stream is refused, 429 ``too_many_streams`` with ``Retry-After``.

The bounds are this process's (each process protects its own descriptors); nginx's
``limit_conn`` bounds a client's connections in front of all of them (docs/deploy.md).
:func:`raise_descriptor_limit` lifts the process's soft descriptor limit to its hard one at start.

The gate is used on the event loop only (the live route and its streams).
"""

from __future__ import annotations

import contextlib
import logging
import os
from collections.abc import Callable
from dataclasses import dataclass, field

from ..http.errors import RateLimited

__all__ = ["StreamLimits", "StreamGate", "Slot", "raise_descriptor_limit",
           "descriptor_limit", "RESERVED_DESCRIPTORS", "STREAM_RETRY_AFTER"]

log = logging.getLogger("ginrummy.web")

#: descriptors kept for everything but the live streams (the database pool and its listener,
#: the listening socket, files, ordinary requests' connections) before halving the rest
RESERVED_DESCRIPTORS = 128
#: seconds a refused stream is told to wait (``Retry-After``)
STREAM_RETRY_AFTER = 10


def descriptor_limit() -> int | None:
    """The process's soft limit on open file descriptors (``None`` where it cannot be read)."""
    try:
        import resource
    except ImportError:  # pragma: no cover - not a POSIX system
        return None
    soft, _hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    return None if soft == resource.RLIM_INFINITY else int(soft)


def raise_descriptor_limit() -> tuple[int, int] | None:
    """Raise the process's soft limit on open file descriptors to its hard limit (at most
    1,048,576 where the hard limit is unlimited), as servers do at start: the soft limit is
    often 1,024, which a few hundred live streams reach. Returns ``(before, after)``, or
    ``None`` where it cannot be changed (logged; the server runs with the limit it has)."""
    try:
        import resource
    except ImportError:  # pragma: no cover - not a POSIX system
        return None
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    target = hard if hard != resource.RLIM_INFINITY else 1 << 20
    if soft != resource.RLIM_INFINITY and soft >= target:
        return int(soft), int(soft)
    try:
        resource.setrlimit(resource.RLIMIT_NOFILE, (target, hard))
    except (ValueError, OSError) as e:
        log.warning("could not raise the descriptor limit from %s to %s (%s)", soft, target, e)
        return None
    return int(soft), int(target)


@dataclass(frozen=True)
class StreamLimits:
    """Live streams at once in one process: per ``seat``, per client ``address``, and in all
    (``process``; ``None``: from the descriptor limit, see :meth:`process_limit`).

    :raises ValueError: a bound below 1.
    """

    seat: int = 4
    address: int = 32
    process: int | None = None

    def __post_init__(self) -> None:
        for name in ("seat", "address", "process"):
            v = getattr(self, name)
            if v is not None and (not isinstance(v, int) or v < 1):
                raise ValueError(f"live stream limit {name} must be a whole number >= 1: {v!r}")

    def process_limit(self) -> int:
        """The bound in all: ``process``, else half the descriptors left after
        :data:`RESERVED_DESCRIPTORS` (at least 16; 448 at the common limit of 1,024)."""
        if self.process is not None:
            return self.process
        soft = descriptor_limit()
        if soft is None:
            return 10_000
        return max(16, (soft - RESERVED_DESCRIPTORS) // 2)

    @classmethod
    def from_env(cls, text: str | None) -> StreamLimits:
        """The limits named by ``$GINRUMMY_LIVE_LIMITS``: unset or empty = the defaults; else
        ``seat=N,address=N,process=N`` (any subset).

        >>> StreamLimits.from_env("seat=2, process=100")
        StreamLimits(seat=2, address=32, process=100)

        :raises ValueError: an unreadable setting.
        """
        t = (text or "").strip().lower()
        if not t:
            return cls()
        values: dict[str, int] = {}
        for part in t.split(","):
            key, eq, value = (x.strip() for x in part.partition("="))
            try:
                if not eq or key not in ("seat", "address", "process"):
                    raise ValueError
                values[key] = int(value)
                if values[key] < 1:
                    raise ValueError
            except ValueError:
                raise ValueError(f"GINRUMMY_LIVE_LIMITS: cannot read {part.strip()!r}; write "
                                 "seat=N,address=N,process=N") from None
        return cls(**values)


@dataclass(eq=False)
class Slot:
    """One open (or opening) stream: its client ``address``, its seat's ``key`` once known,
    whether a newer stream of the seat ``replaced`` it, and ``wake``, called then."""

    address: str
    key: tuple[str, int] | None = None
    replaced: bool = False
    wake: Callable[[], None] | None = None
    closed: bool = field(default=False)


class StreamGate:
    """The open streams of this process, bounded by ``limits`` (see the module's docstring)."""

    def __init__(self, limits: StreamLimits | None = None) -> None:
        self.limits = limits or StreamLimits.from_env(os.environ.get("GINRUMMY_LIVE_LIMITS"))
        self.process_max = self.limits.process_limit()
        self._open = 0
        self._by_address: dict[str, int] = {}
        self._by_seat: dict[tuple[str, int], list[Slot]] = {}

    def __len__(self) -> int:
        """Streams open now."""
        return self._open

    def open(self, address: str) -> Slot:
        """A slot for a new stream from ``address``.

        :raises RateLimited: ``too_many_streams``: the address, or the process, has as many
            streams open as it may.
        """
        n = self._by_address.get(address, 0)
        if n >= self.limits.address or self._open >= self.process_max:
            log.info("%s: live stream refused (%d from this address, %d in all)",
                     address, n, self._open)
            raise RateLimited("too_many_streams", STREAM_RETRY_AFTER)
        self._by_address[address] = n + 1
        self._open += 1
        return Slot(address)

    def seat(self, slot: Slot, key: tuple[str, int]) -> None:
        """Count ``slot`` for the seat ``key`` (``(game_id, seat)``); the oldest streams of
        the seat beyond :attr:`StreamLimits.seat` are replaced (marked and woken: they end)."""
        if slot.closed or slot.key is not None:
            return
        slot.key = key
        slots = self._by_seat.setdefault(key, [])
        slots.append(slot)
        while len(slots) > self.limits.seat:
            old = slots.pop(0)
            old.replaced = True
            if old.wake is not None:
                with contextlib.suppress(RuntimeError):
                    old.wake()

    def count(self, key: tuple[str, int]) -> int:
        """Streams of the seat ``key`` open now (not replaced)."""
        return len(self._by_seat.get(key, ()))

    def close(self, slot: Slot) -> None:
        """The stream ended (idempotent)."""
        if slot.closed:
            return
        slot.closed = True
        self._open -= 1
        n = self._by_address.get(slot.address, 0) - 1
        if n > 0:
            self._by_address[slot.address] = n
        else:
            self._by_address.pop(slot.address, None)
        if slot.key is not None:
            slots = self._by_seat.get(slot.key)
            if slots is not None:
                with contextlib.suppress(ValueError):
                    slots.remove(slot)
                if not slots:
                    del self._by_seat[slot.key]
