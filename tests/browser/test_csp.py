"""The page under its real Content-Security-Policy (the other browser tests bypass it so that
their waits can evaluate predicates in the page): it boots, deals and plays with no violation."""

from __future__ import annotations

from typing import Any

import pytest
from browser_helpers import STRICT_CSP, LiveServer, new_game, play_turn

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
    for _ in range(3):
        play_turn(page)
    violations = [m for m in messages if "Content Security Policy" in m]
    assert not violations and not errors, (violations, errors)
