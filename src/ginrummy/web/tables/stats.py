"""A person's statistics (``GET /api/stats``, docs/api.md): games and hands won and lost, gins,
knocks, undercuts, the best margin and the current streak, read from the store.

A browser's games are those it created (against the computer, or tables it made: its seat is
0) and the tables it joined (from the seat it took, :meth:`ginrummy.store.Statistics.
joined_games`); each counts from that browser's own seat: its deals (a partnership: those of its
table), its wins (a partnership: its team's).

A game is finished when it is over or resigned (``status`` in :data:`ginrummy.store.FINISHED`;
a resigned game is lost, docs/api.md "Resigning"). Besides the counts: the win rate, the longest
winning streak, and the results by difficulty (the computer's level, of the games played against
the computer) and by variant (the table's scoring when it is not the standard one, else the
rules preset)."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from ...store import FINISHED, Statistics
from .engine import YOU

__all__ = ["player_stats", "summary", "variant_of", "PlayedGame", "PlayedHand"]


@dataclass(frozen=True)
class PlayedGame:
    status: str
    won: bool
    margin: int | None
    created_at: float
    finished_at: float | None
    game_id: str = ""
    level: str | None = None  # the computer's level (games the browser created)
    preset: str = "standard"


def variant_of(preset: str, scoring: str | None) -> str:
    """The variant a game is counted under: its table's scoring (``hollywood``,
    ``three_player``, ``partnership``), or for a standard table its rules preset."""
    return scoring if scoring and scoring != "standard" else preset


def _rate(won: int, played: int) -> float | None:
    return round(won / played, 4) if played else None


def _results(games: Iterable[PlayedGame]) -> dict[str, Any]:
    gs = list(games)
    won = sum(1 for g in gs if g.won)
    return {"played": len(gs), "won": won, "lost": len(gs) - won, "win_rate": _rate(won, len(gs))}


@dataclass(frozen=True)
class PlayedHand:
    kind: str
    outcome: str | None  # "won" | "lost" | None (dead, tie)
    knocked: bool


def _created(reads: Statistics, player_id: str) -> tuple[list[PlayedGame], list[PlayedHand]]:
    """The games the browser created, from seat 0's side (their stored results)."""
    games = [PlayedGame(g.status, g.status == "over" and g.winner == YOU, g.margin, g.created_at,
                   g.finished_at, g.id, g.level, g.preset)
             for g in reads.player_games(player_id)]
    hands = [PlayedHand(k, None if w is None else ("won" if w == YOU else "lost"), kn == YOU)
             for k, w, kn in reads.player_results(player_id)]
    return games, hands


def _joined(reads: Statistics, player_id: str) -> tuple[list[PlayedGame], list[PlayedHand]]:
    """The tables the browser joined, from the seat it holds there."""
    joined = reads.joined_games(player_id)
    seat_of = {g.game_id: g.seat for g in joined}
    games = [PlayedGame(g.status, g.winner_seats is not None and g.seat in g.winner_seats, g.margin,
                   g.created_at, g.finished_at, g.game_id, None, g.preset) for g in joined]
    hands = []
    for d in reads.deal_results(list(seat_of)):
        seat = seat_of[d.game_id]
        if seat not in d.players:
            continue  # the other table's deal (partnership), or one the seat sat out (3P)
        outcome = None if d.winner_seat is None else ("won" if d.winner_seat == seat
                                                      else "lost")
        hands.append(PlayedHand(d.kind, outcome, d.knocker_seat == seat))
    return games, hands


def player_stats(reads: Statistics, player_id: str | None,
                 scorings: Callable[[list[str]], Mapping[str, str]] | None = None
                 ) -> dict[str, Any]:
    """Statistics of one browser (``player_id``: its ``ginrummy_player`` id; ``None``: all
    zero), each game from the seat it held (see the module docstring), read through ``reads``
    (the store's :class:`~ginrummy.store.Statistics`). ``scorings``: game ids
    -> the scoring of those that are not standard tables (for ``by_variant``).

    :returns: docs/api.md "Statistics": counts, ``win_rate`` (0..1, 4 decimals, null before a
        finished game), ``current_streak``, ``longest_streak``, ``by_level`` / ``by_variant``
        (``{name: {"played", "won", "lost", "win_rate"}}``, most played first).
    """
    games: list[PlayedGame] = []
    hands: list[PlayedHand] = []
    if player_id:
        for some_games, some_hands in (_created(reads, player_id),
                                       _joined(reads, player_id)):
            games.extend(some_games)
            hands.extend(some_hands)
    ids = [g.game_id for g in games if g.status in FINISHED]
    return summary(games, hands, dict(scorings(ids)) if scorings and ids else {})


def summary(games: list[PlayedGame], hands: list[PlayedHand], kinds: Mapping[str, str]
            ) -> dict[str, Any]:
    """The statistics object of the games and hands (each from its browser's seat); ``kinds``:
    game id -> scoring of the non-standard tables. Pure."""
    games = [g for g in games if g.status != "waiting"]
    finished = [g for g in games if g.status in FINISHED]
    won = [g for g in finished if g.won]
    margins = [g.margin for g in won if g.margin is not None]
    in_order = sorted(finished, key=lambda g: (g.finished_at or g.created_at, g.created_at))
    streak_kind: str | None = None
    streak = 0
    for g in reversed(in_order):
        kind = "won" if g.won else "lost"
        if streak_kind is None:
            streak_kind = kind
        if kind != streak_kind:
            break
        streak += 1
    longest = run = 0
    for g in in_order:
        run = run + 1 if g.won else 0
        longest = max(longest, run)

    def grouped(key: Callable[[PlayedGame], str | None]) -> dict[str, Any]:
        groups: dict[str, list[PlayedGame]] = {}
        for g in finished:
            k = key(g)
            if k is not None:
                groups.setdefault(k, []).append(g)
        ordered = sorted(groups.items(), key=lambda kv: (-len(kv[1]), kv[0]))
        return {name: _results(gs) for name, gs in ordered}

    def count(kind: str, outcome: str) -> int:
        return sum(1 for h in hands if h.kind == kind and h.outcome == outcome)

    return {
        "games_played": len(finished),
        "games_won": len(won),
        "games_lost": len(finished) - len(won),
        "win_rate": _rate(len(won), len(finished)),
        "games_resigned": sum(1 for g in finished if g.status == "resigned"),
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
        "longest_streak": longest,
        "by_level": grouped(lambda g: g.level),
        "by_variant": grouped(lambda g: variant_of(g.preset, kinds.get(g.game_id))),
    }
