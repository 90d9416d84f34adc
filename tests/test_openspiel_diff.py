"""Differential test: our 10-card minimum deadwood (R-1.5) against OpenSpiel's C++
``GinRummyUtils.min_deadwood`` (open-spiel is a test-only dependency).

OpenSpiel is a valid oracle for 10-card deadwood only (RULES.md section 12): its 11-card
deadwood takes the shortcut that R-1.6 forbids, so for 11 cards we only check that the exact
value is never worse than OpenSpiel's and that the known counterexample (T-4) differs.

The default run compares 24,000 hands (more than the 20,000 the issue asks for, in about a
second): 8,000 random, 10,000 meld-dense (10 cards from a 20-card window of 5 consecutive ranks
x 4 suits) and 6,000 from run-heavy windows (7 ranks x 3 suits, 10 ranks x 2 suits).
``pytest -m slow`` runs ten times as many.
"""

from __future__ import annotations

import random

import pytest

from ginrummy.cards import CardSet, card_text
from ginrummy.melds import best_discard_deadwood, min_deadwood_mask

pyspiel = pytest.importorskip("pyspiel")


@pytest.fixture(scope="module")
def utils():  # type: ignore[no-untyped-def]
    return pyspiel.gin_rummy.GinRummyUtils(13, 4, 10)  # ranks, suits, hand size


@pytest.fixture(scope="module")
def to_theirs(utils) -> list[int]:  # type: ignore[no-untyped-def]
    """Our card int -> OpenSpiel's (it orders suits s c d h and writes them in lower case)."""
    return [utils.card_int(card_text(c)[0] + card_text(c)[1].lower()) for c in range(52)]


def _window(ranks: range, suits: tuple[int, ...]) -> list[int]:
    return [s * 13 + r for s in suits for r in ranks]


def hands(seed: int, n_random: int, n_dense: int, n_runs: int, size: int = 10
          ) -> list[list[int]]:
    rng = random.Random(seed)
    out = [rng.sample(range(52), size) for _ in range(n_random)]
    for _ in range(n_dense):
        lo = rng.randrange(9)
        out.append(rng.sample(_window(range(lo, lo + 5), (0, 1, 2, 3)), size))
    for i in range(n_runs):
        if i % 2:
            lo = rng.randrange(7)
            suits = tuple(sorted(rng.sample(range(4), 3)))
            out.append(rng.sample(_window(range(lo, lo + 7), suits), size))
        else:
            lo = rng.randrange(4)
            suits = tuple(sorted(rng.sample(range(4), 2)))
            out.append(rng.sample(_window(range(lo, lo + 10), suits), size))
    return out


def _compare(utils, to_theirs, hs: list[list[int]]) -> None:  # type: ignore[no-untyped-def]
    bad = []
    for h in hs:
        m = 0
        for c in h:
            m |= 1 << c
        ours = min_deadwood_mask(m)
        theirs = utils.min_deadwood([to_theirs[c] for c in h])
        if ours != theirs:
            bad.append((CardSet(m).format(), ours, theirs))
    assert not bad, f"{len(bad)} of {len(hs)} hands differ, e.g. {bad[:5]}"


def test_card_mapping(utils, to_theirs) -> None:  # type: ignore[no-untyped-def]
    assert sorted(to_theirs) == list(range(52))
    for c in range(52):
        assert utils.card_rank(to_theirs[c]) == c % 13
        assert utils.card_value(to_theirs[c]) == min(c % 13 + 1, 10)


def test_min_deadwood_10_vs_openspiel(utils, to_theirs) -> None:  # type: ignore[no-untyped-def]
    """R-1.5 on 24,000 hands: 8,000 random, 10,000 dense, 6,000 run-heavy."""
    hs = hands(20240601, 8_000, 10_000, 6_000)
    assert len(hs) >= 20_000
    assert sum(1 for h in hs if len(set(h)) == 10) == len(hs)
    _compare(utils, to_theirs, hs)


@pytest.mark.slow
def test_min_deadwood_10_vs_openspiel_long(utils, to_theirs) -> None:  # type: ignore[no-untyped-def]
    """Ten times the default run, other seeds."""
    for seed in range(10):
        _compare(utils, to_theirs, hands(seed, 8_000, 10_000, 6_000))


def test_eleven_cards_exact_never_worse(utils, to_theirs) -> None:  # type: ignore[no-untyped-def]
    """R-1.6: OpenSpiel's 11-card value is "meld the most points of all 11, drop the highest
    leftover" (section 12), which is always SOME legal discard's deadwood, so the exact minimum
    over the discards is never above it; on dense hands it is sometimes below."""
    hs = hands(77, 2_000, 3_000, 1_000, size=11)
    below = 0
    for h in hs:
        m = 0
        for c in h:
            m |= 1 << c
        ours = best_discard_deadwood(m)
        theirs = utils.min_deadwood([to_theirs[c] for c in h])
        assert ours <= theirs, (CardSet(m).format(), ours, theirs)
        below += ours < theirs
    assert below > 0


def test_T4_openspiel_departure(utils, to_theirs) -> None:  # type: ignore[no-untyped-def]
    """T-4: discard 5S and it is gin; the shortcut melds 3s 4s 5s and is left with 2D 2H."""
    hand = CardSet.parse("3C 4C 5C 2D 3D 4D 5D 2H 3H 4H 5S")
    assert best_discard_deadwood(hand.mask) == 0
    assert utils.min_deadwood([to_theirs[c] for c in hand]) == 2
