"""``check_policy``: a strategy's compiled policy must play exactly as its methods do and
must not look at the other seats' cards."""

from __future__ import annotations

import numpy as np

from trixsim.games.trix import GameState, legal_action_mask
from trixsim.games.trix.events import decode
from trixsim.games.trix.fast import call_policy
from trixsim.games.trix.observation import strategy_subkey
from trixsim.games.trix.state import COL
from trixsim.loading import bundled
from trixsim.sim import play_batch
from trixsim.strategy import Strategy
from trixsim.testing._common import _action_text, _fail
from trixsim.types import DECISION_NAMES, DONE, PLACE

_HANDS = COL["hands"]
_PEEK_GAMES = 40
"""Games whose decisions are re-asked with the other hands shuffled."""


class _Events:
    """Keeps every event of a batch, in order per game."""

    def __init__(self) -> None:
        self.rows: list[np.ndarray] = []
        self.ids = np.zeros(0, dtype=np.int64)

    def events(self, st: GameState, rows: np.ndarray) -> None:
        self.ids = st.game_id.copy()
        self.rows.append(rows.copy())

    def by_game(self) -> dict[int, list[object]]:
        out: dict[int, list[object]] = {}
        for e in decode(np.concatenate(self.rows), self.ids):
            out.setdefault(e.game, []).append(e)
        return out


class _Stepwise:
    """Watches steps (so the loop runs stepwise) and keeps every event."""

    def __init__(self) -> None:
        self.log = _Events()
        self.events = self.log.events

    def before_step(self, st: GameState, actions: np.ndarray, legal: np.ndarray) -> None:
        """Nothing: its presence keeps the loop on the stepwise path."""


def check_policy(strategy: Strategy, games: int = 200, seed: int = 0,
                 who: str | None = None) -> None:
    """If ``strategy`` offers a compiled policy (``Strategy.compiled``), check it:

    - ``compiled policy agreement``: with the strategy in all four seats and in each seat
      against three ``random`` seats, games played on the compiled path have the same
      events (so the same decisions, contracts and totals) as on the stepwise path;
    - ``hidden cards``: each decision of the policy in ``_PEEK_GAMES`` games is asked
      again with the other three seats' cards dealt among them differently (same
      counts); the answer must not change.

    Raises an AssertionError naming the check, the game and the decision.
    """
    who = who or f"check_policy({strategy.label!r})"
    if strategy.compiled() is None:
        return
    rnd = bundled()["random"]()
    ids = np.arange(games, dtype=np.int64)
    lineups = [("in all four seats", [strategy] * 4)]
    for seat in range(4):
        lineup: list[Strategy] = [rnd] * 4
        lineup[seat] = strategy
        lineups.append((f"in seat {seat} against three random seats", lineup))
    for where, lineup in lineups:
        fast, slow = _Events(), _Stepwise()
        play_batch(lineup, seed, ids, observer=fast, path="compiled")
        play_batch(lineup, seed, ids, observer=slow, path="stepwise")
        a, b = fast.by_game(), slow.log.by_game()
        for g in ids.tolist():
            if a[g] != b[g]:
                k = next((i for i, (x, y) in enumerate(zip(a[g], b[g], strict=False))
                          if x != y), min(len(a[g]), len(b[g])))
                first = a[g][k] if k < len(a[g]) else "the end of the game"
                other = b[g][k] if k < len(b[g]) else "the end of the game"
                raise _fail(who, "compiled policy agreement",
                            f"the strategy {where}, game {g} (seed {seed}): event {k + 1} "
                            f"is {first} on the compiled path but {other} when its methods "
                            f"are asked",
                            "The policy must answer every decision as the methods do; a "
                            "subclass that overrides a method must set `policy` again")
    _check_hidden(strategy, who, seed)


def _check_hidden(strategy: Strategy, who: str, seed: int) -> None:
    """Re-ask every decision of a few games with the other hands shuffled."""
    policy, params = strategy.compiled()  # type: ignore[misc]
    subkey = strategy_subkey(seed)
    rng = np.random.default_rng(seed)
    seen: list[np.ndarray] = []

    class Snap:
        def before_step(self, st: GameState, actions: np.ndarray, legal: np.ndarray) -> None:
            seen.append(st.data.copy())

    play_batch([strategy] * 4, seed, range(_PEEK_GAMES), observer=Snap(), path="stepwise")
    for S in seen:
        st = GameState(S)
        legal = legal_action_mask(st)
        for g in range(st.batch_size):
            ph, t = int(st.phase[g]), int(st.turn[g])
            if ph == DONE or (ph == PLACE and legal[g] == 0):
                continue
            want = call_policy(policy, S, g, int(legal[g]), subkey, params)
            other = [s for s in range(4) if s != t]
            cards = [c for s in other for c in range(32) if (int(S[g, _HANDS + s]) >> c) & 1]
            rng.shuffle(cards)
            T = S.copy()
            k = 0
            for s in other:
                n = bin(int(S[g, _HANDS + s])).count("1")
                T[g, _HANDS + s] = sum(1 << c for c in cards[k:k + n])
                k += n
            got = call_policy(policy, T, g, int(legal[g]), subkey, params)
            if got != want:
                raise _fail(who, "hidden cards",
                            f"game {int(S[g, COL['game_id']])}, decision "
                            f"{DECISION_NAMES[ph]!r} at ply {int(S[g, COL['ply']])} (seat "
                            f"{t}): the compiled policy answered {_action_text(ph, want)}, "
                            f"and {_action_text(ph, got)} once the other seats' cards were "
                            f"dealt among them differently",
                            "A policy may read only the public columns of the state row "
                            "(trixsim.games.trix.policy.C) and its own hand")
