"""The expert's weighing of its sampled worlds by the opponent's last discard and its silence
(``ExpertBot.weigh``): the compiled fit against the engine's solver, the true hand of ``simple``
against the fit, and the draw of the worlds kept."""

from __future__ import annotations

import random

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ginrummy.actions import ActionKind
from ginrummy.bots import Context, make_bot
from ginrummy.bots import kernel as K
from ginrummy.bots.expert import ExpertBot, last_discard
from ginrummy.bots.knowledge import opponent_belief, read_view
from ginrummy.hand import HandState
from ginrummy.melds import min_deadwood_mask
from ginrummy.rules import Rules
from ginrummy.views import view_of
from hand_helpers import deal, play

NON_DEALER = 1  # hand_helpers.deal: seat 0 deals


def slow_fit(hand: int, d: int, forbidden: int) -> tuple[int, int]:
    """(regret, least deadwood) by the engine's solver, one discard at a time."""
    h11 = hand | 1 << d
    best = min(min_deadwood_mask(h11 & ~(1 << c)) for c in range(52)
               if h11 >> c & 1 and c != forbidden)
    return min_deadwood_mask(hand) - best, best


@settings(max_examples=150, deadline=None)
@given(st.lists(st.sampled_from(range(52)), min_size=11, max_size=11, unique=True),
       st.booleans())
def test_discard_fit_agrees_with_the_engine(kernel_ready: None, cards: list[int],
                                            forbid: bool) -> None:
    d = cards[0]
    hand = sum(1 << c for c in cards[1:])
    forbidden = cards[1] if forbid else -1
    regret = np.zeros(1, dtype=np.int64)
    dw = np.zeros(1, dtype=np.int64)
    K.discard_fit(np.array([hand], dtype=np.int64), d, forbidden, regret, dw)
    assert (int(regret[0]), int(dw[0])) == slow_fit(hand, d, forbidden)
    assert regret[0] >= 0


def test_simples_true_hand_explains_each_of_its_discards(kernel_ready: None) -> None:
    """R-1.5, R-4.1: ``simple`` throws a least-deadwood card and knocks as soon as it may, so at
    each of its discards its true hand has regret 0 and a deadwood above the knock limit; and
    ``last_discard`` names that discard and the face-up card it may not throw (R-3.6)."""
    rules = Rules.preset("eaai")
    bots = [make_bot("simple"), make_bot("simple")]
    checked = takes = 0
    for deal_no in range(30):
        rng = random.Random(deal_no)
        deck = list(range(52))
        rng.shuffle(deck)
        h = HandState(rules, deal_no % 2, deck)
        ctxs = [Context(random.Random(f"{deal_no}:{s}")) for s in (0, 1)]
        took: int | None = None
        while not h.is_over:
            seat = h.current
            view = view_of(h, seat)
            a = bots[seat].choose(view, ctxs[seat])
            if a.kind in (ActionKind.TAKE, ActionKind.DRAW_DISCARD):
                took = view.discard_pile[-1]
            elif a.kind is ActionKind.DRAW_STOCK:
                took = None
            h.apply(a)
            if a.kind is not ActionKind.DISCARD or h.is_over:
                continue
            other = view_of(h, 1 - seat)
            last = last_discard(other, read_view(other))
            assert last == (a.card, took if took is not None else -1)
            takes += took is not None
            regret = np.zeros(1, dtype=np.int64)
            dw = np.zeros(1, dtype=np.int64)
            K.discard_fit(np.array([h.hands[seat]], dtype=np.int64), last[0], last[1],
                          regret, dw)
            assert regret[0] == 0 and dw[0] > rules.knock_limit
            checked += 1
    assert checked > 200 and takes > 5


def test_no_last_discard_before_the_opponent_has_thrown() -> None:
    h = deal("2S 3S 4S 7H 7D 7C 9S 9H 9D AC", "AS 2D 4C 6S 8S TH JD QC KH 3H", "QD", "KC")
    play(h, ["pass", "pass", "draw stock"])
    v = view_of(h, NON_DEALER)
    assert last_discard(v, read_view(v)) is None


def test_kept_worlds_prefer_hands_that_explain_the_discard() -> None:
    """Regret 0 beats regret 5; the knocker's block avoids a hand it would have knocked with,
    the camper's block (threshold 0: only gin would have ended it) does not mind it; no row is
    kept twice."""
    h = deal("2S 3S 4S 7H 7D 7C 9S 9H 9D AC", "AS 2D 4C 6S 8S TH JD QC KH 3H", "QD", "KC")
    v = view_of(h, NON_DEALER)
    bot = ExpertBot()
    from ginrummy.cards import parse_cards

    def mask(s: str) -> int:
        return sum(1 << c for c in parse_cards(s))

    d = parse_cards("5S")[0]
    # three aces, 8H-9H-TH, and loose cards: it threw 5S
    good_high = mask("AH AD AC 8H 9H TH 4C 5D 4D 2C")  # loose 4+5+4+2: 5S was a worst card
    good_low = mask("AH AD AC 8H 9H TH 7C 7D 7S 2C")  # deadwood 2: a knocker would have knocked
    worse = mask("AH AD AC 8H 9H TH 4C KD 4D 2C")  # kept KD and threw 5S: 5 points of regret
    rows = np.array([good_high] * 60 + [good_low] * 60 + [worse] * 60, dtype=np.int64)
    regret = np.zeros(rows.shape[0], dtype=np.int64)
    dw = np.zeros(rows.shape[0], dtype=np.int64)
    K.discard_fit(rows, d, -1, regret, dw)
    assert (regret[0], dw[0]) == (0, 15) and (regret[60], dw[60]) == (0, 2)
    assert (regret[120], dw[120]) == (5, 15)
    gen = np.random.default_rng(1)
    keep = bot._weighed(v, rows, (d, -1), [(0, 30), (10, 40)], gen)
    assert len(set(keep.tolist())) == 70
    camper = [int(rows[i]) for i in keep[:30]]
    knocker = [int(rows[i]) for i in keep[30:]]
    assert worse not in camper and worse not in knocker
    assert camper.count(good_low) >= 5  # the camper would not have knocked with 2 points
    assert knocker.count(good_low) <= 10 and knocker.count(good_high) >= 30


@pytest.mark.parametrize("weigh", [True, False])
def test_the_worlds_still_hold_exactly_the_unseen_cards(kernel_ready: None,
                                                        weigh: bool) -> None:
    h = deal("2S 3S 4S 7H 7D 7C 9S 9H 9D AC", "AS 2D 4C 6S 8S TH JD QC KH 3H", "QD", "KC")
    play(h, ["pass", "pass", "draw stock", "discard KC", "draw stock", "discard KH"])
    v = view_of(h, NON_DEALER)
    know = read_view(v)
    assert last_discard(v, know) is not None
    bot = ExpertBot()
    bot.weigh = weigh
    hands, stocks = bot._worlds(v, know, opponent_belief(know), 60, 3, [(10, 20), (10, 40)])
    assert hands.shape == (60,) and stocks.shape == (60, v.stock_count)
    for w in range(60):
        opp = int(hands[w])
        assert opp.bit_count() == v.opponent_card_count
        assert opp | sum(1 << int(c) for c in stocks[w]) == know.unseen | know.opp_known
