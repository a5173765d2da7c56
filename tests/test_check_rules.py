"""``trixsim check`` re-derives every contract row by the rules: tampered tables whose totals,
finals, winners, run.json sums, sizes and checksums were all made consistent are caught with
the game, the contract and the rule in one line, and ``--resume`` plays such a chunk again
instead of calling the run complete."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.parquet as pq
import pytest
from click.testing import CliRunner

from trixsim.cli import cli
from trixsim.games.trix.rules import winners_losers
from trixsim.runfolder import digest, read_run, write_run_json

Edit = Callable[[pd.DataFrame], int]
"""Changes one row of a contracts table; returns its index."""


def _invoke(*args: object) -> tuple[int, str]:
    res = CliRunner().invoke(cli, [str(a) for a in args])
    return res.exit_code, res.output


@pytest.fixture(scope="module")
def played(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("rules") / "run"
    code, text = _invoke("run", "-n", 60, "-s", "heuristic-declare", "--seed", 3, "-j", 1,
                         "-o", out, "-q")
    assert code == 0, text
    return out


@pytest.fixture
def run_copy(played: Path, tmp_path: Path) -> Path:
    import shutil

    out = tmp_path / "run"
    shutil.copytree(played, out)
    return out


def _add(total: int, points: int) -> int:
    v = total + points
    return 0 if v == 1000 else v


def tamper(out: Path, edit: Edit) -> tuple[int, int, str]:
    """Apply ``edit`` to the first chunk's contracts, then make everything else agree with
    it: the totals chain, the finals, winners and losers, run.json's sums, sizes and
    checksums. Returns the edited row's game, contract number and contract."""
    meta = read_run(out)
    chunk = meta["chunks"][0]
    cpath, gpath = out / chunk["contracts_file"], out / chunk["games_file"]
    c, g = pq.read_table(cpath).to_pandas(), pq.read_table(gpath).to_pandas()
    row = edit(c)
    pts = c[[f"points_{s}" for s in range(4)]].to_numpy(np.int64)
    tot = np.zeros_like(pts)
    for r in range(len(c)):
        prev = [0] * 4 if c.number[r] == 1 else tot[r - 1]
        tot[r] = [_add(int(prev[s]), int(pts[r, s])) for s in range(4)]
    for s in range(4):
        c[f"totals_{s}"] = tot[:, s]
    last = c.groupby("game").tail(1).set_index("game")
    final = np.stack([last.loc[g.game, f"totals_{s}"].to_numpy() for s in range(4)], axis=1)
    win, lose = winners_losers(final)
    for s in range(4):
        g[f"final_{s}"], g[f"winner_{s}"], g[f"loser_{s}"] = final[:, s], win[:, s], lose[:, s]
    for df, path in ((c, cpath), (g, gpath)):
        pq.write_table(pa.Table.from_pandas(df, schema=pq.read_schema(path),
                                            preserve_index=False), path, compression="zstd")
    f = final.astype(np.float64)
    chunk.update(final_sum=f.sum(axis=0).tolist(), final_sq=(f ** 2).sum(axis=0).tolist(),
                 wins=win.sum(axis=0).tolist(), losses=lose.sum(axis=0).tolist())
    for table, path in (("contracts", cpath), ("games", gpath)):
        chunk["sha256"][table] = digest(path)
        chunk["bytes"][table] = path.stat().st_size
    write_run_json(out, meta)
    return int(c.game[row]), int(c.number[row]), str(c.contract[row])


def _ends_as_before(c: pd.DataFrame, i: int, src: int, dst: int, amount: int) -> bool:
    """Whether moving ``amount`` points from ``src`` to ``dst`` in row ``i`` leaves its game
    ending where it did (so only the contract's own rule can catch the change)."""
    rows = c.index[c.game == c.game[i]]
    tot = [0] * 4
    for r in rows:
        pts = [int(c.at[r, f"points_{s}"]) for s in range(4)]
        if r == i:
            pts[src] -= amount
            pts[dst] += amount
        tot = [_add(tot[s], pts[s]) for s in range(4)]
        over = max(tot) > 1000 or c.number[r] == 28
        if over != (r == rows[-1]):
            return False
    return True


def _move(contract: str, amount: int, dst_ok: Callable[[pd.Series, int], bool]) -> Edit:
    """Move ``amount`` points of a ``contract`` row from a seat to one that ``dst_ok``
    accepts, in a row where the game still ends as it did."""
    def edit(c: pd.DataFrame) -> int:
        for i, r in c.iterrows():
            if r.contract != contract:
                continue
            for src in range(4):
                for dst in range(4):
                    if src != dst and dst_ok(r, dst) and _ends_as_before(c, i, src, dst,
                                                                         amount):
                        c.at[i, f"points_{src}"] -= amount
                        c.at[i, f"points_{dst}"] += amount
                        return int(i)
        raise AssertionError(f"no {contract} row to tamper with")
    return edit


def _shift(contract: str, amount: int = 10) -> Edit:
    return _move(contract, amount, lambda r, s: True)


_ray_to_a_seat_without_kh = _move("ray", 30, lambda r, s: r[f"tricks_{s}"] == 0
                                  and r.kh_taker != s)
"""The issue's case: 30 ray points moved to a seat that took no K♥ and no trick."""


def _row(c: pd.DataFrame, contract: str, extra: Callable[[pd.Series], bool] = lambda r: True
         ) -> int:
    for i, r in c.iterrows():
        if r.contract == contract and extra(r):
            return int(i)
    raise AssertionError(f"no {contract} row to tamper with")


def _multiplier_3(c: pd.DataFrame) -> int:
    i = _row(c, "pli")
    c.at[i, "multiplier"] = 3
    return i


def _tricks_0_is_8(c: pd.DataFrame) -> int:
    i = _row(c, "damet", lambda r: r.tricks_0 != 8)
    c.at[i, "tricks_0"] = 8
    return i


CASES: dict[str, tuple[Edit, str]] = {
    "ray points to a seat without K♥": (_ray_to_a_seat_without_kh, "ray: +100 for taking K♥"),
    "multiplier 3": (_multiplier_3, "multiplier is not 2"),
    "tricks_0 = 8": (_tricks_0_is_8, "tricks do not add up to the tricks played"),
    **{f"{name} points shifted": (_shift(name), "points")
       for name in ("dineri", "damet", "pli", "farcha", "ray", "general")},
    "trix points shifted": (_shift("trix"), "-100 to the first out"),
}


@pytest.mark.parametrize("case", list(CASES))
def test_a_consistently_tampered_row_is_caught_by_the_rules(run_copy: Path, case: str) -> None:
    edit, rule = CASES[case]
    game, number, contract = tamper(run_copy, edit)
    code, text = _invoke("check", run_copy)
    assert code == 1, text
    line = next(x for x in text.splitlines() if x.startswith("problem:"))
    assert f"game {game}, contract {number} ({contract}): " in line, text
    assert rule in line, line
    assert "totals are not" not in text and "sums differ" not in text, text
    code, text = _invoke("run", "--resume", run_copy, "-j", 1, "-q")
    assert code == 0, text
    assert "already complete" not in text and "playing it again" in text, text
    assert _invoke("check", run_copy)[0] == 0


def test_a_format_1_run_is_still_read_checked_and_resumed(run_copy: Path) -> None:
    """A run written before the tables held the cards taken: check says all consistent
    and what it could not recompute; a resume adds chunks without the new columns."""
    import json

    meta = json.loads((run_copy / "run.json").read_text())
    for ch in meta["chunks"]:
        path = run_copy / ch["contracts_file"]
        t = pq.read_table(path)
        t = t.drop_columns([n for n in t.column_names if n.startswith("won_")
                            or n == "last_trick"])
        pq.write_table(t, path, compression="zstd")
        ch["sha256"]["contracts"], ch["bytes"]["contracts"] = digest(path), path.stat().st_size
    meta["format"] = "trixsim-run/1"
    meta["games"] += 20
    meta["plan"].append([0, 60, 80])
    meta["complete"] = False
    (run_copy / "run.json").write_text(json.dumps(meta))
    code, text = _invoke("run", "--resume", run_copy, "-j", 1, "-q")
    assert code == 0, text
    new = pq.read_schema(run_copy / "contracts" / "l000-g000000000060.parquet")
    assert "won_0" not in new.names
    code, text = _invoke("check", run_copy)
    assert code == 0 and "all consistent" in text, text
    assert "not recomputed" in text
