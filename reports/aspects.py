"""A game's own aspects in a report: the plug-in a game names, and what the core asks of it.

The report's core (``aggregate``, ``report``, ``pairing``, ``verdicts``, ``verdict_plots``,
``plots``, ``compare``) knows final scores, winners and losers, duplicate pairing and
verdicts, and nothing of any game's play. A game adds its aspects by naming a module in
``Game.report_aspects`` (an import path; None or absent: no aspects). Trix's is
``trix_aspects``, trump7's ``trump7_aspects``; a third game adds its own the same way.
The module provides (each part optional unless said; a plug-in gives what its game needs):

Paired measures (``pairing``), on the same deal and seat, A − B:

- ``COLUMNS``: per-seat column stems of the ``games`` table (``{stem}_0..3``) that its
  per-game measures need; a run whose table lacks one reads it as missing (NaN);
- ``measures(cols)``: from those columns (arrays ``[..., seat]``, NaN where not played),
  every per-game measure as ``{(aspect, cell, measure): values}``, NaN where it is not
  defined for that seat and game; the pairing takes A − B per deal and seat where both
  are defined;
- ``deal_data(lineups, deals)``, ``read_deals(run, data, (lo, hi), rows)`` and
  ``pair_deals(data, i, j, s, ok, diff, add)``: for measures that need both games of a
  pair at once (Trix: the same contract number in both, which of the two took a contract
  first). ``deal_data`` makes the store of one block of deals (``DealTable.data``);
  ``read_deals`` fills it from one run's tables for games lo..hi-1, ``rows(batch)`` giving
  a table batch's (lineup row, deal) indices; ``pair_deals`` adds, for row i (A in seat s)
  against row j (B), ``add(aspect, cell, measure, values, weights)`` per deal (``ok``: 1
  where both games were played, ``diff``: A − B final scores). Read only when the runs
  pair some games.

Verdicts (``verdicts``, ``verdict_plots``):

- ``SUMMARY``: the summary's verdict columns as ``(name, (aspect, cell, measure),
  meaning)``, each a measure in points where more is better in the game's direction;
  shown where the runs have data for them, or as ``summary_columns(paired)`` says;
- ``OVERALL``: the overall column's meaning (default "final score per game");
  ``SUMMARY_DIGITS``: decimals of the plug-in's verdicts (default 2); ``SUMMARY_NOTE``: a
  sentence the summary's paragraph adds before listing the aspects;
  ``summary_row(paired, a, b, row)``: changes a pair's row in place (a verdict the game
  leaves out, a cell that says why it has none);
- ``details(doc, paired)``: the A − B tables behind the summary;
- ``verdict_plots(paired, out, chosen)``: forest plots of those verdicts (``chosen``:
  ``verdict_plots.Chosen``, the pairs to draw with their labels and colours).

Behaviour (``report``): each strategy pooled over all its games, whatever the opponents:

- ``behaviour(runs, strategies, out)``: its sums, with its plots drawn in ``out`` (None:
  no plots) and kept by section in the result's ``images``; ``section(doc, behaviour)``:
  the report's behaviour sections from it, right after the core's overall plots;
- ``counted(behaviour, games)``: what the runs hold, for the report's first line (default
  "N games of GAME"); ``FINAL_BIN``: the bin width of the final-score histogram over its
  whole range (default: from the range used).

Comparisons (``compare``):

- ``compare_rows(folders, all_b)``: a breakdown of a comparison (A in seat s of lineup s,
  the all-B game in lineup ``all_b``), kept as ``by_contract`` in ``compare.json``;
  ``compare_section(doc, rows)``: its part of the comparison's report.
"""

from __future__ import annotations

import importlib
from typing import Any


def aspects_of(game: Any) -> Any:
    """The aspects module ``game`` names (``Game.report_aspects``), or None."""
    name = getattr(game, "report_aspects", None)
    return importlib.import_module(name) if name else None


__all__ = ["aspects_of"]
