"""Explained hints (:mod:`ginrummy.bots.hints`): the suggested move is the ``expert`` level's and
legal, the numbers that explain it are exact (checked against :mod:`ginrummy.melds`), and a hint
depends on the person's view only (the hidden cards permuted, the hint is the same)."""

from __future__ import annotations

import random

import pytest
from botkit import RULE_VARIANTS, new_deal
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_hidden import _reshuffle_hidden

from ginrummy.actions import ActionKind
from ginrummy.bots import Context, make_bot
from ginrummy.bots.hints import HINT_SEED, Hint, hint, tie_agreeing
from ginrummy.cards import CardSet, parse_card
from ginrummy.hand import HandState, Phase
from ginrummy.melds import best_discard_deadwood, evaluate_discards, min_deadwood
from ginrummy.rules import Rules
from ginrummy.views import PlayerView, view_of
from hand_helpers import deal, play

NON_DEALER = 1  # hand_helpers.deal: seat 0 deals


def _mask(cards: str) -> int:
    return CardSet.parse(cards).mask


def _after_taking(view: PlayerView, card: int) -> int:
    return best_discard_deadwood(view.hand.mask | 1 << card, 1 << card)


def _check_numbers(view: PlayerView, h: Hint) -> None:
    """The hint's numbers, recomputed from the view with the meld functions."""
    hand = view.hand
    if len(hand) == 11:  # the least after a legal discard
        forbidden = 0 if view.taken_card is None else 1 << view.taken_card
        assert h.deadwood == best_discard_deadwood(hand.mask, forbidden)
    else:
        assert h.deadwood == min_deadwood(hand)
    kind = h.kind
    if kind in (ActionKind.TAKE, ActionKind.DRAW_DISCARD):
        top = view.discard_pile[-1]
        assert h.card == top and h.then_discard is not None and h.then_discard != top
        assert h.deadwood_after == _after_taking(view, top)
        assert min_deadwood((hand.mask | 1 << top) & ~(1 << h.then_discard)) == h.deadwood_after
    elif kind is ActionKind.DISCARD:
        assert h.card is not None
        assert h.deadwood_after == min_deadwood(hand.mask & ~(1 << h.card))
        assert h.deadwood_after >= h.deadwood
        if h.comparison is not None:
            assert h.comparison.deadwood == h.deadwood
            assert min_deadwood(hand.mask & ~(1 << h.comparison.card)) == h.deadwood
    elif kind in (ActionKind.GIN, ActionKind.BIG_GIN):
        assert h.deadwood_after == 0 == h.deadwood
    elif kind is ActionKind.KNOCK:
        assert h.action.card is not None and h.deadwood_after is not None
        assert min_deadwood(hand.mask & ~(1 << h.action.card)) <= h.deadwood_after \
            <= view.knock_limit
    if h.alternative is not None:
        a = h.alternative
        assert a.card == view.discard_pile[-1] and a.deadwood_after == _after_taking(view, a.card)
        assert a.then_discard is not None and a.then_discard != a.card


def _legal(view: PlayerView, state: HandState, h: Hint) -> bool:
    return h.action in view.legal or (h.kind is ActionKind.KNOCK and state.is_legal(h.action))


# ------------------------------------------------------------------------------- scenarios
def test_take_the_upcard_that_makes_a_meld_r3_1() -> None:
    """R-3.1 first-turn offer: 5H 6H + upcard 7H is a run (R-1.3); take it."""
    h = deal("5H 6H 9C 9D KS QD JC 2S 3D 8C", "AS 2D 4C 6S 8S TH JD QC KH 3H", "7H")
    v = view_of(h, NON_DEALER)
    x = hint(v)
    assert x.kind is ActionKind.TAKE and x.card == parse_card("7H") and x.reason == "meld"
    # now: 9C 9D KS QD JC 2S 3D 8C + 5H 6H unmelded: 9+9+10+10+10+2+3+8+5+6 = 72
    assert x.deadwood == 72 == min_deadwood(v.hand)
    # after taking 7H (5H 6H 7H melded) and throwing a king or queen: 72 - 11 - 10 = 51
    assert x.deadwood_after == 51 == _after_taking(v, parse_card("7H"))
    assert x.then_discard is not None and x.then_discard in _mask_cards("KS QD JC")
    assert x.to_json()["action"] == "take" and x.to_json()["card"] == "7H"
    _check_numbers(v, x)


def _mask_cards(text: str) -> list[int]:
    return list(CardSet.parse(text))


def test_pass_then_forced_stock_draw_r3_1() -> None:
    """R-3.1: a useless upcard is passed (taking it would leave more deadwood); after both
    passed, only the stock may be drawn (R-3.2)."""
    h = deal("2S 3S 4S 7H 7D 9C JS QH 5D AC", "AS 2D 4C 6S 8S TH JD QC KH 3H", "KD")
    v = view_of(h, NON_DEALER)
    x = hint(v)
    assert x.kind is ActionKind.PASS and x.card == parse_card("KD") and x.reason == "no_gain"
    assert x.alternative is not None and x.alternative.kind is ActionKind.TAKE
    # now: 7H 7D 9C JS QH 5D AC = 7+7+9+10+10+5+1 = 49; with KD the best is to throw a ten: 49
    assert x.deadwood == 49 and x.alternative.deadwood_after == 49
    _check_numbers(v, x)
    play(h, ["pass", "pass"])
    v = view_of(h, NON_DEALER)
    x = hint(v)
    assert x.kind is ActionKind.DRAW_STOCK and x.reason == "only" and x.alternative is None
    assert x.card is None and x.deadwood_after is None and x.deadwood == 49


def test_draw_from_the_stock_explains_the_face_up_card_r3_3() -> None:
    """R-3.3 an ordinary turn: the face-up KH is no use to the dealer's hand; draw the stock,
    and say what KH would have left."""
    h = deal("2S 3S 4S 7H 7D 9C JS QH 5D AC", "2C 3C 4C 6D 8D TS JD 5S AH 9H", "QD", "KH")
    play(h, ["pass", "pass", "draw stock", "discard KH"])
    v = view_of(h, 0)
    assert v.phase is Phase.DRAW and v.discard_pile[-1] == parse_card("KH")
    x = hint(v)
    assert x.kind is ActionKind.DRAW_STOCK and x.reason == "no_gain"
    a = x.alternative
    assert a is not None and a.kind is ActionKind.DRAW_DISCARD and a.card == parse_card("KH")
    # now: 6D 8D TS JD 5S AH 9H = 6+8+10+10+5+1+9 = 49 (2C 3C 4C is a run); with KH: still 49
    assert x.deadwood == 49 and a.deadwood_after == 49
    assert a.deadwood_after == best_discard_deadwood(v.hand.mask | _mask("KH"), _mask("KH"))
    _check_numbers(v, x)


def test_discard_leaves_the_least_deadwood_r1_6() -> None:
    """R-1.6: holding 11 after the stock draw, the plain count discards the king (deadwood as
    low as it gets); the search keeps it and throws 7H, and the hint says it overrules."""
    h = deal("2S 3S 4S 7H 7D 9C 8C 6D 5D AC", "AS 2D 4C 6S 8S TH JD QC KH 3H", "QD", "KC")
    play(h, ["pass", "pass", "draw stock"])
    v = view_of(h, NON_DEALER)
    x = hint(v)
    assert x.plain is not None and x.plain.kind is ActionKind.DISCARD
    assert x.plain.card == parse_card("KC")
    # kept: runs 2S 3S 4S and 5D 6D 7D; 7H 9C 8C AC unmelded = 7+9+8+1 = 25
    assert x.deadwood == 25 == evaluate_discards(v.hand)[0].deadwood_points
    assert x.kind is ActionKind.DISCARD and x.card == parse_card("7H")
    # 7H thrown, KC kept: 25 - 7 + 10 = 28, which the plain count would not do
    assert x.deadwood_after == 28 and x.overrules and x.reason in ("chances", "safer")
    assert x.value is not None and x.plain_value is not None and x.value >= x.plain_value
    assert x.value_kind == "points"
    j = x.to_json()
    assert j["plain"] == "discard KC" and j["overrules"] is True
    _check_numbers(v, x)


def test_a_hint_that_follows_the_plain_count_does_not_overrule() -> None:
    """The gin and knock scenarios below follow the deadwood count: ``overrules`` is false."""
    h = deal("2S 3S 4S 7H 7D 7C 9S 9H 9D 5S", "AS 2D 4C 6S 8S TH JD QC KH 3H", "QD", "KC")
    play(h, ["pass", "pass", "draw stock"])
    x = hint(view_of(h, NON_DEALER))
    assert x.plain == x.action and not x.overrules


def test_knock_with_low_deadwood_r4_2() -> None:
    """R-4.2: early in the hand, 1 point of deadwood after the discard: knock."""
    h = deal("2S 3S 4S 7H 7D 7C 9S 9H 9D AC", "AS 2D 4C 6S 8S TH JD QC KH 3H", "QD", "KC")
    play(h, ["pass", "pass", "draw stock"])
    v = view_of(h, NON_DEALER)
    x = hint(v)
    assert x.kind is ActionKind.KNOCK and x.card == parse_card("KC") and x.reason == "knock"
    assert x.deadwood == 1 and x.deadwood_after == 1 <= x.knock_limit == 10
    assert x.to_json()["action"].startswith("knock KC")
    assert _legal(v, h, x)
    _check_numbers(v, x)


def test_gin_r4_6() -> None:
    """R-4.6: ten cards all melded after discarding the king: gin."""
    h = deal("2S 3S 4S 7H 7D 7C 9S 9H 9D 5S", "AS 2D 4C 6S 8S TH JD QC KH 3H", "QD", "KC")
    play(h, ["pass", "pass", "draw stock"])
    v = view_of(h, NON_DEALER)
    x = hint(v)
    assert x.kind is ActionKind.GIN and x.card == parse_card("KC") and x.reason == "gin"
    assert x.deadwood == x.deadwood_after == 0
    assert x.to_json()["action"] == "gin KC"
    _check_numbers(v, x)


def test_take_to_gin_then_big_gin_r5_3() -> None:
    """R-5.3 with big gin on: the face-up 9C completes 11 melded cards: take it, then declare."""
    rules = Rules.preset("pagat", big_gin_bonus=31)
    h = deal("2S 3S 4S 5S 7H 7D 7C 9S 9H 9D", "AS 2D 4C 6S 8S TH JD QC KH 3H", "9C",
             rules=rules)
    v = view_of(h, NON_DEALER)
    x = hint(v)
    assert x.kind is ActionKind.TAKE and x.reason == "gin" and x.deadwood_after == 0
    assert x.deadwood == 0  # already gin with 10 cards
    h.apply(x.action)
    v = view_of(h, NON_DEALER)
    x = hint(v)
    assert x.kind is ActionKind.BIG_GIN and x.card is None and x.deadwood_after == 0
    assert x.to_json()["action"] == "big gin"


def test_not_to_act_raises() -> None:
    h = deal("5H 6H 9C 9D KS QD JC 2S 3D 8C", "AS 2D 4C 6S 8S TH JD QC KH 3H", "7H")
    with pytest.raises(ValueError):
        hint(view_of(h, 0))  # the dealer waits for the non-dealer's offer


def test_the_hint_is_the_expert_players_move_with_the_fixed_seed(kernel_ready: None) -> None:
    rng = random.Random(5)
    bot = make_bot("expert")
    checked = 0
    for _ in range(6):
        h = new_deal(RULE_VARIANTS["standard"], rng)
        while not h.is_over:
            v = view_of(h, h.current)
            pts = (rng.randrange(100), rng.randrange(100))
            x = hint(v, pts, 100)
            chosen = bot.choose(v, Context(random.Random(HINT_SEED), pts, 100))
            assert x.action == tie_agreeing(v, chosen)
            assert hint(v, pts, 100) == x  # the same view, the same hint
            checked += 1
            h.apply(make_bot("simple").choose(v, Context(rng)))
    assert checked > 50


# ---------------------------------------------------------------------------- properties
@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32 - 1), steps=st.integers(0, 60),
       variant=st.sampled_from(sorted(RULE_VARIANTS)))
def test_hint_is_legal_exact_and_sees_only_the_view(seed: int, steps: int,
                                                    variant: str) -> None:
    """For any position: the hint is a legal action of the view, its numbers are exact, and
    dealing the hidden cards (the opponent's unknown cards, the stock) again consistently with
    the view does not change it (DESIGN.md principle 6)."""
    rng = random.Random(seed)
    h = new_deal(RULE_VARIANTS[variant], rng)
    driver = make_bot("simple")
    for _ in range(steps):
        if h.is_over:
            break
        h.apply(driver.choose(view_of(h, h.current), Context(rng)))
    if h.is_over:
        return
    seat = h.current
    v = view_of(h, seat)
    x = hint(v)
    assert _legal(v, h, x), x.action.text
    _check_numbers(v, x)
    assert x.to_json()["kind"] == x.kind.value
    h2 = _reshuffle_hidden(h, seat, rng)
    v2 = view_of(h2, seat)
    assert v2 == v
    assert hint(v2) == x


def _to_the_end_of_the_stock(rules: Rules, seed: int, want: str) -> HandState | None:
    """A deal played without knocking (stock draws, discards) until the seat to act faces
    ``want``: ``"last_discard"`` (holding 11 with the stock at its last 2 cards) or
    ``"fiftieth"`` (R-8.2: the last discard offered)."""
    rng = random.Random(seed)
    deck = list(range(52))
    rng.shuffle(deck)
    h = HandState(rules, seed % 2, deck)
    while not h.is_over:
        if want == "last_discard" and h.phase is Phase.DISCARD and h.stock_count <= 2:
            return h
        if want == "fiftieth" and h.phase is Phase.FIFTIETH:
            return h
        legal = [a for a in h.legal_actions()
                 if a.kind not in (ActionKind.KNOCK, ActionKind.GIN, ActionKind.BIG_GIN,
                                   ActionKind.TAKE, ActionKind.DRAW_DISCARD)]
        h.apply(rng.choice(legal))
    return None


@pytest.mark.parametrize("seed", range(6))
def test_the_last_discard_of_a_dead_hand_says_so_r8_1(seed: int) -> None:
    h = _to_the_end_of_the_stock(Rules.preset("standard"), seed, "last_discard")
    assert h is not None
    view = view_of(h, h.current)
    got = hint(view)
    if got.kind is ActionKind.DISCARD:
        assert got.reason == "last_dead", got
    _check_numbers(view, got)


@pytest.mark.parametrize("seed", range(6))
def test_the_fiftieth_card_r8_2(seed: int) -> None:
    rules = Rules.preset("standard", dead_hand_rule="fiftieth_card")
    h = _to_the_end_of_the_stock(rules, seed, "last_discard")
    assert h is not None
    got = hint(view_of(h, h.current))
    if got.kind is ActionKind.DISCARD:  # the opponent may take it only to knock or go gin
        assert got.reason == "last_safe" and got.danger is not None and 0 <= got.danger <= 1
        assert got.to_json()["danger"] == got.danger
    h = _to_the_end_of_the_stock(rules, seed, "fiftieth")
    assert h is not None
    view = view_of(h, h.current)
    got = hint(view)
    if [a.kind for a in view.legal] == [ActionKind.PASS]:
        assert (got.kind, got.reason) == (ActionKind.PASS, "fiftieth_none")
    else:
        assert got.reason in ("fiftieth_pass", "knock", "gin"), got
    assert got.reason not in ("only", "no_gain", "small_gain")


# ------------------------------------------------------------- the tie with the extra card
def _marked_extra(v: PlayerView) -> int:
    """The card the table marks as the extra card of 11 (the web state's ``arrangement``: the
    first of :func:`evaluate_discards`)."""
    taken = None if v.taken_card is None else CardSet.of([v.taken_card])
    return parse_card(evaluate_discards(v.hand, taken)[0].discard)


def test_equal_deadwood_discards_hint_the_marked_card_r1_6() -> None:
    """R-1.6, R-4.5: after the stock draw of JC, discarding QC or JC leaves 10 points of deadwood
    either way (melds 2S3S4S, 7s, 9s): the search knocks with QC, the marker shows JC as the
    extra card (equal value, then card order): the hint names JC, the marked card."""
    h = deal("2S 3S 4S 7H 7D 7C 9S 9H 9D QC", "AS 2D 4C 6S 8S TH JD QD KH 3H", "5C", "JC")
    play(h, ["pass", "pass", "draw stock"])
    v = view_of(h, NON_DEALER)
    hand = v.hand.mask
    ties = [c for c in v.hand if min_deadwood(hand & ~(1 << c)) == best_discard_deadwood(hand)]
    assert {parse_card("QC"), parse_card("JC")} <= set(ties)
    x = hint(v)
    assert x.kind is ActionKind.KNOCK and x.deadwood_after == 10
    assert x.card == _marked_extra(v) == parse_card("JC")
    assert x.value is not None and x.value_kind == "points"
    # whatever card of equal deadwood the search picks, the hint gives the marked one
    for c in ties:
        for kind in (ActionKind.DISCARD, ActionKind.KNOCK, ActionKind.GIN):
            a = next((a for a in v.legal if a.kind is kind and a.card == c), None)
            if a is not None:
                assert tie_agreeing(v, a).card == parse_card("JC")
                assert tie_agreeing(v, a).kind is kind


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32 - 1), steps=st.integers(0, 40))
def test_a_discard_hint_and_the_extra_card_marker_agree_on_a_tie(seed: int, steps: int) -> None:
    """Any position holding 11: when the hint's discard (knock, gin) leaves the same deadwood
    as the marked extra card, it is the marked card (a knock: when it shows the same deadwood
    too); a discard of more deadwood (the search's choice, explained) keeps its own card."""
    rng = random.Random(seed)
    h = new_deal(RULE_VARIANTS["standard"], rng)
    driver = make_bot("simple")
    for _ in range(steps):
        if h.is_over:
            return
        h.apply(driver.choose(view_of(h, h.current), Context(rng)))
    if h.is_over:
        return
    v = view_of(h, h.current)
    if len(v.hand) != 11:
        return
    x = hint(v)
    if x.card is None or x.kind not in (ActionKind.DISCARD, ActionKind.KNOCK, ActionKind.GIN):
        return
    marked = _marked_extra(v)
    hand = v.hand.mask
    left = min_deadwood(hand & ~(1 << marked))
    if min_deadwood(hand & ~(1 << x.card)) == left \
            and any(a.kind is x.kind and a.card == marked for a in v.legal) \
            and (x.kind is not ActionKind.KNOCK or x.deadwood_after == left):
        assert x.card == marked


def _late_knock_position(seed: int, min_opp_draws: int) -> HandState | None:
    """A deal of stock draws and discards (no knock taken) until the seat to act holds 11 with a
    legal knock, the stock above 4 cards, and its opponent has drawn ``min_opp_draws`` times."""
    rng = random.Random(seed)
    deck = list(range(52))
    rng.shuffle(deck)
    h = HandState(Rules.preset("standard"), seed % 2, deck)
    draws = [0, 0]
    while not h.is_over:
        legal = h.legal_actions()
        if h.phase is Phase.DISCARD and h.stock_count > 4 \
                and draws[1 - h.current] >= min_opp_draws \
                and any(a.kind is ActionKind.KNOCK for a in legal):
            return h
        legal = [a for a in legal
                 if a.kind not in (ActionKind.KNOCK, ActionKind.GIN, ActionKind.BIG_GIN,
                                   ActionKind.TAKE, ActionKind.DRAW_DISCARD)]
        if any(a.kind is ActionKind.DISCARD for a in legal):  # keep the deadwood low
            seat = h.current
            a = min(legal, key=lambda a: (min_deadwood(h.hands[seat] & ~(1 << (a.card or 0))),
                                          rng.random()))
        else:
            a = rng.choice(legal)
        if a.kind is ActionKind.DRAW_STOCK:
            draws[h.current] += 1
        h.apply(a)
    return None


def test_a_late_knock_declined_names_the_knock_rule_of_the_moment_r4_2() -> None:
    """R-4.2, R-4.4: late in a deal (the opponent has drawn 8 times or more) a legal knock the
    hint does not take is explained by the knock rule of that moment: ``wait_gin`` when it would
    knock with nothing but gin, ``wait_late`` with the most it would knock with, each below the
    knock the person could make (or ``wait_risk`` when the search alone declined it)."""
    from ginrummy.bots.hints import knock_limit_now

    seen: dict[str, int] = {}
    for seed in range(60):
        h = _late_knock_position(seed, 8)
        if h is None:
            continue
        view = view_of(h, h.current)
        got = hint(view)
        if got.kind is not ActionKind.DISCARD:
            continue
        assert got.reason in ("wait_gin", "wait_late", "wait_risk"), got
        seen[got.reason] = seen.get(got.reason, 0) + 1
        assert got.could_knock is not None and 0 < got.could_knock <= view.knock_limit
        if got.reason == "wait_gin":
            assert got.late_max == 0
        if got.reason == "wait_late":
            assert got.late_max is not None and 0 < got.late_max < got.could_knock
        if got.reason in ("wait_gin", "wait_late"):  # the rule of the moment, as it says
            assert got.late_max == knock_limit_now(view, None, 100, 0.0) or got.late_max == 0
    assert seen.get("wait_gin", 0) >= 3, seen


def test_the_knock_rule_of_the_moment_knocks_early_and_waits_late() -> None:
    """The learned rule (``HardBot.knock_weights``): before the opponent's first draw it knocks
    with anything up to the limit (R-4.2); once the opponent has drawn eight times, only gin."""
    from ginrummy.bots.hints import knock_limit_now

    h = deal("2S 3S 4S 7H 7D 7C 9S 9H 9D AC", "AS 2D 4C 6S 8S TH JD QC KH 3H", "QD", "KC")
    play(h, ["pass", "pass", "draw stock"])
    assert knock_limit_now(view_of(h, NON_DEALER), None, 100, 0.0) == 10
    late = next(x for x in (_late_knock_position(s, 8) for s in range(20)) if x is not None)
    assert knock_limit_now(view_of(late, late.current), None, 100, 0.0) == 0
