"""Retention: what the server deletes, and when (docs/retention.md).

The rule (:class:`Retention`):

* a game still in play, untouched for ``idle_days`` (its last move, order change or creation),
  is deleted with its deals;
* a finished game is kept ``record_days`` after it finished, i.e. its last change (its fairness
  record stays there to be verified: ``GET /api/games/{id}/record``, ``ginrummy verify``), then
  deleted;
* a score keeper sheet unchanged for ``idle_days`` is deleted with its hands.

``None`` (or 0) for a period keeps those forever. Deleting by age is idempotent, so several
server processes on one database may each run :func:`sweep`: whoever comes first deletes,
the others find nothing. A row deleted is checked against the rule again inside the deleting
transaction (a game moved meanwhile is kept), and a game's rows in other tables (any table with a
``game_id`` column: deals, variant scorings, tables added later) go in the same transaction.
"""

from __future__ import annotations

import os
import time
from contextlib import AbstractContextManager, nullcontext
from dataclasses import dataclass
from typing import Any

from sqlalchemy import Engine, MetaData, Table, and_, delete, inspect, or_, select
from sqlalchemy.schema import CreateIndex
from sqlalchemy.sql.elements import ColumnElement

from .schema import FINISHED, games, games_updated_at, sheet_hands, sheets

__all__ = ["Retention", "Swept", "sweep", "prepare", "DAY"]

DAY = 24 * 3600.0


def _days(text: str | None, default: float | None, name: str) -> float | None:
    if text is None or not text.strip():
        return default
    t = text.strip().lower()
    if t in ("off", "never", "0"):
        return None
    try:
        v = float(t)
    except ValueError:
        raise ValueError(f"{name}: a number of days, or off; got {text!r}") from None
    if not 0 < v < 1e6:
        raise ValueError(f"{name}: a number of days above 0, or off; got {text!r}")
    return v


@dataclass(frozen=True)
class Retention:
    """How long things are kept, in days (``None``: forever); ``every``: seconds between two
    sweeps of a running server."""

    idle_days: float | None = 90.0
    record_days: float | None = 365.0
    every: float = 3600.0

    @classmethod
    def from_env(cls, env: dict[str, str] | None = None) -> Retention:
        """From ``$GINRUMMY_RETENTION_DAYS`` (idle games and sheets; default 90),
        ``$GINRUMMY_RECORD_DAYS`` (finished games; default 365), each a number of days or
        ``off``, and ``$GINRUMMY_RETENTION_EVERY`` (seconds, default 3600).

        :raises ValueError: on a value that is not one of those.
        """
        e = os.environ if env is None else env
        every = e.get("GINRUMMY_RETENTION_EVERY", "").strip()
        try:
            secs = float(every) if every else 3600.0
        except ValueError:
            raise ValueError(f"GINRUMMY_RETENTION_EVERY: seconds; got {every!r}") from None
        if not 0 < secs <= 7 * DAY:
            raise ValueError(f"GINRUMMY_RETENTION_EVERY: 0 to 604800 seconds; got {every!r}")
        return cls(_days(e.get("GINRUMMY_RETENTION_DAYS"), 90.0, "GINRUMMY_RETENTION_DAYS"),
                   _days(e.get("GINRUMMY_RECORD_DAYS"), 365.0, "GINRUMMY_RECORD_DAYS"), secs)

    @property
    def active(self) -> bool:
        return self.idle_days is not None or self.record_days is not None


@dataclass
class Swept:
    """What one sweep deleted."""

    games: int = 0
    sheets: int = 0


def _game_rule(policy: Retention, now: float) -> ColumnElement[bool] | None:
    """The games ``policy`` no longer keeps. A finished game's last change is its end (a game
    is not changed once over), so both parts are ranges of ``updated_at`` (indexed)."""
    parts = []
    if policy.idle_days is not None:
        parts.append(and_(games.c.updated_at < now - policy.idle_days * DAY,
                          games.c.status.notin_(FINISHED)))
    if policy.record_days is not None:
        parts.append(and_(games.c.updated_at < now - policy.record_days * DAY,
                          games.c.status.in_(FINISHED)))
    return or_(*parts) if parts else None


def _game_tables(engine: Engine) -> list[Table]:
    """Every table but ``games`` with a ``game_id`` column, as it is in the database now."""
    names = [n for n in inspect(engine).get_table_names() if n != "games"]
    meta = MetaData()
    out = []
    for n in names:
        if any(c["name"] == "game_id" for c in inspect(engine).get_columns(n)):
            out.append(Table(n, meta, autoload_with=engine))
    return out


#: so that a sweep finds its games and sheets without reading them all: the games' index, and
#: the sheets' own (made with the table, which a database whose sheets predate it lacks)
_INDEXES = (games_updated_at,
            *(ix for ix in sheets.indexes if ix.name == "ix_sheets_updated_at"))


def prepare(engine: Engine) -> None:
    """Create the indexes a sweep uses, if missing (``CREATE INDEX IF NOT EXISTS``):
    ``ix_games_updated_at`` and ``ix_sheets_updated_at``."""
    with engine.begin() as conn:  # IF NOT EXISTS: several processes may start at once
        for ix in _INDEXES:
            conn.execute(CreateIndex(ix, if_not_exists=True))


def sweep(engine: Engine, policy: Retention, *, now: float | None = None,
          writing: AbstractContextManager[Any] | None = None, batch: int = 200) -> Swept:
    """Delete what ``policy`` no longer keeps, ``batch`` games (or sheets) per transaction, so
    that the players' moves wait at most one short transaction. ``writing``: the store's own
    writers' lock (held around each transaction)."""
    now = time.time() if now is None else now
    lock: AbstractContextManager[Any] = writing if writing is not None else nullcontext()
    out = Swept()
    rule = _game_rule(policy, now)
    if rule is not None:
        children = _game_tables(engine)
        while True:
            with engine.connect() as conn:
                ids = conn.execute(select(games.c.id).where(rule).limit(batch)).scalars().all()
            if not ids:
                break
            with lock, engine.begin() as conn:
                # checked again and locked (Postgres: FOR UPDATE) inside the transaction
                doomed = conn.execute(select(games.c.id).where(games.c.id.in_(ids), rule)
                                      .with_for_update()).scalars().all()
                if doomed:
                    for t in children:
                        conn.execute(delete(t).where(t.c.game_id.in_(doomed)))
                    conn.execute(delete(games).where(games.c.id.in_(doomed)))
            out.games += len(doomed)
            if len(ids) < batch or not doomed:
                break
    if policy.idle_days is not None:
        cut = now - policy.idle_days * DAY
        while True:
            with engine.connect() as conn:
                ids = conn.execute(select(sheets.c.id).where(sheets.c.updated_at < cut)
                                   .limit(batch)).scalars().all()
            if not ids:
                break
            with lock, engine.begin() as conn:
                doomed = conn.execute(select(sheets.c.id)
                                      .where(sheets.c.id.in_(ids), sheets.c.updated_at < cut)
                                      .with_for_update()).scalars().all()
                if doomed:
                    conn.execute(delete(sheet_hands).where(sheet_hands.c.sheet_id.in_(doomed)))
                    conn.execute(delete(sheets).where(sheets.c.id.in_(doomed)))
            out.sheets += len(doomed)
            if len(ids) < batch or not doomed:
                break
    return out
