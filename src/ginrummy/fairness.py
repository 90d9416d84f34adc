"""Provable fairness of the deal: commit to each deck before the hand, reveal it after.

The server shuffles each deal with the operating system's cryptographic randomness
(:class:`secrets.SystemRandom`), draws a fresh 16-byte salt, and publishes

    commitment = SHA-256 hex of "<salt hex>:<deck>"

where ``<deck>`` is the 52 canonical card texts (``"7H"``, ``"TS"``, ``"AC"``) in deal order,
separated by single spaces (``deck[0]`` is the non-dealer's first card, ``deck[20]`` the upcard,
``deck[21]`` the top of the stock: R-2.2, R-2.3). After the hand the salt and the deck are
revealed; anyone can recompute the hash (``printf '%s' "<salt>:<deck>" | sha256sum``) and replay
the hand's actions on that deck. See docs/fairness.md.

Pure standard library plus the engine; no web imports.

>>> deck = [card_text(c) for c in range(52)]
>>> salt = "00" * 16
>>> c = commitment_of(salt, deck)
>>> verify_deal(c, salt, deck), verify_deal(c, salt, deck[::-1])
(True, False)
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from .actions import Action
from .cards import card_text, parse_card
from .errors import GinRummyError
from .game import DealPlan, Game, Seating
from .hand import HandState
from .records import GameRecord
from .rules import Rules
from .sheets import (
    HollywoodSheet,
    PartnershipSheet,
    StandardSheet,
    ThreePlayerSheet,
    partnership_pairings,
)
from .variants import SCORINGS

__all__ = [
    "FORMAT", "SALT_BYTES", "DealCheck", "FairnessReport", "commitment_of", "deck_text", "new_salt",
    "replay_check", "shuffled_deck", "standing", "verify_deal",
]

#: the ``format`` of a published fairness record (``GET /api/games/{id}/record``).
FORMAT = "ginrummy-fairness/1"
#: bytes of salt per deal (hex text: 32 characters).
SALT_BYTES = 16


def new_salt() -> str:
    """A fresh salt from the OS's cryptographic randomness, as 32 lowercase hex characters."""
    return secrets.token_hex(SALT_BYTES)


def shuffled_deck() -> list[int]:
    """The 52 card ints in a uniformly random order, shuffled with :class:`secrets.SystemRandom`
    (never the global ``random``)."""
    deck = list(range(52))
    secrets.SystemRandom().shuffle(deck)
    return deck


def _canonical(deck: str | Iterable[int | str]) -> list[str]:
    items: Iterable[int | str] = deck.split() if isinstance(deck, str) else deck
    out = []
    for c in items:
        if isinstance(c, bool):
            raise GinRummyError(f"not a card: {c!r}")
        if isinstance(c, int):
            if not 0 <= c < 52:
                raise GinRummyError(f"not a card: {c!r}")
            out.append(card_text(c))
        elif isinstance(c, str):
            out.append(card_text(parse_card(c)))
        else:
            raise GinRummyError(f"not a card: {c!r}")
    return out


def deck_text(deck: str | Iterable[int | str]) -> str:
    """The committed text of a deck: canonical card texts in deal order, one space between.

    :raises GinRummyError: a card that cannot be read.

    >>> deck_text(["7h", "10S", 0])
    '7H TS AS'
    """
    return " ".join(_canonical(deck))


def commitment_of(salt: str, deck: str | Iterable[int | str]) -> str:
    """SHA-256 hex of ``"<salt>:<deck text>"`` (ASCII), the published commitment of a deal."""
    return hashlib.sha256(f"{salt}:{deck_text(deck)}".encode("ascii")).hexdigest()


def verify_deal(commitment: str, salt: str, deck: str | Iterable[int | str]) -> bool:
    """True when ``deck`` is a full 52-card deck and ``salt`` + ``deck`` hash to
    ``commitment``. Never raises: malformed input is simply not verified (False).

    ``deck`` is a list of card texts (or ints) in deal order, or the same as one string.
    """
    try:
        cards = _canonical(deck)
        if len(cards) != 52 or len(set(cards)) != 52:
            return False
        if not isinstance(salt, str) or not isinstance(commitment, str):
            return False
        digest = hashlib.sha256(f"{salt}:{' '.join(cards)}".encode("ascii")).hexdigest()
        want = commitment.strip().lower().encode("ascii")  # (compare_digest takes ASCII only)
    except (GinRummyError, UnicodeEncodeError, TypeError):
        return False
    return hmac.compare_digest(digest.encode("ascii"), want)


# ---------------------------------------------------------------------------------- replay


@dataclass
class DealCheck:
    """The check of one deal: ``hand`` is its number in the game (1-based, the record's
    ``number``); ``problems`` empty = fine.

    At a table replayed whole (a game record) the replay also says who played the deal:
    ``seating`` (:class:`~ginrummy.game.Seating`: the table's hand and table, the players at
    engine seats 0 and 1, the player who dealt), ``sat_out`` (the players who did not play it:
    the three-player dealer, the other partnership table's pair) and ``winner`` (the player
    who won it; ``None`` for a dead hand, a tie or a deal not replayed).
    """

    hand: int
    commitment_ok: bool | None  # None: nothing to check (no salt/deck published for it)
    replay_ok: bool | None  # None: not replayed (a lone reveal has no actions)
    problems: list[str] = field(default_factory=list)
    seating: Seating | None = None
    sat_out: tuple[int, ...] = ()
    winner: int | None = None

    @property
    def ok(self) -> bool:
        return not self.problems and self.commitment_ok is not False \
            and self.replay_ok is not False

    def to_json(self) -> dict[str, Any]:
        """``{"number", "ok", "commitment_ok", "replay_ok", "problems"}``, and once replayed at
        a table ``"hand"``, ``"table"``, ``"players"``, ``"dealer"`` (a player), ``"sat_out"``
        and ``"winner"`` (a player or null)."""
        out: dict[str, Any] = {"number": self.hand, "ok": self.ok,
                               "commitment_ok": self.commitment_ok, "replay_ok": self.replay_ok,
                               "problems": list(self.problems)}
        s = self.seating
        if s is not None:
            out.update({"hand": s.hand, "table": s.table, "players": list(s.players),
                        "dealer": s.dealer, "sat_out": list(self.sat_out),
                        "winner": self.winner})
        return out


@dataclass
class FairnessReport:
    """What :func:`replay_check` found. ``ok`` is True when every check passed.

    ``scoring`` and ``sheet`` are set when a game record was replayed as a table
    (:func:`standing`: the score sheet after the deals that replayed).
    """

    deals: list[DealCheck] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)
    #: the input is not a record at all (``problems`` says why): nothing could be checked
    malformed: bool = False
    scoring: str | None = None
    sheet: dict[str, Any] | None = None

    @property
    def ok(self) -> bool:
        return not self.problems and bool(self.deals) and all(d.ok for d in self.deals)

    def lines(self) -> list[str]:
        """One human-readable line per deal, then any general problem."""
        out = []
        for d in self.deals:
            parts = []
            if d.commitment_ok is not None:
                parts.append("commitment " + ("verified" if d.commitment_ok else "MISMATCH"))
            if d.replay_ok is not None:
                parts.append("replay " + ("legal" if d.replay_ok else "FAILED"))
            line = f"hand {d.hand}{_seated(self.scoring, d)}: " + (", ".join(parts)
                                                                   or "nothing to check")
            if d.problems:
                line += " (" + "; ".join(d.problems) + ")"
            out.append(line)
        out.extend(self.problems)
        if not self.deals and not self.problems:
            out.append("no revealed deal to check")
        return out

    def summary(self) -> list[str]:
        """The score sheet after the replay, in words (``[]`` when no table was replayed)."""
        return [] if self.sheet is None else [str(self.sheet["text"])]

    def to_json(self) -> dict[str, Any]:
        """``{"ok", "lines", "deals": [DealCheck.to_json()...], "scoring", "sheet"}``."""
        return {"ok": self.ok, "lines": self.lines(), "deals": [d.to_json() for d in self.deals],
                "scoring": self.scoring, "sheet": self.sheet}

    def __str__(self) -> str:
        return "\n".join(self.lines() + self.summary())


def _seated(scoring: str | None, d: DealCheck) -> str:
    """Who played deal ``d``, for its line (tables of more than two players only)."""
    s = d.seating
    if s is None or scoring not in ("three_player", "partnership"):
        return ""
    a, b = s.players
    if scoring == "three_player":
        return f" (players {a} and {b}; player {s.dealer} dealt and sat out)"
    return f" (hand {s.hand}, table {s.table}: players {a} and {b}; player {s.dealer} dealt)"


def _malformed(problem: str) -> FairnessReport:
    return FairnessReport(problems=[problem], malformed=True)


def _commitment(check: DealCheck, reveal: Mapping[str, Any]) -> None:
    """Verify a deal's commitment into ``check``, naming what is missing or malformed."""
    missing = [k for k in ("commitment", "salt", "deck") if reveal.get(k) is None]
    if missing:
        check.commitment_ok = False
        check.problems.append(" and ".join(missing) + (" is" if len(missing) == 1 else " are")
                              + " missing")
        return
    deck = reveal["deck"]
    if not isinstance(deck, (list, str)):
        check.commitment_ok = False
        check.problems.append("the deck must be a list of 52 cards")
        return
    check.commitment_ok = verify_deal(reveal["commitment"], reveal["salt"], deck)
    if not check.commitment_ok:
        check.problems.append("the salt and deck do not hash to the commitment")


def _deck_cards(deck: object) -> list[int]:
    """A revealed deck as card ints. :raises GinRummyError: not a list of card texts or ints."""
    if not isinstance(deck, list):
        raise GinRummyError("the deck must be a list of 52 cards")
    return [parse_card(c) if isinstance(c, str) else c for c in deck]


def _actions(h: Mapping[str, Any]) -> list[str]:
    """A deal's recorded actions. :raises GinRummyError: not a list of action texts."""
    actions = h.get("actions", [])
    if not isinstance(actions, list) or not all(isinstance(a, str) for a in actions):
        raise GinRummyError("the actions must be a list of action texts")
    return actions


def _check_reveal(number: int, reveal: Mapping[str, Any]) -> DealCheck:
    check = DealCheck(number, None, None)
    _commitment(check, reveal)
    return check


# ------------------------------------------------------------------------- a whole table


class _Stop(Exception):
    """A deal that cannot be replayed: the later deals are not replayed either."""


#: what a malformed deal raises on its way through the engine
_REPLAY_ERRORS = (GinRummyError, TypeError, ValueError, AttributeError, KeyError, IndexError)


def _who(plan: DealPlan, seat: int) -> str:
    return f"seat {seat} (player {plan.players[seat]})"


def _seating_problems(game: Game, plan: DealPlan, h: Mapping[str, Any], index: int) -> list[str]:
    """What a deal's recorded seating (``hand``, ``table``, ``players``: each optional) gets
    wrong against the deal the game deals next (3P, 4P)."""
    bad = []
    for key, want in (("hand", plan.hand), ("table", plan.table)):
        if key in h and h[key] != want:
            bad.append(f"recorded as {key} {h[key]!r}, but deal {index} of the table is "
                       f"{key} {want}")
    if "players" in h and h["players"] != list(plan.players):
        a, b = plan.players
        if game.scoring == "three_player":
            why = f"player {game.dealer} deals and sits out, the other two in player order (3P)"
        elif game.scoring == "partnership":
            one, two = partnership_pairings(plan.hand)
            why = f"hand {plan.hand}'s tables are players {list(one)} and {list(two)} (4P)"
        else:
            why = "two players"
        bad.append(f"seated players {h['players']!r}, but the rules seat {list(plan.players)} "
                   f"({why})")
    return bad


def _dealer_of(game: Game, plan: DealPlan, h: Mapping[str, Any], bad: list[str]) -> int:
    """The dealer seat to deal with: the rules' (a recorded one that differs is a problem in
    ``bad``), or the recorded cut where the pair cuts for the deal (4P, R-2.1).

    :raises _Stop: no usable cut recorded."""
    rec = h.get("dealer")
    if plan.dealer is None:
        if rec not in (0, 1) or isinstance(rec, bool):
            raise _Stop(f"the pair {_pair(plan)} cuts for the deal (R-2.1): the record must "
                        f"name the dealer, seat 0 or 1 of the pair, not {rec!r}")
        return int(rec)
    if "dealer" in h and rec != plan.dealer:
        if game.scoring == "three_player":
            bad.append(f"dealt by seat {rec}, but player {game.dealer} deals this hand and sits "
                       f"out, so the rules make {_who(plan, plan.dealer)}, on the dealer's "
                       "right, the dealer seat (3P: the loser of the last scored hand deals)")
        else:
            bad.append(f"dealt by seat {rec}, but the rules make seat {plan.dealer} the dealer "
                       "(R-9.1, R-9.2)")
    return plan.dealer


def _pair(plan: DealPlan) -> str:
    return f"of players {plan.players[0]} and {plan.players[1]}"


def _play(state: HandState, actions: list[str], apply: Callable[[Action], None]) -> None:
    """Apply the recorded actions. :raises _Stop: naming the first one that is illegal."""
    for k, text in enumerate(actions, 1):
        try:
            apply(Action.parse(text))
        except GinRummyError as e:
            raise _Stop(f"action {k} ({text!r}) is not legal: {e}") from None


def _result_problems(h: Mapping[str, Any], state: HandState,
                     players: tuple[int, int]) -> list[str]:
    """What the recorded ``result`` (optional keys ``kind``, ``winner`` (seat), ``points``,
    ``winner_player``) gets wrong against the replay."""
    want = h.get("result")
    o = state.outcome
    if not isinstance(want, Mapping) or o is None:
        return []
    got = {"kind": o.kind, "winner": o.winner, "points": o.points,
           "winner_player": None if o.winner is None else players[o.winner]}
    return [f"recorded {k} {want[k]!r}, replay gives {v!r}"
            for k, v in got.items() if k in want and want[k] != v]


def _other_table_alone(game: Game, plan: DealPlan, h: Mapping[str, Any],
                       check: DealCheck) -> list[str]:
    """A partnership hand's table 1 deal, over while its table 0 deal is still in play (the
    record's ``current``): replayed on its own (the sheet waits for both tables)."""
    bad = _seating_problems(game, plan, h, len(game.deals) + 2)
    dealer = _dealer_of(game, plan, h, bad)
    state = HandState(game.rules, dealer, _deck_cards(h.get("deck")))
    _play(state, _actions(h), state.apply)
    check.seating = Seating(len(game.deals) + 2, plan.hand, plan.table, plan.players,
                            plan.players[dealer])
    check.sat_out = tuple(p for p in range(4) if p not in plan.players)
    if not state.is_over:
        bad.append("the hand did not end")
    else:
        o = state.outcome
        assert o is not None
        check.winner = None if o.winner is None else plan.players[o.winner]
        bad += _result_problems(h, state, plan.players)
    return bad


def _in_play(record: Mapping[str, Any]) -> list[Mapping[str, Any]]:
    """The record's deals in play (``current``: one object, a list, or null)."""
    cur = record.get("current")
    if isinstance(cur, Mapping):
        return [cur]
    if isinstance(cur, list):
        return [c for c in cur if isinstance(c, Mapping)]
    return []


def _replay_deal(game: Game, h: Mapping[str, Any], i: int, after: int,
                 published: bool, check: DealCheck) -> list[str]:
    """Deal record entry ``h`` (the table's deal ``i``, ``after`` more entries to come) on
    ``game`` and play its actions.

    :returns: the problems found (the replay goes on).
    :raises _Stop: the deal cannot be replayed (the later ones will not be either).
    """
    plans = game.next_deals()
    if not plans:
        if game.is_over:
            raise _Stop(f"dealt after the end of the game (it ended with deal {len(game.deals)})")
        raise _Stop(f"dealt while deal {game.in_play()[0] + 1} was still in play")
    plan = plans[0]
    bad = _seating_problems(game, plan, h, i)
    dealer = _dealer_of(game, plan, h, bad)
    index = len(game.deals)
    state = game.new_hand(_deck_cards(h.get("deck")), dealer)
    s = game.seatings[index]
    check.seating, check.sat_out = s, game.sitting_out(index)
    _play(state, _actions(h), lambda a: game.apply(a, index))
    if not state.is_over:
        # a deal in play may end an engine record (a partnership's two tables: the first may
        # be followed by the second); a published record lists finished deals only
        partner = game.scoring == "partnership" and s.table == 0
        if published or "commitment" in h or after > (1 if partner else 0):
            bad.append("the hand did not end")
    else:
        check.winner = game.winner_of(index)
        bad += _result_problems(h, state, s.players)
    return bad


def _check_in_play(game: Game, record: Mapping[str, Any]) -> list[str]:
    """The deals the record says are in play (``current``), against the deals the game deals
    next: number, seating, dealer (or a cut that is a seat of the pair)."""
    out: list[str] = []
    current = _in_play(record)
    if not current:
        return out
    plans = game.next_deals()
    if game.is_over:
        return [f"deal {c.get('number')!r} is in play after the end of the game" for c in current]
    for k, c in enumerate(current):
        n = len(game.deals) + 1 + k
        if k >= len(plans):
            out.append(f"deal {c.get('number')!r} in play: the table deals no more deals now")
            continue
        bad: list[str] = []
        if "number" in c and c["number"] != n:
            bad.append(f"numbered {c['number']!r}, but it is deal {n} of the game")
        bad += _seating_problems(game, plans[k], c, n)
        try:
            _dealer_of(game, plans[k], c, bad)
        except _Stop as e:
            bad.append(str(e))
        out += [f"deal {n} in play: {b}" for b in bad]
    return out


def standing(game: Game) -> dict[str, Any]:
    """The score sheet of ``game`` as JSON plus one line of text (``"text"``).

    Keys: ``scoring``, ``hands`` (hands scored), ``over``, ``winners`` (players), ``sides``
    (the players of each side), ``hand_points`` and ``boxes`` (per side; Hollywood: per game,
    per seat), ``totals`` (per side, R-10.5: zeros until settled; three players: hand points
    + boxes x box bonus + game bonus; Hollywood: summed over the closed games), ``margin`` (the
    winner's, once over), ``text``.
    """
    sh = game.sheet
    sides = [list(s) for s in sh.sides]
    totals = list(sh.totals())
    winners = list(game.winners())
    out: dict[str, Any] = {"scoring": game.scoring, "over": game.is_over, "winners": winners,
                           "sides": sides, "totals": totals, "margin": game.margin()}
    if isinstance(sh, HollywoodSheet):
        out["hands"] = len(sh.hands)
        out["hand_points"] = [list(g.hand_points) for g in sh.games]
        out["boxes"] = [list(g.boxes) for g in sh.games]
        games = []
        for k, g in enumerate(sh.games, 1):
            line = f"game {k} {g.hand_points[0]}-{g.hand_points[1]}"
            if g.winner is not None:
                line += f" (closed after hand {g.closed_at}, won by seat {g.winner})"
            games.append(line)
        text = ", ".join(games)
    elif isinstance(sh, ThreePlayerSheet):
        out["hands"] = len(sh.hands)
        out["hand_points"], out["boxes"] = list(sh.hand_points), list(sh.boxes)
        text = (f"hand points {'/'.join(map(str, sh.hand_points))}, boxes "
                f"{'/'.join(map(str, sh.boxes))} (players 0/1/2)")
    else:
        tally = sh.game if isinstance(sh, PartnershipSheet) else sh
        assert isinstance(tally, StandardSheet)
        out["hands"] = len(tally.hands)
        out["hand_points"], out["boxes"] = list(tally.hand_points), list(tally.boxes)
        text = (f"hand points {tally.hand_points[0]}-{tally.hand_points[1]}, boxes "
                f"{tally.boxes[0]}-{tally.boxes[1]}")
        if isinstance(sh, PartnershipSheet):
            text = "teams (players 0+2, 1+3): " + text
    who = {"three_player": "player", "partnership": "team"}.get(game.scoring, "seat")
    sep = "/" if len(totals) > 2 else "-"
    if not game.is_over:
        end = "in play"
    elif not winners:
        end = f"over, a tie at {totals[0]}-{totals[1]}"
    else:
        side = game.side_of(winners[0])
        end = (f"over: {who} {side} wins, totals {sep.join(map(str, totals))}, "
               f"margin {game.margin()}")
    out["text"] = f"sheet after {out['hands']} hands: {text}; {end}"
    return out


def _check_totals(record: Mapping[str, Any], game: Game) -> list[str]:
    """A record's own ``totals`` (per side) and ``winners`` (players), if it carries them,
    against the replayed sheet."""
    out = []
    for key, got in (("totals", list(game.sheet.totals())), ("winners", list(game.winners()))):
        if key in record and record[key] != got:
            out.append(f"recorded {key} {record[key]!r}, the replayed sheet gives {got!r}")
    return out


def _replay_game(record: Mapping[str, Any]) -> FairnessReport:
    """A game record of any form, replayed as a whole table on :class:`~ginrummy.game.Game`."""
    scoring = record.get("scoring") or "standard"
    try:
        if scoring not in SCORINGS:
            raise GinRummyError(f"unknown scoring {scoring!r}; scorings: {', '.join(SCORINGS)}")
        rules = Rules.from_dict(record.get("rules"))
        first_dealer = record.get("first_dealer", 0 if scoring == "partnership" else None)
        game = Game(rules, first_dealer, scoring)  # Game checks the first dealer
    except GinRummyError as e:
        return _malformed(f"cannot start the game: {e}")
    hands = record.get("hands")
    if not isinstance(hands, list):
        return _malformed("the record has no list of hands")
    report = FairnessReport(scoring=scoring)
    published = record.get("format") == FORMAT
    waiting = _in_play(record)
    broken = alone = False
    for i, h in enumerate(hands, 1):
        if not isinstance(h, Mapping):
            report.deals.append(DealCheck(i, None, False, ["not an object"]))
            broken = True
            continue
        # partnership: table 1's deal may be over while table 0's is in play (``current``)
        plans = [] if broken or alone else game.next_deals()
        other = (len(plans) == 2 and h.get("table") == 1
                 and h.get("hand", plans[1].hand) == plans[1].hand
                 and any(c.get("table") == 0 for c in waiting))
        number = h.get("number", i)
        check = DealCheck(number, None, None)
        report.deals.append(check)
        if number != i + other:  # the game's deals, in the order they were dealt
            check.problems.append(f"numbered {number!r}, but it is deal {i + other} of the "
                                  "game")
        if published or "salt" in h or "commitment" in h:
            _commitment(check, h)
        if broken:
            check.problems.append("not replayed: an earlier hand failed")
            continue
        bad: list[str] = []
        try:
            if alone:
                raise _Stop("dealt while the other table of its hand was in play")
            if other:
                bad = _other_table_alone(game, plans[1], h, check)
                alone = True
            else:
                bad = _replay_deal(game, h, i, len(hands) - i, published, check)
        except (_Stop, *_REPLAY_ERRORS) as e:
            why = str(e)
            bad.append("not replayed" if why in check.problems else f"replay failed: {why}")
            broken = True
        check.replay_ok = not bad
        check.problems.extend(bad)
    if not broken:
        report.problems += _check_in_play(game, record) + _check_totals(record, game)
        if "order" in record:
            report.problems += _check_order(record)
    report.sheet = standing(game)
    report.sheet["complete"] = not broken
    if broken:
        report.sheet["text"] += " (after the deals that replayed: the sheet is not verified)"
    return report


def _check_order(record: Mapping[str, Any]) -> list[str]:
    """An engine record's ``order`` (the deal of every action, two tables at once) replayed
    by :meth:`ginrummy.records.GameRecord.replay`."""
    try:
        GameRecord.from_json(record).replay()
    except GinRummyError as e:
        return [f"the recorded order of play does not replay: {e}"]
    return []


def replay_check(record: Mapping[str, Any] | Sequence[Any]) -> FairnessReport:
    """Check published deals. ``record`` may be

    - a game record of any form as served by ``GET /api/games/{id}/record``: ``{"rules",
      "scoring"? (standard, hollywood, three_player, partnership), "first_dealer", "hands":
      [{"number", "hand"?, "table"?, "players"?, "dealer", "deck", "salt", "commitment",
      "actions", "result"?: {"kind", "winner", "points", "winner_player"?}}], "current"?}``,
      or a plain engine record (:class:`ginrummy.records.GameRecord` JSON, no salts: replayed
      only). Every commitment is verified, and the whole table is replayed on the revealed
      decks with :class:`~ginrummy.game.Game`: each deal numbered in order, seated as the
      rules seat it (3P: the dealer sits out; 4P: the two tables of each hand), dealt by the
      right seat (R-9.1, R-9.2; 3P: the loser deals; 4P: the recorded cut must be a seat of the
      pair), each action legal, each recorded result equal to the replay's, the deals in play
      (``current``) the ones the table deals next, and any ``totals`` / ``winners`` the record
      carries equal to the replayed sheet's. :attr:`FairnessReport.sheet` is the sheet after
      the replay (:func:`standing`);
    - a web ``state`` (or its ``fairness`` object): ``revealed`` and each ``history`` entry;
    - one reveal ``{"deck", "salt", "commitment"}``, or a list of them.

    Never raises on bad input: every problem is reported.
    """
    if isinstance(record, Mapping):
        fmt = record.get("format")
        if fmt is not None and fmt != FORMAT:
            return _malformed(f"unknown record format {fmt!r}; this version reads {FORMAT!r}")
        if "hands" in record:
            return _replay_game(record)
        fair = record.get("fairness", record)
        if isinstance(fair, Mapping) and ("revealed" in fair or "history" in fair):
            report = FairnessReport()
            reveals = list(fair.get("history") or [])
            if fair.get("revealed"):
                reveals.append(fair["revealed"])
            seen = set()
            for i, r in enumerate(reveals, 1):
                if not isinstance(r, Mapping):
                    report.problems.append(f"reveal {i} is not an object")
                    continue
                key = r.get("commitment")
                if key in seen:
                    continue
                seen.add(key)
                report.deals.append(_check_reveal(r.get("hand", i), r))
            return report
        if "commitment" in record:
            return FairnessReport([_check_reveal(record.get("hand", 1), record)])
        return _malformed("not a game record, a state or a reveal")
    if isinstance(record, Sequence) and not isinstance(record, str | bytes):
        report = FairnessReport()
        for i, r in enumerate(record, 1):
            if isinstance(r, Mapping):
                report.deals.append(_check_reveal(r.get("hand", i), r))
            else:
                report.problems.append(f"item {i} is not a reveal object")
        report.malformed = not report.deals
        return report
    return _malformed("not a game record, a state or a reveal")
