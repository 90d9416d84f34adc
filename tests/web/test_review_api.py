"""Review my game on the web (issue 20; docs/api.md "Review"): a finished hand and a finished
game reviewed for every seat, made once in the review pool and stored (the same text on every
later ask, and the evaluator's own review of the record), refused while in play, 404 for anyone
but the game's seats (the other forms: tests/web/test_review_every_form.py); the try-again exercise
(the position as its seat saw it, no hidden card) and its answer; a full pool answers 503 with
``Retry-After``, a failed review 500. SQLite and PostgreSQL.

No luck of a deal decides a test: the first deal is fixed (the person, not the dealer, is dealt
a hand that takes the upcard and goes gin: two decisions), and small searches (4 worlds) keep
the reviews quick. Nothing waits on a clock: the pool is waited for until idle.
"""

from __future__ import annotations

import json
import random
import secrets
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import replace
from typing import Any

import pytest
import sqlalchemy as sa
from fastapi.testclient import TestClient
from test_web_leak import card_strings
from web_helpers import Table

import ginrummy.web.review.jobs as review_jobs
import ginrummy.web.tables.service as service_module
from ginrummy.actions import Action
from ginrummy.bots.review import ReviewBudget, review_record
from ginrummy.bots.strength import level_ratings
from ginrummy.cards import CardSet, parse_cards
from ginrummy.hand import HandState
from ginrummy.rules import Rules
from ginrummy.web.review.reviews import ReviewSettings

SMALL = ReviewSettings(workers=1, queue=4, worlds=4, confirm=0, processes=False)
#: the person (the non-dealer) takes the upcard JD and goes gin discarding KC
PERSON = "AS 2S 3S 5H 6H 7H 8D 9D TD KC"
COMPUTER = "4C 6C 8C TC QC 2H 4H 9H JH KH"
UPCARD = "JD"
GIN = ["take", "gin KC"]


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
def fixed_deals(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every game's first deal is the gin deal above, dealt by the computer; later deals are
    shuffled from a fixed seed."""
    rng = random.Random(20)
    first = deck_of(PERSON, COMPUTER, UPCARD)
    made: list[int] = []

    def deck() -> list[int]:
        made.append(1)
        if len(made) == 1:
            return list(first)
        d = list(range(52))
        rng.shuffle(d)
        return d

    monkeypatch.setattr(service_module, "shuffled_deck", deck)
    monkeypatch.setattr(service_module, "secrets", _Secrets)


@pytest.fixture
def rclient(make_client: Callable[..., TestClient], fixed_deals: None) -> TestClient:
    return make_client(reviews=SMALL)


def _game(client: TestClient, **rules: Any) -> Table:
    """A new game against the computer whose first deal is the gin deal (one per test: the
    fixed deck is the first deck made)."""
    t = Table(client, {"level": "easy", "rules": rules})
    assert t.state["phase"] == "offer" and t.state["you"] == 0, t.state
    assert sorted(t.state["hand"]) == sorted(PERSON.split())
    return t


def _gin(t: Table) -> None:
    for a in GIN:
        t.act(a)
    assert t.state["phase"] in ("hand-over", "game-over"), t.state["phase"]


def _idle(client: TestClient) -> None:
    assert client.app.state.reviews.pool.wait_idle(120)  # type: ignore[attr-defined]


def _made(client: TestClient, url: str, headers: dict[str, str]) -> Any:
    """The answer to ``url`` once made: 202 first (started), then 200."""
    r = client.get(url, headers=headers)
    assert r.status_code == 202, r.text
    assert r.headers["Retry-After"] == "1"
    body = r.json()
    assert body["status"] in ("queued", "running")
    assert 0 <= body["progress"]["done"] <= body["progress"]["total"]
    _idle(client)
    r = client.get(url, headers=headers)
    assert r.status_code == 200, r.text
    return r


def _rows(client: TestClient) -> list[tuple[str, str]]:
    engine = client.app.state.store.engine  # type: ignore[attr-defined]
    with engine.connect() as c:
        return sorted((r[0], r[1]) for r in c.execute(sa.text(
            "SELECT game_id, scope FROM reviews")).all())


# ----------------------------------------------------------------------------- reviews
def test_a_finished_hand_is_reviewed_once_for_both_seats_as_the_evaluator_does(
        rclient: TestClient) -> None:
    t = _game(rclient)
    _gin(t)
    url = f"/api/games/{t.id}/hands/1/review"
    r = _made(rclient, url, t.headers)
    got = r.json()
    assert (got["game_id"], got["you"], got["hand"]) == (t.id, 0, 1)
    record = rclient.get(f"/api/games/{t.id}/record", headers=t.headers).json()
    # valued with who plays: a new person (1500 before a rated game) and the level's rating
    ratings = (1500.0, level_ratings()["easy"].rating)
    want = review_record(record, (0, 1), {1}, ReviewBudget(4), ratings=ratings).to_json()
    assert got["review"] == json.loads(json.dumps(want))
    review = got["review"]
    assert review["ratings"] == list(ratings)
    assert [s["seat"] for s in review["seats"]] == [0, 1]
    decisions = review["hands"][0]["decisions"]
    assert [(d["step"], d["seat"], d["played"]["action"]) for d in decisions] == [
        (1, 0, "take"), (2, 0, "gin KC")]
    # asked again: the stored text at once, no job
    again = rclient.get(url, headers=t.headers)
    assert again.status_code == 200 and again.content == r.content
    assert rclient.app.state.reviews.pool.jobs() == []  # type: ignore[attr-defined]
    assert _rows(rclient) == [(t.id, "hand/1/w4")]


def test_the_searchs_review_comes_first_then_the_one_checked_by_play_outs(
        make_client: Callable[..., TestClient], fixed_deals: None,
        monkeypatch: pytest.MonkeyPatch) -> None:
    """With play-outs in the settings, the search's review is answered (200, ``checking`` with
    the checked one's progress and Retry-After) while its mistakes are checked; then the
    checked review, as the library makes it with that budget. Each is stored under its own
    budget's tag."""
    client = make_client(reviews=replace(SMALL, confirm=8, judge="hard"))
    held = threading.Event()
    real = review_jobs.review_job

    def checked_later(*args: Any) -> str:
        if args[4]:  # confirm: the checked review waits for the test
            assert held.wait(60)
        return real(*args)

    monkeypatch.setattr(review_jobs, "review_job", checked_later)
    t = _game(client)
    _gin(t)
    url = f"/api/games/{t.id}/hands/1/review"
    r = client.get(url, headers=t.headers)
    for _ in range(600):  # the search's review: made in well under a second of a core
        if r.status_code == 200:
            break
        assert r.status_code == 202, r.text
        time.sleep(0.1)
        r = client.get(url, headers=t.headers)
    assert r.status_code == 200, r.text
    got = r.json()
    assert got["checking"]["status"] in ("queued", "running"), got["checking"]
    assert r.headers["Retry-After"] == "1"
    record = client.get(f"/api/games/{t.id}/record", headers=t.headers).json()
    ratings = (1500.0, level_ratings()["easy"].rating)
    first = review_record(record, (0, 1), {1}, ReviewBudget(4), ratings=ratings)
    assert got["review"] == json.loads(json.dumps(first.to_json()))
    held.set()
    _idle(client)
    r = client.get(url, headers=t.headers)
    assert r.status_code == 200 and "checking" not in r.json() and "Retry-After" not in r.headers
    checked = review_record(record, (0, 1), {1}, ReviewBudget(4, 8, "hard"), ratings=ratings)
    assert r.json()["review"] == json.loads(json.dumps(checked.to_json()))
    assert r.json()["review"]["budget"] == {"worlds": 4, "confirm": 8, "judge": "hard"}
    assert _rows(client) == [(t.id, "hand/1/w4"), (t.id, "hand/1/w4c8-hard")]


def test_a_finished_game_is_reviewed_and_a_game_given_up_too(rclient: TestClient) -> None:
    over = _game(rclient, target=10)  # the gin ends the game
    _gin(over)
    assert over.state["phase"] == "game-over"
    got = _made(rclient, f"/api/games/{over.id}/review", over.headers).json()
    assert (got["game_id"], got["you"]) == (over.id, 0)
    assert got["review"]["complete"] is True
    assert [h["hand"] for h in got["review"]["hands"]] == [1]
    easy = level_ratings()["easy"].rating
    assert got["review"]["ratings"] == [1500.0, easy]  # the person's first rated game

    gave_up = Table(rclient, {"level": "easy"})  # the same browser (its cookie)
    assert rclient.post(f"/api/games/{gave_up.id}/resign",
                        headers=gave_up.headers).status_code == 200
    got = _made(rclient, f"/api/games/{gave_up.id}/review", gave_up.headers).json()
    # the deal given up is never revealed, so never reviewed
    assert got["review"]["complete"] is False and got["review"]["hands"] == []
    # valued with the person's rating after the game won above: its rating before this one
    history = rclient.get("/api/stats").json()["rating"]["history"]
    assert [h["game_id"] for h in history] == [over.id, gave_up.id]
    assert got["review"]["ratings"] == [history[0]["rating"], easy] != [1500.0, easy]


def test_refused_while_in_play_with_nothing_of_the_deal(rclient: TestClient) -> None:
    t = _game(rclient)  # hand 1 in play: the person is to take or pass
    base = f"/api/games/{t.id}"
    for url, code, reason in ((f"{base}/hands/1/review", "hand_in_play", "review_hand_in_play"),
                              (f"{base}/review", "game_in_play", "review_game_in_play"),
                              (f"{base}/hands/1/exercises/1", "hand_in_play",
                               "review_hand_in_play")):
        r = rclient.get(url, headers=t.headers)
        assert r.status_code == 409, r.text
        detail = r.json()["detail"]
        assert (detail["code"], detail["reason"]["code"]) == (code, reason)
        assert not card_strings(r.json(), -1)
    r = rclient.post(f"{base}/hands/1/exercises/1", json={"action": "take"}, headers=t.headers)
    assert r.status_code == 409 and not card_strings(r.json(), -1)
    r = rclient.get(f"{base}/hands/2/review", headers=t.headers)
    assert r.status_code == 404 and r.json()["detail"]["reason"] == {
        "code": "no_hand", "params": {"number": 2}}
    _gin(t)
    assert t.act("next hand")["phase"] in ("offer", "draw", "discard")
    r = rclient.get(f"{base}/hands/2/review", headers=t.headers)  # hand 2 in play now
    assert r.status_code == 409 and r.json()["detail"]["reason"]["params"] == {"number": 2}
    assert _rows(rclient) == []  # nothing claimed, nothing made


def test_a_game_is_reviewed_for_its_seats_only(rclient: TestClient) -> None:
    t = _game(rclient)
    _gin(t)
    other = Table(rclient, {"level": "easy"})
    base = f"/api/games/{t.id}"
    for headers in ({}, other.headers, {"Authorization": "Bearer " + "A" * 43}):
        for method, url, body in (("GET", f"{base}/review", None),
                                  ("GET", f"{base}/hands/1/review", None),
                                  ("GET", f"{base}/hands/1/exercises/2", None),
                                  ("POST", f"{base}/hands/1/exercises/2",
                                   {"action": "gin KC"})):
            r = rclient.request(method, url, json=body, headers=headers)
            assert r.status_code == 404, (url, r.text)
            assert r.json()["detail"]["code"] == "not_found" and t.id not in r.text
    assert _rows(rclient) == []


def test_at_a_table_of_people_each_seat_gets_the_one_review(
        rclient: TestClient, blocked: threading.Event) -> None:
    """The review job waits (``blocked``) until both seats have asked, so that the second ask
    finds it being made however fast the machine is."""
    from table_helpers import join, new_table

    ann, code = new_table(rclient, [{"kind": "person"}, {"kind": "open"}])
    bo = join(rclient, code, "Bo")
    assert ann.call("POST", "/start").status_code == 200
    assert sorted(ann.get()["hand"]) == sorted(PERSON.split())  # Ann, not dealing, is first
    for a in GIN:
        ann.act(a)
    url = "/hands/1/review"
    assert ann.call("GET", url).status_code == 202
    assert bo.call("GET", url).status_code == 202  # the same review, being made
    blocked.set()
    assert rclient.app.state.reviews.pool.wait_idle(120)  # type: ignore[attr-defined]
    a, b = ann.call("GET", url), bo.call("GET", url)
    assert (a.status_code, b.status_code) == (200, 200)
    assert (a.json()["you"], b.json()["you"]) == (0, 1)
    assert a.json()["review"] == b.json()["review"]
    assert [s["seat"] for s in a.json()["review"]["seats"]] == [0, 1]
    # a person's rating is theirs alone: a table of people is valued as even
    assert a.json()["review"]["ratings"] is None
    assert _rows(rclient) == [(ann.id, "hand/1/w4")]


# ---------------------------------------------------------------------------- try again
def _hidden_before(record: dict[str, Any], number: int, step: int) -> set[str]:
    """The cards the seat to act before ``step`` could not know then: the stock and the
    other hand's cards it did not see taken."""
    h = record["hands"][number - 1]
    state = HandState(Rules.from_dict({k: v for k, v in record["rules"].items()
                                       if k != "preset"}), h["dealer"], parse_cards(h["deck"]))
    for a in h["actions"][:step - 1]:
        state.apply(Action.parse(a))
    other = 1 - state.current
    return set(CardSet.of(state.stock()).texts()) | set(
        CardSet(state.hands[other] & ~state.known[other]).texts())


def test_try_again_shows_the_position_as_the_seat_saw_it_and_grades_a_move(
        rclient: TestClient) -> None:
    t = _game(rclient)
    _gin(t)
    base = f"/api/games/{t.id}/hands/1"
    review = _made(rclient, f"{base}/review", t.headers).json()["review"]
    record = rclient.get(f"/api/games/{t.id}/record", headers=t.headers).json()
    gin_decision = review["hands"][0]["decisions"][1]
    r = rclient.get(f"{base}/exercises/2", headers=t.headers)
    assert r.status_code == 200, r.text
    ex = r.json()
    pos = ex["position"]
    assert (ex["hand"], ex["step"], ex["you"], pos["seat"], pos["phase"]) == (1, 2, 0, 0,
                                                                              "discard")
    assert sorted(pos["hand"]["cards"]) == sorted(PERSON.split() + [UPCARD])
    assert pos["taken_card"] == UPCARD and pos["opponent"] == {"cards": 10, "known": []}
    assert {m["action"] for m in pos["moves"]} == {m["action"] for m in gin_decision["moves"]}
    assert pos["score"] == {"points": [0, 0], "target": 100}
    leaked = set(card_strings(ex, -1)) & _hidden_before(record, 1, 2)
    assert not leaked, leaked

    _idle(rclient)  # the exercise's grading, started by the GET above
    for tried, same in (("gin KC", True), ("discard 9D", False), ("discard JD", None)):
        r = rclient.post(f"{base}/exercises/2", json={"action": tried}, headers=t.headers)
        if r.status_code == 202:
            _idle(rclient)
            r = rclient.post(f"{base}/exercises/2", json={"action": tried}, headers=t.headers)
        if same is None:  # the card just taken from the discard pile
            assert r.status_code == 422 and r.json()["detail"]["code"] == "illegal", r.text
            assert r.json()["detail"]["reason"]["code"] == "taken_card"
            continue
        assert r.status_code == 200, r.text
        got = r.json()
        assert (got["hand"], got["step"], got["seat"], got["played"]) == (1, 2, 0, "gin KC")
        tried_d = got["tried"]
        assert tried_d["played"]["action"] == tried and tried_d["best"] == gin_decision["best"]
        assert tried_d["moves"] == gin_decision["moves"]
        if same:  # the move played: the review's own grade
            assert (tried_d["grade"], tried_d["drop"]) == (gin_decision["grade"],
                                                           gin_decision["drop"])
        else:
            assert tried_d["drop"] >= 0 and tried_d["grade"] in (
                "best", "good", "inaccuracy", "mistake", "blunder")
        assert not set(card_strings(got, -1)) & _hidden_before(record, 1, 2)
    bad = rclient.post(f"{base}/exercises/2", json={"action": "discard ZZ"}, headers=t.headers)
    assert bad.status_code == 422 and bad.json()["detail"]["code"] == "invalid"
    held_not = rclient.post(f"{base}/exercises/2", json={"action": "discard QD"},
                            headers=t.headers)
    assert held_not.status_code == 422
    assert held_not.json()["detail"]["reason"]["code"] == "not_in_hand"
    for step in (0, 3):
        r = rclient.get(f"{base}/exercises/{step}", headers=t.headers)
        assert r.status_code == 404 and r.json()["detail"]["reason"] == {
            "code": "no_decision", "params": {"step": step}}


def _plain_move(state: dict[str, Any]) -> str:
    """Gin or knock when allowed, else pass or draw from the stock and discard the card out of
    the melds worth most (a fixed policy: the hand ends within the stock)."""
    legal = state["legal"]
    for kind in ("big_gin", "gin", "knock", "pass", "draw_stock"):
        xs = [a for a in legal if a["type"] == kind]
        if xs:
            return str(xs[0]["action"])
    melded = {c for m in state["arrangement"]["melds"] for c in m}
    discards = [a for a in legal if a["type"] == "discard"]
    loose = [a for a in discards if a["card"] not in melded] or discards
    return str(max(loose, key=lambda a: "A23456789TJQK".index(a["card"][0]))["action"])


def test_the_move_played_is_tried_again_as_the_checked_review_graded_it(
        make_client: Callable[..., TestClient], fixed_deals: None) -> None:
    """With play-outs: the exercise grades every move by the search alone, except the move
    played in the game, answered as the checked review graded it (its play-outs and all)."""
    client = make_client(reviews=replace(SMALL, worlds=16, confirm=8, judge="hard"))
    t = _game(client)
    t.act("take")
    state = t.act("discard 9D")  # gin was there: a blunder for any search of 16 worlds
    for _ in range(200):
        if state["phase"] in ("hand-over", "game-over"):
            break
        state = t.act(_plain_move(state)) if state["legal"] else t.get()
    record = client.get(f"/api/games/{t.id}/record", headers=t.headers).json()
    print("replays with: the record", json.dumps(record["hands"])[:3000])
    assert state["phase"] in ("hand-over", "game-over"), state["phase"]
    base = f"/api/games/{t.id}/hands/1"
    client.get(f"{base}/review", headers=t.headers)
    _idle(client)
    r = client.get(f"{base}/review", headers=t.headers)
    assert r.status_code == 200 and "checking" not in r.json(), r.text
    checked = next(d for d in r.json()["review"]["hands"][0]["decisions"] if d["step"] == 2)
    assert checked["confirmation"] is not None, checked
    client.post(f"{base}/exercises/2", json={"action": "discard 9D"}, headers=t.headers)
    _idle(client)
    for tried in ("discard 9D", "gin KC"):
        r = client.post(f"{base}/exercises/2", json={"action": tried}, headers=t.headers)
        assert r.status_code == 200, r.text
        got = r.json()["tried"]
        if tried == "discard 9D":
            assert got == checked
        else:
            assert got["grade"] == "best" and got["confirmation"] is None
    assert (t.id, "exercise/1/2/w16") in _rows(client)


def test_the_cards_the_seat_could_not_see_change_no_grade(
        make_client: Callable[..., TestClient], monkeypatch: pytest.MonkeyPatch) -> None:
    """Two games whose first deals differ only in cards the person never saw (the computer's
    hand and the stock), with the same revealed salt: every decision of the person is graded
    the same, and so is a move tried there (issue 20, "No leak")."""
    other = "4D 6D 2C 5C QH KH 3H 8H QS KS"
    decks = [deck_of(PERSON, COMPUTER, UPCARD), deck_of(PERSON, other, UPCARD)]
    assert decks[0][:20:2] == decks[1][:20:2] and decks[0][20] == decks[1][20]
    assert decks[0][21:] != decks[1][21:] and decks[0][1:20:2] != decks[1][1:20:2]
    monkeypatch.setattr(service_module, "shuffled_deck", lambda: list(decks.pop(0)))
    monkeypatch.setattr(service_module, "new_salt", lambda: "5a" * 16)
    monkeypatch.setattr(service_module, "secrets", _Secrets)
    client = make_client(reviews=SMALL)
    graded = []
    for _ in range(2):
        t = _game(client)
        _gin(t)
        review = _made(client, f"/api/games/{t.id}/hands/1/review", t.headers).json()["review"]
        mine = [{k: d[k] for k in ("step", "kind", "played", "best", "moves", "drop", "z",
                                    "grade", "accuracy", "notes", "played_hint", "best_hint")}
                for d in review["hands"][0]["decisions"] if d["seat"] == 0]
        assert len(mine) == 2
        url = f"/api/games/{t.id}/hands/1/exercises/2"
        assert client.get(url, headers=t.headers).status_code == 200
        _idle(client)
        tried = client.post(url, json={"action": "discard 9D"}, headers=t.headers)
        assert tried.status_code == 200, tried.text
        graded.append((mine, tried.json()["tried"]))
    assert graded[0] == graded[1]


# ------------------------------------------------------------------ a full pool, a failure
@pytest.fixture
def blocked(monkeypatch: pytest.MonkeyPatch) -> Iterator[threading.Event]:
    """Every review job waits for the event before it runs."""
    go = threading.Event()
    real = review_jobs.review_job

    def waiting(*args: Any) -> str:
        assert go.wait(120)
        return real(*args)

    monkeypatch.setattr(review_jobs, "review_job", waiting)
    yield go
    go.set()


def test_a_full_pool_answers_503_with_retry_after_and_changes_nothing(
        make_client: Callable[..., TestClient], fixed_deals: None,
        blocked: threading.Event) -> None:
    client = make_client(reviews=ReviewSettings(workers=1, queue=1, worlds=4, confirm=0,
                                                processes=False))
    t = _game(client, target=10)
    _gin(t)
    assert client.get(f"/api/games/{t.id}/hands/1/review",
                      headers=t.headers).status_code == 202  # running (waiting for the event)
    assert client.get(f"/api/games/{t.id}/review",
                      headers=t.headers).status_code == 202  # queued
    r = client.get(f"/api/games/{t.id}/hands/1/exercises/1", headers=t.headers)
    assert r.status_code == 200  # the position is answered, its grading not started
    r = client.post(f"/api/games/{t.id}/hands/1/exercises/1", json={"action": "pass"},
                    headers=t.headers)
    assert r.status_code == 503, r.text
    assert r.json()["detail"]["code"] == "busy"
    seconds = r.json()["detail"]["reason"]["params"]["seconds"]
    assert r.headers["Retry-After"] == str(seconds) and 1 <= seconds <= 120
    assert _rows(client) == [(t.id, "game/w4"), (t.id, "hand/1/w4")]  # no claim for it
    blocked.set()
    _idle(client)
    assert client.get(f"/api/games/{t.id}/review", headers=t.headers).status_code == 200
    assert client.post(f"/api/games/{t.id}/hands/1/exercises/1", json={"action": "pass"},
                       headers=t.headers).status_code == 202  # room again


def test_a_failed_review_is_500_and_claimed_again_later(
        rclient: TestClient, monkeypatch: pytest.MonkeyPatch) -> None:
    import ginrummy.web.review.reviews as reviews_module

    def broken(*_args: Any) -> str:
        raise RuntimeError("a bug naming AS 2S")

    monkeypatch.setattr(review_jobs, "review_job", broken)
    t = _game(rclient)
    _gin(t)
    url = f"/api/games/{t.id}/hands/1/review"
    assert rclient.get(url, headers=t.headers).status_code == 202
    _idle(rclient)
    r = rclient.get(url, headers=t.headers)
    assert r.status_code == 500 and r.json()["detail"]["code"] == "review_failed"
    assert _rows(rclient) == []  # the claim was given up
    monkeypatch.undo()
    monkeypatch.setattr(reviews_module, "FAILED_KEPT", 0.0)  # tried again at the next ask
    _made(rclient, url, t.headers)


@pytest.mark.sqlite_only
def test_a_review_made_in_a_worker_process_is_the_same(
        make_client: Callable[..., TestClient], fixed_deals: None) -> None:
    """The pool's worker processes (as ``ginrummy serve`` runs them) make the same review as
    the evaluator in this process: the search is seeded from the record alone."""
    client = make_client(reviews=ReviewSettings(workers=1, queue=2, worlds=4, confirm=0,
                                                processes=True))
    t = _game(client)
    _gin(t)
    got = _made(client, f"/api/games/{t.id}/hands/1/review", t.headers).json()
    record = client.get(f"/api/games/{t.id}/record", headers=t.headers).json()
    want = review_record(record, (0, 1), {1}, ReviewBudget(4),
                         ratings=(1500.0, level_ratings()["easy"].rating)).to_json()
    assert got["review"] == json.loads(json.dumps(want))
