"""The stepwise loop's honesty check on Trix states: totals change only by the rules.

Strategies on the stepwise path get observations, not the state, but a Python strategy
could still reach the state object; ``TotalsAudit`` keeps the loop's own account of each
game's totals (previous totals plus each contract's points, with the 1000 rule) and
compares it with the state's at each contract's end and once every game is over.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from trixsim.games.trix import rules, transitions
from trixsim.games.trix.state import GameState
from trixsim.games.trix.transitions import add_points
from trixsim.games.trix.types import DONE
from trixsim.jitcache import guard, sources

guard(__file__, sources(rules, transitions), DONE)


class TotalsAudit:
    """The loop's account of a batch's totals (see the module doc)."""

    def __init__(self, st: GameState) -> None:
        self.account = st.totals.copy()
        self.counted = st.contract_no.copy()  # contracts already in the account

    def take(self, idx: np.ndarray) -> TotalsAudit:
        """The account of the games at ``idx`` only (the loop dropped finished games)."""
        out = object.__new__(TotalsAudit)
        out.account, out.counted = self.account[idx], self.counted[idx]
        return out

    def put(self, idx: np.ndarray, part: TotalsAudit) -> None:
        """Take back the account of the games at ``idx`` from ``part`` (its ``take``)."""
        self.account[idx], self.counted[idx] = part.account, part.counted

    def after_step(self, st: GameState) -> tuple[str | None, bool]:
        """After a step: a message naming the first game whose totals broke the rules (or
        None), and whether any game is still being played."""
        bad, live = _audit(st.phase, self.counted, st.contract_no, st.points, st.totals,
                           self.account)
        if bad < 0 and not live and not np.array_equal(st.totals, self.account):
            bad = int(np.flatnonzero((st.totals != self.account).any(axis=1))[0])
        if bad < 0:
            return None, live
        return (f"game {int(st.game_id[bad])}: totals {st.totals[bad].tolist()} are not the "
                f"previous totals plus the contracts' points with the 1000 rule "
                f"({self.account[bad].tolist()}): the game state was changed outside the "
                f"rules"), live


@njit(cache=True)
def _audit(phase: np.ndarray, counted: np.ndarray, contract_no: np.ndarray,
           points: np.ndarray, totals: np.ndarray, account: np.ndarray) -> tuple[int, bool]:
    """Bring ``account`` up to date with each contract the step finished and check that
    game's totals against it; returns the first game that fails (or -1) and whether any
    game is still being played (one pass, with the loop's own test for live games)."""
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


__all__ = ["TotalsAudit"]
