"""The facts behind a grade, as codes and parameters for the catalogue's words
(``review.note.<code>``; the English wording is in :mod:`ginrummy.cli.review_words`).

Computed from the seat's view only, with the exact meld functions (R-1.3, R-1.5, R-1.6) and the
hints' own estimates (:mod:`ginrummy.bots.heuristic`):

* ``breaks_meld`` {card, meld}: the card the move throws (a discard, or a knock's face-down
  discard) is melded in every least-deadwood arrangement of the hand (throwing it costs more
  deadwood than its own points); ``meld``: its meld in the best arrangement.
* ``feeds`` {card, taken}: the card thrown goes with a card the opponent took from the discard
  pile and still holds (same rank, or same suit within two ranks: it may complete or extend
  the opponent's meld, R-1.3; R-3.4 makes the taken card known).
* ``undercut_risk`` {k, risk}: the move is a knock showing ``k`` points; ``risk`` (0..1, two
  decimals) is the chance of being undercut (R-7.4) after layoffs: the share of the search's
  sampled worlds in which this knock is undercut, the worlds its value comes from (so that a
  knock valued below nothing says why); without them, the hints' estimate
  (:func:`~ginrummy.bots.heuristic.undercut_probability`), which does not age the opponent's
  hand and can say 6% where the search's worlds say 70% (a knock a person found valued at
  -24 points beside "a chance of about 6%").
* ``missed_gin`` {}: gin (or big gin) was legal and the move is not one (R-4.4, R-4.6).
* ``missed_knock`` {k}: the best move knocks (with ``k`` points) and the move played plays on.
"""

from __future__ import annotations

import numpy as np

from ...actions import Action, ActionKind
from ...cards import POINTS, CardSet, card_text
from ...melds import best_arrangement, min_deadwood_mask
from ...views import PlayerView
from ..heuristic import layoff_exposure, undercut_probability
from ..knowledge import min_spreads, neighbours, opponent_belief, read_view
from .model import Note

__all__ = ["notes_for"]

_THROWS = (ActionKind.DISCARD, ActionKind.KNOCK, ActionKind.GIN)


def notes_for(view: PlayerView, played: Action, best: Action,
              played_points: np.ndarray | None = None) -> tuple[Note, ...]:
    """The notes of a decision where ``played`` was chosen and ``best`` was the search's best
    (see the module docstring), in that order of codes. ``played_points``: the signed points
    of ``played`` in each of the search's worlds (+: the seat scores), for a knock's risk."""
    out: list[Note] = []
    hand = view.hand.mask
    if played.kind in _THROWS and played.card is not None:
        c = played.card
        # c is melded in every least-deadwood arrangement of the hand exactly when
        # throwing it costs more than its own points
        if min_deadwood_mask(hand & ~(1 << c)) + POINTS[c] > min_deadwood_mask(hand):
            for m in best_arrangement(CardSet(hand)).melds:
                if c in m:
                    out.append(Note("breaks_meld", {"card": card_text(c), "meld": m.texts()}))
                    break
        known = view.opponent_known.mask
        for t in CardSet(known):
            if neighbours(t) >> c & 1:
                out.append(Note("feeds", {"card": card_text(c), "taken": card_text(t)}))
                break
    if played.kind is ActionKind.KNOCK and played.card is not None:
        kept = hand & ~(1 << played.card)
        k = _shown_deadwood(played, kept)
        if played_points is not None and len(played_points):
            risk = float(np.mean(np.asarray(played_points) < 0))  # undercut: the other scores
        else:
            know = read_view(view)
            p = opponent_belief(know)
            exposure = min((layoff_exposure(s, p, know.opp_known)
                            for s in min_spreads(kept, k)), default=0.0)
            risk = undercut_probability(k, know.opp_draws, exposure)
        out.append(Note("undercut_risk", {"k": k, "risk": round(risk, 2)}))
    gins = {ActionKind.GIN, ActionKind.BIG_GIN}
    if any(a.kind in gins for a in view.legal) and played.kind not in gins:
        out.append(Note("missed_gin"))
    elif best.kind is ActionKind.KNOCK and played.kind is ActionKind.DISCARD \
            and best.card is not None:
        out.append(Note("missed_knock",
                        {"k": _shown_deadwood(best, hand & ~(1 << best.card))}))
    return tuple(out)


def _shown_deadwood(knock: Action, kept: int) -> int:
    """The deadwood a knock shows (R-4.2): of its named spread, else the least (R-4.5)."""
    if knock.melds is None:
        return best_arrangement(CardSet(kept)).deadwood_points
    used = 0
    for m in knock.melds:
        used |= m.mask
    return CardSet(kept & ~used).points()
