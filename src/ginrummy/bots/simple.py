"""``simple``: the policy of the EAAI-2021 challenge's ``SimpleGinRummyPlayer`` (our own code).

The policy, as the challenge describes it:

* it remembers only its own hand (and, to avoid loops, the (drawn, discarded) pairs it played);
* it takes the face-up card (the first-turn offer included) if and only if that card is part of
  some meld that its hand plus the card can form;
* it discards, uniformly at random, one of the legal cards that leave the least deadwood, never
  the face-up card it just took and never a (drawn card, discarded card) pair it already played
  in this deal (the pair is unordered, as in the original);
* it knocks, or goes gin, at the first legal chance (gin preferred; big gin when the table plays
  it); its spread is a random one among the minimum-deadwood arrangements.
"""

from __future__ import annotations

from ..actions import DRAW_DISCARD, DRAW_STOCK, PASS, TAKE, Action, ActionKind
from ..cards import CardSet
from ..hand import Phase
from ..melds import min_deadwood_mask
from ..views import PlayerView
from .base import Context
from .knowledge import in_meld_with, min_spreads, read_view

__all__ = ["SimpleBot", "min_deadwood_discards", "random_min_spread"]


def min_deadwood_discards(hand: int, candidates: list[int]) -> tuple[int, list[int]]:
    """The least 10-card deadwood over ``candidates`` (cards of ``hand`` to discard) and the
    candidates that reach it."""
    best = 1000
    out: list[int] = []
    for c in candidates:
        v = min_deadwood_mask(hand & ~(1 << c))
        if v < best:
            best = v
            out = [c]
        elif v == best:
            out.append(c)
    return best, out


def random_min_spread(kept: int, deadwood: int, ctx: Context) -> tuple[CardSet, ...]:
    """A random arrangement of ``kept`` among those with exactly ``deadwood`` points."""
    arrs = min_spreads(kept, deadwood, limit=1 << 16)
    return tuple(CardSet(m) for m in ctx.rng.choice(arrs))


def knock_action(card: int, kept: int, deadwood: int, ctx: Context,
                 melds: tuple[CardSet, ...] | None = None) -> Action:
    """Gin when ``deadwood`` is 0, else a knock showing ``melds`` (random min spread if None)."""
    if deadwood == 0:
        return Action(ActionKind.GIN, card)
    if melds is None:
        melds = random_min_spread(kept, deadwood, ctx)
    return Action(ActionKind.KNOCK, card, melds=melds)


class SimpleBot:
    """The challenge's simple player (see the module docstring)."""

    name = "simple"

    def choose(self, view: PlayerView, ctx: Context) -> Action:
        if not view.legal:
            raise ValueError("not this seat's turn")
        legal = view.legal
        hand = view.hand.mask
        ph = view.phase
        if ph is Phase.OFFER:
            return TAKE if in_meld_with(hand, view.discard_pile[-1]) else PASS
        if ph is Phase.DRAW:
            if DRAW_DISCARD in legal and in_meld_with(hand, view.discard_pile[-1]):
                return DRAW_DISCARD
            return DRAW_STOCK
        if ph is Phase.FIFTIETH:
            if DRAW_DISCARD in legal and in_meld_with(hand, view.discard_pile[-1]):
                return DRAW_DISCARD
            return PASS
        # discard phase
        if any(a.kind is ActionKind.BIG_GIN for a in legal):
            return next(a for a in legal if a.kind is ActionKind.BIG_GIN)
        allowed = {a.card for a in legal if a.card is not None}
        if not any(a.kind is ActionKind.DISCARD for a in legal):  # must knock
            allowed = {a.card for a in legal if a.card is not None
                       and a.kind in (ActionKind.KNOCK, ActionKind.GIN)}
        know = read_view(view)
        drawn = view.drawn_card
        cands = sorted(allowed)
        if drawn is not None:
            fresh = [c for c in cands
                     if (drawn, c) not in know.my_pairs and (c, drawn) not in know.my_pairs]
            if fresh:
                cands = fresh
        dw, best = min_deadwood_discards(hand, cands)
        card = ctx.rng.choice(best)
        kept = hand & ~(1 << card)
        if dw == 0 or dw <= view.knock_limit and view.knock_limit > 0:
            return knock_action(card, kept, dw, ctx)
        return Action(ActionKind.DISCARD, card)
