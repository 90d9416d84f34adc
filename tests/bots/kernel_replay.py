"""Helpers: play one deal with the rollout kernel and replay its trace on HandState."""

from __future__ import annotations

import numpy as np

from ginrummy.actions import BIG_GIN, DRAW_DISCARD, DRAW_STOCK, PASS, TAKE, Action, ActionKind
from ginrummy.bots import kernel as K
from ginrummy.cards import CardSet, card_suit
from ginrummy.hand import HandState, Phase, oklahoma_limit
from ginrummy.rules import Rules


def kernel_rules(rules: Rules, upcard: int) -> np.ndarray:
    spade = rules.oklahoma and rules.oklahoma_spade_double and card_suit(upcard) == 0
    return K.make_rules(oklahoma_limit(rules, upcard), rules.gin_bonus, rules.undercut_bonus,
                        rules.undercut_on_tie, rules.big_gin_bonus, spade,
                        rules.dead_hand_rule == "fiftieth_card")


def kernel_deal(rules: Rules, dealer: int, deck: list[int], policy: np.ndarray, seed: int):
    """Play the deal in the kernel; returns (result, trace rows, knock melds)."""
    hands = np.zeros(2, dtype=np.int64)
    for i in range(20):
        seat = 1 - dealer if i % 2 == 0 else dealer
        hands[seat] |= 1 << deck[i]
    pile = np.zeros(64, dtype=np.int64)
    pile[0] = deck[20]
    stock = np.array(deck[21:], dtype=np.int64)
    trace = np.zeros((200, 3), dtype=np.int64)
    kmelds = np.zeros(5, dtype=np.int64)
    rng = np.array([seed * 2 + 1], dtype=np.int64)
    res = K.rollout(hands, stock, 0, pile, 1, K.OFFER, 1 - dealer, dealer, 0, 0, -1,
                    kernel_rules(rules, deck[20]), policy, rng, trace, kmelds)
    kind, winner, pts, knocker, nt = (int(x) for x in res)
    melds = []
    for m in kmelds:
        if m == 0:
            break
        melds.append(CardSet(int(m)))
    return (K.RESULT_NAMES[kind], winner, pts, knocker), trace[:nt].tolist(), tuple(melds)


def replay(rules: Rules, dealer: int, deck: list[int], trace: list[list[int]],
           melds: tuple[CardSet, ...]) -> HandState:
    """Apply the kernel's trace to a HandState, checking seat and drawn card at each step."""
    h = HandState(rules, dealer, deck)
    for seat, kind, card in trace:
        assert h.current == seat, (h, seat, kind, card)
        if kind == K.K_TAKE:
            a = TAKE if h.phase is Phase.OFFER else DRAW_DISCARD
            assert h.discard_top() == card
        elif kind == K.K_PASS:
            a = PASS
        elif kind == K.K_STOCK:
            a = DRAW_STOCK
            assert h.stock()[0] == card
        elif kind == K.K_DISCARD:
            a = Action(ActionKind.DISCARD, card)
        elif kind == K.K_KNOCK:
            a = Action(ActionKind.KNOCK, card, melds=melds)
        elif kind == K.K_GIN:
            a = Action(ActionKind.GIN, card)
        else:
            a = BIG_GIN
        h.apply(a)
    return h
