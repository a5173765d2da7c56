"""Write a report folder: PNG plots, ``report.md`` and an ``index.html`` showing them together.

The document is built once as a list of blocks (headings, paragraphs, tables, images) and
rendered to both Markdown and HTML, so the two always say the same thing.
"""

from __future__ import annotations

import html
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path

import numpy as np
from trixsim.reports import plots
from trixsim.reports.aggregate import DECLARABLE, TRIX, Aggregates, aggregate
from trixsim.reports.stats import moments_ci, wilson
from trixsim.reports.tables import RunFolder, RunReadError, open_run

from trixsim.folders import FolderError, check_new_output, create_folder
from trixsim.types import CONTRACT_NAMES


class ReportError(ValueError):
    """A report that cannot be written; the message is one line for the user."""


@dataclass
class Doc:
    """A report as a list of blocks: headings, paragraphs, tables and images."""

    title: str
    blocks: list[tuple] = field(default_factory=list)

    def h(self, text: str, level: int = 2) -> None:
        """Add a heading."""
        self.blocks.append(("h", level, text))

    def p(self, text: str) -> None:
        """Add a paragraph."""
        self.blocks.append(("p", text))

    def table(self, head: Sequence[str], rows: Sequence[Sequence[object]]) -> None:
        """Add a table."""
        self.blocks.append(("table", list(head), [[str(c) for c in r] for r in rows]))

    def img(self, name: str, alt: str) -> None:
        """Add an image (a file in the report folder)."""
        self.blocks.append(("img", name, alt))

    def markdown(self) -> str:
        """The document as Markdown."""
        out = [f"# {self.title}", ""]
        for b in self.blocks:
            if b[0] == "h":
                out += ["#" * b[1] + " " + b[2], ""]
            elif b[0] == "p":
                out += [b[1], ""]
            elif b[0] == "table":
                out.append("| " + " | ".join(b[1]) + " |")
                out.append("|" + "---|" * len(b[1]))
                out += ["| " + " | ".join(r) + " |" for r in b[2]]
                out.append("")
            else:
                out += [f"![{b[2]}]({b[1]})", ""]
        return "\n".join(out)

    def html(self) -> str:
        """The document as a standalone HTML page."""
        e = html.escape
        out = ["<!DOCTYPE html>", "<html><head><meta charset='utf-8'>",
               f"<title>{e(self.title)}</title>",
               "<style>body{font-family:sans-serif;max-width:1300px;margin:auto;padding:1em}"
               "table{border-collapse:collapse;margin:1em 0}td,th{border:1px solid #ccc;"
               "padding:3px 8px;text-align:right}th{background:#eee}"
               "img{max-width:100%;display:block;margin:1em 0}</style></head><body>",
               f"<h1>{e(self.title)}</h1>"]
        for b in self.blocks:
            if b[0] == "h":
                out.append(f"<h{b[1]}>{e(b[2])}</h{b[1]}>")
            elif b[0] == "p":
                out.append(f"<p>{e(b[1])}</p>")
            elif b[0] == "table":
                out.append("<table><tr>" + "".join(f"<th>{e(c)}</th>" for c in b[1]) + "</tr>")
                out += ["<tr>" + "".join(f"<td>{e(c)}</td>" for c in r) + "</tr>" for r in b[2]]
                out.append("</table>")
            else:
                out.append(f"<img src='{e(b[1])}' alt='{e(b[2])}'>")
        out.append("</body></html>")
        return "\n".join(out) + "\n"


def _ci(mean: float, lo: float, hi: float, digits: int = 1, pct: bool = False) -> str:
    if not np.isfinite(mean):
        return "–"
    f = 100.0 if pct else 1.0
    unit = "%" if pct else ""
    if not (np.isfinite(lo) and np.isfinite(hi)):
        return f"{f * mean:.{digits}f}{unit}"
    return f"{f * mean:.{digits}f}{unit} [{f * lo:.{digits}f}, {f * hi:.{digits}f}]"


def select(agg: Aggregates, names: Sequence[str]) -> Aggregates:
    """The aggregates of the named strategies only (in the given order)."""
    missing = [n for n in names if n not in agg.strategies]
    if missing:
        raise ReportError(f"strategy {missing[0]!r} is not in the run(s); they hold: "
                          f"{', '.join(agg.strategies)}")
    idx = [agg.strategies.index(n) for n in names]
    return replace(agg, strategies=list(names),
                   **{a: getattr(agg, a)[idx] for a in Aggregates._ARRAYS})


def build(agg: Aggregates, runs: Sequence[RunFolder], images: dict[str, list[str]],
          title: str, intro: Doc | None = None) -> Doc:
    """The report document for ``agg`` (``images``: plot files by section function name)."""
    doc = Doc(title)
    doc.p(f"{agg.games:,} games and {agg.contracts:,} contracts from "
          f"{len(runs)} run folder(s). Lower totals are better: the lowest total wins. "
          "Intervals are 95%: normal approximation for means, Wilson for rates. They treat "
          "games as independent; lineups of one run share deals, so for a head-to-head "
          "verdict use `trixsim compare`, whose intervals are over deals.")
    doc.table(["run folder", "seed", "deals", "lineups"],
              [[r.path.name, r.meta.get("seed", "?"), f"{r.meta.get('games', 0):,}",
                _lineups(r.lineups)] for r in runs])
    for r in runs:
        note = r.incomplete_note()
        if note:
            doc.p(f"Note: {note}; the figures cover the games played so far.")
    if intro is not None:
        doc.blocks += [("h", 2, intro.title), *intro.blocks]
    doc.h("Overall")
    rows = []
    for k, name in enumerate(agg.strategies):
        m = agg.final[k].sum(axis=0)
        n = m[0]
        rows.append([name, f"{int(n):,}", _ci(*moments_ci(m[0], m[1], m[2])),
                     _ci(*wilson(agg.wins[k].sum(), n), pct=True),
                     _ci(*wilson(agg.losses[k].sum(), n), pct=True)])
    doc.table(["strategy", "seat-games", "mean final total", "win rate", "loss rate"], rows)
    _images(doc, images, "overall")
    doc.h("Contract ordering")
    rows = []
    for k, name in enumerate(agg.strategies):
        first = agg.picks[k, 0]
        seventh = agg.picks[k, 6]
        rows.append([name, _top(first), _top(seventh)])
    doc.table(["strategy", "most taken first pick", "most often left for pick 7 (×4)"], rows)
    _images(doc, images, "contract_ordering")
    doc.h("Ray declaration")
    rows = []
    for k, name in enumerate(agg.strategies):
        row = [name]
        for w in range(len(DECLARABLE)):
            row.append(_ci(*wilson(agg.declared[k, w], agg.holder[k, w]), pct=True))
            row.append(_ci(*wilson(agg.kh_lost[k, w, 1], agg.kh_games[k, w, 1]), pct=True))
        rows.append(row)
    doc.table(["strategy", "declares in ray", "declarer loses K♥ (ray)",
               "declares in general", "declarer loses K♥ (general)"], rows)
    if not agg.kh_hearts_all_holders:
        doc.p("The hearts-held plot uses contracts in which the picker held K♥ (the tables "
              "record the picker's hand only).")
    _images(doc, images, "ray_declaration")
    doc.h("Trix timing")
    rows = []
    for k, name in enumerate(agg.strategies):
        taken = agg.picks[k, :, TRIX]
        n = taken.sum()
        mean_pick = float((taken * np.arange(1, 8)).sum() / n) if n else float("nan")
        res = agg.trix_by_pick[k].sum(axis=0)
        s = -100 * res[0] - 50 * res[1]
        ss = 10_000 * res[0] + 2_500 * res[1]
        rows.append([name, f"{mean_pick:.2f}", _ci(*wilson(agg.trix_forced[k], n), pct=True),
                     _ci(*moments_ci(res.sum(), s, ss))])
    doc.table(["strategy", "mean pick number of trix", "trix forced", "picker's mean trix points"],
              rows)
    _images(doc, images, "trix_timing")
    doc.h("Points per contract")
    rows = []
    for k, name in enumerate(agg.strategies):
        m = agg.picker_points[k].sum(axis=1)  # [contract, moment]
        rows.append([name] + [_ci(*moments_ci(*m[c])) for c in range(len(CONTRACT_NAMES))])
    doc.p("Picker's mean points by contract (multipliers included):")
    doc.table(["strategy", *CONTRACT_NAMES], rows)
    _images(doc, images, "points_distribution")
    return doc


def _lineups(lineups: list[str], show: int = 4) -> str:
    if len(lineups) <= show:
        return "; ".join(lineups)
    return "; ".join(lineups[:show]) + f"; … ({len(lineups)} lineups)"


def _top(counts: np.ndarray) -> str:
    n = counts.sum()
    if not n:
        return "–"
    c = int(np.argmax(counts))
    return f"{CONTRACT_NAMES[c]} ({100 * counts[c] / n:.0f}%)"


def _images(doc: Doc, images: dict[str, list[str]], section: str) -> None:
    for name in images.get(section, []):
        doc.img(name, name.removesuffix(".png").replace("_", " "))


def write_report(run_dirs: Sequence[Path | str], out: Path | str, force: bool = False,
                 strategies: Sequence[str] = (), title: str = "Trix strategy report",
                 intro: Doc | None = None) -> list[Path]:
    """Read the runs and write plots, report.md and index.html to ``out``.

    Raises ``RunReadError`` for an unreadable run and ``ReportError`` for an existing
    ``out`` (without ``force``) or an unknown strategy. The folder is written beside
    ``out`` and moved into place at the end, so a failure leaves no half-written report.
    Returns the files written.
    """
    out = Path(out)
    try:
        check_new_output(out, ("report",), force, inputs=run_dirs)
    except FolderError as exc:
        raise ReportError(str(exc)) from None
    seen = set()
    for d in run_dirs:
        if Path(d).resolve() in seen:
            raise ReportError(f"{d} is given twice: its games would be counted twice")
        seen.add(Path(d).resolve())
    runs = [open_run(d) for d in run_dirs]
    agg = aggregate(runs)
    agg = select(agg, list(strategies) or plots.order(agg.strategies))
    with create_folder(out, "report", force, inputs=run_dirs) as (tmp, lock):
        images = {f.__name__: f(agg, tmp) for f in plots.SECTIONS}
        doc = build(agg, runs, images, title, intro)
        (tmp / "report.md").write_text(doc.markdown())
        (tmp / "index.html").write_text(doc.html())
    lock.release()
    return sorted(f for f in out.iterdir() if not f.name.startswith("."))


__all__ = ["Doc", "ReportError", "RunReadError", "build", "select", "write_report"]
