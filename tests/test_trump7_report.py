"""trump7's aspects in a report: bidding, trump use and lead choices, with paired verdicts
in the game's direction and their plots, from a plug-in the game names."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from click.testing import CliRunner
from trixsim.reports import trump7_aspects as t7
from trixsim.reports.aspects import aspects_of
from trixsim.reports.pairing import MATCHED, Paired
from trixsim.reports.stats import Moments
from trixsim.reports.verdicts import summary_aspects, summary_rows

from trixsim.cli import cli
from trixsim.games import get_game


def _compare_and_report(tmp_path: Path, game: str) -> tuple[str, Path]:
    out, rep = tmp_path / "cmp", tmp_path / "rep"
    res = CliRunner().invoke(cli, ["compare", "--game", game, "heuristic", "random", "-n",
                                   "300", "-j", "1", "-q", "--no-plots", "-o", str(out)])
    assert res.exit_code == 0, res.output
    res = CliRunner().invoke(cli, ["report", str(out), "-o", str(rep)])
    assert res.exit_code == 0, res.output
    return (rep / "report.md").read_text(), rep


def _row(text: str, start: str) -> list[str]:
    """The cells of the first table row that starts with ``start``."""
    line = next(x for x in text.splitlines() if x.startswith(start))
    return [c.strip() for c in line.strip("|").split("|")]


def test_the_game_names_its_plug_in() -> None:
    assert aspects_of(get_game("trump7")) is t7 and aspects_of(get_game("trump7-bid")) is t7
    # each game its own plug-in: Trix's is not trump7's
    assert aspects_of(get_game("trix")).__name__ == "trixsim.reports.trix_aspects"


def test_a_trump7_bid_report_judges_bidding_trump_use_and_leads(tmp_path: Path) -> None:
    text, rep = _compare_and_report(tmp_path, "trump7-bid")
    head = _row(text, "| pair (A vs B) |")
    assert head[3:] == ["overall", "bidding", "trump use", "lead choices"]
    row = _row(text, "| `heuristic` vs `random` | 300 | matched |")
    # higher is better: the heuristic's small bids cost little, random's large ones a lot
    assert row[3].startswith("**heuristic** by") and row[4].startswith("**heuristic** by")
    assert row[5].startswith("**heuristic** by")  # it keeps more of the trump honours
    for section in ("### Bidding", "### Trump use", "### Lead choices", "## Bidding",
                    "## Trump use", "## Lead choices"):
        assert f"\n{section}\n" in text, section
    assert _row(text, "| `heuristic` vs `random` (matched) | **heuristic** by")
    for png in ("verdict_bidding.png", "verdict_trumps.png", "verdict_leads.png",
                "trump7_bidding.png", "trump7_trumps.png", "trump7_leads.png"):
        assert (rep / png).read_bytes()[:8] == b"\x89PNG\r\n\x1a\n", png
        assert f"]({png})" in text
    bids = _row(text, "| `random` | ")  # the bidding table comes first
    assert len(bids) == 9 and float(bids[1].split()[0]) > float(bids[2].split()[0])


def test_plain_trump7_has_no_bidding(tmp_path: Path) -> None:
    text, rep = _compare_and_report(tmp_path, "trump7")
    assert _row(text, "| pair (A vs B) |")[3:] == ["overall", "trump use", "lead choices"]
    assert "## Bidding" not in text and "### Bidding" not in text
    assert not (rep / "verdict_bidding.png").exists()
    assert not (rep / "trump7_bidding.png").exists()


def _paired(diff: float, higher: bool) -> Paired:
    """Two strategies whose per-deal A − B is ``diff`` ± 1 on every plug-in measure."""
    moments = {}
    for key in [("total", "", "final"), *(k for _, k, _ in t7.SUMMARY)]:
        m = Moments()
        m.add(np.array([diff - 1, diff + 1] * 50))
        moments[("A", "B", *key)] = m
    return Paired(["A", "B"], moments, {("A", "B"): MATCHED}, higher_is_better=higher,
                  summary=t7.SUMMARY)


@pytest.mark.parametrize("higher, better", [(True, "A"), (False, "B")])
def test_the_plug_ins_verdicts_follow_the_games_direction(higher: bool, better: str) -> None:
    rows = summary_rows(_paired(2.5, higher))
    assert [name for name, _, _ in summary_aspects(_paired(2.5, higher))] == [
        "overall", "bidding", "trump use", "lead choices"]
    for cell in rows[0][3:]:
        assert cell.startswith(f"**{better}** by 2.5"), cell


def test_measures_point_the_right_way() -> None:
    """More points from the bid, more honours kept and more points per lead are larger
    measures (so a positive A − B is A better in trump7, higher is better)."""
    base = {c: np.zeros((2, 4)) for c in t7.COLUMNS}
    base["tricks"][:] = 3
    base["bid"][:] = [[3, 3, 3, 3], [5, 5, 5, 5]]  # made exactly; short by 2
    base["points"][:] = [[6, 6, 6, 6], [-1, -1, -1, -1]]  # 2*3; 3 - 2*2
    base["honours"][:] = [[0, 5, 0, 0], [0, 0, 0, 0]]
    base["honours_lost"][:] = [[0, 0, 4, 0], [0, 0, 0, 0]]
    base["leads"][:] = [[2, 2, 0, 0], [4, 4, 4, 1]]
    base["lead_points"][:] = [[2, 7, 0, 0], [1, 0, 0, 0]]
    base["points"][0, 1] += 5
    m = t7.measures(base)
    assert m[("bidding", "", "bid points")][:, 0].tolist() == [3, -4]
    assert m[("bidding", "", "won by the bid")][:, 0].tolist() == [3, 0]
    assert m[("bidding", "", "lost by the bid")][:, 0].tolist() == [0, 4]
    assert m[("trump use", "", "honour balance")][0].tolist() == [0, 5, -4, 0]
    ppl = m[("leads", "", "points per lead")][0]
    assert ppl[:2].tolist() == [1.0, 3.5] and np.isnan(ppl[2:]).all()  # no lead: undefined
    nobid = dict(base, bid=np.full((2, 4), -1.0))
    assert np.isnan(t7.measures(nobid)[("bidding", "", "bid points")]).all()


def test_tables_without_the_counts_of_play_still_report(tmp_path: Path) -> None:
    """trump7 tables written before the counts of play: check passes, the report judges
    the bid and says why trump use and leads are missing."""
    import pyarrow.parquet as pq

    from trixsim.games.trump7.tallies import TALLIES
    from trixsim.runfolder import data_digest, encode_table, read_run, write_run_json

    out, rep = tmp_path / "cmp", tmp_path / "rep"
    res = CliRunner().invoke(cli, ["compare", "--game", "trump7-bid", "heuristic", "random",
                                   "-n", "60", "-j", "1", "-q", "--no-plots", "-o", str(out)])
    assert res.exit_code == 0, res.output
    meta = read_run(out)
    for chunk in meta["chunks"]:
        path = out / chunk["games_file"]
        blob = encode_table(pq.read_table(path).drop(
            [f"{k}_{s}" for k in TALLIES for s in range(4)]))
        path.write_bytes(blob)
        chunk["sha256"]["games"], chunk["bytes"]["games"] = data_digest(blob), len(blob)
    write_run_json(out, meta)
    assert CliRunner().invoke(cli, ["check", str(out)]).exit_code == 0
    res = CliRunner().invoke(cli, ["report", str(out), "-o", str(rep)])
    assert res.exit_code == 0, res.output
    text = (rep / "report.md").read_text()
    assert _row(text, "| pair (A vs B) |")[3:] == ["overall", "bidding"]
    assert "have no counts of play" in text and "## Trump use" not in text
    assert sorted(p.name for p in rep.glob("trump7_*.png")) == ["trump7_bidding.png"]
