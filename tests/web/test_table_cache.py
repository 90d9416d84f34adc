"""The per-process caches of the table service (docs/tables.md; issue 10's capacity work) never
serve a stale game: two services on one database stand for two processes (no lock, no cache in
common). A process whose cached game another process moved on catches up from the stored deals
(its last deal and the ones after it) or, when the stored deals do not continue its copy,
replays the whole record; either way every seat is shown exactly what a process that never saw
the game shows. The quick messages are kept by the table's version, so a message sent through
another process is shown at once."""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

import pytest
from web_helpers import choose

from ginrummy.store import Store
from ginrummy.web.tables.seats import Seats
from ginrummy.web.tables.service import TableService

ME, OPEN = {"kind": "person"}, {"kind": "open"}


@pytest.fixture
def three(db_url: str) -> Iterator[tuple[TableService, TableService, TableService]]:
    """Two processes, and a third whose cache is emptied before each read (one that never
    saw the game)."""
    stores = [Store(db_url), Store(db_url), Store(db_url)]
    try:
        yield TableService(stores[0]), TableService(stores[1]), TableService(stores[2])
    finally:
        for s in stores:
            s.close()


@pytest.fixture
def two(three: tuple[TableService, TableService, TableService]
        ) -> tuple[TableService, TableService]:
    return three[0], three[1]


def _fresh(svc: TableService, gid: str, token: str, since: int | None) -> dict[str, Any]:
    """The state as a process that never saw the game shows it."""
    svc.records._cache.clear()
    svc.records._messages.clear()
    return svc.get(gid, token, since)


def _table(svc: TableService, rules: dict[str, Any] | None = None) -> tuple[str, dict[int, str]]:
    """A started two-person table made through ``svc``: its id and the seats' tokens."""
    made = svc.create("p-ann", None, None, rules, seats=[ME, OPEN], name="Ann")
    joined = Seats(svc).join(made["invite"]["code"], "Bo", None, "p-bo")
    Seats(svc).start(made["game_id"], made["token"])
    return made["game_id"], {0: made["token"], 1: joined["token"]}


def _move(svc: TableService, gid: str, tokens: dict[int, str], rng: random.Random
          ) -> dict[str, Any] | None:
    """One action of whoever is to act (the creator deals the next hand); None at game-over."""
    for seat in (0, 1):
        st = svc.get(gid, tokens[seat], None)
        if st["phase"] == "game-over":
            return None
        if st["legal"] and (st["phase"] != "hand-over" or seat == 0):
            out, duplicate = svc.act(gid, tokens[seat], choose(st, rng), st["seq"])
            assert not duplicate
            return out
    raise AssertionError("nobody to act")


def _same(a: dict[str, Any], b: dict[str, Any]) -> None:
    """Equal states but for the presence instants (``seats[].connected``/``away``/``hand_over``
    follow the clock: ``hand_over`` turns 60 s after a seat's last connection, which a slow run
    passes between two reads) and the turn deadline."""
    def strip(st: dict[str, Any]) -> dict[str, Any]:
        st = dict(st)
        st["seats"] = [{k: v for k, v in s.items() if k not in ("connected", "away", "hand_over")}
                       for s in st.get("seats", [])]
        return st
    assert strip(a) == strip(b)


def test_a_process_catches_up_with_moves_made_elsewhere(
        three: tuple[TableService, TableService, TableService]) -> None:
    """Moves alternate between two processes, across several hands (a small target; tables
    are played until one spans two hands or more): after each, both processes show each seat
    exactly what a process that never saw the game shows, and the process that did not make
    the move caught up from its cached copy (the cached object is kept, not replayed
    afresh)."""
    a, b, fresh = three
    rng = random.Random(11)
    for _table_no in range(10):
        gid, tokens = _table(a, {"target": 25})
        hands_seen = set()
        caught = moves = 0
        for step in range(400):
            mover, other = (a, b) if step % 3 else (b, a)
            other.get(gid, tokens[0], None)  # the other process has the game cached now
            kept = other.records._cache.get(gid)
            assert kept is not None
            out = _move(mover, gid, tokens, rng)
            if out is None:
                break
            hands_seen.add(out["hand_number"])
            moves += 1
            for seat in (0, 1):
                for since in (None, max(0, out["seq"] - 2)):
                    want = _fresh(fresh, gid, tokens[seat], since)
                    _same(other.get(gid, tokens[seat], since), want)
                    _same(mover.get(gid, tokens[seat], since), want)
            caught += other.records._cache.get(gid) is kept
            if len(hands_seen) >= 3:
                break
        assert caught == moves  # each time the cached copy was caught up, not replayed
        if len(hands_seen) >= 2:
            return
    raise AssertionError("no game of 10 spanned two hands")


def test_a_cached_copy_that_does_not_continue_the_stored_game_is_never_served(
        three: tuple[TableService, TableService, TableService]) -> None:
    """A process's cached copy that the stored deals do not continue (here: its deck made
    different behind its back) is dropped and the game replayed from the store."""
    a, b, fresh = three
    gid, tokens = _table(a)
    rng = random.Random(3)
    b.get(gid, tokens[1], None)
    cached = b.records._cache[gid]
    cached.decks[-1] = list(reversed(cached.decks[-1]))  # not the stored deal any more
    _move(a, gid, tokens, rng)
    got = b.get(gid, tokens[1], 0)
    _same(got, _fresh(fresh, gid, tokens[1], 0))
    assert b.records._cache[gid] is not cached  # replayed afresh


def test_a_duplicate_sent_to_two_processes_is_still_a_duplicate(
        two: tuple[TableService, TableService]) -> None:
    """The same action (same seq) sent to one process and then to the other, whose cached copy
    is behind: the second is answered as a duplicate with the first's state; nothing applied
    twice."""
    a, b = two
    gid, tokens = _table(a)
    for svc in (a, b):
        svc.get(gid, tokens[0], None)
        svc.get(gid, tokens[1], None)
    rng = random.Random(8)
    for _ in range(6):
        st = a.get(gid, tokens[0], None)
        seat = 0 if st["legal"] else 1
        st = a.get(gid, tokens[seat], None)
        action = choose(st, random.Random(rng.random()))
        first, dup1 = a.act(gid, tokens[seat], action, st["seq"])
        again, dup2 = b.act(gid, tokens[seat], action, st["seq"])
        assert not dup1 and dup2 and again["duplicate"] is True
        assert again["seq"] == first["seq"]
        _same({k: v for k, v in again.items() if k != "duplicate"}, first)


def test_a_message_sent_through_another_process_is_shown_at_once(
        two: tuple[TableService, TableService]) -> None:
    """The quick messages are kept by the table's version: a message sent through one process
    is in the next state the other process gives."""
    a, b = two
    gid, tokens = _table(a)
    assert b.get(gid, tokens[1], None)["messages"] == []
    Seats(a).message(gid, tokens[0], "good_game")
    got = b.get(gid, tokens[1], None)["messages"]
    assert [(m["seat"], m["message"]) for m in got] == [(0, "good_game")]
    Seats(b).message(gid, tokens[1], "thanks")
    got = a.get(gid, tokens[0], None)["messages"]
    assert [(m["seat"], m["message"]) for m in got] == [(0, "good_game"), (1, "thanks")]


@pytest.mark.parametrize(("scoring", "people_at"), [("hollywood", (0, 1)),
                                                    ("partnership", (0, 2)),
                                                    ("partnership", (0, 1, 2, 3))])
def test_a_match_catches_up_with_moves_made_elsewhere(
        three: tuple[TableService, TableService, TableService], scoring: str,
        people_at: tuple[int, ...]) -> None:
    """As above for Hollywood and partnership games (people at both tables: their turns
    interleave): the process that did not make the move continues its cached match with the
    stored deals (the cached object kept), and every seat is shown what a process that never
    saw the game shows, across hands."""
    a, b, fresh = three
    rng = random.Random(5)
    n = 4 if scoring == "partnership" else 2
    seats = [ME] + [OPEN if i in people_at else {"kind": "computer"} for i in range(1, n)]
    for _table_no in range(5):  # a deal may end the match at once (the deck is random)
        made = a.create("p-ann", None, None, {"target": 50}, scoring, seats=seats, name="Ann")
        gid = made["game_id"]
        tokens = {0: made["token"]}
        for name in ("Bo", "Cy", "Di")[:len(people_at) - 1]:
            joined = Seats(a).join(made["invite"]["code"], name, None)
            tokens[joined["seat"]] = joined["token"]
        Seats(a).start(gid, made["token"])
        caught = moves = 0
        hands_seen: set[int] = set()
        for step in range(600):
            mover, other = (a, b) if step % 3 else (b, a)
            for seat in tokens:
                other.get(gid, tokens[seat], None)
            kept = other.records._cache.get(gid)
            assert kept is not None
            acted = None
            for seat in sorted(tokens):
                st = mover.get(gid, tokens[seat], None)
                if st["phase"] == "game-over":
                    break
                if st["legal"] and (st["phase"] != "hand-over" or seat == 0):
                    acted, _dup = mover.act(gid, tokens[seat], choose(st, rng), st["seq"])
                    break
            if acted is None:
                break
            moves += 1
            hands_seen.add(len(acted.get("score", {}).get("hands", [])))
            for seat in tokens:
                want = _fresh(fresh, gid, tokens[seat], 0)
                _same(other.get(gid, tokens[seat], 0), want)
                _same(mover.get(gid, tokens[seat], 0), want)
            caught += other.records._cache.get(gid) is kept
            if len(hands_seen) >= 3:
                break
        assert caught == moves  # each time the cached copy was caught up, not replayed
        if moves > 20 and len(hands_seen) >= 2:
            return
    raise AssertionError("no match of 5 spanned two hands with more than 20 moves")
