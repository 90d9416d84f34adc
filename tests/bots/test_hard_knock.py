"""``hard``'s learned knock rule (``HardBot.knock_weights``, off by default): knock when the
weights' dot product with :func:`~ginrummy.bots.heuristic.knock_features` is positive (R-4.2:
a knock needs 10 or fewer points of deadwood after the discard)."""

from __future__ import annotations

import random

import pytest

from ginrummy.actions import ActionKind
from ginrummy.bots import Context
from ginrummy.bots.heuristic import KNOCK_FEATURES, HardBot, knock_features
from ginrummy.cards import parse_card
from ginrummy.views import PlayerView, view_of
from hand_helpers import deal, play

NON_DEALER = 1


def knock_view() -> PlayerView:
    """The non-dealer holds 2S3S4S 7H7D7C 9S9H9D AC and has drawn KC: discarding KC leaves 1
    point (AC), so it may knock (R-4.2) or discard."""
    h = deal("2S 3S 4S 7H 7D 7C 9S 9H 9D AC", "AS 2D 4C 6S 8S TH JD QC KH 3H", "QD", "KC")
    play(h, ["pass", "pass", "draw stock"])
    return view_of(h, NON_DEALER)


def ctx(mine: int = 0, theirs: int = 0) -> Context:
    return Context(random.Random(1), (theirs, mine) if NON_DEALER == 1 else (mine, theirs), 100)


def test_features() -> None:
    x = knock_features(4, 20, 3, 50, 25, 100, 0.125)
    assert len(x) == len(KNOCK_FEATURES)
    assert x == pytest.approx((1.0, 0.4, 1.6, 0.64, 0.125, 1.0, 0.5, 0.25))
    assert knock_features(10, 2, 20, 0, 0, 100, 0.0)[5] == 0.0


def test_the_learned_rule_decides_the_knock() -> None:
    v = knock_view()
    old = HardBot()
    old.knock_weights = None  # the undercut-risk and late rules: knock with 1 point
    assert old.choose(v, ctx()).kind is ActionKind.KNOCK
    assert HardBot().choose(v, ctx()).kind is ActionKind.KNOCK  # the learned default agrees
    yes = HardBot()
    yes.knock_weights = (1.0,) + (0.0,) * (len(KNOCK_FEATURES) - 1)
    a = yes.choose(v, ctx())
    assert a.kind is ActionKind.KNOCK and a.card == parse_card("KC") and a.melds
    no = HardBot()
    no.knock_weights = (-1.0,) + (0.0,) * (len(KNOCK_FEATURES) - 1)
    assert no.choose(v, ctx()).kind is ActionKind.DISCARD
    # the score enters: knock only when our own score is high (my_score weight)
    w = [0.0] * len(KNOCK_FEATURES)
    w[0], w[KNOCK_FEATURES.index("my_score")] = -0.5, 1.0
    by_score = HardBot()
    by_score.knock_weights = tuple(w)
    assert by_score.choose(v, ctx(mine=20)).kind is ActionKind.DISCARD
    assert by_score.choose(v, ctx(mine=80)).kind is ActionKind.KNOCK


def test_the_default_learned_rule_knocks_early_and_waits_late() -> None:
    """The default weights (as the expert plays against ``simple``): a knock at the start of a
    deal, with 1 point as with 9; once the opponent has drawn ten times, wait (for gin, or for
    a knocker's knock to undercut), with 1 point as with 9."""
    w = HardBot.knock_weights
    assert w is not None and len(w) == len(KNOCK_FEATURES)

    def score(dw: int, draws: int) -> float:
        x = knock_features(dw, draws, 20, 0, 0, 100, 0.05)
        return sum(a * b for a, b in zip(w, x, strict=True))

    assert score(1, 0) > 0 and score(9, 0) > 0
    assert score(1, 10) < 0 and score(9, 10) < 0
