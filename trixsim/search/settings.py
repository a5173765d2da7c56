"""The settings every game's ``pimc`` shares (worlds, rollout, decisions searched, tie
rule), checked once here so that each game's strategy states only its own."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any


def search_bits(strategy: Any, decisions: Mapping[str, int]) -> int:
    """The bit mask of the decisions ``strategy.search`` names (``play+bid``), after
    checking ``worlds``, ``rollout``, ``search`` and ``ties``; ValueError naming the
    parameter otherwise. ``decisions`` maps each searchable decision's name to its id."""
    if strategy.worlds < 1:
        raise ValueError(f"parameter 'worlds' of strategy 'pimc' must be at least 1, "
                         f"got {strategy.worlds}")
    if strategy.rollout not in ("heuristic", "random"):
        raise ValueError(f"parameter 'rollout' of strategy 'pimc' must be heuristic or "
                         f"random, got {strategy.rollout!r}")
    names = [x.strip() for x in strategy.search.split("+") if x.strip()]
    unknown = [x for x in names if x not in decisions]
    if unknown:
        raise ValueError(f"parameter 'search' of strategy 'pimc' names unknown "
                         f"decisions {unknown} (known: {', '.join(decisions)})")
    if strategy.ties not in ("lowest", "heuristic"):
        raise ValueError(f"parameter 'ties' of strategy 'pimc' must be lowest or "
                         f"heuristic, got {strategy.ties!r}")
    return sum(1 << decisions[x] for x in set(names))
