"""What one seat is shown of its table (docs/tables.md, "State"): the engine's state from the
seat's own view, plus, at a table of people (one with an invite:
:attr:`~ginrummy.store.TableRow.shared`), the table's status, the seats' names and presence,
the turn clock's deadline and the quick messages. A person's game against the computer is a
table too, with no invite: its state is the engine's alone (docs/api.md). Reads only: nothing
here changes a table.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

from ...store import MessageRow, SeatRow, TableRow
from ...variants import PLAYER_COUNT
from ..http.tokens import invite_code, seat_code
from .state import build_state
from .stored import Loaded, Seated

__all__ = ["AWAY_AFTER", "HAND_OVER_AFTER", "seat_row", "is_computer", "seats_json",
           "shown_seats", "seat_state", "turn_deadlines", "table_status", "next_change"]

#: a person seat without a live connection for this long (seconds) is away.
AWAY_AFTER = 20.0
#: seconds a person's seat must have been without a connection before any other person at the
#: table may hand it to a computer (the creator may as soon as it is away): an away creator
#: no longer stalls the table (issue 21 item 11)
HAND_OVER_AFTER = 60.0


def seat_row(table: TableRow, seat: int) -> SeatRow | None:
    """The row of ``seat`` at ``table`` (``None``: no such seat)."""
    for s in table.seats:
        if s.seat == seat:
            return s
    return None


def is_computer(table: TableRow) -> Callable[[int], bool]:
    """Whether a computer plays ``seat`` now: a computer seat, or a person's seat that person
    left or the creator handed to a computer while its person is away."""
    by = {s.seat: s for s in table.seats}

    def computer(seat: int) -> bool:
        s = by.get(seat)
        return s is None or s.kind != "person" or s.left or s.computer_for_away

    return computer


def seats_json(table: TableRow, seat: int, now: float | None = None,
               status: str = "playing", card_counts: dict[int, int] | None = None
               ) -> list[dict[str, Any]]:
    """``state.seats`` (docs/tables.md) for ``seat``: names, kinds, presence (``now``: the
    time compared with each seat's ``connected_until``, seconds since the epoch), the number
    of cards each holds (``card_counts``, public; ``None`` for a seat not in it) and whether
    ``seat`` may hand it to a computer now (``hand_over``: an away person's seat, to the
    creator; to any other person once it has had no connection for :data:`HAND_OVER_AFTER`)."""
    counts = card_counts or {}
    t = time.time() if now is None else now
    creator = seat == table.creator_seat
    out = []
    for s in table.seats:
        person = s.kind == "person"
        connected = person and not s.left and s.connected_until > t
        away = (person and not s.left and status == "playing" and not connected
                and t - s.connected_until > AWAY_AFTER)
        hand_over = (away and not s.computer_for_away and s.seat != seat
                     and (creator or t - s.connected_until > HAND_OVER_AFTER))
        out.append({"seat": s.seat, "kind": s.kind, "name": s.name if person else None,
                    "level": s.level if s.kind == "computer" else None,
                    "you": s.seat == seat, "creator": s.seat == table.creator_seat,
                    "connected": connected, "away": away, "left": person and s.left,
                    "computer_for_away": person and s.computer_for_away,
                    "hand_over": hand_over, "card_count": counts.get(s.seat)})
    return out


def shown_seats(loaded: Loaded, seated: Seated, now: float | None = None
                ) -> list[dict[str, Any]] | None:
    """``state.seats`` for ``seated`` (:func:`seats_json`, with the cards each holds), or
    ``None`` at a table with no invite (:attr:`~ginrummy.store.TableRow.shared` false: a
    person's game against the computer shows no seats, no table status, no messages)."""
    if not seated.table.shared:
        return None
    return seats_json(seated.table, seated.seat, now, status=table_status(loaded),
                      card_counts=loaded.engine.card_counts()
                      if loaded.engine is not None else None)


def table_status(loaded: Loaded) -> str:
    """``table.status``: ``waiting`` (before the start), ``playing`` or ``over``."""
    if loaded.engine is None:
        return "waiting"
    return "over" if loaded.row.status == "over" else "playing"


def next_change(loaded: Loaded, table: TableRow, seat: int,
                now: float | None = None) -> float | None:
    """The next moment (seconds since the epoch) at which what ``seat`` is shown changes with
    time alone, without any write: a turn clock runs out, another person's presence lease ends
    (a process stopped without closing its streams), a person not connected becomes away
    (:data:`AWAY_AFTER`), or their seat may be handed to a computer by anyone
    (:data:`HAND_OVER_AFTER`). ``None``: nothing changes until something is written."""
    t = time.time() if now is None else now
    times = list(turn_deadlines(loaded, table).values())
    playing = table_status(loaded) == "playing"
    for s in table.seats:
        if s.kind != "person" or s.left or s.seat == seat:
            continue
        if s.connected_until > t:
            times.append(s.connected_until)
        elif playing and t - s.connected_until <= AWAY_AFTER:
            times.append(s.connected_until + AWAY_AFTER)
        elif playing and t - s.connected_until <= HAND_OVER_AFTER:
            times.append(s.connected_until + HAND_OVER_AFTER)
    return min(times) + 0.05 if times else None


def _hand_order(loaded: Loaded, seated: Seated) -> list[str] | None:
    """The seat's hand order, if it is that of the deal it is shown."""
    s = seat_row(seated.table, seated.seat)
    order = (s.hand_order if s is not None else None) or {}
    if loaded.engine is None:
        return None
    return order.get("cards") if order.get("hand") == loaded.engine.hand_number(
        seated.seat) else None


def turn_deadlines(loaded: Loaded, table: TableRow) -> dict[int, float]:
    """The turn clock's deadline (seconds since the epoch) of each deal in play whose mover is
    a person: ``{deal index: deadline}``, each from its own turn's start (a partnership's two
    tables apart); ``{}`` without a clock."""
    engine = loaded.engine
    if not table.turn_clock or engine is None or loaded.row.status == "over":
        return {}
    computer = is_computer(table)
    out = {}
    for i in engine.in_play():
        p = engine.mover(i)
        if p is not None and not computer(p):
            out[i] = loaded.turn_began(i) + table.turn_clock
    return out


def _own_deal(loaded: Loaded, seat: int) -> int | None:
    """The deal in play that ``seat`` plays (else the one it watches: three players)."""
    engine = loaded.engine
    if engine is None:
        return None
    playing = engine.in_play()
    mine = [i for i in playing if seat in engine.deal_players(i)]
    return mine[0] if mine else (playing[0] if playing else None)


def _table_json(loaded: Loaded, seated: Seated) -> dict[str, Any]:
    table = seated.table
    row = loaded.row
    status = table_status(loaded)
    invite = None
    if seated.creator and status == "waiting":
        code = invite_code(row.secret)
        invite = {"code": code, "url": f"/join/{code}"}
    own = _own_deal(loaded, seated.seat)
    deadline = turn_deadlines(loaded, table).get(own) if own is not None else None
    return {"status": status, "players": PLAYER_COUNT[loaded.scoring],
            "scoring": loaded.scoring, "creator": seated.creator, "invite": invite,
            "turn_clock": table.turn_clock, "turn_deadline": deadline,
            "rematch": {"game_id": table.rematch_id} if table.rematch_id else None,
            "rejoin": _rejoin(row.id, row.secret, seat_row(table, seated.seat))}


def _rejoin(game_id: str, secret: str, mine: SeatRow | None) -> dict[str, Any] | None:
    """``table.rejoin``: the person's own link back to their seat from another device
    (docs/tables.md, "A seat follows its person"), to that person only; the code goes after
    ``#``, so that no server or proxy log ever holds it."""
    if mine is None or mine.kind != "person" or mine.left or not mine.token_hash:
        return None
    code = seat_code(secret, mine.seat, mine.token_hash)
    return {"code": code, "url": f"/rejoin/{game_id}/{mine.seat}#{code}"}


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


def seat_state(messages: Callable[[str, int], list[MessageRow]], loaded: Loaded,
               seated: Seated, since: int | None) -> dict[str, Any]:
    """``seated``'s state with the events after ``since`` (``None``: those of its deal in
    play); ``messages(game_id, table version)`` gives the quick messages."""
    row = loaded.row
    if loaded.engine is None:
        st = _waiting_state(loaded, seated)
    else:
        st = build_state(loaded.engine, seated.seat, since, game_id=row.id,
                         deals=loaded.deals, level=row.level, preset=row.preset,
                         hand_order=_hand_order(loaded, seated))
    seats = shown_seats(loaded, seated)
    if seats is not None:
        status_json = _table_json(loaded, seated)
        st["table"] = {**(st.get("table") or {}), **status_json}
        other = st["table"].get("other")
        if isinstance(other, dict) and loaded.engine is not None:  # the other table's clock
            deadlines = turn_deadlines(loaded, seated.table)
            own = _own_deal(loaded, seated.seat)
            other["turn_deadline"] = next((d for i, d in deadlines.items() if i != own), None)
        st["seats"] = seats
        st["messages"] = [{"seq_at": m.seq_at, "seat": m.seat, "message": m.message,
                           "at": m.at}
                          for m in messages(row.id, seated.table.version)]
    return st
