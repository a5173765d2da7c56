"""Verify a run folder without changing it: what ``trixsim check`` reports.

Beyond the chunk checks every reader makes (present, size, checksum, nothing unlisted),
the audit reads every table of the run's game, checks that each chunk holds the games
run.json lists, asks the game to re-derive the tables by its rules
(``Game.verify_tables``; Trix: ``trixsim.games.trix.chunkcheck``, trump7:
``trixsim.games.trump7.verify``), and checks that the winners and losers match the final
scores and that the sums recorded in run.json match the tables.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from trixsim.folders import holder
from trixsim.game import Game
from trixsim.runfolder import (
    FORMAT,
    Chunk,
    Damage,
    RunMeta,
    damaged_chunks,
    game_of,
    read_run,
    unlisted_files,
)


@dataclass
class Audit:
    """What a check found: problems (the run cannot be trusted) and notes."""

    path: Path
    games: int = 0
    rows: int = 0
    """Rows of the tables other than ``games`` (Trix: contracts)."""
    chunks: int = 0
    checked: str = "the tables by the rules"
    """What the game's check covered (its ``check_summary`` with the row count)."""
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
    game = game_of(meta)
    for chunk in meta["chunks"]:
        if chunk not in bad:
            _check_chunk(out, chunk, audit, game)
    _check_plan(meta, audit)
    audit.checked = game.check_summary.format(rows=audit.rows)
    limits = getattr(game, "format_limits", {}).get(meta.get("format"))
    if meta.get("format") != FORMAT and limits:
        audit.notes.append(f"a run of format {meta.get('format')}: {limits}")
    return audit


def rule_damage(out: Path | str, meta: RunMeta, skip: list[Chunk] = ()) -> list[Damage]:
    """The listed chunks (but ``skip``) whose tables break the rules or disagree with
    run.json, each with its first problem: what ``--resume`` plays again, so that a run
    whose checksums were made to match tampered tables is never called complete."""
    found = []
    game = game_of(meta)
    for chunk in meta["chunks"]:
        if chunk in skip:
            continue
        audit = Audit(Path(out))
        _check_chunk(Path(out), chunk, audit, game)
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


def _check_chunk(out: Path, chunk: Chunk, audit: Audit, game: Game) -> None:
    """Read one chunk's tables and check them against run.json and the game's rules."""
    import pyarrow.parquet as pq

    where = (f"chunk lineup {chunk['lineup']} games {chunk['start']}..{chunk['stop'] - 1}")
    tables = {t: pq.read_table(out / chunk[f"{t}_file"]).to_pandas()  # type: ignore[literal-required]
              for t in game.table_schemas}
    g = tables["games"]
    audit.chunks += 1
    audit.games += len(g)
    audit.rows += sum(len(t) for name, t in tables.items() if name != "games")
    if list(g.game) != list(range(chunk["start"], chunk["stop"])):
        audit.problems.append(f"{where}: the tables hold other games or row counts than "
                              "run.json lists")
        return
    rows = {t: int(chunk.get(t, 0)) for t in game.table_schemas  # type: ignore[misc]
            if t != "games"}
    problems = game.verify_tables(tables, chunk["start"], chunk["stop"], rows)
    if problems:
        audit.problems += [f"{where}: {line}" for line in problems]
        return
    final = g[[f"{game.score_prefix}_{s}" for s in range(game.n_seats)]].to_numpy(np.int64)
    win, lose = game.winners_losers(final)
    if not ((g[[f"winner_{s}" for s in range(game.n_seats)]].to_numpy() == win).all()
            and (g[[f"loser_{s}" for s in range(game.n_seats)]].to_numpy() == lose).all()):
        audit.problems.append(f"{where}: winners or losers do not match the final scores")
    sums = (final.sum(axis=0).tolist(), win.sum(axis=0).tolist(), lose.sum(axis=0).tolist())
    if sums != (chunk["final_sum"], chunk["wins"], chunk["losses"]):
        audit.problems.append(f"{where}: the tables' sums differ from those run.json "
                              "recorded")


__all__ = ["Audit", "check_run", "rule_damage"]
