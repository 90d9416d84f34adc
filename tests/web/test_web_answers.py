"""The game answers (GET a game, POST an action) are sent as ready JSON (app.py returns a
JSONResponse, skipping FastAPI's response validation): same body, same headers, same OpenAPI
schema as a plain ``dict`` answer."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from fastapi.testclient import TestClient
from web_helpers import Table


def test_game_answers_are_the_state_as_json(client: TestClient,
                                            new_table: Callable[..., Table]) -> None:
    t = new_table()
    service: Any = client.app.state.service  # type: ignore[attr-defined]
    r = client.get(f"/api/games/{t.id}", headers=t.headers)
    assert r.status_code == 200
    assert r.headers["content-type"] == "application/json"
    assert r.headers["cache-control"] == "no-store"
    assert r.json() == service.get(t.id, t.token, None)

    action = next(a["action"] for a in t.state["legal"]
                  if a["type"] in ("pass", "draw_stock", "take"))
    seq = t.state["seq"]
    r = t.post(action)
    assert r.status_code == 200 and r.headers["content-type"] == "application/json"
    state = r.json()
    assert state["seq"] > seq and "duplicate" not in state
    assert state == service.get(t.id, t.token, seq)
    again = t.post(action, seq=seq)  # a double click: the same answer, marked duplicate
    assert again.status_code == 200 and again.json()["duplicate"] is True


def test_openapi_still_describes_the_answers_as_objects(client: TestClient) -> None:
    paths = client.get("/api/openapi.json").json()["paths"]
    for path, method in (("/api/games/{game_id}", "get"),
                         ("/api/games/{game_id}/actions", "post")):
        schema = paths[path][method]["responses"]["200"]["content"]["application/json"]["schema"]
        assert schema["type"] == "object" and schema["additionalProperties"] is True
