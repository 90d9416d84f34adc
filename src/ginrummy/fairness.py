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
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from .actions import Action
from .cards import card_text, parse_card
from .errors import GinRummyError
from .game import Game
from .rules import Rules

__all__ = [
    "FORMAT", "SALT_BYTES", "DealCheck", "FairnessReport", "commitment_of", "deck_text", "new_salt",
    "replay_check", "shuffled_deck", "verify_deal",
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
    """The check of one deal: ``hand`` is its number (1-based); ``problems`` empty = fine."""

    hand: int
    commitment_ok: bool | None  # None: nothing to check (no salt/deck published for it)
    replay_ok: bool | None  # None: not replayed (a lone reveal has no actions)
    problems: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.problems and self.commitment_ok is not False \
            and self.replay_ok is not False


@dataclass
class FairnessReport:
    """What :func:`replay_check` found. ``ok`` is True when every check passed."""

    deals: list[DealCheck] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)
    #: the input is not a record at all (``problems`` says why): nothing could be checked
    malformed: bool = False

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
            line = f"hand {d.hand}: " + (", ".join(parts) or "nothing to check")
            if d.problems:
                line += " (" + "; ".join(d.problems) + ")"
            out.append(line)
        out.extend(self.problems)
        if not self.deals and not self.problems:
            out.append("no revealed deal to check")
        return out

    def __str__(self) -> str:
        return "\n".join(self.lines())


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


def _replay_game(record: Mapping[str, Any]) -> FairnessReport:
    report = FairnessReport()
    try:
        rules = Rules.from_dict(record.get("rules"))
        first_dealer = record.get("first_dealer")
        if first_dealer not in (0, 1) or isinstance(first_dealer, bool):
            raise GinRummyError(f"first_dealer must be 0 or 1, not {first_dealer!r}")
        game = Game(rules, first_dealer)
    except GinRummyError as e:
        return _malformed(f"cannot start the game: {e}")
    hands = record.get("hands")
    if not isinstance(hands, list):
        return _malformed("the record has no list of hands")
    broken = False
    for i, h in enumerate(hands, 1):
        number = h.get("number", i) if isinstance(h, Mapping) else i
        if not isinstance(h, Mapping):
            report.deals.append(DealCheck(number, None, False, ["not an object"]))
            broken = True
            continue
        check = DealCheck(number, None, None)
        report.deals.append(check)
        if number != i:  # the game's deals, in the order they were played
            check.problems.append(f"numbered {number!r}, but it is deal {i} of the game")
        deck = h.get("deck")
        if "salt" in h or "commitment" in h:
            _commitment(check, h)
        if broken:
            check.problems.append("not replayed: an earlier hand failed")
            continue
        bad: list[str] = []
        try:
            cards = _deck_cards(deck)
            if "dealer" in h and h["dealer"] != game.dealer:
                bad.append(f"dealt by seat {h['dealer']}, but the rules make seat "
                           f"{game.dealer} the dealer (R-9.1, R-9.2)")
            state = game.new_hand(cards)
            for a in _actions(h):
                game.apply(Action.parse(a))
            if not state.is_over:
                if i < len(hands) or "commitment" in h:
                    bad.append("the hand did not end")
            else:
                o = state.outcome
                assert o is not None
                want = h.get("result")
                if isinstance(want, Mapping):
                    got = {"kind": o.kind, "winner": o.winner, "points": o.points}
                    for k, v in got.items():
                        if k in want and want[k] != v:
                            bad.append(f"recorded {k} {want[k]!r}, replay gives {v!r}")
        except (GinRummyError, TypeError, AttributeError) as e:
            bad.append("not replayed" if str(e) in check.problems else f"replay failed: {e}")
            broken = True
        check.replay_ok = not bad
        check.problems.extend(bad)
    return report


def _replay_deals(record: Mapping[str, Any]) -> FairnessReport:
    """A variant table's record (``scoring`` other than standard: Hollywood, three players,
    partnership): each deal is checked on its own (commitment, legal replay from its recorded
    dealer seat, recorded result); the deals' order of play is the table's business."""
    from .hand import HandState

    report = FairnessReport()
    try:
        rules = Rules.from_dict(record.get("rules"))
    except GinRummyError as e:
        return _malformed(f"cannot read the rules: {e}")
    hands = record.get("hands")
    if not isinstance(hands, list):
        return _malformed("the record has no list of hands")
    for i, h in enumerate(hands, 1):
        if not isinstance(h, Mapping):
            report.deals.append(DealCheck(i, None, False, ["not an object"]))
            continue
        check = DealCheck(h.get("number", i), None, None)
        report.deals.append(check)
        deck = h.get("deck")
        _commitment(check, h)
        bad: list[str] = []
        try:
            dealer = h.get("dealer")
            if dealer not in (0, 1) or isinstance(dealer, bool):
                raise GinRummyError(f"dealer must be seat 0 or 1, not {dealer!r}")
            state = HandState(rules, dealer, _deck_cards(deck))
            for a in _actions(h):
                state.apply(Action.parse(a))
            o = state.outcome
            if o is None:
                bad.append("the hand did not end")
            elif isinstance(h.get("result"), Mapping):
                want = h["result"]
                got = {"kind": o.kind, "winner": o.winner, "points": o.points}
                bad += [f"recorded {k} {want[k]!r}, replay gives {v!r}"
                        for k, v in got.items() if k in want and want[k] != v]
        except (GinRummyError, TypeError, AttributeError) as e:
            bad.append("not replayed" if str(e) in check.problems else f"replay failed: {e}")
        check.replay_ok = not bad
        check.problems.extend(bad)
    return report


def replay_check(record: Mapping[str, Any] | Sequence[Any]) -> FairnessReport:
    """Check published deals. ``record`` may be

    - a game record as served by ``GET /api/games/{id}/record``: ``{"rules", "first_dealer",
      "hands": [{"number", "dealer", "deck", "salt", "commitment", "actions", "result"?}]}``:
      every commitment is verified, and the whole game is replayed on the revealed decks
      (each action legal, each dealer right, each recorded result equal to the replay's);
      a plain engine record (:class:`ginrummy.records.GameRecord` JSON, no salts) is replayed only;
    - a variant table's record (``"scoring"``: hollywood, three_player, partnership): each deal
      is verified and replayed on its own, from its recorded dealer seat;
    - a web ``state`` (or its ``fairness`` object): ``revealed`` and each ``history`` entry;
    - one reveal ``{"deck", "salt", "commitment"}``, or a list of them.

    Never raises on bad input: every problem is reported.
    """
    if isinstance(record, Mapping):
        fmt = record.get("format")
        if fmt is not None and fmt != FORMAT:
            return _malformed(f"unknown record format {fmt!r}; this version reads {FORMAT!r}")
        if "hands" in record:
            if record.get("scoring") not in (None, "standard"):
                return _replay_deals(record)
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
