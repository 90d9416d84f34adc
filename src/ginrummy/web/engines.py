"""The engine side of a table, behind one small interface: :class:`TableEngine`.

The one table service (:mod:`ginrummy.web.service`) holds the flow of every request; what differs
between a standard game (a :class:`~ginrummy.game.Game`, two seats) and the other scorings (a
:class:`~ginrummy.web.variants.Match`: Hollywood, three players, partnership) is here: how a hand
is dealt, which deals are in play and who moves in each, what a seat sees (the ``state`` JSON of
:mod:`ginrummy.web.state` or :mod:`ginrummy.web.variant_state`), and how deals are stored.

Seats are players: 0..n-1 (docs/tables.md). Which seats are people and which computers is the
service's business: the engines take an ``is_computer(seat)`` predicate and a ``move(index)``
callback that plays one computer move in deal ``index``.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable, Sequence
from typing import Any

from ..actions import Action
from ..cards import parse_card
from ..errors import IllegalActionError
from ..fairness import FORMAT
from ..game import Game
from ..hand import HandState
from ..rules import Rules
from ..store import DealRow
from .errors import Illegal
from .state import DealInfo, build_state, deal_event_count, game_seq
from .variant_state import build_variant_state, public_result, variant_seq
from .variants import PERSON, Match

__all__ = ["TableEngine", "StandardEngine", "MatchEngine", "replay_engine", "MAX_COMPUTER_MOVES"]

#: the most computer moves in a row before the server gives up (a deal has far fewer).
MAX_COMPUTER_MOVES = 400

IsComputer = Callable[[int], bool]
Move = Callable[[int], None]
NewDeck = Callable[[int], list[int]]


def _play(to_move: Callable[[], bool], move: Callable[[], None]) -> None:
    """``move()`` while ``to_move()``."""
    moves = 0
    while to_move():
        move()
        moves += 1
        if moves > MAX_COMPUTER_MOVES:  # pragma: no cover - defensive
            raise RuntimeError("the computers do not finish the deal")


class TableEngine(ABC):
    """One table's engine state. ``index``: a deal's position (0-based) in the table's deals;
    ``seat``: a player (0..players-1)."""

    scoring: str
    players: int

    @abstractmethod
    def seq(self) -> int:
        """The table's sequence number: how many events it has had."""

    @abstractmethod
    def deals(self) -> list[HandState]:
        """Every deal so far, in order (server side: they hold hidden cards)."""

    @abstractmethod
    def deal_hand(self, new_deck: NewDeck, cut: Callable[[], int]) -> None:
        """Deal the next hand: ``new_deck(number)`` gives deal ``number``'s deck, ``cut()`` a
        dealer seat 0 or 1 where a new pair cuts for the deal (R-2.1)."""

    @abstractmethod
    def deal_row(self, index: int, info: DealInfo, deck: list[str]) -> DealRow:
        """Deal ``index`` as stored (results from seat 0's side: statistics)."""

    @abstractmethod
    def result(self) -> tuple[int | None, int | None] | None:
        """``(winner, margin)`` from seat 0's side (0: seat 0 or its team won) once the game
        is over, else ``None``."""

    @abstractmethod
    def winner_seats(self) -> tuple[int, ...] | None:
        """The seats that won the game (partnership: both partners; ``()``: a tie) once it is
        over, else ``None``."""

    @abstractmethod
    def hand_number(self, seat: int) -> int:
        """The number of ``seat``'s deal in play (the one a hand order is kept for)."""

    @abstractmethod
    def state(self, seat: int, since: int | None, *, game_id: str, deals: Sequence[DealInfo],
              level: str, preset: str, hand_order: Sequence[str] | None) -> dict[str, Any]:
        """The ``state`` JSON for ``seat`` with the events after ``since`` (``None``: those of
        its deal in play)."""

    @abstractmethod
    def check_next_hand(self) -> int:
        """The index of the first deal to save when the next hand is dealt.

        :raises Illegal: a deal is still in play."""

    @abstractmethod
    def seat_hand(self, seat: int) -> tuple[HandState, int]:
        """The deal where ``seat`` is to move now, and its index.

        :raises Illegal: ``seat`` is not to move (``reason`` says why)."""

    @abstractmethod
    def mover(self, index: int) -> int | None:
        """The seat to move in deal ``index``, or ``None`` when it is over."""

    @abstractmethod
    def in_play(self) -> list[int]:
        """The deals in play."""

    @abstractmethod
    def deal_players(self, index: int) -> tuple[int, int]:
        """The seats playing deal ``index`` (at its engine seats 0 and 1)."""

    @abstractmethod
    def card_counts(self) -> dict[int, int]:
        """How many cards each seat holds in the current hand's deal it plays (public: R-2.2
        deals ten each, and every draw and discard is seen): ``{seat: count}``; a seat that
        sits this hand out (three players) is absent. ``{}`` before the first deal."""

    @abstractmethod
    def apply(self, index: int, action: Action) -> None:
        """Apply a verified action to deal ``index``."""

    @abstractmethod
    def score_of(self, index: int) -> tuple[tuple[int, int], int]:
        """The points toward the target of deal ``index``'s two engine seats, and the
        target."""

    @abstractmethod
    def numbered_deals(self, seat: int) -> list[tuple[int, HandState, dict[str, Any]]]:
        """Every deal so far: ``(number, deal, placement)``; ``placement`` is ``{"scoring",
        "hand", "table", "players", "you"}`` (who sat at the deal's two engine seats; ``you``:
        ``seat``'s engine seat, or None)."""

    @abstractmethod
    def record(self, game_id: str, preset: str, first_dealer: int, infos: Sequence[DealInfo],
               decks: Sequence[list[str]]) -> dict[str, Any]:
        """The fairness record: finished deals in full, only the commitment of a deal in
        play."""

    @abstractmethod
    def advance(self, is_computer: IsComputer, move: Move) -> None:
        """Let the computers move while it is their turn."""

    @abstractmethod
    def computer_waiting(self, is_computer: IsComputer) -> int | None:
        """The index of the first deal to save if a computer is to move (after a failure, or a
        seat handed to a computer), else ``None``."""

    def deal_number(self, index: int) -> int:
        return index + 1

    def extend(self, deal_rows: Sequence[DealRow], index: int = 0) -> None:
        """Continue this engine with the stored deals from deal ``index`` on (``deal_rows[0]``
        is deal ``index``): a deal it has already gets the actions it lacks, the deals after
        are dealt and played, in the order a replay of the whole record takes (each deal's
        actions before the next deal). ``extend(rows)`` on a new engine is the replay of the
        whole record (:func:`replay_engine`); a later ``index`` catches a cached engine up
        with what another process saved.

        :raises ValueError: (:class:`~ginrummy.errors.GinRummyError` included) the rows do not
            continue this engine (another deck, dealer or actions; an illegal action; a deal
            missing). The engine may then be half extended: drop it.
        """
        deals = self.deals()
        for k, d in enumerate(deal_rows):
            i = index + k
            deck = tuple(parse_card(c) for c in d.deck)
            if i < len(deals):
                h = deals[i]
                done = [e.action.text for e in h.history]
                if tuple(h.deck) != deck or list(d.actions[:len(done)]) != done:
                    raise ValueError(f"deal {i + 1} is not this engine's")
                rest = d.actions[len(done):]
            elif i == len(deals):
                self._deal_stored(deck, d.dealer)
                rest = d.actions
            else:
                raise ValueError(f"deal {len(deals) + 1} is missing")
            for a in rest:
                self._apply_stored(i, Action.parse(a))

    @abstractmethod
    def _deal_stored(self, deck: tuple[int, ...], dealer: int) -> None:
        """Deal the next deal from a stored deck with its stored dealer (:meth:`extend`)."""

    @abstractmethod
    def _apply_stored(self, index: int, action: Action) -> None:
        """Apply a stored action to deal ``index`` (:meth:`extend`; nothing else kept: a
        partnership's order of turns is stored with the game)."""


class StandardEngine(TableEngine):
    """A standard two-seat game (:class:`~ginrummy.game.Game`)."""

    scoring = "standard"
    players = 2

    def __init__(self, game: Game) -> None:
        self.game = game

    def seq(self) -> int:
        return game_seq(self.game)

    def deals(self) -> list[HandState]:
        return self.game.deals

    def deal_hand(self, new_deck: NewDeck, cut: Callable[[], int]) -> None:
        self.game.new_hand(new_deck(len(self.game.deals) + 1))

    def _deal_stored(self, deck: tuple[int, ...], dealer: int) -> None:
        self.game.new_hand(deck)  # the game knows its dealer (GameRecord.replay's steps)

    def _apply_stored(self, index: int, action: Action) -> None:
        self.game.apply(action)

    def deal_row(self, index: int, info: DealInfo, deck: list[str]) -> DealRow:
        h = self.game.deals[index]
        d = DealRow(info.number, h.dealer, deck, info.salt, info.commitment,
                    [e.action.text for e in h.history], h.is_over, players=(0, 1))
        if h.outcome is not None:
            d.result_kind = h.outcome.kind
            d.result_winner = d.winner_seat = h.outcome.winner
            d.result_knocker = d.knocker_seat = h.outcome.knocker
            d.result_points = h.outcome.points
        return d

    def result(self) -> tuple[int | None, int | None] | None:
        g = self.game
        return (g.winner, g.final().margin) if g.is_over else None

    def winner_seats(self) -> tuple[int, ...] | None:
        g = self.game
        if not g.is_over:
            return None
        return () if g.winner is None else (g.winner,)

    def hand_number(self, seat: int) -> int:
        return len(self.game.deals)

    def state(self, seat: int, since: int | None, *, game_id: str, deals: Sequence[DealInfo],
              level: str, preset: str, hand_order: Sequence[str] | None) -> dict[str, Any]:
        g = self.game
        if since is None:  # the events of the deal in play (its end included)
            since = self.seq() - deal_event_count(g, len(g.deals) - 1)
        return build_state(game_id=game_id, game=g, deals=deals, level=level, preset=preset,
                           since=since, hand_order=hand_order, seat=seat)

    def check_next_hand(self) -> int:
        g = self.game
        if g.current is not None and not g.current.is_over:
            raise Illegal("hand_not_over")
        return len(g.deals) - 1

    def seat_hand(self, seat: int) -> tuple[HandState, int]:
        h = self.game.current
        if h is None or h.is_over:
            raise Illegal("hand_over")
        if h.current != seat:
            raise Illegal("not_your_turn")
        return h, len(self.game.deals) - 1

    def mover(self, index: int) -> int | None:
        h = self.game.deals[index]
        return None if h.is_over else h.current

    def in_play(self) -> list[int]:
        h = self.game.current
        return [] if h is None or h.is_over else [len(self.game.deals) - 1]

    def deal_players(self, index: int) -> tuple[int, int]:
        return (0, 1)

    def card_counts(self) -> dict[int, int]:
        if not self.game.deals:
            return {}
        h = self.game.deals[-1]
        return {0: len(h.hand(0)), 1: len(h.hand(1))}

    def apply(self, index: int, action: Action) -> None:
        if index != len(self.game.deals) - 1:
            raise IllegalActionError("that deal is over")
        self.game.apply(action)

    def score_of(self, index: int) -> tuple[tuple[int, int], int]:
        g = self.game
        return (g.hand_points[0], g.hand_points[1]), g.rules.target

    def numbered_deals(self, seat: int) -> list[tuple[int, HandState, dict[str, Any]]]:
        return [(n, h, {"scoring": "standard", "hand": n, "table": 0, "players": [0, 1],
                        "you": seat})
                for n, h in enumerate(self.game.deals, 1)]

    def record(self, game_id: str, preset: str, first_dealer: int, infos: Sequence[DealInfo],
               decks: Sequence[list[str]]) -> dict[str, Any]:
        g = self.game
        hands = []
        current = None
        for i, h in enumerate(g.deals):
            info = infos[i]
            if not h.is_over:
                current = {"number": info.number, "dealer": h.dealer,
                           "commitment": info.commitment}
                continue
            o = h.outcome
            assert o is not None
            hands.append({"number": info.number, "dealer": h.dealer, "deck": decks[i],
                          "salt": info.salt, "commitment": info.commitment,
                          "actions": [e.action.text for e in h.history],
                          "result": {"kind": o.kind, "winner": o.winner, "points": o.points}})
        return {"format": FORMAT, "game_id": game_id,
                "rules": {"preset": preset, **g.rules.to_dict()},
                "first_dealer": g.first_dealer, "hands": hands, "current": current}

    def advance(self, is_computer: IsComputer, move: Move) -> None:
        g = self.game

        def to_move() -> bool:
            h = g.current
            return h is not None and not h.is_over and is_computer(h.current)

        _play(to_move, lambda: move(len(g.deals) - 1))

    def computer_waiting(self, is_computer: IsComputer) -> int | None:
        h = self.game.current
        if h is not None and not h.is_over and is_computer(h.current):
            return len(self.game.deals) - 1
        return None


class MatchEngine(TableEngine):
    """Hollywood, three players or partnership (:class:`~ginrummy.web.variants.Match`).

    ``turns`` (partnership with people at both tables, else ``None``): the table (``"0"`` or
    ``"1"``) of every action of the match in order, which numbers both tables' events in the
    order they happened (:func:`ginrummy.web.variant_state.event_order`); both tables then
    proceed as their movers act. Without it the other table is played by computers that keep
    pace with table 0 and finish with it (as when one person plays the computers).
    """

    def __init__(self, match: Match, turns: list[str] | None = None) -> None:
        self.match = match
        self.scoring = match.scoring
        self.players = match.players
        self.turns = turns if match.scoring == "partnership" else None

    def _turns(self) -> str | None:
        return None if self.turns is None else "".join(self.turns)

    def seq(self) -> int:
        return variant_seq(self.match, self._turns())

    def deals(self) -> list[HandState]:
        return self.match.deals

    def deal_hand(self, new_deck: NewDeck, cut: Callable[[], int]) -> None:
        m = self.match
        for _hand, _table, _players, dealer in m.next_plan():
            deck = new_deck(len(m.deals) + 1)
            m.add_deal(deck, cut() if dealer is None else dealer)

    def _deal_stored(self, deck: tuple[int, ...], dealer: int) -> None:
        self.match.add_deal(list(deck), dealer)

    def _apply_stored(self, index: int, action: Action) -> None:
        self.match.apply(index, action)

    def deal_row(self, index: int, info: DealInfo, deck: list[str]) -> DealRow:
        m = self.match
        h = m.deals[index]
        s = m.seatings[index]
        mine = s.plays(PERSON)
        d = DealRow(info.number, h.dealer, deck, info.salt, info.commitment,
                    [e.action.text for e in h.history], h.is_over and mine,
                    players=s.players)
        o = h.outcome
        if o is not None:
            d.result_kind = o.kind
            d.result_points = o.points
            d.winner_seat = None if o.winner is None else s.players[o.winner]
            d.knocker_seat = None if o.knocker is None else s.players[o.knocker]
        if mine and o is not None:
            rel = {s.seat_of(PERSON): 0}
            d.result_winner = None if o.winner is None else rel.get(o.winner, 1)
            d.result_knocker = None if o.knocker is None else rel.get(o.knocker, 1)
        return d

    def result(self) -> tuple[int | None, int | None] | None:
        m = self.match
        return m.person_result() if m.is_over else None

    def winner_seats(self) -> tuple[int, ...] | None:
        m = self.match
        return m.winner_players() if m.is_over else None

    def hand_number(self, seat: int) -> int:
        m = self.match
        return m.seatings[m.shown_index(seat)].number

    def state(self, seat: int, since: int | None, *, game_id: str, deals: Sequence[DealInfo],
              level: str, preset: str, hand_order: Sequence[str] | None) -> dict[str, Any]:
        return build_variant_state(game_id=game_id, match=self.match, deals=deals, level=level,
                                   preset=preset, since=since, hand_order=hand_order, seat=seat,
                                   turns=self._turns())

    def check_next_hand(self) -> int:
        m = self.match
        if not m.hand_over():
            raise Illegal("hand_not_over")
        return len(m.deals)

    def seat_hand(self, seat: int) -> tuple[HandState, int]:
        m = self.match
        i = m.shown_index(seat)
        h = m.deals[i]
        s = m.seatings[i]
        if not s.plays(seat):
            raise Illegal("sitting_out")
        if h.is_over:
            raise Illegal("hand_over")
        if s.players[h.current] != seat:
            raise Illegal("not_your_turn")
        return h, i

    def mover(self, index: int) -> int | None:
        h = self.match.deals[index]
        return None if h.is_over else self.match.seatings[index].players[h.current]

    def in_play(self) -> list[int]:
        return self.match.in_play()

    def deal_players(self, index: int) -> tuple[int, int]:
        return self.match.seatings[index].players

    def card_counts(self) -> dict[int, int]:
        m = self.match
        if not m.deals:
            return {}
        hand = m.seatings[-1].hand
        out: dict[int, int] = {}
        for h, s in zip(m.deals, m.seatings, strict=True):
            if s.hand == hand:  # partnership: both tables' deals of the hand
                out.update({p: len(h.hand(i)) for i, p in enumerate(s.players)})
        return out

    def apply(self, index: int, action: Action) -> None:
        self.match.apply(index, action)
        if self.turns is not None:
            self.turns.append(str(self.match.seatings[index].table))

    def score_of(self, index: int) -> tuple[tuple[int, int], int]:
        m = self.match
        players = m.seatings[index].players
        return (m.points_of(players[0]), m.points_of(players[1])), m.rules.target

    def deal_number(self, index: int) -> int:
        return self.match.seatings[index].number

    def numbered_deals(self, seat: int) -> list[tuple[int, HandState, dict[str, Any]]]:
        m = self.match
        return [(s.number, h, {"scoring": m.scoring, "hand": s.hand, "table": s.table,
                               "players": list(s.players), "you": s.seat_of(seat)})
                for s, h in zip(m.seatings, m.deals, strict=True)]

    def record(self, game_id: str, preset: str, first_dealer: int, infos: Sequence[DealInfo],
               decks: Sequence[list[str]]) -> dict[str, Any]:
        m = self.match
        hands = []
        current = []
        for i, h in enumerate(m.deals):
            s = m.seatings[i]
            info = infos[i]
            base = {"number": s.number, "hand": s.hand, "table": s.table,
                    "players": list(s.players), "dealer": h.dealer,
                    "commitment": info.commitment}
            if not h.is_over:
                current.append(base)
                continue
            o = h.outcome
            assert o is not None
            res = public_result(m, i) or {}
            hands.append({**base, "deck": decks[i], "salt": info.salt,
                          "actions": [e.action.text for e in h.history],
                          "result": {"kind": o.kind, "winner": o.winner, "points": o.points,
                                     "winner_player": res.get("winner")}})
        return {"format": FORMAT, "game_id": game_id,
                "scoring": m.scoring, "rules": {"preset": preset, **m.rules.to_dict()},
                "first_dealer": first_dealer, "hands": hands, "current": current or None}

    def _run(self, index: int, is_computer: IsComputer, move: Move,
             keep_up_with: int | None = None) -> None:
        h = self.match.deals[index]
        s = self.match.seatings[index]

        def to_move() -> bool:
            if h.is_over or not is_computer(s.players[h.current]):
                return False
            return keep_up_with is None or len(h.history) < keep_up_with

        _play(to_move, lambda: move(index))

    def advance(self, is_computer: IsComputer, move: Move) -> None:
        """Computers move while it is their turn. Partnership without ``turns``: table 0 up to
        a person's turn; the other table (computers) keeps pace and finishes with table 0's
        deal."""
        m = self.match
        if m.scoring != "partnership" or self.turns is not None:
            for i in m.in_play():
                self._run(i, is_computer, move)
            return
        i = m.shown_index()
        self._run(i, is_computer, move)
        j = m.other_index()
        if j is not None:
            mine = m.deals[i]
            self._run(j, lambda _p: True, move,
                      keep_up_with=None if mine.is_over else len(mine.history))

    def computer_waiting(self, is_computer: IsComputer) -> int | None:
        m = self.match
        if m.scoring == "partnership" and self.turns is None:  # the other table keeps pace
            i = m.shown_index()
            p = self.mover(i)
            return i if p is not None and is_computer(p) else None
        for i in m.in_play():
            p = self.mover(i)
            if p is not None and is_computer(p):
                return i
        return None


def replay_engine(scoring: str | None, rules: Rules, first_dealer: int,
                  deal_rows: Sequence[DealRow], turns: list[str] | None) -> TableEngine:
    """A table's engine rebuilt from its stored deals (``scoring`` None: standard)."""
    engine: TableEngine
    if scoring in (None, "standard"):
        engine = StandardEngine(Game(rules, first_dealer))
    else:
        engine = MatchEngine(Match(scoring, rules, first_dealer), turns)
    engine.extend(deal_rows)
    return engine
