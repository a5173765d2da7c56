"""Which bots a web table may seat: a list the server's operator controls.

A web client is a stranger, so its strategy spec is never handed to the loader (which
reads files and imports modules). By default a table may seat the bundled strategies by
name, with ``key=value`` parameters of their declared types, each number within the
limits its strategy declares for strangers (``Param.limit``, e.g. ``pimc:worlds`` at
most 256) and finite. The operator widens the list with ``trixsim serve --allow SPEC``:
each such spec (any spec the loader takes, files included) is loaded once at start-up
and may then be seated by its exact text. A level's name (``easy``, ``medium``, ``hard``,
``expert``: ``Game.levels``) seats that level's bundled spec, under the same checks.
Everything else is refused with the same
message, whatever it names, so a refusal tells nothing about the server.
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterable

from trixsim.levels import Level, levels_of
from trixsim.loading import StrategyLoadError, bundled, convert_params, load_strategy
from trixsim.strategy import Strategy

Spec = str
"""A strategy spec as a web client or the operator wrote it."""

SPEC_RE = re.compile(r"^([a-z][a-z0-9_]{0,31})(?::([A-Za-z0-9_.+=,-]{1,160}))?$")
"""A bundled name, then optionally ``key=value`` pairs: no paths, ``@`` or imports."""
MAX_SPEC = 200


class BotRefused(ValueError):
    """A spec this server does not seat; the text names only what it does seat."""


class BotList:
    """The bots this server seats: bundled names (checked parameters) and ``allowed``."""

    def __init__(self, allowed: Iterable[Spec] = (), bundled_names: bool = True, *,
                 game: str) -> None:
        """The list for ``game``'s tables; load each operator-allowed spec now, for that
        game (StrategyLoadError if one cannot be)."""
        self.classes = bundled(game) if bundled_names else {}
        self.levels = _levels(game) if bundled_names else ()
        self.allowed: dict[Spec, Strategy] = {}
        for spec in allowed:
            self.allowed[spec.strip()] = load_strategy(spec.strip(), game)

    def for_game(self, game: str) -> BotList:
        """The same list for another game: its bundled strategies (if this list seats
        bundled ones) and the operator-allowed specs that play it."""
        other = BotList(bundled_names=bool(self.classes), game=game)
        for spec in self.allowed:
            try:
                other.allowed[spec] = load_strategy(spec, game)
            except StrategyLoadError:
                continue  # a spec for another game: not offered at this game's tables
        return other

    def names(self) -> list[str]:
        """What the bot picker offers: the bundled names, then the allowed specs."""
        return list(self.classes) + [s for s in self.allowed if s not in self.classes]

    def level_list(self) -> list[dict[str, str]]:
        """The levels the bot picker offers, weakest first: name, spec and one line."""
        return [{"name": lv.name, "spec": lv.spec, "about": lv.about} for lv in self.levels]

    def _level(self, text: Spec) -> Level | None:
        """The level ``text`` names (exactly), unless the operator allowed that text as a
        spec of its own."""
        if text in self.allowed:
            return None
        return next((lv for lv in self.levels if lv.name == text), None)

    def resolve(self, spec: Spec) -> Spec:
        """The spec ``spec`` plays: a level's bundled spec, else ``spec`` itself."""
        level = self._level(spec.strip())
        return spec.strip() if level is None else level.spec

    def label(self, spec: Spec) -> str:
        """How a seated bot is shown: a level with the spec it plays (once where they are
        the same word), else the spec."""
        level = self._level(spec.strip())
        if level is None:
            return spec.strip()
        return level.name if level.spec == level.name else f"{level.name} ({level.spec})"

    def refusal(self) -> str:
        """The one refusal message (the same for every refused spec)."""
        return ("this table seats only these bots: " + ", ".join(self.names())
                + " (bundled ones may take parameters within their limits, e.g. "
                  "pimc:worlds=64)")

    def load(self, spec: object) -> Strategy:
        """The strategy ``spec`` names, if this server seats it; BotRefused otherwise."""
        if not isinstance(spec, str) or len(spec) > MAX_SPEC:
            raise BotRefused(self.refusal())
        text = self.resolve(spec)
        if text in self.allowed:
            return self.allowed[text]
        m = SPEC_RE.match(text)
        if m is None or m.group(1) not in self.classes:
            raise BotRefused(self.refusal())
        cls = self.classes[m.group(1)]
        values: dict[str, str] = {}
        for item in (m.group(2) or "").split(","):
            if not item:
                continue
            key, eq, value = item.partition("=")
            if not eq or key in values:
                raise BotRefused(f"write parameters as key=value, once each, e.g. "
                                 f"{cls.name}:{next(iter(cls.params), 'key')}=…")
            values[key] = value
        try:
            checked = convert_params(cls, values, cls.name)
        except StrategyLoadError as exc:
            raise BotRefused(str(exc).splitlines()[0]) from None
        for key, value in checked.items():
            _check_limit(cls, key, value)
        try:
            strategy = cls(**checked)
        except Exception as exc:  # the class's own checks (a bundled class: no secrets)
            raise BotRefused(f"{cls.name}: {str(exc).splitlines()[0] if str(exc) else ''}"
                             ) from None
        strategy.spec = text  # type: ignore[attr-defined]
        return strategy


def _levels(game: str) -> tuple[Level, ...]:
    """``game``'s ladder (none for a game the registry does not know)."""
    from trixsim.games import UnknownGameError, get_game

    try:
        return levels_of(get_game(game))
    except UnknownGameError:
        return ()


def _check_limit(cls: type[Strategy], key: str, value: object) -> None:
    """Refuse a number outside the parameter's declared limits, or not finite."""
    if isinstance(value, bool) or not isinstance(value, int | float):
        return
    if not math.isfinite(value):
        raise BotRefused(f"{cls.name}: parameter {key!r} must be a finite number")
    limit = cls.params[key].limit
    if limit is not None and not limit[0] <= value <= limit[1]:
        raise BotRefused(f"{cls.name}: parameter {key!r} must be between {limit[0]:g} "
                         f"and {limit[1]:g} at this table")


__all__ = ["BotList", "BotRefused", "MAX_SPEC", "SPEC_RE", "Spec"]
