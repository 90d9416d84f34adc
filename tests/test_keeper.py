"""Score keeper for games played with real cards (issue: variants, score keeper)."""

from typing import Any

import pytest

from ginrummy.keeper import SheetInputError, score_sheet


def test_T_23_pagat_standard_sheet():
    out = score_sheet({"rules": "pagat", "players": ["A", "B"], "hands": [
        {"winner": "A", "points": 30}, {"winner": "A", "points": 25},
        {"winner": "B", "points": 12}, {"winner": "A", "points": 50}]})
    assert out["over"] and out["totals"] == {"A": 265, "B": 32}
    assert [h["running"]["A"] for h in out["hands"]] == [30, 55, 55, 105]


@pytest.mark.parametrize("rules,total", [
    ({"preset": "pagat"}, 365),
    ({"preset": "standard", "shutout": "double_hand_points"}, 385),
    ({"preset": "standard", "shutout": "double_total"}, 560),
])
def test_T_24_shutouts(rules, total):
    out = score_sheet({"rules": rules, "players": ["A", "B"], "hands": [
        {"winner": "A", "points": p} for p in (40, 35, 30)]})
    assert out["totals"]["A"] == total and out["games"][0]["shutout"]


def test_shown_cards_are_scored_with_optimal_layoffs_T_5():
    out = score_sheet({"rules": "standard", "players": ["K", "D"], "hands": [{
        "knocker": "K", "melds": [["3S", "4S", "5S"], ["9H", "9D", "9C"], ["JD", "QD", "KD"]],
        "deadwood": ["4H"], "defender": "6S 7S QC QH QS 4C 5C 6C AC 2D".split()}]})
    h = out["hands"][0]
    assert (h["winner"], h["points"], h["kind"]) == ("D", 26, "undercut")


def test_deadwood_counts_and_tie_is_undercut_T_12():
    for rules, pts in (("standard", 25), ("pagat", 10)):
        out = score_sheet({"rules": rules, "players": ["A", "B"], "hands": [
            {"knocker": "A", "knocker_deadwood": 5, "defender_deadwood": 5}]})
        assert out["hands"][0]["winner"] == "B" and out["hands"][0]["points"] == pts


@pytest.mark.parametrize("sheet,message", [
    ({"players": ["A"]}, "players"),
    ({"players": ["A", "B"], "hands": [{"winner": "C", "points": 3}]}, "hand 1: winner"),
    ({"players": ["A", "B"], "hands": [{"dead": True}, {"winner": "A", "points": -3}]},
     "hand 2: points"),
    ({"players": ["A", "B"], "hands": [{"knocker": "A", "knocker_deadwood": 12,
                                        "defender_deadwood": 30}]}, "over the knock limit"),
    ({"players": ["A", "B"], "hands": [{"knocker": "A", "melds": [["AS", "2S", "4S"]],
                                        "deadwood": [], "defender": []}]}, "hand 1: not a meld"),
    ({"scoring": "three_player", "players": ["A", "B", "C"], "first_dealer": "C",
      "hands": [{"winner": "C", "points": 5}]}, "did not play"),
    ({"scoring": "partnership", "players": ["A", "B", "C", "D"],
      "hands": [{"tables": [{"winner": "C", "points": 5}, {"dead": True}]}]},
     "hand 1 table 1"),
    ({"rules": {"preset": "nope"}, "players": ["A", "B"]}, "rules"),
    ({"scoring": "poker", "players": ["A", "B"]}, "scoring"),
])
def test_bad_input_names_hand_and_field(sheet, message):
    with pytest.raises(SheetInputError, match=message):
        score_sheet(sheet)


def test_hollywood_sheet_H_5():
    wins = [("A", 18), ("B", 12), ("A", 25), ("B", 30), ("A", 15), ("A", 22), ("B", 20),
            ("A", 25), ("B", 40)]
    out = score_sheet({"rules": "pagat", "scoring": "hollywood", "players": ["A", "B"],
                       "hands": [{"winner": w, "points": p} for w, p in wins]})
    g1, g2, g3 = out["games"]
    assert g1["closed_after"] == 8 and g1["totals"] == {"A": 305, "B": 122}
    assert g2["columns"] == {"A": 87, "B": 90} and g3["columns"] == {"A": 62, "B": 60}
    assert out["hands"][8]["games"] == [2, 3] and not out["over"]


def test_sheet_command_json_and_bad_input():
    import json as _json
    import subprocess
    import sys

    sheet = {"rules": "pagat", "scoring": "hollywood", "players": ["A", "B"],
             "hands": [{"winner": "A", "points": 60}, {"winner": "A", "points": 50}]}
    cmd = [sys.executable, "-m", "ginrummy.cli", "sheet", "--json", "-"]
    r = subprocess.run(cmd, input=_json.dumps(sheet), capture_output=True, text=True, check=False)
    assert r.returncode == 0, r.stderr
    out = _json.loads(r.stdout)
    assert out["games"][0]["closed_after"] == 2 and out["games"][0]["shutout"]
    bad = {"players": ["A", "B"], "hands": [{"dead": True}, {"winner": "A"}]}
    r = subprocess.run(cmd, input=_json.dumps(bad), capture_output=True, text=True, check=False)
    assert r.returncode == 2 and r.stderr.strip() == (
        "error: hand 2: points: must be a whole number from 0 to 100000, got None")
    assert "Traceback" not in r.stderr


def test_scoring_a_sheet_again_reuses_each_hands_resolution(monkeypatch: Any) -> None:
    """Each new hand re-scores the whole sheet: a hand given by its cards (the defender's
    layoffs searched) is worked out once, not at every later hand (issue 14 item 1: a long
    sheet of card hands cost ~1 ms of CPU per hand per request)."""
    import ginrummy.keeper as keeper

    calls = []
    real = keeper.score_showdown
    monkeypatch.setattr(keeper, "score_showdown",
                        lambda *a, **k: calls.append(1) or real(*a, **k))
    clear = getattr(keeper, "resolve_hand_cache_clear", lambda: None)
    clear()
    hand = {"knocker": "Ana", "melds": [["3S", "4S", "5S"], "9H 9D 9C", "JD QD KD"],
            "deadwood": ["AH"], "defender": "6S 7S QC QH QS 4C 5C 6C 2C 2D"}
    data: dict[str, Any] = {"rules": {"preset": "standard", "target": 1000},
                            "players": ["Ana", "Budi"], "hands": []}
    outs = []
    for _ in range(30):
        data["hands"].append(dict(hand))
        outs.append(keeper.score_sheet(data))
    assert len(calls) == 30  # once per hand, not 1 + 2 + ... + 30
    clear()
    assert keeper.score_sheet(data) == outs[-1]  # the same answer worked out afresh
    assert len(calls) == 60
