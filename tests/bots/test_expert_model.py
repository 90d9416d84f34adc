"""The expert's opponent model helpers: consistent sampled hands and the camper posterior."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from ginrummy.bots.expert import KNOCKER_SILENT, camper_chance, consistent_hands
from ginrummy.bots.knowledge import in_meld_with
from ginrummy.cards import CardSet


@settings(max_examples=200, deadline=None)
@given(st.permutations(list(range(52))), st.integers(1, 4))
def test_consistent_hands_is_no_meld_with_any_card(deck: list[int], k: int) -> None:
    """A hand is consistent iff none of the passed/discarded cards melds with it (R-1.3)."""
    hand = sum(1 << c for c in deck[:10])
    cards = deck[10:10 + k]
    got = bool(consistent_hands(np.array([hand], dtype=np.int64), cards)[0])
    assert got == (not any(in_meld_with(hand, c) for c in cards))


def test_consistent_hands_examples() -> None:
    hand = CardSet.parse("5H 6H 9C 9D KS QD JC 2S 3D 8C").mask
    h = np.array([hand], dtype=np.int64)
    assert not consistent_hands(h, [CardSet.parse("7H").mask.bit_length() - 1])[0]  # 5H 6H 7H
    assert not consistent_hands(h, [CardSet.parse("9S").mask.bit_length() - 1])[0]  # 9 9 9
    assert consistent_hands(h, [CardSet.parse("AH").mask.bit_length() - 1])[0]
    # no wrap-around: KS AS 2S is no run
    assert consistent_hands(h, [CardSet.parse("AS").mask.bit_length() - 1])[0]


def test_camper_chance_grows_with_silence() -> None:
    vals = [camper_chance(0.5, n) for n in range(len(KNOCKER_SILENT) + 3)]
    assert vals[0] == 0.5
    assert all(b >= a for a, b in zip(vals, vals[1:], strict=False))
    # 10 silent draws: 0.5 / (0.5 + 0.5 * 0.532)
    assert abs(camper_chance(0.5, 10) - 0.5 / (0.5 + 0.5 * 0.532)) < 1e-12
