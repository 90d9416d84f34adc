"""docs/api.md and the server agree on the API's error codes (issue 13 item 11) and on their
reasons with parameters (issue 13 item 2).

Every error code docs/api.md documents is produced, with its documented status, by a request
made here; every code the server's sources can answer with is documented (the game API's in
docs/api.md, the score keeper's in docs/api.md or docs/variants.md). The two statements the
issue found false are pinned down: a body that is not UTF-8 is 422 ``malformed``, and a hand
order naming a card the person does not hold is 422 ``invalid`` and keeps nothing.

Reasons: docs/api.md's table lists exactly :data:`ginrummy.errors.REASONS` (codes and parameter
names); every listed reason is raised somewhere in the sources; every answer seen here carries a
documented reason with exactly its documented parameters.
"""

from __future__ import annotations

import re
import threading
from collections.abc import Callable
from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from sqlalchemy.exc import OperationalError
from web_helpers import Table

import ginrummy
import ginrummy.web
import ginrummy.web.review.jobs as review_jobs
from ginrummy.errors import PLACE_PARAMS, REASONS
from ginrummy.web.http.ratelimit import RateLimits
from ginrummy.web.review.reviews import ReviewSettings

ROOT = Path(__file__).resolve().parents[2]
WEB = Path(ginrummy.web.__file__).parent
ALL_CARDS = [r + s for s in "SHDC" for r in "A23456789TJQK"]


def documented(doc: Path) -> dict[str, set[int]]:
    """The error codes a document names, each with its statuses: ``422 `invalid``` and
    ``409 {"detail": {"code": "stale", ...`` (reason codes of the state are not error codes)."""
    text = doc.read_text(encoding="utf-8")
    out: dict[str, set[int]] = {}
    code_list = r"`[a-z_]+`(?:(?:,\s*|\s+(?:and|or)\s+)`[a-z_]+`)*"
    for status, codes in re.findall(rf"\b([45]\d\d)\s+({code_list})", text):
        for code in re.findall(r"`([a-z_]+)`", codes):
            out.setdefault(code, set()).add(int(status))
    for status, code in re.findall(r'\b([45]\d\d)\s+`?\{"detail": \{"code": "([a-z_]+)"', text):
        out.setdefault(code, set()).add(int(status))
    for code in re.findall(r'\{"detail": \{"code": "([a-z_]+)", "message"', text):
        out.setdefault(code, set())
    return out


def produced(files: list[Path]) -> set[str]:
    """The error codes the server's sources can answer with."""
    codes: set[str] = set()
    for f in files:
        src = f.read_text(encoding="utf-8")
        codes.update(re.findall(r'\bBadRequest\(\s*"([a-z_]+)"', src))
        codes.update(re.findall(r'\berror_response\(\s*\d+,\s*"([a-z_]+)"', src))
        codes.update(re.findall(r'\b(?:Unavailable|Refused)\(\s*\d+,\s*"([a-z_]+)"', src))
        codes.update(re.findall(r'\b\d{3}: "([a-z_]+)"', src))  # status -> code tables
        if re.search(r"\braise Illegal\(", src) or 'super().__init__("illegal"' in src:
            codes.add("illegal")
        if re.search(r"\braise Stale\(", src):
            codes.add("stale")
    return codes


def documented_reasons(doc: Path) -> dict[str, tuple[str, ...]]:
    """The reasons table of docs/api.md: ``| `code` | `p1`, `p2` | when |`` rows."""
    text = doc.read_text(encoding="utf-8")
    section = text.split("## Reasons", 1)[1].split("\n## ", 1)[0]
    out: dict[str, tuple[str, ...]] = {}
    for code, params in re.findall(r"^\| `([a-z_0-9]+)` \| ([^|]*) \|", section, re.M):
        assert code not in out, f"{code} is listed twice"
        out[code] = tuple(re.findall(r"`([a-z_]+)`", params))
    return out


API_DOC = documented(ROOT / "docs" / "api.md")
REASONS_DOC = documented_reasons(ROOT / "docs" / "api.md")
VARIANTS_DOC = documented(ROOT / "docs" / "variants.md")


def test_the_document_names_the_codes() -> None:
    assert {"invalid", "illegal", "stale", "malformed", "not_found", "too_large",
            "rate_limited", "rules", "level"} <= set(API_DOC)
    assert "json_invalid" not in API_DOC  # a FastAPI detail type, not one of our codes


def test_every_produced_code_is_documented() -> None:
    keeper_api = WEB / "api" / "sheets.py"
    game_files = [p for p in WEB.rglob("*.py") if p != keeper_api]
    assert produced(game_files) - set(API_DOC) == set()
    keeper = produced([keeper_api])
    assert keeper, "the keeper's codes were not found: the scan is broken"
    assert keeper - set(API_DOC) - set(VARIANTS_DOC) == set()


def test_every_documented_code_is_produced(make_client: Callable[..., TestClient],
                                           monkeypatch: pytest.MonkeyPatch) -> None:
    client = make_client()
    seen: dict[str, int] = {}

    reasons: dict[str, set[str]] = {}

    def note(r: object) -> None:
        resp = r  # an httpx.Response
        detail = resp.json()["detail"]  # type: ignore[attr-defined]
        seen[detail["code"]] = resp.status_code  # type: ignore[attr-defined]
        reason = detail["reason"]
        reasons.setdefault(reason["code"], set()).update(reason["params"])
        assert set(reason["params"]) - set(PLACE_PARAMS) == set(REASONS_DOC[reason["code"]]), \
            reason
        assert detail["message"] and "{" not in detail["message"], detail

    t = Table(client, {"level": "easy"})
    actions = f"/api/games/{t.id}/actions"
    js = {"Content-Type": "application/json", **t.headers}
    note(t.post("discard ZZ"))                                    # invalid
    note(t.post("draw stock", seq=t.state["seq"] + 7))            # stale
    legal = {a["action"] for a in t.state["legal"]}
    wrong = next(a for a in ("knock 2C", "gin 2C", "draw discard", "draw stock", "pass")
                 if a not in legal)
    note(t.post(wrong))                                           # illegal
    note(client.post(actions, content=b'{"action": "\xff", "seq": 0}', headers=js))  # malformed
    note(client.post("/api/games", json={"preset": "no such preset"}))  # rules
    note(client.post("/api/games", json={"level": "no such level"}))    # level
    note(client.get("/api/games/no-such-game", headers=t.headers))      # not_found
    note(client.post(actions, json={"action": "pass", "seq": 0, "pad": "x" * 20_000},
                     headers=t.headers))                          # too_large
    note(client.get("/api/meta", headers={"X-Pad": "x" * 20_000}))  # headers_too_large
    note(client.delete("/api/games"))                             # method_not_allowed
    note(client.get(f"/api/games/{t.id}/hands/1/replay", headers=t.headers))  # hand_in_play
    note(client.get(f"/api/games/{t.id}/review", headers=t.headers))          # game_in_play
    # tables of people (docs/tables.md)
    person, open_seat = {"kind": "person"}, {"kind": "open"}
    note(client.post("/api/games", json={"seats": [person, open_seat], "name": ""}))  # name
    note(client.post("/api/games", json={"seats": [person]}))                      # seats
    note(client.post("/api/games", json={"seats": [person, open_seat],
                                         "turn_clock": 5}))                         # turn_clock
    made = client.post("/api/games", json={"seats": [person, open_seat, open_seat],
                                           "name": "Ann", "scoring": "three_player"}).json()
    ann = {"Authorization": f"Bearer {made['token']}"}
    table, code = f"/api/games/{made['game_id']}", made["invite"]["code"]
    note(client.get(f"{table}/record", headers=ann))                                # not_started
    note(client.put(f"{table}/seats/9", json={"kind": "open"}, headers=ann))        # seat
    note(client.post(f"{table}/leave", headers=ann))                                # creator
    note(client.post(f"{table}/messages", json={"message": "hi there"}, headers=ann))  # message
    note(client.post(f"{table}/start", headers=ann))                                # seats_open
    bo = client.post(f"/api/invites/{code}/join", json={"name": "Bo", "seat": 2}).json()
    note(client.post(f"/api/invites/{code}/join", json={"name": "Cy", "seat": 2}))  # seat_taken
    note(client.post(f"/api/invites/{code}/join", json={"name": "BO"}))            # name_taken
    note(client.post(f"{table}/start",
                     headers={"Authorization": f"Bearer {bo['token']}"}))           # not_creator
    client.post(f"/api/invites/{code}/join", json={"name": "Cy"})
    note(client.post(f"/api/invites/{code}/join", json={"name": "Di"}))             # table_full
    assert client.post(f"{table}/start", headers=ann).status_code == 200
    note(client.post(f"/api/invites/{code}/join", json={"name": "Di"}))             # started
    note(client.post(f"{table}/start", headers=ann))                                # not_waiting
    note(client.put(f"{table}/seats/2", json={"kind": "computer"}, headers=ann))   # not_away
    note(client.post(f"{table}/resign", headers=ann))                               # people
    gone = Table(client, {"level": "easy"})
    assert client.post(f"/api/games/{gone.id}/resign", headers=gone.headers).status_code == 200
    note(client.post(f"/api/games/{gone.id}/resign", headers=gone.headers))       # game_over
    # reviews: a pool of one with no queue, its job held; then a job that fails
    small = make_client(reviews=ReviewSettings(workers=1, queue=0, worlds=4, confirm=0,
                                               processes=False))
    held = threading.Event()
    monkeypatch.setattr(review_jobs, "review_job", lambda *_a: "{}" if held.wait(60) else "")
    given_up = []
    for _ in range(2):
        g = Table(small, {"level": "easy"})
        assert small.post(f"/api/games/{g.id}/resign", headers=g.headers).status_code == 200
        given_up.append(g)
    assert small.get(f"/api/games/{given_up[0].id}/review",
                     headers=given_up[0].headers).status_code == 202
    note(small.get(f"/api/games/{given_up[1].id}/review", headers=given_up[1].headers))  # busy
    held.set()
    assert small.app.state.reviews.pool.wait_idle(60)  # type: ignore[attr-defined]

    def failing(*_args: object) -> str:
        raise RuntimeError("a bug")

    monkeypatch.setattr(review_jobs, "review_job", failing)
    assert small.get(f"/api/games/{given_up[1].id}/review",
                     headers=given_up[1].headers).status_code == 202
    assert small.app.state.reviews.pool.wait_idle(60)  # type: ignore[attr-defined]
    note(small.get(f"/api/games/{given_up[1].id}/review",
                   headers=given_up[1].headers))                        # review_failed
    limited = make_client(rate_limits=RateLimits(creates=1, requests=None))
    limited.post("/api/games", json={})
    note(limited.post("/api/games", json={}))                     # rate_limited
    # the database away (503 unavailable), or any other failure (500 internal)
    svc = client.app.state.service  # type: ignore[attr-defined]
    for failure in (OperationalError("SELECT", {}, ConnectionRefusedError()), RuntimeError()):
        def fail(*_a: object, _e: Exception = failure) -> None:
            raise _e
        monkeypatch.setattr(svc, "get", fail)
        note(client.get(f"/api/games/{t.id}", headers=t.headers))   # unavailable, internal
    monkeypatch.undo()
    for code, statuses in API_DOC.items():
        assert code in seen, f"{code} is documented but no request here produced it"
        assert not statuses or seen[code] in statuses, (code, seen[code], statuses)
    assert set(seen) <= set(API_DOC)
    # a sample of the reasons, each with its parameters
    assert {"not_a_card", "stale", "not_utf8", "unknown_preset", "unknown_level", "no_game",
            "too_large", "method_not_allowed", "hand_in_play", "name_empty", "seat_count",
            "turn_clock", "not_started", "no_seat", "creator_leaves", "quick_message",
            "seats_open", "seat_taken", "not_creator", "table_full", "table_started",
            "too_many_games"} <= set(reasons), sorted(reasons)
    assert reasons["hand_in_play"] == {"number"} and reasons["too_many_games"] == {"seconds"}


def test_the_reasons_table_is_the_list_of_reasons() -> None:
    assert dict(REASONS) == REASONS_DOC


def test_every_reason_is_raised_somewhere() -> None:
    """Each listed reason appears as a string in the sources outside the list itself (a raise,
    an answer): no documented reason is dead."""
    sources = "\n".join(p.read_text(encoding="utf-8")
                        for p in Path(ginrummy.__file__).parent.rglob("*.py")
                        if p != Path(ginrummy.__file__).parent / "errors.py")  # REASONS
    unused = [code for code in REASONS if f'"{code}"' not in sources]
    assert unused == []


@pytest.mark.parametrize("body", [b"\xff\xfe{}", b'{"action": "dr\xe9w stock", "seq": 0}',
                                  b"\x80"])
def test_a_body_that_is_not_utf8_is_malformed(client: TestClient, body: bytes) -> None:
    t = Table(client, {"level": "easy"})
    r = client.post(f"/api/games/{t.id}/actions", content=body,
                    headers={"Content-Type": "application/json", **t.headers})
    assert r.status_code == 422
    assert r.json()["detail"]["code"] == "malformed"
    assert t.get() == t.state or t.get()["seq"] == t.state["seq"]
    # text that is UTF-8 but not JSON keeps FastAPI's detail, as documented
    r = client.post(f"/api/games/{t.id}/actions", content="not json é".encode(),
                    headers={"Content-Type": "application/json", **t.headers})
    assert r.status_code == 422 and r.json()["detail"][0]["type"] == "json_invalid"


def test_an_order_naming_a_card_not_held_is_invalid_and_kept_nowhere(client: TestClient
                                                                     ) -> None:
    t = Table(client, {"level": "easy"})
    hand = list(t.state["hand"])
    other = next(c for c in ALL_CARDS if c not in hand)
    url = f"/api/games/{t.id}/order"
    good = list(reversed(hand))
    assert client.put(url, json={"cards": good}, headers=t.headers).json() == {"ok": True}
    for cards in ([other], good[:3] + [other], good + [other]):
        r = client.put(url, json={"cards": cards}, headers=t.headers)
        assert r.status_code == 422, cards
        assert r.json()["detail"]["code"] == "invalid"
        assert r.json()["detail"]["reason"] == {"code": "order_not_held",
                                                "params": {"cards": [other]}}
        assert t.get()["hand"] == good  # the order kept before is unchanged
    # a part of the hand is still a valid order
    assert client.put(url, json={"cards": good[:2]}, headers=t.headers).status_code == 200
