"""The Hollywood match model (H; :mod:`ginrummy.bots.match_sim`) against an obviously-correct
oracle: every future played through a real :class:`~ginrummy.sheets.HollywoodSheet` (its own
entries, closing and settlement), the match's winner read from the sheet."""

from __future__ import annotations

import copy

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ginrummy.bots import match_sim
from ginrummy.bots.match_sim import HANDS, futures, match_chance
from ginrummy.rules import Rules
from ginrummy.sheets import HollywoodSheet

RULES = [Rules.preset("standard"), Rules.preset("pagat"),
         Rules.preset("standard").with_changes(shutout="double_hand_points", target=60),
         Rules.preset("standard").with_changes(shutout="none", boxes_count_toward_target=True),
         Rules.preset("pagat").with_changes(target=40)]


def _oracle(sheet: HollywoodSheet, me: int, rows: range) -> tuple[float, float]:
    """(the share of the futures ``rows`` that ``me`` wins, ties half; the mean margin)."""
    wins, points = futures(sheet.rules.gin_bonus, sheet.rules.undercut_bonus)
    score = margin = 0.0
    for i in rows:
        s = copy.deepcopy(sheet)
        for j in range(HANDS):
            if s.is_over:
                break
            s.add_result(me if wins[i, j] == 0 else 1 - me, int(points[i, j]))
        assert s.is_over, "a future of 64 deals that leaves the match open"
        won = s.winners()
        score += 1.0 if won == (me,) else 0.0 if won else 0.5
        t = s.totals()
        margin += t[me] - t[1 - me]
    return score / len(rows), margin / len(rows)


def _sheet(rules: Rules, results: list[tuple[int, int]]) -> HollywoodSheet:
    s = HollywoodSheet(rules)
    for w, p in results:
        if s.is_over:
            break
        s.add_result(w, p)
    return s


@settings(max_examples=40, deadline=None)
@given(rule=st.sampled_from(range(len(RULES))),
       results=st.lists(st.tuples(st.integers(0, 1), st.integers(1, 70)), max_size=14),
       me=st.integers(0, 1))
def test_every_future_is_the_sheet_s(rule: int, results: list[tuple[int, int]],
                                     me: int) -> None:
    sheet = _sheet(RULES[rule], results)
    wins, points = futures(sheet.rules.gin_bonus, sheet.rules.undercut_bonus)
    half = match_sim.FUTURES // 2
    rows = list(range(0, 24)) + list(range(half, half + 24))  # some futures and their mirrors
    hp, ent, bx, gw = match_sim._arrays(sheet, me)
    r = sheet.rules
    got = match_sim._play_out(hp, ent, bx, gw, wins[rows], points[rows], r.target,
                              r.box_bonus, r.boxes_count_toward_target, r.game_bonus,
                              match_sim._SHUTOUT[r.shutout])
    a, b = _oracle(sheet, me, range(0, 24)), _oracle(sheet, me, range(half, half + 24))
    want = ((a[0] + b[0]) / 2, (a[1] + b[1]) / 2)
    assert got == pytest.approx(want, abs=1e-9), (results, me)


def test_the_mirror_images_add_up_to_one_and_an_ended_match_is_certain() -> None:
    for rules in RULES:
        for results in ([], [(0, 18), (1, 12), (0, 25)], [(1, 60), (1, 45), (0, 5)]):
            s = _sheet(rules, results)
            assert match_chance(s, 0) + match_chance(s, 1) == pytest.approx(1.0)
    s = _sheet(RULES[0], [(0, 100), (0, 100), (0, 100)])
    assert s.is_over and match_chance(s, 0) == 1.0 and match_chance(s, 1) == 0.0
    assert match_chance(HollywoodSheet(RULES[0]), 0) == 0.5
    with pytest.raises(ValueError):
        match_chance(s, 2)


def test_the_futures_follow_the_deal_model() -> None:
    from ginrummy.bots.value import deal_points_model
    r = RULES[0]
    wins, points = futures(r.gin_bonus, r.undercut_bonus)
    half = match_sim.FUTURES // 2
    assert wins.shape == points.shape == (match_sim.FUTURES, HANDS)
    assert np.array_equal(wins[:half], 1 - wins[half:])
    assert np.array_equal(points[:half], points[half:])
    d = deal_points_model(r.gin_bonus, r.undercut_bonus)
    mean = float(d @ np.arange(len(d)))
    se = float(np.sqrt(d @ (np.arange(len(d)) - mean) ** 2 / points[:half].size))
    assert abs(points[:half].mean() - mean) < 4 * se
    assert abs(wins[:half].mean() - 0.5) < 4 * 0.5 / np.sqrt(wins[:half].size)
    assert not wins.flags.writeable and not points.flags.writeable
