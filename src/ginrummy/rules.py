"""The rules of a table as data (RULES.md sections 8-10): one frozen, validated dataclass.

>>> Rules.preset("pagat").gin_bonus
20
>>> Rules.preset("standard", target=150).target
150
>>> Rules(target=0)
Traceback (most recent call last):
...
ginrummy.errors.RulesError: target must be between 1 and 100000; got 0
"""

from __future__ import annotations

import functools
from dataclasses import asdict, dataclass, fields, replace
from typing import Any, Final, Literal

from .errors import RulesError
from .errors import shown_value as _shown

__all__ = ["Rules", "PRESETS", "FIELD_CHOICES", "NEW_TARGET_MAX", "check_new_target"]

Shutout = Literal["none", "flat", "double_hand_points", "double_total"]
NextDealer = Literal["winner", "loser", "alternate"]
DeadHandRule = Literal["standard", "fiftieth_card"]
OklahomaAce = Literal["gin_only", "one"]

#: allowed values of the text fields.
FIELD_CHOICES: Final[dict[str, tuple[str, ...]]] = {
    "shutout": ("none", "flat", "double_hand_points", "double_total"),
    "next_dealer": ("winner", "loser", "alternate"),
    "dead_hand_rule": ("standard", "fiftieth_card"),
    "oklahoma_ace": ("gin_only", "one"),
}
#: inclusive ranges of the integer fields.
_RANGES: Final[dict[str, tuple[int, int]]] = {
    "knock_limit": (0, 10),
    "gin_bonus": (0, 1000),
    "undercut_bonus": (0, 1000),
    "big_gin_bonus": (0, 1000),
    "box_bonus": (0, 1000),
    "game_bonus": (0, 10000),
    "target": (1, 100000),
}
#: the highest target a NEW table may choose (R-10.1; every preset is 100 to 150, and a game to
#: 1,000 is already some ten ordinary games). :class:`Rules` itself still takes up to 100,000, so
#: that games and records made before this cap load and verify.
NEW_TARGET_MAX: Final = 1000


def check_new_target(target: object) -> None:
    """The target a new table chose (an override, or None for the preset's).

    :raises RulesError: if it is a whole number above :data:`NEW_TARGET_MAX` (other values are
        left to :class:`Rules`).
    """
    if isinstance(target, int) and not isinstance(target, bool) and target > NEW_TARGET_MAX:
        raise RulesError(f"target must be between 1 and {NEW_TARGET_MAX} for a new table; "
                         f"got {target}", "target_cap", max=NEW_TARGET_MAX, value=target)


@functools.lru_cache(maxsize=256)
def _as_dict(rules: Rules) -> dict[str, Any]:
    """The fields of ``rules`` (frozen, so cached; callers get a copy)."""
    return asdict(rules)


@dataclass(frozen=True, slots=True)
class Rules:
    """Every rule choice of a table. All points are in points; every field is validated.

    :ivar knock_limit: most deadwood points a knocker may show (R-4.2); 0 = straight gin (SG).
    :ivar gin_bonus: added to the defender's deadwood on gin (R-7.1).
    :ivar undercut_bonus: added to the difference on an undercut (R-7.4).
    :ivar undercut_on_tie: a tie in deadwood is an undercut (R-7.4); otherwise it scores nothing.
    :ivar big_gin_bonus: ``None`` = big gin off; else its bonus (R-5.3, R-7.2).
    :ivar box_bonus: per hand won, added at game end (R-10.3).
    :ivar game_bonus: to the winner (R-10.2).
    :ivar shutout: ``none`` | ``flat`` | ``double_hand_points`` | ``double_total`` (R-10.4).
    :ivar target: hand points that end the game (R-10.1).
    :ivar next_dealer: ``winner`` | ``loser`` | ``alternate`` (R-9.1); dead hand: same dealer.
    :ivar boxes_count_toward_target: boxes x box_bonus count toward the target (R-10.1).
    :ivar extra_boxes: undercut earns 1 extra box, gin (and big gin) 2 (R-10.6).
    :ivar dead_hand_rule: ``standard`` | ``fiftieth_card`` (R-8.1, R-8.2).
    :ivar oklahoma: the hand's knock limit is the initial upcard's value (O-1).
    :ivar oklahoma_ace: ace upcard: ``gin_only`` or ``one`` (O-2).
    :ivar oklahoma_spade_double: a spade upcard doubles the hand's score (O-4).
    """

    knock_limit: int = 10
    gin_bonus: int = 25
    undercut_bonus: int = 25
    undercut_on_tie: bool = True
    big_gin_bonus: int | None = None
    box_bonus: int = 25
    game_bonus: int = 100
    shutout: Shutout = "double_total"
    target: int = 100
    next_dealer: NextDealer = "winner"
    boxes_count_toward_target: bool = False
    extra_boxes: bool = False
    dead_hand_rule: DeadHandRule = "standard"
    oklahoma: bool = False
    oklahoma_ace: OklahomaAce = "gin_only"
    oklahoma_spade_double: bool = True

    def __post_init__(self) -> None:
        for f in fields(self):
            v = getattr(self, f.name)
            if f.name in FIELD_CHOICES:
                if v not in FIELD_CHOICES[f.name]:
                    raise RulesError(f"{f.name} must be one of {', '.join(FIELD_CHOICES[f.name])}; "
                                     f"got {v!r}", "rules_choice", field=f.name,
                                     choices=list(FIELD_CHOICES[f.name]), value=_shown(v))
            elif f.name in _RANGES:
                if f.name == "big_gin_bonus" and v is None:
                    continue
                lo, hi = _RANGES[f.name]
                if isinstance(v, bool) or not isinstance(v, int):
                    raise RulesError(f"{f.name} must be a whole number; got {v!r}", "rules_whole",
                                     field=f.name, value=_shown(v))
                if not lo <= v <= hi:
                    raise RulesError(f"{f.name} must be between {lo} and {hi}; got {v}",
                                     "rules_range", field=f.name, min=lo, max=hi, value=v)
            elif not isinstance(v, bool):
                raise RulesError(f"{f.name} must be true or false; got {v!r}", "rules_bool",
                                 field=f.name, value=_shown(v))
        if self.oklahoma and self.knock_limit == 0:
            raise RulesError("oklahoma takes the knock limit from the upcard: it cannot be "
                             "combined with straight gin (knock_limit 0)", "oklahoma_straight")
        if self.oklahoma and self.knock_limit != 10:
            raise RulesError("oklahoma takes the knock limit from the upcard: leave knock_limit "
                             "at 10", "oklahoma_limit")
        if not self.oklahoma and self.oklahoma_ace != "gin_only":
            raise RulesError("oklahoma_ace is the Oklahoma reading of an ace upcard (O-2): it "
                             "needs oklahoma on", "oklahoma_ace_off")
        if not self.oklahoma and not self.oklahoma_spade_double:
            raise RulesError("oklahoma_spade_double is the Oklahoma spade upcard rule (O-4): it "
                             "needs oklahoma on", "oklahoma_spade_off")

    # presets ----------------------------------------------------------------------------------
    @classmethod
    def preset(cls, name: str, **overrides: Any) -> Rules:
        """A named preset (RULES.md section 10) with optional field overrides.

        :raises RulesError: unknown preset or field, or a bad value.
        """
        if name not in PRESETS:
            raise RulesError(f"unknown rules preset {name!r}; presets: {', '.join(PRESETS)}",
                             "unknown_preset", preset=_shown(name), choices=list(PRESETS))
        return PRESETS[name].with_changes(**overrides)

    def with_changes(self, **overrides: Any) -> Rules:
        """A copy with some fields changed. :raises RulesError: unknown field or bad value."""
        names = {f.name for f in fields(self)}
        for k in overrides:
            if k not in names:
                raise RulesError(f"unknown rules field {k!r}", "unknown_field", field=_shown(k))
        return replace(self, **overrides)

    @classmethod
    def from_dict(cls, data: object) -> Rules:
        """Rules from ``{"preset": name?, field: value...}`` (default preset ``standard``), or
        from a preset name. :raises RulesError: on anything invalid."""
        if isinstance(data, str):
            return cls.preset(data)
        if data is None:
            return cls.preset("standard")
        if not isinstance(data, dict):
            raise RulesError("rules must be a preset name or an object of fields", "rules_shape")
        d = dict(data)
        name = d.pop("preset", "standard")
        if not isinstance(name, str):
            raise RulesError("preset must be a name", "unknown_preset", preset=_shown(name),
                             choices=list(PRESETS))
        return cls.preset(name, **d)

    def to_dict(self) -> dict[str, Any]:
        """Every field as JSON-ready values (a new dict each call)."""
        return dict(_as_dict(self))

    def preset_name(self) -> str | None:
        """The name of the preset these rules equal, if any."""
        for name, r in PRESETS.items():
            if r == self:
                return name
        return None

    @property
    def straight(self) -> bool:
        """Straight gin: no knocking (SG)."""
        return self.knock_limit == 0


PRESETS: Final[dict[str, Rules]] = {
    "standard": Rules(),
    "pagat": Rules(gin_bonus=20, undercut_bonus=10, box_bonus=20, shutout="flat"),
    "eaai": Rules(box_bonus=0, game_bonus=0, shutout="none", next_dealer="alternate"),
    "oklahoma": Rules(oklahoma=True, target=150),
    "straight": Rules(knock_limit=0),
    "partnership": Rules(target=125),  # 4P
}
