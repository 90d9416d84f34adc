"""``hard`` takes a face-up card that makes a meld only when it leaves less deadwood than the
average stock draw, or lets it knock at once (``HardBot.meld_take_margin``; R-3.3 the draw,
R-4.2 the knock); ``medium`` takes every such card. Checked on positions from seeded random
play: every draw decision with a meld card on the pile."""

from __future__ import annotations

import random

from ginrummy.actions import Action, ActionKind
from ginrummy.bots import Context
from ginrummy.bots.heuristic import HardBot, MediumBot, expected_after_draw
from ginrummy.bots.knowledge import in_meld_with, opponent_belief, read_view
from ginrummy.hand import HandState, Phase
from ginrummy.melds import min_deadwood_mask
from ginrummy.rules import Rules
from ginrummy.views import PlayerView, view_of

TAKE = Action.parse("draw discard")


def _meld_draws(seeds: range) -> list[tuple[PlayerView, int]]:
    """Draw decisions with a meld card on the pile, from games of random moves (each deal from
    ``seeds``), with the seed that made each."""
    rules = Rules.preset("standard")
    found = []
    for seed in seeds:
        rng = random.Random(seed)
        deck = list(range(52))
        rng.shuffle(deck)
        h = HandState(rules, seed % 2, deck)
        while not h.is_over:
            v = view_of(h, h.current)
            if v.phase is Phase.DRAW and TAKE in v.legal \
                    and in_meld_with(v.hand.mask, v.discard_pile[-1]):
                found.append((v, seed))
            moves = [a for a in v.legal if a.kind not in (ActionKind.KNOCK, ActionKind.GIN,
                                                          ActionKind.BIG_GIN)] or list(v.legal)
            h.apply(rng.choice(moves))
    return found


def _take_and_stock(view: PlayerView) -> tuple[int, float]:
    """Deadwood after taking the top card and the best discard; the average after a stock
    draw as ``hard`` weighs the stock (its belief of the opponent's cards)."""
    hand, top = view.hand.mask, view.discard_pile[-1]
    take = min(min_deadwood_mask((hand | 1 << top) & ~(1 << c))
               for c in range(52) if hand >> c & 1)
    know = read_view(view)
    return take, expected_after_draw(hand, HardBot().draw_odds(know, opponent_belief(know)))


def test_hard_takes_a_meld_card_only_when_it_beats_the_stock() -> None:
    positions = _meld_draws(range(60))
    kinds = {"knock": 0, "better": 0, "worse": 0}
    for view, seed in positions:
        take, stock = _take_and_stock(view)
        know = read_view(view)
        if view.discard_pile[-1] in know.my_discards:
            continue  # never taken back (both levels)
        hard = HardBot().choose(view, Context(random.Random(seed)))
        medium = MediumBot().choose(view, Context(random.Random(seed)))
        assert medium == TAKE, (seed, view.hand.texts())
        if take <= view.knock_limit:
            kinds["knock"] += 1
            assert hard == TAKE, (seed, view.hand.texts())
        elif take < stock and take < min_deadwood_mask(view.hand.mask):
            kinds["better"] += 1
            assert hard == TAKE, (seed, view.hand.texts(), take, stock)
        else:
            kinds["worse"] += 1
            assert hard.kind is ActionKind.DRAW_STOCK, (seed, view.hand.texts(), take, stock)
    assert all(n > 0 for n in kinds.values()), kinds  # each case met
