"""A tournament: every pair of strategies on duplicate deals, then a ranking.

Each pair (A, B) gets its own run folder ``pair-NN-A-vs-B`` with ten lineups on the same
deals: A in each seat against three B, B in each seat against three A, four A and four B.
So A − B is measured both in a field of B and in a field of A (matched pairs, see
``pairing``), and the per-deal difference is antisymmetric. Pair NN is played on seed
``seed + NN``: the pairs never share games, so their folders can be reported together.

The ranking has two views with 95% intervals: the mean difference to every other
strategy (the matrix of pairwise A − B, intervals over deals), and a Bradley-Terry
rating fitted to who did better on each deal in the game's direction (a deal counts as a
win for A when A − B is negative in Trix, positive in trump7; half a win for each on a
tie), on the Elo scale (400 points: 10 to 1 odds), with intervals from resampling deals
within each pair.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
from trixsim.reports.pairing import Paired, read_pairs, run_ids
from trixsim.reports.report import Doc
from trixsim.reports.stats import Estimate, json_safe, wilson
from trixsim.reports.tables import open_run
from trixsim.reports.verdicts import pair_matrix

from trixsim.cutpoints import cut
from trixsim.folders import FolderLock, create_folder, write_atomic
from trixsim.pool import Backend, LocalBackend
from trixsim.runner import RunConfig, RunWriter

KIND = "tournament"
ELO = 400 / np.log(10)
SEED_MOD = 2**63


class TournamentError(ValueError):
    """A tournament that cannot be played or read; one line for the user."""


def pair_lineups(a: str, b: str) -> tuple[str, ...]:
    """A in each seat against three B, B in each seat against three A, all A, all B."""
    out = []
    for x, y in ((a, b), (b, a)):
        for s in range(4):
            seats = [y] * 4
            seats[s] = x
            out.append(",".join(seats))
    return (*out, ",".join([a] * 4), ",".join([b] * 4))


def pair_folder(k: int, a: str, b: str) -> str:
    """The run folder name of pair ``k``."""
    def safe(s: str) -> str:
        return re.sub(r"[^A-Za-z0-9_.=-]+", "_", s)[:40]
    return f"pair-{k:02d}-{safe(a)}-vs-{safe(b)}"


def pairs_of(specs: Sequence[str]) -> list[tuple[str, str]]:
    """Every unordered pair, in the order of ``specs``."""
    return [(specs[i], specs[j]) for i in range(len(specs)) for j in range(i + 1, len(specs))]


def play(specs: Sequence[str], games: int, seed: int, out: Path, workers: int = 1,
         force: bool = False, command: list[str] | None = None,
         on_games: Callable[[int], None] | None = None, backend: Backend | None = None,
         resume: bool = False, on_pair: Callable[[list[Path]], None] | None = None,
         *, game: str) -> list[Path]:
    """Play every pair into ``out`` (a new tournament folder, or with ``resume`` the
    unfinished pairs of an existing one, with its own settings); returns the pair folders.
    ``on_pair(done)`` is called with the finished pair folders after each pair."""
    backend = backend or LocalBackend(workers)
    if resume:
        settings = read_settings(out)
        specs, games, seed = settings["strategies"], settings["games"], settings["seed"]
        game = settings.get("game", "trix")  # tournaments before games were named: Trix
    else:
        if len(set(specs)) != len(specs) or len(specs) < 2:
            raise TournamentError("give at least two different strategies")
        settings = {"format": "trixsim-tournament/1", "game": game, "strategies": list(specs),
                    "games": games, "seed": seed,
                    "pairs": [pair_folder(k, a, b) for k, (a, b) in enumerate(pairs_of(specs))]}
        with create_folder(out, KIND, force) as (tmp, lock):
            (tmp / "tournament.json").write_text(json.dumps(settings, indent=1) + "\n")
        lock.release()
        cut("tournament folder created")
    folders = []
    for k, (a, b) in enumerate(pairs_of(specs)):
        path = out / settings["pairs"][k]
        folders.append(path)
        if path.exists() or path.is_symlink():
            # any state a cut left: created with no chunk yet, some chunks, all of them
            writer = RunWriter.reopen(path)
            if writer.meta.get("complete") and not writer.todo():
                writer.close()
                if on_pair is not None:
                    on_pair(list(folders))
                continue
        else:
            cfg = RunConfig(games=games, seed=(seed + k) % SEED_MOD, lineups=pair_lineups(a, b),
                            game=game, workers=backend.parallelism,
                            batch_size=min(10_000, games))
            writer = RunWriter.create(cfg, path, command=command)
        with writer:
            writer.play(progress=on_games, backend=backend)
        if on_pair is not None:
            on_pair(list(folders))
    cut("every pair played")
    return folders


def standings(folders: Sequence[Path], strategies: Sequence[str]) -> list[str]:
    """Lines for the finished pairs so far: the last pair's deals won, lost and tied, then
    each strategy's standing (mean A − B over the opponents met, deals won-lost-tied)."""
    last = set(pairs_of(list(strategies))[len(folders) - 1]) if folders else set()
    runs = [open_run(f) for f in folders]
    paired, _ = read_pairs(runs, run_ids(runs), strategies, keep_deals=True)
    names = list(strategies)
    met: dict[str, list[float]] = {s: [] for s in names}
    wlt: dict[str, np.ndarray] = {s: np.zeros(3, dtype=np.int64) for s in names}
    lines = []
    sign = 1 if paired.higher_is_better else -1
    for a, b in paired.pairs():
        d = paired.deal_values(a, b)
        good = sign * d  # > 0: A better on the deal, in the game's direction
        w, lo, t = int((good > 0).sum()), int((good < 0).sum()), int((d == 0).sum())
        met[a].append(float(good.mean()))
        met[b].append(-float(good.mean()))
        wlt[a] += [w, lo, t]
        wlt[b] += [lo, w, t]
        if {a, b} == last:
            lines.append(f"  {a} vs {b}: {a} better on {w:,} deals, {b} on {lo:,}, same on "
                         f"{t:,} ({a} - {b} {d.mean():+.1f} points per game)")
    playing = sorted((s for s in names if met[s]), key=lambda s: -np.mean(met[s]))
    lines.append("  standings so far: " + "; ".join(
        f"{k}. {s} {sign * np.mean(met[s]):+.1f} ({'-'.join(map(str, wlt[s]))})"
        for k, s in enumerate(playing, 1)))
    return lines


def read_settings(out: Path) -> dict:
    """tournament.json of ``out``; TournamentError when it is not a tournament folder."""
    try:
        data = json.loads((Path(out) / "tournament.json").read_text())
        if data.get("format") != "trixsim-tournament/1":
            raise ValueError
        return data
    except (OSError, ValueError, AttributeError):
        raise TournamentError(f"{out} is not a tournament folder (no valid "
                              "tournament.json)") from None


def pair_folders(out: Path) -> list[Path]:
    """The pair run folders of a tournament folder."""
    return [Path(out) / name for name in read_settings(out)["pairs"]]


@dataclass
class Ranking:
    """Ratings and the mean difference matrix of a tournament."""

    strategies: list[str]
    matrix: list[list[Estimate | None]]
    wins: np.ndarray  # wins[i, j]: deals on which i did better than j (ties: half)
    rating: np.ndarray
    rating_lo: np.ndarray
    rating_hi: np.ndarray
    vs_field: list[Estimate]
    record: dict[tuple[int, int], tuple[int, int, int]] = field(default_factory=dict)
    """record[(i, j)]: deals on which i did better than j, worse, and the same (i < j)."""
    sweeps: list[tuple[int, int]] = field(default_factory=list)
    """(winner, loser) of each pair in which one did better on every deal (no ties)."""
    higher_is_better: bool = False
    """The game's score direction (the matrix and vs the field are raw A − B)."""

    def rating_text(self, i: int) -> str:
        """``r [lo, hi]``; an end a clean sweep leaves unbounded is ``∞``."""
        lo = "-∞" if not np.isfinite(self.rating_lo[i]) else f"{self.rating_lo[i]:.0f}"
        hi = "∞" if not np.isfinite(self.rating_hi[i]) else f"{self.rating_hi[i]:.0f}"
        return f"{self.rating[i]:.0f} [{lo}, {hi}]"

    def sweep_note(self) -> str:
        """A sentence for each clean sweep: the sample is too small to bound the gap."""
        return " ".join(
            f"`{self.strategies[w]}` did better than `{self.strategies[lo]}` on every one "
            f"of {sum(self.record[tuple(sorted((w, lo)))]):,} deals: too few deals to bound "
            "the gap between them, so their intervals are open on that side (play more "
            "deals, or compare strategies closer in strength)." for w, lo in self.sweeps)

    def order(self) -> list[int]:
        """Strategy indices from the best rating to the worst."""
        return sorted(range(len(self.strategies)), key=lambda i: -self.rating[i])

    def doc(self) -> Doc:
        """The ranking and the matrix as a report section."""
        d = Doc("Tournament ranking")
        n = {e.n for row in self.matrix for e in row if e is not None}
        way, sign = (("higher", "positive") if self.higher_is_better
                     else ("lower", "negative"))
        d.p(f"Every pair played on duplicate deals ({', '.join(f'{x:,}' for x in sorted(n))} "
            "deals per pair; ten lineups per deal: each strategy in each seat against "
            "three of the other, and each strategy in all four seats). *Rating*: "
            f"Bradley-Terry on who ended with the {way} score on each deal, Elo scale (a "
            "200-point gap: the higher one does better on about 76% of deals), mean 0, "
            "95% interval from 400 resamples of the deals. *vs the field*: mean of A − B "
            f"over the other strategies (points per game; {sign} is better), 95% "
            "interval over deals.")
        rows = []
        for rank, i in enumerate(self.order(), 1):
            e = self.vs_field[i]
            rows.append([str(rank), f"`{self.strategies[i]}`", self.rating_text(i), e.text()])
        d.table(["rank", "strategy", "rating [95%]", "vs the field [95%]"], rows)
        if self.sweeps:
            d.p(self.sweep_note())
        d.p(f"Deals won, lost and tied per pair ({way} final score on the deal, averaged "
            "over its seats):")
        d.table(["A", "B", "deals", "A better", "B better", "same"],
                [[f"`{self.strategies[i]}`", f"`{self.strategies[j]}`", f"{w + lo + t:,}",
                  f"{w:,}", f"{lo:,}", f"{t:,}"] for (i, j), (w, lo, t) in self.record.items()])
        d.p("Mean difference matrix: row − column final score per game on the same deals, "
            f"95% interval over deals ({sign}: the row strategy is better).")
        order = self.order()
        d.table(["A \\ B", *(f"`{self.strategies[j]}`" for j in order)],
                [[f"`{self.strategies[i]}`",
                  *("–" if self.matrix[i][j] is None else self.matrix[i][j].text()
                    for j in order)] for i in order])
        return d

    def to_json(self) -> dict:
        """A JSON-ready dict."""
        def est(e: Estimate | None) -> dict | None:
            return None if e is None else {"deals": e.n, "mean": e.mean, "lo": e.lo,
                                           "hi": e.hi}
        return {"strategies": self.strategies, "higher_is_better": self.higher_is_better,
                "rating": [{"strategy": s, "rating": float(r), "lo": float(lo),
                            "hi": float(hi), "vs_field": est(f)}
                           for s, r, lo, hi, f in zip(self.strategies, self.rating,
                                                      self.rating_lo, self.rating_hi,
                                                      self.vs_field, strict=True)],
                "matrix": [[est(e) for e in row] for row in self.matrix],
                "wins": self.wins.tolist(),
                "record": [{"a": self.strategies[i], "b": self.strategies[j], "a_better": w,
                            "b_better": lo, "same": t}
                           for (i, j), (w, lo, t) in self.record.items()],
                "sweeps": [[self.strategies[w], self.strategies[lo]] for w, lo in self.sweeps]}


def bradley_terry(wins: np.ndarray, prior: float = 0.5, iters: int = 2000) -> np.ndarray:
    """Elo-scale ratings (mean 0) maximising the Bradley-Terry likelihood of ``wins[i, j]``
    (i beat j); ``prior`` adds that many wins each way to every compared pair so that a
    strategy that always wins keeps a finite rating."""
    w = np.asarray(wins, dtype=np.float64)
    games = w + w.T
    w = w + prior * (games > 0)
    games = w + w.T
    p = np.ones(len(w))
    total = w.sum(axis=1)
    for _ in range(iters):
        denom = (games / (p[:, None] + p[None, :])).sum(axis=1)
        new = np.where(denom > 0, total / np.where(denom > 0, denom, 1), p)
        new /= np.exp(np.log(np.maximum(new, 1e-300)).mean())
        if np.allclose(new, p, rtol=1e-10, atol=0):
            p = new
            break
        p = new
    r = ELO * np.log(p)
    return r - r.mean()


def _wins(values: dict[tuple[int, int], np.ndarray], k: int) -> np.ndarray:
    """wins[i, j]: deals on which i did better than j (ties half); ``values`` hold how
    much better i did than j on each deal (> 0: i better, in the game's direction)."""
    w = np.zeros((k, k))
    for (i, j), d in values.items():
        w[i, j] = (d > 0).sum() + 0.5 * (d == 0).sum()
        w[j, i] = (d < 0).sum() + 0.5 * (d == 0).sum()
    return w


def _floor(rating: np.ndarray, lo: np.ndarray, hi: np.ndarray,
           record: dict[tuple[int, int], tuple[int, int, int]]
           ) -> tuple[np.ndarray, np.ndarray, list[tuple[int, int]]]:
    """The rating intervals widened to at least what each pair's own result allows.

    Resampling the deals of a small, one-sided pair gives the same result every time, so
    the bootstrap interval can shrink to a point (``401 [401, 401]``). Each pair's share of
    deals won (ties half) has a Wilson interval; as a two-strategy rating, each of the two
    moves by half the gap, so each interval must reach at least half of the gap's Wilson
    range on its side. A clean sweep (Wilson upper end 1) leaves the winner's upper end and
    the loser's lower end unbounded. Returns (lo, hi, sweeps as (winner, loser))."""
    lo, hi = lo.astype(np.float64).copy(), hi.astype(np.float64).copy()
    sweeps = []
    for (i, j), (w, l_, t) in record.items():
        n = w + l_ + t
        if n == 0:
            continue
        share, s_lo, s_hi = (float(x) for x in wilson(w + 0.5 * t, n))
        with np.errstate(divide="ignore"):
            gap, g_lo, g_hi = (ELO * np.log(x / (1 - x)) if 0 < x < 1 else
                               (np.inf if x >= 1 else -np.inf) for x in (share, s_lo, s_hi))
        if not np.isfinite(gap):  # a sweep: the fitted gap is the prior's
            gap = rating[i] - rating[j]
            sweeps.append((i, j) if l_ == 0 else (j, i))
        lo[i] = min(lo[i], rating[i] - (gap - g_lo) / 2)
        hi[i] = max(hi[i], rating[i] + (g_hi - gap) / 2)
        lo[j] = min(lo[j], rating[j] - (g_hi - gap) / 2)
        hi[j] = max(hi[j], rating[j] + (gap - g_lo) / 2)
    return lo, hi, sweeps


def rank(paired: Paired, strategies: Sequence[str], resamples: int = 400,
         seed: int = 0) -> Ranking:
    """Ratings and matrix from paired games (only the named strategies)."""
    specs = list(strategies)
    k = len(specs)
    sign = 1 if paired.higher_is_better else -1
    values = {}  # per deal, how much better a did than b (> 0: a better)
    for a, b in paired.pairs():
        if a in specs and b in specs:
            values[(specs.index(a), specs.index(b))] = sign * paired.deal_values(a, b)
    wins = _wins(values, k)
    rating = bradley_terry(wins)
    rng = np.random.default_rng(seed)
    boot = np.empty((resamples, k))
    for r in range(resamples):
        sample = {ij: d[rng.integers(0, d.size, d.size)] for ij, d in values.items()}
        boot[r] = bradley_terry(_wins(sample, k))
    lo, hi = np.percentile(boot, [2.5, 97.5], axis=0)
    record = {ij: (int((d > 0).sum()), int((d < 0).sum()), int((d == 0).sum()))
              for ij, d in sorted(values.items())}
    lo, hi, sweeps = _floor(rating, lo, hi, record)
    matrix = pair_matrix(paired, specs)
    field_ = []
    for i in range(k):
        row = [e for e in matrix[i] if e is not None]
        if not row:
            field_.append(Estimate(0, float("nan"), float("nan")))
            continue
        field_.append(Estimate(min(e.n for e in row), float(np.mean([e.mean for e in row])),
                              float(np.sqrt(sum(e.se ** 2 for e in row)) / len(row))))
    return Ranking(specs, matrix, wins, rating, lo, hi, field_, record, sweeps,
                   paired.higher_is_better)


def read_ranking(folders: Sequence[Path], strategies: Sequence[str]) -> Ranking:
    """The ranking of the strategies from the pair run folders."""
    runs = [open_run(f) for f in folders]
    paired, _ = read_pairs(runs, run_ids(runs), strategies, keep_deals=True)
    return rank(paired, strategies)


def write(ranking: Ranking, out: Path) -> None:
    """Add the ranking to tournament.json and write report.md into ``out`` (holding its
    lock, which records what was written in the folder's marker)."""
    with FolderLock(out):
        settings = read_settings(out)
        settings["ranking"] = json_safe(ranking.to_json())
        write_atomic(out / "tournament.json",  # what --resume reads: never half written
                     json.dumps(settings, indent=1, allow_nan=False) + "\n")
        cut("ranking written")
        write_atomic(out / "report.md", ranking.doc().markdown())



__all__ = ["Ranking", "TournamentError", "bradley_terry", "pair_folder", "pair_lineups",
           "pairs_of", "play", "rank", "read_ranking", "read_settings", "standings", "write"]
