"""The repository of score keeper sheets (docs/variants.md, "Score keeper"), in tables of their
own (:data:`ginrummy.store.schema.sheets_metadata`):

* ``sheets``: one row per sheet: its heading (rules, scoring, player names, first dealer) as
  JSON, a SHA-256 of the owner's token, the creating browser's player id, ``seq`` (the number of
  changes: optimistic concurrency) and when it was made and last changed;
* ``sheet_hands``: one row per hand entered, numbered from 1, as JSON. Adding a hand writes its
  row (and bumps the sheet's ``seq``), never the hands before it.

Created on first use in the same database (``CREATE TABLE IF NOT EXISTS``). Sheets of the older
layout (the hands inside the sheet's JSON) are moved to ``sheet_hands`` once, by the schema's
migration to version 3 (:func:`ginrummy.store.schema.move_old_hands`). Texts are stored only if
they are valid Unicode (:class:`ValueError` otherwise), so that whatever is stored can be
answered.
"""

from __future__ import annotations

import json
import time
from contextlib import AbstractContextManager, nullcontext
from typing import Any

from sqlalchemy import Engine, delete, func, insert, select, update

from .rows import SheetRow, sheet_json, storable_id
from .schema import create_schema, sheet_hands, sheets, sheets_metadata

__all__ = ["SheetStore"]


class SheetStore:
    """The two tables of sheets (see the module docstring), in the database of ``engine``.
    ``writing``: the store's own writers' lock (:attr:`ginrummy.store.Store.writing`), if it
    has one (SQLite: one writer at a time), held around each write."""

    def __init__(self, engine: Engine, writing: AbstractContextManager[Any] | None = None
                 ) -> None:
        self.engine = engine
        self._writing: AbstractContextManager[Any] = writing or nullcontext()
        create_schema(engine, sheets_metadata)  # once, even with processes starting at once

    def insert(self, row: SheetRow) -> None:
        """Store a new sheet with its hands (usually none)."""
        head = {k: v for k, v in row.data.items() if k != "hands"}
        hands = [sheet_json(h) for h in row.data.get("hands", [])]
        values = dict(id=row.id, token_hash=row.token_hash, player_id=row.player_id,
                      data=sheet_json(head), seq=row.seq, created_at=row.created_at,
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
        text, now = sheet_json(hand), time.time()
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
