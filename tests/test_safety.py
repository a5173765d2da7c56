"""Nothing lost, nothing mixed: each reported fault of output folders, interruption, locks
and resume, reproduced, then held to the fixed behaviour."""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pandas as pd
import pytest
from click.testing import CliRunner

from trixsim.cli import cli
from trixsim.folders import MARKER, FolderLock
from trixsim.games.trix import GAME as TRIX_RULES
from trixsim.loading import load_seats
from trixsim.runner import RunConfig, read_run, run
from trixsim.sim import IntegrityError, play_batch


def _invoke(*args: str) -> tuple[int, str]:
    res = CliRunner().invoke(cli, list(args), catch_exceptions=False)
    return res.exit_code, res.output


def _run(out: Path, *extra: str) -> tuple[int, str]:
    return _invoke("run", "-n", "30", "-j", "1", "--batch-size", "10", "-s", "random",
                   "-o", str(out), *extra)


def _tables(out: Path) -> tuple[pd.DataFrame, pd.DataFrame]:
    return pd.read_parquet(out / "contracts"), pd.read_parquet(out / "games")


def _snapshot(folder: Path) -> dict[str, bytes]:
    return {str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*"))
            if p.is_file()}


# --force replaces only folders this tool created


def test_force_never_empties_the_current_folder(tmp_path: Path,
                                                monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "notes.txt").write_text("mine")
    monkeypatch.chdir(tmp_path)
    code, text = _invoke("run", "-n", "10", "-o", ".", "--force")
    assert code == 2 and "current folder" in text and text.count("\n") == 1
    assert (tmp_path / "notes.txt").read_text() == "mine"
    code, text = _invoke("run", "-n", "10", "-o", "..", "--force")
    assert code == 2 and "current folder" in text


def test_force_refuses_a_folder_it_did_not_create(tmp_path: Path) -> None:
    precious = tmp_path / "precious"
    precious.mkdir()
    (precious / "thesis.tex").write_text("years of work")
    before = _snapshot(precious)
    code, text = _run(precious, "--force")
    assert code == 2 and "not created by trixsim" in text
    assert _snapshot(precious) == before


def test_force_refuses_a_part_of_a_run(tmp_path: Path) -> None:
    run_dir = tmp_path / "D"
    assert _run(run_dir)[0] == 0
    before = _snapshot(run_dir)
    code, text = _run(run_dir / "contracts", "--force")
    assert code == 2 and text.count("\n") == 1
    assert _snapshot(run_dir) == before


def test_force_refuses_a_run_holding_foreign_files(tmp_path: Path) -> None:
    out = tmp_path / "r"
    assert _run(out)[0] == 0
    (out / "analysis.ipynb").write_text("{}")
    code, text = _run(out, "--force")
    assert code == 2 and "analysis.ipynb" in text
    assert (out / "analysis.ipynb").exists() and read_run(out)["complete"]


def test_force_replaces_a_run_it_created_whole(tmp_path: Path) -> None:
    out = tmp_path / "r"
    assert _run(out)[0] == 0
    code, text = _invoke("run", "-n", "12", "-j", "1", "-s", "random", "--seed", "4",
                         "-o", str(out), "--force")
    assert code == 0, text
    meta = read_run(out)
    assert meta["seed"] == 4 and meta["games"] == 12 and (out / MARKER).exists()
    assert sorted(_tables(out)[1].game) == list(range(12))
    assert [p.name for p in tmp_path.iterdir()] == ["r"]  # no temporary folders left


def test_report_never_replaces_its_input(tmp_path: Path) -> None:
    out = tmp_path / "r"
    assert _run(out)[0] == 0
    before = _snapshot(out)
    code, text = _invoke("report", str(out), "-o", str(out), "--force")
    assert code == 2 and "input" in text and text.count("\n") == 1
    code, text = _invoke("report", str(out), "-o", str(tmp_path), "--force")
    assert code == 2
    assert _snapshot(out) == before


# one writer at a time


def test_a_second_writer_is_refused_naming_the_holder(tmp_path: Path) -> None:
    out = tmp_path / "r"
    assert _run(out)[0] == 0
    before = _snapshot(out)
    with FolderLock(out):
        code, text = _run(out, "--force")
        assert code == 1 and "being written by pid" in text and str(os.getpid()) in text
        code, text = _invoke("run", "--resume", str(out))
        assert code == 1 and "being written by" in text
    assert {k: v for k, v in _snapshot(out).items() if "lock" not in k} == \
        {k: v for k, v in before.items() if "lock" not in k}


# interruption: prompt, keeps and lists every finished chunk, no orphans


def _start(out: Path, games: int = 400_000) -> subprocess.Popen:
    return subprocess.Popen([sys.executable, "-m", "trixsim", "run", "-n", str(games),
                             "-j", "2", "-q", "-s", "random", "-o", str(out)],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def _wait_for_chunks(out: Path, n: int, proc: subprocess.Popen) -> None:
    deadline = time.time() + 120
    while time.time() < deadline and proc.poll() is None:
        if (out / "games").is_dir() and len(list((out / "games").glob("l*.parquet"))) >= n:
            return
        time.sleep(0.05)
    raise AssertionError(f"no {n} chunks written: {proc.communicate()}")


def _children(pid: int) -> list[int]:
    out = subprocess.run(["pgrep", "-P", str(pid)], capture_output=True, text=True).stdout
    return [int(x) for x in out.split()]


def _running(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/status").read_text().split("State:")[1].split()[0]
    except (OSError, IndexError):
        return False
    return state not in ("Z", "X")


def _signal_masks(pid: int) -> dict[str, str]:
    """The process's ignored and caught signal masks, as /proc shows them."""
    lines = Path(f"/proc/{pid}/status").read_text().splitlines()
    return {k: v.strip() for k, _, v in (ln.partition(":") for ln in lines)
            if k in ("SigIgn", "SigCgt")}


def _listed_equals_present(out: Path) -> None:
    meta = read_run(out)
    for table in ("contracts", "games"):
        present = {f"{table}/{p.name}" for p in (out / table).glob("l*.parquet")}
        assert present == {c[f"{table}_file"] for c in meta["chunks"]}


@pytest.mark.slow
@pytest.mark.parametrize("sig, twice", [(signal.SIGINT, False), (signal.SIGINT, True),
                                        (signal.SIGTERM, False)])
def test_interrupt_stops_within_a_second_and_lists_every_finished_chunk(
        tmp_path: Path, sig: signal.Signals, twice: bool) -> None:
    out = tmp_path / "r"
    proc = _start(out)
    _wait_for_chunks(out, 2, proc)
    workers = _children(proc.pid)
    masks = _signal_masks(proc.pid)
    t0 = time.time()
    proc.send_signal(sig)
    if twice:
        time.sleep(0.05)
        proc.send_signal(sig)
    _, err = proc.communicate(timeout=20)
    # said in full when it fails: did the run end by the signal, and could it hear it?
    assert time.time() - t0 < 3, (proc.returncode, masks, err[-500:])
    assert proc.returncode in (130, -signal.SIGINT), err
    if not twice:
        assert proc.returncode == 130 and "interrupted" in err and "--resume" in err
    assert "Traceback" not in err
    time.sleep(0.3)
    assert not [w for w in workers if _running(w)]
    _listed_equals_present(out)
    assert not read_run(out)["complete"]
    code, text = _invoke("run", "--resume", str(out), "-j", "1")
    assert code == 0, text


@pytest.mark.slow
def test_workers_die_with_a_killed_main_process_and_write_nothing_more(tmp_path: Path) -> None:
    out = tmp_path / "r"
    proc = _start(out)
    _wait_for_chunks(out, 2, proc)
    workers = _children(proc.pid)
    assert workers
    proc.kill()
    proc.wait()
    time.sleep(1.0)
    assert not [w for w in workers if _running(w)]
    before = _snapshot(out)
    time.sleep(2.0)
    assert _snapshot(out) == before
    _listed_equals_present(out)


# --resume and readers verify what they trust


@pytest.fixture
def finished(tmp_path: Path) -> Path:
    out = tmp_path / "done"
    assert _run(out)[0] == 0
    return out


def _damage(out: Path, how: str) -> None:
    a, b = sorted((out / "games").glob("l*.parquet"))[:2]
    if how == "truncated":
        a.write_bytes(a.read_bytes()[:100])
    elif how == "deleted":
        a.unlink()
    elif how == "swapped":
        tmp = a.with_suffix(".x")
        a.rename(tmp)
        b.rename(a)
        tmp.rename(b)
    elif how == "flipped":
        data = bytearray(a.read_bytes())
        data[len(data) // 2] ^= 1
        a.write_bytes(bytes(data))


@pytest.mark.parametrize("how", ["truncated", "deleted", "swapped", "flipped"])
def test_resume_replays_damaged_chunks(finished: Path, tmp_path: Path, how: str) -> None:
    whole = _tables(finished)
    _damage(finished, how)
    code, text = _invoke("check", str(finished))
    assert code == 1 and "games 0..9" in text
    code, text = _invoke("report", str(finished), "-o", str(tmp_path / "rep"))
    assert code == 1 and "games 0..9" in text and not (tmp_path / "rep").exists()
    code, text = _invoke("run", "--resume", str(finished), "-j", "1")
    assert code == 0 and "playing it again" in text and "already complete" not in text
    for x, y in zip(_tables(finished), whole, strict=True):
        pd.testing.assert_frame_equal(x, y)
    assert _invoke("check", str(finished))[0] == 0


def test_unlisted_files_are_refused(finished: Path, tmp_path: Path) -> None:
    extra = finished / "games" / "l000-g000000000100.parquet"
    shutil.copy(finished / "games" / "l000-g000000000000.parquet", extra)
    code, text = _invoke("run", "--resume", str(finished))
    assert code == 1 and "not listed" in text
    assert extra.exists()
    code, text = _invoke("report", str(finished), "-o", str(tmp_path / "rep"))
    assert code == 1 and "not listed" in text
    code, text = _invoke("check", str(finished))
    assert code == 1 and "not listed" in text


def test_report_refuses_the_same_run_twice_and_says_incomplete(finished: Path,
                                                                tmp_path: Path) -> None:
    code, text = _invoke("report", str(finished), str(finished / "." / ""), "-o",
                         str(tmp_path / "rep"))
    assert code == 2 and "twice" in text
    meta = read_run(finished)
    meta["chunks"] = meta["chunks"][:1]
    meta["complete"] = False
    (finished / "run.json").write_text(json.dumps(meta))
    for f in sorted((finished / "games").glob("l*.parquet"))[1:]:
        f.unlink()
    for f in sorted((finished / "contracts").glob("l*.parquet"))[1:]:
        f.unlink()
    code, text = _invoke("report", str(finished), "-o", str(tmp_path / "rep"))
    assert code == 0, text
    assert "incomplete" in text
    assert "incomplete" in (tmp_path / "rep" / "report.md").read_text()


def test_check_verifies_without_changing(finished: Path) -> None:
    before = _snapshot(finished)
    code, text = _invoke("check", str(finished))
    assert code == 0 and "30 games" in text and "totals" in text, text
    assert _snapshot(finished) == before


def test_check_finds_totals_that_do_not_add_up(finished: Path) -> None:
    """A contract table whose totals are not the previous totals plus the points
    (consistent checksums: the run itself recorded wrong numbers)."""
    import pyarrow.parquet as pq

    from trixsim.runfolder import digest, write_run_json

    path = sorted((finished / "contracts").glob("l*.parquet"))[0]
    table = pq.read_table(path).to_pandas()
    table.loc[3, "totals_1"] -= 300
    pq.write_table(pd_to_arrow(table, pq.read_schema(path)), path, compression="zstd")
    meta = read_run(finished)
    meta["chunks"][0]["sha256"]["contracts"] = digest(path)
    meta["chunks"][0]["bytes"]["contracts"] = path.stat().st_size
    write_run_json(finished, meta)
    code, text = _invoke("check", str(finished))
    assert code == 1 and "totals" in text and f"game {table.game[3]}" in text


def pd_to_arrow(df: pd.DataFrame, schema: object) -> object:
    import pyarrow as pa

    return pa.Table.from_pandas(df, schema=schema, preserve_index=False)


# a full disk is a data error with a clear message, and run.json stays whole


def test_full_disk_mid_run(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import errno

    real = Path.write_bytes
    calls = {"n": 0}

    def write_bytes(self: Path, data: bytes) -> int:
        if self.suffix == ".parquet":  # a chunk file
            calls["n"] += 1
            if calls["n"] > 2:  # the first chunk's two files fit, then the disk is full
                raise OSError(errno.ENOSPC, "No space left on device")
        return real(self, data)

    monkeypatch.setattr(Path, "write_bytes", write_bytes)
    out = tmp_path / "r"
    code, text = _run(out)
    assert code == 1 and "disk is full" in text and text.count("\n") == 1
    meta = read_run(out)
    assert len(meta["chunks"]) == 1 and not meta["complete"]
    assert not list(out.glob(".run.json.tmp*")) and not list(out.glob("*/.tmp-*"))
    monkeypatch.setattr(Path, "write_bytes", real)
    assert _invoke("run", "--resume", str(out), "-j", "1")[0] == 0


def test_full_disk_at_start_leaves_nothing(tmp_path: Path,
                                           monkeypatch: pytest.MonkeyPatch) -> None:
    import errno

    import trixsim.runfolder as rf

    def no_space(*args: object, **kwargs: object) -> None:
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(rf.os, "fsync", no_space)
    code, text = _run(tmp_path / "r")
    assert code == 1 and "disk is full" in text
    assert list(tmp_path.iterdir()) == []


# the loop audits the totals a strategy could reach


CHEAT = '''
import sys
from trixsim.strategy import Strategy


class Cheat(Strategy):
    """Walks up the caller's frames to the live state and takes 300 off its own total."""
    name = "cheat"

    def pick(self, obs):
        frame = sys._getframe(1)
        while frame is not None and "st" not in frame.f_locals:
            frame = frame.f_back
        st = frame.f_locals["st"]
        for g in range(st.batch_size):
            st.totals[g, int(st.turn[g])] -= 300
        return super().pick(obs)
'''


def test_a_strategy_that_changes_its_total_stops_the_run(tmp_path: Path) -> None:
    bot = tmp_path / "cheat.py"
    bot.write_text(CHEAT)
    with pytest.raises(IntegrityError, match="changed outside the rules"):
        play_batch(load_seats(f"{bot}:Cheat,random,random,random", "trix"), 1, range(20),
                   game=TRIX_RULES)
    code, text = _invoke("run", "-n", "20", "-j", "1", "-s", f"{bot}:Cheat,random,random,random",
                         "-o", str(tmp_path / "r"))
    assert code == 1 and "changed outside the rules" in text


def test_honest_games_pass_the_audit() -> None:
    st = play_batch(load_seats("heuristic,random,heuristic,random", "trix"), 5, range(200),
                    game=TRIX_RULES)
    # every game ended by the rules (a total above 1000 or 28 contracts); a total may
    # end far above 1000 (seat 1 of game 28 reaches 2290 on a pick-7 general, x4)
    assert ((st.totals.max(axis=1) > 1000) | (st.contract_no == 28)).all()


def test_run_api_still_plays_whole_runs(tmp_path: Path) -> None:
    summary = run(RunConfig(game="trix",
                            games=20, seed=1, lineups=("random",), batch_size=7), tmp_path / "x")
    assert summary.games == 20 and read_run(tmp_path / "x")["complete"]


def test_what_folders_hold_does_not_depend_on_what_was_imported() -> None:
    """``--force`` judges a report or tournament folder by ``trixsim.folders`` alone:
    before, the reports package added CSV tables and the tournament kind when imported,
    so a process that had not imported it refused its own report folders."""
    probe = ("import json, trixsim.folders as f; a = json.dumps(f.CONTENTS, sort_keys=True); "
             "import reports; print(a == json.dumps(f.CONTENTS, sort_keys=True), "
             "'tournament' in f.CONTENTS, '*.csv' in f.CONTENTS['report'])")
    out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True,
                         check=True).stdout.split()
    assert out == ["True", "True", "True"]
