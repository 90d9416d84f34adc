"""axe-core (the npm registry's package, 4.14) on the pages around the game: the content pages
(rules, glossary, tips, FAQ), the 404 page, the score keeper (empty and with a sheet), the hand
replay and the tutorial, in two languages and at two sizes. A serious or critical violation
fails the test, with what axe says and where.

axe-core is installed by the test itself into a cache directory when it is missing
(``npm install axe-core@4.14``; ``$GINRUMMY_AXE_DIR`` or ``~/.cache/ginrummy-tests/axe``); with no
npm or no registry the tests are skipped, saying so. The game page itself is left to the game
page's own accessibility tests.
"""

from __future__ import annotations

import os
import shutil
import subprocess
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from browser_helpers import DESKTOP, PHONE, LiveServer
from test_replay_page import finished_hand_with_marker, open_replay

pytestmark = pytest.mark.browser

AXE_VERSION = "4.14"
SIZES = {"phone": PHONE, "desktop": DESKTOP}
LANGS = ("en", "jv")
BLOCKING = ("serious", "critical")

RUN_AXE = """async () => {
  const r = await axe.run(document, { resultTypes: ['violations'] });
  return r.violations.map((v) => ({ id: v.id, impact: v.impact, help: v.help,
    nodes: v.nodes.slice(0, 5).map((n) => ({ target: n.target.join(' '), html: n.html.slice(0, 160),
      why: n.failureSummary })) }));
}"""


@pytest.fixture(scope="session")
def axe_source() -> str:
    base = Path(os.environ.get("GINRUMMY_AXE_DIR")
                or Path.home() / ".cache" / "ginrummy-tests" / "axe")
    script = base / "node_modules" / "axe-core" / "axe.min.js"
    if not script.is_file():
        npm = shutil.which("npm")
        if npm is None:
            pytest.skip("axe-core is not installed and there is no npm to install it")
        base.mkdir(parents=True, exist_ok=True)
        try:
            r = subprocess.run([npm, "install", "--prefix", str(base), "--no-audit", "--no-fund",
                                "--silent", f"axe-core@{AXE_VERSION}"],
                               capture_output=True, text=True, timeout=180)
        except subprocess.TimeoutExpired:
            pytest.skip("npm install axe-core took over 3 minutes (no registry?)")
        if r.returncode != 0 or not script.is_file():
            pytest.skip(f"npm install axe-core@{AXE_VERSION} failed: {r.stderr[-500:]}")
    return script.read_text(encoding="utf-8")


def _violations(page: Any, axe_source: str) -> list[dict[str, Any]]:
    page.add_script_tag(content=axe_source)
    found: list[dict[str, Any]] = page.evaluate(RUN_AXE)
    return [v for v in found if v["impact"] in BLOCKING]


def _report(where: str, found: list[dict[str, Any]]) -> str:
    lines = [where]
    for v in found:
        lines.append(f"  {v['impact']} {v['id']}: {v['help']}")
        lines += [f"    {n['target']}: {n['html']}" for n in v["nodes"]]
    return "\n".join(lines)


@pytest.fixture(scope="module")
def replay_game(server: LiveServer) -> tuple[str, str, int]:
    gid, token, number, _data = finished_hand_with_marker(server)
    return gid, token, number


@pytest.mark.parametrize("size", sorted(SIZES))
@pytest.mark.parametrize("lang", LANGS)
def test_content_pages(new_context: Callable[..., Any], server: LiveServer, axe_source: str,
                       lang: str, size: str) -> None:
    page = new_context(viewport=SIZES[size]).new_page()
    problems = []
    for path in ("/rules", "/glossary", "/tips", "/faq", "/no-such-page"):
        page.goto(f"{server.base}{path}?lang={lang}")
        found = _violations(page, axe_source)
        if found:
            problems.append(_report(f"{path}?lang={lang} ({size})", found))
    assert not problems, "\n".join(problems)


@pytest.mark.parametrize("size", sorted(SIZES))
@pytest.mark.parametrize("lang", LANGS)
def test_keeper(new_context: Callable[..., Any], server: LiveServer, axe_source: str, lang: str,
                size: str) -> None:
    page = new_context(viewport=SIZES[size]).new_page()
    page.goto(f"{server.base}/keeper?lang={lang}")
    page.wait_for_selector("[data-testid=kp-create]")
    problems = []
    found = _violations(page, axe_source)
    if found:
        problems.append(_report(f"/keeper?lang={lang} ({size}): new sheet", found))
    page.fill("[data-testid=kp-name-0]", "Ana")
    page.fill("[data-testid=kp-name-1]", "Budi")
    page.click("[data-testid=kp-create]")
    page.wait_for_selector("[data-testid=kp-add]")
    page.fill("[data-testid=kp-t0-kd]", "7")
    page.fill("[data-testid=kp-t0-dd]", "30")
    with page.expect_response(lambda r: r.url.endswith("/hands")):
        page.click("[data-testid=kp-add]")
    page.wait_for_selector("[data-testid=kp-sheet] table")
    found = _violations(page, axe_source)
    if found:
        problems.append(_report(f"/keeper?lang={lang} ({size}): a hand entered", found))
    assert not problems, "\n".join(problems)


@pytest.mark.parametrize("size", sorted(SIZES))
@pytest.mark.parametrize("lang", LANGS)
def test_replay(new_context: Callable[..., Any], server: LiveServer, axe_source: str,
                replay_game: tuple[str, str, int], lang: str, size: str) -> None:
    page = new_context(viewport=SIZES[size]).new_page()
    gid, token, number = replay_game
    open_replay(page, server, gid, token, number, lang=lang)
    page.get_by_test_id("replay-step").wait_for()
    problems = []
    for step in ("start", "end"):
        if step == "end":
            page.keyboard.press("End")
            page.get_by_test_id("replay-end").wait_for()
        found = _violations(page, axe_source)
        if found:
            problems.append(_report(f"/replay?lang={lang} ({size}) at the {step}", found))
    assert not problems, "\n".join(problems)


@pytest.mark.parametrize("size", sorted(SIZES))
@pytest.mark.parametrize("lang", LANGS)
def test_tutorial(new_context: Callable[..., Any], server: LiveServer, axe_source: str,
                  lang: str, size: str) -> None:
    page = new_context(viewport=SIZES[size]).new_page()
    page.goto(f"{server.base}/tutorial?lang={lang}")
    page.wait_for_selector("body:not(.loading)")
    page.wait_for_timeout(200)
    found = _violations(page, axe_source)
    assert not found, _report(f"/tutorial?lang={lang} ({size})", found)
