"""Drive a game with strategies: the loop that the CLI, the records and reports use.

Written against ``trixsim.game.Game`` only, and assumes no game: callers name it
(``game=``), or the strategies' tags do (``Strategy.game``) when they agree; a lineup of
game-neutral strategies with no game named is refused. When the game can play a lineup inside
compiled code (``game.play_compiled``: every seat offers a compiled policy), whole games
run there. Otherwise each step asks every strategy once per decision kind for all the
games where a seat it controls must take it (actions the rules force, and the only legal
action where there is one, are applied without asking), checks the answers, and applies
them all with one ``game.step``; the game's ``audit`` checks the states stay honest. Both
paths give the same games.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Protocol

import numpy as np
from numba import njit

from trixsim import choice
from trixsim.choice import nth_bit
from trixsim.errors import IllegalActionError, IntegrityError, StrategyError
from trixsim.game import Game, mask_actions
from trixsim.jitcache import guard, sources
from trixsim.strategy import Strategy

guard(__file__, sources(choice))  # _group compiles in the bit kernel it calls

PATHS = ("auto", "compiled", "stepwise")


class Observer(Protocol):
    """Watches a batch being played: game records and outcome tables read its events.

    ``events(state, rows)`` receives the raw event rows of ``init`` and of every step (on
    the compiled path: all of them at the end, game after game). An observer that reads
    only a few kinds of event may name them (``event_kinds``): the rules may then leave
    out the others. An observer may also
    define ``before_step(state, actions, legal)`` and ``after_step(state)`` to watch
    decisions; the loop then runs stepwise.
    """

    def events(self, state: Any, rows: np.ndarray) -> None:
        """Called with the events of ``init`` and then of every step."""


def _check(strategy: Strategy, name: str, ids: np.ndarray, idx: np.ndarray,
           legal: np.ndarray, out: object) -> np.ndarray:
    """The strategy's answer as int64 actions of the right shape, or StrategyError.

    Legality itself is checked by the game's step (see ``play_batch``). ``ids[idx]``:
    the games' ids (read only for a message).
    """
    if type(out) is np.ndarray and out.shape == legal.shape and (
            out.dtype == np.int64 or (out.size and np.issubdtype(out.dtype, np.integer))):
        return out.astype(np.int64, copy=False)  # the usual answer, checked at once
    what = f"strategy {strategy.label!r} on decision {name!r}"
    game = ids[idx]
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
def _group(decision: np.ndarray, seat: np.ndarray, forced: np.ndarray, legal: np.ndarray,
           owner_of_seat: np.ndarray, n_decisions: int,
           n_owners: int) -> tuple[np.ndarray, np.ndarray]:
    """Batch positions grouped by (decision, owning strategy), by a counting sort.

    Group k = decision * n_owners + owner; group k's games are
    ``order[start[k]:start[k + 1]]``, ascending. Where one action is legal (``legal``:
    the masks as int64 bits) it goes to ``forced``, the only legal answer: nobody is
    asked. Forced actions and finished games belong to no group.
    """
    n_groups = n_decisions * n_owners
    key = np.full(decision.shape[0], -1, dtype=np.int64)
    count = np.zeros(n_groups + 1, dtype=np.int64)
    for g in range(decision.shape[0]):
        d = decision[g]
        if d < 0 or forced[g] >= 0:
            continue
        lm = legal[g]
        if lm != 0 and (lm & (lm - 1)) == 0:
            forced[g] = nth_bit(lm, 0)
            continue
        k = d * n_owners + owner_of_seat[seat[g]]
        key[g] = k
        count[k + 1] += 1
    start = np.cumsum(count)
    fill = start[:-1].copy()
    order = np.empty(start[-1], dtype=np.int64)
    for g in range(decision.shape[0]):
        k = key[g]
        if k >= 0:
            order[fill[k]] = g
            fill[k] += 1
    return order, start


def game_of(strategies: Sequence[Strategy], game: Game | None = None) -> Game:
    """``game`` if given, else the game the strategies' tags name (they must agree); a
    lineup of game-neutral strategies names none: ValueError."""
    if game is not None:
        return game
    tags = {s.game for s in strategies if getattr(s, "game", None) is not None}
    if len(tags) != 1:
        raise ValueError("name the game (game=): the strategies' tags name "
                         + (", ".join(sorted(tags)) if tags else "no game"))
    from trixsim.games import get_game

    return get_game(tags.pop())


def decide(state: Any, strategies: Sequence[Strategy], legal: np.ndarray,
           game: Game | None = None) -> np.ndarray:
    """One checked action per game from the strategies seated in it (forced actions where
    the rules force them, the only legal one where one action is legal: nobody is asked
    then; -1 in finished games). ``game``: see ``game_of``."""
    game = game_of(strategies, game)
    legal = np.asarray(legal)
    decision, seat_of, actions = game.pending(state, legal)
    owners: list[Strategy] = []
    owner_of_seat = np.empty(len(strategies), dtype=np.int64)
    for seat, s in enumerate(strategies):
        for k, o in enumerate(owners):
            if o is s:
                owner_of_seat[seat] = k
                break
        else:
            owner_of_seat[seat] = len(owners)
            owners.append(s)
    decisions = game.decisions
    bits = legal.view(np.int64) if legal.dtype == np.uint64 else np.asarray(legal, np.int64)
    order, start = _group(decision, seat_of, actions, bits, owner_of_seat, len(decisions),
                          len(owners))
    n = len(owners)
    for k, strategy in enumerate(owners):
        if _uniform_everywhere(strategy, game):
            # the base class answers every decision alike: one call for all of them
            idx = np.concatenate([order[start[d.id * n + k]:start[d.id * n + k + 1]]
                                  for d in decisions])
            if idx.size:
                _ask(state, game, strategy, decisions[-1].name, decisions[-1].method, idx,
                     legal, actions)
            continue
        for d in decisions:
            grp = d.id * n + k
            idx = order[start[grp]:start[grp + 1]]
            if idx.size:
                _ask(state, game, strategy, d.name, d.method, idx, legal, actions)
    return actions


def _uniform_everywhere(strategy: Strategy, game: Game) -> bool:
    """Whether the strategy keeps the base class's uniform choice for every decision."""
    cls = type(strategy)
    return all(getattr(cls, d.method, None) is getattr(Strategy, d.method, None)
               for d in game.decisions) and cls.uniform is Strategy.uniform


def _ask(state: Any, game: Game, strategy: Strategy, name: str, method: str,
         idx: np.ndarray, legal: np.ndarray, actions: np.ndarray) -> None:
    """Ask one strategy one kind of decision for the games at ``idx``; store the answers."""
    lm = legal[idx]
    obs = game.strategy_view(state, idx, lm, strategy.observes_for(name))
    try:
        out = strategy.method_for(method)(obs)
    except StrategyError:  # already names the strategy, decision and game
        raise
    except Exception as exc:  # a strategy's own failure stops the run, named
        raise StrategyError(
            f"strategy {strategy.label!r} raised {type(exc).__name__}: {exc} on "
            f"decision {name!r} (first game of the batch: "
            f"{int(state.game_id[idx[0]])})") from exc
    actions[idx] = _check(strategy, name, state.game_id, idx, lm, out)


def _blame(state: Any, game: Game, strategies: Sequence[Strategy], actions: np.ndarray,
           exc: IllegalActionError) -> StrategyError:
    """Name the strategy, decision, game and action behind the rules' refusal, and say
    why (the game's ``why_illegal``)."""
    g = int(exc.games[0])
    seat = int(game.to_act(state)[g])
    d = int(game.decision(state)[g])
    a = int(actions[g])
    name = game.action_name(d, a)
    shown = f"{a} ({name})" if name != str(a) else str(a)
    legal = game.legal_action_mask(state)[g]
    legal_names = " ".join(game.action_name(d, x) for x in mask_actions(legal))
    return StrategyError(
        f"strategy {strategies[seat].label!r} (seat {seat}) returned illegal action {shown} "
        f"on decision {game.decisions[d].name!r} in game {int(state.game_id[g])}: "
        f"{game.why_illegal(state, g, a)} (legal: {legal_names})")


def play_batch(strategies: Sequence[Strategy], seed: int, game_ids: np.ndarray | range,
               observer: Observer | None = None, path: str = "auto",
               game: Game | None = None) -> Any:
    """Play complete games (seat s is played by strategies[s]) and return the final state.

    ``path``: ``compiled`` plays whole games inside compiled code (every seat needs a
    compiled policy), ``stepwise`` asks the strategies' methods step by step, ``auto``
    (the default) takes the compiled path when it can. Both give the same games.
    ``game``: the game played (None: the one the strategies' tags name, see ``game_of``).
    """
    game = game_of(strategies, game)
    if len(strategies) != game.n_seats:
        raise ValueError(f"exactly {game.n_seats} strategies are needed, one per seat")
    if path not in PATHS:
        raise ValueError(f"path must be one of {', '.join(PATHS)}, not {path!r}")
    watches = hasattr(observer, "before_step") or hasattr(observer, "after_step")
    if path != "stepwise" and not watches:
        st = game.play_compiled(strategies, seed, game_ids, observer)
        if st is not None:
            return st
    if path == "compiled":
        raise ValueError("the compiled path needs a compiled policy for every seat (and no "
                         "observer watching steps)")
    return _play_stepwise(strategies, seed, game_ids, observer, game)


COMPACT_EVERY = 16
"""Steps between two looks at how many games of a stepwise batch are still played."""

COMPACT_BELOW = 0.75
"""The stepwise loop drops finished games from its working rows once fewer than this
share of them is still played: every step reads every row, and a batch's rows outgrow
the cache, so each pass fetches the rows of games already over from memory too."""


def _play_stepwise(strategies: Sequence[Strategy], seed: int, game_ids: np.ndarray | range,
                   observer: Observer | None, game: Game) -> Any:
    """``play_batch`` step by step through the strategies' methods.

    Steps work on the rows of the games still being played (``cur``; ``pos`` their places
    in the whole batch ``st``, None while they are all of them): finished games are
    dropped from time to time and their rows written back (the audit follows them with
    ``take`` and ``put``, and checks the whole batch once more at the end), and the
    events' batch positions are those of the whole batch. An observer watching steps
    sees the whole batch throughout (nothing is dropped), and so does a game whose audit
    cannot follow a subset (no ``take`` and ``put``)."""
    log = game.event_log() if hasattr(observer, "events") else None
    if log is not None and getattr(observer, "event_kinds", None) is not None:
        log.kinds = frozenset(observer.event_kinds)  # type: ignore[union-attr]
    before = getattr(observer, "before_step", None)
    after = getattr(observer, "after_step", None)
    st = game.init(seed, np.asarray(game_ids, dtype=np.int64), events=log)
    if log is not None:
        observer.events(st, log.rows)  # type: ignore[union-attr]
    legal = game.legal_action_mask(st)
    audit = game.audit(st)
    compact = (before is None and after is None and hasattr(audit, "take")
               and hasattr(audit, "put"))
    # games that can, go on by themselves through the actions nobody chooses (unless an
    # observer watches every step)
    extra = {"advance": True} if (getattr(game, "advances", False) and before is None
                                  and after is None) else {}
    whole, cur, pos = audit, st, None
    live, steps = True, 0
    while live:
        actions = decide(cur, strategies, legal, game)
        if before is not None:
            before(st, actions, legal)
        try:
            legal = game.step(cur, actions, events=log, legal=legal, **extra)
        except IllegalActionError as exc:
            raise _blame(cur, game, strategies, actions, exc) from None
        bad, live = audit.after_step(cur)
        if bad is not None:
            raise _dishonest(bad, strategies)
        if log is not None:
            rows = log.rows
            if pos is not None:
                rows[:, 0] = pos[rows[:, 0]]  # to the whole batch's positions
            observer.events(st, rows)  # type: ignore[union-attr]
        if after is not None:
            after(st)
        steps += 1
        if compact and live and steps % COMPACT_EVERY == 0:
            keep = np.flatnonzero(game.decision(cur) >= 0)
            if len(keep) < COMPACT_BELOW * cur.batch_size:
                if pos is not None:
                    st.data[pos] = cur.data
                    whole.put(pos, audit)
                pos = keep if pos is None else pos[keep]
                cur, legal, audit = cur.take(keep), legal[keep], audit.take(keep)
    if pos is not None:  # the rows back, and the whole batch checked once more
        st.data[pos] = cur.data
        whole.put(pos, audit)
        bad, _ = whole.after_step(st)
        if bad is not None:
            raise _dishonest(bad, strategies)
    return st


def _dishonest(message: str, strategies: Sequence[Strategy]) -> IntegrityError:
    """The audit's complaint, with the lineup."""
    return IntegrityError(f"{message} (strategies: {', '.join(s.label for s in strategies)})")


__all__ = ["PATHS", "IntegrityError", "Observer", "StrategyError", "decide", "game_of",
           "play_batch"]
