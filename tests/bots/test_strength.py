"""Small seeded panels with loose floors: a regression in a level's play fails the build.

The panels are seeded (they replay exactly); the floors are far below the measured strength
(benchmarks/results/bots-*.md) so that they only catch real regressions.
"""

from __future__ import annotations

import pytest

from ginrummy.rules import Rules
from ginrummy.tournament import run_tournament

EAAI = Rules.preset("eaai")

PANELS = [
    # (a, b, games, floor on A's share of games won)
    ("simple", "random", 10, 0.9),
    ("easy", "random", 10, 0.9),
    ("medium", "easy", 40, 0.6),
    ("hard", "easy", 30, 0.6),
    ("hard", "simple", 40, 0.45),
    # the reference opponent (measured 76.8% of 400 games vs simple, 2026-12-01)
    ("marjj", "simple", 40, 0.55),
]


@pytest.mark.parametrize(("a", "b", "games", "floor"), PANELS)
def test_panel(a: str, b: str, games: int, floor: float) -> None:
    r = run_tournament(a, b, games=games, rules=EAAI, seed=2024, jobs=2)
    assert r.win_rate >= floor, r.to_json()


def test_expert_panel(kernel_ready: None) -> None:
    r = run_tournament("expert", "simple", games=10, rules=EAAI, seed=2024, jobs=2)
    assert r.win_rate >= 0.5, r.to_json()
    # points per hand are a steadier signal than 10 games
    assert r.points_per_hand > 0, r.to_json()
