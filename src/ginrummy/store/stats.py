"""The statistics' reads: the games a browser created and their deals' results (seat 0's side),
and the games of the tables it joined with their deals' results in seats. What they add up to is
:mod:`ginrummy.web.tables.stats`'s job.
"""

from __future__ import annotations

from dataclasses import dataclass

from sqlalchemy import Engine, or_, select

from .rows import GameRow, game_row, seats_of_text, storable_id
from .schema import deals, games, seats

__all__ = ["Statistics", "JoinedGame", "FinishedDeal"]


@dataclass(frozen=True)
class JoinedGame:
    """A game of a table a browser joined: the seat it holds and the game's result columns
    (``winner_seats``: see :class:`~ginrummy.store.rows.GameRow`)."""

    game_id: str
    seat: int
    status: str
    winner_seats: tuple[int, ...] | None
    margin: int | None
    created_at: float
    finished_at: float | None
    preset: str = "standard"


@dataclass(frozen=True)
class FinishedDeal:
    """A finished deal's result in seats: the two seats that played it, its kind, the
    winning and the knocking seat (``None``: none)."""

    game_id: str
    players: tuple[int, ...]
    kind: str
    winner_seat: int | None
    knocker_seat: int | None


class Statistics:
    """The statistics' reads of the database of ``engine`` (the
    :class:`~ginrummy.store.Store`'s, whose tables it reads: it creates none). ``single``: the
    engine of reads (the store's :attr:`~ginrummy.store.Store.single`: autocommit on
    PostgreSQL); default ``engine``. An id that is not
    :func:`~ginrummy.store.rows.storable_id` has nothing."""

    def __init__(self, engine: Engine, single: Engine | None = None) -> None:
        self.engine = engine
        self.single = single if single is not None else engine

    def player_games(self, player_id: str) -> list[GameRow]:
        """The games the browser ``player_id`` created, oldest first."""
        if not storable_id(player_id):
            return []
        with self.single.connect() as conn:
            rows = conn.execute(select(games).where(games.c.player_id == player_id)
                                .order_by(games.c.created_at)).all()
        return [game_row(r) for r in rows]

    def player_results(self, player_id: str) -> list[tuple[str, int | None, int | None]]:
        """``(kind, winner, knocker)`` of each finished deal of the games the browser created
        (seat 0's side: 0 is seat 0, 1 its opponent, ``None`` nobody)."""
        if not storable_id(player_id):
            return []
        q = (select(deals.c.result_kind, deals.c.result_winner, deals.c.result_knocker)
             .join(games, games.c.id == deals.c.game_id)
             .where(games.c.player_id == player_id, deals.c.finished.is_(True)))
        with self.single.connect() as conn:
            return [(r[0], r[1], r[2]) for r in conn.execute(q).all()]

    def joined_games(self, player_id: str) -> list[JoinedGame]:
        """The games where the browser ``player_id`` holds a seat at a table it did not create
        (one per game: its lowest such seat), oldest first."""
        if not storable_id(player_id):
            return []
        q = (select(games.c.id, games.c.status, games.c.winner_seats, games.c.margin,
                    games.c.created_at, games.c.finished_at, seats.c.seat, games.c.preset)
             .join(seats, seats.c.game_id == games.c.id)
             .where(seats.c.player_id == player_id,
                    or_(games.c.player_id.is_(None), games.c.player_id != player_id))
             .order_by(games.c.created_at, seats.c.seat))
        with self.single.connect() as conn:
            rows = conn.execute(q).all()
        out: dict[str, JoinedGame] = {}
        for r in rows:
            out.setdefault(r.id, JoinedGame(r.id, r.seat, r.status,
                                            seats_of_text(r.winner_seats), r.margin,
                                            r.created_at, r.finished_at, r.preset))
        return list(out.values())

    def deal_results(self, game_ids: list[str]) -> list[FinishedDeal]:
        """The results of the finished deals of ``game_ids`` in seats (deals stored before
        schema 4 have none)."""
        out: list[FinishedDeal] = []
        for i in range(0, len(game_ids), 500):  # bounded IN lists
            q = (select(deals.c.game_id, deals.c.players, deals.c.result_kind,
                        deals.c.winner_seat, deals.c.knocker_seat)
                 .where(deals.c.game_id.in_(game_ids[i:i + 500]),
                        deals.c.players.is_not(None), deals.c.result_kind.is_not(None)))
            with self.engine.connect() as conn:
                out.extend(FinishedDeal(r.game_id, seats_of_text(r.players) or (),
                                        r.result_kind, r.winner_seat, r.knocker_seat)
                           for r in conn.execute(q).all())
        return out
