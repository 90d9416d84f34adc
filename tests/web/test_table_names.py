"""One display name per table (issue 10, found by a fresh tester: two "Ayu" at one table): a
join whose name is one already seated there, compared without case, the spaces around and
between words, Unicode's compatibility forms and the invisible format characters, is refused
with 409 ``name_taken`` (a translated reason naming the seated name) and changes nothing; the
API, the live state and every process agree (two app instances on one database stand for two
server processes: no lock, no cache in common).
"""

from __future__ import annotations

import threading
from typing import Any

import pytest
from fastapi.testclient import TestClient
from table_helpers import join, new_table

from ginrummy.web.http.text import name_key

ME = {"kind": "person"}
OPEN = {"kind": "open"}

#: names that a person reads as "Ayu": each is refused once an "Ayu" sits at the table
SAME_AS_AYU = [
    "Ayu", "ayu", "AYU", "aYu", "  Ayu  ",
    "\uff21\uff59\uff55",          # fullwidth letters (NFKC: Ayu)
    "Ayu\u200b",                   # a zero-width space after it
    "A\u00adyu",                   # a soft hyphen inside
    "Ayu\ufe0f",                   # a variation selector
    "\u0410yu",                    # a Cyrillic capital A (drawn as the Latin one)
    "\u0391\u03a5U",               # Greek capital alpha and upsilon
]
#: and names that are not "Ayu"
OTHER_THAN_AYU = ["Ayu 2", "Ayú", "Ayuu", "A yu", "Ayu B"]


def _refused(client: TestClient, code: str, name: str, seated: str) -> dict[str, Any]:
    before = client.get(f"/api/invites/{code}").json()
    r = client.post(f"/api/invites/{code}/join", json={"name": name},
                    headers={"Accept-Language": "id"})
    assert r.status_code == 409, r.text
    detail = r.json()["detail"]
    assert detail["code"] == "name_taken", detail
    assert detail["reason"] == {"code": "name_taken", "params": {"name": seated}}, detail
    assert seated in detail["message"] and "meja" in detail["message"], detail  # Indonesian
    assert client.get(f"/api/invites/{code}").json() == before  # nothing changed
    return dict(detail)


@pytest.mark.parametrize("name", SAME_AS_AYU)
def test_a_name_already_at_the_table_is_refused(client: TestClient, name: str) -> None:
    ann, code = new_table(client, [ME, OPEN, OPEN], name="Ayu", scoring="three_player")
    _refused(client, code, name, "Ayu")
    bo = join(client, code, "Bo")  # the seat is still there for another name
    assert [s["name"] for s in bo.state["seats"] if s["kind"] == "person"] == ["Ayu", "Bo"]


@pytest.mark.parametrize("name", OTHER_THAN_AYU)
def test_other_names_sit_beside_it(client: TestClient, name: str) -> None:
    ann, code = new_table(client, [ME, OPEN], name="Ayu")
    bo = join(client, code, name)
    assert [s["name"] for s in bo.state["seats"]] == ["Ayu", name.strip()]


def test_the_key_of_a_name() -> None:
    assert {name_key(n) for n in SAME_AS_AYU} == {"ayu"}
    assert len({name_key(n) for n in OTHER_THAN_AYU} | {"ayu"}) == len(OTHER_THAN_AYU) + 1
    assert name_key("Ayu   Putri") == name_key("ayu putri") == name_key("Ayu\u00a0Putri")
    assert name_key("Stra\u00dfe") == name_key("STRASSE")  # case folding, not lower()
    assert name_key("Zo\u00eb") == name_key("Zoe\u0308")  # composed and decomposed
    family = "\U0001f468\u200d\U0001f469\u200d\U0001f467"
    assert name_key(family) == family  # a joiner inside an emoji sequence is kept


def test_look_alike_letters_are_one_name() -> None:
    """Letters drawn alike (Unicode's confusables) are one letter: a Cyrillic "Bob" or a "B0b"
    would pass for Bob. ASCII letters stay themselves (capital I and small l are two)."""
    assert name_key("\u0412\u043eb") == name_key("B0b") == name_key("Bob") == "bob"
    assert name_key("Ian") != name_key("lan")
    assert name_key("Ay\u00fa") != name_key("Ayu")  # an accent is a letter of its own


#: words the page shows in place of a name, in each language; a person may not take them
SEAT_WORDS = ["You", "computer", "KOMPUTER", "Kamu", "Anda", "Sampeyan", "Computer 2",
              "Partner C", "opponent  d", "Open seat", "Kursi kosong", "Tempat kosong",
              "C\u043emputer"]


@pytest.mark.parametrize("name", SEAT_WORDS)
def test_a_word_the_table_uses_for_a_seat_is_no_name(client: TestClient, name: str) -> None:
    r = client.post("/api/games", json={"seats": [ME, OPEN], "name": name})
    assert r.status_code == 422 and r.json()["detail"]["reason"]["code"] == "name_reserved", r.text
    ann, code = new_table(client, [ME, OPEN], name="Ann")
    before = client.get(f"/api/invites/{code}").json()
    r = client.post(f"/api/invites/{code}/join", json={"name": name},
                    headers={"Accept-Language": "ms"})
    assert r.status_code == 422, r.text
    detail = r.json()["detail"]
    assert detail["reason"]["code"] == "name_reserved", detail
    assert "Pilih nama lain" in detail["message"], detail
    assert client.get(f"/api/invites/{code}").json() == before  # nothing changed
    join(client, code, "Komputer Budi")  # a name holding the word is a name


def test_a_seat_opened_again_frees_its_name(client: TestClient) -> None:
    ann, code = new_table(client, [ME, OPEN], name="Ann")
    bo = join(client, code, "Ayu")
    r = bo.call("POST", "/leave")
    assert r.status_code == 200, r.text
    again = join(client, code, "ayu")  # the name left with its person
    assert [s["name"] for s in again.state["seats"]] == ["Ann", "ayu"]


def test_a_computer_seat_taken_by_name_is_checked_too(client: TestClient) -> None:
    ann, code = new_table(client, [ME, {"kind": "computer", "level": "easy"}], name="Ayu")
    r = client.post(f"/api/invites/{code}/join", json={"name": "AYU", "seat": 1})
    assert r.status_code == 409 and r.json()["detail"]["code"] == "name_taken", r.text


def test_two_processes_agree_and_two_joins_at_once_seat_one_ayu(
        make_client: Any) -> None:
    """Two app instances on one database (two processes): a name seated through one is refused
    through the other; two joins under one name sent at once, one to each, seat exactly one."""
    a, b = make_client(), make_client()
    ann, code = new_table(a, [ME, OPEN, OPEN, OPEN], name="Ann", scoring="partnership")
    join(a, code, "Ayu")
    r = b.post(f"/api/invites/{code}/join", json={"name": " AYU "})
    assert r.status_code == 409 and r.json()["detail"]["code"] == "name_taken", r.text
    barrier = threading.Barrier(2)
    answers: list[Any] = [None, None]

    def ask(i: int, c: TestClient, name: str) -> None:
        barrier.wait(timeout=10)
        answers[i] = c.post(f"/api/invites/{code}/join", json={"name": name})

    threads = [threading.Thread(target=ask, args=(0, a, "Bo")),
               threading.Thread(target=ask, args=(1, b, "bo"))]
    for th in threads:
        th.start()
    for th in threads:
        th.join(timeout=30)
    codes = sorted(r.status_code for r in answers)
    assert codes == [201, 409], [r.text for r in answers]
    refused = next(r for r in answers if r.status_code == 409)
    assert refused.json()["detail"]["code"] == "name_taken"
    # both processes, the invite and the creator's state (as a live message carries it) agree
    for c in (a, b):
        seats = c.get(f"/api/invites/{code}").json()["seats"]
        names = [s["name"] for s in seats if s["kind"] == "person"]
        assert len(names) == 3 and names[:2] == ["Ann", "Ayu"] and name_key(names[2]) == "bo"
        st = c.get(f"/api/games/{ann.id}", headers=ann.headers).json()
        assert [s["name"] for s in st["seats"] if s["kind"] == "person"] == names


def test_a_full_table_says_it_is_full_before_a_name_would_be_refused(client: TestClient) -> None:
    """Found by a fresh tester: "bo" at a full table with "Bo" seated was told the name was
    taken, changed it, and only then learnt there was no seat."""
    ann, code = new_table(client, [ME, OPEN], name="Ayu")
    join(client, code, "Bo")
    for name in ("bo", "Ayu", "Cy"):
        r = client.post(f"/api/invites/{code}/join", json={"name": name})
        assert r.status_code == 409 and r.json()["detail"]["code"] == "table_full", r.text
