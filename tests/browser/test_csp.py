"""The page under its real Content-Security-Policy (the other browser tests bypass it so that
their waits can evaluate predicates in the page): it boots, deals and plays a hand to its
result with no violation."""

from __future__ import annotations

from typing import Any

import pytest
from browser_helpers import STRICT_CSP, LiveServer, new_game, play_until
from playwright.sync_api import expect

pytestmark = pytest.mark.browser


def test_page_plays_under_its_csp(new_context: Any, server: LiveServer) -> None:
    page = new_context(bypass_csp=False).new_page()
    STRICT_CSP.add(page)
    messages: list[str] = []
    errors: list[str] = []
    page.on("console", lambda m: messages.append(m.text))
    page.on("pageerror", lambda e: errors.append(str(e)))
    response = page.goto(server.base + "/")
    assert response is not None
    csp = response.headers["content-security-policy"]
    assert "script-src 'self'" in csp and "unsafe-inline" not in csp.split("script-src")[1]
    new_game(page, server.base, goto=False, dialog_open=True)
    # a whole hand, to its result panel (which takes the table's place and hides the status)
    play_until(page, ("hand-over", "game-over"))
    expect(page.locator("#result")).to_be_visible()
    violations = [m for m in messages if "Content Security Policy" in m]
    assert not violations and not errors, (violations, errors)


#: records every CSP violation of the page (the console line alone can be missed)
_WATCH = """window.__csp = [];
document.addEventListener('securitypolicyviolation',
  (e) => window.__csp.push(`${e.violatedDirective} ${e.blockedURI} ${e.sample}`));"""


def _strict_page(new_context: Any) -> tuple[Any, list[str]]:
    page = new_context(bypass_csp=False).new_page()
    page.add_init_script(_WATCH)
    seen: list[str] = []
    page.on("console", lambda m: seen.append(m.text) if "Content Security Policy" in m.text
            else None)
    page.on("pageerror", lambda e: seen.append(str(e)))
    return page, seen


def test_csp_has_no_inline_style(new_context: Any, server: LiveServer) -> None:
    page, _ = _strict_page(new_context)
    response = page.goto(server.base + "/keeper")
    assert response is not None
    csp = response.headers["content-security-policy"]
    assert "unsafe-inline" not in csp and "style-src 'self';" in csp


def test_replay_markers_placed_under_the_csp(new_context: Any, server: LiveServer) -> None:
    """The replay's marker ticks are placed along the slider without any inline style attribute
    (which the CSP would refuse, leaving every tick at the start)."""
    from test_replay_page import finished_hand_with_marker, open_replay

    gid, token, number, data = finished_hand_with_marker(server)
    page, seen = _strict_page(new_context)
    open_replay(page, server, gid, token, number)
    expect(page.get_by_test_id("replay-step")).to_contain_text("0")
    ticks = page.locator(".rp-tick")
    expect(ticks).to_have_count(len(data["markers"]))
    last = max(1, len(data["frames"]) - 1)
    box = page.locator("#rp-ticks").bounding_box()
    for i, m in enumerate(data["markers"]):
        tb = ticks.nth(i).bounding_box()
        centre = tb["x"] + tb["width"] / 2 - box["x"]
        assert abs(centre - box["width"] * m["step"] / last) <= 2, (m, centre, box)
    assert page.evaluate("window.__csp") == [] and not seen, (page.evaluate("window.__csp"),
                                                              seen)


@pytest.mark.parametrize("path", ["/keeper", "/tutorial", "/rules"])
def test_other_pages_have_no_csp_violation(new_context: Any, server: LiveServer,
                                           path: str) -> None:
    page, seen = _strict_page(new_context)
    page.goto(server.base + path)
    page.wait_for_load_state("networkidle")
    assert page.evaluate("window.__csp") == [] and not seen, (page.evaluate("window.__csp"),
                                                              seen)
