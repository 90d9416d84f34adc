"""A new table's target is capped (issue 14 item 3): at most 1,000 points (every preset, RULES.md
section 10 table, is 100 to 150), for a new game and a new score sheet; the menu's range says
so. Rules stored earlier with a higher target still load (their games and records stay)."""

from __future__ import annotations

import pytest
from fastapi.testclient import TestClient

from ginrummy.rules import NEW_TARGET_MAX, PRESETS, Rules


def test_presets_fit_under_the_cap() -> None:
    assert NEW_TARGET_MAX == 1000
    assert all(r.target <= NEW_TARGET_MAX for r in PRESETS.values())


@pytest.mark.parametrize("scoring", ["standard", "hollywood", "three_player", "partnership"])
def test_new_game_target_capped(client: TestClient, scoring: str) -> None:
    r = client.post("/api/games", json={"scoring": scoring, "rules": {"target": 1001}})
    assert r.status_code == 422 and r.json()["detail"]["code"] == "rules", r.text
    assert r.json()["detail"]["reason"] == {"code": "target_cap",
                                            "params": {"max": 1000, "value": 1001}}
    assert "1,000" in r.json()["detail"]["message"]
    r = client.post("/api/games", json={"scoring": scoring, "rules": {"target": 100_000}})
    assert r.status_code == 422
    assert client.post("/api/games", json={"scoring": scoring,
                                           "rules": {"target": 1000}}).status_code == 201


def test_new_sheet_target_capped(client: TestClient) -> None:
    r = client.post("/api/sheets", json={"players": ["A", "B"], "rules": {"target": 5000}})
    assert r.status_code == 422 and r.json()["detail"]["code"] == "rules", r.text
    assert client.post("/api/sheets", json={"players": ["A", "B"],
                                            "rules": {"target": 1000}}).status_code == 201


def test_the_menu_range_is_the_cap(client: TestClient) -> None:
    (f,) = [f for f in client.get("/api/meta").json()["fields"] if f["name"] == "target"]
    assert (f["min"], f["max"]) == (1, NEW_TARGET_MAX)


def test_rules_stored_with_a_higher_target_still_load() -> None:
    assert Rules.from_dict({"preset": "standard", "target": 5000}).target == 5000
