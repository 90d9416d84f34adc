"""Tables driven through the API for browser tests: a table of people made, joined and started
by the test itself, the people a test does not watch moving by a fixed policy (never ending a
hand), and a watched seat's page opened straight onto its seat (as a reload would). The server
is any with ``base`` and ``api`` (two_servers.Server): the in-process one, or one of two
``ginrummy serve`` processes (:meth:`Table.at` the other one)."""

from __future__ import annotations

import json
import time
from typing import Any

from two_servers import Server

#: seats per table of each scoring
PLAYERS = {"standard": 2, "hollywood": 2, "three_player": 3, "partnership": 4}
NAMES = ("Ann", "Bo", "Cy", "Di")


class Table:
    """One table on ``srv``: its id and each person's token by seat."""

    def __init__(self, srv: Server, game_id: str, tokens: dict[int, str]) -> None:
        self.srv = srv
        self.game_id = game_id
        self.tokens = tokens

    @classmethod
    def against_computers(cls, srv: Server, scoring: str, level: str = "easy") -> Table:
        made = srv.api("POST", "/api/games", body={"scoring": scoring, "level": level})
        return cls(srv, made["game_id"], {0: made["token"]})

    @classmethod
    def of_people(cls, srv: Server, scoring: str, people: int, *,
                  turn_clock: int | None = None, level: str = "easy",
                  start: bool = True) -> Table:
        """A table of ``people`` people (seats 0.. in join order; computers in the others)."""
        n = PLAYERS[scoring]
        seats = [{"kind": "person"}] + [{"kind": "open"} if i < people else
                                        {"kind": "computer", "level": level}
                                        for i in range(1, n)]
        made = srv.api("POST", "/api/games", body={
            "scoring": scoring, "seats": seats, "name": NAMES[0], "level": level,
            "turn_clock": turn_clock})
        tokens = {0: made["token"]}
        for name in NAMES[1:people]:
            joined = srv.api("POST", f"/api/invites/{made['invite']['code']}/join",
                             body={"name": name})
            tokens[joined["seat"]] = joined["token"]
        table = cls(srv, made["game_id"], tokens)
        if start:
            srv.api("POST", f"/api/games/{table.game_id}/start", token=tokens[0])
        return table

    def at(self, srv: Server) -> Table:
        """The same table as served by ``srv`` (another process on the same database)."""
        return Table(srv, self.game_id, self.tokens)

    def state(self, seat: int) -> dict[str, Any]:
        return dict(self.srv.api("GET", f"/api/games/{self.game_id}", token=self.tokens[seat]))

    def act(self, seat: int, action: str, seq: int) -> dict[str, Any]:
        return dict(self.srv.api("POST", f"/api/games/{self.game_id}/actions",
                                 token=self.tokens[seat], body={"action": action, "seq": seq}))

    def move_others(self, watched: int) -> bool:
        """One move of a person other than ``watched`` whose turn it is, by the policy: pass a
        first-turn offer, draw from the stock, discard the first card it may (never a knock or
        gin), go on to the next hand; False when none of them is to move."""
        for seat in self.tokens:
            if seat == watched:
                continue
            st = self.state(seat)
            kinds = {a["type"]: a["action"] for a in reversed(st["legal"])}
            for kind in ("pass", "draw_stock", "discard"):
                if kind in kinds and st["phase"] in ("offer", "draw", "discard"):
                    self.act(seat, kinds[kind], st["seq"])
                    return True
        return False

    def page_url(self) -> str:
        return self.srv.base + "/"

    def open(self, page: Any, seat: int, *, settings: dict[str, Any] | None = None) -> None:
        """Open the game page on ``seat`` (its saved game, as after a reload); the other seats'
        moves shown at once."""
        saved = {"game_id": self.game_id, "token": self.tokens[seat]}
        prefs = {"speed": "instant", **(settings or {})}
        page.add_init_script(
            f"localStorage.setItem('ginrummy.current', {json.dumps(json.dumps(saved))});"
            f"localStorage.setItem('ginrummy.settings', {json.dumps(json.dumps(prefs))});")
        page.goto(self.page_url())


def wait_until(what: Any, timeout: float = 30.0, step: float = 0.05) -> Any:
    """Poll ``what()`` until it returns something true; that value. :raises AssertionError:
    not within ``timeout`` seconds."""
    deadline = time.monotonic() + timeout
    while True:
        got = what()
        if got:
            return got
        assert time.monotonic() < deadline, f"{what} still false after {timeout} s"
        time.sleep(step)
