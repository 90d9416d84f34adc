"""The finished games a person's rating counts, read from the store (read only; rated by
:mod:`ginrummy.web.tables.rating_stats`).

A game counts when it is a standard two-player game (no ``game_tables`` row: Hollywood, three
players and partnership tables are not rated) that finished with a winner: ``over`` (its winning
seat) or ``resigned`` (only a person alone with the computer may resign: the computer won).
Its two sides, in seat order, are each a person (the browser's ``ginrummy_player`` id that sits
there: a seat's ``player_id``, or for the creator's seat the game's own ``player_id``; ``None``
when the store does not know the browser) or a computer at a level: read from the game's table
and seats, a game against the computer being a table with one person like any other.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from sqlalchemy import Engine, or_, select

from .rows import seats_of_text, storable_id
from .schema import FINISHED, game_tables, games, seats, tables

__all__ = ["Side", "RatedGame", "rated_games"]

#: ids per IN list.
_BATCH = 500


@dataclass(frozen=True)
class Side:
    """One side of a rated game: a person (``player_id``, None when unknown) or a computer
    (``level``)."""

    player_id: str | None = None
    level: str | None = None

    @property
    def computer(self) -> bool:
        return self.level is not None


@dataclass(frozen=True)
class RatedGame:
    """A finished standard two-player game: its two ``sides`` in seat order and the index (0
    or 1) of the side that won; ``finished_at`` in seconds since the epoch."""

    game_id: str
    finished_at: float
    sides: tuple[Side, Side]
    winner: int


def _chunks(ids: Sequence[str]) -> Iterable[list[str]]:
    for i in range(0, len(ids), _BATCH):
        yield list(ids[i:i + _BATCH])


def rated_games(engine: Engine, player_ids: Iterable[str]) -> list[RatedGame]:
    """Every rated game (module docstring) in which any of ``player_ids`` holds a side,
    oldest finish first (ties by game id). Two reads per 500 ids."""
    ids = sorted({p for p in player_ids if storable_id(p)})
    if not ids:
        return []
    rows: dict[str, Any] = {}
    with engine.connect() as conn:
        for chunk in _chunks(ids):
            joined = select(seats.c.game_id).where(seats.c.player_id.in_(chunk))
            q = (select(games.c.id, games.c.player_id, games.c.status, games.c.winner_seats,
                        games.c.finished_at, games.c.created_at, tables.c.creator_seat)
                 .join(tables, tables.c.game_id == games.c.id)
                 .where(or_(games.c.player_id.in_(chunk), games.c.id.in_(joined)),
                        games.c.status.in_(FINISHED),
                        games.c.id.not_in(select(game_tables.c.game_id))))
            for r in conn.execute(q).all():
                rows[r.id] = r
        game_ids = sorted(rows)
        seated: dict[str, list[Any]] = {}
        for chunk in _chunks(game_ids):
            for s in conn.execute(select(seats.c.game_id, seats.c.seat, seats.c.kind,
                                         seats.c.level, seats.c.player_id)
                                  .where(seats.c.game_id.in_(chunk))
                                  .order_by(seats.c.game_id, seats.c.seat)).all():
                seated.setdefault(s.game_id, []).append(s)
    out = []
    for gid in game_ids:
        made = _rated(rows[gid], seated.get(gid, []))
        if made is not None:
            out.append(made)
    out.sort(key=lambda x: (x.finished_at, x.game_id))
    return out


def _rated(g: Any, seat_rows: list[Any]) -> RatedGame | None:
    # a game stored over at its creation before finished_at was written then has none: it
    # finished when it was created
    finished = g.finished_at or g.created_at
    creator_seat = g.creator_seat
    if len(seat_rows) != 2:
        return None
    two = []
    for s in seat_rows:
        if s.kind == "computer":
            two.append(Side(level=s.level))
        else:
            pid = s.player_id
            if pid is None and s.seat == creator_seat:
                pid = g.player_id
            two.append(Side(player_id=pid))
    sides = (two[0], two[1])
    if g.status == "resigned":
        beat = [i for i, x in enumerate(sides) if x.computer]
        return RatedGame(g.id, finished, sides, beat[0]) if len(beat) == 1 else None
    won = seats_of_text(g.winner_seats)
    seat_nums = [s.seat for s in seat_rows]
    if not won or len(won) != 1 or won[0] not in seat_nums:
        return None
    return RatedGame(g.id, finished, sides, seat_nums.index(won[0]))
