"""``check_fair_play``: a strategy decides only from what its seat may know.

Every decision of a few games is asked again in states that differ only in what the
deciding seat cannot see: the other seats' unplayed cards dealt anew consistently with the
contract's public history (played cards, shown voids, a declared K♥, trix passes) and the
contract replayed through the rules to the same decision (``trixsim.testing.redeal``).
The seat's whole observation must be the same in both (else the engine leaks), and so must
the strategy's answer, from its methods and from its compiled policy (else the strategy
finds hidden cards by some other way: reading the hands in the state row, or walking the
interpreter's frames to the game state).
"""

from __future__ import annotations

import numpy as np

from trixsim.games.trix import GAME, GameState, legal_action_mask
from trixsim.games.trix.chance import Chance
from trixsim.games.trix.fast import call_policy, resolve
from trixsim.games.trix.observation import FIELDS, observe, strategy_subkey
from trixsim.games.trix.state import COL
from trixsim.games.trix.types import DECISION_NAMES
from trixsim.sim import decide, play_batch
from trixsim.strategy import Strategy
from trixsim.testing._common import _action_text, _fail
from trixsim.testing.redeal import History, pairs

FAIR_GAMES = 8
"""Games whose decisions are re-dealt (the strategy in all four seats)."""
FAIR_DECISIONS = 300
"""Decisions re-dealt at most: every one where the K♥ question is open (see
``redeal.Decision.kh_open``), then others at random."""

_SAME_HISTORY = ("in a deal of the hidden cards with the same public history (the other "
                 "seats' unplayed cards dealt anew consistently with the cards played, "
                 "shown voids, a declared K♥ and trix passes, and the contract replayed "
                 "through the rules to the same decision)")


def check_fair_play(strategy: Strategy, games: int = FAIR_GAMES, seed: int = 0,
                    who: str | None = None, limit: int = FAIR_DECISIONS) -> None:
    """Re-deal the hidden cards of up to ``limit`` decisions of ``games`` games played by
    ``strategy`` in all four seats, and fail unless, for each re-deal:

    - ``hidden cards``: the strategy's methods, and its compiled policy if it has one,
      give the same answer as in the game played;
    - ``public observation``: the deciding seat's whole observation (every field) is the
      same (a difference is a leak of the engine, which every strategy could exploit).

    Raises an AssertionError naming the check, the game and the decision.
    """
    who = who or f"check_fair_play({strategy.label!r})"
    hist = History(games)
    play_batch([strategy] * 4, seed, range(games), observer=hist, game=GAME)
    a, b, _ = pairs(hist.decisions(), np.random.default_rng(seed), limit)
    if not len(a):
        return
    sa, sb = GameState(a, Chance(seed)), GameState(b, Chance(seed))
    la, lb = legal_action_mask(sa), legal_action_mask(sb)
    changed = _changed_fields(sa, la, sb, lb)
    answers = [("its methods", decide(sa, [strategy] * 4, la, GAME),
                decide(sb, [strategy] * 4, lb, GAME))]
    compiled = strategy.compiled()
    if compiled is not None:
        policy, params = compiled
        policy = resolve(policy)
        subkey = strategy_subkey(seed)
        answers.append(("its compiled policy",
                        _policy_answers(policy, params, a, la, subkey),
                        _policy_answers(policy, params, b, lb, subkey)))
    for how, x, y in answers:
        bad = np.flatnonzero(x != y)
        if bad.size:
            i = int(bad[0])
            leak = (f"; the observation itself changed in field(s) "
                    f"{', '.join(map(repr, changed[i]))}, so the engine reveals hidden "
                    f"information" if changed[i] else "")
            ph = int(a[i, COL["phase"]])
            raise _fail(who, "hidden cards",
                        f"{_where(a[i], seed)}: {how} answered {_action_text(ph, int(x[i]))} "
                        f"in the game played and {_action_text(ph, int(y[i]))} "
                        f"{_SAME_HISTORY}{leak}",
                        "A strategy may decide only from its observation, and a compiled "
                        "policy only from the public columns of the state row "
                        "(trixsim.games.trix.policy.C) and its own hand; neither may look "
                        "for the game state or the other seats' cards by other means")
    for i, fields in enumerate(changed):
        if fields:
            raise _fail(who, "public observation",
                        f"{_where(a[i], seed)}: field {fields[0]!r} of the deciding seat's "
                        f"observation changed {_SAME_HISTORY}",
                        "The engine reveals hidden information to every strategy: an "
                        "observation field must derive from public events only")


def _where(row: np.ndarray, seed: int) -> str:
    """The game and decision of a state row, for messages."""
    return (f"game {int(row[COL['game_id']])} (seed {seed}), decision "
            f"{DECISION_NAMES[int(row[COL['phase']])]!r} at ply {int(row[COL['ply']])} (seat "
            f"{int(row[COL['turn']])})")


def _changed_fields(sa: GameState, la: np.ndarray, sb: GameState,
                    lb: np.ndarray) -> list[list[str]]:
    """Per pair, the observation fields of the deciding seat that differ."""
    idx = np.arange(sa.batch_size)
    oa, ob = observe(sa, idx, la), observe(sb, idx, lb)
    diff = {k: (np.asarray(getattr(oa, k)) != np.asarray(getattr(ob, k)))
            .reshape(len(idx), -1).any(axis=1) for k in FIELDS}
    return [[k for k in FIELDS if diff[k][i]] for i in range(len(idx))]


def _policy_answers(policy: object, params: np.ndarray, rows: np.ndarray, legal: np.ndarray,
                    subkey: int) -> np.ndarray:
    """The compiled policy's answer in each state row."""
    S = np.ascontiguousarray(rows)
    return np.array([call_policy(policy, S, g, int(legal[g]), subkey, params)
                     for g in range(len(S))], dtype=np.int64)


__all__ = ["FAIR_DECISIONS", "FAIR_GAMES", "check_fair_play"]
