"""Trix: its rules (a state machine over a batch of games), chance, events and
observations, and ``GAME``, the same rules behind the ``trixsim.game.Game`` interface.

``rules`` is the only implementation of the rules; ``state`` the batch layout; ``chance``
where deals come from; ``events`` what ``init`` and ``step`` report; ``observation`` what
a seat may know. Trix's vocabulary lives here too: ``types`` (contracts, decisions,
actions), ``cards`` (the 32-card deck), ``transcript`` (its trixsim-transcript/1 records)
and ``adapter`` (one-game bots). The parts every game shares are ``trixsim.gamekit``.
"""

from trixsim.games.trix.chance import Chance
from trixsim.games.trix.game import GAME, TrixGame
from trixsim.games.trix.observation import Observation, observe
from trixsim.games.trix.rules import (
    IllegalActionError,
    init,
    legal_action_mask,
    pick_number,
    placeable,
    step,
)
from trixsim.games.trix.state import GameState

__all__ = [
    "GAME", "Chance", "GameState", "IllegalActionError", "Observation", "TrixGame", "init",
    "legal_action_mask", "observe", "pick_number", "placeable", "step",
]
