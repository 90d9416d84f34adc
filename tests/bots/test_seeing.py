"""The expert's sampled worlds, and the all-seeing expert of ``benchmarks/bots.py long --see``
(a measuring tool for the ceiling of the search: the same search given the hidden cards)."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

import pytest

from ginrummy.bots.expert import ExpertBot
from ginrummy.bots.knowledge import opponent_belief, read_view
from ginrummy.hand import HandState
from ginrummy.rules import Rules
from ginrummy.views import view_of
from hand_helpers import deal, play

NON_DEALER = 1


def _bench() -> ModuleType:
    path = Path(__file__).resolve().parents[2] / "benchmarks" / "bots.py"
    spec = importlib.util.spec_from_file_location("bench_bots", path)
    assert spec is not None and spec.loader is not None
    mod = importlib.util.module_from_spec(spec)
    sys.modules["bench_bots"] = mod
    spec.loader.exec_module(mod)
    return mod


def _position() -> HandState:
    h = deal("2S 3S 4S 7H 7D 7C 9S 9H 9D AC", "AS 2D 4C 6S 8S TH JD QC KH 3H", "QD", "KC")
    play(h, ["pass", "pass", "draw stock"])
    return h


def test_sampled_worlds_hold_exactly_the_unseen_cards(kernel_ready: None) -> None:
    h = _position()
    v = view_of(h, NON_DEALER)
    know = read_view(v)
    hands, stocks = ExpertBot()._worlds(v, know, opponent_belief(know), 40, 5)
    assert hands.shape == (40,) and stocks.shape == (40, v.stock_count)
    unseen = know.unseen
    for w in range(40):
        opp = int(hands[w])
        assert opp.bit_count() == v.opponent_card_count
        assert opp & ~unseen == 0  # only unseen cards (the opponent took none)
        st = [int(c) for c in stocks[w]]
        assert len(set(st)) == len(st) and all(opp >> c & 1 == 0 for c in st)
        assert opp | sum(1 << c for c in st) == unseen
    # the true hand is one possibility among many, not what the plain expert sees
    assert len({int(x) for x in hands}) > 1


@pytest.mark.parametrize("mode", ["hand", "all"])
def test_the_seeing_expert_searches_the_true_deal(kernel_ready: None, mode: str) -> None:
    bench = _bench()
    h = _position()
    v = view_of(h, NON_DEALER)
    know = read_view(v)
    bot = bench.seeing_expert(mode)
    with pytest.raises(RuntimeError):
        bot._worlds(v, know, opponent_belief(know), 8, 1)  # no truth given
    truth = (h.hands[1 - NON_DEALER], h.stock())
    bot.truth = truth
    hands, stocks = bot._worlds(v, know, opponent_belief(know), 8, 1)
    assert [int(x) for x in hands] == [truth[0]] * 8
    rows = [[int(c) for c in r] for r in stocks]
    if mode == "all":
        assert rows == [truth[1]] * 8
    else:
        assert all(sorted(r) == sorted(truth[1]) for r in rows)
        assert len({tuple(r) for r in rows}) == 8  # a fresh stock order per world
    bot.truth = (truth[0], truth[1][1:])
    with pytest.raises(RuntimeError):
        bot._worlds(v, know, opponent_belief(know), 8, 1)  # a truth of another moment
    with pytest.raises(ValueError):
        bench.seeing_expert("most")


def test_a_seeing_game_is_played_to_its_end(kernel_ready: None) -> None:
    bench = _bench()
    g = bench.play_game_seeing("simple", Rules.preset("eaai"), 0, 0, 1, "all")
    assert g.a_won is not None and g.hands
    assert len(g.a_cpu_ms) == len(g.a_times_ms) > 0
    with pytest.raises(SystemExit):
        bench.play_pairs_seeing("hard", "simple", Rules.preset("eaai"), 0, [0], "all")
