"""What a deal's result is worth in each form (ginrummy.bots.stakes, ginrummy.bots.value): the
three-player race, the partnership's team race on the net of two tables, Hollywood's match, and
how they reach the ``expert`` through the context of the one bot loop."""

from __future__ import annotations

import random

import numpy as np
import pytest

from ginrummy.bots import Context, make_bot
from ginrummy.bots.play import advance, context_of
from ginrummy.bots.stakes import (
    SPAN,
    DealValue,
    deal_value,
    hollywood_value,
    partnership_value,
    three_player_value,
)
from ginrummy.bots.value import (
    duration_table,
    partnership_table,
    signed_deal_model,
    three_player_tables,
    win_chance_after,
    win_table,
)
from ginrummy.game import Game
from ginrummy.rules import Rules
from ginrummy.sheets import HollywoodSheet

STANDARD = Rules.preset("standard")
PARTNERSHIP = Rules.preset("partnership")
KS = np.array([-200, -60, -25, -10, -1, 0, 1, 10, 25, 60, 200])


def test_three_player_race_gives_each_state_a_winner() -> None:
    """From any state the three players' chances add up to 1 (the one M plays sees it from
    its own side in ``A``, the one who sits out in ``B``), and more points never hurt."""
    tables = three_player_tables(STANDARD)
    assert tables is not None
    a, b = tables
    rng = np.random.default_rng(1)
    for x, y, z in rng.integers(0, 100, size=(50, 3)):
        assert a[x, y, z] + a[y, x, z] + b[z, x, y] == pytest.approx(1.0, abs=1e-9)
    assert a[0, 0, 0] > 1 / 3 > b[0, 0, 0]  # playing first beats sitting out first
    assert np.all(np.diff(a, axis=0) >= -1e-12)  # more points of one's own: no worse
    assert np.all(np.diff(a, axis=1) <= 1e-12)  # more points for the opponent: no better


def test_three_player_value_follows_the_rotation() -> None:
    """A win keeps the winner at the table against the one who sat out; a loss sits it out."""
    a, b = three_player_tables(STANDARD) or (None, None)
    assert a is not None and b is not None
    v = three_player_value(STANDARD, 50, 20, 80)
    assert v.chance(10) == pytest.approx(a[60, 80, 20])
    assert v.chance(-10) == pytest.approx(b[50, 30, 80])
    assert v.chance(0) == pytest.approx(a[50, 20, 80])
    assert v.chance(50) == 1.0 and v.chance(-80) == 0.0
    vals = v(KS)
    wins, losses = vals[KS > 0], vals[KS < 0]
    assert np.all(np.diff(wins) >= 0) and np.all(np.diff(losses) >= 0)
    assert losses.max() < vals[KS == 0][0]
    # not monotone across 0: a dead hand keeps the leader (80) sitting out and this player
    # against the one at 20, where a 1-point win would sit the 20 out and bring the leader in
    assert v.chance(0) > v.chance(1)


def test_partnership_team_race_and_the_other_table() -> None:
    t = partnership_table(PARTNERSHIP)
    assert t[0, 0] == pytest.approx(0.5)
    for a, b in [(10, 100), (60, 20), (124, 0)]:
        assert t[a, b] + t[b, a] == pytest.approx(1.0)
    pad = t.shape[0] - 1
    y = signed_deal_model(PARTNERSHIP)
    m = len(y) // 2
    assert y.sum() == pytest.approx(1.0) and np.allclose(y, y[::-1])

    def net(mine: int, theirs: int, n: int) -> float:
        if n > 0:
            return float(t[min(mine + n, pad), theirs])
        if n < 0:
            return float(t[mine, min(theirs - n, pad)])
        return float(t[mine, theirs])

    for mine, theirs, other in [(0, 0, None), (100, 40, None), (100, 40, 30), (20, 110, -15)]:
        got = partnership_value(PARTNERSHIP, mine, theirs, other)(KS)
        if other is None:
            want = [sum(y[j] * net(mine, theirs, int(k) + j - m) for j in range(len(y)))
                    for k in KS]
        else:
            want = [net(mine, theirs, int(k) + other) for k in KS]
        assert np.allclose(got, want, atol=1e-12)
    # the partner's 30 at the other table make a 29-point loss here a won game at 100-40
    assert partnership_value(PARTNERSHIP, 100, 40, 30).chance(-1) == 1.0
    assert partnership_value(PARTNERSHIP, 100, 40, None).chance(-1) < 0.8


def test_hollywood_value_enters_the_deal_on_all_three_games() -> None:
    h = HollywoodSheet(STANDARD)
    for w, p in [(0, 18), (1, 12), (0, 25), (1, 30), (0, 15), (0, 22), (1, 20)]:
        h.add_result(w, p)
    games = tuple(((g.hand_points[0], g.hand_points[1]), (g.entries[0], g.entries[1]),
                   (g.boxes[0], g.boxes[1]), g.closed_at, g.winner) for g in h.games)
    mine, theirs = hollywood_value(STANDARD, games, 0), hollywood_value(STANDARD, games, 1)
    for k in KS.tolist():  # one side's chance is the other's complement
        assert mine.chance(k) + theirs.chance(-k) == pytest.approx(1.0)
    assert np.all(np.diff(mine(KS)) >= 0)
    assert mine.chance(0) > 0.5  # A leads in all three games
    assert mine.chance(-50) < 0.1  # B's 50 close games 1 and 2 for B
    assert mine.chance(50) > 0.99
    d = duration_table(STANDARD)
    assert d[0, 0] > d[50, 50] > d[90, 90] >= 1.0


def test_deal_value_reads_the_table_and_reaches_the_expert() -> None:
    """The standard game keeps the expert's two-player table (no value in the context); every
    other form's context carries the value of the player to act, from the game's sheet."""
    g = Game(STANDARD, 0)
    g.new_hand(list(range(52)))
    assert context_of(g, 0, random.Random(0)).value is None
    assert deal_value(g, 0) is None
    g = Game(STANDARD, 2, "three_player")
    bots = [make_bot("simple") for _ in range(3)]
    rngs = [random.Random(p) for p in range(3)]
    decks = random.Random(3)
    while g.sheet.progress(0) + g.sheet.progress(1) + g.sheet.progress(2) == 0:
        g.new_hand(decks.sample(range(52), 52))
        advance(g, bots, rngs)
    g.new_hand(decks.sample(range(52), 52))
    ((i, me),) = g.to_act()
    s = g.seatings[i]
    opp = s.players[1 - s.players.index(me)]
    (sitter,) = g.sitting_out(i)
    sh = g.sheet
    want = three_player_value(STANDARD, sh.progress(me), sh.progress(opp), sh.progress(sitter))
    ctx = context_of(g, i, random.Random(0))
    assert ctx.value is not None
    assert np.allclose(ctx.value(KS), want(KS))
    assert not np.allclose(want(KS), win_table(STANDARD)[0, 0])  # not a constant

    from ginrummy.bots.expert import ExpertBot
    from ginrummy.views import view_of

    out = np.array([[5, -20], [0, 40]])
    h = g.deals[i]
    view = view_of(h, h.current)
    e = ExpertBot()
    assert np.allclose(e._value(view, ctx, out), want(out))
    e.value_forms = frozenset({"partnership"})  # not this form's: the two-player table
    hp = ctx.hand_points
    assert hp is not None
    two = win_chance_after(win_table(STANDARD), 100, hp[h.current], hp[1 - h.current], out)
    assert np.allclose(e._value(view, ctx, out), two)
    assert not np.allclose(two, want(out))
    e = ExpertBot()
    fixed = Context(value=lambda o: np.full(o.shape, 0.25), hand_points=(0, 0))
    assert np.all(e._value(view, fixed, out) == 0.25)  # a value without a form: used
    e.form_value = False
    assert not np.any(e._value(view, fixed, out) == 0.25)


def test_deal_value_memoises_each_point_value() -> None:
    calls: list[int] = []

    def chance(k: int) -> float:
        calls.append(k)
        return 0.5 + k / 1000

    v = DealValue(chance)
    out = np.array([[3, -3, 3], [0, 3, -3]])
    assert np.allclose(v(out), 0.5 + out / 1000)
    assert v(out).shape == (2, 3)
    assert sorted(calls) == [-3, 0, 3]  # each value once, however often asked
    assert v.chance(1000) == v.chance(SPAN) == 0.5 + SPAN / 1000  # beyond the span: its end
    assert sorted(calls) == [-3, 0, 3, SPAN]


def test_prepare_builds_a_form_s_tables_before_the_first_decision() -> None:
    from ginrummy.bots import value
    from ginrummy.bots.stakes import prepare

    for scoring, rules, cached in [("three_player", STANDARD, value._three_player),
                                   ("partnership", PARTNERSHIP, value._partnership)]:
        prepare(rules, scoring)
        hits = cached.cache_info().hits
        (three_player_tables if scoring == "three_player" else partnership_table)(rules)
        assert cached.cache_info().hits == hits + 1  # no second build
    prepare(STANDARD, "standard")  # nothing to build
