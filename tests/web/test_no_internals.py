"""No answer names Python's internals or trusts the client's Host (issue 21 items 5 and 6): a
refused score-keeper hand says which part was wrong in words (no validator's repr with a memory
address), and an address with a slash too many is a JSON 404, never a redirect built from the
``Host`` header."""

from __future__ import annotations

import re
from typing import Any

import pytest
from fastapi.testclient import TestClient

INTERNALS = re.compile(r"0x[0-9a-f]{6,}|<function|functools|function-after|Traceback")

#: refused hands: every form the keeper's cards take, too long, of the wrong type, nested
BAD_HANDS: list[Any] = [
    {"melds": [["7H"] * 12]}, {"melds": ["x" * 200]}, {"knocker_cards": "x" * 200},
    {"deadwood": 7}, {"defender": [7]}, {"melds": [{"a": 1}]}, {"melds": [[]] * 5},
    {"tables": [{"melds": [["7H"] * 12]}, {"deadwood": None}]}, {"upcard": "x" * 20},
    {"points": -1}, {"kind": "slam"}, {"winner": 3},
]


@pytest.mark.parametrize("hand", BAD_HANDS)
def test_a_refused_hand_names_no_internals(client: TestClient, hand: Any) -> None:
    s = client.post("/api/sheets", json={"players": ["Ana", "Budi"]}).json()
    r = client.post(f"/api/sheets/{s['sheet_id']}/hands", json={"hand": hand},
                    headers={"Authorization": f"Bearer {s['token']}"})
    assert r.status_code == 422, r.text
    assert not INTERNALS.search(r.text), r.text[:600]
    body = r.json()
    for e in body["detail"]:
        assert all(isinstance(p, int) or re.fullmatch(r"[A-Za-z0-9_]+", p) for p in e["loc"]), e
    assert "hand" in body["message"] and not INTERNALS.search(body["message"])


def test_the_cards_form_is_named(client: TestClient) -> None:
    s = client.post("/api/sheets", json={"players": ["Ana", "Budi"]}).json()
    r = client.post(f"/api/sheets/{s['sheet_id']}/hands",
                    json={"hand": {"knocker_cards": "x" * 200}},
                    headers={"Authorization": f"Bearer {s['token']}"})
    assert r.json()["detail"][0]["loc"] == ["body", "hand", "knocker_cards", "text"]
    assert r.json()["reason"]["params"]["fields"] == ["hand.knocker_cards.text"]


@pytest.mark.parametrize("path", ["/api/games/", "/api/sheets/", "/api/meta/", "/api/stats/",
                                  "/api/invites/"])
def test_a_slash_too_many_is_a_json_404_not_a_redirect(client: TestClient, path: str) -> None:
    r = client.get(path, headers={"Host": "evil.example"}, follow_redirects=False)
    assert r.status_code == 404, (r.status_code, r.headers.get("location"))
    assert "location" not in r.headers
    assert r.headers["content-type"].startswith("application/json")
    assert r.json()["detail"]["code"] == "not_found"
    r = client.post(path, json={}, headers={"Host": "evil.example"}, follow_redirects=False)
    assert r.status_code in (404, 405) and "location" not in r.headers


def test_a_page_with_a_slash_too_many_is_the_not_found_page(client: TestClient) -> None:
    r = client.get("/rules/", headers={"Host": "evil.example"}, follow_redirects=False)
    assert r.status_code == 404 and "location" not in r.headers
    assert r.headers["content-type"].startswith("text/html") and "evil.example" not in r.text
    assert client.get("/rules").status_code == 200
