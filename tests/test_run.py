"""`trixsim run`: tables, lineups and rotation, reproducibility, resume, bad input."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from click.testing import CliRunner

from trixsim.cli import cli
from trixsim.games.trix import GAME as TRIX_RULES
from trixsim.games.trix.outcomes import CONTRACT_COLUMNS, GAME_COLUMNS, OutcomeLog, expand
from trixsim.games.trix.types import CONTRACT_NAMES
from trixsim.loading import load_seats
from trixsim.runner import RunConfig, expand_lineups, plan, read_run, run
from trixsim.sim import StrategyError, play_batch

FLAKY_BOT = '''
import os
import numpy as np
from trixsim.strategy import Strategy

class Flaky(Strategy):
    """Random, but refuses to play game 30 or later while the marker file exists."""
    name = "flaky"
    observes = None

    def play(self, obs):
        if os.path.exists(os.environ["TRIXSIM_TEST_MARKER"]) and (obs.game >= 30).any():
            raise RuntimeError("marker present")
        return super().play(obs)
'''


def _invoke(*args: str) -> tuple[int, str]:
    res = CliRunner().invoke(cli, list(args), catch_exceptions=False)
    return res.exit_code, res.output


def _tables(out: Path) -> tuple[pd.DataFrame, pd.DataFrame]:
    return pd.read_parquet(out / "contracts"), pd.read_parquet(out / "games")


def test_run_writes_documented_tables(tmp_path: Path) -> None:
    out = tmp_path / "r"
    code, text = _invoke("run", "-n", "60", "--seed", "3", "-j", "1", "-s", "random",
                         "-o", str(out))
    assert code == 0, text
    assert "60 games" in text and "contracts/s" in text
    c, g = _tables(out)
    assert list(c.columns) == expand(CONTRACT_COLUMNS)
    assert list(g.columns) == expand(GAME_COLUMNS)
    assert len(g) == 60 and sorted(g.game) == list(range(60))
    assert len(c) == g.contracts.sum()
    assert set(c.contract.astype(str)) <= set(CONTRACT_NAMES)
    for gid, rows in c.groupby("game"):
        rows = rows.sort_values("number")
        assert list(rows.number) == list(range(1, len(rows) + 1))
        tot = [0, 0, 0, 0]
        for _, r in rows.iterrows():
            tot = [t + r[f"points_{s}"] for s, t in enumerate(tot)]
            tot = [0 if t == 1000 else t for t in tot]
            assert tot == [r[f"totals_{s}"] for s in range(4)]
        final = g[g.game == gid].iloc[0]
        assert tot == [final[f"final_{s}"] for s in range(4)]
        assert final[[f"winner_{s}" for s in range(4)]].tolist() == [t == min(tot) for t in tot]
        assert final[[f"loser_{s}" for s in range(4)]].tolist() == [t == max(tot) for t in tot]
    assert (c.pick == (c.number - 1) // 4 + 1).all()
    assert not ((c.pick == 7) & (c.contract == "trix")).any()
    assert not c.duplicated(["game", "picker", "contract"]).any()
    trix = c.contract == "trix"
    assert (c.multiplier[trix] == 1).all()
    assert (c.multiplier[~trix] == np.where(c.pick[~trix] == 7, 4, 2)).all()
    assert c.forced[c.pick == 7].all()
    assert (c.tricks_played[trix] == 0).all() and (c.trix_first[trix] >= 0).all()
    assert (c.trix_second[trix] >= 0).all() and (c.trix_first[~trix] == -1).all()
    tricks = c[[f"tricks_{s}" for s in range(4)]].sum(axis=1)
    assert (tricks == c.tricks_played).all()
    assert (c.kh_taker[c.contract.isin(["ray", "general"])] >= 0).all()
    assert (np.bitwise_count(c.picker_hand.to_numpy()) == 8).all()
    meta = read_run(out)
    assert meta["complete"] and meta["lineups"] == ["random,random,random,random"]
    assert sum(ch["stop"] - ch["start"] for ch in meta["chunks"]) == 60
    assert (out / "run.log").exists()


def test_outcome_columns_match_the_engine() -> None:
    """Declarations, the K♥ holder and taker, forced picks and trix exits as the engine
    saw them, from an independent observer of the same games."""
    seen: list[tuple[int, int, bool]] = []

    class Watch(OutcomeLog):
        def before_step(self, st, actions, legal) -> None:  # type: ignore[no-untyped-def]
            for g in np.flatnonzero(st.phase == 1):  # DECLARE
                seen.append((int(st.game_id[g]), int(st.contract_no[g]) + 1,
                             bool(actions[g] == 1)))

    log = Watch(40)
    play_batch(load_seats("random", "trix"), 8, range(40), observer=log, game=TRIX_RULES)
    c = log.contracts().to_pandas()
    asked = {(g, n): d for g, n, d in seen}
    rk = c[c.contract.isin(["ray", "general"])]
    for _, r in rk.iterrows():
        assert r.declared == asked[(r.game, r.number)]
    assert not c[~c.contract.isin(["ray", "general"])].declared.any()


def test_same_tables_whatever_workers_batch_size_and_start_method(tmp_path: Path) -> None:
    base = dict(games=45, seed=11, lineups=("random", "heuristic,random,random,random"))
    run(RunConfig(game="trix", **base, batch_size=45, workers=1), tmp_path / "a")
    run(RunConfig(game="trix", **base, batch_size=7, workers=2), tmp_path / "b")
    run(RunConfig(game="trix",
                  **base, batch_size=20, workers=2, start_method="spawn"), tmp_path / "c")
    a = _tables(tmp_path / "a")
    for other in ("b", "c"):
        for x, y in zip(a, _tables(tmp_path / other), strict=True):
            pd.testing.assert_frame_equal(x, y)


def test_rotate_plays_every_seating_on_the_same_deals(tmp_path: Path) -> None:
    lineups = expand_lineups(["heuristic,random,random,random"], rotate=True)
    assert lineups == [["heuristic", "random", "random", "random"],
                       ["random", "random", "random", "heuristic"],
                       ["random", "random", "heuristic", "random"],
                       ["random", "heuristic", "random", "random"]]
    assert expand_lineups(["random"], rotate=True) == [["random"] * 4]
    out = tmp_path / "rot"
    code, text = _invoke("run", "-n", "12", "-j", "1", "--rotate", "-s",
                         "heuristic,random,random,random", "-o", str(out))
    assert code == 0, text
    c, g = _tables(out)
    assert sorted(g.lineup.unique()) == [0, 1, 2, 3]
    seat_of = {lu: [g[(g.lineup == lu)][f"strategy_{s}"].iloc[0] for s in range(4)].index(
        "heuristic") for lu in range(4)}
    assert sorted(seat_of.values()) == [0, 1, 2, 3]
    first = g.groupby("game").first_picker.nunique()
    assert (first == 1).all()  # the same deal (first picker) in every seating
    hands = c[c.number == 1].groupby("game").picker_hand.nunique()
    assert (hands == 1).all()  # the first contract's deal is the same in every seating


def test_first_game_extends_a_run(tmp_path: Path) -> None:
    run(RunConfig(game="trix", games=20, seed=5, lineups=("random",)), tmp_path / "all")
    run(RunConfig(game="trix",
                  games=8, seed=5, lineups=("random",), first_game=12), tmp_path / "tail")
    a = _tables(tmp_path / "all")[1]
    b = _tables(tmp_path / "tail")[1]
    pd.testing.assert_frame_equal(a[a.game >= 12].reset_index(drop=True), b)


def test_plan_covers_every_game_of_every_lineup_once() -> None:
    cfg = RunConfig(game="trix", games=103, seed=0, lineups=("random",), batch_size=10, workers=3,
                    first_game=7)
    for n_lineups in (1, 3):
        parts = plan(cfg, n_lineups)
        for lu in range(n_lineups):
            flat = [g for lu2, a, b in parts if lu2 == lu for g in range(a, b)]
            assert flat == list(range(7, 110))
        assert max(b - a for _, a, b in parts) <= 10


def test_interrupted_run_keeps_its_chunks_and_resumes(tmp_path: Path,
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    bot = tmp_path / "flaky.py"
    bot.write_text(FLAKY_BOT)
    marker = tmp_path / "marker"
    marker.write_text("")
    monkeypatch.setenv("TRIXSIM_TEST_MARKER", str(marker))
    spec = f"{bot}:Flaky"
    out = tmp_path / "r"
    with pytest.raises(StrategyError):
        run(RunConfig(game="trix", games=60, seed=2, lineups=(spec,), batch_size=10), out)
    meta = read_run(out)
    assert not meta["complete"]
    assert [c["start"] for c in meta["chunks"]] == [0, 10, 20]
    assert sorted(p.name for p in (out / "games").iterdir()) == [
        "l000-g000000000000.parquet", "l000-g000000000010.parquet",
        "l000-g000000000020.parquet"]
    partial = _tables(out)[1]
    assert sorted(partial.game) == list(range(30))
    marker.unlink()
    code, text = _invoke("run", "--resume", str(out), "-j", "1")
    assert code == 0, text
    assert read_run(out)["complete"]
    run(RunConfig(game="trix",
                  games=60, seed=2, lineups=(spec,), batch_size=10), tmp_path / "whole")
    for x, y in zip(_tables(out), _tables(tmp_path / "whole"), strict=True):
        pd.testing.assert_frame_equal(x, y)


def test_cli_interrupted_run_message(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    bot = tmp_path / "flaky.py"
    bot.write_text(FLAKY_BOT)
    marker = tmp_path / "marker"
    marker.write_text("")
    monkeypatch.setenv("TRIXSIM_TEST_MARKER", str(marker))
    code, text = _invoke("run", "-n", "40", "-j", "1", "--batch-size", "10", "-s",
                         f"{bot}:Flaky", "-o", str(tmp_path / "r"))
    assert code == 1
    assert "marker present" in text and "finished chunks kept" in text
    assert "Traceback" not in text


def test_replay_a_game_of_a_run(tmp_path: Path) -> None:
    out = tmp_path / "r"
    assert _invoke("run", "-n", "6", "-j", "1", "-s", "random", "-o", str(out))[0] == 0
    code, text = _invoke("replay", "--run", str(out), "--game", "4")
    assert code == 0, text
    g = _tables(out)[1]
    final = g[g.game == 4].iloc[0]
    assert "final totals: " + "  ".join(f"{final[f'final_{s}']:>5}" for s in range(4)) in text
    code, text = _invoke("replay", "--run", str(out), "--game", "6")
    assert code == 2 and "0..5" in text


@pytest.mark.parametrize("args, needle", [
    (["-n", "0"], "--games"),
    (["-n", "-5"], "--games"),
    (["-s", "nosuchbot"], "nosuchbot"),
    (["-s", "random,random"], "strateg"),
    (["-s", "heuristic:nosuch=1"], "nosuch"),
    (["--batch-size", "0"], "--batch-size"),
    (["-j", "0"], "--workers"),
])
def test_bad_input_is_one_line_exit_2(tmp_path: Path, args: list[str], needle: str) -> None:
    code, text = _invoke("run", *args, "-o", str(tmp_path / "x"))
    assert code == 2
    assert needle in text and text.count("\n") == 1
    assert "Traceback" not in text
    assert not (tmp_path / "x").exists()


def test_resume_on_a_folder_that_is_not_a_run(tmp_path: Path) -> None:
    (tmp_path / "plain").mkdir()
    code, text = _invoke("run", "--resume", str(tmp_path / "plain"))
    assert code == 2 and "not a run folder" in text
    assert list((tmp_path / "plain").iterdir()) == []


def test_existing_output_is_kept_without_force(tmp_path: Path) -> None:
    out = tmp_path / "r"
    assert _invoke("run", "-n", "5", "-j", "1", "-s", "random", "-o", str(out))[0] == 0
    code, text = _invoke("run", "-n", "5", "-j", "1", "-o", str(out))
    assert code == 2 and "--force" in text
    assert read_run(out)["lineups"] == ["random,random,random,random"]
    code, text = _invoke("run", "-n", "5", "-j", "1", "-o", str(out), "--force")
    assert code == 0, text
    assert read_run(out)["lineups"] == ["heuristic,heuristic,heuristic,heuristic"]
    assert json.loads((out / "run.json").read_text())["complete"]


def test_unwritable_output_is_a_usage_error(tmp_path: Path) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("x")
    code, text = _invoke("run", "-n", "5", "-j", "1", "-o", str(blocker / "sub"))
    assert code == 2 and "cannot write" in text
    assert blocker.read_text() == "x"


def test_different_strategies_get_the_same_deals() -> None:
    """Two strategies compared on one seed see the same deal for the same contract number
    (the deal depends only on seed, game index and contract number), and the same first
    picker; only their own decisions differ."""

    class Deals(OutcomeLog):
        def __init__(self, batch: int) -> None:
            super().__init__(batch)
            self.deals: dict[tuple[int, int], list[int]] = {}

        def before_step(self, st, actions, legal) -> None:  # type: ignore[no-untyped-def]
            for g in np.flatnonzero(st.phase == 0):  # PICK: the hands are the fresh deal
                self.deals[(int(st.game_id[g]), int(st.contract_no[g]))] = [
                    int(h) for h in st.hands[g]]

    seen = []
    for specs in ("random", "heuristic", "heuristic-nodeclare,random,heuristic,random"):
        obs = Deals(12)
        st = play_batch(load_seats(specs, "trix"), 21, range(12), observer=obs, game=TRIX_RULES)
        seen.append((obs.deals, st.first_picker.tolist()))
    base_deals, base_first = seen[0]
    for deals, first in seen[1:]:
        assert first == base_first
        common = set(deals) & set(base_deals)
        assert len(common) >= 12 * 5
        assert all(deals[k] == base_deals[k] for k in common)
