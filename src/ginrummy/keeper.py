"""The score keeper for games played with real cards: a JSON-shaped sheet in, the scored sheet
out (standard game, Hollywood, three players, partnership; RULES.md sections 6, 8 and 9).

Input::

    {"rules": "pagat" | {"preset": ..., field: value...},
     "scoring": "standard" | "hollywood" | "three_player" | "partnership",
     "players": ["Ana", "Budi"],     # 2 names; 3 for three_player; 4 (A B C D): partnership
     "first_dealer": "Ana",                 # optional; three_player: who cut lowest
     "hands": [HAND, ...]}

A HAND is one of (for partnership: ``{"tables": [HAND, HAND]}``, tables in the order of
:func:`ginrummy.sheets.partnership_pairings`):

* ``{"winner": name, "points": n}`` (optional ``"kind"``: knock|gin|big_gin|undercut);
* ``{"dead": true}``;
* ``{"knocker": name, "result": "knock"|"gin"|"big_gin", "knocker_deadwood": k,
  "defender_deadwood": d}``: scored by the rules (d after layoffs);
* ``{"knocker": name, "melds": [[cards]...], "deadwood": [cards], "defender": [10 cards]}``:
  the shown cards, scored with the defender's optimal layoffs (R-6.4).

>>> out = score_sheet({"rules": "pagat", "players": ["A", "B"], "hands": [
...     {"winner": "A", "points": 30}, {"winner": "B", "points": 12},
...     {"winner": "A", "points": 25}, {"winner": "A", "points": 50}]})
>>> out["over"], out["totals"]
(True, {'A': 265, 'B': 32})
"""

from __future__ import annotations

from typing import Any

from .cards import CardSet
from .errors import GinRummyError, IllegalActionError
from .game import FinalScore, Game
from .melds import validate_spread
from .rules import Rules
from .scoring import score_showdown
from .sheets import HollywoodSheet, PartnershipSheet, ThreePlayerSheet, partnership_pairings

__all__ = ["SheetInputError", "score_sheet", "resolve_hand", "SCORINGS"]

SCORINGS = ("standard", "hollywood", "three_player", "partnership")
_PLAYER_COUNT = {"standard": 2, "hollywood": 2, "three_player": 3, "partnership": 4}


class SheetInputError(GinRummyError):
    """Bad sheet input; the message names the hand and field at fault."""


def _int(v: Any, where: str) -> int:
    if isinstance(v, bool) or not isinstance(v, int) or v < 0:
        raise SheetInputError(f"{where}: must be a whole number >= 0, got {v!r}")
    return v


def resolve_hand(entry: Any, rules: Rules, names: list[str], where: str,
                 allowed: tuple[int, ...] | None = None) -> tuple[int | None, int, str, int]:
    """One hand entry -> ``(winner index or None, points, kind, boxes)``.

    ``allowed``: the players who sat at this table (two of them).

    :raises SheetInputError: naming ``where`` and the field at fault.
    """
    if not isinstance(entry, dict):
        raise SheetInputError(f"{where}: must be an object")
    pair = allowed if allowed is not None else tuple(range(len(names)))

    def player(field: str) -> int:
        v = entry.get(field)
        if v not in names:
            raise SheetInputError(f"{where}: {field} must be one of {', '.join(names)}, got {v!r}")
        i = names.index(v)
        if i not in pair:
            raise SheetInputError(f"{where}: {field} {v!r} did not play this hand")
        return i

    if entry.get("dead") is True:
        return (None, 0, "dead", 0)
    if "winner" in entry:
        w = player("winner")
        pts = _int(entry.get("points"), f"{where}: points")
        kind = entry.get("kind", "knock")
        if kind not in ("knock", "gin", "big_gin", "undercut"):
            raise SheetInputError(f"{where}: kind must be knock, gin, big_gin or undercut")
        boxes = 1 + (({"undercut": 1, "gin": 2, "big_gin": 2}.get(kind, 0))
                     if rules.extra_boxes else 0)
        return (w, pts, kind, boxes)
    if "knocker" not in entry:
        raise SheetInputError(f"{where}: give winner+points, dead, or knocker with the result")
    k = player("knocker")
    others = [p for p in pair if p != k]
    if len(others) != 1:
        raise SheetInputError(f"{where}: cannot tell who defended; use winner+points")
    d = others[0]
    try:
        if "melds" in entry or "defender" in entry:
            big = entry.get("result") == "big_gin"
            melds = [CardSet.parse(m) for m in entry.get("melds", [])]
            dead = CardSet.parse(entry.get("deadwood", []))
            shown = dead
            for m in melds:
                shown = shown | m
            spread = validate_spread(shown, melds)
            sd = score_showdown(rules, spread, CardSet.parse(entry.get("defender", []), count=10),
                                big_gin=big)
            winner = None if sd.winner is None else (k if sd.winner == "knocker" else d)
            return (winner, sd.points, sd.kind, sd.boxes)
    except (GinRummyError, TypeError) as e:
        raise SheetInputError(f"{where}: {e}") from None
    result = entry.get("result", "knock")
    kd = _int(entry.get("knocker_deadwood", 0), f"{where}: knocker_deadwood")
    dd = _int(entry.get("defender_deadwood"), f"{where}: defender_deadwood")
    if result in ("gin", "big_gin"):
        if result == "big_gin" and rules.big_gin_bonus is None:
            raise SheetInputError(f"{where}: big gin is not played under these rules")
        bonus = rules.gin_bonus if result == "gin" else (rules.big_gin_bonus or 0)
        return (k, dd + bonus, result, 1 + (2 if rules.extra_boxes else 0))
    if result != "knock":
        raise SheetInputError(f"{where}: result must be knock, gin or big_gin")
    if kd > rules.knock_limit and not rules.oklahoma:
        raise SheetInputError(f"{where}: knocker_deadwood {kd} is over the knock limit "
                              f"{rules.knock_limit}")
    if kd < dd:
        return (k, dd - kd, "knock", 1)
    if kd > dd or rules.undercut_on_tie:
        return (d, kd - dd + rules.undercut_bonus, "undercut", 1 + (1 if rules.extra_boxes else 0))
    return (None, 0, "tie", 0)


def _final_json(f: FinalScore, names: list[str]) -> dict[str, Any]:
    return {
        "winner": None if f.winner is None else names[f.winner],
        "hand_points": dict(zip(names, f.hand_points, strict=True)),
        "boxes": dict(zip(names, f.boxes, strict=True)),
        "box_points": dict(zip(names, f.box_points, strict=True)),
        "game_bonus": f.game_bonus, "shutout": f.shutout, "shutout_rule": f.shutout_rule,
        "totals": dict(zip(names, f.totals, strict=True)), "margin": f.margin,
    }


def score_sheet(data: Any) -> dict[str, Any]:
    """Score a whole sheet (see the module doc for the format).

    :raises SheetInputError: naming the hand and field at fault.
    """
    if not isinstance(data, dict):
        raise SheetInputError("the sheet must be a JSON object")
    try:
        rules = Rules.from_dict(data.get("rules", "standard"))
    except GinRummyError as e:
        raise SheetInputError(f"rules: {e}") from None
    scoring = data.get("scoring", "standard")
    if scoring not in SCORINGS:
        raise SheetInputError(f"scoring must be one of {', '.join(SCORINGS)}, got {scoring!r}")
    names = data.get("players")
    n = _PLAYER_COUNT[scoring]
    if (not isinstance(names, list) or len(names) != n
            or not all(isinstance(x, str) and x for x in names) or len(set(names)) != n):
        raise SheetInputError(f"players: give {n} different names for {scoring} scoring")
    hands = data.get("hands", [])
    if not isinstance(hands, list):
        raise SheetInputError("hands must be a list")
    fd = data.get("first_dealer", names[0])
    if fd not in names:
        raise SheetInputError(f"first_dealer must be one of {', '.join(names)}")
    out: dict[str, Any] = {"scoring": scoring, "players": names, "rules": rules.to_dict()}
    lines: list[dict[str, Any]] = []
    try:
        if scoring == "partnership":
            return _partnership(rules, names, hands, out, lines)
        if scoring == "three_player":
            return _three(rules, names, hands, names.index(fd), out, lines)
        if scoring == "hollywood":
            return _hollywood(rules, names, hands, out, lines)
        return _standard(rules, names, hands, names.index(fd), out, lines)
    except IllegalActionError as e:
        raise SheetInputError(str(e)) from None


def _check_open(over: bool, i: int) -> None:
    if over:
        raise SheetInputError(f"hand {i}: the game was already over")


def _standard(rules: Rules, names: list[str], hands: list[Any], fd: int,
              out: dict[str, Any], lines: list[dict[str, Any]]) -> dict[str, Any]:
    g = Game(rules, fd)
    for i, h in enumerate(hands, 1):
        _check_open(g.is_over, i)
        w, p, kind, boxes = resolve_hand(h, rules, names, f"hand {i}")
        g.add_result(w, p, kind=kind, boxes=boxes)
        lines.append({"number": i, "winner": None if w is None else names[w], "points": p,
                      "kind": kind, "running": dict(zip(names, g.hand_points, strict=True))})
    out.update(hands=lines, over=g.is_over, games=[_final_json(g.final(), names)])
    out["totals"] = dict(zip(names, g.final().totals, strict=True))
    return out


def _hollywood(rules: Rules, names: list[str], hands: list[Any], out: dict[str, Any],
               lines: list[dict[str, Any]]) -> dict[str, Any]:
    s = HollywoodSheet(rules)
    for i, h in enumerate(hands, 1):
        _check_open(s.is_over, i)
        w, p, kind, boxes = resolve_hand(h, rules, names, f"hand {i}")
        into = s.add_result(w, p, kind=kind, boxes=boxes)
        lines.append({"number": i, "winner": None if w is None else names[w], "points": p,
                      "kind": kind, "games": [j + 1 for j in into]})
    games = []
    for j, g in enumerate(s.games):
        entry = _final_json(s.final(j), names)
        entry.update(number=j + 1, closed_after=g.closed_at,
                     columns=dict(zip(names, g.hand_points, strict=True)),
                     entries=dict(zip(names, g.entries, strict=True)))
        games.append(entry)
    t = s.totals()
    out.update(hands=lines, over=s.is_over, games=games,
               totals=dict(zip(names, t, strict=True)))
    return out


def _three(rules: Rules, names: list[str], hands: list[Any], fd: int, out: dict[str, Any],
           lines: list[dict[str, Any]]) -> dict[str, Any]:
    s = ThreePlayerSheet(rules, fd)
    for i, h in enumerate(hands, 1):
        _check_open(s.is_over, i)
        pair = s.players
        dealer = s.dealer
        w, p, kind, boxes = resolve_hand(h, rules, names, f"hand {i}", pair)
        s.add_result(w, p, kind=kind, boxes=boxes)
        lines.append({"number": i, "dealer": names[dealer], "players": [names[x] for x in pair],
                      "winner": None if w is None else names[w], "points": p, "kind": kind})
    settle = {names[o]: _final_json(f, [names[s.winner or 0], names[o]])
              for o, f in s.settlements().items()}
    totals = {nm: s.hand_points[i] + s.boxes[i] * rules.box_bonus
              + (rules.game_bonus if s.winner == i else 0) for i, nm in enumerate(names)}
    out.update(hands=lines, over=s.is_over,
               hand_points=dict(zip(names, s.hand_points, strict=True)),
               boxes=dict(zip(names, s.boxes, strict=True)),
               winner=None if s.winner is None else names[s.winner],
               settlements=settle, totals=totals)
    return out


def _partnership(rules: Rules, names: list[str], hands: list[Any], out: dict[str, Any],
                 lines: list[dict[str, Any]]) -> dict[str, Any]:
    s = PartnershipSheet(rules)
    teams = [f"{names[0]}+{names[2]}", f"{names[1]}+{names[3]}"]
    for i, h in enumerate(hands, 1):
        _check_open(s.is_over, i)
        if not isinstance(h, dict) or not isinstance(h.get("tables"), list) \
                or len(h["tables"]) != 2:
            raise SheetInputError(f"hand {i}: tables must list the two tables' results")
        pairs = partnership_pairings(i)
        res = []
        for t, (entry, pair) in enumerate(zip(h["tables"], pairs, strict=True)):
            w, p, _kind, _boxes = resolve_hand(entry, rules, names, f"hand {i} table {t + 1}",
                                               pair)
            res.append((w, p))
        team = s.add_hand(res[0], res[1])
        lines.append({"number": i, "tables": [
            {"players": [names[x] for x in pair], "winner": None if w is None else names[w],
             "points": p} for (w, p), pair in zip(res, pairs, strict=True)],
            "team": None if team is None else teams[team],
            "running": dict(zip(teams, s.game.hand_points, strict=True))})
    f = s.final()
    out.update(hands=lines, over=s.is_over, teams=teams, games=[_final_json(f, teams)],
               totals=dict(zip(teams, f.totals, strict=True)))
    return out
