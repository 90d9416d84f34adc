"""The tournament runner: every form, the players rotated over the seats on the same decks
(seat-swapped pairs for two players), reproducible, the promised JSON fields."""

from __future__ import annotations

import json

import pytest

from ginrummy.errors import RulesError
from ginrummy.game import Game
from ginrummy.rules import Rules
from ginrummy.tournament import (
    Lineup,
    format_table,
    play_one,
    play_pair_game,
    run_tournament,
    table_rules,
    wilson,
)

FIELDS = {"win_rate", "ci_low", "ci_high", "games", "decision_ms_p50", "decision_ms_p99",
          "points_per_hand", "finish", "a_undercut_rate", "wins_a", "wins_b", "hands"}


def test_wilson() -> None:
    lo, hi = wilson(75, 100)
    assert 0.65 < lo < 0.75 < hi < 0.83
    assert wilson(0, 0) == (0.0, 1.0)
    assert wilson(10, 10)[1] == 1.0


def test_pairs_swap_seats_on_the_same_deals() -> None:
    rules = Rules.preset("eaai")
    g0 = play_pair_game("simple", "simple", rules, seed=4, pair=0, a_seat=0)
    g1 = play_pair_game("simple", "simple", rules, seed=4, pair=0, a_seat=1)
    # the same first deal: A's result in one game is B's in the other with identical players
    # only when the random choices agree, so compare the deal count and kinds loosely
    assert g0.hands and g1.hands
    assert g0.a_won is not None and g1.a_won is not None


def test_run_and_json() -> None:
    rules = Rules.preset("eaai")
    seen: list[tuple[int, int]] = []
    r = run_tournament("simple", "random", games=6, rules=rules, seed=3,
                       progress=lambda d, t: seen.append((d, t)))
    assert r.games == 6 and seen[-1] == (6, 6)
    assert r.wins_a == 6
    data = r.to_json()
    assert set(data) >= FIELDS
    json.dumps(data)
    assert set(data["finish"]) >= {"knock", "gin", "big_gin", "undercut", "dead"}
    text = format_table(r)
    assert "simple" in text and "95% CI" in text and "p99" in text


def test_reproducible_and_parallel_equal() -> None:
    rules = Rules.preset("eaai")
    a = run_tournament("medium", "simple", games=4, rules=rules, seed=9, jobs=1).to_json()
    b = run_tournament("medium", "simple", games=4, rules=rules, seed=9, jobs=2).to_json()
    for k in ("wins_a", "wins_b", "hands", "points_per_hand", "finish", "a_knocks"):
        assert a[k] == b[k]


def test_no_endless_exchange(kernel_ready: None) -> None:
    """This deal once made expert and hard trade face-up cards for ever (the game never ended):
    neither takes back its own discard now."""
    g = play_pair_game("expert", "hard", Rules.preset("eaai"), seed=2027, pair=7, a_seat=0)
    assert g.a_won is not None


# ------------------------------------------------------------------------------- every form
def test_two_player_results_are_those_of_the_earlier_runner() -> None:
    """The standard form plays the same seat-swapped pairs as the runner had before it moved to
    the one bot loop (issue 19): these figures came from that runner (main at 1669411; medium
    and simple, whose play has not changed since: hard's last-chance knock has, 09e0253)."""
    r = run_tournament("medium", "simple", games=8, rules=Rules.preset("standard"), seed=3)
    j = r.to_json()
    assert (j["wins_a"], j["wins_b"], j["hands"], j["points_per_hand"], j["a_knocks"],
            j["a_gins"], j["decisions"]) == (4, 4, 79, 0.62, 42, 1, 1020)
    assert j["finish"] == {"knock": 72, "gin": 2, "big_gin": 0, "undercut": 5, "tie": 0,
                           "dead": 0}
    assert j["scoring"] == "standard" and j["lineup"] == ["medium", "simple"]
    assert j["rotations"] == 2 and j["seats"][0]["won"] == 4 and j["seats"][1]["won"] == 4


def test_lineups_of_every_form() -> None:
    assert Lineup.of("standard", "hard", "simple").players == ("hard", "simple")
    assert Lineup.of("three_player", "hard", "simple").players == ("hard", "simple", "simple")
    assert Lineup.of("partnership", "hard", "simple").players == ("hard", "simple", "hard",
                                                                  "simple")
    assert [Lineup.of(f, "hard", "simple").rotations
            for f in ("standard", "hollywood", "three_player", "partnership")] == [2, 2, 3, 2]
    assert Lineup("partnership", ("hard", "simple", "easy", "simple")).rotations == 4
    t = Lineup.of("three_player", "hard", "simple")
    assert [t.players_at(r) for r in range(3)] == [("hard", "simple", "simple"),
                                                   ("simple", "hard", "simple"),
                                                   ("simple", "simple", "hard")]
    p = Lineup.of("partnership", "hard", "simple")
    assert p.players_at(1) == ("simple", "hard", "simple", "hard")  # the teams swapped
    assert p.side_of(2) == (0, 2) and p.b == "simple"
    with pytest.raises(ValueError, match="3 seats"):
        Lineup("three_player", ("hard", "simple"))
    with pytest.raises(ValueError, match="unknown computer player"):
        Lineup.of("partnership", "hard", "nobody")


@pytest.mark.parametrize(("scoring", "preset"), [("three_player", "standard"),
                                                 ("partnership", "partnership"),
                                                 ("hollywood", "pagat")])
def test_a_set_deals_the_same_cards_to_every_seat_with_the_players_rotated(
        scoring: str, preset: str) -> None:
    """Every game of a set starts from the same first dealer and deck (the same seat gets the
    same cards), with the lineup rotated one seat from game to game."""
    lineup = Lineup.of(scoring, "hard", "simple")
    firsts = []
    for rot in range(lineup.rotations):
        seen: dict[int, tuple[int, tuple[int, ...], tuple[str, ...]]] = {}

        def before(game: Game, i: int, slot: int, seen: dict[int, tuple] = seen) -> None:
            if i not in seen:
                h = game.deals[i]
                seen[i] = (h.dealer, tuple(h.deck), game.seatings[i].players)

        g = play_one(lineup, Rules.preset(preset), 5, 2, rot, before=before)
        assert g.winners is not None and g.rotation == rot and g.set_index == 2
        firsts.append((seen[0], lineup.players_at(rot)))
    (deal0, _), *others = firsts
    assert all(d == deal0 for d, _ in others)
    assert len({names for _, names in firsts}) == lineup.rotations


@pytest.mark.parametrize(("scoring", "preset", "games"), [("three_player", "standard", 6),
                                                          ("partnership", "partnership", 4),
                                                          ("hollywood", "standard", 4)])
def test_every_form_is_reported_per_seat_and_per_side_and_jobs_change_nothing(
        scoring: str, preset: str, games: int) -> None:
    rules = Rules.preset(preset)
    one = run_tournament("medium", "simple", games, rules, seed=7, scoring=scoring)
    two = run_tournament("medium", "simple", games, rules, seed=7, scoring=scoring, jobs=2)
    assert one.outcome_json() == two.outcome_json()
    other = run_tournament("medium", "simple", games, rules, seed=8, scoring=scoring)
    assert other.outcome_json() != one.outcome_json()
    j = one.to_json()
    json.dumps(j)
    assert j["games"] == games and j["scoring"] == scoring
    finished = games - j["unfinished"]
    seats = j["seats"]
    assert all(s["games"] == finished for s in seats)
    assert j["wins_a"] + j["wins_b"] + j["ties"] == finished
    assert j["sides"]["medium"]["won"] == j["wins_a"]
    if scoring == "partnership":  # partners win together
        assert seats[0]["won"] == seats[2]["won"] and seats[1]["won"] == seats[3]["won"]
    else:  # one winner a game
        assert sum(s["won"] for s in seats) == finished - j["ties"]
    assert sum(s["hands"] for s in seats) == 2 * j["hands"]  # two players at every deal
    assert sum(j["finish"].values()) == j["hands"]
    assert j["timing"]["medium"]["decisions"] > 0 and j["timing"]["simple"]["decisions"] > 0
    text = format_table(one)
    assert "per seat" in text and "seat 1 simple" in text and "95% CI" in text


def test_table_rules_fit_a_preset_to_the_form_and_refuse_the_partnership_preset() -> None:
    assert table_rules(None, None)[:2] == ("standard", "eaai")
    assert table_rules(None, "three_player")[:2] == ("three_player", "standard")
    form, preset, rules, fitted = table_rules("partnership", None)
    assert (form, preset, rules, fitted) == ("partnership", "partnership",
                                             Rules.preset("partnership"), {})
    form, preset, rules, fitted = table_rules("eaai", "partnership")
    assert fitted == {"next_dealer": "winner"} and rules.next_dealer == "winner"
    assert rules.game_bonus == 0  # the rest of eaai stands
    for other in ("standard", "hollywood", "three_player"):
        with pytest.raises(RulesError, match="--scoring partnership"):
            table_rules("partnership", other)
    with pytest.raises(RulesError, match="unknown form"):
        table_rules("eaai", "four_player")
    with pytest.raises(RulesError, match="next_dealer"):  # the library refuses unfitted rules
        run_tournament("simple", "random", 3, Rules.preset("eaai"), scoring="three_player")


def test_cli_plays_every_form_and_refuses_what_does_not_go_together() -> None:
    from typer.testing import CliRunner

    from ginrummy import cli

    runner = CliRunner()
    r = runner.invoke(cli.app, ["tournament", "--rules", "partnership", "--a", "simple", "--b",
                                "random", "--games", "2", "--json"])
    assert r.exit_code == 0, r.output
    out = json.loads(r.stdout.strip().splitlines()[-1])
    assert out["scoring"] == "partnership" and out["lineup"] == ["simple", "random"] * 2
    assert out["rules"] == "partnership" and out["fitted"] == {} and out["games"] == 2
    r = runner.invoke(cli.app, ["tournament", "--rules", "partnership", "--scoring",
                                "standard"])
    assert r.exit_code == 2 and "--scoring partnership" in r.stderr and r.stdout == ""
    r = runner.invoke(cli.app, ["tournament", "--scoring", "three_player", "--rules", "eaai",
                                "--a", "simple", "--b", "random", "--games", "3"])
    assert r.exit_code == 0, r.output
    assert "rules eaai (fitted)" in r.stdout and "next_dealer winner" in r.stdout
    r = runner.invoke(cli.app, ["tournament", "--scoring", "three_player", "--lineup",
                                "simple,random,easy", "--games", "3", "--json"])
    assert r.exit_code == 0, r.output
    out = json.loads(r.stdout.strip().splitlines()[-1])
    assert [s["player"] for s in out["seats"]] == ["simple", "random", "easy"]
    assert out["b"] == "random+easy" and set(out["sides"]) == {"simple", "random", "easy"}
    r = runner.invoke(cli.app, ["tournament", "--scoring", "three_player", "--lineup",
                                "simple,random"])
    assert r.exit_code == 2 and "3 seats" in r.stderr
    r = runner.invoke(cli.app, ["tournament", "--lineup", "simple,random", "--a", "hard"])
    assert r.exit_code == 2 and "without --a and --b" in r.stderr
