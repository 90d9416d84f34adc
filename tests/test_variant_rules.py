"""The variant rules of RULES.md section 9 (O-1..O-6, SG, H, 3P, 4P) and the presets of section 10,
at the level of a hand, a score sheet and a game of every form (:class:`ginrummy.game.Game`);
and the coherence of every combination the new-game menu allows (:mod:`ginrummy.variants`).
The T-cases T-23..T-25 are in tests/test_rules_cases.py and tests/web/test_keeper_api.py; the
ones of a table are repeated here through the table."""

from __future__ import annotations

import itertools
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from ginrummy.cards import card_text, parse_card
from ginrummy.errors import IllegalActionError, RulesError
from ginrummy.game import Game
from ginrummy.hand import HandState, Phase, oklahoma_limit
from ginrummy.keeper import score_sheet
from ginrummy.rules import PRESETS, Rules
from ginrummy.sheets import HollywoodSheet, partnership_pairings
from ginrummy.variants import (
    FIELD_REQUIRES,
    SCORING_FIXED,
    SCORINGS,
    check_table,
    constrain,
    inactive_fields,
)
from hand_helpers import deal, make_deck, play

OKLA = Rules.preset("oklahoma")
# the non-dealer takes the upcard TC and goes gin discarding KD; the dealer holds deadwood 55
GIN_ND = "AS 2S 3S 4H 5H 6H 7C 8C 9C KD"
LOSER = "JS QH KH JD QD 2C 4C 6D 8D TH"  # no meld: 10+10+10+10+10+2+4+6+8+10 = 80
WIN_ACTIONS = ["take", "gin KD"]


def gin_deck(upcard: str = "TC") -> list[int]:
    return make_deck(GIN_ND, LOSER, upcard)


def run_dead(h: HandState, apply: Callable[[str], None] | None = None) -> None:
    """Pass, pass, then draw from the stock and throw the card drawn, until the hand dies
    (``apply``: how to apply an action, default the hand's own)."""
    act = apply or h.apply
    while not h.is_over:
        if h.phase is Phase.OFFER:
            act("pass")
        elif h.phase is Phase.DRAW:
            act("draw stock")
        else:
            assert h.drawn_card is not None
            act("discard " + card_text(h.drawn_card))


# ------------------------------------------------------------------------------------- Oklahoma
@pytest.mark.parametrize("rank", list("23456789TJQK"))
def test_O_1_the_upcard_value_is_the_knock_limit(rank: str) -> None:
    want = {"T": 10, "J": 10, "Q": 10, "K": 10}.get(rank) or int(rank)
    held = set((GIN_ND + " " + LOSER).split())
    for suit in "SHDC":
        up = rank + suit
        assert oklahoma_limit(OKLA, parse_card(up)) == want
        if up not in held:
            assert HandState(OKLA, 0, make_deck(GIN_ND, LOSER, up)).knock_limit == want


def test_O_2_ace_upcard_both_readings() -> None:
    assert oklahoma_limit(OKLA, parse_card("AD")) == 0
    assert oklahoma_limit(OKLA.with_changes(oklahoma_ace="one"), parse_card("AD")) == 1
    assert OKLA.oklahoma_ace == "gin_only"  # the default, as most tables play


def test_O_3_gin_is_allowed_whatever_the_limit() -> None:
    for ace in ("gin_only", "one"):
        h = deal("AS 2S 3S 4H 5H 6H 7C 8C 9C KD", LOSER, "AC", "TC",
                 rules=OKLA.with_changes(oklahoma_ace=ace))
        play(h, ["pass", "pass", "draw stock", "gin KD"])
        assert h.outcome is not None and h.outcome.kind == "gin"


def test_O_4_spade_upcard_doubles_the_score_bonuses_included() -> None:
    spade_deck = make_deck("AS 2S 4H 5H 6H 7C 8C 9C TC KD", LOSER, "3S")
    h = HandState(OKLA, 0, spade_deck)
    play(h, ["take", "gin KD"])
    o = h.outcome
    assert o is not None and o.showdown is not None and o.showdown.doubled
    assert o.points == (80 + 25) * 2
    assert ("spade_double", 80 + 25) in o.showdown.breakdown
    h = HandState(OKLA.with_changes(oklahoma_spade_double=False), 0, spade_deck)
    play(h, WIN_ACTIONS)
    assert h.outcome is not None and h.outcome.points == 105


def test_O_5_oklahoma_plays_to_150_and_O_6_a_dead_hand_scores_nothing() -> None:
    assert OKLA.target == 150 and OKLA.oklahoma
    h = HandState(OKLA, 0, gin_deck("QS"))
    run_dead(h)
    assert h.outcome is not None and (h.outcome.kind, h.outcome.points) == ("dead", 0)


# ---------------------------------------------------------------------------------- straight
def test_SG_no_knocking_a_hand_ends_by_gin_big_gin_or_dead_hand() -> None:
    sg = Rules.preset("straight")
    assert sg.knock_limit == 0 and sg.straight
    h = deal("AS 2S 3S 4H 5H 6H 7C 8C 9C 2D", LOSER, "KC", "AD", rules=sg)
    play(h, ["pass", "pass", "draw stock"])  # deadwood 1 after discarding 2D
    assert [a.text for a in h.legal_actions() if a.kind.value == "knock"] == []
    with pytest.raises(IllegalActionError, match="straight gin"):
        h.apply("knock 2D")
    h = deal("AS 2S 3S 4H 5H 6H 7C 8C 9C 2D", LOSER, "KC", "TC", rules=sg)
    play(h, ["pass", "pass", "draw stock", "gin 2D"])
    assert h.outcome is not None and h.outcome.kind == "gin"
    big = sg.with_changes(big_gin_bonus=31)
    h = deal("AS 2S 3S 4H 5H 6H 7C 8C 9C TC", LOSER, "JC", rules=big)
    play(h, ["take", "big gin"])
    assert h.outcome is not None and (h.outcome.kind, h.outcome.points) == ("big_gin", 80 + 31)
    h = HandState(sg, 0, gin_deck("QS"))
    run_dead(h)
    assert h.outcome is not None and h.outcome.kind == "dead"


# --------------------------------------------------------------------------------- Hollywood
def test_H_each_win_enters_every_game_with_an_entry_and_opens_one() -> None:
    h = HollywoodSheet(Rules.preset("pagat"))
    assert h.add_result(0, 18) == [0]
    assert h.add_result(0, 10) == [0, 1]
    assert h.add_result(0, 5) == [0, 1, 2]
    assert h.add_result(1, 7) == [0]
    assert h.add_result(None, 0) == []


def test_H_through_the_game_dealer_rotation_and_closed_games() -> None:
    rules = Rules.preset("pagat", target=300)
    m = Game(rules, 0, "hollywood")
    reference = HollywoodSheet(rules)
    while not m.is_over:
        (plan,) = m.next_deals()
        hand, table, players, dealer = plan.hand, plan.table, plan.players, plan.dealer
        assert (table, players) == (0, (0, 1))
        i = len(m.deals)
        m.new_hand(gin_deck())
        if hand % 4 == 0:
            run_dead(m.deals[i], lambda a, i=i: m.apply(a, i))
            reference.add_result(None, 0, kind="dead")
            assert m.next_deals()[0].dealer == dealer  # same dealer after a dead hand
            continue
        for a in WIN_ACTIONS:
            m.apply(a, i)
        w = m.winner_of(i)
        assert w == 1 - dealer  # the non-dealer went gin
        into = reference.add_result(w, m.deals[i].outcome.points)  # type: ignore[union-attr]
        assert m.entered[i] == [g + 1 for g in into]
        if not m.is_over:
            assert m.next_deals()[0].dealer == w  # the winner deals next (pagat)
    assert all(g.is_closed for g in m.sheet.games)  # H: the match ends when all 3 closed
    assert [g.hand_points for g in m.sheet.games] == [g.hand_points for g in reference.games]
    assert m.sheet.hands[3].kind == "dead"


def test_H_5_worked_example_on_the_keeper() -> None:
    wins = [("A", 18), ("B", 12), ("A", 25), ("B", 30), ("A", 15), ("A", 22), ("B", 20),
            ("A", 25)]
    out = score_sheet({"rules": "pagat", "scoring": "hollywood", "players": ["A", "B"],
                       "hands": [{"winner": w, "points": p} for w, p in wins]})
    g1 = out["games"][0]
    assert g1["columns"] == {"A": 105, "B": 62} and g1["totals"] == {"A": 305, "B": 122}
    assert [g["columns"] for g in out["games"][1:]] == [{"A": 87, "B": 50}, {"A": 62, "B": 20}]


# ------------------------------------------------------------------------------ three players
def test_3P_dealer_sits_out_loser_deals_dead_hand_keeps_dealer_and_pair() -> None:
    rules = Rules.preset("standard", target=300)
    m = Game(rules, 2, "three_player")
    seen = []
    for n in range(7):
        (plan,) = m.next_deals()
        players, engine_dealer = plan.players, plan.dealer
        d = m.sheet.dealer
        assert d not in players and sorted([*players, d]) == [0, 1, 2]
        # the player on the dealer's left is dealt to first: the engine's non-dealer
        assert players[1 - engine_dealer] == (d + 1) % 3
        i = len(m.deals)
        m.new_hand(gin_deck())
        assert m.seatings[i].dealer == d and m.seatings[i].plays(0) == (d != 0)
        if n == 3:
            run_dead(m.deals[i], lambda a, i=i: m.apply(a, i))
            assert m.sheet.dealer == d and m.sheet.players == players
            continue
        for a in WIN_ACTIONS:
            m.apply(a, i)
        w = m.winner_of(i)
        loser = players[0] if players[1] == w else players[1]
        assert w == (d + 1) % 3 and m.sheet.dealer == loser  # 3P: the loser deals next
        seen.append((d, w))
    assert m.sheet.hand_points == [sum(105 for _, w in seen if w == p) for p in range(3)]


def test_3P_game_end_settles_against_each_opponent_shutout_per_opponent() -> None:
    m = Game(Rules.preset("standard", target=200), 2, "three_player")
    while not m.is_over:
        i = len(m.deals)
        m.new_hand(gin_deck())
        for a in WIN_ACTIONS:
            m.apply(a, i)
    w = m.sheet.winner
    st = m.sheet.settlements()
    assert sorted(st) == sorted(p for p in range(3) if p != w)
    for opp, f in st.items():
        assert f.shutout == (m.sheet.hand_points[opp] == 0)
    assert m.winners() == (w,) and m.winner == w
    assert m.margin() == sum(f.margin for f in st.values())


# ------------------------------------------------------------------------------- partnership
def test_4P_two_tables_opponents_switch_team_net_one_box_dead_table_counts_nothing() -> None:
    rules = Rules.preset("partnership")
    assert rules.target == 125 and rules.game_bonus == 100
    m = Game(rules, 0, "partnership")
    plan = m.next_deals()
    assert [(p.table, p.players) for p in plan] == [(0, (0, 1)), (1, (2, 3))]
    # hand 1: A (non-dealer at table 0) goes gin; table 1 is dead
    m.new_hand(gin_deck(), 1)
    m.new_hand(gin_deck(), 0)
    for a in WIN_ACTIONS:
        m.apply(a, 0)
    assert m.sheet.tables == []  # settled only when both tables are over
    run_dead(m.deals[1], lambda a: m.apply(a, 1))
    assert m.sheet.tables[0] == ((0, 105), (None, 0))
    assert m.sheet.game.hand_points == [105, 0] and m.sheet.game.boxes == [1, 0]
    # hand 2: opponents switch (A-D, C-B); both tables won by the team B+D / A+C
    assert [p.players for p in m.next_deals()] == list(partnership_pairings(2))
    m.new_hand(gin_deck(), 1)  # A-D: D (seat 1) deals, A is the non-dealer and wins 105
    m.new_hand(gin_deck(), 0)  # C-B: C (seat 0) deals, B is the non-dealer and wins 105
    for i in (2, 3):
        for a in WIN_ACTIONS:
            m.apply(a, i)
    assert m.winner_of(2) == 0 and m.winner_of(3) == 1
    assert m.sheet.game.hands[-1].kind == "tie"  # a net tie scores nothing
    assert m.sheet.game.hand_points == [105, 0] and m.sheet.game.boxes == [1, 0]
    # hand 3: A+C win both tables: the sum; 210 + 105 >= 125 ends the game
    m.new_hand(gin_deck(), 1)
    m.new_hand(gin_deck(), 1)
    for i in (4, 5):
        for a in WIN_ACTIONS:
            m.apply(a, i)
    assert m.is_over and m.sheet.game.hand_points == [315, 0]
    f = m.sheet.final()
    assert f.winner == 0 and f.shutout and f.boxes == (2, 0)
    with pytest.raises(IllegalActionError):
        m.new_hand(gin_deck(), 0)


def test_4P_the_pair_cuts_for_the_deal() -> None:
    m = Game(Rules.preset("partnership"), 0, "partnership")
    with pytest.raises(IllegalActionError, match="cuts"):
        m.new_hand(gin_deck())
    m.new_hand(gin_deck(), 1)
    assert m.seatings[0].dealer == 1 and m.deals[0].dealer == 1
    m.new_hand(gin_deck(), 0)
    assert m.seatings[1].dealer == 2


# ------------------------------------------------------------------------ coherence of the menu
MENU_TOGGLES: dict[str, list[Any]] = {
    "oklahoma": [False, True],
    "knock_limit": [0, 7, 10],
    "oklahoma_ace": ["gin_only", "one"],
    "oklahoma_spade_double": [True, False],
    "big_gin_bonus": [None, 31],
    "next_dealer": ["winner", "loser", "alternate"],
    "extra_boxes": [False, True],
    "box_bonus": [0, 25],
}


def test_every_combination_the_menu_allows_is_coherent() -> None:
    """Whatever is clicked, the values the menu sends (:func:`constrain`) make valid rules
    that the table's scoring accepts."""
    names = list(MENU_TOGGLES)
    count = 0
    for preset, scoring in itertools.product(PRESETS, SCORINGS):
        base = PRESETS[preset].to_dict()
        for combo in itertools.product(*MENU_TOGGLES.values()):
            values, off = constrain({**base, **dict(zip(names, combo, strict=True))}, scoring)
            rules = Rules.from_dict({"preset": preset, **values})
            check_table(rules, scoring)
            assert set(SCORING_FIXED[scoring]) <= off
            assert set(inactive_fields(rules, scoring)) <= off | {"oklahoma"}
            count += 1
    assert count == len(PRESETS) * len(SCORINGS) * 576


@pytest.mark.parametrize(("preset", "fields", "scoring", "words"), [
    ("oklahoma", {"knock_limit": 0}, "standard", "cannot be combined with straight gin"),
    ("oklahoma", {"knock_limit": 7}, "standard", "leave knock_limit at 10"),
    ("straight", {"oklahoma": True}, "standard", "cannot be combined with straight gin"),
    ("standard", {"oklahoma_ace": "one"}, "standard", "oklahoma_ace"),
    ("standard", {"oklahoma_spade_double": False}, "hollywood", "oklahoma_spade_double"),
    ("eaai", {}, "three_player", "the loser of a hand deals the next (3P)"),
    ("partnership", {"next_dealer": "loser"}, "partnership", "cuts for the deal (4P)"),
    ("partnership", {"extra_boxes": True}, "partnership", "one box per hand"),
    ("standard", {}, "duplicate", "unknown scoring"),
])
def test_incoherent_combinations_are_refused_with_a_clear_error(
        preset: str, fields: dict[str, Any], scoring: str, words: str) -> None:
    with pytest.raises(RulesError, match=words.replace("(", r"\(").replace(")", r"\)")):
        check_table(Rules.preset(preset, **fields), scoring)


def test_inactive_fields() -> None:
    assert inactive_fields(OKLA) == ("knock_limit",)
    assert "undercut_bonus" in inactive_fields(Rules.preset("straight"))
    assert inactive_fields(Rules.preset("eaai")) == ("boxes_count_toward_target", "extra_boxes",
                                                     "oklahoma_ace", "oklahoma_spade_double")
    assert set(inactive_fields(Rules.preset("partnership"), "partnership")) >= {
        "next_dealer", "extra_boxes"}
    assert set(FIELD_REQUIRES) <= set(Rules.__dataclass_fields__)


# --------------------------------------------------------------------------- page fixtures
def test_js_fixtures_are_current() -> None:
    """tests/js/*.json are server answers the page's unit tests read."""
    from ginrummy.web.api.meta import menu_meta, rules_fields

    js = Path(__file__).parent / "js"
    meta = menu_meta()
    meta["fields"] = [{"name": f["name"]} for f in rules_fields()]
    assert json.loads((js / "menu_meta.json").read_text()) == json.loads(json.dumps(meta))
    h5 = [("A", 18), ("B", 12), ("A", 25), ("B", 30), ("A", 15), ("A", 22), ("B", 20),
          ("A", 25), ("B", 40)]
    fx = {
        "hollywood_h5": score_sheet({"rules": "pagat", "scoring": "hollywood",
                                     "players": ["A", "B"],
                                     "hands": [{"winner": w, "points": p} for w, p in h5]
                                     + [{"dead": True}]}),
        "partnership": score_sheet({"rules": "partnership", "scoring": "partnership",
                                    "players": ["A", "B", "C", "D"], "hands": [
                                        {"tables": [{"winner": "A", "points": 30},
                                                    {"winner": "D", "points": 10}]},
                                        {"tables": [{"winner": "D", "points": 25},
                                                    {"dead": True}]}]}),
        "three": score_sheet({"scoring": "three_player", "players": ["A", "B", "C"],
                              "first_dealer": "C", "rules": {"preset": "standard", "target": 50},
                              "hands": [{"winner": "A", "points": 20}, {"dead": True},
                                        {"winner": "C", "points": 10},
                                        {"winner": "C", "points": 45}]}),
    }
    assert json.loads((js / "sheet_fixtures.json").read_text()) == json.loads(json.dumps(fx))
