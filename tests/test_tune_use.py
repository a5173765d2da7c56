"""What a newcomer meets in ``trixsim tune``: a default folder, a way out of a start outside
the bounds, a flag on a result at a bound, tuned.toml named for what it is, plots while it
runs, and a progress line that fits in 120 columns."""

from __future__ import annotations

import io
import json
from pathlib import Path

import click
import numpy as np
import pytest
from click.testing import CliRunner

from trixsim import tune as lib
from trixsim.cli import _Group
from trixsim.commands import tune as tune_cmd
from trixsim.loading import find_class, load_strategy

START = "heuristic:declare_margin=30,trix_by_pick=6"
BOUNDS = ["--param", "declare_margin=-100:60", "--param", "trix_by_pick=1:6"]
SMALL = [START, *BOUNDS, "--budget", 8 * 20 * 6, "--deals-per-iteration", 20,
         "--verify-deals", 40, "--seed", 3]


@pytest.fixture(scope="module")
def app() -> click.Group:
    group = _Group("trixsim")
    tune_cmd.register(group)
    return group


def invoke(app: click.Group, *args: object) -> click.testing.Result:
    return CliRunner().invoke(app, ["tune", *(str(a) for a in args)])


def test_out_defaults_to_a_new_folder_under_runs(app: click.Group, tmp_path: Path,
                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    res = invoke(app, *SMALL, "-j", 1)
    assert res.exit_code == 0, res.output
    (out,) = (tmp_path / "runs").iterdir()
    assert out.name.startswith("tune-") and (out / "verdict.json").exists()
    assert f"{Path('runs') / out.name}/" in res.output
    res = invoke(app, START, "--resume")
    assert res.exit_code == 2 and "--resume needs --out" in res.output


def test_a_start_outside_the_bounds_says_what_to_do(app: click.Group, tmp_path: Path) -> None:
    res = invoke(app, "heuristic:declare_margin=30", "--param", "declare_margin=-10:10",
                 "--budget", 10_000, "--out", tmp_path / "t")
    assert res.exit_code == 2
    line = res.output.strip()
    assert "outside its bounds -10:10" in line
    assert "--param declare_margin=-10:30" in line and "heuristic:declare_margin=0" in line
    assert not (tmp_path / "t").exists()


def test_a_value_on_a_bound_is_flagged() -> None:
    settings = lib.plan(START, {"declare_margin": (-100, 60), "trix_by_pick": (1, 6)},
                        8 * 10 * 4, 10, 0, 10, None, game="trix")
    tuner = lib.Tuner(settings)
    assert lib.on_bound(tuner, {"declare_margin": 60.0, "trix_by_pick": 3}) == ["declare_margin"]
    assert lib.on_bound(tuner, {"declare_margin": -20.0, "trix_by_pick": 1}) == ["trix_by_pick"]
    assert lib.on_bound(tuner, {"declare_margin": -20.0, "trix_by_pick": 3}) == []


def test_tuned_values_not_shown_better_are_not_called_best(app: click.Group,
                                                           tmp_path: Path) -> None:
    out = tmp_path / "t"
    res = invoke(app, "heuristic", "--param", "declare_margin=-100:60", "--param",
                 "trix_by_pick=1:6", *SMALL[5:], "--out", out)
    assert res.exit_code == 0, res.output
    verdict = json.loads((out / "verdict.json").read_text())
    assert not verdict["better"]  # the tuned defaults: 40 deals show no gain
    assert not (out / "best.toml").exists()
    assert verdict["file"] == "tuned.toml" and "tuned.toml, not best.toml" in verdict["verdict"]
    assert f"load the tuned values (not shown better) as heuristic@{out}/tuned.toml" in res.output
    s = load_strategy(f"heuristic@{out}/tuned.toml", "trix")
    assert s.declare_margin == verdict["tuned"]["declare_margin"]
    for n in verdict["on_bound"]:
        assert f"note: {n} = " in res.output and "bound" in res.output
    assert "trix_by_pick" in verdict["on_bound"]  # it starts at its lower bound and stays


def test_better_tuned_values_are_also_best_toml(tmp_path: Path,
                                                monkeypatch: pytest.MonkeyPatch) -> None:
    gain = {"mean": -5.0, "se": 1.0, "lo": -7.0, "hi": -3.0, "n": 40}
    real = lib.verify

    def better(*args: object, **kw: object) -> dict:
        v = real(*args, **kw)
        return {**v, "tuned_minus_start": gain, "better": True, "verdict": "better"}

    monkeypatch.setattr(lib, "verify", better)
    lib.tune(START, {"declare_margin": (-100, 60)}, 8 * 20 * 2, tmp_path / "t",
             deals_per_iteration=20, verify_deals=40, plots=False, game="trix")
    assert (tmp_path / "t" / "best.toml").read_text() == \
        (tmp_path / "t" / "tuned.toml").read_text()
    assert json.loads((tmp_path / "t" / "verdict.json").read_text())["file"] == "best.toml"


def test_plots_are_drawn_while_the_tuning_runs(tmp_path: Path) -> None:
    out = tmp_path / "t"
    seen = []

    def progress(k: int, total: int, values: dict, diff: float) -> None:
        seen.append((k, (out / "trajectories.png").exists()))

    lib.tune(START, {"declare_margin": (-100, 60)}, 8 * 20 * 3, out, deals_per_iteration=20,
             verify_deals=40, progress=progress, plot_every=0.0, game="trix")
    assert seen == [(1, False), (2, True), (3, True)]
    assert (out / "gain.png").read_bytes()[:4] == b"\x89PNG"


@pytest.mark.parametrize("total", [7, 12_345, 10_000_000])
def test_the_progress_line_fits_in_120_columns(total: int) -> None:
    values = {n: (123456.789 if p.type is float else -12345) for n, p in
              find_class("heuristic", "trix").params.items()}
    bar = tune_cmd.progress_bar(total, 0)
    bar.file = io.StringIO()
    bar.update(max(1, total // 3))
    left = total - bar.pos
    bar.eta_known, bar.avg = True, [86400.0 * 30 / left]  # a month left: "30d 00:00:00"
    bar.label = tune_cmd.progress_label(total // 3, total, values, -1234.5)
    line = bar.format_progress_line()
    assert "d " in line, line  # the time left is shown
    assert len(line) <= 120, (len(line), line)
    assert line.startswith(f"iteration {total // 3}/{total}, diff -1234.5: ")
    assert np.isfinite(len(line))
