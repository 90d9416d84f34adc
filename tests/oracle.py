"""A slow, obviously-correct brute-force meld solver: the oracle for the fast one in
:mod:`ginrummy.melds`.

It shares nothing with ``melds.py`` but the card encoding of :mod:`ginrummy.cards` (card ints
0..51, ``rank = c % 13`` with the ace 0, ``suit = c // 13``). Everything is done the long way:

* a meld is checked by sorting its ranks (R-1.3);
* the melds of a hand are found by trying EVERY subset of 3 or more of its cards;
* arrangements are EVERY collection of pairwise disjoint melds (R-1.4), the empty one included;
* 10-card deadwood is the minimum over all of them (R-1.5), 11-card deadwood the minimum over
  every legal discard (R-1.6);
* layoffs (R-6.x) try EVERY assignment of each defender card to "keep" or to one knocker meld,
  replay each knocker meld's layoffs one card at a time (a card goes on only when it extends the
  meld as it stands, so chains are built card by card, R-6.3), and price the kept cards with the
  brute-force minimum above (the defender's own melds, R-6.4). The only shortcut: a card is
  offered to a knocker meld only if it has that meld's rank (a set) or suit (a run), since no
  other card can ever extend it.

Cards are passed around as frozensets of ints.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from functools import lru_cache
from itertools import combinations, product

Cards = frozenset[int]


def rank(c: int) -> int:
    return c % 13


def suit(c: int) -> int:
    return c // 13


def value(c: int) -> int:
    """R-1.2: A = 1, 2..10 pip value, J Q K = 10."""
    return min(rank(c) + 1, 10)


def points(cards: Iterable[int]) -> int:
    return sum(value(c) for c in cards)


def is_set(cards: Iterable[int]) -> bool:
    cs = list(cards)
    return 3 <= len(cs) <= 4 and len({rank(c) for c in cs}) == 1


def is_run(cards: Iterable[int]) -> bool:
    cs = list(cards)
    if len(cs) < 3 or len({suit(c) for c in cs}) != 1:
        return False
    ranks = sorted(rank(c) for c in cs)
    return all(ranks[i + 1] == ranks[i] + 1 for i in range(len(ranks) - 1))


def is_meld(cards: Iterable[int]) -> bool:
    cs = list(cards)
    return is_set(cs) or is_run(cs)


def all_melds(hand: Iterable[int]) -> list[Cards]:
    """Every meld inside ``hand``: every subset of 3+ cards that is a meld."""
    cs = sorted(hand)
    out = []
    for k in range(3, len(cs) + 1):
        for sub in combinations(cs, k):
            if is_meld(sub):
                out.append(frozenset(sub))
    return out


def all_packings(hand: Iterable[int]) -> list[frozenset[Cards]]:
    """Every collection of pairwise disjoint melds inside ``hand`` (the empty one included)."""
    melds = all_melds(hand)
    out: list[frozenset[Cards]] = []

    def grow(start: int, used: frozenset[int], chosen: list[Cards]) -> None:
        out.append(frozenset(chosen))
        for i in range(start, len(melds)):
            if not melds[i] & used:
                chosen.append(melds[i])
                grow(i + 1, used | melds[i], chosen)
                chosen.pop()

    grow(0, frozenset(), [])
    return out


def deadwood_of(hand: Iterable[int], packing: Iterable[Cards]) -> int:
    used: set[int] = set()
    for m in packing:
        used |= m
    return points(c for c in hand if c not in used)


def min_deadwood(hand: Iterable[int]) -> int:
    """R-1.5: the minimum over every arrangement."""
    return _min_deadwood(frozenset(hand))


@lru_cache(maxsize=1 << 16)
def _min_deadwood(h: Cards) -> int:
    return min(deadwood_of(h, p) for p in all_packings(h))


def discard_deadwoods(hand: Iterable[int], forbidden: Iterable[int] = ()) -> dict[int, int]:
    """R-1.6: for each legal discard, the minimum deadwood of the cards kept."""
    h = frozenset(hand)
    f = set(forbidden)
    return {c: min_deadwood(h - {c}) for c in h if c not in f}


def best_discard_deadwood(hand: Iterable[int], forbidden: Iterable[int] = ()) -> int:
    """R-1.6: the minimum over the legal discards (1000 if there is none)."""
    d = discard_deadwoods(hand, forbidden)
    return min(d.values()) if d else 1000


def is_big_gin(hand: Iterable[int]) -> bool:
    """R-5.3: 11 cards, all melded."""
    h = frozenset(hand)
    return len(h) == 11 and min_deadwood(h) == 0


# --------------------------------------------------------------------------------- layoffs


def extend_meld(meld: Iterable[int], cards: Iterable[int]) -> list[int] | None:
    """Lay ``cards`` off onto ``meld`` one at a time, each onto the meld as extended so far
    (R-6.2, R-6.3). Returns one playing order, or None if some card never fits."""
    cur = set(meld)
    todo = set(cards)
    order: list[int] = []
    progress = True
    while todo and progress:
        progress = False
        for c in sorted(todo):
            if is_meld(cur | {c}):
                cur.add(c)
                todo.remove(c)
                order.append(c)
                progress = True
                break
    return order if not todo else None


def can_extend(card: int, meld: Cards) -> bool:
    """A card that could ever extend ``meld``: same rank for a set, same suit for a run."""
    any_card = next(iter(meld))
    if is_set(meld):
        return rank(card) == rank(any_card)
    return suit(card) == suit(any_card)


def layoff_assignments(defender: Iterable[int], knocker_melds: list[Cards]
                       ) -> Iterator[tuple[dict[int, list[int]], frozenset[int]]]:
    """Every legal layoff choice: ``({meld index: cards in playing order}, kept cards)``."""
    d = sorted(defender)
    choices = []
    for c in d:
        opts: list[int | None] = [None]  # None = keep the card
        opts.extend(i for i, m in enumerate(knocker_melds) if can_extend(c, m))
        choices.append(opts)
    for assign in product(*choices):
        per: dict[int, list[int]] = {}
        for c, i in zip(d, assign, strict=True):
            if i is not None:
                per.setdefault(i, []).append(c)
        plays: dict[int, list[int]] = {}
        ok = True
        for i, cards in per.items():
            order = extend_meld(knocker_melds[i], cards)
            if order is None:
                ok = False
                break
            plays[i] = order
        if ok:
            kept = frozenset(c for c, i in zip(d, assign, strict=True) if i is None)
            yield plays, kept


def best_layoff_deadwood(defender: Iterable[int], knocker_melds: Iterable[Iterable[int]]) -> int:
    """R-6.4: the defender's lowest final deadwood over all layoffs and own arrangements."""
    kms = [frozenset(m) for m in knocker_melds]
    return min(min_deadwood(kept) for _, kept in layoff_assignments(defender, kms))


def layoff_chances(melds: Iterable[Iterable[int]], excluded: Iterable[int]) -> int:
    """Cards outside ``excluded`` that would extend one of ``melds`` directly."""
    ex = set(excluded)
    ms = [frozenset(m) for m in melds]
    return sum(1 for c in range(52)
               if c not in ex and not any(c in m for m in ms)
               and any(is_meld(m | {c}) for m in ms))
