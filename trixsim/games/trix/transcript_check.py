"""Checking a ``trixsim-transcript/1`` record by the rules: ``check_record`` replays it
through the engine from its recorded hands and stops at the first thing the rules do not
allow or the record gets wrong (``ReplayError``)."""

from __future__ import annotations

import numpy as np

from trixsim.games.trix import GAME, init, legal_action_mask, step
from trixsim.games.trix.cards import card_name, mask_of
from trixsim.games.trix.transcript import ContractRecord, GameRecord, result_seats
from trixsim.games.trix.types import CONTRACT_NAMES, DECLARE, DONE, GENERAL, PASS, RAY, TRIX
from trixsim.records import ReplayError as EnvelopeReplayError


class ReplayError(EnvelopeReplayError):
    """A record that the rules or the engine's scoring contradict."""


class _Replayer:
    """Feeds one record through a B=1 engine state; every failure is a ReplayError."""

    def __init__(self, rec: GameRecord) -> None:
        self.rec = rec
        self.st = init(rec.seed or 0, [rec.game_id], first_pickers=[rec.first_picker])
        self.where = f"game {rec.game_id}"

    def fail(self, message: str) -> None:
        raise ReplayError(f"{self.where}: {message}")

    def legal(self) -> int:
        return int(legal_action_mask(self.st)[0])

    def act(self, a: int) -> None:
        step(self.st, np.array([a], dtype=np.int64))

    def run(self) -> int:
        """Check the whole game; returns the number of contracts checked."""
        st, rec = self.st, self.rec
        for c in rec.contracts:
            self.where = f"game {rec.game_id}, contract {c.number} ({c.name})"
            if st.phase[0] == DONE:
                self.fail(f"the game ended after contract {int(st.contract_no[0])}, "
                          "but the record goes on")
            self.contract(c)
        self.where = f"game {rec.game_id}"
        if st.phase[0] != DONE:
            self.fail(f"the record stops after contract {len(rec.contracts)}, "
                      "but the game goes on")
        totals = [int(v) for v in st.totals[0]]
        if rec.final_totals != totals:
            self.fail(f"final_totals {rec.final_totals} != {totals}")
        win, lose = result_seats(totals)
        if rec.winners != win:
            self.fail(f"winners {rec.winners} != {win}")
        if rec.losers != lose:
            self.fail(f"losers {rec.losers} != {lose}")
        return len(rec.contracts)

    def contract(self, c: ContractRecord) -> None:
        st = self.st
        cn = int(st.contract_no[0])
        if c.number != cn + 1:
            self.fail(f"number {c.number} but this is contract {cn + 1}")
        if c.picker != int(st.picker[0]):
            self.fail(f"picker {c.picker} but seat {int(st.picker[0])} picks this contract")
        if c.pick != cn // 4 + 1:
            self.fail(f"pick {c.pick} but this is the picker's pick {cn // 4 + 1}")
        self.impose_deal(c.hands)
        legal = self.legal()
        if not (legal >> c.contract) & 1:
            options = ", ".join(CONTRACT_NAMES[k] for k in range(7) if (legal >> k) & 1)
            self.fail(f"{c.name} is not a legal pick for seat {c.picker} (legal: {options})")
        self.act(c.contract)
        if c.contract == TRIX:
            self.trix(c, cn)
        else:
            self.tricks(c, cn)
        if int(st.contract_no[0]) == cn:
            what = f"{len(c.moves or [])} moves" if c.contract == TRIX else \
                f"{len(c.tricks or [])} tricks"
            self.fail(f"the record stops after {what}, but the contract goes on")
        points = [int(v) for v in st.points[0]]
        if c.points != points:
            self.fail(f"points {c.points} != {points}")
        totals = [int(v) for v in st.totals[0]]
        if c.totals != totals:
            self.fail(f"totals {c.totals} != {totals}")

    def impose_deal(self, hands: list[list[int]]) -> None:
        """Check the four hands form a deal of all 32 cards and put them in the state."""
        seen: set[int] = set()
        for h in hands:
            for card in h:
                if card in seen:
                    self.fail(f"hands: {card_name(card)} is dealt twice")
                seen.add(card)
        if len(seen) != 32 or any(len(h) != 8 for h in hands):
            self.fail("hands: not a deal of the 32 cards, 8 to each seat")
        for s, h in enumerate(hands):
            self.st.hands[0, s] = mask_of(h)

    def tricks(self, c: ContractRecord, cn: int) -> None:
        st = self.st
        asked = False
        for i, (leader, cards) in enumerate(c.tricks or []):
            if int(st.contract_no[0]) != cn:
                self.fail(f"the contract ended after trick {i}, but the record has "
                          f"{len(c.tricks or [])} tricks")
            if leader != int(st.leader[0]):
                self.fail(f"trick {i + 1}: leader {leader} but seat {int(st.leader[0])} leads")
            for card in cards:
                if st.phase[0] == DECLARE:
                    asked = True
                    self.act(1 if c.ray_declared else 0)
                t = int(st.turn[0])
                if not (self.legal() >> card) & 1:
                    self.fail(f"trick {i + 1}: {card_name(card)} is not a legal play for "
                              f"seat {t} ({GAME.why_illegal(st, 0, card)})")
                self.act(card)
        if c.ray_declared and not asked:
            if c.contract in (RAY, GENERAL):
                self.fail("ray_declared is true, but the king of hearts holder never got "
                          "to declare")
            self.fail(f"ray_declared is true, but {c.name} has no declaration")

    def trix(self, c: ContractRecord, cn: int) -> None:
        st = self.st
        moves = c.moves or []
        for i, (seat, card) in enumerate(moves):
            if int(st.contract_no[0]) != cn:
                self.fail(f"the contract ended after move {i}, but the record has "
                          f"{len(moves)} moves")
            t = int(st.turn[0])
            if seat != t:
                self.fail(f"move {i + 1}: seat {seat} moves, but it is seat {t}'s turn")
            legal = self.legal()
            if card is None:
                if legal:
                    self.fail(f"move {i + 1}: seat {t} passes, but "
                              f"{GAME.why_illegal(st, 0, PASS)}")
                self.act(PASS)
            else:
                if not (legal >> card) & 1:
                    self.fail(f"move {i + 1}: {card_name(card)} is not a legal placement for "
                              f"seat {t} ({GAME.why_illegal(st, 0, card)})")
                self.act(card)


def check_record(rec: GameRecord) -> int:
    """Replay ``rec`` through the engine; ReplayError at the first disagreement.

    Returns the number of contracts checked. The record's seed only seeds the engine
    state; every deal comes from the record's hands.
    """
    return _Replayer(rec).run()

