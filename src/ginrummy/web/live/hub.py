"""The live channel of this process (docs/tables.md "Live"): per game, the live streams open here,
woken when the store announces a change of that game.

The store's change hook (:meth:`ginrummy.store.Store.add_listener`) is the only fan-out: the
store calls :meth:`LiveHub.notify` after each committed change, from the committing thread (or,
on a database that carries notifications between processes, from its listener); the hub wakes
the game's subscribers on their event loop (``call_soon_threadsafe``). A wake-up means "read the
game again": the stream reads the stored state and compares its ``seq``, so a lost or repeated
notification costs latency, never data. Nothing here is needed for correctness.
"""

from __future__ import annotations

import asyncio
import contextlib
import threading
from dataclasses import dataclass, field

__all__ = ["LiveHub", "Subscriber"]


@dataclass(eq=False)
class Subscriber:
    """One open stream: its event loop and the event set when its game changed."""

    game_id: str
    loop: asyncio.AbstractEventLoop
    event: asyncio.Event = field(default_factory=asyncio.Event)

    def wake(self) -> None:
        """Set the event from any thread."""
        with contextlib.suppress(RuntimeError):  # a closed loop: the stream is gone
            self.loop.call_soon_threadsafe(self.event.set)

    async def wait(self, timeout: float) -> bool:
        """Wait for a change up to ``timeout`` seconds; True when woken (the event is
        cleared)."""
        try:
            await asyncio.wait_for(self.event.wait(), timeout)
        except TimeoutError:
            return False
        self.event.clear()
        return True


class LiveHub:
    """The subscribers of this process, per game. Thread-safe."""

    def __init__(self) -> None:
        self._subs: dict[str, set[Subscriber]] = {}
        self._lock = threading.Lock()

    def subscribe(self, game_id: str) -> Subscriber:
        """A new subscriber to ``game_id``'s changes, on the running event loop."""
        sub = Subscriber(game_id, asyncio.get_running_loop())
        with self._lock:
            self._subs.setdefault(game_id, set()).add(sub)
        return sub

    def unsubscribe(self, sub: Subscriber) -> None:
        with self._lock:
            subs = self._subs.get(sub.game_id)
            if subs is not None:
                subs.discard(sub)
                if not subs:
                    del self._subs[sub.game_id]

    def notify(self, game_id: str, _seq: int) -> None:
        """The store's listener: wake every subscriber of ``game_id`` (any thread)."""
        with self._lock:
            subs = list(self._subs.get(game_id, ()))
        for sub in subs:
            sub.wake()

    def resync(self) -> None:
        """The store's resync hook (its cross-process listener came back after a failure, so
        notifications may have been missed): wake every subscriber of this process."""
        with self._lock:
            subs = [sub for group in self._subs.values() for sub in group]
        for sub in subs:
            sub.wake()

    def count(self, game_id: str | None = None) -> int:
        """Open subscribers (of one game, or all)."""
        with self._lock:
            if game_id is not None:
                return len(self._subs.get(game_id, ()))
            return sum(len(s) for s in self._subs.values())
