"""The interactive table: one game, one decision at a time, same engine as the batch."""

from __future__ import annotations

import numpy as np
import pytest

from trixsim.games import get_game
from trixsim.games.trix import GAME as TRIX_RULES
from trixsim.games.trix import IllegalActionError
from trixsim.games.trix.types import PASS, PLACE
from trixsim.sim import play_batch
from trixsim.strategy import Strategy
from trixsim.table import Table

TRIX_GAME = get_game("trix")


def test_table_driven_by_hand_replays_the_batch_game() -> None:
    """Choosing, at every decision, what the batch's random strategy chose gives the same
    game: the table and the simulator share one engine."""
    final = play_batch([Strategy()] * 4, 9, [4], game=TRIX_RULES)
    table = Table(9, game_id=4, game=TRIX_GAME)
    bot = Strategy()
    while not table.over:
        legal = table.legal_actions()
        assert legal, "a running game always has a legal action"
        if legal == [PASS]:
            table.act(PASS)
            continue
        view = table.view(table.turn)
        assert view.seat[0] == table.turn and int(view.legal[0]) != 0
        action = int(getattr(bot, ("pick", "declare", "play", "place")[table.decision])(view)[0])
        assert action in legal
        table.act(action)
    assert table.totals == [int(t) for t in final.totals[0]]
    assert table.decision == -1 and table.legal_actions() == []


def test_waiting_seat_sees_only_its_own_hand() -> None:
    table = Table(3, first_picker=1, game=TRIX_GAME)
    assert table.turn == 1
    for seat in range(4):
        view = table.view(seat)
        assert int(view.seat[0]) == seat
        assert int(view.hand[0]) == int(table.state.hands[0, seat])
        assert (int(view.legal[0]) != 0) == (seat == 1)
        assert not np.any(view.won) and "hands" not in dir(view)


def test_bots_play_until_a_person_must_decide() -> None:
    table = Table(5, first_picker=0, game=TRIX_GAME)
    bots = {1: Strategy(), 2: Strategy(), 3: Strategy()}
    decisions = 0
    while not table.over:
        table.play_bots(bots)
        if table.over:
            break
        assert table.turn == 0
        assert not (table.decision == PLACE and table.legal_actions() == [PASS])
        table.act(table.legal_actions()[0])
        decisions += 1
    assert decisions > 0


def test_illegal_action_is_refused_and_nothing_changes() -> None:
    table = Table(2, game=TRIX_GAME)
    before = table.state.data.copy()
    wrong = 31 if 31 not in table.legal_actions() else 30
    assert table.why_illegal(wrong) == f"{wrong} is not a contract id (0-6)"
    assert table.why_illegal(table.legal_actions()[0]) is None
    with pytest.raises(IllegalActionError):
        table.act(wrong)
    assert np.array_equal(before, table.state.data)


def test_the_table_keeps_what_happened_filtered_per_seat() -> None:
    """The history is the events of the game; each seat sees its own hand in the deals
    and everything else; totals in the last contract end match the table's."""
    from trixsim.games.trix.events import ContractEnd, Deal, GameEnd

    table = Table(7, first_picker=2, game=TRIX_GAME)
    table.play_bots({s: Strategy() for s in range(4)})
    assert table.over
    deals = [e for e in table.history if isinstance(e, Deal)]
    ends = [e for e in table.history if isinstance(e, ContractEnd)]
    assert len(deals) == len(ends) and deals[0].picker == 2
    assert list(ends[-1].totals) == table.totals
    assert isinstance(table.history[-1], GameEnd)
    for seat in range(4):
        mine = table.history_for(seat)
        told = [e for e in table.history if not quiet_declaration_of_another(e, seat)]
        assert len(mine) == len(told)
        for e, full in zip(mine, told, strict=True):
            if isinstance(e, Deal):
                assert e.hands[seat] == full.hands[seat]
                assert all(h == 0 for s, h in enumerate(e.hands) if s != seat)
            else:
                assert e == full


def quiet_declaration_of_another(e: object, seat: int) -> bool:
    """A K-heart declaration left unmade by another seat: it would tell ``seat`` who
    holds the K-heart, so only the holder sees it."""
    from trixsim.games.trix.events import Declare

    return isinstance(e, Declare) and not e.declared and e.seat != seat


def test_a_quiet_k_heart_holder_stays_hidden_from_the_other_seats() -> None:
    """In a ray contract where the holder does not declare, only the holder's history
    says that a declaration was decided (reproduces the leak: every seat saw it)."""
    from trixsim.games.trix.events import Declare, Pick
    from trixsim.games.trix.types import DECLARE, RAY

    for seed in range(40):
        table = Table(seed, game=TRIX_GAME)
        table.act(RAY)
        if table.decision != DECLARE:
            continue
        holder = table.turn
        table.act(0)  # keep quiet
        assert any(isinstance(e, Declare) and not e.declared for e in table.history)
        for seat in range(4):
            mine = table.history_for(seat)
            assert any(isinstance(e, Pick) for e in mine)
            quiet = [e for e in mine if isinstance(e, Declare)]
            assert quiet == ([Declare(0, 0, holder, False)] if seat == holder else [])
        return
    raise AssertionError("no deal of the first 40 puts a K-heart declaration to its holder")
