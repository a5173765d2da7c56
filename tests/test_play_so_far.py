"""Terminal play shows the running points of the contract being played (diamonds, queens,
tricks, the K♥ taken so far), and ``score`` shows them too."""

from __future__ import annotations

import random

import pytest

from trixsim.games import get_game
from trixsim.games.trix.cards import DIAMOND_MASK, mask_of
from trixsim.games.trix.events import ContractEnd, Deal, Pick, Trick
from trixsim.games.trix.types import DINERI, GENERAL, PLAY, PLI, TRIX
from trixsim.loading import load_strategy
from trixsim.table import Table
from trixsim.terminal import Session
from trixsim.terminal.trix import points_so_far

TRIX_GAME = get_game("trix")


def _contracts(seed: int) -> list[tuple[int, int, int, int, list, tuple]]:
    """Each trick contract of a random game: contract, picker, pick, declared, its tricks
    ((winner, cards)), and the engine's points at its end."""
    t = Table(seed, game_id=0, game=TRIX_GAME)
    rnd = random.Random(seed)
    while not t.over:
        t.act(rnd.choice(t.legal_actions()))
    out, cur = [], None
    for e in t.history_for(0):
        if isinstance(e, Deal):
            cur = {"picker": e.picker, "pick": e.contract // 4 + 1, "tricks": [],
                   "declared": -1}
        elif isinstance(e, Pick):
            cur["contract"] = e.choice
        elif type(e).__name__ == "Declare" and e.declared:
            cur["declared"] = e.seat
        elif isinstance(e, Trick):
            cur["tricks"].append((e.winner, e.cards))
        elif isinstance(e, ContractEnd) and cur["contract"] != TRIX:
            out.append((cur["contract"], cur["picker"], cur["pick"], cur["declared"],
                        cur["tricks"], e.points))
    return out


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_points_so_far_at_the_end_are_the_contracts_points(seed: int) -> None:
    """At a contract's last trick the running points are the engine's, except where the
    all-eight rules of the end apply (8 diamonds or 8 tricks to one seat)."""
    checked = 0
    for contract, picker, pick, declared, tricks, points in _contracts(seed):
        by = {s: [c for w, cards in tricks if w == s for c in cards] for s in range(4)}
        eight = any(sum(1 for w, _ in tricks if w == s) == 8
                    or mask_of(by[s]) & DIAMOND_MASK == DIAMOND_MASK for s in range(4))
        if eight and contract in (DINERI, PLI, GENERAL):
            continue
        got, _ = points_so_far(contract, picker, pick, declared, tricks)
        assert tuple(got) == tuple(points), (contract, tricks)
        checked += 1
    assert checked >= 10


def test_status_and_score_show_the_contract_so_far() -> None:
    t = Table(4, game_id=0, game=TRIX_GAME)
    bot = load_strategy("heuristic", "trix")
    bots = {s: bot for s in (1, 2, 3)}
    said: list[str] = []
    session = Session(t, 0, bots, ["you", "h", "h", "h"], say=said.append)
    rnd = random.Random(0)
    # play until seat 0 must play a card after at least two tricks of a trick contract
    while True:
        t.play_bots(bots)
        v = t.view(0)
        tricks = [e for e in t.history_for(0) if isinstance(e, Trick)
                  and e.contract == int(v.contract_no[0])]
        if (t.decision == PLAY and int(v.contract[0]) != TRIX and len(tricks) >= 2
                and t.turn == 0):
            break
        t.act(rnd.choice(t.legal_actions()))
    session.status()
    name = ["Dineri", "Damet", "Pli", "Farcha", "Ray", "General"][int(v.contract[0])]
    line = next(x for x in said if x.startswith(f"{name} so far: you "))
    expect, _ = points_so_far(int(v.contract[0]), int(v.picker[0]),
                              int(v.contract_no[0]) // 4 + 1, int(v.declared[0]),
                              [(e.winner, e.cards) for e in tricks])
    assert line.split("   (")[0] == f"{name} so far: " + session.names.row(expect)
    said.clear()
    session.score()
    assert said[0].endswith("(before this contract)") and said[1] == line
