"""Coming back to a seat the computer played (issue 21 item 12): the moves a computer made for a
person's seat (the seat handed to it while its person was away) are marked ``"by": "computer"``
in every seat's events, kept in the store (``deals.auto``) so that a process that rebuilds the
table from its record marks them too; the person's own moves and the other person's are not.
"""

from __future__ import annotations

import random
import time
from typing import Any

from fastapi.testclient import TestClient
from table_helpers import Seat, join, new_table
from web_helpers import choose

ME = {"kind": "person"}
OPEN = {"kind": "open"}


def _actions(events: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [e for e in events if e["type"] not in ("deal", "dead_hand", "hand_over",
                                                     "game_over")]


def test_the_computers_moves_for_an_away_person_are_marked(client: TestClient) -> None:
    ann, code = new_table(client, [ME, OPEN])
    bo = join(client, code, "Bo")
    r = ann.call("POST", "/start")
    assert r.status_code == 200, r.text
    rng = random.Random(4)
    # a few moves of both people first: none of them is the computer's
    for _ in range(4):
        for p in (ann, bo):
            st = p.get()
            if st["phase"] in ("offer", "draw", "discard") and st["legal"]:
                p.act(choose(st, rng, finish=False))
    own = {e["seq"] for e in _actions(bo.get(since=0)["events"])}
    assert own
    # Bo goes away; Ann hands his seat to the computer and plays on
    svc = client.app.state.service  # type: ignore[attr-defined]
    svc.tables.set_presence(bo.id, 1, time.time() - 30)
    svc.tables.set_presence(ann.id, 0, time.time() + 25)
    r = ann.call("PUT", "/seats/1", {"kind": "computer"})
    assert r.status_code == 200, r.text
    for _ in range(4):
        a = ann.get()
        if a["phase"] not in ("offer", "draw", "discard"):
            break
        ann.act(choose(a, rng, finish=False))
    for seen in (bo.get(since=0), ann.get(since=0)):
        acts = _actions(seen["events"])
        by_computer = [e for e in acts if e.get("by") == "computer"]
        assert by_computer, acts
        assert all(e["seat"] == 1 and e["seq"] not in own for e in by_computer)
        assert not any(e.get("by") for e in acts if e["seat"] == 0 or e["seq"] in own)
        marked = sorted(e["seq"] for e in by_computer)
    # kept in the store: a process rebuilding the table from its record marks the same moves
    from ginrummy.web.tables.service import TableService

    fresh = TableService(client.app.state.store)  # type: ignore[attr-defined]
    again = fresh.get(bo.id, bo.token, 0)
    assert sorted(e["seq"] for e in again["events"] if e.get("by") == "computer") == marked
    # Bo takes his seat back: his moves are his own again
    r = bo.call("PUT", "/seats/1", {"kind": "person"})
    assert r.status_code == 200, r.text
    st = bo.get()
    if st["phase"] in ("offer", "draw", "discard") and st["legal"]:
        seq = bo.act(choose(st, rng, finish=False))["seq"]
        last = [e for e in bo.get(since=0)["events"] if e["seq"] == seq]
        assert last and "by" not in last[0]


def test_a_game_against_the_computer_marks_nothing(client: TestClient) -> None:
    r = client.post("/api/games", json={})
    me = Seat(client, {**r.json(), "seat": 0})
    for _ in range(3):
        st = me.get()
        if st["phase"] in ("offer", "draw", "discard"):
            me.act(choose(st, random.Random(1), finish=False))
    assert not any("by" in e for e in me.get(since=0)["events"])
