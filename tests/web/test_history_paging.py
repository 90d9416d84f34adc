"""The fairness history is paged (issue 14 item 3): a state carries the reveals of the last
``HISTORY_SHOWN`` finished deals and ``history_total`` (how many there are); the record
(``GET /api/games/{id}/record``) has them all (docs/api.md)."""

from __future__ import annotations

import random
from typing import Any

import pytest
from fastapi.testclient import TestClient
from web_helpers import Table, choose

from ginrummy.web.tables.state import HISTORY_SHOWN


def _to_hand(t: Table, number: int, rng: random.Random) -> dict[str, Any]:
    """Play (the person's moves by ``choose``) until hand ``number`` is dealt."""
    for _ in range(3000):
        s = t.state
        if s["hand_number"] >= number and s["phase"] not in ("hand-over", "game-over"):
            return s
        assert s["phase"] != "game-over", "the game ended first"
        t.act(choose(s, rng))
    raise AssertionError("too many moves")


@pytest.mark.parametrize("scoring", ["standard", "hollywood"])
def test_state_carries_the_last_reveals_and_the_record_all(client: TestClient,
                                                           scoring: str) -> None:
    assert HISTORY_SHOWN == 3
    t = Table(client, {"level": "easy", "scoring": scoring, "rules": {"target": 1000}})
    rng = random.Random(7)
    s = _to_hand(t, 6, rng)
    n = s["hand_number"]
    fair = s["fairness"]
    assert fair["history_total"] == n - 1
    assert [r["hand"] for r in fair["history"]] == list(range(n - HISTORY_SHOWN, n))
    rec = client.get(f"/api/games/{t.id}/record", headers=t.headers).json()
    full = {h["number"]: h for h in rec["hands"]}
    assert len(full) == n - 1
    for r in fair["history"]:
        assert {k: full[r["hand"]][k] for k in ("deck", "salt", "commitment")} == \
            {k: r[k] for k in ("deck", "salt", "commitment")}
    # an answer's size no longer grows with the number of deals played
    first = Table(client, {"level": "easy", "scoring": scoring})
    assert len(t.get().__repr__()) < len(first.state.__repr__()) + 6000
