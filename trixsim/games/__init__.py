"""Rule sets, one package each, every one behind the ``trixsim.game.Game`` interface."""

from __future__ import annotations

from trixsim.game import Game

GAMES = ("trix", "trump7", "trump7-bid")
"""The names ``get_game`` knows."""


def get_game(name: str = "trix") -> Game:
    """The rule set called ``name``: ``trix``, ``trump7`` or ``trump7-bid`` (trump7 with
    the optional bid)."""
    if name == "trix":
        from trixsim.games.trix import GAME

        return GAME
    if name in ("trump7", "trump7-bid"):
        from trixsim.games.trump7 import BID_GAME, GAME

        return BID_GAME if name == "trump7-bid" else GAME
    raise ValueError(f"unknown game {name!r} (known: {', '.join(GAMES)})")


__all__ = ["GAMES", "get_game"]
