"""The recorder of the web API (issue 19, "Clients see no change"): a corpus of requests and
their answers, recorded from the server for every form of the game (standard, Oklahoma,
Straight, Hollywood, three players, partnership; against the computer and at tables of people),
and replayed against the server of today by ``test_recordings.py``, which compares every answer
equal apart from added keys, ids, tokens and times.

Determinism. The server's chance comes from :mod:`secrets` (decks through
``secrets.SystemRandom``, salts, game secrets, first dealers, cuts, ids, tokens) and its times
from :func:`time.time`. While a recording is made or replayed, every ``ginrummy`` module's
``secrets`` and ``time`` are replaced (:func:`deterministic`) by stand-ins: each kind of draw
(``randbelow(n)``, ``token_hex(n)``, ``token_urlsafe(n)``, each ``SystemRandom()``) has its own
numbered sequence, so that a server that draws the same things in the same order of their kind
deals the same decks and makes the same computer moves (their seeds come from the game's secret);
and the clock stands still, moved on by :data:`TICK` seconds before each request and by the
corpus's own ``clock`` steps (a turn clock running out, a person going away).

Normalisation. Ids, tokens and invite codes are named in the corpus by placeholders
(``<game_id:1>``, ``<token:2>``, ``<code:1>``), bound in order of appearance in the answers; a
request names them by placeholder too. Times (keys :data:`TIME_KEYS`) are ``<time>``.

Record again (only when a change of the answers is intended, and said so in the commit)::

    PYTHONPATH=src python tests/web/recorder.py [scenario ...]
"""

from __future__ import annotations

import base64
import contextlib
import hashlib
import json
import random
import re
import secrets as real_secrets
import sys
import time as real_time
import warnings
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

with warnings.catch_warnings():  # starlette's note about httpx, at import
    warnings.simplefilter("ignore")
    from fastapi.testclient import TestClient

__all__ = ["RECORDINGS", "SCENARIOS", "Clock", "deterministic", "Session", "Replayer",
           "differences", "load", "record"]

RECORDINGS = Path(__file__).resolve().parent / "recordings"
#: the clock's start (seconds since the epoch) and its step before each request.
EPOCH = 1_800_000_000.0
TICK = 0.01
#: keys whose number is a time (normalised to ``<time>``).
TIME_KEYS = frozenset({"at", "turn_deadline", "finished_at", "created_at", "updated_at",
                       "connected_until"})
#: keys whose text is an id, a token or an invite code (``{"code", "url"}``), named by
#: placeholders.
ID_KEYS = ("game_id", "token", "code")
_PLACEHOLDER = re.compile(r"<(game_id|token|code|rejoin):\d+>")


# ------------------------------------------------------------------------------ determinism
class Clock:
    """A clock that stands still until moved."""

    def __init__(self, now: float = EPOCH) -> None:
        self.now = now

    def time(self) -> float:
        return self.now

    def advance(self, seconds: float) -> None:
        self.now = round(self.now + seconds, 6)


class _Time:
    """``time`` with :func:`time.time` read from a :class:`Clock`; the rest is the real one."""

    def __init__(self, clock: Clock) -> None:
        self._clock = clock

    def time(self) -> float:
        return self._clock.time()

    def __getattr__(self, name: str) -> Any:
        return getattr(real_time, name)


class _Secrets:
    """``secrets`` whose every draw comes from a numbered sequence of its kind."""

    def __init__(self) -> None:
        self._counts: dict[str, int] = {}

    def _next(self, kind: str) -> bytes:
        n = self._counts.get(kind, 0) + 1
        self._counts[kind] = n
        return hashlib.sha256(f"ginrummy-recorder:{kind}:{n}".encode()).digest()

    def _bytes(self, kind: str, nbytes: int) -> bytes:
        out = b""
        seed = self._next(kind)
        while len(out) < nbytes:
            out += hashlib.sha256(seed + len(out).to_bytes(4, "big")).digest()
        return out[:nbytes]

    def randbelow(self, n: int) -> int:
        return int.from_bytes(self._next(f"randbelow{n}"), "big") % n

    def token_bytes(self, nbytes: int | None = None) -> bytes:
        n = 32 if nbytes is None else nbytes
        return self._bytes(f"token_bytes{n}", n)

    def token_hex(self, nbytes: int | None = None) -> str:
        n = 32 if nbytes is None else nbytes
        return self._bytes(f"token_hex{n}", n).hex()

    def token_urlsafe(self, nbytes: int | None = None) -> str:
        n = 32 if nbytes is None else nbytes
        return base64.urlsafe_b64encode(self._bytes(f"token_urlsafe{n}", n)).rstrip(b"=").decode()

    def SystemRandom(self) -> random.Random:  # noqa: N802 (the name it stands in for)
        return random.Random(self._next("SystemRandom"))

    def __getattr__(self, name: str) -> Any:
        return getattr(real_secrets, name)


@contextlib.contextmanager
def deterministic(clock: Clock) -> Iterator[None]:
    """Every loaded ``ginrummy`` module's ``secrets`` and ``time`` replaced (see the module's
    docstring) until the end of the block."""
    fake_time, fake_secrets = _Time(clock), _Secrets()
    patched: list[tuple[Any, str, Any]] = []
    for name, mod in list(sys.modules.items()):
        if not (name == "ginrummy" or name.startswith("ginrummy.")) or mod is None:
            continue
        for attr, real, fake in (("time", real_time, fake_time),
                                 ("secrets", real_secrets, fake_secrets)):
            if getattr(mod, attr, None) is real:
                patched.append((mod, attr, real))
                setattr(mod, attr, fake)
    try:
        yield
    finally:
        for mod, attr, real in patched:
            setattr(mod, attr, real)


# ---------------------------------------------------------------------------- normalising
def _walk_ids(obj: Any, found: list[tuple[str, str]], parent: str | None = None) -> None:
    """``(key, text)`` of every id, token or invite code in ``obj``, in order. A seat's own
    link (``table.rejoin``, added after the corpus was recorded) is named apart (``rejoin``), so
    that it does not shift the numbering of the invite codes."""
    if isinstance(obj, dict):
        for k, v in obj.items():
            if k in ID_KEYS and isinstance(v, str) and not _PLACEHOLDER.fullmatch(v) \
                    and (k != "code" or "url" in obj):  # an invite's code, not a reason's
                found.append(("rejoin" if parent == "rejoin" else k, v))
            else:
                _walk_ids(v, found, k)
    elif isinstance(obj, list):
        for v in obj:
            _walk_ids(v, found)


class Names:
    """Placeholders of ids, tokens and invite codes, both ways."""

    def __init__(self) -> None:
        self.of: dict[str, str] = {}  # value -> placeholder
        self.value: dict[str, str] = {}  # placeholder -> value
        self._n: dict[str, int] = {}

    def bind(self, placeholder: str, value: str) -> None:
        self.of[value] = placeholder
        self.value[placeholder] = value

    def learn(self, answer: Any) -> None:
        found: list[tuple[str, str]] = []
        _walk_ids(answer, found)
        for key, v in found:
            if v not in self.of:
                n = self._n.get(key, 0) + 1
                self._n[key] = n
                self.bind(f"<{key}:{n}>", v)

    def hide(self, obj: Any, key: str | None = None) -> Any:
        """``obj`` with every known value replaced by its placeholder and times by ``<time>``."""
        if isinstance(obj, dict):
            return {k: self.hide(v, k) for k, v in obj.items()}
        if isinstance(obj, list):
            return [self.hide(v) for v in obj]
        if key in TIME_KEYS and isinstance(obj, int | float) and not isinstance(obj, bool):
            return "<time>"
        if isinstance(obj, str):
            for value, ph in self.of.items():
                if value in obj:
                    obj = obj.replace(value, ph)
        return obj

    def show(self, obj: Any) -> Any:
        """``obj`` with every placeholder replaced by its value."""
        if isinstance(obj, dict):
            return {k: self.show(v) for k, v in obj.items()}
        if isinstance(obj, list):
            return [self.show(v) for v in obj]
        if isinstance(obj, str):
            return _PLACEHOLDER.sub(lambda m: self.value[m.group(0)], obj)
        return obj

    def align(self, recorded: Any, actual: Any) -> None:
        """Bind the placeholders of a recorded answer to the values at the same places of the
        actual one (a new key of the actual answer never shifts them)."""
        if isinstance(recorded, dict) and isinstance(actual, dict):
            for k, v in recorded.items():
                if k in actual:
                    self.align(v, actual[k])
        elif isinstance(recorded, list) and isinstance(actual, list):
            for a, b in zip(recorded, actual, strict=False):
                self.align(a, b)
        elif isinstance(recorded, str) and isinstance(actual, str) \
                and _PLACEHOLDER.fullmatch(recorded) and recorded not in self.value:
            self.bind(recorded, actual)


def differences(expected: Any, actual: Any, where: str = "") -> list[str]:
    """Where ``actual`` differs from ``expected``, apart from keys ``actual`` adds."""
    if isinstance(expected, dict):
        if not isinstance(actual, dict):
            return [f"{where or '.'}: {type(actual).__name__} instead of an object"]
        out = []
        for k, v in expected.items():
            if k not in actual:
                out.append(f"{where}.{k}: missing")
            else:
                out.extend(differences(v, actual[k], f"{where}.{k}"))
        return out
    if isinstance(expected, list):
        if not isinstance(actual, list) or len(actual) != len(expected):
            return [f"{where or '.'}: {_short(actual)} instead of {_short(expected)}"]
        out = []
        for i, (a, b) in enumerate(zip(expected, actual, strict=True)):
            out.extend(differences(a, b, f"{where}[{i}]"))
        return out
    if expected != actual or isinstance(expected, bool) != isinstance(actual, bool):
        return [f"{where or '.'}: {_short(actual)} instead of {_short(expected)}"]
    return []


def _short(v: Any) -> str:
    text = json.dumps(v, separators=(",", ":"))
    return text if len(text) <= 160 else text[:157] + "..."


# ---------------------------------------------------------------------------- exchanges
def _answer(r: Any) -> Any:
    try:
        return r.json()
    except ValueError:
        return {"text": r.text}


class _Browsers:
    """The browsers of a corpus: one test client (its own cookies) each, on one app."""

    def __init__(self, app: Any) -> None:
        self.app = app
        self.clients: list[TestClient] = []

    def get(self, index: int) -> TestClient:
        while len(self.clients) <= index:
            self.clients.append(TestClient(self.app, raise_server_exceptions=False))
        return self.clients[index]

    def close(self) -> None:
        for c in self.clients:
            c.close()


def _send(client: TestClient, method: str, path: str, body: Any, token: str | None) -> Any:
    headers = {"Authorization": f"Bearer {token}"} if token else {}
    kwargs: dict[str, Any] = {"headers": headers}
    if body is not None:
        kwargs["json"] = body
    return client.request(method, path, **kwargs)


class Session:
    """Makes a recording: each request is sent and kept with its answer, both normalised."""

    def __init__(self, app: Any, clock: Clock) -> None:
        self.browsers = _Browsers(app)
        self.clock = clock
        self.names = Names()
        self.exchanges: list[dict[str, Any]] = []
        self.seats: list[tuple[str, str, int]] = []  # (game id, token, browser) seen

    def call(self, method: str, path: str, body: Any = None, token: str | None = None,
             browser: int = 0) -> tuple[int, Any]:
        self.clock.advance(TICK)
        r = _send(self.browsers.get(browser), method, path, body, token)
        answer = _answer(r)
        self.names.learn(answer)
        self._seen(answer, token, browser)
        ex: dict[str, Any] = {"b": browser, "m": method, "p": self.names.hide(path)}
        if token:
            ex["t"] = self.names.hide(token)
        if body is not None:
            ex["q"] = self.names.hide(body)
        ex["s"] = r.status_code
        ex["a"] = self.names.hide(answer)
        self.exchanges.append(ex)
        return r.status_code, answer

    def _seen(self, answer: Any, token: str | None, browser: int) -> None:
        if not isinstance(answer, dict) or "detail" in answer:  # an error
            return
        pairs = []
        if isinstance(answer.get("game_id"), str) and isinstance(answer.get("token"), str):
            pairs.append((answer["game_id"], answer["token"]))
        elif isinstance(answer.get("game_id"), str) and token and "state" in answer:
            pairs.append((answer["game_id"], token))  # a rematch: the same token
        for game_id, tok in pairs:
            if (game_id, tok, browser) not in self.seats:
                self.seats.append((game_id, tok, browser))

    def cold_reads(self) -> list[dict[str, Any]]:
        """Every seat's ``GET`` of its game, each by its own browser."""
        return [{"b": b, "m": "GET", "p": f"/api/games/{self.names.hide(g)}",
                 "t": self.names.hide(t)} for g, t, b in self.seats]

    def advance(self, seconds: float) -> None:
        """Move the clock on (kept in the corpus)."""
        self.clock.advance(seconds)
        self.exchanges.append({"clock": seconds})

    def close(self) -> None:
        self.browsers.close()


class Replayer:
    """Sends a recording's requests again and compares the answers."""

    def __init__(self, app: Any, clock: Clock, names: Names | None = None) -> None:
        self.browsers = _Browsers(app)
        self.clock = clock
        self.names = names or Names()

    def run(self, exchanges: list[dict[str, Any]]) -> list[str]:
        """The differences (``[]``: every answer as recorded), each naming its exchange."""
        out: list[str] = []
        for n, ex in enumerate(exchanges):
            if "clock" in ex:
                self.clock.advance(ex["clock"])
                continue
            self.clock.advance(TICK)
            token = self.names.show(ex["t"]) if "t" in ex else None
            r = _send(self.browsers.get(ex["b"]), ex["m"], self.names.show(ex["p"]),
                      self.names.show(ex.get("q")), token)
            answer = _answer(r)
            self.names.align(ex["a"], answer)
            self.names.learn(answer)
            what = f"#{n} {ex['m']} {ex['p']} {json.dumps(ex.get('q'))}"
            if r.status_code != ex["s"]:
                out.append(f"{what}: status {r.status_code} instead of {ex['s']}")
            out.extend(f"{what}: {d}" for d in differences(ex["a"], self.names.hide(answer)))
            if len(out) > 40:
                break
        return out

    def answers(self, requests: list[dict[str, Any]]) -> list[dict[str, Any]]:
        """``requests`` sent, each with its answer (``s``, ``a``), normalised."""
        out = []
        for ex in requests:
            self.clock.advance(TICK)
            token = self.names.show(ex["t"]) if "t" in ex else None
            r = _send(self.browsers.get(ex["b"]), ex["m"], self.names.show(ex["p"]), None,
                      token)
            out.append({**ex, "s": r.status_code, "a": self.names.hide(_answer(r))})
        return out

    def close(self) -> None:
        self.browsers.close()


# ----------------------------------------------------------------------------- stored rows
def stored_rows(url: str) -> dict[str, list[dict[str, Any]]]:
    """Every row of the database's tables (but the rate limits' and the schema's), as JSON
    values, each table's rows in a fixed order."""
    import sqlalchemy as sa

    engine = sa.create_engine(url)
    try:
        meta = sa.MetaData()
        meta.reflect(engine)
        out: dict[str, list[dict[str, Any]]] = {}
        with engine.connect() as conn:
            for name in sorted(meta.tables):
                if name in ("schema_info", "rate_hits"):
                    continue
                t = meta.tables[name]
                keys = [c for c in t.primary_key.columns] or list(t.columns)
                rows = conn.execute(sa.select(t).order_by(*keys)).mappings().all()
                out[name] = [dict(r) for r in rows]
        return out
    finally:
        engine.dispose()


def insert_rows(url: str, rows: dict[str, list[dict[str, Any]]]) -> None:
    """Put ``rows`` (:func:`stored_rows`) into the database of ``url`` (its schema made by
    the server of today)."""
    import sqlalchemy as sa

    new_app(url).state.store.close()  # the schema, as the server makes it
    engine = sa.create_engine(url)
    try:
        meta = sa.MetaData()
        meta.reflect(engine)
        order = [t.name for t in meta.sorted_tables]  # parents first (foreign keys)
        missing = set(rows) - set(order)
        assert not missing, f"no such tables now: {sorted(missing)}"
        with engine.begin() as conn:
            for name in order:
                for r in rows.get(name, ()):
                    conn.execute(sa.insert(meta.tables[name]).values(**r))
    finally:
        engine.dispose()


def _key(ex: dict[str, Any]) -> tuple[Any, Any]:
    return ex.get("b"), ex.get("t")


def pack(exchanges: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The corpus as stored: an answer that is an object is kept as its difference from the
    previous object answer to the same browser and token (``d``: the top-level keys changed or
    added, ``x``: those gone), which most of a state repeats (the rules, the score, the
    seats...)."""
    last: dict[tuple[Any, Any], dict[str, Any]] = {}
    out = []
    for ex in exchanges:
        a = ex.get("a")
        prev = last.get(_key(ex))
        if isinstance(a, dict):
            last[_key(ex)] = a
            if prev is not None:
                ex = {k: v for k, v in ex.items() if k != "a"}
                ex["d"] = {k: v for k, v in a.items() if k not in prev or prev[k] != v}
                gone = [k for k in prev if k not in a]
                if gone:
                    ex["x"] = gone
        out.append(ex)
    return out


def unpack(stored: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The corpus from what :func:`pack` stored."""
    last: dict[tuple[Any, Any], dict[str, Any]] = {}
    out = []
    for ex in stored:
        if "d" in ex:
            prev = last[_key(ex)]
            a = {k: v for k, v in prev.items() if k not in ex.get("x", ())}
            a.update(ex["d"])
            ex = {k: v for k, v in ex.items() if k not in ("d", "x")}
            ex["a"] = a
        if isinstance(ex.get("a"), dict):
            last[_key(ex)] = ex["a"]
        out.append(ex)
    return out


def load(name: str) -> dict[str, Any]:
    """A stored corpus: ``exchanges`` (requests and answers), ``cold`` (every seat's read of
    its game afterwards, by a server that had never seen it: rebuilt from the store),
    ``now`` (the clock before those reads), ``names`` (the placeholders' values when
    recorded) and ``rows`` (the database after it,
    as the server of the recording stored it)."""
    with open(RECORDINGS / f"{name}.json", encoding="utf-8") as f:
        data: dict[str, Any] = json.load(f)
    data["exchanges"] = unpack(data["exchanges"])
    return data


def dump(name: str, corpus: dict[str, Any]) -> Path:
    RECORDINGS.mkdir(exist_ok=True)
    path = RECORDINGS / f"{name}.json"

    def lines(items: list[Any]) -> str:
        return "[\n" + ",\n".join(json.dumps(e, separators=(",", ":"), ensure_ascii=False)
                                   for e in items) + "\n]"

    parts = [f'"exchanges":{lines(pack(corpus["exchanges"]))}',
             f'"cold":{lines(corpus["cold"])}',
             f'"now":{json.dumps(corpus["now"])}',
             f'"names":{json.dumps(corpus["names"], separators=(",", ":"))}',
             '"rows":{' + ",\n".join(f"{json.dumps(k)}:{lines(v)}"
                                     for k, v in corpus["rows"].items()) + "}"]
    path.write_text("{" + ",\n".join(parts) + "}\n", encoding="utf-8")
    assert load(name) == corpus
    return path


# ---------------------------------------------------------------------------- scenarios
def _choose(state: dict[str, Any], rng: random.Random) -> str:
    """A person's move: gin or knock when offered, else mostly the discard that keeps the
    best melds (web_helpers.choose)."""
    from web_helpers import choose

    return choose(state, rng)


MOVING = ("offer", "draw", "discard", "hand-over")


def _can_move(state: dict[str, Any]) -> bool:
    return state.get("phase") in MOVING and bool(state.get("legal"))


class _Game:
    """A person playing the computer, through a :class:`Session`."""

    def __init__(self, s: Session, body: dict[str, Any], browser: int = 0) -> None:
        self.s = s
        self.browser = browser
        status, made = s.call("POST", "/api/games", body, browser=browser)
        assert status == 201, made
        self.id, self.token, self.state = made["game_id"], made["token"], made["state"]

    def call(self, method: str, path: str, body: Any = None) -> tuple[int, Any]:
        return self.s.call(method, f"/api/games/{self.id}{path}", body, self.token,
                           self.browser)

    def act(self, action: str, seq: int | None = None) -> tuple[int, Any]:
        status, got = self.call("POST", "/actions", {"action": action,
                                                     "seq": self.state["seq"] if seq is None
                                                     else seq})
        if status == 200:
            self.state = got
        elif status == 409 and isinstance(got, dict) and "state" in got:
            self.state = got["state"]
        return status, got

    def play(self, rng: random.Random, until: Callable[[dict[str, Any]], bool],
             limit: int = 400) -> None:
        for _ in range(limit):
            if until(self.state) or self.state["phase"] == "game-over":
                return
            assert _can_move(self.state), self.state["phase"]
            status, got = self.act(_choose(self.state, rng))
            assert status == 200, got
        raise AssertionError("the game went on too long")


def _hand_over(state: dict[str, Any]) -> bool:
    return state["phase"] == "hand-over"


def _against_the_computer(body: dict[str, Any], seed: int, *, extras: bool) -> Callable[
        [Session], None]:
    """A person plays the computer to the game's end; with ``extras`` also the other requests
    (reload, since, hand order, hint, stale, duplicate, illegal and unreadable actions, the
    replay of a finished hand and of the one in play, the record, statistics, resigning)."""

    def run(s: Session) -> None:
        rng = random.Random(seed)
        s.call("GET", "/api/meta")
        g = _Game(s, body)
        g.call("GET", "")
        if extras:
            g.call("GET", "?since=0")
            hand = list(g.state["hand"])
            if hand:
                g.call("PUT", "/order", {"cards": hand[::-1]})
                g.call("PUT", "/order", {"cards": ["ZZ"]})
            g.call("GET", "")
            g.call("GET", "/hint")
            g.call("GET", "/hands/1/replay")
            g.call("GET", "/record")
            g.act("discard ZZ")
            g.act("knock")
            if _can_move(g.state):
                g.act(_choose(g.state, rng), seq=g.state["seq"] + 5)  # stale
        g.play(rng, _hand_over)
        if extras:
            g.call("GET", "/hint")
            g.call("GET", "/hands/1/replay")
            g.call("GET", "/hands/9/replay")
        g.play(rng, lambda st: False)
        if extras:
            seq = g.state["seq"]
            g.call("GET", f"?since={max(0, seq - 3)}")
            g.call("GET", "/record")
            g.call("GET", "/hands/2/replay")
            g.act("next hand")
            g.call("POST", "/resign")
            s.call("GET", "/api/stats")
            # a second game: a duplicate action, then resigned
            g2 = _Game(s, body)
            for _ in range(3):
                if not _can_move(g2.state) or g2.state["phase"] == "hand-over":
                    break
                seq = g2.state["seq"]
                move = _choose(g2.state, rng)
                g2.act(move)
                g2.act(move, seq=seq)  # the same action again: a duplicate
            g2.call("POST", "/resign")
            g2.call("POST", "/resign")
            g2.call("GET", "")
            g2.act("pass")
            g2.call("GET", "/hint")
            g2.call("GET", "/record")
            g2.call("POST", "/leave")
        s.call("GET", "/api/stats")

    return run


class _Seat:
    """One person at a table of people (its own browser)."""

    def __init__(self, s: Session, browser: int, made: dict[str, Any]) -> None:
        self.s = s
        self.browser = browser
        self.id, self.token, self.seat = made["game_id"], made["token"], made["seat"]
        self.state: dict[str, Any] = made["state"]

    def call(self, method: str, path: str, body: Any = None) -> tuple[int, Any]:
        status, got = self.s.call(method, f"/api/games/{self.id}{path}", body, self.token,
                                  self.browser)
        if status == 200 and isinstance(got, dict) and "seq" in got and "phase" in got:
            self.state = got
        return status, got

    def get(self) -> dict[str, Any]:
        status, got = self.call("GET", "")
        assert status == 200, got
        return got

    def act(self, action: str) -> tuple[int, Any]:
        status, got = self.call("POST", "/actions", {"action": action,
                                                     "seq": self.state["seq"]})
        if status == 409 and isinstance(got, dict) and "state" in got:
            self.state = got["state"]
        return status, got


def _open_table(s: Session, seats: list[dict[str, Any]], body: dict[str, Any],
                people: int) -> tuple[list[_Seat], str]:
    """A table created by Ann (browser 0, seat 0) and joined by ``people - 1`` others (each
    its own browser), before its start."""
    status, made = s.call("POST", "/api/games", {"seats": seats, "name": "Ann", **body})
    assert status == 201, made
    ann = _Seat(s, 0, made)
    code = made["invite"]["code"]
    s.call("GET", f"/api/invites/{code}", browser=1)
    out = [ann]
    for b, name in zip(range(1, people), ("Bo", "Cy", "Di"), strict=False):
        status, got = s.call("POST", f"/api/invites/{code}/join", {"name": name}, browser=b)
        assert status == 201, got
        out.append(_Seat(s, b, got))
    return out, code


def _movers(state: dict[str, Any], by_seat: dict[int, _Seat]) -> list[_Seat]:
    """The people to move by ``state`` (the latest answer): the mover of its deal, and a
    partnership's other table's."""
    if state["phase"] == "game-over":
        return []
    turns = [state.get("turn")]
    other = (state.get("table") or {}).get("other")
    if other and not other.get("over"):
        turns.append(other.get("turn"))
    return [by_seat[t] for t in turns if t in by_seat]


def _play_people(people: list[_Seat], rng: random.Random,
                 done: Callable[[list[_Seat]], bool], limit: int = 600) -> None:
    """Let the people move until ``done``: the next to move is read from the latest answer,
    reads its state and moves (one GET and one action a move); the latest mover posts the
    next hand."""
    by_seat = {p.seat: p for p in people}
    latest = max(people, key=lambda p: p.state["seq"])
    for _ in range(limit):
        if done(people):
            return
        st = latest.state
        hand_over = st["phase"] == "hand-over" and _can_move(st)
        movers = [latest] if hand_over else _movers(st, by_seat)
        if not movers:
            for p in people:
                p.get()
            if done(people):
                return
            movers = [p for p in people if _can_move(p.state)]
            assert movers, [p.state["phase"] for p in people]
        p = rng.choice(movers)
        if p is not latest or not _can_move(p.state):
            p.get()
        if not _can_move(p.state):  # another table's move was due first
            latest = p
            continue
        status, got = p.act(_choose(p.state, rng))
        assert status == 200, got
        latest = p
    raise AssertionError("the table did not finish")


def _hands_over(n: int) -> Callable[[list[_Seat]], bool]:
    """Done once ``n`` hands are over (or the game)."""
    def done(people: list[_Seat]) -> bool:
        return any(p.state["phase"] == "game-over" or (
            p.state["phase"] == "hand-over" and p.state["hand_number"] >= n
            and any(a["type"] == "next_hand" for a in p.state["legal"])) for p in people)
    return done


def _over(people: list[_Seat]) -> bool:
    return any(p.state["phase"] == "game-over" for p in people)


def _at_a_table(scoring: str, seats: list[dict[str, Any]], rules: dict[str, Any], seed: int,
                *, preset: str | None = None, hands: int | None = None,
                extras: bool = False) -> Callable[[Session], None]:
    """People (the ``person`` and ``open`` seats) play a table to its end (``hands``: until
    that many hands are over); with ``extras`` also: an action on an old state, a quick
    message, the turn clock running out, an away seat handed to a computer and taken back, the
    record, a finished hand's replay, a hint, the rematch."""
    n_people = sum(1 for x in seats if x["kind"] in ("person", "open"))

    def run(s: Session) -> None:
        rng = random.Random(seed)
        body: dict[str, Any] = {"scoring": scoring, "level": "easy", "rules": rules}
        if preset:
            body["preset"] = preset
        if extras:
            body["turn_clock"] = 30
        people, code = _open_table(s, seats, body, n_people)
        ann = people[0]
        status, got = ann.call("POST", "/start")
        assert status == 200, got
        for p in people:
            p.get()
        if extras:
            ann.call("POST", "/messages", {"message": "good_luck"})
            people[1].get()
            s.call("GET", f"/api/invites/{code}", browser=n_people)
            # the turn clock runs out: a computer plays the late person's turn
            s.advance(31)
            for p in people:
                p.get()
            # a person without a live connection for 20 s is away: the creator hands the
            # seat to a computer, the person takes it back
            s.advance(25)
            ann.get()
            ann.call("PUT", "/seats/1", {"kind": "computer"})
            people[1].call("PUT", "/seats/1", {"kind": "person"})
            for p in people:
                p.get()
            mover = next((p for p in people if _can_move(p.state)), None)
            if mover is not None:  # an action on an old state: 409 with the state
                move = _choose(mover.state, rng)
                mover.call("POST", "/actions", {"action": move,
                                                "seq": mover.state["seq"] - 1})
        _play_people(people, rng, _hands_over(1))
        for p in people:
            p.get()
        if extras:
            ann.call("GET", "/record")
            ann.call("GET", "/hands/1/replay")
            people[1].call("GET", "/hint")
            ann.call("POST", "/rematch")  # not over yet: refused
        _play_people(people, rng, _over if hands is None else _hands_over(hands))
        for p in people:
            p.get()
        ann.call("GET", "/record")
        if extras and _over(people):
            status, got = ann.call("POST", "/rematch")
            people[1].get()
            if status == 201:
                s.call("GET", f"/api/games/{got['game_id']}", None, people[1].token, 1)
        for b in range(n_people):
            s.call("GET", "/api/stats", browser=b)

    return run


def _leaving(s: Session) -> None:
    """A partnership of four people: one leaves after the start (a computer plays the seat),
    one sets a seat before it; the table plays on to its end."""
    rng = random.Random(41)
    seats = [{"kind": "person"}, {"kind": "open"}, {"kind": "computer", "level": "easy"},
             {"kind": "open"}]
    body = {"scoring": "partnership", "level": "easy", "preset": "partnership",
            "rules": {"target": 20}}
    people, code = _open_table(s, seats, body, 3)
    ann = people[0]
    ann.call("PUT", "/seats/2", {"kind": "open"})
    ann.call("POST", "/start")  # refused: a seat is open
    status, got = s.call("POST", f"/api/invites/{code}/join", {"name": "Di", "seat": 2},
                         browser=3)
    assert status == 201, got
    people.append(_Seat(s, 3, got))
    people[1].call("POST", "/leave")
    people[1].call("POST", "/leave")  # its token no longer works
    status, got = s.call("POST", f"/api/invites/{code}/join", {"name": "Bo"}, browser=1)
    assert status == 201, got
    people[1] = _Seat(s, 1, got)
    status, got = ann.call("POST", "/start")
    assert status == 200, got
    for p in people:
        p.get()
    _play_people(people, rng, _hands_over(1))
    people[2].call("POST", "/leave")
    gone = people.pop(2)
    ann.call("POST", "/messages", {"message": "wait"})
    _play_people(people, rng, _hands_over(3))
    for p in people:
        p.get()
    gone.call("GET", "")
    ann.call("GET", "/record")
    for b in range(4):
        s.call("GET", "/api/stats", browser=b)


PERSON = {"kind": "person"}
OPEN = {"kind": "open"}
EASY = {"kind": "computer", "level": "easy"}
MEDIUM = {"kind": "computer", "level": "medium"}

#: every corpus: its name and the requests that make it.
SCENARIOS: dict[str, Callable[[Session], None]] = {
    "computer-standard": _against_the_computer(
        {"level": "easy", "preset": "standard", "rules": {"target": 40}}, 1, extras=True),
    "computer-oklahoma": _against_the_computer(
        {"level": "medium", "preset": "oklahoma", "rules": {"target": 40}}, 2, extras=False),
    "computer-straight": _against_the_computer(
        {"level": "easy", "preset": "straight", "rules": {"target": 30}}, 3, extras=False),
    "computer-hollywood": _against_the_computer(
        {"level": "easy", "scoring": "hollywood", "preset": "pagat", "rules": {"target": 25}},
        4, extras=True),
    "computer-three": _against_the_computer(
        {"level": "easy", "scoring": "three_player", "rules": {"target": 30}}, 5, extras=True),
    "computer-partnership": _against_the_computer(
        {"level": "easy", "scoring": "partnership", "preset": "partnership",
         "rules": {"target": 40}}, 6, extras=True),
    "people-standard": _at_a_table("standard", [PERSON, OPEN], {"target": 30}, 11,
                                   extras=True),
    "people-oklahoma": _at_a_table("standard", [PERSON, OPEN], {"target": 25}, 12,
                                   preset="oklahoma"),
    "people-straight": _at_a_table("standard", [PERSON, OPEN], {"target": 25}, 13,
                                   preset="straight", hands=1),
    "people-hollywood": _at_a_table("hollywood", [PERSON, OPEN], {"target": 20}, 14,
                                    hands=2),
    "people-three-two": _at_a_table("three_player", [PERSON, OPEN, EASY], {"target": 15}, 15,
                                    extras=True),
    "people-three-three": _at_a_table("three_player", [PERSON, OPEN, OPEN], {"target": 25},
                                      16),
    "people-partnership-two": _at_a_table("partnership", [PERSON, OPEN, MEDIUM, EASY],
                                          {}, 27, preset="partnership", hands=2),
    "people-partnership-four": _at_a_table("partnership", [PERSON, OPEN, OPEN, OPEN],
                                           {"target": 30}, 18, preset="partnership",
                                           hands=1, extras=True),
    "people-partnership-leaving": _leaving,
}


def new_app(url: str) -> Any:
    from ginrummy.web import create_app
    from ginrummy.web.http.ratelimit import RateLimits

    return create_app(url, rate_limits=RateLimits(creates=None, requests=None))


def record(name: str, url: str) -> dict[str, Any]:
    """Record scenario ``name`` on a new server on database ``url`` (empty): the corpus of
    :func:`load`."""
    import ginrummy.web  # noqa: F401  (every module loaded before the stand-ins go in)

    clock = Clock()
    with deterministic(clock):
        app = new_app(url)
        s = Session(app, clock)
        try:
            SCENARIOS[name](s)
        finally:
            s.close()
            app.state.store.close()
        now = clock.now
        app = new_app(url)  # a server that never saw the games: rebuilt from the store
        r = Replayer(app, clock, s.names)
        try:
            cold = r.answers(s.cold_reads())
        finally:
            r.close()
            app.state.store.close()
    return {"exchanges": s.exchanges, "cold": cold, "now": now, "names": dict(s.names.value),
            "rows": stored_rows(url)}


def replay(name: str, url: str) -> list[str]:
    """Replay recording ``name`` on a new server on database ``url`` (empty), then read every
    seat's game again on another server (rebuilt from the store): the differences."""
    import ginrummy.web  # noqa: F401

    corpus = load(name)
    clock = Clock()
    with deterministic(clock):
        app = new_app(url)
        r = Replayer(app, clock)
        try:
            diffs = r.run(corpus["exchanges"])
        finally:
            r.close()
            app.state.store.close()
        if diffs:
            return diffs
        app = new_app(url)
        cold = Replayer(app, clock, r.names)
        try:
            return [f"(rebuilt from the store) {d}" for d in cold.run(corpus["cold"])]
        finally:
            cold.close()
            app.state.store.close()


#: the columns each schema version added (ginrummy.store.db.SCHEMA_VERSION's notes): a game
#: stored under an earlier version has them empty.
ADDED_IN = {2: {"games": ("turns",)},
            4: {"games": ("winner_seats",), "deals": ("players", "winner_seat", "knocker_seat"),
                "seats": ("player_id",)},
            5: {"deals": ("turn_at",)}}


def as_of(rows: dict[str, list[dict[str, Any]]], version: int
          ) -> dict[str, list[dict[str, Any]]]:
    """``rows`` as a server of schema ``version`` stored them: the columns added later empty
    (version 1: no table of people, no partnership order of turns)."""
    out = {name: [dict(r) for r in rs] for name, rs in rows.items()}
    for v, added in ADDED_IN.items():
        if version < v:
            for name, columns in added.items():
                for r in out.get(name, ()):
                    for c in columns:
                        r[c] = None
    return out


def replay_stored(name: str, url: str, version: int | None = None) -> list[str]:
    """The games as the recording's server stored them (``version``: as a server of that
    schema version stored them), put into the database of ``url`` (empty), the database then
    migrated by today's server from that version (by default the recording's server's, which
    every game row holds in ``games.version``), and read by every seat from today's server:
    the differences from what the recording's server answered."""
    import sqlalchemy as sa

    import ginrummy.web  # noqa: F401
    from ginrummy.store import SCHEMA_VERSION

    corpus = load(name)
    insert_rows(url, corpus["rows"] if version is None else as_of(corpus["rows"], version))
    if version is None:  # the schema of the recording's server (each game row names it)
        version = max(int(g["version"]) for g in corpus["rows"]["games"])
    if version < SCHEMA_VERSION:  # its rows are of that layout: migrated as they would be
        engine = sa.create_engine(url)
        with engine.begin() as conn:
            conn.execute(sa.text("UPDATE schema_info SET value = :v WHERE name = 'version'"),
                         {"v": version})
        engine.dispose()
    names = Names()
    for ph, value in corpus["names"].items():
        names.bind(ph, value)
    clock = Clock(corpus["now"])  # the cold reads at the times they were made
    with deterministic(clock):
        app = new_app(url)
        r = Replayer(app, clock, names)
        try:
            return r.run(corpus["cold"])
        finally:
            r.close()
            app.state.store.close()


def main(argv: list[str]) -> int:
    import tempfile

    sys.path.insert(0, str(Path(__file__).resolve().parent))  # web_helpers
    names = argv or list(SCENARIOS)
    for name in names:
        with tempfile.TemporaryDirectory() as d:
            t0 = real_time.perf_counter()
            corpus = record(name, f"sqlite:///{d}/games.sqlite3")
            path = dump(name, corpus)
            took = real_time.perf_counter() - t0
        with tempfile.TemporaryDirectory() as d:
            diffs = replay(name, f"sqlite:///{d}/games.sqlite3")
        with tempfile.TemporaryDirectory() as d:
            diffs += replay_stored(name, f"sqlite:///{d}/games.sqlite3")
        print(f"{name}: {len(corpus['exchanges'])} exchanges, {len(corpus['cold'])} seats, "
              f"{path.stat().st_size // 1024} KB, {took:.1f} s; replayed: "
              f"{'same' if not diffs else diffs[:3]}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
