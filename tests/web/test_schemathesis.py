"""Schemathesis against the app's own OpenAPI schema (``/api/openapi.json``), in process (ASGI).

Every operation of the JSON API (docs/api.md) gets generated requests, valid and invalid by the
schema (positive and negative modes); the requests on a game are sent half the time to a real
game with its real token, so that the game code runs and not only the 404 path. Every answer
must pass schemathesis' checks: no 5xx, the status code and the content type documented, the
body conforming to the documented schema, data that breaks the schema rejected with 4xx. Every
4xx also carries a clear message: ``{"detail": {"code", "message"}}``, or FastAPI's validation
list (``loc``, ``msg``) for a malformed body.

Bounded (examples per operation below) so that the whole module stays well under a minute.
"""

from __future__ import annotations

import atexit
import os
import shutil
import tempfile
import warnings
from collections.abc import Iterator
from typing import Any

import pytest
from hypothesis import HealthCheck, settings

schemathesis = pytest.importorskip("schemathesis")
from schemathesis.specs.openapi.checks import positive_data_acceptance  # noqa: E402

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from fastapi.testclient import TestClient

from ginrummy.bots import LEVELS  # noqa: E402
from ginrummy.web import create_app  # noqa: E402
from ginrummy.web.http.ratelimit import RateLimits  # noqa: E402

#: the operations of docs/api.md (other /api/ routes belong to other documents)
#: and of docs/tables.md, but the live stream (it does not end by itself)
API_PATHS = (r"^/api/(meta|stats|games(/\{game_id\}(/(actions|order|record|hint"
             r"|hands/\{number\}/replay|seats/\{seat\}|start|leave|rematch|rejoin|messages))?)?"
             r"|invites/\{code\}(/join)?)$")
EXAMPLES = 60


# The app is built at import: schemathesis' lazy loader (``from_fixture``) does not work with
# the pytest of this project (it sets ``node._nodeid``, gone from pytest 9).
_DIR = tempfile.mkdtemp(prefix="ginrummy-schemathesis-")
atexit.register(shutil.rmtree, _DIR, ignore_errors=True)
APP = create_app(f"sqlite:///{os.path.join(_DIR, 'games.sqlite3')}",
                 rate_limits=RateLimits(creates=None, requests=None))
schema = schemathesis.openapi.from_asgi("/api/openapi.json", APP).include(path_regex=API_PATHS)


class _Real:
    """A real game on the app under test, and a real table of people with its invite code,
    to aim generated requests at."""

    game_id = ""
    token = ""
    table_id = ""
    table_token = ""
    code = ""


@pytest.fixture(scope="module", autouse=True)
def real_game() -> Iterator[None]:
    with TestClient(APP) as c:
        r = c.post("/api/games", json={"level": LEVELS[0]})
        assert r.status_code == 201
        d = r.json()
        _Real.game_id, _Real.token = d["game_id"], d["token"]
        r = c.post("/api/games", json={"seats": [{"kind": "person"}, {"kind": "open"},
                                                 {"kind": "computer"}],
                                       "scoring": "three_player", "name": "Ann"})
        assert r.status_code == 201, r.text
        d = r.json()
        _Real.table_id, _Real.table_token = d["game_id"], d["token"]
        _Real.code = d["invite"]["code"]
        yield
    APP.state.store.close()


def _aim_at_the_real_game(case: Any) -> None:
    params = case.path_parameters or {}
    key = repr(case.body) + repr(case.query) + repr(params)
    if "code" in params and hash(key) % 2 == 0:
        params["code"] = _Real.code
        case.path_parameters = params
    if "game_id" not in params:
        return
    # half the cases (by a stable property of the generated case) hit the real game or table
    if hash(key) % 2 == 0:
        table = hash(key) % 3 == 0
        params["game_id"] = _Real.table_id if table else _Real.game_id
        case.path_parameters = params
        headers = dict(case.headers or {})
        headers["authorization"] = f"Bearer {_Real.table_token if table else _Real.token}"
        case.headers = headers
        body = case.body
        if isinstance(body, dict) and type(body.get("seq")) is int and hash(key) % 4 == 0:
            # the current seq: the action text itself is then judged (illegal, invalid, or
            # even legal)
            body["seq"] = APP.state.store.get_game(params["game_id"]).seq


def _clear_4xx(response: Any) -> None:
    status = response.status_code
    assert status < 500, f"server error {status}: {response.text[:300]}"
    if 400 <= status < 500:
        body = response.json()
        detail = body["detail"]
        if isinstance(detail, dict):
            assert isinstance(detail.get("code"), str) and detail["code"], body
            assert isinstance(detail.get("message"), str) and len(detail["message"]) > 5, body
        else:
            assert isinstance(detail, list) and detail, body
            for d in detail:
                assert d.get("msg") and isinstance(d.get("loc"), list), body


@schema.parametrize()
@settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=list(HealthCheck),
          derandomize=True, database=None)
def test_api_conforms_to_its_schema(case: Any) -> None:
    _aim_at_the_real_game(case)
    # positive_data_acceptance is left out: a schema-valid request may be refused by the game
    # (an unknown level, an illegal move, a card code that is no card): 422 by design
    response = case.call_and_validate(excluded_checks=[positive_data_acceptance])
    _clear_4xx(response)


def test_schema_documents_the_error_answers() -> None:
    """The error answers of docs/api.md are in the schema (so that the checks above hold the
    server to them)."""
    with TestClient(APP) as c:
        doc = c.get("/api/openapi.json").json()
    act = doc["paths"]["/api/games/{game_id}/actions"]["post"]["responses"]
    assert {"200", "404", "409", "413", "422", "429"} <= set(act)
    for path in ("/api/games/{game_id}", "/api/games/{game_id}/record"):
        assert {"200", "404", "429"} <= set(doc["paths"][path]["get"]["responses"])
    assert {"201", "413", "422", "429"} <= set(doc["paths"]["/api/games"]["post"]["responses"])
