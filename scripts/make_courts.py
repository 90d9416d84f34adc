"""Draw the court cards (static/courts/{rank}{suit}.svg): our own simple double-ended figures
for the jack, queen and king of each suit, and the four-colour deck's diamonds and clubs
({rank}{suit}-4.svg). app.css puts them in each face card's frame (``.card .face``).

Run from the repository: ``.venv/bin/python scripts/make_courts.py`` (no dependencies).
"""

from __future__ import annotations

from pathlib import Path

OUT = Path(__file__).resolve().parents[1] / "src" / "ginrummy" / "web" / "static" / "courts"

# the suit symbols of the pages (<symbol id="suit-S"> ...), on a 100 x 100 box
SUIT_PATHS = {
    "S": '<path d="M50 4C40 24 8 40 8 62c0 14 11 23 23 23 7 0 13-3 17-8-2 9-6 15-14 19h32'
         'c-8-4-12-10-14-19 4 5 10 8 17 8 12 0 23-9 23-23C92 40 60 24 50 4z"/>',
    "H": '<path d="M50 92C22 68 5 52 5 31 5 16 16 6 30 6c9 0 16 5 20 13 4-8 11-13 20-13 14 0 '
         '25 10 25 25 0 21-17 37-45 61z"/>',
    "D": '<path d="M50 3 88 50 50 97 12 50z"/>',
    "C": '<circle cx="50" cy="27" r="20"/><circle cx="27" cy="59" r="20"/>'
         '<circle cx="73" cy="59" r="20"/><path d="M44 44h12v14h-12zM47 58c0 17-5 29-14 38h34'
         'c-9-9-14-21-14-38z"/>',
}
BLACK, RED, BLUE, GREEN, GOLD, NAVY = "#1a1a1a", "#c62828", "#1455c0", "#17803a", "#d9a520", \
    "#2f4f8f"
SKIN, SKIN_LINE, PAPER = "#f4d7b5", "#8a5a3a", "#fffaf0"
#: per suit: the suit's colour, the robe, the robe's band, an accent
PALETTES = {
    "S": {"suit": BLACK, "robe": NAVY, "band": BLACK, "accent": GOLD},
    "H": {"suit": RED, "robe": RED, "band": NAVY, "accent": GOLD},
    "D": {"suit": RED, "robe": GOLD, "band": RED, "accent": NAVY},
    "C": {"suit": BLACK, "robe": RED, "band": BLACK, "accent": GOLD},
}
FOUR_COLOUR = {"D": BLUE, "C": GREEN}
HAIR = {"J": "#5d3a1a", "Q": "#b5782a", "K": "#e9e4d6"}


def half(rank: str, suit: str, c: dict[str, str]) -> str:
    """The upper half of the card: the figure from the waist up, on a 60 x 40 box."""
    hair = HAIR[rank]
    parts = [
        # robe, its band and the gold collar
        f'<path d="M5 40 L9 30 Q13 24.5 22 24 L38 24 Q47 24.5 51 30 L55 40 Z" fill="{c["robe"]}"'
        f' stroke="{BLACK}" stroke-width=".5"/>',
        f'<path d="M26.5 27 L33.5 27 L35 40 L25 40 Z" fill="{c["band"]}"/>',
        *(f'<circle cx="{x}" cy="{y}" r=".9" fill="{c["accent"]}"/>'
          for x, y in ((14, 34), (18, 30), (42, 30), (46, 34), (30, 31), (30, 36))),
        f'<path d="M21 24 Q30 31.5 39 24 L37 28.5 Q30 33 23 28.5 Z" fill="{GOLD}" '
        f'stroke="{BLACK}" stroke-width=".4"/>',
        f'<rect x="27.5" y="20" width="5" height="5" fill="{SKIN}"/>',
    ]
    if rank == "Q":  # long hair behind the face
        parts.append(f'<path d="M23 12 Q21 22 19 28 L25 27 Q24 20 25.5 13 Z M37 12 Q39 22 41 28 '
                     f'L35 27 Q36 20 34.5 13 Z" fill="{hair}" stroke="{SKIN_LINE}" '
                     'stroke-width=".3"/>')
    parts += [
        f'<ellipse cx="30" cy="15.5" rx="6.3" ry="7.3" fill="{SKIN}" stroke="{SKIN_LINE}" '
        'stroke-width=".5"/>',
        f'<circle cx="27.7" cy="15" r=".75" fill="{BLACK}"/>',
        f'<circle cx="32.3" cy="15" r=".75" fill="{BLACK}"/>',
        f'<path d="M28.6 19.3 Q30 20.2 31.4 19.3" fill="none" stroke="{SKIN_LINE}" '
        'stroke-width=".5"/>',
    ]
    if rank == "K":  # a beard, a crown and a sword
        parts += [
            f'<path d="M23.8 16 Q23.5 25.5 30 27 Q36.5 25.5 36.2 16 Q33.5 20.5 30 20.5 '
            f'Q26.5 20.5 23.8 16 Z" fill="{hair}" stroke="{SKIN_LINE}" stroke-width=".3"/>',
            f'<path d="M28.4 19.2 Q30 20.6 31.6 19.2" fill="none" stroke="{SKIN_LINE}" '
            'stroke-width=".5"/>',
            f'<path d="M23 10 L23.6 2.5 L26.8 6.5 L30 1.5 L33.2 6.5 L36.4 2.5 L37 10 Z" '
            f'fill="{GOLD}" stroke="{BLACK}" stroke-width=".4"/>',
            f'<circle cx="30" cy="7.5" r="1" fill="{c["band"]}"/>',
            '<path d="M48 38 L48 9" stroke="#9aa0a6" stroke-width="1.6"/>',
            '<path d="M48 9 L49 6.5 L47 6.5 Z" fill="#9aa0a6"/>',
            f'<path d="M45.3 31 L50.7 31" stroke="{GOLD}" stroke-width="1.4"/>',
        ]
    elif rank == "Q":  # a tiara and a flower
        parts += [
            f'<path d="M23.6 10 Q30 4.5 36.4 10 L35.6 11.4 Q30 7.6 24.4 11.4 Z" fill="{GOLD}" '
            f'stroke="{BLACK}" stroke-width=".35"/>',
            f'<circle cx="30" cy="7" r="1.1" fill="{c["band"]}"/>',
            '<path d="M12.5 38 Q13 31 15 25" fill="none" stroke="#2e7d32" stroke-width="1"/>',
            '<path d="M13.2 32 Q10 30 9.6 27.6 Q12.6 28.4 13.4 31 Z" fill="#2e7d32"/>',
            *(f'<circle cx="{15 + dx}" cy="{23.5 + dy}" r="1.7" fill="{c["suit"]}"/>'
              for dx, dy in ((0, -1.7), (1.6, 0), (0, 1.7), (-1.6, 0))),
            f'<circle cx="15" cy="23.5" r="1.1" fill="{GOLD}"/>',
        ]
    else:  # the jack: a cap with a feather, short hair, a staff
        parts += [
            f'<path d="M23.5 12.5 Q23 18 24.6 20 L25.6 13 Z M36.5 12.5 Q37 18 35.4 20 L34.4 13 Z"'
            f' fill="{hair}"/>',
            f'<path d="M23 11 Q24 3.5 30.5 3.5 Q37.5 4 37.8 11 Z" fill="{c["band"]}" '
            f'stroke="{BLACK}" stroke-width=".4"/>',
            f'<rect x="23" y="10.2" width="14.8" height="2" fill="{GOLD}" stroke="{BLACK}" '
            'stroke-width=".3"/>',
            f'<path d="M35.5 6 Q43 -0.5 49 2.5 Q42.5 3.5 37.2 9 Z" fill="{c["accent"]}" '
            f'stroke="{BLACK}" stroke-width=".3"/>',
            '<path d="M48 39 L48 13" stroke="#8d6e63" stroke-width="1.3"/>',
            f'<path d="M48 7 L50.6 13 L48 15.5 L45.4 13 Z" fill="{GOLD}" stroke="{BLACK}" '
            'stroke-width=".3"/>',
        ]
    return "".join(parts)


def court(rank: str, suit: str, four_colour: bool = False) -> str:
    """The SVG of one court card's frame (60 x 80), double-ended."""
    c = dict(PALETTES[suit])
    if four_colour and suit in FOUR_COLOUR:
        old = c["suit"]
        c = {k: FOUR_COLOUR[suit] if v == old else v for k, v in c.items()}
    name = {"J": "jack", "Q": "queen", "K": "king"}[rank]
    return (f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 60 80" width="60" '
            f'height="80"><title>{name}</title>'
            f'<rect width="60" height="80" fill="{PAPER}"/>'
            f'<g id="h">{half(rank, suit, c)}</g>'
            '<use href="#h" transform="rotate(180 30 40)"/>'
            f'<path d="M3 41.6 L57 38.4" stroke="{c["band"]}" stroke-width=".8"/>'
            f'<rect x="1.2" y="1.2" width="57.6" height="77.6" rx="2" fill="none" '
            f'stroke="{c["suit"]}" stroke-width=".6"/></svg>\n')


def main() -> None:
    OUT.mkdir(parents=True, exist_ok=True)
    for suit in "SHDC":
        for rank in "JQK":
            (OUT / f"{rank}{suit}.svg").write_text(court(rank, suit), encoding="utf-8")
            if suit in FOUR_COLOUR:
                (OUT / f"{rank}{suit}-4.svg").write_text(court(rank, suit, True),
                                                         encoding="utf-8")


if __name__ == "__main__":
    main()
