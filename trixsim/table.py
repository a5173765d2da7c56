"""One game driven one decision at a time: the entry point for interactive tables.

A terminal or web table seats people and bots around one game. ``Table`` wraps a batch
of one game of the same engine the simulator uses (no second set of rules): it says who
must decide what, lists the legal actions, shows any seat its own view, applies one
action, and lets bots take their turns until a person must decide.
"""

from __future__ import annotations

from collections.abc import Mapping

import numpy as np

from trixsim.engine import GameState, init, legal_action_mask, observe, step
from trixsim.engine.observation import Observation
from trixsim.sim import decide
from trixsim.strategy import Strategy
from trixsim.types import DONE, PASS, PLACE


class Table:
    """A single game of Trix, advanced one decision at a time."""

    def __init__(self, seed: int, game_id: int = 0, first_picker: int | None = None) -> None:
        fp = None if first_picker is None else [first_picker]
        self.state: GameState = init(seed, [game_id], first_pickers=fp)
        self._legal = legal_action_mask(self.state)

    @property
    def over(self) -> bool:
        """Whether the game has ended."""
        return int(self.state.phase[0]) == DONE

    @property
    def turn(self) -> int:
        """The seat that must decide now."""
        return int(self.state.turn[0])

    @property
    def decision(self) -> int:
        """What it must decide: PICK, DECLARE, PLAY or PLACE (DONE once over)."""
        return int(self.state.phase[0])

    @property
    def totals(self) -> list[int]:
        """Running totals of the four seats."""
        return [int(t) for t in self.state.totals[0]]

    def legal_actions(self) -> list[int]:
        """The actions allowed now (``[PASS]`` when a trix seat has nothing to place)."""
        if self.over:
            return []
        mask = int(self._legal[0])
        if self.decision == PLACE and mask == 0:
            return [PASS]
        return [a for a in range(32) if mask >> a & 1]

    def view(self, seat: int) -> Observation:
        """What ``seat`` knows now (its own hand only); ``legal`` is empty unless it acts."""
        return observe(self.state, np.array([0]), self._legal, viewer=np.array([seat]))

    def act(self, action: int) -> None:
        """Apply the acting seat's action; IllegalActionError if the rules forbid it."""
        self._legal = step(self.state, np.array([action], dtype=np.int64), self._legal)

    def play_bots(self, bots: Mapping[int, Strategy]) -> None:
        """Let the bots at the seats in ``bots`` act until another seat must decide.

        Forced trix passes are applied for every seat, person or bot.
        """
        seats = [bots.get(s) for s in range(4)]
        while not self.over:
            forced = self.decision == PLACE and int(self._legal[0]) == 0
            bot = seats[self.turn]
            if bot is None and not forced:
                return
            if forced:
                self.act(PASS)
                continue
            filled = [s if s is not None else bot for s in seats]
            self.act(int(decide(self.state, filled, self._legal)[0]))
