"""Conformance checks a strategy author (or the engine's own tests) can call from pytest.

``check_strategy`` plays real games with a strategy and fails with one ``AssertionError``
paragraph naming the check, the decision and the game if the strategy breaks a rule of the
strategy API: answers of the wrong shape or dtype, illegal actions, answers that change
between two plays of the same games, answers that depend on the batch (its size, order or
the other games in it), changes to the observation, reads of undeclared observation fields,
malformed ``params``. ``check_game_engine`` plays random games through the engine's public
calls and checks its contract with every driver (legal masks, refusal of illegal actions,
determinism, hidden cards kept out of observations, totals).

Use it from a plug-in's own tests::

    # tests/test_my_bot.py
    from trixsim.testing import check_strategy

    from my_package.bots import Quiet


    def test_quiet_conforms() -> None:
        check_strategy(Quiet)                       # the class, built with its defaults


    def test_quiet_with_parameters_conforms() -> None:
        check_strategy("my_package.bots:Quiet:margin=3", games=100, seed=7)   # any spec


    def test_an_instance_conforms() -> None:
        check_strategy(Quiet(margin=5))

Running the kit does not require a run folder or any file: it plays in memory, a few
seconds for the bundled ``heuristic`` at the defaults.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from trixsim.cards import card_name, choose_uniform
from trixsim.engine import (
    GameState,
    IllegalActionError,
    Observation,
    init,
    legal_action_mask,
    observe,
    step,
)
from trixsim.engine.chance import Chance
from trixsim.engine.observation import FIELDS
from trixsim.engine.rules import add_points
from trixsim.loading import StrategyLoadError, build, bundled, check_class, load_strategy
from trixsim.sim import IntegrityError, StrategyError, play_batch
from trixsim.strategy import Param, Strategy
from trixsim.types import CONTRACT_NAMES, DECISION_NAMES, DECLARE, DONE, PASS, PICK, PLACE, PLAY

__all__ = ["ConformanceError", "check_game_engine", "check_strategy"]

_METHODS = ((PICK, "pick"), (DECLARE, "declare"), (PLAY, "play"), (PLACE, "place"))
_PARAM_TYPES = (bool, int, float, str)
"""Types the loader converts command-line and TOML values to (trixsim.loading)."""
_SEVENS_GAMES = 28
"""Games replayed in batches of 7 (4 batches; each batch costs as much as a batch of
200, since a batch takes as many steps as its longest game)."""
_SINGLE_GAMES = 8
"""Games replayed one per batch (the slowest way to play, so few)."""


class ConformanceError(AssertionError):
    """A conformance check failed (an AssertionError, so pytest reports it as a failure)."""


def _fail(who: str, check: str, detail: str, hint: str = "") -> ConformanceError:
    """One paragraph: who failed which check, where, and what to do about it."""
    text = f"{who} failed the {check} check: {detail}"
    if hint:
        text += f". {hint}"
    return ConformanceError(" ".join(text.split()))


def _action_text(decision: int, action: int) -> str:
    """An action as a number with its meaning, e.g. ``9 (9H)`` or ``2 (pli)``."""
    if decision in (PLAY, PLACE) and 0 <= action < 32:
        return f"{action} ({card_name(action)})"
    if decision == PLACE and action == PASS:
        return f"{action} (pass)"
    if decision == PICK and 0 <= action < len(CONTRACT_NAMES):
        return f"{action} ({CONTRACT_NAMES[action]})"
    if decision == DECLARE and action in (0, 1):
        return f"{action} ({'declare' if action else 'no'})"
    return str(action)


def _ids_text(ids: np.ndarray) -> str:
    """Game ids as ``0-199`` when consecutive ascending, else a short list."""
    ids = np.asarray(ids)
    if len(ids) > 1 and (np.diff(ids) == 1).all():
        return f"games {int(ids[0])}-{int(ids[-1])}"
    shown = ", ".join(str(int(g)) for g in ids[:8])
    return f"games {shown}{', ...' if len(ids) > 8 else ''}"


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
    "determinism": "Draw randomness only from obs.key (trixsim.cards.choose_uniform(mask, "
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
            return load_strategy(strategy_or_spec)
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
        st = play_batch(lineup, seed, ids)
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
      per batch give each game the same answers and totals.

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


# ====================================================================== check_game_engine
# The engine calls the check makes, each in one small function, so that they can be
# switched to the Game interface when it comes.

def _new_games(seed: int, ids: np.ndarray) -> GameState:
    """Fresh games, dealt and waiting for the first decision."""
    return init(seed, ids)


def _legal(st: GameState) -> np.ndarray:
    """The legal-action mask of every game (int64; 0 for finished games)."""
    return legal_action_mask(st).astype(np.int64)


def _apply(st: GameState, actions: np.ndarray) -> np.ndarray:
    """Apply one action per game (IllegalActionError refuses them all); the new masks."""
    return step(st, actions).astype(np.int64)


def _to_act(st: GameState) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Per game: the decision (DONE when finished), the seat to act, the game id, the ply."""
    return st.phase.copy(), st.turn.copy(), st.game_id.copy(), st.ply.copy()


def _snapshot(st: GameState) -> np.ndarray:
    """The whole state of every game, one row per game (to compare states)."""
    return st.data.copy()


def _copy(st: GameState) -> GameState:
    """An independent copy of the games."""
    return st.copy()


def _observation(st: GameState, idx: np.ndarray, legal: np.ndarray,
                 viewer: np.ndarray | None = None) -> dict[str, np.ndarray]:
    """Every field of the observation of the seat to act (or of ``viewer``) in games idx."""
    obs = observe(st, idx, legal[idx], None, viewer)
    return {k: np.array(getattr(obs, k)) for k in FIELDS}


def _hidden_variant(st: GameState, keep: np.ndarray, rng: np.random.Generator) -> GameState:
    """A copy in which the cards of the seats other than ``keep`` (one seat per game) are
    dealt anew among those seats, each keeping its number of cards: a state that differs
    only in what seat ``keep`` cannot see."""
    out = st.copy()
    hands = st.hands.astype(np.int64)
    n = st.batch_size
    others = np.arange(4)[None, :] != keep[:, None]
    pool = np.bitwise_or.reduce(np.where(others, hands, 0), axis=1)
    bits = (pool[:, None] >> np.arange(32)) & 1
    keys = rng.random((n, 32))
    keys[bits == 0] = 2.0
    order = np.argsort(keys, axis=1)  # the pool's cards first, in random order
    cum = np.cumsum(np.where(others, np.bitwise_count(hands), 0), axis=1)
    pos = np.arange(32)
    seat_of = (cum[:, None, :] <= pos[None, :, None]).sum(axis=2)
    valid = pos[None, :] < cum[:, -1:]
    cards = np.int64(1) << order
    for s in range(4):
        dealt = np.where(valid & (seat_of == s), cards, 0).sum(axis=1)
        out.hands[:, s] = np.where(others[:, s], dealt, hands[:, s])
    return out


def _seed_variant(st: GameState) -> GameState:
    """A copy played from another run seed (deals to come would differ, nothing seen now)."""
    out = st.copy()
    out.chance = Chance(out.chance.seed ^ 0x5DEECE66D)
    return out


def _scores(st: GameState) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Per game: contracts finished, the last finished contract's points, the totals."""
    return st.contract_no.copy(), st.points.astype(np.int64), st.totals.astype(np.int64)


# ----------------------------------------------------------------------------------

def _nth_legal(legal: np.ndarray, k: int) -> tuple[np.ndarray, np.ndarray]:
    """Per game, the k-th legal action (ascending) and whether there is one."""
    bits = (legal[:, None] >> np.arange(32)) & 1
    sel = (np.cumsum(bits, axis=1) == k + 1) & (bits == 1)
    return sel.argmax(axis=1), sel.any(axis=1)


def _illegal_candidates(decision: int, legal: int) -> list[int]:
    """Actions the engine must refuse for a decision with this legal mask."""
    out = [-1, 33, 64, 2**40]
    if decision == PICK:
        out += [k for k in range(8) if not legal >> k & 1] + [31, PASS]
    elif decision == DECLARE:
        out += [k for k in range(2, 32) if not legal >> k & 1] + [PASS]
    else:
        out += [c for c in range(32) if not legal >> c & 1]
        if legal:
            out.append(PASS)
    return out


def _fingerprint(rows: np.ndarray, weights: np.ndarray) -> np.ndarray:
    """One int64 per game that changes with any field of its row (wrapping arithmetic)."""
    return (rows * weights[None, :]).sum(axis=1)


def check_game_engine(games: int = 100, seed: int = 0) -> None:
    """Play ``games`` games with uniformly random legal actions through the engine's public
    calls and fail (AssertionError naming the check, the game and the ply) unless:

    - a live decision always has a legal action, except a forced trix pass (PLACE with an
      empty mask, whose action is PASS); finished games have an empty mask, and the mask
      ``step`` returns is the one ``legal_action_mask`` gives for the new state;
    - every legal action is accepted, and an illegal one (or a wrong number of actions) is
      refused, leaving every game unchanged;
    - stepping is deterministic: the same seed and actions give identical states at every
      step, also with the games in reverse order in the batch;
    - observations are scrubbed: states that differ only in cards the observing seat cannot
      see (other seats' hands; the run seed, except through ``key``) give identical
      observations, for the seat to act and for a waiting seat;
    - the totals are, after every contract, the previous totals plus its points with the
      1000 rule (``trixsim.engine.rules.add_points``); games end when a total passes 1000
      or after 28 contracts, and never before.
    """
    if games < 1:
        raise ValueError("games must be at least 1")
    who = f"check_game_engine(games={games}, seed={seed})"
    rng = np.random.default_rng(seed)
    ids = np.arange(games, dtype=np.int64)
    st = _new_games(seed, ids)
    if not np.array_equal(_snapshot(_new_games(seed, ids)), _snapshot(st)):
        raise _fail(who, "determinism", "two inits with the same seed and games differ")
    width = _snapshot(st).shape[1]
    weights = np.random.default_rng(12345).integers(-2**62, 2**62, width, dtype=np.int64)
    history: list[np.ndarray] = []
    prints: list[np.ndarray] = [_fingerprint(_snapshot(st), weights)]
    account = _scores(st)[2].copy()
    counted = _scores(st)[0].copy()
    returned: np.ndarray | None = None
    for _ in range(100_000):
        decision, turn, gid, ply = _to_act(st)
        live = decision != DONE
        if not live.any():
            break
        legal = _legal(st)

        def where(g: int, _d=decision, _t=turn, _gid=gid, _p=ply) -> str:
            return (f"game {int(_gid[g])} at ply {int(_p[g])} (decision "
                    f"{DECISION_NAMES[int(_d[g])]!r}, seat {int(_t[g])}, seed {seed})")

        _check_masks(who, decision, legal, returned, where)
        keys = rng.integers(0, 2**63, size=len(ids), dtype=np.uint64) * np.uint64(2)
        actions = choose_uniform(legal, keys)
        actions[(decision == PLACE) & (legal == 0)] = PASS
        actions[~live] = 0
        _check_every_legal_accepted(who, st, legal, actions, where)
        _check_illegal_refused(who, st, decision, legal, actions, rng, where)
        _check_scrubbed(who, st, decision, turn, legal, rng, where)
        returned = _apply(st, actions)
        history.append(actions)
        prints.append(_fingerprint(_snapshot(st), weights))
        _check_totals(who, st, account, counted, where)
        _check_goes_on(who, st, where)
    else:
        raise _fail(who, "termination", "games did not finish within 100,000 steps")
    _check_end(who, st, seed)
    _check_replay(who, seed, ids, history, prints, weights)


def _check_masks(who: str, decision: np.ndarray, legal: np.ndarray,
                 returned: np.ndarray | None, where: Callable[[int], str]) -> None:
    """Live decisions have legal actions (but forced trix passes); done games have none."""
    empty = (decision != DONE) & (decision != PLACE) & (legal == 0)
    if empty.any():
        raise _fail(who, "legal mask", f"the legal mask is empty in "
                                       f"{where(int(np.flatnonzero(empty)[0]))}: only a trix "
                                       f"seat with nothing to place may have no legal action")
    done = (decision == DONE) & (legal != 0)
    if done.any():
        raise _fail(who, "legal mask", f"a finished game has legal actions "
                                       f"({where(int(np.flatnonzero(done)[0]))})")
    if returned is not None and not np.array_equal(returned, legal):
        g = int(np.flatnonzero(returned != legal)[0])
        raise _fail(who, "legal mask", f"step returned mask {int(returned[g]):#x} but "
                                       f"legal_action_mask gives {int(legal[g]):#x} in {where(g)}")


def _check_every_legal_accepted(who: str, st: GameState, legal: np.ndarray,
                                actions: np.ndarray, where: Callable[[int], str]) -> None:
    """Each legal action of each game is accepted (tried on copies, k-th action of all
    games at once)."""
    most = int(np.bitwise_count(legal).max(initial=0))
    for k in range(most):
        pick, has = _nth_legal(legal, k)
        trial_actions = np.where(has, pick, actions)
        try:
            _apply(_copy(st), trial_actions)
        except IllegalActionError as exc:
            g = int(exc.games[0]) if len(getattr(exc, "games", ())) else 0
            d = int(_to_act(st)[0][g])
            raise _fail(who, "legal actions accepted",
                        f"the legal action {_action_text(d, int(trial_actions[g]))} was "
                        f"refused in {where(g)}: {exc}") from None


def _check_illegal_refused(who: str, st: GameState, decision: np.ndarray, legal: np.ndarray,
                           actions: np.ndarray, rng: np.random.Generator,
                           where: Callable[[int], str]) -> None:
    """An illegal action in one live game (or a wrong number of actions) is refused, and
    no game changes."""
    live = np.flatnonzero(decision != DONE)
    g = int(rng.choice(live))
    cands = _illegal_candidates(int(decision[g]), int(legal[g]))
    bad = actions.copy()
    bad[g] = cands[int(rng.integers(len(cands)))]
    trials = ((bad, f"illegal action {_action_text(int(decision[g]), int(bad[g]))}"),
              (actions[:-1], f"{len(actions) - 1} actions for {len(actions)} games"))
    for trial_actions, what in trials:
        trial = _copy(st)
        before = _snapshot(trial)
        try:
            _apply(trial, trial_actions)
        except IllegalActionError as exc:
            if trial_actions is bad and g not in np.asarray(getattr(exc, "games", [g])):
                raise _fail(who, "illegal actions refused",
                            f"the refusal of {what} in {where(g)} names other games "
                            f"({exc})") from None
        else:
            raise _fail(who, "illegal actions refused", f"{what} was accepted in {where(g)}")
        changed = (_snapshot(trial) != before).any(axis=1)
        if changed.any():
            raise _fail(who, "illegal actions refused",
                        f"refusing {what} in {where(g)} still changed "
                        f"{where(int(np.flatnonzero(changed)[0]))}")


def _check_scrubbed(who: str, st: GameState, decision: np.ndarray, turn: np.ndarray,
                    legal: np.ndarray, rng: np.random.Generator,
                    where: Callable[[int], str]) -> None:
    """Observations do not depend on what the observing seat cannot see."""
    idx = np.flatnonzero(decision != DONE)
    waiting = (turn + 1 + rng.integers(0, 3, len(turn))) % 4
    cases = (
        ("the other seats' hands", _hidden_variant(st, turn, rng), None, ()),
        ("the hands of the seats other than a waiting viewer",
         _hidden_variant(st, waiting, rng), waiting[idx], ()),
        ("the run seed", _seed_variant(st), None, ("key",)),
    )
    own: dict[str, np.ndarray] | None = None
    for what, variant, viewer, exempt in cases:
        other_legal = _legal(variant)
        if viewer is None and not np.array_equal(other_legal[idx], legal[idx]):
            g = int(idx[np.flatnonzero(other_legal[idx] != legal[idx])[0]])
            raise _fail(who, "scrubbed observations",
                        f"the legal mask changed with {what} in {where(g)}")
        if viewer is None:
            own = own if own is not None else _observation(st, idx, legal)
            a = own
        else:
            a = _observation(st, idx, legal, viewer)
        b = _observation(variant, idx, other_legal, viewer)
        shown = [k for k in FIELDS if k not in exempt]
        if b"".join(a[k].tobytes() for k in shown) == b"".join(b[k].tobytes() for k in shown):
            continue
        seen = "the seat to act" if viewer is None else "a waiting seat"
        for k in shown:
            if a[k].shape != b[k].shape:
                raise _fail(who, "scrubbed observations",
                            f"field {k!r} of the observation of {seen} changed shape with "
                            f"{what} only, in {where(int(idx[0]))}")
            diff = (a[k] != b[k]).reshape(len(idx), -1).any(axis=1)
            if diff.any():
                g = int(idx[np.flatnonzero(diff)[0]])
                raise _fail(who, "scrubbed observations",
                            f"field {k!r} of the observation of {seen} changed with {what} "
                            f"only, in {where(g)}: it reveals hidden information")


def _check_totals(who: str, st: GameState, account: np.ndarray, counted: np.ndarray,
                  where: Callable[[int], str]) -> None:
    """Each finished contract adds its points to the totals with the 1000 rule."""
    done_contracts, points, totals = _scores(st)
    for g in np.flatnonzero(done_contracts != counted):
        if done_contracts[g] != counted[g] + 1:
            raise _fail(who, "totals", f"{int(done_contracts[g] - counted[g])} contracts "
                                       f"ended in one step in {where(int(g))}")
        counted[g] = done_contracts[g]
        for s in range(4):
            account[g, s] = add_points(int(account[g, s]), int(points[g, s]))
        if not np.array_equal(totals[g], account[g]):
            raise _fail(who, "totals", f"after contract {int(counted[g])} the totals are "
                                       f"{totals[g].tolist()}, not the previous totals plus "
                                       f"the points {points[g].tolist()} with the 1000 rule "
                                       f"({account[g].tolist()}), in {where(int(g))}")
    if not np.array_equal(totals, account):
        g = int(np.flatnonzero((totals != account).any(axis=1))[0])
        raise _fail(who, "totals", f"the totals changed to {totals[g].tolist()} without a "
                                   f"contract ending (expected {account[g].tolist()}) in "
                                   f"{where(g)}")


def _check_goes_on(who: str, st: GameState, where: Callable[[int], str]) -> None:
    """A game still being played has no total above 1000 and fewer than 28 contracts."""
    contracts, _, totals = _scores(st)
    on = _to_act(st)[0] != DONE
    wrong = on & ((totals > 1000).any(axis=1) | (contracts >= 28))
    if wrong.any():
        g = int(np.flatnonzero(wrong)[0])
        raise _fail(who, "game end", f"a game goes on after {int(contracts[g])} contracts with "
                                     f"totals {totals[g].tolist()}, in {where(g)}")


def _check_end(who: str, st: GameState, seed: int) -> None:
    """Games end exactly when a total passes 1000 or after 28 contracts."""
    contracts, _, totals = _scores(st)
    over = (totals > 1000).any(axis=1)
    ok = (contracts <= 28) & (over | (contracts == 28)) & (totals != 1000).all(axis=1)
    if not ok.all():
        g = int(np.flatnonzero(~ok)[0])
        raise _fail(who, "game end", f"game {int(_to_act(st)[2][g])} (seed {seed}) ended after "
                                     f"{int(contracts[g])} contracts with totals "
                                     f"{totals[g].tolist()}")


def _check_replay(who: str, seed: int, ids: np.ndarray, history: list[np.ndarray],
                  prints: list[np.ndarray], weights: np.ndarray) -> None:
    """The same actions from the same seed give the same states at every step, with the
    games in the same order and in reverse order."""
    for order, what in ((np.arange(len(ids)), "in the same order"),
                        (np.arange(len(ids))[::-1], "in reverse order")):
        st = _new_games(seed, ids[order])
        for k in range(len(prints)):
            now = _fingerprint(_snapshot(st), weights)
            diff = np.flatnonzero(now != prints[k][order])
            if diff.size:
                g = int(ids[order][diff[0]])
                raise _fail(who, "determinism", f"replaying the same actions from the same "
                                                f"seed with the games {what} gave a different "
                                                f"state in game {g} after {k} steps")
            if k < len(history):
                _apply(st, history[k][order])
