"""Draw the web app's icons (static/icons): the SVG, and its PNG sizes rendered by Chromium.

Run from the repository: ``.venv/bin/python scripts/make_icons.py`` (Debian's /usr/bin/chromium
through Playwright). Our own drawing: two playing cards, a spade and a heart, on the table's green.
"""

from __future__ import annotations

from pathlib import Path

ICONS = Path(__file__).resolve().parents[1] / "src" / "ginrummy" / "web" / "static" / "icons"
FELT, FELT_DARK, RED, INK = "#1f6b3d", "#123d26", "#c62828", "#1b1b1b"
HEART = ("M50 90 C22 68 6 52 6 32 C6 16 18 6 31 6 C40 6 46 11 50 19 C54 11 60 6 69 6 "
         "C82 6 94 16 94 32 C94 52 78 68 50 90 Z")
SPADE = ("M50 6 C32 28 8 42 8 61 C8 74 18 83 30 83 C38 83 44 79 47 74 C46 83 42 90 35 95 "
         "L65 95 C58 90 54 83 53 74 C56 79 62 83 70 83 C82 83 92 74 92 61 C92 42 68 28 50 6 Z")


def card(x: float, y: float, angle: float, suit: str, colour: str) -> str:
    """A white card 190x266 centred on (x, y), turned ``angle`` degrees, a large suit pip."""
    return (f'<g transform="rotate({angle} {x} {y}) translate({x - 95} {y - 133})">'
            f'<rect width="190" height="266" rx="22" fill="#fbf8ee" stroke="{FELT_DARK}" '
            'stroke-width="6"/>'
            f'<path d="{suit}" fill="{colour}" transform="translate(35 70) scale(1.2)"/>'
            f'<path d="{suit}" fill="{colour}" transform="translate(18 16) scale(.34)"/>'
            f'<path d="{suit}" fill="{colour}" transform="rotate(180 95 133) translate(18 16) '
            'scale(.34)"/></g>')


def svg(*, rounded: bool, scale: float = 1.0) -> str:
    """The icon: rounded for browsers' tabs and the "any" icons, full-bleed for "maskable"
    (its drawing scaled into the central safe zone)."""
    rx = 96 if rounded else 0
    art = card(206, 270, -14, SPADE, INK) + card(306, 262, 12, HEART, RED)
    return ('<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 512 512" width="512" '
            'height="512">'
            f'<rect width="512" height="512" rx="{rx}" fill="{FELT}"/>'
            f'<circle cx="256" cy="256" r="{220 * scale}" fill="{FELT_DARK}" opacity=".35"/>'
            f'<g transform="translate(256 256) scale({scale}) translate(-256 -256)">{art}</g>'
            "</svg>")


def main() -> None:
    from playwright.sync_api import sync_playwright

    ICONS.mkdir(parents=True, exist_ok=True)
    (ICONS / "icon.svg").write_text(svg(rounded=True) + "\n", encoding="utf-8")
    outputs = [("icon-192.png", 192, svg(rounded=True), True),
               ("icon-512.png", 512, svg(rounded=True), True),
               ("icon-maskable-512.png", 512, svg(rounded=False, scale=0.78), False),
               ("icon-180.png", 180, svg(rounded=False, scale=0.9), False)]
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path="/usr/bin/chromium",
                                     args=["--no-sandbox", "--disable-gpu"])
        for name, size, doc, transparent in outputs:
            page = browser.new_page(viewport={"width": size, "height": size})
            page.set_content('<html><body style="margin:0;background:transparent">'
                             + doc.replace('width="512" height="512"',
                                           f'width="{size}" height="{size}"')
                             + "</body></html>")
            page.screenshot(path=str(ICONS / name), omit_background=transparent,
                            clip={"x": 0, "y": 0, "width": size, "height": size})
            page.close()
        browser.close()


if __name__ == "__main__":
    main()
