"""Events: what init and step report, consistent with the state and the rules, and
nothing changes when nobody asks for them."""

from __future__ import annotations

import numpy as np

from trixsim.games.trix import GAME as TRIX_RULES
from trixsim.games.trix import init, legal_action_mask, step
from trixsim.games.trix.events import (
    Card,
    ContractEnd,
    Deal,
    EventLog,
    GameEnd,
    Out,
    Pick,
    Place,
    Trick,
    decode,
)
from trixsim.games.trix.rules import add_points, trick_winner
from trixsim.games.trix.types import DONE, TRIX
from trixsim.loading import load_seats
from trixsim.sim import decide


def _play(seed: int, n: int, with_events: bool) -> tuple[object, list]:
    seats = load_seats("heuristic,random,random,heuristic", "trix")
    log = EventLog() if with_events else None
    st = init(seed, np.arange(n), events=log)
    events = decode(log.rows, st.game_id) if log else []
    legal = legal_action_mask(st)
    while (st.phase != DONE).any():
        legal = step(st, decide(st, seats, legal, game=TRIX_RULES), legal, events=log)
        if log:
            events += decode(log.rows, st.game_id)
    return st, events


def test_events_tell_the_whole_game() -> None:
    st, events = _play(3, 30, True)
    plain, _ = _play(3, 30, False)
    assert np.array_equal(st.data, plain.data)  # asking for events changes nothing
    for k, gid in enumerate(st.game_id.tolist()):
        mine = [e for e in events if e.game == gid]
        totals = [0, 0, 0, 0]
        deals = [e for e in mine if isinstance(e, Deal)]
        ends = [e for e in mine if isinstance(e, ContractEnd)]
        assert len(deals) == len(ends) == int(st.contract_no[k])
        for d in deals:
            assert np.bitwise_or.reduce(d.hands) == 0xFFFFFFFF
            assert sum(bin(h).count("1") for h in d.hands) == 32
        for end in ends:
            totals = [add_points(t, p) for t, p in zip(totals, end.points, strict=True)]
            assert list(end.totals) == totals
        assert isinstance(mine[-1], GameEnd) and list(mine[-1].totals) == totals
        assert totals == st.totals[k].tolist()
        for c in range(len(ends)):
            contract = [e for e in mine if e.contract == c]
            pick = next(e for e in contract if isinstance(e, Pick))
            if pick.choice == TRIX:
                outs = [e.seat for e in contract if isinstance(e, Out)]
                assert len(outs) == 2
                assert ends[c].points[outs[0]] == -100 and ends[c].points[outs[1]] == -50
                assert not any(isinstance(e, Card | Trick) for e in contract)
                assert any(isinstance(e, Place) for e in contract)
                continue
            cards = [e for e in contract if isinstance(e, Card)]
            tricks = [e for e in contract if isinstance(e, Trick)]
            assert len(cards) == 4 * len(tricks)
            for t, trick in enumerate(tricks):
                played = cards[4 * t:4 * t + 4]
                assert [e.card for e in played] == list(trick.cards)
                assert [e.seat for e in played] == [(trick.leader + i) % 4 for i in range(4)]
                assert trick.winner == trick_winner(trick.leader, list(trick.cards))
