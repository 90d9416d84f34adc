"""Rate limits: on by default; ``GINRUMMY_RATE_LIMITS`` may change them or switch them off
(a load test on loopback), and an unreadable value stops the server from starting."""

from __future__ import annotations

from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from ginrummy.bots import LEVELS
from ginrummy.web import create_app
from ginrummy.web.http.ratelimit import RateLimits


def _creates(tmp_path: Path, n: int) -> list[int]:
    app = create_app(f"sqlite:///{tmp_path / 'rl.sqlite3'}")
    with TestClient(app) as c:
        codes = [c.post("/api/games", json={"level": LEVELS[0]}).status_code for _ in range(n)]
    app.state.store.close()
    return codes


def test_default_keeps_the_limits_on(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("GINRUMMY_RATE_LIMITS", raising=False)
    assert RateLimits.from_env(None) == RateLimits() == RateLimits(30, 600, 60.0)
    assert RateLimits.from_env("  ") == RateLimits()
    codes = _creates(tmp_path, RateLimits().creates + 1)  # type: ignore[operator]
    assert codes[:-1] == [201] * (len(codes) - 1) and codes[-1] == 429


def test_environment_switches_them_off(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("GINRUMMY_RATE_LIMITS", "off")
    assert _creates(tmp_path, 35) == [201] * 35


def test_environment_sets_them(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("GINRUMMY_RATE_LIMITS", "creates=2, requests=off")
    assert _creates(tmp_path, 3) == [201, 201, 429]
    assert RateLimits.from_env("requests=5,window=1.5") == RateLimits(30, 5, 1.5)
    # an explicit argument wins over the environment
    app = create_app(f"sqlite:///{tmp_path / 'x.sqlite3'}",
                     rate_limits=RateLimits(creates=None, requests=None))
    with TestClient(app) as c:
        assert all(c.post("/api/games", json={"level": LEVELS[0]}).status_code == 201
                   for _ in range(3))
    app.state.store.close()


@pytest.mark.parametrize("bad", ["fast", "creates=-1", "requests=x", "window=0", "speed=3",
                                 "creates"])
def test_unreadable_setting_is_refused(bad: str, monkeypatch: pytest.MonkeyPatch,
                                       tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="GINRUMMY_RATE_LIMITS"):
        RateLimits.from_env(bad)
    monkeypatch.setenv("GINRUMMY_RATE_LIMITS", bad)
    with pytest.raises(ValueError):
        create_app(f"sqlite:///{tmp_path / 'bad.sqlite3'}")
