"""A game's own aspects in a report: the plug-in a game names, and what the core asks of it.

The report's core (``report``, ``pairing``, ``verdicts``, ``verdict_plots``) knows final
scores, winners and losers, duplicate pairing and verdicts, and nothing of any game's
play. A game adds its aspects by naming a module in ``Game.report_aspects`` (an import
path; None or absent: no aspects). The module provides:

- ``COLUMNS``: per-seat column stems of the ``games`` table (``{stem}_0..3``) that its
  paired measures need; a run whose table lacks one reads it as missing (NaN);
- ``measures(cols)``: from those columns (arrays ``[..., seat]``, NaN where not played),
  every paired measure as ``{(aspect, cell, measure): values}``, NaN where it is not
  defined for that seat and game; the pairing takes A − B per deal and seat where both
  are defined;
- ``SUMMARY``: the summary's verdict columns as ``(name, (aspect, cell, measure),
  meaning)``, each a measure in points where more is better in the game's direction;
- ``details(doc, paired)``: the A − B tables behind the summary;
- ``verdict_plots(paired, out, chosen)``: forest plots of those verdicts (``chosen``:
  ``verdict_plots.Chosen``, the pairs to draw with their labels and colours);
- ``behaviour(runs, strategies, out)``: each strategy's play pooled over its games, with
  its plots drawn in ``out`` (None: no plots), and ``section(doc, behaviour)``: the
  behaviour sections of the report from it.

Trix's aspects, read from its contracts table, predate this and stay in the core
(``aggregate``, ``pairing``); a third game adds its own through a module like
``trump7_aspects``.
"""

from __future__ import annotations

import importlib
from typing import Any


def aspects_of(game: Any) -> Any:
    """The aspects module ``game`` names (``Game.report_aspects``), or None."""
    name = getattr(game, "report_aspects", None)
    return importlib.import_module(name) if name else None


__all__ = ["aspects_of"]
