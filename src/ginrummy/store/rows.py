"""The store's rows as Python values: one dataclass per kind of row (a game, a deal, a table of
people, a seat, a quick message, a score keeper sheet, a review), the conversions of a result
row to them, and which texts can be an id (:func:`storable_id`). Imports nothing else of the store.

The tables themselves are in :mod:`ginrummy.store.schema`.
"""

from __future__ import annotations

import json
import re
import time
from dataclasses import dataclass, field
from typing import Any

__all__ = ["GameRow", "DealRow", "TableRow", "SeatRow", "MessageRow", "SheetRow", "ReviewRow",
           "storable_id",
           "seats_text", "seats_of_text", "game_row", "deal_row", "Prefixed", "sheet_json"]

_STORABLE_ID = re.compile(r"[A-Za-z0-9_-]{1,64}")


def storable_id(text_: object) -> bool:
    """True when ``text_`` can be an id of a stored game or sheet (1-64 characters of
    ``A-Z a-z 0-9 _ -``): any other text names nothing, and is never sent to the database (a
    NUL, for one, is an error in PostgreSQL).

    >>> storable_id("abcDEF_-12"), storable_id("a\\x00"), storable_id("x" * 65)
    (True, False, False)
    """
    return isinstance(text_, str) and _STORABLE_ID.fullmatch(text_) is not None


@dataclass
class GameRow:
    """One game's row (``games``): the rules, the computer's level, the first dealer, the
    secret that seeds the computer's random source (never sent anywhere), a SHA-256 of the
    owner's token (never the token), the creating browser's player id, the person's hand
    order as kept before schema 8 (since, each seat's is in ``seats.hand_order``), the
    sequence number and the last accepted ``(action, seq)`` (duplicate detection: the action
    marked with its seat, ``"1:discard 7h"``), its status and result; times in seconds since
    the epoch."""

    id: str
    token_hash: str
    player_id: str | None
    level: str
    preset: str
    rules: dict[str, Any]
    first_dealer: int
    secret: str
    seq: int
    last_action: str | None = None
    last_action_seq: int | None = None
    hand_order: dict[str, Any] | None = None
    status: str = "playing"
    winner: int | None = None
    margin: int | None = None
    created_at: float = field(default_factory=time.time)
    updated_at: float = field(default_factory=time.time)
    finished_at: float | None = None
    turns: str | None = None
    #: the seats that won (a partnership: both partners'), once over; ``()``: nobody
    winner_seats: tuple[int, ...] | None = None


@dataclass
class DealRow:
    """One deal: deck (card texts, deal order), salt, commitment, actions (texts), result.

    ``finished``, ``result_winner`` and ``result_knocker`` are seat 0's side (0: seat 0, 1:
    its opponent; ``finished`` only on the deals seat 0 plays); ``players`` (the seats at the
    deal's engine seats 0 and 1), ``winner_seat`` and ``knocker_seat`` are seats, for every
    deal; ``result_kind`` and ``result_points`` are set once the deal is over."""

    number: int
    dealer: int
    deck: list[str]
    salt: str
    commitment: str
    actions: list[str] = field(default_factory=list)
    finished: bool = False
    result_kind: str | None = None
    result_winner: int | None = None
    result_knocker: int | None = None
    result_points: int | None = None
    players: tuple[int, int] | None = None
    winner_seat: int | None = None
    knocker_seat: int | None = None
    #: when the deal's current turn began, seconds since the epoch (its last action, or its
    #: dealing); ``None`` in deals stored before schema 5
    turn_at: float | None = None
    #: the indices (in ``actions``) of the actions a computer played for a person's seat (its
    #: person away with the seat handed to it, or the turn clock run out): issue 21 item 12
    auto: list[int] = field(default_factory=list)


@dataclass
class SeatRow:
    """One seat (see :mod:`ginrummy.store.tables`)."""

    seat: int
    kind: str
    level: str | None = None
    name: str | None = None
    token_hash: str | None = None
    connected_until: float = 0.0
    left: bool = False
    computer_for_away: bool = False
    hand_order: dict[str, Any] | None = None
    player_id: str | None = None


@dataclass
class TableRow:
    """One table (see :mod:`ginrummy.store.tables`) with its seats, in seat order. Every game
    has one; a game against the computer is a table with one person and no invite
    (:attr:`shared` false)."""

    game_id: str
    status: str
    creator_seat: int = 0
    invite_hash: str | None = None
    turn_clock: int | None = None
    rematch_id: str | None = None
    version: int = 0
    created_at: float = field(default_factory=time.time)
    seats: list[SeatRow] = field(default_factory=list)

    @property
    def shared(self) -> bool:
        """Whether people may be invited to the table: it has an invite code (a table of
        people, docs/tables.md). A table without one is a person's game against the computer,
        which nobody else may join or see (docs/api.md: its state has no ``table``, ``seats``
        nor ``messages``)."""
        return self.invite_hash is not None


@dataclass(frozen=True)
class MessageRow:
    """A quick message: the seat that sent it, its code, the table's ``seq`` then, the time."""

    seat: int
    message: str
    seq_at: int
    at: float


@dataclass
class SheetRow:
    """One score keeper sheet: ``data`` is its input (see :mod:`ginrummy.keeper`), hands
    included; ``seq`` counts its changes (optimistic concurrency)."""

    id: str
    token_hash: str
    player_id: str | None
    data: dict[str, Any]
    seq: int = 0
    created_at: float = field(default_factory=time.time)
    updated_at: float = field(default_factory=time.time)


@dataclass(frozen=True)
class ReviewRow:
    """One stored review (see :mod:`ginrummy.store.reviews`): ``status`` ``making`` (claimed
    by ``owner``, ``done`` of ``total`` steps so far, alive at ``heartbeat``) or ``done`` with
    ``data``, its JSON text."""

    game_id: str
    scope: str
    status: str
    owner: str | None
    done: int
    total: int
    heartbeat: float
    data: str | None


def seats_text(seats: tuple[int, ...] | None) -> str | None:
    """``(1, 3)`` -> ``"1,3"`` (``None`` stays ``None``)."""
    return None if seats is None else ",".join(str(s) for s in seats)


def seats_of_text(text_: str | None) -> tuple[int, ...] | None:
    """``"1,3"`` -> ``(1, 3)``; ``""`` -> ``()``; ``None`` stays ``None``."""
    if text_ is None:
        return None
    return tuple(int(s) for s in text_.split(",") if s)


def game_row(r: Any) -> GameRow:
    """The :class:`GameRow` of a result row of ``games``' columns (by name: ``r.id``)."""
    return GameRow(
        id=r.id, token_hash=r.token_hash, player_id=r.player_id, level=r.level, preset=r.preset,
        rules=json.loads(r.rules), first_dealer=r.first_dealer, secret=r.secret, seq=r.seq,
        last_action=r.last_action, last_action_seq=r.last_action_seq,
        hand_order=None if r.hand_order is None else json.loads(r.hand_order), status=r.status,
        winner=r.winner, margin=r.margin, created_at=r.created_at, updated_at=r.updated_at,
        finished_at=r.finished_at, turns=r.turns, winner_seats=seats_of_text(r.winner_seats),
    )


def deal_row(r: Any) -> DealRow:
    """The :class:`DealRow` of a result row of ``deals``' columns (by name)."""
    return DealRow(
        number=r.number, dealer=r.dealer, deck=r.deck.split(), salt=r.salt,
        commitment=r.commitment, actions=[a for a in r.actions.split("\n") if a],
        finished=bool(r.finished), result_kind=r.result_kind, result_winner=r.result_winner,
        result_knocker=r.result_knocker, result_points=r.result_points,
        players=_pair(seats_of_text(r.players)), winner_seat=r.winner_seat,
        knocker_seat=r.knocker_seat, turn_at=r.turn_at,
        auto=[int(x) for x in (r.auto or "").split() if x.isdigit()],
    )


def _pair(seats: tuple[int, ...] | None) -> tuple[int, int] | None:
    return (seats[0], seats[1]) if seats is not None and len(seats) == 2 else None


class Prefixed:
    """The ``prefix``-named columns of a result row, by their names without the prefix (the
    rows of a join whose second table's columns are labelled ``d_number``, ``t_status``...)."""

    __slots__ = ("_row", "_prefix")

    def __init__(self, row: Any, prefix: str) -> None:
        self._row = row
        self._prefix = prefix

    def __getattr__(self, name: str) -> Any:
        return getattr(self._row, self._prefix + name)


def sheet_json(value: Any) -> str:
    """Compact JSON of a sheet's heading or hand, as stored.

    :raises ValueError: a text in ``value`` is not valid Unicode (a lone surrogate): raised
        before anything is written, so that whatever is stored can be answered.
    """
    text = json.dumps(value, ensure_ascii=False, separators=(",", ":"))
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        raise ValueError("a sheet keeps only valid Unicode text") from None
    return text
