"""Helpers of the web API tests: a game seen from the browser, a person's move."""

from __future__ import annotations

import random
from typing import Any

from fastapi.testclient import TestClient


class Table:
    """One game seen from the browser: id, auth header, last state."""

    def __init__(self, client: TestClient, body: dict[str, Any] | None = None) -> None:
        r = client.post("/api/games", json=body or {})
        assert r.status_code == 201, r.text
        data = r.json()
        self.client = client
        self.id: str = data["game_id"]
        self.token: str = data["token"]
        self.headers = {"Authorization": f"Bearer {self.token}"}
        self.state: dict[str, Any] = data["state"]
        self.responses: list[dict[str, Any]] = [data]

    def post(self, action: str, seq: int | None = None) -> Any:
        return self.client.post(f"/api/games/{self.id}/actions",
                                json={"action": action,
                                      "seq": self.state["seq"] if seq is None else seq},
                                headers=self.headers)

    def act(self, action: str) -> dict[str, Any]:
        r = self.post(action)
        assert r.status_code == 200, r.text
        self.state = r.json()
        self.responses.append(self.state)
        return self.state

    def get(self, since: int | None = None) -> dict[str, Any]:
        url = f"/api/games/{self.id}" + ("" if since is None else f"?since={since}")
        r = self.client.get(url, headers=self.headers)
        assert r.status_code == 200, r.text
        return r.json()


def in_play(make: Any, body: dict[str, Any] | None = None, tries: int = 20) -> Table:
    """A new game (``make(body)``) where the person has a move to make in a deal in play: the
    computer may end the first deal at its very first turn (a knock or gin on the deal), so
    games are made until one is in play, at most ``tries``.

    :raises AssertionError: none of ``tries`` games was.
    """
    for _ in range(tries):
        t: Table = make(body)
        if t.state["phase"] in ("offer", "draw", "discard") and any(
                a["type"] != "next_hand" for a in t.state["legal"]):
            return t
    raise AssertionError(f"{tries} new games all ended before the person's first move")


def choose(state: dict[str, Any], rng: random.Random, finish: bool = True) -> str:
    """A person's move: gin/knock when offered (``finish``), else something sensible or random."""
    legal = state["legal"]
    assert legal, state["phase"]
    if finish:
        for t in ("big_gin", "gin", "knock", "next_hand"):
            xs = [a for a in legal if a["type"] == t]
            if xs:
                return str(min(xs, key=lambda a: a.get("deadwood_points", 0))["action"])
        if state["phase"] == "discard" and rng.random() < 0.8:
            # discard the card whose removal leaves the least deadwood: arrangement's spare
            arr = state["arrangement"]
            spare = set(state["hand"]) - {c for m in arr["melds"] for c in m} - set(arr["deadwood"])
            for a in legal:
                if a["type"] == "discard" and a["card"] in spare:
                    return str(a["action"])
    return str(rng.choice(legal)["action"])
