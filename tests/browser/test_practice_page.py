"""A person's own past mistakes to practise (issue 20), in Chromium: a game played by this
browser and reviewed, its mistakes listed on the practice page (reached from the statistics
dialog, and linked from the review page), newest first, each opened as the "Try again" exercise
and answered, with no token kept for the game (the page forgets a game once it is over: the
browser's cookie finds its positions).

No luck of a deal decides the test: the first deal is the fixed gin deal of test_review_page.py
(the person breaks the run in place of going gin), later decks come from a seeded shuffle, the
salts, the computer's seed and the dealer are fixed, and the person plays a fixed policy: the
game and its review are the same on every run (the game's record is printed on a failure).
"""

from __future__ import annotations

import json
import random
import secrets
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from browser_helpers import PHONE, LiveServer
from playwright.sync_api import expect
from test_axe import _report, _violations, axe_source  # noqa: F401  (axe_source: a fixture)
from test_review_page import COMPUTER, FLAW, MADE_MS, PERSON, UPCARD, _move, deck_of

import ginrummy.web.tables.service as service_module
from ginrummy.web.review.reviews import ReviewSettings

pytestmark = pytest.mark.browser

SMALL = ReviewSettings(workers=1, queue=8, worlds=4, confirm=0, processes=False)


class _Secrets:
    """``secrets`` as the service uses it, repeatable: seat 1 deals first, the games' secrets
    (the computer's seed) come from a seeded source; tokens stay random."""

    token_urlsafe = staticmethod(secrets.token_urlsafe)

    def __init__(self) -> None:
        self.rng = random.Random(9)

    def token_hex(self, n: int = 32) -> str:
        return self.rng.getrandbits(8 * n).to_bytes(n, "big").hex()

    @staticmethod
    def randbelow(n: int) -> int:
        return 1 % n


@pytest.fixture
def practice_server(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[LiveServer]:
    rng = random.Random(20)
    made: list[int] = []

    def deck() -> list[int]:
        made.append(1)
        if len(made) == 1:
            return deck_of(PERSON, COMPUTER, UPCARD)
        d = list(range(52))
        rng.shuffle(d)
        return d

    salts = iter(f"{i:032x}" for i in range(10_000))
    monkeypatch.setattr(service_module, "shuffled_deck", deck)
    monkeypatch.setattr(service_module, "new_salt", lambda: next(salts))
    monkeypatch.setattr(service_module, "secrets", _Secrets())
    srv = LiveServer(tmp_path / "games.sqlite3", reviews=SMALL).start()
    yield srv
    srv.stop()


def _api(page: Any, method: str, path: str, token: str | None = None,
         body: dict[str, Any] | None = None) -> tuple[int, Any]:
    """A call made by the page (so with this browser's cookie): (status, JSON)."""
    got: list[Any] = page.evaluate("""async ([method, path, token, body]) => {
      const headers = {Accept: "application/json"};
      if (token) headers.Authorization = `Bearer ${token}`;
      if (body) headers["Content-Type"] = "application/json";
      const r = await fetch(path, {method, headers, body: body ? JSON.stringify(body) : undefined});
      return [r.status, await r.json()];
    }""", [method, path, token, body])
    return got[0], got[1]


def test_practise_my_mistakes(new_context: Any, practice_server: LiveServer,
                              axe_source: str,  # noqa: F811  (test_axe's fixture)
                              ) -> None:
    server = practice_server
    page = new_context().new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(server.base + "/static/cards.js")
    status, _ = _api(page, "GET", "/api/meta")  # the browser's cookie
    assert status == 200
    status, created = _api(page, "POST", "/api/games",
                           body={"level": "easy", "rules": {"target": 50}})
    assert status == 201, created
    gid, token, state = created["game_id"], created["token"], created["state"]
    assert sorted(state["hand"]) == sorted(PERSON.split()), state["hand"]
    script = list(FLAW)
    while state["phase"] != "game-over":
        action = script.pop(0) if script else _move(state)
        status, state = _api(page, "POST", f"/api/games/{gid}/actions", token,
                             {"action": action, "seq": state["seq"]})
        assert status == 200, state
    _, record = _api(page, "GET", f"/api/games/{gid}/record", token)
    print("replays with: the record", json.dumps(record["hands"])[:4000])
    for _ in range(600):  # the game's review, made in the pool
        status, review = _api(page, "GET", f"/api/games/{gid}/review", token)
        if status == 200:
            break
        page.wait_for_timeout(200)
    assert status == 200, review
    mine = [(h["hand"], d) for h in review["review"]["hands"] for d in h["decisions"]
            if d["seat"] == 0 and d["grade"] in ("mistake", "blunder")]
    assert mine, "no mistake of the person's in the game"
    mine.sort(key=lambda x: (-x[0], -x[1]["step"]))

    # the game page keeps the game shown; its statistics lead to the practice
    page.evaluate("v => localStorage.setItem('ginrummy.current', v)",
                  json.dumps({"game_id": gid, "token": token}))
    page.goto(server.base + "/?lang=en")
    page.click("#btn-stats")
    link = page.locator("#dlg-stats").get_by_test_id("practice-link")
    expect(link).to_be_visible()
    link.click()
    page.wait_for_url("**/practice")
    # the page forgets the game over: the practice needs no token
    page.evaluate("() => localStorage.clear()")
    page.set_viewport_size(PHONE)
    page.reload()
    items = page.get_by_test_id("practice-item")
    expect(items).to_have_count(len(mine))
    expect(page.get_by_test_id("practice-count")).to_have_text(
        f"The {len(mine)} newest of {len(mine)} positions.")
    for i, (hand, d) in enumerate(mine):  # newest first: the later steps first
        item = items.nth(i)
        expect(item).to_have_attribute("data-step", str(d["step"]))
        expect(item).to_have_attribute("data-grade", d["grade"])
        expect(item).to_contain_text(f"Hand {hand}")
        expect(item).to_contain_text("In the game you chose to")
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]

    # Try again: the position, a move chosen, told how it compares
    hand, d = mine[0]
    first = items.first
    first.get_by_test_id("practice-try").click()
    ex = first.get_by_test_id("exercise")
    expect(ex).to_be_visible()
    expect(ex).to_be_focused()
    ex.locator(f"[data-testid=exercise-move][data-action='{d['played']['action']}']").click()
    result = first.get_by_test_id("exercise-result")
    expect(result).to_be_visible(timeout=MADE_MS)
    expect(result.get_by_test_id("exercise-grade")).to_have_attribute("data-grade", d["grade"])
    expect(result).to_contain_text("That is what you played in the game")
    ex.locator(f"[data-testid=exercise-move][data-action='{d['best']['action']}']").click()
    expect(result.get_by_test_id("exercise-grade")).to_have_attribute("data-grade", "best",
                                                                      timeout=MADE_MS)
    found = _violations(page, axe_source)  # no serious or critical axe violation
    assert not found, _report("/practice with an exercise open (phone)", found)
    ex.get_by_test_id("exercise-close").click()
    expect(first.get_by_test_id("exercise")).to_have_count(0)
    expect(first.get_by_test_id("practice-try")).to_be_focused()

    # the review page links here too
    page.evaluate("v => localStorage.setItem('ginrummy.current', v)",
                  json.dumps({"game_id": gid, "token": token}))
    page.goto(server.base + f"/review?game={gid}&lang=en")
    expect(page.get_by_test_id("review-summary")).to_be_visible(timeout=MADE_MS)
    expect(page.locator("#rv-content").get_by_test_id("practice-link")).to_have_attribute(
        "href", "/practice")
    assert not errors, errors
