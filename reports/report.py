"""Write a report folder: PNG plots, ``report.md`` and an ``index.html`` showing them together.

The document is built once as a list of blocks (headings, paragraphs, tables, images) and
rendered to both Markdown and HTML, so the two always say the same thing.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path

import numpy as np
from trixsim.reports import plots, verdict_plots, verdicts
from trixsim.reports.aggregate import Aggregates, aggregate
from trixsim.reports.aspects import aspects_of
from trixsim.reports.html import render
from trixsim.reports.pairing import (
    DuplicateRunError,
    LineupStats,
    Paired,
    check_duplicates,
    read_pairs,
    run_ids,
)
from trixsim.reports.stats import ci_text, moments_ci, wilson
from trixsim.reports.tables import RunFolder, RunReadError, game_of_runs, open_run

from trixsim.folders import FolderError, check_new_output, create_folder


def game_title(name: str) -> str:
    """A game's name as a report's title writes it (``Trix``, ``trump7``)."""
    return "Trix" if name == "trix" else name


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
        """The document as a standalone HTML page (table of contents, rendered Markdown)."""
        return render(self.title, self.blocks)


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
          title: str, intro: Doc | None = None, paired: Paired | None = None,
          lineups: Sequence[LineupStats] = (), behaviour: object = None) -> Doc:
    """The report document for ``agg`` (``images``: plot files by section function name;
    ``paired`` and ``lineups``: the duplicate pairing of the runs' games, and each
    lineup's results; ``behaviour``: what the game's aspects plug-in pooled, with its
    plots, if it has one)."""
    doc = Doc(title)
    game = game_of_runs(runs)
    aspects = aspects_of(game)
    if aspects is not None and behaviour is None:
        behaviour = aspects.behaviour(runs, agg.strategies)
    ids = run_ids(runs)
    word = agg.score_word
    plural = word if word.endswith("s") else word + "s"
    way = (f"Higher {plural} are better: the most points win" if agg.higher_is_better
           else f"Lower {plural} are better: the lowest {word} wins")
    counted = (aspects.counted(behaviour, agg.games) if hasattr(aspects, "counted")
               else f"{agg.games:,} games of {game.name}")
    doc.p(f"{counted} from {len(runs)} run folder(s). {way}. "
          "Intervals are 95%. Verdicts between strategies pair games on the same deal and "
          "seat (runs on one seed share deals) and their intervals are over deals; the "
          "behaviour sections pool each strategy over all its games, whatever the "
          "opponents, and treat games as independent.")
    for r in runs:
        note = r.incomplete_note()
        if note:
            doc.p(f"**Incomplete run**: {note}; the figures cover the games played so far.")
    if paired is not None:
        verdicts.add_summary(doc, paired, lineups)
        _images(doc, images, "verdict_summary")
    if intro is not None:
        doc.blocks += [("h", 2, intro.title), *intro.blocks]
        _images(doc, images, "intro")
    doc.h("Runs and lineups")
    doc.p("Run id = the run folder's name (parent/name when two inputs share a name); "
          "`lineups.csv` and `verdicts.csv` in this folder hold the same figures for other "
          "tools.")
    doc.table(["run id", "seed", "deals", "lineups", "status", "play time"],
              [[i, r.meta.get("seed", "?"), f"{r.meta.get('games', 0):,}",
                _lineups(r.lineups), "complete" if r.complete else "**incomplete**",
                f"{float(r.meta.get('seconds', 0)):,.0f} s"] for i, r in zip(ids, runs,
                                                                       strict=True)])
    if lineups:
        doc.p(f"Per lineup: each strategy's mean final {word} over its seats, 95% interval "
              "over games (a strategy's result depends on who it plays against"
              + ("; lineups of one strategy at all four seats are not a comparison of "
                 "strategies" if paired is not None and not paired.method else "") + ").")
        doc.table(["run id", "seed", "lineup", "games", f"mean final {word} by strategy"],
                  verdicts.lineup_rows(lineups))
    if paired is not None and paired.method:
        if aspects is not None:
            aspects.details(doc, paired)
        _images(doc, images, "verdict_aspects")
    doc.h("Overall (pooled over lineups)")
    rows = []
    for k, name in enumerate(agg.strategies):
        m = agg.final[k].sum(axis=0)
        n = m[0]
        rows.append([name, f"{int(n):,}", ci_text(*moments_ci(m[0], m[1], m[2])),
                     ci_text(*wilson(agg.wins[k].sum(), n), pct=True),
                     ci_text(*wilson(agg.losses[k].sum(), n), pct=True)])
    doc.table(["strategy", "seat-games", f"mean final {word}", "win rate", "loss rate"], rows)
    _images(doc, images, "overall")
    if aspects is not None:  # the game's own aspects (reports.aspects)
        aspects.section(doc, behaviour)
    return doc


def _lineups(lineups: list[str], show: int = 4) -> str:
    if len(lineups) <= show:
        return "; ".join(lineups)
    return "; ".join(lineups[:show]) + f"; … ({len(lineups)} lineups)"


def _images(doc: Doc, images: dict[str, list[str]], section: str) -> None:
    for name in images.get(section, []):
        doc.img(name, name.removesuffix(".png").replace("_", " "))


def expand_inputs(paths: Sequence[Path | str]) -> list[Path]:
    """The inputs with each tournament folder replaced by its pair run folders."""
    out: list[Path] = []
    for p in map(Path, paths):
        if (p / "tournament.json").is_file() and not (p / "run.json").exists():
            from trixsim.reports.tournament import TournamentError, pair_folders

            try:
                out += [f for f in pair_folders(p) if f.exists()]
            except TournamentError as exc:
                raise ReportError(str(exc)) from None
        else:
            out.append(p)
    return out


def write_report(run_dirs: Sequence[Path | str], out: Path | str, force: bool = False,
                 strategies: Sequence[str] = (), title: str | None = None,
                 intro: Doc | None = None,
                 intro_plots: Callable[[Path], list[str]] | None = None,
                 notes: list[str] | None = None) -> list[Path]:
    """Read the runs and write plots, report.md and index.html to ``out``.

    Raises ``RunReadError`` for an unreadable run and ``ReportError`` for an existing
    ``out`` (without ``force``) or an unknown strategy. The folder is written beside
    ``out`` and moved into place at the end, so a failure leaves no half-written report.
    Returns the files written; ``notes`` (when given) gets what the terminal should say,
    such as how much of an incomplete run was read and why no verdict could be given.
    Each run is read once: its run.json, taken when the report starts, gives the chunks
    that every table, plot and note of the report covers, even while a writer goes on.
    """
    out = Path(out)
    run_dirs = expand_inputs(run_dirs)
    try:
        check_new_output(out, ("report",), force, inputs=run_dirs)
    except FolderError as exc:
        raise ReportError(str(exc)) from None
    runs = [open_run(d) for d in run_dirs]
    game = game_of_runs(runs)  # first: runs of two games never hold the same games
    try:
        check_duplicates(runs)
    except DuplicateRunError as exc:
        raise ReportError(str(exc)) from None
    if title is None:
        title = f"{game_title(game.name)} strategy report"
    agg = aggregate(runs)
    agg = select(agg, list(strategies) or plots.order(agg.strategies))
    paired, lineups = read_pairs(runs, run_ids(runs), agg.strategies)
    if notes is not None:
        notes += [n for n in (r.incomplete_note() for r in runs) if n]
    if notes is not None and not paired.method:
        notes.append(verdicts.no_verdict(lineups).replace("`", ""))
    with create_folder(out, "report", force, inputs=run_dirs) as (tmp, lock):
        images = {f.__name__: f(agg, tmp) for f in plots.sections(agg)}
        busiest = agg.strategies[int(np.argmax(agg.final[:, :, 0].sum(axis=1)))]
        images |= verdict_plots.draw(paired, tmp, reference=busiest)
        aspects = aspects_of(game)
        behaviour = None
        if aspects is not None:  # the game's own aspects: their verdicts and behaviour
            if paired.method:
                images.setdefault("verdict_aspects", []).extend(aspects.verdict_plots(
                    paired, tmp, verdict_plots.choose(paired, busiest)))
            behaviour = aspects.behaviour(runs, agg.strategies, tmp)
        if intro_plots is not None:
            images["intro"] = intro_plots(tmp)
        doc = build(agg, runs, images, title, intro, paired, lineups, behaviour)
        (tmp / "report.md").write_text(doc.markdown())
        (tmp / "index.html").write_text(doc.html())
        verdicts.write_csv(paired, tmp / "verdicts.csv")
        verdicts.write_lineups_csv(lineups, tmp / "lineups.csv")
    lock.release()
    return sorted(f for f in out.iterdir() if not f.name.startswith("."))


__all__ = ["Doc", "ReportError", "RunReadError", "build", "select", "write_report"]
