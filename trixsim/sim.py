"""Drive the engine with strategies: the loop that the CLI, the records and reports use.

Each step asks every strategy once per decision kind for all the games where a seat it
controls must decide, checks the answers, then applies them all with one engine step.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

import numpy as np
from numba import njit

from trixsim.game import mask_actions
from trixsim.games.trix import (
    GAME,
    GameState,
    IllegalActionError,
    init,
    legal_action_mask,
    observe,
    rules,
    step,
)
from trixsim.games.trix.chance import Chance
from trixsim.games.trix.events import EventLog
from trixsim.games.trix.fast import play_compiled
from trixsim.games.trix.outcomes import OutcomeLog
from trixsim.games.trix.rules import add_points
from trixsim.jitcache import guard, sources
from trixsim.strategy import Strategy
from trixsim.types import DECISION_NAMES, DECLARE, DONE, PASS, PICK, PLACE, PLAY

# the kernels below compile in these constants and the 1000 rule: refresh their cache
guard(__file__, sources(rules), DONE, PLACE)

_METHODS = ((PICK, "pick"), (DECLARE, "declare"), (PLAY, "play"), (PLACE, "place"))


class StrategyError(RuntimeError):
    """A strategy returned an illegal action, the wrong shape, or raised."""


class IntegrityError(StrategyError):
    """A game's totals changed other than by the rules: the state was tampered with."""


class Observer(Protocol):
    """Watches a batch being played: game records and outcome tables read its events.

    ``events(st, rows)`` receives the raw event rows of ``init`` and of every step
    (``trixsim.games.trix.events``). An observer may also define ``before_step(st, actions,
    legal)`` and ``after_step(st)`` to watch decisions (tests do).
    """

    def events(self, st: GameState, rows: np.ndarray) -> None:
        """Called with the events of ``init`` and then of every step."""


def _check(strategy: Strategy, decision: int, game: np.ndarray, legal: np.ndarray,
           out: object) -> np.ndarray:
    """The strategy's answer as int64 actions of the right shape, or StrategyError.

    Legality itself is checked by the engine's step (see ``play_batch``).
    """
    what = f"strategy {strategy.label!r} on decision {DECISION_NAMES[decision]!r}"
    try:
        a = np.asarray(out)
    except (ValueError, TypeError) as exc:
        raise StrategyError(f"{what} returned {repr(out)[:60]}, not an action array "
                            f"(first game {int(game[0])}: {exc})") from None
    if a.shape != legal.shape:
        shown = (repr(out)[:60] if a.dtype == object
                 else str(a.ravel()[:6].tolist()) + ("..." if a.size > 6 else ""))
        raise StrategyError(f"{what} returned shape {a.shape} for {len(legal)} games "
                            f"(first game {int(game[0])}, actions {shown})")
    if a.size and not np.issubdtype(a.dtype, np.integer):
        raise StrategyError(f"{what} returned {a.dtype} actions, not integers "
                            f"(game {int(game[0])}, action {a.flat[0]!r})")
    return a.astype(np.int64, copy=False)


@njit(cache=True)
def _group(phase: np.ndarray, turn: np.ndarray, legal: np.ndarray,
           owner_of_seat: np.ndarray, n_owners: int) -> tuple[np.ndarray, np.ndarray]:
    """Batch positions grouped by (decision, owning strategy), by a counting sort.

    Group k = decision * n_owners + owner; group k's games are
    ``order[start[k]:start[k + 1]]``, ascending. Forced trix passes and finished games
    belong to no group.
    """
    n_groups = 4 * n_owners
    key = np.full(phase.shape[0], -1, dtype=np.int64)
    count = np.zeros(n_groups + 1, dtype=np.int64)
    for g in range(phase.shape[0]):
        d = phase[g]
        if d == DONE or (d == PLACE and legal[g] == 0):
            continue
        k = d * n_owners + owner_of_seat[turn[g]]
        key[g] = k
        count[k + 1] += 1
    start = np.cumsum(count)
    fill = start[:-1].copy()
    order = np.empty(start[-1], dtype=np.int64)
    for g in range(phase.shape[0]):
        k = key[g]
        if k >= 0:
            order[fill[k]] = g
            fill[k] += 1
    return order, start


def decide(st: GameState, strategies: Sequence[Strategy], legal: np.ndarray) -> np.ndarray:
    """One checked action per game from the strategies seated in it (PASS where forced)."""
    actions = np.full(st.batch_size, PASS, dtype=np.int64)
    owners: list[Strategy] = []
    owner_of_seat = np.empty(4, dtype=np.int64)
    for seat, s in enumerate(strategies):
        for k, o in enumerate(owners):
            if o is s:
                owner_of_seat[seat] = k
                break
        else:
            owner_of_seat[seat] = len(owners)
            owners.append(s)
    order, start = _group(st.phase, st.turn, legal, owner_of_seat, len(owners))
    n = len(owners)
    for k, strategy in enumerate(owners):
        if _uniform_everywhere(strategy):
            # the base class answers all four decisions alike: one call for all of them
            idx = np.concatenate([order[start[d * n + k]:start[d * n + k + 1]]
                                  for d, _ in _METHODS])
            if idx.size:
                _ask(st, strategy, PLAY, "play", idx, legal, actions)
            continue
        for decision, method in _METHODS:
            grp = decision * n + k
            idx = order[start[grp]:start[grp + 1]]
            if idx.size:
                _ask(st, strategy, decision, method, idx, legal, actions)
    return actions


def _uniform_everywhere(strategy: Strategy) -> bool:
    """Whether the strategy keeps the base class's uniform choice for every decision."""
    cls = type(strategy)
    return all(getattr(cls, m) is getattr(Strategy, m) for _, m in _METHODS)


def _ask(st: GameState, strategy: Strategy, decision: int, method: str, idx: np.ndarray,
         legal: np.ndarray, actions: np.ndarray) -> None:
    """Ask one strategy one kind of decision for the games at ``idx``; store the answers."""
    obs = observe(st, idx, legal[idx], strategy.observes)
    try:
        out = getattr(strategy, method)(obs)
    except StrategyError:  # already names the strategy, decision and game
        raise
    except Exception as exc:  # a strategy's own failure stops the run, named
        raise StrategyError(
            f"strategy {strategy.label!r} raised {type(exc).__name__}: {exc} on "
            f"decision {DECISION_NAMES[decision]!r} (first game of the batch: "
            f"{int(st.game_id[idx[0]])})"
        ) from exc
    actions[idx] = _check(strategy, decision, st.game_id[idx], legal[idx], out)


def _blame(st: GameState, strategies: Sequence[Strategy], actions: np.ndarray,
           legal: np.ndarray, exc: IllegalActionError) -> StrategyError:
    """Name the strategy, decision, game and action behind the engine's refusal, and say
    why (the game's ``why_illegal``)."""
    g = int(exc.games[0])
    seat = int(st.turn[g])
    decision = int(st.phase[g])
    a = int(actions[g])
    name = GAME.action_name(decision, a)
    shown = f"{a} ({name})" if name != str(a) else str(a)
    legal_names = " ".join(GAME.action_name(decision, x)
                           for x in mask_actions(GAME.with_pass(st, legal)[g]))
    return StrategyError(
        f"strategy {strategies[seat].label!r} (seat {seat}) returned illegal action {shown} "
        f"on decision {DECISION_NAMES[decision]!r} in game {int(st.game_id[g])}: "
        f"{GAME.why_illegal(st, g, a)} (legal: {legal_names})")


PATHS = ("auto", "compiled", "stepwise")


def compiled_lineup(strategies: Sequence[Strategy]) -> tuple[tuple, np.ndarray] | None:
    """The four seats' compiled policies and their (4, n) parameter rows, or None unless
    every seat has one (``Strategy.compiled``)."""
    got = [s.compiled() for s in strategies]
    if any(c is None for c in got):
        return None
    width = max(len(c[1]) for c in got)  # type: ignore[index]
    params = np.zeros((4, width))
    for s, (_, p) in enumerate(got):  # type: ignore[misc]
        params[s, :len(p)] = p
    return tuple(c[0] for c in got), params  # type: ignore[index]


def play_batch(strategies: Sequence[Strategy], seed: int, game_ids: np.ndarray | range,
               observer: Observer | None = None, path: str = "auto") -> GameState:
    """Play complete games (seat s is played by strategies[s]) and return the final state.

    ``path``: ``compiled`` plays whole games inside compiled code (every seat needs a
    compiled policy), ``stepwise`` asks the strategies' methods step by step, ``auto``
    (the default) takes the compiled path when it can. Both give the same games.
    """
    if len(strategies) != 4:
        raise ValueError("exactly four strategies are needed, one per seat")
    if path not in PATHS:
        raise ValueError(f"path must be one of {', '.join(PATHS)}, not {path!r}")
    watches = hasattr(observer, "before_step") or hasattr(observer, "after_step")
    lineup = compiled_lineup(strategies) if path != "stepwise" and not watches else None
    if path == "compiled" and lineup is None:
        raise ValueError("the compiled path needs a compiled policy for every seat (and no "
                         "observer watching steps)")
    if lineup is not None:
        return _play_compiled(strategies, lineup, seed, game_ids, observer)
    log = EventLog() if hasattr(observer, "events") else None
    before = getattr(observer, "before_step", None)
    after = getattr(observer, "after_step", None)
    st = init(seed, np.asarray(game_ids, dtype=np.int64), events=log)
    if log is not None:
        observer.events(st, log.rows)  # type: ignore[union-attr]
    legal = legal_action_mask(st)
    account = st.totals.copy()  # the loop's own account of the totals, to audit the state's
    counted = st.contract_no.copy()  # contracts already in that account
    live = True
    while live:
        actions = decide(st, strategies, legal)
        if before is not None:
            before(st, actions, legal)
        try:
            legal = step(st, actions, legal, events=log)
        except IllegalActionError as exc:
            raise _blame(st, strategies, actions, legal, exc) from None
        bad, live = _audit(st.phase, counted, st.contract_no, st.points, st.totals, account)
        if bad < 0 and not live and not np.array_equal(st.totals, account):
            bad = int(np.flatnonzero((st.totals != account).any(axis=1))[0])
        if bad >= 0:
            raise IntegrityError(
                f"game {int(st.game_id[bad])}: totals {st.totals[bad].tolist()} are not the "
                f"previous totals plus the contracts' points with the 1000 rule "
                f"({account[bad].tolist()}): the game state was changed outside the rules "
                f"(strategies: {', '.join(s.label for s in strategies)})")
        if log is not None:
            observer.events(st, log.rows)  # type: ignore[union-attr]
        if after is not None:
            after(st)
    return st


def _play_compiled(strategies: Sequence[Strategy], lineup: tuple[tuple, np.ndarray],
                   seed: int, game_ids: np.ndarray | range,
                   observer: Observer | None) -> GameState:
    """``play_batch`` on the compiled path: an OutcomeLog is filled in the loop, any other
    observer gets every event of the batch at the end (game after game)."""
    ids = np.asarray(game_ids, dtype=np.int64)
    outcomes = observer if isinstance(observer, OutcomeLog) else None
    keep = observer is not None and outcomes is None
    st, events, err = play_compiled(lineup[0], lineup[1], Chance(int(seed)), ids,
                                    outcomes=outcomes, keep_events=keep)
    if err[0] >= 0:
        g, seat, decision, a = (int(x) for x in err)
        name = GAME.action_name(decision, a)
        shown = f"{a} ({name})" if name != str(a) else str(a)
        legal = " ".join(GAME.action_name(decision, x)
                         for x in mask_actions(GAME.legal_action_mask(st.take([g]))[0]))
        raise StrategyError(
            f"strategy {strategies[seat].label!r} (seat {seat}) returned illegal action "
            f"{shown} on decision {DECISION_NAMES[decision]!r} in game "
            f"{int(st.game_id[g])}: {GAME.why_illegal(st, g, a)} (legal: {legal}; its "
            f"compiled policy)")
    if keep:
        observer.events(st, events)  # type: ignore[union-attr]
    return st


@njit(cache=True)
def _audit(phase: np.ndarray, counted: np.ndarray, contract_no: np.ndarray,
           points: np.ndarray, totals: np.ndarray, account: np.ndarray) -> tuple[int, bool]:
    """After a step: bring ``account`` up to date with each contract the step finished
    (previous totals plus points, 1000 rule; ``counted`` follows ``contract_no``) and check
    that game's totals against it. Returns the first game that fails (or -1) and whether
    any game is still being played. A change to a total shows at the end of that game's
    contract (and the loop compares every total once all games are over): an honesty check
    on the state a strategy could reach, not a sandbox; one pass, with the loop's test for
    games still being played."""
    bad = -1
    live = False
    for g in range(phase.shape[0]):
        live |= phase[g] != DONE
        if contract_no[g] != counted[g]:
            counted[g] = contract_no[g]
            for s in range(4):
                account[g, s] = add_points(account[g, s], points[g, s])
                if totals[g, s] != account[g, s] and bad < 0:
                    bad = g
    return bad, live
