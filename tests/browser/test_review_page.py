"""Review my game (issue 20) in Chromium: a finished hand of a fixed deal, its review opened from
the end-of-hand panel (progress while it is made, then each seat's accuracy and grades), one of
the person's mistakes shown on the replay as the person saw it with the better move marked, and
its "Try again" exercise answered.

No luck of a deal decides the test: the first deal is fixed (tests/web/test_review_api.py's gin
deal: the person, not the dealer, is offered the jack of diamonds that makes gin) and the person
takes it but, instead of going gin, breaks the run it completes: gin is the best move for any
search, whatever grade the small search gives the drop (4 worlds may be too few to be sure of
it, and a "good" decision with a better move is tried again alike); the rest of the hand is
played by a fixed policy through the API, the computer as it plays. Small searches (4 worlds,
one thread) keep the review quick. On a failure the game's record (deck and actions) is
printed: it replays the hand.
"""

from __future__ import annotations

import json
import math
import random
import secrets
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from browser_helpers import DESKTOP, PHONE, POINTS, LiveServer
from playwright.sync_api import expect
from test_axe import _report, _violations, axe_source  # noqa: F401  (axe_source: a fixture)

import ginrummy.web.review.jobs as review_jobs
import ginrummy.web.tables.service as service_module
from ginrummy.bots.strength import level_ratings
from ginrummy.cards import parse_cards
from ginrummy.web.review.reviews import ReviewSettings

pytestmark = pytest.mark.browser

SMALL = ReviewSettings(workers=1, queue=4, worlds=4, confirm=0, processes=False)
PERSON = "AS 2S 3S 5H 6H 7H 8D 9D TD KC"
COMPUTER = "4C 6C 8C TC QC 2H 4H 9H JH KH"
UPCARD = "JD"
FLAWED = ("inaccuracy", "mistake", "blunder")
SIZES = {"phone": PHONE, "desktop": DESKTOP}
#: a review (worlds=4, one thread, on two shared cores) is made in seconds; generous still
MADE_MS = 120_000


def deck_of(non_dealer: str, dealer: str, upcard: str) -> list[int]:
    nd, de = parse_cards(non_dealer), parse_cards(dealer)
    deck = [c for pair in zip(nd, de, strict=True) for c in pair] + parse_cards(upcard)
    return deck + [c for c in range(52) if c not in deck]


class _Secrets:
    """``secrets`` as the service uses it, with the computer (seat 1) dealing first."""

    token_urlsafe = staticmethod(secrets.token_urlsafe)
    token_hex = staticmethod(secrets.token_hex)

    @staticmethod
    def randbelow(n: int) -> int:
        return 1 % n


@pytest.fixture
def review_server(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[LiveServer]:
    """An app of the test's own whose first deal is the gin deal (later deals from a seed)."""
    rng = random.Random(20)
    made: list[int] = []

    def deck() -> list[int]:
        made.append(1)
        if len(made) == 1:
            return deck_of(PERSON, COMPUTER, UPCARD)
        d = list(range(52))
        rng.shuffle(d)
        return d

    monkeypatch.setattr(service_module, "shuffled_deck", deck)
    monkeypatch.setattr(service_module, "secrets", _Secrets)
    srv = LiveServer(tmp_path / "games.sqlite3", reviews=SMALL).start()
    yield srv
    srv.stop()


#: the person's first two moves: take the gin card, then break its run in place of going gin
FLAW = ["take", "discard 9D"]


def _move(state: dict[str, Any]) -> str:
    """Gin or knock when allowed, else draw from the stock and discard the highest card out of
    the melds."""
    legal = state["legal"]
    types = {a["type"]: a for a in legal}
    for t in ("big_gin", "gin", "knock"):
        xs = [a for a in legal if a["type"] == t]
        if xs:
            return str(min(xs, key=lambda a: a.get("deadwood_points", 0))["action"])
    for t in ("pass", "draw_stock"):
        if t in types:
            return str(types[t]["action"])
    discards = [a for a in legal if a["type"] == "discard"]
    if discards:
        melded = {c for m in state["arrangement"]["melds"] for c in m}
        loose = [a for a in discards if a["card"] not in melded] or discards
        return str(max(loose, key=lambda a: POINTS[a["card"][0]])["action"])
    return str(legal[0]["action"])


def finished_first_hand(server: LiveServer) -> tuple[str, str, dict[str, Any]]:
    """A game whose first hand (the fixed deal) is played to its end: (id, token, state)."""
    created = server.api("POST", "/api/games", body={"level": "easy", "rules": {"target": 10}})
    gid, token, state = created["game_id"], created["token"], created["state"]
    assert state["phase"] == "offer" and sorted(state["hand"]) == sorted(PERSON.split()), state
    script = list(FLAW)
    for _ in range(200):
        if state["phase"] in ("hand-over", "game-over"):
            break
        action = script.pop(0) if script else _move(state)
        state = server.api("POST", f"/api/games/{gid}/actions", token,
                           {"action": action, "seq": state["seq"]})
    record = server.api("GET", f"/api/games/{gid}/record", token)
    # what replays the hand if the test fails (pytest shows it with the failure)
    print("replays with: the record", json.dumps(record.get("hands", record))[:4000])
    assert state["phase"] in ("hand-over", "game-over"), state["phase"]
    return gid, token, state


def test_review_a_hand_step_to_a_mistake_and_try_again(page: Any,
                                                        review_server: LiveServer) -> None:
    server = review_server
    gid, token, state = finished_first_hand(server)
    page.goto(server.base + "/static/cards.js")  # same origin: the game page's saved game
    page.evaluate("v => localStorage.setItem('ginrummy.current', v)",
                  json.dumps({"game_id": gid, "token": token}))
    page.goto(server.base + "/?lang=en")
    link = page.get_by_test_id("review-link")
    expect(link).to_be_visible()
    over = state["phase"] == "game-over"
    expect(link).to_have_attribute("href", f"/review?game={gid}" + ("" if over else "&hand=1"))
    link.click()
    page.wait_for_url("**/review?game=*")
    # made in the pool: the summary comes once it is (the progress shows meanwhile)
    summary = page.get_by_test_id("review-summary")
    expect(summary).to_be_visible(timeout=MADE_MS)
    expect(page.get_by_test_id("review-progress")).to_have_count(0)
    scope = "" if over else "/hands/1"
    review = server.api("GET", f"/api/games/{gid}{scope}/review", token)["review"]
    for s in review["seats"]:
        for g, n in s["grades"].items():
            expect(page.get_by_test_id(f"review-count-{s['seat']}-{g}")).to_have_text(str(n))
    # the chances count who played: the new person (1500) against the level's rating
    assert review["ratings"] == [1500.0, level_ratings()["easy"].rating]
    note = page.get_by_test_id("review-chance-note")
    expect(note).to_contain_text("(rating about 1,500) against ")
    # the page rounds halves up (Math.round); Python's round() halves to even
    expect(note).to_contain_text(f"(about {math.floor(review['ratings'][1] + 0.5):,})")
    rated = page.get_by_test_id("decision-chance-rated").first
    expect(rated).to_contain_text("Counting who was playing: ")
    # grades are words and symbols
    expect(summary).to_contain_text("Blunder")
    expect(summary).to_contain_text("??")
    decisions = review["hands"][0]["decisions"]
    # the person's discard of the 9D (step 2) where gin was the best move
    d = next(x for x in decisions if x["step"] == 2)
    assert (d["seat"], d["played"]["action"], d["best"]["kind"]) == (0, FLAW[1], "gin"), d
    assert d["grade"] != "best", d

    # the person's decisions only: the decision is listed, with its sentence, and leads on
    page.get_by_test_id("review-mine-only").check()
    expect(page.locator("[data-testid=review-decision]")).to_have_count(
        sum(1 for x in decisions if x["seat"] == 0))
    card = page.locator(f"[data-testid=review-decision][data-hand='1'][data-step='{d['step']}']")
    expect(card).to_be_visible()
    expect(card.get_by_test_id("decision-grade")).to_have_attribute("data-grade", d["grade"])
    expect(card.get_by_test_id("decision-sentence")).to_contain_text("go gin")
    flaws = [x for x in decisions if x["grade"] in FLAWED]
    page.get_by_test_id("review-flawed-only").check()
    expect(page.locator("[data-testid=review-decision]")).to_have_count(
        sum(1 for x in flaws if x["seat"] == 0))
    page.get_by_test_id("review-flawed-only").uncheck()
    card.get_by_test_id("decision-replay").click()
    page.wait_for_url(f"**/replay?game={gid}&hand=1*")
    replay = server.api("GET", f"/api/games/{gid}/hands/1/replay", token)
    last = len(replay["frames"]) - 1
    expect(page.get_by_test_id("replay-step")).to_have_text(f"Step {d['step'] - 1} of {last}")
    # a mark on the timeline at each graded decision
    expect(page.get_by_test_id("review-mark")).to_have_count(len(decisions))
    panel = page.get_by_test_id("replay-review-panel")
    expect(panel).to_be_visible()
    expect(panel.get_by_test_id("decision-grade")).to_have_attribute("data-grade", d["grade"])
    # the chance counting who was playing, as on the review page (valued with both ratings)
    expect(panel.get_by_test_id("decision-chance-rated")).to_contain_text(
        "Counting who was playing: ")
    # the position as the person saw it: the computer's hand hidden, the better move marked
    # (the king of clubs, gin's discard) and the move played (the 9 of diamonds)
    expect(page.get_by_test_id("replay-hand-1")).to_have_attribute("data-hidden", "true")
    expect(page.get_by_test_id("replay-hand-1").locator("[data-card]")).to_have_count(0)
    expect(page.locator(".rv-best")).to_have_count(1)
    expect(page.locator(".rv-best")).to_have_attribute("data-card", "KC")
    expect(page.locator(".rv-played")).to_have_attribute("data-card", "9D")
    expect(page.get_by_test_id("replay-action")).to_have_text(
        "The position as you saw it, before your decision.")

    # Try again: the position offered, a move chosen, told how it compares
    panel.get_by_test_id("try-again").click()
    ex = page.get_by_test_id("exercise")
    expect(ex).to_be_visible()
    expect(ex).to_be_focused()
    moves = ex.get_by_test_id("exercise-move")
    actions = moves.evaluate_all("els => els.map(e => e.dataset.action)")
    assert d["played"]["action"] in actions and d["best"]["action"] in actions, actions
    ex.locator(f"[data-testid=exercise-move][data-action='{d['best']['action']}']").click()
    result = page.get_by_test_id("exercise-result")
    expect(result).to_be_visible(timeout=MADE_MS)
    expect(result.get_by_test_id("exercise-grade")).to_have_attribute("data-grade", "best")
    expect(result).to_contain_text("That is the best move")
    expect(result).to_contain_text("In the game you chose to discard the 9 of diamonds")
    # the move played gets the review's own grade
    ex.locator(f"[data-testid=exercise-move][data-action='{FLAW[1]}']").click()
    expect(result.get_by_test_id("exercise-grade")).to_have_attribute("data-grade", d["grade"],
                                                                      timeout=MADE_MS)
    expect(result).to_contain_text("That is what you played in the game")
    # the keyboard: the next decision button steps on; the exercise closes with its position
    page.get_by_test_id("review-next").click()
    expect(page.get_by_test_id("exercise")).to_have_count(0)


def test_a_decision_checked_by_play_outs_says_so(page: Any, tmp_path: Path,
                                                monkeypatch: pytest.MonkeyPatch) -> None:
    """A server that checks the search's mistakes by play-outs (8, ``hard`` playing on, to
    keep it quick): the search's review shows first with a note that its mistakes are being
    checked (the checked review held back by the test), then the checked one replaces it: the
    missed gin (a blunder for any search of 16 worlds: gin wins the hand now in every world)
    says on its card that it was checked, as the review's JSON says."""
    monkeypatch.setattr(service_module, "shuffled_deck",
                        lambda: deck_of(PERSON, COMPUTER, UPCARD))
    monkeypatch.setattr(service_module, "secrets", _Secrets)
    held = threading.Event()
    real = review_jobs.review_job

    def checked_later(*args: Any) -> str:
        if args[4]:  # confirm: the checked review waits for the test
            assert held.wait(MADE_MS / 1000)
        return real(*args)

    monkeypatch.setattr(review_jobs, "review_job", checked_later)
    checked = ReviewSettings(workers=1, queue=4, worlds=16, confirm=8, judge="hard",
                             processes=False)
    server = LiveServer(tmp_path / "games.sqlite3", reviews=checked).start()
    try:
        gid, token, _state = finished_first_hand(server)
        page.goto(server.base + "/static/cards.js")
        page.evaluate("v => localStorage.setItem('ginrummy.current', v)",
                      json.dumps({"game_id": gid, "token": token}))
        page.goto(server.base + f"/review?game={gid}&hand=1&lang=en")
        expect(page.get_by_test_id("review-summary")).to_be_visible(timeout=MADE_MS)
        checking = page.get_by_test_id("review-checking")
        expect(checking).to_contain_text("Checking the mistakes found by playing both moves on")
        expect(page.get_by_test_id("decision-confirmed")).to_have_count(0)
        held.set()
        expect(checking).to_have_count(0, timeout=MADE_MS)
        review = server.api("GET", f"/api/games/{gid}/hands/1/review", token)["review"]
        assert review["budget"] == {"worlds": 16, "confirm": 8, "judge": "hard"}
        d = next(x for x in review["hands"][0]["decisions"] if x["step"] == 2)
        assert d["played"]["action"] == FLAW[1] and d["confirmation"] is not None, d
        assert d["confirmation"]["search_grade"] in ("mistake", "blunder"), d
        card = page.locator("[data-testid=review-decision][data-hand='1'][data-step='2']")
        line = card.get_by_test_id("decision-confirmed")
        expect(line).to_contain_text("Checked: both moves played on to the end of the hand 8 "
                                     "times, from what could be seen then")
        if d["grade"] != d["confirmation"]["search_grade"]:
            expect(line).to_contain_text("the first look said: ")
        unchecked = [x for x in review["hands"][0]["decisions"] if x["confirmation"] is None]
        expect(page.get_by_test_id("decision-confirmed")).to_have_count(
            len(review["hands"][0]["decisions"]) - len(unchecked))
    finally:
        server.stop()


def test_a_finished_games_review_stays_reachable_after_a_new_game(
        page: Any, review_server: LiveServer) -> None:
    """The page that sees a game over keeps its token apart from the games in progress: after
    a new game is dealt in the same browser, the old game's review still opens."""
    server = review_server
    gid, token, state = finished_first_hand(server)
    for _ in range(2000):  # the rest of the game (target 10), played by the fixed policy
        if state["phase"] == "game-over":
            break
        state = server.api("POST", f"/api/games/{gid}/actions", token,
                           {"action": _move(state), "seq": state["seq"]})
    assert state["phase"] == "game-over", state["phase"]
    page.goto(server.base + "/static/cards.js")
    page.evaluate("v => localStorage.setItem('ginrummy.current', v)",
                  json.dumps({"game_id": gid, "token": token}))
    page.goto(server.base + "/?lang=en")
    expect(page.get_by_test_id("review-link")).to_be_visible()
    kept = page.evaluate("() => JSON.parse(localStorage.getItem('ginrummy.finished') || '[]')")
    assert [(g["game_id"], g["token"]) for g in kept] == [(gid, token)], kept
    # a new game in this browser: the old one is neither shown nor in progress
    new = server.api("POST", "/api/games", body={"level": "easy"})
    page.evaluate("v => localStorage.setItem('ginrummy.current', v)",
                  json.dumps({"game_id": new["game_id"], "token": new["token"]}))
    games = page.evaluate("() => JSON.parse(localStorage.getItem('ginrummy.games') || '[]')")
    assert gid not in [g["game_id"] for g in games], games
    page.goto(server.base + f"/review?game={gid}&lang=en")
    expect(page.get_by_test_id("review-summary")).to_be_visible(timeout=MADE_MS)
    expect(page.get_by_test_id("review-error")).to_be_hidden()


def test_the_review_page_says_why_not_yet(page: Any, review_server: LiveServer) -> None:
    """A game whose first hand is in play: nothing to review yet, in words."""
    created = review_server.api("POST", "/api/games", body={"level": "easy"})
    page.goto(review_server.base + "/static/cards.js")
    page.evaluate("v => localStorage.setItem('ginrummy.current', v)",
                  json.dumps({"game_id": created["game_id"], "token": created["token"]}))
    page.goto(review_server.base + f"/review?game={created['game_id']}&lang=en")
    err = page.get_by_test_id("review-error")
    expect(err).to_have_attribute("data-key", "review.error.none_finished")
    # the hand in play asked for: the server's reason, worded by the page
    page.goto(review_server.base + f"/review?game={created['game_id']}&hand=1&lang=id")
    expect(err).to_have_attribute("data-key", "review_hand_in_play")
    expect(err).to_contain_text("Ronde 1")
    page.goto(review_server.base + "/review?game=nobodys")
    expect(err).to_have_attribute("data-key", "review.error.no_game")


@pytest.mark.parametrize(("size", "lang"), [("phone", "jv"), ("desktop", "en")])
def test_the_review_passes_axe(new_context: Any, review_server: LiveServer,
                               axe_source: str,  # noqa: F811  (test_axe's fixture)
                               size: str, lang: str) -> None:
    """No serious or critical axe violation on the review page, nor on the replay with its
    review and the Try again exercise open."""
    server = review_server
    gid, token, _state = finished_first_hand(server)
    page = new_context(viewport=SIZES[size]).new_page()
    page.goto(server.base + "/static/cards.js")
    page.evaluate("v => localStorage.setItem('ginrummy.current', v)",
                  json.dumps({"game_id": gid, "token": token}))
    page.goto(server.base + f"/review?game={gid}&hand=1&lang={lang}")
    page.get_by_test_id("review-summary").wait_for(timeout=MADE_MS)
    problems = []
    found = _violations(page, axe_source)
    if found:
        problems.append(_report(f"/review?lang={lang} ({size})", found))
    page.goto(server.base + f"/replay?game={gid}&hand=1&review=1&step=1&try=1&lang={lang}")
    page.get_by_test_id("exercise-move").first.wait_for(timeout=MADE_MS)
    found = _violations(page, axe_source)
    if found:
        problems.append(_report(f"/replay?review=1&try=1&lang={lang} ({size})", found))
    assert not problems, "\n".join(problems)
