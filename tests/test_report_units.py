"""The report's K♥ declaration verdict only for matched pairs, and the declaration plot in
the summary's unit (points per game)."""

from __future__ import annotations

from pathlib import Path

import pytest
from trixsim.reports import verdict_plots
from trixsim.reports.pairing import MATCHED, read_pairs, run_ids
from trixsim.reports.tables import open_run
from trixsim.reports.verdicts import summary_rows

from trixsim.runner import RunConfig, run


@pytest.fixture(scope="module")
def paired(tmp_path_factory: pytest.TempPathFactory):
    """Seat only pairs (a rotated mixed lineup) and a matched one (one seat changed)."""
    root = tmp_path_factory.mktemp("runs")
    run(RunConfig(game="trix",
                  games=40, seed=5, lineups=("heuristic,random,heuristic-declare,random",),
                  rotate=True, workers=1, batch_size=40), root / "seat")
    run(RunConfig(game="trix",
                  games=40, seed=6, lineups=("heuristic", "heuristic-declare,heuristic,"
                                             "heuristic,heuristic"),
                  workers=1, batch_size=40), root / "matched")
    runs = [open_run(root / "seat"), open_run(root / "matched")]
    p, _ = read_pairs(runs, run_ids(runs), ["heuristic", "heuristic-declare", "random"])
    return p


def test_an_unmatched_pair_gets_no_declaration_verdict(paired) -> None:
    rows = {r[0]: r for r in summary_rows(paired)}
    for (a, b), how in paired.method.items():
        cell = rows[f"`{a}` vs `{b}`"][5]
        if how == MATCHED:
            assert cell != "– (not matched)"
        else:
            assert cell == "– (not matched)"
    assert MATCHED in paired.method.values() and set(paired.method.values()) != {MATCHED}


def test_declaration_plot_uses_points_per_game_of_matched_pairs(paired, tmp_path: Path,
                                                                monkeypatch) -> None:
    calls = []
    real = verdict_plots.forest

    def spy(panels, labels, colours, title, xlabel, out, name, cols=2):
        calls.append((name, panels, labels, xlabel))
        return real(panels, labels, colours, title, xlabel, out, name, cols)

    monkeypatch.setattr(verdict_plots, "forest", spy)
    verdict_plots.draw(paired, tmp_path)
    paired.aspects.verdict_plots(paired, tmp_path, verdict_plots.choose(paired))
    name, panels, labels, xlabel = next(c for c in calls if c[0] == "verdict_declaration.png")
    assert "per game" in xlabel and "per contract" not in xlabel
    matched = [ab for ab in paired.pairs() if paired.method[ab] == MATCHED]
    assert labels == [f"{a} vs {b}" for a, b in matched]
    summary = [paired.get(a, b, "kh", "decisions differ", "per game") for a, b in matched]
    assert panels[0][1] == summary  # the first panel is the summary's cell
    assert (tmp_path / "verdict_declaration.png").read_bytes()[:4] == b"\x89PNG"


def test_trix_names_its_report_plug_in_through_the_one_interface() -> None:
    """Trix's aspects come from its plug-in, as trump7's do: the core knows neither."""
    from trixsim.reports import trix_aspects
    from trixsim.reports.aspects import aspects_of

    from trixsim.games import get_game

    assert aspects_of(get_game("trix")) is trix_aspects
    for hook in ("SUMMARY", "details", "verdict_plots", "behaviour", "section",
                 "deal_data", "read_deals", "pair_deals", "compare_rows", "compare_section"):
        assert hasattr(trix_aspects, hook), hook
