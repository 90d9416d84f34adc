"""Every T-case of RULES.md section 11 as a named test, plus scenario tests of the HandState phase
machine that cite the rule they check (R-3.x, R-4.x, R-5.3, R-8.x, SG, O-x).

Scoring cases go through ``score_showdown`` and again through a real HandState: the knocker is
the non-dealer (seat 1), both pass the upcard, the knocker draws a harmless stock card and knocks
(or goes gin) discarding it; the defender is the dealer (seat 0).
"""

from __future__ import annotations

from collections.abc import Iterable

import pytest

from ginrummy.actions import Action, ActionKind
from ginrummy.cards import CardSet, parse_card
from ginrummy.errors import GinRummyError, IllegalActionError
from ginrummy.hand import HandState, Phase, oklahoma_limit
from ginrummy.melds import (
    all_arrangements,
    best_arrangement,
    best_discard_deadwood,
    default_spread,
    evaluate_discards,
    is_meld,
    min_deadwood,
    validate_spread,
)
from ginrummy.rules import Rules
from ginrummy.scoring import Showdown, score_showdown
from hand_helpers import deal, make_deck, play, snapshot, texts

STD = Rules.preset("standard")
PAGAT = Rules.preset("pagat")


def cs(text: str) -> CardSet:
    return CardSet.parse(text)


def meld_texts(melds: Iterable[CardSet]) -> set[str]:
    return {m.format() for m in melds}


def showdown(rules: Rules, knocker: str, defender: str,
             melds: list[str] | None = None) -> Showdown:
    hand = cs(knocker)
    spread = (default_spread(hand) if melds is None
              else validate_spread(hand, [cs(m) for m in melds]))
    return score_showdown(rules, spread, cs(defender))


def _free_cards(*hands: str, n: int) -> list[str]:
    """``n`` cards (as text) in none of the hands, kings and queens first (harmless draws)."""
    used = set()
    for h in hands:
        used |= set(cs(h))
    order = [s * 13 + r for r in (12, 11, 10) for s in range(4)] + list(range(52))
    out = []
    for c in order:
        if c not in used and c not in out:
            out.append(c)
        if len(out) == n:
            break
    return [CardSet.of([c]).format() for c in out]


def knock_in_hand(rules: Rules, knocker: str, defender: str, kind: str = "knock",
                  spread: str = "", upcard: str | None = None) -> HandState:
    """Play a real deal to the knock: the knocker (non-dealer, seat 1) holds ``knocker``, the
    defender (dealer, seat 0) ``defender``; pass, pass, draw stock, then ``kind`` discarding the
    drawn card (``spread``: the knocker's chosen melds, e.g. ``"5S5C5D 6S6C6D"``)."""
    free = _free_cards(knocker, defender, n=3)
    up = upcard or free[0]
    drawn = free[1] if free[1] != up else free[2]
    h = deal(knocker, defender, up, drawn, rules=rules, dealer_seat=0)
    action = f"{kind} {drawn}" + (f": {spread}" if spread else "")
    play(h, ["pass", "pass", "draw stock", action])
    assert h.is_over and h.outcome is not None
    return h


# ---------------------------------------------------------------------------- T-1 .. T-4

def test_T_1_no_meld() -> None:
    hand = cs("AS 2C 9D TH JS QC KD")
    assert min_deadwood(hand) == 52
    arr = best_arrangement(hand)
    assert arr.melds == () and arr.deadwood == hand and arr.deadwood_points == 52


def test_T_2_runs_and_sets() -> None:
    assert is_meld(cs("AS 2S 3S"))
    assert not is_meld(cs("QS KS AS"))  # no wrap
    assert not is_meld(cs("KS AS 2S"))
    assert is_meld(cs("AS AH AD"))
    assert min_deadwood(cs("QS KS AS")) == 21
    assert min_deadwood(cs("KS AS 2S")) == 13


def _only_best(hand: CardSet) -> set[str]:
    """The melds of the unique minimum arrangement (asserting it is unique)."""
    target = min_deadwood(hand)
    best = [a for a in all_arrangements(hand, target) if a.deadwood_points == target]
    assert len(best) == 1
    assert meld_texts(best_arrangement(hand).melds) == meld_texts(best[0].melds)
    return meld_texts(best[0].melds)


def test_T_3a_four_run_must_shrink() -> None:
    hand = cs("4H 5H 6H 7H 7S 7D 9C 9S 9D AC")
    assert min_deadwood(hand) == 1
    assert _only_best(hand) == {"4H 5H 6H", "7S 7H 7D", "9S 9D 9C"}
    greedy = validate_spread(hand, [cs("4H 5H 6H 7H"), cs("9C 9S 9D")])  # longest first
    assert greedy.deadwood_points == 15


def test_T_3b_four_set_must_split() -> None:
    hand = cs("3C 4C 5C 6C 3D 3H 6H 3S 4S 5S")
    assert min_deadwood(hand) == 6
    assert _only_best(hand) == {"3H 3D 3C", "4C 5C 6C", "3S 4S 5S"}
    assert validate_spread(hand, [cs("3C 4C 5C 6C"), cs("3S 4S 5S")]).deadwood_points == 12
    assert validate_spread(hand, [cs("3C 3D 3H 3S"), cs("4C 5C 6C")]).deadwood_points == 15


def test_T_3c_set_beats_longest_run() -> None:
    hand = cs("9C TC JC 8D 9D TD JD 7H JH JS")
    assert min_deadwood(hand) == 7
    assert _only_best(hand) == {"JS JH JD", "9C TC JC", "8D 9D TD"}
    assert validate_spread(hand, [cs("8D 9D TD JD"), cs("9C TC JC")]).deadwood_points == 27


def test_T_4_eleven_cards_discard_then_gin() -> None:
    hand = cs("3C 4C 5C 2D 3D 4D 5D 2H 3H 4H 5S")
    assert best_discard_deadwood(hand.mask) == 0
    best = evaluate_discards(hand)[0]
    assert best.discard == "5S" and best.deadwood_points == 0
    # the forbidden shortcut (meld the most points of all 11, drop the highest leftover) gives 2
    shortcut = validate_spread(hand, [cs("3C 3D 3H"), cs("4C 4D 4H"), cs("5C 5D 5S")])
    assert shortcut.deadwood_points == 4  # 2D 2H left; dropping one leaves 2


def test_T_4_through_hand_state() -> None:
    """T-4 in play: the non-dealer draws 5S to the other 10 cards and goes gin discarding it."""
    h = deal("3C 4C 5C 2D 3D 4D 5D 2H 3H 4H", "AS 6S 7S 9S TH JH QH KH 8C 9C", "KD", "5S")
    play(h, ["pass", "pass", "draw stock"])
    assert "gin 5S" in texts(h.legal_actions())
    h.apply("gin 5S")
    assert h.outcome is not None and h.outcome.kind == "gin"


def test_T_4b_exactly_ten_may_knock() -> None:
    hand = cs("AS 2S 3S 8C 8D 8H 5H 6H 7H JC QC")
    assert best_discard_deadwood(hand.mask) == 10
    best = evaluate_discards(hand)[0]
    assert (best.discard, best.deadwood_points) == ("JC", 10)  # QC ties; JC comes first
    kept = hand.remove(parse_card("JC"))
    assert min_deadwood(kept) == 10


def test_T_4b_knock_first_turn_through_hand_state() -> None:
    """T-4b, R-4.1, R-4.2: the non-dealer takes the upcard on the first turn and knocks with
    exactly the limit (10); the taken card itself may not be the knock discard (R-3.6)."""
    h = deal("AS 2S 3S 8C 8D 5H 6H 7H JC QC", "4S 5S 9S TS 4C 5C 4D 5D 4H TH", "8H")
    h.apply("take")
    legal = texts(h.legal_actions())
    assert "knock JC" in legal and "knock QC" in legal
    assert not any(t.endswith(" 8H") for t in legal)
    h.apply("knock JC")
    o = h.outcome
    assert o is not None and o.showdown is not None
    assert o.showdown.knocker_deadwood_points == 10


# ---------------------------------------------------------------------------- T-5 .. T-12

T5 = ("3S 4S 5S 9H 9D 9C JD QD KD 4H", "6S 7S QC QH QS 4C 5C 6C AC 2D")
T6 = ("8C 8D 8S 5H 6H 7H 2C 3C 4C 3D", "8H 9H QS QD QH 4D 5D 6D AS AH")
T7 = ("KS KC KD 5S 6S 7S 9C TC JC JD", "2S 2C 2D 2H 8S 9S AC 7C 8C 8D")
T8 = ("AS 5S 5C 5D 6S 6C 6D 7S 7C 7D", "3S 4S 8S 4C 8C 4D 8D 5H 6H 7H")
T9 = ("AS AC AD JS QS KS TC TD TH 2H", "4S 5S 9S TS 4C 5C 4D 5D 4H 5H")
T10 = ("7C 7D 7H 7S JS QS KS 2D 3D 4D", "AS TS 9S AD 5D 6D 8C 8D 8H 3C")
T11_DEFENDER = "AS 2S 3S 8C 8D 8H 3H 4H 5H 6H"
T12 = ("AS 2S 3S 7C 7D 7H 9D TD JD 5C", "4H 5H 6H QC QD QS 8S 9S TS 5D")


def _layoffs(sd: Showdown) -> list[str]:
    return [lay.card for lay in sd.defender.layoffs]


def _onto(sd: Showdown, card: str) -> str:
    for lay in sd.defender.layoffs:
        if lay.card == card:
            return sd.knocker_spread.melds[lay.onto].format()
    raise AssertionError(f"{card} not laid off")


def test_T_5_layoff_chain_undercut() -> None:
    for rules, pts in ((STD, 26), (PAGAT, 11)):
        sd = showdown(rules, *T5)
        assert sd.knocker_deadwood_points == 4
        assert _layoffs(sd) == ["6S", "7S"]
        assert _onto(sd, "6S") == _onto(sd, "7S") == "3S 4S 5S"
        assert sd.defender_deadwood_points == 3
        assert (sd.kind, sd.winner, sd.points) == ("undercut", "defender", pts)


def test_T_5_through_hand_state() -> None:
    for rules, pts in ((STD, 26), (PAGAT, 11)):
        h = knock_in_hand(rules, *T5)
        o = h.outcome
        assert o is not None and (o.kind, o.winner, o.points, o.knocker) == \
            ("undercut", 0, pts, 1)


def test_T_6_card_fitting_two_melds() -> None:
    sd = showdown(STD, *T6)
    assert sd.knocker_deadwood_points == 3
    assert sorted(_layoffs(sd)) == ["8H", "9H"]
    assert _onto(sd, "8H") == _onto(sd, "9H") == "5H 6H 7H"
    assert sd.defender_deadwood_points == 2
    assert (sd.kind, sd.winner, sd.points) == ("undercut", "defender", 26)
    o = knock_in_hand(STD, *T6).outcome
    assert o is not None and (o.kind, o.winner, o.points) == ("undercut", 0, 26)


def test_T_7_defender_breaks_own_set() -> None:
    sd = showdown(STD, *T7)
    assert sd.knocker_deadwood_points == 10
    assert sorted(_layoffs(sd)) == ["7C", "8C", "8S", "9S"]
    assert _layoffs(sd).index("8C") < _layoffs(sd).index("7C")  # chain order
    assert _onto(sd, "8S") == _onto(sd, "9S") == "5S 6S 7S"
    assert _onto(sd, "8C") == _onto(sd, "7C") == "9C TC JC"
    assert sd.defender_deadwood_points == 9
    assert (sd.kind, sd.winner, sd.points) == ("undercut", "defender", 26)
    o = knock_in_hand(STD, *T7).outcome
    assert o is not None and (o.kind, o.winner, o.points) == ("undercut", 0, 26)


def test_T_8_spread_choice_decides() -> None:
    as_sets = ["5S 5C 5D", "6S 6C 6D", "7S 7C 7D"]
    as_runs = ["5S 6S 7S", "5C 6C 7C", "5D 6D 7D"]
    sd = showdown(STD, *T8, melds=as_sets)
    assert (sd.kind, sd.winner, sd.points) == ("knock", "knocker", 2)
    sd = showdown(STD, *T8, melds=as_runs)
    assert sorted(_layoffs(sd)) == ["3S", "4C", "4D", "4S"]
    assert _layoffs(sd).index("4S") < _layoffs(sd).index("3S")
    assert sd.defender_deadwood_points == 0
    assert (sd.kind, sd.winner, sd.points) == ("undercut", "defender", 26)
    # the default spread is the one with fewer layoff chances: the sets
    assert meld_texts(default_spread(cs(T8[0])).melds) == {"5S 5D 5C", "6S 6D 6C", "7S 7D 7C"}


def test_T_8_through_hand_state() -> None:
    o = knock_in_hand(STD, *T8, spread="5S5C5D 6S6C6D 7S7C7D").outcome
    assert o is not None and (o.kind, o.winner, o.points) == ("knock", 1, 2)
    o = knock_in_hand(STD, *T8, spread="5S6S7S 5C6C7C 5D6D7D").outcome
    assert o is not None and (o.kind, o.winner, o.points) == ("undercut", 0, 26)
    o = knock_in_hand(STD, *T8).outcome  # default spread
    assert o is not None and (o.kind, o.winner, o.points) == ("knock", 1, 2)


def test_T_9_chain_onto_run_not_set() -> None:
    sd = showdown(STD, *T9)
    assert sd.knocker_deadwood_points == 2
    assert _layoffs(sd) == ["TS", "9S"]
    assert _onto(sd, "TS") == "JS QS KS"
    assert sd.defender_deadwood_points == 0
    assert (sd.kind, sd.winner, sd.points) == ("undercut", "defender", 27)
    o = knock_in_hand(STD, *T9).outcome
    assert o is not None and (o.kind, o.winner, o.points) == ("undercut", 0, 27)


def test_T_10_gin_no_layoffs() -> None:
    for rules, pts in ((STD, 60), (PAGAT, 55)):
        sd = showdown(rules, *T10)
        assert sd.defender.layoffs == ()  # 5D would fit 2D 3D 4D, but not against gin
        assert sd.defender_deadwood_points == 35
        assert (sd.kind, sd.winner, sd.points) == ("gin", "knocker", pts)
    o = knock_in_hand(STD, *T10, kind="gin").outcome
    assert o is not None and (o.kind, o.winner, o.points) == ("gin", 1, 60)


def test_T_11_gin_not_undercut() -> None:
    sd = showdown(STD, T10[0], T11_DEFENDER)
    assert sd.defender_deadwood_points == 0
    assert (sd.kind, sd.winner, sd.points) == ("gin", "knocker", 25)
    assert showdown(PAGAT, T10[0], T11_DEFENDER).points == 20
    o = knock_in_hand(STD, T10[0], T11_DEFENDER, kind="gin").outcome
    assert o is not None and (o.kind, o.winner, o.points) == ("gin", 1, 25)


def test_T_12_tie_is_undercut() -> None:
    for rules, pts in ((STD, 25), (PAGAT, 10)):
        sd = showdown(rules, *T12)
        assert sd.knocker_deadwood_points == sd.defender_deadwood_points == 5
        assert (sd.kind, sd.winner, sd.points) == ("undercut", "defender", pts)
        o = knock_in_hand(rules, *T12).outcome
        assert o is not None and (o.kind, o.winner, o.points) == ("undercut", 0, pts)
    # with undercut_on_tie off: nobody scores
    sd = showdown(STD.with_changes(undercut_on_tie=False), *T12)
    assert (sd.kind, sd.winner, sd.points) == ("tie", None, 0)


# ------------------------------------------------------------------------------- T-20

LOW_HAND = "AS 2S 3S 4H 5H 6H 7C 7D 7H 2C"  # deadwood 2: can knock after any stock draw
HIGH_HAND = "KS QH JD TC 9S 8H 6D 4C KH QD"


def _draw_and_throw(h: HandState) -> int:
    """One ordinary turn: draw the top stock card and discard it."""
    h.apply("draw stock")
    drawn = h.drawn_card
    assert drawn is not None
    h.apply(Action(ActionKind.DISCARD, drawn))
    return drawn


def _to_29th_draw(pickup: bool) -> HandState:
    """Both pass; then only stock draws (optionally one discard pickup by the dealer) up to and
    including the 29th stock draw, which leaves 2 cards."""
    h = deal(LOW_HAND, HIGH_HAND, "KC", rules=STD, dealer_seat=0)
    play(h, ["pass", "pass"])
    assert h.stock_count == 31
    draws = 0
    while True:
        if pickup and draws == 1:  # the dealer's first ordinary turn
            assert h.current == 0
            h.apply("draw discard")
            h.apply(Action(ActionKind.DISCARD,
                           next(c for c in h.hand(0) if c != h.taken_card)))
            pickup = False
            continue
        h.apply("draw stock")
        draws += 1
        if draws == 29:
            return h
        h.apply(Action(ActionKind.DISCARD, h.drawn_card))
        assert h.phase is Phase.DRAW  # still alive: the stock holds 3 or more
        assert h.stock_count == 31 - draws


def test_T_20_dead_hand_timing() -> None:
    h = _to_29th_draw(pickup=False)
    assert h.stock_count == 2
    assert h.current == h.non_dealer == 1
    drawn = h.drawn_card
    dead = h.clone()
    dead.apply(Action(ActionKind.DISCARD, drawn))
    assert dead.is_over and dead.outcome is not None
    o = dead.outcome
    assert (o.kind, o.winner, o.points, o.boxes) == ("dead", None, 0, 0)
    assert dead.stock_count == 2  # the last two stock cards are never drawn
    h.apply(Action(ActionKind.KNOCK, drawn))  # the knock on that turn is scored
    assert h.outcome is not None and h.outcome.kind == "knock" and h.outcome.winner == 1


def test_T_20_pickup_flips_the_29th_draw() -> None:
    h = _to_29th_draw(pickup=True)
    assert h.stock_count == 2
    assert h.current == h.dealer == 0
    h.apply(Action(ActionKind.DISCARD, h.drawn_card))
    assert h.outcome is not None and h.outcome.kind == "dead"


# ------------------------------------------------------------------------------- T-23, T-24

def test_T_23_pagat_game_totals() -> None:
    from ginrummy.game import Game

    g = Game(PAGAT, first_dealer=0)
    for winner, pts in ((0, 30), (0, 25), (1, 12), (0, 50)):
        assert not g.is_over
        g.add_result(winner, pts)
    assert g.is_over
    f = g.final()
    assert f.winner == 0 and f.totals == (265, 32)
    assert f.hand_points == (105, 12) and f.boxes == (3, 1)


@pytest.mark.parametrize(("rules", "total"), [
    (PAGAT, 365),  # flat: 105 + 3 x 20 + 200
    (Rules.preset("standard", shutout="double_hand_points"), 385),  # 210 + 75 + 100
    (Rules.preset("standard", shutout="double_total"), 560),  # (105 + 75 + 100) x 2
])
def test_T_24_shutout(rules: Rules, total: int) -> None:
    from ginrummy.game import Game

    g = Game(rules, first_dealer=1)
    for pts in (40, 35, 30):
        g.add_result(0, pts)
    assert g.is_over
    f = g.final()
    assert f.shutout and f.winner == 0 and f.totals == (total, 0)


# ------------------------------------------------------------------------------- T-25

OKLA = Rules.preset("oklahoma")
DEFENDER = "4H 5H 6H 8C 8D 8S KC 2C 3D 2H"  # deadwood 17, nothing to lay off on the hands here
OTHER = "4C 5C 4D 5D 9H TH JH 2H 3H QH"  # a dealer hand that stays out of the way


def test_T_25_oklahoma_upcard_7_limit_7() -> None:
    assert oklahoma_limit(OKLA, parse_card("7D")) == 7
    # deadwood exactly 7 may knock, 8 may not (R-4.2 with the Oklahoma limit)
    for hand, dw, ok in (("AS 2S 3S 6C 6S 6D 9D TD JD 7C", 7, True),
                         ("AS 2S 3S 6C 6S 6D 9D TD JD 8H", 8, False)):
        h = deal(hand, DEFENDER, "7D", "KD", rules=OKLA)
        assert h.knock_limit == 7
        play(h, ["pass", "pass", "draw stock"])
        assert min_deadwood(h.hand(1).remove(parse_card("KD"))) == dw
        assert h.is_legal(Action.parse("knock KD")) is ok
        assert ("knock KD" in texts(h.legal_actions())) is ok
        if ok:
            h.apply("knock KD")
            assert h.outcome is not None and h.outcome.kind == "knock"
        else:
            before = snapshot(h)
            with pytest.raises(IllegalActionError, match="8 > 7"):
                h.apply("knock KD")
            assert snapshot(h) == before


def test_T_25_oklahoma_ace_gin_only() -> None:
    assert oklahoma_limit(OKLA, parse_card("AC")) == 0
    h = deal("AS 2S 3S 6C 6S 6D 9D TD JD AH", DEFENDER, "AC", "KD", rules=OKLA)
    play(h, ["pass", "pass", "draw stock"])
    assert not any(a.kind is ActionKind.KNOCK for a in h.legal_actions())
    with pytest.raises(IllegalActionError, match="gin only"):
        h.apply("knock KD")
    g = deal("AS 2S 3S 6C 6S 6D 9D TD JD QD", DEFENDER, "AC", "KD", rules=OKLA)
    play(g, ["pass", "pass", "draw stock"])
    assert "gin KD" in texts(g.legal_actions())  # O-3: gin is always allowed
    g.apply("gin KD")
    assert g.outcome is not None and g.outcome.kind == "gin"


def test_T_25_oklahoma_spade_upcard_doubles() -> None:
    knocker = "AS 2S 3S 7C 7D 7H 9D TD JD 5C"  # deadwood 5
    o = knock_in_hand(OKLA, knocker, DEFENDER, upcard="QS").outcome
    assert o is not None and o.showdown is not None
    assert o.showdown.knocker_deadwood_points == 5
    assert o.showdown.defender_deadwood_points == 17
    assert (o.kind, o.winner, o.points) == ("knock", 1, 24)  # a knock worth 12 scores 24
    assert o.showdown.doubled
    o = knock_in_hand(OKLA, knocker, DEFENDER, upcard="QH").outcome
    assert o is not None and o.points == 12
    o = knock_in_hand(OKLA.with_changes(oklahoma_spade_double=False), knocker, DEFENDER,
                      upcard="QS").outcome
    assert o is not None and o.points == 12
    o = knock_in_hand(STD, knocker, DEFENDER, upcard="QS").outcome  # not Oklahoma: no doubling
    assert o is not None and o.points == 12


def test_oklahoma_ace_one() -> None:
    """O-2 with ``oklahoma_ace = "one"``: an ace upcard sets the limit to 1."""
    rules = OKLA.with_changes(oklahoma_ace="one")
    assert oklahoma_limit(rules, parse_card("AC")) == 1
    h = deal("AS 2S 3S 6C 6S 6D 9D TD JD AH", DEFENDER, "AC", "KD", rules=rules)
    play(h, ["pass", "pass", "draw stock"])
    assert h.knock_limit == 1 and "knock KD" in texts(h.legal_actions())
    h.apply("knock KD")
    assert h.outcome is not None and h.outcome.kind == "knock"


def test_oklahoma_dead_hand_scores_nothing() -> None:
    """O-6 (with a spade upcard, so doubling would show if it leaked)."""
    h = deal(LOW_HAND, HIGH_HAND, "QS", rules=OKLA)
    play(h, ["pass", "pass"])
    while not h.is_over:
        _draw_and_throw(h)
    assert h.outcome is not None and (h.outcome.kind, h.outcome.points) == ("dead", 0)


# -------------------------------------------------------------- phase machine scenarios

FIRST = ("AS 2S 3S 8C 8D 5H 6H 7H JC QC", "4S 5S 9S TS 4C 5C 4D 5D 4H TH")


def test_R_3_1_R_3_2_non_dealer_takes() -> None:
    h = deal(*FIRST, "8H", rules=STD, dealer_seat=0)
    assert (h.phase, h.current, texts(h.legal_actions())) == (Phase.OFFER, 1, ["take", "pass"])
    h.apply("take")
    assert h.phase is Phase.DISCARD and h.current == 1
    assert len(h.hand(1)) == 11 and h.discard_pile == []
    h.apply("discard QC")
    # the dealer now has the next ordinary turn, with both draws open
    assert h.phase is Phase.DRAW and h.current == 0
    assert texts(h.legal_actions()) == ["draw stock", "draw discard"]


def test_R_3_1_R_3_2_dealer_takes_after_pass() -> None:
    h = deal(*FIRST, "8H", rules=STD, dealer_seat=0)
    h.apply("pass")
    assert h.phase is Phase.OFFER and h.current == 0
    h.apply("take")
    assert h.phase is Phase.DISCARD and h.current == 0 and len(h.hand(0)) == 11
    h.apply("discard TH")
    assert h.phase is Phase.DRAW and h.current == 1  # the non-dealer's ordinary turn
    assert "draw discard" in texts(h.legal_actions())


def test_R_3_1_both_pass_forced_stock_draw() -> None:
    h = deal(*FIRST, "KC", "QD", rules=STD, dealer_seat=0)
    play(h, ["pass", "pass"])
    assert h.phase is Phase.DRAW and h.current == 1
    assert texts(h.legal_actions()) == ["draw stock"]
    before = snapshot(h)
    with pytest.raises(IllegalActionError, match="R-3.1"):
        h.apply("draw discard")
    assert snapshot(h) == before
    h.apply("draw stock")
    assert h.drawn_card == parse_card("QD") and h.stock_count == 30
    h.apply("discard QD")
    assert h.discard_pile == [parse_card("KC"), parse_card("QD")]  # upcard buried
    assert h.current == 0 and texts(h.legal_actions()) == ["draw stock", "draw discard"]


def test_R_3_5_pass_is_not_a_draw() -> None:
    h = deal(*FIRST, "KC", rules=STD, dealer_seat=0)
    h.apply("pass")
    assert h.stock_count == 31 and len(h.hand(1)) == 10


def test_R_3_6_taken_card_cannot_be_discarded_or_knock_discard() -> None:
    # the hand has deadwood 10: taking KD and knocking with KD would be within the limit
    h = deal("AS 2S 3S 8C 8D 8H 5H 6H 7H QC", OTHER, "KD", rules=STD)
    h.apply("take")
    for bad in ("discard KD", "knock KD", "gin KD"):
        before = snapshot(h)
        with pytest.raises(IllegalActionError, match="R-3.6"):
            h.apply(bad)
        assert snapshot(h) == before
    assert not any(a.card == parse_card("KD") for a in h.legal_actions())
    assert "knock QC" in texts(h.legal_actions())  # KD left: deadwood 10
    # later in the hand: a card drawn from the discard pile in an ordinary turn, likewise
    h.apply("discard QC")
    h.apply("draw discard")  # the dealer takes QC
    with pytest.raises(IllegalActionError, match="R-3.6"):
        h.apply("discard QC")


def test_R_3_6_stock_card_may_be_discarded_and_knocked_with() -> None:
    h = deal("AS 2S 3S 8C 8D 8H 5H 6H 7H QC", OTHER, "KC", "JC", rules=STD)
    play(h, ["pass", "pass", "draw stock"])
    legal = texts(h.legal_actions())
    assert "discard JC" in legal and "knock JC" in legal
    h.apply("knock JC")
    assert h.outcome is not None and h.outcome.knock_discard == parse_card("JC")


def test_R_4_1_no_knock_without_drawing() -> None:
    h = deal("AS 2S 3S 8C 8D 8H 5H 6H 7H QC", FIRST[1], "KC", rules=STD)
    for bad in ("knock QC", "gin QC", "discard QC"):
        with pytest.raises(IllegalActionError):
            h.apply(bad)
    h.apply("pass")
    h.apply("pass")
    with pytest.raises(IllegalActionError, match="draw"):
        h.apply("knock QC")


def test_R_4_2_one_over_the_limit_may_not_knock() -> None:
    h = deal("AS 2S 3S 4S 5S 8C 8D 8H 9C 2C", OTHER, "KC", "KD", rules=STD)
    play(h, ["pass", "pass", "draw stock"])
    assert best_discard_deadwood(h.hand(1).mask) == 11  # discard KD: 9C + 2C
    assert not any(a.kind is ActionKind.KNOCK for a in h.legal_actions())
    before = snapshot(h)
    with pytest.raises(IllegalActionError, match="11 > 10"):
        h.apply("knock KD")
    assert snapshot(h) == before


def test_R_4_2_chosen_spread_over_the_limit_rejected() -> None:
    """R-4.5: a chosen spread is scored as shown, so it must itself be within the limit."""
    h = deal("AS 2S 3S 8C 8D 8H 5H 6H 7H QC", OTHER, "KC", "KD", rules=STD)
    play(h, ["pass", "pass", "draw stock"])
    before = snapshot(h)
    with pytest.raises(IllegalActionError, match="deadwood"):
        h.apply("knock KD: AS2S3S 8C8D8H")  # leaves 5H 6H 7H QC = 28
    assert snapshot(h) == before
    with pytest.raises(GinRummyError):
        h.apply("knock KD: 8C8D8H5H")  # not a meld
    with pytest.raises(IllegalActionError):
        h.apply("knock KD: AS2S3S 3S4S5S")  # not in the hand / overlapping
    assert snapshot(h) == before
    h.apply("knock KD: AS2S3S 8C8D8H 5H6H7H")
    assert h.outcome is not None and h.outcome.showdown is not None
    assert h.outcome.showdown.knocker_deadwood_points == 10


def test_R_4_4_gin_is_not_compulsory() -> None:
    h = deal(T10[0], T10[1], "KC", "KD", rules=STD)
    play(h, ["pass", "pass", "draw stock"])
    legal = texts(h.legal_actions())
    assert "gin KD" in legal and "discard KD" in legal
    h.apply("discard KD")
    assert not h.is_over and h.phase is Phase.DRAW and h.current == 0


BIG = "AS 2S 3S 4S 7H 7D 7C 9D TD JD"  # + QD drawn = 11 melded cards


def test_R_5_3_big_gin_on() -> None:
    rules = STD.with_changes(big_gin_bonus=31)
    h = deal(BIG, DEFENDER, "KH", "QD", rules=rules)
    play(h, ["pass", "pass", "draw stock"])
    assert "big gin" in texts(h.legal_actions())
    h.apply("big gin")
    o = h.outcome
    assert o is not None and o.kind == "big_gin" and o.winner == 1
    assert o.points == 17 + 31  # defender deadwood + big gin bonus
    assert o.knock_discard is None and len(h.hand(1)) == 11


def test_R_5_3_big_gin_off_still_gin() -> None:
    h = deal(BIG, DEFENDER, "KH", "QD", rules=STD)
    play(h, ["pass", "pass", "draw stock"])
    legal = texts(h.legal_actions())
    assert "big gin" not in legal
    before = snapshot(h)
    with pytest.raises(IllegalActionError, match="big gin"):
        h.apply("big gin")
    assert snapshot(h) == before
    assert {"gin AS", "gin 4S", "gin 9D", "gin QD"} <= set(legal)
    h.apply("gin 4S")
    assert h.outcome is not None and (h.outcome.kind, h.outcome.points) == ("gin", 17 + 25)


def test_R_5_3_big_gin_not_from_10_melded_plus_deadwood() -> None:
    rules = STD.with_changes(big_gin_bonus=31)
    h = deal(BIG, DEFENDER, "KH", "KD", rules=rules)
    play(h, ["pass", "pass", "draw stock"])
    assert "big gin" not in texts(h.legal_actions())
    with pytest.raises(IllegalActionError, match="not big gin"):
        h.apply("big gin")


def test_R_8_1_dead_hand_same_as_T_20() -> None:
    """R-8.1: after the 29th stock draw no more stock draws are possible: a discard ends it."""
    h = _to_29th_draw(pickup=False)
    h.apply(Action(ActionKind.DISCARD, h.drawn_card))
    assert h.is_over and h.legal_actions() == []
    with pytest.raises(IllegalActionError, match="over"):
        h.apply("draw stock")


def test_R_8_2_fiftieth_card_useless_discard_only_pass() -> None:
    rules = STD.with_changes(dead_hand_rule="fiftieth_card")
    h = deal(LOW_HAND, HIGH_HAND, "KC", rules=rules, dealer_seat=0)
    play(h, ["pass", "pass"])
    while h.stock_count > 2:
        _draw_and_throw(h)
    # the non-dealer made the 29th draw and threw it; the dealer's HIGH_HAND cannot knock
    assert h.phase is Phase.FIFTIETH and h.current == 0
    assert texts(h.legal_actions()) == ["pass"]
    before = snapshot(h)
    with pytest.raises(IllegalActionError, match="R-8.2"):
        h.apply("draw discard")
    with pytest.raises(IllegalActionError, match="R-8.2"):
        h.apply("draw stock")
    assert snapshot(h) == before
    h.apply("pass")
    assert h.outcome is not None and h.outcome.kind == "dead" and h.outcome.points == 0


def test_R_8_2_fiftieth_card_taken_to_knock() -> None:
    """R-8.2: the dealer (deadwood 34) can use the non-dealer's last discard 7S (7C 7D 7S,
    then deadwood 10 after throwing KC), so it may take it, but then only to knock."""
    rules = STD.with_changes(dead_hand_rule="fiftieth_card")
    dealer_hand = "AS 2S 3S 4H 5H 6H 7C 7D QC KC"
    nd_hand = "KS QH JD TC 9S 8H 6D 4C QD 7S"
    h = deal(nd_hand, dealer_hand, "KH", rules=rules, dealer_seat=0)
    play(h, ["pass", "pass"])
    while h.stock_count > 3:
        _draw_and_throw(h)
    assert h.current == 1
    h.apply("draw stock")
    h.apply("discard 7S")
    assert h.phase is Phase.FIFTIETH and h.current == 0
    assert texts(h.legal_actions()) == ["draw discard", "pass"]
    h.apply("draw discard")
    legal = texts(h.legal_actions())
    assert legal and all(t.startswith(("knock", "gin")) for t in legal)
    assert "knock KC" in legal and "knock 7S" not in legal
    h.apply("knock KC")
    assert h.outcome is not None and h.outcome.knocker == 0


def test_straight_gin_no_knocking() -> None:
    rules = Rules.preset("straight")
    h = deal("AS 2S 3S 6C 6S 6D 9D TD JD AH", DEFENDER, "KH", "KD", rules=rules)
    play(h, ["pass", "pass", "draw stock"])
    assert h.knock_limit == 0
    assert not any(a.kind is ActionKind.KNOCK for a in h.legal_actions())
    with pytest.raises(IllegalActionError, match="straight gin"):
        h.apply("knock KD")
    g = deal(T10[0], T10[1], "KC", "KD", rules=rules)
    play(g, ["pass", "pass", "draw stock"])
    assert "gin KD" in texts(g.legal_actions())
    g.apply("gin KD")
    assert g.outcome is not None and (g.outcome.kind, g.outcome.points) == ("gin", 60)


def test_illegal_actions_leave_state_unchanged() -> None:
    h = deal(*FIRST, "KC", "QD", rules=STD)
    attempts: dict[Phase, list[str]] = {
        Phase.OFFER: ["draw stock", "draw discard", "discard AS", "knock QC", "gin QC",
                      "big gin"],
        Phase.DRAW: ["take", "discard AS", "knock QC", "draw discard", "big gin"],
        Phase.DISCARD: ["take", "pass", "draw stock", "draw discard", "discard KH",
                        "knock QC", "gin QC", "big gin"],
    }
    script = ["pass", "pass", "draw stock"]
    for phase in (Phase.OFFER, Phase.DRAW, Phase.DISCARD):
        if phase is Phase.DRAW:
            play(h, script[:2])
        if phase is Phase.DISCARD:
            play(h, script[2:])
        assert h.phase is phase
        for bad in attempts[phase]:
            before = snapshot(h)
            with pytest.raises(IllegalActionError) as info:
                h.apply(bad)
            assert str(info.value).strip(), bad
            assert snapshot(h) == before, bad


def test_make_deck_helper() -> None:
    deck = make_deck(*FIRST, "KC", "QD")
    assert sorted(deck) == list(range(52))
    h = HandState(STD, 0, deck)
    assert h.hand(1) == cs(FIRST[0]) and h.hand(0) == cs(FIRST[1])
    assert h.upcard == parse_card("KC") and h.stock()[0] == parse_card("QD")


# ------------------------------------------------------------------ malformed actions

def test_gin_action_with_non_gin_spread_is_rejected_cleanly() -> None:
    h = deal(T10[0], T10[1], "KH", "KC", rules=STD)
    play(h, ["pass", "pass", "draw stock"])
    before = snapshot(h)
    bad = Action(ActionKind.GIN, parse_card("KC"), (cs("7C 7D 7H"),))
    with pytest.raises(IllegalActionError):
        h.apply(bad)
    assert snapshot(h) == before


@pytest.mark.parametrize("card", [None, 52, 99, -1])
def test_malformed_action_objects_raise_illegal_action(card: int | None) -> None:
    h = deal(*FIRST, "KC", "QD", rules=STD)
    play(h, ["pass", "pass", "draw stock"])
    before = snapshot(h)
    with pytest.raises(IllegalActionError):
        h.apply(Action(ActionKind.DISCARD, card))
    assert snapshot(h) == before
