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
  the shown cards, scored with the defender's optimal layoffs (R-6.4);
* ``{"knocker": name, "knocker_cards": [10 cards, 11 for big gin], "defender": [10 cards]}``:
  the same, the knocker's cards spread as the engine would (R-4.5: least deadwood).

With a knocker, ``"result"`` may also be ``"undercut"``: scored as a knock, and refused unless
the defender does undercut. Under Oklahoma rules give ``"upcard"``: it sets the hand's knock
limit (O-1, O-2) and a spade doubles the hand (O-4); without it the limit is taken as 10 and
nothing is doubled.

>>> out = score_sheet({"rules": "pagat", "players": ["A", "B"], "hands": [
...     {"winner": "A", "points": 30}, {"winner": "B", "points": 12},
...     {"winner": "A", "points": 25}, {"winner": "A", "points": 50}]})
>>> out["over"], out["totals"]
(True, {'A': 265, 'B': 32})
"""

from __future__ import annotations

import functools
import json
import re
from typing import Any

from .cards import CardSet, card_suit, parse_card
from .errors import GinRummyError, IllegalActionError
from .game import FinalScore, Game
from .hand import oklahoma_limit
from .melds import default_spread, validate_spread
from .rules import Rules
from .scoring import score_showdown
from .sheets import HollywoodSheet, PartnershipSheet, ThreePlayerSheet, partnership_pairings

__all__ = ["SheetInputError", "score_sheet", "resolve_hand", "SCORINGS", "sheet_csv", "csv_cell",
           "resolve_hand_cache_clear"]

SCORINGS = ("standard", "hollywood", "three_player", "partnership")
_PLAYER_COUNT = {"standard": 2, "hollywood": 2, "three_player": 3, "partnership": 4}


class SheetInputError(GinRummyError):
    """Bad sheet input; the message names the hand and field at fault, the reason's parameters
    carry the hand (and the partnership table) as ``hand`` and ``table``."""


_PLACE = re.compile(r"^hand (\d+)(?: table (\d+))?")


def _place(where: str) -> dict[str, int]:
    """``{"hand": 3}`` or ``{"hand": 3, "table": 1}`` from a place such as ``"hand 3 table 1:
    points"`` (empty when it names no hand)."""
    m = _PLACE.match(where)
    if not m:
        return {}
    out = {"hand": int(m.group(1))}
    if m.group(2):
        out["table"] = int(m.group(2))
    return out


def _sheet_error(where: str, message: str, reason: str, **params: Any) -> SheetInputError:
    """A sheet error at ``where`` (``"hand 3"``...): ``"{where}: {message}"``, with the place in
    its parameters."""
    return SheetInputError(f"{where}: {message}", reason, **params, **_place(where))


def _field(where: str) -> str:
    """The field a place names last (``"hand 1: knocker_deadwood"`` -> ``knocker_deadwood``)."""
    return where.rpartition(": ")[2] if ": " in where else ""


#: the most points one hand may carry on a sheet (a real hand scores at most a few hundred).
MAX_HAND_POINTS = 100_000


def _int(v: Any, where: str) -> int:
    if isinstance(v, bool) or not isinstance(v, int) or not 0 <= v <= MAX_HAND_POINTS:
        raise _sheet_error(where, f"must be a whole number from 0 to {MAX_HAND_POINTS}, "
                           f"got {v!r}", "sheet_number", field=_field(where),
                           max=MAX_HAND_POINTS, value=json.dumps(v))
    return v


Resolved = tuple[int | None, int, str, int]

#: hands resolved lately (a sheet is scored again, whole, at every change: each hand is worked
#: out once; a hand given by its cards searches the defender's layoffs, about a millisecond)
RESOLVED_CACHE = 8192


def resolve_hand(entry: Any, rules: Rules, names: list[str], where: str,
                 allowed: tuple[int, ...] | None = None) -> Resolved:
    """One hand entry -> ``(winner index or None, points, kind, boxes)``.

    ``allowed``: the players who sat at this table (two of them). The answer for the same
    arguments is remembered (the last :data:`RESOLVED_CACHE`; errors are not).

    :raises SheetInputError: naming ``where`` and the field at fault.
    """
    if isinstance(entry, dict):
        try:
            key = json.dumps(entry, sort_keys=True, allow_nan=False)
        except (TypeError, ValueError):  # not JSON-shaped: worked out every time
            pass
        else:
            return _resolve_json(key, rules, tuple(names), where, allowed)
    return _resolve(entry, rules, names, where, allowed)


@functools.lru_cache(maxsize=RESOLVED_CACHE)
def _resolve_json(key: str, rules: Rules, names: tuple[str, ...], where: str,
                  allowed: tuple[int, ...] | None) -> Resolved:
    return _resolve(json.loads(key), rules, list(names), where, allowed)


def resolve_hand_cache_clear() -> None:
    """Forget the remembered hands (tests)."""
    _resolve_json.cache_clear()


def _resolve(entry: Any, rules: Rules, names: list[str], where: str,
             allowed: tuple[int, ...] | None) -> Resolved:
    if not isinstance(entry, dict):
        raise _sheet_error(where, "must be an object", "sheet_object")
    pair = allowed if allowed is not None else tuple(range(len(names)))

    def player(field: str) -> int:
        v = entry.get(field)
        if v not in names:
            raise _sheet_error(where, f"{field} must be one of {', '.join(names)}, got {v!r}",
                               "sheet_player", field=field, names=list(names),
                               value=v if isinstance(v, str) else json.dumps(v))
        i = names.index(v)
        if i not in pair:
            raise _sheet_error(where, f"{field} {v!r} did not play this hand", "sheet_sat_out",
                               field=field, name=v)
        return i

    if entry.get("dead") is True:
        return (None, 0, "dead", 0)
    if "winner" in entry:
        w = player("winner")
        pts = _int(entry.get("points"), f"{where}: points")
        kind = entry.get("kind", "knock")
        if kind not in ("knock", "gin", "big_gin", "undercut"):
            raise _sheet_error(where, "kind must be knock, gin, big_gin or undercut",
                               "sheet_kind", field="kind")
        boxes = 1 + (({"undercut": 1, "gin": 2, "big_gin": 2}.get(kind, 0))
                     if rules.extra_boxes else 0)
        return (w, pts, kind, boxes)
    if "knocker" not in entry:
        raise _sheet_error(where, "give winner+points, dead, or knocker with the result",
                           "sheet_entry")
    k = player("knocker")
    others = [p for p in pair if p != k]
    if len(others) != 1:
        raise _sheet_error(where, "cannot tell who defended; use winner+points",
                           "sheet_defender")
    d = others[0]
    result = entry.get("result", "knock")
    if result not in ("knock", "gin", "big_gin", "undercut"):
        raise _sheet_error(where, "result must be knock, gin, big_gin or undercut",
                           "sheet_kind", field="result")
    limit, spade = rules.knock_limit, False
    if rules.oklahoma and entry.get("upcard") is not None:
        try:
            up = parse_card(str(entry["upcard"]))
        except GinRummyError as e:
            raise _sheet_error(where, f"upcard: {e}", e.reason or "sheet_upcard",
                               **(e.params if e.reason else {})) from None
        limit = oklahoma_limit(rules, up)  # O-1, O-2
        spade = rules.oklahoma_spade_double and card_suit(up) == 0  # O-4
    try:
        if "melds" in entry or "defender" in entry or "knocker_cards" in entry:
            big = result == "big_gin"
            if "knocker_cards" in entry:
                shown = CardSet.parse(entry["knocker_cards"], count=11 if big else 10)
                spread = default_spread(shown)
            else:
                melds = [CardSet.parse(m) for m in entry.get("melds", [])]
                shown = CardSet.parse(entry.get("deadwood", []))
                for m in melds:
                    shown = shown | m
                spread = validate_spread(shown, melds)
            if result == "gin" and spread.deadwood_points:
                raise _sheet_error(where, "not gin: the knocker's deadwood is "
                                   f"{spread.deadwood_points}", "sheet_not_gin",
                                   deadwood=spread.deadwood_points)
            sd = score_showdown(rules, spread, CardSet.parse(entry.get("defender", []), count=10),
                                big_gin=big, knock_limit=limit, spade_double=spade)
            winner = None if sd.winner is None else (k if sd.winner == "knocker" else d)
            _expect(result, sd.kind, where)
            return (winner, sd.points, sd.kind, sd.boxes)
    except (GinRummyError, TypeError) as e:
        if isinstance(e, SheetInputError):
            raise
        if isinstance(e, GinRummyError) and e.reason:
            raise _sheet_error(where, str(e), e.reason, **e.params) from None
        if isinstance(e, TypeError):  # cards given as something else than texts
            raise _sheet_error(where, str(e), "sheet_object") from None
        raise _sheet_error(where, str(e), "other", text=str(e)) from None
    mult = 2 if spade else 1
    kd = _int(entry.get("knocker_deadwood", 0), f"{where}: knocker_deadwood")
    dd = _int(entry.get("defender_deadwood"), f"{where}: defender_deadwood")
    if result in ("gin", "big_gin"):
        if kd != 0:
            raise _sheet_error(where, f"knocker_deadwood must be 0 for {result} (R-4.6), "
                               f"got {kd}", "sheet_gin_deadwood", deadwood=kd)
        if result == "big_gin" and rules.big_gin_bonus is None:
            raise _sheet_error(where, "big gin is not played under these rules", "big_gin_off")
        bonus = rules.gin_bonus if result == "gin" else (rules.big_gin_bonus or 0)
        return (k, (dd + bonus) * mult, result, 1 + (2 if rules.extra_boxes else 0))
    if limit == 0 and kd:
        raise _sheet_error(where, "no knocking here (" + (
            "straight gin" if rules.straight else "Oklahoma ace upcard: gin only") + ")",
            "no_knocking" if rules.straight else "gin_only")
    if kd > limit and (not rules.oklahoma or entry.get("upcard") is not None):
        raise _sheet_error(where, f"knocker_deadwood {kd} is over the knock limit {limit}",
                           "over_knock_limit", deadwood=kd, limit=limit)
    if kd < dd:
        _expect(result, "knock", where)
        return (k, (dd - kd) * mult, "knock", 1)
    if kd > dd or rules.undercut_on_tie:
        return (d, (kd - dd + rules.undercut_bonus) * mult, "undercut",
                1 + (1 if rules.extra_boxes else 0))
    _expect(result, "tie", where)
    return (None, 0, "tie", 0)


def _expect(result: str, kind: str, where: str) -> None:
    """A hand entered as an undercut must score as one."""
    if result == "undercut" and kind != "undercut":
        raise _sheet_error(where, "not an undercut: the knocker's deadwood is lower, the "
                           "knocker wins the hand" if kind == "knock" else
                           f"not an undercut ({kind})", "not_undercut")


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
        raise SheetInputError("the sheet must be a JSON object", "sheet_object")
    try:
        rules = Rules.from_dict(data.get("rules", "standard"))
    except GinRummyError as e:
        raise SheetInputError(f"rules: {e}", e.reason or "other",
                              **(e.params if e.reason else {"text": str(e)})) from None
    scoring = data.get("scoring", "standard")
    if scoring not in SCORINGS:
        raise SheetInputError(f"scoring must be one of {', '.join(SCORINGS)}, got {scoring!r}",
                              "unknown_scoring", scoring=json.dumps(scoring),
                              choices=list(SCORINGS))
    names = data.get("players")
    n = _PLAYER_COUNT[scoring]
    if (not isinstance(names, list) or len(names) != n
            or not all(isinstance(x, str) and x for x in names) or len(set(names)) != n):
        raise SheetInputError(f"players: give {n} different names for {scoring} scoring",
                              "sheet_players", n=n, scoring=scoring)
    hands = data.get("hands", [])
    if not isinstance(hands, list):
        raise SheetInputError("hands must be a list", "sheet_hands")
    fd = data.get("first_dealer", names[0])
    if fd not in names:
        raise SheetInputError(f"first_dealer must be one of {', '.join(names)}",
                              "sheet_first_dealer", names=list(names))
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
        raise SheetInputError(str(e), e.reason or "other",
                              **(e.params if e.reason else {"text": str(e)})) from None


def _check_open(over: bool, i: int) -> None:
    if over:
        raise SheetInputError(f"hand {i}: the game was already over", "sheet_over", hand=i)


def _standard(rules: Rules, names: list[str], hands: list[Any], fd: int,
              out: dict[str, Any], lines: list[dict[str, Any]]) -> dict[str, Any]:
    g = Game(rules, fd)
    for i, h in enumerate(hands, 1):
        _check_open(g.is_over, i)
        w, p, kind, boxes = resolve_hand(h, rules, names, f"hand {i}")
        g.add_result(w, p, kind=kind, boxes=boxes)
        lines.append({"number": i, "winner": None if w is None else names[w], "points": p,
                      "kind": kind, "running": dict(zip(names, g.hand_points, strict=True))})
    dealer = g.dealer
    assert dealer is not None  # two players: a dealer seat
    out.update(hands=lines, over=g.is_over, games=[_final_json(g.final(), names)],
               next=None if g.is_over else {"dealer": names[dealer], "players": names})
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
               totals=dict(zip(names, t, strict=True)),
               next=None if s.is_over else {"players": names})
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
               settlements=settle, totals=totals,
               next=None if s.is_over else {"dealer": names[s.dealer],
                                            "players": [names[x] for x in s.players]})
    return out


def _partnership(rules: Rules, names: list[str], hands: list[Any], out: dict[str, Any],
                 lines: list[dict[str, Any]]) -> dict[str, Any]:
    s = PartnershipSheet(rules)
    teams = [f"{names[0]}+{names[2]}", f"{names[1]}+{names[3]}"]
    for i, h in enumerate(hands, 1):
        _check_open(s.is_over, i)
        if not isinstance(h, dict) or not isinstance(h.get("tables"), list) \
                or len(h["tables"]) != 2:
            raise SheetInputError(f"hand {i}: tables must list the two tables' results",
                                  "sheet_tables", hand=i)
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
    nxt = partnership_pairings(len(s.tables) + 1)
    out.update(hands=lines, over=s.is_over, teams=teams, games=[_final_json(f, teams)],
               totals=dict(zip(teams, f.totals, strict=True)),
               next=None if s.is_over else {"tables": [[names[x] for x in p] for p in nxt]})
    return out


# ------------------------------------------------------------------------------------- CSV
def _csv_rows(out: dict[str, Any]) -> list[list[Any]]:
    names: list[str] = out["players"]
    sc = out["scoring"]
    rows: list[list[Any]] = [["scoring", sc], ["players", *names]]
    if sc == "partnership":
        teams = out["teams"]
        rows.append(["hand", "table 1", "winner", "points", "table 2", "winner", "points",
                     "team", *teams])
        for h in out["hands"]:
            t1, t2 = h["tables"]
            rows.append([h["number"], "-".join(t1["players"]), t1["winner"] or "", t1["points"],
                         "-".join(t2["players"]), t2["winner"] or "", t2["points"],
                         h["team"] or "", *(h["running"][t] for t in teams)])
    elif sc == "three_player":
        rows.append(["hand", "dealer", "players", "winner", "kind", "points"])
        for h in out["hands"]:
            rows.append([h["number"], h["dealer"], "-".join(h["players"]), h["winner"] or "",
                         h["kind"], h["points"]])
    elif sc == "hollywood":
        rows.append(["hand", "winner", "kind", "points", "games"])
        for h in out["hands"]:
            rows.append([h["number"], h["winner"] or "", h["kind"], h["points"],
                         " ".join(str(g) for g in h["games"])])
    else:
        rows.append(["hand", "winner", "kind", "points", *names])
        for h in out["hands"]:
            rows.append([h["number"], h["winner"] or "", h["kind"], h["points"],
                         *(h["running"][n] for n in names)])
    rows.append([])
    if sc == "three_player":
        rows.append(["", *names])
        rows.append(["hand points", *(out["hand_points"][n] for n in names)])
        rows.append(["boxes", *(out["boxes"][n] for n in names)])
        for opp, f in out["settlements"].items():
            rows.append([f"settlement {f['winner']} v {opp}", f["totals"][f["winner"]],
                         f["totals"][opp], "shutout" if f["shutout"] else ""])
    else:
        cols = out["teams"] if sc == "partnership" else names
        for g in out["games"]:
            label = f"game {g['number']}" if sc == "hollywood" else "game"
            rows.append([label, *cols])
            closed = g["winner"] is not None
            for key in ("hand_points", "boxes", "box_points", "totals") if closed \
                    else ("hand_points", "boxes"):
                rows.append([key.replace("_", " "), *(g[key][c] for c in cols)])
            if closed:
                rows.append(["game bonus", *((g["game_bonus"] if g["winner"] == c else 0)
                                             for c in cols)])
                rows.append(["winner", g["winner"], "shutout" if g["shutout"] else ""])
            else:
                rows.append(["open"])
    rows.append(["total", *(out["totals"][c] for c in out["totals"])])
    rows.append(["over", "yes" if out["over"] else "no"])
    return rows


#: what makes a spreadsheet read a cell as a formula (or a command) when it begins the cell
CSV_FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


def csv_cell(value: Any) -> Any:
    """A CSV cell that a spreadsheet shows as text: a text beginning with one of
    :data:`CSV_FORMULA_STARTS` gets a leading ``'`` (OWASP "CSV injection"); numbers as they are.

    >>> csv_cell("=1+2"), csv_cell("-2"), csv_cell(-2), csv_cell("Ana")
    ("'=1+2", "'-2", -2, 'Ana')
    """
    if isinstance(value, str) and value.startswith(CSV_FORMULA_STARTS):
        return "'" + value
    return value


def sheet_csv(out: dict[str, Any]) -> str:
    """A scored sheet (:func:`score_sheet`'s answer) as CSV text: the hands, then each game's
    settlement and the totals; text cells escaped by :func:`csv_cell`."""
    import csv
    import io

    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\r\n")
    for row in _csv_rows(out):
        w.writerow([csv_cell(c) for c in row])
    return buf.getvalue()
