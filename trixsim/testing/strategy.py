"""``check_strategy``: a strategy plays real games of its game and must keep the
strategy API."""

from __future__ import annotations

import math
import warnings
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from trixsim.errors import IllegalActionError, IntegrityError, StrategyError
from trixsim.game import Game
from trixsim.loading import StrategyLoadError, build, check_class, load_strategy
from trixsim.sim import play_batch
from trixsim.strategy import Param, Strategy
from trixsim.testing._common import (
    _PARAM_TYPES,
    _SEVENS_GAMES,
    _SINGLE_GAMES,
    ConformanceError,
    GameLike,
    _action_text,
    _decision_name,
    _fail,
    _ids_text,
    _tag,
    default_game,
    game_for,
)
from trixsim.testing.fairness import FAIR_GAMES, check_fair_play, offers_redeals
from trixsim.testing.policy import check_agreement

# ====================================================================== check_strategy

_HINTS = {
    "answer shape and dtype": "Return one integer action per game: an int array of length "
                              "len(obs), e.g. np.empty(len(obs), dtype=np.int64)",
    "legal actions": "Choose among the set bits of obs.legal (bit k set: action k is legal)",
    "observes": "Add the field to the class's `observes` (and to the decision's set in "
                "`observes_by_decision`, if it has one), or set `observes = None` to get "
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
    """How often each decision was asked of the strategy under test, and where it is
    being played now (for messages)."""

    who: str
    where: str = ""
    calls: dict[int, int] = field(default_factory=dict)

    def start(self, where: str) -> None:
        """Begin a new play: remember how it is played (for messages)."""
        self.where = where


class _Answers:
    """An observer keeping every answer of the games played (forced actions left out):
    rows (game, ply, decision, seat, action), by game in the order played. ``ply`` is the
    observation's public counter where the game has one (``ply``), else the answer's
    number in its game."""

    def __init__(self, game: Game) -> None:
        self.game = game
        self.ply = "ply" in game.observation_fields
        self.rows: list[np.ndarray] = []

    def before_step(self, st: Any, actions: np.ndarray, legal: np.ndarray) -> None:
        """Keep the answers of this step."""
        decision, seat, forced = self.game.pending(st, legal)
        live = np.flatnonzero((decision >= 0) & (forced < 0))
        if not live.size:
            return
        rows = np.empty((live.size, 5), dtype=np.int64)
        rows[:, 0] = np.asarray(st.game_id)[live]
        rows[:, 1] = -1
        if self.ply:
            obs = self.game.strategy_view(st, live, np.asarray(legal)[live],
                                          frozenset({"legal", "ply"}))
            rows[:, 1] = np.asarray(obs.ply)
        rows[:, 2] = decision[live]
        rows[:, 3] = seat[live]
        rows[:, 4] = np.asarray(actions)[live]
        self.rows.append(rows)

    def answers(self) -> np.ndarray:
        """The answers as rows (game, ply, decision, seat, action), by game and ply."""
        if not self.rows:
            return np.zeros((0, 5), dtype=np.int64)
        a = np.concatenate(self.rows)
        a = a[np.argsort(a[:, 0], kind="stable")]
        if not self.ply:  # number the answers of each game
            first = np.searchsorted(a[:, 0], a[:, 0], side="left")
            a[:, 1] = np.arange(len(a)) - first
        return a


class _Checked(Strategy):
    """Seats the strategy under test: checks each answer's shape and dtype and that the
    observation is unchanged by the call (one method per decision of the game, made by
    ``_checked``).

    The wrapped strategy receives an observation holding exactly the fields the engine
    gives it in a run (its ``observes``, plus ``legal``), so undeclared reads fail as they
    would in a run. Legality is left to the engine's step, as in a run; the answers are
    kept by ``_Answers``.
    """

    name = "checked"

    def __init__(self, inner: Strategy, log: _Log, game: Game) -> None:  # no parameters
        self.inner = inner
        self.log = log
        self.game_rules = game
        fields = game.observation_fields
        own = inner.observes
        self.own: frozenset[str] | None = None if own is None else frozenset(own) | {"legal"}
        extra = {"game"} & set(fields)  # to name games in messages; the strategy sees its own
        self.extra = frozenset(extra)
        self.observes = None if own is None else self.own | extra  # type: ignore[misc]
        self.names = tuple(k for k in fields if self.own is None or k in self.own)
        # per decision, what a run gives the strategy (its ``observes_by_decision``)
        self.names_by: dict[str, tuple[str, ...]] = {}
        for d in game.decisions:
            mine = inner.observes_for(d.name)
            mine = None if mine is None else frozenset(mine) | {"legal"}
            self.names_by[d.name] = tuple(k for k in fields if mine is None or k in mine)

    def observes_for(self, decision: str) -> frozenset[str] | None:
        """What the engine gathers for the wrapped strategy's ``decision``, and the game
        ids for messages."""
        mine = self.inner.observes_for(decision)
        return None if mine is None else frozenset(mine) | {"legal"} | self.extra

    @property
    def label(self) -> str:
        """The wrapped strategy's label, so the engine's messages name it."""
        return self.inner.label

    def _ask(self, decision: int, method: str, obs: Any) -> Any:
        games = np.array(obs.game) if "game" in self.game_rules.observation_fields else None
        names = self.names_by.get(_decision_name(self.game_rules, decision), self.names)
        fields = {k: getattr(obs, k) for k in names}
        view = type(obs)(fields)
        layout = [(k, a.dtype, a.shape) for k, a in fields.items()]
        before = b"".join(a.tobytes() for a in fields.values())
        self.log.calls[decision] = self.log.calls.get(decision, 0) + 1
        out = self.inner.method_for(method)(view)
        what = f"on decision {_decision_name(self.game_rules, decision)!r}"
        try:
            after = b"".join(getattr(view, k).tobytes() for k in names)
        except AttributeError:
            after = None
        if after != before:
            self._changed(view, layout, before, games, what)
        n = len(obs)
        try:
            a = np.asarray(out)
        except Exception as exc:
            raise self._fail("answer shape and dtype",
                             f"it returned {repr(out)[:60]}, not an action array, {what} "
                             f"({_first(games)}: {exc})") from None
        if a.shape != (n,):
            shown = repr(out)[:60] if a.dtype == object else str(a.ravel()[:6].tolist())
            raise self._fail("answer shape and dtype",
                             f"it returned shape {a.shape} for {n} games {what} "
                             f"({_first(games)}, actions {shown})")
        if not np.issubdtype(a.dtype, np.integer):
            raise self._fail("answer shape and dtype",
                             f"it returned {a.dtype} actions, not integers, {what} "
                             f"({_first(games, 'game')}, action {a.flat[0]!r})")
        return out

    def _changed(self, view: Any, layout: list[tuple[str, np.dtype, tuple[int, ...]]],
                 before: bytes, games: np.ndarray | None, what: str) -> None:
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
                                 f"({_first(games)})")
            new = np.asarray(new)
            if new.shape != old.shape or new.dtype != old.dtype:
                raise self._fail("observation mutation",
                                 f"it replaced observation field {k!r} ({old.dtype} "
                                 f"{old.shape} -> {new.dtype} {new.shape}) {what} (first "
                                 f"game {int(games[0])})")
            diff = (new != old).reshape(len(old), -1).any(axis=1)
            if diff.any():
                row = int(np.flatnonzero(diff)[0])
                game = f"game {int(games[row])}" if games is not None else \
                    f"the game at row {row} of the batch"
                raise self._fail("observation mutation",
                                 f"it changed observation field {k!r} {what} in {game} "
                                 f"(from {old[row].tolist()} to {new[row].tolist()})")

    def _fail(self, check: str, detail: str) -> ConformanceError:
        return _fail(self.log.who, check, f"{detail}; {self.log.where}", _HINTS[check])


def _first(games: np.ndarray | None, word: str = "first game") -> str:
    """``first game 12`` (or ``game 12``) when the game ids are known, else the batch's."""
    return f"{word} {int(games[0])}" if games is not None and len(games) else \
        f"{word} of the batch"


def _checked(inner: Strategy, log: _Log, game: Game) -> _Checked:
    """A ``_Checked`` for ``game``: one method per decision of the game, named as the
    game names its method, each checking the answer."""
    def method(decision: int, name: str) -> Any:
        def ask(self: _Checked, obs: Any) -> Any:
            return self._ask(decision, name, obs)
        ask.__name__ = name
        return ask

    cls = type(f"Checked{game.name.title().replace('-', '')}", (_Checked,),
               {d.method: method(d.id, d.method) for d in game.decisions})
    return cls(inner, log, game)


def _resolve(strategy_or_spec: Strategy | type[Strategy] | str,
             game: GameLike | None) -> tuple[Strategy, Game]:
    """A strategy instance from an instance, a class (built with its defaults) or a spec,
    and the game to check it in (see ``check_strategy``)."""
    what = f"check_strategy({strategy_or_spec!r})"
    if isinstance(strategy_or_spec, Strategy):
        return strategy_or_spec, game_for(_tag(strategy_or_spec), game, what)
    try:
        if isinstance(strategy_or_spec, str):
            name = game if isinstance(game, str) else \
                game.name if game is not None else default_game()
            strategy = load_strategy(strategy_or_spec, name)
            return strategy, game_for(_tag(strategy), game or name, what)
        cls = check_class(strategy_or_spec, f"{strategy_or_spec!r}")
        rules = game_for(cls.game, game, what)
        check_class(cls, f"{strategy_or_spec!r}", rules.name)
        return build(cls, {}, cls.name), rules
    except StrategyLoadError as exc:
        raise _fail(what, "loading", str(exc),
                    "The strategy must load as `trixsim run` would load it") from None


def _label(strategy: Strategy) -> str:
    """The strategy's label, or its name when its parameters are not set (a broken init)."""
    try:
        return strategy.label
    except Exception:
        return str(getattr(strategy, "name", type(strategy).__name__))


def _check_declarations(strategy: Strategy, who: str, game: Game) -> None:
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
        check_class(cls, f"class {cls.__qualname__}", game.name)
    except StrategyLoadError as exc:
        raise _fail(who, "observes" if "observes" in str(exc) else "params", str(exc),
                    "Fix the class declaration") from None


Played = tuple[np.ndarray, dict[int, list[int]]]
"""A play's answers (rows of ``_Answers.answers``) and final scores by game id."""


def _play(lineup: Sequence[Strategy], seed: int, ids: np.ndarray, log: _Log, game: Game,
          where: str) -> Played:
    """Play games through the engine's driver; any failure becomes one named AssertionError.

    Returns the answers (see ``_Answers.answers``) and the final scores by game.
    """
    log.start(f"{where}, {_ids_text(ids)}, seed {seed}")
    seen = _Answers(game)
    try:
        st = play_batch(lineup, seed, ids, observer=seen, game=game)
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
    scores = game.final_scores(st)
    return seen.answers(), {int(g): [int(x) for x in t]
                            for g, t in zip(st.game_id, scores, strict=True)}


def _compare(log: _Log, game: Game, check: str, seed: int, ref: Played, ref_what: str,
             other: Played, other_what: str, ids: np.ndarray) -> None:
    """The games ``ids`` got the same answers and the same final scores in both plays."""
    ids = np.sort(np.asarray(ids))
    a, b = (x[np.isin(x[:, 0], ids)] for x in (ref[0], other[0]))
    if a.shape != b.shape or not np.array_equal(a, b):
        g = _first_different_game(a, b, ids)
        ra, rb = a[a[:, 0] == g], b[b[:, 0] == g]
        n = min(len(ra), len(rb))
        rows = np.flatnonzero((ra[:n] != rb[:n]).any(axis=1))
        if not len(rows):
            detail = (f"in game {g} the strategy took {len(ra)} decisions in {ref_what} "
                      f"but {len(rb)} in {other_what}")
        elif np.array_equal(ra[rows[0], 1:4], rb[rows[0], 1:4]):
            _, ply, d, seat, x = (int(v) for v in ra[rows[0]])
            at = "ply" if "ply" in game.observation_fields else "decision"
            detail = (f"in game {g} the strategy answered decision "
                      f"{_decision_name(game, d)!r} at {at} {ply} (seat {seat}) with "
                      f"{_action_text(game, d, x)} in {ref_what} but with "
                      f"{_action_text(game, d, int(rb[rows[0], 4]))} in {other_what}")
        else:
            detail = (f"game {g} reached different decisions at the strategy's decision "
                      f"number {int(rows[0]) + 1} in {ref_what} and in {other_what}")
        raise _fail(log.who, check, f"{detail} (seed {seed})", _HINTS[check])
    ta, tb = ref[1], other[1]
    for g in ids.tolist():
        if ta[g] != tb[g]:
            raise _fail(log.who, check, f"game {g} ended with final scores {ta[g]} in "
                                        f"{ref_what} but {tb[g]} in {other_what} (seed "
                                        f"{seed})", _HINTS[check])


def _first_different_game(a: np.ndarray, b: np.ndarray, ids: np.ndarray) -> int:
    """The first game of ``ids`` whose answer rows differ between ``a`` and ``b``."""
    sa = np.searchsorted(a[:, 0], ids, side="left"), np.searchsorted(a[:, 0], ids, "right")
    sb = np.searchsorted(b[:, 0], ids, side="left"), np.searchsorted(b[:, 0], ids, "right")
    for k, g in enumerate(ids.tolist()):
        ra, rb = a[sa[0][k]:sa[1][k]], b[sb[0][k]:sb[1][k]]
        if ra.shape != rb.shape or not np.array_equal(ra, rb):
            return int(g)
    raise AssertionError("no difference")  # unreachable: the caller saw one


def check_strategy(strategy_or_spec: Strategy | type[Strategy] | str, games: int = 200,
                   seed: int = 0, game: GameLike | None = None) -> None:
    """Play ``games`` games with the strategy and fail on any breach of the strategy API.

    ``strategy_or_spec`` is an instance, a Strategy subclass (built with its defaults) or a
    spec as ``trixsim run`` takes it (``heuristic:declare_margin=5``, ``bot.py:Bot``).
    ``game`` (a Game or a registered name) is the game to check it in; None: the game the
    strategy is tagged with, and for a spec or a strategy of any game (``game = None``,
    like ``random``) the first registered game, ``trix``, as before the kit took a game.
    Checks, in this order (the first failure raises an AssertionError naming the check, the
    decision and the game):

    - ``params``: declared as ``Param(default, doc)`` with a bool, int, float or str default
      that the loader accepts back; ``observes`` names fields of the game's observations
      (and ``observes_by_decision``, if set, the game's decisions, each with fields within
      ``observes``);
    - with the strategy in all four seats, then in each seat against three bundled
      ``random`` seats: each answer is an integer array of length ``len(obs)``
      (``answer shape and dtype``) and legal for the engine (``legal actions``); the call
      leaves the observation unchanged (``observation mutation``); it reads only the
      fields in ``observes``, or in that decision's ``observes_by_decision`` set
      (``observes``, enforced by the observation); it raises
      nothing (``exceptions``); every decision of the game is asked at least once;
    - ``determinism``: the same games played again give the same answers and scores;
    - ``batch independence``: the same games in shuffled order, in batches of 7 and one
      per batch give each game the same answers and scores;
    - if it offers a compiled policy and the game plays them: ``compiled policy
      agreement`` (see ``check_policy``);
    - ``hidden cards`` and ``public observation`` (see ``check_fair_play``): decisions
      asked again after the hidden cards were dealt anew consistently with the public
      history get the same answers, from the methods and from any compiled policy; a
      game that offers no re-deals (no ``Game.redeal_pairs``) is checked without this,
      with a warning.

    The same instance is used throughout, as a run reuses it from batch to batch.
    """
    if games < 1:
        raise ValueError("games must be at least 1")
    strategy, rules = _resolve(strategy_or_spec, game)
    who = f"check_strategy({_label(strategy)!r})"
    _check_declarations(strategy, who, rules)
    log = _Log(who)
    checked = _checked(strategy, log, rules)
    rnd = load_strategy("random", rules.name)
    n_seats = rules.n_seats
    ids = np.arange(games, dtype=np.int64)
    everywhere = "the strategy in all four seats"
    first = _play([checked] * n_seats, seed, ids, log, rules, f"{everywhere}, one batch")
    for seat in range(n_seats):
        lineup: list[Strategy] = [rnd] * n_seats
        lineup[seat] = checked
        _play(lineup, seed, ids, log, rules, f"the strategy in seat {seat} against three "
                                             f"random seats, one batch")
    never = [d.name for d in rules.decisions if not log.calls.get(d.id)]
    if never:
        raise _fail(who, "coverage", f"decision {never[0]!r} never came up in {games} games "
                                     f"(seed {seed}), so it was not checked",
                    "Give check_strategy more games")
    again = _play([checked] * n_seats, seed, ids, log, rules,
                  f"{everywhere}, one batch, again")
    _compare(log, rules, "determinism", seed, first, "the first play", again,
             "a second play of the same games", ids)
    order = np.random.default_rng(seed).permutation(ids)
    shuffled = _play([checked] * n_seats, seed, order, log, rules,
                     f"{everywhere}, shuffled order")
    _compare(log, rules, "batch independence", seed, first, f"one batch of {games} in order",
             shuffled, "one batch in shuffled order", ids)
    for size, n in ((7, _SEVENS_GAMES), (1, _SINGLE_GAMES)):
        subset = order[:min(games, n)]
        answers, scores = [], {}
        for k in range(0, len(subset), size):
            a, sc = _play([checked] * n_seats, seed, subset[k:k + size], log, rules,
                          f"{everywhere}, batches of {size}")
            answers.append(a)
            scores.update(sc)
        merged = np.concatenate(answers)
        merged = merged[np.argsort(merged[:, 0], kind="stable")]  # each game in one batch
        _compare(log, rules, "batch independence", seed, first, f"one batch of {games}",
                 (merged, scores), f"batches of {size}", subset)
    check_agreement(strategy, games, seed, who, rules)
    if offers_redeals(rules):
        check_fair_play(strategy, min(games, FAIR_GAMES), seed, who, game=rules)
    else:
        warnings.warn(f"{who}: {rules.name} offers no re-deals of its hidden cards "
                      f"(Game.redeal_pairs), so fair play was not checked", stacklevel=2)
