"""What a seat can work out from its own :class:`~ginrummy.views.PlayerView` (and nothing else).

Every computer player is stateless between calls: it rebuilds its knowledge of the deal from the
view's public ``history`` each time (the web server rebuilds views from its store after a restart).
:func:`read_view` replays that history to recover the discard pile at every moment, and so which
face-up cards the opponent took, which ones it passed (first-turn offer) or left on the pile when
it drew from the stock, and what it discarded. :func:`opponent_belief` turns that record into a
per-card weight of "the opponent holds this card".

Card helpers work on 52-bit masks (see :mod:`ginrummy.cards`).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Final

from ..actions import ActionKind
from ..cards import POINTS
from ..views import PlayerView

__all__ = ["Knowledge", "read_view", "opponent_belief", "meld_partners", "in_meld_with",
           "bits", "neighbours"]

_COL: Final = 1 | 1 << 13 | 1 << 26 | 1 << 39


def bits(mask: int) -> list[int]:
    """The card ints of ``mask``, ascending."""
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


def _build_neighbours() -> tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...]]:
    same_rank = []
    near1 = []
    near2 = []
    for c in range(52):
        r, s = c % 13, c // 13
        same_rank.append((_COL << r) & ~(1 << c))
        m1 = 0
        m2 = 0
        if r > 0:
            m1 |= 1 << (c - 1)
        if r < 12:
            m1 |= 1 << (c + 1)
        if r > 1:
            m2 |= 1 << (c - 2)
        if r < 11:
            m2 |= 1 << (c + 2)
        near1.append(m1)
        near2.append(m2)
        del s
    return tuple(same_rank), tuple(near1), tuple(near2)


#: per card: mask of the other cards of its rank, of its suit neighbours at distance 1 and 2.
SAME_RANK, NEAR1, NEAR2 = _build_neighbours()


def neighbours(c: int) -> int:
    """Cards that can share a meld with ``c`` directly: its rank, its suit neighbours +-1, +-2."""
    return SAME_RANK[c] | NEAR1[c] | NEAR2[c]


def in_meld_with(hand: int, c: int) -> bool:
    """True when ``hand | c`` holds a meld that contains card ``c`` (R-1.3)."""
    if (hand & SAME_RANK[c]).bit_count() >= 2:
        return True
    r = c % 13
    lo = c - r
    below = 0
    x = c - 1
    while x >= lo and hand >> x & 1:
        below += 1
        x -= 1
    above = 0
    x = c + 1
    while x < lo + 13 and hand >> x & 1:
        above += 1
        x += 1
    return below + above >= 2


def meld_partners(hand: int, c: int) -> int:
    """How many cards of ``hand`` could form a meld with ``c`` given one more card (pairs and
    connectors): same rank, or same suit within two ranks."""
    return (hand & neighbours(c)).bit_count()


@dataclass
class Knowledge:
    """The public record of the deal as seen by ``view.seat`` (masks are 52-bit ints).

    :ivar hand: own cards.
    :ivar opp_known: cards the opponent took from the pile and still holds.
    :ivar unseen: cards that may be in the opponent's hand or the stock.
    :ivar pile: the discard pile, bottom first.
    :ivar opp_discards: cards the opponent discarded, in order.
    :ivar opp_taken: cards the opponent took from the pile (kept or later discarded).
    :ivar opp_passed: face-up cards the opponent declined (offer pass or stock draw instead).
    :ivar my_pairs: (drawn card, discarded card) pairs this seat already played this deal.
    :ivar my_draws: stock draws + pile takes by this seat; ``opp_draws`` the opponent's.
    """

    seat: int
    hand: int
    opp_known: int
    unseen: int
    pile: list[int]
    opp_discards: list[int] = field(default_factory=list)
    opp_taken: list[int] = field(default_factory=list)
    opp_passed: list[int] = field(default_factory=list)
    my_discards: list[int] = field(default_factory=list)
    my_pairs: set[tuple[int, int]] = field(default_factory=set)
    my_draws: int = 0
    opp_draws: int = 0
    offer_passes: int = 0

    @property
    def opp_unknown_count(self) -> int:
        return 10 - self.opp_known.bit_count()

    @property
    def dead(self) -> int:
        """Cards out of play for melding purposes: the discard pile below its top card."""
        m = 0
        for c in self.pile[:-1]:
            m |= 1 << c
        return m


def read_view(view: PlayerView) -> Knowledge:
    """Replay the view's public history into a :class:`Knowledge`."""
    me = view.seat
    pile = [view.upcard]
    k = Knowledge(me, view.hand.mask, view.opponent_known.mask, view.unseen().mask, pile)
    passes = 0
    forced_pending = False
    last_draw: int | None = None
    for e in view.history:
        kind = e.kind
        mine = e.seat == me
        if kind is ActionKind.PASS:
            if k.my_draws + k.opp_draws == 0:  # a first-turn offer pass
                if not mine and pile:
                    k.opp_passed.append(pile[-1])
                passes += 1
                if passes == 2:
                    forced_pending = True
        elif kind is ActionKind.TAKE or kind is ActionKind.DRAW_DISCARD:
            c = pile.pop() if pile else e.card
            if mine:
                k.my_draws += 1
                last_draw = c
            else:
                k.opp_draws += 1
                if c is not None:
                    k.opp_taken.append(c)
            forced_pending = False
        elif kind is ActionKind.DRAW_STOCK:
            if mine:
                k.my_draws += 1
                last_draw = e.card
            else:
                k.opp_draws += 1
                if not forced_pending and pile:
                    k.opp_passed.append(pile[-1])
            forced_pending = False
        elif kind is ActionKind.DISCARD:
            c = e.card
            if c is not None:
                pile.append(c)
                if mine:
                    k.my_discards.append(c)
                    if last_draw is not None:
                        k.my_pairs.add((last_draw, c))
                else:
                    k.opp_discards.append(c)
            last_draw = None
    k.offer_passes = passes
    k.pile = list(view.discard_pile)
    return k


def opponent_belief(k: Knowledge) -> dict[int, float]:
    """Probability that each unseen card is in the opponent's hand (its unknown part).

    Starts uniform (opponent's unknown cards / unseen cards) and is tilted by the record: cards
    that would meld with what the opponent discarded or passed are less likely, cards that would
    meld with what it took are more likely. The result sums to the number of unknown opponent
    cards (each value capped below 1).
    """
    unseen = bits(k.unseen)
    n = k.opp_unknown_count
    if not unseen or n <= 0:
        return {c: 0.0 for c in unseen}
    w = {c: 1.0 for c in unseen}
    for d in k.opp_discards:
        for c in bits(SAME_RANK[d] & k.unseen):
            w[c] *= 0.55
        for c in bits(NEAR1[d] & k.unseen):
            w[c] *= 0.6
        for c in bits(NEAR2[d] & k.unseen):
            w[c] *= 0.8
    for d in k.opp_passed:
        for c in bits(SAME_RANK[d] & k.unseen):
            w[c] *= 0.7
        for c in bits(NEAR1[d] & k.unseen):
            w[c] *= 0.75
        for c in bits(NEAR2[d] & k.unseen):
            w[c] *= 0.9
    for d in k.opp_taken:
        held = k.opp_known >> d & 1
        f = 2.2 if held else 1.3
        for c in bits(SAME_RANK[d] & k.unseen):
            w[c] *= f
        for c in bits(NEAR1[d] & k.unseen):
            w[c] *= f
        for c in bits(NEAR2[d] & k.unseen):
            w[c] *= 1.0 + (f - 1.0) * 0.5
    # scale so the probabilities sum to n, capping each at 0.95 (iterate the cap)
    probs: dict[int, float] = {}
    free = dict(w)
    remaining = float(n)
    for _ in range(5):
        tot = sum(free.values())
        if tot <= 0:
            break
        scale = remaining / tot
        capped = {c: v for c, v in free.items() if v * scale > 0.95}
        if not capped:
            for c, v in free.items():
                probs[c] = v * scale
            free = {}
            break
        for c in capped:
            probs[c] = 0.95
            remaining -= 0.95
            del free[c]
    for c, v in free.items():
        probs[c] = min(0.95, v * remaining / max(1e-9, sum(free.values())))
    return probs


def card_points(c: int) -> int:
    return POINTS[c]


def _melds_with_lowest(mask: int, c: int) -> list[int]:
    """Melds inside ``mask`` whose lowest card (in card order) is ``c``... or that contain ``c``
    with every other card above it in card order."""
    out = []
    col = mask & (_COL << (c % 13))
    # sets containing c whose other cards are all of higher card index (c is their lowest)
    others = [x for x in bits(col) if x > c]
    n = len(others)
    if n >= 2:
        for i in range(n):
            for j in range(i + 1, n):
                out.append(1 << c | 1 << others[i] | 1 << others[j])
        if n == 3:
            out.append(1 << c | 1 << others[0] | 1 << others[1] | 1 << others[2])
    # runs starting at c
    r = c % 13
    seg = 1 << c
    x = c + 1
    while x < c - r + 13 and mask >> x & 1:
        seg |= 1 << x
        if seg.bit_count() >= 3:
            out.append(seg)
        x += 1
    return out


def min_spreads(kept: int, deadwood: int, limit: int = 64) -> list[tuple[int, ...]]:
    """Every arrangement (tuple of meld masks) of ``kept`` whose deadwood is exactly
    ``deadwood`` points, found by a depth-first search that gives each card to the deadwood or
    to a meld in which it is the lowest card (so each arrangement appears once). At most
    ``limit`` are returned."""
    out: list[tuple[int, ...]] = []

    def dfs(rest: int, budget: int, melds: tuple[int, ...]) -> None:
        if len(out) >= limit:
            return
        if rest == 0:
            if budget == 0:
                out.append(melds)
            return
        low = rest & -rest
        c = low.bit_length() - 1
        for m in _melds_with_lowest(rest, c):
            dfs(rest & ~m, budget, melds + (m,))
        if POINTS[c] <= budget:
            dfs(rest ^ low, budget - POINTS[c], melds)

    dfs(kept, deadwood, ())
    return out
