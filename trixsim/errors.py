"""Errors the loop raises about strategies (shared by every game's package)."""

from __future__ import annotations


class StrategyError(RuntimeError):
    """A strategy returned an illegal action, the wrong shape, or raised."""


class IntegrityError(StrategyError):
    """A game's state changed other than by the rules: it was tampered with."""


__all__ = ["IntegrityError", "StrategyError"]
