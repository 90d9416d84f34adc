"""The presence leases of this process's live streams, refreshed together (docs/tables.md
"Live"): an open stream keeps its seat ``connected`` by a lease in the store
(``connected_until``, :data:`ginrummy.web.tables.seats.PRESENCE_LEASE` seconds), renewed every
``every`` seconds. One task renews every stream's lease of the process in one call of
``refresh`` (on PostgreSQL one statement per 200 seats:
:meth:`ginrummy.store.tables.TableStore.refresh_presence_many`), instead of one thread trip and
one committed write per stream; a seat no longer that token's person (left) loses its lease and
its stream ends.

The task runs while leases are held (started by the first, ended with the last), on the streams'
event loop.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field

__all__ = ["Lease", "PresenceKeeper"]

log = logging.getLogger("ginrummy.web")

Key = tuple[str, int, str]


@dataclass(eq=False)
class Lease:
    """One stream's lease: its seat's key ``(game_id, seat, token_hash)``; ``lost`` once the
    seat is no longer its token's (``wake`` is called then)."""

    key: Key
    wake: Callable[[], None]
    lost: bool = field(default=False)


class PresenceKeeper:
    """Renews the leases added with :meth:`add` every ``every`` seconds through ``refresh``
    (``await refresh(keys)``: the keys renewed)."""

    def __init__(self, refresh: Callable[[list[Key]], Awaitable[set[Key]]],
                 every: float) -> None:
        self._refresh = refresh
        self.every = every
        self._leases: set[Lease] = set()
        self._task: asyncio.Task[None] | None = None

    def add(self, key: Key, wake: Callable[[], None]) -> Lease:
        """Keep ``key``'s lease from now on (call on the streams' event loop)."""
        lease = Lease(key, wake)
        self._leases.add(lease)
        loop = asyncio.get_running_loop()
        if self._task is None or self._task.done() or self._task.get_loop() is not loop:
            self._task = loop.create_task(self._run())
        return lease

    def remove(self, lease: Lease) -> None:
        self._leases.discard(lease)

    def __len__(self) -> int:
        return len(self._leases)

    async def _run(self) -> None:
        while self._leases:
            await asyncio.sleep(self.every)
            await self.renew()

    async def renew(self) -> None:
        """Renew every lease now; mark and wake those that are lost."""
        leases = list(self._leases)
        if not leases:
            return
        try:
            kept = await self._refresh(list({lease.key for lease in leases}))
        except Exception as e:  # the store is away: try again next time (the lease lasts)
            log.warning("presence refresh failed (%s)", type(e).__name__)
            return
        for lease in leases:
            if lease.key not in kept and lease in self._leases:
                lease.lost = True
                lease.wake()
