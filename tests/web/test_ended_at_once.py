"""A game the computer ends before the person's first move (R-4.1, R-5.1: the non-dealer takes
the upcard and goes gin at once; with a target of 25 the gin bonus ends the game): it is stored
finished with the moment it finished, so that the statistics' streaks and the rating (issue
22, Glicko-2 over the games in the order they finished) put it where it belongs."""

from __future__ import annotations

import random
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import update
from web_helpers import Table

import ginrummy.web.tables.service as service_module
from chance import install
from ginrummy.cards import parse_cards
from ginrummy.store.schema import games

#: deck[0], deck[2], ... go to the non-dealer (seat 1, the computer: the person deals), the
#: odd places to the dealer, deck[20] is the upcard (R-2.2): the computer holds AS..9S and KH,
#: the upcard TS gives it gin; the person's ten cards meld nothing.
_COMPUTER = "AS 2S 3S 4S 5S 6S 7S 8S 9S KH"
_PERSON = "KC QD JH 9C 8D 7H 5C 4D 3H 2C"


def _gin_deck() -> list[int]:
    hand1, hand0 = parse_cards(_COMPUTER), parse_cards(_PERSON)
    head = [c for pair in zip(hand1, hand0, strict=True) for c in pair] + parse_cards("TS")
    return head + [c for c in range(52) if c not in head]


class _PersonDeals(random.Random):
    """The tests' chance (tests/chance.py) with seat 0, the person, dealing first."""

    def randrange(self, *args: Any, **kwargs: Any) -> int:
        return 0


@pytest.fixture
def decks(monkeypatch: pytest.MonkeyPatch) -> list[list[int]]:
    """The decks the next deals get, in order (then shuffles seeded with 7); the person is
    the first dealer."""
    queue: list[list[int]] = []
    install(monkeypatch.setattr, _PersonDeals(7))
    shuffled = service_module.shuffled_deck
    monkeypatch.setattr(service_module, "shuffled_deck",
                        lambda: queue.pop(0) if queue else shuffled())
    return queue


def _stats(client: TestClient) -> dict[str, Any]:
    r = client.get("/api/stats")
    assert r.status_code == 200, r.text
    return dict(r.json())


@pytest.mark.parametrize("level", ["easy", "hard", "expert"])
def test_the_computer_gins_on_the_upcard(client: TestClient, decks: list[list[int]],
                                         level: str) -> None:
    decks.append(_gin_deck())
    t = Table(client, {"level": level, "rules": {"target": 25}})
    s = t.state
    assert s["phase"] == "game-over", (level, s["phase"], s["events"])
    assert s["result"]["kind"] == "gin" and s["result"]["winner"] == 1
    assert s["score"]["final"]["winner"] == 1
    # the deal is over: its deck is revealed (docs/fairness.md)
    assert s["fairness"]["revealed"]["deck"][20] == "TS"
    st = _stats(client)
    assert (st["games_played"], st["games_won"], st["games_lost"]) == (1, 0, 1)
    listed = client.get(f"/api/games/{t.id}", headers=t.headers).json()
    assert listed["phase"] == "game-over"


def test_a_game_ended_at_once_is_rated_in_its_order(client: TestClient,
                                                    decks: list[list[int]],
                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    """A game lost by resigning to ``hard``, then one lost at once to ``easy``: the rating
    takes them in the order they finished, also for a game stored before finished_at was
    written at creation (its created_at stands in)."""
    from ginrummy.bots import strength
    data = {"ratings": {"easy": {"rating": 1210.0, "se": 21.0},
                        "hard": {"rating": 1580.0, "se": 19.0}}}
    monkeypatch.setattr(strength, "ratings_file", lambda: data)
    first = Table(client, {"level": "hard"})
    assert first.state["phase"] in ("offer", "draw", "discard"), first.state["phase"]
    r = client.post(f"/api/games/{first.id}/resign", headers=first.headers)
    assert r.status_code == 200, r.text
    decks.append(_gin_deck())
    second = Table(client, {"level": "easy", "rules": {"target": 25}})
    assert second.state["phase"] == "game-over"
    hist = _stats(client)["rating"]["history"]
    assert [(h["game_id"], h["opponent"], h["won"]) for h in hist] == [
        (first.id, "hard", False), (second.id, "easy", False)]
    assert hist[1]["finished_at"] is not None
    assert hist[0]["finished_at"] <= hist[1]["finished_at"]
    # as stored by the versions before this was mended: no finished_at
    store = client.app.state.store  # type: ignore[attr-defined]
    with store.engine.begin() as conn:
        conn.execute(update(games).where(games.c.id == second.id).values(finished_at=None))
    hist = _stats(client)["rating"]["history"]
    assert [h["game_id"] for h in hist] == [first.id, second.id]
