"""Reading the public record from a view; the opponent belief; helpers of the heuristics."""

from __future__ import annotations

import random

from botkit import RULE_VARIANTS, new_deal

from ginrummy.actions import Action, ActionKind
from ginrummy.bots import Context, make_bot
from ginrummy.bots.heuristic import discard_danger, expected_after_draw, undercut_probability
from ginrummy.bots.knowledge import bits, min_spreads, opponent_belief, read_view
from ginrummy.cards import CardSet
from ginrummy.hand import HandState
from ginrummy.melds import all_arrangements, min_deadwood_mask
from ginrummy.views import view_of


def test_read_view_scripted() -> None:
    rules = RULE_VARIANTS["eaai"]
    deck = list(range(52))
    h = HandState(rules, 0, deck)  # seat 1 is the non-dealer and acts first
    up = h.upcard
    h.apply("pass")  # seat 1 passes the upcard
    h.apply("pass")  # seat 0 passes too
    h.apply("draw stock")  # forced draw by seat 1: not a refusal
    first = h.drawn_card
    assert first is not None
    h.apply(Action(ActionKind.DISCARD, first))
    h.apply("draw stock")  # seat 0 leaves seat 1's discard on the pile
    k0 = read_view(view_of(h, 0))
    k1 = read_view(view_of(h, 1))
    assert k1.opp_passed == [up, first]
    assert k0.opp_passed == [up]
    assert k0.opp_discards == [first]
    assert k1.my_pairs == {(first, first)}
    assert k1.opp_draws == 1 and k1.my_draws == 1


def test_belief_sums_to_unknown_cards() -> None:
    rng = random.Random(4)
    bot = make_bot("simple")
    for _ in range(20):
        h = new_deal(RULE_VARIANTS["eaai"], rng)
        while not h.is_over:
            v = view_of(h, h.current)
            k = read_view(v)
            p = opponent_belief(k)
            assert set(p) == set(bits(k.unseen))
            assert all(0.0 <= x <= 0.95 + 1e-9 for x in p.values())
            assert abs(sum(p.values()) - k.opp_unknown_count) < 1e-6 or not p
            h.apply(bot.choose(v, Context(rng)))


def test_min_spreads_equal_all_arrangements() -> None:
    rng = random.Random(8)
    for _ in range(400):
        pool = list(range(26)) if rng.random() < 0.5 else list(range(52))
        hand = CardSet.of(rng.sample(pool, 10))
        dw = min_deadwood_mask(hand.mask)
        want = sorted(tuple(sorted(m.mask for m in a.melds))
                      for a in all_arrangements(hand, dw) if a.deadwood_points == dw)
        got = sorted(tuple(sorted(x)) for x in min_spreads(hand.mask, dw, 10 ** 6))
        assert got == want


def test_heuristic_helpers() -> None:
    hand = CardSet.parse("AS 2S 3S 7H 7D 9C TC KD QH 5C").mask
    odds = [(u, 1.0) for u in range(52) if not hand >> u & 1]
    e = expected_after_draw(hand, odds)
    assert 0 <= e <= min_deadwood_mask(hand)
    # the 4th seven completes a set the opponent is known to hold
    c = CardSet.parse("7C").cards()[0]
    known = CardSet.parse("7S 7H").mask
    assert discard_danger(c, {}, known) == 1.0
    assert undercut_probability(2, 1, 0.0) < undercut_probability(9, 10, 5.0)
