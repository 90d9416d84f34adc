"""ginrummy.fairness: commitments, verification, replay checks."""

from __future__ import annotations

import hashlib
import shutil
import subprocess

import pytest

from ginrummy.cards import card_text
from ginrummy.fairness import (
    commitment_of,
    deck_text,
    new_salt,
    replay_check,
    shuffled_deck,
    verify_deal,
)
from ginrummy.game import Game
from ginrummy.records import GameRecord
from ginrummy.rules import Rules


def test_commitment_format() -> None:
    deck = shuffled_deck()
    assert sorted(deck) == list(range(52))
    salt = new_salt()
    assert len(salt) == 32 and int(salt, 16) >= 0
    texts = [card_text(c) for c in deck]
    expected = hashlib.sha256(f"{salt}:{' '.join(texts)}".encode()).hexdigest()
    assert commitment_of(salt, deck) == commitment_of(salt, texts) == expected
    assert verify_deal(expected, salt, texts)
    assert verify_deal(expected.upper(), salt, " ".join(texts).lower())
    assert not verify_deal(expected, new_salt(), texts)
    assert not verify_deal(expected, salt, texts[:51])
    assert not verify_deal(expected, salt, texts[:51] + texts[:1])
    for junk in (None, 5, ["ZZ"] * 52, [{}]):
        assert not verify_deal(expected, salt, junk)  # type: ignore[arg-type]
    # a commitment that is not ASCII is simply not verified (hmac.compare_digest would raise)
    assert not verify_deal("\x80" * 64, salt, texts)
    assert not verify_deal(expected, "\u00e9", texts)
    assert deck_text(["10h", "as"]) == "TH AS"


@pytest.mark.skipif(not shutil.which("sha256sum"), reason="no sha256sum")
def test_shell_one_liner_matches() -> None:
    salt = new_salt()
    deck = deck_text(shuffled_deck())
    out = subprocess.run(["sh", "-c", f"printf '%s' \"{salt}:{deck}\" | sha256sum"],
                         capture_output=True, text=True, check=True).stdout.split()[0]
    assert out == commitment_of(salt, deck)


def _played_game() -> GameRecord:
    import random

    rng = random.Random(1)
    g = Game(Rules.preset("standard", target=30), first_dealer=0)
    while not g.is_over:
        g.new_hand(rng.sample(range(52), 52))
        h = g.current
        assert h is not None
        while not h.is_over:
            legal = h.legal_actions()
            ends = [a for a in legal if a.kind.value in ("gin", "knock", "big_gin")]
            g.apply(ends[0] if ends else rng.choice(legal))
        if len(g.deals) > 40:
            break
    return GameRecord.of(g)


def test_replay_check_game_record() -> None:
    rec = _played_game().to_json()
    # a plain engine record: replayed, nothing to verify
    report = replay_check(rec)
    assert report.ok and all(d.commitment_ok is None for d in report.deals)
    # with published salts
    for h in rec["hands"]:
        h["salt"] = new_salt()
        h["commitment"] = commitment_of(h["salt"], h["deck"])
    assert replay_check(rec).ok
    rec["hands"][0]["actions"] = rec["hands"][0]["actions"][:-1]
    bad = replay_check(rec)
    assert not bad.ok and "did not end" in str(bad)


def test_replay_check_bad_inputs() -> None:
    for junk in (None, 3, "x", {}, {"hands": "no"}, {"hands": [5]}, {"rules": "nope", "hands": []},
                 [1, 2], {"fairness": {"revealed": None, "history": [7]}}):
        report = replay_check(junk)  # type: ignore[arg-type]
        assert not report.ok
        assert str(report)


def test_replay_check_reveals() -> None:
    deck = [card_text(c) for c in shuffled_deck()]
    salt = new_salt()
    reveal = {"deck": deck, "salt": salt, "commitment": commitment_of(salt, deck)}
    assert replay_check(reveal).ok
    assert replay_check([reveal, reveal]).ok
    assert replay_check({"fairness": {"commitment": "x", "revealed": reveal,
                                      "history": []}}).ok
    assert not replay_check({**reveal, "salt": new_salt()}).ok
