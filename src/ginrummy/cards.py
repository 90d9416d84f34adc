"""Cards and card sets (R-1.1, R-1.2).

A card is an ``int`` 0..51, suit-major and ace low: ``card = suit * 13 + rank`` where rank 0 is the
ace and 12 the king, and suits are ordered S, H, D, C. A :class:`CardSet` is an immutable 52-bit
mask over those ints; suit ``s`` occupies bits ``13*s .. 13*s+12`` (its "lane").

>>> CardSet.parse("7h TS 10d").format()
'TS 7H TD'
>>> CardSet.parse("AS 2S 3S").points()
6
>>> card_text(parse_card("7♥"))
'7H'
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import Final

from .errors import InvalidNotationError

__all__ = [
    "RANKS", "SUITS", "FULL_DECK", "CardSet", "card", "card_points", "card_rank", "card_suit",
    "card_text", "parse_card", "parse_cards", "RANK_NAMES", "SUIT_NAMES",
]

RANKS: Final = "A23456789TJQK"
SUITS: Final = "SHDC"
RANK_NAMES: Final = ("ace", "2", "3", "4", "5", "6", "7", "8", "9", "10", "jack", "queen", "king")
SUIT_NAMES: Final = ("spades", "hearts", "diamonds", "clubs")
FULL_DECK: Final = (1 << 52) - 1
LANE: Final = (1 << 13) - 1

_SUIT_ALIASES: Final = {
    "S": 0, "H": 1, "D": 2, "C": 3,
    "♠": 0, "♥": 1, "♦": 2, "♣": 3, "♤": 0, "♡": 1, "♢": 2, "♧": 3,
}
_RANK_ALIASES: Final = {r: i for i, r in enumerate(RANKS)} | {"10": 9}
#: deadwood value of each card (R-1.2): A=1, 2..10 pip value, J Q K = 10.
POINTS: Final = tuple(min(i % 13 + 1, 10) for i in range(52))
_TEXT: Final = tuple(RANKS[i % 13] + SUITS[i // 13] for i in range(52))


def card(rank: int, suit: int) -> int:
    """The card int for ``rank`` 0..12 (ace low) and ``suit`` 0..3 (S H D C)."""
    if not (0 <= rank < 13 and 0 <= suit < 4):
        raise InvalidNotationError(f"no card with rank index {rank} and suit index {suit}")
    return suit * 13 + rank


def card_rank(c: int) -> int:
    """Rank index 0..12 of card ``c`` (0 = ace)."""
    return c % 13


def card_suit(c: int) -> int:
    """Suit index 0..3 of card ``c`` (S H D C)."""
    return c // 13


def card_points(c: int) -> int:
    """Deadwood value of card ``c`` in points (R-1.2)."""
    return POINTS[c]


def card_text(c: int) -> str:
    """Canonical two-character text of card ``c``, e.g. ``"TH"``."""
    return _TEXT[c]


def parse_card(text: str) -> int:
    """Parse one card: rank (A 2..9 T/10 J Q K, any case) then suit (S H D C or ♠♥♦♣).

    :raises InvalidNotationError: for anything else.
    """
    if not isinstance(text, str):
        raise InvalidNotationError(f"not a card: {text!r} (a card is text like 7H, TH or 10H)",
                                   "not_a_card", text=repr(text))
    t = text.strip().upper()
    if len(t) < 2:
        raise InvalidNotationError(f"not a card: {text!r}", "not_a_card", text=text)
    rank_part, suit_part = t[:-1], t[-1]
    rank = _RANK_ALIASES.get(rank_part)
    if rank is None:
        raise InvalidNotationError(f"not a card: {text!r} (unknown rank {rank_part!r})",
                                   "not_a_card", text=text)
    suit = _SUIT_ALIASES.get(suit_part)
    if suit is None:
        raise InvalidNotationError(f"not a card: {text!r} (unknown suit {suit_part!r})",
                                   "not_a_card", text=text)
    return suit * 13 + rank


def parse_cards(text: str | Iterable[str]) -> list[int]:
    """Parse cards separated by spaces or commas (or an iterable of card texts), keeping order.

    :raises InvalidNotationError: on a malformed card or a card given twice.
    """
    parts = text.replace(",", " ").split() if isinstance(text, str) else list(text)
    out: list[int] = []
    seen = 0
    for p in parts:
        if not isinstance(p, str):
            raise InvalidNotationError(f"not a card: {p!r}", "not_a_card", text=repr(p))
        c = parse_card(p)
        if seen >> c & 1:
            raise InvalidNotationError(f"duplicate card: {_TEXT[c]}", "duplicate_card",
                                       card=_TEXT[c])
        seen |= 1 << c
        out.append(c)
    return out


class CardSet:
    """An immutable set of cards held as a 52-bit mask (bit ``c`` set = card ``c`` present).

    Iteration yields card ints in ascending order (suit-major, ace low).

    >>> hand = CardSet.parse("7C 7D 7H")
    >>> len(hand), "7D" in hand, hand | CardSet.parse("8C")
    (3, True, CardSet('7H 7D 7C 8C'))
    """

    __slots__ = ("mask",)
    mask: int

    def __init__(self, mask: int = 0) -> None:
        if not isinstance(mask, int) or mask < 0 or mask > FULL_DECK:
            raise InvalidNotationError(f"not a 52-bit card mask: {mask!r}")
        object.__setattr__(self, "mask", mask)

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError("CardSet is immutable")

    def __reduce__(self) -> tuple[type[CardSet], tuple[int]]:
        return (CardSet, (self.mask,))

    # construction -------------------------------------------------------------------------
    @classmethod
    def parse(cls, text: str | Iterable[str], count: int | None = None) -> CardSet:
        """Parse card texts (see :func:`parse_cards`); ``count``, if given, is the exact number
        of cards required.

        :raises InvalidNotationError: malformed or duplicate card, or the wrong number of cards.
        """
        cards = parse_cards(text)
        if count is not None and len(cards) != count:
            raise InvalidNotationError(f"expected {count} cards, got {len(cards)}", "card_count",
                                       expected=count, got=len(cards))
        return cls.of(cards)

    @classmethod
    def of(cls, cards: Iterable[int]) -> CardSet:
        """The set of the given card ints."""
        m = 0
        for c in cards:
            m |= 1 << c
        return cls(m)

    @classmethod
    def full(cls) -> CardSet:
        """All 52 cards."""
        return cls(FULL_DECK)

    # queries --------------------------------------------------------------------------------
    def __iter__(self) -> Iterator[int]:
        m = self.mask
        while m:
            low = m & -m
            yield low.bit_length() - 1
            m ^= low

    def __len__(self) -> int:
        return self.mask.bit_count()

    def __bool__(self) -> bool:
        return self.mask != 0

    def __contains__(self, item: object) -> bool:
        if isinstance(item, str):
            item = parse_card(item)
        if isinstance(item, int):
            return 0 <= item < 52 and bool(self.mask >> item & 1)
        if isinstance(item, CardSet):
            return item.mask & self.mask == item.mask
        return False

    def points(self) -> int:
        """Sum of the deadwood values of the cards (R-1.2), in points."""
        return sum(POINTS[c] for c in self)

    def cards(self) -> list[int]:
        """The card ints, ascending."""
        return list(self)

    def suit(self, s: int) -> int:
        """The 13-bit lane of suit ``s`` (bit r = rank r present)."""
        return self.mask >> (13 * s) & LANE

    def format(self, sep: str = " ") -> str:
        """Canonical text, cards in ascending order: ``'AS 2S 7H'``."""
        return sep.join(_TEXT[c] for c in self)

    def texts(self) -> list[str]:
        """Canonical card texts, ascending."""
        return [_TEXT[c] for c in self]

    # set algebra ----------------------------------------------------------------------------
    def __or__(self, other: CardSet) -> CardSet:
        return CardSet(self.mask | other.mask)

    def __and__(self, other: CardSet) -> CardSet:
        return CardSet(self.mask & other.mask)

    def __sub__(self, other: CardSet) -> CardSet:
        return CardSet(self.mask & ~other.mask)

    def __xor__(self, other: CardSet) -> CardSet:
        return CardSet(self.mask ^ other.mask)

    def add(self, c: int) -> CardSet:
        """A new set with card ``c`` added."""
        return CardSet(self.mask | 1 << c)

    def remove(self, c: int) -> CardSet:
        """A new set without card ``c``; :raises InvalidNotationError: if it is absent."""
        if not self.mask >> c & 1:
            raise InvalidNotationError(f"{_TEXT[c]} is not in {self.format()}")
        return CardSet(self.mask & ~(1 << c))

    def issubset(self, other: CardSet) -> bool:
        return self.mask & other.mask == self.mask

    def __eq__(self, other: object) -> bool:
        return isinstance(other, CardSet) and other.mask == self.mask

    def __hash__(self) -> int:
        return hash(self.mask)

    def __lt__(self, other: CardSet) -> bool:
        return self.mask < other.mask

    def __repr__(self) -> str:
        return f"CardSet({self.format()!r})"

    def __str__(self) -> str:
        return self.format()
