"""Actions: small frozen values with a text form (DESIGN.md principle 4).

Texts: ``take``, ``pass`` (first-turn offer, R-3.1), ``draw stock``, ``draw discard`` (R-3.3),
``discard 7C``, ``knock 3D`` (default spread, R-4.5), ``knock 3D: 4S5S6S 9C9D9H`` (a chosen
spread), ``gin 3D`` (R-4.6), ``big gin`` (R-5.3).

>>> Action.parse("Knock 3d: 4S5S6S 9C9D9H").text
'knock 3D: 4S5S6S 9H9D9C'
>>> Action.parse("discard 7h") == Action(ActionKind.DISCARD, parse_card("7H"))
True
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from .cards import CardSet, card_text, parse_card
from .errors import InvalidNotationError

__all__ = ["Action", "ActionKind", "TAKE", "PASS", "DRAW_STOCK", "DRAW_DISCARD", "BIG_GIN"]


class ActionKind(StrEnum):
    """The kinds of action a seat can take."""

    TAKE = "take"
    PASS = "pass"
    DRAW_STOCK = "draw_stock"
    DRAW_DISCARD = "draw_discard"
    DISCARD = "discard"
    KNOCK = "knock"
    GIN = "gin"
    BIG_GIN = "big_gin"


_PLAIN = {
    "take": ActionKind.TAKE,
    "pass": ActionKind.PASS,
    "draw stock": ActionKind.DRAW_STOCK,
    "draw discard": ActionKind.DRAW_DISCARD,
    "big gin": ActionKind.BIG_GIN,
}
_WITH_CARD = {"discard": ActionKind.DISCARD, "knock": ActionKind.KNOCK, "gin": ActionKind.GIN}


def _meld_text(m: CardSet) -> str:
    return "".join(card_text(c) for c in _display_order(m))


def _display_order(m: CardSet) -> list[int]:
    cards = list(m)
    return sorted(cards, key=lambda c: (c % 13, c // 13)) if len({c // 13 for c in cards}) > 1 \
        else cards


@dataclass(frozen=True, slots=True)
class Action:
    """One action. ``card`` is the discarded (or knock/gin discard) card int; ``melds`` is the
    spread chosen for a knock, or ``None`` for the default spread (R-4.5)."""

    kind: ActionKind
    card: int | None = None
    melds: tuple[CardSet, ...] | None = None

    @property
    def text(self) -> str:
        """The canonical text form."""
        k = self.kind
        if k in (ActionKind.DISCARD, ActionKind.KNOCK, ActionKind.GIN):
            assert self.card is not None
            base = f"{k.value} {card_text(self.card)}"
            if self.melds is not None and k is ActionKind.KNOCK:
                base += ": " + " ".join(_meld_text(m) for m in self.melds)
            return base
        plain: dict[ActionKind, str] = {ActionKind.DRAW_STOCK: "draw stock",
                                        ActionKind.DRAW_DISCARD: "draw discard",
                                        ActionKind.BIG_GIN: "big gin"}
        return plain.get(k, str(k.value))

    def __str__(self) -> str:
        return self.text

    @classmethod
    def parse(cls, text: str) -> Action:
        """Parse an action text (case-insensitive, extra spaces ignored).

        :raises InvalidNotationError: naming what is wrong.
        """
        if not isinstance(text, str):
            raise InvalidNotationError(f"an action must be text, not {type(text).__name__}",
                                       "unknown_action", text=repr(text))
        t = " ".join(text.strip().lower().split())
        if t in _PLAIN:
            return cls(_PLAIN[t])
        head, _, rest = t.partition(" ")
        if head not in _WITH_CARD or not rest:
            raise InvalidNotationError(f"unknown action {text!r}", "unknown_action", text=text)
        spread_text: str | None = None
        if ":" in rest:
            rest, _, spread_text = rest.partition(":")
            if head != "knock":
                raise InvalidNotationError("only a knock may name its spread", "spread_only_knock")
        card_part = rest.strip()
        if " " in card_part:
            raise InvalidNotationError(f"{head} names one card, e.g. '{head} 7H': {text!r}",
                                       "one_card_action", action=head)
        try:
            c = parse_card(card_part)
        except InvalidNotationError:  # named as the person wrote it, not lower-cased
            shown = text.strip().split(None, 1)[1].split(":")[0].strip()
            raise InvalidNotationError(f"not a card: {shown!r} in {text.strip()!r} (cards are "
                                       "like 7H, TH or 10H: rank A 2-10 J Q K, suit S H D C)",
                                       "not_a_card", text=shown) from None
        melds: tuple[CardSet, ...] | None = None
        if spread_text is not None:
            from .melds import parse_meld

            melds = tuple(parse_meld(p) for p in spread_text.split())
        return cls(_WITH_CARD[head], c, melds)


TAKE = Action(ActionKind.TAKE)
PASS = Action(ActionKind.PASS)
DRAW_STOCK = Action(ActionKind.DRAW_STOCK)
DRAW_DISCARD = Action(ActionKind.DRAW_DISCARD)
BIG_GIN = Action(ActionKind.BIG_GIN)
