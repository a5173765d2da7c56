"""``random``: uniform among the legal actions, declarations included."""

from __future__ import annotations

from trixsim.strategy import Strategy


class RandomStrategy(Strategy):
    """Every decision uniform at random among the legal actions (reproducible per seed)."""

    name = "random"
    description = "uniform random among the legal actions, in any game (declarations included)"
