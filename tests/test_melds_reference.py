"""The fast solver paths (ginrummy.melds) return exactly what the plain definitions return: the same
melds (including which of several equal arrangements), in the canonical order, as ordinary
immutable result objects. The plain definitions below are the solver's previous, straightforward
code: the first set choice in ``_set_options`` order reaching the minimum, runs from
``_RUN_MELDS``, melds sorted by ``_meld_sort_key``. Rules: R-1.5, R-1.6, R-3.6, R-6.4.
"""

from __future__ import annotations

import copy
import dataclasses
import pickle
import random
from itertools import product

import pytest
from hypothesis import given
from hypothesis import strategies as st

import oracle
from ginrummy.cards import LANE, POINTS, CardSet, card_text
from ginrummy.errors import InvalidNotationError
from ginrummy.melds import (
    _RUN_DW,
    _RUN_MELDS,
    Arrangement,
    DiscardOption,
    DiscardOptions,
    Layoff,
    LayoffResult,
    _discard_deadwoods,
    _layoff_options,
    _meld_sort_key,
    _set_options,
    best_arrangement,
    best_layoff,
    evaluate_discards,
    min_deadwood_mask,
)
from test_melds_oracle import SETTINGS, hand11_and_forbidden, hands, mask_of, showdown


def _plain_arrangement(mask: int, melds: list[int], points: int | None = None) -> Arrangement:
    ms = tuple(sorted((CardSet(m) for m in melds), key=_meld_sort_key))
    used = 0
    for m in ms:
        used |= m.mask
    dead = CardSet(mask & ~used)
    return Arrangement(ms, dead, dead.points() if points is None else points)


def _runs(m: int) -> list[int]:
    return [r << (13 * s) for s in range(4) for r in _RUN_MELDS[m >> (13 * s) & LANE]]


def _lanes_dw(m: int) -> int:
    return sum(_RUN_DW[m >> (13 * s) & LANE] for s in range(4))


def plain_best_arrangement(mask: int) -> Arrangement:
    target = min_deadwood_mask(mask)
    for combo in product(*_set_options(mask)):
        m = mask
        for s in combo:
            m &= ~s
        if _lanes_dw(m) == target:
            return _plain_arrangement(mask, [s for s in combo if s] + _runs(m))
    raise AssertionError("the minimum is attained")


def plain_evaluate_discards(mask: int, forbidden: int) -> list[DiscardOption]:
    best: dict[int, tuple[int, tuple[int, ...]]] = {}
    for combo in product(*_set_options(mask)):
        m = mask
        for s in combo:
            m &= ~s
        for c in range(52):
            if m >> c & 1 and not forbidden >> c & 1:
                v = _lanes_dw(m & ~(1 << c))
                if c not in best or v < best[c][0]:
                    best[c] = (v, combo)
    out = []
    for c, (v, combo) in best.items():
        kept = mask & ~(1 << c)
        m = kept
        for s in combo:
            m &= ~s
        arr = _plain_arrangement(kept, [s for s in combo if s] + _runs(m), v)
        out.append(((v, -POINTS[c], c), DiscardOption(card_text(c), arr)))
    return [o for _, o in sorted(out, key=lambda t: t[0])]


def plain_best_layoff(defender: int, knocker_melds: list[int]) -> LayoffResult:
    best: tuple[int, int, list[tuple[int, int]]] | None = None
    for combo in product(*[_layoff_options(defender, m) for m in knocker_melds]):
        cards = [c for cs in combo for c in cs]
        if len(set(cards)) != len(cards):
            continue
        laid = sum(1 << c for c in cards)
        v = min_deadwood_mask(defender & ~laid)
        if best is None or (v, len(cards)) < best[:2]:
            best = (v, len(cards), [(c, i) for i, cs in enumerate(combo) for c in cs])
    assert best is not None
    arr = plain_best_arrangement(defender & ~sum(1 << c for c, _ in best[2]))
    return LayoffResult(arr.melds, tuple(Layoff(card_text(c), i) for c, i in best[2]),
                        arr.deadwood, arr.deadwood_points)


def _canonical(melds: tuple[CardSet, ...]) -> bool:
    return list(melds) == sorted(melds, key=_meld_sort_key)


@SETTINGS
@given(hands(10))
def test_best_arrangement_is_the_plain_one(hand: frozenset[int]) -> None:
    """R-1.5: the same melds as the plain definition (ties resolved alike), canonical order, for
    a CardSet, a mask and card texts alike."""
    mask = mask_of(hand)
    want = plain_best_arrangement(mask)
    for given_as in (CardSet(mask), mask, CardSet(mask).texts()):
        got = best_arrangement(given_as)
        assert got == want and hash(got) == hash(want), CardSet(mask).format()
        assert type(got) is Arrangement and type(got.deadwood) is CardSet
        assert _canonical(got.melds)


@SETTINGS
@given(hands(7))
def test_best_arrangement_small_hands(hand: frozenset[int]) -> None:
    assert best_arrangement(mask_of(hand)) == plain_best_arrangement(mask_of(hand))


@SETTINGS
@given(hand11_and_forbidden())
def test_evaluate_discards_is_the_plain_one(hf: tuple[frozenset[int], frozenset[int]]) -> None:
    """R-1.6, R-3.6: the same options, in the same order, with the same arrangements."""
    hand, forbidden = hf
    got = evaluate_discards(CardSet(mask_of(hand)),
                            CardSet(mask_of(forbidden)) if forbidden else None)
    want = plain_evaluate_discards(mask_of(hand), mask_of(forbidden))
    assert list(got) == want and len(got) == len(want)
    assert type(got) is DiscardOptions
    for o in got:
        assert type(o) is DiscardOption and type(o.arrangement) is Arrangement
        assert type(o.arrangement.deadwood) is CardSet and _canonical(o.arrangement.melds)


@SETTINGS
@given(showdown())
def test_best_layoff_is_the_plain_one(sd: tuple[frozenset[int], list[frozenset[int]]]) -> None:
    """R-6.4: the same layoffs (cards, melds laid onto, order) and the same own melds."""
    defender, kmelds = sd
    got = best_layoff(CardSet(mask_of(defender)), [CardSet(mask_of(m)) for m in kmelds])
    want = plain_best_layoff(mask_of(defender), [mask_of(m) for m in kmelds])
    assert got == want
    assert type(got) is LayoffResult and all(type(lo) is Layoff for lo in got.layoffs)
    assert type(got.deadwood) is CardSet and _canonical(got.melds)


@SETTINGS
@given(hands(11))
def test_discard_deadwoods_one_pass(hand: frozenset[int]) -> None:
    """R-1.5: the one-pass deadwood after each discard (used by HandState.legal_actions) is the
    minimum deadwood of the 10 cards kept, for every card, in card order."""
    mask = mask_of(hand)
    got = _discard_deadwoods(mask)
    assert list(got) == sorted(hand)
    assert got == {c: min_deadwood_mask(mask & ~(1 << c)) for c in sorted(hand)}


def test_results_stay_immutable() -> None:
    """Results built by the fast paths are frozen like ones built by their constructors."""
    a = best_arrangement("4H 5H 6H 7H 7S 7D 9C 9S 9D AC")
    o = evaluate_discards(CardSet.parse("3C 4C 5C 2D 3D 4D 5D 2H 3H 4H 5S"))[0]
    r = best_layoff(CardSet.parse("6S 7S QC QH QS 4C 5C 6C AC 2D"),
                    [CardSet.parse("3S 4S 5S"), CardSet.parse("9H 9D 9C")])
    for obj, field in ((a, "deadwood_points"), (o, "discard"), (r, "layoffs"),
                       (r.layoffs[0], "card")):
        with pytest.raises(dataclasses.FrozenInstanceError):
            setattr(obj, field, None)
    with pytest.raises(AttributeError):
        a.deadwood.mask = 0  # type: ignore[misc]
    assert a == Arrangement(a.melds, CardSet(a.deadwood.mask), a.deadwood_points)
    assert repr(a).startswith("Arrangement(melds=(CardSet(")


@SETTINGS
@given(hand11_and_forbidden(), st.randoms(use_true_random=False))
def test_evaluate_discards_lazy_in_any_order(hf: tuple[frozenset[int], frozenset[int]],
                                             rnd: random.Random) -> None:
    """R-1.6: the options are made when reached and their arrangements when read; reaching
    and reading them in any order (or only some) gives the plain options, and an option,
    once made, stays the same object."""
    hand, forbidden = hf
    got = evaluate_discards(CardSet(mask_of(hand)),
                            CardSet(mask_of(forbidden)) if forbidden else None)
    want = plain_evaluate_discards(mask_of(hand), mask_of(forbidden))
    assert len(got) == len(want) and bool(got) == bool(want)
    order = list(range(len(want)))
    rnd.shuffle(order)
    for i in order[: rnd.randint(0, len(order))]:
        o = got[i] if rnd.random() < 0.5 else got[i - len(want)]
        assert (o.discard, o.deadwood_points) == (want[i].discard, want[i].deadwood_points)
        if rnd.random() < 0.7:
            assert o.arrangement == want[i].arrangement
        assert o is got[i]
    assert list(got) == want and got[1:3] == want[1:3] and list(reversed(got)) == want[::-1]


def test_discard_options_sequence() -> None:
    """DiscardOptions is an immutable sequence: index, slice (a list), len, in, index, count,
    equality and hash by its options, repr, pickling; out-of-range indexes raise IndexError."""
    hand = CardSet.parse("3C 4C 5C 2D 3D 4D 5D 2H 3H 4H 5S")
    got = evaluate_discards(hand)
    assert len(got) == 11 and got[0].discard == "5S" and got[-1] is got[10]
    assert got[0] in got and got.index(got[3]) == 3 and got.count(got[2]) == 1
    assert isinstance(got[2:5], list) and got[2:5] == list(got)[2:5]
    for bad in (11, -12):
        with pytest.raises(IndexError):
            got[bad]
    with pytest.raises(TypeError):
        got["0"]  # type: ignore[call-overload]
    with pytest.raises(AttributeError):
        got._keys = ()  # type: ignore[misc]
    again = evaluate_discards(hand)
    assert again == got and hash(again) == hash(got) and got != list(got)
    assert DiscardOptions(list(got)) == got and DiscardOptions() != got
    assert not DiscardOptions() and not evaluate_discards(hand, hand)
    assert repr(got).startswith("DiscardOptions([DiscardOption(discard='5S', arrangement=")
    for obj in (got, got[4], got[4].arrangement):
        assert pickle.loads(pickle.dumps(obj)) == obj
    assert copy.deepcopy(got) == got


def test_discard_option_constructor() -> None:
    """DiscardOption(discard, arrangement) as a frozen value: the card text in canonical form,
    its deadwood from the arrangement; equal to the solver's option for the same discard."""
    hand = CardSet.parse("3C 4C 5C 2D 3D 4D 5D 2H 3H 4H 5S")
    best = evaluate_discards(hand)[0]
    made = DiscardOption("5s", best.arrangement)
    assert made == best and hash(made) == hash(best) and repr(made) == repr(best)
    assert made.discard == "5S" and made.deadwood_points == 0
    assert made != DiscardOption("3C", best.arrangement)
    with pytest.raises(InvalidNotationError):
        DiscardOption("1X", best.arrangement)
    with pytest.raises(TypeError):
        DiscardOption("5S", None)  # type: ignore[arg-type]
    with pytest.raises(dataclasses.FrozenInstanceError):
        del made.discard


def test_fast_paths_match_the_plain_ones_on_seeded_hands() -> None:
    """R-1.5, R-1.6: best_arrangement (its paths: no meld, runs only, one rank held three
    times, several ranks / four of a kind) and evaluate_discards (its arrangements read)
    equal the plain definitions on 3,000 seeded hands: random, meld-dense windows, and hands
    with exactly one rank held three times."""
    rng = random.Random(12)
    for i in range(3_000):
        kind = i % 3
        if kind == 0:
            cards = rng.sample(range(52), 10)
        elif kind == 1:
            lo = rng.randrange(9)
            cards = rng.sample([s * 13 + r for s in range(4) for r in range(lo, lo + 5)], 10)
        else:
            r = rng.randrange(13)
            trio = [s * 13 + r for s in rng.sample(range(4), 3)]
            rest = [c for c in range(52) if c % 13 != r]
            cards = trio + rng.sample(rest, 7)
        mask = mask_of(set(cards))
        assert best_arrangement(mask) == plain_best_arrangement(mask), CardSet(mask).format()
        if i % 5 == 0:
            extra = rng.choice([c for c in range(52) if c not in cards])
            m11 = mask | 1 << extra
            assert list(evaluate_discards(CardSet(m11))) == plain_evaluate_discards(m11, 0)


def test_arrangement_and_layoff_result_values() -> None:
    """Arrangement and LayoffResult behave as frozen values: the solver's (deadwood CardSet
    made when read) equal the constructed ones, hash alike, pickle, refuse a deadwood that is
    not a CardSet and refuse deletion."""
    a = best_arrangement("4H 5H 6H 7H 7S 7D 9C 9S 9D AC")
    made = Arrangement(list(a.melds), CardSet.parse("AC"), 1)
    assert made == a and hash(made) == hash(a) and repr(made) == repr(a)
    assert a.deadwood is a.deadwood and a.to_json()["deadwood"] == ["AC"]
    r = best_layoff(CardSet.parse("6S 7S QC QH QS 4C 5C 6C AC 2D"),
                    [CardSet.parse("3S 4S 5S"), CardSet.parse("9H 9D 9C")])
    again = LayoffResult(r.melds, list(r.layoffs), CardSet(r.deadwood.mask), r.deadwood_points)
    assert again == r and hash(again) == hash(r) and repr(again) == repr(r)
    for obj in (a, r):
        assert pickle.loads(pickle.dumps(obj)) == obj and copy.copy(obj) == obj
        with pytest.raises(dataclasses.FrozenInstanceError):
            del obj.melds  # type: ignore[misc]
    with pytest.raises(TypeError):
        Arrangement((), 5, 0)  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        LayoffResult((), (), 5, 0)  # type: ignore[arg-type]
    assert a != r and Arrangement((), CardSet(), 0) != LayoffResult((), (), CardSet(), 0)


# ------------------------------------------------- evaluate_discards: the set choices

def _set_rich_hand(ranks: list[int], sizes: list[int], suit_orders: list[list[int]],
                   filler: list[int]) -> frozenset[int]:
    """11 cards: ``sizes[i]`` cards of rank ``ranks[i]`` (suits in ``suit_orders[i]`` order),
    then the cards of ``filler`` in order until there are 11."""
    hand: set[int] = set()
    for r, n, suits in zip(ranks, sizes, suit_orders, strict=True):
        for s in suits[:n]:
            if len(hand) < 11:
                hand.add(13 * s + r)
    for c in filler:
        if len(hand) == 11:
            break
        hand.add(c)
    return frozenset(hand)


def _filler_pool(ranks: list[int], kind: str) -> list[int]:
    """Cards to top a hand up with: ``near`` the set ranks (runs through the sets), ``far``
    from them (sets no run can use), or any card."""
    near = [c for c in range(52) if min(abs(c % 13 - r) for r in ranks) <= 2]
    if kind == "near":
        return near
    if kind == "far":
        return [c for c in range(52) if c not in near]
    return list(range(52))


@st.composite
def set_rich_hand11(draw: st.DrawFn) -> frozenset[int]:
    """11 cards with one to three ranks held three or four times."""
    ranks = draw(st.lists(st.integers(0, 12), min_size=1, max_size=3, unique=True))
    sizes = draw(st.lists(st.sampled_from([3, 4]), min_size=len(ranks), max_size=len(ranks)))
    orders = [draw(st.permutations(range(4))) for _ in ranks]
    pool = _filler_pool(ranks, draw(st.sampled_from(["near", "far", "any"])))
    return _set_rich_hand(ranks, sizes, orders, draw(st.permutations(pool)))


def _in_a_run(mask: int, c: int) -> bool:
    """Whether card ``c`` lies in some run of three cards of ``mask``."""
    s, r = divmod(c, 13)
    return any(all(mask >> (13 * s + x) & 1 for x in range(lo, lo + 3))
               for lo in range(max(0, r - 2), min(r, 10) + 1))


def _set_cases(mask: int) -> set[str]:
    """The kinds of set ranks in ``mask`` that evaluate_discards treats apart: three or four of a
    kind, and how many of its cards lie in a run; 'choices on 3 ranks' when three ranks each
    have a set choice (some card in a run)."""
    cases = set()
    choices = 0
    for r in range(13):
        col = [13 * s + r for s in range(4) if mask >> (13 * s + r) & 1]
        if len(col) < 3:
            continue
        in_runs = sum(_in_a_run(mask, c) for c in col)
        if len(col) == 3:
            cases.add("three, none in a run" if not in_runs else "three, some in a run")
        elif in_runs in (0, 1):
            cases.add(f"four, {in_runs} in a run")
        else:  # all four in runs would take 12 cards
            cases.add("four, 2+ in runs")
        choices += in_runs > 0
    if choices >= 3:
        cases.add("choices on 3 ranks")
    return cases


SET_CASES = {"three, none in a run", "three, some in a run", "four, 0 in a run",
             "four, 1 in a run", "four, 2+ in runs", "choices on 3 ranks"}


@SETTINGS
@given(set_rich_hand11(), st.integers(0, 11))
def test_evaluate_discards_set_choices_against_the_oracle(hand: frozenset[int],
                                                          forbid: int) -> None:
    """R-1.6, R-3.6: hands with ranks held three or four times (every dominance rule of the set
    choices): each discard's deadwood is the brute-force minimum of the 10 cards kept
    (tests/oracle.py), and the options, their order and arrangements are the plain ones."""
    mask = mask_of(set(hand))
    forbidden = frozenset(sorted(hand)[forbid:forbid + 1])  # none when forbid == 11
    got = evaluate_discards(CardSet(mask), CardSet(mask_of(set(forbidden))))
    want = oracle.discard_deadwoods(hand, forbidden)
    assert {o.discard: o.deadwood_points for o in got} == \
        {card_text(c): v for c, v in want.items()}, CardSet(mask).format()
    assert list(got) == plain_evaluate_discards(mask, mask_of(set(forbidden)))


def test_evaluate_discards_set_choices_on_seeded_hands() -> None:
    """R-1.6: every kind of set rank (three or four of a kind, none / one / some of its cards
    in a run, choices on three ranks) appears at least 30 times among seeded set-rich
    hands, and on each of those hands evaluate_discards gives the plain options (deadwood by
    the plain definition: min_deadwood_mask of the 10 kept cards, checked against the oracle
    in test_melds_oracle.py)."""
    rng = random.Random(1206)
    seen = dict.fromkeys(SET_CASES, 0)
    for _ in range(20_000):
        if min(seen.values()) >= 30:
            break
        ranks = rng.sample(range(13), rng.choice([1, 2, 2, 3, 3]))
        sizes = [rng.choice([3, 4]) for _ in ranks]
        orders = [rng.sample(range(4), 4) for _ in ranks]
        pool = _filler_pool(ranks, rng.choice(["near", "far", "any"]))
        mask = mask_of(set(_set_rich_hand(ranks, sizes, orders, rng.sample(pool, len(pool)))))
        cases = _set_cases(mask) & SET_CASES
        if not cases or all(seen[c] >= 30 for c in cases):
            continue
        for c in cases:
            seen[c] += 1
        got = evaluate_discards(CardSet(mask))
        assert list(got) == plain_evaluate_discards(mask, 0), CardSet(mask).format()
        for o in got:
            kept = mask & ~CardSet.parse(o.discard).mask
            assert o.deadwood_points == min_deadwood_mask(kept) == o.arrangement.deadwood_points
    assert min(seen.values()) >= 30, f"kinds of set rank not reached: {seen}"
