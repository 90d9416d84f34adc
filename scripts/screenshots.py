"""Screenshots of the web game as a player sees it, at a phone (390x844) and a desktop
(1440x900) size: new-game dialog, offer, discard with melds marked, knock confirm, hand over
(with layoffs, and an undercut when one comes), game over, the rules page, each language.

    .venv/bin/python scripts/screenshots.py [OUT_DIR]      (default /tmp/ginrummy-shots)

It starts the app itself on a free loopback port with a temporary SQLite file and plays by clicks
with the browser tests' policy (tests/browser/browser_helpers.py). Needs /usr/bin/chromium.
"""

from __future__ import annotations

import sys
import tempfile
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests" / "browser"))

from browser_helpers import (  # noqa: E402
    CHROMIUM,
    CHROMIUM_ARGS,
    LiveServer,
    click_action,
    enabled,
    new_game,
    play_turn,
    wait_ready,
)

SIZES = {"phone": {"width": 390, "height": 844}, "desktop": {"width": 1440, "height": 900}}


def shoot(page: Any, out: Path, name: str, full: bool = False) -> None:
    page.mouse.move(0, 0)  # no hover effect in the picture
    page.screenshot(path=str(out / f"{name}.png"), full_page=full)
    print("  ", name)


def session(browser: Any, base: str, out: Path, size: str, max_games: int = 8) -> None:
    ctx = browser.new_context(viewport=SIZES[size], reduced_motion="reduce", locale="en-US",
                              bypass_csp=True)
    ctx.set_default_timeout(8000)
    page = ctx.new_page()
    page.on("pageerror", lambda e: print("PAGE ERROR", e))
    page.goto(base + "/")
    page.wait_for_selector("#dlg-new[open]")
    shoot(page, out, f"{size}-01-new-game")
    page.click("#new-fields-wrap > summary")
    shoot(page, out, f"{size}-02-new-game-fields")
    got: set[str] = set()
    for game in range(max_games):
        ph = new_game(page, base, target=25, goto=False, dialog_open=game == 0)
        for _ in range(600):
            if ph == "offer" and "offer" not in got:
                got.add("offer")
                shoot(page, out, f"{size}-03-offer")
            if ph == "discard":
                melds = page.locator("[data-testid=hand] .group.meld").count()
                if melds and "melds" not in got:
                    got.add("melds")
                    shoot(page, out, f"{size}-04-discard-melds")
                if enabled(page, "knock") and "knock" not in got:
                    got.add("knock")
                    page.click("[data-testid=knock]")
                    page.wait_for_selector("#dlg-knock[open]")
                    shoot(page, out, f"{size}-05-knock-confirm")
                    ph = click_action(page, "[data-testid=confirm-knock]")
                    continue
            if ph == "hand-over":
                text = page.inner_text("[data-testid=result]")
                laid = page.locator("[data-testid=result] .tag-laid").count()
                if "hand-over" not in got:
                    got.add("hand-over")
                    shoot(page, out, f"{size}-06-hand-over")
                if laid and "layoffs" not in got:
                    got.add("layoffs")
                    shoot(page, out, f"{size}-07-hand-over-layoffs")
                if "ndercut" in text and "undercut" not in got:
                    got.add("undercut")
                    shoot(page, out, f"{size}-08-undercut")
            if ph == "game-over":
                if "ndercut" in page.inner_text("[data-testid=result]") and "undercut" not in got:
                    got.add("undercut")
                    shoot(page, out, f"{size}-08-undercut")
                if "game-over" not in got:
                    got.add("game-over")
                    shoot(page, out, f"{size}-09-game-over")
                    shoot(page, out, f"{size}-09-game-over-full", full=True)
                break
            ph = play_turn(page)
        if {"layoffs", "undercut", "game-over", "knock"} <= got:
            break
    # languages, in the middle of a hand
    new_game(page, base, target=25, goto=False)
    for lang in ("id", "ms", "jv", "en"):
        page.select_option("[data-testid=language]", lang)
        page.wait_for_selector(f"html[lang={lang}]")
        wait_ready(page)
        shoot(page, out, f"{size}-10-lang-{lang}", full=True)
        if lang != "en":
            page.click("[data-testid=new-game]")
            page.wait_for_selector("#dlg-new[open]")
            shoot(page, out, f"{size}-11-new-game-{lang}")
            page.keyboard.press("Escape")
    page.goto(base + "/rules")
    shoot(page, out, f"{size}-12-rules")
    page.goto(base + "/rules?lang=id")
    shoot(page, out, f"{size}-12-rules-id")
    print("   missing:", {"offer", "melds", "knock", "hand-over", "layoffs", "undercut",
                           "game-over"} - got)
    ctx.close()


def main() -> None:
    from playwright.sync_api import sync_playwright

    out = Path(sys.argv[1] if len(sys.argv) > 1 else "/tmp/ginrummy-shots")
    out.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as tmp, sync_playwright() as pw:
        srv = LiveServer(Path(tmp) / "shots.sqlite3").start()
        browser = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        try:
            for size in SIZES:
                print(size)
                session(browser, srv.base, out, size)
        finally:
            browser.close()
            srv.stop()
    print("screenshots in", out)


if __name__ == "__main__":
    main()
