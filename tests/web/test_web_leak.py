"""No response ever names a card the person may not know at that moment (DESIGN.md
principle 6): the computer's unknown cards, the stock, the computer's face-down knock discard.

Many games are played through the API with random (but hand-ending) choices over several rule
sets; after every response the true deal is rebuilt on the server side and every card-looking
string in the JSON is checked against what seat 0 may know.
"""

from __future__ import annotations

import logging
import random
import re
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest
from fastapi.testclient import TestClient
from web_helpers import Table, choose

from ginrummy.bots import LEVELS, make_bot
from ginrummy.cards import CardSet, card_text
from ginrummy.game import Game
from ginrummy.web.tables.state import HISTORY_SHOWN

CARD = re.compile(r"(?:10|[A2-9TJQK])[SHDC]")
#: keys whose values are random ids or hashes, not cards.
NOT_CARDS = {"game_id", "token", "commitment", "salt"}


def card_strings(obj: Any, hand_number: int, path: str = "") -> dict[str, str]:
    """Every card text found in ``obj`` -> where it was found (events of earlier deals
    skipped)."""
    found: dict[str, str] = {}
    if isinstance(obj, dict):
        if "type" in obj and isinstance(obj.get("hand"), int) and obj["hand"] != hand_number:
            return found  # an event of an earlier deal
        for k, v in obj.items():
            if k in NOT_CARDS:
                continue
            found.update(card_strings(v, hand_number, f"{path}.{k}"))
    elif isinstance(obj, list):
        for i, v in enumerate(obj):
            found.update(card_strings(v, hand_number, f"{path}[{i}]"))
    elif isinstance(obj, str):
        for m in CARD.finditer(obj):
            found[m.group(0).replace("10", "T")] = path
    return found


def hidden_now(game: Game) -> set[str]:
    """Cards seat 0 may not know now in the deal in play (or just ended)."""
    h = game.current
    assert h is not None
    hidden = set(CardSet.of(h.stock()).texts())
    o = h.outcome
    if o is None or o.kind == "dead":
        hidden |= set(CardSet(h.hands[1] & ~h.known[1]).texts())
    if o is not None and o.knocker == 1 and o.knock_discard is not None:
        # the face-down knock discard is hidden, unless the person saw the computer take that
        # very card from the discard pile on an earlier turn (then it was public already)
        seen_taken = any(e.seat == 1 and e.card == o.knock_discard
                         and e.action.kind.value in ("take", "draw_discard") for e in h.history)
        if not seen_taken:
            hidden.add(card_text(o.knock_discard))
    return hidden


def check(state: dict[str, Any], game: Game, where: str) -> None:
    h = game.current
    assert h is not None
    over = h.is_over
    fair = state["fairness"]
    if not over:
        assert fair["revealed"] is None, where
    # earlier deals' reveals; this deal's deck once it is over (that is the point)
    n = state["hand_number"]
    assert [r["hand"] for r in fair["history"]] == list(range(max(1, n - HISTORY_SHOWN), n)), \
        where
    assert fair["history_total"] == n - 1, where
    body = dict(state)
    body["fairness"] = {k: v for k, v in fair.items()
                        if k != "history" and (k != "revealed" or not over)}
    text = repr(body)
    assert "'deck'" not in text and "'salt'" not in text, where
    # the first upcard was dealt face up: public for good, even once the computer took it and
    # later knocked with it face down (the person saw it go to the computer's hand)
    assert body.pop("initial_upcard") == card_text(h.deck[20]), where
    leaked = {c: p for c, p in card_strings(body, state["hand_number"]).items()
              if c in hidden_now(game)}
    assert not leaked, f"{where}: hidden cards in the response: {leaked}"


def test_no_response_names_a_hidden_card(client: TestClient) -> None:
    service = client.app.state.service  # type: ignore[attr-defined]
    rng = random.Random(2024)
    configs: list[dict[str, Any]] = [
        {"preset": "standard", "rules": {"target": 60}},
        {"preset": "oklahoma", "rules": {"target": 40}},
        {"preset": "straight", "rules": {"target": 30}},
        {"preset": "pagat", "rules": {"target": 40, "big_gin_bonus": 31,
                                      "dead_hand_rule": "fiftieth_card"}},
        {"preset": "standard", "rules": {"target": 50, "dead_hand_rule": "fiftieth_card"}},
        {"preset": "eaai", "rules": {"target": 40}},
    ]
    responses = 0
    kinds: set[str] = set()
    for i, cfg in enumerate(configs * 2):
        if responses > 800:  # enough; keeps the test fast
            break
        body = {**cfg, "level": LEVELS[i % min(3, len(LEVELS))]}
        t = Table(client, body)
        check(t.state, service.game(t.id), f"game {i} created")
        finish = i % 2 == 0
        steps = 0
        while t.state["phase"] != "game-over" and steps < 400:
            steps += 1
            t.act(choose(t.state, rng, finish=finish or rng.random() < 0.5))
            game = service.game(t.id)
            check(t.state, game, f"game {i} seq {t.state['seq']}")
            responses += 1
            if t.state["result"]:
                kinds.add(t.state["result"]["kind"])
            if steps % 25 == 0:  # a reload from scratch too
                check(t.get(since=0), game, f"game {i} reload")
    assert responses > 300
    assert {"knock", "dead"} & kinds


# ------------------------------------------------------------------------- logs, other games
# Many games at once through a REAL uvicorn server (in a thread, on 127.0.0.1, most verbose log
# level), every log record captured; random legal, illegal and malformed requests; a computer
# player that sometimes fails with an error naming its own hidden cards. After each request:
# no new log line names a card hidden from the person in any live game, an unrevealed salt, a
# token, a token hash or a game's secret; no response of one game carries another game's id,
# token, secret, commitments or salts.

LOG_CARD = re.compile(r"(?<![A-Za-z0-9_-])(?:10|[A2-9TJQK])[SHDC](?![A-Za-z0-9_-])")


class _Lines(logging.Handler):
    """Every record, formatted with its traceback, kept as text."""

    def __init__(self) -> None:
        super().__init__(level=1)
        self.lines: list[str] = []
        self._fmt = logging.Formatter("%(name)s %(levelname)s %(message)s")
        self._guard = threading.Lock()

    def emit(self, record: logging.LogRecord) -> None:
        if record.name.startswith(("httpx", "httpcore")):
            return  # the test's own client, not the server
        text = self._fmt.format(record)
        if record.exc_info and not record.exc_text:
            text += "\n" + self._fmt.formatException(record.exc_info)
        with self._guard:
            self.lines.append(text)

    def since(self, mark: int) -> list[str]:
        with self._guard:
            return self.lines[mark:]


class _Faulty:
    """Plays like the real level, but one move in four fails first with an error that names
    a card of its own hand (as a buggy bot's IllegalActionError would)."""

    name = "faulty"

    def __init__(self, real: Any) -> None:
        self.real = real
        self.n = 0

    def choose(self, view: Any, ctx: Any) -> Any:
        self.n += 1
        if self.n % 4 == 0:
            from ginrummy.errors import IllegalActionError

            held = view.hand.texts()
            raise IllegalActionError(f"{held[0]} is not in your hand; hand {' '.join(held)}")
        return self.real.choose(view, ctx)


@contextmanager
def _live_server(app: Any) -> Iterator[str]:
    import uvicorn

    config = uvicorn.Config(app, host="127.0.0.1", port=0, log_config=None, log_level="trace",
                            access_log=True, lifespan="on")
    server = uvicorn.Server(config)
    th = threading.Thread(target=server.run, daemon=True)
    th.start()
    deadline = time.monotonic() + 20
    while not server.started:
        assert th.is_alive() and time.monotonic() < deadline, "the server did not start"
        time.sleep(0.02)
    port = server.servers[0].sockets[0].getsockname()[1]
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        server.should_exit = True
        th.join(timeout=20)


class _Snapshot:
    """What each game hides now, read on the server side, rebuilt only when its seq moved."""

    def __init__(self, service: Any) -> None:
        self.service = service
        self._seen: dict[str, tuple[int, set[str], set[str], set[str]]] = {}

    def of(self, game_id: str) -> tuple[set[str], set[str], set[str]]:
        """(hidden cards now; what may never appear anywhere: token hash, the computer's
        secret, unrevealed salts, the stock order; what may appear in this game's own answers
        only: its commitments and revealed salts)."""
        row = self.service.store.get_game(game_id)
        got = self._seen.get(game_id)
        if got is None or got[0] != row.seq:
            never = {row.token_hash, row.secret}
            own: set[str] = set()
            for d in self.service.store.get_deals(game_id):
                own.add(d.commitment)
                if d.finished:
                    own.add(d.salt)
                else:
                    never.add(d.salt)
                    never.add(" ".join(d.deck[21:24]))  # the stock's top cards, in order
            got = (row.seq, hidden_now(self.service.game(game_id)), never, own)
            self._seen[game_id] = got
        return got[1], got[2], got[3]


def test_no_log_line_or_other_game_leaks(tmp_path: Any, caplog: Any) -> None:
    import httpx

    from ginrummy.web import create_app
    from ginrummy.web.http.ratelimit import RateLimits
    from ginrummy.web.review.reviews import ReviewSettings

    handler = _Lines()
    watched = [logging.getLogger(n) for n in ("", "uvicorn", "uvicorn.error", "uvicorn.access",
                                               "uvicorn.asgi", "ginrummy", "fastapi")]
    for lg in watched:
        lg.addHandler(handler)
    caplog.set_level(1)
    app = create_app(f"sqlite:///{tmp_path / 'leak.sqlite3'}",
                     rate_limits=RateLimits(creates=None, requests=None),
                     reviews=ReviewSettings(workers=1, queue=64, worlds=4, confirm=0,
                                            processes=False))
    service = app.state.service
    faulty_level = LEVELS[0]
    service._bots[faulty_level] = _Faulty(make_bot(faulty_level))
    rng = random.Random(77)
    snap = _Snapshot(service)
    tokens: dict[str, str] = {}
    states: dict[str, dict[str, Any]] = {}
    checked_lines = 0
    responses = 0
    try:
        with _live_server(app) as base, httpx.Client(base_url=base, timeout=30) as http:

            def check_logs(mark: int, where: str) -> None:
                nonlocal checked_lines
                lines = handler.since(mark)
                checked_lines += len(lines)
                if not lines:
                    return
                text = "\n".join(lines)
                hidden: set[str] = set()
                forbidden: set[str] = set(tokens.values())
                for gid in tokens:
                    h, never, _own = snap.of(gid)
                    hidden |= h
                    forbidden |= never
                named = {m.group(0).replace("10", "T") for m in LOG_CARD.finditer(text)}
                assert not named & hidden, f"{where}: log names hidden cards {named & hidden}"
                bad = [s for s in forbidden if s and s in text]
                assert not bad, f"{where}: log carries a secret: {bad}"

            def check_answer(gid: str | None, body: str, where: str) -> None:
                for other, tok in tokens.items():
                    _h, never, own = snap.of(other)
                    bad = [s for s in never if s in body]
                    if other != gid:
                        bad += [s for s in (other, tok, *own) if s in body]
                    assert not bad, f"{where}: answer carries {bad} (of game {other})"

            def create(level: str) -> None:
                mark = len(handler.lines)
                r = http.post("/api/games", json={"level": level, "rules": {"target": 40}})
                assert r.status_code == 201, r.text
                d = r.json()
                check_answer(d["game_id"], r.text.replace(d["token"], ""), "create")
                tokens[d["game_id"]] = d["token"]
                states[d["game_id"]] = d["state"]
                check_logs(mark, "create")

            for i in range(8):
                create(faulty_level if i % 2 == 0 else LEVELS[min(1, len(LEVELS) - 1)])
            ids = list(tokens)
            for step in range(450):
                gid = rng.choice(ids)
                st = states[gid]
                hdr = {"Authorization": f"Bearer {tokens[gid]}"}
                other = rng.choice([g for g in ids if g != gid])
                url = f"/api/games/{gid}"
                roll = rng.random()
                mark = len(handler.lines)
                if st["phase"] == "game-over":
                    r = http.get(url + "/record", headers=hdr)
                elif roll < 0.70:
                    r = http.post(url + "/actions", headers=hdr,
                                  json={"action": choose(st, rng), "seq": st["seq"]})
                elif roll < 0.76:
                    r = http.post(url + "/actions", headers=hdr,
                                  json={"action": rng.choice(["discard ZZ", "knock", "fly",
                                                              "discard 7H", "gin AS"]),
                                        "seq": st["seq"]})
                elif roll < 0.80:
                    r = http.post(url + "/actions", headers=hdr,
                                  json={"action": "pass", "seq": st["seq"] + 3})
                elif roll < 0.84:  # another game's token: 404, and nothing of that game
                    r = http.get(url, headers={"Authorization": f"Bearer {tokens[other]}"})
                    assert r.status_code == 404, r.text
                elif roll < 0.88:
                    r = http.post(url + "/actions", headers=hdr, content=b"{\"action\": [1]",
                                  )
                elif roll < 0.92:
                    r = http.get(url + "/record", headers=hdr)
                elif roll < 0.95:  # a review, or a try-again position, of any hand so far
                    n = rng.randrange(1, st["hand_number"] + 1)
                    r = http.get(rng.choice([f"{url}/hands/{n}/review", f"{url}/review",
                                             f"{url}/hands/{n}/exercises/"
                                             f"{rng.randrange(1, 30)}"]), headers=hdr)
                    assert r.status_code in (200, 202, 404, 409, 503), r.text
                    if r.status_code in (404, 409):
                        assert not card_strings(r.json(), -1), r.text
                else:
                    r = http.get(url, headers=hdr, params={"since": rng.randrange(0, 40)})
                responses += 1
                assert r.status_code < 500, r.text
                where = f"step {step} game {gid} {r.request.method} {r.request.url.path}"
                check_answer(gid, r.text, where)
                if r.status_code == 200 and "seq" in r.json():
                    states[gid] = r.json()
                elif r.status_code == 409 and "state" in r.json():  # stale (not a review's)
                    states[gid] = r.json()["state"]
                if r.status_code == 200 and r.request.url.path.endswith("/actions"):
                    check(states[gid], service.game(gid), where)
                check_logs(mark, where)
                if all(s["phase"] == "game-over" for s in states.values()):
                    break
        assert checked_lines > responses  # the server really logged (access + trace lines)
        assert any("the computer's move failed" in ln for ln in handler.lines), \
            "the faulty computer player never failed"
        assert any("/actions HTTP/1.1\" 200" in ln for ln in handler.lines)
    finally:
        for lg in watched:
            lg.removeHandler(handler)


def test_database_errors_do_not_carry_decks_or_secrets(tmp_path: Any) -> None:
    """A failing statement's message (logged with the traceback of a 500) shows no bound
    values: here a duplicate game insert, whose values hold the secret and the deck."""
    import pytest
    from sqlalchemy.exc import SQLAlchemyError

    from ginrummy.fairness import commitment_of, new_salt, shuffled_deck
    from ginrummy.store import DealRow, GameRow, Store

    store = Store(f"sqlite:///{tmp_path / 'err.sqlite3'}")
    deck = [card_text(c) for c in shuffled_deck()]
    salt = new_salt()
    row = GameRow(id="g" * 22, token_hash="ab" * 32, player_id=None, level="easy",
                  preset="standard", rules={}, first_dealer=0, secret="cd" * 32, seq=1)
    deal = DealRow(1, 0, deck, salt, commitment_of(salt, deck))
    store.insert_game(row, [deal])
    with pytest.raises(SQLAlchemyError) as err:
        store.insert_game(row, [deal])
    text = str(err.value) + repr(err.value)
    assert "INSERT" in text  # the statement is still named, for the operator
    for secret in (row.secret, row.token_hash, salt, " ".join(deck[:3])):
        assert secret not in text
    store.close()


# --------------------------------------------------------------------------- tables of people
# Tables of people (docs/tables.md): every answer and every live message sent to one person is
# checked, with that person's knowledge, against the deal as it is at that moment
# (tests/web/leak_oracle.py); and no route answers anything of a table without a seat's token.

_PERSON = {"kind": "person"}
_OPEN = {"kind": "open"}
_CPU = {"kind": "computer", "level": LEVELS[0]}
_PEOPLE_TABLES: list[tuple[str, list[dict[str, Any]], dict[str, Any]]] = [
    ("standard", [_PERSON, _OPEN], {"target": 25}),
    ("hollywood", [_PERSON, _OPEN], {"target": 20}),
    ("three_player", [_PERSON, _OPEN, _CPU], {"target": 25}),
    ("partnership", [_PERSON, _CPU, _OPEN, _OPEN], {"target": 25}),
]


def _seated_table(client: TestClient, scoring: str, seats: list[dict[str, Any]],
                  rules: dict[str, Any]) -> list[Any]:
    from table_helpers import join, new_table

    ann, code = new_table(client, seats, scoring=scoring, rules=rules)
    people = [ann] + [join(client, code, f"P{i}") for i, s in enumerate(seats) if s == _OPEN]
    r = ann.call("POST", "/start")
    assert r.status_code == 200, r.text
    ann.state = r.json()
    return people


def test_no_person_at_a_table_is_sent_a_card_hidden_from_them(client: TestClient) -> None:
    from leak_oracle import (
        check_exercise_answer,
        check_review_answer,
        check_seat_state,
        seat_links,
    )
    from table_helpers import ACTING

    service = client.app.state.service  # type: ignore[attr-defined]
    rng = random.Random(77)
    checked = reviews = made = 0
    for scoring, seats, rules in _PEOPLE_TABLES:
        people = _seated_table(client, scoring, seats, rules)
        gid = people[0].id
        links = seat_links(service, gid)
        assert sorted(links) == sorted(p.seat for p in people)
        for p in people:
            check_seat_state(p.seen[0]["state"], service.engine_of(gid), p.seat,
                             f"{scoring}: seat {p.seat} joined", links) \
                if p.seen[0].get("state") else None
        for step in range(250):
            engine = service.engine_of(gid)
            for p in people:
                check_seat_state(p.get(), engine, p.seat, f"{scoring} step {step}", links)
                checked += 1
            if people[0].state["phase"] == "game-over":
                break
            movers = [p for p in people if p.state["phase"] in ACTING and p.state["legal"]]
            assert movers, [p.state["phase"] for p in people]
            p = rng.choice(movers)
            r = p.post(choose(p.state, rng, finish=rng.random() < 0.7))
            assert r.status_code in (200, 409), r.text
            body = r.json()
            check_seat_state(body if r.status_code == 200 else body["state"],
                             service.engine_of(gid), p.seat, f"{scoring} answer {step}", links)
            if rng.random() < 0.1:  # a replay from the start too
                check_seat_state(p.get(since=0), service.engine_of(gid), p.seat,
                                 f"{scoring} reload {step}", links)
            if rng.random() < 0.1:  # a review of a deal so far (in play or not), or the game
                q = rng.choice(people)
                record = q.call("GET", "/record").json()
                finished = {h["number"] for h in record["hands"]}
                current = record["current"]
                deals = finished | {c["number"] for c in (
                    current if isinstance(current, list) else [current] if current else [])}
                n = rng.choice(sorted(deals))
                url = rng.choice([f"/hands/{n}/review", "/review"])
                r = q.call("GET", url)
                check_review_answer(r.status_code, r.json(), finished,
                                    f"{scoring} review {step}")
                r = q.call("GET", f"/hands/{n}/exercises/{rng.randrange(1, 30)}")
                check_exercise_answer(r.status_code, r.json(), finished,
                                      f"{scoring} exercise {step}")
                reviews += 1
        # every seat's review of a finished deal, made (a deal ends within 250 moves)
        finished = {h["number"] for h in people[0].call("GET", "/record").json()["hands"]}
        assert finished, f"{scoring}: no deal finished"
        for q in people:
            url = f"/hands/{min(finished)}/review"
            r = q.call("GET", url)
            if r.status_code == 202:
                assert client.app.state.reviews.pool.wait_idle(120)  # type: ignore[attr-defined]
                r = q.call("GET", url)
            assert r.status_code == 200 and r.json()["you"] == q.seat, r.text[:300]
            check_review_answer(200, r.json(), finished, f"{scoring} review, seat {q.seat}")
            made += 1
    assert checked > 500 and reviews > 0 and made >= 2 * len(_PEOPLE_TABLES)


def test_the_seat_oracle_catches_a_hidden_card(client: TestClient) -> None:
    """The oracle above is not blind: a state carrying the other person's card fails it."""
    from leak_oracle import check_seat_state

    service = client.app.state.service  # type: ignore[attr-defined]
    ann, bo = _seated_table(client, "standard", [_PERSON, _OPEN], {})
    st = ann.get()
    check_seat_state(st, service.engine_of(ann.id), 0, "as sent")
    bad = {**st, "events": [*st["events"], {"type": "note", "text": bo.get()["hand"][3]}]}
    with pytest.raises(AssertionError, match="hidden cards"):
        check_seat_state(bad, service.engine_of(ann.id), 0, "doctored")


def test_the_seat_oracle_accepts_a_seat_link_only_in_its_own_state(client: TestClient) -> None:
    """``table.rejoin`` (docs/tables.md "A seat follows its person") is a secret of one seat: the
    oracle passes it in that seat's own state and fails another seat's link anywhere."""
    from leak_oracle import check_seat_state, seat_links

    service = client.app.state.service  # type: ignore[attr-defined]
    ann, bo = _seated_table(client, "standard", [_PERSON, _OPEN], {})
    links = seat_links(service, ann.id)
    engine = service.engine_of(ann.id)
    st, theirs = ann.get(), bo.get()
    assert st["table"]["rejoin"]["code"] == links[0]
    assert theirs["table"]["rejoin"]["code"] == links[1]
    check_seat_state(st, engine, 0, "as sent", links)
    check_seat_state(theirs, engine, 1, "as sent", links)
    swapped = {**st, "table": {**st["table"], "rejoin": theirs["table"]["rejoin"]}}
    with pytest.raises(AssertionError, match="link"):
        check_seat_state(swapped, engine, 0, "another seat's link", links)
    with pytest.raises(AssertionError, match="link"):  # even without knowing the codes
        check_seat_state(swapped, engine, 0, "another seat's link")
    elsewhere = {**st, "messages": [{"seat": 1, "message": links[1]}]}
    with pytest.raises(AssertionError, match="link of seats"):
        check_seat_state(elsewhere, engine, 0, "a link elsewhere", links)


def test_live_messages_name_no_hidden_card(tmp_path: Any) -> None:
    """Every live ``state`` message a person's stream carries, checked against the deal at that
    message's ``seq``; ``presence`` messages carry no card at all."""
    import httpx
    from leak_oracle import check_seat_state, seat_links
    from test_live import Stream, live_server

    rng = random.Random(5)
    with live_server(tmp_path / "live.sqlite3") as (base, app), \
            httpx.Client(base_url=base, timeout=20) as c:
        service = app.state.service
        for scoring, seats, rules in _PEOPLE_TABLES[2:]:
            r = c.post("/api/games", json={"seats": seats, "name": "Ann", "scoring": scoring,
                                           "rules": rules})
            ann = r.json()
            people = [(0, ann["token"])]
            for n, s in enumerate(seats[1:], start=1):
                if s == _OPEN:  # one name per table (docs/tables.md)
                    j = c.post(f"/api/invites/{ann['invite']['code']}/join",
                               json={"name": f"X{n}"}).json()
                    people.append((j["seat"], j["token"]))
            gid = ann["game_id"]
            streams = {seat: Stream(base, gid, tok) for seat, tok in people}
            for s in streams.values():
                s.next("state")
            snapshots = {}
            links = seat_links(service, gid)
            h0 = {"Authorization": f"Bearer {ann['token']}"}
            assert c.post(f"/api/games/{gid}/start", headers=h0).status_code == 200
            snapshots[service.store.get_game(gid).seq] = service.engine_of(gid)
            for _step in range(120):
                states = {seat: c.get(f"/api/games/{gid}",
                                      headers={"Authorization": f"Bearer {tok}"}).json()
                          for seat, tok in people}
                movers = [(seat, tok) for seat, tok in people
                          if states[seat]["phase"] in ("offer", "draw", "discard")]
                if not movers:
                    break
                seat, tok = rng.choice(movers)
                r = c.post(f"/api/games/{gid}/actions",
                           headers={"Authorization": f"Bearer {tok}"},
                           json={"action": choose(states[seat], rng), "seq":
                                 states[seat]["seq"]})
                assert r.status_code == 200, r.text
                snapshots[r.json()["seq"]] = service.engine_of(gid)
            time.sleep(0.5)
            got = 0
            for seat, s in streams.items():
                s.close()
                while True:
                    kind, ident, data, _at = s.messages.get(timeout=5)
                    if kind == "end":
                        break
                    if kind == "presence":
                        assert not card_strings(data, -1), data
                    elif kind == "state" and data["phase"] != "waiting":
                        assert ident in snapshots, (ident, sorted(snapshots))
                        check_seat_state(data, snapshots[ident], seat, f"live {ident}", links)
                        got += 1
            assert got >= len(snapshots), (got, len(snapshots))


def test_nothing_of_a_table_reaches_a_request_without_its_seat_token(
        client: TestClient) -> None:
    people = _seated_table(client, "partnership", [_PERSON, _OPEN, _CPU, _CPU], {})
    other = Table(client, {})  # another game's valid token
    gid = people[0].id
    routes = [("GET", f"/api/games/{gid}", None), ("GET", f"/api/games/{gid}/hint", None),
              ("GET", f"/api/games/{gid}/record", None),
              ("GET", f"/api/games/{gid}/hands/1/replay", None),
              ("GET", f"/api/games/{gid}/review", None),
              ("GET", f"/api/games/{gid}/hands/1/review", None),
              ("GET", f"/api/games/{gid}/hands/1/exercises/1", None),
              ("POST", f"/api/games/{gid}/hands/1/exercises/1", {"action": "pass"}),
              ("GET", f"/api/games/{gid}/live", None),
              ("POST", f"/api/games/{gid}/actions", {"action": "draw stock", "seq": 1}),
              ("PUT", f"/api/games/{gid}/order", {"cards": ["AS"]}),
              ("PUT", f"/api/games/{gid}/seats/1", {"kind": "computer"}),
              ("POST", f"/api/games/{gid}/start", None), ("POST", f"/api/games/{gid}/leave", None),
              ("POST", f"/api/games/{gid}/rematch", None),
              ("POST", f"/api/games/{gid}/messages", {"message": "hello"})]
    before = people[0].get()
    for headers in ({}, {"Authorization": "Bearer " + "A" * 43}, other.headers,
                    {"Authorization": f"Basic {people[0].token}"}):
        for method, path, body in routes:
            r = client.request(method, path, json=body, headers=headers)
            assert r.status_code == 404, (method, path, r.status_code, r.text)
            assert r.json()["detail"]["code"] == "not_found"
            assert not card_strings(r.json(), -1) and gid not in r.text
    after = people[0].get()
    assert after["seq"] == before["seq"] and after["seats"] == before["seats"]
