"""A seat follows its person to another device, and the invite to the rematch (issue 21 item
13, docs/tables.md "A seat follows its person"):

- each person's state carries their own link back to their seat (``table.rejoin``, to that
  person only); opened on another device it gives the seat a new token there, the old one stops
  working, and the link is good once (a new one comes with the new token); a wrong code, seat or
  game, a used link and a left seat's link are refused (404) and change nothing;
- after a rematch the old invite leads to the rematch (not "This game is over"), naming the
  tables before it; the old table's seat link brings its person to the rematch's seat.
"""

from __future__ import annotations

import random
from typing import Any

from fastapi.testclient import TestClient
from table_helpers import Seat, join, new_table, play_until

OPEN = {"kind": "open"}
ME = {"kind": "person"}


def two_people(client: TestClient, **body: Any) -> tuple[Seat, Seat, str]:
    ann, code = new_table(client, [ME, OPEN], **body)
    bo = join(client, code, "Bo")
    r = ann.call("POST", "/start")
    assert r.status_code == 200, r.text
    return ann, bo, code


def rejoin(client: TestClient, game_id: str, seat: int, code: Any) -> Any:
    return client.post(f"/api/games/{game_id}/rejoin", json={"seat": seat, "code": code})


def test_a_seat_follows_its_person_to_another_device(client: TestClient) -> None:
    ann, bo, _ = two_people(client)
    mine = bo.get()["table"]["rejoin"]
    assert mine["url"] == f"/rejoin/{bo.id}/1#{mine['code']}"
    ann_link = ann.get()["table"]["rejoin"]
    assert ann_link["code"] != mine["code"]
    assert mine["code"] not in str(ann.state)  # to that person only
    hand = sorted(bo.state["hand"])
    # the page of the link is the game page
    page = client.get(f"/rejoin/{bo.id}/1")
    assert page.status_code == 200 and "text/html" in page.headers["content-type"]
    # refused, nothing changed: a wrong code, another seat's, another game's, a malformed body
    for seat, code in [(1, "A" * 22), (0, mine["code"]), (1, ann_link["code"]), (5, mine["code"])]:
        r = rejoin(client, bo.id, seat, code)
        assert r.status_code in (404, 422), (seat, code, r.text)
    assert rejoin(client, "no-such-game", 1, mine["code"]).status_code == 404
    assert client.post(f"/api/games/{bo.id}/rejoin", json={"seat": 1}).status_code == 422
    assert rejoin(client, bo.id, 1, 123).status_code == 422
    assert bo.get()["table"]["rejoin"] == mine  # the seat is still Bo's old token's
    # another device opens the link: the seat is its
    r = rejoin(client, bo.id, 1, mine["code"])
    assert r.status_code == 201, r.text
    moved = r.json()
    assert moved["game_id"] == bo.id and moved["seat"] == 1 and moved["token"] != bo.token
    assert moved["state"]["you"] == 1 and sorted(moved["state"]["hand"]) == hand
    assert [s["name"] for s in moved["state"]["seats"]] == ["Ann", "Bo"]
    # the old token stops working; the link was good once; the new device has its own link
    assert client.get(f"/api/games/{bo.id}", headers=bo.headers).status_code == 404
    assert rejoin(client, bo.id, 1, mine["code"]).status_code == 404
    there = Seat(client, moved)
    again = there.get()["table"]["rejoin"]
    assert again["code"] != mine["code"]
    # the new device plays the seat: its moves are Bo's
    assert there.state["seats"][1]["name"] == "Bo"
    assert ann.get()["seats"][1]["name"] == "Bo"
    # and may move on again with its own link
    r = rejoin(client, bo.id, 1, again["code"])
    assert r.status_code == 201 and r.json()["token"] != moved["token"]
    assert client.get(f"/api/games/{bo.id}", headers=there.headers).status_code == 404


def test_a_left_seats_link_is_refused(client: TestClient) -> None:
    ann, bo, _ = two_people(client)
    code = bo.get()["table"]["rejoin"]["code"]
    assert bo.call("POST", "/leave").status_code == 200
    assert rejoin(client, bo.id, 1, code).status_code == 404
    assert ann.get()["seats"][1]["left"] is True  # still left: nothing changed


def test_a_computer_game_has_no_seat_link(client: TestClient) -> None:
    r = client.post("/api/games", json={})
    assert r.status_code == 201
    assert "table" not in r.json()["state"]  # answered as before tables existed


def _over(ann: Seat, bo: Seat, seed: int) -> None:
    play_until([ann, bo], random.Random(seed), lambda ss: ss[0]["phase"] == "game-over")


def test_the_invite_and_the_seat_links_lead_to_the_rematch(client: TestClient) -> None:
    ann, bo, invite = two_people(client, rules={"target": 30})
    old_link = bo.get()["table"]["rejoin"]["code"]
    _over(ann, bo, 5)
    r = ann.call("POST", "/rematch")
    assert r.status_code == 201, r.text
    first = r.json()["game_id"]
    # the old invite leads to the rematch, and names the table before it
    shown = client.get(f"/api/invites/{invite}")
    assert shown.status_code == 200, shown.text
    data = shown.json()
    assert data["game_id"] == first and data["status"] == "playing"
    assert data["earlier"] == [ann.id]
    assert [s["name"] for s in data["seats"]] == ["Ann", "Bo"]
    # nobody new sits at a table in play: said as "started", not "over"
    joined = client.post(f"/api/invites/{invite}/join", json={"name": "Cy"})
    assert joined.status_code == 409 and joined.json()["detail"]["code"] == "started"
    # the old table's seat link brings Bo to his seat at the rematch (a new token for both)
    r = rejoin(client, ann.id, 1, old_link)
    assert r.status_code == 201, r.text
    moved = r.json()
    assert moved["game_id"] == first and moved["state"]["you"] == 1
    new_headers = {"Authorization": f"Bearer {moved['token']}"}
    assert client.get(f"/api/games/{ann.id}", headers=new_headers).status_code == 200
    assert client.get(f"/api/games/{first}", headers=bo.headers).status_code == 404
    # a rematch of the rematch: the first invite leads to the last table
    bo2 = Seat(client, moved)
    ann2 = Seat(client, {"game_id": first, "token": ann.token, "seat": 0,
                         "state": client.get(f"/api/games/{first}", headers=ann.headers).json()})
    _over(ann2, bo2, 6)
    r = ann2.call("POST", "/rematch")
    assert r.status_code == 201, r.text
    second = r.json()["game_id"]
    data = client.get(f"/api/invites/{invite}").json()
    assert data["game_id"] == second and data["earlier"] == [ann.id, first]
    # an invite with no rematch names nothing before it
    fresh, code = new_table(client, [ME, OPEN])
    assert client.get(f"/api/invites/{code}").json()["earlier"] == []
