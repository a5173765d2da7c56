"""Events: what init and step report, consistent with the state and the rules, and
nothing changes when nobody asks for them."""

from __future__ import annotations

import numpy as np

from trixsim.games.trix import GAME as TRIX_RULES
from trixsim.games.trix import init, legal_action_mask, step
from trixsim.games.trix.events import (
    CARD,
    CONTRACT_END,
    DEAL,
    GAME_END,
    PICK,
    PLACE,
    TRICK,
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
from trixsim.games.trix.outcomes import OutcomeLog
from trixsim.games.trix.rules import trick_winner
from trixsim.games.trix.transitions import add_points
from trixsim.games.trix.types import DONE, TRIX
from trixsim.loading import load_seats
from trixsim.sim import decide, play_batch


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


class _Kinds(OutcomeLog):
    """An outcome log noting the kinds of the events it is given."""

    def __init__(self, batch: int, brief: bool) -> None:
        super().__init__(batch)
        self.seen: set[int] = set()
        if not brief:
            self.event_kinds = None  # reads every event: the rules leave none out

    def events(self, st: object, rows: np.ndarray) -> None:
        self.seen |= set(rows[:, 1].tolist())
        super().events(st, rows)


def test_an_observer_naming_its_event_kinds_gets_the_same_outcome_rows() -> None:
    """The outcome log names the events it reads, and the stepwise steps then write only
    deals, picks and contract and game ends: the contract rows are those that every event
    gives, row for row."""
    seats = load_seats("heuristic,random,random,heuristic", "trix")
    ids = np.arange(30)
    brief, every = _Kinds(30, brief=True), _Kinds(30, brief=False)
    play_batch(seats, 11, ids, observer=brief, path="stepwise", game=TRIX_RULES)
    play_batch(seats, 11, ids, observer=every, path="stepwise", game=TRIX_RULES)
    assert brief.seen == {DEAL, PICK, CONTRACT_END, GAME_END}
    assert {CARD, TRICK, PLACE}.issubset(every.seen)
    assert brief.contracts().num_rows > 30
    assert brief.contracts().equals(every.contracts())
