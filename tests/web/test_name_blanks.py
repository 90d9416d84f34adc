"""Names that show nothing, or show as another's (issue 21 item 3): Unicode's default-ignorable
code points (every one of them) are invisible in a name, tag characters count only inside an
emoji flag sequence, and blanks (the braille blank, the Hangul fillers) read as spaces: "Ann" and
a Hangul filler cannot sit beside "Ann", and a name made only of them is refused."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from fastapi.testclient import TestClient
from table_helpers import join, new_table

from ginrummy.web.http.errors import BadRequest
from ginrummy.web.http.text import BLANKS, DEFAULT_IGNORABLE, default_ignorable, name_key, visible
from ginrummy.web.tables.inputs import checked_name

ME = {"kind": "person"}
OPEN = {"kind": "open"}

ENGLAND = "\U0001f3f4\U000e0067\U000e0062\U000e0065\U000e006e\U000e0067\U000e007f"
SCOTLAND = "\U0001f3f4\U000e0067\U000e0062\U000e0073\U000e0063\U000e0074\U000e007f"
#: the blanks the issue found seated as names or beside "Ann"
FOUND = ["\u3164", "\u115f", "\u1160", "\uffa0", "\u2800", "\u17b4", "\u17b5", "\U000e0041"]


def _ignorables() -> Iterator[str]:
    for first, last in DEFAULT_IGNORABLE:
        for o in range(first, last + 1):
            yield chr(o)


def test_the_list_is_unicodes() -> None:
    """DerivedCoreProperties.txt: "Total code points: 4174" (Unicode 14.0 to 16.0), in ranges
    that do not overlap; the characters the issue found among them or the blanks."""
    assert sum(last - first + 1 for first, last in DEFAULT_IGNORABLE) == 4174
    assert all(a[1] < b[0] for a, b in zip(DEFAULT_IGNORABLE, DEFAULT_IGNORABLE[1:],
                                            strict=False))
    assert all(default_ignorable(ch) or ch in BLANKS for ch in FOUND)
    assert not any(default_ignorable(ch) for ch in "Ann \u00a0\u3000\U0001f3f4\u0915")
    assert default_ignorable("\u200d") and default_ignorable("\U000e0fff")
    assert not default_ignorable("\U000e1000") and not default_ignorable("\u17b6")


def test_every_default_ignorable_code_point_is_invisible_in_a_name() -> None:
    shown_as_ann = []
    for ch in _ignorables():
        for name in ("Ann" + ch, ch + "Ann", "An" + ch + "n", "A" + ch * 3 + "nn"):
            if ch in BLANKS and not name.startswith("Ann") and not name.endswith("Ann"):
                name = name.replace(ch, "")  # inside a name a Hangul filler is a space
            shown_as_ann.append(name_key(name) == "ann")
        assert not visible(ch), f"U+{ord(ch):04X}"
        with pytest.raises(BadRequest) as refused:  # nothing else to see: no name
            checked_name(ch * 3)
        assert refused.value.reason in ("name_invisible", "name_control"), f"U+{ord(ch):04X}"
    assert all(shown_as_ann) and len(shown_as_ann) == 4 * 4174


@pytest.mark.parametrize("blank", sorted(BLANKS))
def test_blanks_read_as_spaces(blank: str) -> None:
    assert name_key("Ann" + blank) == name_key(blank + "Ann") == "ann"
    assert name_key("Ann" + blank + "Lee") == name_key("Ann Lee") == "ann lee"
    assert name_key("An" + blank * 3 + "n") == "an n"
    with pytest.raises(BadRequest) as refused:
        checked_name(blank * 2)
    assert refused.value.reason == "name_invisible"
    assert checked_name("Ann" + blank + "Lee") == "Ann" + blank + "Lee"  # kept as typed


def test_tags_count_only_in_an_emoji_flag_sequence() -> None:
    assert name_key("Ann" + ENGLAND) != name_key("Ann" + SCOTLAND)
    assert name_key("Ann" + ENGLAND) != name_key("Ann")
    assert name_key("Ann" + ENGLAND).endswith(ENGLAND)
    assert name_key(ENGLAND[:-1]) == "\U0001f3f4"  # no cancel tag: no flag, the tags unseen
    assert name_key("Ann" + ENGLAND[1:]) == "ann"  # tags without the flag
    assert checked_name(ENGLAND) == ENGLAND  # a flag is a name
    family = "\U0001f468\u200d\U0001f469\u200d\U0001f467"
    assert name_key(family) == family  # joiners between emoji are kept
    assert name_key("\u0915\u094d\u200d\u0937") != name_key("\u0915\u094d\u0937")  # and in a word
    assert name_key("A\u200dnn") == name_key("A\u200cnn") == "ann"  # not between ASCII letters


@pytest.mark.parametrize("twin", ["Ann" + ch for ch in FOUND] + ["A\u200dnn", "Ann" + "\U000e0020"])
def test_a_second_ann_is_refused(client: TestClient, twin: str) -> None:
    ann, code = new_table(client, [ME, OPEN], name="Ann")
    before = client.get(f"/api/invites/{code}").json()
    r = client.post(f"/api/invites/{code}/join", json={"name": twin})
    assert r.status_code == 409, r.text
    assert r.json()["detail"]["reason"] == {"code": "name_taken", "params": {"name": "Ann"}}
    assert client.get(f"/api/invites/{code}").json() == before  # nothing changed


@pytest.mark.parametrize("blank", FOUND)
def test_a_name_of_blanks_is_not_seated(client: TestClient, blank: str) -> None:
    r = client.post("/api/games", json={"seats": [ME, OPEN], "name": blank * 3})
    assert r.status_code == 422 and r.json()["detail"]["reason"]["code"] == "name_invisible", \
        r.text
    ann, code = new_table(client, [ME, OPEN], name="Ann")
    r = client.post(f"/api/invites/{code}/join", json={"name": blank + " " + blank})
    assert r.status_code == 422 and r.json()["detail"]["reason"]["code"] == "name_invisible", \
        r.text
    bo = join(client, code, "Ann" + ENGLAND)  # a flag makes another name
    assert [s["name"] for s in bo.state["seats"]] == ["Ann", "Ann" + ENGLAND]
