"""A player's statistics (``GET /api/stats``, docs/api.md): games and hands won and lost, gins,
knocks, undercuts, the best margin and the current streak, read from the store."""

from __future__ import annotations

from typing import Any

from ..store import Store
from .state import YOU

__all__ = ["player_stats"]


def player_stats(store: Store, player_id: str | None) -> dict[str, Any]:
    """Statistics of the games created by one browser (``player_id``), from seat 0's side."""
    games = store.player_games(player_id) if player_id else []
    results = store.player_results(player_id) if player_id else []
    games = [g for g in games if g.status != "waiting"]
    finished = [g for g in games if g.status == "over"]
    won = [g for g in finished if g.winner == YOU]
    margins = [g.margin for g in won if g.margin is not None]
    streak_kind: str | None = None
    streak = 0
    for g in sorted(finished, key=lambda g: (g.finished_at or 0, g.created_at), reverse=True):
        kind = "won" if g.winner == YOU else "lost"
        if streak_kind is None:
            streak_kind = kind
        if kind != streak_kind:
            break
        streak += 1
    other = 1
    hands_won = sum(1 for _, w, _ in results if w == YOU)
    hands_lost = sum(1 for _, w, _ in results if w == other)

    def count(kind: str, winner: int) -> int:
        return sum(1 for k, w, _ in results if k == kind and w == winner)

    return {
        "games_played": len(finished),
        "games_won": len(won),
        "games_lost": len(finished) - len(won),
        "games_in_progress": len(games) - len(finished),
        "hands_played": len(results),
        "hands_won": hands_won,
        "hands_lost": hands_lost,
        "hands_dead": sum(1 for k, _, _ in results if k == "dead"),
        "gins": count("gin", YOU),
        "big_gins": count("big_gin", YOU),
        "gins_against": count("gin", other) + count("big_gin", other),
        "knocks": sum(1 for k, _, kn in results
                      if kn == YOU and k in ("knock", "undercut", "tie")),
        "knocks_won": count("knock", YOU),
        "undercuts_by_you": count("undercut", YOU),
        "undercuts_against_you": count("undercut", other),
        "best_margin": max(margins) if margins else None,
        "current_streak": {"kind": streak_kind, "length": streak},
    }
