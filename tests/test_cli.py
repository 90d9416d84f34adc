"""The `ginrummy` command line: analyze and score through Typer's CliRunner, plus a few runs of the
installed script in a real subprocess. T-x ids are the cases of RULES.md section 11."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

import ginrummy
from ginrummy import cli

runner = CliRunner()


def run(*args: str, input: str | bytes | None = None, env: dict[str, str] | None = None) -> Any:
    return runner.invoke(cli.app, list(args), input=input, env=env)


def ok_json(*args: str, input: str | None = None) -> Any:
    r = run(*args, input=input)
    assert r.exit_code == 0, (r.stdout, r.stderr)
    assert r.stderr == ""
    return json.loads(r.stdout)


def assert_bad_input(r: Any, message: str, *, stdout_empty: bool = True) -> None:
    """Exit status 2, one line 'error: ...' on stderr naming the problem, never a traceback."""
    assert r.exit_code == 2, (r.stdout, r.stderr)
    lines = r.stderr.splitlines()
    assert len(lines) == 1, r.stderr
    assert lines[0].startswith("error: "), r.stderr
    assert message in lines[0], lines[0]
    assert "Traceback" not in r.output
    assert not isinstance(r.exception, Exception) or isinstance(r.exception, SystemExit)
    if stdout_empty:
        assert r.stdout == ""


def score_json(data: Any, *args: str) -> Any:
    return ok_json("score", "--json", *args, "-", input=json.dumps(data))


def score_bad(data: Any, message: str, *args: str) -> None:
    text = data if isinstance(data, str) else json.dumps(data)
    assert_bad_input(run("score", "--json", *args, "-", input=text), message)


def meldset(melds: list[list[str]]) -> set[tuple[str, ...]]:
    return {tuple(m) for m in melds}


# knocker spreads and defenders of RULES.md section 11
T5_KNOCKER = {"melds": [["3S", "4S", "5S"], ["9H", "9D", "9C"], ["JD", "QD", "KD"]],
              "deadwood": ["4H"]}
T5_DEFENDER = ["6S", "7S", "QC", "QH", "QS", "4C", "5C", "6C", "AC", "2D"]
T10_GIN = {"melds": [["7C", "7D", "7H", "7S"], ["JS", "QS", "KS"], ["2D", "3D", "4D"]],
           "deadwood": []}


# ---------------------------------------------------------------------------------------------
# analyze


def test_t1_no_meld_deadwood_52() -> None:
    res = ok_json("analyze", "--json", "AS", "2C", "9D", "TH", "JS", "QC", "KD")
    assert res["melds"] == []
    assert res["deadwood_points"] == 52
    assert sorted(res["deadwood"]) == sorted(["AS", "2C", "9D", "TH", "JS", "QC", "KD"])
    assert set(res) == {"cards", "melds", "deadwood", "deadwood_points"}


def test_t3a_exact_not_longest_first() -> None:
    res = ok_json("analyze", "--json", "4H 5H 6H 7H 7S 7D 9C 9S 9D AC")
    assert meldset(res["melds"]) == {("4H", "5H", "6H"), ("7S", "7H", "7D"), ("9S", "9D", "9C")}
    assert res["deadwood"] == ["AC"]
    assert res["deadwood_points"] == 1


@pytest.mark.parametrize(("hand", "melds", "points"), [
    ("3C 4C 5C 6C 3D 3H 6H 3S 4S 5S",
     {("3H", "3D", "3C"), ("4C", "5C", "6C"), ("3S", "4S", "5S")}, 6),          # T-3b
    ("9C TC JC 8D 9D TD JD 7H JH JS",
     {("JS", "JH", "JD"), ("9C", "TC", "JC"), ("8D", "9D", "TD")}, 7),          # T-3c
])
def test_t3b_t3c(hand: str, melds: set[tuple[str, ...]], points: int) -> None:
    res = ok_json("analyze", "--json", hand)
    assert meldset(res["melds"]) == melds
    assert res["deadwood_points"] == points


def test_card_syntax_variants() -> None:
    res = ok_json("analyze", "--json", "7h,8H", "9♥", "10S,", "jS", "qs")
    assert res["cards"] == ["TS", "JS", "QS", "7H", "8H", "9H"]
    assert res["melds"] == [["TS", "JS", "QS"], ["7H", "8H", "9H"]]
    assert res["deadwood_points"] == 0


def test_t4_eleven_cards_discard_5s_is_gin() -> None:
    res = ok_json("analyze", "--json", "3C 4C 5C 2D 3D 4D 5D 2H 3H 4H 5S")
    assert set(res) >= {"cards", "discards", "deadwood_points", "can_knock", "can_gin", "big_gin"}
    best = res["discards"][0]
    assert best["discard"] == "5S"
    assert best["deadwood_points"] == 0 and best["deadwood"] == []
    assert meldset(best["melds"]) == {("3C", "4C", "5C"), ("2D", "3D", "4D", "5D"),
                                     ("2H", "3H", "4H")}
    assert res["deadwood_points"] == 0
    assert res["can_gin"] is True and res["can_knock"] is True and res["big_gin"] is False
    assert len(res["discards"]) == 11
    pts = [d["deadwood_points"] for d in res["discards"]]
    assert pts == sorted(pts)


def test_t4b_knock_with_exactly_ten() -> None:
    hand = "AS 2S 3S 8C 8D 8H 5H 6H 7H JC QC"
    res = ok_json("analyze", "--json", hand)
    assert res["discards"][0]["discard"] == "JC"
    assert res["deadwood_points"] == 10
    assert res["can_knock"] is True and res["can_gin"] is False
    assert ok_json("analyze", "--json", "--rules", "straight", hand)["can_knock"] is False


def test_taken_card_may_not_be_discarded() -> None:
    res = ok_json("analyze", "--json", "--taken", "5s", "3C 4C 5C 2D 3D 4D 5D 2H 3H 4H 5S")
    assert [d["discard"] for d in res["discards"]].count("5S") == 0
    assert len(res["discards"]) == 10
    assert res["deadwood_points"] == 2 and res["can_gin"] is False


def test_big_gin_flag() -> None:
    """R-5.3: big gin is declared only where it is played (big_gin_bonus set)."""
    hand = "3S 4S 5S 9H 9D 9C 9S TD JD QD KD"
    res = ok_json("analyze", "--json", hand)  # standard: big gin off
    assert res["big_gin"] is False and res["all_melded"] is True and res["can_gin"] is True
    res = ok_json("analyze", "--json", "--big-gin", hand)
    assert res["big_gin"] is True and res["can_gin"] is True
    r = run("analyze", hand)
    assert "do not play big gin" in r.output


def test_t25_oklahoma_upcard_sets_knock_limit() -> None:
    hand = "AS 2S 3S 8C 8D 8H 5H 6H 7H JC QC"  # deadwood 10 after the best discard
    res = ok_json("analyze", "--json", "--rules", "oklahoma", "--upcard", "7D", hand)
    assert res["knock_limit"] == 7 and res["can_knock"] is False
    res = ok_json("analyze", "--json", "--rules", "oklahoma", "--upcard", "KD", hand)
    assert res["knock_limit"] == 10 and res["can_knock"] is True
    res = ok_json("analyze", "--json", "--rules", "oklahoma", "--upcard", "AC",
                  "3C 4C 5C 2D 3D 4D 5D 2H 3H 4H 5S")
    assert res["knock_limit"] == 0 and res["can_knock"] is False and res["can_gin"] is True
    # without --upcard the limit is taken as 10 (documented in --help)
    assert ok_json("analyze", "--json", "--rules", "oklahoma", hand)["knock_limit"] == 10
    assert "without --upcard" in run("analyze", "--help").stdout


def test_analyze_readable_plain_when_not_a_terminal() -> None:
    r = run("analyze", "AS 2S 3S 8C 8D 8H 5H 6H 7H JC QC")
    assert r.exit_code == 0
    assert "discard JC" in r.stdout and "knock:" in r.stdout
    assert "\x1b[" not in r.stdout and "╭" not in r.stdout and "━" not in r.stdout
    r = run("analyze", "4H 5H 6H 7H 7S 7D 9C 9S 9D AC")
    assert "deadwood:  AC (1 point)" in r.stdout


def test_analyze_readable_rich_on_a_terminal() -> None:
    r = run("analyze", "AS 2S 3S 8C 8D 8H 5H 6H 7H JC QC", env={"TTY_COMPATIBLE": "1"})
    assert r.exit_code == 0
    assert "╭" in r.stdout and "JC" in r.stdout


# ---------------------------------------------------------------------------------------------
# analyze -: one hand per stdin line


def test_stdin_json_lines_with_a_bad_line() -> None:
    lines = [
        "4H 5H 6H 7H 7S 7D 9C 9S 9D AC",      # 1: T-3a
        "",                                   # 2: skipped
        "AS 2S 3S 8C 8D 8H 5H 6H 7H JC QC",   # 3: T-4b
        "7H XZ",                              # 4: bad card
        "# a comment line",                   # 5: skipped
        "AS 2C 9D TH JS QC KD  # T-1",        # 6
        "AS 2S 3S 4S 5S 6S 7S 8S 9S TS JS QS",  # 7: 12 cards
    ]
    r = run("analyze", "--json", "-", input="\n".join(lines) + "\n")
    assert r.exit_code == 2
    out = [json.loads(x) for x in r.stdout.splitlines()]
    assert len(out) == 5
    assert out[0]["deadwood_points"] == 1
    assert out[1]["discards"][0]["discard"] == "JC" and out[1]["can_knock"] is True
    assert out[2] == {"line": 4, "error": "not a card: 'XZ' (unknown rank 'X')"}
    assert out[3]["deadwood_points"] == 52
    assert out[4] == {"line": 7, "error": "expected 1 to 11 cards, got 12"}
    assert_bad_input(r, "error: line 4: not a card: 'XZ'", stdout_empty=False)
    assert "line 4" in r.stderr and "7" in r.stderr


def test_stdin_all_good_exit_0_and_invalid_utf8() -> None:
    r = run("analyze", "--json", "-", input="\ufeff7C 7D 7H\nAS\n")
    assert r.exit_code == 0, r.stderr
    assert len(r.stdout.splitlines()) == 2
    r = run("analyze", "--json", "-", input=b"\xff\xfe 7H\n7C 7D 7H\n")
    assert json.loads(r.stdout.splitlines()[0]) == {"line": 1, "error": "not valid UTF-8 text"}
    assert_bad_input(r, "line 1", stdout_empty=False)


def test_stdin_readable_mode() -> None:
    r = run("analyze", "-", input="7C 7D 7H\nQQ\n")
    assert r.exit_code == 2
    assert "line 1" in r.stdout and "line 2: error: not a card: 'QQ'" in r.stdout
    assert_bad_input(r, "line 2", stdout_empty=False)


def test_dash_must_be_alone() -> None:
    assert_bad_input(run("analyze", "7H", "-"), "'-'")


# ---------------------------------------------------------------------------------------------
# score


def test_t5_layoff_chain_undercut_std_and_pagat(tmp_path: Path) -> None:
    data = {"knocker": T5_KNOCKER, "defender": T5_DEFENDER}
    res = score_json(data)
    assert res["result"] == "undercut" and res["winner"] == "defender"
    assert res["points"] == 26
    assert res["knocker_deadwood_points"] == 4
    assert res["layoffs"] == [{"card": "6S", "onto": ["3S", "4S", "5S"]},
                              {"card": "7S", "onto": ["3S", "4S", "5S"]}]
    assert meldset(res["defender_melds"]) == {("QS", "QH", "QC"), ("4C", "5C", "6C")}
    assert sorted(res["defender_deadwood"]) == ["2D", "AC"]
    assert res["defender_deadwood_points"] == 3
    assert res["breakdown"] == [{"code": "knocker_deadwood", "points": 4},
                                {"code": "defender_deadwood", "points": -3},
                                {"code": "undercut_bonus", "points": 25}]
    assert sum(b["points"] for b in res["breakdown"]) == res["points"]
    # pagat: by --rules, or by the input's "rules"; and from a file
    assert score_json(data, "--rules", "pagat")["points"] == 11
    assert score_json({**data, "rules": "pagat"})["points"] == 11
    assert score_json({**data, "rules": {"preset": "pagat"}}, "--rules", "pagat")["points"] == 11
    f = tmp_path / "t5.json"
    f.write_text(json.dumps({**data, "rules": "pagat"}))
    assert ok_json("score", "--json", str(f))["points"] == 11


def test_t6_card_fitting_two_melds() -> None:
    res = score_json({
        "knocker": {"melds": [["8C", "8D", "8S"], ["5H", "6H", "7H"], ["2C", "3C", "4C"]],
                    "deadwood": ["3D"]},
        "defender": "8H 9H QS QD QH 4D 5D 6D AS AH"})
    assert sorted(lo["card"] for lo in res["layoffs"]) == ["8H", "9H"]
    assert all(lo["onto"] == ["5H", "6H", "7H"] for lo in res["layoffs"])
    assert res["defender_deadwood_points"] == 2
    assert (res["result"], res["winner"], res["points"]) == ("undercut", "defender", 26)


def test_t9_layoff_chain_onto_jqk() -> None:
    res = score_json({
        "knocker": {"melds": [["AS", "AC", "AD"], ["JS", "QS", "KS"], ["TC", "TD", "TH"]],
                    "deadwood": ["2H"]},
        "defender": "4S 5S 9S TS 4C 5C 4D 5D 4H 5H"})
    assert res["layoffs"] == [{"card": "TS", "onto": ["JS", "QS", "KS"]},
                              {"card": "9S", "onto": ["JS", "QS", "KS"]}]
    assert res["defender_deadwood_points"] == 0
    assert (res["result"], res["points"]) == ("undercut", 27)


def test_t10_gin_no_layoffs() -> None:
    res = score_json({"knocker": T10_GIN, "defender": "AS TS 9S AD 5D 6D 8C 8D 8H 3C"})
    assert res["result"] == "gin" and res["winner"] == "knocker"
    assert res["layoffs"] == []
    assert res["defender_deadwood_points"] == 35
    assert res["points"] == 60
    assert res["breakdown"] == [{"code": "defender_deadwood", "points": 35},
                                {"code": "gin_bonus", "points": 25}]


def test_t11_gin_cannot_be_undercut() -> None:
    res = score_json({"knocker": T10_GIN, "defender": "AS 2S 3S 4H 5H 6H 9S 9H 9D 9C"})
    assert res["defender_deadwood_points"] == 0
    assert (res["result"], res["winner"], res["points"]) == ("gin", "knocker", 25)


def test_t12_tie_undercut_or_nothing() -> None:
    data = {"knocker": {"melds": T5_KNOCKER["melds"], "deadwood": ["5H"]},
            "defender": "6C 7C 8C TS TH TC 2H 3H 4H 5D"}
    res = score_json(data, "--rules", "pagat")
    assert (res["result"], res["winner"], res["points"]) == ("undercut", "defender", 10)
    res = score_json({**data, "rules": {"undercut_on_tie": False}})
    assert (res["result"], res["winner"], res["points"]) == ("tie", None, 0)


def test_t25_oklahoma_spade_upcard_doubles() -> None:
    data = {"knocker": T5_KNOCKER, "defender": "QC QH QS 4C 5C 6C AC 2D 8H 5D",
            "rules": "oklahoma", "upcard": "QS"}
    res = score_json(data)
    assert (res["result"], res["points"]) == ("knock", 24)
    assert res["breakdown"][-1] == {"code": "spade_double", "points": 12}
    score_bad({**data, "upcard": "3H"}, "may not knock")   # limit 3 < deadwood 4
    score_bad({**data, "upcard": "AH"}, "gin only")
    score_bad({k: v for k, v in data.items() if k != "upcard"}, '"upcard"')


def test_big_gin_and_plain_knocker_list() -> None:
    big = {"knocker": {"melds": [["3S", "4S", "5S"], ["9H", "9D", "9C", "9S"],
                                 ["TD", "JD", "QD", "KD"]], "deadwood": []},
           "defender": "6S 7S 8C QH QS 4C 5C 6C AC 2D", "big_gin": True,
           "rules": {"big_gin_bonus": 31}}
    res = score_json(big)
    assert (res["result"], res["points"]) == ("big_gin", 44 + 31)
    score_bad({**big, "rules": "standard"}, "big gin is not played")
    score_bad({**big, "big_gin": False}, "the knocker shows 11 cards; expected 10")
    # a plain card list: the default spread is shown
    res = score_json({"knocker": "3S 4S 5S 9H 9D 9C JD QD KD 4H", "defender": T5_DEFENDER})
    assert res["points"] == 26 and res["knocker_deadwood"] == ["4H"]



BIG_GIN_KNOCKER = {"melds": [["3S", "4S", "5S"], ["9H", "9D", "9C", "9S"],
                             ["TD", "JD", "QD", "KD"]], "deadwood": []}
BIG_GIN_DEFENDER = "6S 7S 8C QH QS 4C 5C 6C AC 2D"


@pytest.mark.parametrize("rules", [{"big_gin_bonus": 31}, {"preset": "pagat", "big_gin_bonus": 50}])
def test_big_gin_without_the_flag(rules: dict[str, Any]) -> None:
    """R-5.3: 11 melded cards shown under rules that play big gin can only be a big gin, so the
    "big_gin" key is not needed; the result equals the one with the flag."""
    data = {"knocker": BIG_GIN_KNOCKER, "defender": BIG_GIN_DEFENDER, "rules": rules}
    res = score_json(data)
    bonus = rules["big_gin_bonus"]
    assert (res["result"], res["winner"], res["points"]) == ("big_gin", "knocker", 44 + bonus)
    assert res["breakdown"][-1] == {"code": "big_gin_bonus", "points": bonus}
    assert res == score_json({**data, "big_gin": True})
    # a plain list of 11 cards: the default spread melds all of them
    plain = {**data, "knocker": "3S 4S 5S 9H 9D 9C 9S TD JD QD KD"}
    assert score_json(plain)["result"] == "big_gin"
    # 10 cards stay a knock or gin as before
    ten = {**data, "knocker": "3S 4S 5S 9H 9D 9C TD JD QD KD"}
    assert score_json(ten)["result"] == "gin"


def test_big_gin_without_the_flag_errors() -> None:
    """R-5.3: 11 cards with deadwood are neither a knock nor a big gin; rules without big gin
    refuse 11 cards and say how to play it; an explicit false still means 10 cards."""
    rules = {"big_gin_bonus": 31}
    data = {"knocker": BIG_GIN_KNOCKER, "defender": BIG_GIN_DEFENDER}
    score_bad(data, "the knocker shows 11 cards; expected 10 (11 melded cards are a big gin, "
                    'which these rules do not play: set "rules": {"big_gin_bonus": 31})')
    score_bad({**data, "rules": "oklahoma", "upcard": "KH"}, "which these rules do not play")
    score_bad({**data, "rules": rules, "knocker": "3S 4S 5S 9H 9D 9C 9S TD JD QD 2H"},
              "not big gin: the knocker's deadwood is 2 (a knock shows 10 cards, big gin 11 "
              "melded cards)")
    score_bad({**data, "rules": rules, "knocker": {"melds": BIG_GIN_KNOCKER["melds"][:2],
                                                   "deadwood": []}},
              "the knocker shows 7 cards; expected 10, or 11 for big gin")
    score_bad({**data, "rules": rules, "big_gin": False},
              'the knocker shows 11 cards; expected 10 ("big_gin" is false)')
    score_bad({**data, "rules": rules, "big_gin": True, "knocker": "3S 4S 5S 9H 9D 9C TD JD QD KD"},
              "the knocker shows 10 cards; expected 11 for big gin")


def test_score_readable_plain_and_rich(tmp_path: Path) -> None:
    f = tmp_path / "t5.json"
    f.write_text(json.dumps({"knocker": T5_KNOCKER, "defender": T5_DEFENDER}))
    r = run("score", str(f))
    assert r.exit_code == 0
    assert "undercut: the defender scores 26" in r.stdout
    assert "6S onto 3S 4S 5S" in r.stdout and "\x1b[" not in r.stdout
    r = run("score", str(f), env={"TTY_COMPATIBLE": "1"})
    assert r.exit_code == 0 and "╭" in r.stdout


# ---------------------------------------------------------------------------------------------
# bad input: exit 2, one line on stderr, no traceback


@pytest.mark.parametrize(("args", "message"), [
    (["XZ", "7H"], "error: not a card: 'XZ' (unknown rank 'X')"),
    (["7X"], "not a card: '7X' (unknown suit 'X')"),
    (["7"], "not a card: '7'"),
    (["7H", "8H", "7h"], "duplicate card: 7H"),
    (["AS 2S 3S 4S 5S 6S 7S 8S 9S TS JS QS"], "expected 1 to 11 cards, got 12"),
    ([], "expected 1 to 11 cards, got 0"),
    (["--rules", "fancy", "7H"], "unknown rules preset 'fancy'"),
    (["--upcard", "7D", "7H"], "--upcard only applies to oklahoma"),
    (["--rules", "oklahoma", "--upcard", "1D", "7H"], "--upcard: not a card: '1D'"),
    (["--taken", "7C", "7H"], "--taken only applies to an 11-card hand"),
    (["--taken", "7C", "3C 4C 5C 2D 3D 4D 5D 2H 3H 4H 5S"], "--taken 7C is not in the hand"),
    (["--jsn", "7H"], "No such option: --jsn"),
])
def test_analyze_bad_input(args: list[str], message: str) -> None:
    assert_bad_input(run("analyze", "--json", *args), message)


def test_score_bad_input_cards() -> None:
    base = {"knocker": T5_KNOCKER, "defender": T5_DEFENDER}
    kn = T5_KNOCKER["melds"]
    score_bad({**base, "defender": T5_DEFENDER[:-1] + ["XZ"]}, "defender: not a card: 'XZ'")
    score_bad({**base, "defender": T5_DEFENDER[:-1] + ["6S"]}, "defender: duplicate card: 6S")
    score_bad({**base, "knocker": {"melds": kn, "deadwood": ["4H", "4H"]}},
              "knocker: duplicate card: 4H")
    score_bad({**base, "knocker": {"melds": [["3S", "4S", "6S"], *kn[1:]], "deadwood": ["4H"]}},
              "not a meld: 3S 4S 6S")
    score_bad({**base, "knocker": {"melds": [["QS", "KS", "AS"], *kn[1:]], "deadwood": ["4H"]}},
              "not a meld")
    score_bad({**base, "knocker": {"melds": kn[1:], "deadwood": ["4H", "3S", "4S", "5S"]}},
              "may not knock: the knocker's deadwood 16 is over the knock limit 10")
    score_bad({**base, "rules": "straight"}, "may not knock: straight gin")
    score_bad({**base, "knocker": {"melds": kn, "deadwood": []}},
              "the knocker shows 9 cards; expected 10")
    score_bad({**base, "defender": T5_DEFENDER + ["9S"]},
              "the defender holds 11 cards; expected 10")
    score_bad({**base, "defender": T5_DEFENDER[:-1] + ["4H"]}, "a card is in both hands: 4H")
    score_bad({**base, "knocker": {"melds": [[], *kn], "deadwood": ["4H"]}}, "meld 1 is empty")


def test_score_bad_input_json_and_rules() -> None:
    base = {"knocker": T5_KNOCKER, "defender": T5_DEFENDER}
    score_bad('{"knocker": ', "malformed JSON in stdin: Expecting value (line 1, column 13)")
    score_bad("", "malformed JSON in stdin")
    score_bad("[1, 2]", "the input must be a JSON object")
    score_bad({"defender": T5_DEFENDER}, "missing 'knocker'")
    score_bad({**base, "extra": 1}, "unknown key 'extra'")
    score_bad({**base, "knocker": 5}, '"knocker" must be an object')
    score_bad({**base, "big_gin": "yes"}, '"big_gin" must be true or false')
    score_bad({**base, "rules": "fancy"}, "unknown rules preset 'fancy'")
    score_bad({**base, "rules": {"knock_lmit": 3}}, "unknown rules field 'knock_lmit'")
    score_bad({**base, "rules": {"gin_bonus": "x"}}, "gin_bonus must be a whole number")
    score_bad({**base, "rules": ["pagat"]}, '"rules" must be a preset name or an object')
    score_bad(base, "unknown rules preset 'fancy'", "--rules", "fancy")
    score_bad({**base, "rules": "pagat"}, "--rules standard conflicts", "--rules", "standard")


def test_score_bad_input_files(tmp_path: Path) -> None:
    assert_bad_input(run("score", "--json", str(tmp_path / "nope.json")),
                     f"cannot read '{tmp_path / 'nope.json'}': No such file or directory")
    assert_bad_input(run("score", "--json", str(tmp_path)), "cannot read")
    assert_bad_input(run("score", "--json"), "missing FILE")
    bad = tmp_path / "bad.json"
    bad.write_bytes(b"\xff\xfe{}")
    assert_bad_input(run("score", str(bad)), "is not UTF-8 text")


# ---------------------------------------------------------------------------------------------
# the app: version, help, lazy commands


def test_version_and_bare_command() -> None:
    r = run("--version")
    assert r.exit_code == 0 and r.stdout.strip() == f"ginrummy {ginrummy.__version__}"
    r = run()
    assert r.exit_code == 0 and "analyze" in r.stdout and "score" in r.stdout


def test_unknown_command_is_one_line() -> None:
    assert_bad_input(run("analyse", "7H"), "No such command 'analyse'")


@pytest.fixture
def probe_module(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> str:
    name = "ginrummy_cli_probe_mod"
    (tmp_path / f"{name}.py").write_text(textwrap.dedent('''\
        """Probe command for the tests.

        More text that is not the short help."""
        import typer

        app = typer.Typer()


        @app.command()
        def probe(n: int = 1) -> None:
            typer.echo(f"probe {n}")


        def plain(word: str) -> None:
            """A plain function."""
            typer.echo(word.upper())
        '''))
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.delitem(sys.modules, name, raising=False)
    monkeypatch.setitem(cli._LAZY, "probe", cli.LazyCommand("probe", f"{name}:app"))
    monkeypatch.setitem(cli._LAZY, "shout", cli.LazyCommand("shout", f"{name}:plain", "Shout."))
    monkeypatch.setitem(cli._LAZY, "ghost", cli.LazyCommand("ghost", "no_such_module_xyz:app"))
    return name


def test_lazy_command_listed_without_import_then_runs(probe_module: str) -> None:
    r = run("--help")
    assert r.exit_code == 0
    assert "probe" in r.stdout and "Probe command for the tests." in r.stdout
    assert "shout" in r.stdout and "ghost" not in r.stdout
    assert probe_module not in sys.modules  # listing did not import it
    r = run("probe", "--n", "3")
    assert r.exit_code == 0 and r.stdout == "probe 3\n"
    r = run("shout", "hi")
    assert r.exit_code == 0 and r.stdout == "HI\n"
    assert_bad_input(run("ghost"), "No such command 'ghost'")


def test_planned_commands_are_registered_lazily() -> None:
    assert {"serve", "tournament", "verify", "sheet", "review"} <= set(cli._LAZY)
    assert all(lz.module.startswith("ginrummy.cli.") for lz in cli._LAZY.values())


# ---------------------------------------------------------------------------------------------
# the installed script, in a real subprocess


def _script() -> str:
    path = Path(sys.executable).parent / "ginrummy"
    if not path.exists():  # pragma: no cover
        pytest.skip("the ginrummy script is not installed next to this Python")
    return str(path)


def _proc(*args: str, input: str | None = None) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if k not in ("TTY_COMPATIBLE", "FORCE_COLOR")}
    return subprocess.run([_script(), *args], input=input, capture_output=True, text=True,
                          timeout=60, env=env)


def test_script_version_and_analyze() -> None:
    p = _proc("--version")
    assert p.returncode == 0 and p.stdout.strip() == f"ginrummy {ginrummy.__version__}"
    p = _proc("analyze", "--json", "4h", "5h", "6♥", "7H", "7S", "7D", "9C", "9S", "9D", "AC")
    assert p.returncode == 0, p.stderr
    assert json.loads(p.stdout)["deadwood_points"] == 1


def test_script_stdin_lines_and_errors() -> None:
    p = _proc("analyze", "--json", "-", input="7C 7D 7H\n7C 7C\nAS 2C 9D TH JS QC KD\n")
    assert p.returncode == 2
    out = [json.loads(x) for x in p.stdout.splitlines()]
    assert out[1] == {"line": 2, "error": "duplicate card: 7C"} and out[2]["deadwood_points"] == 52
    assert p.stderr == "error: line 2: duplicate card: 7C\n"
    p = _proc("score", "--json", "/nonexistent/showdown.json")
    assert p.returncode == 2
    assert p.stderr == ("error: cannot read '/nonexistent/showdown.json': "
                        "No such file or directory\n")
    p = _proc("score", "--json", "-", input='{"knocker": [}')
    assert p.returncode == 2 and p.stderr.startswith("error: malformed JSON")
    assert p.stderr.count("\n") == 1 and "Traceback" not in p.stderr


def test_script_score_t10_from_stdin() -> None:
    data = {"knocker": T10_GIN, "defender": "AS TS 9S AD 5D 6D 8C 8D 8H 3C"}
    p = _proc("score", "--json", "-", input=json.dumps(data))
    assert p.returncode == 0, p.stderr
    assert json.loads(p.stdout)["points"] == 60


def test_help_does_not_import_the_web_stack() -> None:
    code = ("import sys\nfrom ginrummy.cli import main\n"
            "try:\n    main(['--help'])\nexcept SystemExit as e:\n    assert e.code == 0\n"
            "heavy = [m for m in ('fastapi', 'uvicorn', 'starlette', 'sqlalchemy') "
            "if m in sys.modules]\nprint(heavy, file=sys.stderr)\n")
    p = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert p.returncode == 0, p.stderr
    assert p.stderr.strip() == "[]"
    assert "analyze" in p.stdout


def test_internal_error_is_one_line_without_traceback(monkeypatch: pytest.MonkeyPatch) -> None:
    import ginrummy.cli.analyze

    def boom(*_: object, **__: object) -> None:
        raise RuntimeError("boom")

    monkeypatch.setattr(ginrummy.cli.analyze, "analyze_hand", boom)
    monkeypatch.delenv("GINRUMMY_DEBUG", raising=False)
    r = run("analyze", "7H")
    assert r.exit_code == 1
    assert r.stderr.splitlines() == [
        "error: internal error: RuntimeError: boom (set GINRUMMY_DEBUG=1 for the traceback)"]
    assert "Traceback" not in r.output
