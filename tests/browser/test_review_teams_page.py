"""Review my game (issue 20) at a partnership, in Chromium at phone size (390x844): the end-of-hand
panel's Review link opens the person's own deal (a partnership's hand 2 is its deals 3 and 4),
the game's review shows the four players under their teams (the person's partner next to them)
without a page wider than the phone, each deal named with the two who played it, and a decision
made at the other table is shown on the replay as that player saw it.

No luck of a deal decides the test: every deck comes from a seeded shuffle, the computers' seeds
and the dealers are fixed, and the person plays a fixed policy (test_review_page.py's), so the
game is the same on every run; on a failure the game's record is printed (it replays the game).
Small searches (4 worlds, one thread) keep the reviews quick.
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
from test_review_page import MADE_MS, _move

import ginrummy.web.tables.service as service_module
from ginrummy.web.review.reviews import ReviewSettings

pytestmark = pytest.mark.browser

SMALL = ReviewSettings(workers=1, queue=8, worlds=4, confirm=0, processes=False)
#: the players' names as seat A (the person) reads them
NAMES = {0: "You", 1: "Opponent B", 2: "Partner C", 3: "Opponent D"}


class _Secrets:
    """``secrets`` as the service uses it, repeatable: seat 1 deals first and wins every cut,
    the games' secrets (the computers' seeds) come from a seeded source; tokens stay random."""

    token_urlsafe = staticmethod(secrets.token_urlsafe)

    def __init__(self) -> None:
        self.rng = random.Random(4)

    def token_hex(self, n: int = 32) -> str:
        return self.rng.getrandbits(8 * n).to_bytes(n, "big").hex()

    @staticmethod
    def randbelow(n: int) -> int:
        return 1 % n


@pytest.fixture
def teams_server(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[LiveServer]:
    rng = random.Random(44)

    def deck() -> list[int]:
        d = list(range(52))
        rng.shuffle(d)
        return d

    monkeypatch.setattr(service_module, "shuffled_deck", deck)
    monkeypatch.setattr(service_module, "secrets", _Secrets())
    srv = LiveServer(tmp_path / "games.sqlite3", reviews=SMALL).start()
    yield srv
    srv.stop()


def _play(server: LiveServer, gid: str, token: str, state: dict[str, Any],
          until: Any) -> dict[str, Any]:
    """The person's moves (the fixed policy) until ``until(state)``."""
    for _ in range(3000):
        if until(state):
            return state
        state = server.api("POST", f"/api/games/{gid}/actions", token,
                           {"action": _move(state), "seq": state["seq"]})
    raise AssertionError("the game went on too long")


def _record(server: LiveServer, gid: str, token: str) -> dict[str, Any]:
    record: dict[str, Any] = server.api("GET", f"/api/games/{gid}/record", token)
    print("replays with: the record", json.dumps(record.get("hands"))[:4000])
    return record


def _fits(page: Any) -> None:
    """Nothing wider than the phone: not the page, nor a table in its box."""
    wide = page.evaluate("""() => {
      const d = document.documentElement;
      const boxes = [...document.querySelectorAll('.rv-scroll')]
        .filter((e) => e.scrollWidth > e.clientWidth + 1).length;
      return {page: d.scrollWidth - d.clientWidth, boxes};
    }""")
    assert wide == {"page": 0, "boxes": 0}, wide


def test_a_partnership_reviewed_at_phone_size(new_context: Any, teams_server: LiveServer,
                                              axe_source: str,  # noqa: F811  (a fixture)
                                              ) -> None:
    server = teams_server
    created = server.api("POST", "/api/games", body={"level": "easy",
                                                      "scoring": "partnership"})
    gid, token, state = created["game_id"], created["token"], created["state"]
    assert state["table"]["teams"] == [[0, 2], [1, 3]]
    page = new_context(viewport=PHONE).new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(server.base + "/static/cards.js")  # same origin: the game page's saved game
    page.evaluate("v => localStorage.setItem('ginrummy.current', v)",
                  json.dumps({"game_id": gid, "token": token}))

    # the end of the person's second hand: its deal is number 3 (deals 1 and 2 were hand 1)
    state = _play(server, gid, token, state,
                  lambda s: s["phase"] == "game-over" or (s["phase"] == "hand-over"
                                                          and s["hand_number"] == 2))
    assert state["phase"] == "hand-over", "the game ended before its second hand"
    deal = state["table"]["deal"]
    assert deal == 3, state["table"]
    page.goto(server.base + "/?lang=en")
    link = page.get_by_test_id("review-link")
    expect(link).to_be_visible()
    expect(link).to_have_attribute("href", f"/review?game={gid}&hand={deal}")
    link.click()
    page.wait_for_url(f"**/review?game={gid}&hand={deal}")
    expect(page.get_by_test_id("review-summary")).to_be_visible(timeout=MADE_MS)
    players = next(h["players"] for h in _record(server, gid, token)["hands"]
                   if h["number"] == deal)
    assert 0 in players  # the person's own deal: the two who played it, the person first
    seats = page.locator("[data-testid=review-summary] thead [data-testid^=review-seat-]")
    expect(seats).to_have_count(2)
    expect(seats.first).to_have_text("You")
    expect(page.get_by_test_id("review-scope")).to_have_value(str(deal))
    label = page.locator(f"[data-testid=review-scope] option[value='{deal}']")
    a, b = (NAMES[p] for p in players)
    expect(label).to_have_text(f"Hand {deal} · {a} vs {b}")
    _fits(page)

    # the game to its end; its review from the game-over panel
    state = _play(server, gid, token, state, lambda s: s["phase"] == "game-over")
    record = _record(server, gid, token)
    page.goto(server.base + "/?lang=en")
    link = page.get_by_test_id("review-link")
    expect(link).to_have_attribute("href", f"/review?game={gid}")
    link.click()
    summary = page.get_by_test_id("review-summary")
    expect(summary).to_be_visible(timeout=MADE_MS)
    review = server.api("GET", f"/api/games/{gid}/review", token)["review"]
    assert [s["seat"] for s in review["seats"]] == [0, 1, 2, 3]
    # the teams over their players, the person's partner next to the person
    expect(summary.get_by_test_id("review-team")).to_have_text(["Us", "Them"])
    heads = summary.locator("thead [data-testid^=review-seat-]")
    expect(heads).to_have_text(["You", "Partner C", "Opponent B", "Opponent D"])
    for s in review["seats"]:
        for g, n in s["grades"].items():
            expect(page.get_by_test_id(f"review-count-{s['seat']}-{g}")).to_have_text(str(n))
    expect(page.get_by_test_id("review-chance-note")).to_contain_text("the team's")
    expect(page.get_by_test_id("review-units")).to_be_visible()
    expect(page.locator("#rv-intro")).to_contain_text("every player at the table")
    # every finished deal offered, named with the two who played it
    options = page.locator("[data-testid=review-scope] option")
    expect(options).to_have_count(1 + len(record["hands"]))
    for h in record["hands"][:4]:
        a, b = (NAMES[p] for p in h["players"])
        expect(page.locator(f"[data-testid=review-scope] option[value='{h['number']}']")
               ).to_have_text(f"Hand {h['number']} · {a} vs {b}")
    _fits(page)
    found = _violations(page, axe_source)  # no serious or critical axe violation
    assert not found, _report("/review of a partnership (phone)", found)

    # a decision of the partner at the other table, on the replay as the partner saw it
    h, d = next((h, d) for h in review["hands"] for d in h["decisions"]
                if h["players"] == [2, 3] and d["seat"] == 2)
    card = page.locator(f"[data-testid=review-decision][data-hand='{h['hand']}']"
                        f"[data-step='{d['step']}']")
    expect(card).to_contain_text("Partner C")
    card.get_by_test_id("decision-replay").click()
    page.wait_for_url(f"**/replay?game={gid}&hand={h['hand']}*")
    panel = page.get_by_test_id("replay-review-panel")
    expect(panel).to_be_visible(timeout=MADE_MS)
    expect(page.get_by_test_id("replay-action")).to_have_text(
        "The position as Partner C saw it, before that decision.")
    # Partner C sits at the deal's seat 0: Opponent D's hand (seat 1) hidden from it (face
    # down but for the cards it took face up), Partner C's own face up
    hidden = page.get_by_test_id("replay-hand-1")
    expect(hidden).to_have_attribute("data-hidden", "true")
    expect(hidden.locator(".card.back")).not_to_have_count(0)
    expect(page.get_by_test_id("replay-hand-0")).not_to_have_attribute("data-hidden", "true")
    expect(page.get_by_test_id("replay-hand-0").locator("[data-card]")).not_to_have_count(0)
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    assert not errors, errors
