"""``check_policy``: a strategy's compiled policy must play exactly as its methods do and
must not look at the other seats' cards, in any game that plays compiled policies."""

from __future__ import annotations

from typing import Any

import numpy as np

from trixsim.game import Game
from trixsim.loading import load_strategy
from trixsim.sim import play_batch
from trixsim.strategy import Strategy
from trixsim.testing._common import GameLike, _fail, _tag, game_for
from trixsim.testing.fairness import FAIR_GAMES, check_fair_play, offers_redeals


class _Events:
    """Keeps every event of a batch, in order per game (decoded by the game's events
    module)."""

    def __init__(self, game: Game) -> None:
        self.game = game
        self.rows: list[np.ndarray] = []
        self.ids = np.zeros(0, dtype=np.int64)

    def events(self, st: Any, rows: np.ndarray) -> None:
        self.ids = np.asarray(st.game_id).copy()
        self.rows.append(np.asarray(rows).copy())

    def by_game(self) -> dict[int, list[object]]:
        out: dict[int, list[object]] = {}
        rows = np.concatenate(self.rows) if self.rows else np.zeros((0, 0), dtype=np.int64)
        for e in self.game.events_module.decode(rows, self.ids):
            out.setdefault(e.game, []).append(e)
        return out


class _Stepwise:
    """Watches steps (so the loop runs stepwise) and keeps every event."""

    def __init__(self, game: Game) -> None:
        self.log = _Events(game)
        self.events = self.log.events

    def before_step(self, st: Any, actions: np.ndarray, legal: np.ndarray) -> None:
        """Nothing: its presence keeps the loop on the stepwise path."""


def plays_compiled(game: Game) -> bool:
    """Whether the game plays strategies' compiled policies (it then asks them for the
    kit through ``policy_answers``)."""
    return callable(getattr(game, "policy_answers", None))


def check_policy(strategy: Strategy, games: int = 200, seed: int = 0,
                 who: str | None = None, game: GameLike | None = None) -> None:
    """If ``strategy`` offers a compiled policy (``Strategy.compiled``) and its game plays
    compiled policies, check it:

    - ``compiled policy agreement``: with the strategy in all four seats and in each seat
      against three ``random`` seats, games played on the compiled path have the same
      events (so the same decisions and results) as on the stepwise path;
    - ``hidden cards`` and ``public observation`` (``check_fair_play``, where the game
      offers re-deals): decisions asked again with the hidden cards dealt anew
      consistently with the public history get the same answers, from the policy and from
      the methods.

    ``game``: a Game or a registered name; None: the game the strategy is tagged with, and
    for a strategy of any game the first registered game (``trix``), as before the kit
    took a game. Raises an AssertionError naming the check, the game and the decision.
    """
    who = who or f"check_policy({strategy.label!r})"
    rules = game_for(_tag(strategy), game, who)
    if strategy.compiled() is None or not plays_compiled(rules):
        return
    check_agreement(strategy, games, seed, who, rules)
    if offers_redeals(rules):
        check_fair_play(strategy, min(games, FAIR_GAMES), seed, who, game=rules)


def check_agreement(strategy: Strategy, games: int, seed: int, who: str,
                    game: Game) -> None:
    """The ``compiled policy agreement`` check of ``check_policy`` (nothing without a
    compiled policy, or in a game that plays none)."""
    if strategy.compiled() is None or not plays_compiled(game):
        return
    rnd = load_strategy("random", game.name)
    ids = np.arange(games, dtype=np.int64)
    lineups = [("in all four seats", [strategy] * game.n_seats)]
    for seat in range(game.n_seats):
        lineup: list[Strategy] = [rnd] * game.n_seats
        lineup[seat] = strategy
        lineups.append((f"in seat {seat} against three random seats", lineup))
    for where, lineup in lineups:
        fast, slow = _Events(game), _Stepwise(game)
        play_batch(lineup, seed, ids, observer=fast, path="compiled", game=game)
        play_batch(lineup, seed, ids, observer=slow, path="stepwise", game=game)
        a, b = fast.by_game(), slow.log.by_game()
        for g in ids.tolist():
            if a.get(g, []) != b.get(g, []):
                ea, eb = a.get(g, []), b.get(g, [])
                k = next((i for i, (x, y) in enumerate(zip(ea, eb, strict=False))
                          if x != y), min(len(ea), len(eb)))
                first = ea[k] if k < len(ea) else "the end of the game"
                other = eb[k] if k < len(eb) else "the end of the game"
                raise _fail(who, "compiled policy agreement",
                            f"the strategy {where}, game {g} (seed {seed}): "
                            f"event {k + 1} is {first} on the compiled path but {other} "
                            f"when its methods are asked",
                            "The policy must answer every decision as the methods do; a "
                            "subclass that overrides a method must set `policy` again")
