"""``simple`` follows the challenge's SimpleGinRummyPlayer policy exactly."""

from __future__ import annotations

import random

from botkit import RULE_VARIANTS, new_deal

from ginrummy.actions import ActionKind
from ginrummy.bots import Context, make_bot
from ginrummy.bots.knowledge import in_meld_with, read_view
from ginrummy.hand import Phase
from ginrummy.melds import is_meld, melds_in, min_deadwood_mask
from ginrummy.views import view_of


def _meld_with(hand: int, c: int) -> bool:
    """Brute force: some meld of hand + c contains c."""
    return any(m >> c & 1 for m in melds_in(hand | 1 << c))


def test_in_meld_with_matches_brute_force() -> None:
    rng = random.Random(3)
    for _ in range(3000):
        cards = rng.sample(range(52), 11)
        hand = sum(1 << c for c in cards[:10])
        assert in_meld_with(hand, cards[10]) == _meld_with(hand, cards[10])


def test_policy_over_many_deals() -> None:
    rules = RULE_VARIANTS["eaai"]
    rng = random.Random(11)
    bot = make_bot("simple")
    decisions = 0
    for _ in range(60):
        h = new_deal(rules, rng)
        pairs: list[set[tuple[int, int]]] = [set(), set()]
        drawn: list[int | None] = [None, None]
        while not h.is_over:
            seat = h.current
            view = view_of(h, seat)
            a = bot.choose(view, Context(random.Random(decisions)))
            decisions += 1
            hand = h.hands[seat]
            if h.phase in (Phase.OFFER, Phase.DRAW) and not h.forced_stock:
                top = h.discard_top()
                assert top is not None
                takes = a.kind in (ActionKind.TAKE, ActionKind.DRAW_DISCARD)
                assert takes == _meld_with(hand, top)
            if h.phase is Phase.DISCARD:
                legal = [c for c in range(52) if hand >> c & 1 and c != h.taken_card]
                least = min(min_deadwood_mask(hand & ~(1 << c)) for c in legal)
                assert a.card != h.taken_card
                kept = hand & ~(1 << (a.card or 0))
                dw = min_deadwood_mask(kept)
                # a legal knock/gin is always taken, at the least deadwood
                if least <= rules.knock_limit:
                    assert a.kind in (ActionKind.KNOCK, ActionKind.GIN)
                    assert dw == least
                    if a.kind is ActionKind.KNOCK:
                        assert a.melds is not None
                        assert all(is_meld(m) for m in a.melds)
                        used = 0
                        for m in a.melds:
                            used |= m.mask
                        assert sum(min(c % 13 + 1, 10) for c in range(52)
                                   if (kept & ~used) >> c & 1) == least
                else:
                    assert a.kind is ActionKind.DISCARD
                    card = a.card
                    assert card is not None
                    d = drawn[seat]
                    fresh = [c for c in legal
                             if d is None or ((d, c) not in pairs[seat]
                                              and (c, d) not in pairs[seat])]
                    pool = fresh or legal
                    assert dw == min(min_deadwood_mask(hand & ~(1 << c)) for c in pool)
                    if d is not None:
                        pairs[seat].add((d, card))
            h.apply(a)
            if a.kind in (ActionKind.TAKE, ActionKind.DRAW_DISCARD, ActionKind.DRAW_STOCK):
                drawn[seat] = h.drawn_card
    assert decisions > 500


def test_read_view_records_pairs_and_passes() -> None:
    rules = RULE_VARIANTS["eaai"]
    rng = random.Random(5)
    bot = make_bot("simple")
    for _ in range(30):
        h = new_deal(rules, rng)
        while not h.is_over:
            seat = h.current
            v = view_of(h, seat)
            k = read_view(v)
            assert k.pile == list(h.discard_pile)
            assert k.unseen & h.hands[seat] == 0
            assert k.unseen & h.known[1 - seat] == 0
            # everything the opponent discarded is public
            for c in k.opp_discards:
                assert not h.hands[1 - seat] >> c & 1 or h.known[1 - seat] >> c & 1
            h.apply(bot.choose(v, Context(random.Random(1))))
