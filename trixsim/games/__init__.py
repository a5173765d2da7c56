"""Rule sets, one package each, every one behind the ``trixsim.game.Game`` interface."""

from __future__ import annotations

from trixsim.game import Game


def get_game(name: str = "trix") -> Game:
    """The rule set called ``name``."""
    if name == "trix":
        from trixsim.games.trix import GAME

        return GAME
    raise ValueError(f"unknown game {name!r} (known: trix)")


__all__ = ["get_game"]
