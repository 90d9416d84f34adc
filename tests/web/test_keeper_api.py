"""The score keeper on the web: ``/keeper`` and ``/api/sheets`` (docs/variants.md)."""

from __future__ import annotations

import csv
import io
from typing import Any

import pytest
from fastapi.testclient import TestClient

H5 = [("A", 18), ("B", 12), ("A", 25), ("B", 30), ("A", 15), ("A", 22), ("B", 20), ("A", 25),
      ("B", 40)]


class Sheet:
    def __init__(self, client: TestClient, body: dict[str, Any]) -> None:
        r = client.post("/api/sheets", json=body)
        assert r.status_code == 201, r.text
        d = r.json()
        self.client = client
        self.id = d["sheet_id"]
        self.h = {"Authorization": f"Bearer {d['token']}"}
        self.data = d

    def add(self, hand: dict[str, Any], status: int = 200) -> dict[str, Any]:
        r = self.client.post(f"/api/sheets/{self.id}/hands", json={"hand": hand},
                             headers=self.h)
        assert r.status_code == status, r.text
        if status == 200:
            self.data = r.json()
        return r.json()


def test_hollywood_match_H_5_then_csv(client: TestClient) -> None:
    s = Sheet(client, {"scoring": "hollywood", "preset": "pagat", "players": ["A", "B"]})
    assert s.data["sheet"]["hands"] == [] and not s.data["sheet"]["over"]
    for w, p in H5[:8]:
        s.add({"winner": w, "points": p})
    g1, g2, g3 = s.data["sheet"]["games"]
    assert g1["closed_after"] == 8 and g1["totals"] == {"A": 305, "B": 122}  # RULES.md H-5
    assert g2["columns"] == {"A": 87, "B": 50} and g3["columns"] == {"A": 62, "B": 20}
    s.add({"winner": "B", "points": 40})
    assert s.data["sheet"]["hands"][8]["games"] == [2, 3]
    r = client.get(f"/api/sheets/{s.id}.csv", headers=s.h)
    assert r.status_code == 200 and r.headers["content-type"].startswith("text/csv")
    assert "attachment" in r.headers["content-disposition"]
    rows = list(csv.reader(io.StringIO(r.text.lstrip("\ufeff"))))
    assert rows[0] == ["scoring", "hollywood"] and ["9", "B", "knock", "40", "2 3"] in rows
    assert ["totals", "305", "122"] in rows
    # resumes
    again = client.get(f"/api/sheets/{s.id}", headers=s.h).json()
    assert again["sheet"] == s.data["sheet"] and again["seq"] == 9


def test_hand_entries_counts_cards_undercut_dead_and_undo(client: TestClient) -> None:
    s = Sheet(client, {"preset": "standard", "rules": {"target": 300},
                       "players": ["Ana", "Budi"], "first_dealer": "Ana"})
    # deadwood counts (T-12: a tie is an undercut)
    s.add({"knocker": "Ana", "result": "knock", "knocker_deadwood": 5, "defender_deadwood": 5})
    assert s.data["sheet"]["hands"][-1] == {"number": 1, "winner": "Budi", "points": 25,
                                            "kind": "undercut",
                                            "running": {"Ana": 0, "Budi": 25}}
    # shown cards with optimal layoffs (T-5), the knocker's spread found by the engine
    s.add({"knocker": "Ana", "result": "undercut",
           "knocker_cards": "3S 4S 5S 9H 9D 9C JD QD KD 4H",
           "defender": "6S 7S QC QH QS 4C 5C 6C AC 2D"})
    assert s.data["sheet"]["hands"][-1]["points"] == 26
    # gin (T-10)
    s.add({"knocker": "Budi", "result": "gin", "knocker_cards": "7C 7D 7H 7S JS QS KS 2D 3D 4D",
           "defender": "AS TS 9S AD 5D 6D 8C 8D 8H 3C"})
    assert s.data["sheet"]["hands"][-1]["points"] == 60
    s.add({"dead": True})
    assert s.data["sheet"]["hands"][-1]["kind"] == "dead"
    # an undercut that is not one, a knock over the limit: refused, naming the hand
    bad = s.add({"knocker": "Ana", "result": "undercut", "knocker_deadwood": 3,
                 "defender_deadwood": 20}, 422)
    assert bad["detail"]["code"] == "sheet"
    assert bad["detail"]["reason"] == {"code": "not_undercut", "params": {"hand": 5}}
    assert bad["detail"]["message"].startswith("Hand 5: Not an undercut")
    bad = s.add({"knocker": "Ana", "knocker_deadwood": 12, "defender_deadwood": 20}, 422)
    assert bad["detail"]["reason"] == {"code": "over_knock_limit",
                                       "params": {"hand": 5, "deadwood": 12, "limit": 10}}
    assert "over the knock limit of 10" in bad["detail"]["message"]
    assert len(s.data["sheet"]["hands"]) == 4
    r = client.delete(f"/api/sheets/{s.id}/hands/last", headers=s.h)
    assert r.status_code == 200 and len(r.json()["sheet"]["hands"]) == 3


def test_oklahoma_needs_the_upcard_and_doubles_spades(client: TestClient) -> None:
    s = Sheet(client, {"preset": "oklahoma", "players": ["A", "B"]})
    bad = s.add({"knocker": "A", "knocker_deadwood": 5, "defender_deadwood": 20}, 422)
    assert bad["detail"]["reason"] == {"code": "sheet_upcard", "params": {"hand": 1}}
    assert "upcard" in bad["detail"]["message"]
    bad = s.add({"knocker": "A", "knocker_deadwood": 5, "defender_deadwood": 20,
                 "upcard": "3H"}, 422)
    assert bad["detail"]["reason"]["params"] == {"hand": 1, "deadwood": 5, "limit": 3}  # O-1
    assert "over the knock limit of 3" in bad["detail"]["message"]
    s.add({"knocker": "A", "knocker_deadwood": 5, "defender_deadwood": 17, "upcard": "QS"})
    assert s.data["sheet"]["hands"][-1]["points"] == 24  # T-25: 12 doubled (O-4)
    bad = s.add({"knocker": "A", "knocker_deadwood": 1, "defender_deadwood": 17,
                 "upcard": "AC"}, 422)
    assert "gin only" in bad["detail"]["message"]  # O-2
    s.add({"knocker": "A", "result": "gin", "knocker_deadwood": 0, "defender_deadwood": 10,
           "upcard": "AC"})


def test_three_players_and_partnership(client: TestClient) -> None:
    s = Sheet(client, {"scoring": "three_player", "players": ["A", "B", "C"],
                       "first_dealer": "C"})
    assert s.data["sheet"]["next"] == {"dealer": "C", "players": ["A", "B"]}
    s.add({"winner": "A", "points": 20})
    assert s.data["sheet"]["next"] == {"dealer": "B", "players": ["A", "C"]}  # 3P
    bad = s.add({"winner": "B", "points": 5}, 422)
    assert "did not play" in bad["detail"]["message"]
    p = Sheet(client, {"scoring": "partnership", "preset": "partnership",
                       "players": ["A", "B", "C", "D"]})
    assert p.data["sheet"]["next"] == {"tables": [["A", "B"], ["C", "D"]]}
    p.add({"tables": [{"winner": "A", "points": 30}, {"winner": "D", "points": 10}]})
    row = p.data["sheet"]["hands"][0]
    assert row["team"] == "A+C" and row["running"] == {"A+C": 20, "B+D": 0}
    assert p.data["sheet"]["next"] == {"tables": [["A", "D"], ["C", "B"]]}  # 4P
    r = client.get(f"/api/sheets/{p.id}.csv", headers=p.h)
    assert "A-B" in r.text and "A+C" in r.text


@pytest.mark.parametrize(("body", "code", "reason", "words"), [
    ({"scoring": "poker", "players": ["A", "B"]}, "sheet", "unknown_scoring", "scoring"),
    ({"players": ["A", "B", "C"]}, "sheet", "sheet_players", "Give 2 different names"),
    ({"preset": "nope", "players": ["A", "B"]}, "rules", "unknown_preset", "no rules called"),
    ({"scoring": "three_player", "preset": "eaai", "rules": {"next_dealer": "loser"},
      "players": ["A", "B", "C"]}, "rules", "scoring_fixed",
     "Three players decides “Next dealer” itself"),
    ({"preset": "straight", "rules": {"oklahoma": True}, "players": ["A", "B"]}, "rules",
     "oklahoma_straight", "straight gin"),
    ({"players": ["A", "A"]}, "sheet", "sheet_players", "names"),
])
def test_bad_sheets(client: TestClient, body: dict[str, Any], code: str, reason: str,
                    words: str) -> None:
    r = client.post("/api/sheets", json=body)
    assert r.status_code == 422, r.text
    detail = r.json()["detail"]
    assert detail["code"] == code and detail["reason"]["code"] == reason
    assert words in detail["message"]


def test_sheets_are_owned(client: TestClient) -> None:
    s = Sheet(client, {"players": ["A", "B"]})
    for url in (f"/api/sheets/{s.id}", f"/api/sheets/{s.id}.csv"):
        assert client.get(url).status_code == 404
        assert client.get(url, headers={"Authorization": "Bearer x" * 3}).status_code == 404
    r = client.post(f"/api/sheets/{s.id}/hands", json={"hand": {"dead": True}})
    assert r.status_code == 404
    r = client.post(f"/api/sheets/{s.id}/hands", json={"hand": {"dead": True}, "seq": 5},
                    headers=s.h)
    assert r.status_code == 409 and r.json()["detail"]["code"] == "stale"


@pytest.mark.parametrize("lang", ["en", "id", "ms", "jv"])
def test_keeper_page_in_every_language(client: TestClient, lang: str) -> None:
    r = client.get(f"/keeper?lang={lang}")
    assert r.status_code == 200 and f'lang="{lang}"' in r.text
    assert "/static/keeper.js" in r.text
