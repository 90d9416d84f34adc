"""No player reads hidden information: two deals that look the same from a seat (same view) but
hide different cards (the opponent's unknown cards and the stock, permuted) get the same choice
with the same seed."""

from __future__ import annotations

import random

import pytest
from botkit import RULE_VARIANTS, new_deal

from ginrummy.bots import ALL_PLAYERS, Context, make_bot
from ginrummy.hand import HandState
from ginrummy.views import view_of


def _reshuffle_hidden(h: HandState, seat: int, rng: random.Random) -> HandState:
    """A copy of ``h`` where the cards ``seat`` cannot see (the opponent's cards other than those
    it took from the pile, and the stock) are dealt again at random."""
    opp = 1 - seat
    known = h.known[opp]
    hidden_opp = h.hands[opp] & ~known
    stock = h.stock()
    pool = [c for c in range(52) if hidden_opp >> c & 1] + stock
    rng.shuffle(pool)
    n = hidden_opp.bit_count()
    h2 = h.clone()
    m = known
    for c in pool[:n]:
        m |= 1 << c
    h2.hands[opp] = m
    h2.deck = tuple(h.deck[:h.stock_pos]) + tuple(pool[n:])
    return h2


@pytest.mark.parametrize("name", ALL_PLAYERS)
def test_same_view_same_choice(name: str, kernel_ready: None) -> None:
    rules = RULE_VARIANTS["eaai"]
    rng = random.Random(f"hidden:{name}")
    driver = make_bot("simple")
    checked = 0
    differ = 0
    deals = 3 if name == "expert" else 8
    for _ in range(deals):
        h = new_deal(rules, rng)
        while not h.is_over:
            seat = h.current
            view = view_of(h, seat)
            h2 = _reshuffle_hidden(h, seat, rng)
            differ += h2.hands[1 - seat] != h.hands[1 - seat]
            assert view_of(h2, seat) == view
            seed = rng.randrange(1 << 30)
            ctx = (rng.randrange(100), rng.randrange(100))
            a1 = make_bot(name).choose(view, Context(random.Random(seed), ctx, 100))
            a2 = make_bot(name).choose(view_of(h2, seat), Context(random.Random(seed), ctx, 100))
            assert a1 == a2, (name, a1.text, a2.text)
            checked += 1
            h.apply(driver.choose(view, Context(rng)))
    assert checked > 10 and differ > checked // 2
