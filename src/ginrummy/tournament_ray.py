"""Tournaments on a Ray cluster: the games of :func:`ginrummy.tournament.run_tournament` (every
form), one Ray task per batch of sets (seat-swapped pairs with two players).

Needs the ``distributed`` extra (``pip install 'ginrummy[distributed]'``: Ray); nothing else in
the package imports Ray, and this module imports it only when a tournament runs
(:class:`RayUnavailableError` says what to install when it is missing). Every game is seeded
from the tournament's seed, its set and its rotation alone, so a tournament on a cluster gives
the same :meth:`~ginrummy.tournament.TournamentResult.outcome_json` as one in a single process
or with ``jobs`` processes; a task that Ray retries after a lost worker replays the same games.

Every node of a cluster needs the same version of ``ginrummy`` installed: each task reports its
version and a mismatch stops the tournament (:class:`RayVersionMismatchError`).
"""

from __future__ import annotations

import importlib
import os
import socket
import time
from collections.abc import Callable, Sequence
from typing import Any

from . import __version__
from .rules import Rules
from .tournament import (
    GameSummary,
    Lineup,
    TournamentResult,
    pair_batches,
    play_sets,
    sets_for,
    summarise,
)

__all__ = ["run_tournament_ray", "require_ray", "RayUnavailableError", "RayVersionMismatchError",
           "MAX_PAIRS_PER_TASK", "MAX_SETS_PER_TASK"]

#: the most sets one Ray task plays (a task's overhead is about a millisecond; a set of games
#: takes from a few milliseconds to seconds, depending on the players and the form).
MAX_SETS_PER_TASK = 16
MAX_PAIRS_PER_TASK = MAX_SETS_PER_TASK  # the earlier name


class RayUnavailableError(ImportError):
    """Ray is not installed (the ``distributed`` extra)."""


class RayVersionMismatchError(RuntimeError):
    """A Ray worker runs another version of ``ginrummy`` than this process."""


def require_ray() -> Any:
    """The ``ray`` module. :raises RayUnavailableError: Ray is not installed."""
    try:
        ray = importlib.import_module("ray")
    except ImportError as e:
        raise RayUnavailableError(
            "Ray is not installed: install the distributed extra "
            "(pip install 'ginrummy[distributed]')") from e
    return ray


def _task(lineup: Lineup, rules: Rules, seed: int,
          sets: list[int]) -> tuple[str, list[GameSummary]]:
    """One Ray task: this worker's ``ginrummy`` version and the games of ``sets``."""
    return __version__, play_sets(lineup, rules, seed, sets)


#: seconds to wait for a cluster's port to answer before saying it cannot be reached (Ray itself
#: retries for minutes).
CONNECT_TIMEOUT_S = 10.0


def _check_reachable(address: str) -> None:
    """Fail fast when ``host:port`` or ``ray://host:port`` does not answer.

    :raises ConnectionError: nothing listens there (or it did not answer in time).
    """
    rest = address.removeprefix("ray://")
    host, sep, port = rest.rpartition(":")
    if not sep or not port.isdigit() or not host:
        return  # "auto" and other forms Ray resolves itself
    try:
        with socket.create_connection((host.strip("[]"), int(port)), CONNECT_TIMEOUT_S):
            pass
    except OSError as e:
        raise ConnectionError(f"cannot reach the Ray cluster at {address}: "
                              f"{e.strerror or e}") from e


def _start(ray: Any, address: str | None, num_cpus: int | None) -> None:
    """Connect to ``address`` (``None``: Ray's default, ``RAY_ADDRESS`` or else a new local Ray;
    ``"local"``: a new local Ray; ``"auto"``, ``"host:port"``, ``"ray://host:port"``: a cluster)
    or start a local Ray of ``num_cpus`` workers (on ports Ray picks free)."""
    local = address == "local" or (address is None and not os.environ.get("RAY_ADDRESS"))
    kwargs: dict[str, Any] = {"address": address, "include_dashboard": False,
                              "logging_level": "warning"}
    if local:
        kwargs["num_cpus"] = num_cpus
        kwargs["object_store_memory"] = 100 * 1024 * 1024  # results are a few kB per game
    else:
        if num_cpus is not None:
            raise ValueError("num_cpus sets the size of a local Ray; a cluster has its own size")
        _check_reachable(address or os.environ.get("RAY_ADDRESS", ""))
    shown = address or os.environ.get("RAY_ADDRESS") or "local"
    try:
        ray.init(**kwargs)
    except ConnectionError as e:
        cause = e.__cause__
        if cause is not None and type(cause).__name__ == "AuthenticationError":
            raise ConnectionError(
                f"the Ray cluster at {shown} asks for its authentication token: set "
                "RAY_AUTH_MODE=token and RAY_AUTH_TOKEN (or ~/.ray/auth_token) as on the "
                "cluster") from e
        raise ConnectionError(f"cannot reach the Ray cluster at {shown}: {e}") from e


def run_tournament_ray(a: str, b: str, games: int, rules: Rules, seed: int = 0,
                       address: str | None = None, num_cpus: int | None = None,
                       progress: Callable[[int, int], None] | None = None, *,
                       scoring: str = "standard", lineup: Sequence[str] | None = None
                       ) -> TournamentResult:
    """Play the tournament of :func:`~ginrummy.tournament.run_tournament` (same arguments, same
    games, same results but the timings) on Ray: ``a`` against ``b`` in form ``scoring``, or an
    explicit ``lineup``.

    If this process is already connected to Ray (``ray.is_initialized()``), that connection is
    used and left open (``address`` and ``num_cpus`` must then be ``None``). Otherwise Ray is
    started at ``address`` (``None``: ``RAY_ADDRESS`` if set, else a new local Ray with
    ``num_cpus`` workers, all cores by default; ``"auto"``: the cluster this machine belongs
    to; ``"ray://head:10001"``: a remote cluster through Ray Client) and shut down at the end.
    ``progress(done, total)`` is called as batches of games finish.

    :raises ValueError: unknown form or player name, a lineup of the wrong size, ``games`` < 1,
        ``num_cpus`` < 1, or ``num_cpus`` with a cluster address.
    :raises RulesError: the form cannot honour ``rules``.
    :raises RayUnavailableError: Ray is not installed.
    :raises ConnectionError: the cluster at ``address`` cannot be reached.
    :raises RayVersionMismatchError: a worker runs another version of ``ginrummy``.
    """
    from .variants import check_table

    table = Lineup(scoring, tuple(lineup)) if lineup is not None else Lineup.of(scoring, a, b)
    check_table(rules, table.scoring)
    nsets = sets_for(table, games)
    if num_cpus is not None and num_cpus < 1:
        raise ValueError("num_cpus must be at least 1")
    ray = require_ray()
    total = nsets * table.rotations
    t0 = time.perf_counter()
    started = False
    if ray.is_initialized():
        if address is not None or num_cpus is not None:
            raise ValueError("Ray is already initialised in this process: give no address or "
                             "num_cpus")
    else:
        _start(ray, address, num_cpus)
        started = True
    pending: list[Any] = []
    try:
        workers = max(1, int(ray.cluster_resources().get("CPU", 1)))
        batches = pair_batches(nsets, workers, MAX_SETS_PER_TASK)
        task = ray.remote(num_cpus=1)(_task)
        rules_ref = ray.put(rules)
        refs = [task.remote(table, rules_ref, seed, bt) for bt in batches]
        index = {ref: i for i, ref in enumerate(refs)}
        by_batch: dict[int, list[GameSummary]] = {}
        pending = list(refs)
        done = 0
        while pending:
            # whatever finished within a second (one call per second, not one per batch)
            ready, pending = ray.wait(pending, num_returns=len(pending), timeout=1.0)
            for ref, (version, summaries) in zip(ready, ray.get(ready), strict=True):
                if version != __version__:
                    raise RayVersionMismatchError(
                        f"a Ray worker runs ginrummy {version}, this process {__version__}: "
                        "install the same version on every node")
                by_batch[index[ref]] = summaries
                done += len(summaries)
                if progress is not None:
                    progress(done, total)
    finally:
        for ref in pending:  # an error or an interrupt: stop the games still queued
            ray.cancel(ref)
        if started:
            ray.shutdown()
    results: list[GameSummary] = []
    for i in range(len(batches)):
        results.extend(by_batch[i])
    return summarise(table.a, table.b, rules, seed, results, time.perf_counter() - t0, table)
