"""Helpers of the tables-of-people tests (docs/tables.md): a seat seen from its browser, a
table made through the API, and a driver that plays every person's moves."""

from __future__ import annotations

import random
from typing import Any

from fastapi.testclient import TestClient
from web_helpers import choose

ACTING = ("offer", "draw", "discard", "hand-over")


class Seat:
    """One person's seat: its token and last state."""

    def __init__(self, client: TestClient, data: dict[str, Any]) -> None:
        self.client = client
        self.id: str = data["game_id"]
        self.token: str = data["token"]
        self.seat: int = data["seat"]
        self.headers = {"Authorization": f"Bearer {self.token}"}
        self.state: dict[str, Any] = data["state"]
        self.seen: list[dict[str, Any]] = [data]

    def get(self, since: int | None = None) -> dict[str, Any]:
        url = f"/api/games/{self.id}" + ("" if since is None else f"?since={since}")
        r = self.client.get(url, headers=self.headers)
        assert r.status_code == 200, r.text
        self.state = r.json()
        self.seen.append(self.state)
        return self.state

    def post(self, action: str, seq: int | None = None) -> Any:
        r = self.client.post(f"/api/games/{self.id}/actions",
                             json={"action": action,
                                   "seq": self.state["seq"] if seq is None else seq},
                             headers=self.headers)
        if r.status_code == 200:
            self.seen.append(r.json())
        return r

    def act(self, action: str) -> dict[str, Any]:
        r = self.post(action)
        assert r.status_code == 200, r.text
        self.state = r.json()
        return self.state

    def call(self, method: str, path: str, body: Any = None) -> Any:
        r = self.client.request(method, f"/api/games/{self.id}{path}", json=body,
                                headers=self.headers)
        if r.status_code < 300 and isinstance(r.json(), dict) and "seq" in r.json():
            self.seen.append(r.json())
        return r


def new_table(client: TestClient, seats: list[dict[str, Any]], name: str = "Ann",
              **body: Any) -> tuple[Seat, str]:
    """A table created by "Ann" at seat 0: her seat and the invite code."""
    r = client.post("/api/games", json={"seats": seats, "name": name, **body})
    assert r.status_code == 201, r.text
    data = r.json()
    assert data["invite"] and data["seat"] == 0
    return Seat(client, data), data["invite"]["code"]


def join(client: TestClient, code: str, name: str, seat: int | None = None) -> Seat:
    body: dict[str, Any] = {"name": name}
    if seat is not None:
        body["seat"] = seat
    r = client.post(f"/api/invites/{code}/join", json=body)
    assert r.status_code == 201, r.text
    return Seat(client, r.json())


def play_until(people: list[Seat], rng: random.Random, done: Any, limit: int = 3000) -> int:
    """Let every person move (from its own state only) until ``done(states)``; returns the
    moves made."""
    moves = 0
    while moves < limit:
        states = [p.get() for p in people]
        if done(states):
            return moves
        movers = [p for p in people if p.state["phase"] in ACTING and p.state["legal"]]
        assert movers, [s["phase"] for s in states]
        p = rng.choice(movers)
        r = p.post(choose(p.state, rng))
        assert r.status_code in (200, 409), r.text  # 409: another moved first (stale)
        moves += 1
    raise AssertionError("the table did not finish")
