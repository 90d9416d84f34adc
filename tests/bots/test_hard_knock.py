"""``hard``'s learned knock rule (``HardBot.knock_weights``, off by default): knock when the
weights' dot product with :func:`~ginrummy.bots.heuristic.knock_features` is positive (R-4.2:
a knock needs 10 or fewer points of deadwood after the discard)."""

from __future__ import annotations

import random

import pytest

from ginrummy.actions import Action, ActionKind
from ginrummy.bots import Context
from ginrummy.bots.heuristic import (
    KNOCK_FEATURES,
    HardBot,
    MediumBot,
    knock_expectation,
    knock_features,
    last_knock_chance,
    layoff_exposure,
)
from ginrummy.bots.knowledge import min_spreads, opponent_belief, read_view
from ginrummy.cards import parse_card
from ginrummy.hand import STOCK_FLOOR, HandState, Phase
from ginrummy.melds import min_deadwood_mask
from ginrummy.rules import Rules
from ginrummy.views import PlayerView, view_of
from hand_helpers import deal, make_deck, play

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


# --- the last chance to knock (R-8.1, R-8.2) -------------------------------------------------


def late_deal(non_dealer: str, dealer: str, last: str, rules: Rules | None = None) -> HandState:
    """Both seats pass the upcard (QD) and then discard every card they draw, so their hands
    never change, until the non-dealer has drawn ``last`` with 2 cards left in the stock: its
    last chance to knock (its discard ends the deal, R-8.1, or offers the card to the dealer
    only, R-8.2)."""
    deck = make_deck(non_dealer, dealer, "QD")
    i, j = deck.index(parse_card(last)), 21 + 28  # the 29th stock card is the non-dealer's
    deck[i], deck[j] = deck[j], deck[i]
    h = HandState(rules or Rules.preset("standard"), 0, deck)
    play(h, ["pass", "pass"])
    while h.stock_count > STOCK_FLOOR:
        h.apply("draw stock")
        if h.stock_count == STOCK_FLOOR:
            break
        h.apply(Action(ActionKind.DISCARD, h.drawn_card))
    assert h.current == NON_DEALER and h.phase is Phase.DISCARD
    return h


def test_hard_knocks_at_its_last_chance_instead_of_letting_the_deal_die() -> None:
    """Stock at 2, a knock with 1 point legal: the learned rule alone waits for gin (the bug:
    the deal then dies, 0 points); a knock is worth about +12 points on average, so hard
    knocks."""
    h = late_deal("2S 3S 4S 7H 7D 7C 9S 9H 9D AC", "AS 2D 4C 6S 8S TH JD QC KH 3H", "KC")
    v = view_of(h, NON_DEALER)
    assert last_knock_chance(v) and v.stock_count == STOCK_FLOOR
    bot = HardBot()
    draws = read_view(v).opp_draws
    assert draws == 14
    assert not bot.learned_knock(v, (0, 0), 100, draws, 1, 0.0)  # what hard did before
    a = bot.choose(v, ctx())
    assert a.kind is ActionKind.KNOCK and a.card == parse_card("KC")
    h.apply(a)
    assert h.outcome is not None and h.outcome.kind == "knock"


def test_hard_lets_the_deal_die_rather_than_knock_into_a_likely_undercut() -> None:
    """The same last chance with 10 points of deadwood (TC or KC kept): against an opponent who
    has drawn 14 times and may lay off on 2S3S4S, 777 and 999, the knock loses points on average
    (an undercut costs the difference plus 25, R-7.4), so hard discards and the deal dies."""
    h = late_deal("2S 3S 4S 7H 7D 7C 9S 9H 9D TC", "AS 2D 4C 6S 8S TH JD QC KH 3H", "KC")
    v = view_of(h, NON_DEALER)
    know = read_view(v)
    kept = v.hand.mask & ~(1 << parse_card("KC"))
    assert min_deadwood_mask(kept) == 10 and any(a.kind is ActionKind.KNOCK for a in v.legal)
    p = opponent_belief(know)
    exposure = min(layoff_exposure(s, p, know.opp_known) for s in min_spreads(kept, 10))
    assert HardBot.knock_worth(v, know.opp_draws, 10, exposure) < 0
    assert HardBot().choose(v, ctx()).kind is ActionKind.DISCARD


def test_knock_expectation() -> None:
    """Expected points of a knock (R-7.2, R-7.4): falls with the knock's deadwood and with the
    opponent's expected layoffs, rises with the opponent's deadwood (fewer draws); a tie scores
    nothing unless it is an undercut."""
    e = knock_expectation
    assert e(1, 15, 2.0, 25, True) > e(5, 15, 2.0, 25, True) > e(10, 15, 2.0, 25, True)
    assert e(5, 15, 0.0, 25, True) > e(5, 15, 4.0, 25, True)
    assert e(5, 2, 0.0, 25, True) > e(5, 15, 0.0, 25, True)
    assert e(10, 15, 5.0, 25, False) > e(10, 15, 5.0, 25, True)
    assert e(1, 15, 2.0, 25, True) > 0 > e(10, 15, 6.0, 25, True)


def fiftieth_view(dealer: str) -> PlayerView:
    """Fiftieth-card rule (R-8.2): the non-dealer (deadwood 1, not knocking) throws KC with 2
    cards left in the stock; the dealer may take it only to knock or go gin at once."""
    rules = Rules.from_dict({"preset": "standard", "dead_hand_rule": "fiftieth_card"})
    h = late_deal("2S 3S 4S 7H 7D 7C 9S 9H 9D AC", dealer, "KC", rules)
    h.apply(Action(ActionKind.DISCARD, parse_card("KC")))
    assert h.phase is Phase.FIFTIETH and h.current == 0
    return view_of(h, 0)


def test_hard_takes_the_fiftieth_card_only_for_a_knock_worth_more_than_a_dead_hand() -> None:
    """KC completes the dealer's kings: taking it and throwing QS leaves 2 points (2C), a knock
    worth it; with TC instead of 2C it leaves 10 points, a knock that loses on average against
    an opponent who has drawn 15 times, so hard passes (R-8.2: the deal dies)."""
    good = fiftieth_view("KH KS 4H 5H 6H 8C 8D 8H 2C QS")
    assert any(a.kind is ActionKind.DRAW_DISCARD for a in good.legal)
    assert HardBot().choose(good, ctx0()).kind is ActionKind.DRAW_DISCARD
    bad = fiftieth_view("KH KS 4H 5H 6H 8C 8D 8H TC QS")
    assert any(a.kind is ActionKind.DRAW_DISCARD for a in bad.legal)
    assert HardBot().choose(bad, ctx0()).kind is ActionKind.PASS


def ctx0() -> Context:
    return Context(random.Random(1), (0, 0), 100)


# --- taking the face-up card to knock (R-3.3, R-4.2) -------------------------------------------


def test_hard_takes_a_card_to_knock_only_when_it_would_knock() -> None:
    """AC on the pile would let the non-dealer (2S3S4S 777 999 KC) knock with 1 point at once.
    At the first turn hard's knock rule knocks then, so it takes AC; once the opponent has drawn
    ten times the rule waits for gin, and a card taken to knock that it will not make improves
    the deadwood only and gives up a stock card: it draws from the stock (medium, which knocks
    at once, takes it)."""
    hand, other = "2S 3S 4S 7H 7D 7C 9S 9H 9D KC", "AS 2D 4C 6S 8S TH JD QC KH 3H"
    early = view_of(deal(hand, other, "AC"), NON_DEALER)
    assert early.phase is Phase.OFFER
    assert HardBot().choose(early, ctx()).kind is ActionKind.TAKE
    deck = make_deck(hand, other, "QD")
    i, j = deck.index(parse_card("AC")), 21 + 19  # the dealer's tenth stock card
    deck[i], deck[j] = deck[j], deck[i]
    h = HandState(Rules.preset("standard"), 0, deck)
    play(h, ["pass", "pass"])
    for _ in range(20):
        h.apply("draw stock")
        h.apply(Action(ActionKind.DISCARD, h.drawn_card))
    v = view_of(h, NON_DEALER)
    assert v.phase is Phase.DRAW and v.discard_pile[-1] == parse_card("AC")
    assert read_view(v).opp_draws == 10 and not last_knock_chance(v)
    assert MediumBot().choose(v, ctx()).kind is ActionKind.DRAW_DISCARD
    assert HardBot().choose(v, ctx()).kind is ActionKind.DRAW_STOCK
