"""Provable fairness end to end: a game played through the API, its ``/record`` checked by the
``ginrummy verify`` command in a real subprocess (variant tables too, replayed whole: seating,
dealer rotation, results, the sheet), tampering caught, the documented shell one-liner
of docs/fairness.md reproducing the commitment, and the shuffle drawn from ``secrets``.
"""

from __future__ import annotations

import copy
import json
import random
import re
import shlex
import shutil
import subprocess
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from test_review_every_form import _fix
from web_helpers import Table, choose

import ginrummy.fairness as fairness
from ginrummy.bots import LEVELS
from ginrummy.fairness import commitment_of, replay_check
from ginrummy.variants import PLAYER_COUNT
from ginrummy.web import create_app
from ginrummy.web.http.ratelimit import RateLimits

ROOT = Path(__file__).resolve().parents[2]
FAIRNESS_DOC = ROOT / "docs" / "fairness.md"


def _verify_cmd() -> list[str]:
    script = Path(sys.executable).parent / "ginrummy"
    if script.exists():
        return [str(script), "verify"]
    return [sys.executable, "-m", "ginrummy.cli", "verify"]


def _verify(record: Any, tmp_path: Path, *, stdin: bool = False,
            extra: tuple[str, ...] = ()) -> subprocess.CompletedProcess[str]:
    text = json.dumps(record)
    if stdin:
        return subprocess.run([sys.executable, "-m", "ginrummy.cli", "verify", *extra, "-"],
                              input=text, capture_output=True, text=True, timeout=120)
    f = tmp_path / f"record-{abs(hash(text))}.json"
    f.write_text(text, encoding="utf-8")
    return subprocess.run([*_verify_cmd(), *extra, str(f)], capture_output=True, text=True,
                          timeout=120)


@pytest.fixture(scope="module")
def played_game(tmp_path_factory: pytest.TempPathFactory
                ) -> Iterator[tuple[dict[str, Any], dict[str, Any]]]:
    """The /record of a whole game played through the API (several deals), and the game's
    last state."""
    db = tmp_path_factory.mktemp("verify") / "games.sqlite3"
    app = create_app(f"sqlite:///{db}", rate_limits=RateLimits(creates=None, requests=None))
    with TestClient(app) as client:
        rec, state = _play_and_record(client, 31)
        for seed in range(32, 40):  # a deal may end the game at once: want two deals or more
            if len(rec["hands"]) >= 2:
                break
            rec, state = _play_and_record(client, seed)
        yield rec, state


@pytest.fixture(scope="module")
def played(played_game: tuple[dict[str, Any], dict[str, Any]]) -> dict[str, Any]:
    return played_game[0]


def _play_and_record(client: TestClient, seed: int) -> tuple[dict[str, Any], dict[str, Any]]:
    t = Table(client, {"level": LEVELS[0], "rules": {"target": 40}})
    rng = random.Random(seed)
    commitments = [t.state["fairness"]["commitment"]]
    steps = 0
    while t.state["phase"] != "game-over" and steps < 600:
        steps += 1
        t.act(choose(t.state, rng))
        c = t.state["fairness"]["commitment"]
        if c != commitments[-1]:
            commitments.append(c)
    assert t.state["phase"] == "game-over"
    r = client.get(f"/api/games/{t.id}/record", headers=t.headers)
    assert r.status_code == 200, r.text
    rec: dict[str, Any] = r.json()
    # every deal's commitment was published while it was in play, before its reveal
    assert [h["commitment"] for h in rec["hands"]] == commitments
    assert rec["current"] is None
    return rec, t.state


def test_verify_command_accepts_a_played_game(played_game: tuple[dict[str, Any], dict[str, Any]],
                                             tmp_path: Path) -> None:
    played, state = played_game
    assert len(played["hands"]) >= 2
    p = _verify(played, tmp_path)
    assert p.returncode == 0, p.stdout + p.stderr
    lines = p.stdout.strip().splitlines()
    assert len(lines) == len(played["hands"]) + 1
    for line in lines[:-1]:
        assert "commitment verified" in line and "replay legal" in line, line
    # the last line: the score sheet the replay arrives at, as the server scored the game
    score = state["score"]
    final = score["final"]
    assert lines[-1] == (
        f"sheet after {len(played['hands'])} hands: hand points {score['hand_points'][0]}-"
        f"{score['hand_points'][1]}, boxes {score['boxes'][0]}-{score['boxes'][1]}; over: seat "
        f"{final['winner']} wins, totals {final['totals'][0]}-{final['totals'][1]}, margin "
        f"{final['margin']}")
    # the same through stdin, with --json
    p = _verify(played, tmp_path, stdin=True, extra=("--json",))
    assert p.returncode == 0, p.stdout + p.stderr
    out = json.loads(p.stdout)
    assert out["ok"] is True and len(out["lines"]) == len(played["hands"])
    assert out["lines"] == lines[:-1] and out["sheet"]["text"] == lines[-1]
    assert out["scoring"] == "standard" and out["sheet"]["over"] is True
    assert out["sheet"]["totals"] == final["totals"] and out["sheet"]["winners"] == \
        [final["winner"]]
    assert [d["number"] for d in out["deals"]] == [h["number"] for h in played["hands"]]
    assert all(d["ok"] and d["commitment_ok"] and d["replay_ok"] for d in out["deals"])
    assert [d["dealer"] for d in out["deals"]] == [h["dealer"] for h in played["hands"]]


def test_verify_command_accepts_a_game_in_progress(new_table: Callable[..., Table],
                                                  client: TestClient, tmp_path: Path) -> None:
    rng = random.Random(5)
    t = new_table({"level": LEVELS[0], "rules": {"target": 500}})
    while t.state["phase"] != "hand-over":
        t.act(choose(t.state, rng))
    t.act("next hand")
    rec = client.get(f"/api/games/{t.id}/record", headers=t.headers).json()
    assert len(rec["hands"]) == 1 and rec["current"]["number"] == 2
    assert "deck" not in rec["current"] and "salt" not in rec["current"]
    p = _verify(rec, tmp_path)
    assert p.returncode == 0, p.stdout + p.stderr


@pytest.mark.parametrize("what", ["swap two cards", "replace a card", "salt", "commitment",
                                  "later hand deck"])
def test_verify_command_catches_tampering(played: dict[str, Any], tmp_path: Path,
                                          what: str) -> None:
    rec = copy.deepcopy(played)
    h = rec["hands"][-1 if what == "later hand deck" else 0]
    deck = h["deck"]
    if what in ("swap two cards", "later hand deck"):
        # one card moved: e.g. the computer's card handed to the stock top
        deck[1], deck[21] = deck[21], deck[1]
    elif what == "replace a card":
        deck[5] = next(c for c in ("AS", "2S", "3S") if c != deck[5])
    elif what == "salt":
        s = h["salt"]
        h["salt"] = s[:-1] + ("0" if s[-1] != "0" else "1")
    else:
        h["commitment"] = commitment_of("00" * 16, h["deck"])
    p = _verify(rec, tmp_path)
    assert p.returncode == 1, p.stdout + p.stderr
    assert "MISMATCH" in p.stdout
    assert not replay_check(rec).ok


def test_verify_command_bad_input_exit_2(tmp_path: Path) -> None:
    f = tmp_path / "junk.json"
    f.write_text("{not json", encoding="utf-8")
    p = subprocess.run([*_verify_cmd(), str(f)], capture_output=True, text=True, timeout=60)
    assert p.returncode == 2 and p.stderr.startswith("error:")


# ------------------------------------------------------------------- the documented one-liner
def _doc_one_liners() -> tuple[str, str]:
    """The shell and the Python one-liners of docs/fairness.md, placeholders left in."""
    doc = FAIRNESS_DOC.read_text(encoding="utf-8")
    shell = re.search(r"^printf '%s' \"<salt>:<deck>\" \| sha256sum$", doc, re.M)
    assert shell, "docs/fairness.md lost its sha256sum one-liner"
    py = re.search(r"`(python3 -c '[^`]*' \"<salt>:<deck>\")`", doc)
    assert py, "docs/fairness.md lost its python one-liner"
    return shell.group(0), py.group(1)


@pytest.mark.skipif(not shutil.which("sha256sum") or not shutil.which("bash"),
                    reason="needs bash and sha256sum")
def test_documented_one_liner_reproduces_the_commitment(played: dict[str, Any]) -> None:
    shell, py = _doc_one_liners()
    for h in played["hands"]:
        salt, deck = h["salt"], " ".join(h["deck"])
        assert re.fullmatch(r"[0-9a-f]{32}", salt)
        assert re.fullmatch(r"([A2-9TJQK][SHDC] ){51}[A2-9TJQK][SHDC]", deck)
        cmd = shell.replace("<salt>", salt).replace("<deck>", deck)
        out = subprocess.run(["bash", "-c", cmd], capture_output=True, text=True, timeout=30,
                             check=True).stdout
        assert out.split()[0] == h["commitment"], (cmd, out)
        # the python3-only variant, with the same interpreter family
        cmd = py.replace("python3", shlex.quote(sys.executable), 1) \
            .replace("<salt>", salt).replace("<deck>", deck)
        out = subprocess.run(["bash", "-c", cmd], capture_output=True, text=True, timeout=30,
                             check=True).stdout
        assert out.strip() == h["commitment"]
    # and a tampered deck does not reproduce it
    h = played["hands"][0]
    deck = list(h["deck"])
    deck[0], deck[1] = deck[1], deck[0]
    cmd = shell.replace("<salt>", h["salt"]).replace("<deck>", " ".join(deck))
    out = subprocess.run(["bash", "-c", cmd], capture_output=True, text=True, timeout=30,
                         check=True).stdout
    assert out.split()[0] != h["commitment"]


# ------------------------------------------------------------------------------ the shuffle
def test_shuffle_uses_the_os_cryptographic_source(monkeypatch: pytest.MonkeyPatch) -> None:
    import random as random_module
    import secrets

    calls: list[str] = []
    real = secrets.SystemRandom

    class Spy(real):  # type: ignore[misc, valid-type]
        def shuffle(self, x: Any) -> None:  # type: ignore[override]
            calls.append("SystemRandom.shuffle")
            super().shuffle(x)

    def forbidden(*_a: Any, **_k: Any) -> Any:
        raise AssertionError("the deal must not use the random module's global generator")

    # SystemRandom's bits come from os.urandom (random._urandom): count the bytes drawn
    drawn: list[int] = []
    real_urandom = random_module._urandom  # type: ignore[attr-defined]

    def urandom_spy(n: int) -> bytes:
        drawn.append(n)
        return real_urandom(n)

    monkeypatch.setattr(fairness.secrets, "SystemRandom", Spy)
    monkeypatch.setattr(random_module, "_urandom", urandom_spy)
    for name in ("shuffle", "random", "getrandbits", "sample", "randrange"):
        monkeypatch.setattr(random_module, name, forbidden)
    deck = fairness.shuffled_deck()
    assert calls == ["SystemRandom.shuffle"]
    assert sorted(deck) == list(range(52))
    assert len(drawn) >= 51, "the shuffle did not draw from the operating system"
    assert issubclass(real, random_module.SystemRandom)
    # the salt: secrets.token_hex, 16 bytes
    salts: list[int] = []
    real_hex = secrets.token_hex

    def hex_spy(n: int | None = None) -> str:
        salts.append(n or 0)
        return real_hex(n)

    monkeypatch.setattr(fairness.secrets, "token_hex", hex_spy)
    s = fairness.new_salt()
    assert salts == [16] and re.fullmatch(r"[0-9a-f]{32}", s)


def test_the_server_deals_from_the_fairness_shuffle(monkeypatch: pytest.MonkeyPatch,
                                                   client: TestClient) -> None:
    """Every deal the server makes goes through fairness.shuffled_deck / new_salt: a fixed
    deck patched in there is the deck that the reveal shows."""
    import ginrummy.web.tables.service as service_module

    dealt: list[list[int]] = []
    salts: list[str] = []
    real_deck, real_salt = service_module.shuffled_deck, service_module.new_salt

    def deck_spy() -> list[int]:
        d = real_deck()
        dealt.append(d)
        return d

    def salt_spy() -> str:
        s = real_salt()
        salts.append(s)
        return s

    monkeypatch.setattr(service_module, "shuffled_deck", deck_spy)
    monkeypatch.setattr(service_module, "new_salt", salt_spy)
    t = Table(client, {"level": LEVELS[0], "rules": {"target": 500}})
    assert len(dealt) == 1
    rng = random.Random(9)
    while t.state["phase"] != "hand-over":
        t.act(choose(t.state, rng))
    rev = t.state["fairness"]["revealed"]
    from ginrummy.cards import card_text

    assert rev["deck"] == [card_text(c) for c in dealt[0]] and rev["salt"] == salts[0]
    t.act("next hand")
    assert len(dealt) == 2 and len(set(salts)) == 2
    # the module really calls the system source (no seedable generator in between)
    src = Path(fairness.__file__).read_text(encoding="utf-8")
    body = src[src.index("def shuffled_deck"):src.index("def _canonical")]
    assert "secrets.SystemRandom()" in body and "random.Random(" not in body


@pytest.mark.parametrize(("record", "words"), [
    ({}, "not a game record"),
    ({"format": "other/9", "hands": []}, "unknown record format"),
    ({"rules": {"preset": "nope"}, "first_dealer": 0, "hands": []}, "unknown rules preset"),
    ({"rules": {"preset": "standard"}, "first_dealer": 0, "hands": "abc"}, "no list of hands"),
    ([1, 2], "not a reveal object"),
])
def test_unreadable_records_exit_2_with_one_error_line(record: Any, words: str,
                                                       tmp_path: Path) -> None:
    r = _verify(record, tmp_path)
    assert r.returncode == 2, (r.stdout, r.stderr)
    assert r.stderr.startswith("error: ") and words in r.stderr and r.stderr.count("\n") == 1
    assert r.stdout == ""


def test_a_deal_with_a_missing_commitment_or_bad_deck_is_named(played: dict[str, Any],
                                                                tmp_path: Path) -> None:
    rec = copy.deepcopy(played)
    del rec["hands"][0]["commitment"]
    r = _verify(rec, tmp_path)
    assert r.returncode == 1 and "commitment is missing" in r.stdout, r.stdout
    rec = copy.deepcopy(played)
    rec["hands"][0]["deck"] = 5
    r = _verify(rec, tmp_path)
    assert r.returncode == 1 and "the deck must be a list of 52 cards" in r.stdout, r.stdout
    assert "Traceback" not in r.stdout + r.stderr


def test_renumbered_deals_do_not_verify(played: dict[str, Any], tmp_path: Path) -> None:
    rec = copy.deepcopy(played)
    assert len(rec["hands"]) >= 2
    rec["hands"][0]["number"] = 5
    r = _verify(rec, tmp_path)
    assert r.returncode == 1 and "numbered 5, but it is deal 1 of the game" in r.stdout, r.stdout


# ------------------------------------------------------------ variant tables, replayed whole
VARIANTS = {"hollywood": ("pagat", 40), "three_player": ("standard", 60),
            "partnership": ("partnership", 60)}


def _play_variant(client: TestClient, scoring: str, seed: int
                  ) -> tuple[dict[str, Any], dict[str, Any]]:
    preset, target = VARIANTS[scoring]
    t = Table(client, {"level": LEVELS[0], "scoring": scoring, "preset": preset,
                       "rules": {"target": target}})
    rng = random.Random(seed)
    steps = 0
    while t.state["phase"] != "game-over" and steps < 3000:
        steps += 1
        t.act(choose(t.state, rng))
    assert t.state["phase"] == "game-over"
    r = client.get(f"/api/games/{t.id}/record", headers=t.headers)
    assert r.status_code == 200, r.text
    return r.json(), t.state


def _scored_later(rec: dict[str, Any]) -> int | None:
    """The index of a deal after the first with a winner (the rotation after a scored hand)."""
    return next((i for i, h in enumerate(rec["hands"])
                 if i > 0 and h["result"]["winner"] is not None), None)


@pytest.fixture(scope="module")
def variant_played(tmp_path_factory: pytest.TempPathFactory
                   ) -> Iterator[dict[str, tuple[dict[str, Any], dict[str, Any]]]]:
    """Per variant scoring: the /record of a whole table played through the API against the
    computers, with three deals or more and a scored deal after the first, and its last
    state."""
    db = tmp_path_factory.mktemp("verify-variants") / "games.sqlite3"
    app = create_app(f"sqlite:///{db}", rate_limits=RateLimits(creates=None, requests=None))
    out = {}
    with TestClient(app) as client:
        for scoring in VARIANTS:
            for seed in range(20):
                rec, state = _play_variant(client, scoring, seed)
                if len(rec["hands"]) >= 3 and _scored_later(rec) is not None:
                    break
            else:
                pytest.fail(f"20 {scoring} tables all ended within two deals")
            out[scoring] = (rec, state)
        yield out


def _sheet_of(scoring: str, state: dict[str, Any]) -> dict[str, Any]:
    """What the server's own score says the replayed sheet must be."""
    sc = state["score"]
    if scoring == "hollywood":
        return {"hand_points": [g["hand_points"] for g in sc["games"]],
                "boxes": [g["boxes"] for g in sc["games"]], "totals": sc["totals"],
                "winners": [] if sc["final"]["winner"] is None else [sc["final"]["winner"]]}
    if scoring == "three_player":
        return {"hand_points": sc["hand_points"], "boxes": sc["boxes"],
                "winners": [sc["final"]["winner"]]}
    w = sc["final"]["winner"]
    return {"hand_points": sc["hand_points"], "boxes": sc["boxes"],
            "totals": sc["final"]["totals"], "winners": [w, w + 2]}


@pytest.mark.parametrize("scoring", list(VARIANTS))
def test_verify_replays_a_variant_table_whole(
        variant_played: dict[str, tuple[dict[str, Any], dict[str, Any]]], scoring: str,
        tmp_path: Path) -> None:
    rec, state = variant_played[scoring]
    p = _verify(rec, tmp_path)
    assert p.returncode == 0, p.stdout + p.stderr
    lines = p.stdout.strip().splitlines()
    assert len(lines) == len(rec["hands"]) + 1
    for line, h in zip(lines, rec["hands"], strict=False):
        assert line.startswith(f"hand {h['number']}")
        assert line.endswith("commitment verified, replay legal"), line
        a, b = h["players"]
        if scoring == "three_player":  # the dealer sits out: the player of the three not seated
            assert f"(players {a} and {b}; player {3 - a - b} dealt and sat out)" in line
        if scoring == "partnership":
            assert f"(hand {h['hand']}, table {h['table']}: players {a} and {b}; player " \
                   f"{h['players'][h['dealer']]} dealt)" in line
    assert lines[-1].startswith(f"sheet after {len(state['score']['hands'])} hands: ")
    assert "; over: " in lines[-1]
    p = _verify(rec, tmp_path, extra=("--json",))
    out = json.loads(p.stdout)
    assert out["ok"] is True and out["scoring"] == scoring and out["sheet"]["over"] is True
    want = _sheet_of(scoring, state)
    assert {k: out["sheet"][k] for k in want} == want
    for d, h in zip(out["deals"], rec["hands"], strict=True):
        assert d["players"] == h["players"] and d["hand"] == h["hand"]
        assert d["winner"] == h["result"]["winner_player"]
        assert sorted(d["sat_out"] + d["players"]) == list(range(PLAYER_COUNT[scoring]))


@pytest.mark.parametrize(("scoring", "what"), [
    (s, w) for s in VARIANTS for w in ("dealer", "seating", "winner")])
def test_verify_names_a_tampered_variant_table(
        variant_played: dict[str, tuple[dict[str, Any], dict[str, Any]]], scoring: str,
        what: str, tmp_path: Path) -> None:
    rec = copy.deepcopy(variant_played[scoring][0])
    k = _scored_later(rec)
    assert k is not None
    h = rec["hands"][k]
    first = k  # the first deal tampered with
    if what == "dealer":
        h["dealer"] = 1 - h["dealer"]
        if scoring == "partnership":  # the pair's cut, from the other seat: the result moves
            want = f"recorded winner {h['result']['winner']}, replay gives " \
                   f"{1 - h['result']['winner']}"
        elif scoring == "three_player":
            want = f"dealt by seat {h['dealer']}, but player {3 - sum(h['players'])} deals " \
                   "this hand and sits out"
        else:
            want = f"dealt by seat {h['dealer']}, but the rules make seat {1 - h['dealer']} " \
                   "the dealer (R-9.1, R-9.2)"
    elif what == "seating":
        if scoring == "partnership":  # the two tables of a hand exchanged
            mate = k + 1 if h["table"] == 0 else k - 1
            first = min(k, mate)
            h["players"], rec["hands"][mate]["players"] = rec["hands"][mate]["players"], \
                h["players"]
            want = f"but the rules seat {rec['hands'][mate]['players']} (hand {h['hand']}'s " \
                   "tables are players"
        elif scoring == "three_player":  # the one who sat out seated instead of a player
            out = 3 - sum(h["players"])
            true = list(h["players"])
            h["players"] = [out, true[1]]
            want = f"seated players {h['players']}, but the rules seat {true}"
        else:
            h["players"] = [1, 0]
            want = "seated players [1, 0], but the rules seat [0, 1]"
    else:
        true = h["result"]["winner_player"]
        h["result"]["winner_player"] = next(p for p in h["players"] if p != true)
        want = f"recorded winner_player {h['result']['winner_player']}, replay gives {true}"
    p = _verify(rec, tmp_path)
    assert p.returncode == 1, p.stdout + p.stderr
    lines = p.stdout.splitlines()
    assert lines[k].startswith(f"hand {h['number']}") and want in lines[k], (want, lines[k])
    assert "replay FAILED" in lines[k]
    assert all(line.endswith("replay legal") for line in lines[:first])
    assert "Traceback" not in p.stdout + p.stderr
    out = json.loads(_verify(rec, tmp_path, extra=("--json",)).stdout)
    assert out["ok"] is False and out["deals"][k]["ok"] is False
    assert any(want in x for x in out["deals"][k]["problems"])


def test_verify_checks_a_variant_table_in_play(client: TestClient,
                                              new_table: Callable[..., Table],
                                              tmp_path: Path,
                                              monkeypatch: pytest.MonkeyPatch) -> None:
    """A partnership table in its second hand: the hand played is replayed, the deals in play
    (their commitments only) must be the ones the table deals next. The decks, dealers and
    the computers' seeds are fixed (seed 2): with the server's own, the person's second deal
    could end before the person moves (the computer's knock at its first turn), and there would
    be no deal of the person's in play (seen once in a suite run)."""
    _fix(monkeypatch, 2)
    rng = random.Random(2)
    t = new_table({"level": LEVELS[0], "scoring": "partnership", "preset": "partnership",
                   "rules": {"target": 500}})
    while t.state["phase"] != "hand-over":
        t.act(choose(t.state, rng))
    t.act("next hand")
    rec = client.get(f"/api/games/{t.id}/record", headers=t.headers).json()
    assert [h["hand"] for h in rec["hands"]] == [1, 1]
    current = rec["current"]
    assert current and {c["hand"] for c in current} == {2}
    assert all("deck" not in c and "salt" not in c for c in current)
    p = _verify(rec, tmp_path)
    assert p.returncode == 0, p.stdout + p.stderr
    assert p.stdout.splitlines()[-1].endswith("; in play")
    bad = copy.deepcopy(rec)
    c = bad["current"][0]
    c["players"] = c["players"][::-1]
    p = _verify(bad, tmp_path)
    assert p.returncode == 1
    assert f"deal {c['number']} in play: seated players {c['players']}" in p.stdout
    bad = copy.deepcopy(rec)
    bad["current"][-1]["dealer"] = 2
    p = _verify(bad, tmp_path)
    assert p.returncode == 1 and "cuts for the deal (R-2.1)" in p.stdout, p.stdout
