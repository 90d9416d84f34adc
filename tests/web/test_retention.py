"""Retention (issue 14 item 2, docs/retention.md): idle games and sheets deleted after a set
time, finished games kept longer for their fairness record, by the server itself."""

from __future__ import annotations

import time
from collections.abc import Iterator
from typing import Any

import pytest
import sqlalchemy as sa
from fastapi.testclient import TestClient

from ginrummy.store.retention import DAY, Retention, Swept, sweep
from ginrummy.web import create_app
from ginrummy.web.http import housekeeping
from ginrummy.web.http.ratelimit import RateLimits

NOW = time.time()


@pytest.fixture
def engine(db_url: str) -> Iterator[sa.Engine]:
    e = sa.create_engine(db_url)
    yield e
    e.dispose()


def _game(c: TestClient, **body: Any) -> tuple[str, dict[str, str]]:
    r = c.post("/api/games", json={"level": "easy", **body})
    assert r.status_code == 201, r.text
    return r.json()["game_id"], {"Authorization": f"Bearer {r.json()['token']}"}


def _sheet(c: TestClient) -> tuple[str, dict[str, str]]:
    r = c.post("/api/sheets", json={"players": ["Ana", "Budi"]})
    sid, h = r.json()["sheet_id"], {"Authorization": f"Bearer {r.json()['token']}"}
    for p in (5, 7):
        assert c.post(f"/api/sheets/{sid}/hands", json={"hand": {"winner": "Ana", "points": p}},
                      headers=h).status_code == 200
    return sid, h


def _age_game(engine: sa.Engine, gid: str, days: float, over: bool = False) -> None:
    with engine.begin() as c:
        c.execute(sa.text("UPDATE games SET updated_at = :t, created_at = :t, status = :s, "
                          "finished_at = :f WHERE id = :i"),
                  {"t": NOW - days * DAY, "s": "over" if over else "playing",
                   "f": NOW - days * DAY if over else None, "i": gid})


def _age_sheet(engine: sa.Engine, sid: str, days: float) -> None:
    with engine.begin() as c:
        c.execute(sa.text("UPDATE sheets SET updated_at = :t WHERE id = :i"),
                  {"t": NOW - days * DAY, "i": sid})


def _rows(engine: sa.Engine, table: str, column: str, key: str) -> int:
    with engine.connect() as c:
        return int(c.execute(sa.text(f"SELECT count(*) FROM {table} WHERE {column} = :k"),
                             {"k": key}).scalar_one())


def test_the_rule(client: TestClient, engine: sa.Engine) -> None:
    play_old, h1 = _game(client)
    play_new, h2 = _game(client)
    over_kept, h3 = _game(client)
    over_old, h4 = _game(client)
    variant_old, h5 = _game(client, scoring="hollywood")
    sheet_old, s1 = _sheet(client)
    sheet_new, s2 = _sheet(client)
    _age_game(engine, play_old, 91)
    _age_game(engine, play_new, 89)
    _age_game(engine, over_kept, 364, over=True)   # idle long, but its record is kept a year
    _age_game(engine, over_old, 366, over=True)
    _age_game(engine, variant_old, 120)
    _age_sheet(engine, sheet_old, 91)
    _age_sheet(engine, sheet_new, 89)
    assert _rows(engine, "game_tables", "game_id", variant_old) == 1

    store = client.app.state.store  # type: ignore[attr-defined]
    got = sweep(store.engine, Retention(90, 365), now=NOW, writing=store.writing, batch=2)
    assert got == Swept(games=3, sheets=1)
    for gid, h in ((play_old, h1), (over_old, h4), (variant_old, h5)):
        assert client.get(f"/api/games/{gid}", headers=h).status_code == 404
        assert _rows(engine, "deals", "game_id", gid) == 0
        assert _rows(engine, "game_tables", "game_id", gid) == 0
    assert client.get(f"/api/games/{play_new}", headers=h2).status_code == 200
    assert client.get(f"/api/games/{over_kept}/record", headers=h3).status_code == 200
    assert client.get(f"/api/sheets/{sheet_old}", headers=s1).status_code == 404
    assert _rows(engine, "sheet_hands", "sheet_id", sheet_old) == 0
    kept = client.get(f"/api/sheets/{sheet_new}", headers=s2)
    assert kept.status_code == 200 and len(kept.json()["input"]["hands"]) == 2
    # idempotent: a second sweep (another process, say) finds nothing
    assert sweep(store.engine, Retention(90, 365), now=NOW) == Swept(0, 0)


def test_off_keeps_everything(client: TestClient, engine: sa.Engine) -> None:
    gid, h = _game(client)
    sid, s = _sheet(client)
    _age_game(engine, gid, 3650)
    _age_sheet(engine, sid, 3650)
    assert sweep(engine, Retention(None, None), now=NOW) == Swept(0, 0)
    assert client.get(f"/api/games/{gid}", headers=h).status_code == 200
    assert client.get(f"/api/sheets/{sid}", headers=s).status_code == 200


def test_settings_from_the_environment() -> None:
    assert Retention.from_env({}) == Retention(90.0, 365.0, 3600.0)
    assert Retention.from_env({"GINRUMMY_RETENTION_DAYS": "30", "GINRUMMY_RECORD_DAYS": "off",
                               "GINRUMMY_RETENTION_EVERY": "600"}) == Retention(30.0, None, 600)
    assert not Retention.from_env({"GINRUMMY_RETENTION_DAYS": "0",
                                   "GINRUMMY_RECORD_DAYS": "never"}).active
    for bad in ({"GINRUMMY_RETENTION_DAYS": "soon"}, {"GINRUMMY_RECORD_DAYS": "-3"},
                {"GINRUMMY_RETENTION_EVERY": "0"}):
        with pytest.raises(ValueError, match="GINRUMMY_"):
            Retention.from_env(bad)


def test_the_running_server_sweeps_by_itself(db_url: str, engine: sa.Engine,
                                             monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(housekeeping, "FIRST_SWEEP_AFTER", 0.05)
    app = create_app(db_url, rate_limits=RateLimits(None, None),
                     retention=Retention(90, 365, every=0.1))
    with TestClient(app) as c:  # runs the lifespan, hence the background task
        gid, h = _game(c)
        sid, s = _sheet(c)
        _age_game(engine, gid, 100)
        _age_sheet(engine, sid, 100)
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline and (
                c.get(f"/api/games/{gid}", headers=h).status_code != 404
                or c.get(f"/api/sheets/{sid}", headers=s).status_code != 404):
            time.sleep(0.05)
        assert c.get(f"/api/games/{gid}", headers=h).status_code == 404
        assert c.get(f"/api/sheets/{sid}", headers=s).status_code == 404
        fresh, fh = _game(c)
        time.sleep(0.3)  # several sweeps more
        assert c.get(f"/api/games/{fresh}", headers=fh).status_code == 200



def test_a_resigned_game_is_kept_as_a_finished_record(client: TestClient,
                                                      engine: sa.Engine) -> None:
    """A resigned game (docs/api.md "Resigning") is finished: its record is kept as long as a
    game that ended by the score (not swept as an idle game in play)."""
    gid, h = _game(client)
    assert client.post(f"/api/games/{gid}/resign", headers=h).status_code == 200
    with engine.begin() as c:
        c.execute(sa.text("UPDATE games SET updated_at = :t WHERE id = :i"),
                  {"t": NOW - 200 * DAY, "i": gid})
    store = client.app.state.store  # type: ignore[attr-defined]
    assert sweep(store.engine, Retention(90, 365), now=NOW) == Swept(0, 0)
    assert client.get(f"/api/games/{gid}", headers=h).json()["resigned"] == {"seat": 0}
    with engine.begin() as c:
        c.execute(sa.text("UPDATE games SET updated_at = :t WHERE id = :i"),
                  {"t": NOW - 366 * DAY, "i": gid})
    assert sweep(store.engine, Retention(90, 365), now=NOW) == Swept(games=1, sheets=0)
    assert client.get(f"/api/games/{gid}", headers=h).status_code == 404


def test_the_sweeps_indexes_are_made_at_the_start_where_missing(client: TestClient,
                                                               engine: sa.Engine) -> None:
    """A database whose sheets table predates its ``updated_at`` index (sheets made before
    schema 3) gets it from :func:`prepare`, as every database gets the games' one."""
    from ginrummy.store.retention import prepare

    with engine.begin() as c:
        c.execute(sa.text("DROP INDEX IF EXISTS ix_sheets_updated_at"))
        c.execute(sa.text("DROP INDEX IF EXISTS ix_games_updated_at"))

    def indexes(table: str) -> set[str]:
        return {str(i["name"]) for i in sa.inspect(engine).get_indexes(table)}

    assert "ix_sheets_updated_at" not in indexes("sheets")
    prepare(engine)
    assert "ix_sheets_updated_at" in indexes("sheets")
    assert "ix_games_updated_at" in indexes("games")
    prepare(engine)  # again: nothing to do, no error
