"""The rules engine: a state machine over a batch of games (see rules.py)."""

from trixsim.engine.chance import Chance
from trixsim.engine.observation import Observation, observe
from trixsim.engine.rules import (
    IllegalActionError,
    init,
    legal_action_mask,
    pick_number,
    placeable,
    step,
)
from trixsim.engine.state import GameState

__all__ = [
    "Chance", "GameState", "IllegalActionError", "Observation", "init", "legal_action_mask",
    "observe",
    "pick_number", "placeable", "step",
]
