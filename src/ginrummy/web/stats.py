"""Statistics of one browser's games (``GET /api/stats``, docs/api.md "Statistics"), from the
person's side (seat 0, the creator's): games and hands won and lost, the win rate, the current
and longest streaks, and the results by difficulty (the computer's level) and by variant (the
table's scoring when it is not the standard one, else the rules preset).

A game is finished when it is over or resigned (``status`` ``"over"`` or ``"resigned"``); a
resigned game counts as lost (docs/api.md ``POST /api/games/{id}/resign``). Pure: the store
reads are the caller's.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from ..store import GameRow
from ..store.db import FINISHED

__all__ = ["FINISHED", "player_stats", "variant_of"]


def variant_of(game: GameRow, scoring: str | None) -> str:
    """The variant a game is counted under: its table's scoring (``hollywood``,
    ``three_player``, ``partnership``), or for a standard table its rules preset
    (``standard``, ``oklahoma``, ...)."""
    return scoring if scoring and scoring != "standard" else game.preset


def _won(game: GameRow, you: int) -> bool:
    return game.status == "over" and game.winner == you


def _rate(won: int, played: int) -> float | None:
    return round(won / played, 4) if played else None


def _results(games: Iterable[GameRow], you: int) -> dict[str, Any]:
    gs = list(games)
    won = sum(1 for g in gs if _won(g, you))
    return {"played": len(gs), "won": won, "lost": len(gs) - won, "win_rate": _rate(won, len(gs))}


def player_stats(games: Sequence[GameRow], results: Sequence[tuple[str, int | None, int | None]],
                 scorings: Mapping[str, str] | None = None, you: int = 0) -> dict[str, Any]:
    """The statistics object of docs/api.md.

    :param games: the browser's games (any status; ``waiting`` tables are left out).
    :param results: ``(kind, winner, knocker)`` of each finished deal of those games.
    :param scorings: game id -> scoring, for the games that are not standard tables.
    :param you: the person's seat.
    :returns: counts (ints), ``win_rate`` (0..1, 4 decimals, or null before a finished game),
        ``current_streak`` ``{"kind": "won"|"lost"|null, "length"}``, ``longest_streak`` (games
        won in a row, the most), ``best_margin`` (points, null before a win), and
        ``by_level`` / ``by_variant``: ``{name: {"played", "won", "lost", "win_rate"}}`` over
        finished games, most played first.
    """
    scorings = scorings or {}
    games = [g for g in games if g.status != "waiting"]
    finished = [g for g in games if g.status in FINISHED]
    won = [g for g in finished if _won(g, you)]
    margins = [g.margin for g in won if g.margin is not None]
    in_order = sorted(finished, key=lambda g: (g.finished_at or g.updated_at or 0, g.created_at))
    streak_kind: str | None = None
    streak = 0
    for g in reversed(in_order):
        kind = "won" if _won(g, you) else "lost"
        if streak_kind is None:
            streak_kind = kind
        if kind != streak_kind:
            break
        streak += 1
    longest = run = 0
    for g in in_order:
        run = run + 1 if _won(g, you) else 0
        longest = max(longest, run)
    other = 1 - you if you in (0, 1) else 1
    hands_won = sum(1 for _, w, _ in results if w == you)
    hands_lost = sum(1 for _, w, _ in results if w is not None and w != you)

    def count(kind: str, winner: int) -> int:
        return sum(1 for k, w, _ in results if k == kind and w == winner)

    def grouped(key: Any) -> dict[str, Any]:
        groups: dict[str, list[GameRow]] = {}
        for g in finished:
            groups.setdefault(key(g), []).append(g)
        ordered = sorted(groups.items(), key=lambda kv: (-len(kv[1]), kv[0]))
        return {name: _results(gs, you) for name, gs in ordered}

    return {
        "games_played": len(finished),
        "games_won": len(won),
        "games_lost": len(finished) - len(won),
        "win_rate": _rate(len(won), len(finished)),
        "games_resigned": sum(1 for g in finished if g.status == "resigned"),
        "games_in_progress": len(games) - len(finished),
        "hands_played": len(results),
        "hands_won": hands_won,
        "hands_lost": hands_lost,
        "hands_dead": sum(1 for k, _, _ in results if k == "dead"),
        "gins": count("gin", you),
        "big_gins": count("big_gin", you),
        "gins_against": count("gin", other) + count("big_gin", other),
        "knocks": sum(1 for k, _, kn in results
                      if kn == you and k in ("knock", "undercut", "tie")),
        "knocks_won": count("knock", you),
        "undercuts_by_you": count("undercut", you),
        "undercuts_against_you": count("undercut", other),
        "best_margin": max(margins) if margins else None,
        "current_streak": {"kind": streak_kind, "length": streak},
        "longest_streak": longest,
        "by_level": grouped(lambda g: g.level),
        "by_variant": grouped(lambda g: variant_of(g, scorings.get(g.id))),
    }
