"""trump7, the seven-card trump game (docs/rules-trump7.md), and trump7-bid, the same
with the optional bid: its rules (a state machine over a batch of games), cards, chance,
events, observations and outcome table, and ``GAME`` / ``BID_GAME`` behind the
``trixsim.game.Game`` interface.

``rules`` is the only implementation of the rules; ``state`` the batch layout; ``chance``
where packs come from; ``events`` what ``init`` and ``step`` report; ``observation`` what
a seat may know; ``fast`` whole games in compiled code.
"""

from trixsim.games.trump7.chance import Chance, pack_from
from trixsim.games.trump7.game import BID_GAME, GAME, Trump7Game
from trixsim.games.trump7.observation import Observation, observe
from trixsim.games.trump7.rules import IllegalActionError, init, legal_action_mask, step
from trixsim.games.trump7.state import BID, DONE, PLAY, GameState

__all__ = ["BID", "BID_GAME", "DONE", "GAME", "PLAY", "Chance", "GameState",
           "IllegalActionError", "Observation", "Trump7Game", "init", "legal_action_mask",
           "observe", "pack_from", "step"]
