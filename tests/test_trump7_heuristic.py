"""trump7's ``heuristic``: compiled and stepwise play agree, its choices follow its rules,
it beats random play on duplicate deals, and it is listed for its games only."""

from __future__ import annotations

import json

import numpy as np
import pytest
from click.testing import CliRunner
from trixsim.strategies import _trump7_kernels as K
from trixsim.strategies.trump7_heuristic import Trump7BidHeuristic, Trump7Heuristic
from trump7_helpers import act, table

from trixsim.cli import cli
from trixsim.games import get_game
from trixsim.games.trump7.cards import parse_card
from trixsim.games.trump7.state import COL
from trixsim.loading import StrategyLoadError, load_strategy
from trixsim.sim import play_batch


@pytest.mark.parametrize("game", ["trump7", "trump7-bid"])
def test_compiled_and_stepwise_play_the_same_games(game: str) -> None:
    g = get_game(game)
    h = load_strategy("heuristic:lead_trumps=3,honour_guard=1", game)
    seats = [h, load_strategy("random", game), h, load_strategy("heuristic", game)]
    a = play_batch(seats, 11, range(300), path="compiled", game=g)
    b = play_batch(seats, 11, range(300), path="stepwise", game=g)
    assert (a.data == b.data).all()


def test_each_game_gets_its_own_heuristic() -> None:
    assert type(load_strategy("heuristic", "trump7")) is Trump7Heuristic
    assert type(load_strategy("heuristic", "trump7-bid")) is Trump7BidHeuristic
    assert "bid_shade" not in Trump7Heuristic.params  # no bid in trump7
    with pytest.raises(StrategyLoadError, match="has no parameter 'bid_shade'"):
        load_strategy("heuristic:bid_shade=2.0", "trump7")
    out = CliRunner().invoke(cli, ["strategies", "--game", "trump7", "--json"]).output
    assert {(s["name"], s["game"]) for s in json.loads(out)} == {
        ("heuristic", "trump7"), ("pimc", "trump7"), ("random", None)}


def _row(st: object) -> np.ndarray:
    return np.ascontiguousarray(st.data[0])  # type: ignore[attr-defined]


def _decide(st: object, params: dict | None = None, bid: bool = False) -> str | int:
    cls = Trump7BidHeuristic if bid else Trump7Heuristic
    p = cls(**(params or {})).policy_params()
    g = get_game("trump7-bid" if bid else "trump7")
    s = _row(st)
    legal = int(g.legal_action_mask(st)[0])
    a = K.decide_row(s, legal, int(s[COL["hands"] + s[COL["turn"]]]), p)
    return a if bid else g.action_name(0, a)


HANDS = ["AC KC 2C 3D 4D 5H 6S", "QC 2D 5D 7D 9H 10H JS", "3C 4C AD KD 2H 3H 4S",
         "5C 6C 7C 8C 9C 10C JC"]


def stock(hands: list[str], turned: str = "4H") -> str:
    """Every card not in ``hands``, ``turned`` last (its suit is trumps)."""
    held = {c for h in hands for c in h.split()} | {turned}
    rest = [r + s for s in "CDHS" for r in ("2 3 4 5 6 7 8 9 10 J Q K A".split())
            if r + s not in held]
    return " ".join([*rest, turned])


def test_it_bids_from_its_trumps_and_side_aces() -> None:
    st = table(HANDS, stock(HANDS), game_id=3, bidding=True)  # dealer 3: seat 0 bids first
    trump = int(st.trump[0])
    assert trump == parse_card("4H") // 13  # hearts
    # seat 0: one trump (5H), one side ace (AC), one side king (KC)
    est = 1 * 0.8 + 1 * 0.7 + 1 * 0.3
    assert _decide(st, bid=True) == int(np.floor(est * 1.5 - 1.0 + 0.5))
    assert _decide(st, {"bid_shade": 9.0}, bid=True) == 0


def test_it_cashes_a_sure_winner_and_plays_the_lowest_winner_last() -> None:
    st = table(HANDS, stock(HANDS), game_id=3)
    assert _decide(st) == "AC"  # the ace of clubs: nobody can beat it
    assert _decide(st, {"lead_boss": 0.0}) == "2C"  # else low from the longest side suit
    act(st, "2C", "QC", "4C")  # seat 3 last: lowest club that wins
    assert _decide(st) == "5C"


def test_it_trumps_a_trick_only_when_worth_the_risk() -> None:
    hands = ["3D 4D 5D 6D 7D 8D 9D", "2S 3S 4S 5S 6S 7S 8S", "2H 3H 2C 3C 4C 5C 6C",
             "AC KC QC JC 10C 9C 8C"]
    st = table(hands, stock(hands), game_id=3)  # seat 0 leads; hearts are trumps
    act(st, "9D", "2S")  # seat 2 is void in diamonds and holds 2H and 3H
    # the trick is worth 1, less 0.3 for the one seat after: 0.7
    assert _decide(st, {"trump_threshold": 0.7}) == "2H"  # the cheapest trump that wins
    assert _decide(st) == "2C"  # below the default threshold (1.0): discard low
    assert _decide(st, {"trump_threshold": 0.7, "overtrump_risk": 0.5}) == "2C"


def test_heuristic_beats_random_on_duplicate_deals(tmp_path: object) -> None:
    out = tmp_path / "cmp"  # type: ignore[operator]
    res = CliRunner().invoke(cli, ["compare", "--game", "trump7", "heuristic", "random",
                                   "-n", "400", "-j", "1", "-q", "--no-plots", "-o",
                                   str(out)])
    assert res.exit_code == 0, res.output
    diff = json.loads((out / "compare.json").read_text())["diff"]
    assert diff["lo"] > 0, diff


def test_a_trump7_bid_report_shows_the_bids(tmp_path: object) -> None:
    out, rep = tmp_path / "cmp", tmp_path / "rep"  # type: ignore[operator]
    runner = CliRunner()
    res = runner.invoke(cli, ["compare", "--game", "trump7-bid", "heuristic", "random", "-n",
                              "200", "-j", "1", "-q", "--no-plots", "-o", str(out)])
    assert res.exit_code == 0, res.output
    assert runner.invoke(cli, ["report", str(out), "-o", str(rep)]).exit_code == 0
    text = (rep / "report.md").read_text()
    section = text[text.index("\n## Bidding\n"):]  # strategy, bid, tricks, exact, short, ...
    rows = {line.split(" | ")[0].strip("| `"): line.split(" | ")
            for line in section.splitlines() if line.startswith("| `")
            and line.count(" | ") == 8}
    short = {name: float(cells[4].split("%")[0]) for name, cells in rows.items()}
    assert short["heuristic"] < short["random"]  # random bids 6.5 tricks on average
