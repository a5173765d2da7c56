"""``trixsim check`` on every kind of folder trixsim writes, without changing it.

A run or comparison folder is audited in full (``trixsim.audit.check_run``). A tournament
folder: its tournament.json, then every pair's run folder as a run. A tuning folder: its
state.json, history.csv holding exactly the finished iterations, tuned.toml (and best.toml
when the verdict shows the tuned values better) loading as the tuned strategy, and the
verdict when the tuning finished. A report folder holds nothing
recorded to re-derive: it is checked for files trixsim does not write there. Every folder
is also checked for entries trixsim does not write in a folder of its kind.
"""

from __future__ import annotations

import json
import tomllib
from pathlib import Path

from trixsim.audit import Audit, check_run
from trixsim.folders import foreign_entries, kind_of
from trixsim.runfolder import RunFolderError


def check_folder(path: Path | str) -> tuple[str, Audit]:
    """(the folder's kind, what the check found); RunFolderError when it is no folder
    trixsim wrote."""
    path = Path(path)
    if not path.is_dir():
        raise RunFolderError(f"{path} is not a folder trixsim wrote (no such folder)")
    kind = kind_of(path)
    if (path / "run.json").exists() or kind in ("run", "compare"):
        kind = kind if kind in ("run", "compare") else "run"
        audit = check_run(path)
    elif (path / "tournament.json").exists() or kind == "tournament":
        kind, audit = "tournament", _tournament(path)
    elif (path / "state.json").exists() or kind == "tune":
        kind, audit = "tune", _tune(path)
    elif kind == "report":
        audit = Audit(path)
    else:
        raise RunFolderError(f"{path} is not a folder trixsim wrote (no run.json, "
                             "tournament.json or state.json, no marker)")
    if kind_of(path) is not None:
        audit.problems += [f"{name}: not a file trixsim writes in a {kind} folder"
                           for name in foreign_entries(path, kind)
                           if not name.startswith(("contracts/", "games/", "pair-"))]
    return kind, audit


def game_of_folder(path: Path | str) -> str | None:
    """The game a run, comparison, tournament or tuning folder plays, as its own file
    says (folders from before games had names: Trix); None for a report folder or one
    whose file cannot be read (``check_folder`` reports that)."""
    path = Path(path)
    try:
        if (path / "run.json").exists():
            from trixsim.runfolder import game_name, read_run

            return game_name(read_run(path))
        for name in ("tournament.json", "state.json"):
            if (path / name).exists():
                data = json.loads((path / name).read_text(encoding="utf-8"))
                where = data if name == "tournament.json" else data["settings"]
                return str(where.get("game", "trix"))
    except (OSError, ValueError, KeyError, TypeError, AttributeError, RunFolderError):
        return None
    return None


def _tournament(path: Path) -> Audit:
    """tournament.json and every pair as a run."""
    from trixsim.reports.tournament import TournamentError, read_settings

    audit = Audit(path)
    try:
        settings = read_settings(path)
    except TournamentError as exc:
        audit.problems.append(str(exc))
        return audit
    pairs = settings.get("pairs", [])
    if "ranking" not in settings:
        audit.notes.append("no ranking yet: the tournament did not finish (trixsim "
                           f"tournament --resume {path} completes it)")
    for name in pairs:
        pair = path / name
        if not pair.exists():
            audit.notes.append(f"{name}: not played yet")
            continue
        try:
            sub = check_run(pair)
        except RunFolderError as exc:
            audit.problems.append(f"{name}: {exc}")
            continue
        audit.chunks += sub.chunks
        audit.games += sub.games
        audit.rows += sub.rows
        audit.checked = sub.checked
        audit.problems += [f"{name}: {p}" for p in sub.problems]
        audit.notes += [f"{name}: {n}" for n in sub.notes]
    return audit


def _tune(path: Path) -> Audit:
    """state.json, history.csv, tuned.toml (and best.toml when the verdict names it) and
    verdict.json agree."""
    from trixsim.loading import StrategyLoadError, load_strategy
    from trixsim.tune import BEST, TUNED
    from trixsim.tune.files import TuneError, read_state

    audit = Audit(path)
    try:
        state = read_state(path)
        done = int(state["iteration"])
        total = int(state["settings"]["iterations"])
    except (TuneError, KeyError, TypeError, ValueError) as exc:
        audit.problems.append(f"state.json: {exc}")
        return audit
    try:
        lines = (path / "history.csv").read_text(encoding="utf-8").splitlines()
        rows = [line.split(",", 1)[0] for line in lines[1:] if line]
        if rows != [str(k) for k in range(done)]:
            audit.problems.append(f"history.csv holds iterations {rows[:3]}..., not the "
                                  f"{done} state.json counts")
    except OSError:
        audit.problems.append("history.csv is missing")
    files = [TUNED] if done else []
    verdict = path / "verdict.json"
    if verdict.exists():
        try:
            decided = json.loads(verdict.read_text(encoding="utf-8"))
            decided["tuned_minus_start"]
            if decided.get("better"):
                files.append(BEST)
        except (OSError, ValueError, KeyError):
            audit.problems.append("verdict.json is unreadable")
    for file in files:
        try:
            name = tomllib.loads((path / file).read_text(encoding="utf-8"))["strategy"]
            load_strategy(f"{name}@{path / file}", state["settings"].get("game", "trix"))
        except (OSError, tomllib.TOMLDecodeError, StrategyLoadError, KeyError) as exc:
            audit.problems.append(f"{file} does not load: {str(exc)[:120]}")
    if (path / BEST).exists() and BEST not in files:
        audit.problems.append(f"{BEST} is there but the verdict does not show the tuned "
                              "values better")
    elif done >= total:
        audit.notes.append("no verdict yet: the verification did not finish (trixsim tune "
                           "--resume completes it)")
    else:
        audit.notes.append(f"incomplete: {done} of {total} iterations (trixsim tune "
                           "--resume continues it)")
    audit.games = done
    return audit


__all__ = ["check_folder"]
