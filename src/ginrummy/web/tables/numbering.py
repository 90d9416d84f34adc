"""The numbers of a table's events (``seq``, docs/api.md "state"; docs/tables.md): every event
of the game has one, in the order it happened, and a seat's ``events`` are those of its own
stream with a number above the one it asks from.

A deal's events are ``deal``, one per action, then ``dead_hand`` (a dead hand) and
``hand_over`` once it is over; the game's last event is ``game_over``. Every deal is numbered
but, in a *paced* game (a partnership whose other table is played by computers that keep pace
with the person's, docs/variants.md), the other table's deals, which are nobody's stream. The
two deals of a partnership hand play at once: their actions are numbered in the order they
were made (:attr:`ginrummy.game.Game.order`), each deal's ``deal`` event before the hand's
first action and its end right after its last action.
"""

from __future__ import annotations

from ...game import Game

__all__ = ["GAME_OVER", "own_count", "numbered", "seq", "event_order", "deal_start",
           "sequential", "numbers"]

#: :func:`event_order`'s mark of the ``game_over`` event.
GAME_OVER = -1


def own_count(game: Game, index: int) -> int:
    """Events of deal ``index`` but ``game_over``: ``deal``, one per action, ``dead_hand``
    (dead), ``hand_over`` once over."""
    h = game.deals[index]
    n = 1 + len(h.history)
    if h.is_over:
        assert h.outcome is not None
        n += 2 if h.outcome.kind == "dead" else 1
    return n


def numbered(game: Game, paced: bool) -> list[int]:
    """The deals whose events are numbered: all, but a paced game's other table's."""
    if not paced:
        return list(range(len(game.deals)))
    return [i for i, s in enumerate(game.seatings) if s.table == 0]


def seq(game: Game, paced: bool) -> int:
    """The table's sequence number: how many numbered events it has had."""
    return sum(own_count(game, i) for i in numbered(game, paced)) + (1 if game.is_over else 0)


def event_order(game: Game, paced: bool) -> list[tuple[int, int]]:
    """Every numbered event in order: ``(deal index, position in that deal's events)``, and
    ``(GAME_OVER, 0)`` last once the game is over; the event numbered ``n`` is the ``n``-th."""
    nums = set(numbered(game, paced))
    out: list[tuple[int, int]] = []
    deals, seatings = game.deals, game.seatings
    pos = 0
    i = 0
    while i < len(deals):
        hand = seatings[i].hand
        group = [i]
        while group[-1] + 1 < len(deals) and seatings[group[-1] + 1].hand == hand:
            group.append(group[-1] + 1)
        total = sum(len(deals[j].history) for j in group)
        mine = [j for j in group if j in nums]
        out.extend((j, 0) for j in mine)
        nxt = dict.fromkeys(mine, 1)
        for j in game.order[pos:pos + total]:  # the hand's actions, as they were made
            if j not in nxt:
                continue
            out.append((j, nxt[j]))
            nxt[j] += 1
            if nxt[j] == 1 + len(deals[j].history):  # its last action: then its end
                end = own_count(game, j)
                out.extend((j, k) for k in range(nxt[j], end))
                nxt[j] = end
        pos += total
        i = group[-1] + 1
    if game.is_over:
        out.append((GAME_OVER, 0))
    return out


def deal_start(order: list[tuple[int, int]], index: int) -> int:
    """The number of the event just before deal ``index``'s ``deal`` event."""
    for n, (i, k) in enumerate(order):
        if i == index and k == 0:
            return n
    return len(order)


def sequential(game: Game, paced: bool) -> bool:
    """True when no two numbered deals play at once: each deal's events then the next's."""
    return paced or game.sheet.deals_per_hand == 1


def numbers(game: Game, paced: bool) -> list[tuple[int, list[int]]]:
    """Per numbered deal, in deal order: ``(deal index, the numbers of its events in order)``;
    then ``(GAME_OVER, [its number])`` once the game is over."""
    if sequential(game, paced):
        out = []
        base = 0
        for i in numbered(game, paced):
            n = own_count(game, i)
            out.append((i, list(range(base + 1, base + n + 1))))
            base += n
        if game.is_over:
            out.append((GAME_OVER, [base + 1]))
        return out
    got: dict[int, list[int]] = {}
    for n, (i, _k) in enumerate(event_order(game, paced), 1):
        got.setdefault(i, []).append(n)
    return [(i, got[i]) for i in sorted(got, key=lambda i: (i == GAME_OVER, i))]
