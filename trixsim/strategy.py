"""The strategy API: a strategy decides for many games at once.

A strategy plays one game (``game``, a name registered in ``trixsim.games``; None for a
strategy that plays any game, like the uniform random one) and has one method per
decision of that game, named by the game (``Game.decisions[i].method``: Trix's ``pick``,
``declare``, ``play``, ``place``; trump7's ``play`` and ``bid``). Each receives an
observation for the games where a seat it controls must take that decision (``obs.legal``
is the legal-action mask) and returns one action per game, as an integer array of length
``len(obs)``. The base class answers any decision, of any game, uniformly at random among
the legal actions (``uniform``), so a subclass overrides only the decisions it cares about.

A strategy can also offer a compiled per-game policy (``policy``, with the calling
convention of ``trixsim.policykit``, over its game's state row) that answers every
decision exactly as its methods do; when all four seats have one, whole games are played
inside compiled code (many times faster), with the same results as the stepwise loop. The
base class's policy is ``UNIFORM``: uniform random play, which each game's compiled loop
draws inline in that game's own terms.

Actions: ``pick`` returns a contract id (trixsim.games.trix.types), ``declare`` 1 to declare the
king of hearts or 0 not to, ``play`` and ``place`` a card (trixsim.games.trix.cards). Trix passes
are not asked: a seat with nothing to place passes by rule. Where one action is legal, no
path asks: the loop plays that action, the only legal answer.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar

import numpy as np

from trixsim.choice import choose_uniform

Policy = Any
"""A compiled per-game policy: ``@njit(POLICY_SIG)`` (row, legal, hand, subkey, params,
n_params) -> action, or ``UNIFORM``."""
Observation = Any
"""A game's observation of the games where a seat must decide (``obs.legal``, ``obs.key``
and the fields of ``Game.observation_fields``)."""


class UniformPolicy:
    """The compiled policy of uniform random play, in whatever game: a marker each game's
    compiled loop replaces by its own uniform draw."""

    def __repr__(self) -> str:
        return "UNIFORM"


UNIFORM = UniformPolicy()


@dataclass(frozen=True)
class Param:
    """A declared, documented strategy parameter (its type is the default's type)."""

    default: Any
    doc: str
    limit: tuple[float, float] | None = None
    """For a number: the least and greatest value a server accepts from a stranger (a web
    table's host seating a bot), so that no one can make a bot think for hours; None for
    a parameter that does not change how long the strategy thinks."""
    bounds: tuple[float, float] | None = None
    """For a number: the range ``trixsim tune`` searches by default (None: the default ±
    max(1, |default|)); a starting value outside them widens them to include it."""

    @property
    def type(self) -> type:
        """The parameter's type."""
        return type(self.default)


class Strategy:
    """Base strategy: uniform random among the legal actions for every decision."""

    name: ClassVar[str] = "base"
    game: ClassVar[str | None] = None
    """The registered name of the game this strategy plays; None: any game (it answers
    every decision alike). Loading for another game refuses it."""
    description: ClassVar[str] = "uniform random among the legal actions"
    params: ClassVar[dict[str, Param]] = {}
    observes: ClassVar[frozenset[str] | None] = frozenset({"legal", "key"})
    """Observation fields the strategy reads (None: all). Fewer fields, less copying."""
    observes_by_decision: ClassVar[dict[str, frozenset[str]] | None] = None
    """Optional: for some decisions (by name), the fewer fields that decision's method
    reads, each set within ``observes``; the others get ``observes``. It speaks for the
    class that sets it, as ``policy`` does: where a subclass overrides any method, every
    decision gets ``observes`` (see ``observes_for``)."""
    policy: ClassVar[Policy | None] = UNIFORM
    """The compiled per-game policy that answers like the methods, or None. It speaks for
    the class that sets it: a subclass that overrides any method without setting
    ``policy`` again is played by its methods (see ``compiled``)."""

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

    @property
    def chunk_games(self) -> int | None:
        """The most games a chunk of a run that seats this strategy should hold (None: no
        limit). An interrupted run keeps its finished chunks only, so a strategy that
        thinks for seconds a game names a limit that keeps a chunk to a few minutes; the
        games and tables are the same whatever the chunks. A property, not a method, so
        that a subclass setting it still plays its class's compiled policy."""
        return None

    def uniform(self, obs: Any) -> np.ndarray:
        """Uniformly random legal actions, one per game: the answer to any decision this
        strategy does not define."""
        return choose_uniform(obs.legal, obs.key)

    def observes_for(self, decision: str) -> frozenset[str] | None:
        """The fields asked for ``decision`` (its name): ``observes_by_decision``'s set
        where the class that set it answers, else ``observes``."""
        narrow = decision_fields(type(self))
        if narrow is not None and decision in narrow:
            return narrow[decision]
        return self.observes

    def method_for(self, method: str) -> Any:
        """The bound method answering the decision whose method name is ``method``: the
        strategy's own, else ``uniform``."""
        fn = getattr(self, method, None)
        return fn if callable(fn) else self.uniform

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

    def policy_params(self) -> np.ndarray:
        """The float64 vector the compiled policy receives (the parameters it needs)."""
        return np.zeros(1)

    def compiled(self) -> tuple[Policy, np.ndarray] | None:
        """The compiled policy and its parameters, or None when the methods must be asked:
        no policy, or a subclass below the class that set it overrides a method (its
        answers could then differ from the policy's)."""
        owner = next((c for c in type(self).__mro__ if "policy" in c.__dict__), None)
        if owner is None or owner.__dict__["policy"] is None:
            return None
        if overrides_below(type(self), owner):
            return None
        params = np.ascontiguousarray(self.policy_params(), dtype=np.float64)
        return owner.__dict__["policy"], params


def overrides_below(cls: type, *owners: type) -> bool:
    """Whether a class of ``cls``'s MRO before the first of ``owners`` (the class that set
    a compiled policy or narrower observations) defines a method of its own, besides
    ``__init__``: its answers could then differ from what that class promised."""
    for c in cls.__mro__:
        if c in owners:
            return False
        if any(callable(v) and k != "__init__" for k, v in c.__dict__.items()):
            return True
    return False


_NARROWING: dict[type, dict[str, frozenset[str]] | None] = {}


def decision_fields(cls: type) -> dict[str, frozenset[str]] | None:
    """The ``observes_by_decision`` that speaks for ``cls`` (None where none is set, or
    where a class below the one that set it overrides a method), worked out once per
    class."""
    if cls not in _NARROWING:
        owner = next((c for c in cls.__mro__ if "observes_by_decision" in c.__dict__), None)
        narrow = None if owner is None else owner.__dict__["observes_by_decision"]
        if narrow is not None and overrides_below(cls, owner):
            narrow = None
        _NARROWING[cls] = None if narrow is None else {
            d: frozenset(f) for d, f in narrow.items()}
    return _NARROWING[cls]
