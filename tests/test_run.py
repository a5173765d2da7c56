"""`trixsim run`: tables, reproducibility across workers and batch sizes, bad input."""

from __future__ import annotations

from pathlib import Path

import pandas as pd
import pytest
from click.testing import CliRunner

from trixsim.cli import cli
from trixsim.outcomes import CONTRACT_COLUMNS, GAME_COLUMNS
from trixsim.runner import RunConfig, chunks, run
from trixsim.types import CONTRACT_NAMES


def _expand(cols: dict[str, str]) -> list[str]:
    out: list[str] = []
    for name in cols:
        if ".." in name:
            stem = name.split("..")[0].rsplit("_", 1)[0]
            out += [f"{stem}_{s}" for s in range(4)]
        else:
            out.append(name)
    return out


def _invoke(*args: str) -> tuple[int, str]:
    res = CliRunner().invoke(cli, list(args), catch_exceptions=False)
    return res.exit_code, res.output


def test_run_writes_documented_tables(tmp_path: Path) -> None:
    out = tmp_path / "r"
    code, text = _invoke("run", "-n", "60", "--seed", "3", "-j", "1", "-o", str(out))
    assert code == 0, text
    assert "60 games" in text and "contracts/s" in text
    c = pd.read_parquet(out / "contracts.parquet")
    g = pd.read_parquet(out / "games.parquet")
    assert list(c.columns) == _expand(CONTRACT_COLUMNS)
    assert list(g.columns) == _expand(GAME_COLUMNS)
    assert len(g) == 60 and sorted(g.game_id) == list(range(60))
    assert len(c) == g.contracts.sum()
    assert set(c.contract.astype(str)) <= set(CONTRACT_NAMES)
    # totals are the running sum of points with the 1000 rule; final totals match
    for gid, rows in c.groupby("game_id"):
        rows = rows.sort_values("number")
        assert list(rows.number) == list(range(1, len(rows) + 1))
        tot = [0, 0, 0, 0]
        for _, r in rows.iterrows():
            tot = [t + r[f"points_{s}"] for s, t in enumerate(tot)]
            tot = [0 if t == 1000 else t for t in tot]
            assert tot == [r[f"totals_{s}"] for s in range(4)]
        final = g[g.game_id == gid].iloc[0]
        assert tot == [final[f"final_{s}"] for s in range(4)]
        assert final[[f"winner_{s}" for s in range(4)]].tolist() == [t == min(tot) for t in tot]
        assert final[[f"loser_{s}" for s in range(4)]].tolist() == [t == max(tot) for t in tot]
    # picks and pickers follow the rotation; trix never on pick 7
    assert (c.pick == (c.number - 1) // 4 + 1).all()
    assert not ((c.pick == 7) & (c.contract == "trix")).any()
    # every player uses each contract at most once
    assert not c.duplicated(["game_id", "picker", "contract"]).any()


def test_same_seed_same_tables_whatever_workers_and_batch(tmp_path: Path) -> None:
    cfg = dict(games=45, seed=11, strategies="random")
    run(RunConfig(**cfg, batch=45, workers=1), tmp_path / "a")
    run(RunConfig(**cfg, batch=7, workers=2), tmp_path / "b")
    for name in ("contracts.parquet", "games.parquet"):
        a = pd.read_parquet(tmp_path / "a" / name)
        b = pd.read_parquet(tmp_path / "b" / name)
        pd.testing.assert_frame_equal(a, b)


def test_first_game_extends_a_run(tmp_path: Path) -> None:
    run(RunConfig(games=20, seed=5, strategies="random", workers=1), tmp_path / "all")
    run(RunConfig(games=8, seed=5, strategies="random", workers=1, first_game=12),
        tmp_path / "tail")
    a = pd.read_parquet(tmp_path / "all" / "games.parquet")
    b = pd.read_parquet(tmp_path / "tail" / "games.parquet")
    pd.testing.assert_frame_equal(a[a.game_id >= 12].reset_index(drop=True), b)


def test_chunks_cover_every_game_once() -> None:
    cfg = RunConfig(games=103, seed=0, strategies="random", batch=10, workers=3, first_game=7)
    parts = chunks(cfg)
    flat = [g for a, b in parts for g in range(a, b)]
    assert flat == list(range(7, 110))


@pytest.mark.parametrize("args, needle", [
    (["-n", "0"], "--games"),
    (["-n", "-5"], "--games"),
    (["-s", "nosuchbot"], "nosuchbot"),
    (["-s", "random,random"], "strateg"),
    (["--batch", "0"], "--batch"),
    (["-j", "0"], "--workers"),
])
def test_bad_input_is_one_line_exit_2(tmp_path: Path, args: list[str], needle: str) -> None:
    code, text = _invoke("run", *args, "-o", str(tmp_path / "x"))
    assert code == 2
    assert needle in text
    assert "Traceback" not in text
    assert not (tmp_path / "x").exists()


def test_existing_output_is_kept_without_force(tmp_path: Path) -> None:
    out = tmp_path / "r"
    out.mkdir()
    (out / "keep.txt").write_text("precious")
    code, text = _invoke("run", "-n", "5", "-j", "1", "-o", str(out))
    assert code == 2 and "--force" in text
    assert (out / "keep.txt").read_text() == "precious"
    code, text = _invoke("run", "-n", "5", "-j", "1", "-o", str(out), "--force")
    assert code == 0, text
    assert not (out / "keep.txt").exists()
    assert (out / "games.parquet").exists()
    assert not [p for p in tmp_path.iterdir() if p.name.startswith(".")]


def test_unwritable_output_is_a_usage_error(tmp_path: Path) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("x")
    code, text = _invoke("run", "-n", "5", "-j", "1", "-o", str(blocker / "sub"))
    assert code == 2 and "cannot write" in text
    assert blocker.read_text() == "x"


def test_different_strategies_get_the_same_deals(tmp_path: Path) -> None:
    """Two strategies compared on one seed see the same deal for the same contract number
    (the deal depends only on seed, game index and contract number), and the same first
    picker; only their own decisions differ."""
    from trixsim.loading import load_seats
    from trixsim.outcomes import OutcomeLog
    from trixsim.sim import play_batch

    class Deals(OutcomeLog):
        def __init__(self, batch: int) -> None:
            super().__init__(batch)
            self.deals: dict[tuple[int, int], list[int]] = {}

        def before_step(self, st, actions) -> None:  # type: ignore[no-untyped-def]
            for g in range(st.batch_size):
                if st.phase[g] == 0:  # PICK: the hands are the fresh deal
                    key = (int(st.game_id[g]), int(st.contract_no[g]))
                    self.deals[key] = [int(h) for h in st.hands[g]]
            super().before_step(st, actions)

    seen = []
    for specs in ("random", "heuristic", "heuristic-nodeclare,random,heuristic,random"):
        obs = Deals(12)
        st = play_batch(load_seats(specs), 21, range(12), observer=obs)
        seen.append((obs.deals, st.first_picker.tolist()))
    base_deals, base_first = seen[0]
    for deals, first in seen[1:]:
        assert first == base_first
        common = set(deals) & set(base_deals)
        assert len(common) >= 12 * 5
        assert all(deals[k] == base_deals[k] for k in common)
