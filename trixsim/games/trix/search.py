"""Trix's search on the public API: worlds consistent with what a seat knows, played out
(the compiled, game-generic core is ``trixsim.search``; Trix's compiled worlds are
``trixsim.games.trix.worlds``).

A search bot samples the hidden cards (the other seats' hands) consistently with its
observation, builds a state from the observation and that sample with ``world_from``, and
plays the rest of the current contract with ``play_out_contract``: the engine then ends
the game when the contract ends instead of dealing the next one (a mode of the state, not
a watch on counters). ``hidden_cards`` and ``shown_voids`` give what a sampler must
respect; ``world_from`` checks every sample against them.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from trixsim.errors import StrategyError
from trixsim.games.trix import GAME, GameState, legal_action_mask, step
from trixsim.games.trix.cards import KH_MASK, SUIT_MASK, popcount
from trixsim.games.trix.fast import compiled_lineup, play_out_all
from trixsim.games.trix.observation import Observation, shown_voids, strategy_subkey
from trixsim.games.trix.state import COL
from trixsim.games.trix.types import DONE
from trixsim.sim import decide
from trixsim.strategy import Strategy

CardMask = int
"""A set of cards as a 32-bit mask (bit ``suit * 8 + rank``)."""
FULL = 0xFFFFFFFF


class WorldError(ValueError):
    """A sampled assignment of the hidden cards that contradicts the observation."""


def hidden_cards(obs: Observation, i: int) -> CardMask:
    """The cards the other seats hold between them in game ``i`` of the observation."""
    return FULL & ~int(obs.hand[i]) & ~int(obs.played[i])


def world_from(obs: Observation, i: int, hands: Sequence[CardMask]) -> GameState:
    """A one-game state equal to game ``i`` of a full observation (``observes = None``)
    with the four hands given (the observer's own must be its real hand).

    Checked: four hands of the sizes the observation shows, no card twice, no played
    card, every seat's shown voids, a declared K♥ not yet played still with its holder.
    The state ends the game when the current contract ends (see ``play_out_contract``).
    """
    if "_rows" not in obs:
        raise ValueError("world_from needs a full observation (a strategy with observes = None)")
    h = [int(x) & FULL for x in hands]
    me = int(obs.seat[i])
    if len(h) != 4:
        raise WorldError(f"expected 4 hands, got {len(h)}")
    if h[me] != int(obs.hand[i]):
        raise WorldError(f"seat {me}'s hand is not its real hand")
    sizes = popcount(np.array(h, dtype=np.uint32))
    if sizes.tolist() != obs.hand_sizes[i].tolist():
        raise WorldError(f"hand sizes {sizes.tolist()}, the observation shows "
                         f"{obs.hand_sizes[i].tolist()}")
    union = 0
    for x in h:
        if union & x:
            raise WorldError("a card is in two hands")
        union |= x
    if union & int(obs.played[i]):
        raise WorldError("a hand holds a card already played")
    voids = shown_voids(obs.voids[i:i + 1])[0]
    for s in range(4):
        for suit in range(4):
            if voids[s, suit] and h[s] & int(SUIT_MASK[suit]):
                raise WorldError(f"seat {s} showed out of suit {suit} but holds one")
    holder = int(obs.declared[i])
    if holder >= 0 and not int(obs.played[i]) & KH_MASK and not h[holder] & KH_MASK:
        raise WorldError(f"seat {holder} declared the king of hearts and must still hold it")
    row = np.array(obs._rows[i:i + 1], dtype=np.int64)
    row[0, COL["hands"]:COL["hands"] + 4] = h
    row[0, COL["stop_after"]] = 1
    return GameState(row)


def play_out_contract(state: GameState, strategies: Sequence[Strategy]) -> np.ndarray:
    """Play every game of ``state`` (worlds from ``world_from``; copy a state with
    ``state.copy()`` first to keep it) to the end of its current contract with the four
    seats' strategies; returns each game's (B, 4) points of that contract.

    When every seat has a compiled policy the rollouts run in compiled code
    (``trixsim.games.trix.fast.play_out``, callable from a compiled bot too); otherwise
    the strategies' methods are asked step by step. Same play either way."""
    state.data[:, COL["stop_after"]] = 1
    lineup = compiled_lineup(strategies)
    if lineup is not None:
        bad = play_out_all(state.data, strategy_subkey(state.run_seed), *lineup)
        if (bad >= 0).any():
            g = int(np.flatnonzero(bad >= 0)[0])
            raise StrategyError(f"strategy {strategies[int(bad[g])].label!r}'s compiled "
                                f"policy chose an illegal action in the rollout of game "
                                f"{int(state.game_id[g])}")
        return state.points.copy()
    legal = legal_action_mask(state)
    while (state.phase != DONE).any():
        legal = step(state, decide(state, strategies, legal, GAME), legal)
    return state.points.copy()


__all__ = ["CardMask", "WorldError", "hidden_cards", "play_out_contract", "world_from"]
