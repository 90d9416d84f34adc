"""Tournaments on Ray (ginrummy.tournament_ray, ``ginrummy tournament --ray``): the same seeds
give the same results as one process and as ``--jobs``, in every form; Ray stays optional.

The Ray tests share one local Ray of two workers (num_cpus=2) for the whole module: starting Ray
takes seconds on a small machine. They need the ``distributed`` extra, which the test command
(scripts/test.sh) installs; under CI (``CI`` set) a missing Ray fails instead of skipping.
"""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import types
from collections.abc import Iterator
from typing import Any

import pytest
from typer.testing import CliRunner

from ginrummy import cli
from ginrummy.rules import Rules
from ginrummy.tournament import TIMING_FIELDS, run_tournament

EAAI = Rules.preset("eaai")
runner = CliRunner()


def run(*args: str) -> Any:
    return runner.invoke(cli.app, list(args))


def _ray() -> Any:
    try:
        import ray
    except ImportError:
        if os.environ.get("CI"):
            pytest.fail("Ray is missing: the test command installs the distributed extra")
        pytest.skip("Ray is not installed (pip install -e '.[distributed]')")
    return ray


@pytest.fixture(scope="module")
def ray_cluster() -> Iterator[Any]:
    """One local Ray of two workers for the module."""
    ray = _ray()
    if ray.is_initialized():  # pragma: no cover (another module's session left open)
        ray.shutdown()
    ray.init(num_cpus=2, include_dashboard=False, logging_level="warning",
             object_store_memory=100 * 1024 * 1024)
    try:
        assert ray.cluster_resources().get("CPU") == 2
        yield ray
    finally:
        ray.shutdown()


# ---------------------------------------------------------------------------------------------
# without Ray


def test_ray_is_imported_only_when_a_tournament_runs_on_it() -> None:
    code = ("import sys, ginrummy.tournament, ginrummy.tournament_ray, ginrummy.cli.tournament\n"
            "assert 'ray' not in sys.modules, 'ray imported'\n")
    p = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert p.returncode == 0, p.stderr


def test_missing_ray_is_a_clear_error(monkeypatch: pytest.MonkeyPatch) -> None:
    from ginrummy.tournament_ray import RayUnavailableError, run_tournament_ray

    monkeypatch.setitem(sys.modules, "ray", None)  # `import ray` raises ImportError
    with pytest.raises(RayUnavailableError, match=r"ginrummy\[distributed\]"):
        run_tournament_ray("simple", "random", 2, EAAI)
    r = run("tournament", "--a", "simple", "--b", "random", "--games", "2", "--ray")
    assert r.exit_code == 1
    assert r.stderr.strip() == ("error: Ray is not installed: install the distributed extra "
                                "(pip install 'ginrummy[distributed]')")
    assert r.stdout == ""


def test_bad_ray_options_change_nothing() -> None:
    r = run("tournament", "--games", "2", "--ray", "auto", "--jobs", "2")
    assert r.exit_code == 2
    assert "--jobs sets the size of a local Ray" in r.stderr
    r = run("tournament", "--games", "2", "--ray", "--jobs", "0")
    assert r.exit_code == 2 and "--jobs must be at least 1" in r.stderr
    r = run("tournament", "--a", "nobody", "--ray")
    assert r.exit_code == 2 and "unknown player 'nobody'" in r.stderr


def test_a_cluster_that_wants_a_token_says_so(monkeypatch: pytest.MonkeyPatch) -> None:
    """Ray's token authentication: connecting without the cluster's token names what to set."""

    class AuthenticationError(Exception):
        pass

    fake = types.ModuleType("ray")

    def init(**kwargs: Any) -> None:
        try:
            raise AuthenticationError("InvalidAuthToken")
        except AuthenticationError as e:
            raise ConnectionError("Failed to connect to Ray cluster") from e

    fake.is_initialized = lambda: False  # type: ignore[attr-defined]
    fake.init = init  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "ray", fake)
    r = run("tournament", "--a", "simple", "--b", "random", "--games", "2", "--ray", "auto")
    assert r.exit_code == 1
    assert r.stderr.strip() == ("error: the Ray cluster at auto asks for its authentication "
                                "token: set RAY_AUTH_MODE=token and RAY_AUTH_TOKEN (or "
                                "~/.ray/auth_token) as on the cluster")


def test_an_unreachable_cluster_fails_fast() -> None:
    _ray()
    with socket.socket() as s:  # a port nothing listens on
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    r = run("tournament", "--a", "simple", "--b", "random", "--games", "2", "--ray",
            f"127.0.0.1:{port}")
    assert r.exit_code == 1
    assert r.stderr.strip() == (f"error: cannot reach the Ray cluster at 127.0.0.1:{port}: "
                                "Connection refused")
    assert r.stdout.strip() == ""  # no result


def test_the_help_shows_ray() -> None:
    r = run("tournament", "--help")
    assert r.exit_code == 0
    assert "--ray" in r.stdout and "distributed" in r.stdout


# ---------------------------------------------------------------------------------------------
# on a local Ray of two workers


def _outcome(data: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in data.items() if k not in TIMING_FIELDS}


def test_ray_equals_one_process_and_jobs(ray_cluster: Any) -> None:
    from ginrummy.tournament_ray import run_tournament_ray

    seen: list[tuple[int, int]] = []
    on_ray = run_tournament_ray("medium", "simple", games=10, rules=EAAI, seed=9,
                                progress=lambda d, t: seen.append((d, t)))
    local = run_tournament("medium", "simple", games=10, rules=EAAI, seed=9)
    jobs = run_tournament("medium", "simple", games=10, rules=EAAI, seed=9, jobs=2)
    assert on_ray.outcome_json() == local.outcome_json() == jobs.outcome_json()
    assert on_ray.games == 10 and on_ray.hands > 10 and on_ray.decisions > 100
    assert set(on_ray.to_json()) - set(on_ray.outcome_json()) == set(TIMING_FIELDS)
    assert seen[-1] == (10, 10) and all(t == 10 for _d, t in seen)
    assert [d for d, _t in seen] == sorted({d for d, _t in seen})  # growing, by whole pairs
    assert all(d % 2 == 0 for d, _t in seen)
    assert ray_cluster.is_initialized()  # a connection it did not open is left open
    # another seed is another tournament (the comparison above can fail)
    other = run_tournament_ray("medium", "simple", games=10, rules=EAAI, seed=10)
    assert other.outcome_json() != on_ray.outcome_json()


@pytest.mark.parametrize(("scoring", "preset", "games"), [("three_player", "standard", 6),
                                                          ("partnership", "partnership", 4),
                                                          ("hollywood", "standard", 4)])
def test_every_form_on_ray_equals_one_process_and_jobs(ray_cluster: Any, scoring: str,
                                                       preset: str, games: int) -> None:
    from ginrummy.tournament_ray import run_tournament_ray

    rules = Rules.preset(preset)
    on_ray = run_tournament_ray("medium", "simple", games, rules, seed=5, scoring=scoring)
    local = run_tournament("medium", "simple", games, rules, seed=5, scoring=scoring)
    jobs = run_tournament("medium", "simple", games, rules, seed=5, scoring=scoring, jobs=2)
    assert on_ray.outcome_json() == local.outcome_json() == jobs.outcome_json()
    assert on_ray.to_json()["scoring"] == scoring and on_ray.games == games
    lineup = ["medium", "simple", "easy"] if scoring == "three_player" else None
    if lineup is not None:  # an explicit lineup too
        a = run_tournament_ray("x", "y", 3, rules, seed=5, scoring=scoring, lineup=lineup)
        b = run_tournament("x", "y", 3, rules, seed=5, scoring=scoring, lineup=lineup)
        assert a.outcome_json() == b.outcome_json()
        assert [s["player"] for s in a.to_json()["seats"]] == lineup


def test_cli_ray_equals_cli_jobs(ray_cluster: Any) -> None:
    args = ["tournament", "--a", "simple", "--b", "random", "--games", "6", "--seed", "4",
            "--rules", "oklahoma", "--json"]
    on_ray = run(*args, "--ray")
    assert on_ray.exit_code == 0, on_ray.stderr
    jobs = run(*args, "--jobs", "2")
    assert jobs.exit_code == 0, jobs.stderr
    a = json.loads(on_ray.stdout.strip().splitlines()[-1])
    b = json.loads(jobs.stdout.strip().splitlines()[-1])
    assert _outcome(a) == _outcome(b)
    assert a["games"] == 6 and a["rules"] == "oklahoma" and a["wins_a"] + a["wins_b"] == 6
    text = run("tournament", "--a", "simple", "--b", "random", "--games", "2", "--ray")
    assert text.exit_code == 0, text.stderr
    assert "simple vs random: 2 games" in text.stdout and "95% CI" in text.stdout


def test_a_worker_of_another_version_stops_the_tournament(ray_cluster: Any,
                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    from ginrummy import tournament_ray

    monkeypatch.setattr(tournament_ray, "__version__", "0.0.0-other")
    with pytest.raises(tournament_ray.RayVersionMismatchError, match="install the same version"):
        tournament_ray.run_tournament_ray("simple", "random", 2, EAAI)


def test_a_connected_process_takes_no_address(ray_cluster: Any) -> None:
    from ginrummy.tournament_ray import run_tournament_ray

    with pytest.raises(ValueError, match="already initialised"):
        run_tournament_ray("simple", "random", 2, EAAI, num_cpus=2)
