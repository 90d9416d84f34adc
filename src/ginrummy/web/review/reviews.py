"""Reviews on the web (issue 20, docs/api.md "Review"): the review of a finished game or hand,
and the "try again" exercise of one graded decision, made once by the evaluator
(:mod:`ginrummy.bots.review`) in the review pool (:mod:`ginrummy.web.review.pool`) and stored
(:class:`ginrummy.store.ReviewStore`).

What is reviewed is the game's fairness record as ``GET /api/games/{id}/record`` gives it
(:meth:`~ginrummy.web.tables.service.TableService.record`: same ownership, every finished deal
in full, nothing of a deal in play), of every form: two players (any preset: Oklahoma,
straight), Hollywood, three players and partnership, against the computer or at tables of
people. The evaluator judges each decision from its seat's view alone (a partnership's other
table's deal in play is not in the record; its result is valued as a distribution) and seeds
its search from the deal's revealed salt: the web layer decides nothing of it. A hand is a
deal, numbered as the record numbers them (a partnership hand's two deals are two numbers).

A request finds the review stored (answered at once), or being made (by this process or
another: its progress), or starts it: this process claims it in the store (of processes asking
at once, one claims it; the others wait for the stored one) and queues it in its pool. A pool
that is full refuses (:class:`Busy`). A claim whose process stopped is taken over after
:data:`STALE` seconds without a heartbeat; a job that failed is not retried for
:data:`FAILED_KEPT` seconds.
"""

from __future__ import annotations

import contextlib
import json
import logging
import os
import secrets
import threading
import time
from collections.abc import Callable
from concurrent.futures import CancelledError
from dataclasses import dataclass
from typing import Any

from ...actions import Action
from ...bots.review import DealInput, ReviewBudget, position_at, read_record
from ...bots.review.position import candidate_moves, same_move
from ...cards import card_text
from ...errors import IllegalActionError, InvalidNotationError
from ...hand import HandState
from ...replay import seat_hand
from ...store import FINISHED, ReviewStore, Store
from ...views import PlayerView, view_of
from ..http.errors import BadRequest, Illegal, NotFound, Unavailable
from ..tables.engine import YOU
from ..tables.service import TableService
from ..tables.stored import Seated
from . import jobs as review_jobs
from .pool import ReviewPool
from .practice import OwnGame, practice_list
from .ratings import review_ratings

__all__ = ["ReviewSettings", "Reviews", "Ready", "Pending", "Busy", "Failed", "STALE",
           "FAILED_KEPT", "position_json"]

log = logging.getLogger("ginrummy.web")

#: seconds without a heartbeat after which another process takes a review's making over
STALE = 60.0
#: seconds between two heartbeats (and progress writes) of this process's reviews
HEARTBEAT = 5.0
#: seconds a failed review is answered 500 before it is tried again
FAILED_KEPT = 60.0


@dataclass(frozen=True)
class ReviewSettings:
    """The review pool and search: ``workers`` (processes, or threads with
    ``processes=False``), ``queue`` (jobs waiting at most), ``worlds`` (the evaluator's sampled
    worlds per decision), ``confirm`` (play-outs that grade again each decision the search
    grades a mistake or a blunder, 0: none) and ``judge`` (who plays them) as in
    :class:`~ginrummy.bots.review.ReviewBudget`, ``nice`` (how much lower the workers' CPU
    priority is)."""

    workers: int = max(1, (os.cpu_count() or 1) // 2)
    queue: int = 16
    worlds: int = ReviewBudget().worlds
    processes: bool = True
    nice: int = 10
    confirm: int = 32
    judge: str = ReviewBudget().judge

    def __post_init__(self) -> None:
        ReviewBudget(self.worlds, self.confirm, self.judge)  # ValueError if out of bounds
        if not 1 <= self.workers <= 64 or not 0 <= self.queue <= 10_000:
            raise ValueError("reviews: workers 1 to 64, queue 0 to 10000")

    @property
    def budget(self) -> ReviewBudget:
        """The evaluator's budget. :raises ValueError: as :class:`ReviewBudget`."""
        return ReviewBudget(self.worlds, self.confirm, self.judge)

    @property
    def tag(self) -> str:
        """What tells reviews made with this budget from others in the store: ``/w192c32``
        (``/w192`` without play-outs; ``-hard`` after a judge other than the default)."""
        tag = f"/w{self.worlds}"
        if self.confirm:
            tag += f"c{self.confirm}"
            if self.judge != ReviewBudget().judge:
                tag += f"-{self.judge}"
        return tag

    @classmethod
    def from_env(cls, text: str | None = None) -> ReviewSettings:
        """From ``$GINRUMMY_REVIEWS`` (or ``text``): ``key=value`` pairs separated by commas,
        keys ``workers``, ``queue``, ``worlds``, ``nice``, ``confirm`` (whole numbers),
        ``processes`` (``on``/``off``) and ``judge`` (a name), e.g. ``workers=2,queue=32``;
        unset: the defaults.

        :raises ValueError: an unknown key or a bad value.
        """
        raw = os.environ.get("GINRUMMY_REVIEWS", "") if text is None else text
        values: dict[str, Any] = {}
        for part in filter(None, (p.strip() for p in raw.split(","))):
            key, _, value = part.partition("=")
            key, value = key.strip(), value.strip()
            if key == "processes":
                if value not in ("on", "off"):
                    raise ValueError(f"GINRUMMY_REVIEWS: processes=on or off, not {value!r}")
                values[key] = value == "on"
            elif key == "judge":
                values[key] = value
            elif key in ("workers", "queue", "worlds", "nice", "confirm"):
                try:
                    values[key] = int(value)
                except ValueError:
                    raise ValueError(f"GINRUMMY_REVIEWS: {key} must be a whole number, not "
                                     f"{value!r}") from None
            else:
                raise ValueError(f"GINRUMMY_REVIEWS: unknown setting {key!r} (workers, queue, "
                                 "worlds, processes, nice, confirm, judge)")
        try:
            return cls(**values)
        except ValueError as e:
            raise ValueError(f"GINRUMMY_REVIEWS: {e}") from None


@dataclass(frozen=True)
class Pending:
    """A review being made: ``state`` ``queued`` or ``running``, ``done`` of ``total`` steps
    (the actions of the deals reviewed)."""

    state: str
    done: int
    total: int

    def to_json(self) -> dict[str, Any]:
        return {"status": self.state, "progress": {"done": self.done, "total": self.total}}


@dataclass(frozen=True)
class Ready:
    """A review made: its JSON text; ``checking``: the search's review while its mistakes are
    still being checked by play-outs (the checked review's progress), None when final."""

    data: str
    checking: Pending | None = None


class Busy(Unavailable):
    """The review pool is full: 503 ``busy``, ``seconds`` to wait (``Retry-After``)."""

    def __init__(self, seconds: int) -> None:
        self.seconds = seconds
        super().__init__(503, "busy", "review_busy", seconds=seconds)


class Failed(Unavailable):
    """The review failed (a bug, logged): 500 ``review_failed``, tried again later."""

    def __init__(self) -> None:
        super().__init__(500, "review_failed", "review_failed")


@dataclass(frozen=True)
class _Source:
    """What a review is made from: the asker's seat (its player number at a table of three
    or four), the game's status and fairness record, and who asks (for the players' ratings,
    :func:`~ginrummy.web.review.ratings.review_ratings`)."""

    seat: int
    status: str
    record: dict[str, Any]
    seated: Seated


class Reviews:
    """The reviews of the games of ``service`` (its store), made in a pool of ``settings``.
    Thread-safe; :meth:`close` stops the pool."""

    def __init__(self, service: TableService, store: Store, settings: ReviewSettings) -> None:
        self.service = service
        self.settings = settings
        self.stored = ReviewStore(store.engine, store.writing)
        self.engine = store.engine
        self.pool = ReviewPool(settings.workers, settings.queue,
                               processes=settings.processes, nice=settings.nice)
        self.owner = secrets.token_hex(8)  # this process, as the store's claims name it
        # reentrant: a job that ends at once has its end handled inside submit (the future's
        # callback runs in the thread that adds it to a future already done)
        self._lock = threading.RLock()
        self._failed: dict[str, float] = {}
        self._scopes: dict[str, tuple[str, str]] = {}  # job id -> (game id, scope)
        self._stop = threading.Event()
        self._beat: threading.Thread | None = None

    # ------------------------------------------------------------------------- requests
    def game(self, game_id: str, token: str | None) -> tuple[int, Ready | Pending]:
        """The review of the whole game, once it is over (or resigned): ``(seat, review)``,
        every player of the table reviewed.

        :raises NotFound: no such game, or not this token's.
        :raises Unavailable: 409 ``not_started``, ``game_in_play``; 503 :class:`Busy`; 500
            :class:`Failed`.
        """
        src = self._source(game_id, token)
        if src.status not in FINISHED:
            raise Unavailable(409, "game_in_play", "review_game_in_play")
        total = sum(len(h["actions"]) for h in src.record["hands"])
        return src.seat, self._staged(game_id, "game", total,
                                      lambda: (src.record, None, self._ratings(game_id, src)))

    def hand(self, game_id: str, token: str | None, number: int
             ) -> tuple[int, Ready | Pending]:
        """The review of finished hand (deal) ``number``: ``(seat, review)``, its two players
        reviewed (at a table of three, the one who sat it out is not in it).

        :raises NotFound: no such game, or not this token's; 404 ``no_hand``.
        :raises Unavailable: as :meth:`game`, and 409 ``hand_in_play`` for the deal in play.
        """
        src = self._source(game_id, token)
        finished = self._finished_hand(src, number)
        return src.seat, self._staged(game_id, f"hand/{number}", len(finished["actions"]),
                                      lambda: (src.record, [number],
                                               self._ratings(game_id, src)))

    def exercise(self, game_id: str, token: str | None, number: int, step: int
                 ) -> dict[str, Any]:
        """Try again: the position before the decision at ``step`` (1-based, as the review's
        ``step``) of finished hand ``number``, as its seat saw it (no hidden card). Starts the
        grading of its moves (so that the answer is ready sooner) when the pool has room.

        :raises NotFound: as :meth:`hand`, and 404 ``no_decision`` (no real choice there).
        :raises Unavailable: as :meth:`hand`.
        """
        return self._exercise(game_id, self._source(game_id, token), number, step)

    def _exercise(self, game_id: str, src: _Source, number: int, step: int) -> dict[str, Any]:
        deal, h, view = self._position(src, number, step)
        with contextlib.suppress(Busy, Failed):  # the position is answered all the same
            self._exercise_values(game_id, src, number, step)
        return {"game_id": game_id, "you": src.seat, "hand": number, "step": step,
                "position": position_json(h, view, deal)}

    def answer(self, game_id: str, token: str | None, number: int, step: int, text: str
               ) -> tuple[int, Ready | Pending]:
        """How move ``text`` compares at the decision of :meth:`exercise`: the decision graded
        as if it had been played (``Ready`` holds its JSON text), or its grading's progress.

        :raises BadRequest: 422 ``invalid`` (a move that cannot be read) or ``illegal`` (not
            legal there: the engine's reason).
        :raises NotFound: as :meth:`exercise`.
        :raises Unavailable: as :meth:`exercise`, 503 :class:`Busy`, 500 :class:`Failed`.
        """
        return self._answer(game_id, self._source(game_id, token), number, step, text)

    def _answer(self, game_id: str, src: _Source, number: int, step: int, text: str
                ) -> tuple[int, Ready | Pending]:
        deal, h, view = self._position(src, number, step)
        try:
            action = Action.parse(text)
        except InvalidNotationError as e:
            raise BadRequest.of("invalid", e) from None
        except ValueError as e:
            raise BadRequest("invalid", "other", text=str(e)) from None
        try:
            h.verify(action)
        except IllegalActionError as e:
            raise Illegal.because(e) from None
        got = self._exercise_values(game_id, src, number, step)
        if isinstance(got, Pending):
            return src.seat, got
        moves = json.loads(got.data)["moves"]
        chosen = next((m for m in moves
                       if same_move(Action.parse(m["played"]["action"]), action)), None)
        if chosen is None:  # pragma: no cover - every legal move is graded
            log.error("exercise %s/%s of game %s: a legal move was not graded", number, step,
                      game_id)
            raise Failed
        played = self._finished_hand(src, number)["actions"][step - 1]
        if same_move(Action.parse(played), action):
            chosen = self._reviewed_decision(game_id, number, step) or chosen
        return src.seat, Ready(review_jobs.dumps(
            {"game_id": game_id, "you": src.seat, "hand": number, "step": step,
             "seat": deal.players[view.seat], "played": played, "tried": chosen}))

    # ------------------------------------------------------------------------ practice
    def practice(self, player_id: str | None) -> dict[str, Any]:
        """The mistakes and blunders of the browser ``player_id`` (its ``ginrummy_player``
        cookie) to practise, from the reviews made of its own games
        (:func:`~ginrummy.web.review.practice.practice_list`); none without a browser id."""
        games = self._own_games(player_id)
        made = self.stored.made([g.game_id for g in games], self.settings.tag)
        return practice_list(games, made)

    def practice_exercise(self, game_id: str, player_id: str | None, number: int, step: int
                          ) -> dict[str, Any]:
        """:meth:`exercise` for the browser ``player_id`` (a seat it holds at ``game_id``, as
        its statistics count it) in place of the game's token: the practice list's positions
        open where the browser keeps no token (a game over is forgotten by the page).

        :raises NotFound: not a game of this browser; as :meth:`exercise`.
        :raises Unavailable: as :meth:`exercise`.
        """
        return self._exercise(game_id, self._player_source(game_id, player_id), number, step)

    def practice_answer(self, game_id: str, player_id: str | None, number: int, step: int,
                        text: str) -> tuple[int, Ready | Pending]:
        """:meth:`answer` for the browser ``player_id`` (as :meth:`practice_exercise`)."""
        return self._answer(game_id, self._player_source(game_id, player_id), number, step,
                            text)

    def _own_games(self, player_id: str | None) -> list[OwnGame]:
        """The browser's games, each with the seat it held (those its statistics count)."""
        if not player_id:
            return []
        reads = self.service.statistics
        created = reads.player_games(player_id)
        joined = reads.joined_games(player_id)
        kinds = self.service.vstore.scorings([g.id for g in created]
                                             + [g.game_id for g in joined])
        return ([OwnGame(g.id, YOU, g.finished_at or g.created_at,
                         kinds.get(g.id, "standard"), g.preset) for g in created]
                + [OwnGame(g.game_id, g.seat, g.finished_at or g.created_at,
                           kinds.get(g.game_id, "standard"), g.preset) for g in joined])

    # ---------------------------------------------------------------------- the sources
    def _source(self, game_id: str, token: str | None) -> _Source:
        seated = self.service.records.authorize(game_id, token)
        record = self.service.record(game_id, token)
        return _Source(seated.seat, seated.row.status, record, seated)

    def _player_source(self, game_id: str, player_id: str | None) -> _Source:
        seated, record = self.service.player_record(game_id, player_id)
        return _Source(seated.seat, seated.row.status, record, seated)

    def _ratings(self, game_id: str, src: _Source) -> tuple[float | None, ...] | None:
        """The players' ratings the review of ``game_id`` values its chances with."""
        return review_ratings(self.engine, game_id, src.seated, src.record)

    @staticmethod
    def _finished_hand(src: _Source, number: int) -> dict[str, Any]:
        """The record of finished hand ``number``."""
        for h in src.record["hands"]:
            if h["number"] == number:
                return dict(h)
        current = src.record.get("current")
        playing = current if isinstance(current, list) else [current] if current else []
        if any(c.get("number") == number for c in playing):
            raise Unavailable(409, "hand_in_play", "review_hand_in_play", number=number)
        raise Unavailable(404, "not_found", "no_hand", number=number)

    def _position(self, src: _Source, number: int, step: int
                  ) -> tuple[DealInput, HandState, PlayerView]:
        """Finished hand ``number``, the deal before its action at ``step`` (server side) and
        its mover's view, if that mover had a real choice.

        :raises Unavailable: as :meth:`_finished_hand`; 404 ``no_decision``."""
        actions = self._finished_hand(src, number)["actions"]
        if not 1 <= step <= len(actions):
            raise Unavailable(404, "not_found", "no_decision", step=step)
        deal = review_jobs.deal_of(read_record(src.record), number)
        h = position_at(deal, step - 1)
        view = view_of(h, h.current)
        if len(candidate_moves(view)) < 2:
            raise Unavailable(404, "not_found", "no_decision", step=step)
        return deal, h, view

    def _exercise_values(self, game_id: str, src: _Source, number: int, step: int
                         ) -> Ready | Pending:
        """Every move of the decision graded by the search alone (no play-outs: a move tried
        is answered in about a second; the move played in the game is answered as the checked
        review graded it, :meth:`_reviewed_decision`)."""
        return self._obtain(game_id, f"exercise/{number}/{step}/w{self.settings.worlds}", 1,
                            review_jobs.exercise_job,
                            lambda: (src.record, number, step - 1,
                                     self._ratings(game_id, src)), confirm=0)

    def _reviewed_decision(self, game_id: str, number: int, step: int
                           ) -> dict[str, Any] | None:
        """The decision at ``step`` of hand ``number`` as the stored review made with the
        settings' budget (the hand's, else the game's) graded it; None when neither is made
        (or it has no such decision)."""
        for what in (f"hand/{number}", "game"):
            row = self.stored.get(game_id, self._scope(what))
            if row is None or row.data is None:
                continue
            for hand in json.loads(row.data)["hands"]:
                if hand["hand"] != number:
                    continue
                for d in hand["decisions"]:
                    if d["step"] == step:
                        return dict(d)
        return None

    def _scope(self, what: str) -> str:
        return f"{what}{self.settings.tag}"

    def _staged(self, game_id: str, what: str, total: int,
                args: Callable[[], tuple[Any, ...]]) -> Ready | Pending:
        """The review ``what`` (``game`` or ``hand/N``) in two stages when the settings check
        the search's mistakes by play-outs: the search's review first (made in about a second:
        :class:`Ready` with ``checking``, the checked review's progress), then the checked one
        (:class:`Ready`, final), each made once and stored under its own budget's tag. A
        checked review that cannot start now (the pool full) or failed leaves the search's in
        the answer, ``checking`` queued (asked again, it starts when there is room).

        :raises Busy, Failed, NotFound: as :meth:`_obtain`, for the search's review.
        """
        scope = self._scope(what)
        if not self.settings.confirm:
            return self._obtain(game_id, scope, total, review_jobs.review_job, args)
        row = self.stored.get(game_id, scope)
        if row is not None and row.data is not None:
            return Ready(row.data)
        first = self._obtain(game_id, f"{what}/w{self.settings.worlds}", total,
                             review_jobs.review_job, args, confirm=0)
        try:
            later = self._obtain(game_id, scope, total, review_jobs.review_job, args)
        except (Busy, Failed):
            later = Pending("queued", 0, total)
        if isinstance(later, Ready):
            return later
        if isinstance(first, Ready):
            return Ready(first.data, later)
        return first

    # -------------------------------------------------------------------- made once
    def _obtain(self, game_id: str, scope: str, total: int, fn: Any,
                args: Callable[[], tuple[Any, ...]], confirm: int | None = None
                ) -> Ready | Pending:
        """The review ``scope`` of ``game_id``: stored, being made, or started now (``fn``
        called on ``args()``, read only then, and the search's worlds, play-outs and judge;
        ``confirm``: other play-outs than the settings')."""
        row = self.stored.get(game_id, scope)
        if row is not None and row.data is not None:
            return Ready(row.data)
        job_id = f"{game_id}/{scope}"
        with self._lock:
            job = self.pool.job(job_id)
            if job is not None:
                return Pending(job.state, job.done, job.total or total)
            failed = self._failed.get(job_id)
            now = time.time()
            if failed is not None:
                if now - failed < FAILED_KEPT:
                    raise Failed
                del self._failed[job_id]
            if row is not None and row.owner != self.owner and row.heartbeat >= now - STALE:
                return _pending(row.done, row.total)  # another process makes it
            if not self.pool.has_room():
                raise Busy(self.pool.wait_seconds())
            try:
                claimed = self.stored.claim(game_id, scope, self.owner, total, now - STALE)
            except LookupError:
                raise NotFound from None
            if not claimed:  # another process got there first, or finished meanwhile
                row = self.stored.get(game_id, scope)
                if row is not None and row.data is not None:
                    return Ready(row.data)
                return _pending(0 if row is None else row.done,
                                total if row is None else row.total)
            self._scopes[job_id] = (game_id, scope)
            try:
                made_of = args()
            except BaseException:
                del self._scopes[job_id]
                self.stored.release(game_id, scope, self.owner)
                raise
            playouts = self.settings.confirm if confirm is None else confirm
            # the search alone (a second or so) before the play-outs checking a review (tens
            # of seconds): a person's first look does not wait behind others' checks
            if not self.pool.submit(job_id, fn, (*made_of, self.settings.worlds, playouts,
                                                 self.settings.judge),
                                    lambda result, error: self._done(job_id, result, error),
                                    priority=1 if playouts else 0):
                del self._scopes[job_id]
                self.stored.release(game_id, scope, self.owner)
                raise Busy(self.pool.wait_seconds())
            self._start_heartbeat()
            return Pending("queued", 0, total)

    def _done(self, job_id: str, result: Any, error: BaseException | None) -> None:
        """A job ended (in a thread of the pool's): store its review, or give up its claim."""
        with self._lock:
            game_id, scope = self._scopes.pop(job_id)
        if error is None and isinstance(result, str):
            self.stored.finish(game_id, scope, result)
            log.info("review %s of game %s made", scope, game_id)
            return
        if isinstance(error, CancelledError) or self._stop.is_set():
            # the server stops (a job waiting cancelled, or a running one's worker stopped by
            # ReviewPool.close): not a failure; the next ask starts it again
            log.info("review %s of game %s stopped with the server", scope, game_id)
            self.stored.release(game_id, scope, self.owner)
            return
        # the exception's type only: its text may name cards (it goes to the log)
        log.error("review %s of game %s failed: %s", scope, game_id, type(error).__name__)
        with self._lock:
            self._failed[job_id] = time.time()
        self.stored.release(game_id, scope, self.owner)

    # ---------------------------------------------------------------------- heartbeat
    def _start_heartbeat(self) -> None:
        if self._beat is None:  # under self._lock
            self._beat = threading.Thread(target=self._beating, daemon=True,
                                          name="ginrummy-review-heartbeat")
            self._beat.start()

    def _beating(self) -> None:
        """Keep this process's claims alive and their progress stored (other processes read
        it), every :data:`HEARTBEAT` seconds while it has any."""
        while not self._stop.wait(HEARTBEAT):
            with self._lock:
                mine = dict(self._scopes)
            if not mine:
                continue
            progress = {}
            for job_id, key in mine.items():
                job = self.pool.job(job_id)
                if job is not None and job.state == "running":
                    progress[key] = (job.done, job.total)
            try:
                self.stored.touch(self.owner, progress)
            except Exception as e:  # the database is busy or down: next time
                log.warning("reviews' heartbeat not stored: %s", type(e).__name__)

    def close(self) -> None:
        """Stop the heartbeat and the pool (waiting jobs are cancelled, their claims given
        up; running ones are waited for a few seconds: :meth:`ReviewPool.close`)."""
        self._stop.set()
        self.pool.close()
        if self._beat is not None:
            self._beat.join(timeout=10)


def _pending(done: int, total: int) -> Pending:
    return Pending("running" if done > 0 else "queued", done, total)


def position_json(h: HandState, view: PlayerView, deal: DealInput) -> dict[str, Any]:
    """The position of an exercise as its seat saw it: from ``view`` only (the seat's own cards
    arranged as the replay shows them, :func:`ginrummy.replay.seat_hand`), so no card hidden
    from the seat (the other hand beyond what it took face up, the stock) is in it; and the
    score before the deal (public, as on the score sheet).

    Seats are the deal's engine seats 0 and 1, as in the replay (``seat``, ``dealer``,
    ``history``, ``score.points``); ``players`` names the player at each (a table of three or
    four; two players: ``[0, 1]``)."""
    hand = seat_hand(h, view.seat)
    assert hand.cards == view.hand  # the seat's own cards, nothing else of ``h``
    texts = card_text  # card ints as texts
    return {
        "seat": view.seat, "players": list(deal.players), "dealer": view.dealer,
        "phase": view.phase.value,
        "hand": hand.to_json(),
        "opponent": {"cards": view.opponent_card_count,
                     "known": view.opponent_known.texts()},
        "discard_pile": [texts(c) for c in view.discard_pile],
        "stock_count": view.stock_count, "upcard": texts(view.upcard),
        "knock_limit": view.knock_limit,
        "taken_card": None if view.taken_card is None else texts(view.taken_card),
        "drawn_card": None if view.drawn_card is None else texts(view.drawn_card),
        "history": [{"seat": e.seat, "type": e.kind.value,
                     "card": None if e.card is None else texts(e.card)} for e in view.history],
        "moves": [{"action": m.text, "type": m.kind.value,
                   "card": None if m.card is None else texts(m.card)}
                  for m in candidate_moves(view)],
        "score": {"points": list(deal.hand_points or (0, 0)), "target": deal.target},
    }
