"""One name per table, on the page (issue 10, found by a fresh tester: two "Ayu" at one table):
a person who opens the invite and types a name already seated there (in any case, with spaces
around) is told why in their own language, keeps the dialog and the name field, and sits with
another name; nobody's page ever shows the name twice."""

from __future__ import annotations

from typing import Any

import pytest
from browser_helpers import LiveServer
from test_friends import WAITING, create_table, join_table, person

pytestmark = pytest.mark.browser


def try_join(page: Any, url: str, name: str) -> Any:
    page.goto(url)
    page.wait_for_selector("#dlg-join[open] [data-testid=join-name]")
    page.fill("[data-testid=join-name]", name)
    with page.expect_response(lambda r: "/join" in r.url and r.request.method == "POST") as resp:
        page.click("[data-testid=join-table]")
    return resp.value


@pytest.mark.parametrize(("locale", "words"), [
    ("en-US", "Someone at this table is already called Ayu."),
    ("id-ID", "Sudah ada yang bernama Ayu di meja ini."),
])
def test_a_name_already_at_the_table_is_refused_on_the_page(new_context: Any, server: LiveServer,
                                                            locale: str, words: str) -> None:
    ayu = person(new_context)
    other = person(new_context, locale=locale)
    url = create_table(ayu, server.base, name="Ayu", scoring="three_player",
                       seats=("open", "open"))
    r = try_join(other, url, "  aYU ")
    assert r.status == 409 and r.json()["detail"]["code"] == "name_taken", r.text()
    err = other.get_by_test_id("join-error")
    err.wait_for(state="visible")
    assert words in err.inner_text()
    assert other.locator("#dlg-join[open]").count() == 1  # still joining: nothing was taken
    name = other.get_by_test_id("join-name")
    assert name.get_attribute("aria-invalid") == "true"
    assert other.evaluate("() => document.activeElement.id") == "join-name"
    # the other seats are still open; the creator's page shows one Ayu and two open seats
    assert ayu.locator("#waiting-seats li[data-kind=open]").count() == 2
    # another name sits
    joined = join_table(other, url, "Ayu B")
    assert joined["seat"] == 1
    other.wait_for_selector(f"{WAITING}:visible")
    ayu.wait_for_selector("#waiting-seats li[data-seat='1'][data-kind=person]", timeout=10_000)
    for p in (ayu, other):
        names = p.locator("#waiting-seats li[data-kind=person] b").all_inner_texts()
        assert len(names) == 2 and sorted(n.split(" (")[0] for n in names) == ["Ayu", "Ayu B"]
    assert not ayu.errors and not other.errors


def test_a_word_the_table_shows_for_a_seat_is_refused_on_the_page(new_context: Any,
                                                                  server: LiveServer) -> None:
    """"Komputer" (what a Malay page calls the computer's seat) is no name: the person is told
    why in their language and tries another name in the same dialog."""
    ann = person(new_context)
    other = person(new_context, locale="ms-MY")
    url = create_table(ann, server.base, name="Ann")
    r = try_join(other, url, "komputer")
    assert r.status == 422 and r.json()["detail"]["reason"]["code"] == "name_reserved", r.text()
    err = other.get_by_test_id("join-error")
    err.wait_for(state="visible")
    assert "Pilih nama lain" in err.inner_text() and "komputer" in err.inner_text()
    name = other.get_by_test_id("join-name")
    assert name.get_attribute("aria-invalid") == "true"
    assert other.evaluate("() => document.activeElement.id") == "join-name"
    assert join_table(other, url, "Budi")["seat"] == 1
    assert not ann.errors and not other.errors
