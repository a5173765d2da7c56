"""Duplicate-aware verdicts: which strategy is better, overall and per aspect, and by how much.

Built on ``pairing.Paired``: every number is a mean over deals of A − B (A before B in
display order) with its 95% interval over deals; which sign is better is the game's
(``Paired.higher_is_better``: in Trix negative, fewer points, is better; in trump7
positive). Every game gets the overall verdict on final scores; Trix's runs add their
aspects (contracts picked, K♥ declaration, trix timing), and a game's aspects plug-in its
own (``Paired.summary``; its detail tables are the plug-in's ``details``). A verdict names
the better strategy only when the interval excludes 0; otherwise it says that the data
cannot tell.
"""

from __future__ import annotations

import csv
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from trixsim.reports.pairing import DECISIONS, MATCHED, TIMINGS, LineupStats, Paired
from trixsim.reports.stats import Estimate

from trixsim.games.trix.types import CONTRACT_NAMES

CONTRACT_CELLS = (*CONTRACT_NAMES, "all own contracts", "contracts the others pick")
SUMMARY_ASPECTS = (
    ("overall", ("total", "", "final"), "final total per game"),
    ("contracts picked", ("contract", "all own contracts", "picker"),
     "points per game from the contracts it picks"),
    ("K♥ declaration", ("kh", "decisions differ", "per game"),
     "holder's points per game from ray/general contracts where the two decide differently"),
    ("trix timing", ("trix", "timing differs", "final"),
     "final total on deals where the two take trix at different picks"),
)


KH_ASPECT = [name for name, _, _ in SUMMARY_ASPECTS].index("K♥ declaration")
GENERIC_ASPECTS = (("overall", ("total", "", "final"), "final score per game"),)
"""The summary's aspects in a game without Trix's contracts."""


def trix_aspects(p: Paired) -> bool:
    """Whether the pairing holds Trix's per-contract aspects (runs with contracts)."""
    return any(key[2] == "contract" for key in p.moments)


def summary_aspects(p: Paired) -> tuple[tuple[str, tuple[str, str, str], str], ...]:
    """The summary's (name, key, meaning) columns for the game of ``p`` (a game plug-in's
    columns only where its runs have data for them, e.g. bids)."""
    if trix_aspects(p):
        return SUMMARY_ASPECTS
    return GENERIC_ASPECTS + tuple(a for a in p.summary
                                   if any(k[2:] == a[1] for k in p.moments))


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


def _label(p: Paired, a: str, b: str) -> str:
    how = "matched" if p.method[(a, b)] == MATCHED else "seat only"
    return f"`{a}` vs `{b}` ({how})"


def summary_rows(p: Paired) -> list[list[str]]:
    """One row per strategy pair: deals, pairing and the verdict per aspect."""
    rows = []
    aspects = summary_aspects(p)
    for a, b in p.pairs():
        total = p.get(a, b, "total", "", "final")
        row = [f"`{a}` vs `{b}`", f"{total.n:,}",
               "matched" if p.method[(a, b)] == MATCHED else "seat only"]
        row += [verdict(p.get(a, b, *key), a, b, 2 if (name, key, what) in p.summary else 1,
                        p.higher_is_better) for name, key, what in aspects]
        if aspects is not SUMMARY_ASPECTS:
            rows.append(row)
            continue
        if p.method[(a, b)] != MATCHED:  # the opponents' play would be mixed in
            row[3 + KH_ASPECT] = "– (not matched)"
        timing = p.get(a, b, "trix", "timing differs", "share")
        if timing.n and timing.mean == 0:
            row[-1] = "same pick on every deal"
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
          "tell). "
          + ("The K♥ declaration is judged on matched pairs only: in a seat only pair the "
             "other seats' play would be mixed into the declaration's effect. "
             if aspects is SUMMARY_ASPECTS else "")
          + "Aspects: " + "; ".join(f"*{name}*: {what}" for name, _, what in aspects)
          + ".")
    doc.table(["pair (A vs B)", "deals", "paired", *(n for n, _, _ in aspects)],
              summary_rows(p))


def add_details(doc: Any, p: Paired) -> None:
    """Per aspect, the A − B tables behind the summary."""
    pairs = p.pairs()
    if not pairs or not trix_aspects(p):
        return
    doc.h("Duplicate comparison by aspect")
    doc.p("A − B per game on the same deals and seats, mean [95% interval over deals]; "
          "negative: A scores fewer points (better).")
    doc.h("Contracts picked: what the choice earned", 3)
    doc.p("Picker's points (multipliers included) per game from each contract it picks "
          "itself, A − B. The last two columns add up the own contracts and the points "
          "the seat takes in contracts the others pick; these two sum to the difference "
          "of final totals (apart from the 1000 rule).")
    doc.table(["pair", *CONTRACT_CELLS],
              [[_label(p, a, b), *(p.get(a, b, "contract", c, "picker").text()
                                   for c in CONTRACT_CELLS)] for a, b in pairs])
    doc.p("The table's side: the other three seats' mean points per game in the contracts "
          "the seat picks, A − B (positive: A's choices make the others score more, which "
          "helps A's standing).")
    doc.table(["pair", *CONTRACT_CELLS[:-1]],
              [[_label(p, a, b), *(p.get(a, b, "contract", c, "table").text()
                                   for c in CONTRACT_CELLS[:-1])] for a, b in pairs])
    doc.h("K♥ declaration decision", 3)
    doc.p("Ray and general contracts with the same contract number in both games of a pair "
          "and K♥ in the compared seat, split by the two decisions. *share*: % of these "
          "contracts; *holder*: A − B holder's points per contract (the −50 included); "
          "*others*: the other seats' mean points; *per game*: the holder's difference "
          "summed per game (its contribution to the final total).")
    for which in ("ray", "general"):
        rows = []
        for a, b in pairs:
            for cell in DECISIONS:
                name = f"{which}: {cell}"
                share = p.get(a, b, "kh", name, "share")
                if share.n == 0 or share.mean == 0:
                    continue
                rows.append([_label(p, a, b), cell, f"{100 * share.mean:.1f}%",
                             p.get(a, b, "kh", name, "holder").text(),
                             p.get(a, b, "kh", name, "table").text(),
                             p.get(a, b, "kh", name, "per game").text()])
        doc.p(f"**{which}**:")
        doc.table(["pair", "decisions", "share", "holder A − B", "others A − B",
                   "per game A − B"], rows)
    doc.h("Trix timing", 3)
    doc.p("Pick number at which the compared seat took trix in each game of a pair (deals "
          "where both took it), the share of deals where A took it earlier, at the same "
          "pick or later, and the final total difference on those deals (the game-level "
          "effect of the timing, with everything that followed from it).")
    rows = []
    for a, b in pairs:
        row = [_label(p, a, b), p.get(a, b, "trix", "", "A pick").text(2),
               p.get(a, b, "trix", "", "B pick").text(2)]
        for cell in TIMINGS:
            share = p.get(a, b, "trix", cell, "share")
            row.append(f"{100 * share.mean:.1f}%" if share.n else "–")
            e = p.get(a, b, "trix", cell, "final")
            row.append(e.text() if e.n > 1 else "–")
        rows.append(row)
    doc.table(["pair", "A's pick", "B's pick",
               *(f"{c}: {w}" for c in TIMINGS for w in ("share", "final A − B"))], rows)


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


__all__ = ["GENERIC_ASPECTS", "add_details", "add_summary", "direction_words", "lineup_rows",
           "no_verdict", "pair_matrix", "summary_aspects", "summary_rows", "trix_aspects",
           "verdict", "write_csv", "write_lineups_csv"]
