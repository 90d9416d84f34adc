"""The tournament runner: seat-swapped pairs, reproducible, the promised JSON fields."""

from __future__ import annotations

import json

from ginrummy.rules import Rules
from ginrummy.tournament import format_table, play_game, run_tournament, wilson

FIELDS = {"win_rate", "ci_low", "ci_high", "games", "decision_ms_p50", "decision_ms_p99",
          "points_per_hand", "finish", "a_undercut_rate", "wins_a", "wins_b", "hands"}


def test_wilson() -> None:
    lo, hi = wilson(75, 100)
    assert 0.65 < lo < 0.75 < hi < 0.83
    assert wilson(0, 0) == (0.0, 1.0)
    assert wilson(10, 10)[1] == 1.0


def test_pairs_swap_seats_on_the_same_deals() -> None:
    rules = Rules.preset("eaai")
    g0 = play_game("simple", "simple", rules, seed=4, pair=0, a_seat=0)
    g1 = play_game("simple", "simple", rules, seed=4, pair=0, a_seat=1)
    # the same first deal: A's result in one game is B's in the other with identical players
    # only when the random choices agree, so compare the deal count and kinds loosely
    assert g0.hands and g1.hands
    assert g0.a_won is not None and g1.a_won is not None


def test_run_and_json() -> None:
    rules = Rules.preset("eaai")
    seen: list[tuple[int, int]] = []
    r = run_tournament("simple", "random", games=6, rules=rules, seed=3,
                       progress=lambda d, t: seen.append((d, t)))
    assert r.games == 6 and seen[-1] == (6, 6)
    assert r.wins_a == 6
    data = r.to_json()
    assert set(data) >= FIELDS
    json.dumps(data)
    assert set(data["finish"]) >= {"knock", "gin", "big_gin", "undercut", "dead"}
    text = format_table(r)
    assert "simple" in text and "95% CI" in text and "p99" in text


def test_reproducible_and_parallel_equal() -> None:
    rules = Rules.preset("eaai")
    a = run_tournament("medium", "simple", games=4, rules=rules, seed=9, jobs=1).to_json()
    b = run_tournament("medium", "simple", games=4, rules=rules, seed=9, jobs=2).to_json()
    for k in ("wins_a", "wins_b", "hands", "points_per_hand", "finish", "a_knocks"):
        assert a[k] == b[k]


def test_no_endless_exchange(kernel_ready: None) -> None:
    """This deal once made expert and hard trade face-up cards for ever (the game never ended):
    neither takes back its own discard now."""
    g = play_game("expert", "hard", Rules.preset("eaai"), seed=2027, pair=7, a_seat=0)
    assert g.a_won is not None
