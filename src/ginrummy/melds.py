"""The meld solver: exact minimum deadwood, 11-card evaluation, knock spreads and layoffs.

Everything here is exact (R-1.5, R-1.6, R-4.5, R-6.4) and works on 52-bit masks (see
:mod:`ginrummy.cards`). The fast path:

* ``_RUN_DW[lane]`` holds, for every 13-bit suit lane, the minimum deadwood using runs only inside
  that suit (a DP over the lowest card: it is deadwood or starts a run); ``_RUN_DROP[lane]`` the
  best change of that value when one card of the lane is discarded.
* Sets cut across suits, so :func:`min_deadwood_mask` enumerates only the set choices (no set, the
  whole set, or one of the four 3-card sets of a 4-of-a-kind) of the at most few ranks held three or
  more times, and prices the rest with four table lookups. Choices that can never win are not
  tried (exact dominance): a rank none of whose cards could ever be in a run is always melded as
  a set; with four of a kind, leaving out a card that cannot be in a run is never better than the
  4-card set.
* :func:`best_discard_deadwood` (R-1.6) enumerates the set choices of all 11 cards once and prices
  "one card leaves" with ``_RUN_DROP`` instead of solving the eleven 10-card hands.

>>> best_arrangement("4H 5H 6H 7H 7S 7D 9C 9S 9D AC").deadwood_points
1
>>> [o.discard for o in evaluate_discards(CardSet.parse("3C 4C 5C 2D 3D 4D 5D 2H 3H 4H 5S"))][:1]
['5S']
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from itertools import product
from typing import Final

from .cards import FULL_DECK, LANE, POINTS, CardSet, card_text, parse_card
from .errors import InvalidNotationError

__all__ = [
    "Arrangement", "DiscardOption", "Layoff", "LayoffResult", "best_arrangement", "min_deadwood",
    "min_deadwood_mask", "evaluate_discards", "best_discard_deadwood", "is_big_gin", "is_meld",
    "melds_in", "all_arrangements", "default_spread", "layoff_chances", "best_layoff",
    "validate_spread", "as_cardset",
]

_COL: Final = 1 | 1 << 13 | 1 << 26 | 1 << 39  # one bit per suit at rank 0


def _build_run_tables() -> tuple[list[int], list[tuple[int, ...]]]:
    """Per 13-bit lane: minimum deadwood using runs only, and one optimal list of runs."""
    dw = [0] * 8192
    runs: list[tuple[int, ...]] = [()] * 8192
    for m in range(1, 8192):
        r = (m & -m).bit_length() - 1
        rest = m & ~(1 << r)
        best = POINTS[r] + dw[rest]
        best_runs = runs[rest]
        seg = 1 << r
        k = r + 1
        while k < 13 and m >> k & 1:
            seg |= 1 << k
            k += 1
            if k - r >= 3:
                v = dw[m & ~seg]
                if v < best:
                    best = v
                    best_runs = (seg,) + runs[m & ~seg]
        dw[m] = best
        runs[m] = best_runs
    return dw, runs


_RUN_DW, _RUN_MELDS = _build_run_tables()
_NO_DISCARD: Final = 1000  # sentinel: no legal discard in a lane / hand


def _build_drop_table() -> list[int]:
    """Per 13-bit lane: the best change of the lane's run-only deadwood when one of its cards is
    discarded, ``min over c in lane of _RUN_DW[lane - c] - _RUN_DW[lane]`` (sentinel if empty)."""
    rd = _RUN_DW
    delta = [_NO_DISCARD] * 8192
    for m in range(1, 8192):
        best = _NO_DISCARD
        x = m
        while x:
            low = x & -x
            x ^= low
            v = rd[m ^ low]
            if v < best:
                best = v
        delta[m] = best - rd[m]
    return delta


_RUN_DROP = _build_drop_table()
#: per 13-bit lane: the cards of its optimal runs (the union of ``_RUN_MELDS[lane]``).
_RUN_USED: Final = [sum(rs) for rs in _RUN_MELDS]
#: per 13-bit lane: its ranks, ascending.
_LANE_RANKS: Final = [tuple(r for r in range(13) if m >> r & 1) for m in range(8192)]
#: per card: its place among equal deadwood in :func:`evaluate_discards` (higher value first,
#: then card order), ``(10 - value) << 6 | card``.
_DISCARD_TIE: Final = tuple((10 - POINTS[c]) << 6 | c for c in range(52))
#: per 13-bit lane: the value of its cards in points (R-1.2).
_LANE_POINTS: Final = [sum(POINTS[r] for r in range(13) if m >> r & 1) for m in range(8192)]
_CACHE: dict[int, int] = {}
_CACHE11: dict[int, int] = {}
_CACHE_LIMIT: Final = 1 << 18  # per cache; about 18 MiB when full (a full clear, then refill)
#: the text of every card int, for the discard of a :class:`DiscardOption`.
_TEXT: Final = tuple(card_text(c) for c in range(52))

# Fast construction of immutable results: a new instance and its slots set directly, exactly what
# the (frozen) ``__init__`` does, without its checks and attribute-guard calls. Only for values
# known to be valid (a mask inside the deck, melds built from the tables).
_new = object.__new__
_cs_mask = vars(CardSet)["mask"].__set__


def _cardset(mask: int) -> CardSet:
    cs = _new(CardSet)
    _cs_mask(cs, mask)
    return cs


#: the CardSet of every set meld (3 or 4 cards of a rank): 13 x 5 of them, shared.
_SET_CARDSETS: Final = {
    m: _cardset(m)
    for r in range(13)
    for m in [_COL << r] + [(_COL << r) & ~(1 << (13 * s + r)) for s in range(4)]
}
#: the CardSet of every run (3+ consecutive cards of a suit): 4 x 66 of them, shared.
_RUN_CARDSETS: Final = {
    seg << (13 * s): _cardset(seg << (13 * s))
    for s in range(4)
    for lo in range(11)
    for hi in range(lo + 2, 13)
    for seg in [((1 << (hi - lo + 1)) - 1) << lo]
}


def _build_lane_melds() -> list[list[tuple[CardSet, ...]]]:
    """Per suit, per 13-bit lane: the lane's optimal runs (``_RUN_MELDS``) as that suit's shared
    run CardSets (a table, about 1.5 MB, built once)."""
    out = []
    for s in range(4):
        sh = 13 * s
        rc = _RUN_CARDSETS
        out.append([tuple([rc[r << sh] for r in runs]) if runs else () for runs in _RUN_MELDS])
    return out


_LANE_MELDS: Final = _build_lane_melds()


def _clear_caches() -> None:
    """Empty the caches of this module (the benchmarks solve every hand cold); the tables stay."""
    _CACHE.clear()
    _CACHE11.clear()
#: bits of the ranks A..J of every suit: where a 3-card run may start.
_RUN_START: Final = sum(0x7FF << (13 * s) for s in range(4))


def _set_options(mask: int) -> list[list[int]]:
    """For each rank held 3+ times: every set meld that may be chosen there (0 = none).

    Unpruned: used where every choice matters (per-discard tables, arrangements).
    """
    a = mask & LANE
    b = mask >> 13 & LANE
    c = mask >> 26 & LANE
    d = mask >> 39 & LANE
    three = (a & b & (c | d)) | (c & d & (a | b))
    four = a & b & c & d
    opts: list[list[int]] = []
    while three:
        low = three & -three
        three ^= low
        col = mask & (_COL * low)
        if four & low:
            opts.append([0, col, col & ~low, col & ~(low << 13), col & ~(low << 26),
                         col & ~(low << 39)])
        else:
            opts.append([0, col])
    return opts


def _run_capable(mask: int) -> int:
    """The cards of ``mask`` that lie in some 3-card run inside ``mask``. A card outside this
    mask is never in a run of any subset of ``mask``: it only adds its value to deadwood."""
    s3 = mask & mask >> 1 & mask >> 2 & _RUN_START
    return s3 | s3 << 1 | s3 << 2


def _remainders(m0: int, opts: list[list[int]]) -> list[int]:
    """``m0`` minus one choice of every rank's set options (``opts``: per rank, the card masks
    its set may take, 0 for none): the cards left for runs, one mask per combination."""
    if not opts:
        return [m0]
    if len(opts) == 1:
        return [m0 & ~s for s in opts[0]]
    if len(opts) == 2:
        return [m0 & ~s & ~t for s in opts[0] for t in opts[1]]
    ms = []
    for combo in product(*opts):
        m = m0
        for s in combo:
            m &= ~s
        ms.append(m)
    return ms


def min_deadwood_mask(mask: int) -> int:
    """Minimum deadwood in points of the cards in ``mask`` (any number of cards) (R-1.5).

    >>> min_deadwood_mask(CardSet.parse("9C TC JC 8D 9D TD JD 7H JH JS").mask)
    7
    """
    rd = _RUN_DW
    a = mask & LANE
    b = mask >> 13 & LANE
    c = mask >> 26 & LANE
    d = mask >> 39
    three = (a & b & (c | d)) | (c & d & (a | b))
    if not three:  # no rank held 3+ times: runs only
        return rd[a] + rd[b] + rd[c] + rd[d]
    v = _CACHE.get(mask)
    if v is not None:
        return v
    cap = _run_capable(mask)
    four = a & b & c & d
    m0 = mask
    opts: list[list[int]] = []
    while three:
        low = three & -three
        three ^= low
        col = mask & (_COL * low)
        capc = col & cap
        if not capc:  # no card of this rank can be in a run: the set is always best
            m0 &= ~col
        elif four & low:
            # the 4-card set, or leave out one card that can be in a run (leaving out one that
            # cannot is never better than the 4-card set); no set only if two could be in runs
            o = [col]
            x = capc
            while x:
                bit = x & -x
                x ^= bit
                o.append(col ^ bit)
            if capc & (capc - 1):
                o.append(0)
            opts.append(o)
        else:
            opts.append([0, col])
    ms = _remainders(m0, opts)
    best = min([rd[m & LANE] + rd[m >> 13 & LANE] + rd[m >> 26 & LANE] + rd[m >> 39]
                for m in ms])
    if len(_CACHE) >= _CACHE_LIMIT:
        _CACHE.clear()
    _CACHE[mask] = best
    return best


def as_cardset(cards: CardSet | int | str | Iterable[str] | Iterable[int]) -> CardSet:
    """Coerce card text, an iterable of card texts or ints, a mask or a CardSet to a CardSet.

    :raises InvalidNotationError: malformed or duplicate cards.
    """
    if isinstance(cards, CardSet):
        return cards
    if isinstance(cards, int):
        return CardSet(cards)
    if isinstance(cards, str):
        return CardSet.parse(cards)
    items = list(cards)
    if all(isinstance(x, int) for x in items):
        cs = CardSet.of(x for x in items if isinstance(x, int))
        if len(cs) != len(items):
            twice = next(x for x in items if isinstance(x, int) and items.count(x) > 1)
            raise InvalidNotationError("duplicate card", "duplicate_card",
                                       card=card_text(twice) if 0 <= twice < 52 else str(twice))
        return cs
    return CardSet.parse([str(x) for x in items])


@dataclass(frozen=True, slots=True)
class Arrangement:
    """Disjoint melds plus the leftover deadwood of one hand.

    ``melds`` is a tuple of CardSets (each a set or run), ``deadwood`` the unmelded cards and
    ``deadwood_points`` their value in points (R-1.2).
    """

    melds: tuple[CardSet, ...]
    deadwood: CardSet
    deadwood_points: int

    def to_json(self) -> dict[str, object]:
        """``{"melds": [[card texts]...], "deadwood": [...], "deadwood_points": n}``."""
        return {
            "melds": [m.texts() for m in self.melds],
            "deadwood": self.deadwood.texts(),
            "deadwood_points": self.deadwood_points,
        }


_arr_melds = vars(Arrangement)["melds"].__set__
_arr_deadwood = vars(Arrangement)["deadwood"].__set__
_arr_points = vars(Arrangement)["deadwood_points"].__set__


def _arrangement(melds: tuple[CardSet, ...], dead: int, points: int) -> Arrangement:
    """``Arrangement(melds, CardSet(dead), points)`` built directly (see ``_new``)."""
    a = _new(Arrangement)
    _arr_melds(a, melds)
    cs = _new(CardSet)
    _cs_mask(cs, dead)
    _arr_deadwood(a, cs)
    _arr_points(a, points)
    return a


def _mk_arrangement(mask: int, melds: Iterable[int], points: int | None = None) -> Arrangement:
    """The arrangement of ``mask`` with these melds (``points``: the deadwood value if known)."""
    ms = tuple(sorted((_cardset(m) for m in melds), key=_meld_sort_key))
    used = 0
    for m in ms:
        used |= m.mask
    dead = mask & ~used
    if points is None:
        lp = _LANE_POINTS
        points = lp[dead & LANE] + lp[dead >> 13 & LANE] + lp[dead >> 26 & LANE] + lp[dead >> 39]
    return _arrangement(ms, dead, points)


def best_arrangement(cards: CardSet | int | str | Iterable[str] | Iterable[int]) -> Arrangement:
    """One arrangement of minimum deadwood (R-1.5) of any number of cards.

    :raises InvalidNotationError: malformed or duplicate cards.

    >>> a = best_arrangement("3C 4C 5C 6C 3D 3H 6H 3S 4S 5S")
    >>> [m.format() for m in a.melds], a.deadwood.format(), a.deadwood_points
    (['3H 3D 3C', '3S 4S 5S', '4C 5C 6C'], '6H', 6)

    How: runs only (no rank held 3+ times), the optimal runs of each lane come from the
    tables. Otherwise the first set choice (in :func:`_set_options` order) of minimum deadwood;
    a rank none of whose cards can be in a run is always melded whole there (leaving it out adds
    its value to the deadwood), so only that choice is tried. Melds come out in the canonical
    order (sets by rank, then runs by suit and rank), without a sort.
    """
    if type(cards) is CardSet:
        mask = cards.mask
    elif type(cards) is int and 0 <= cards <= FULL_DECK:
        mask = cards
    else:
        mask = as_cardset(cards).mask
    rd = _RUN_DW
    ru = _RUN_USED
    lm = _LANE_MELDS
    a = mask & LANE
    b = mask >> 13 & LANE
    c = mask >> 26 & LANE
    d = mask >> 39
    three = (a & b & (c | d)) | (c & d & (a | b))
    if three:
        s3 = mask & mask >> 1 & mask >> 2 & _RUN_START
        cap = s3 | s3 << 1 | s3 << 2
        four = a & b & c & d
        sc = _SET_CARDSETS
        m = mask
        opts: list[list[int]] = []
        fixed: list[CardSet] = []
        choice = False
        while three:
            low = three & -three
            three ^= low
            col = mask & (_COL * low)
            if not col & cap:
                opts.append([col])
                fixed.append(sc[col])
                m ^= col
            elif four & low:
                # in _set_options order, without the choices that are strictly worse than
                # another one (so never the first minimum): leaving out a card that cannot be
                # in a run (the 4-card set is better), and no set with one such card only
                capc = col & cap
                o = [0, col] if capc & (capc - 1) else [col]
                for bit in (low, low << 13, low << 26, low << 39):
                    if capc & bit:
                        o.append(col ^ bit)
                opts.append(o)
                choice = True
            else:
                opts.append([0, col])
                choice = True
        if choice:
            best = _NO_DISCARD
            best_combo: tuple[int, ...] = ()
            for combo in product(*opts):
                m = mask
                for s in combo:
                    m &= ~s
                v = rd[m & LANE] + rd[m >> 13 & LANE] + rd[m >> 26 & LANE] + rd[m >> 39]
                if v < best:
                    best = v
                    best_combo = combo
            sets = tuple([sc[s] for s in best_combo if s])
            m = mask
            for s in best_combo:
                m &= ~s
        else:
            sets = tuple(fixed)
        a = m & LANE
        b = m >> 13 & LANE
        c = m >> 26 & LANE
        d = m >> 39
    else:
        sets = ()
        m = mask
    ua = ru[a]
    ub = ru[b]
    uc = ru[c]
    ud = ru[d]
    arr = _new(Arrangement)
    if ua | ub | uc | ud:
        _arr_melds(arr, sets + lm[0][a] + lm[1][b] + lm[2][c] + lm[3][d])
        m ^= ua | ub << 13 | uc << 26 | ud << 39
    else:
        _arr_melds(arr, sets)
    if m == mask and type(cards) is CardSet:  # no meld: the deadwood is the (immutable) hand
        _arr_deadwood(arr, cards)
    else:
        cs = _new(CardSet)
        _cs_mask(cs, m)
        _arr_deadwood(arr, cs)
    _arr_points(arr, rd[a] + rd[b] + rd[c] + rd[d])
    return arr


_arrange = best_arrangement  # called with masks inside this module


def _meld_sort_key(m: CardSet) -> tuple[int, int]:
    low = (m.mask & -m.mask).bit_length() - 1
    is_set = 0 if _is_set_mask(m.mask) else 1
    return (is_set, low % 13 * 4 + low // 13) if is_set == 0 else (is_set, low)


def min_deadwood(cards: CardSet | int | str | Iterable[str] | Iterable[int]) -> int:
    """Minimum deadwood in points (R-1.5).

    >>> min_deadwood("AS 2C 9D TH JS QC KD")
    52
    """
    return min_deadwood_mask(as_cardset(cards).mask)


@dataclass(frozen=True, slots=True)
class DiscardOption:
    """One legal discard from 11 cards and the best arrangement of the 10 kept (R-1.6)."""

    discard: str
    arrangement: Arrangement

    @property
    def deadwood_points(self) -> int:
        return self.arrangement.deadwood_points


_opt_discard = vars(DiscardOption)["discard"].__set__
_opt_arrangement = vars(DiscardOption)["arrangement"].__set__


def _lane_drop(lane: int, allowed: int) -> int:
    """Like ``_RUN_DROP[lane]`` but only the cards of ``allowed`` (a sub-lane) may go."""
    if allowed == lane:
        return _RUN_DROP[lane]
    if not allowed:
        return _NO_DISCARD
    rd = _RUN_DW
    best = _NO_DISCARD
    while allowed:
        low = allowed & -allowed
        allowed ^= low
        v = rd[lane ^ low]
        if v < best:
            best = v
    return best - rd[lane]


def _discard_deadwoods(mask: int) -> dict[int, int]:
    """``{card: min_deadwood_mask(mask without card)}`` for every card of ``mask`` (R-1.5):
    runs only (no rank held 3+ times), one table lookup per card; otherwise per card."""
    rd = _RUN_DW
    a = mask & LANE
    b = mask >> 13 & LANE
    c = mask >> 26 & LANE
    d = mask >> 39
    if (a & b & (c | d)) | (c & d & (a | b)):
        out = {}
        x = mask
        while x:
            low = x & -x
            x ^= low
            out[low.bit_length() - 1] = min_deadwood_mask(mask ^ low)
        return out
    base = rd[a] + rd[b] + rd[c] + rd[d]
    out = {}
    for sh, lane in ((0, a), (13, b), (26, c), (39, d)):
        b0 = base - rd[lane]
        for r in _LANE_RANKS[lane]:
            out[sh + r] = b0 + rd[lane ^ 1 << r]
    return out


def best_discard_deadwood(mask: int, forbidden: int = 0) -> int:
    """Minimum 10-card deadwood over the legal discards of the cards in ``mask`` (R-1.6).

    ``forbidden`` is a mask of cards that may not be discarded (R-3.6). Returns 1000 if no card
    may be discarded.

    Exact and fast: every (discard, set choice of the 10 kept cards) pair is a set choice of the
    whole hand that leaves the discard outside its sets, so it enumerates the set choices of the
    whole hand once, and per choice prices "one card leaves a suit" with the ``_RUN_DROP``
    table (one lookup per suit) instead of solving each 10-card hand again. A rank none of whose
    cards can be in a run is melded whole, and "discard one of its cards" becomes a constant
    alternative: 2 x its value for three of a kind (two cards stay unmelded), 0 for four.

    >>> best_discard_deadwood(CardSet.parse("3C 4C 5C 2D 3D 4D 5D 2H 3H 4H 5S").mask)
    0
    >>> best_discard_deadwood(CardSet.parse("3C 4C 5C 2D 3D 4D 5D 2H 3H 4H 5S").mask,
    ...                       CardSet.parse("5S").mask)
    2
    """
    rd = _RUN_DW
    dr = _RUN_DROP
    forbidden &= mask
    a = mask & LANE
    b = mask >> 13 & LANE
    c = mask >> 26 & LANE
    d = mask >> 39
    three = (a & b & (c | d)) | (c & d & (a | b))
    if not three and not forbidden:  # the common case: four lookups and four more
        v = rd[a] + rd[b] + rd[c] + rd[d] + min(dr[a], dr[b], dr[c], dr[d])
        return v if v < _NO_DISCARD else _NO_DISCARD
    key = mask | forbidden << 52
    hit = _CACHE11.get(key)
    if hit is not None:
        return hit
    m0 = mask
    alt = _NO_DISCARD  # best "discard a card of a whole-set rank" alternative
    opts: list[list[int]] = []
    if three:
        cap = _run_capable(mask)
        four = a & b & c & d
        while three:
            low = three & -three
            three ^= low
            col = mask & (_COL * low)
            capc = col & cap
            if not capc:
                # never in a run: meld it whole (discarding a card elsewhere), or discard one of
                # its cards: four of a kind keeps a 3-card set (0), three leaves two cards
                m0 &= ~col
                if col & ~forbidden:
                    x = 0 if four & low else 2 * POINTS[low.bit_length() - 1]
                    if x < alt:
                        alt = x
            elif four & low:
                o = [0, col]
                x = capc
                while x:
                    bit = x & -x
                    x ^= bit
                    o.append(col ^ bit)
                iso = col & ~capc
                if iso:  # leaving out any one card that is never in a run: all alike
                    pick = iso & ~forbidden or iso
                    o.append(col ^ (pick & -pick))
                opts.append(o)
            else:
                opts.append([0, col])
    best = _NO_DISCARD
    ms = _remainders(m0, opts)
    if not forbidden:
        for m in ms:
            a = m & LANE
            b = m >> 13 & LANE
            c = m >> 26 & LANE
            d = m >> 39
            v = rd[a] + rd[b] + rd[c] + rd[d] + min(dr[a], dr[b], dr[c], dr[d], alt)
            if v < best:
                best = v
    else:
        for m in ms:
            allowed = m & ~forbidden
            total = 0
            drop = alt
            for sh in (0, 13, 26, 39):
                lane = m >> sh & LANE
                total += rd[lane]
                x = _lane_drop(lane, allowed >> sh & LANE)
                if x < drop:
                    drop = x
            v = total + drop
            if v < best:
                best = v
    if best > _NO_DISCARD:
        best = _NO_DISCARD
    if len(_CACHE11) >= _CACHE_LIMIT:
        _CACHE11.clear()
    _CACHE11[key] = best
    return best


def evaluate_discards(hand: CardSet, forbidden: CardSet | None = None) -> list[DiscardOption]:
    """Every legal discard of an 11-card hand with its best 10-card arrangement, best first
    (lowest deadwood, then highest discard value, then card order) (R-1.6, R-3.6).

    ``forbidden``: cards that may not be discarded (the card taken from the discard pile).
    One pass over the set choices of all 11 cards prices every discard at once (see
    :func:`best_discard_deadwood`): for each card, the first set choice of least deadwood among
    those that leave it free, its runs read from the per-lane tables. Each arrangement is then
    built once, from shared meld CardSets, in the canonical meld order.

    >>> [(o.discard, o.deadwood_points) for o in evaluate_discards(
    ...     CardSet.parse("AS 2S 3S 8C 8D 8H 5H 6H 7H JC QC"))][:2]
    [('JC', 10), ('QC', 10)]
    """
    mask = hand.mask
    allowed = mask & ~forbidden.mask if forbidden is not None else mask
    rd = _RUN_DW
    ru = _RUN_USED
    tie = _DISCARD_TIE
    a = mask & LANE
    b = mask >> 13 & LANE
    c = mask >> 26 & LANE
    d = mask >> 39
    three = (a & b & (c | d)) | (c & d & (a | b))
    # 1. every card's best deadwood: over the set choices that leave it outside their sets, the
    # first of least deadwood (runs priced per lane from the tables); sort keys
    # ``deadwood << 12 | tie`` give the order (lowest deadwood, then higher value, then card)
    if not three:  # runs only: a discard changes its own lane only; one pass
        lm = _LANE_MELDS
        text = _TEXT
        lanes = (a, b, c, d)
        base = rd[a] + rd[b] + rd[c] + rd[d]
        t0 = lm[0][a]
        t1 = lm[1][b]
        t2 = lm[2][c]
        t3 = lm[3][d]
        pre = ((), t0, t0 + t1, t0 + t1 + t2)
        post = (t1 + t2 + t3, t2 + t3, t3, ())
        dead = mask ^ (ru[a] | ru[b] << 13 | ru[c] << 26 | ru[d] << 39)
        pairs: list[tuple[int, DiscardOption]] = []
        for suit in range(4):
            sh = 13 * suit
            free = allowed >> sh & LANE
            if not free:
                continue
            lane = lanes[suit]
            b0 = base - rd[lane]
            before = pre[suit]
            after = post[suit]
            lms = lm[suit]
            other = dead & ~(LANE << sh)
            for r in _LANE_RANKS[free]:
                nl = lane ^ 1 << r
                v = b0 + rd[nl]
                arr = _new(Arrangement)
                _arr_melds(arr, before + lms[nl] + after)
                cs = _new(CardSet)
                _cs_mask(cs, other | (nl & ~ru[nl]) << sh)
                _arr_deadwood(arr, cs)
                _arr_points(arr, v)
                opt = _new(DiscardOption)
                _opt_discard(opt, text[sh + r])
                _opt_arrangement(opt, arr)
                pairs.append((v << 12 | tie[sh + r], opt))
        pairs.sort()
        return [o for _, o in pairs]
    combos = list(product(*_set_options(mask)))
    best_v = [_NO_DISCARD] * 52
    best_k = [0] * 52
    for k, combo in enumerate(combos):
        m = mask
        for s in combo:
            m &= ~s
        lanes = (m & LANE, m >> 13 & LANE, m >> 26 & LANE, m >> 39)
        base = rd[lanes[0]] + rd[lanes[1]] + rd[lanes[2]] + rd[lanes[3]]
        free_all = m & allowed
        for suit in range(4):
            sh = 13 * suit
            free = free_all >> sh & LANE
            if free:
                lane = lanes[suit]
                b0 = base - rd[lane]
                for r in _LANE_RANKS[free]:
                    v = b0 + rd[lane ^ 1 << r]
                    if v < best_v[sh + r]:
                        best_v[sh + r] = v
                        best_k[sh + r] = k
    keys = []
    for sh in (0, 13, 26, 39):
        for r in _LANE_RANKS[allowed >> sh & LANE]:
            v = best_v[sh + r]
            if v < _NO_DISCARD:  # some set choice leaves the card free
                keys.append(v << 12 | tie[sh + r])
    keys.sort()
    # 2. the options in that order, each arrangement built from the tables (canonical meld
    # order: sets by rank, then runs by suit and rank; no sort)
    lm2 = _LANE_MELDS
    text2 = _TEXT
    sc = _SET_CARDSETS
    out: list[DiscardOption] = []
    parts: list[tuple[tuple[int, int, int, int], tuple[tuple[CardSet, ...], ...],
                      tuple[tuple[CardSet, ...], ...], int] | None] = [None] * len(combos)
    for key in keys:
        card = key & 63
        k = best_k[card]
        part = parts[k]
        if part is None:  # this set choice's lanes, melds around each suit, and deadwood
            combo = combos[k]
            m = mask
            for s in combo:
                m &= ~s
            lanes = (m & LANE, m >> 13 & LANE, m >> 26 & LANE, m >> 39)
            sets = tuple([sc[s] for s in combo if s])
            u0 = lm2[0][lanes[0]]
            u1 = lm2[1][lanes[1]]
            u2 = lm2[2][lanes[2]]
            u3 = lm2[3][lanes[3]]
            part = parts[k] = (
                lanes,
                (sets, sets + u0, sets + u0 + u1, sets + u0 + u1 + u2),
                (u1 + u2 + u3, u2 + u3, u3, ()),
                m ^ (ru[lanes[0]] | ru[lanes[1]] << 13 | ru[lanes[2]] << 26
                     | ru[lanes[3]] << 39))
        ls, before4, after4, dead_k = part
        suit = card // 13
        sh = 13 * suit
        nl = ls[suit] ^ 1 << (card - sh)
        arr = _new(Arrangement)
        _arr_melds(arr, before4[suit] + lm2[suit][nl] + after4[suit])
        cs = _new(CardSet)
        _cs_mask(cs, dead_k & ~(LANE << sh) | (nl & ~ru[nl]) << sh)
        _arr_deadwood(arr, cs)
        _arr_points(arr, key >> 12)
        opt = _new(DiscardOption)
        _opt_discard(opt, text2[card])
        _opt_arrangement(opt, arr)
        out.append(opt)
    return out


def is_big_gin(hand: CardSet) -> bool:
    """True when all 11 cards are melded (R-5.3)."""
    return len(hand) == 11 and min_deadwood_mask(hand.mask) == 0


# ---------------------------------------------------------------------------------------------
# melds, spreads


def _is_set_mask(m: int) -> bool:
    low = (m & -m).bit_length() - 1
    r = low % 13
    return m & ~(_COL << r) == 0


def is_meld(cards: CardSet | int) -> bool:
    """True for a set (3-4 cards of a rank) or a run (3+ consecutive cards of a suit) (R-1.3).

    >>> is_meld(CardSet.parse("AS 2S 3S")), is_meld(CardSet.parse("QS KS AS"))
    (True, False)
    """
    m = cards.mask if isinstance(cards, CardSet) else cards
    n = m.bit_count()
    if n < 3:
        return False
    if _is_set_mask(m):
        return n <= 4
    low = (m & -m).bit_length() - 1
    suit = low // 13
    lane = m >> (13 * suit)
    if lane & ~LANE:
        return False
    lane >>= low % 13
    return lane & (lane + 1) == 0  # contiguous from bit 0


def melds_in(mask: int) -> list[int]:
    """Every meld (as a mask) contained in ``mask``: sets of 3 and 4, runs of every length."""
    out: list[int] = []
    for r in range(13):
        col = mask & (_COL << r)
        n = col.bit_count()
        if n >= 3:
            out.append(col)
            if n == 4:
                out.extend(col & ~(1 << (13 * s + r)) for s in range(4))
    for s in range(4):
        lane = mask >> (13 * s) & LANE
        for lo in range(11):
            if not lane >> lo & 1:
                continue
            seg = 0
            for hi in range(lo, 13):
                if not lane >> hi & 1:
                    break
                seg |= 1 << hi
                if hi - lo >= 2:
                    out.append(seg << (13 * s))
    return out


def _packings(melds: list[int], start: int, used: int) -> Iterator[list[int]]:
    yield []
    for i in range(start, len(melds)):
        m = melds[i]
        if m & used:
            continue
        for rest in _packings(melds, i + 1, used | m):
            yield [m, *rest]


def all_arrangements(cards: CardSet | int, max_deadwood: int = 1000) -> list[Arrangement]:
    """Every choice of disjoint melds whose deadwood is at most ``max_deadwood`` points, sorted by
    deadwood points (R-4.2, R-4.5: the knocker may show any of them)."""
    mask = cards.mask if isinstance(cards, CardSet) else cards
    ms = melds_in(mask)
    lp = _LANE_POINTS
    out = []
    for pack in _packings(ms, 0, 0):
        used = 0
        for m in pack:
            used |= m
        dead = mask & ~used
        pts = lp[dead & LANE] + lp[dead >> 13 & LANE] + lp[dead >> 26 & LANE] + lp[dead >> 39]
        if pts <= max_deadwood:
            out.append(_mk_arrangement(mask, pack, pts))
    out.sort(key=lambda a: (a.deadwood_points, len(a.melds)))
    return out


def layoff_chances(melds: Iterable[CardSet], excluded: CardSet) -> int:
    """How many cards outside ``excluded`` could be laid off directly onto ``melds``: the missing
    4th card of each 3-card set, the card below and the card above each run (R-6.2)."""
    ex = excluded.mask
    seen = 0
    for m in melds:
        mm = m.mask
        if _is_set_mask(mm):
            if mm.bit_count() == 3:
                low = (mm & -mm).bit_length() - 1
                seen |= (_COL << (low % 13)) & ~mm
        else:
            low = (mm & -mm).bit_length() - 1
            high = mm.bit_length() - 1
            if low % 13 > 0:
                seen |= 1 << (low - 1)
            if high % 13 < 12:
                seen |= 1 << (high + 1)
    return (seen & ~ex).bit_count()


def default_spread(hand: CardSet, seen: CardSet | None = None) -> Arrangement:
    """The knocker's default spread of 10 cards (R-4.5): minimum deadwood, ties broken toward
    fewer layoff chances (cards outside ``seen``, default the hand itself), then fewer melds."""
    excluded = seen if seen is not None else hand
    target = min_deadwood_mask(hand.mask)
    cands = [a for a in all_arrangements(hand, target) if a.deadwood_points == target]
    return min(cands, key=lambda a: (layoff_chances(a.melds, excluded), len(a.melds),
                                     [m.mask for m in a.melds]))


def validate_spread(hand: CardSet, melds: Iterable[CardSet]) -> Arrangement:
    """Check a shown spread: each meld valid, disjoint, inside ``hand`` (R-1.3, R-1.4, R-4.2).

    :raises InvalidNotationError: naming the meld at fault. The knock limit is checked by the
        caller.
    """
    used = 0
    ms = list(melds)
    for m in ms:
        if not is_meld(m):
            raise InvalidNotationError(f"not a meld: {m.format()}", "not_a_meld",
                                       cards=[card_text(c) for c in m])
        if m.mask & ~hand.mask:
            raise InvalidNotationError(f"meld {m.format()} uses cards not in the hand",
                                       "meld_not_held", cards=[card_text(c) for c in m])
        if m.mask & used:
            raise InvalidNotationError(f"meld {m.format()} shares a card with another meld",
                                       "meld_shared", cards=[card_text(c) for c in m])
        used |= m.mask
    return _mk_arrangement(hand.mask, (m.mask for m in ms))


# ---------------------------------------------------------------------------------------------
# layoffs (R-6.x)


@dataclass(frozen=True, slots=True)
class Layoff:
    """One card laid off by the defender onto the knocker's meld number ``onto``."""

    card: str
    onto: int


@dataclass(frozen=True, slots=True)
class LayoffResult:
    """The defender's best combined arrangement (R-6.4): own melds, layoffs in the order they
    are played (chains in order), and the final deadwood."""

    melds: tuple[CardSet, ...]
    layoffs: tuple[Layoff, ...]
    deadwood: CardSet
    deadwood_points: int


_lo_card = vars(Layoff)["card"].__set__
_lo_onto = vars(Layoff)["onto"].__set__
_lr_melds = vars(LayoffResult)["melds"].__set__
_lr_layoffs = vars(LayoffResult)["layoffs"].__set__
_lr_deadwood = vars(LayoffResult)["deadwood"].__set__
_lr_points = vars(LayoffResult)["deadwood_points"].__set__


def _layoff_options(defender: int, meld: int) -> list[list[int]]:
    """Per knocker meld: the ordered card lists the defender could lay off onto it."""
    if _is_set_mask(meld):
        if meld.bit_count() != 3:
            return [[]]
        low = (meld & -meld).bit_length() - 1
        missing = (_COL << (low % 13)) & ~meld
        c = missing.bit_length() - 1
        return [[], [c]] if defender >> c & 1 else [[]]
    low = (meld & -meld).bit_length() - 1
    high = meld.bit_length() - 1
    base = low - low % 13
    downs: list[list[int]] = [[]]
    c = low - 1
    while c >= base and defender >> c & 1:
        downs.append(downs[-1] + [c])
        c -= 1
    ups: list[list[int]] = [[]]
    c = high + 1
    while c < base + 13 and defender >> c & 1:
        ups.append(ups[-1] + [c])
        c += 1
    return [u + d for d in downs for u in ups]


def best_layoff(defender: CardSet, knocker_melds: Iterable[CardSet]) -> LayoffResult:
    """The defender's lowest-deadwood combination of own melds and layoffs onto the knocker's
    melds, chains included (R-6.1..R-6.5). Ties prefer fewer layoffs.

    >>> r = best_layoff(CardSet.parse("6S 7S QC QH QS 4C 5C 6C AC 2D"),
    ...                 [CardSet.parse("3S 4S 5S"), CardSet.parse("9H 9D 9C"),
    ...                  CardSet.parse("JD QD KD")])
    >>> [l.card for l in r.layoffs], r.deadwood_points
    (['6S', '7S'], 3)
    """
    dmask = defender.mask
    kms = [m.mask for m in knocker_melds]
    # the cards that could be laid off first: each 3-card set's missing card, the cards next to
    # each run; chains only grow from these
    hits: list[tuple[int, int]] = []  # (meld number, meld) of the melds the defender reaches
    for i, mm in enumerate(kms):
        low = (mm & -mm).bit_length() - 1
        r = low % 13
        if not mm & ~(_COL << r):
            reach = (_COL << r) & ~mm if mm.bit_count() == 3 else 0
        else:
            reach = 1 << (low - 1) if r else 0
            if (mm.bit_length() - 1) % 13 < 12:
                reach |= 1 << mm.bit_length()
        if reach & dmask:
            hits.append((i, mm))
    if not hits:  # nothing to lay off: the defender's own best arrangement
        arr = best_arrangement(defender if type(defender) is CardSet else dmask)
        res = _new(LayoffResult)
        _lr_melds(res, arr.melds)
        _lr_layoffs(res, ())
        _lr_deadwood(res, arr.deadwood)
        _lr_points(res, arr.deadwood_points)
        return res
    # every choice of cards per reached meld (the others take none), in meld order; the first
    # of least (deadwood, cards laid off) wins
    per = [_layoff_options(dmask, mm) for _, mm in hits]
    mdm = min_deadwood_mask
    best_v = mdm(dmask)
    best_n = 0
    best_combo: tuple[list[int], ...] | None = None
    for combo in product(*per):
        laid = 0
        n = 0
        for cards in combo:
            for c in cards:
                laid |= 1 << c
            n += len(cards)
        if not n or laid.bit_count() != n:  # nothing laid off (done above), or a card twice
            continue
        v = mdm(dmask & ~laid)
        if v < best_v or (v == best_v and n < best_n):
            best_v = v
            best_n = n
            best_combo = combo
    chosen = ([] if best_combo is None else
              [(c, hits[j][0]) for j, cards in enumerate(best_combo) for c in cards])
    laid_mask = 0
    layoffs = []
    text = _TEXT
    for c, i in chosen:
        laid_mask |= 1 << c
        lo = _new(Layoff)
        _lo_card(lo, text[c])
        _lo_onto(lo, i)
        layoffs.append(lo)
    arr = best_arrangement(dmask & ~laid_mask)
    res = _new(LayoffResult)
    _lr_melds(res, arr.melds)
    _lr_layoffs(res, tuple(layoffs))
    _lr_deadwood(res, arr.deadwood)
    _lr_points(res, arr.deadwood_points)
    return res


def parse_meld(text: str) -> CardSet:
    """Parse a meld written with or without spaces: ``"4S5S6S"`` or ``"4S 5S 6S"``.

    :raises InvalidNotationError: malformed cards or not a meld.
    """
    t = text.replace(" ", "").replace(",", "")
    parts: list[str] = []
    i = 0
    while i < len(t):
        j = i + 3 if t[i:i + 2] == "10" else i + 2
        parts.append(t[i:j])
        i = j
    for p in parts:
        parse_card(p)
    cs = CardSet.parse(parts)
    if not is_meld(cs):
        raise InvalidNotationError(f"not a meld: {text}", "not_a_meld",
                                   cards=[card_text(c) for c in cs])
    return cs
