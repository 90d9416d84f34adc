"""Tables of people (docs/tables.md): invites, joining, seats, start, leave, per-seat views,
tokens, away seats, rematch, quick messages and the turn clock, through the API."""

from __future__ import annotations

import random
import time
from typing import Any

import pytest
from fastapi.testclient import TestClient
from leak_oracle import check_seat_state
from table_helpers import Seat, join, new_table, play_until
from web_helpers import choose

from ginrummy.bots import LEVELS

OPEN = {"kind": "open"}
ME = {"kind": "person"}


def cpu(level: str = LEVELS[0]) -> dict[str, Any]:
    return {"kind": "computer", "level": level}


def two_people(client: TestClient, **body: Any) -> tuple[Seat, Seat]:
    ann, code = new_table(client, [ME, OPEN], **body)
    bo = join(client, code, "Bo")
    return ann, bo


def started(ann: Seat) -> dict[str, Any]:
    r = ann.call("POST", "/start")
    assert r.status_code == 200, r.text
    ann.state = r.json()
    return ann.state


# ------------------------------------------------------------------------------- the basics
def test_a_table_waits_for_its_people_then_two_people_play_a_whole_game(
        client: TestClient) -> None:
    """Two people through an invite play a whole two-player game (R-9: to the target); every
    answer is that person's own view."""
    ann, code = new_table(client, [ME, OPEN], rules={"target": 60})
    st = ann.state
    assert st["phase"] == "waiting" and st["you"] == 0 and st["seq"] == 0
    assert st["table"]["status"] == "waiting" and st["table"]["creator"] is True
    assert st["table"]["invite"]["code"] == code and st["table"]["invite"]["url"] == f"/join/{code}"
    assert [s["kind"] for s in st["seats"]] == ["person", "open"]
    assert st["seats"][0]["name"] == "Ann" and st["seats"][0]["you"] is True
    inv = client.get(f"/api/invites/{code}").json()
    assert inv["status"] == "waiting" and inv["full"] is False and "token" not in inv
    assert inv["seats"][1] == {"seat": 1, "kind": "open", "name": None, "level": None}
    # not started: no action, no record
    assert ann.post("draw stock").status_code == 422
    bo = join(client, code, "  Bo  ")
    assert bo.seat == 1 and bo.state["you"] == 1 and bo.state["phase"] == "waiting"
    assert bo.state["table"]["creator"] is False and bo.state["table"]["invite"] is None
    assert bo.state["seats"][1]["name"] == "Bo"
    assert client.get(f"/api/invites/{code}").json()["full"] is True
    # Bo cannot start: not the creator
    r = bo.call("POST", "/start")
    assert r.status_code == 403 and r.json()["detail"]["code"] == "not_creator"
    st = started(ann)
    assert st["phase"] in ("offer", "draw", "opponent") and st["table"]["status"] == "playing"
    b = bo.get()
    assert b["seq"] == st["seq"] and b["you"] == 1
    assert len(st["hand"]) == 10 and len(b["hand"]) == 10
    assert not set(st["hand"]) & set(b["hand"])
    # exactly one of them is to act (the non-dealer, R-3.1)
    acting = [s for s in (st, b) if s["phase"] in ("offer", "draw")]
    assert len(acting) == 1 and acting[0]["you"] != st["dealer"]
    rng = random.Random(4)
    play_until([ann, bo], rng, lambda ss: all(s["phase"] == "game-over" for s in ss))
    a, b = ann.get(), bo.get()
    assert a["score"]["final"] == b["score"]["final"] and a["table"]["status"] == "over"
    assert client.get(f"/api/invites/{code}").json()["status"] == "over"
    # the record checks out (fairness) for both, and the replay of hand 1 works for each seat
    for p in (ann, bo):
        assert p.call("GET", "/record").status_code == 200
        rep = p.call("GET", "/hands/1/replay")
        assert rep.status_code == 200 and rep.json()["you"] == p.seat


def test_opponent_phase_and_a_token_never_acts_for_another_seat(client: TestClient) -> None:
    ann, bo = two_people(client)
    started(ann)
    a, _b = ann.get(), bo.get()
    mover, waiter = (ann, bo) if a["phase"] in ("offer", "draw") else (bo, ann)
    assert waiter.state["phase"] == "opponent" and waiter.state["legal"] == []
    # the waiter sends the mover's move with the right seq: refused, nothing changes
    move = choose(mover.state, random.Random(1))
    r = waiter.post(move)
    assert r.status_code == 422 and r.json()["detail"]["code"] == "illegal"
    assert mover.get()["seq"] == a["seq"]
    hint = client.get(f"/api/games/{ann.id}/hint", headers=waiter.headers).json()
    assert hint["hint"] is None and hint["reason"] == "not_your_turn"
    # a made-up token, or none, reaches nothing
    for headers in ({"Authorization": "Bearer " + "x" * 43}, {}):
        assert client.get(f"/api/games/{ann.id}", headers=headers).status_code == 404
    mover.act(move)
    assert waiter.get()["seq"] == mover.state["seq"]


# ------------------------------------------------------------------------------ refusals
def test_full_table_seat_taken_and_started(client: TestClient) -> None:
    ann, code = new_table(client, [ME, OPEN, OPEN], scoring="three_player")
    bo = join(client, code, "Bo", seat=2)
    assert bo.seat == 2
    r = client.post(f"/api/invites/{code}/join", json={"name": "Cy", "seat": 2})
    assert r.status_code == 409 and r.json()["detail"]["code"] == "seat_taken"
    r = client.post(f"/api/invites/{code}/join", json={"name": "Cy", "seat": 0})
    assert r.status_code == 409 and r.json()["detail"]["code"] == "seat_taken"
    r = client.post(f"/api/invites/{code}/join", json={"name": "Cy", "seat": 7})
    assert r.status_code == 422
    r = ann.call("POST", "/start")
    assert r.status_code == 409 and r.json()["detail"]["code"] == "seats_open"
    cy = join(client, code, "Cy")
    assert cy.seat == 1
    r = client.post(f"/api/invites/{code}/join", json={"name": "Di"})
    assert r.status_code == 409 and r.json()["detail"]["code"] == "table_full"
    started(ann)
    r = client.post(f"/api/invites/{code}/join", json={"name": "Di"})
    assert r.status_code == 409 and r.json()["detail"]["code"] == "started"
    r = ann.call("POST", "/start")
    assert r.status_code == 409 and r.json()["detail"]["code"] == "not_waiting"
    assert client.get("/api/invites/" + "A" * 22).status_code == 404


@pytest.mark.parametrize("name", ["", "   ", "Bo\x00", "\u202eoB", "x" * 25, "a\u2028b",
                                  "tab\there", "\u200b", "\u200d\u200b", "Bo\u200f"])
def test_bad_display_names_are_refused(client: TestClient, name: str) -> None:
    ann, code = new_table(client, [ME, OPEN])
    before = client.get(f"/api/invites/{code}").json()
    r = client.post(f"/api/invites/{code}/join", json={"name": name})
    assert r.status_code == 422 and r.json()["detail"]["code"] == "name", r.text
    assert client.get(f"/api/invites/{code}").json() == before
    r = client.post("/api/games", json={"seats": [ME, OPEN], "name": name})
    assert r.status_code == 422 and r.json()["detail"]["code"] == "name"


def test_a_table_of_people_needs_its_creators_name(client: TestClient) -> None:
    r = client.post("/api/games", json={"seats": [ME, OPEN]})
    assert r.status_code == 422 and r.json()["detail"]["code"] == "name", r.text


FAMILY = "\U0001f468\u200d\U0001f469\u200d\U0001f467"  # three emoji joined by ZWJ
WAVE = "\U0001f44b\U0001f3fd"  # an emoji with a skin tone
NAMASTE = "\u0928\u092e\u0938\u094d\u0924\u0947"
ZWNJ_WORD = "\u0645\u06cc\u200c\u062e\u0648\u0627\u0647\u0645"  # ZWNJ inside a word


@pytest.mark.parametrize("name", [FAMILY, WAVE, "Zo\u00eb", NAMASTE, ZWNJ_WORD])
def test_emoji_and_joiners_are_names_like_others(client: TestClient, name: str) -> None:
    ann, code = new_table(client, [ME, OPEN], name=name)
    r = client.post(f"/api/invites/{code}/join", json={"name": name})  # one name per table
    assert r.status_code == 409 and r.json()["detail"]["code"] == "name_taken", r.text
    bo = join(client, code, f"{name} 2")
    assert [s["name"] for s in bo.state["seats"]] == [name, f"{name} 2"]


def test_names_are_kept_as_text(client: TestClient) -> None:
    ann, code = new_table(client, [ME, OPEN], name="<b>Ann</b>")
    bo = join(client, code, "Zoë & <i>co</i> 🂡" + "x" * 7)
    names = [s["name"] for s in bo.state["seats"]]
    assert names == ["<b>Ann</b>", "Zoë & <i>co</i> 🂡" + "x" * 7]


def test_seats_before_the_start_are_the_creators(client: TestClient) -> None:
    ann, code = new_table(client, [ME, OPEN, cpu()], scoring="three_player")
    r = ann.call("PUT", "/seats/1", {"kind": "computer", "level": LEVELS[-1]})
    assert r.status_code == 200, r.text
    assert r.json()["seats"][1]["kind"] == "computer"
    assert r.json()["seats"][1]["level"] == LEVELS[-1]
    r = ann.call("PUT", "/seats/2", {"kind": "open"})
    assert r.status_code == 200 and r.json()["seats"][2]["kind"] == "open"
    r = ann.call("PUT", "/seats/0", {"kind": "open"})
    assert r.status_code == 409 and r.json()["detail"]["code"] == "seat_taken"
    r = ann.call("PUT", "/seats/1", {"kind": "computer", "level": "nope"})
    assert r.status_code == 422
    # a person can take a computer's seat before the start
    bo = join(client, code, "Bo", seat=1)
    assert bo.seat == 1
    r = bo.call("PUT", "/seats/2", {"kind": "computer"})
    assert r.status_code == 403 and r.json()["detail"]["code"] == "not_creator"
    r = ann.call("PUT", "/seats/1", {"kind": "open"})
    assert r.status_code == 409 and r.json()["detail"]["code"] == "seat_taken"


def test_a_computer_game_has_no_table_operations(client: TestClient) -> None:
    r = client.post("/api/games", json={})
    data = r.json()
    assert set(data) == {"game_id", "token", "state"}
    assert "seats" not in data["state"] and "messages" not in data["state"]
    h = {"Authorization": f"Bearer {data['token']}"}
    for method, path, body in (("POST", "/start", None), ("POST", "/leave", None),
                               ("PUT", "/seats/1", {"kind": "open"}),
                               ("POST", "/messages", {"message": "hello"})):
        r = client.request(method, f"/api/games/{data['game_id']}{path}", json=body, headers=h)
        assert r.status_code == 409 and r.json()["detail"]["code"] == "not_waiting", r.text


# ------------------------------------------------------------------------- leave and away
def test_leave_before_the_start_opens_the_seat_after_it_a_computer_plays(
        client: TestClient) -> None:
    ann, code = new_table(client, [ME, OPEN])
    bo = join(client, code, "Bo")
    assert bo.call("POST", "/leave").json() == {"ok": True}
    assert bo.call("GET", "").status_code == 404  # the token stops working
    st = ann.get()
    assert st["seats"][1]["kind"] == "open" and st["seats"][1]["name"] is None
    r = ann.call("POST", "/leave")
    assert r.status_code == 409 and r.json()["detail"]["code"] == "creator"
    bo = join(client, code, "Bo")
    started(ann)
    assert bo.call("POST", "/leave").status_code == 200
    assert bo.call("GET", "").status_code == 404
    st = ann.get()
    assert st["seats"][1]["left"] is True
    # a computer plays Bo's seat now: Ann alone finishes the hand
    play_until([ann], random.Random(2),
               lambda ss: ss[0]["phase"] in ("hand-over", "game-over"), limit=200)


def test_away_seat_handed_to_a_computer_and_taken_back(client: TestClient) -> None:
    ann, bo = two_people(client)
    started(ann)
    svc = client.app.state.service  # type: ignore[attr-defined]
    # Bo has not connected for more than 20 s (a live stream keeps connected_until fresh)
    svc.tables.set_presence(bo.id, 1, time.time() - 30)
    svc.tables.set_presence(ann.id, 0, time.time() + 25)
    st = ann.get()
    assert st["seats"][1]["away"] is True and st["seats"][0]["connected"] is True
    r = bo.call("PUT", "/seats/1", {"kind": "computer"})
    assert r.status_code == 403  # only the creator hands a seat over
    r = ann.call("PUT", "/seats/0", {"kind": "computer"})
    assert r.status_code == 409  # Ann is not away
    r = ann.call("PUT", "/seats/1", {"kind": "computer"})
    assert r.status_code == 200 and r.json()["seats"][1]["computer_for_away"] is True
    # the computer plays for Bo: Ann is never kept waiting by seat 1
    for _ in range(6):
        a = ann.get()
        if a["phase"] in ("hand-over", "game-over"):
            break
        assert a["phase"] in ("offer", "draw", "discard"), a["phase"]
        ann.act(choose(a, random.Random(3)))
    b = bo.get()  # Bo's token still works: he sees his seat played
    assert b["you"] == 1 and b["seats"][1]["computer_for_away"] is True
    r = bo.call("PUT", "/seats/1", {"kind": "person"})
    assert r.status_code == 200 and r.json()["seats"][1]["computer_for_away"] is False
    r = ann.call("PUT", "/seats/1", {"kind": "person"})
    assert r.status_code == 409  # only Bo takes his own seat back


def test_a_request_reads_the_tables_row_once(client: TestClient) -> None:
    """A process that has never seen the table reads the tables row once per request, in the
    same statement as the game's row and its seats (authorization's one read; the game's
    scoring, which never changes, is remembered apart)."""
    from ginrummy.web.tables.service import TableService

    ann, bo = two_people(client)
    started(ann)
    fresh = TableService(client.app.state.store)  # type: ignore[attr-defined]
    reads: list[str] = []
    real_get = fresh.tables.get_with_game

    def counted(game_id: str) -> Any:
        reads.append(game_id)
        return real_get(game_id)

    def alone(game_id: str) -> Any:  # the table read apart from the game's row
        reads.append(f"alone {game_id}")
        raise AssertionError("read apart")

    fresh.tables.get_with_game = counted  # type: ignore[method-assign]
    fresh.tables.get = alone  # type: ignore[method-assign]
    st = fresh.get(bo.id, bo.token, None)
    assert st["you"] == 1 and reads == [bo.id]
    fresh.get(ann.id, ann.token, None)
    assert reads == [bo.id, bo.id]  # one read a request: seats change


# ------------------------------------------------------------------- messages and rematch
def test_quick_messages_are_preset_codes(client: TestClient) -> None:
    ann, bo = two_people(client)
    r = bo.call("POST", "/messages", {"message": "good_luck"})
    assert r.status_code == 200, r.text
    msgs = ann.get()["messages"]
    assert [(m["seat"], m["message"]) for m in msgs] == [(1, "good_luck")]
    for bad in ("<script>", "hi there", ""):
        r = ann.call("POST", "/messages", {"message": bad})
        assert r.status_code == 422
    assert len(ann.get()["messages"]) == 1
    codes = [bo.call("POST", "/messages", {"message": "hello"}).status_code
             for _ in range(15)]
    assert 429 in codes  # rate-limited


def test_rematch_keeps_seats_and_tokens(client: TestClient) -> None:
    ann, bo = two_people(client, rules={"target": 30})
    started(ann)
    r = ann.call("POST", "/rematch")
    assert r.status_code == 409  # not over yet
    play_until([ann, bo], random.Random(5), lambda ss: ss[0]["phase"] == "game-over")
    r = bo.call("POST", "/rematch")
    assert r.status_code == 403
    r = ann.call("POST", "/rematch")
    assert r.status_code == 201, r.text
    new_id = r.json()["game_id"]
    assert new_id != ann.id and r.json()["state"]["table"]["status"] == "playing"
    assert ann.get()["table"]["rematch"] == {"game_id": new_id}
    assert bo.get()["table"]["rematch"] == {"game_id": new_id}
    # the same tokens hold the same seats at the new table
    nb = client.get(f"/api/games/{new_id}", headers=bo.headers)
    assert nb.status_code == 200 and nb.json()["you"] == 1
    assert [s["name"] for s in nb.json()["seats"]] == ["Ann", "Bo"]
    again = ann.call("POST", "/rematch")
    assert again.status_code == 201 and again.json()["game_id"] == new_id


def test_turn_clock_plays_the_late_persons_turn(client: TestClient) -> None:
    r = client.post("/api/games", json={"seats": [ME, OPEN], "turn_clock": 5})
    assert r.status_code == 422 and r.json()["detail"]["code"] == "turn_clock"
    ann, bo = two_people(client, turn_clock=15)
    st = started(ann)
    assert st["table"]["turn_clock"] == 15 and st["table"]["turn_deadline"] is not None
    a, _b = ann.get(), bo.get()
    late = ann if a["phase"] in ("offer", "draw") else bo
    other = bo if late is ann else ann
    seq = late.state["seq"]
    svc = client.app.state.service  # type: ignore[attr-defined]
    # fifteen seconds pass without a move: any request plays the late seat's turn
    with svc.store.engine.begin() as conn:
        from sqlalchemy import text

        # the deal's turn began 16 s ago (the clock counts from each deal's turn)
        conn.execute(text("UPDATE deals SET turn_at = turn_at - 16 WHERE game_id = :i"),
                     {"i": ann.id})
    svc.records.cache_drop(ann.id)
    o = other.get()
    assert o["seq"] > seq
    assert o["phase"] in ("offer", "draw", "hand-over"), o["phase"]
    assert late.get()["phase"] in ("opponent", "hand-over")


def test_each_partnership_table_has_its_own_turn_clock(client: TestClient,
                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    """A move at one table of a partnership leaves the other table's deadline as it was, and
    a clock that runs out plays only that table's late turn. Decks, dealers and computer seeds
    fixed (seed 3): with the server's own a computer's first turn could end a deal at once."""
    from sqlalchemy import text
    from test_review_every_form import _fix

    _fix(monkeypatch, 3)

    seats = [ME, cpu(), OPEN, cpu()]  # hand 1: tables (0, 1) and (2, 3): a person at each
    ann, code = new_table(client, seats, scoring="partnership", turn_clock=60)
    cy = join(client, code, "Cy")
    started(ann)
    a, c = ann.get(), cy.get()
    assert a["phase"] in ("offer", "draw") and c["phase"] in ("offer", "draw")  # both to move
    ann_deadline, cy_deadline = a["table"]["turn_deadline"], c["table"]["turn_deadline"]
    assert ann_deadline is not None and cy_deadline is not None
    assert a["table"]["other"]["turn_deadline"] == cy_deadline
    assert c["table"]["other"]["turn_deadline"] == ann_deadline
    time.sleep(0.05)
    ann.act(choose(a, random.Random(1)))  # Ann's table moves on (her computer answers)
    c2 = cy.get()
    assert c2["phase"] == c["phase"] and c2["table"]["turn_deadline"] == cy_deadline
    a2 = ann.get()
    assert a2["table"]["other"]["turn_deadline"] == cy_deadline
    assert a2["table"]["turn_deadline"] is None or a2["table"]["turn_deadline"] > ann_deadline
    # Cy's clock runs out (his deal's turn began 61 s ago): only his turn is played
    svc = client.app.state.service  # type: ignore[attr-defined]
    with svc.store.engine.begin() as conn:
        conn.execute(text("UPDATE deals SET turn_at = turn_at - 61 WHERE game_id = :i "
                          "AND number = :n"), {"i": ann.id, "n": a2["table"]["other"]["deal"]})
    svc.records.cache_drop(ann.id)
    engine = svc.engine_of(ann.id)
    before = [len(h.history) for h in engine.deals()]
    a3 = ann.get()
    after = [len(h.history) for h in svc.engine_of(ann.id).deals()]
    mine = a3["table"]["deal"] - 1
    theirs = a3["table"]["other"]["deal"] - 1
    assert after[theirs] > before[theirs]  # Cy's turn was played
    assert after[mine] == before[mine]  # Ann's table did not move
    assert a3["phase"] == a2["phase"]


# ----------------------------------------------------- three players and partnership, people
def _events_are_stable(p: Seat) -> None:
    """Every event a seat was sent keeps its number: the whole stream again (since 0) holds
    each event it saw under the same number, numbers rising, none above the state's seq."""
    full = p.get(since=0)
    by_seq = {e["seq"]: e for e in full["events"]}
    seqs = [e["seq"] for e in full["events"]]
    assert seqs == sorted(set(seqs)) and (not seqs or seqs[-1] <= full["seq"])
    for st in p.seen:
        for e in st.get("events", []):
            assert by_seq.get(e["seq"]) == e, (p.seat, e)


def _no_hidden_cards(client: TestClient, people: list[Seat]) -> None:
    """No person's state now names a card hidden from that person (tests/web/leak_oracle)."""
    svc = client.app.state.service  # type: ignore[attr-defined]
    engine = svc.engine_of(people[0].id)
    for p in people:
        check_seat_state(p.get(), engine, p.seat, f"seat {p.seat}")


@pytest.mark.parametrize("people_at", [(0, 1), (0, 2)])
def test_three_players_with_people_and_a_computer(client: TestClient,
                                                  people_at: tuple[int, int]) -> None:
    seats = [ME, cpu(), cpu()]
    seats[people_at[1]] = OPEN
    ann, code = new_table(client, seats, scoring="three_player", rules={"target": 60})
    bo = join(client, code, "Bo")
    assert bo.seat == people_at[1]
    started(ann)
    rng = random.Random(7)
    sat_out = set()
    for _ in range(40):
        play_until([ann, bo], rng, lambda ss: ss[0]["phase"] in ("hand-over", "game-over"))
        _no_hidden_cards(client, [ann, bo])
        for p in (ann, bo):
            if p.state["table"]["spectating"]:
                sat_out.add(p.seat)
                assert p.state["hand"] == []
        if ann.state["phase"] == "game-over":
            break
        ann.act("next hand")
    assert ann.get()["phase"] == "game-over" and bo.get()["phase"] == "game-over"
    for p in (ann, bo):
        _events_are_stable(p)


@pytest.mark.parametrize("scoring, seats", [
    ("partnership", [ME, OPEN, cpu(), cpu()]),
    ("three_player", [ME, OPEN, cpu()]),
    ("standard", [ME, OPEN]),
])
def test_every_seat_shows_its_card_count(client: TestClient, scoring: str,
                                         seats: list[dict[str, Any]]) -> None:
    """Card counts are public: every seat's, at both tables of a partnership, for every person
    and in every state (the engine's own count); a seat sitting the hand out has none; cards
    are never named."""
    ann, code = new_table(client, seats, scoring=scoring)
    bo = join(client, code, "Bo")
    assert all(s["card_count"] is None for s in ann.get()["seats"])  # before the start
    started(ann)
    svc = client.app.state.service  # type: ignore[attr-defined]
    rng = random.Random(4)
    for step in range(12):
        engine = svc.engine_of(ann.id)
        want = engine.card_counts()
        assert len(want) == {"partnership": 4}.get(scoring, 2)
        for p in (ann, bo):
            st = p.get()
            got = {s["seat"]: s["card_count"] for s in st["seats"]}
            assert got == {n: want.get(n) for n in range(len(seats))}, (step, got, want)
            assert all(c in (10, 11) for c in want.values())
            if scoring == "partnership":
                other = st["table"]["other"]
                assert dict(zip(other["players"], other["cards"], strict=True)) == \
                    {n: want[n] for n in other["players"]}
            check_seat_state(st, svc.engine_of(ann.id), p.seat, f"step {step}")
        movers = [p for p in (ann, bo) if p.state["phase"] in ("offer", "draw", "discard")]
        if not movers:
            break
        mover = movers[0]
        mover.act(choose(mover.state, rng))


@pytest.mark.parametrize("people_at", [(0, 2), (0, 1, 3), (0, 1, 2, 3)])
def test_partnership_with_people_at_both_tables(client: TestClient,
                                                people_at: tuple[int, ...]) -> None:
    """Both tables' deals proceed as their movers act; the hand is scored once both end
    (4P); each seat's events keep their numbers."""
    seats = [ME] + [OPEN if i in people_at else cpu() for i in (1, 2, 3)]
    ann, code = new_table(client, seats, scoring="partnership", rules={"target": 50})
    people = [ann] + [join(client, code, n) for n in ("Bo", "Cy", "Di")[:len(people_at) - 1]]
    assert sorted(p.seat for p in people) == sorted(people_at)
    started(ann)
    rng = random.Random(11)
    hands = 0
    while hands < 30:
        play_until(people, rng, lambda ss: all(s["phase"] in ("hand-over", "game-over")
                                               and (s["phase"] == "game-over" or any(
                                                   a["type"] == "next_hand"
                                                   for a in s["legal"])) for s in ss))
        _no_hidden_cards(client, people)
        hands += 1
        st = ann.get()
        assert len(st["score"]["hands"]) == hands  # scored once both deals ended
        if st["phase"] == "game-over":
            break
        ann.act("next hand")
    for p in people:
        assert p.get()["phase"] == "game-over"
        _events_are_stable(p)


def test_tables_and_joins_count_against_the_new_game_limit(make_client: Any) -> None:
    from ginrummy.web.http.ratelimit import RateLimits

    client = make_client(rate_limits=RateLimits(creates=2, requests=None))
    _ann, code = new_table(client, [ME, OPEN, OPEN], scoring="three_player")
    join(client, code, "Bo")
    r = client.post(f"/api/invites/{code}/join", json={"name": "Cy"})
    assert r.status_code == 429 and r.json()["detail"]["code"] == "rate_limited"
    assert int(r.headers["Retry-After"]) >= 1
    r = client.post("/api/games", json={"seats": [ME, OPEN], "name": "Ann"})
    assert r.status_code == 429


def test_two_rematch_requests_at_once_make_one_rematch(client: TestClient, db_url: str) -> None:
    """Two processes take the creator's rematch request at the same moment (each read the table
    without a rematch and built one): one transaction wins, both answer its game, and nothing of
    the other is stored (no orphan game)."""
    import threading

    from sqlalchemy import text

    from ginrummy.store import Store
    from ginrummy.web.tables.seats import Seats
    from ginrummy.web.tables.service import TableService

    ann, bo = two_people(client, rules={"target": 20})
    started(ann)
    play_until([ann, bo], random.Random(5), lambda ss: ss[0]["phase"] == "game-over")
    stores = [Store(db_url), Store(db_url)]  # two processes: no lock, no cache in common
    try:
        seatings = [Seats(TableService(s)) for s in stores]
        both_built = threading.Barrier(2, timeout=30)
        built: list[str] = []
        for seating in seatings:
            real = seating._rematch_of

            def held(row: Any, table: Any, real: Any = real) -> Any:
                made = real(row, table)
                built.append(made[1].game_id)
                both_built.wait()  # neither writes before both have read and built
                return made

            seating._rematch_of = held  # type: ignore[method-assign]

        def count(sql: str) -> int:
            with stores[0].engine.connect() as conn:
                return int(conn.execute(text(sql)).scalar_one())

        games_before = count("SELECT count(*) FROM games")
        tables_before = count("SELECT count(*) FROM tables")
        answers: list[Any] = [None, None]

        def ask(i: int) -> None:
            try:
                answers[i] = seatings[i].rematch(ann.id, ann.token)
            except Exception as e:  # pragma: no cover - shown by the assertion below
                answers[i] = e

        threads = [threading.Thread(target=ask, args=(i,)) for i in (0, 1)]
        for t in threads:
            t.start()
        for t in threads:
            t.join(60)
        assert all(isinstance(a, dict) for a in answers), answers
        assert len(set(built)) == 2  # two were built...
        new_id = answers[0]["game_id"]
        assert answers[1]["game_id"] == new_id and new_id in built  # ...one was kept
        loser = next(b for b in built if b != new_id)
        assert count("SELECT count(*) FROM games") == games_before + 1
        assert count("SELECT count(*) FROM tables") == tables_before + 1
        assert count(f"SELECT count(*) FROM games WHERE id = '{loser}'") == 0
        assert count(f"SELECT count(*) FROM seats WHERE game_id = '{loser}'") == 0
        assert ann.get()["table"]["rematch"] == {"game_id": new_id}
        nb = client.get(f"/api/games/{new_id}", headers=bo.headers)
        assert nb.status_code == 200 and nb.json()["you"] == 1
    finally:
        for s in stores:
            s.close()


def test_presence_leases_are_renewed_together_and_a_left_seat_is_not(
        client: TestClient) -> None:
    """The live streams' presence leases of a process are renewed in one call
    (web/live/presence.py; on PostgreSQL one statement): a seated person's seat gets the new lease,
    a seat that person left (or a token that is not the seat's) gets nothing and is reported
    lost, so that its stream ends."""
    from ginrummy.web.http.tokens import token_hash

    ann, code = new_table(client, [ME, OPEN])
    bo = join(client, code, "Bo")
    started(ann)
    tables = client.app.state.service.tables  # type: ignore[attr-defined]
    gid = ann.id
    keys = [(gid, 0, token_hash(ann.token)), (gid, 1, token_hash(bo.token)),
            (gid, 1, token_hash(ann.token)), ("no-such-game", 0, token_hash(ann.token))]
    until = time.time() + 1000
    assert tables.refresh_presence_many(keys, until) == set(keys[:2])
    assert all(s.connected_until == until for s in tables.get(gid).seats)
    assert bo.call("POST", "/leave").status_code == 200
    assert tables.refresh_presence_many(keys, until + 1) == {keys[0]}
    seats = {s.seat: s for s in tables.get(gid).seats}
    assert seats[0].connected_until == until + 1 and seats[1].connected_until == until
    # more seats than one statement holds: every one renewed
    many = [keys[0]] * 3 + [(gid, 0, token_hash(f"x{i}")) for i in range(450)]
    assert tables.refresh_presence_many(many, until + 2) == {keys[0]}


def test_an_away_creator_is_handed_to_the_computer_by_another_person(client: TestClient) -> None:
    """Issue 21 item 11: when the creator is the one away, nobody could move the table on but
    by leaving. Once a seat has had no connection for HAND_OVER_AFTER seconds, any other person
    at the table may hand it to the computer; its person takes it back on return."""
    from ginrummy.web.tables.seat_state import AWAY_AFTER, HAND_OVER_AFTER

    ann, bo = two_people(client)
    started(ann)
    svc = client.app.state.service  # type: ignore[attr-defined]
    svc.tables.set_presence(bo.id, 1, time.time() + 25)
    svc.tables.set_presence(ann.id, 0, time.time() - AWAY_AFTER - 5)  # away, not for long
    st = bo.get()
    assert st["seats"][0]["away"] is True and st["seats"][0]["hand_over"] is False
    r = bo.call("PUT", "/seats/0", {"kind": "computer"})
    assert r.status_code == 403 and r.json()["detail"]["code"] == "not_creator"
    assert bo.get()["seats"][0]["computer_for_away"] is False  # nothing changed
    svc.tables.set_presence(ann.id, 0, time.time() - HAND_OVER_AFTER - 5)  # away long enough
    st = bo.get()
    assert st["seats"][0]["hand_over"] is True and st["seats"][1]["hand_over"] is False
    assert ann.get()["seats"][0]["hand_over"] is False  # never one's own seat
    r = bo.call("PUT", "/seats/1", {"kind": "computer"})
    assert r.status_code == 403  # nor one's own seat by request
    r = bo.call("PUT", "/seats/0", {"kind": "computer"})
    assert r.status_code == 200, r.text
    assert r.json()["seats"][0]["computer_for_away"] is True
    assert r.json()["seats"][0]["hand_over"] is False  # done
    # the computer plays for Ann: Bo is never kept waiting by seat 0
    for _ in range(6):
        b = bo.get()
        if b["phase"] in ("hand-over", "game-over"):
            break
        assert b["phase"] in ("offer", "draw", "discard"), b["phase"]
        bo.act(choose(b, random.Random(4)))
    r = ann.call("PUT", "/seats/0", {"kind": "person"})  # Ann is back: her seat again
    assert r.status_code == 200 and r.json()["seats"][0]["computer_for_away"] is False
