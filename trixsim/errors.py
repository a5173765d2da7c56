"""Errors the loop raises about strategies and rules (shared by every game's package)."""

from __future__ import annotations

from typing import Any


class StrategyError(RuntimeError):
    """A strategy returned an illegal action, the wrong shape, or raised."""


class IntegrityError(StrategyError):
    """A game's state changed other than by the rules: it was tampered with."""


class IllegalActionError(ValueError):
    """Actions that a game's rules do not allow in the games' current state; ``games``
    holds their batch positions. Every game's ``step`` raises it (or a subclass), so the
    loop names the strategy at fault whatever the game."""

    def __init__(self, message: str, games: Any) -> None:
        super().__init__(message)
        self.games = games


__all__ = ["IllegalActionError", "IntegrityError", "StrategyError"]
