"""Property tests (Hypothesis) of odd text in every text field of every route (issue 14 item 9):
lone surrogates, NUL and other controls, direction marks and overrides, formula starts, very long
strings, in bodies (every field, keys too), paths, queries and the Authorization header. For
every request: no 5xx; an answer that is valid UTF-8 (JSON on /api/); and a refused request
stores nothing (no table gains or loses a row, the game's and the sheet's ``seq`` stay)."""

from __future__ import annotations

import json
import shutil
import tempfile
import unicodedata
import warnings
from collections.abc import Iterator
from typing import Any
from urllib.parse import quote

import pytest
import sqlalchemy as sa
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from ginrummy.web.http.headers import MAX_HEADER_BYTES

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from fastapi.testclient import TestClient

from ginrummy.web import create_app
from ginrummy.web.http.ratelimit import RateLimits

ODD = ["\ud800", "\udfff", "\udbff", "\ude00", "\x00", "\u202e", "\u202d", "\u2066", "\u2069",
       "\u200e", "\u200f", "\u061c", "\r", "\n", "\t", "\x7f", "\x85", "\u2028", "\ufeff",
       "\uffff", "=", "+", "-", "@", "'", '"', "\\", "🂡", "ꦱ", "\U0010ffff"]

#: odd text: one of the characters above with ordinary text around it, short mixes of them and
#: any others, or very long strings
odd_text = st.one_of(
    st.builds(lambda a, c, b: a + c + b, st.sampled_from(["", "Ana", "x "]), st.sampled_from(ODD),
              st.sampled_from(["", "Budi", " y"])),
    st.text(st.one_of(st.sampled_from(ODD), st.characters()), max_size=12),
    st.builds(lambda c, n: c * n, st.sampled_from(ODD + ["x"]), st.integers(41, 20_000)),
)

pytestmark = pytest.mark.filterwarnings("ignore::hypothesis.errors.HypothesisWarning")

#: what no name may hold (written out here, apart from the code under test)
NOT_IN_NAMES = set("\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")


def bad_name(s: str) -> bool:
    return any(c in NOT_IN_NAMES or unicodedata.category(c) in ("Cc", "Cs", "Zl", "Zp")
               for c in s.strip()) or not s.strip() or len(s.strip()) > 40


SETTINGS = settings(max_examples=40, deadline=None, derandomize=True,
                    suppress_health_check=[HealthCheck.too_slow,
                                           HealthCheck.function_scoped_fixture])


def each(name: str, values: list[str], **fixed: Any) -> Any:
    """Hypothesis examples that always run: a lone surrogate, NUL and a direction override in
    each of ``values`` of the argument ``name`` (the random search comes on top)."""
    def apply(test: Any) -> Any:
        for v in values:
            for text in ("\ud800", "Ana\x00", "\u202eBudi"):
                test = example(**{name: v, "text": text}, **fixed)(test)
        return test
    return apply


class World:
    """One app on a temporary SQLite file, with a game and a sheet of its own."""

    def __init__(self) -> None:
        self.dir = tempfile.mkdtemp(prefix="ginrummy-oddtext-")
        self.url = f"sqlite:///{self.dir}/games.sqlite3"
        self.client = TestClient(create_app(self.url, rate_limits=RateLimits(None, None)),
                                 raise_server_exceptions=False)
        g = self.client.post("/api/games", json={"level": "easy"}).json()
        self.game, self.gh = g["game_id"], {"Authorization": f"Bearer {g['token']}"}
        s = self.client.post("/api/sheets", json={"players": ["Ana", "Budi"],
                                                  "scoring": "standard"}).json()
        self.sheet, self.sh = s["sheet_id"], {"Authorization": f"Bearer {s['token']}"}
        self.engine = sa.create_engine(self.url)

    def close(self) -> None:
        self.engine.dispose()
        self.client.app.state.store.close()  # type: ignore[attr-defined]
        self.client.close()
        shutil.rmtree(self.dir, ignore_errors=True)

    def snapshot(self) -> tuple[dict[str, int], int, int]:
        with self.engine.connect() as c:
            counts = {t: int(c.execute(sa.text(f"SELECT count(*) FROM {t}")).scalar_one())
                      for t in sa.inspect(c).get_table_names()}
            gseq = c.execute(sa.text("SELECT seq FROM games WHERE id = :i"),
                             {"i": self.game}).scalar_one()
            sseq = c.execute(sa.text("SELECT seq FROM sheets WHERE id = :i"),
                             {"i": self.sheet}).scalar_one()
        return counts, int(gseq), int(sseq)

    def send(self, method: str, url: str, body: Any = None,
             headers: dict[str, Any] | None = None) -> Any:
        """Send, check the answer, and that a refused request changed nothing."""
        before = self.snapshot()
        content = None if body is None else json.dumps(body).encode("ascii")
        h = {"Content-Type": "application/json"} if body is not None else {}
        r = self.client.request(method, url, content=content, headers={**h, **(headers or {})})
        assert r.status_code < 500, (method, url, body, r.status_code, r.text[:300])
        text = r.content.decode("utf-8")  # valid UTF-8 (no lone surrogate got through)
        if url.startswith("/api/") and not url.endswith(".csv"):
            json.loads(text)
        if r.status_code >= 400:
            assert self.snapshot() == before, (method, url, body, r.status_code)
        return r


@pytest.fixture(scope="module")
def world() -> Iterator[World]:
    w = World()
    yield w
    w.close()


def _path(s: str) -> str:
    """``s`` (its first 2,000 characters: an address has a length limit) percent-encoded."""
    return quote(s[:2000].encode("utf-8", "surrogatepass"), safe="")


GAME_FIELDS = ["level", "preset", "scoring", "rules_key", "rules_value", "extra"]


@SETTINGS
@given(field=st.sampled_from(GAME_FIELDS), text=odd_text)
@each("field", GAME_FIELDS)
def test_new_game(world: World, field: str, text: str) -> None:
    body: dict[str, Any] = {"level": "easy"}
    if field == "rules_key":
        body["rules"] = {text: 1}
    elif field == "rules_value":
        body["rules"] = {"target": text}
    elif field == "extra":
        body[text] = text
    else:
        body[field] = text
    r = world.send("POST", "/api/games", body)
    assert r.status_code in (201, 413, 422)


@SETTINGS
@given(text=odd_text, where=st.sampled_from(["action", "order"]))
@each("where", ["action", "order"])
def test_game_moves(world: World, text: str, where: str) -> None:
    seq = world.client.get(f"/api/games/{world.game}", headers=world.gh).json()["seq"]
    if where == "action":
        world.send("POST", f"/api/games/{world.game}/actions", {"action": text, "seq": seq},
                   world.gh)
    else:
        world.send("PUT", f"/api/games/{world.game}/order", {"cards": [text, "7H"]}, world.gh)


SHEET_FIELDS = ["player", "first_dealer", "scoring", "preset", "rules_key", "rules_value"]


@SETTINGS
@given(field=st.sampled_from(SHEET_FIELDS), text=odd_text)
@each("field", SHEET_FIELDS)
def test_new_sheet(world: World, field: str, text: str) -> None:
    body: dict[str, Any] = {"players": ["Ana", "Budi"]}
    if field == "player":
        body["players"] = [text, "Budi"]
    elif field == "rules_key":
        body["rules"] = {text: True}
    elif field == "rules_value":
        body["rules"] = {"target": text}
    else:
        body[field] = text
    r = world.send("POST", "/api/sheets", body)
    assert r.status_code in (201, 413, 422)
    if field in ("player", "first_dealer") and bad_name(text):
        assert r.status_code in (413, 422), (text, r.text[:200])


HAND_FIELDS = ["winner", "kind", "knocker", "result", "upcard", "deadwood", "defender",
               "knocker_cards", "melds", "note"]


@SETTINGS
@given(field=st.sampled_from(HAND_FIELDS), text=odd_text, tables=st.booleans())
@each("field", HAND_FIELDS, tables=False)
def test_sheet_hand(world: World, field: str, text: str, tables: bool) -> None:
    hand: dict[str, Any] = {"winner": "Ana", "points": 1} if field not in (
        "knocker", "result", "upcard", "deadwood", "defender", "knocker_cards", "melds") \
        else {"knocker": "Ana", "result": "knock", "knocker_deadwood": 2,
              "defender_deadwood": 9}
    hand[field] = [[text]] if field == "melds" else text
    body = {"hand": {"tables": [hand, {"dead": True}]} if tables else hand}
    r = world.send("POST", f"/api/sheets/{world.sheet}/hands", body, world.sh)
    if r.status_code == 200:  # e.g. a name among the players: taken back for the next example
        assert world.send("DELETE", f"/api/sheets/{world.sheet}/hands/last",
                          headers=world.sh).status_code == 200


@SETTINGS
@given(text=odd_text, route=st.sampled_from([
    "GET /api/games/{x}", "GET /api/games/{x}/hint", "GET /api/games/{x}/record",
    "GET /api/games/{x}/hands/1/replay", "POST /api/games/{x}/actions",
    "GET /api/sheets/{x}", "GET /api/sheets/{x}.csv", "DELETE /api/sheets/{x}/hands/last",
    "GET /locales/{x}.json", "GET /?lang={x}", "GET /keeper?lang={x}", "GET /replay?lang={x}",
    "GET /tutorial?lang={x}", "GET /api/games/G?since={x}", "GET /rules?lang={x}"]),
    own=st.booleans())
def test_paths_and_queries(world: World, text: str, route: str, own: bool) -> None:
    method, url = route.split(" ")
    url = url.replace("{x}", _path(text)).replace("/G?", f"/{world.game}?")
    body = {"action": "draw stock", "seq": 0} if method == "POST" else None
    world.send(method, url, body, (world.sh if "sheets" in url else world.gh) if own else None)


@SETTINGS
@given(text=odd_text, route=st.sampled_from(["GET /api/games/{g}", "GET /api/sheets/{s}",
                                              "DELETE /api/sheets/{s}/hands/last",
                                              "GET /api/stats"]))
def test_authorization_and_cookie_headers(world: World, text: str, route: str) -> None:
    method, url = route.split(" ")
    raw = text.encode("utf-8", "surrogatepass")[:4000]
    r = world.send(method, url.format(g=world.game, s=world.sheet),
                   headers={"Authorization": b"Bearer " + raw,
                            "Cookie": b"ginrummy_player=" + raw + b"; lang=" + raw})
    # the headers' size as the app sees them: the test client hands a header's bytes over as
    # Latin-1 text encoded again in UTF-8 (each byte over 127 becomes two)
    sent = sum(len(k) + len(v.decode("latin-1").encode("utf-8")) + 4
               for k, v in r.request.headers.raw)
    if sent > MAX_HEADER_BYTES:  # headers over the bound are refused before any work
        assert r.status_code == 431, sent
        return
    if r.status_code == 431:  # near the bound: the request line counts too
        assert sent > MAX_HEADER_BYTES - 200, sent
        return
    if route != "GET /api/stats":
        assert r.status_code == 404  # never the owner's
