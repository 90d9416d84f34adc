"""``ginrummy.fairness.replay_check`` on whole tables of every form (issue 19): engine-made
records (:class:`ginrummy.records.GameRecord`) and records in the published shape of
``GET /api/games/{id}/record`` built from engine games, replayed with the engine's
:class:`~ginrummy.game.Game`: seating, dealer rotation, cuts, commitments, results, the sheet;
tampering reported precisely, bad input never a crash. tests/web/test_verify_cli.py does the
same with records served by the web app."""

from __future__ import annotations

import copy
import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ginrummy.bots import make_bot
from ginrummy.bots.play import play_game
from ginrummy.cards import card_text
from ginrummy.fairness import FORMAT, commitment_of, replay_check, standing
from ginrummy.game import Game
from ginrummy.records import GameRecord
from ginrummy.rules import Rules
from ginrummy.variants import PLAYER_COUNT

FORMS = [("standard", "standard"), ("hollywood", "pagat"), ("three_player", "standard"),
         ("partnership", "partnership")]


def played(scoring: str, preset: str, seed: int, *, target: int | None = None,
           deals: int | None = None) -> Game:
    """A game of ``simple`` computers, to its end (or its first ``deals`` deals)."""
    rules = Rules.preset(preset) if target is None else Rules.preset(preset, target=target)
    n = PLAYER_COUNT[scoring]
    g = Game(rules, seed % n if scoring != "partnership" else 0, scoring)
    rng = random.Random(f"decks:{seed}")
    play_game(g, [make_bot("simple") for _ in range(n)],
              [random.Random(f"{seed}:{p}") for p in range(n)],
              lambda i: rng.sample(range(52), 52),
              max_deals=deals or 400)
    return g


def published(game: Game) -> dict[str, Any]:
    """``game``'s record in the shape the web serves (docs/fairness.md): every finished deal
    with deck, salt, commitment, actions and result; the deals in play in ``current``."""
    hands, current = [], []
    for i, h in enumerate(game.deals):
        s = game.seatings[i]
        salt = f"{i:032x}"
        deck = [card_text(c) for c in h.deck]
        base: dict[str, Any] = {"number": s.number, "dealer": h.dealer,
                                "commitment": commitment_of(salt, deck)}
        if game.scoring != "standard":
            base.update({"hand": s.hand, "table": s.table, "players": list(s.players)})
        if not h.is_over:
            current.append(base)
            continue
        o = h.outcome
        assert o is not None
        hands.append({**base, "deck": deck, "salt": salt,
                      "actions": [e.action.text for e in h.history],
                      "result": {"kind": o.kind, "winner": o.winner, "points": o.points,
                                 "winner_player": game.winner_of(i)}})
    out: dict[str, Any] = {"format": FORMAT, "game_id": "x", "rules": game.rules.to_dict(),
                           "first_dealer": game.first_dealer, "hands": hands,
                           "current": current or None}
    if game.scoring != "standard":
        out["scoring"] = game.scoring
    elif current:
        out["current"] = current[0]
    return out


def _scored_later(g: Game) -> bool:
    """A deal after the first has a winner (a dealer rotated after a scored hand)."""
    return any(g.winner_of(i) is not None for i in range(1, len(g.deals)))


@pytest.fixture(scope="module")
def games() -> dict[str, Game]:
    """A game of each form, over, with three deals or more and a scored deal after the
    first (the seed is searched for, so that no test depends on the luck of a deal)."""
    out = {}
    for scoring, preset in FORMS:
        for seed in range(5, 40):
            g = played(scoring, preset, seed)
            if g.is_over and len(g.deals) >= 3 and _scored_later(g):
                out[scoring] = g
                break
        else:
            pytest.fail(f"no {scoring} game of three deals or more in 35 seeds")
    return out


def _problems(report: Any) -> str:
    return "\n".join(report.lines())


# ------------------------------------------------------------------------------ accepted
@pytest.mark.parametrize(("scoring", "preset"), FORMS)
def test_every_form_replays_as_a_table_from_its_engine_record(
        games: dict[str, Game], scoring: str, preset: str) -> None:
    g = games[scoring]
    assert g.is_over
    report = replay_check(GameRecord.of(g).to_json())
    assert report.ok, _problems(report)
    assert report.scoring == scoring and len(report.deals) == len(g.deals)
    # who played, who dealt and who sat out each deal: the game's own seating
    assert [d.seating for d in report.deals] == g.seatings
    assert [d.sat_out for d in report.deals] == [g.sitting_out(i) for i in range(len(g.deals))]
    assert [d.winner for d in report.deals] == [g.winner_of(i) for i in range(len(g.deals))]
    sheet = report.sheet
    assert sheet is not None and sheet["complete"] and sheet["over"]
    assert sheet["totals"] == list(g.sheet.totals()) and sheet["winners"] == list(g.winners())
    assert sheet["margin"] == g.margin() and sheet["scoring"] == scoring
    assert str(report).splitlines()[-1] == sheet["text"]
    assert "over: " in sheet["text"]
    assert sheet == standing(g) | {"complete": True}


@pytest.mark.parametrize(("scoring", "preset"), FORMS)
def test_every_form_verifies_in_the_published_shape(games: dict[str, Game], scoring: str,
                                                     preset: str) -> None:
    g = games[scoring]
    rec = published(g)
    report = replay_check(rec)
    assert report.ok, _problems(report)
    assert all(d.commitment_ok for d in report.deals)
    lines = report.lines()
    assert len(lines) == len(g.deals)
    if scoring == "three_player":
        for line, s in zip(lines, g.seatings, strict=True):
            a, b = s.players
            assert f"(players {a} and {b}; player {s.dealer} dealt and sat out)" in line
    if scoring == "partnership":
        for line, s in zip(lines, g.seatings, strict=True):
            assert f"(hand {s.hand}, table {s.table}: players {s.players[0]} and " \
                   f"{s.players[1]}; player {s.dealer} dealt)" in line
    # the totals and winners a record may carry are checked against the replayed sheet
    rec["totals"], rec["winners"] = list(g.sheet.totals()), list(g.winners())
    assert replay_check(rec).ok
    rec["totals"] = [t + 1 for t in rec["totals"]]
    bad = replay_check(rec)
    assert not bad.ok
    assert f"recorded totals {rec['totals']!r}, the replayed sheet gives " \
           f"{list(g.sheet.totals())!r}" in bad.problems


@pytest.mark.parametrize(("scoring", "preset"), FORMS)
def test_a_table_in_play_verifies_and_its_deals_in_play_are_checked(scoring: str,
                                                                    preset: str) -> None:
    g = played(scoring, preset, 8, target=500, deals=4)
    # stop in the middle of a deal: play a few actions of the deals of the next hand
    for p in g.next_deals():
        g.new_hand(random.Random(len(g.deals)).sample(range(52), 52),
                   0 if p.dealer is None else None)
    live = g.in_play()
    assert live
    g.apply(g.deals[live[0]].legal_actions()[0], live[0])
    assert not g.is_over and g.in_play()
    rec = published(g)
    report = replay_check(rec)
    assert report.ok, _problems(report)
    assert report.sheet is not None and report.sheet["text"].endswith("; in play")
    assert report.sheet["hands"] == (len(g.deals) - len(live)) // g.sheet.deals_per_hand
    # a deal in play dealt by the wrong seat, or seated wrongly
    current = rec["current"] if isinstance(rec["current"], list) else [rec["current"]]
    c = current[0]
    if scoring == "partnership":
        c["dealer"] = 2
        want = f"deal {c['number']} in play: the pair of players"
    else:
        c["dealer"] = 1 - c["dealer"]
        want = f"deal {c['number']} in play: dealt by seat {c['dealer']}"
    bad = replay_check(rec)
    assert not bad.ok and any(p.startswith(want) for p in bad.problems), bad.problems
    if scoring in ("three_player", "partnership"):
        rec = published(g)
        cur = rec["current"][0]
        cur["players"] = cur["players"][::-1]
        bad = replay_check(rec)
        assert any(p.startswith(f"deal {cur['number']} in play: seated players")
                   for p in bad.problems), bad.problems


def test_partnership_other_table_over_while_the_first_is_in_play() -> None:
    """People at both tables: table 1's deal may end while table 0's is in play. The record
    then lists table 1's deal alone; it is replayed on its own, seated as the hand's table 1."""
    g = played("partnership", "partnership", 9, target=500, deals=2)
    rng = random.Random(3)
    g.new_hand(rng.sample(range(52), 52), 1)
    g.new_hand(rng.sample(range(52), 52), 0)
    first, second = len(g.deals) - 2, len(g.deals) - 1
    g.apply(g.deals[first].legal_actions()[0], first)
    h = g.deals[second]
    moves = 0
    while not h.is_over:
        legal = h.legal_actions()
        ends = [a for a in legal if a.kind.value in ("knock", "gin", "big_gin")]
        g.apply(ends[0] if ends else rng.choice(legal), second)
        moves += 1
        assert moves < 3000
    rec = published(g)
    assert [c["table"] for c in rec["current"]] == [0] and rec["hands"][-1]["table"] == 1
    report = replay_check(rec)
    assert report.ok, _problems(report)
    last = report.deals[-1]
    assert last.seating == g.seatings[second] and last.winner == g.winner_of(second)
    assert last.sat_out == g.sitting_out(second)
    rec["hands"][-1]["players"] = rec["hands"][-1]["players"][::-1]
    bad = replay_check(rec)
    assert "seated players" in bad.lines()[-1] and not bad.ok


# ------------------------------------------------------------------------------ tampered
def _first_scored(rec: dict[str, Any], scoring: str) -> int:
    """The index of a deal with a winner (after the first: a later deal tests the rotation)."""
    return next(i for i, h in enumerate(rec["hands"]) if i > 0 and
                h["result"]["winner"] is not None)


@pytest.mark.parametrize(("scoring", "preset"), FORMS)
def test_a_tampered_dealer_is_named(games: dict[str, Game], scoring: str, preset: str) -> None:
    rec = published(games[scoring])
    k = _first_scored(rec, scoring)
    h = rec["hands"][k]
    true = h["dealer"]
    h["dealer"] = 1 - true
    report = replay_check(rec)
    assert not report.ok
    line = report.lines()[k]
    assert line.startswith(f"hand {k + 1}")
    if scoring == "partnership":
        # the pair's cut is the record's own: dealt from the other seat, the same actions give
        # the other seat the result
        assert f"recorded winner {h['result']['winner']}, replay gives " \
               f"{1 - h['result']['winner']}" in line
        h["dealer"] = 2
        report = replay_check(rec)
        assert "cuts for the deal (R-2.1): the record must name the dealer, seat 0 or 1 of " \
               "the pair, not 2" in report.lines()[k]
        assert "not replayed: an earlier hand failed" in report.lines()[k + 1]
        assert report.sheet is not None and not report.sheet["complete"]
    elif scoring == "three_player":
        assert f"dealt by seat {1 - true}, but player {report.deals[k].seating.dealer} " \
               "deals this hand and sits out" in line
    else:
        assert f"dealt by seat {1 - true}, but the rules make seat {true} the dealer " \
               "(R-9.1, R-9.2)" in line
    # the other deals are fine
    assert all(d.ok for j, d in enumerate(report.deals) if j < k)


@pytest.mark.parametrize("scoring", ["three_player", "partnership"])
def test_a_swapped_seating_is_named(games: dict[str, Game], scoring: str) -> None:
    rec = published(games[scoring])
    k = 1
    a, b = rec["hands"][k]["players"]
    rec["hands"][k]["players"] = [b, a]
    report = replay_check(rec)
    assert not report.ok
    assert f"seated players [{b}, {a}], but the rules seat [{a}, {b}]" in report.lines()[k]
    assert [d.ok for d in report.deals].count(False) == 1
    if scoring == "three_player":
        # who sits out: a player who sat out recorded at the table
        rec = published(games[scoring])
        s = report.deals[k].seating
        assert s is not None
        rec["hands"][k]["players"] = [s.dealer, b]
        bad = replay_check(rec)
        assert f"player {s.dealer} deals and sits out" in bad.lines()[k]
    else:
        # the two tables of a hand exchanged
        rec = published(games[scoring])
        one, two = rec["hands"][0], rec["hands"][1]
        one["players"], two["players"] = two["players"], one["players"]
        bad = replay_check(rec)
        assert "hand 1's tables are players [0, 1] and [2, 3] (4P)" in bad.lines()[0]
        assert "hand 1's tables are players [0, 1] and [2, 3] (4P)" in bad.lines()[1]


@pytest.mark.parametrize(("scoring", "preset"), FORMS)
def test_a_wrong_winner_is_named(games: dict[str, Game], scoring: str, preset: str) -> None:
    rec = published(games[scoring])
    k = _first_scored(rec, scoring)
    res = rec["hands"][k]["result"]
    true = res["winner_player"]
    others = [p for p in range(PLAYER_COUNT[scoring]) if p != true]
    res["winner_player"] = others[-1]
    report = replay_check(rec)
    assert not report.ok
    assert f"recorded winner_player {others[-1]}, replay gives {true}" in report.lines()[k]
    res["winner_player"] = true
    res["winner"] = 1 - res["winner"]
    res["points"] += 1
    line = replay_check(rec).lines()[k]
    assert f"recorded winner {res['winner']}, replay gives {1 - res['winner']}" in line
    assert f"recorded points {res['points']}, replay gives {res['points'] - 1}" in line


@pytest.mark.parametrize(("scoring", "preset"), FORMS)
def test_dropped_added_and_reordered_deals(games: dict[str, Game], scoring: str,
                                          preset: str) -> None:
    g = games[scoring]
    rec = published(g)
    # a deal after the end of the game
    extra = copy.deepcopy(rec["hands"][-1])
    extra["number"] = len(rec["hands"]) + 1
    rec["hands"].append(extra)
    report = replay_check(rec)
    assert f"dealt after the end of the game (it ended with deal {len(g.deals)})" \
           in report.lines()[-1]
    # a deal dropped: the next one is numbered wrongly
    rec = published(g)
    del rec["hands"][1]
    assert "numbered 3, but it is deal 2 of the game" in replay_check(rec).lines()[1]
    # an unfinished deal followed by the next hand (engine record)
    er = GameRecord.of(g).to_json()
    er["hands"][0]["actions"] = er["hands"][0]["actions"][:3]
    bad = replay_check(er)
    assert "the hand did not end" in bad.lines()[0]
    nxt = 2 if scoring == "partnership" else 1
    assert "dealt while deal 1 was still in play" in bad.lines()[nxt]


def test_the_order_of_play_of_an_engine_record_is_checked(games: dict[str, Game]) -> None:
    g = games["partnership"]
    rec = GameRecord.of(g).to_json()
    assert rec["order"] and replay_check(rec).ok
    order = rec["order"]
    # an action of hand 2 (deal index 2) before hand 1 is over
    i = order.index(2)
    rec["order"] = [2, *order[:i], *order[i + 1:]]
    bad = replay_check(rec)
    assert not bad.ok
    assert any(p.startswith("the recorded order of play does not replay") for p in bad.problems)


def test_an_illegal_action_is_named_by_number_and_text(games: dict[str, Game]) -> None:
    rec = published(games["three_player"])
    acts = rec["hands"][1]["actions"]
    acts[2] = "discard " + rec["hands"][1]["deck"][0]  # a card the mover does not hold
    report = replay_check(rec)
    line = report.lines()[1]
    assert f"replay failed: action 3 ({acts[2]!r}) is not legal" in line
    assert "not replayed: an earlier hand failed" in report.lines()[2]


@pytest.mark.parametrize(("record", "words"), [
    ({"scoring": "four_hands", "rules": {}, "first_dealer": 0, "hands": []},
     "unknown scoring 'four_hands'"),
    ({"scoring": "three_player", "rules": {"preset": "standard"}, "first_dealer": 3,
      "hands": []}, "first_dealer must be a player 0..2, not 3"),
    ({"scoring": "three_player", "rules": {"preset": "eaai"}, "first_dealer": 0,
      "hands": []}, "next_dealer is decided by a three-player table itself"),
])
def test_a_table_that_cannot_start_is_malformed(record: dict[str, Any], words: str) -> None:
    report = replay_check(record)
    assert report.malformed and not report.ok
    assert words in report.problems[0]


# ---------------------------------------------------------------------------- never crash
_JUNK = st.one_of(st.none(), st.booleans(), st.integers(-3, 60), st.text(max_size=4),
                  st.lists(st.integers(0, 3), max_size=3), st.dictionaries(st.text(max_size=3),
                                                                            st.integers(),
                                                                            max_size=2))


@settings(max_examples=100, deadline=None)
@given(form=st.sampled_from(FORMS), data=st.data())
def test_any_damage_to_a_record_is_reported_never_raised(
        games: dict[str, Game], form: tuple[str, str], data: st.DataObject) -> None:
    rec = published(games[form[0]])
    for _ in range(data.draw(st.integers(1, 3))):
        k = data.draw(st.integers(0, len(rec["hands"]) - 1))
        h = rec["hands"][k]
        key = data.draw(st.sampled_from([*sorted(h), "result.winner", "top.first_dealer",
                                         "top.scoring", "top.current", "top.totals"]))
        value = data.draw(_JUNK)
        if key.startswith("top."):
            rec[key[4:]] = value
        elif key == "result.winner":
            if isinstance(h.get("result"), dict):
                h["result"]["winner"] = value
        elif data.draw(st.booleans()):
            del h[key]
        else:
            h[key] = value
    report = replay_check(rec)  # never raises
    assert isinstance(str(report), str)
    report.to_json()
