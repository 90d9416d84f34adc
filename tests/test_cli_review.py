"""``ginrummy review RECORD.json`` (issue 20): the readable review, ``--json``, ``--seat``,
``--hand``, ``--confirm``, and bad input (one line ``error: ...``, exit status 2). Small
searches (``--worlds 16``) and no play-outs unless tested keep it fast."""

from __future__ import annotations

import copy
import json
import sys
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from ginrummy import cli

sys.path.insert(0, str(Path(__file__).parent / "bots"))
from review_helpers import play_form, play_record  # noqa: E402

runner = CliRunner()


@pytest.fixture(scope="module")
def record() -> dict[str, Any]:
    return play_record("easy", "hard", seed=21, max_deals=3)


def run(*args: str, input: str | None = None) -> Any:
    return runner.invoke(cli.app, ["review", "--worlds", "16", "--confirm", "0", *args],
                         input=input)


def bad(r: Any, message: str) -> None:
    assert r.exit_code == 2, (r.stdout, r.stderr)
    lines = r.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: ") and message in lines[0], r.stderr
    assert "Traceback" not in r.output and r.stdout == ""


def test_json_review_of_every_hand_and_seat(record: dict[str, Any]) -> None:
    r = run("--json", "-", input=json.dumps(record))
    assert r.exit_code == 0, r.stderr
    out = json.loads(r.stdout)
    assert out["format"] == "ginrummy-review/1" and out["scoring"] == "standard"
    assert [h["hand"] for h in out["hands"]] == [1, 2, 3][:len(record["hands"])]
    assert [s["seat"] for s in out["seats"]] == [0, 1]
    assert len(out["turning_points"]) <= 3
    for h in out["hands"]:
        for d in h["decisions"]:
            assert d["grade"] in ("best", "good", "inaccuracy", "mistake", "blunder")
            assert d["step"] == d["index"] + 1
            assert record["hands"][h["hand"] - 1]["actions"][d["index"]] == d["played"]["action"]


def test_seat_and_hand_select_what_is_reviewed(tmp_path: Path, record: dict[str, Any]) -> None:
    f = tmp_path / "game.json"
    f.write_text(json.dumps(record))
    r = run("--json", "--seat", "1", "--hand", "2", str(f))
    assert r.exit_code == 0, r.stderr
    out = json.loads(r.stdout)
    assert [h["hand"] for h in out["hands"]] == [2]
    assert [s["seat"] for s in out["seats"]] == [1]
    assert all(d["seat"] == 1 for d in out["hands"][0]["decisions"])
    assert out["complete"] is False


def test_readable_review_names_grades_moves_and_luck(record: dict[str, Any]) -> None:
    r = run("--all", "-", input=json.dumps(record))
    assert r.exit_code == 0, r.stderr
    text = r.stdout
    assert text.startswith("hand 1 (dealer seat ")
    assert "seat 0: accuracy " in text and "seat 1: accuracy " in text
    assert "cards " in text and "decisions " in text and "opponent and unseen cards" in text
    assert "step " in text
    # the hints' words, from the catalogue: a best move's reason is spelled out
    assert "deadwood" in text


def test_the_same_record_prints_the_same_review(record: dict[str, Any]) -> None:
    a = run("--json", "-", input=json.dumps(record))
    b = run("--json", "-", input=json.dumps(record))
    assert a.exit_code == b.exit_code == 0 and a.stdout == b.stdout


def test_bad_input_is_one_line_and_status_2(tmp_path: Path, record: dict[str, Any]) -> None:
    bad(run(), "missing FILE")
    bad(run(str(tmp_path / "nope.json")), "cannot read")
    bad(run("-", input="{not json"), "malformed JSON")
    bad(run("-", input="[1, 2]"), "not a game record")
    bad(run("-", input=json.dumps({**record, "scoring": "bridge"})), "unknown scoring")
    bad(run("--hand", "9", "-", input=json.dumps(record)), "no finished hand 9")
    bad(run("--seat", "2", "-", input=json.dumps(record)), "--seat")
    broken = copy.deepcopy(record)
    broken["hands"][0]["actions"][1] = "discard 7H 8H"
    bad(run("-", input=json.dumps(broken)), "hand 1")
    empty = {**record, "hands": []}
    bad(run("-", input=json.dumps(empty)), "no finished hand")


def test_confirm_plays_the_searchs_mistakes_out(record: dict[str, Any]) -> None:
    """--confirm: each decision the search graded a mistake or a blunder carries its play-outs
    and is graded on them; the readable line says so; a bad count or judge is refused."""
    data = json.dumps(record)
    plain = json.loads(run("--json", "-", input=data).stdout)
    r = run("--json", "--confirm", "8", "--judge", "hard", "-", input=data)
    assert r.exit_code == 0, r.stderr
    out = json.loads(r.stdout)
    assert out["budget"] == {"worlds": 16, "confirm": 8, "judge": "hard"}
    before = [d for h in plain["hands"] for d in h["decisions"]]
    after = [d for h in out["hands"] for d in h["decisions"]]
    flagged = [(b, a) for b, a in zip(before, after, strict=True)
               if b["grade"] in ("mistake", "blunder")]
    assert flagged, "no mistake by the search in this record: pick another seed"
    for b, a in zip(before, after, strict=True):
        if b["grade"] in ("mistake", "blunder"):
            assert a["confirmation"]["playouts"] == 8
            assert a["confirmation"]["search_grade"] == b["grade"]
        else:
            assert a == b
    text = run("--all", "--confirm", "8", "--judge", "hard", "-", input=data).stdout
    assert text.count("play-outs; the search said ") == len(flagged)
    bad(run("--confirm", "1", "-", input=data), "--confirm")
    bad(run("--confirm", "7", "-", input=data), "--confirm")
    bad(run("--confirm", "8", "--judge", "nobody", "-", input=data), "--judge")


def test_a_three_player_record_is_reviewed_per_player() -> None:
    """Seats are the record's players (0-2 here), each in the hands it played; the hand's title
    names its two players."""
    game, web, _ = play_form("three_player", hands=2, seed=7)
    r = run("--json", "--seat", "2", "-", input=json.dumps(web))
    assert r.exit_code == 0, r.stderr
    out = json.loads(r.stdout)
    assert out["scoring"] == "three_player" and [s["seat"] for s in out["seats"]] == [2]
    played = [s.number for s in game.seatings if s.plays(2)]
    assert [h["hand"] for h in out["hands"]] == played
    assert all(d["seat"] == 2 for h in out["hands"] for d in h["decisions"])
    text = run("-", input=json.dumps(web))
    assert text.exit_code == 0 and "(seats " in text.stdout
    bad(run("--seat", "3", "-", input=json.dumps(web)), "--seat 3")


def test_ratings_give_the_chance_counting_who_plays(record: dict[str, Any]) -> None:
    even = json.loads(run("--json", "--hand", "1", "-", input=json.dumps(record)).stdout)
    r = run("--json", "--hand", "1", "--ratings", "1230,1658", "-", input=json.dumps(record))
    assert r.exit_code == 0, r.stderr
    rated = json.loads(r.stdout)
    assert even["ratings"] is None and rated["ratings"] == [1230.0, 1658.0]
    pairs = list(zip(rated["hands"][0]["decisions"], even["hands"][0]["decisions"], strict=True))
    # the grades compare moves between equals; the chance counts who plays (seat 0 weaker)
    assert all(d["grade"] == e["grade"] and d["played"]["win"] == e["played"]["win"]
               for d, e in pairs)
    seat0 = [(d["played"]["chance"], d["played"]["win"]) for d, _e in pairs if d["seat"] == 0]
    assert seat0 and all(a <= b for a, b in seat0) and any(a < b for a, b in seat0)
    unknown = run("--json", "--hand", "1", "--ratings", "-,1658", "-", input=json.dumps(record))
    assert json.loads(unknown.stdout)["ratings"] == [None, 1658.0]


@pytest.mark.parametrize(("given", "message"), [
    ("1500", "ratings must be one number (or none) for each of the 2 players"),
    ("1500,abc", "--ratings: 'abc' is not a rating"),
    ("1500,nan", "--ratings: 'nan' is not a rating"),
    ("1500,,", "--ratings: '' is not a rating"),
])
def test_bad_ratings_are_one_line_and_status_2(record: dict[str, Any], given: str,
                                               message: str) -> None:
    bad(run("--ratings", given, "-", input=json.dumps(record)), message)
