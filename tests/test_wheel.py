"""The wheel works (issue 13): ``python -m build`` makes a wheel holding the front end's static
files, the catalogs and the content pages; installed into a fresh virtual environment it runs
``ginrummy serve``, which answers the game page, a static file, a catalog and a content page.

The fresh environment gets the wheel alone (``--no-deps``); the dependencies come from this
test environment's site-packages, added as a plain path (so this checkout's editable install
is not on it). About 15-40 s: the build is the real one, in an isolated environment.
"""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import sysconfig
import time
import urllib.error
import urllib.request
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
SRC = ROOT / "src" / "ginrummy"

pytestmark = pytest.mark.skipif(not (ROOT / "pyproject.toml").is_file(),
                                reason="not a source checkout")


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _get(url: str) -> tuple[int, bytes]:
    try:
        with urllib.request.urlopen(url, timeout=10) as r:
            return r.status, r.read()
    except urllib.error.HTTPError as e:
        return e.code, e.read()


@pytest.fixture(scope="module")
def wheel(tmp_path_factory: pytest.TempPathFactory) -> Path:
    pytest.importorskip("build", reason="the build package (test extra) is not installed")
    out = tmp_path_factory.mktemp("dist")
    r = subprocess.run([sys.executable, "-m", "build", "--wheel", "--outdir", str(out), str(ROOT)],
                       capture_output=True, text=True, timeout=240)
    assert r.returncode == 0, r.stdout[-3000:] + r.stderr[-3000:]
    wheels = list(out.glob("ginrummy-*.whl"))
    assert len(wheels) == 1, wheels
    return wheels[0]


def test_the_wheel_holds_the_front_end(wheel: Path) -> None:
    names = set(zipfile.ZipFile(wheel).namelist())
    for sub in ("web/static", "web/locales", "web/pages"):
        for f in (SRC / sub).rglob("*"):
            if f.is_file() and "__pycache__" not in f.parts:
                rel = "ginrummy/" + f.relative_to(SRC).as_posix()
                assert rel in names, rel
    assert "ginrummy/web/static/index.html" in names
    assert "ginrummy/web/locales/jv.json" in names
    assert "ginrummy/web/pages/id/rules.html" in names


def test_the_installed_wheel_serves_the_game(wheel: Path, tmp_path: Path) -> None:
    env_dir = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(env_dir)], check=True,
                   timeout=60)
    py = env_dir / "bin" / "python"
    r = subprocess.run([sys.executable, "-m", "pip", "--python", str(py), "install", "-q",
                        "--no-deps", "--no-index", "--disable-pip-version-check", str(wheel)],
                       capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, r.stderr[-3000:]
    site = subprocess.run([str(py), "-c", "import sysconfig; print(sysconfig.get_paths()"
                           "['purelib'])"], capture_output=True, text=True, check=True).stdout
    # the dependencies: this environment's site-packages as a plain path (its .pth files, the
    # editable install of this checkout among them, are not read from there)
    Path(site.strip(), "deps.pth").write_text(sysconfig.get_paths()["purelib"] + "\n",
                                              encoding="utf-8")
    clean = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV")}
    where = subprocess.run([str(py), "-c", "import ginrummy.web, sys; "
                            "print(ginrummy.web.__file__)"], cwd=tmp_path, env=clean,
                           capture_output=True, text=True, timeout=60)
    assert where.returncode == 0, where.stderr[-2000:]
    assert where.stdout.strip().startswith(str(env_dir)), where.stdout  # the wheel's copy

    port = _free_port()
    base = f"http://127.0.0.1:{port}"
    log = (tmp_path / "serve.log").open("w")
    proc = subprocess.Popen([str(env_dir / "bin" / "ginrummy"), "serve", "--port", str(port),
                             "--database-url", f"sqlite:///{tmp_path / 'games.sqlite3'}",
                             "--log-level", "warning"],
                            cwd=tmp_path, env=clean, stdout=log, stderr=subprocess.STDOUT)
    try:
        deadline = time.monotonic() + 60
        while True:
            assert proc.poll() is None, (tmp_path / "serve.log").read_text()[-3000:]
            try:
                status, body = _get(base + "/")
                break
            except OSError:
                assert time.monotonic() < deadline, "the server did not start in 60 s"
                time.sleep(0.2)
        assert status == 200 and b'<script type="module" src="/static/app.js">' in body
        status, body = _get(base + "/static/app.js")
        assert status == 200 and body == (SRC / "web/static/app.js").read_bytes()
        status, body = _get(base + "/static/courts/KS.svg")
        assert status == 200 and body.startswith(b"<svg")
        status, body = _get(base + "/locales/jv.json")
        assert status == 200 and b'"app.title"' in body
        status, body = _get(base + "/rules?lang=id")
        assert status == 200 and b"Aturan" in body
        status, body = _get(base + "/api/meta")
        assert status == 200 and b'"presets"' in body
    finally:
        proc.send_signal(signal.SIGTERM)
        try:
            proc.wait(timeout=20)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait(timeout=10)
        log.close()
    assert proc.returncode == 0, (tmp_path / "serve.log").read_text()[-3000:]
