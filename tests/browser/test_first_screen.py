"""On a 390x844 phone the person's hand and its actions (Discard, Knock, Gin) fit the first
screen during their own turn, in every form (issue 21 item 15: the buttons were at 895-933 px,
worse at a partnership table): against the computers (standard, Hollywood, three players,
partnership) and at tables of people (two, three and four people, the last with a turn
clock), measured in each phase of the turn the deal gives (the first-turn offer, the draw, the
discard), from the page's top; the partnership of four people also on two server processes
sharing a PostgreSQL database (the table made on the first, the watched guest's page on the
second). Chance is fixed (tests/chance.py): the seed in a failure replays the games."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from browser_helpers import PHONE, LiveServer
from table_driver import Table
from test_friends import person, ready
from two_servers import Server, TwoProcesses

from chance import fix_chance

pytestmark = pytest.mark.browser

SEED = 15

#: form -> (scoring, people at the table (0: against the computers), turn clock)
FORMS = {
    "computer-standard": ("standard", 0, None),
    "computer-hollywood": ("hollywood", 0, None),
    "computer-three": ("three_player", 0, None),
    "computer-partnership": ("partnership", 0, None),
    "people-two": ("standard", 2, None),
    "people-three": ("three_player", 3, None),
    "people-partnership-clock": ("partnership", 4, 300),
}

#: where the hand's cards and the three buttons are on the page (from its top: the first screen
#: is its first 844 px, however far a click scrolled it)
MEASURE = """() => {
  const box = (e) => { const r = e.getBoundingClientRect();  // from the page's top
                       return {top: r.top + scrollY, bottom: r.bottom + scrollY, left: r.left,
                               right: r.right}; };
  const hand = [...document.querySelectorAll('[data-testid=hand] .slot')];
  return {scrollY: window.scrollY, height: innerHeight, width: innerWidth,
          cards: hand.map((e) => Object.assign(box(e), {card: e.dataset.card})),
          buttons: Object.fromEntries(['discard', 'knock', 'gin'].map(
            (id) => [id, box(document.querySelector(`[data-testid=${id}]`))]))};
}"""


@pytest.fixture
def fixed_server(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[LiveServer]:
    fix_chance(monkeypatch, SEED)
    srv = LiveServer(tmp_path / "games.sqlite3").start()
    yield srv
    srv.stop()


def on_first_screen(page: Any, where: str) -> None:
    m = page.evaluate(MEASURE)
    assert len(m["cards"]) >= 10, f"{where}: {len(m['cards'])} cards shown"
    for name, b in [*((c["card"], c) for c in m["cards"]), *m["buttons"].items()]:
        assert b["bottom"] > b["top"], f"{where}: {name} is not shown: {b}"
        assert b["top"] >= 0 and b["bottom"] <= m["height"], \
            f"{where}: {name} at {b['top']:.0f}-{b['bottom']:.0f} px, the screen is " \
            f"{m['height']} px high (seed {SEED})"
        assert b["left"] >= 0 and b["right"] <= m["width"] + 0.5, f"{where}: {name}: {b}"


@pytest.mark.parametrize("form", list(FORMS))
def test_hand_and_actions_fit_the_first_screen_of_a_phone(new_context: Any,
                                                          fixed_server: LiveServer,
                                                          form: str) -> None:
    fits_the_first_screen(new_context, fixed_server, fixed_server, form)


def test_a_partnership_of_people_fits_on_two_processes(two_processes: TwoProcesses,
                                                        new_context: Any) -> None:
    two_processes.fix(SEED)
    fits_the_first_screen(new_context, two_processes.first, two_processes.second,
                          "people-partnership-clock")


def fits_the_first_screen(new_context: Any, first: Server, second: Server, form: str) -> None:
    """The table of ``form`` made on ``first``; the watched person's page on ``second``, the
    others moving through ``first``, until the watched person's first discard."""
    scoring, people, clock = FORMS[form]
    if people:
        table = Table.of_people(first, scoring, people, turn_clock=clock)
        watched = 1  # a guest's page (the creator's has the same rows)
    else:
        table = Table.against_computers(first, scoring)
        watched = 0
    page = person(new_context, viewport=PHONE)
    table.at(second).open(page, watched)
    page.wait_for_selector("#table[aria-busy=false] [data-testid=status][data-phase]",
                           state="attached")
    seen: list[str] = []
    for _ in range(400):  # the first hand's moves, with room for a hand that ends early
        ph = ready(page)
        if ph is None:
            if not table.move_others(watched):
                page.wait_for_timeout(50)
            continue
        if ph in ("offer", "draw", "discard"):
            on_first_screen(page, f"{form}, {ph} (seed {SEED})")
            if ph not in seen:
                seen.append(ph)
        if ph == "discard":
            break
        if ph == "offer":
            page.click("[data-testid=pass]")
        elif ph == "draw":
            page.click("[data-testid=stock]")
        else:  # a hand over before the watched person's discard: the next one
            page.click("[data-testid=next-hand]")
        page.wait_for_function("(ph) => document.querySelector('[data-testid=status]')"
                               ".dataset.phase !== ph", arg=ph)
    assert "draw" in seen or "offer" in seen, (form, seen, SEED)
    assert "discard" in seen, (form, seen, SEED)
    assert page.errors == []
