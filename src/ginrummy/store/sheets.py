"""Score keeper sheets in SQL (docs/variants.md, "Score keeper"), in tables of their own:

* ``sheets``: one row per sheet: its heading (rules, scoring, player names, first dealer) as
  JSON, a SHA-256 of the owner's token, the creating browser's player id, ``seq`` (the number of
  changes: optimistic concurrency) and when it was made and last changed;
* ``sheet_hands``: one row per hand entered, numbered from 1, as JSON. Adding a hand writes its
  row (and bumps the sheet's ``seq``), never the hands before it.

Created on first use in the same database (``CREATE TABLE IF NOT EXISTS``). Sheets of the older
layout (the hands inside the sheet's JSON) are moved to ``sheet_hands`` once, by the schema's
migration to version 3 (:func:`move_old_hands`, from :func:`ginrummy.store.db.create_schema`).
Texts are stored only if they are valid Unicode (:class:`ValueError` otherwise), so that
whatever is stored can be answered.
"""

from __future__ import annotations

import json
import time
from contextlib import AbstractContextManager, nullcontext
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy import (
    Column,
    Connection,
    Engine,
    Float,
    Integer,
    MetaData,
    String,
    Table,
    Text,
    delete,
    func,
    insert,
    select,
    update,
)

from .db import create_schema, storable_id

__all__ = ["SheetStore", "SheetRow", "sheets", "sheet_hands", "move_old_hands"]

metadata = MetaData()

sheets = Table(
    "sheets", metadata,
    Column("id", String(64), primary_key=True),
    Column("token_hash", String(64), nullable=False),
    Column("player_id", String(64), index=True),
    Column("data", Text, nullable=False),  # the heading: everything but the hands
    Column("seq", Integer, nullable=False),
    Column("created_at", Float, nullable=False),
    Column("updated_at", Float, nullable=False, index=True),
)

sheet_hands = Table(
    "sheet_hands", metadata,
    Column("sheet_id", String(64), primary_key=True),
    Column("number", Integer, primary_key=True),  # 1, 2, ... in the order entered
    Column("data", Text, nullable=False),
    Column("created_at", Float, nullable=False),
)


@dataclass
class SheetRow:
    """One score keeper sheet: ``data`` is its input (see :mod:`ginrummy.keeper`), hands
    included; ``seq`` counts its changes (optimistic concurrency)."""

    id: str
    token_hash: str
    player_id: str | None
    data: dict[str, Any]
    seq: int = 0
    created_at: float = field(default_factory=time.time)
    updated_at: float = field(default_factory=time.time)


def _dumps(value: Any) -> str:
    """Compact JSON of ``value``; :class:`ValueError` if any text in it is not valid Unicode
    (a lone surrogate), before anything is written."""
    text = json.dumps(value, ensure_ascii=False, separators=(",", ":"))
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        raise ValueError("a sheet keeps only valid Unicode text") from None
    return text


def _repaired(value: Any) -> Any:
    """``value`` with each lone surrogate replaced by U+FFFD (sheets stored before texts were
    checked may hold one, and could not be answered)."""
    if isinstance(value, str):
        return value.encode("utf-16", "surrogatepass").decode("utf-16", "replace")
    if isinstance(value, dict):
        return {_repaired(k): _repaired(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_repaired(v) for v in value]
    return value


class SheetStore:
    """The two tables above, in the database of ``engine``. ``writing``: the store's own
    writers' lock, if it has one (SQLite: one writer at a time), held around each write."""

    def __init__(self, engine: Engine, writing: AbstractContextManager[Any] | None = None
                 ) -> None:
        self.engine = engine
        self._writing: AbstractContextManager[Any] = writing or nullcontext()
        create_schema(engine, metadata)  # once, even with processes starting at once

    def insert(self, row: SheetRow) -> None:
        """Store a new sheet with its hands (usually none)."""
        head = {k: v for k, v in row.data.items() if k != "hands"}
        hands = [_dumps(h) for h in row.data.get("hands", [])]
        values = dict(id=row.id, token_hash=row.token_hash, player_id=row.player_id,
                      data=_dumps(head), seq=row.seq, created_at=row.created_at,
                      updated_at=row.updated_at)
        with self._writing, self.engine.begin() as conn:
            conn.execute(insert(sheets).values(**values))
            for i, h in enumerate(hands, 1):
                conn.execute(insert(sheet_hands).values(sheet_id=row.id, number=i, data=h,
                                                        created_at=row.created_at))

    def get(self, sheet_id: str) -> SheetRow | None:
        """The sheet with its hands in order, or None."""
        if not storable_id(sheet_id):  # never sent to the database (a NUL is an error there)
            return None
        with self.engine.connect() as conn:  # one transaction: the sheet and its hands agree
            r = conn.execute(select(sheets).where(sheets.c.id == sheet_id)).first()
            if r is None:
                return None
            hands = conn.execute(select(sheet_hands.c.data)
                                 .where(sheet_hands.c.sheet_id == sheet_id)
                                 .order_by(sheet_hands.c.number)).scalars().all()
        data = {**json.loads(r.data), "hands": [json.loads(h) for h in hands]}
        return SheetRow(r.id, r.token_hash, r.player_id, data, r.seq, r.created_at,
                        r.updated_at)

    def add_hand(self, sheet_id: str, old_seq: int, hand: dict[str, Any]) -> bool:
        """Append ``hand`` if the sheet is still at ``old_seq`` (else False, nothing written).

        :raises ValueError: if ``hand`` holds text that is not valid Unicode.
        """
        text, now = _dumps(hand), time.time()
        with self._writing, self.engine.begin() as conn:
            if not self._bump(conn, sheet_id, old_seq, now):
                return False
            last = conn.execute(select(func.max(sheet_hands.c.number))
                                .where(sheet_hands.c.sheet_id == sheet_id)).scalar()
            conn.execute(insert(sheet_hands).values(sheet_id=sheet_id, number=(last or 0) + 1,
                                                    data=text, created_at=now))
        return True

    def remove_last_hand(self, sheet_id: str, old_seq: int) -> bool:
        """Take back the last hand if the sheet is still at ``old_seq`` (else False, nothing
        written)."""
        now = time.time()
        with self._writing, self.engine.begin() as conn:
            if not self._bump(conn, sheet_id, old_seq, now):
                return False
            last = conn.execute(select(func.max(sheet_hands.c.number))
                                .where(sheet_hands.c.sheet_id == sheet_id)).scalar()
            if last is not None:
                conn.execute(delete(sheet_hands).where(sheet_hands.c.sheet_id == sheet_id,
                                                       sheet_hands.c.number == last))
        return True

    @staticmethod
    def _bump(conn: Any, sheet_id: str, old_seq: int, now: float) -> bool:
        """The first statement of a change: the sheet's ``seq`` moves on if it was ``old_seq``
        (a stale change writes nothing)."""
        res = conn.execute(update(sheets).where(sheets.c.id == sheet_id, sheets.c.seq == old_seq)
                           .values(seq=old_seq + 1, updated_at=now))
        return bool(res.rowcount == 1)


def move_old_hands(conn: Connection) -> int:
    """Move the hands of sheets stored inside their heading (the first layout) to
    ``sheet_hands``, in the caller's transaction: the schema's migration 2 -> 3, run once per
    database under the schema lock (:func:`ginrummy.store.db.create_schema`). Texts that are not
    valid Unicode are repaired (U+FFFD). Returns the number of sheets moved."""
    metadata.create_all(conn)  # sheet_hands, if the database predates it
    old = conn.execute(select(sheets.c.id, sheets.c.data)
                       .where(sheets.c.data.like('%"hands"%'))).all()
    moved = 0
    now = time.time()
    for sheet_id, data in old:
        loaded = _repaired(json.loads(data))
        if "hands" not in loaded:
            continue  # a player's name holds the word
        hands = loaded.pop("hands") or []
        conn.execute(update(sheets).where(sheets.c.id == sheet_id)
                     .values(data=_dumps(loaded)))
        for i, h in enumerate(hands, 1):
            conn.execute(insert(sheet_hands).values(sheet_id=sheet_id, number=i,
                                                    data=_dumps(h), created_at=now))
        moved += 1
    return moved
