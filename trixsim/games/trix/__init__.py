"""Trix behind the ``Game`` interface: the engine's rules, legal masks that include the
forced trix pass, and the one explanation of every illegal action."""

from trixsim.games.trix.game import GAME, TrixGame

__all__ = ["GAME", "TrixGame"]
