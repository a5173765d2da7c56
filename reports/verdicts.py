"""Duplicate-aware verdicts: which strategy is better, overall and per aspect, and by how much.

Built on ``pairing.Paired``: every number is a mean over deals of A − B (A before B in
display order) with its 95% interval over deals; which sign is better is the game's
(``Paired.higher_is_better``: in Trix negative, fewer points, is better; in trump7
positive). Every game gets the overall verdict on final scores, and a game's aspects
plug-in adds its own (``Paired.summary``, with its hooks of ``reports.aspects``; its detail
tables are the plug-in's ``details``). A verdict names the better strategy only when the
interval excludes 0; otherwise it says that the data cannot tell.
"""

from __future__ import annotations

import csv
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from trixsim.reports.pairing import MATCHED, TOTAL, LineupStats, Paired
from trixsim.reports.stats import Estimate

Column = tuple[str, tuple[str, str, str], str]
"""A summary column: (name, (aspect, cell, measure), meaning)."""
OVERALL = "final score per game"
"""The overall column's meaning, unless the game's plug-in names its own (``OVERALL``)."""
GENERIC_ASPECTS = (("overall", TOTAL, OVERALL),)
"""The summary's columns in a game without aspects of its own."""


def summary_aspects(p: Paired) -> tuple[Column, ...]:
    """The summary's (name, key, meaning) columns for the game of ``p``: the overall one,
    then the plug-in's (``Paired.summary``) where its runs have data for them (e.g. bids),
    or those its ``summary_columns`` hook gives."""
    overall = (("overall", TOTAL, getattr(p.aspects, "OVERALL", OVERALL)),)
    hook = getattr(p.aspects, "summary_columns", None)
    if hook is not None:
        return overall + tuple(hook(p))
    return overall + tuple(a for a in p.summary if any(k[2:] == a[1] for k in p.moments))


def direction_words(higher_is_better: bool) -> tuple[str, str]:
    """("more points (higher is better)", "positive") or the Trix way round."""
    if higher_is_better:
        return "more points (higher is better)", "positive"
    return "fewer points (lower is better)", "negative"


def verdict(e: Estimate, a: str, b: str, digits: int = 1,
            higher_is_better: bool = False) -> str:
    """``A by x [lo, hi]`` (A better, in the game's direction: ``higher_is_better``), or
    that the data cannot tell (from A − B)."""
    if e.n < 2 or e.se != e.se:
        return "no data" if e.n == 0 else f"{e.mean:.{digits}f} (too few deals)"
    if e.se == 0 and e.mean == 0:
        return "no difference on any deal"
    if not e.excludes_zero():
        return f"cannot tell: {e.text(digits)}"
    better = a if (e.mean > 0) == higher_is_better else b
    lo, hi = sorted((abs(e.lo), abs(e.hi)))
    return f"**{better}** by {abs(e.mean):.{digits}f} [{lo:.{digits}f}, {hi:.{digits}f}]"


def pair_label(p: Paired, a: str, b: str) -> str:
    """A pair as the detail tables name it: ```a` vs `b` (matched)``."""
    how = "matched" if p.method[(a, b)] == MATCHED else "seat only"
    return f"`{a}` vs `{b}` ({how})"


def summary_rows(p: Paired) -> list[list[str]]:
    """One row per strategy pair: deals, pairing and the verdict per aspect."""
    rows = []
    aspects = summary_aspects(p)
    digits = getattr(p.aspects, "SUMMARY_DIGITS", 2)  # the plug-in's columns
    fix = getattr(p.aspects, "summary_row", None)
    for a, b in p.pairs():
        total = p.get(a, b, *TOTAL)
        row = [f"`{a}` vs `{b}`", f"{total.n:,}",
               "matched" if p.method[(a, b)] == MATCHED else "seat only"]
        row += [verdict(p.get(a, b, *key), a, b, 1 if key == TOTAL else digits,
                        p.higher_is_better) for _, key, _ in aspects]
        if fix is not None:  # the plug-in's own cells (e.g. a verdict it leaves out)
            fix(p, a, b, row)
        rows.append(row)
    return rows


def no_verdict(lineups: Sequence[LineupStats]) -> str:
    """Why the runs give no verdict, and the command that would: one paragraph."""
    strategies = list(dict.fromkeys(s for ls in lineups for s in ls.lineup))
    if len(strategies) < 2:
        return (f"The runs hold one strategy only (`{strategies[0] if strategies else '?'}`): "
                "there is nothing to compare it with.")
    a, b = strategies[:2]
    games = max((ls.games for ls in lineups), default=0) or 10_000
    fix = (f"To compare `{a}` with `{b}`, change one seat and keep the other three: "
           f"`trixsim run -n {games} -s {a} -s {b},{a},{a},{a} --rotate` (or `trixsim "
           f"compare {a} {b} -n {games}`, or `trixsim tournament` for more than two).")
    seeds = sorted({ls.seed for ls in lineups})
    by_seed = {seed: [ls.lineup for ls in lineups if ls.seed == seed] for seed in seeds}
    mixed = [lu for lus in by_seed.values() for lu in lus if len(set(lu)) > 1]
    if not mixed:
        return ("No verdict: every lineup seats one strategy at all four places ("
                + "; ".join(f"`{lu[0]}`" for lu in dict.fromkeys(ls.lineup for ls in lineups))
                + "), so a seat's total says how a table of that strategy plays, with its "
                "three opponents changed as well, not which strategy is better; the "
                "per-lineup means below are not a comparison. " + fix)
    return ("No verdict: no two games on one deal (same seed and game index) differ in one "
            "seat's strategy with some strategy mixed in at the table"
            + (f" (the runs are on seeds {', '.join(map(str, seeds))}, and deals are shared "
               "only within a seed)" if len(seeds) > 1 else "") + ". " + fix)


def add_summary(doc: Any, p: Paired, lineups: Sequence[LineupStats] = ()) -> None:
    """The one-page summary: per pair and aspect, which strategy is better and by how much
    (or why the runs cannot say, and what to run instead)."""
    doc.h("Summary: which strategy is better")
    if not p.method:
        doc.p(no_verdict(lineups))
        return
    aspects = summary_aspects(p)
    doc.p("Games on the same deal (same seed and game index) are paired seat by seat: "
          "*matched* pairs differ only in that seat's strategy; *seat only* pairs (used "
          "when no matched pair exists) also have other opponents. Each cell names the "
          f"strategy with {direction_words(p.higher_is_better)[0]} and by how many points, "
          "with the 95% interval over deals, or says that the interval includes 0 (cannot "
          "tell). " + getattr(p.aspects, "SUMMARY_NOTE", "")
          + "Aspects: " + "; ".join(f"*{name}*: {what}" for name, _, what in aspects)
          + ".")
    doc.table(["pair (A vs B)", "deals", "paired", *(n for n, _, _ in aspects)],
              summary_rows(p))


def _num(e: Estimate) -> list[str]:
    return ["" if x != x else f"{x:.4f}" for x in (e.mean, e.se, e.lo, e.hi)]


def write_csv(p: Paired, path: Path) -> None:
    """Every estimate as a long table: a, b, pairing, aspect, cell, measure, deals, mean,
    se, lo, hi (for pandas, polars, DuckDB or a spreadsheet)."""
    with path.open("w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["a", "b", "pairing", "aspect", "cell", "measure", "deals", "mean", "se",
                    "lo", "hi"])
        for key in sorted(p.keys(), key=lambda k: (p.order.index(k[0]),
                                                    p.order.index(k[1]), *k[2:])):
            e = p.get(*key)
            w.writerow([*key[:2], p.method[key[:2]], *key[2:], e.n, *_num(e)])


def pair_matrix(p: Paired, order: Sequence[str]) -> list[list[Estimate | None]]:
    """``m[i][j]``: strategy i − strategy j final total per game (None: not compared)."""
    m: list[list[Estimate | None]] = [[None] * len(order) for _ in order]
    for a, b in p.pairs():
        if a in order and b in order:
            e = p.get(a, b, "total", "", "final")
            i, j = order.index(a), order.index(b)
            m[i][j] = e
            m[j][i] = Estimate(e.n, -e.mean, e.se)
    return m


def lineup_rows(lineups: Sequence[LineupStats]) -> list[list[str]]:
    """Per lineup of every run: run ids, seed, lineup, games, each strategy's mean final
    total over its seats [95% interval over games]."""
    rows = []
    for ls in lineups:
        cells = [f"`{s}` ×{k}: {e.text() if e.n > 1 else '–'}" for s, k, e in ls.estimates()]
        rows.append([", ".join(dict.fromkeys(ls.runs)), str(ls.seed),
                     f"`{','.join(ls.lineup)}`", f"{ls.games:,}", "; ".join(cells)])
    return rows


def write_lineups_csv(lineups: Sequence[LineupStats], path: Path) -> None:
    """Per (run, lineup, strategy): seats, games and mean final total with its interval."""
    with path.open("w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["run_id", "seed", "lineup", "strategy", "seats", "games", "mean_final",
                    "lo", "hi"])
        for ls in lineups:
            for s, k, e in ls.estimates():
                num = _num(e)
                w.writerow([";".join(dict.fromkeys(ls.runs)), ls.seed, ",".join(ls.lineup),
                            s, k, ls.games, num[0], num[2], num[3]])


__all__ = ["GENERIC_ASPECTS", "OVERALL", "add_summary", "direction_words", "lineup_rows",
           "no_verdict", "pair_label", "pair_matrix", "summary_aspects", "summary_rows",
           "verdict", "write_csv", "write_lineups_csv"]
