"""A tuning folder's files: state.json (settings and theta), history.csv (a row per
iteration), best.toml (the tuned strategy, loadable as ``NAME@DIR/best.toml``)."""

from __future__ import annotations

import csv
import json
from pathlib import Path
from typing import Any

from trixsim.folders import write_atomic

FORMAT = "trixsim-tune/1"


class TuneError(ValueError):
    """A tuning that cannot run as asked (bad bounds, budget, folder); one line."""


def _toml_value(v: Any) -> str | None:
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, int | float):  # repr of inf and nan is TOML's spelling too
        return repr(v)
    return json.dumps(v, ensure_ascii=False) if isinstance(v, str) else None


def best_toml(strategy_name: str, values: dict[str, Any]) -> str:
    """A parameter file: ``strategy = "NAME"`` and a ``[params]`` table."""
    lines = [f"strategy = {json.dumps(strategy_name)}", "", "[params]"]
    for k, v in values.items():
        text = _toml_value(v)
        if text is not None:
            lines.append(f"{k} = {text}")
    return "\n".join(lines) + "\n"


def read_state(out: Path) -> dict[str, Any]:
    """state.json of a tuning folder; TuneError when it is not one."""
    path = Path(out) / "state.json"
    try:
        state = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        raise TuneError(f"{out} is not a tuning folder (no readable state.json)") from None
    if not isinstance(state, dict) or state.get("format") != FORMAT:
        raise TuneError(f"{path} is not a {FORMAT} file")
    return state


def read_history(out: Path) -> list[dict[str, float]]:
    """history.csv's rows, as numbers."""
    with open(Path(out) / "history.csv", newline="", encoding="utf-8") as fh:
        return [{k: float(v) for k, v in row.items()} for row in csv.DictReader(fh)]


def trim_history(out: Path, columns: list[str], done: int) -> None:
    """Keep the header and the rows of the ``done`` iterations state.json counts (an
    interrupted write may have left a row of the next one)."""
    path = Path(out) / "history.csv"
    rows: list[list[str]] = []
    if path.exists():
        with open(path, newline="", encoding="utf-8") as fh:
            rows = list(csv.reader(fh))
    body = rows[1:done + 1]
    if [(r[0], len(r)) for r in body] != [(str(k), len(columns)) for k in range(done)]:
        raise TuneError(f"{path} does not hold the {done} finished iterations")
    lines = [",".join(columns)] + [",".join(r) for r in body]
    write_atomic(path, "\n".join(lines) + "\n")
