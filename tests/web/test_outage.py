"""A database outage (issue 21 item 4): while the database cannot be reached every answer that
fails is 503 JSON ``{"detail": {"code": "unavailable", ...}}`` with ``Retry-After`` and every
security header, never Starlette's bare ``500 text/plain``; once the database is back the game
goes on by itself, nothing lost. A real outage: PostgreSQL reached through a TCP relay that the
test cuts (every connection dropped, new ones closed at once) and mends."""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy.engine import make_url
from sqlalchemy.exc import OperationalError
from table_helpers import join, new_table
from web_helpers import Table, in_play

from ginrummy.web.http.app import CSP, UNAVAILABLE_RETRY
from pg_helpers import fresh_postgres_database
from server_helpers import Relay

SECURITY = {"content-security-policy": CSP, "x-content-type-options": "nosniff",
            "x-frame-options": "DENY", "referrer-policy": "same-origin"}


def _check_failure(r: Any, where: str) -> str:
    """A failed answer is JSON with the API's error shape and every security header; returns
    its code."""
    assert r.headers["content-type"].startswith("application/json"), (where, r.status_code,
                                                                      r.text[:200])
    for name, value in SECURITY.items():
        assert r.headers.get(name) == value, (where, name)
    detail = r.json()["detail"]
    assert detail["message"] and detail["reason"]["code"] == detail["code"], (where, detail)
    return str(detail["code"])


# ------------------------------------------------------------------ any failure, any database
def test_a_database_failure_is_503_json_and_any_other_500_json(
        client: TestClient, monkeypatch: pytest.MonkeyPatch) -> None:
    t = Table(client, {"level": "easy"})
    svc = client.app.state.service  # type: ignore[attr-defined]

    def down(*_a: Any, **_k: Any) -> Any:
        raise OperationalError("SELECT", {}, ConnectionRefusedError("connection refused"))

    monkeypatch.setattr(svc, "get", down)
    r = client.get(f"/api/games/{t.id}", headers={**t.headers, "Accept-Language": "id"})
    assert r.status_code == 503 and _check_failure(r, "get") == "unavailable"
    assert r.headers["retry-after"] == str(UNAVAILABLE_RETRY)
    assert r.headers["content-language"] == "id" and "detik" in r.json()["detail"]["message"]

    def broken(*_a: Any, **_k: Any) -> Any:
        raise RuntimeError("a bug")

    monkeypatch.setattr(svc, "get", broken)
    r = client.get(f"/api/games/{t.id}", headers=t.headers)
    assert r.status_code == 500 and _check_failure(r, "bug") == "internal"
    assert "a bug" not in r.text and "Traceback" not in r.text  # nothing of the inside
    monkeypatch.undo()
    assert client.get(f"/api/games/{t.id}", headers=t.headers).status_code == 200


# ------------------------------------------------------------------ a real outage (PostgreSQL)
@pytest.fixture
def relayed() -> Iterator[tuple[str, Relay]]:
    """A fresh PostgreSQL schema reached through a :class:`Relay`: its URL and the relay."""
    with fresh_postgres_database() as url:
        u = make_url(url)
        relay = Relay(u.host or "127.0.0.1", u.port or 5432)
        try:
            yield u.set(host="127.0.0.1", port=relay.port).render_as_string(
                hide_password=False), relay
        finally:
            relay.close()


def _requests(client: TestClient, t: Table, people: tuple[Any, Any]) -> list[
        tuple[str, Callable[[], Any]]]:
    ann, bo = people
    return [
        ("state", lambda: client.get(f"/api/games/{t.id}", headers=t.headers)),
        ("action", lambda: t.post("draw stock")),
        ("hint", lambda: client.get(f"/api/games/{t.id}/hint", headers=t.headers)),
        ("record", lambda: client.get(f"/api/games/{t.id}/record", headers=t.headers)),
        ("new game", lambda: client.post("/api/games", json={})),
        ("stats", lambda: client.get("/api/stats")),
        ("message", lambda: client.post(f"/api/games/{ann.id}/messages",
                                        json={"message": "hello"}, headers=ann.headers)),
        ("live", lambda: client.get(f"/api/games/{bo.id}/live", headers=bo.headers)),
        ("sheet", lambda: client.post("/api/sheets", json={"players": ["Ana", "Budi"]})),
        ("page", lambda: client.get("/")),
    ]


@pytest.mark.postgres_only
def test_an_outage_answers_503_json_and_the_game_goes_on(
        relayed: tuple[str, Relay], make_client: Callable[..., TestClient]) -> None:
    url, relay = relayed
    client = make_client(url)
    t = in_play(lambda body: Table(client, body), {"level": "easy"})
    ann, code = new_table(client, [{"kind": "person"}, {"kind": "open"}])
    bo = join(client, code, "Bo")
    before = t.get()
    requests = _requests(client, t, (ann, bo))

    relay.cut()
    answers: dict[str, list[int]] = {}
    deadline = time.monotonic() + 3.0  # a few rounds of everything while it is down
    while time.monotonic() < deadline:
        for name, send in requests:
            r = send()
            answers.setdefault(name, []).append(r.status_code)
            if r.status_code >= 500:
                assert r.status_code == 503, (name, r.status_code, r.text[:300])
                assert _check_failure(r, name) == "unavailable"
                assert r.headers["retry-after"] == str(UNAVAILABLE_RETRY)
            else:
                assert name == "page", (name, r.status_code)  # needs no database
    assert all(set(codes) == {503} for name, codes in answers.items() if name != "page"), \
        answers

    relay.mend()
    t0 = time.monotonic()
    while (r := client.get(f"/api/games/{t.id}", headers=t.headers)).status_code != 200:
        assert r.status_code == 503 and time.monotonic() - t0 < 15, r.text[:300]
        time.sleep(0.1)
    assert r.json()["seq"] == before["seq"]  # nothing lost, nothing made up
    t.state = r.json()
    move = next(a for a in t.state["legal"] if a["type"] in ("pass", "draw_stock", "take"))
    assert t.post(move["action"]).status_code == 200  # the game goes on
    assert client.post(f"/api/games/{ann.id}/messages", json={"message": "hello"},
                       headers=ann.headers).status_code == 200
