"""A tournament: every pair of strategies on duplicate deals, then a ranking.

Each pair (A, B) gets its own run folder ``pair-NN-A-vs-B`` with ten lineups on the same
deals: A in each seat against three B, B in each seat against three A, four A and four B.
So A − B is measured both in a field of B and in a field of A (matched pairs, see
``pairing``), and the per-deal difference is antisymmetric. Pair NN is played on seed
``seed + NN``: the pairs never share games, so their folders can be reported together.

The ranking has two views with 95% intervals: the mean difference to every other
strategy (the matrix of pairwise A − B, intervals over deals), and a Bradley-Terry
rating fitted to who did better on each deal (a deal counts as a win for A when A − B is
negative, half a win for each on a tie), on the Elo scale (400 points: 10 to 1 odds),
with intervals from resampling deals within each pair.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np
from trixsim.reports.pairing import Paired, read_pairs, run_ids
from trixsim.reports.report import Doc
from trixsim.reports.stats import Estimate, json_safe
from trixsim.reports.tables import open_run
from trixsim.reports.verdicts import pair_matrix

from trixsim.cutpoints import cut
from trixsim.folders import create_folder, write_atomic
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
         resume: bool = False) -> list[Path]:
    """Play every pair into ``out`` (a new tournament folder, or with ``resume`` the
    unfinished pairs of an existing one, with its own settings); returns the pair folders."""
    backend = backend or LocalBackend(workers)
    if resume:
        settings = read_settings(out)
        specs, games, seed = settings["strategies"], settings["games"], settings["seed"]
    else:
        if len(set(specs)) != len(specs) or len(specs) < 2:
            raise TournamentError("give at least two different strategies")
        settings = {"format": "trixsim-tournament/1", "strategies": list(specs),
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
                continue
        else:
            cfg = RunConfig(games=games, seed=(seed + k) % SEED_MOD, lineups=pair_lineups(a, b),
                            workers=backend.parallelism, batch_size=min(10_000, games))
            writer = RunWriter.create(cfg, path, command=command)
        with writer:
            writer.play(progress=on_games, backend=backend)
    cut("every pair played")
    return folders


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

    def order(self) -> list[int]:
        """Strategy indices from the best rating to the worst."""
        return sorted(range(len(self.strategies)), key=lambda i: -self.rating[i])

    def doc(self) -> Doc:
        """The ranking and the matrix as a report section."""
        d = Doc("Tournament ranking")
        n = {e.n for row in self.matrix for e in row if e is not None}
        d.p(f"Every pair played on duplicate deals ({', '.join(f'{x:,}' for x in sorted(n))} "
            "deals per pair; ten lineups per deal: each strategy in each seat against "
            "three of the other, and each strategy in all four seats). *Rating*: "
            "Bradley-Terry on who ended with the lower total on each deal, Elo scale (a "
            "200-point gap: the higher one does better on about 76% of deals), mean 0, "
            "95% interval from 400 resamples of the deals. *vs the field*: mean of A − B "
            "over the other strategies (points per game; negative is better), 95% "
            "interval over deals.")
        rows = []
        for rank, i in enumerate(self.order(), 1):
            e = self.vs_field[i]
            rows.append([str(rank), f"`{self.strategies[i]}`",
                         f"{self.rating[i]:.0f} [{self.rating_lo[i]:.0f}, "
                         f"{self.rating_hi[i]:.0f}]", e.text()])
        d.table(["rank", "strategy", "rating [95%]", "vs the field [95%]"], rows)
        d.p("Mean difference matrix: row − column final total per game on the same deals, "
            "95% interval over deals (negative: the row strategy is better).")
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
        return {"strategies": self.strategies,
                "rating": [{"strategy": s, "rating": float(r), "lo": float(lo),
                            "hi": float(hi), "vs_field": est(f)}
                           for s, r, lo, hi, f in zip(self.strategies, self.rating,
                                                      self.rating_lo, self.rating_hi,
                                                      self.vs_field, strict=True)],
                "matrix": [[est(e) for e in row] for row in self.matrix],
                "wins": self.wins.tolist()}


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
    w = np.zeros((k, k))
    for (i, j), d in values.items():
        w[i, j] = (d < 0).sum() + 0.5 * (d == 0).sum()
        w[j, i] = (d > 0).sum() + 0.5 * (d == 0).sum()
    return w


def rank(paired: Paired, strategies: Sequence[str], resamples: int = 400,
         seed: int = 0) -> Ranking:
    """Ratings and matrix from paired games (only the named strategies)."""
    specs = list(strategies)
    k = len(specs)
    values = {}
    for a, b in paired.pairs():
        if a in specs and b in specs:
            values[(specs.index(a), specs.index(b))] = paired.deal_values(a, b)
    wins = _wins(values, k)
    rating = bradley_terry(wins)
    rng = np.random.default_rng(seed)
    boot = np.empty((resamples, k))
    for r in range(resamples):
        sample = {ij: d[rng.integers(0, d.size, d.size)] for ij, d in values.items()}
        boot[r] = bradley_terry(_wins(sample, k))
    lo, hi = np.percentile(boot, [2.5, 97.5], axis=0)
    matrix = pair_matrix(paired, specs)
    field = []
    for i in range(k):
        row = [e for e in matrix[i] if e is not None]
        if not row:
            field.append(Estimate(0, float("nan"), float("nan")))
            continue
        field.append(Estimate(min(e.n for e in row), float(np.mean([e.mean for e in row])),
                              float(np.sqrt(sum(e.se ** 2 for e in row)) / len(row))))
    return Ranking(specs, matrix, wins, rating, lo, hi, field)


def read_ranking(folders: Sequence[Path], strategies: Sequence[str]) -> Ranking:
    """The ranking of the strategies from the pair run folders."""
    runs = [open_run(f) for f in folders]
    paired, _ = read_pairs(runs, run_ids(runs), strategies, keep_deals=True)
    return rank(paired, strategies)


def write(ranking: Ranking, out: Path) -> None:
    """Add the ranking to tournament.json and write report.md into ``out``."""
    settings = read_settings(out)
    settings["ranking"] = json_safe(ranking.to_json())
    write_atomic(out / "tournament.json",  # what --resume reads: never half written
                 json.dumps(settings, indent=1, allow_nan=False) + "\n")
    cut("ranking written")
    write_atomic(out / "report.md", ranking.doc().markdown())



__all__ = ["Ranking", "TournamentError", "bradley_terry", "pair_folder", "pair_lineups",
           "pairs_of", "play", "rank", "read_ranking", "read_settings", "write"]
