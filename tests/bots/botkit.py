"""Shared helpers for the bot tests (imported as ``botkit``)."""

from __future__ import annotations

import random

from ginrummy.hand import HandState
from ginrummy.rules import Rules

RULE_VARIANTS = {
    "eaai": Rules.preset("eaai"),
    "standard": Rules.preset("standard"),
    "oklahoma": Rules.preset("oklahoma"),
    "straight": Rules.preset("straight"),
    "fiftieth_big_gin": Rules.preset("pagat", dead_hand_rule="fiftieth_card", big_gin_bonus=31,
                                     undercut_on_tie=False),
}


def new_deal(rules: Rules, rng: random.Random) -> HandState:
    deck = list(range(52))
    rng.shuffle(deck)
    return HandState(rules, rng.randrange(2), deck)


