"""The ``Game`` methods every compiled game writes the same way, and its compiled lineup.

``CompiledGame`` answers ``decision``, ``to_act``, ``observe``, ``describe_observation``,
``event_log`` and ``outcomes`` from a few class attributes naming the game's own parts
(its finished phase, observation builder, event log and outcome log), for a state whose
``phase`` and ``turn`` columns say what is due and who acts. ``compiled_lineup`` gathers
four strategies' compiled policies for a whole-game loop, and ``policy_error`` words the
refusal of a compiled policy's illegal action as every game does.
"""

from __future__ import annotations

from typing import Any, ClassVar

import numpy as np

from trixsim.game import Seat, mask_actions


class CompiledGame:
    """Boilerplate of a ``Game`` over a batch state with ``phase`` and ``turn`` columns.

    A subclass sets ``done`` (the phase of a finished game), ``observe_fn(state, games,
    legal, fields=None, viewer=None)`` and ``describe_fn()`` (its observation module's
    ``observe`` and ``describe``), ``event_log_type`` and ``outcome_log_type`` (called as
    ``(batch, lineup)``), and ``raw_legal(state)`` (the rules' own masks, as
    ``observe_fn`` takes them)."""

    done: ClassVar[int]
    observe_fn: ClassVar[Any]
    describe_fn: ClassVar[Any]
    event_log_type: ClassVar[Any]
    outcome_log_type: ClassVar[Any]

    def raw_legal(self, state: Any) -> np.ndarray:
        """The rules' legal masks of every game, as the observation builder takes them."""
        raise NotImplementedError

    def decision(self, state: Any) -> np.ndarray:
        """Per game, the decision due (its phase), or -1 once the game is over."""
        ph = state.phase.copy()
        ph[ph == self.done] = -1
        return ph

    def to_act(self, state: Any) -> np.ndarray:
        """Per game, the seat to act."""
        return state.turn.copy()

    def observe(self, state: Any, games: np.ndarray, seat: Seat | np.ndarray) -> Any:
        """What ``seat`` knows in the games at ``games``; ``legal`` is set where it acts."""
        games = np.asarray(games, dtype=np.int64)
        legal = self.raw_legal(state)[games]
        return type(self).observe_fn(state, games, legal,
                                     viewer=np.broadcast_to(seat, games.shape))

    def describe_observation(self) -> dict[str, str]:
        """Every observation field with its meaning."""
        return type(self).describe_fn()

    def event_log(self) -> Any:
        """A fresh buffer for the events of ``init`` and ``step``."""
        return self.event_log_type()

    def outcomes(self, batch: int, lineup: int = 0) -> Any:
        """An observer collecting a batch's outcome tables (``tables(state, specs)``)."""
        return self.outcome_log_type(batch, lineup)


def compiled_lineup(strategies: Any,
                    uniform: Any) -> tuple[tuple, np.ndarray, np.ndarray] | None:
    """The seats' compiled policies, their parameter rows ((seats, n) float64, zero
    padded) and per seat 1 where it plays the base strategy's uniform random choice (the
    ``UNIFORM`` marker, played by the game's ``uniform`` policy, which a loop may draw
    inline); None unless every seat has a policy (``Strategy.compiled``)."""
    from trixsim.strategy import UNIFORM

    got = [s.compiled() for s in strategies]
    if any(c is None for c in got):
        return None
    policies = tuple(uniform if c[0] is UNIFORM else c[0] for c in got)
    builtin = np.array([p is uniform for p in policies], dtype=np.int64)
    params = np.zeros((len(got), max(len(c[1]) for c in got)))
    for s, (_, p) in enumerate(got):
        params[s, :len(p)] = p
    return policies, params, builtin


def policy_error(game: Any, state: Any, strategies: Any, err: np.ndarray) -> Exception:
    """The StrategyError of a compiled policy's illegal action (``err``: batch position,
    seat, decision, action), naming the strategy, the decision, the game, the rules'
    reason and the legal actions."""
    from trixsim.errors import StrategyError

    g, seat, decision, a = (int(x) for x in err)
    name = game.action_name(decision, a)
    shown = f"{a} ({name})" if name != str(a) else str(a)
    legal = " ".join(game.action_name(decision, x)
                     for x in mask_actions(game.legal_action_mask(state.take([g]))[0]))
    return StrategyError(
        f"strategy {strategies[seat].label!r} (seat {seat}) returned illegal action "
        f"{shown} on decision {game.decisions[decision].name!r} in game "
        f"{int(state.game_id[g])}: {game.why_illegal(state, g, a)} (legal: {legal}; its "
        "compiled policy)")


__all__ = ["CompiledGame", "compiled_lineup", "policy_error"]
