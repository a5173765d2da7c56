"""Verify a run folder without changing it: what ``trixsim check`` reports.

Beyond the chunk checks every reader makes (present, size, checksum, nothing unlisted),
the audit reads every table and checks that the numbers add up by the rules: each
contract's totals are the previous totals plus its points with the 1000 rule, games end
when a total passes 1000 or after 28 contracts, final totals, winners and losers match
the last contract, and the sums recorded in run.json match the tables. Then the game
re-derives every contract row by its rules (for Trix: ``trixsim.games.trix.verify``): who
picked what, the tricks and cards taken, and each seat's points.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
from numba import njit

from trixsim.folders import holder
from trixsim.games import get_game
from trixsim.games.trix import rules
from trixsim.games.trix.rules import add_points, ends_game, winners_losers
from trixsim.jitcache import guard, sources
from trixsim.runfolder import (
    FORMAT,
    Chunk,
    Damage,
    RunMeta,
    damaged_chunks,
    read_run,
    unlisted_files,
)
from trixsim.types import CONTRACT_NAMES

# _chain compiles in the rules it calls: refresh its cache when they change
guard(__file__, sources(rules))


@dataclass
class Audit:
    """What a check found: problems (the run cannot be trusted) and notes."""

    path: Path
    games: int = 0
    contracts: int = 0
    chunks: int = 0
    problems: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        """No problem found."""
        return not self.problems


def check_run(out: Path | str) -> Audit:
    """Audit a run folder (RunFolderError when it is not one)."""
    out = Path(out)
    meta = read_run(out)
    audit = Audit(out)
    writer = holder(out)
    if writer:
        audit.notes.append(f"being written now by {writer}: the check may be out of date")
    audit.problems += [f"{f} is not listed in run.json (not a file of this run)"
                       for f in unlisted_files(out, meta)]
    damage = damaged_chunks(out, meta)
    audit.problems += [str(d) for d in damage]
    bad = [d.chunk for d in damage]
    for chunk in meta["chunks"]:
        if chunk not in bad:
            _check_chunk(out, chunk, audit)
    _check_plan(meta, audit)
    if meta.get("format") != FORMAT:
        from trixsim.games.trix.verify import LIMITS

        audit.notes.append(f"a run of format {meta.get('format')}: {LIMITS}")
    return audit


def rule_damage(out: Path | str, meta: RunMeta, skip: list[Chunk] = ()) -> list[Damage]:
    """The listed chunks (but ``skip``) whose tables break the rules or disagree with
    run.json, each with its first problem: what ``--resume`` plays again, so that a run
    whose checksums were made to match tampered tables is never called complete."""
    found = []
    for chunk in meta["chunks"]:
        if chunk in skip:
            continue
        audit = Audit(Path(out))
        _check_chunk(Path(out), chunk, audit)
        if audit.problems:
            where = (f"chunk lineup {chunk['lineup']} games {chunk['start']}.."
                     f"{chunk['stop'] - 1}: ")
            found.append(Damage(chunk, audit.problems[0].removeprefix(where)))
    return found


def _check_plan(meta: RunMeta, audit: Audit) -> None:
    planned = {tuple(j) for j in meta["plan"]}
    listed = {(c["lineup"], c["start"], c["stop"]) for c in meta["chunks"]}
    if listed - planned:
        audit.problems.append(f"{len(listed - planned)} listed chunk(s) are not in the plan")
    missing = planned - listed
    if missing and meta.get("complete"):
        audit.problems.append(f"run.json says complete but {len(missing)} planned chunk(s) "
                              "are not listed")
    elif missing:
        audit.notes.append(f"incomplete: {len(missing)} of {len(planned)} planned chunks "
                           "not played yet (trixsim run --resume completes it)")


def _check_chunk(out: Path, chunk: Chunk, audit: Audit) -> None:
    """Read one chunk's tables and check them against the rules and run.json."""
    import pyarrow.parquet as pq

    where = (f"chunk lineup {chunk['lineup']} games {chunk['start']}..{chunk['stop'] - 1}")
    c = pq.read_table(out / chunk["contracts_file"]).to_pandas()
    g = pq.read_table(out / chunk["games_file"]).to_pandas()
    audit.chunks += 1
    audit.games += len(g)
    audit.contracts += len(c)
    if list(g.game) != list(range(chunk["start"], chunk["stop"])) or len(c) != chunk["contracts"]:
        audit.problems.append(f"{where}: the tables hold other games or row counts than "
                              "run.json lists")
        return
    game = c.game.to_numpy(np.int64)
    number = c.number.to_numpy(np.int64)
    points = c[[f"points_{s}" for s in range(4)]].to_numpy(np.int64)
    totals = c[[f"totals_{s}" for s in range(4)]].to_numpy(np.int64)
    final = g[[f"final_{s}" for s in range(4)]].to_numpy(np.int64)
    played = g.contracts.to_numpy(np.int64)
    row, what = _chain(game, number, points, totals, chunk["start"], final, played)
    if row >= 0:
        gid = int(game[row]) if what < 2 else chunk["start"] + row
        audit.problems.append(f"{where}: game {gid}: {_WHAT[what]}")
        return
    win, lose = winners_losers(final)
    if not ((g[[f"winner_{s}" for s in range(4)]].to_numpy() == win).all()
            and (g[[f"loser_{s}" for s in range(4)]].to_numpy() == lose).all()):
        audit.problems.append(f"{where}: winners or losers do not match the final totals")
    sums = (final.sum(axis=0).tolist(), win.sum(axis=0).tolist(), lose.sum(axis=0).tolist())
    if sums != (chunk["final_sum"], chunk["wins"], chunk["losses"]):
        audit.problems.append(f"{where}: the tables' sums differ from those run.json "
                              "recorded")
    cols = {name: c[name].to_numpy() for name in c.columns if name != "contract"}
    cols["contract"] = _contract_ids(c.contract)
    for line in get_game().check_rows(cols, g.first_picker.to_numpy(np.int64),
                                      chunk["start"]):
        audit.problems.append(f"{where}: {line}")


def _contract_ids(column: object) -> np.ndarray:
    """A contract column (names, dictionary-encoded) as ids 0-6 (-1 for a name not known)."""
    import pandas as pd

    cat = pd.Categorical(column)
    ids = np.array([CONTRACT_NAMES.index(x) if x in CONTRACT_NAMES else -1
                    for x in cat.categories] + [-1], dtype=np.int64)
    return ids[np.where(cat.codes < 0, len(cat.categories), cat.codes)]


_WHAT = ("totals are not the previous totals plus the contract's points (1000 rule)",
         "contracts out of order or the game goes on after it should have ended",
         "ends before a total passed 1000 or 28 contracts were played",
         "final totals or contract count differ from its last contract")


@njit(cache=True)
def _chain(game: np.ndarray, number: np.ndarray, points: np.ndarray, totals: np.ndarray,
           first: int, final: np.ndarray, played: np.ndarray) -> tuple[int, int]:
    """The first broken row and what is wrong with it (an index into _WHAT), or (-1, -1).
    Rows are in (game, contract number) order, as every chunk file holds them."""
    n_games = final.shape[0]
    last = np.full(n_games, -1, dtype=np.int64)
    for r in range(game.shape[0]):
        k = game[r] - first
        new_game = r == 0 or game[r] != game[r - 1]
        if k < 0 or k >= n_games or number[r] != (1 if new_game else number[r - 1] + 1):
            return r, 1
        if not new_game:
            for s in range(4):
                if ends_game(totals[r - 1, s], 0):
                    return r, 1
        for s in range(4):
            if totals[r, s] != add_points(0 if new_game else totals[r - 1, s], points[r, s]):
                return r, 0
        last[k] = r
    for k in range(n_games):
        r = last[k]
        if r < 0 or number[r] != played[k]:
            return k, 3
        over = ends_game(0, number[r])
        for s in range(4):
            over |= ends_game(totals[r, s], 0)
            if final[k, s] != totals[r, s]:
                return k, 3
        if not over:
            return k, 2
    return -1, -1


__all__ = ["Audit", "check_run", "rule_damage"]
