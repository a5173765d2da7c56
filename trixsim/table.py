"""One game driven one decision at a time: the entry point for interactive tables.

A terminal or web table seats people and bots around one game. ``Table`` wraps a batch
of one game of the same engine the simulator uses (no second set of rules): it says who
must decide what, lists the legal actions, shows any seat its own view, applies one
action, and lets bots take their turns until a person must decide.
"""

from __future__ import annotations

import copy
from collections.abc import Callable, Mapping

import numpy as np

from trixsim.game import Action, Game, Seat, mask_actions
from trixsim.games.trix import GAME, GameState
from trixsim.games.trix.events import Event, EventLog, decode, visible_to
from trixsim.games.trix.observation import Observation
from trixsim.games.trix.types import PASS
from trixsim.sim import decide
from trixsim.strategy import Strategy


class Table:
    """A single game of Trix, advanced one decision at a time."""

    def __init__(self, seed: int, game_id: int = 0, first_picker: Seat | None = None,
                 game: Game = GAME) -> None:
        fp = None if first_picker is None else [first_picker]
        self.game = game
        self._log = EventLog()
        self.state: GameState = game.init(seed, [game_id], first_pickers=fp, events=self._log)
        self.history: list[Event] = decode(self._log.rows, self.state.game_id)
        self.actions: list[Action] = []
        """Every action taken, in order: with the seed, the whole game (``replay``)."""
        self._legal = game.legal_action_mask(self.state)

    @classmethod
    def replay(cls, seed: int, actions: list[Action], game_id: int = 0) -> Table:
        """The table after ``actions`` from the deal of ``seed``; ValueError naming the
        first action the rules refuse."""
        table = cls(seed, game_id)
        for k, a in enumerate(actions):
            why = "the game is over" if table.over else table.why_illegal(a)
            if why is not None:
                raise ValueError(f"action {k + 1} ({a}) is not allowed: {why}")
            table.act(a)
        return table

    @property
    def over(self) -> bool:
        """Whether the game has ended."""
        return int(self.game.decision(self.state)[0]) < 0

    @property
    def turn(self) -> Seat:
        """The seat that must decide now."""
        return int(self.game.to_act(self.state)[0])

    @property
    def decision(self) -> int:
        """What it must decide (a decision id of the game; -1 once over)."""
        return int(self.game.decision(self.state)[0])

    @property
    def totals(self) -> list[int]:
        """Running totals of the four seats."""
        return [int(t) for t in self.state.totals[0]]

    def legal_actions(self) -> list[Action]:
        """The actions allowed now (``[PASS]`` when a trix seat has nothing to place)."""
        return mask_actions(int(self._legal[0]))

    def why_illegal(self, action: Action) -> str | None:
        """Why ``action`` is not allowed now (None if it is): for a person's mistake."""
        return self.game.why_illegal(self.state, 0, action)

    def view(self, seat: Seat) -> Observation:
        """What ``seat`` knows now (its own hand only); ``legal`` is empty unless it acts."""
        return self.game.observe(self.state, np.array([0]), seat)

    def act(self, action: Action) -> None:
        """Apply the acting seat's action; IllegalActionError if the rules forbid it."""
        self._legal = self.game.step(self.state, np.array([action], dtype=np.int64),
                                     events=self._log)
        self.history += decode(self._log.rows, self.state.game_id)
        self.actions.append(int(action))

    def history_for(self, seat: Seat) -> list[Event]:
        """Everything that happened, as ``seat`` may see it (other hands hidden, a quiet
        K♥ holder too): what a table sends a player who joins or comes back."""
        return [v for e in self.history if (v := visible_to(e, seat)) is not None]

    def play_bots(self, bots: Mapping[int, Strategy]) -> None:
        """Let the bots at the seats in ``bots`` act until another seat must decide.

        Forced trix passes are applied for every seat, person or bot.
        """
        while (seat := self.pass_forced(bots)) is not None:
            self.act(self.thinker(bots[seat])())

    def pass_forced(self, bots: Mapping[int, Strategy]) -> Seat | None:
        """Apply forced trix passes; then the seat of ``bots`` that must decide now, or
        None when the game is over or a seat without a bot must decide."""
        while not self.over:
            if self.legal_actions() == [PASS]:
                self.act(PASS)
                continue
            return self.turn if self.turn in bots else None
        return None

    def thinker(self, bot: Strategy) -> Callable[[], Action]:
        """A function that returns ``bot``'s action for the seat to act now, computed on
        a copy of the game (so it may run in another thread, and be abandoned, while the
        table goes on)."""
        state = copy.deepcopy(self.state)
        legal = (self._legal & np.uint64(0xFFFFFFFF)).astype(np.uint32)
        return lambda: int(decide(state, [bot] * 4, legal, GAME)[0])
