"""The game-win table for players of unequal strength (``win_table``'s ``share``) and the
share of deals a rating gap gives (``deal_share``): what the review values a game's later
deals with when it knows who plays (issue 20, docs/review.md "Who is playing")."""

from __future__ import annotations

from functools import cache

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ginrummy.bots.value import deal_points_model, deal_share, race_table, win_table
from ginrummy.rules import Rules

STANDARD = Rules.preset("standard")


def slow_race(target: int, dist: dict[int, float], share: float, a: int, b: int) -> float:
    """The race to ``target`` by its definition: each deal scores ``x`` points with chance
    ``dist[x]``, for the first player with chance ``share``, else for the second."""

    @cache
    def v(a: int, b: int) -> float:
        if a >= target:
            return 1.0
        if b >= target:
            return 0.0
        return sum(p * (share * v(a + x, b) + (1 - share) * v(a, b + x))
                   for x, p in dist.items())

    return v(a, b)


@settings(max_examples=30, deadline=None)
@given(st.integers(5, 30), st.floats(0.05, 0.95),
       st.dictionaries(st.integers(1, 12), st.floats(0.01, 1.0), min_size=1, max_size=4))
def test_the_table_is_the_race_by_its_definition(target: int, share: float,
                                                 weights: dict[int, float]) -> None:
    total = sum(weights.values())
    dist = {x: w / total for x, w in weights.items()}
    arr = np.zeros(13)
    for x, p in dist.items():
        arr[x] = p
    from ginrummy.bots.value import _solve

    table = _solve(target, arr, share)
    for a in range(0, target, max(1, target // 4)):
        for b in range(0, target, max(1, target // 3)):
            assert table[a, b] == pytest.approx(slow_race(target, dist, share, a, b),
                                                abs=1e-9)


def test_an_even_share_is_the_even_table() -> None:
    even = win_table(STANDARD)
    assert win_table(STANDARD, share=0.5) is even
    assert np.array_equal(even, race_table(100, deal_points_model(25, 25)))


@pytest.mark.parametrize("share", [0.3, 0.55, 0.8])
def test_the_two_sides_chances_add_to_one(share: float) -> None:
    mine = win_table(STANDARD, share=share)
    theirs = win_table(STANDARD, share=round(1 - share, 3))
    for a, b in [(0, 0), (50, 10), (95, 99), (10, 90)]:
        assert mine[a, b] + theirs[b, a] == pytest.approx(1.0, abs=1e-9)


def test_a_stronger_player_is_likelier_to_win_from_any_score() -> None:
    lo, mid, hi = (win_table(STANDARD, share=s) for s in (0.4, 0.5, 0.6))
    cells = (slice(0, 100), slice(0, 100))
    assert np.all(lo[cells] <= mid[cells] + 1e-12)
    assert np.all(mid[cells] <= hi[cells] + 1e-12)
    assert hi[0, 0] > 0.6 and lo[0, 0] < 0.4


@pytest.mark.parametrize("bad", [0.0, 1.0, -0.1, 1.5, float("nan")])
def test_a_share_outside_zero_one_is_refused(bad: float) -> None:
    with pytest.raises(ValueError, match="share"):
        win_table(STANDARD, share=bad)


@pytest.mark.parametrize("gap", [25, 100, 232, 400, 532])
def test_a_rating_gap_gives_the_share_whose_race_has_its_expected_score(gap: float) -> None:
    share = deal_share(gap)
    expected = 1 / (1 + 10 ** (-gap / 400))
    # the share is rounded to 0.001: the race's first cell lands within that of the Elo score
    assert win_table(STANDARD, share=share)[0, 0] == pytest.approx(expected, abs=0.004)
    assert deal_share(-gap) == pytest.approx(1 - share, abs=1e-9)
    assert 0.5 < share < expected  # a deal is closer to even than a game of many deals


def test_the_share_rises_with_the_gap() -> None:
    shares = [deal_share(g) for g in range(-600, 601, 50)]
    assert shares == sorted(shares) and len(set(shares)) == len(shares)
    assert deal_share(0) == 0.5
