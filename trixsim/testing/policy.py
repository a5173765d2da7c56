"""``check_policy``: a strategy's compiled policy must play exactly as its methods do and
must not look at the other seats' cards."""

from __future__ import annotations

import numpy as np

from trixsim.games.trix import GAME, GameState
from trixsim.games.trix.events import decode
from trixsim.loading import bundled
from trixsim.sim import play_batch
from trixsim.strategy import Strategy
from trixsim.testing._common import _fail
from trixsim.testing.fairness import FAIR_GAMES, check_fair_play


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
    - ``hidden cards`` and ``public observation`` (``check_fair_play``): decisions asked
      again with the hidden cards dealt anew consistently with the public history get
      the same answers, from the policy and from the methods.

    Raises an AssertionError naming the check, the game and the decision.
    """
    who = who or f"check_policy({strategy.label!r})"
    if strategy.compiled() is None:
        return
    check_agreement(strategy, games, seed, who)
    check_fair_play(strategy, min(games, FAIR_GAMES), seed, who)


def check_agreement(strategy: Strategy, games: int, seed: int, who: str) -> None:
    """The ``compiled policy agreement`` check of ``check_policy`` (nothing without a
    compiled policy)."""
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
        play_batch(lineup, seed, ids, observer=fast, path="compiled", game=GAME)
        play_batch(lineup, seed, ids, observer=slow, path="stepwise", game=GAME)
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
