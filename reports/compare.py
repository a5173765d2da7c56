"""Duplicate-deal comparison of two strategies, A against B.

Every deal is played in five lineups on the same cards, contract by contract:
``A,B,B,B``, ``B,A,B,B``, ``B,B,A,B``, ``B,B,B,A`` (lineup s puts A in seat s) and
``B,B,B,B``. A's final total in seat s is compared with B's in seat s of the all-B game
of the same deal, so the cards cancel out; the four seat differences of a deal are
averaged and the deal is the independent unit for the interval. Which side of zero is
better is the game's (``Game.higher_is_better``): in Trix lower totals are better, so a
negative difference means A is better; in trump7 more points are, so a positive one does.
A game's aspects plug-in may add a breakdown of its own (``compare_rows``; Trix: the
picker's points by contract), kept as ``by_contract`` in ``compare.json``.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
from trixsim.reports.aspects import aspects_of
from trixsim.reports.report import Doc
from trixsim.reports.stats import SPRT, Estimate, Moments, estimate, json_safe, wilson
from trixsim.reports.tables import RunFolder, RunReadError, batches, open_run

from trixsim.cutpoints import cut
from trixsim.folders import write_atomic
from trixsim.pool import Backend, LocalBackend
from trixsim.runfolder import CompareSettings, RunFolderError, compare_settings, game_of
from trixsim.runner import RunConfig, RunWriter

ALL_B = 4  # lineup index of the all-B game
BLOCK_DEALS = 200_000
"""Deals read at once (125 bytes each) when a comparison sums up its games."""


def lineups(a: str, b: str) -> tuple[str, ...]:
    """The five lineups: A in seat 0, 1, 2, 3 with B elsewhere, then B in all seats."""
    out = []
    for s in range(4):
        seats = [b] * 4
        seats[s] = a
        out.append(",".join(seats))
    return (*out, ",".join([b] * 4))


@dataclass
class DealResults:
    """Per-deal arrays from duplicate games: finals[lineup, deal, seat], wins, losses."""

    finals: np.ndarray
    wins: np.ndarray
    losses: np.ndarray

    @property
    def deals(self) -> int:
        """Number of deals."""
        return self.finals.shape[1]

    def seat_a(self, x: np.ndarray) -> np.ndarray:
        """A's values (deal, seat): seat s of lineup s."""
        return np.stack([x[s, :, s] for s in range(4)], axis=1)

    def diffs(self) -> np.ndarray:
        """Per-deal mean of A's final total minus B's in the same seat."""
        return (self.seat_a(self.finals).astype(np.float64) - self.finals[ALL_B]).mean(axis=1)


@dataclass
class DealSums:
    """What a comparison keeps of its deals, read a block at a time: A − B per deal (the
    sequential test and its rounds need the order) and running sums for everything else,
    so memory is 8 bytes a deal rather than the deals themselves."""

    parts: list[np.ndarray] = field(default_factory=list)
    seat: list[Moments] = field(default_factory=lambda: [Moments() for _ in range(4)])
    win: Moments = field(default_factory=Moments)
    loss: Moments = field(default_factory=Moments)
    counts: np.ndarray = field(default_factory=lambda: np.zeros((2, 3)))
    """[A, B] x [wins, losses, seats]."""

    def add(self, d: DealResults) -> None:
        """Take in the next deals (in deal order)."""
        self.parts.append(d.diffs())
        seat = d.seat_a(d.finals).astype(np.float64) - d.finals[ALL_B]
        for s in range(4):
            self.seat[s].add(seat[:, s])
        self.win.add((d.seat_a(d.wins).astype(np.float64) - d.wins[ALL_B]).mean(axis=1))
        self.loss.add((d.seat_a(d.losses).astype(np.float64) - d.losses[ALL_B]).mean(axis=1))
        for who, pick in ((0, d.seat_a), (1, lambda x: x[ALL_B])):
            w, lo = pick(d.wins), pick(d.losses)
            self.counts[who] += (int(w.sum()), int(lo.sum()), w.size)

    @property
    def diffs(self) -> np.ndarray:
        """A − B per deal, in deal order."""
        if len(self.parts) != 1:
            self.parts = [np.concatenate(self.parts) if self.parts else np.zeros(0)]
        return self.parts[0]


@dataclass
class Comparison:
    """The result of a comparison, ready to print or to write as JSON and Markdown."""

    a: str
    b: str
    deals: int
    diff: Estimate
    seat_diffs: list[Estimate]
    win_diff: Estimate
    loss_diff: Estimate
    rates: dict[str, dict[str, list[float]]]  # who -> win/loss -> [rate, lo, hi]
    by_contract: list[dict[str, object]]
    """The game's own breakdown (its aspects' ``compare_rows``; Trix: by contract)."""
    sprt: dict[str, object] | None = None
    rounds: list[dict[str, object]] = field(default_factory=list)
    higher_is_better: bool = False
    """The game's score direction (``summarise`` always sets it from the run's game)."""
    score_word: str = "total"
    """What the game calls a final score (Trix: total, trump7: points)."""
    aspects: Any = None
    """The game's aspects plug-in, which writes ``by_contract`` (``compare_section``)."""

    def better(self) -> str | None:
        """The better strategy in the game's own direction, or None when the interval
        includes zero."""
        if not self.diff.excludes_zero():
            return None
        a_higher = self.diff.mean > 0
        return self.a if a_higher == self.higher_is_better else self.b

    def verdict(self) -> str:
        """One sentence on what the interval says."""
        better = self.better()
        if better is None:
            return "no significant difference at the 95% level"
        plural = self.score_word if self.score_word.endswith("s") else self.score_word + "s"
        way = "higher" if self.higher_is_better else "lower"
        return f"{better} is better ({way} {plural}) at the 95% level"

    def doc(self) -> Doc:
        """The comparison as a report section."""
        d = Doc(f"Comparison: {self.a} (A) against {self.b} (B)")
        word = self.score_word
        sign, fewer = ("positive", "more") if self.higher_is_better else ("negative", "fewer")
        d.p(f"{self.deals:,} deals, each played five times on the same cards: A in each seat "
            f"with B in the other three, and B in all four. Difference = A's final {word} "
            f"minus B's in the same seat on the same deal; {sign} means A scores {fewer} "
            "points, i.e. A is better. Intervals: 95%, over deals (the four seat "
            "differences of a deal are averaged first).")
        d.p(f"A − B mean final {word}: {self.diff.text()} (s.e. {self.diff.se:.1f}): "
            f"{self.verdict()}.")
        d.table(["seat", f"A − B final {word} [95%]"],
                [[str(s), e.text()] for s, e in enumerate(self.seat_diffs)]
                + [["all (per deal)", self.diff.text()]])
        rows = []
        for what in ("win", "loss"):
            r = self.rates
            diff = self.win_diff if what == "win" else self.loss_diff
            rows.append([f"{what} rate", _pct(r["A"][what]), _pct(r["B"][what]),
                         f"{100 * diff.mean:.1f} [{100 * diff.lo:.1f}, {100 * diff.hi:.1f}]"])
        d.table(["", "A (seats of A)", "B (same seats, all-B game)", "A − B (percentage points)"],
                rows)
        if self.by_contract and self.aspects is not None:
            self.aspects.compare_section(d, self.by_contract)
        return self._sprt_doc(d)

    def _sprt_doc(self, d: Doc) -> Doc:
        """The sequential test's paragraph, when there was one."""
        if self.sprt is not None:
            s = self.sprt
            d.p(f"Sequential test (SPRT, normal approximation on per-deal differences): "
                f"H0: mean difference 0; H1: |difference| ≥ {s['effect']} points; "
                f"alpha {s['alpha']}, beta {s['beta']}; checked after every {s['round']} "
                f"deals. Decision: {s['decision']} after {self.deals:,} deals.")
        return d

    def to_json(self) -> dict[str, object]:
        """A JSON-ready dict."""
        def est(e: Estimate) -> dict[str, float]:
            return {"n": e.n, "mean": e.mean, "se": e.se, "lo": e.lo, "hi": e.hi}
        return {"a": self.a, "b": self.b, "deals": self.deals, "diff": est(self.diff),
                "seat_diffs": [est(e) for e in self.seat_diffs],
                "win_diff": est(self.win_diff), "loss_diff": est(self.loss_diff),
                "rates": self.rates, "by_contract": self.by_contract, "sprt": self.sprt,
                "rounds": self.rounds, "higher_is_better": self.higher_is_better,
                "better": self.better()}


def _pct(r: list[float]) -> str:
    return f"{100 * r[0]:.1f}% [{100 * r[1]:.1f}, {100 * r[2]:.1f}]"


def read_deals(folder: RunFolder, lineup_ids: Sequence[int] = (0, 1, 2, 3, 4),
               games: tuple[int, int] | None = None) -> DealResults:
    """Duplicate games as per-deal arrays (finals int32, wins and losses int8: 125 bytes
    a deal), of every game of the run or of games lo..hi-1.

    ``lineup_ids`` names the run's lineups with A in seat 0, 1, 2, 3 and the all-B lineup
    (a comparison run's own order by default). Deals missing from any of them are left out.
    """
    first = int(folder.meta.get("first_game", 0))
    n = int(folder.meta.get("games", 0))
    if games is not None:
        first, n = games[0], games[1] - games[0]
    where = np.full(256, -1, dtype=np.int64)
    where[list(lineup_ids)] = np.arange(5)
    finals = np.zeros((5, n, 4), dtype=np.int32)
    wins = np.zeros((5, n, 4), dtype=np.int8)
    losses = np.zeros((5, n, 4), dtype=np.int8)
    seen = np.zeros((5, n), dtype=bool)
    score = game_of(folder.meta).score_prefix
    cols = ["game", "lineup", *(f"{p}_{s}" for p in (score, "winner", "loser")
                                for s in range(4))]
    for b in batches(folder, "games", cols, games=games):
        g = b["game"].astype(np.int64) - first
        if (g < 0).any() or (g >= n).any():
            raise RunReadError(f"{folder.path}: game index outside the run's range")
        lu = where[b["lineup"].astype(np.int64)]
        rows = lu >= 0
        g, lu = g[rows], lu[rows]
        seen[lu, g] = True
        for s in range(4):
            finals[lu, g, s] = b[f"{score}_{s}"][rows]
            wins[lu, g, s] = b[f"winner_{s}"][rows]
            losses[lu, g, s] = b[f"loser_{s}"][rows]
    keep = seen.all(axis=0)  # deals finished in all five lineups
    if not keep.any():
        raise RunReadError(f"{folder.path}: the run holds no complete deals")
    return DealResults(finals[:, keep], wins[:, keep], losses[:, keep])


def summarise(a: str, b: str, deals: DealSums, folders: list[RunFolder]) -> Comparison:
    """All the statistics of a comparison from the sums of its deals and its tables (the
    run's game's direction; the breakdown of the game's aspects plug-in, if it has one)."""
    game = game_of(folders[0].meta)
    aspects = aspects_of(game)
    rates: dict[str, dict[str, list[float]]] = {}
    for who, k in (("A", 0), ("B", 1)):
        rates[who] = {what: [float(v) for v in wilson(deals.counts[k, i], deals.counts[k, 2])]
                      for i, what in enumerate(("win", "loss"))}
    return Comparison(a, b, int(deals.diffs.size), estimate(deals.diffs),
                      [m.estimate() for m in deals.seat], deals.win.estimate(),
                      deals.loss.estimate(), rates,
                      aspects.compare_rows(folders, ALL_B) if hasattr(aspects, "compare_rows")
                      else [], higher_is_better=game.higher_is_better,
                      score_word=game.score_word, aspects=aspects)


def compare(a: str, b: str, games: int, seed: int, out: Path, workers: int = 1,
            force: bool = False, sprt: SPRT | None = None, round_deals: int = 500,
            command: list[str] | None = None,
            progress: Callable[[int, str | None, np.ndarray], None] | None = None,
            on_games: Callable[[int], None] | None = None,
            backend: Backend | None = None, *, game: str) -> Comparison:
    """Play the comparison of ``game`` into a new comparison folder ``out`` and return its
    statistics.

    Without ``sprt`` all ``games`` deals are played at once. With it, deals are played in
    rounds of ``round_deals`` and play stops as soon as the test decides, or at ``games``
    deals (then the decision is "undecided"). ``progress(deals, decision, diffs)`` is called
    after every round, ``on_games(n)`` as games finish. ``resume`` continues one. Games
    are played on ``backend`` (by default ``workers`` local processes).
    """
    backend = backend or LocalBackend(workers)
    size = games if sprt is None else max(1, min(round_deals, games))
    settings = CompareSettings(a=a, b=b, games=games, round=size,
                               sprt=None if sprt is None else asdict(sprt))
    cfg = RunConfig(games=size, seed=seed, lineups=lineups(a, b), game=game,
                    workers=backend.parallelism, batch_size=min(10_000, size))
    writer = RunWriter.create(cfg, out, force=force, command=command, kind="compare",
                              compare=settings)
    return _play(writer, backend, progress, on_games)


def resume(out: Path, workers: int = 1,
           progress: Callable[[int, str | None, np.ndarray], None] | None = None,
           on_games: Callable[[int], None] | None = None,
           backend: Backend | None = None) -> Comparison:
    """Continue an interrupted comparison in ``out`` with its own settings (damaged chunks
    are played again); the result is the one an uninterrupted comparison gives."""
    try:
        compare_settings(out)
    except RunFolderError as exc:
        raise RunReadError(str(exc)) from None
    return _play(RunWriter.reopen(out), backend or LocalBackend(workers), progress, on_games)


def settings_of(out: Path) -> CompareSettings:
    """The settings a comparison folder was started with (a, b, games, round, sprt)."""
    return compare_settings(out)


def _play(writer: RunWriter, backend: Backend,
          progress: Callable[[int, str | None, np.ndarray], None] | None,
          on_games: Callable[[int], None] | None) -> Comparison:
    """Play round after round into the writer's folder until the test decides or every
    deal is played; the folder stays locked throughout."""
    workers = backend.parallelism
    with writer:
        settings = writer.meta["compare"]
        a, b, games, size = (settings[k] for k in ("a", "b", "games", "round"))
        sprt = None if settings["sprt"] is None else SPRT(**settings["sprt"])
        first = int(writer.meta.get("first_game", 0))
        sums, upto = DealSums(), first  # deals read so far: each round reads only its own
        while True:
            writer.play(progress=on_games, backend=backend)
            end = first + writer.meta["games"]
            folder = open_run(writer.out)
            for lo in _blocks(upto, end, first, size):  # a round at a time, resumed or not
                sums.add(read_deals(folder, games=lo))
            upto = end
            diffs = sums.diffs
            cut("round read")
            decision = sprt.decide(diffs) if sprt is not None else None
            if progress:
                progress(int(diffs.size), decision, diffs)
            played = writer.meta["games"]
            if decision is not None or played >= games:
                break
            n = min(size, games - played)
            writer.extend(n, workers, batch_size=min(10_000, n))
        result = summarise(a, b, sums, [folder])
        if sprt is not None:
            result.sprt = {**asdict(sprt), "round": size, "upper": sprt.upper,
                           "lower": sprt.lower, "decision": decision or "undecided"}
            result.rounds = _rounds(sprt, sums.diffs, size)
        write(result, writer.out)
        cut("comparison written")
    return result


def _blocks(lo: int, hi: int, first: int, size: int) -> list[tuple[int, int]]:
    """Deals ``lo .. hi-1`` as blocks that never cross a round's end (rounds of ``size``
    from ``first``) nor exceed BLOCK_DEALS: the sums then add up in the same order whether
    the rounds were read one by one or, after a resume, several at once."""
    out = []
    while lo < hi:
        stop = min(hi, lo + BLOCK_DEALS, first + ((lo - first) // size + 1) * size)
        out.append((lo, stop))
        lo = stop
    return out


def _rounds(sprt: SPRT, diffs: np.ndarray, size: int) -> list[dict[str, object]]:
    """The test's state after every round (deals are played in order, so round k saw the
    first k * size deals)."""
    out: list[dict[str, object]] = []
    for end in [*range(size, diffs.size, size), diffs.size]:
        d = diffs[:end]
        plus, minus = sprt.llr(d)
        out.append({"deals": int(end), "mean": float(d.mean()), "llr_plus": plus,
                    "llr_minus": minus, "decision": sprt.decide(d)})
    return out


def write(result: Comparison, out: Path) -> None:
    """Write ``compare.json`` and ``report.md`` into the run folder ``out``."""
    text = json.dumps(json_safe(result.to_json()), indent=1, allow_nan=False)
    write_atomic(out / "compare.json", text + "\n")
    cut("compare.json written")
    write_atomic(out / "report.md", result.doc().markdown())

