"""The strategy API: a strategy decides for many games at once.

A strategy is a class with four methods, one per decision. Each receives an Observation
for the games where a seat it controls must take that decision (``obs.legal`` is the
legal-action mask) and returns one action per game, as an integer array of length
``len(obs)``. The base class answers every decision uniformly at random among the legal
actions, so a subclass overrides only the decisions it cares about.

Actions: ``pick`` returns a contract id (trixsim.types), ``declare`` 1 to declare the
king of hearts or 0 not to, ``play`` and ``place`` a card (trixsim.cards). Trix passes
are not asked: a seat with nothing to place passes by rule.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar

import numpy as np

from trixsim.cards import choose_uniform
from trixsim.games.trix.observation import Observation


@dataclass(frozen=True)
class Param:
    """A declared, documented strategy parameter (its type is the default's type)."""

    default: Any
    doc: str

    @property
    def type(self) -> type:
        """The parameter's type."""
        return type(self.default)


class Strategy:
    """Base strategy: uniform random among the legal actions for every decision."""

    name: ClassVar[str] = "base"
    description: ClassVar[str] = "uniform random among the legal actions"
    params: ClassVar[dict[str, Param]] = {}
    observes: ClassVar[frozenset[str] | None] = frozenset({"legal", "key"})
    """Observation fields the strategy reads (None: all). Fewer fields, less copying."""

    def __init__(self, **values: Any) -> None:
        for key in values:
            if key not in self.params:
                known = ", ".join(sorted(self.params)) or "none"
                raise ValueError(f"strategy {self.name!r} has no parameter {key!r} "
                                 f"(parameters: {known})")
        for key, p in self.params.items():
            value = values.get(key, p.default)
            if p.type is float and isinstance(value, int) and not isinstance(value, bool):
                value = float(value)
            if not isinstance(value, p.type) or (p.type is not bool and isinstance(value, bool)):
                raise ValueError(f"parameter {key!r} of strategy {self.name!r} must be "
                                 f"{p.type.__name__}, got {value!r}")
            setattr(self, key, value)

    @property
    def label(self) -> str:
        """The name with any non-default parameters, e.g. ``heuristic:declare_margin=20``."""
        changed = [f"{k}={getattr(self, k)}" for k, p in self.params.items()
                   if getattr(self, k) != p.default]
        return self.name + (":" + ",".join(changed) if changed else "")

    def pick(self, obs: Observation) -> np.ndarray:
        """Contract ids, one per game."""
        return choose_uniform(obs.legal, obs.key)

    def declare(self, obs: Observation) -> np.ndarray:
        """1 to declare the king of hearts, 0 not to, one per game."""
        return choose_uniform(obs.legal, obs.key)

    def play(self, obs: Observation) -> np.ndarray:
        """Cards to play to the current trick, one per game."""
        return choose_uniform(obs.legal, obs.key)

    def place(self, obs: Observation) -> np.ndarray:
        """Cards to place on the trix layout, one per game (never called to pass)."""
        return choose_uniform(obs.legal, obs.key)
