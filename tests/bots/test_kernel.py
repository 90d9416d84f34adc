"""The rollout kernel plays by the engine's rules: fed the same deck, a kernel rollout and
HandState agree on every action (each is legal in the engine) and on the outcome."""

from __future__ import annotations

import random

import numpy as np
import pytest
from botkit import RULE_VARIANTS
from kernel_replay import kernel_deal, replay

from ginrummy.bots import kernel as K
from ginrummy.melds import min_deadwood_mask


def test_min_dw_matches_engine(kernel_ready: None) -> None:
    rng = random.Random(2)
    for _ in range(4000):
        n = rng.randint(3, 11)
        pool = range(52) if rng.random() < 0.5 else range(rng.choice([13, 26]))
        mask = sum(1 << c for c in rng.sample(list(pool), n))
        assert K.min_dw(np.int64(mask)) == min_deadwood_mask(mask)


@pytest.mark.parametrize("variant", sorted(RULE_VARIANTS))
def test_rollouts_agree_with_handstate(variant: str, kernel_ready: None) -> None:
    rules = RULE_VARIANTS[variant]
    rng = random.Random(f"kernel:{variant}")
    kinds: dict[str, int] = {}
    for t in range(150):
        deck = list(range(52))
        rng.shuffle(deck)
        dealer = rng.randrange(2)
        policy = K.make_policy((rng.randrange(2), rng.randrange(2), rng.choice([10, 6, 0])),
                               (rng.randrange(2), rng.randrange(2), rng.choice([10, 3])))
        (kind, winner, pts, knocker), trace, melds = kernel_deal(rules, dealer, deck, policy, t)
        if knocker == -2:  # cut off: both seats kept trading face-up cards
            continue
        h = replay(rules, dealer, deck, trace, melds)
        assert h.is_over
        o = h.outcome
        assert o is not None
        got = (o.kind, -1 if o.winner is None else o.winner, o.points,
               -1 if o.knocker is None else o.knocker)
        assert got == (kind, winner, pts, knocker), (variant, t)
        kinds[kind] = kinds.get(kind, 0) + 1
    assert sum(kinds.values()) > 120
    if variant != "straight":
        assert kinds.get("knock", 0) and kinds.get("undercut", 0) and kinds.get("gin", 0)
