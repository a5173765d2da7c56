"""Duplicate pairing and verdicts on small hand-made tables whose answers are known."""

from __future__ import annotations

import math
from pathlib import Path

import numpy as np
import pytest
from trixsim.reports import trix_aspects
from trixsim.reports.html import inline, render
from trixsim.reports.pairing import (
    DealTable,
    DuplicateRunError,
    check_duplicates,
    lineup_pairs,
    pair,
)
from trixsim.reports.stats import Z95, Estimate
from trixsim.reports.tables import RunFolder
from trixsim.reports.tournament import bradley_terry, pair_lineups
from trixsim.reports.trix_pairing import deal_data
from trixsim.reports.verdicts import verdict

from trixsim.games.trix.types import CONTRACT_NAMES

DINERI, TRIX = CONTRACT_NAMES.index("dineri"), CONTRACT_NAMES.index("trix")


def table(lineups: list[str], deals: int = 3, trix: bool = False) -> DealTable:
    """An empty table of ``deals`` deals for lineups given as 4-letter strings (``trix``:
    with Trix's own data of the block, as its aspects plug-in reads it)."""
    n = len(lineups)
    return DealTable(
        seed=1, first=0, lineups=[tuple(x) for x in lineups], runs=[["r"]] * n,
        finals=np.zeros((n, deals, 4), dtype=np.float32),
        data=deal_data(n, deals) if trix else None)


def test_lineups_differing_in_one_seat_are_matched() -> None:
    matched, seat = lineup_pairs([tuple("ABBB"), tuple("BBBB"), tuple("BABB"),
                                  tuple("CDBB")])
    assert (0, 1, 0) in matched and (1, 2, 1) in matched
    assert (0, 2, 0) not in matched  # differ in two seats
    assert (0, 2, 0) in seat and (0, 2, 1) in seat
    # a table of one strategy is never seat-paired: its totals say how the table plays
    assert not [p for p in seat if 1 in p[:2]]


def test_matched_differences_are_per_deal_with_intervals_over_deals() -> None:
    t = table(["ABBB", "BBBB", "CBBB"])
    t.finals[0, :, 0] = [100, 200, 300]
    t.finals[1, :, 0] = [150, 260, 290]
    t.finals[2, :, 0] = [100, 100, 100]
    p = pair([t], ["A", "B", "C"])
    assert p.pairs() == [("A", "B"), ("A", "C"), ("B", "C")]
    assert set(p.method.values()) == {"matched"}
    e = p.get("A", "B", "total", "", "final")
    d = np.array([-50, -60, 10])
    assert e.n == 3 and e.mean == pytest.approx(d.mean())
    assert e.se == pytest.approx(d.std(ddof=1) / math.sqrt(3))
    # the order of the display decides the sign: B − C, not C − B
    assert p.get("B", "C", "total", "", "final").mean == pytest.approx((50 + 160 + 190) / 3)
    # a deal missing in one game of the pair is left out
    t.finals[1, 2, 0] = np.nan
    assert p.get("A", "B", "total", "", "final").n == 3
    assert pair([t], ["A", "B", "C"]).get("A", "B", "total", "", "final").n == 2


def test_aspects_split_the_difference() -> None:
    t = table(["ABBB", "BBBB"], trix=True)
    d = t.data
    t.finals[0, :, 0] = [100, 200, 300]
    t.finals[1, :, 0] = [150, 260, 290]
    d.own[0, :, 0, DINERI] = [20, 0, 10]
    d.own[1, :, 0, DINERI] = [40, 10, 10]
    d.table[0, :, 0, DINERI] = [30, 30, 30]  # the other three seats together
    # trix: A at picks 1, 2, 6; B at 2, 2, 3 -> A earlier, same pick, A later
    d.trix_pick[0, :, 0] = [1, 2, 6]
    d.trix_pick[1, :, 0] = [2, 2, 3]
    # K♥ in ray (contract number 4) on deal 0, seat 0 holds it: A declares, B does not
    d.kh[0, 0, 3], d.kh[1, 0, 3] = 0 * 8 + 0 * 2 + 1, 0
    d.kh_own[0, 0, 3], d.kh_own[1, 0, 3] = -50, 100
    p = pair([t], ["A", "B"], aspects=trix_aspects)
    assert p.get("A", "B", "contract", "dineri", "picker").mean == pytest.approx(-10)
    assert p.get("A", "B", "contract", "dineri", "table").mean == pytest.approx(10)
    assert p.get("A", "B", "trix", "A earlier", "share").mean == pytest.approx(1 / 3)
    later = p.get("A", "B", "trix", "A later", "final")
    assert later.n == 1 and later.mean == 10
    assert p.get("A", "B", "trix", "", "pick diff").mean == pytest.approx((-1 + 0 + 3) / 3)
    assert p.get("A", "B", "trix", "timing differs", "final").mean == pytest.approx(-20)
    holder = p.get("A", "B", "kh", "ray: only A declares", "holder")
    assert holder.n == 1 and holder.mean == -150
    assert p.get("A", "B", "kh", "ray: only A declares", "share").mean == 1
    assert p.get("A", "B", "kh", "decisions differ", "per game").mean == pytest.approx(-50)
    assert p.get("A", "B", "kh", "ray: both declare", "holder").n == 0


def test_rotations_fall_back_to_seat_pairs() -> None:
    t = table(["ABCD", "BCDA"], deals=2)
    t.finals[0] = [[10, 20, 30, 40], [0, 0, 0, 0]]
    t.finals[1] = [[50, 60, 70, 80], [0, 0, 0, 0]]
    p = pair([t], ["A", "B", "C", "D"])
    assert p.method[("A", "B")] == "seat"
    # seat 0: A 10 vs B 50 on deal 0, 0 vs 0 on deal 1
    assert p.get("A", "B", "total", "", "final").mean == pytest.approx(-20)
    # seat 3: D (row 0) against A (row 1): A − D = 80 − 40
    assert p.get("A", "D", "total", "", "final").mean == pytest.approx(20)
    assert ("A", "C") not in p.method  # never in the same seat on a deal


def _run(name: str, seed: int, first: int, games: int, lineups: list[str]) -> RunFolder:
    meta = {"seed": seed, "first_game": first, "games": games, "lineups": lineups}
    return RunFolder(Path("/runs") / name, meta, (), ())


def test_duplicate_inputs_are_refused() -> None:
    a = _run("a", 5, 0, 100, ["x,x,x,x", "y,x,x,x"])
    with pytest.raises(DuplicateRunError, match="given twice"):
        check_duplicates([a, _run("a", 5, 0, 100, ["z,z,z,z"])])
    with pytest.raises(DuplicateRunError, match=r"games 50\.\.99"):
        check_duplicates([a, _run("b", 5, 50, 100, ["y,x,x,x"])])
    # later games of the same seed, another seed, or other lineups: different games
    check_duplicates([a, _run("c", 5, 100, 100, ["x,x,x,x"]),
                      _run("d", 6, 0, 100, ["x,x,x,x"]), _run("e", 5, 0, 100, ["z,x,x,x"])])


def test_verdict_names_the_better_strategy_only_when_the_interval_excludes_zero() -> None:
    e = Estimate(100, -5.0, 1.0)
    assert verdict(e, "a", "b") == f"**a** by 5.0 [{5 - Z95:.1f}, {5 + Z95:.1f}]"
    assert verdict(Estimate(100, 5.0, 1.0), "a", "b").startswith("**b** by 5.0")
    assert verdict(Estimate(100, 1.0, 1.0), "a", "b").startswith("cannot tell")
    assert verdict(Estimate(0, math.nan, math.nan), "a", "b") == "no data"
    assert verdict(Estimate(100, 0.0, 0.0), "a", "b") == "no difference on any deal"


def test_bradley_terry_on_the_elo_scale() -> None:
    r = bradley_terry(np.array([[0, 76], [24, 0]]), prior=0)
    assert r[0] - r[1] == pytest.approx(400 * math.log10(76 / 24), rel=1e-6)
    assert r.sum() == pytest.approx(0)
    r = bradley_terry(np.array([[0, 60, 90], [40, 0, 70], [10, 30, 0]]))
    assert r[0] > r[1] > r[2]
    assert np.isfinite(bradley_terry(np.array([[0, 50], [0, 0]]))).all()


def test_a_pair_plays_each_strategy_in_each_seat_against_the_other() -> None:
    assert pair_lineups("a", "b") == ("a,b,b,b", "b,a,b,b", "b,b,a,b", "b,b,b,a",
                                      "b,a,a,a", "a,b,a,a", "a,a,b,a", "a,a,a,b",
                                      "a,a,a,a", "b,b,b,b")
    matched, _ = lineup_pairs([tuple(x.split(",")) for x in pair_lineups("a", "b")])
    assert len(matched) == 8


def test_html_renders_inline_markdown_and_a_table_of_contents() -> None:
    assert inline("`a*b*` **x** *y* [t](u) <i>") == ('<code>a*b*</code> <strong>x</strong> '
                                                    '<em>y</em> <a href="u">t</a> &lt;i&gt;')
    page = render("T", [("h", 2, "One"), ("p", "`k`"), ("h", 3, "Two"), ("h", 2, "One")])
    assert "href='#one'" in page and "href='#two'" in page and "href='#one-2'" in page
    assert "<h2 id='one'>One</h2>" in page and "<p><code>k</code></p>" in page
    assert "text-align:left" in page


def test_reading_by_blocks_of_deals_gives_the_same_figures(tmp_path: Path) -> None:
    """Runs are paired a block of deals at a time (memory bounded whatever the games):
    any block size gives what one block of every deal gives, per-deal values included,
    with games split across two runs and two seeds."""
    from trixsim.reports.pairing import read_pairs, run_ids
    from trixsim.reports.tables import open_run

    from trixsim.runner import RunConfig, run

    lineups = ("heuristic,random,random,random", "random,random,random,random",
               "random,heuristic,random,random")
    for name, seed, first in (("a", 3, 0), ("b", 3, 70), ("c", 4, 0)):
        run(RunConfig(game="trix", games=70, seed=seed, lineups=lineups, workers=1, batch_size=25,
                      first_game=first), tmp_path / name)
    runs = [open_run(tmp_path / n) for n in "abc"]
    order = ["heuristic", "random"]
    whole, w_lineups = read_pairs(runs, run_ids(runs), order, keep_deals=True)
    assert whole.method == {("heuristic", "random"): "matched"}
    assert whole.get("heuristic", "random", "total", "", "final").n == 210
    for block in (1, 13, 69):
        parts, p_lineups = read_pairs(runs, run_ids(runs), order, keep_deals=True,
                                      block=block)
        assert sorted(parts.keys()) == sorted(whole.keys()) and parts.method == whole.method
        for key in whole.keys():
            a, b = whole.get(*key), parts.get(*key)
            assert a.n == b.n and a.mean == pytest.approx(b.mean, abs=1e-9)
            assert (a.se == pytest.approx(b.se, abs=1e-9)) or (math.isnan(a.se)
                                                               and math.isnan(b.se))
        assert np.array_equal(parts.deal_values("heuristic", "random"),
                              whole.deal_values("heuristic", "random"))
        assert [(ls.seed, ls.lineup, ls.runs, ls.games) for ls in p_lineups] == \
            [(ls.seed, ls.lineup, ls.runs, ls.games) for ls in w_lineups]
        for x, y in zip(p_lineups, w_lineups, strict=True):
            for (s, k, e), (s2, k2, e2) in zip(x.estimates(), y.estimates(), strict=True):
                assert (s, k, e.n) == (s2, k2, e2.n)
                assert e.mean == pytest.approx(e2.mean) and e.se == pytest.approx(e2.se)
    # the per-deal values are the totals of the matched games, deal by deal
    d = whole.deal_values("heuristic", "random")
    assert d.size == 210 and np.isclose(d.mean(), whole.get("heuristic", "random", "total",
                                                             "", "final").mean)
