"""What one seat is shown of its table (docs/tables.md, "State"): the engine's state from the
seat's own view, plus the table's status, the seats' names and presence, the turn clock's
deadline and the quick messages. Reads only: nothing here changes a table.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

from ..store.tables import SeatRow, TableRow, TableStore
from ..variants import PLAYER_COUNT
from .service_base import invite_code
from .state import YOU
from .table_records import Loaded, Seated

__all__ = ["AWAY_AFTER", "seat_row", "is_computer", "seats_json", "seat_state"]

#: a person seat without a live connection for this long (seconds) is away.
AWAY_AFTER = 20.0


def seat_row(table: TableRow | None, seat: int) -> SeatRow | None:
    """The row of ``seat`` at ``table`` (``None``: no table, or no such seat)."""
    if table is None:
        return None
    for s in table.seats:
        if s.seat == seat:
            return s
    return None


def is_computer(table: TableRow | None) -> Callable[[int], bool]:
    """Whether a computer plays ``seat`` now: a computer seat, or a person's seat that person
    left or the creator handed to a computer while its person is away (no table: every seat
    but the person's, 0)."""
    if table is None:
        return lambda seat: seat != YOU
    by = {s.seat: s for s in table.seats}

    def computer(seat: int) -> bool:
        s = by.get(seat)
        return s is None or s.kind != "person" or s.left or s.computer_for_away

    return computer


def seats_json(table: TableRow, seat: int, now: float | None = None,
               status: str = "playing") -> list[dict[str, Any]]:
    """``state.seats`` (docs/tables.md) for ``seat``: names, kinds, presence (``now``: the
    time compared with each seat's ``connected_until``, seconds since the epoch)."""
    t = time.time() if now is None else now
    out = []
    for s in table.seats:
        person = s.kind == "person"
        connected = person and not s.left and s.connected_until > t
        away = (person and not s.left and status == "playing" and not connected
                and t - s.connected_until > AWAY_AFTER)
        out.append({"seat": s.seat, "kind": s.kind, "name": s.name if person else None,
                    "level": s.level if s.kind == "computer" else None,
                    "you": s.seat == seat, "creator": s.seat == table.creator_seat,
                    "connected": connected, "away": away, "left": person and s.left,
                    "computer_for_away": person and s.computer_for_away})
    return out


def _hand_order(loaded: Loaded, seated: Seated) -> list[str] | None:
    if seated.table is None:
        order = loaded.row.hand_order or {}
    else:
        s = seat_row(seated.table, seated.seat)
        order = (s.hand_order if s is not None else None) or {}
    if loaded.engine is None:
        return None
    return order.get("cards") if order.get("hand") == loaded.engine.hand_number(
        seated.seat) else None


def _table_json(loaded: Loaded, seated: Seated) -> dict[str, Any]:
    table = seated.table
    assert table is not None
    row = loaded.row
    status = "waiting" if loaded.engine is None else (
        "over" if row.status == "over" else "playing")
    invite = None
    if seated.creator and status == "waiting":
        code = invite_code(row.secret)
        invite = {"code": code, "url": f"/join/{code}"}
    deadline = None
    if table.turn_clock and status == "playing" and loaded.engine is not None:
        computer = is_computer(table)
        if any(not computer(p) for p in (loaded.engine.mover(i)
                                         for i in loaded.engine.in_play())
               if p is not None):
            deadline = row.updated_at + table.turn_clock
    return {"status": status, "players": PLAYER_COUNT[loaded.scoring],
            "scoring": loaded.scoring, "creator": seated.creator, "invite": invite,
            "turn_clock": table.turn_clock, "turn_deadline": deadline,
            "rematch": {"game_id": table.rematch_id} if table.rematch_id else None}


def _waiting_state(loaded: Loaded, seated: Seated) -> dict[str, Any]:
    """The state of a table before its start: no cards yet."""
    row = loaded.row
    r = {"code": "waiting"}
    return {
        "game_id": row.id, "seq": 0, "phase": "waiting", "you": seated.seat,
        "dealer": None, "turn": None, "level": row.level, "hand_number": 0,
        "rules": {"preset": row.preset, **row.rules}, "scoring": loaded.scoring,
        "hand": [], "drawn": None, "taken_from_discard": None,
        "arrangement": {"melds": [], "deadwood": [], "deadwood_points": 0},
        "opponent": {"card_count": 0, "known": []}, "stock_count": 0, "discard_pile": [],
        "legal": [], "knock": {"allowed": False, "reason": r},
        "gin": {"allowed": False, "reason": dict(r)}, "events": [], "result": None,
        "score": None, "fairness": {"commitment": None, "revealed": None, "history": []},
    }


def seat_state(tables: TableStore, loaded: Loaded, seated: Seated, since: int | None
               ) -> dict[str, Any]:
    """``seated``'s state with the events after ``since`` (``None``: those of its deal in
    play); ``tables`` gives the quick messages."""
    row = loaded.row
    if loaded.engine is None:
        st = _waiting_state(loaded, seated)
    else:
        st = loaded.engine.state(seated.seat, since, game_id=row.id, deals=loaded.deals,
                                 level=row.level, preset=row.preset,
                                 hand_order=_hand_order(loaded, seated))
    if seated.table is not None:
        status_json = _table_json(loaded, seated)
        st["table"] = {**(st.get("table") or {}), **status_json}
        st["seats"] = seats_json(seated.table, seated.seat, status=status_json["status"])
        st["messages"] = [{"seq_at": m.seq_at, "seat": m.seat, "message": m.message,
                           "at": m.at} for m in tables.messages(row.id)]
    return st
