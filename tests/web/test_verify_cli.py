"""Provable fairness end to end: a game played through the API, its ``/record`` checked by the
``ginrummy verify`` command in a real subprocess, tampering caught, the documented shell one-liner
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
from web_helpers import Table, choose

import ginrummy.fairness as fairness
from ginrummy.bots import LEVELS
from ginrummy.fairness import commitment_of, replay_check
from ginrummy.web import create_app
from ginrummy.web.ratelimit import RateLimits

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
def played(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, Any]]:
    """The /record of a whole game played through the API (several deals)."""
    db = tmp_path_factory.mktemp("verify") / "games.sqlite3"
    app = create_app(f"sqlite:///{db}", rate_limits=RateLimits(creates=None, requests=None))
    with TestClient(app) as client:
        rec = _play_and_record(client, 31)
        for seed in range(32, 40):  # a deal may end the game at once: want two deals or more
            if len(rec["hands"]) >= 2:
                break
            rec = _play_and_record(client, seed)
        yield rec


def _play_and_record(client: TestClient, seed: int) -> dict[str, Any]:
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
    return rec


def test_verify_command_accepts_a_played_game(played: dict[str, Any], tmp_path: Path) -> None:
    assert len(played["hands"]) >= 2
    p = _verify(played, tmp_path)
    assert p.returncode == 0, p.stdout + p.stderr
    lines = p.stdout.strip().splitlines()
    assert len(lines) == len(played["hands"])
    for line in lines:
        assert "commitment verified" in line and "replay legal" in line, line
    # the same through stdin, with --json
    p = _verify(played, tmp_path, stdin=True, extra=("--json",))
    assert p.returncode == 0, p.stdout + p.stderr
    out = json.loads(p.stdout)
    assert out["ok"] is True and len(out["lines"]) == len(played["hands"])


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
