"""The expert is ready before the first decision (issue 11, cold start): ``ginrummy serve`` warms
the computer players *before* it listens (waiting at most ``WARMUP_WAIT_S``), the warm-up
compiles every kernel signature the expert then calls (so no decision compiles), and numba always
has a writable cache directory.

The time itself (fresh cache, first start, first expert decision) is measured by
``benchmarks/cold_start.py``, not here: these tests check the mechanism.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from ginrummy.bots.kernel import needs_cache_fallback


def test_serve_warms_the_computer_players_before_it_listens(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import uvicorn

    import ginrummy.bots
    from ginrummy.web.http.app import serve

    events: list[str] = []
    monkeypatch.setattr(ginrummy.bots, "warmup", lambda: events.append("warmup") or 0.0)
    monkeypatch.setattr(uvicorn, "run", lambda *a, **k: events.append("listen"))
    serve(port=1, database_url=f"sqlite:///{tmp_path / 'games.sqlite3'}")
    assert events == ["warmup", "listen"]


def test_a_worker_process_is_warm_before_its_app_is_returned(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """``ginrummy serve --workers N``: each worker's app factory warms up synchronously (no
    background thread that a first request could overtake)."""
    import ginrummy.bots
    from ginrummy.web.http.app import app_from_env

    events: list[str] = []
    monkeypatch.setenv("GINRUMMY_DATABASE_URL", f"sqlite:///{tmp_path / 'games.sqlite3'}")
    monkeypatch.setattr(ginrummy.bots, "warmup", lambda: events.append("warmup") or 0.0)
    app_from_env()
    assert events == ["warmup"]


def test_a_failed_warmup_does_not_stop_the_server(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    import uvicorn

    import ginrummy.bots
    from ginrummy.web.http.app import serve

    def broken() -> float:
        raise RuntimeError("no compiler")

    listened: list[bool] = []
    monkeypatch.setattr(ginrummy.bots, "warmup", broken)
    monkeypatch.setattr(uvicorn, "run", lambda *a, **k: listened.append(True))
    serve(port=1, database_url=f"sqlite:///{tmp_path / 'games.sqlite3'}")
    assert listened == [True]
    assert "ready" not in capsys.readouterr().err


def test_a_warmup_slower_than_the_cap_does_not_hold_the_server_back(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """A machine too loaded to compile in ``WARMUP_WAIT_S``: the server listens anyway while the
    warm-up goes on in the background."""
    import threading

    import uvicorn

    import ginrummy.bots
    import ginrummy.web.http.app as web_app

    release = threading.Event()
    events: list[str] = []

    def slow() -> float:
        release.wait(30)
        events.append("warm")
        return 0.0

    def run(*a: object, **k: object) -> None:
        events.append("listen")
        release.set()

    monkeypatch.setattr(web_app, "WARMUP_WAIT_S", 0.2)
    monkeypatch.setattr(ginrummy.bots, "warmup", slow)
    monkeypatch.setattr(uvicorn, "run", run)
    web_app.serve(port=1, database_url=f"sqlite:///{tmp_path / 'games.sqlite3'}")
    assert events[0] == "listen"
    assert "still preparing" in capsys.readouterr().err


def test_warm_bots_says_whether_the_players_are_ready(monkeypatch: pytest.MonkeyPatch) -> None:
    import ginrummy.bots
    import ginrummy.web.http.app as web_app

    monkeypatch.setattr(ginrummy.bots, "warmup", lambda: 0.0)
    assert web_app._warm_bots() is True


_SIGNATURES = r"""
import json, random
import numba
from ginrummy.bots import Context, make_bot, warmup
from ginrummy.bots import kernel as K
from ginrummy.hand import HandState
from ginrummy.rules import PRESETS
from ginrummy.views import view_of

def sigs():
    return {name: len(f.signatures) for name, f in vars(K).items()
            if isinstance(f, numba.core.registry.CPUDispatcher)}

warmup()
before = sigs()
expert, simple = make_bot("expert"), make_bot("simple")
rng = random.Random(5)
searched = 0
kinds = set()
for deal in range(40):
    rules = list(PRESETS.values())[deal % len(PRESETS)]
    deck = list(range(52))
    rng.shuffle(deck)
    h = HandState(rules, deal % 2, deck)
    while not h.is_over:
        v = view_of(h, h.current)
        if h.current == 0:
            a = expert.choose(v, Context(random.Random(deal), (0, 0), rules.target))
            if expert.last_values is not None:
                searched += 1
                kinds |= {c.kind.value for c, _ in expert.last_values}
        else:
            a = simple.choose(v, Context(rng))
        h.apply(a)
    if searched >= 60 and "knock" in kinds:
        break
print(json.dumps({"before": before, "after": sigs(), "searched": searched,
                  "kinds": sorted(kinds)}))
"""


def test_the_warmup_compiles_every_kernel_signature_the_expert_calls() -> None:
    """In a fresh interpreter: after ``ginrummy.bots.warmup()``, expert decisions in every rules
    preset (offer, draw, discard and knock candidates searched) add no compiled specialisation:
    none of them waits for the compiler."""
    out = subprocess.run([sys.executable, "-c", _SIGNATURES], capture_output=True, text=True,
                         timeout=600, check=True)
    r = json.loads(out.stdout.strip().splitlines()[-1])
    assert r["searched"] >= 60 and "knock" in r["kinds"], r
    assert r["before"], "no compiled kernel function found"
    assert r["after"] == r["before"]
    # the entry points called from Python are compiled (helpers called only from compiled code
    # have no signature of their own when the kernel was loaded from the disk cache)
    assert all(r["before"][f] >= 1 for f in ("search", "rollout", "evolve_hands")), r["before"]


def test_numba_keeps_its_own_cache_place_when_it_can() -> None:
    pkg, user = Path("/pkg/ginrummy/bots"), Path("/home/u/.cache/numba")
    assert not needs_cache_fallback({}, pkg, user, lambda p: True)
    assert not needs_cache_fallback({}, pkg, user, lambda p: p == user)  # read-only install
    assert not needs_cache_fallback({}, pkg, user, lambda p: p == pkg / "__pycache__")
    assert not needs_cache_fallback({"NUMBA_CACHE_DIR": "/x"}, pkg, user, lambda p: False)


def test_a_read_only_install_without_a_home_gets_a_private_cache() -> None:
    pkg, user = Path("/pkg/ginrummy/bots"), Path("/nonexistent/.cache/numba")
    assert needs_cache_fallback({}, pkg, user, lambda p: False)
    assert needs_cache_fallback({"NUMBA_CACHE_DIR": ""}, pkg, user, lambda p: False)


def test_the_kernel_compiles_where_nothing_else_is_writable(tmp_path: Path) -> None:
    """End to end in a fresh interpreter: with the package's and the user's cache places
    reported unwritable, importing the kernel points numba at a private 0700 temporary
    directory (instead of numba refusing ``cache=True``)."""
    code = r"""
import os, json
from pathlib import Path
real = os.access
os.access = lambda p, mode, **k: False if mode == os.W_OK else real(p, mode, **k)
from ginrummy.bots import kernel as K
d = os.environ["NUMBA_CACHE_DIR"]
import numba.core.config
print(json.dumps({"dir": d, "config": numba.core.config.CACHE_DIR,
                  "mode": oct(os.stat(d).st_mode & 0o777), "numba": K.HAVE_NUMBA}))
"""
    env = {k: v for k, v in __import__("os").environ.items() if k != "NUMBA_CACHE_DIR"}
    env["TMPDIR"] = str(tmp_path)
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         timeout=120, check=True, env=env)
    r = json.loads(out.stdout.strip().splitlines()[-1])
    assert r["numba"] is True
    assert r["dir"] == r["config"]
    assert Path(r["dir"]).parent == tmp_path
    assert r["mode"] == "0o700"
