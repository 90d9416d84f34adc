"""A simulated person (issue 22): a computer player of known strength plays games through the web
API against mixed levels, as a person would, and its rating (``GET /api/stats``) is compared with
the strength the round robin measured for it (``ginrummy/bots/ratings.json``).

Usage (from the repository root, with the project's virtual environment)::

    nice -n 19 python benchmarks/rating_person.py --bot medium --games 100 --seed 1

The person's moves come from the bot, given the person's own view (``ginrummy.views.view_of`` of
the server's game at seat 0: what the page shows, nothing hidden), and are sent through
``POST /api/games/{id}/actions``; the server deals and plays the computer as for anyone. The
opponents cycle through ``--levels`` (default: the four offered levels). Printed: the rating, its
95% interval, whether the bot's measured rating lies inside, and the games won per level; with
``--json`` one JSON line. Nothing is written (the app's database is a temporary file).
"""

from __future__ import annotations

import argparse
import json
import random
import tempfile
import time
import warnings
from pathlib import Path
from typing import Any

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from fastapi.testclient import TestClient

from ginrummy.bots import Context, make_bot
from ginrummy.bots.strength import level_ratings, ratings_file
from ginrummy.views import view_of
from ginrummy.web import create_app
from ginrummy.web.http.ratelimit import RateLimits

ACTING = ("offer", "draw", "discard")


def play_game(client: TestClient, bot: Any, level: str, rng: random.Random) -> bool:
    """One game to the end against ``level``; True when the person (the bot) won."""
    r = client.post("/api/games", json={"level": level})
    assert r.status_code == 201, r.text
    data = r.json()
    gid, headers, st = data["game_id"], {"Authorization": f"Bearer {data['token']}"}, \
        data["state"]
    service = client.app.state.service  # type: ignore[attr-defined]
    for _ in range(5000):
        if st["phase"] == "game-over":
            return bool(st["score"]["final"]["winner"] == 0)
        legal = [a["action"] for a in st["legal"]]
        if st["phase"] == "hand-over":
            text = "next hand"
        elif st["phase"] in ACTING and legal:
            hand = service.game(gid).current
            action = bot.choose(view_of(hand, 0), Context(rng=rng))
            text = action.text
        else:
            r = client.get(f"/api/games/{gid}", headers=headers)
            st = r.json()
            continue
        r = client.post(f"/api/games/{gid}/actions", json={"action": text, "seq": st["seq"]},
                        headers=headers)
        assert r.status_code == 200, (text, r.text)
        st = r.json()
    raise AssertionError("the game did not end")


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--bot", default="medium", help="the simulated person's level")
    ap.add_argument("--games", type=int, default=100)
    ap.add_argument("--levels", nargs="+", default=["easy", "medium", "hard", "expert"])
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args(argv)
    measured = level_ratings()
    if args.bot not in measured:
        raise SystemExit(f"{args.bot} has no measured rating in ginrummy/bots/ratings.json")
    rng = random.Random(args.seed)
    bot = make_bot(args.bot)
    t0 = time.time()
    with tempfile.TemporaryDirectory() as tmp:
        app = create_app(f"sqlite:///{Path(tmp) / 'games.sqlite3'}",
                         rate_limits=RateLimits(creates=None, requests=None))
        with TestClient(app) as client:
            won: dict[str, list[int]] = {lv: [0, 0] for lv in args.levels}
            for i in range(args.games):
                lv = args.levels[i % len(args.levels)]
                w = play_game(client, bot, lv, rng)
                won[lv][0] += w
                won[lv][1] += 1
            rating = client.get("/api/stats").json()["rating"]
            app.state.store.close()
    m = measured[args.bot]
    out = {
        "bot": args.bot, "games": args.games, "levels": args.levels, "seed": args.seed,
        "rating": rating["rating"], "rd": rating["rd"], "low": rating["low"],
        "high": rating["high"], "rated_games": rating["games"],
        "measured": round(m.rating, 1), "measured_low": round(m.interval[0], 1),
        "measured_high": round(m.interval[1], 1),
        "inside": rating["low"] <= m.rating <= rating["high"],
        "won_by_level": {k: f"{v[0]}/{v[1]}" for k, v in won.items()},
        "ratings_fitted": ratings_file().get("fitted"), "elapsed_s": round(time.time() - t0),
    }
    if args.json:
        print(json.dumps(out))
    else:
        for k, v in out.items():
            print(f"{k}: {v}")


if __name__ == "__main__":
    main()
