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
* :func:`evaluate_discards` (R-1.6) likewise prices all eleven discards in one pass over the set
  choices of the 11 cards, one ``map`` per choice over the per-suit table ``_DROP_KEYS`` (the
  deadwood change of discarding each card of a lane, with the card's sort tie), keeping only the
  choices that can give some card its least deadwood.

>>> best_arrangement("4H 5H 6H 7H 7S 7D 9C 9S 9D AC").deadwood_points
1
>>> [o.discard for o in evaluate_discards(CardSet.parse("3C 4C 5C 2D 3D 4D 5D 2H 3H 4H 5S"))][:1]
['5S']
"""

from __future__ import annotations

import operator
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import FrozenInstanceError, dataclass
from itertools import product
from typing import Final, overload

from .cards import FULL_DECK, LANE, POINTS, CardSet, card_text, parse_card
from .errors import InvalidNotationError

__all__ = [
    "Arrangement", "DiscardOption", "DiscardOptions", "Layoff", "LayoffResult",
    "best_arrangement", "min_deadwood",
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


def _build_lane_lists() -> tuple[list[tuple[int, ...]], list[int]]:
    """Per 13-bit lane: its ranks ascending, and the value of its cards in points (R-1.2)."""
    ranks: list[tuple[int, ...]] = [()] * 8192
    points = [0] * 8192
    for m in range(1, 8192):
        low = m & -m
        r = low.bit_length() - 1
        ranks[m] = (r,) + ranks[m ^ low]
        points[m] = POINTS[r] + points[m ^ low]
    return ranks, points


#: per 13-bit lane: its ranks, ascending; the value of its cards in points (R-1.2).
_LANE_RANKS, _LANE_POINTS = _build_lane_lists()
#: per card: its place among equal deadwood in :func:`evaluate_discards` (higher value first,
#: then card order), ``(10 - value) << 6 | card``.
_DISCARD_TIE: Final = tuple((10 - POINTS[c]) << 6 | c for c in range(52))


def _build_drop_keys() -> list[list[tuple[int, ...]]]:
    """Per suit, per 13-bit lane: for each card of the lane (ascending),
    ``(_RUN_DW[lane - card] - _RUN_DW[lane]) << 12`` plus the card's ``_DISCARD_TIE``: the sort
    key of discarding that card, less the hand's deadwood ``<< 12`` (a table, about 3 MB; its
    few distinct ints are shared)."""
    rd = _RUN_DW
    tie = _DISCARD_TIE
    seen: dict[int, int] = {}
    share = seen.setdefault
    suit0 = []
    for m, ranks in enumerate(_LANE_RANKS):
        base = rd[m]
        ks = [((rd[m ^ 1 << r] - base) << 12) + tie[r] for r in ranks]
        suit0.append(tuple(map(share, ks, ks)))
    out = [suit0]
    for sh in (13, 26, 39):  # the same key for the card of suit sh // 13: tie + sh
        to = {k: k + sh for k in seen}
        out.append([tuple(map(to.__getitem__, t)) for t in suit0])
    return out


#: ``_DROP_KEYS[suit][lane]``: see :func:`_build_drop_keys`. Adding a hand's deadwood ``<< 12``
#: to the keys of its four lanes gives the sort key ``deadwood << 12 | tie`` of every discard.
_DROP_KEYS: Final = _build_drop_keys()


def _build_column_keys() -> tuple[dict[int, tuple[int, ...]], dict[int, tuple[int, ...]]]:
    """Per cards of one rank (a mask of 0-4 cards): their ``_DISCARD_TIE``, and the same plus
    ``2 x value << 12`` (discarding one card of a set of three leaves two cards unmelded)."""
    keep: dict[int, tuple[int, ...]] = {}
    two: dict[int, tuple[int, ...]] = {}
    for r in range(13):
        for suits in range(1, 16):
            cards = [13 * s + r for s in range(4) if suits >> s & 1]
            col = sum(1 << c for c in cards)
            keep[col] = tuple(_DISCARD_TIE[c] for c in cards)
            two[col] = tuple((2 * POINTS[r] << 12) + _DISCARD_TIE[c] for c in cards)
    keep[0] = two[0] = ()
    return keep, two


#: see :func:`_build_column_keys`: the keys of discarding a card of a rank melded as a set, less
#: the deadwood of the hand with the set, when the other cards of four stay a set / when the
#: other two of three become deadwood.
_SET_KEYS, _SET_KEYS_TWO = _build_column_keys()
#: the card of a discard sort key (its low 6 bits).
_CARD_OF_KEY: Final = (63).__and__
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
assert _RUN_START == 0x3FF9FFCFFE7FF and LANE == 0x1FFF  # literals in best_arrangement


def _set_options(mask: int) -> list[list[int]]:
    """For each rank held 3+ times: every set meld that may be chosen there (0 = none).

    Unpruned, in the order that breaks ties between arrangements of equal deadwood:
    :func:`best_arrangement` gives the first choice of least deadwood in this order (the tests'
    plain definitions enumerate it as is).
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


class _LazyDeadwood:
    """The ``deadwood`` of :class:`Arrangement` and :class:`LayoffResult`: a CardSet that the
    solver's results hold as its mask until it is first read (then keep the CardSet)."""

    __slots__ = ("_dead",)
    #: the deadwood, or before its first read its mask
    _dead: CardSet | int

    @property
    def deadwood(self) -> CardSet:
        """The cards left over (neither melded nor laid off), a CardSet."""
        d = self._dead
        if isinstance(d, int):
            cs = _new(CardSet)
            _cs_mask(cs, d)
            _set_dead(self, cs)
            return cs
        return d


_set_dead = vars(_LazyDeadwood)["_dead"].__set__


def _check_deadwood(deadwood: object) -> None:
    if not isinstance(deadwood, CardSet):
        raise TypeError(f"deadwood is not a CardSet: {deadwood!r}")


class Arrangement(_LazyDeadwood):
    """Disjoint melds plus the leftover deadwood of one hand.

    ``melds`` is a tuple of CardSets (each a set or run), ``deadwood`` the unmelded cards (a
    CardSet) and ``deadwood_points`` their value in points (R-1.2). Immutable; compared, hashed
    and shown by ``(melds, deadwood, deadwood_points)`` like a frozen dataclass. The solver's
    arrangements make their ``deadwood`` CardSet when it is first read (then keep it).
    """

    __slots__ = ("melds", "deadwood_points")
    melds: tuple[CardSet, ...]
    deadwood_points: int

    def __init__(self, melds: Iterable[CardSet], deadwood: CardSet, deadwood_points: int
                 ) -> None:
        _check_deadwood(deadwood)
        _arr_melds(self, tuple(melds))
        _set_dead(self, deadwood)
        _arr_points(self, deadwood_points)

    def to_json(self) -> dict[str, object]:
        """``{"melds": [[card texts]...], "deadwood": [...], "deadwood_points": n}``."""
        return {
            "melds": [m.texts() for m in self.melds],
            "deadwood": self.deadwood.texts(),
            "deadwood_points": self.deadwood_points,
        }

    def __eq__(self, other: object) -> bool:
        if other.__class__ is not Arrangement:
            return NotImplemented
        assert isinstance(other, Arrangement)
        return (self.deadwood_points == other.deadwood_points and self.melds == other.melds
                and self.deadwood == other.deadwood)

    def __hash__(self) -> int:
        return hash((self.melds, self.deadwood, self.deadwood_points))

    def __repr__(self) -> str:
        return (f"Arrangement(melds={self.melds!r}, deadwood={self.deadwood!r}, "
                f"deadwood_points={self.deadwood_points!r})")

    def __setattr__(self, name: str, value: object) -> None:
        raise FrozenInstanceError(f"cannot assign to field {name!r}")

    def __delattr__(self, name: str) -> None:
        raise FrozenInstanceError(f"cannot delete field {name!r}")

    def __reduce__(self) -> tuple[type[Arrangement], tuple[tuple[CardSet, ...], CardSet, int]]:
        return (Arrangement, (self.melds, self.deadwood, self.deadwood_points))


_arr_melds = vars(Arrangement)["melds"].__set__
_arr_points = vars(Arrangement)["deadwood_points"].__set__


def _arrangement(melds: tuple[CardSet, ...], dead: int, points: int) -> Arrangement:
    """``Arrangement(melds, CardSet(dead), points)`` built directly (see ``_new``)."""
    a = _new(Arrangement)
    _arr_melds(a, melds)
    _set_dead(a, dead)
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
    # literals, read faster than module constants: 0x1FFF is LANE, 0x3FF9FFCFFE7FF _RUN_START
    rd = _RUN_DW
    a = mask & 0x1FFF
    b = mask >> 13 & 0x1FFF
    c = mask >> 26 & 0x1FFF
    d = mask >> 39
    three = (a & b & (c | d)) | (c & d & (a | b))
    if three and not three & (three - 1) and not a & b & c & d:
        # one rank held exactly 3 times: no set, or the set (the first of least deadwood)
        col = mask & (_COL * three)
        s3 = mask & mask >> 1 & mask >> 2 & 0x3FF9FFCFFE7FF
        m = mask ^ col
        if col & (s3 | s3 << 1 | s3 << 2) and (
                rd[a] + rd[b] + rd[c] + rd[d]
                <= rd[m & 0x1FFF] + rd[m >> 13 & 0x1FFF] + rd[m >> 26 & 0x1FFF] + rd[m >> 39]):
            sets: tuple[CardSet, ...] = ()
            m = mask
        else:
            sets = (_SET_CARDSETS[col],)
            a = m & 0x1FFF
            b = m >> 13 & 0x1FFF
            c = m >> 26 & 0x1FFF
            d = m >> 39
    elif three:
        s3 = mask & mask >> 1 & mask >> 2 & 0x3FF9FFCFFE7FF
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
                v = rd[m & 0x1FFF] + rd[m >> 13 & 0x1FFF] + rd[m >> 26 & 0x1FFF] + rd[m >> 39]
                if v < best:
                    best = v
                    best_combo = combo
            sets = tuple([sc[s] for s in best_combo if s])
            m = mask
            for s in best_combo:
                m &= ~s
        else:
            sets = tuple(fixed)
        a = m & 0x1FFF
        b = m >> 13 & 0x1FFF
        c = m >> 26 & 0x1FFF
        d = m >> 39
    elif not mask & mask >> 1 & mask >> 2 & 0x3FF9FFCFFE7FF:  # no meld at all
        arr = _new(Arrangement)
        _arr_melds(arr, ())
        _set_dead(arr, cards if type(cards) is CardSet else mask)  # the (immutable) hand
        _arr_points(arr, rd[a] + rd[b] + rd[c] + rd[d])
        return arr
    else:
        sets = ()
        m = mask
    ru = _RUN_USED
    ua = ru[a]
    ub = ru[b]
    uc = ru[c]
    ud = ru[d]
    arr = _new(Arrangement)
    if ua | ub | uc | ud:
        lm = _LANE_MELDS
        _arr_melds(arr, sets + lm[0][a] + lm[1][b] + lm[2][c] + lm[3][d])
        _set_dead(arr, m ^ (ua | ub << 13 | uc << 26 | ud << 39))  # made a CardSet when read
    else:
        _arr_melds(arr, sets)
        # no meld: the deadwood is the (immutable) hand
        _set_dead(arr, cards if m == mask and type(cards) is CardSet else m)
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


class DiscardOption:
    """One legal discard from 11 cards and the best arrangement of the 10 kept (R-1.6).

    ``discard`` is the card's text (``"7H"``), ``deadwood_points`` the deadwood of the 10 cards
    kept in points (R-1.2) and ``arrangement`` their best :class:`Arrangement`. Immutable;
    compared, hashed and shown by ``(discard, arrangement)`` like a frozen dataclass. The options
    of :func:`evaluate_discards` build their arrangement when it is first read (then keep it):
    reading the order and the deadwood of the eleven options builds no melds.

    :raises InvalidNotationError: ``discard`` is not a card.
    """

    __slots__ = ("_key", "_arr")
    #: ``deadwood_points << 12 | (10 - card value) << 6 | card``: the order of the options
    _key: int
    #: the arrangement, or before its first read the mask of the 11 cards
    _arr: Arrangement | int

    def __init__(self, discard: str, arrangement: Arrangement) -> None:
        if not isinstance(arrangement, Arrangement):
            raise TypeError(f"not an Arrangement: {arrangement!r}")
        _opt_key(self, arrangement.deadwood_points << 12 | _DISCARD_TIE[parse_card(discard)])
        _opt_arr(self, arrangement)

    @property
    def discard(self) -> str:
        """The discarded card's text, e.g. ``"7H"``."""
        return _TEXT[self._key & 63]

    @property
    def deadwood_points(self) -> int:
        """Deadwood of the 10 cards kept, in points."""
        return self._key >> 12

    @property
    def arrangement(self) -> Arrangement:
        """The best arrangement of the 10 cards kept (built on first read): the
        :func:`best_arrangement` of those cards."""
        a = self._arr
        if isinstance(a, int):
            arr = _arrange(a ^ 1 << (self._key & 63))
            _opt_arr(self, arr)
            return arr
        return a

    def __eq__(self, other: object) -> bool:
        if other.__class__ is not DiscardOption:
            return NotImplemented
        assert isinstance(other, DiscardOption)
        return (self._key & 63 == other._key & 63
                and self.arrangement == other.arrangement)

    def __hash__(self) -> int:
        return hash((self.discard, self.arrangement))

    def __repr__(self) -> str:
        return f"DiscardOption(discard={self.discard!r}, arrangement={self.arrangement!r})"

    def __setattr__(self, name: str, value: object) -> None:
        raise FrozenInstanceError(f"cannot assign to field {name!r}")

    def __delattr__(self, name: str) -> None:
        raise FrozenInstanceError(f"cannot delete field {name!r}")

    def __reduce__(self) -> tuple[type[DiscardOption], tuple[str, Arrangement]]:
        return (DiscardOption, (self.discard, self.arrangement))


_opt_key = vars(DiscardOption)["_key"].__set__
_opt_arr = vars(DiscardOption)["_arr"].__set__


class DiscardOptions(Sequence[DiscardOption]):
    """The options of :func:`evaluate_discards`, best first: an immutable sequence of
    :class:`DiscardOption` (indexing, slicing to a list, ``len``, iteration, ``in``, ``index``,
    ``count``, ``reversed``). Equal to another :class:`DiscardOptions` with equal options in
    the same order (compare ``list(options)`` with a list).

    Made without creating the options: each is created when first reached (then kept), and
    builds its arrangement when that is first read. Reading ``options[0]`` creates one option.
    """

    __slots__ = ("_src", "_keys", "_made")
    #: the 11 cards' mask (0 when made by the constructor: every option is made)
    _src: int
    _keys: tuple[int, ...]  # the options' DiscardOption._key, best first
    _made: list[DiscardOption | None] | None  # the options created so far

    def __init__(self, options: Iterable[DiscardOption] = ()) -> None:
        made = list(options)
        for o in made:
            if type(o) is not DiscardOption:
                raise TypeError(f"not a DiscardOption: {o!r}")
        _dos_src(self, 0)
        _dos_keys(self, tuple([o._key for o in made]))
        _dos_made(self, list(made))

    def __len__(self) -> int:
        return len(self._keys)

    def __bool__(self) -> bool:
        return bool(self._keys)

    def _option(self, i: int) -> DiscardOption:
        made = self._made
        if made is None:
            made = [None] * len(self._keys)
            _dos_made(self, made)
        o = made[i]
        if o is None:
            o = _new(DiscardOption)
            _opt_key(o, self._keys[i])
            _opt_arr(o, self._src)
            made[i] = o
        return o

    @overload
    def __getitem__(self, i: int) -> DiscardOption: ...

    @overload
    def __getitem__(self, i: slice) -> list[DiscardOption]: ...

    def __getitem__(self, i: int | slice) -> DiscardOption | list[DiscardOption]:
        """The option at ``i`` (negative counts from the end); a slice gives a list.

        :raises IndexError: ``i`` out of range.
        """
        n = len(self._keys)
        if type(i) is int and 0 <= i < n:
            return self._option(i)
        if isinstance(i, slice):
            return [self._option(j) for j in range(*i.indices(n))]
        j = operator.index(i)
        if j < 0:
            j += n
        if not 0 <= j < n:
            raise IndexError("DiscardOptions index out of range")
        return self._option(j)

    def __iter__(self) -> Iterator[DiscardOption]:
        keys = self._keys
        made = self._made
        if made is None:
            made = [None] * len(keys)
            _dos_made(self, made)
        src = self._src
        for j, key in enumerate(keys):
            o = made[j]
            if o is None:  # as in _option
                o = _new(DiscardOption)
                _opt_key(o, key)
                _opt_arr(o, src)
                made[j] = o
            yield o

    def __eq__(self, other: object) -> bool:
        if other.__class__ is not DiscardOptions:
            return NotImplemented
        assert isinstance(other, DiscardOptions)
        return list(self) == list(other)

    def __hash__(self) -> int:
        return hash(tuple(self))

    def __repr__(self) -> str:
        return f"DiscardOptions({list(self)!r})"

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError("DiscardOptions is immutable")

    def __reduce__(self) -> tuple[type[DiscardOptions], tuple[list[DiscardOption]]]:
        return (DiscardOptions, (list(self),))


_dos_src = vars(DiscardOptions)["_src"].__set__
_dos_keys = vars(DiscardOptions)["_keys"].__set__
_dos_made = vars(DiscardOptions)["_made"].__set__


def _discard_options(mask: int, keys: list[int]) -> DiscardOptions:
    """The options of the 11 cards ``mask`` with these sorted keys, none created yet."""
    out = _new(DiscardOptions)
    _dos_src(out, mask)
    _dos_keys(out, tuple(keys))
    _dos_made(out, None)
    return out


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
    """``{card: min_deadwood_mask(mask without card)}`` for every card of ``mask``, in card
    order (R-1.5): runs only (no rank held 3+ times), one table lookup per card; otherwise the
    one pass of :func:`evaluate_discards` over the set choices."""
    rd = _RUN_DW
    a = mask & LANE
    b = mask >> 13 & LANE
    c = mask >> 26 & LANE
    d = mask >> 39
    three = (a & b & (c | d)) | (c & d & (a | b))
    if three:
        keys = _discard_keys_with_sets(mask, three)
        keys.sort(key=_CARD_OF_KEY)
        return {k & 63: k >> 12 for k in keys}
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


def evaluate_discards(hand: CardSet, forbidden: CardSet | None = None) -> DiscardOptions:
    """Every legal discard of an 11-card hand with its best 10-card arrangement, best first
    (lowest deadwood, then highest discard value, then card order) (R-1.6, R-3.6).

    ``forbidden``: cards that may not be discarded (the card taken from the discard pile).
    One pass prices every discard at once: with no rank held 3+ times, the keys of all eleven
    are the hand's deadwood plus the per-lane table ``_DROP_KEYS`` (one ``map``); otherwise the
    set choices of all 11 cards are enumerated once (:func:`_discard_keys_with_sets`). Each
    option is made when first reached and builds its arrangement when first read
    (:class:`DiscardOption`).

    :returns: the :class:`DiscardOptions` (a sequence), one per card of ``hand`` outside
        ``forbidden``; empty if every card is forbidden. The options are created when reached.

    >>> [(o.discard, o.deadwood_points) for o in evaluate_discards(
    ...     CardSet.parse("AS 2S 3S 8C 8D 8H 5H 6H 7H JC QC"))][:2]
    [('JC', 10), ('QC', 10)]
    """
    mask = hand.mask
    a = mask & LANE
    b = mask >> 13 & LANE
    c = mask >> 26 & LANE
    d = mask >> 39
    three = (a & b & (c | d)) | (c & d & (a | b))
    if three:
        keys = _discard_keys_with_sets(mask, three)
    else:  # runs only: a discard changes its own lane
        rd = _RUN_DW
        k0, k1, k2, k3 = _DROP_KEYS
        keys = [*map(((rd[a] + rd[b] + rd[c] + rd[d]) << 12).__add__,
                     k0[a] + k1[b] + k2[c] + k3[d])]
    if forbidden is not None and forbidden.mask & mask:
        no = forbidden.mask
        keys = [k for k in keys if not no >> (k & 63) & 1]
    keys.sort()
    return _discard_options(mask, keys)


def _discard_keys_with_sets(mask: int, three: int) -> list[int]:
    """The sort key ``deadwood << 12 | _DISCARD_TIE[card]`` of discarding each card of
    ``mask``, whose ranks ``three`` (a 13-bit lane of ranks) are held 3+ times; unordered.

    Each set choice of the 11 cards (per such rank: no set, the set, or for four of a kind
    one of its 3-card sets) gives every card it leaves outside its sets a key: the choice's
    deadwood ``<< 12`` plus ``_DROP_KEYS`` of its four lanes (one ``map`` per choice); a card's
    key is its least. Choices that give no card a lesser key are not made (exact dominance,
    with ``cap`` the cards that lie in some 3-card run of ``mask``; a card outside ``cap`` only
    ever adds its value to deadwood):

    * a rank none of whose cards is in ``cap`` is always melded: any choice without its set
      gives every other card's key plus its cards' value. Discarding one of its cards leaves
      the other three a set (four of a kind), or the other two unmelded (three):
      ``_SET_KEYS`` / ``_SET_KEYS_TWO`` of its cards, added to every choice's deadwood.
    * four of a kind: the 3-card set without a card outside ``cap`` is the 4-card set plus
      that card's value for every other card; discarding that card is the 4-card set's
      deadwood (its ``_SET_KEYS``, with the 4-card set). With exactly one card in ``cap``,
      no set is its 3-card set without that card plus the others' value, except for
      discarding one of the others (``_SET_KEYS_TWO``, with that 3-card set).
    """
    rd = _RUN_DW
    k0, k1, k2, k3 = _DROP_KEYS
    s3 = mask & mask >> 1 & mask >> 2 & _RUN_START
    cap = s3 | s3 << 1 | s3 << 2
    four = mask & mask >> 13 & mask >> 26 & mask >> 39 & LANE
    m0 = mask
    fixed: tuple[int, ...] = ()  # keys (less the deadwood) added to every choice
    opts: list[list[tuple[int, tuple[int, ...]]]] = []  # per rank: (its set, keys it adds)
    while three:
        low = three & -three
        three ^= low
        col = mask & (_COL * low)
        capc = col & cap
        if not capc:
            m0 ^= col
            fixed += _SET_KEYS[col] if four & low else _SET_KEYS_TWO[col]
        elif four & low:
            iso = col & ~capc
            if capc & (capc - 1):
                o = [(0, ()), (col, _SET_KEYS[iso])]
                x = capc
                while x:
                    bit = x & -x
                    x ^= bit
                    o.append((col ^ bit, ()))
                opts.append(o)
            else:
                opts.append([(col, _SET_KEYS[iso]), (iso, _SET_KEYS_TWO[iso])])
        else:
            opts.append([(0, ()), (col, ())])
    if not opts:  # one choice: one key per card
        a = m0 & LANE
        b = m0 >> 13 & LANE
        c = m0 >> 26 & LANE
        d = m0 >> 39
        return [*map(((rd[a] + rd[b] + rd[c] + rd[d]) << 12).__add__,
                     k0[a] + k1[b] + k2[c] + k3[d] + fixed)]
    if len(opts) == 1:
        choices = [(m0 & ~s, fixed + e) for s, e in opts[0]]
    elif len(opts) == 2:
        choices = [(m0 & ~s & ~t, fixed + e + f) for s, e in opts[0] for t, f in opts[1]]
    else:
        choices = []
        for combo in product(*opts):
            m = m0
            ex = fixed
            for s, e in combo:
                m &= ~s
                ex += e
            choices.append((m, ex))
    keys: list[int] = []
    add = keys.extend
    for m, ex in choices:
        a = m & LANE
        b = m >> 13 & LANE
        c = m >> 26 & LANE
        d = m >> 39
        add(map(((rd[a] + rd[b] + rd[c] + rd[d]) << 12).__add__,
                k0[a] + k1[b] + k2[c] + k3[d] + ex))
    keys.sort(reverse=True)  # per card the last, least key stays
    return [*dict(zip(map(_CARD_OF_KEY, keys), keys, strict=True)).values()]


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


class LayoffResult(_LazyDeadwood):
    """The defender's best combined arrangement (R-6.4): own melds, layoffs in the order they
    are played (chains in order), and the final deadwood.

    ``melds`` (a tuple of CardSets), ``layoffs`` (a tuple of :class:`Layoff`), ``deadwood`` (a
    CardSet: the cards neither melded nor laid off) and ``deadwood_points`` (R-1.2). Immutable;
    compared, hashed and shown by those four like a frozen dataclass. The solver's results make
    their ``deadwood`` CardSet when it is first read (then keep it).
    """

    __slots__ = ("melds", "layoffs", "deadwood_points")
    melds: tuple[CardSet, ...]
    layoffs: tuple[Layoff, ...]
    deadwood_points: int

    def __init__(self, melds: Iterable[CardSet], layoffs: Iterable[Layoff], deadwood: CardSet,
                 deadwood_points: int) -> None:
        _check_deadwood(deadwood)
        _lr_melds(self, tuple(melds))
        _lr_layoffs(self, tuple(layoffs))
        _set_dead(self, deadwood)
        _lr_points(self, deadwood_points)

    def _fields(self) -> tuple[tuple[CardSet, ...], tuple[Layoff, ...], CardSet, int]:
        return (self.melds, self.layoffs, self.deadwood, self.deadwood_points)

    def __eq__(self, other: object) -> bool:
        if other.__class__ is not LayoffResult:
            return NotImplemented
        assert isinstance(other, LayoffResult)
        return self._fields() == other._fields()

    def __hash__(self) -> int:
        return hash(self._fields())

    def __repr__(self) -> str:
        return (f"LayoffResult(melds={self.melds!r}, layoffs={self.layoffs!r}, "
                f"deadwood={self.deadwood!r}, deadwood_points={self.deadwood_points!r})")

    def __setattr__(self, name: str, value: object) -> None:
        raise FrozenInstanceError(f"cannot assign to field {name!r}")

    def __delattr__(self, name: str) -> None:
        raise FrozenInstanceError(f"cannot delete field {name!r}")

    def __reduce__(self) -> tuple[type[LayoffResult], tuple[
            tuple[CardSet, ...], tuple[Layoff, ...], CardSet, int]]:
        return (LayoffResult, self._fields())


_lo_card = vars(Layoff)["card"].__set__
_lo_onto = vars(Layoff)["onto"].__set__
_lr_melds = vars(LayoffResult)["melds"].__set__
_lr_layoffs = vars(LayoffResult)["layoffs"].__set__
_lr_points = vars(LayoffResult)["deadwood_points"].__set__


def _reach(meld: int) -> int:
    """The cards that could be laid off directly onto ``meld`` (R-6.2): a 3-card set's
    missing card, the cards next to a run (none for a 4-card set)."""
    low = (meld & -meld).bit_length() - 1
    r = low % 13
    if not meld & ~(_COL << r):
        return (_COL << r) & ~meld if meld.bit_count() == 3 else 0
    reach = 1 << (low - 1) if r else 0
    if (meld.bit_length() - 1) % 13 < 12:
        reach |= 1 << meld.bit_length()
    return reach


#: :func:`_reach` of every meld (sets and runs) by its mask.
_REACH: Final = {m: _reach(m) for m in [*_SET_CARDSETS, *_RUN_CARDSETS]}


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
    # the cards that could be laid off first; chains only grow from these
    hits: list[tuple[int, int]] = []  # (meld number, meld) of the melds the defender reaches
    reach_of = _REACH
    for i, m in enumerate(knocker_melds):
        mm = m.mask
        reach = reach_of.get(mm)
        if reach is None:  # pragma: no cover - every meld is in the table
            reach = _reach(mm)
        if reach & dmask:
            hits.append((i, mm))
    if not hits:  # nothing to lay off: the defender's own best arrangement
        arr = best_arrangement(defender if type(defender) is CardSet else dmask)
        res = _new(LayoffResult)
        _lr_melds(res, arr.melds)
        _lr_layoffs(res, ())
        _set_dead(res, arr._dead)  # the deadwood or its mask, as the arrangement holds it
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
    _set_dead(res, arr._dead)
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
