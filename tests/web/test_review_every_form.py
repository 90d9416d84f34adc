"""Review my game in every form (issue 20; docs/api.md "Review"): Oklahoma and straight gin (two
players, their own rules), Hollywood, three players and partnership, against the computer and at
tables of people. A finished hand (a deal, numbered as the record numbers them) is reviewed for
its two players, a finished game for every player of the table, exactly as the evaluator reviews
the game's record; ``you`` is the asker's player; the try-again position names the players at
its engine seats and its answer the player who decided; a deal in play (a partnership's other
table's too) is refused with nothing of it, and a token of no seat gets 404.

No luck of a deal decides a test: every deck comes from a seeded shuffle, the computers' seeds
and the first dealer are fixed, and the person's moves come from a seeded chooser, so each game
is played the same on every run (a failure names the form: ``-k <form>`` replays it). Small
searches (4 worlds) keep the reviews quick; nothing waits on a clock but the pool's idleness.
"""

from __future__ import annotations

import json
import random
import secrets
from collections.abc import Callable
from typing import Any

import pytest
from fastapi.testclient import TestClient
from leak_oracle import check_review_answer
from test_review_api import COMPUTER, GIN, PERSON, UPCARD, deck_of
from test_web_leak import card_strings
from web_helpers import Table, choose

import ginrummy.web.tables.service as service_module
from ginrummy.actions import Action
from ginrummy.bots.review import ReviewBudget, review_record
from ginrummy.bots.strength import level_ratings
from ginrummy.cards import CardSet, parse_cards
from ginrummy.hand import HandState
from ginrummy.rules import Rules
from ginrummy.web.review.reviews import ReviewSettings

SMALL = ReviewSettings(workers=1, queue=8, worlds=4, confirm=0, processes=False)

#: the forms reviewed here: (name, the new game's body, players at the table)
FORMS: list[tuple[str, dict[str, Any], int]] = [
    ("oklahoma", {"preset": "oklahoma", "rules": {"target": 25}}, 2),
    ("straight", {"preset": "straight", "rules": {"target": 50}}, 2),
    ("hollywood", {"scoring": "hollywood", "rules": {"target": 10}}, 2),
    ("three_player", {"scoring": "three_player", "rules": {"target": 100}}, 3),
    ("partnership", {"scoring": "partnership", "rules": {"target": 100}}, 4),
]


class _Secrets:
    """``secrets`` as the service uses it, made repeatable: the first dealer and every cut are
    seat 1, the games' secrets (which seed the computers' moves) come from a seeded source;
    tokens and ids stay random."""

    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)
        self.token_urlsafe = secrets.token_urlsafe

    def token_hex(self, n: int = 32) -> str:
        return self.rng.getrandbits(8 * n).to_bytes(n, "big").hex()

    @staticmethod
    def randbelow(n: int) -> int:
        return 1 % n


def _fix(monkeypatch: pytest.MonkeyPatch, seed: int,
         first: list[list[int]] | None = None) -> None:
    """Every deck from a shuffle seeded with ``seed`` (the ``first`` ones given, in the order
    the deals are made), the computers' seeds and the dealers fixed."""
    rng = random.Random(seed)
    given = [list(d) for d in first or []]

    def deck() -> list[int]:
        if given:
            return given.pop(0)
        d = list(range(52))
        rng.shuffle(d)
        return d

    monkeypatch.setattr(service_module, "shuffled_deck", deck)
    monkeypatch.setattr(service_module, "secrets", _Secrets(seed))


def _idle(client: TestClient) -> None:
    assert client.app.state.reviews.pool.wait_idle(120)  # type: ignore[attr-defined]


def _made(client: TestClient, url: str, headers: dict[str, str], new: bool = True) -> Any:
    """``url``'s answer once made: 202 first (started; ``new`` False: unless it was made
    before), then 200."""
    r = client.get(url, headers=headers)
    if r.status_code == 200 and not new:
        return r.json()
    assert r.status_code == 202, r.text[:300]
    assert not card_strings(r.json(), -1)
    _idle(client)
    r = client.get(url, headers=headers)
    assert r.status_code == 200, r.text[:300]
    return r.json()


def _record(client: TestClient, game_id: str, headers: dict[str, str]) -> dict[str, Any]:
    r = client.get(f"/api/games/{game_id}/record", headers=headers)
    assert r.status_code == 200, r.text
    data: dict[str, Any] = r.json()
    return data


def _evaluator(record: dict[str, Any], seats: tuple[int, ...], hands: set[int] | None
               ) -> dict[str, Any]:
    """The evaluator's own review of ``record`` (as ``ginrummy review --json`` gives it), with
    the ratings the web gives it: a two-player game against the computer (``easy`` at seat 1)
    is valued with the new person's 1500 and the level's rating; the other forms as even."""
    two = (record.get("scoring") or "standard") == "standard"
    ratings = (1500.0, level_ratings()["easy"].rating) if two else None
    out: dict[str, Any] = json.loads(json.dumps(
        review_record(record, seats, hands, ReviewBudget(SMALL.worlds),
                      ratings=ratings).to_json()))
    return out


def _hidden_before(record: dict[str, Any], number: int, step: int) -> set[str]:
    """The cards the seat to act before ``step`` of deal ``number`` could not know then."""
    h = next(x for x in record["hands"] if x["number"] == number)
    rules = Rules.from_dict({k: v for k, v in record["rules"].items() if k != "preset"})
    state = HandState(rules, h["dealer"], parse_cards(h["deck"]))
    for a in h["actions"][:step - 1]:
        state.apply(Action.parse(a))
    other = 1 - state.current
    return set(CardSet.of(state.stock()).texts()) | set(
        CardSet(state.hands[other] & ~state.known[other]).texts())


def _check_hand(client: TestClient, t: Table, number: int, form: str) -> dict[str, Any]:
    """Hand ``number`` reviewed: the evaluator's review of its two players, ``you`` 0."""
    got = _made(client, f"/api/games/{t.id}/hands/{number}/review", t.headers)
    record = _record(client, t.id, t.headers)
    finished = {h["number"] for h in record["hands"]}
    check_review_answer(200, got, finished, f"{form} hand {number}")
    (deal,) = [h for h in record["hands"] if h["number"] == number]
    players = tuple(sorted(deal["players"]))
    assert (got["game_id"], got["you"], got["hand"]) == (t.id, 0, number)
    review = got["review"]
    assert review == _evaluator(record, players, {number}), form
    assert review["scoring"] == record["scoring"]
    assert [s["seat"] for s in review["seats"]] == list(players)
    (h,) = review["hands"]
    assert (h["hand"], h["players"]) == (number, deal["players"])
    assert {d["seat"] for d in h["decisions"]} <= set(players)
    for d in h["decisions"]:
        # each decision names its player, who acted at that step of the deal
        engine_seat = deal["players"].index(d["seat"])
        state = HandState(Rules.from_dict({k: v for k, v in record["rules"].items()
                                           if k != "preset"}), deal["dealer"],
                          parse_cards(deal["deck"]))
        for a in deal["actions"][:d["index"]]:
            state.apply(Action.parse(a))
        assert state.current == engine_seat, (form, d)
    return got


def _play_to_end(t: Table, rng: random.Random, on_hand_over: Callable[[], None]) -> None:
    """The person's moves (seeded) until the game is over; ``on_hand_over`` at each end of a
    deal the person's page shows."""
    for _ in range(3000):
        if t.state["phase"] == "game-over":
            return
        if t.state["phase"] == "hand-over":
            on_hand_over()
        t.act(choose(t.state, rng))
    raise AssertionError("the game did not end")


@pytest.mark.parametrize(("form", "body", "players"), FORMS, ids=[f[0] for f in FORMS])
def test_every_form_is_reviewed_hand_by_hand_and_whole(
        make_client: Callable[..., TestClient], monkeypatch: pytest.MonkeyPatch, form: str,
        body: dict[str, Any], players: int) -> None:
    _fix(monkeypatch, 20 + len(form))
    client = make_client(reviews=SMALL)
    t = Table(client, {"level": "easy", **body})
    rng = random.Random(7)
    reviewed: list[int] = []

    def hand_over() -> None:
        record = _record(client, t.id, t.headers)
        done = [h["number"] for h in record["hands"] if h["number"] not in reviewed]
        if not done or len(reviewed) >= 2:
            return
        number = done[-1]
        _check_hand(client, t, number, form)
        reviewed.append(number)
        # the game is not over: its review waits, with nothing of the deal in play
        r = client.get(f"/api/games/{t.id}/review", headers=t.headers)
        assert r.status_code == 409 and r.json()["detail"]["code"] == "game_in_play"
        in_play = record["current"] if isinstance(record["current"], list) else [
            record["current"]] if record["current"] else []
        for c in in_play:  # a partnership's other table may still be playing its deal
            for url in (f"hands/{c['number']}/review", f"hands/{c['number']}/exercises/1"):
                r = client.get(f"/api/games/{t.id}/{url}", headers=t.headers)
                assert r.status_code == 409, r.text
                assert r.json()["detail"]["code"] == "hand_in_play"
                assert not card_strings(r.json(), -1)

    _play_to_end(t, rng, hand_over)
    assert reviewed, f"{form}: no hand ended before the game"
    got = _made(client, f"/api/games/{t.id}/review", t.headers)
    record = _record(client, t.id, t.headers)
    finished = [h["number"] for h in record["hands"]]
    check_review_answer(200, got, set(finished), f"{form} game")
    assert got["you"] == 0
    review = got["review"]
    assert review == _evaluator(record, tuple(range(players)), None), form
    assert review["complete"] is True and review["scoring"] == record["scoring"]
    assert [s["seat"] for s in review["seats"]] == list(range(players))
    assert [h["hand"] for h in review["hands"]] == finished
    assert [h["players"] for h in review["hands"]] == [h["players"] for h in record["hands"]]
    for s in review["seats"]:  # every player made decisions (none sat out all the game)
        assert s["decisions"] > 0 and s["accuracy"] is not None, (form, s)
    if form == "three_player":  # the one who sat a deal out is not in its hand's review
        sat_out = next(h for h in record["hands"] if 0 not in h["players"])
        got = _made(client, f"/api/games/{t.id}/hands/{sat_out['number']}/review", t.headers,
                    new=False)
        assert [s["seat"] for s in got["review"]["seats"]] == sorted(sat_out["players"])
    if form == "partnership":  # the teams: partners never play each other
        teams = [[0, 2], [1, 3]]
        for h in record["hands"]:
            assert all(p not in team or q not in team for team in teams
                       for p in h["players"] for q in h["players"] if p != q), h
    _check_exercise(client, t, review, record, form)


def _check_exercise(client: TestClient, t: Table, review: dict[str, Any],
                    record: dict[str, Any], form: str) -> None:
    """Try again at a decision of the player at engine seat 1 of a deal: the position names
    the deal's players and nothing hidden from that seat then; the answer names the player
    and grades the move played as the review did."""
    h, d = next(((h, d) for h in review["hands"] for d in h["decisions"]
                 if d["seat"] == h["players"][1]), (None, None))
    assert h is not None and d is not None, form
    base = f"/api/games/{t.id}/hands/{h['hand']}/exercises/{d['step']}"
    r = client.get(base, headers=t.headers)
    assert r.status_code == 200, r.text
    pos = r.json()["position"]
    assert (pos["seat"], pos["players"]) == (1, h["players"])
    leaked = set(card_strings(r.json(), -1)) & _hidden_before(record, h["hand"], d["step"])
    assert not leaked, (form, leaked)
    _idle(client)
    r = client.post(base, json={"action": d["played"]["action"]}, headers=t.headers)
    if r.status_code == 202:
        _idle(client)
        r = client.post(base, json={"action": d["played"]["action"]}, headers=t.headers)
    assert r.status_code == 200, r.text
    ans = r.json()
    assert (ans["you"], ans["seat"], ans["hand"], ans["step"]) == (0, d["seat"], h["hand"],
                                                                   d["step"])
    assert ans["played"] == d["played"]["action"]
    assert (ans["tried"]["grade"], ans["tried"]["drop"], ans["tried"]["seat"]) == (
        d["grade"], d["drop"], d["seat"])
    assert not set(card_strings(ans, -1)) & _hidden_before(record, h["hand"], d["step"])


# ------------------------------------------------------------------------- partnership
def test_at_a_partnership_of_people_each_seat_gets_its_review_and_never_the_other_tables_deal_in_play(  # noqa: E501
        make_client: Callable[..., TestClient], monkeypatch: pytest.MonkeyPatch) -> None:
    """Ann (seat A, table 0) and her partner Bo (seat C, table 1), computers at B and D. Ann's
    deal ends while Bo has not moved: she gets her deal's review, not Bo's deal (409, nothing
    of it); Bo gets the same review of Ann's deal with ``you`` his seat; a token of another
    game gets 404; once Bo's deal is over, both get its review."""
    from table_helpers import join, new_table

    _fix(monkeypatch, 41)
    client = make_client(reviews=SMALL)
    cpu = {"kind": "computer", "level": "easy"}
    ann, code = new_table(client, [{"kind": "person"}, cpu, {"kind": "open"}, cpu],
                          scoring="partnership", rules={"target": 100})
    bo = join(client, code, "Bo", seat=2)
    assert ann.call("POST", "/start").status_code == 200
    rng = random.Random(3)
    for _ in range(300):
        st = ann.get()
        if st["phase"] == "hand-over":
            break
        if st["phase"] in ("offer", "draw", "discard"):
            ann.act(choose(st, rng))
    assert ann.state["phase"] == "hand-over", ann.state["phase"]
    table = ann.state["table"]
    mine, other = table["deal"], table["other"]["deal"]
    assert not table["other"]["over"]  # Bo has not moved: his deal is in play
    record = _record(client, ann.id, ann.headers)
    assert [h["number"] for h in record["hands"]] == [mine]

    stranger = Table(client, {"level": "easy"})
    for headers in ({}, stranger.headers):
        for url in (f"/hands/{mine}/review", "/review", f"/hands/{mine}/exercises/1"):
            r = client.get(f"/api/games/{ann.id}{url}", headers=headers)
            assert r.status_code == 404 and ann.id not in r.text, (url, r.text)
    for who in (ann, bo):
        for url in (f"/hands/{other}/review", f"/hands/{other}/exercises/1"):
            r = who.call("GET", url)
            assert r.status_code == 409 and r.json()["detail"]["code"] == "hand_in_play"
            assert not card_strings(r.json(), -1), r.text

    a = _made(client, f"/api/games/{ann.id}/hands/{mine}/review", ann.headers)
    b = bo.call("GET", f"/hands/{mine}/review")
    assert b.status_code == 200, b.text
    assert (a["you"], b.json()["you"]) == (0, 2)
    assert a["review"] == b.json()["review"]
    assert [s["seat"] for s in a["review"]["seats"]] == sorted(record["hands"][0]["players"])
    assert a["review"] == _evaluator(record, tuple(sorted(record["hands"][0]["players"])),
                                     {mine})
    for got in (a, b.json()):
        check_review_answer(200, got, {mine}, "partnership, the other table in play")

    for _ in range(300):  # Bo plays his deal to its end
        st = bo.get()
        if st["phase"] == "hand-over":
            break
        if st["phase"] in ("offer", "draw", "discard"):
            bo.act(choose(st, rng))
    assert bo.state["phase"] == "hand-over"
    got = _made(client, f"/api/games/{ann.id}/hands/{other}/review", ann.headers)
    record = _record(client, ann.id, ann.headers)
    players = next(h["players"] for h in record["hands"] if h["number"] == other)
    assert 2 in players and 0 not in players
    assert got["you"] == 0 and [s["seat"] for s in got["review"]["seats"]] == sorted(players)
    assert bo.call("GET", f"/hands/{other}/review").json()["you"] == 2


def test_at_a_partnership_the_cards_the_person_could_not_see_change_no_grade(
        make_client: Callable[..., TestClient], monkeypatch: pytest.MonkeyPatch) -> None:
    """Two partnership games against the computer whose first hands differ only in what the
    person could not see: the opponent's cards and the stock at the person's table, and the
    whole deck of the other table. With the same revealed salts, every decision of the
    person in its first deal is graded the same (issue 20, "No leak")."""
    other = "4D 6D 2C 5C QH KH 3H 8H QS KS"
    mine = [deck_of(PERSON, COMPUTER, UPCARD), deck_of(PERSON, other, UPCARD)]
    assert mine[0][:20:2] == mine[1][:20:2] and mine[0][20] == mine[1][20]
    tables = [list(range(52)), list(reversed(range(52)))]
    monkeypatch.setattr(service_module, "new_salt", lambda: "5a" * 16)
    graded = []
    for i in range(2):
        _fix(monkeypatch, 5, [mine[i], tables[i]])
        client = make_client(reviews=SMALL)
        t = Table(client, {"level": "easy", "scoring": "partnership"})
        assert sorted(t.state["hand"]) == sorted(PERSON.split()) and t.state["phase"] == "offer"
        for a in GIN:
            t.act(a)
        assert t.state["phase"] == "hand-over"
        review = _made(client, f"/api/games/{t.id}/hands/1/review", t.headers)["review"]
        decided = [{k: d[k] for k in ("step", "kind", "played", "best", "moves", "drop", "z",
                                       "grade", "accuracy", "notes", "played_hint",
                                       "best_hint")}
                   for d in review["hands"][0]["decisions"] if d["seat"] == 0]
        assert [d["played"]["action"] for d in decided] == GIN
        graded.append((decided, review["hands"][0]["win_before"][0]))
    assert graded[0] == graded[1]
