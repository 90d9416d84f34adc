"""Group commit: the writes of one process to a SQLite file, committed together when they wait
at the same moment.

SQLite has one writer at a time and every commit waits for the disk (``synchronous=FULL``), so
the writes that queue up while one commit is on its way are all committed together by the next
one (one disk flush for all). Each write still returns only once its transaction is committed.
Writers of this process queue on a lock here (:attr:`GroupWriter.lock`) rather than in SQLite's
busy handler, which sleeps in steps of up to 100 ms; other processes on the same file still wait
through ``busy_timeout``. On PostgreSQL each write is its own transaction.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any

from sqlalchemy import Connection, Engine

__all__ = ["GroupWriter", "Conflict"]


class Conflict(Exception):
    """Raised by a write function before it writes anything, when the write must not happen
    (the game moved on meanwhile): nothing of the write is applied, and the other writes of its
    group are committed. ``row``: what the write found instead, when it read it (the game's
    row as it is now)."""

    def __init__(self, row: Any = None) -> None:
        super().__init__("conflict")
        self.row = row


class _Job:
    """One write waiting for its commit (see :meth:`GroupWriter.write`)."""

    __slots__ = ("fn", "result", "error", "done")

    def __init__(self, fn: Callable[[Connection], Any]) -> None:
        self.fn = fn
        self.result: Any = None
        self.error: BaseException | None = None
        self.done = False


class GroupWriter:
    """The committed writes of one process to ``engine``'s database. ``grouped``: commit the
    writes that wait at the same moment together (SQLite); else each in its own transaction."""

    def __init__(self, engine: Engine, grouped: bool) -> None:
        self.engine = engine
        self.grouped = grouped
        #: held by the thread committing a group; any other writer of this process to the same
        #: SQLite file holds it around its transaction (one writer at a time)
        self.lock = threading.Lock()
        self._pending_lock = threading.Lock()
        self._pending: list[_Job] = []

    def write(self, fn: Callable[[Connection], Any]) -> Any:
        """Run ``fn(conn)`` in a committed transaction and return its result; ``fn`` raises
        :class:`Conflict` before writing anything when the write must not happen (then
        ``Conflict`` is raised here). Grouped, ``fn`` shares its transaction with the other
        writes waiting at the same time; one that fails (or a failed commit) has each write of
        the group run again on its own, so that only the failing one fails.

        :raises Conflict: ``fn`` refused the write.
        :raises Exception: whatever ``fn`` or the commit raised.
        """
        if not self.grouped:
            with self.engine.begin() as conn:
                return fn(conn)
        job = _Job(fn)
        with self._pending_lock:
            self._pending.append(job)
        with self.lock:
            # a group taken before this thread got the lock has been committed already: if it
            # held this job, the job is done; else the job is still pending, in the group below
            if not job.done:
                with self._pending_lock:
                    group, self._pending = self._pending, []
                self._commit_group(group)
        if job.error is not None:
            raise job.error
        return job.result

    def _commit_group(self, group: list[_Job]) -> None:
        try:
            try:
                with self.engine.begin() as conn:
                    for job in group:
                        try:
                            job.result = job.fn(conn)
                        except Conflict as e:  # nothing of it was written
                            job.error = e
            except Exception:
                # one write failed (or the commit): each on its own, so that only it fails
                for job in group:
                    job.result, job.error = None, None
                    try:
                        with self.engine.begin() as conn:
                            job.result = job.fn(conn)
                    except Exception as e:
                        job.error = e
        finally:
            for job in group:
                job.done = True
