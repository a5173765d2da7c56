"""``check_strategy``: a strategy plays real games and must keep the strategy API."""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from trixsim.games.trix import (
    GAME,
    GameState,
    IllegalActionError,
    Observation,
)
from trixsim.games.trix.observation import FIELDS
from trixsim.games.trix.types import DECISION_NAMES, DECLARE, PICK, PLACE, PLAY
from trixsim.loading import StrategyLoadError, build, bundled, check_class, load_strategy
from trixsim.sim import IntegrityError, StrategyError, play_batch
from trixsim.strategy import Param, Strategy
from trixsim.testing._common import (
    _METHODS,
    _PARAM_TYPES,
    _SEVENS_GAMES,
    _SINGLE_GAMES,
    ConformanceError,
    _action_text,
    _fail,
    _ids_text,
)
from trixsim.testing.fairness import FAIR_GAMES, check_fair_play
from trixsim.testing.policy import check_agreement

# ====================================================================== check_strategy

_HINTS = {
    "answer shape and dtype": "Return one integer action per game: an int array of length "
                              "len(obs), e.g. np.empty(len(obs), dtype=np.int64)",
    "legal actions": "Choose among the set bits of obs.legal (bit k set: action k is legal)",
    "observes": "Add the field to the class's `observes`, or set `observes = None` to get "
                "every field",
    "exceptions": "A strategy must answer every decision it is asked; the exception stops "
                  "a run",
    "observation mutation": "Treat observations as read-only; copy an array before changing "
                            "it (np.array(obs.legal))",
    "determinism": "Draw randomness only from obs.key (trixsim.choice.choose_uniform(mask, "
                   "obs.key)), never from an unseeded generator or the clock, and keep no "
                   "state between calls that changes later answers: runs must be "
                   "reproducible and resumable",
    "batch independence": "Decide each game from its own row of the observation only, not "
                          "from len(obs), the row's position or the other rows: results must "
                          "not depend on --batch-size, the worker count or which games share "
                          "a batch",
    "state integrity": "A strategy must not change the game state",
}


@dataclass
class _Log:
    """Every answer of the strategy under test, and where it is being played now."""

    who: str
    where: str = ""
    calls: dict[int, int] = field(default_factory=lambda: {d: 0 for d, _ in _METHODS})
    rows: list[np.ndarray] = field(default_factory=list)

    def start(self, where: str) -> None:
        """Begin a new play: clear the answers, remember how it is played (for messages)."""
        self.where = where
        self.rows = []

    def answers(self) -> np.ndarray:
        """The answers as rows (game, ply, decision, seat, action), by game and ply."""
        if not self.rows:
            return np.zeros((0, 5), dtype=np.int64)
        a = np.concatenate(self.rows)
        return a[np.lexsort((a[:, 1], a[:, 0]))]


_EXTRA = frozenset({"game", "ply", "decision", "seat"})
"""Fields the checking wrapper reads itself (to name games); the strategy sees only its own."""


class _Checked(Strategy):
    """Seats the strategy under test: checks each answer's shape and dtype, that the
    observation is unchanged by the call, and records the answers.

    The wrapped strategy receives an Observation holding exactly the fields the engine
    gives it in a run (its ``observes``, plus ``legal``), so undeclared reads fail as they
    would in a run. Legality is left to the engine's step, as in a run.
    """

    name = "checked"

    def __init__(self, inner: Strategy, log: _Log) -> None:  # no parameters of its own
        self.inner = inner
        self.log = log
        own = inner.observes
        self.own: frozenset[str] | None = None if own is None else frozenset(own) | {"legal"}
        self.observes = None if own is None else self.own | _EXTRA  # type: ignore[misc]
        self.names = tuple(k for k in FIELDS if self.own is None or k in self.own)

    @property
    def label(self) -> str:
        """The wrapped strategy's label, so the engine's messages name it."""
        return self.inner.label

    def pick(self, obs: Observation) -> np.ndarray:
        return self._ask(PICK, "pick", obs)

    def declare(self, obs: Observation) -> np.ndarray:
        return self._ask(DECLARE, "declare", obs)

    def play(self, obs: Observation) -> np.ndarray:
        return self._ask(PLAY, "play", obs)

    def place(self, obs: Observation) -> np.ndarray:
        return self._ask(PLACE, "place", obs)

    def _ask(self, decision: int, method: str, obs: Observation) -> Any:
        games = np.array(obs.game)
        fields = {k: getattr(obs, k) for k in self.names}
        view = Observation(fields)
        layout = [(k, a.dtype, a.shape) for k, a in fields.items()]
        before = b"".join(a.tobytes() for a in fields.values())
        self.log.calls[decision] += 1
        out = getattr(self.inner, method)(view)
        what = f"on decision {method!r}"
        try:
            after = b"".join(getattr(view, k).tobytes() for k in self.names)
        except AttributeError:
            after = None
        if after != before:
            self._changed(view, layout, before, games, what)
        try:
            a = np.asarray(out)
        except Exception as exc:
            raise self._fail("answer shape and dtype",
                             f"it returned {repr(out)[:60]}, not an action array, {what} "
                             f"(first game {int(games[0])}: {exc})") from None
        if a.shape != games.shape:
            shown = repr(out)[:60] if a.dtype == object else str(a.ravel()[:6].tolist())
            raise self._fail("answer shape and dtype",
                             f"it returned shape {a.shape} for {len(games)} games {what} "
                             f"(first game {int(games[0])}, actions {shown})")
        if not np.issubdtype(a.dtype, np.integer):
            raise self._fail("answer shape and dtype",
                             f"it returned {a.dtype} actions, not integers, {what} (game "
                             f"{int(games[0])}, action {a.flat[0]!r})")
        rows = np.empty((len(games), 5), dtype=np.int64)
        rows[:, 0] = games
        rows[:, 1] = obs.ply
        rows[:, 2] = decision
        rows[:, 3] = obs.seat
        rows[:, 4] = a
        self.log.rows.append(rows)
        return out

    def _changed(self, view: Observation, layout: list[tuple[str, np.dtype, tuple[int, ...]]],
                 before: bytes, games: np.ndarray, what: str) -> None:
        """Name the observation field the call changed or removed, and the game."""
        offset = 0
        for k, dtype, shape in layout:
            size = int(np.prod(shape)) * dtype.itemsize
            old = np.frombuffer(before[offset:offset + size], dtype=dtype).reshape(shape)
            offset += size
            new = getattr(view, k, None)
            if new is None:
                raise self._fail("observation mutation",
                                 f"it removed field {k!r} from the observation {what} "
                                 f"(first game {int(games[0])})")
            new = np.asarray(new)
            if new.shape != old.shape or new.dtype != old.dtype:
                raise self._fail("observation mutation",
                                 f"it replaced observation field {k!r} ({old.dtype} "
                                 f"{old.shape} -> {new.dtype} {new.shape}) {what} (first "
                                 f"game {int(games[0])})")
            diff = (new != old).reshape(len(old), -1).any(axis=1)
            if diff.any():
                row = int(np.flatnonzero(diff)[0])
                raise self._fail("observation mutation",
                                 f"it changed observation field {k!r} {what} in game "
                                 f"{int(games[row])} (from {old[row].tolist()} to "
                                 f"{new[row].tolist()})")

    def _fail(self, check: str, detail: str) -> ConformanceError:
        return _fail(self.log.who, check, f"{detail}; {self.log.where}", _HINTS[check])


def _resolve(strategy_or_spec: Strategy | type[Strategy] | str) -> Strategy:
    """A strategy instance from an instance, a class (built with its defaults) or a spec."""
    if isinstance(strategy_or_spec, Strategy):
        return strategy_or_spec
    what = f"check_strategy({strategy_or_spec!r})"
    try:
        if isinstance(strategy_or_spec, str):
            return load_strategy(strategy_or_spec, "trix")
        cls = check_class(strategy_or_spec, f"{strategy_or_spec!r}")
        return build(cls, {}, cls.name)
    except StrategyLoadError as exc:
        raise _fail(what, "loading", str(exc),
                    "The strategy must load as `trixsim run` would load it") from None


def _label(strategy: Strategy) -> str:
    """The strategy's label, or its name when its parameters are not set (a broken init)."""
    try:
        return strategy.label
    except Exception:
        return str(getattr(strategy, "name", type(strategy).__name__))


def _check_declarations(strategy: Strategy, who: str) -> None:
    """The class's `params` and `observes` are well formed and the loader can use them."""
    cls = type(strategy)
    hint = ("Declare each parameter as Param(default, doc) with a bool, int, float or str "
            "default: the default's type is the parameter's type, and the loader converts "
            "command-line and TOML values to it")
    params = cls.params
    if not isinstance(params, dict):
        raise _fail(who, "params", f"`params` is a {type(params).__name__}, not a dict "
                                   f"of name -> Param", hint)
    for key, p in params.items():
        if not isinstance(key, str) or not key.isidentifier():
            raise _fail(who, "params", f"parameter name {key!r} is not an identifier "
                                       f"(it must be given as name=value)", hint)
        if not isinstance(p, Param):
            raise _fail(who, "params", f"parameter {key!r} is {p!r}, not a "
                                       f"trixsim.strategy.Param", hint)
        if type(p.default) not in _PARAM_TYPES:
            raise _fail(who, "params", f"parameter {key!r} has default {p.default!r} of type "
                                       f"{type(p.default).__name__}, which cannot be given "
                                       f"on the command line or in TOML", hint)
        if isinstance(p.default, float) and not math.isfinite(p.default):
            raise _fail(who, "params", f"parameter {key!r} has default {p.default!r}, which "
                                       f"run.json (JSON) cannot record", hint)
        if not isinstance(p.doc, str) or not p.doc.strip():
            raise _fail(who, "params", f"parameter {key!r} has no doc string "
                                       f"(`trixsim strategies` shows it)", hint)
        value = getattr(strategy, key, None)
        if type(value) is not p.type:
            raise _fail(who, "params", f"the instance's value of parameter {key!r} is "
                                       f"{value!r} ({type(value).__name__}), not a "
                                       f"{p.type.__name__} as its default (does __init__ "
                                       f"call Strategy.__init__ with the values?)", hint)
        text = str(p.default).lower() if isinstance(p.default, bool) else str(p.default)
        for given in (p.default, text):
            try:
                built = build(cls, {key: given}, cls.name)
            except StrategyLoadError as exc:
                raise _fail(who, "params", f"the loader refuses parameter {key!r} at its own "
                                           f"default given as {given!r}: {exc}", hint) from None
            if getattr(built, key, None) != p.default:
                raise _fail(who, "params", f"parameter {key!r} given as {given!r} (its "
                                           f"default) becomes {getattr(built, key, None)!r}",
                            hint)
    try:
        check_class(cls, f"class {cls.__qualname__}")
    except StrategyLoadError as exc:
        raise _fail(who, "observes" if "observes" in str(exc) else "params", str(exc),
                    "Fix the class declaration") from None


def _play(lineup: Sequence[Strategy], seed: int, ids: np.ndarray, log: _Log,
          where: str) -> tuple[np.ndarray, GameState]:
    """Play games through the engine's driver; any failure becomes one named AssertionError.

    Returns the strategy's answers (see ``_Log.answers``) and the final state.
    """
    log.start(f"{where}, {_ids_text(ids)}, seed {seed}")
    try:
        st = play_batch(lineup, seed, ids, game=GAME)
    except StrategyError as exc:
        cause = exc.__cause__
        if isinstance(cause, ConformanceError):
            raise cause from None
        if isinstance(exc, IntegrityError):
            check = "state integrity"
        elif cause is None and isinstance(exc.__context__, IllegalActionError):
            check = "legal actions"  # refused by the engine's step, named by the driver
        elif isinstance(cause, AttributeError) and "not requested" in str(cause):
            check = "observes"
        else:
            check = "exceptions"
        raise _fail(log.who, check, f"{exc}; {log.where}", _HINTS[check]) from None
    return log.answers(), st


def _compare(log: _Log, check: str, seed: int, ref: tuple[np.ndarray, GameState],
             ref_what: str, other: tuple[np.ndarray, GameState], other_what: str,
             ids: np.ndarray) -> None:
    """The games ``ids`` got the same answers and the same final totals in both plays."""
    ids = np.sort(np.asarray(ids))
    a, b = (x[np.isin(x[:, 0], ids)] for x in (ref[0], other[0]))
    if a.shape != b.shape or not np.array_equal(a, b):
        game = _first_different_game(a, b, ids)
        ra, rb = a[a[:, 0] == game], b[b[:, 0] == game]
        n = min(len(ra), len(rb))
        rows = np.flatnonzero((ra[:n] != rb[:n]).any(axis=1))
        if not len(rows):
            detail = (f"in game {game} the strategy took {len(ra)} decisions in {ref_what} "
                      f"but {len(rb)} in {other_what}")
        elif np.array_equal(ra[rows[0], 1:4], rb[rows[0], 1:4]):
            _, ply, d, seat, x = (int(v) for v in ra[rows[0]])
            detail = (f"in game {game} the strategy answered decision "
                      f"{DECISION_NAMES[d]!r} at ply {ply} (seat {seat}) with "
                      f"{_action_text(d, x)} in {ref_what} but with "
                      f"{_action_text(d, int(rb[rows[0], 4]))} in {other_what}")
        else:
            detail = (f"game {game} reached different decisions at the strategy's decision "
                      f"number {int(rows[0]) + 1} in {ref_what} and in {other_what}")
        raise _fail(log.who, check, f"{detail} (seed {seed})", _HINTS[check])
    ta, tb = _totals_by_game(ref[1]), _totals_by_game(other[1])
    for g in ids.tolist():
        if ta[g] != tb[g]:
            raise _fail(log.who, check, f"game {g} ended with totals {ta[g]} in {ref_what} "
                                        f"but {tb[g]} in {other_what} (seed {seed})",
                        _HINTS[check])


def _first_different_game(a: np.ndarray, b: np.ndarray, ids: np.ndarray) -> int:
    """The first game of ``ids`` whose answer rows differ between ``a`` and ``b``."""
    sa = np.searchsorted(a[:, 0], ids, side="left"), np.searchsorted(a[:, 0], ids, "right")
    sb = np.searchsorted(b[:, 0], ids, side="left"), np.searchsorted(b[:, 0], ids, "right")
    for k, g in enumerate(ids.tolist()):
        ra, rb = a[sa[0][k]:sa[1][k]], b[sb[0][k]:sb[1][k]]
        if ra.shape != rb.shape or not np.array_equal(ra, rb):
            return int(g)
    raise AssertionError("no difference")  # unreachable: the caller saw one


def _totals_by_game(st: GameState) -> dict[int, list[int]]:
    """Final totals by game id."""
    return {int(g): [int(x) for x in t] for g, t in zip(st.game_id, st.totals, strict=True)}


def check_strategy(strategy_or_spec: Strategy | type[Strategy] | str, games: int = 200,
                   seed: int = 0) -> None:
    """Play ``games`` games with the strategy and fail on any breach of the strategy API.

    ``strategy_or_spec`` is an instance, a Strategy subclass (built with its defaults) or a
    spec as ``trixsim run`` takes it (``heuristic:declare_margin=5``, ``bot.py:Bot``).
    Checks, in this order (the first failure raises an AssertionError naming the check, the
    decision and the game):

    - ``params``: declared as ``Param(default, doc)`` with a bool, int, float or str default
      that the loader accepts back; ``observes`` names known fields;
    - with the strategy in all four seats, then in each seat against three bundled
      ``random`` seats: each answer is an integer array of length ``len(obs)``
      (``answer shape and dtype``) and legal for the engine (``legal actions``); the call
      leaves the observation unchanged (``observation mutation``); it reads only the
      fields in ``observes`` (``observes``, enforced by the observation); it raises
      nothing (``exceptions``); every decision kind is asked at least once;
    - ``determinism``: the same games played again give the same answers and totals;
    - ``batch independence``: the same games in shuffled order, in batches of 7 and one
      per batch give each game the same answers and totals;
    - if it offers a compiled policy: ``compiled policy agreement`` (see ``check_policy``);
    - ``hidden cards`` and ``public observation`` (see ``check_fair_play``): decisions
      asked again after the hidden cards were dealt anew consistently with the public
      history get the same answers, from the methods and from any compiled policy.

    The same instance is used throughout, as a run reuses it from batch to batch.
    """
    if games < 1:
        raise ValueError("games must be at least 1")
    strategy = _resolve(strategy_or_spec)
    who = f"check_strategy({_label(strategy)!r})"
    _check_declarations(strategy, who)
    log = _Log(who)
    checked = _Checked(strategy, log)
    rnd = bundled()["random"]()
    ids = np.arange(games, dtype=np.int64)
    everywhere = "the strategy in all four seats"
    first = _play([checked] * 4, seed, ids, log, f"{everywhere}, one batch")
    for seat in range(4):
        lineup: list[Strategy] = [rnd] * 4
        lineup[seat] = checked
        _play(lineup, seed, ids, log, f"the strategy in seat {seat} against three random "
                                      f"seats, one batch")
    never = [m for d, m in _METHODS if log.calls[d] == 0]
    if never:
        raise _fail(who, "coverage", f"decision {never[0]!r} never came up in {games} games "
                                     f"(seed {seed}), so it was not checked",
                    "Give check_strategy more games")
    again = _play([checked] * 4, seed, ids, log, f"{everywhere}, one batch, again")
    _compare(log, "determinism", seed, first, "the first play", again,
             "a second play of the same games", ids)
    order = np.random.default_rng(seed).permutation(ids)
    shuffled = _play([checked] * 4, seed, order, log, f"{everywhere}, shuffled order")
    _compare(log, "batch independence", seed, first, f"one batch of {games} in order",
             shuffled, "one batch in shuffled order", ids)
    for size, n in ((7, _SEVENS_GAMES), (1, _SINGLE_GAMES)):
        subset = order[:min(games, n)]
        answers, states = [], []
        for k in range(0, len(subset), size):
            part = subset[k:k + size]
            a, st = _play([checked] * 4, seed, part, log, f"{everywhere}, batches of {size}")
            answers.append(a)
            states.append(st)
        merged = np.concatenate(answers)
        merged = merged[np.lexsort((merged[:, 1], merged[:, 0]))]
        whole = GameState(np.concatenate([st.data for st in states]))
        _compare(log, "batch independence", seed, first, f"one batch of {games}",
                 (merged, whole), f"batches of {size}", subset)
    check_agreement(strategy, games, seed, who)
    check_fair_play(strategy, min(games, FAIR_GAMES), seed, who)
