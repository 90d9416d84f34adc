"""Every computer player only plays legal actions, under every rules variant."""

from __future__ import annotations

import random

import pytest
from botkit import RULE_VARIANTS, new_deal

from ginrummy.bots import ALL_PLAYERS, Context, make_bot
from ginrummy.views import view_of

DEALS = {"expert": 3}


@pytest.mark.parametrize("variant", sorted(RULE_VARIANTS))
@pytest.mark.parametrize("name", ALL_PLAYERS)
def test_only_legal_actions(name: str, variant: str, kernel_ready: None) -> None:
    rules = RULE_VARIANTS[variant]
    rng = random.Random(f"{name}:{variant}")
    bot = make_bot(name)
    others = [make_bot("random"), make_bot("simple"), make_bot(name)]
    for d in range(DEALS.get(name, 12)):
        h = new_deal(rules, rng)
        opp = others[d % len(others)]
        seat = d % 2
        steps = 0
        while not h.is_over and steps < 400:
            steps += 1
            player = bot if h.current == seat else opp
            view = view_of(h, h.current)
            ctx = Context(random.Random(steps), (rng.randrange(100), rng.randrange(100)),
                          rules.target)
            action = player.choose(view, ctx)
            assert h.is_legal(action), (name, variant, action.text, h)
            h.apply(action)


@pytest.mark.parametrize("name", ALL_PLAYERS)
def test_refuses_when_not_to_act(name: str) -> None:
    rng = random.Random(1)
    h = new_deal(RULE_VARIANTS["eaai"], rng)
    view = view_of(h, 1 - h.current)
    with pytest.raises(ValueError):
        make_bot(name).choose(view, Context())


def test_registry() -> None:
    from ginrummy.bots import DEFAULT_LEVEL, LEVELS

    assert LEVELS == ["easy", "medium", "hard", "expert"]
    assert DEFAULT_LEVEL in LEVELS
    for n in ALL_PLAYERS:
        assert make_bot(n).name == n
    with pytest.raises(ValueError):
        make_bot("grandmaster")
