"""The expert's search controls: our policy in the camper worlds, more worlds for a knock, more
rounds for a close call, and the anchor on ``hard``'s move. The rollout kernel is replaced by a
recording stand-in, so each test checks the mechanism on fixed numbers (no luck involved)."""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator
from typing import Any

import numpy as np
import pytest

from ginrummy.actions import ActionKind
from ginrummy.bots import Context
from ginrummy.bots import kernel as K
from ginrummy.bots.expert import ExpertBot, paired_z, top_two
from ginrummy.cards import parse_card
from ginrummy.views import PlayerView, view_of
from hand_helpers import deal, play

NON_DEALER = 1  # hand_helpers.deal: seat 0 deals


def knock_view() -> PlayerView:
    """R-4.2: the non-dealer holds 2S3S4S 7H7D7C 9S9H9D AC and has drawn KC: it may knock with
    1 point (discarding KC) or discard; the opponent has not discarded yet."""
    h = deal("2S 3S 4S 7H 7D 7C 9S 9H 9D AC", "AS 2D 4C 6S 8S TH JD QC KH 3H", "QD", "KC")
    play(h, ["pass", "pass", "draw stock"])
    return view_of(h, NON_DEALER)


class Recorder:
    """Stands in for :func:`ginrummy.bots.kernel.search`: records each call's worlds and policy
    and returns ``rows(nc, nw, call)`` as the signed points."""

    def __init__(self, rows: Callable[[int, int, int], np.ndarray]) -> None:
        self.rows = rows
        self.calls: list[dict[str, Any]] = []

    def __call__(self, me: int, my_hand: int, opp_hands: np.ndarray, stocks: np.ndarray,
                 *rest: Any) -> np.ndarray:
        ck, policy = rest[7], rest[10]
        nw = opp_hands.shape[0]
        self.calls.append({"me": me, "worlds": nw, "policy": policy.copy(),
                           "cands": len(ck)})
        return self.rows(len(ck), nw, len(self.calls) - 1)


@pytest.fixture
def patched(monkeypatch: pytest.MonkeyPatch, kernel_ready: None) -> Iterator[
        Callable[[Callable[[int, int, int], np.ndarray]], Recorder]]:
    def install(rows: Callable[[int, int, int], np.ndarray]) -> Recorder:
        rec = Recorder(rows)
        monkeypatch.setattr(K, "search", rec)
        return rec

    yield install


def zeros(nc: int, nw: int, call: int) -> np.ndarray:
    return np.zeros((nc, nw), dtype=np.int64)


def no_game() -> Context:
    """Outside a game: the values are the signed points themselves."""
    return Context(random.Random(3), None, 100)


def test_paired_z_and_top_two() -> None:
    vals = np.array([[1.0, 2.0, 3.0, 4.0], [1.0, 2.0, 3.0, 4.0], [0.0, 3.0, 2.0, 5.0]])
    assert top_two(vals) == (0, 1)  # equal means: the earlier row first
    assert paired_z(vals, 0, 1) == 0.0
    assert paired_z(np.array([[2.0, 2.0], [1.0, 1.0]]), 0, 1) == float("inf")
    d = vals[2] - vals[0]  # 0 -> -1, 1, -1, 1: mean 0
    assert paired_z(vals, 2, 0) == pytest.approx(d.mean() / (d.std(ddof=1) / 2.0))
    v = np.array([[0.0, 0.0, 0.0], [1.0, 2.0, 3.0]])
    assert paired_z(v, 1, 0) == pytest.approx(2.0 / (1.0 / np.sqrt(3.0)))


def test_our_policy_in_the_camper_worlds(patched: Any) -> None:
    rec = patched(zeros)
    bot = ExpertBot()
    assert bot.opp_model == "adaptive" and bot.my_policy_camper == (1, 1, 0)  # the defaults
    v = knock_view()
    bot.choose(v, no_game())
    assert len(rec.calls) == 2  # the camper's worlds, then the knocker's
    me = v.seat
    assert tuple(rec.calls[0]["policy"][me]) == (1, 1, 0)
    assert tuple(rec.calls[1]["policy"][me]) == tuple(bot.my_policy)
    # the opponent has not discarded: the camper may still knock in its first three turns
    assert tuple(rec.calls[0]["policy"][1 - me]) == tuple(bot.opp_policy)
    # without the option both groups roll our side out with my_policy
    rec2 = patched(zeros)
    plain = ExpertBot()
    plain.my_policy_camper = None
    plain.choose(v, no_game())
    assert [tuple(c["policy"][me]) for c in rec2.calls] == [tuple(ExpertBot.my_policy)] * 2


def test_a_knock_decision_gets_knock_factor_times_the_worlds(patched: Any) -> None:
    v = knock_view()
    assert any(a.kind is ActionKind.KNOCK for a in v.legal)
    rec = patched(zeros)
    bot = ExpertBot()
    bot.choose(v, no_game())
    base = sum(c["worlds"] for c in rec.calls)
    nc = rec.calls[0]["cands"]
    assert base == max(bot.min_worlds, min(bot.max_worlds, bot.rollouts // nc))
    rec3 = patched(zeros)
    bot3 = ExpertBot()
    bot3.knock_factor = 3.0
    bot3.choose(v, no_game())
    assert sum(c["worlds"] for c in rec3.calls) == max(
        bot3.min_worlds, min(3 * bot3.max_worlds, 3 * bot3.rollouts // nc))
    assert sum(c["worlds"] for c in rec3.calls) > base


def test_a_close_call_gets_more_rounds_a_clear_one_does_not(patched: Any) -> None:
    v = knock_view()
    bot = ExpertBot()
    bot.close_z = 2.0
    bot.close_rounds = 2
    rec = patched(zeros)  # every candidate equal: as close as it gets
    bot.choose(v, no_game())
    per_round = 2  # two opponent groups per round (adaptive)
    assert len(rec.calls) == per_round * (1 + 2)
    assert bot.last_values is not None and len(bot.last_values) == rec.calls[0]["cands"]

    def clear(nc: int, nw: int, call: int) -> np.ndarray:
        out = np.zeros((nc, nw), dtype=np.int64)
        out[nc - 1] = 5  # the last candidate (a discard) wins every world
        return out

    rec2 = patched(clear)
    a = bot.choose(v, no_game())
    assert len(rec2.calls) == per_round
    assert a.kind is ActionKind.DISCARD


def test_the_anchor_keeps_hards_move_unless_the_search_is_confident(patched: Any) -> None:
    v = knock_view()
    plain = ExpertBot().hard.choose(v, no_game())
    assert plain.kind is ActionKind.KNOCK and plain.card == parse_card("KC")

    def slight(nc: int, nw: int, call: int) -> np.ndarray:
        # the last candidate leads the knock (row 0) by 1 point in 2 worlds of 3 and trails
        # by 1 in the third: ahead on average, but far from sure
        out = np.zeros((nc, nw), dtype=np.int64)
        out[nc - 1] = np.where(np.arange(nw) % 3 == 2, -1, 1)
        return out

    def sure(nc: int, nw: int, call: int) -> np.ndarray:
        out = np.zeros((nc, nw), dtype=np.int64)
        out[nc - 1] = np.where(np.arange(nw) % 3 == 2, 2, 3)
        return out

    free = ExpertBot()
    free.anchor_z = 0.0
    patched(slight)
    assert free.choose(v, no_game()).kind is ActionKind.DISCARD  # no anchor: the best mean
    anchored = ExpertBot()
    anchored.anchor_z = 50.0
    patched(slight)
    got = anchored.choose(v, no_game())
    assert got.kind is ActionKind.KNOCK and got.card == plain.card
    patched(sure)
    assert anchored.choose(v, no_game()).kind is ActionKind.DISCARD


def test_two_stages_decide_a_clear_call_on_a_share_of_the_worlds(patched: Any) -> None:
    v = knock_view()
    full = ExpertBot()
    rec0 = patched(zeros)
    full.choose(v, no_game())
    n_full = sum(c["worlds"] for c in rec0.calls)
    staged = ExpertBot()
    staged.close_z = 2.0
    staged.close_rounds = 1
    staged.stage_share = 0.5

    def clear(nc: int, nw: int, call: int) -> np.ndarray:
        out = np.zeros((nc, nw), dtype=np.int64)
        out[nc - 1] = 5
        return out

    rec = patched(clear)
    assert staged.choose(v, no_game()).kind is ActionKind.DISCARD
    assert sum(c["worlds"] for c in rec.calls) == n_full // 2  # one half-size batch
    rec2 = patched(zeros)  # a tie: the second half is searched too
    staged.choose(v, no_game())
    assert sum(c["worlds"] for c in rec2.calls) == 2 * (n_full // 2)
    assert staged.last_values is not None
    # stage_share alone (close_z off) changes nothing
    only = ExpertBot()
    only.stage_share = 0.5
    rec3 = patched(zeros)
    only.choose(v, no_game())
    assert sum(c["worlds"] for c in rec3.calls) == n_full


def test_the_anchor_can_leave_the_knocks_to_the_search(patched: Any) -> None:
    v = knock_view()  # hard knocks here; a knock is among the candidates

    def slight(nc: int, nw: int, call: int) -> np.ndarray:
        out = np.zeros((nc, nw), dtype=np.int64)
        out[nc - 1] = np.where(np.arange(nw) % 3 == 2, -1, 1)
        return out

    bot = ExpertBot()
    bot.anchor_z = 50.0
    bot.anchor_knocks = False
    patched(slight)
    assert bot.choose(v, no_game()).kind is ActionKind.DISCARD  # the search's best, unanchored
    bot.anchor_knocks = True
    patched(slight)
    assert bot.choose(v, no_game()).kind is ActionKind.KNOCK


def test_hard_is_asked_only_when_a_candidate_is_within_the_anchor(patched: Any) -> None:
    """The anchor can change the move only when some candidate is within ``anchor_z`` of the
    best, so ``hard`` is asked then only (it costs a third of a light expert's decision); with
    every other candidate far behind, the search's best stands either way."""
    v = knock_view()
    bot = ExpertBot()
    bot.anchor_z = 50.0
    asked: list[int] = []
    real = bot.hard.choose_known

    def counting(*args: Any) -> Any:
        asked.append(1)
        return real(*args)

    bot.hard.choose_known = counting  # type: ignore[method-assign]

    def far(nc: int, nw: int, call: int) -> np.ndarray:
        out = np.zeros((nc, nw), dtype=np.int64)
        out[nc - 1] = 30  # ahead of every other in every world: infinitely sure
        return out

    patched(far)
    assert bot.choose(v, no_game()).kind is ActionKind.DISCARD
    assert asked == []

    def slight(nc: int, nw: int, call: int) -> np.ndarray:
        out = np.zeros((nc, nw), dtype=np.int64)
        out[nc - 1] = np.where(np.arange(nw) % 3 == 2, -1, 1)
        return out

    patched(slight)
    got = bot.choose(v, no_game())
    assert asked == [1]
    assert got == bot.hard.choose(v, no_game())  # hard's knock kept: the lead is not sure
