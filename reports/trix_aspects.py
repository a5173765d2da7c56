"""Trix's aspects of a report (the plug-in ``TrixGame.report_aspects`` names; see
``reports.aspects``): contract ordering, K♥ declaration, trix timing and the points of
every contract, read from the contracts table.

The same aspects serve three times:

- *paired* (``trix_pairing``): on the same deal and seat, A − B, mean over deals with its
  95% interval; the summary judges the points per game from the contracts a seat picks,
  the holder's points from ray and general contracts where the two decide differently
  about K♥ (matched pairs only: in a seat only pair the opponents' play is mixed in), and
  the final total on deals where the two take trix at different picks;
- *pooled* (``trix_sums``): per strategy over all its seats and games, whatever the
  opponents (the behaviour sections and their plots, ``trix_plots``);
- *compared* (``trixsim compare``): the picker's points by contract, A picking against B
  picking in the same seats on the same deals.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np
from trixsim.reports.pairing import MATCHED, Paired
from trixsim.reports.stats import Z95, ci_text, moments_ci, wilson
from trixsim.reports.tables import RunFolder, batches, decode
from trixsim.reports.trix_pairing import DECISIONS, TIMINGS, deal_data, pair_deals, read_deals
from trixsim.reports.trix_sums import DECLARABLE, TRIX, TrixSums, sum_runs
from trixsim.reports.verdicts import pair_label

from trixsim.games.trix.types import CONTRACT_NAMES

COLUMNS: tuple[str, ...] = ()
"""No per-seat columns of the games table: Trix's paired data is its own (``deal_data``)."""
OVERALL = "final total per game"
"""The overall verdict column's meaning."""
SUMMARY = (
    ("contracts picked", ("contract", "all own contracts", "picker"),
     "points per game from the contracts it picks"),
    ("K♥ declaration", ("kh", "decisions differ", "per game"),
     "holder's points per game from ray/general contracts where the two decide differently"),
    ("trix timing", ("trix", "timing differs", "final"),
     "final total on deals where the two take trix at different picks"),
)
"""The summary's verdict columns (the core adds the overall one before them)."""
SUMMARY_DIGITS = 1
"""Decimals of the summary's verdicts (points in the hundreds)."""
SUMMARY_NOTE = ("The K♥ declaration is judged on matched pairs only: in a seat only pair the "
                "other seats' play would be mixed into the declaration's effect. ")
FINAL_BIN = 50
"""Bins of 50 points over the whole range of final totals."""
CONTRACT_CELLS = (*CONTRACT_NAMES, "all own contracts", "contracts the others pick")
KH_COLUMN = 3 + 1 + [name for name, _, _ in SUMMARY].index("K♥ declaration")
"""The K♥ verdict's place in a summary row (pair, deals, paired, overall, ...)."""

__all__ = ["COLUMNS", "FINAL_BIN", "OVERALL", "SUMMARY", "SUMMARY_DIGITS", "SUMMARY_NOTE",
           "behaviour", "compare_rows", "compare_section", "counted", "deal_data", "details",
           "pair_deals", "read_deals", "section", "summary_columns", "summary_row",
           "verdict_plots"]


# ---------------------------------------------------------------- paired: the summary

def summary_columns(p: Paired) -> tuple[tuple[str, tuple[str, str, str], str], ...]:
    """Every column of ``SUMMARY``, with data or not (a cell says why it has none)."""
    return SUMMARY


def summary_row(p: Paired, a: str, b: str, row: list[str]) -> None:
    """No K♥ verdict on a seat only pair; say when trix was taken at the same pick on
    every deal."""
    if p.method[(a, b)] != MATCHED:  # the opponents' play would be mixed in
        row[KH_COLUMN] = "– (not matched)"
    timing = p.get(a, b, "trix", "timing differs", "share")
    if timing.n and timing.mean == 0:
        row[-1] = "same pick on every deal"


def details(doc: Any, p: Paired) -> None:
    """Per aspect, the A − B tables behind the summary."""
    pairs = p.pairs()
    if not pairs:
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
              [[pair_label(p, a, b), *(p.get(a, b, "contract", c, "picker").text()
                                       for c in CONTRACT_CELLS)] for a, b in pairs])
    doc.p("The table's side: the other three seats' mean points per game in the contracts "
          "the seat picks, A − B (positive: A's choices make the others score more, which "
          "helps A's standing).")
    doc.table(["pair", *CONTRACT_CELLS[:-1]],
              [[pair_label(p, a, b), *(p.get(a, b, "contract", c, "table").text()
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
                rows.append([pair_label(p, a, b), cell, f"{100 * share.mean:.1f}%",
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
        row = [pair_label(p, a, b), p.get(a, b, "trix", "", "A pick").text(2),
               p.get(a, b, "trix", "", "B pick").text(2)]
        for cell in TIMINGS:
            share = p.get(a, b, "trix", cell, "share")
            row.append(f"{100 * share.mean:.1f}%" if share.n else "–")
            e = p.get(a, b, "trix", cell, "final")
            row.append(e.text() if e.n > 1 else "–")
        rows.append(row)
    doc.table(["pair", "A's pick", "B's pick",
               *(f"{c}: {w}" for c in TIMINGS for w in ("share", "final A − B"))], rows)


def verdict_plots(p: Paired, out: Path, chosen: Any) -> list[str]:
    """The paired verdicts' forest plots (``trix_plots``)."""
    from trixsim.reports import trix_plots

    return trix_plots.verdicts(p, out, chosen)


# ---------------------------------------------------------------- pooled per strategy

def behaviour(runs: Sequence[RunFolder], strategies: Sequence[str],
              out: Path | None = None) -> TrixSums:
    """Each strategy's play pooled over its games (``trix_sums``), with its plots drawn in
    ``out`` (``trix_plots``; none without ``out``)."""
    sums = sum_runs(runs, strategies)
    if out is not None:
        from trixsim.reports import trix_plots

        sums.images = trix_plots.behaviour(sums, out)
    return sums


def counted(sums: TrixSums, games: int) -> str:
    """What the runs hold, as the report's first paragraph says it."""
    return f"{games:,} games and {sums.contracts:,} contracts"


def _top(counts: np.ndarray) -> str:
    n = counts.sum()
    if not n:
        return "–"
    c = int(np.argmax(counts))
    return f"{CONTRACT_NAMES[c]} ({100 * counts[c] / n:.0f}%)"


def _images(doc: Any, images: dict[str, list[str]], section_name: str) -> None:
    for name in images.get(section_name, []):
        doc.img(name, name.removesuffix(".png").replace("_", " "))


def section(doc: Any, sums: TrixSums) -> None:
    """The behaviour sections, right after the core's overall plots: the game length
    plot, then contract ordering, K♥ declaration, trix timing and the points of each
    contract."""
    images = sums.images
    _images(doc, images, "overall")
    doc.h("Contract ordering")
    rows = [[name, _top(sums.picks[k, 0]), _top(sums.picks[k, 6])]
            for k, name in enumerate(sums.strategies)]
    doc.table(["strategy", "most taken first pick", "most often left for pick 7 (×4)"], rows)
    _images(doc, images, "contract_ordering")
    doc.h("Ray declaration")
    rows = []
    for k, name in enumerate(sums.strategies):
        row = [name]
        for w in range(len(DECLARABLE)):
            row.append(ci_text(*wilson(sums.declared[k, w], sums.holder[k, w]), pct=True))
            row.append(ci_text(*wilson(sums.kh_lost[k, w, 1], sums.kh_games[k, w, 1]), pct=True))
        rows.append(row)
    doc.table(["strategy", "declares in ray", "declarer loses K♥ (ray)",
               "declares in general", "declarer loses K♥ (general)"], rows)
    if not sums.kh_hearts_all_holders:
        doc.p("The hearts-held plot uses contracts in which the picker held K♥ (the tables "
              "record the picker's hand only).")
    _images(doc, images, "ray_declaration")
    doc.h("Trix timing")
    rows = []
    for k, name in enumerate(sums.strategies):
        taken = sums.picks[k, :, TRIX]
        n = taken.sum()
        mean_pick = float((taken * np.arange(1, 8)).sum() / n) if n else float("nan")
        res = sums.trix_by_pick[k].sum(axis=0)
        s = -100 * res[0] - 50 * res[1]
        ss = 10_000 * res[0] + 2_500 * res[1]
        rows.append([name, f"{mean_pick:.2f}", ci_text(*wilson(sums.trix_forced[k], n), pct=True),
                     ci_text(*moments_ci(res.sum(), s, ss))])
    doc.table(["strategy", "mean pick number of trix", "trix forced", "picker's mean trix points"],
              rows)
    _images(doc, images, "trix_timing")
    doc.h("Points per contract")
    rows = []
    for k, name in enumerate(sums.strategies):
        m = sums.picker_points[k].sum(axis=1)  # [contract, moment]
        rows.append([name] + [ci_text(*moments_ci(*m[c])) for c in range(len(CONTRACT_NAMES))])
    doc.p("Picker's mean points by contract (multipliers included):")
    doc.table(["strategy", *CONTRACT_NAMES], rows)
    _images(doc, images, "points_distribution")


# ---------------------------------------------------------------- compared: by contract

def compare_rows(folders: Sequence[RunFolder], all_b: int) -> list[dict[str, object]]:
    """The picker's points by contract: A picking (lineup s, seat s) against B (the all-B
    game, lineup ``all_b``)."""
    m = np.zeros((2, len(CONTRACT_NAMES), 3))
    names = {c: i for i, c in enumerate(CONTRACT_NAMES)}
    cols = ["lineup", "picker", "contract", *(f"points_{s}" for s in range(4))]
    for folder in folders:
        for b in batches(folder, "contracts", cols):
            lu = b["lineup"].astype(np.int64)
            picker = b["picker"].astype(np.int64)
            contract = decode(b["contract"], names)
            pts = np.stack([b[f"points_{s}"] for s in range(4)], axis=1).astype(np.float64)
            pp = pts[np.arange(len(lu)), picker]
            for side, rows in ((0, lu == picker), (1, lu == all_b)):
                c, x = contract[rows], pp[rows]
                for k, v in enumerate((None, x, x * x)):
                    m[side, :, k] += np.bincount(c, weights=v, minlength=len(CONTRACT_NAMES))
    out = []
    for c, name in enumerate(CONTRACT_NAMES):
        (am, alo, _), (bm, blo, _) = (moments_ci(*m[side, c]) for side in (0, 1))
        se = math.hypot(am - alo, bm - blo) / Z95  # independent samples
        diff = float(am - bm)
        out.append({"contract": name, "a_n": int(m[0, c, 0]), "a_mean": float(am),
                    "b_n": int(m[1, c, 0]), "b_mean": float(bm), "diff": diff,
                    "lo": diff - Z95 * se, "hi": diff + Z95 * se})
    return out


def compare_section(doc: Any, rows: list[dict[str, object]]) -> None:
    """The comparison's per-contract table (``compare_rows``)."""
    doc.p("By contract: the picker's mean points (multipliers included) when A picks, "
          "against B picking in the same seats on the same deals (all-B game); the "
          "difference's interval treats contracts as independent.")
    doc.table(["contract", "A picks: n", "A mean", "B picks: n", "B mean", "A − B [95%]"],
              [[c["contract"], f"{c['a_n']:,}", f"{c['a_mean']:.1f}", f"{c['b_n']:,}",
                f"{c['b_mean']:.1f}", f"{c['diff']:.1f} [{c['lo']:.1f}, {c['hi']:.1f}]"]
               for c in rows])
