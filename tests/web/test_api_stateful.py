"""A Hypothesis state machine drives the JSON API with random legal and illegal requests.

Up to three games are played at once through the real app (TestClient, SQLite file). The rules
mix legal moves with everything a client may get wrong: a stale or future ``seq``, a card not
held, unknown card codes, unreadable action texts, another game's or a made-up token, an
oversized body, JSON of the wrong shape or types, a bad hand order, an action after the game is
over. A rejected request must answer 4xx with a clear ``detail`` and change nothing: the game's
state (``GET``) and its fairness record are byte-identical before and after. Invariants checked
after every step: ``seq`` never goes back, the person holds 10 cards (11 while discarding), and
the cards seat 0 can see are a partition (hand, discard pile, the computer's known cards, the
counts of the hidden ones adding up to 52).
"""

from __future__ import annotations

import json
import random
import secrets
import string
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.stateful import (
    RuleBasedStateMachine,
    initialize,
    invariant,
    precondition,
    rule,
    run_state_machine_as_test,
)
from web_helpers import choose

from ginrummy import fairness
from ginrummy.actions import Action
from ginrummy.bots import DEFAULT_LEVEL, LEVELS
from ginrummy.cards import card_text
from ginrummy.errors import GinRummyError
from ginrummy.web.api import sheets as keeper_api
from ginrummy.web.http import app as web_app
from ginrummy.web.http import tokens
from ginrummy.web.tables import service as web_service

ALL_CARDS = [card_text(c) for c in range(52)]
BAD_CODES = ["ZZ", "1H", "11S", "0C", "XX", "7", "HH", "7Q", "AH7", "", "🂡", "7 H", "TT"]
LEVEL_CHOICES = [lv for lv in ("easy", DEFAULT_LEVEL) if lv in LEVELS] or LEVELS[:1]
PRESETS = ["standard", "oklahoma", "straight", "pagat"]


def _norm(text: str) -> str:
    return " ".join(text.strip().lower().split())


class Game:
    """What the client knows of one game."""

    def __init__(self, game_id: str, token: str, state: dict[str, Any]) -> None:
        self.id = game_id
        self.token = token
        self.state = state
        self.max_seq = state["seq"]
        self.last: tuple[str, int] | None = None  # the last accepted (action, seq)

    @property
    def headers(self) -> dict[str, str]:
        return {"Authorization": f"Bearer {self.token}"}


class _SeededSecrets:
    """Stands in for the ``secrets`` module inside the server during one run of the machine, so
    that deals, dealers and the computer's seeds repeat when Hypothesis replays a run (the
    preconditions depend on the phase a game is in; OS randomness made them flaky). Game ids
    and tokens (``token_urlsafe``) stay truly random: they must not repeat across runs."""

    def __init__(self, seed: int) -> None:
        self._r = random.Random(seed)

    def SystemRandom(self) -> random.Random:  # noqa: N802 - the name of the module function
        return self._r

    def token_hex(self, n: int = 32) -> str:
        return self._r.randbytes(n).hex()

    def randbelow(self, n: int) -> int:
        return self._r.randrange(n)

    def __getattr__(self, name: str) -> Any:
        return getattr(secrets, name)


_SECRET_USERS = (fairness, web_service, tokens, web_app, keeper_api)


class ApiMachine(RuleBasedStateMachine):
    client: TestClient  # set by the test

    def __init__(self) -> None:
        super().__init__()
        self.games: list[Game] = []
        self.rng = random.Random(0)
        self.rejected = 0
        self.accepted = 0
        seeded = _SeededSecrets(0)
        for module in _SECRET_USERS:
            module.secrets = seeded  # type: ignore[attr-defined]

    def teardown(self) -> None:
        for module in _SECRET_USERS:
            module.secrets = secrets  # type: ignore[attr-defined]

    # ----------------------------------------------------------------------------- helpers
    def _snapshot(self, g: Game) -> tuple[bytes, bytes]:
        r = self.client.get(f"/api/games/{g.id}", headers=g.headers)
        assert r.status_code == 200, r.text
        rec = self.client.get(f"/api/games/{g.id}/record", headers=g.headers)
        assert rec.status_code == 200, rec.text
        return r.content, rec.content

    def _rejected(self, g: Game, send: Callable[[], Any], statuses: tuple[int, ...],
                  codes: tuple[str, ...] | None = None) -> Any:
        """Send a request that must be refused; the game must not change."""
        before = self._snapshot(g)
        r = send()
        assert r.status_code in statuses, (r.status_code, r.text)
        body = r.json()
        detail = body["detail"]
        if isinstance(detail, dict):
            assert detail["code"] and detail["message"], body
            if codes is not None:
                assert detail["code"] in codes, body
        else:  # FastAPI's validation detail: a list of {loc, msg, type}
            assert isinstance(detail, list) and detail and all(d.get("msg") for d in detail), body
        after = self._snapshot(g)
        assert after[0] == before[0], "a rejected request changed the game's state"
        assert after[1] == before[1], "a rejected request changed the game's record"
        if r.status_code == 409:  # a stale answer carries the current state
            assert body["state"]["seq"] == g.state["seq"]
        self.rejected += 1
        return r

    def _post(self, g: Game, body: Any, headers: dict[str, str] | None = None) -> Any:
        h = headers if headers is not None else g.headers
        if isinstance(body, bytes):
            return self.client.post(f"/api/games/{g.id}/actions", content=body,
                                    headers={**h, "Content-Type": "application/json"})
        return self.client.post(f"/api/games/{g.id}/actions", json=body, headers=h)

    def _accept(self, g: Game, action: str, r: Any) -> None:
        assert r.status_code == 200, (action, r.text)
        s = r.json()
        assert "duplicate" not in s
        assert s["seq"] > g.state["seq"]
        # the answer's events are those after the seq the action was posted with
        assert all(e["seq"] > g.state["seq"] for e in s["events"])
        assert [e["seq"] for e in s["events"]] == list(range(g.state["seq"] + 1, s["seq"] + 1))
        g.last = (_norm(action), g.state["seq"])
        g.state = s
        self.accepted += 1

    def _playing(self) -> list[Game]:
        return [g for g in self.games if g.state["phase"] != "game-over"]

    # ------------------------------------------------------------------------------- rules
    @initialize(level=st.sampled_from(LEVEL_CHOICES), preset=st.sampled_from(PRESETS))
    def first_game(self, level: str, preset: str) -> None:
        self.create_game(level, preset)

    @precondition(lambda self: len(self.games) < 3)
    @rule(level=st.sampled_from(LEVEL_CHOICES), preset=st.sampled_from(PRESETS))
    def create_game(self, level: str, preset: str) -> None:
        r = self.client.post("/api/games", json={"level": level, "preset": preset,
                                                 "rules": {"target": 25}})
        assert r.status_code == 201, r.text
        d = r.json()
        assert d["state"]["game_id"] == d["game_id"]
        assert len(d["token"]) >= 40 and d["token"] not in {g.token for g in self.games}
        self.games.append(Game(d["game_id"], d["token"], d["state"]))

    @precondition(lambda self: bool(self._playing()))
    @rule(data=st.data(), finish=st.booleans(), moves=st.integers(1, 8))
    def legal_actions(self, data: st.DataObject, finish: bool, moves: int) -> None:
        g = data.draw(st.sampled_from(self._playing()))
        self.rng.seed(data.draw(st.integers(0, 2**32 - 1)))
        shout = data.draw(st.booleans())
        for _ in range(moves):
            if g.state["phase"] == "game-over":
                break
            action = choose(g.state, self.rng, finish=finish)
            if shout:  # any case and spacing is read the same
                action = "  " + action.upper().replace(" ", "   ") + " "
            self._accept(g, action, self._post(g, {"action": action, "seq": g.state["seq"]}))

    @precondition(lambda self: bool(self._playing()))
    @rule(data=st.data())
    def play_out_the_hand(self, data: st.DataObject) -> None:
        """Sensible moves until the hand is over (then "next hand" is the legal move)."""
        g = data.draw(st.sampled_from(self._playing()))
        self.rng.seed(data.draw(st.integers(0, 2**32 - 1)))
        for _ in range(80):
            if g.state["phase"] in ("hand-over", "game-over"):
                break
            action = choose(g.state, self.rng)
            self._accept(g, action, self._post(g, {"action": action, "seq": g.state["seq"]}))
        assert g.state["phase"] in ("hand-over", "game-over")

    @precondition(lambda self: any(g.last for g in self.games))
    @rule(data=st.data())
    def repeat_last_action(self, data: st.DataObject) -> None:
        """A double click: answers the current state, marked duplicate, applies nothing."""
        g = data.draw(st.sampled_from([g for g in self.games if g.last]))
        assert g.last is not None
        action, seq = g.last
        if seq == g.state["seq"]:
            return
        before = self._snapshot(g)
        r = self._post(g, {"action": action, "seq": seq})
        assert r.status_code == 200, r.text
        s = r.json()
        assert s.get("duplicate") is True and s["seq"] == g.state["seq"]
        assert self._snapshot(g) == before

    @rule(data=st.data(), delta=st.integers(-5, 5).filter(lambda d: d != 0))
    def stale_seq(self, data: st.DataObject, delta: int) -> None:
        g = data.draw(st.sampled_from(self.games))
        seq = max(0, g.state["seq"] + delta)
        legal = g.state["legal"]
        action = legal[0]["action"] if legal else "pass"
        if g.last is not None and g.last == (_norm(action), seq):
            return  # that would be a duplicate, which is fine
        if seq == g.state["seq"]:
            seq += 1
        self._rejected(g, lambda: self._post(g, {"action": action, "seq": seq}), (409,),
                       ("stale",))

    @rule(data=st.data())
    def card_not_allowed(self, data: st.DataObject) -> None:
        """discard / knock / gin of a card not held (or held but taken from the pile)."""
        g = data.draw(st.sampled_from(self.games))
        held = set(g.state["hand"])
        legal_texts = {_norm(a["action"]) for a in g.state["legal"]}
        verb = data.draw(st.sampled_from(["discard", "knock", "gin"]))
        card = data.draw(st.sampled_from(ALL_CARDS))
        text = f"{verb} {card}"
        if _norm(text) in legal_texts or (card in held and verb != "discard"):
            return  # a knock/gin of a held card may be legal with another spread
        self._rejected(g, lambda: self._post(g, {"action": text, "seq": g.state["seq"]}),
                       (422,), ("illegal",))

    @rule(data=st.data(), verb=st.sampled_from(["discard", "knock", "gin"]),
          code=st.sampled_from(BAD_CODES))
    def unknown_card_code(self, data: st.DataObject, verb: str, code: str) -> None:
        g = data.draw(st.sampled_from(self.games))
        text = f"{verb} {code}"
        self._rejected(g, lambda: self._post(g, {"action": text, "seq": g.state["seq"]}),
                       (422,), ("invalid",))

    @rule(data=st.data(), text=st.text(min_size=1, max_size=60))
    def random_text(self, data: st.DataObject, text: str) -> None:
        g = data.draw(st.sampled_from(self.games))
        norm = _norm(text)
        try:
            Action.parse(text)
            readable = True
        except (GinRummyError, ValueError):
            readable = False
        if norm in {_norm(a["action"]) for a in g.state["legal"]} or norm in (
                "next hand", "next_hand") or not norm:
            return
        if readable and norm.startswith("knock"):
            return  # might be a legal knock with another spread
        self._rejected(g, lambda: self._post(g, {"action": text, "seq": g.state["seq"]}),
                       (422,), ("illegal",) if readable else ("invalid",))

    @rule(data=st.data(), spread=st.lists(st.sampled_from(ALL_CARDS), min_size=1, max_size=4))
    def knock_with_a_bad_spread(self, data: st.DataObject, spread: list[str]) -> None:
        g = data.draw(st.sampled_from(self.games))
        card = g.state["hand"][0]
        text = f"knock {card}: {''.join(spread)} ZZ"
        self._rejected(g, lambda: self._post(g, {"action": text, "seq": g.state["seq"]}),
                       (422,), ("invalid", "illegal"))

    @rule(data=st.data(), which=st.sampled_from(["other", "random", "none", "basic", "empty",
                                                 "prefix", "long"]))
    def wrong_token(self, data: st.DataObject, which: str) -> None:
        g = data.draw(st.sampled_from(self.games))
        others = [o for o in self.games if o is not g]
        if which == "other" and not others:
            which = "random"
        hdr: dict[str, str] = {
            "other": {"Authorization": f"Bearer {others[0].token}"} if others else {},
            "random": {"Authorization": "Bearer " + "".join(
                data.draw(st.lists(st.sampled_from(string.ascii_letters + string.digits + "-_"),
                                   min_size=43, max_size=43)))},
            "none": {},
            "basic": {"Authorization": f"Basic {g.token}"},
            "empty": {"Authorization": "Bearer "},
            "prefix": {"Authorization": f"Bearer {g.token[:-1]}"},
            "long": {"Authorization": f"Bearer {g.token * 10}"},
        }[which]
        legal = g.state["legal"]
        body = {"action": legal[0]["action"] if legal else "pass", "seq": g.state["seq"]}
        method = data.draw(st.sampled_from(["get", "post", "order", "record"]))
        url = f"/api/games/{g.id}"

        def send() -> Any:
            if method == "get":
                return self.client.get(url, headers=hdr)
            if method == "record":
                return self.client.get(url + "/record", headers=hdr)
            if method == "order":
                return self.client.put(url + "/order", json={"cards": g.state["hand"][::-1]},
                                       headers=hdr)
            return self._post(g, body, headers=hdr)

        r = self._rejected(g, send, (404,), ("not_found",))
        assert g.id not in r.text and (not others or others[0].id not in r.text)

    @rule(data=st.data(), size=st.integers(16 * 1024 + 1, 64 * 1024),
          declared=st.booleans())
    def oversized_body(self, data: st.DataObject, size: int, declared: bool) -> None:
        g = data.draw(st.sampled_from(self.games))
        legal = g.state["legal"]
        action = legal[0]["action"] if legal else "pass"
        body = json.dumps({"action": action, "seq": g.state["seq"], "pad": "x" * size}).encode()

        def send() -> Any:
            if declared:
                return self._post(g, body)

            def chunks() -> Any:  # no content-length: chunked, counted as it comes
                for i in range(0, len(body), 4096):
                    yield body[i:i + 4096]

            return self.client.post(f"/api/games/{g.id}/actions", content=chunks(),
                                    headers={**g.headers, "Content-Type": "application/json"})

        self._rejected(g, send, (413,), ("too_large",))

    @rule(data=st.data(), body=st.one_of(
        st.sampled_from([b"", b"{", b"null", b"[]", b"\"discard 7H\"", b"{\"action\": }",
                         b"\xff\xfe{}", b"{\"action\": \"pass\", \"seq\": 1e400}"]),
        st.fixed_dictionaries({"action": st.one_of(st.integers(), st.none(), st.booleans(),
                                                   st.lists(st.text(max_size=3), max_size=2),
                                                   st.just(""), st.text(min_size=201,
                                                                        max_size=300)),
                               "seq": st.integers(0, 10)}),
        st.fixed_dictionaries({"action": st.just("pass"),
                               "seq": st.one_of(st.text(max_size=5), st.floats(0.1, 5.5),
                                                st.booleans(), st.none(),
                                                st.integers(max_value=-1),
                                                st.integers(min_value=10**9 + 1),
                                                st.lists(st.integers(), max_size=2))}),
        st.dictionaries(st.sampled_from(["act", "Action", "seq", "SEQ", "x"]),
                        st.integers(0, 5), max_size=3)))
    def wrong_json(self, data: st.DataObject, body: Any) -> None:
        g = data.draw(st.sampled_from(self.games))
        self._rejected(g, lambda: self._post(g, body), (422,))

    @rule(data=st.data(), cards=st.one_of(
        st.lists(st.sampled_from(BAD_CODES[:8]), min_size=1, max_size=3),
        st.lists(st.sampled_from(ALL_CARDS), min_size=2, max_size=5).map(lambda xs: xs + xs[:1]),
        st.lists(st.sampled_from(ALL_CARDS), min_size=53, max_size=60),
        st.just("7H"), st.just(None), st.just([7, 8])))
    def bad_hand_order(self, data: st.DataObject, cards: Any) -> None:
        g = data.draw(st.sampled_from(self.games))
        self._rejected(g, lambda: self.client.put(f"/api/games/{g.id}/order",
                                                  json={"cards": cards}, headers=g.headers),
                       (422,))

    @precondition(lambda self: bool(self._playing()))
    @rule(data=st.data())
    def hand_order(self, data: st.DataObject) -> None:
        """A legal reorder changes only the order of the person's cards."""
        g = data.draw(st.sampled_from(self._playing()))
        hand = list(g.state["hand"])
        order = data.draw(st.permutations(hand))
        r = self.client.put(f"/api/games/{g.id}/order", json={"cards": order}, headers=g.headers)
        assert r.status_code == 200 and r.json() == {"ok": True}, r.text
        s = self.client.get(f"/api/games/{g.id}?since={g.state['seq']}", headers=g.headers).json()
        assert s["seq"] == g.state["seq"] and sorted(s["hand"]) == sorted(hand)
        assert s["hand"] == order  # every held card named: exactly the saved order
        g.state = s

    @precondition(lambda self: any(g.state["phase"] == "game-over" for g in self.games))
    @rule(data=st.data())
    def act_after_game_over(self, data: st.DataObject) -> None:
        g = data.draw(st.sampled_from([g for g in self.games
                                       if g.state["phase"] == "game-over"]))
        text = data.draw(st.sampled_from(["next hand", "draw stock", "pass", "discard 7H"]))
        self._rejected(g, lambda: self._post(g, {"action": text, "seq": g.state["seq"]}),
                       (422,), ("illegal", "invalid"))

    @precondition(lambda self: any(g.state["phase"] not in ("hand-over", "game-over")
                                   for g in self.games))
    @rule(data=st.data())
    def next_hand_too_early(self, data: st.DataObject) -> None:
        g = data.draw(st.sampled_from([g for g in self.games
                                       if g.state["phase"] not in ("hand-over", "game-over")]))
        self._rejected(g, lambda: self._post(g, {"action": "next hand",
                                                 "seq": g.state["seq"]}), (422,), ("illegal",))

    # -------------------------------------------------------------------------- invariants
    @invariant()
    def seen_from_seat_0(self) -> None:
        for g in self.games:
            s = g.state
            assert s["seq"] >= g.max_seq, "seq went back"
            g.max_seq = s["seq"]
            hand = s["hand"]
            assert len(set(hand)) == len(hand)
            assert len(hand) == (11 if s["phase"] == "discard" else 10), (s["phase"], hand)
            pile = s["discard_pile"]
            known = s["opponent"]["known"]
            seen = [*hand, *pile, *known]
            assert len(seen) == len(set(seen)), f"a card in two places: {seen}"
            assert set(seen) <= set(ALL_CARDS)
            if s["phase"] not in ("hand-over", "game-over"):
                assert len(hand) + len(pile) + s["opponent"]["card_count"] \
                    + s["stock_count"] == 52
                assert s["opponent"]["card_count"] in (10, 11)
                assert s["legal"]
            if s["drawn"] is not None:
                assert s["drawn"] in hand
            if s["taken_from_discard"] is not None:
                assert s["taken_from_discard"] in hand
            assert s["fairness"]["commitment"] and (s["fairness"]["revealed"] is None) == (
                s["phase"] not in ("hand-over", "game-over"))


@pytest.mark.own_chance  # the machine seeds each run's chance itself (ApiMachine)
def test_api_state_machine(make_client: Callable[..., TestClient], tmp_path: Path) -> None:
    ApiMachine.client = make_client(f"sqlite:///{tmp_path / 'stateful.sqlite3'}")
    run_state_machine_as_test(
        ApiMachine,
        settings=settings(max_examples=12, stateful_step_count=40, deadline=None,
                          suppress_health_check=list(HealthCheck), derandomize=True,
                          database=None),
    )
