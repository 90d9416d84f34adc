"""``marjj``: the MARJJ v5 policy, winner of the EAAI-2021 Gin Rummy challenge (our own code).

A reference opponent that camps for gin: it knocks only in its first three turns of a deal. The
policy, written from ``/work/shared/MARJJ.md`` and from reading the public Java (``aqib-a99/MARJJ``,
``MARJJ_v5-1.java``); every quirk of the Java is kept on purpose:

* **State, rebuilt from the view each decision** (the Java resets it each hand):
  ``seen`` = its own dealt cards, every face-up card offered to it, every card it drew, every
  opponent discard (a card the opponent takes from the pile before MARJJ was offered it is not
  seen); ``opp_cards`` = every face-up card the opponent took, never cleared (stale after the
  opponent discards it again); ``turns`` = its own discards this deal, counted at the start of
  each discard decision; ``face_up`` = the last card offered to it.
* **Draw** (the first-turn offer and every turn): among the minimum-deadwood arrangements of
  hand + face-up card pick one by :func:`select_spread`; take the card iff it is in a meld of that
  arrangement and the least 10-card deadwood of the 11 cards (any discard, the card itself
  included) is strictly below the deadwood of the 10 it holds.
* **Discard**: candidates are the cards unmelded in at least one 11-card minimum arrangement,
  never ``face_up`` (when just taken); (a) keep values >= largest - 5, one left: discard it;
  (b) d = deadwood of the 10 kept: the first candidate in hand order with d = 0 is discarded
  (gin); (c) drop d > least d + 5, one left: discard it. Otherwise the least
  ``S = d + 18 * F * 0.9 ** (turns - 1) + D`` (:func:`future_term`, :func:`danger`), exact ties
  broken uniformly at random by the context's generator.
* **Knock**: after the discard, knock iff the 10 kept cards have deadwood <= 10 and
  ``turns < 4``; later only gin. The knock shows :func:`select_spread`'s arrangement.

As defender our engine lays off optimally for it (the EAAI host lays off first-fit), so our copy
is very slightly stronger than the Java there. Its hand order (for "the first gin discard") is its
dealt cards by ascending card int, then draws in order; the Java keeps the host's dealing order.
Among equally scored spreads the first in the Java's own search order is chosen
(:func:`java_order`), and a set's "next suit" follows the Java's suit cycle C, H, S, D
(:data:`NEXT_SUIT`), not our suit order (issue 22: an independent port of the Java found each
changing a draw about once in 10,000 to 25,000).
The dealt hand, ``seen`` and the rest come only from the view (DESIGN.md principle 6).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

from ..actions import DRAW_DISCARD, DRAW_STOCK, PASS, TAKE, Action, ActionKind
from ..cards import POINTS, CardSet
from ..hand import Phase
from ..melds import best_discard_deadwood, melds_in, min_deadwood_mask
from ..views import PlayerView
from .base import Context
from .knowledge import bits, min_spreads

__all__ = ["MarjjBot", "MarjjState", "read_state", "select_spread", "layoff_estimate",
           "java_order", "JAVA_MELD_INDEX", "NEXT_SUIT",
           "discard_candidates", "future_term", "danger", "discard_scores", "wants_face_up"]

#: the Java's constants (v5): future-deadwood weight and decay, cards averaged, filter width.
INIT_WEIGHT = 18.0
DECAY = 0.9
MAX_CARDS_TO_CONSIDER = 7
MAX_DIFFERENCE = 5
#: danger table (v5): run bonus / penalty, adjacent, two away, set, rank.
SEQUENCE_BONUS, ADJ_BONUS, ADJ2_BONUS = -10.0, -5.0, -3.0
SEQUENCE_PENALTY, ADJ_PENALTY, ADJ2_PENALTY = 20.0, 5.0, 3.0
SET_BONUS, RANK_BONUS, SET_PENALTY, RANK_PENALTY = -10.0, -4.0, 20.0, 4.0


@dataclass
class MarjjState:
    """MARJJ's memory of the deal, rebuilt from its view (masks are 52-bit ints).

    :ivar seen: cards it has seen (see the module docstring).
    :ivar opp_cards: face-up cards the opponent took (stale: never cleared).
    :ivar turns: its own discards so far this deal.
    :ivar face_up: the last face-up card offered to it, or None.
    :ivar order: its hand in "hand order" (dealt cards ascending, then draws in order).
    """

    seen: int = 0
    opp_cards: int = 0
    turns: int = 0
    face_up: int | None = None
    order: list[int] = field(default_factory=list)


def _mask(c: int) -> int:
    return 1 << c


def read_state(view: PlayerView) -> MarjjState:
    """Replay ``view.history`` into MARJJ's state. During a draw decision (offer or draw, not the
    forced stock draw) the face-up card now offered counts as offered (the Java adds it to
    ``seen`` when asked)."""
    me = view.seat
    # the dealt hand: undo the history backwards from the current hand
    dealt = view.hand.mask
    for e in reversed(view.history):
        if e.seat != me or e.card is None:
            continue
        if e.kind in (ActionKind.DISCARD, ActionKind.KNOCK, ActionKind.GIN):
            dealt |= _mask(e.card)
        elif e.kind in (ActionKind.TAKE, ActionKind.DRAW_DISCARD, ActionKind.DRAW_STOCK):
            dealt &= ~_mask(e.card)
    st = MarjjState(seen=dealt, order=bits(dealt))
    pile = [view.upcard]
    passes = 0
    draws = 0
    forced = False
    for e in view.history:
        mine = e.seat == me
        k = e.kind
        if k is ActionKind.PASS:
            if mine and pile:
                st.seen |= _mask(pile[-1])
                st.face_up = pile[-1]
            if draws == 0:
                passes += 1
                forced = passes == 2
        elif k in (ActionKind.TAKE, ActionKind.DRAW_DISCARD):
            c = pile.pop() if pile else e.card
            draws += 1
            if c is None:
                continue
            if mine:
                st.seen |= _mask(c)
                st.face_up = c
                st.order.append(c)
            else:
                st.opp_cards |= _mask(c)
            forced = False
        elif k is ActionKind.DRAW_STOCK:
            draws += 1
            if mine:
                if not forced and pile:
                    st.seen |= _mask(pile[-1])
                    st.face_up = pile[-1]
                if e.card is not None:
                    st.seen |= _mask(e.card)
                    st.order.append(e.card)
            forced = False
        elif k is ActionKind.DISCARD and e.card is not None:
            pile.append(e.card)
            if mine:
                st.turns += 1
                if e.card in st.order:
                    st.order.remove(e.card)
            else:
                st.seen |= _mask(e.card)
    if view.to_act and view.phase in (Phase.OFFER, Phase.DRAW, Phase.FIFTIETH) \
            and view.discard_pile and (view.phase is not Phase.DRAW or DRAW_DISCARD in view.legal):
        top = view.discard_pile[-1]
        st.seen |= _mask(top)
        st.face_up = top
    return st


# ------------------------------------------------------------------------------- selectSpread
def _counts(c: int, seen: int, opp: int) -> bool:
    """A card the opponent may hold: taken by it, or never seen."""
    return bool(opp >> c & 1) or not seen >> c & 1


#: our suit index (S H D C) -> the Java's (C H S D: its card id is suit * 13 + rank).
_JAVA_SUIT = (2, 1, 3, 0)
_OUR_SUIT = tuple(_JAVA_SUIT.index(j) for j in range(4))
#: per card: the same rank in the next suit of the Java's cycle C -> H -> S -> D -> C (its
#: ``(id + 13) % 52``): 7S -> 7D, 7H -> 7S, 7D -> 7C, 7C -> 7H.
NEXT_SUIT = tuple(_OUR_SUIT[(_JAVA_SUIT[x // 13] + 1) % 4] * 13 + x % 13 for x in range(52))


def _java_meld_table() -> dict[int, int]:
    """Meld mask -> its position in the Java's meld table (``GinRummyUtil``'s list): the runs
    first, by the Java's suit (C H S D), then lowest rank, then length; then the sets by rank,
    each rank's four three-card sets (without C, H, S, D in turn) before its four-card set."""
    table: dict[int, int] = {}
    for js in range(4):
        base = _OUR_SUIT[js] * 13
        for lo in range(11):
            for hi in range(lo + 2, 13):
                table[sum(1 << (base + r) for r in range(lo, hi + 1))] = len(table)
    for rank in range(13):
        four = sum(1 << (s * 13 + rank) for s in range(4))
        for js in range(4):
            table[four & ~(1 << (_OUR_SUIT[js] * 13 + rank))] = len(table)
        table[four] = len(table)
    return table


JAVA_MELD_INDEX = _java_meld_table()


def java_order(arrangement: tuple[int, ...]) -> tuple[int, tuple[int, ...]]:
    """Sort key of an arrangement (meld masks) in the order the Java's breadth-first search of
    meld-index sets finds it (``cardsToAllMaximalMeldSets``): fewer melds first, then the sorted
    positions of its melds in :data:`JAVA_MELD_INDEX`, compared lexicographically.

    :raises KeyError: when a mask is not a meld.
    """
    return len(arrangement), tuple(sorted(JAVA_MELD_INDEX[x] for x in arrangement))


def layoff_estimate(melds: tuple[int, ...], seen: int, opp: int) -> int:
    """The Java's estimate of the opponent's layoffs on ``melds`` (meld masks), in points.

    Run from rank lo to hi: if lo > 0 and the card below counts, add the value of the run's LOW
    card (the Java's off-by-one: not the layoff card's value); if hi < 12 and the card above
    counts, add the value of the run's HIGH card. Set: for each card, if the same rank in the
    next suit of the Java's cycle (C -> H -> S -> D -> C, :data:`NEXT_SUIT`) counts, add the
    card's value. "Counts" = in ``opp`` or not in ``seen``; the cycle matters only when a card of
    the set is itself a stale ``opp`` entry (the opponent took it and threw it back).
    """
    total = 0
    for m in melds:
        cs = bits(m)
        if len({c // 13 for c in cs}) == 1:  # a run, ascending
            lo, hi = cs[0], cs[-1]
            if lo % 13 > 0 and _counts(lo - 1, seen, opp):
                total += POINTS[lo]
            if hi % 13 < 12 and _counts(hi + 1, seen, opp):
                total += POINTS[hi]
        else:
            for c in cs:
                if _counts(NEXT_SUIT[c], seen, opp):
                    total += POINTS[c]
    return total


def select_spread(mask: int, seen: int, opp: int) -> tuple[int, ...] | None:
    """Among the minimum-deadwood arrangements of ``mask``, the one with the smallest
    :func:`layoff_estimate`, ties to the first in the Java's search order (:func:`java_order`);
    None when the cards hold no meld at all (the Java's empty list)."""
    if not melds_in(mask):
        return None
    arrs = min_spreads(mask, min_deadwood_mask(mask), limit=1 << 16)
    if len(arrs) == 1:
        return arrs[0]
    arrs.sort(key=java_order)
    best = arrs[0]
    best_v = layoff_estimate(best, seen, opp)
    for a in arrs[1:]:
        v = layoff_estimate(a, seen, opp)
        if v < best_v:
            best, best_v = a, v
    return best


# ------------------------------------------------------------------------------------- draw
def wants_face_up(hand: int, card: int, seen: int, opp: int) -> bool:
    """The draw rule: ``card`` is in a meld of :func:`select_spread` (hand + card) and the least
    deadwood after the best of 11 discards is strictly below the deadwood of ``hand``."""
    h11 = hand | _mask(card)
    spread = select_spread(h11, seen, opp)
    if spread is None:
        return False
    return any(m >> card & 1 for m in spread) and \
        best_discard_deadwood(h11) < min_deadwood_mask(hand)


# ---------------------------------------------------------------------------------- discard
@dataclass
class Candidates:
    """The discard filter's result: ``cards`` in hand order with their 10-card deadwood ``d``;
    ``final`` is set when the filter alone decided (one card left, or gin)."""

    cards: list[int]
    d: dict[int, int]
    final: int | None = None


def discard_candidates(order: list[int], face_up: int | None) -> Candidates:
    """Filters 1, a, b and c of the discard rule over the 11 cards in ``order`` (hand order)."""
    hand = 0
    for c in order:
        hand |= _mask(c)
    include: list[int] = []
    if not melds_in(hand):
        include = [c for c in order if c != face_up]
    else:
        unmelded = 0
        for arr in min_spreads(hand, min_deadwood_mask(hand), limit=1 << 16):
            used = 0
            for m in arr:
                used |= m
            unmelded |= hand & ~used
        include = [c for c in order if unmelded >> c & 1 and c != face_up]
    biggest = max((POINTS[c] for c in include), default=0)
    include = [c for c in include if POINTS[c] >= biggest - MAX_DIFFERENCE]  # (a)
    if len(include) == 1:
        return Candidates(include, {}, include[0])
    if not include:
        include = [c for c in order if c != face_up]
    d: dict[int, int] = {}
    for c in include:  # (b)
        d[c] = min_deadwood_mask(hand & ~_mask(c))
        if d[c] == 0:
            return Candidates([c], d, c)
    least = min(d.values())
    kept = [c for c in include if d[c] <= least + MAX_DIFFERENCE]  # (c)
    return Candidates(kept, d, kept[0] if len(kept) == 1 else None)


def future_term(hand: int, c: int, seen: int) -> float:
    """F: for each card u not in ``seen``, the least deadwood of hand - c + u after its best
    discard (u may be it); the mean of the 7 smallest (0.0 when nothing is unseen)."""
    rest = hand & ~_mask(c)
    vals = sorted(best_discard_deadwood(rest | _mask(u)) for u in range(52)
                  if not seen >> u & 1)
    top = vals[:MAX_CARDS_TO_CONSIDER]
    if not top:
        return 0.0
    total = 0.0
    for v in top:
        total += v
    return total / len(top)


def danger(hand: int, c: int, seen: int, opp: int) -> float:
    """D: the Java's danger of discarding ``c`` (11-card ``hand``), quirks kept: for rank >= 11
    the +2 check marks +1 unavailable instead (and leaves +2 false); the rank part adds +4 when
    ``unavailSame == 1`` (a typo for ``oppSame == 1``). "Unavailable" = in the hand or seen."""
    rank = c % 13
    known = hand | seen

    def flags(x: int) -> tuple[bool, bool]:
        if opp >> x & 1:
            return True, False
        return False, bool(known >> x & 1)

    opp_hi = un_hi = opp_lo = un_lo = False
    opp_hi2 = un_hi2 = opp_lo2 = un_lo2 = False
    if rank < 12:
        opp_hi, un_hi = flags(c + 1)
    else:
        un_hi = True
    if rank > 0:
        opp_lo, un_lo = flags(c - 1)
    else:
        un_lo = True
    if rank < 11:
        opp_hi2, un_hi2 = flags(c + 2)
    else:
        un_hi = True  # the Java's quirk: +1 marked, +2 left false
    if rank > 1:
        opp_lo2, un_lo2 = flags(c - 2)
    else:
        un_lo2 = True
    opp_same = un_same = 0
    for s in range(4):
        x = rank + 13 * s
        if opp >> x & 1:
            opp_same += 1
        elif known >> x & 1:
            un_same += 1
    ev = 0.0
    if (un_hi and (un_lo or un_lo2)) or (un_lo and (un_hi or un_hi2)):
        ev += SEQUENCE_BONUS
    else:
        if un_lo:
            ev += ADJ_BONUS
        if un_hi:
            ev += ADJ_BONUS
        if un_lo2:
            ev += ADJ2_BONUS
        if un_hi2:
            ev += ADJ2_BONUS
    if (opp_hi and (opp_lo or opp_lo2)) or (opp_lo and (opp_hi or opp_hi2)):
        ev += SEQUENCE_PENALTY
    else:
        if opp_lo:
            ev += ADJ_PENALTY
        if opp_hi:
            ev += ADJ_PENALTY
        if opp_lo2:
            ev += ADJ2_PENALTY
        if opp_hi2:
            ev += ADJ2_PENALTY
    if un_same >= 3:
        ev += SET_BONUS
    elif un_same == 2:
        ev += RANK_BONUS
    if opp_same >= 2:
        ev += SET_PENALTY
    elif un_same == 1:  # the Java's typo (meant oppSame == 1): kept
        ev += RANK_PENALTY
    return ev


def discard_scores(hand: int, cands: Candidates, seen: int, opp: int, turns: int
                   ) -> dict[int, float]:
    """S per candidate: ``d + 18 * F * 0.9 ** (turns - 1) + D`` in the Java's float order
    (``turns`` counts this discard)."""
    out: dict[int, float] = {}
    decay = math.pow(DECAY, turns - 1)
    for c in cands.cards:
        my_ev = cands.d[c] + INIT_WEIGHT * future_term(hand, c, seen) * decay
        out[c] = my_ev + danger(hand, c, seen, opp)
    return out


# -------------------------------------------------------------------------------------- bot
class MarjjBot:
    """The MARJJ v5 policy (see the module docstring)."""

    name = "marjj"

    def choose(self, view: PlayerView, ctx: Context) -> Action:
        if not view.legal:
            raise ValueError("not this seat's turn")
        legal = view.legal
        if len(legal) == 1:
            return legal[0]
        st = read_state(view)
        hand = view.hand.mask
        ph = view.phase
        if ph in (Phase.OFFER, Phase.DRAW, Phase.FIFTIETH):
            top = view.discard_pile[-1]
            take = wants_face_up(hand, top, st.seen, st.opp_cards)
            if ph is Phase.OFFER:
                return TAKE if take else PASS
            if take and DRAW_DISCARD in legal:
                return DRAW_DISCARD
            return DRAW_STOCK if ph is Phase.DRAW else PASS
        return self._discard(view, ctx, st)

    def _discard(self, view: PlayerView, ctx: Context, st: MarjjState) -> Action:
        hand = view.hand.mask
        turns = st.turns + 1  # incremented at the start of the discard decision
        order = [c for c in st.order if hand >> c & 1]
        order += [c for c in bits(hand) if c not in order]  # defensive: always the 11 cards
        face_up = st.face_up if st.face_up is not None and hand >> st.face_up & 1 else None
        cands = discard_candidates(order, face_up)
        if cands.final is not None:
            card = cands.final
        else:
            scores = discard_scores(hand, cands, st.seen, st.opp_cards, turns)
            best = min(scores.values())
            ties = [c for c in cands.cards if scores[c] == best]
            card = ties[ctx.rng.randrange(len(ties))]
        return self._declare(view, st, card, turns)

    def _declare(self, view: PlayerView, st: MarjjState, card: int, turns: int) -> Action:
        kept = view.hand.mask & ~_mask(card)
        dw = min_deadwood_mask(kept)
        wanted: Action
        if dw == 0:
            wanted = Action(ActionKind.GIN, card)
        elif dw <= min(10, view.knock_limit) and turns < 4:
            spread = select_spread(kept, st.seen, st.opp_cards) or ()
            wanted = Action(ActionKind.KNOCK, card, melds=tuple(CardSet(m) for m in spread))
        else:
            wanted = Action(ActionKind.DISCARD, card)
        legal = view.legal
        if any(a.kind is wanted.kind and a.card == card for a in legal):
            return wanted
        # the rules forbid what the Java would do (a must-knock turn, R-8.2, or a card it may
        # not discard): the nearest legal declaration, least deadwood first
        outs = [a for a in legal if a.kind in (ActionKind.GIN, ActionKind.KNOCK,
                                               ActionKind.BIG_GIN, ActionKind.DISCARD)]
        outs.sort(key=lambda a: (a.kind is ActionKind.DISCARD,
                                 min_deadwood_mask(view.hand.mask & ~_mask(a.card))
                                 if a.card is not None else 0, a.card or 0))
        a = outs[0]
        if a.kind is ActionKind.KNOCK and a.card is not None:
            k2 = view.hand.mask & ~_mask(a.card)
            spread = select_spread(k2, st.seen, st.opp_cards) or ()
            return Action(ActionKind.KNOCK, a.card, melds=tuple(CardSet(m) for m in spread))
        return a
