"""The game installs on a phone's home screen (issue 13): Chromium reads the web app manifest
without errors and finds nothing that stops installation; the icons load under the page's
Content-Security-Policy."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from browser_helpers import PHONE, LiveServer

pytestmark = pytest.mark.browser


def test_chromium_finds_the_game_installable(new_context: Callable[..., Any],
                                             server: LiveServer) -> None:
    ctx = new_context(viewport=PHONE, bypass_csp=False, is_mobile=True, has_touch=True)
    page = ctx.new_page()
    refused: list[str] = []
    page.on("console", lambda m: refused.append(m.text) if "Content Security Policy" in m.text
            else None)
    page.goto(server.base + "/?lang=id")
    page.wait_for_load_state("load")
    cdp = ctx.new_cdp_session(page)
    manifest = cdp.send("Page.getAppManifest")
    assert manifest["url"].endswith("/static/manifest.webmanifest")
    assert manifest["errors"] == []
    assert '"start_url": "/"' in manifest["data"]
    errors = [e["errorId"] for e in
              cdp.send("Page.getInstallabilityErrors")["installabilityErrors"]]
    # Playwright's contexts are incognito ones, where nothing installs: that one is the test's
    assert "in-incognito" in errors
    assert [e for e in errors if e != "in-incognito"] == []
    # the icons the page names load (the manifest's and the tab's)
    for src in ("/static/icons/icon.svg", "/static/icons/icon-192.png"):
        ok = page.evaluate("""src => new Promise(res => {
            const i = new Image();
            i.onload = () => res(i.naturalWidth > 0);
            i.onerror = () => res(false);
            i.src = src; })""", src)
        assert ok, src
    assert refused == []
