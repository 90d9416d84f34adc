"""The hand replay page (/replay) in Chromium: a finished hand of the person's game, stepped
through with the buttons, the arrow keys and the slider, its markers shown; a deal in play is
refused."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from browser_helpers import LiveServer
from playwright.sync_api import expect

pytestmark = pytest.mark.browser

LOCALES = Path(__file__).resolve().parents[2] / "src" / "ginrummy" / "web" / "locales"
POINTS = {r: min(i + 1, 10) for i, r in enumerate("A23456789TJQK")}


def _move(state: dict[str, Any]) -> str:
    """The person never knocks nor goes gin (so a missed knock or gin is likely to be marked):
    draws from the stock, discards the highest card out of its melds."""
    legal = state["legal"]
    types = {a["type"]: a for a in legal}
    for t in ("next_hand", "pass", "draw_stock"):
        if t in types:
            return str(types[t]["action"])
    discards = [a for a in legal if a["type"] == "discard"]
    if discards:
        melded = {c for m in state["arrangement"]["melds"] for c in m}
        loose = [a for a in discards if a["card"] not in melded] or discards
        return str(max(loose, key=lambda a: POINTS[a["card"][0]])["action"])
    return str(legal[0]["action"])  # the fiftieth card: whatever is offered


def finished_hand_with_marker(server: LiveServer, hands: int = 8,
                              games: int = 5) -> tuple[str, str, int, Any]:
    """A game (played through the API) and the number of a finished hand with a marker:
    ``(game_id, token, number, replay)``. Games come from random deals, so a game may end
    without a marked hand: then a new game is played, up to ``games`` of them."""
    last = None
    for _game in range(games):
        created = server.api("POST", "/api/games", body={"level": "easy"})
        gid, token, state = created["game_id"], created["token"], created["state"]
        for _ in range(hands * 60):
            if state["phase"] in ("hand-over", "game-over"):
                n = state["hand_number"]
                last = server.api("GET", f"/api/games/{gid}/hands/{n}/replay", token)
                if last["markers"]:
                    return gid, token, n, last
                if state["phase"] == "game-over":
                    break
            state = server.api("POST", f"/api/games/{gid}/actions", token,
                               {"action": _move(state), "seq": state["seq"]})
    raise AssertionError(f"no finished hand with a marker in {games} games")


def open_replay(page: Any, server: LiveServer, gid: str, token: str, number: int | None,
                lang: str = "en") -> None:
    page.goto(server.base + "/static/cards.js")  # same origin: the game page's saved game
    page.evaluate("v => localStorage.setItem('ginrummy.current', v)",
                  json.dumps({"game_id": gid, "token": token}))
    q = f"?game={gid}&lang={lang}" + (f"&hand={number}" if number is not None else "")
    page.goto(server.base + "/replay" + q)


def test_step_through_a_finished_hand_and_see_its_markers(page: Any,
                                                          server: LiveServer) -> None:
    gid, token, number, data = finished_hand_with_marker(server)
    open_replay(page, server, gid, token, number)
    last = len(data["frames"]) - 1
    step = page.get_by_test_id("replay-step")
    expect(step).to_have_text(f"Step 0 of {last}")
    expect(page.get_by_test_id("replay-action")).to_contain_text("The upcard is the")
    # both hands face up, 10 cards each after the deal
    assert page.locator("[data-testid=replay-hand-0] [data-card]").count() == 10
    assert page.locator("[data-testid=replay-hand-1] [data-card]").count() == 10
    page.get_by_test_id("replay-next").click()
    expect(step).to_have_text(f"Step 1 of {last}")
    page.keyboard.press("ArrowRight")
    expect(step).to_have_text(f"Step 2 of {last}")
    page.keyboard.press("ArrowLeft")
    expect(step).to_have_text(f"Step 1 of {last}")
    frame = data["frames"][1]
    shown = sorted(page.locator("[data-testid=replay-hand-0] [data-card]").evaluate_all(
        "els => els.map(e => e.dataset.card)"))
    assert shown == sorted(frame["hands"][0]["cards"])
    # the markers: listed, and a badge at their step
    assert data["markers"], "no hand with a marker in this game"
    m = data["markers"][0]
    expect(page.get_by_test_id("replay-markers").locator("li")).to_have_count(len(data["markers"]))
    page.get_by_test_id("replay-markers").locator("button").first.click()
    expect(step).to_have_text(f"Step {m['step']} of {last}")
    badge = page.get_by_test_id("replay-badge").first
    expect(badge).to_be_visible()
    assert badge.get_attribute("data-kind") == m["kind"]
    # the end: the result headline at the last step
    page.keyboard.press("End")
    expect(step).to_have_text(f"Step {last} of {last}")
    expect(page.get_by_test_id("replay-end")).to_be_visible()
    assert page.get_by_test_id("replay-next").is_disabled()
    page.get_by_test_id("replay-first").click()
    expect(step).to_have_text(f"Step 0 of {last}")


def test_marker_badges_are_worded_in_indonesian(page: Any, server: LiveServer) -> None:
    """Every marker of the hand is shown at its step, in the catalog's words."""
    gid, token, number, data = finished_hand_with_marker(server)
    assert data["markers"]
    open_replay(page, server, gid, token, number, lang="id")
    expect(page.locator("html")).to_have_attribute("lang", "id")
    cat = json.loads((LOCALES / "id.json").read_text(encoding="utf-8"))
    for m in data["markers"]:
        page.get_by_test_id("replay-slider").fill(str(m["step"]))
        row = page.locator(f"[data-testid=replay-badge][data-kind={m['kind']}]").first
        expect(row).to_have_text(cat[f"replay.marker.{m['kind']}"])


def test_deal_in_play_is_not_shown(page: Any, server: LiveServer) -> None:
    created = server.api("POST", "/api/games", body={"level": "easy"})
    open_replay(page, server, created["game_id"], created["token"], 1)
    err = page.get_by_test_id("replay-error")
    expect(err).to_be_visible()
    assert err.get_attribute("data-key") == "replay.error.in_play"
    assert page.locator("[data-card]").count() == 0
    # a hand number that is no number, and another game's link
    for q in ("hand=abc", "hand=-1", "hand=1.5"):
        page.goto(server.base + f"/replay?game={created['game_id']}&{q}")
        expect(err).to_have_attribute("data-key", "replay.error.not_found")
    page.goto(server.base + "/replay?game=someoneelsesgame&hand=1")
    expect(err).to_have_attribute("data-key", "replay.error.other_game")
    # without a saved game
    page.evaluate("() => localStorage.clear()")
    page.goto(server.base + "/replay")
    expect(err).to_have_attribute("data-key", "replay.error.no_game")


def test_the_end_of_hand_panel_links_to_the_replay_of_that_hand(page: Any,
                                                                 server: LiveServer) -> None:
    gid, token, number, data = finished_hand_with_marker(server)
    state = server.api("GET", f"/api/games/{gid}", token)
    assert state["phase"] in ("hand-over", "game-over") and state["hand_number"] == number
    page.goto(server.base + "/static/cards.js")
    page.evaluate("v => localStorage.setItem('ginrummy.current', v)",
                  json.dumps({"game_id": gid, "token": token}))
    page.goto(server.base + "/?lang=en")
    link = page.get_by_test_id("replay-link")
    expect(link).to_be_visible()
    link.click()
    page.wait_for_url(f"**/replay?game={gid}&hand={number}")
    last = len(data["frames"]) - 1
    expect(page.get_by_test_id("replay-step")).to_have_text(f"Step 0 of {last}")
