"""Write a strategy one game at a time; the adapter turns it into a batched Strategy.

A one-game bot answers one decision of one game from a ``GameView``: plain Python
values (card lists, tuples of ints) instead of the Observation's arrays and masks::

    class LowestBot:
        def play(self, view):            # any of pick, declare, play, place
            return min(view.legal)

    LowestStrategy = adapt(LowestBot, name="lowest")

or, equivalently, subclass ``PerGameStrategy`` and define ``pick_one`` / ``declare_one`` /
``play_one`` / ``place_one``. Decisions the bot does not define are taken by the base
strategy (uniform random, batched). The adapter loops over the games in Python, so it is
much slower per decision than a batched strategy; it is meant for trying ideas.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterable
from typing import Any

import numpy as np

from trixsim.games.trix.observation import FIELDS, Observation, describe
from trixsim.sim import StrategyError
from trixsim.strategy import Param, Strategy

METHODS = ("pick", "declare", "play", "place")
_BYTE_BITS = tuple(tuple(b for b in range(8) if x >> b & 1) for x in range(256))
_ALWAYS = frozenset({"legal", "key", "game"})
"""Fields the adapter itself reads (random fallback, error messages)."""


def bits(mask: int) -> list[int]:
    """The set bits of a 32-bit mask, ascending (cards of a card mask)."""
    out: list[int] = []
    for k in range(4):
        byte = (mask >> (8 * k)) & 0xFF
        if byte:
            out.extend(8 * k + b for b in _BYTE_BITS[byte])
    return out


class _Rows:
    """An Observation's fields as Python lists, converted on first use."""

    __slots__ = ("obs", "cache")

    def __init__(self, obs: Observation) -> None:
        self.obs = obs
        self.cache: dict[str, list[Any]] = {}

    def get(self, name: str) -> list[Any]:
        try:
            return self.cache[name]
        except KeyError:
            values = getattr(self.obs, name).tolist()
            self.cache[name] = values
            return values


def _int(name: str, doc: str) -> property:
    return property(lambda self: self._rows.get(name)[self._i], doc=doc)


def _quad(name: str, doc: str) -> property:
    return property(lambda self: tuple(self._rows.get(name)[self._i]), doc=doc)


def _cards(name: str, doc: str) -> property:
    return property(lambda self: bits(self._rows.get(name)[self._i]), doc=doc)


def _cards4(name: str, doc: str) -> property:
    return property(lambda self: tuple(bits(m) for m in self._rows.get(name)[self._i]),
                    doc=doc)


class GameView:
    """One game's observation for one decision, as plain read-only Python values.

    Ints: game, seat, decision, contract_no, pick, first_picker, picker, contract,
    trick_no, trick_n, leader, best_card, best_seat, last_winner, declared, out_first,
    ply, key. Tuples of 4 ints by seat: totals, tricks, hand_sizes. Card lists: hand,
    played, legal (the legal actions: contract ids, 0/1, or cards). Tuples of 4 lists by
    seat: played_by, won, used (contract ids). ``trick``: the current trick as a list of
    (seat, card) in playing order. ``trix_history``: this contract's trix moves in order as
    (seat, card placed or PASS). ``hand_mask`` and ``legal_mask``: the raw masks.
    """

    __slots__ = ("_rows", "_i")

    def __init__(self, rows: _Rows, i: int) -> None:
        object.__setattr__(self, "_rows", rows)
        object.__setattr__(self, "_i", i)

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError("game views are read-only")

    hand = _cards("hand", "the seat's own cards, ascending")
    legal = _cards("legal", "the legal actions, ascending (contract ids, 0/1, or cards)")
    played = _cards("played", "all cards played or placed this contract")
    played_by = _cards4("played_by", "cards each seat played or placed this contract")
    won = _cards4("won", "cards each seat took in completed tricks this contract")
    totals = _quad("totals", "running totals by seat")
    tricks = _quad("tricks", "tricks taken this contract by seat")
    hand_sizes = _quad("hand_sizes", "cards each seat still holds")
    hand_mask = _int("hand", "the own hand as a 32-bit card mask")
    legal_mask = _int("legal", "the legal actions as a mask")

    @property
    def used(self) -> tuple[list[int], ...]:
        """Contract ids each seat has already used."""
        return tuple(bits(m) for m in self._rows.get("used")[self._i])

    @property
    def trick(self) -> list[tuple[int, int]]:
        """The current trick as (seat, card) in playing order."""
        cards = self._rows.get("trick_cards")[self._i]
        leader = self._rows.get("leader")[self._i]
        n = self._rows.get("trick_n")[self._i]
        return [((leader + k) % 4, cards[k]) for k in range(n)]

    @property
    def trix_history(self) -> list[tuple[int, int]]:
        """This contract's trix moves in order, as (seat, card placed or PASS)."""
        log = self._rows.get("trix_log")[self._i]
        n = self._rows.get("trix_n")[self._i]
        return [((log[k // 8] >> (8 * (k % 8)) & 0xFF) >> 6,
                 log[k // 8] >> (8 * (k % 8)) & 63) for k in range(n)]

    def random_action(self) -> int:
        """A legal action uniform at random from this decision's key (the base strategy's
        draw, so a bot built on it plays the same games as the batched ``random``)."""
        legal = self.legal
        r = ((self.key >> 32) * len(legal)) >> 32
        return legal[r]

    def as_dict(self) -> dict[str, Any]:
        """Every available field (for printing and debugging)."""
        out: dict[str, Any] = {}
        for name in VIEW_FIELDS:
            try:
                out[name] = getattr(self, name)
            except AttributeError:
                pass
        return out

    def __repr__(self) -> str:
        return f"GameView(game={self.game}, seat={self.seat}, decision={self.decision})"


_SIMPLE = [f for f in FIELDS if f not in ("hand", "legal", "played", "played_by", "won",
                                          "totals", "tricks", "hand_sizes", "used",
                                          "trick_cards", "trix_log")]
for _name in _SIMPLE:
    setattr(GameView, _name, _int(_name, describe()[_name]))
VIEW_FIELDS = (*_SIMPLE, "hand", "legal", "played", "played_by", "won", "totals", "tricks",
               "hand_sizes", "used", "trick", "trix_history", "hand_mask", "legal_mask")


class PerGameStrategy(Strategy):
    """A Strategy answering game by game: define ``pick_one(view)``, ``declare_one(view)``,
    ``play_one(view)`` and/or ``place_one(view)``; the others stay uniform random."""

    name = "per-game"
    description = "one-game bot wrapped as a batched strategy"
    observes = None

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        if cls.observes is not None:
            cls.observes = frozenset(cls.observes) | _ALWAYS

    def one_game_methods(self) -> dict[str, Callable[[GameView], Any]]:
        """The per-game method for each decision it answers itself."""
        return {m: getattr(self, m + "_one") for m in METHODS
                if callable(getattr(self, m + "_one", None))}

    def _answer(self, method: str, obs: Observation) -> np.ndarray:
        fns = self.__dict__.get("_fns")
        if fns is None:
            fns = self.one_game_methods()
            self.__dict__["_fns"] = fns
        fn = fns.get(method)
        if fn is None:
            return getattr(Strategy, method)(self, obs)
        rows = _Rows(obs)
        n = len(obs)
        out = np.empty(n, dtype=np.int64)
        for i in range(n):
            view = GameView(rows, i)
            try:
                a = fn(view)
            except Exception as exc:
                raise StrategyError(
                    f"strategy {self.label!r} raised {type(exc).__name__}: {exc} on decision "
                    f"{method!r} in game {view.game}") from exc
            if isinstance(a, (bool, np.bool_)) and method == "declare":
                a = int(a)
            if isinstance(a, (bool, np.bool_)) or not isinstance(a, (int, np.integer)) \
                    or not -2**63 <= a < 2**63:
                raise StrategyError(
                    f"strategy {self.label!r} returned {a!r} ({type(a).__name__}) on decision "
                    f"{method!r} in game {view.game}, not an integer action")
            out[i] = a
        return out

    def pick(self, obs: Observation) -> np.ndarray:
        """Contract ids, one per game, from ``pick_one`` (else random)."""
        return self._answer("pick", obs)

    def declare(self, obs: Observation) -> np.ndarray:
        """0/1 per game from ``declare_one`` (else random)."""
        return self._answer("declare", obs)

    def play(self, obs: Observation) -> np.ndarray:
        """Cards per game from ``play_one`` (else random)."""
        return self._answer("play", obs)

    def place(self, obs: Observation) -> np.ndarray:
        """Cards per game from ``place_one`` (else random)."""
        return self._answer("place", obs)


class RandomOneGameBot:
    """Every decision uniform at random, one game at a time.

    The simplest plain one-game bot, and what the adapter's cost is measured with.
    """

    def pick(self, view: GameView) -> int:
        """A random legal contract."""
        return view.random_action()

    def declare(self, view: GameView) -> int:
        """Declare or not, at random."""
        return view.random_action()

    def play(self, view: GameView) -> int:
        """A random legal card."""
        return view.random_action()

    def place(self, view: GameView) -> int:
        """A random placeable card."""
        return view.random_action()


def adapt(bot: Any = None, *, name: str | None = None, description: str | None = None,
          params: dict[str, Param] | None = None, observes: Iterable[str] | None = None,
          **functions: Callable[[GameView], Any]) -> type[PerGameStrategy]:
    """A batched Strategy class from a one-game bot.

    ``bot`` is a class (instantiated once per strategy instance, with the strategy's
    parameter values as keyword arguments) or any object (an instance, a module) whose
    ``pick``/``declare``/``play``/``place`` methods take a GameView and return an int
    (``declare`` may return a bool). Functions can also be given directly:
    ``adapt(play=lambda v: min(v.legal), name="lowest")``. ``name``, ``description``,
    ``params`` and ``observes`` default to the bot's attributes of those names.
    """
    unknown = sorted(set(functions) - set(METHODS))
    if unknown:
        raise TypeError(f"adapt() got unknown decisions {unknown} (decisions: {METHODS})")
    if bot is None and not functions:
        raise TypeError("adapt() needs a bot or at least one decision function")
    caller = sys._getframe(1).f_globals.get("__name__", __name__)
    label = name or getattr(bot, "name", None) or (
        getattr(bot, "__name__", None) or type(bot).__name__).lower()
    doc = (getattr(bot, "__doc__", None) or "").strip().splitlines()
    params = dict(params if params is not None else getattr(bot, "params", {}) or {})
    if observes is None:
        observes = getattr(bot, "observes", None)

    def __init__(self: PerGameStrategy, **values: Any) -> None:
        PerGameStrategy.__init__(self, **values)
        if isinstance(bot, type):
            self.bot = bot(**{k: getattr(self, k) for k in params})
        else:
            self.bot = bot

    def one_game_methods(self: PerGameStrategy) -> dict[str, Callable[[GameView], Any]]:
        out = {m: getattr(self.bot, m) for m in METHODS
               if self.bot is not None and callable(getattr(self.bot, m, None))}
        out.update(functions)
        return out

    cls_name = "".join(p.capitalize() for p in label.replace("_", "-").split("-")) or "Bot"
    namespace: dict[str, Any] = {
        "name": label,
        "description": description or (doc[0] if doc else f"one-game bot {label}"),
        "params": params,
        "observes": None if observes is None else frozenset(observes),
        "bot": None,
        "__init__": __init__,
        "one_game_methods": one_game_methods,
        "__module__": caller,
        "__doc__": f"Batched wrapper of the one-game bot {label!r}.",
    }
    return type(cls_name + "Strategy", (PerGameStrategy,), namespace)


__all__ = ["VIEW_FIELDS", "GameView", "PerGameStrategy", "adapt", "bits"]
