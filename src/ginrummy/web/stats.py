"""A person's statistics (``GET /api/stats``, docs/api.md): games and hands won and lost, gins,
knocks, undercuts, the best margin and the current streak, read from the store.

A browser's games are those it created (against the computer, or tables it made: its seat is
0) and the tables it joined (from the seat it took, :meth:`ginrummy.store.tables.TableStore.
joined_games`); each counts from that browser's own seat: its deals (a partnership: those of its
table), its wins (a partnership: its team's)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..store import Store
from ..store.tables import TableStore
from .state import YOU

__all__ = ["player_stats"]


@dataclass(frozen=True)
class _Game:
    status: str
    won: bool
    margin: int | None
    created_at: float
    finished_at: float | None


@dataclass(frozen=True)
class _Hand:
    kind: str
    outcome: str | None  # "won" | "lost" | None (dead, tie)
    knocked: bool


def _created(store: Store, player_id: str) -> tuple[list[_Game], list[_Hand]]:
    """The games the browser created, from seat 0's side (their stored results)."""
    games = [_Game(g.status, g.winner == YOU, g.margin, g.created_at, g.finished_at)
             for g in store.player_games(player_id)]
    hands = [_Hand(k, None if w is None else ("won" if w == YOU else "lost"), kn == YOU)
             for k, w, kn in store.player_results(player_id)]
    return games, hands


def _joined(tables: TableStore, player_id: str) -> tuple[list[_Game], list[_Hand]]:
    """The tables the browser joined, from the seat it holds there."""
    joined = tables.joined_games(player_id)
    seat_of = {g.game_id: g.seat for g in joined}
    games = [_Game(g.status, g.winner_seats is not None and g.seat in g.winner_seats, g.margin,
                   g.created_at, g.finished_at) for g in joined]
    hands = []
    for d in tables.deal_results(list(seat_of)):
        seat = seat_of[d.game_id]
        if seat not in d.players:
            continue  # the other table's deal (partnership), or one the seat sat out (3P)
        outcome = None if d.winner_seat is None else ("won" if d.winner_seat == seat
                                                      else "lost")
        hands.append(_Hand(d.kind, outcome, d.knocker_seat == seat))
    return games, hands


def player_stats(store: Store, tables: TableStore, player_id: str | None) -> dict[str, Any]:
    """Statistics of one browser (``player_id``: its ``ginrummy_player`` id; ``None``: all
    zero), each game from the seat it held (see the module docstring)."""
    games: list[_Game] = []
    hands: list[_Hand] = []
    if player_id:
        for some_games, some_hands in (_created(store, player_id),
                                       _joined(tables, player_id)):
            games.extend(some_games)
            hands.extend(some_hands)
    games = [g for g in games if g.status != "waiting"]
    finished = [g for g in games if g.status == "over"]
    won = [g for g in finished if g.won]
    margins = [g.margin for g in won if g.margin is not None]
    streak_kind: str | None = None
    streak = 0
    for g in sorted(finished, key=lambda g: (g.finished_at or 0, g.created_at), reverse=True):
        kind = "won" if g.won else "lost"
        if streak_kind is None:
            streak_kind = kind
        if kind != streak_kind:
            break
        streak += 1

    def count(kind: str, outcome: str) -> int:
        return sum(1 for h in hands if h.kind == kind and h.outcome == outcome)

    return {
        "games_played": len(finished),
        "games_won": len(won),
        "games_lost": len(finished) - len(won),
        "games_in_progress": len(games) - len(finished),
        "hands_played": len(hands),
        "hands_won": sum(1 for h in hands if h.outcome == "won"),
        "hands_lost": sum(1 for h in hands if h.outcome == "lost"),
        "hands_dead": sum(1 for h in hands if h.kind == "dead"),
        "gins": count("gin", "won"),
        "big_gins": count("big_gin", "won"),
        "gins_against": count("gin", "lost") + count("big_gin", "lost"),
        "knocks": sum(1 for h in hands if h.knocked and h.kind in ("knock", "undercut", "tie")),
        "knocks_won": count("knock", "won"),
        "undercuts_by_you": count("undercut", "won"),
        "undercuts_against_you": count("undercut", "lost"),
        "best_margin": max(margins) if margins else None,
        "current_streak": {"kind": streak_kind, "length": streak},
    }
