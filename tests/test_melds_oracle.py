"""The fast meld solver (ginrummy.melds) against the brute-force oracle (tests/oracle.py).

Hypothesis draws 10- and 11-card hands of three kinds: random (from the 52), meld-dense (from a
window of about 20 cards, e.g. 5 consecutive ranks x 4 suits) and meld-built (a few melds plus
filler, so gin and big gin are common), and knocker/defender pairs from one window for layoffs.
Rules: R-1.3..R-1.6, R-3.6, R-4.5, R-5.3, R-6.1..R-6.5.
"""

from __future__ import annotations

import os

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import oracle
from ginrummy.cards import POINTS, CardSet, card_text
from ginrummy.melds import (
    Arrangement,
    LayoffResult,
    all_arrangements,
    best_arrangement,
    best_discard_deadwood,
    best_layoff,
    default_spread,
    evaluate_discards,
    is_big_gin,
    is_meld,
    layoff_chances,
    melds_in,
    min_deadwood,
    min_deadwood_mask,
)

#: examples per property in the default run; GINRUMMY_ORACLE_EXAMPLES raises it for a long run.
N = int(os.environ.get("GINRUMMY_ORACLE_EXAMPLES", "150"))
SETTINGS = settings(max_examples=N, deadline=None,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])


# ----------------------------------------------------------------------------- strategies

def _windows() -> list[list[int]]:
    """Card windows of about 20 cards where melds are dense."""
    out = []
    for lo in range(9):  # 5 consecutive ranks x 4 suits
        out.append([s * 13 + r for s in range(4) for r in range(lo, lo + 5)])
    for lo in range(7):  # 7 consecutive ranks x 3 suits (run-heavy)
        for skip in range(4):
            out.append([s * 13 + r for s in range(4) if s != skip for r in range(lo, lo + 7)])
    for lo in range(4):  # 10 consecutive ranks x 2 suits (runs only)
        out.append([s * 13 + r for s in (0, 3) for r in range(lo, lo + 10)])
    return out


WINDOWS = _windows()


def _meld_pool() -> list[frozenset[int]]:
    pool = []
    for r in range(13):
        col = [s * 13 + r for s in range(4)]
        pool.append(frozenset(col))
        pool.extend(frozenset(col[:i] + col[i + 1:]) for i in range(4))
    for s in range(4):
        for lo in range(13):
            for n in (3, 4, 5):
                if lo + n <= 13:
                    pool.append(frozenset(s * 13 + r for r in range(lo, lo + n)))
    return pool


MELD_POOL = _meld_pool()


def random_hand(n: int) -> st.SearchStrategy[frozenset[int]]:
    return st.permutations(range(52)).map(lambda p: frozenset(p[:n]))


def dense_hand(n: int) -> st.SearchStrategy[frozenset[int]]:
    return st.sampled_from(WINDOWS).flatmap(
        lambda w: st.permutations(w).map(lambda p: frozenset(p[:n])))


@st.composite
def melded_hand(draw: st.DrawFn, n: int) -> frozenset[int]:
    """A few disjoint melds from the pool, topped up with random cards to n cards."""
    picks = draw(st.lists(st.sampled_from(MELD_POOL), min_size=1, max_size=5))
    hand: set[int] = set()
    for m in picks:
        if not m & hand and len(hand) + len(m) <= n:
            hand |= m
    rest = draw(st.permutations(sorted(set(range(52)) - hand)))
    hand.update(rest[: n - len(hand)])
    return frozenset(hand)


def hands(n: int) -> st.SearchStrategy[frozenset[int]]:
    return st.one_of(random_hand(n), dense_hand(n), melded_hand(n))


def mask_of(cards: frozenset[int] | set[int]) -> int:
    m = 0
    for c in cards:
        m |= 1 << c
    return m


def fmt(cards: frozenset[int]) -> str:
    return CardSet(mask_of(cards)).format()


def check_arrangement(hand: frozenset[int], arr: Arrangement | LayoffResult) -> None:
    """A valid arrangement of ``hand``: real melds, disjoint, inside the hand, the rest deadwood
    with the right value."""
    used: set[int] = set()
    for m in arr.melds:
        cards = set(m)
        assert oracle.is_meld(cards), f"not a meld: {m}"
        assert cards <= hand, f"meld {m} not in the hand"
        assert not cards & used, f"meld {m} overlaps"
        used |= cards
    dead = set(arr.deadwood)
    assert dead == hand - used
    assert arr.deadwood_points == oracle.points(dead)


# ------------------------------------------------------------------------------ 10 cards

@SETTINGS
@given(hands(10))
def test_min_deadwood_10(hand: frozenset[int]) -> None:
    """R-1.5: minimum deadwood of 10 cards equals the brute force."""
    assert min_deadwood_mask(mask_of(hand)) == oracle.min_deadwood(hand), fmt(hand)


@SETTINGS
@given(hands(10))
def test_best_arrangement_10(hand: frozenset[int]) -> None:
    """R-1.5: best_arrangement's melds are valid and disjoint, and its deadwood is minimum."""
    arr = best_arrangement(mask_of(hand))
    check_arrangement(hand, arr)
    assert arr.deadwood_points == oracle.min_deadwood(hand), fmt(hand)


@SETTINGS
@given(st.integers(0, 12).flatmap(
    lambda n: st.one_of(random_hand(n), dense_hand(min(n, 20)))))
def test_min_deadwood_any_size(hand: frozenset[int]) -> None:
    """The solver works for any number of cards (0..12), e.g. the defender's kept cards."""
    assert min_deadwood_mask(mask_of(hand)) == oracle.min_deadwood(hand)
    check_arrangement(hand, best_arrangement(mask_of(hand)))


@SETTINGS
@given(hands(10))
def test_melds_in_matches_brute_force(hand: frozenset[int]) -> None:
    """R-1.3: melds_in finds exactly the melds of the hand; is_meld agrees on each subset."""
    fast = {frozenset(CardSet(m)) for m in melds_in(mask_of(hand))}
    assert fast == set(oracle.all_melds(hand))
    for m in oracle.all_melds(hand):
        assert is_meld(CardSet(mask_of(m)))


@settings(max_examples=max(N, 300), deadline=None)
@given(st.lists(st.integers(0, 51), min_size=0, max_size=6, unique=True))
def test_is_meld_matches_brute_force(cards: list[int]) -> None:
    assert is_meld(CardSet(mask_of(set(cards)))) == oracle.is_meld(cards)


@SETTINGS
@given(hands(10), st.sampled_from([1000, 10, 5, 0]))
def test_all_arrangements(hand: frozenset[int], limit: int) -> None:
    """R-4.5: all_arrangements lists exactly every disjoint-meld choice within the limit,
    sorted by deadwood."""
    arrs = all_arrangements(CardSet(mask_of(hand)), limit)
    fast = [frozenset(frozenset(m) for m in a.melds) for a in arrs]
    assert len(fast) == len(set(fast)), "duplicate arrangements"
    want = {p for p in oracle.all_packings(hand) if oracle.deadwood_of(hand, p) <= limit}
    assert set(fast) == want
    for a in arrs:
        check_arrangement(hand, a)
    pts = [a.deadwood_points for a in arrs]
    assert pts == sorted(pts)


@SETTINGS
@given(hands(10), st.permutations(range(52)), st.integers(0, 12))
def test_default_spread(hand: frozenset[int], perm: list[int], n_seen: int) -> None:
    """R-4.5: the default spread has minimum deadwood, and among those the fewest layoff
    chances (cards outside the hand and the seen cards), then the fewest melds."""
    seen = hand | frozenset(c for c in perm[:n_seen])
    spread = default_spread(CardSet(mask_of(hand)), CardSet(mask_of(seen)))
    check_arrangement(hand, spread)
    target = oracle.min_deadwood(hand)
    assert spread.deadwood_points == target
    best = min((oracle.layoff_chances(p, seen), len(p)) for p in oracle.all_packings(hand)
               if oracle.deadwood_of(hand, p) == target)
    got = (oracle.layoff_chances([set(m) for m in spread.melds], seen), len(spread.melds))
    assert got == best
    assert layoff_chances(spread.melds, CardSet(mask_of(seen))) == got[0]


# ------------------------------------------------------------------------------ 11 cards

@st.composite
def hand11_and_forbidden(draw: st.DrawFn) -> tuple[frozenset[int], frozenset[int]]:
    """11 cards and the cards that may not be discarded (R-3.6): none, a random card, or (the
    hard case) one of the best discards."""
    hand = draw(hands(11))
    kind = draw(st.sampled_from(["none", "random", "best"]))
    if kind == "none":
        return hand, frozenset()
    if kind == "random":
        return hand, frozenset([draw(st.sampled_from(sorted(hand)))])
    table = oracle.discard_deadwoods(hand)
    low = min(table.values())
    return hand, frozenset([draw(st.sampled_from(sorted(c for c in hand if table[c] == low)))])


@SETTINGS
@given(hand11_and_forbidden())
def test_best_discard_deadwood_11(hf: tuple[frozenset[int], frozenset[int]]) -> None:
    """R-1.6, R-3.6: the best discard (never the forbidden card) equals the brute force."""
    hand, forbidden = hf
    want = oracle.best_discard_deadwood(hand, forbidden)
    assert best_discard_deadwood(mask_of(hand), mask_of(forbidden)) == want, \
        (fmt(hand), fmt(forbidden))
    if not forbidden:
        assert best_discard_deadwood(mask_of(hand)) == want


@SETTINGS
@given(hand11_and_forbidden())
def test_evaluate_discards_11(hf: tuple[frozenset[int], frozenset[int]]) -> None:
    """R-1.6, R-3.6: one option per legal discard, each with a valid minimum arrangement of
    the 10 kept cards, best first (deadwood, then higher discard value, then card order)."""
    hand, forbidden = hf
    opts = evaluate_discards(CardSet(mask_of(hand)),
                             CardSet(mask_of(forbidden)) if forbidden else None)
    want = oracle.discard_deadwoods(hand, forbidden)
    assert sorted(o.discard for o in opts) == sorted(card_text(c) for c in want)
    by_text = {card_text(c): c for c in hand}
    keys = []
    for o in opts:
        c = by_text[o.discard]
        check_arrangement(hand - {c}, o.arrangement)
        assert o.deadwood_points == want[c], (fmt(hand), o.discard)
        keys.append((o.deadwood_points, -POINTS[c], c))
    assert keys == sorted(keys)


@SETTINGS
@given(st.one_of(hands(11), melded_hand(11)))
def test_is_big_gin(hand: frozenset[int]) -> None:
    """R-5.3: big gin = all 11 cards melded; min_deadwood of 11 cards without a discard."""
    assert is_big_gin(CardSet(mask_of(hand))) == oracle.is_big_gin(hand)
    assert min_deadwood(CardSet(mask_of(hand))) == oracle.min_deadwood(hand)
    if oracle.is_big_gin(hand):
        # with big gin off the player can still discard and go gin.
        assert best_discard_deadwood(mask_of(hand)) == 0


def test_big_gin_found_by_the_strategy() -> None:
    """The meld-built strategy does reach big gin (so the property above is not vacuous)."""
    hand = frozenset(CardSet.parse("AS 2S 3S 4S 7H 7D 7C 9D TD JD QD"))
    assert oracle.is_big_gin(hand) and is_big_gin(CardSet(mask_of(hand)))


# ------------------------------------------------------------------------------- layoffs

@st.composite
def showdown(draw: st.DrawFn) -> tuple[frozenset[int], list[frozenset[int]]]:
    """A defender's 10 cards and a knocker spread (any disjoint melds of the knocker's 10
    cards, not only the best) with both hands from one window, so layoffs are frequent."""
    kind = draw(st.sampled_from(["window", "window", "melded", "random"]))
    if kind == "window":
        w = draw(st.sampled_from(WINDOWS))
        extra = draw(st.permutations(sorted(set(range(52)) - set(w))))
        cards = draw(st.permutations(list(w) + list(extra[:4])))
        knocker, defender = frozenset(cards[:10]), frozenset(cards[10:20])
    else:
        knocker = draw(melded_hand(10)) if kind == "melded" else draw(random_hand(10))
        rest = draw(st.permutations(sorted(set(range(52)) - knocker)))
        defender = frozenset(rest[:10])
    packings = sorted(oracle.all_packings(knocker), key=lambda p: sorted(sorted(m) for m in p))
    nonempty = [p for p in packings if p] or packings
    spread = draw(st.sampled_from(nonempty))
    return defender, sorted(spread, key=sorted)


def check_layoff_result(defender: frozenset[int], kms: list[frozenset[int]],
                        r: LayoffResult) -> int:
    """The result is playable: layoffs extend the knocker's melds one card at a time in the
    order given (chains included), own melds are valid, everything partitions the defender's
    cards. Returns the number of cards laid off."""
    extended = [set(m) for m in kms]
    laid: set[int] = set()
    for lay in r.layoffs:
        c = CardSet.parse(lay.card).cards()[0]
        assert c in defender and c not in laid
        assert 0 <= lay.onto < len(kms)
        assert oracle.is_meld(extended[lay.onto] | {c}), f"{lay.card} does not extend"
        extended[lay.onto].add(c)
        laid.add(c)
    check_arrangement(defender - laid, r)
    return len(laid)


@SETTINGS
@given(showdown())
def test_best_layoff(sd: tuple[frozenset[int], list[frozenset[int]]]) -> None:
    """R-6.1..R-6.5: the defender's final deadwood over all layoffs (chains) and own melds is
    the brute-force minimum; ties prefer fewer layoffs; the result replays legally."""
    defender, kms = sd
    r = best_layoff(CardSet(mask_of(defender)), [CardSet(mask_of(m)) for m in kms])
    n_laid = check_layoff_result(defender, kms, r)
    best = min((oracle.min_deadwood(kept), len(defender) - len(kept))
               for _, kept in oracle.layoff_assignments(defender, kms))
    assert (r.deadwood_points, n_laid) == best, (fmt(defender), [fmt(m) for m in kms])


@pytest.mark.slow
@settings(max_examples=20 * N, deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(showdown())
def test_best_layoff_long(sd: tuple[frozenset[int], list[frozenset[int]]]) -> None:
    """The layoff property with 20x the examples (``pytest -m slow``)."""
    test_best_layoff.hypothesis.inner_test(sd)  # type: ignore[attr-defined]


@pytest.mark.slow
@settings(max_examples=20 * N, deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(hand11_and_forbidden())
def test_evaluate_discards_11_long(hf: tuple[frozenset[int], frozenset[int]]) -> None:
    """The 11-card properties with 20x the examples (``pytest -m slow``)."""
    test_best_discard_deadwood_11.hypothesis.inner_test(hf)  # type: ignore[attr-defined]
    test_evaluate_discards_11.hypothesis.inner_test(hf)  # type: ignore[attr-defined]


# ------------------------------------------------------- fast paths vs their definitions

def _naive_best_discard(mask: int, forbidden: int) -> int:
    """R-1.6 by its definition: the minimum over legal discards of the 10-card minimum."""
    vals = [min_deadwood_mask(mask & ~(1 << c)) for c in CardSet(mask & ~forbidden)]
    return min(vals) if vals else 1000


def test_best_discard_and_evaluate_match_their_definition_on_many_hands() -> None:
    """The pruned one-pass 11-card solver (best_discard_deadwood) and the one-pass table of
    evaluate_discards agree with "solve each 10-card hand" on 6,000 seeded hands (random,
    dense, run-heavy; no forbidden card, a random one, two). min_deadwood_mask itself is
    checked against the oracle above and against OpenSpiel."""
    import random

    rng = random.Random(11)
    for i in range(6_000):
        pool = WINDOWS[rng.randrange(len(WINDOWS))] if i % 3 else list(range(52))
        hand = rng.sample(pool, 11)
        mask = mask_of(set(hand))
        forbidden = 0
        if i % 4 >= 1:
            forbidden |= 1 << rng.choice(hand)
        if i % 4 == 3:
            forbidden |= 1 << rng.choice(hand)
        want = _naive_best_discard(mask, forbidden)
        assert best_discard_deadwood(mask, forbidden) == want, (fmt(frozenset(hand)), forbidden)
        if i % 10 == 0:
            opts = evaluate_discards(CardSet(mask), CardSet(forbidden))
            assert opts[0].deadwood_points == want
            for o in opts:
                c = CardSet.parse(o.discard).cards()[0]
                assert o.deadwood_points == min_deadwood_mask(mask & ~(1 << c))
