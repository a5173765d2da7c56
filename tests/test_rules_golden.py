"""Golden scenarios: fixed deals played card by card, with scores worked out by hand.

Every rule of docs/rules.md (its interpretations decide) has at least one scenario here. The deals:

- ``SUITED``: each seat holds one whole suit (seat 0 hearts, 1 clubs, 2 diamonds,
  3 spades), so nobody can follow and the leader wins every trick.
- ``MIXED``: each seat holds two cards of every suit, so every trick is followed and the
  higher card wins; tricks 1-8 below split evenly, two per seat.
- ``ORDER``: built to show the card order (10 above K, A highest, no trumps).
- ``DIAMONDS``: seat 1 takes all 8 diamonds in the first four tricks.
- ``TRIX_NO_JACK``: the picker (seat 0) and seat 1 hold no jack; seat 2 holds all four.
"""

from __future__ import annotations

import numpy as np
import pytest
from conftest import act, deal, hand, legal_cards, names, table

from trixsim import rng
from trixsim.games import trix as engine
from trixsim.games.trix import IllegalActionError
from trixsim.games.trix.cards import card_name, cards_of
from trixsim.games.trix.types import (
    DAMET,
    DECLARE,
    DINERI,
    DONE,
    FARCHA,
    GENERAL,
    PASS,
    PICK,
    PLACE,
    PLAY,
    PLI,
    RAY,
    TRIX,
)

SUITED = deal("7H 8H 9H JH QH KH 10H AH", "7C 8C 9C JC QC KC 10C AC",
              "7D 8D 9D JD QD KD 10D AD", "7S 8S 9S JS QS KS 10S AS")
MIXED = deal("AH 7H QC JC KD 9D 10S 8S", "10H 8H AC 7C QD JD KS 9S",
             "KH 9H 10C 8C AD 7D QS JS", "QH JH KC 9C 10D 8D AS 7S")
# MIXED played from seat 0: the winners are 0, 1, 1, 2, 2, 3, 3, 0. Seat 2 (K♥) is asked
# whether to declare between the second and third card of trick 1 in ray and general.
MIXED_TRICKS = ["AH 8H", "9H JH", "7H 10H KH QH", "AC 8C 9C JC", "7C 10C KC QC",
                "AD 8D 9D JD", "7D 10D KD QD", "AS 8S 9S JS", "7S 10S KS QS"]
ORDER = deal("KH 7C 8C 9C JC QC KC AC", "10H 7S AS 10C 7D 8D 9D JD",
             "9H AD QD KD 10D AH QH JH", "7H 8H 8S 9S JS QS KS 10S")
DIAMONDS = deal("7D 8D 9D JD QC KC 10C AC", "AD 10D KD QD 7C 8C 9C JC",
                "7H 8H 9H JH QH KH 10H AH", "7S 8S 9S JS QS KS 10S AS")
# DIAMONDS played from seat 0: seat 1 wins tricks 1-4 (all diamonds), seat 0 tricks 5-8.
# Seat 2 (K♥) is asked about the declaration after the first two cards of trick 1.
DIAMOND_TRICKS = ["7D AD", "7H 7S", "KD 8H 8S 8D", "QD 9H 9S 9D", "10D JH JS JD",
                  "7C QH QS AC", "KC 8C KH KS", "10C 9C 10H 10S", "QC JC AH AS"]
TRIX_NO_JACK = deal("7H 8H 9H 7C 8C 9C 7D 8D", "QH KH 10H AH QC KC 10C AC",
                    "JH JC JD JS 9D 7S 8S 9S", "QD KD 10D AD QS KS 10S AS")

ALL_BUT = {c: 0x7F & ~(1 << c) for c in range(7)}


def points(st: engine.GameState) -> list[int]:
    """Points of the last finished contract of game 0."""
    return [int(x) for x in st.points[0]]


def totals(st: engine.GameState) -> list[int]:
    """Running totals of game 0."""
    return [int(x) for x in st.totals[0]]


def assert_next_contract(st: engine.GameState, contract_no: int) -> None:
    """The contract finished and the next one is dealt and waits for its pick."""
    assert st.phase[0] == PICK
    assert st.contract_no[0] == contract_no
    assert st.picker[0] == (st.first_picker[0] + contract_no) % 4
    assert list(st.hands[0]) == list(rng.deal(0, np.array([0]), np.array([contract_no]))[0])


# ---------------------------------------------------------------- tricks


def test_card_order_follow_suit_and_winner_leads() -> None:
    """10 beats K, A beats all, off-suit cards never win, follow suit, winner leads."""
    st = table(ORDER, picker=0)
    act(st, "pli", "KH")
    assert legal_cards(st) == {"10H"}  # seat 1 must follow hearts
    act(st, "10H")
    assert legal_cards(st) == names("9H AH QH JH")
    act(st, "9H 8H")
    assert st.tricks[0].tolist() == [0, 1, 0, 0]  # the 10 is above the king
    assert st.turn[0] == 1 and st.leader[0] == 1 and st.last_winner[0] == 1
    act(st, "7S")
    assert legal_cards(st) == names("AD QD KD 10D AH QH JH")  # void: any card
    act(st, "AD 8S AC")
    assert st.tricks[0].tolist() == [0, 1, 0, 1]  # no trumps: the 8 of the suit led wins
    assert st.turn[0] == 3
    act(st, "QS 7C AS QD")
    assert st.tricks[0].tolist() == [0, 2, 0, 1]  # the ace is highest
    act(st, "10C KD 9S 8C", "7D 10D JS 9C", "AH 7H JC 8D", "QH 10S QC 9D")
    assert st.phase[0] == PLAY and st.trick_no[0] == 7
    act(st, "JH KS KC JD")
    assert points(st) == [0, 30, 40, 10]  # 0, 3, 4, 1 tricks; the picker's 0 doubled is 0
    assert_next_contract(st, 1)


# ---------------------------------------------------------------- contracts


def test_dineri_counts_diamonds_and_ends_after_the_last_one() -> None:
    st = table(MIXED, picker=0)
    act(st, "dineri", *MIXED_TRICKS[:6])
    assert st.phase[0] == PLAY and st.trick_no[0] == 5
    act(st, MIXED_TRICKS[6])  # trick 6 takes the last diamonds
    assert points(st) == [0, 0, 40, 40]
    assert_next_contract(st, 1)


def test_dineri_all_eight_diamonds_score_150() -> None:
    st = table(DIAMONDS, picker=0)
    act(st, "dineri", *DIAMOND_TRICKS[:4])
    assert st.trick_no[0] == 3
    act(st, DIAMOND_TRICKS[4])
    assert points(st) == [0, 150, 0, 0]  # seat 1 is not the picker: not doubled
    assert_next_contract(st, 1)


def test_dineri_all_eight_by_the_picker_doubled() -> None:
    st = table(SUITED, picker=0)
    act(st, "dineri")
    for h, c, d, s in zip("7H 8H 9H JH QH KH 10H".split(), "7C 8C 9C JC QC KC 10C".split(),
                          "7D 8D 9D JD QD KD 10D".split(), "7S 8S 9S JS QS KS 10S".split(),
                          strict=True):
        act(st, h, c, d, s)
    assert st.phase[0] == PLAY and st.trick_no[0] == 7
    act(st, "AH AC AD AS")
    assert points(st) == [300, 0, 0, 0]


def test_damet_counts_queens_and_ends_after_the_fourth() -> None:
    st = table(ORDER, picker=0)
    act(st, "damet", "KH 10H 9H 8H", "7S AD 8S AC", "QS 7C AS QD", "10C KD 9S 8C",
        "7D 10D JS 9C", "AH 7H JC 8D")
    assert st.phase[0] == PLAY and st.trick_no[0] == 6
    act(st, "QH 10S QC 9D")  # trick 7 takes the 3rd and 4th queens
    assert points(st) == [0, 40, 40, 0]
    assert_next_contract(st, 1)


def test_damet_picker_doubled() -> None:
    st = table(MIXED, picker=0)
    act(st, "damet", *MIXED_TRICKS)
    assert points(st) == [40, 20, 20, 20]


def test_pli_ten_per_trick_picker_doubled() -> None:
    st = table(MIXED, picker=0)
    act(st, "pli", *MIXED_TRICKS)
    assert points(st) == [40, 20, 20, 20]


@pytest.mark.parametrize(("contract_no", "expected"), [(0, 300), (24, 600)])
def test_pli_all_eight_tricks_score_150(contract_no: int, expected: int) -> None:
    """All 8 tricks: 150, doubled for the picker, four times on pick 7."""
    used = ALL_BUT[PLI] if contract_no >= 24 else None
    st = table(SUITED, picker=0, contract_no=contract_no, used=used)
    if used is not None:
        assert engine.legal_action_mask(st)[0] == 1 << PLI  # pick 7: the one left
    act(st, "pli")
    for r in ("7", "8", "9", "J", "Q", "K", "10", "A"):
        act(st, *(r + s for s in "HCDS"))
    assert points(st) == [expected, 0, 0, 0]


def test_farcha_plays_all_eight_and_only_the_last_counts() -> None:
    st = table(MIXED, picker=0)
    act(st, "farcha", *MIXED_TRICKS[:-1])
    assert st.phase[0] == PLAY and st.trick_no[0] == 7
    act(st, MIXED_TRICKS[-1])
    assert points(st) == [200, 0, 0, 0]
    st = table(MIXED, picker=1, contract_no=1)  # seat 1 leads 8H; seat 0 takes it with AH
    act(st, "farcha", "8H", "9H JH AH")
    assert st.turn[0] == 0 and st.tricks[0].tolist() == [1, 0, 0, 0]


def test_ray_undeclared_ends_with_the_king() -> None:
    st = table(MIXED, picker=0)
    act(st, "ray", "AH")
    assert st.phase[0] == PLAY  # seat 1 has no K♥: never asked
    act(st, "8H")
    assert st.phase[0] == DECLARE and st.turn[0] == 2 and st.trick_n[0] == 2
    assert engine.legal_action_mask(st)[0] == 3
    act(st, "quiet", "9H JH")
    act(st, "7H 10H")
    assert st.phase[0] == PLAY and st.turn[0] == 2  # asked only at the first turn
    act(st, "KH QH")
    assert points(st) == [0, 100, 0, 0]
    assert_next_contract(st, 1)


def test_ray_declared_taken_by_another() -> None:
    st = table(MIXED, picker=0)
    act(st, "ray", "AH 8H declare 9H JH", "7H 10H KH QH")
    assert points(st) == [0, 200, -50, 0]


def test_ray_declared_holder_takes_it_himself() -> None:
    st = table(MIXED, picker=1, contract_no=1)
    act(st, "ray", "8H")
    assert st.phase[0] == DECLARE  # the holder sees the 8H before deciding
    act(st, "declare", "KH JH 7H")
    assert points(st) == [0, 0, 200, 0]  # not the picker: not doubled


def test_ray_declared_picker_holder() -> None:
    st = table(MIXED, picker=2, contract_no=2)
    assert st.phase[0] == PICK
    act(st, "ray")
    assert st.phase[0] == DECLARE and st.trick_n[0] == 0  # asked before leading
    act(st, "declare", "KH JH 7H 8H")
    assert points(st) == [0, 0, 400, 0]  # 200 doubled for the picker
    st = table(MIXED, picker=2, contract_no=2)
    act(st, "ray declare KH JH AH 8H")
    assert points(st) == [200, 0, -50, 0]  # the picker's -50 is never doubled


@pytest.mark.parametrize(("contract_no", "declare", "expected"),
                         [(0, "quiet", 200), (0, "declare", 400), (24, "declare", 800)])
def test_ray_picker_takes_the_king(contract_no: int, declare: str, expected: int) -> None:
    used = ALL_BUT[RAY] if contract_no >= 24 else None
    st = table(SUITED, picker=0, contract_no=contract_no, used=used)
    act(st, "ray", declare, "KH 7C 7D 7S")
    assert points(st) == [expected, 0, 0, 0]


def test_no_declaration_outside_ray_and_general() -> None:
    for contract in ("dineri", "damet", "pli", "farcha"):
        st = table(MIXED, picker=0)
        act(st, contract, "AH 8H")
        assert st.phase[0] == PLAY, contract


def test_general_sums_the_five_parts() -> None:
    st = table(MIXED, picker=0)
    act(st, "general", MIXED_TRICKS[0])
    assert st.phase[0] == DECLARE  # the declaration is asked in general too
    act(st, "quiet", *MIXED_TRICKS[1:-1])
    assert st.phase[0] == PLAY and st.trick_no[0] == 7
    act(st, MIXED_TRICKS[-1])
    # seat 0: queen 20 + 2 tricks 20 + last trick 100 = 140, doubled; seat 1: queen, 2 tricks,
    # K♥ 100; seats 2 and 3: 4 diamonds, a queen, 2 tricks each.
    assert points(st) == [280, 140, 80, 80]


def test_general_declared_king_taken_by_another() -> None:
    st = table(MIXED, picker=0)
    act(st, "general", MIXED_TRICKS[0], "declare", *MIXED_TRICKS[1:])
    assert points(st) == [280, 240, 30, 80]


def test_general_all_eight_diamonds_bonus() -> None:
    st = table(DIAMONDS, picker=0)
    act(st, "general", DIAMOND_TRICKS[0], "quiet", *DIAMOND_TRICKS[1:5])
    assert st.phase[0] == PLAY  # general plays on after the last diamond
    act(st, *DIAMOND_TRICKS[5:])
    # seat 0: 4 tricks 40, 3 queens 60, last trick 100, K♥ 100 = 300, doubled;
    # seat 1: all 8 diamonds 150, 4 tricks 40, 1 queen 20 = 210.
    assert points(st) == [600, 210, 0, 0]
    st = table(DIAMONDS, picker=0)
    act(st, "general", DIAMOND_TRICKS[0], "declare", *DIAMOND_TRICKS[1:])
    assert points(st) == [800, 210, -50, 0]


@pytest.mark.parametrize(("declare", "expected"),
                         [("quiet", [0, 0, 0, 0]), ("declare", [-50, 0, 0, 0])])
def test_general_all_eight_tricks_score_zero(declare: str, expected: list[int]) -> None:
    """Seat 1 (picker) leads clubs and takes every trick; seat 0 holds K♥."""
    st = table(SUITED, picker=1, contract_no=1)
    act(st, "general", "7C 7D 7S")
    assert st.phase[0] == DECLARE and st.turn[0] == 0
    act(st, declare, "7H")
    for r in ("8", "9", "J", "Q", "K", "10", "A"):
        act(st, *(r + s for s in "CDSH"))
    assert points(st) == expected


# ---------------------------------------------------------------- picks


def test_trix_needs_a_jack_on_picks_1_to_5() -> None:
    st = table(TRIX_NO_JACK, picker=0)
    assert engine.legal_action_mask(st)[0] == 0x3F
    st = table(TRIX_NO_JACK, picker=0, contract_no=16, used=[0b1111, 0, 0, 0])
    assert engine.legal_action_mask(st)[0] == (1 << RAY) | (1 << GENERAL)
    with pytest.raises(IllegalActionError):
        act(st, "trix")
    st = table(TRIX_NO_JACK, picker=2, contract_no=2)
    assert engine.legal_action_mask(st)[0] == 0x7F


def test_used_contracts_not_offered() -> None:
    st = table(MIXED, picker=0, contract_no=8, used=[(1 << PLI) | (1 << DINERI), 0, 0, 0])
    assert engine.legal_action_mask(st)[0] == 0x7F & ~((1 << PLI) | (1 << DINERI))
    with pytest.raises(IllegalActionError):
        act(st, "pli")
    assert st.phase[0] == PICK


@pytest.mark.parametrize("hands", [TRIX_NO_JACK, MIXED])
def test_pick_6_forces_trix_jack_or_not(hands: list[int]) -> None:
    st = table(hands, picker=0, contract_no=20, used=[0b0011111, 0, 0, 0])
    assert engine.legal_action_mask(st)[0] == 1 << TRIX
    st = table(hands, picker=0, contract_no=20, used=[(1 << TRIX) | 0b1111, 0, 0, 0])
    assert engine.legal_action_mask(st)[0] == (1 << RAY) | (1 << GENERAL)


def test_pick_7_is_the_last_one_left_and_quadrupled() -> None:
    st = table(MIXED, picker=0, contract_no=24, used=[ALL_BUT[FARCHA], 0, 0, 0])
    assert engine.legal_action_mask(st)[0] == 1 << FARCHA
    act(st, "farcha", *MIXED_TRICKS)
    assert points(st) == [400, 0, 0, 0]


def test_picker_rotation() -> None:
    """Contract k is picked by (first_picker + k) % 4, and the picker leads."""
    st = table(MIXED, picker=3, contract_no=5)
    assert st.first_picker[0] == 2
    act(st, "farcha", "QH 7H 8H 9H")
    assert st.turn[0] == 3 and st.phase[0] == PLAY
    act(st, "JH AH 10H KH", "JC AC 8C 9C", "7C 10C KC QC", "AD 8D 9D JD", "7D 10D KD QD",
        "AS 8S 9S JS", "7S 10S KS QS")
    assert points(st) == [100, 0, 0, 0]  # seat 0 took the last trick; not the picker
    assert st.contract_no[0] == 6 and st.picker[0] == 0 and st.turn[0] == 0


def test_first_picker_uniform() -> None:
    counts = np.bincount(engine.init(7, range(8000)).first_picker, minlength=4)
    assert counts.sum() == 8000 and counts.min() > 1800 and counts.max() < 2200
    assert all(engine.init(7, [g]).first_picker[0] == rng.first_picker(7, g) for g in range(20))


# ---------------------------------------------------------------- trix


def test_trix_starter_passes_ace_turn_and_second_out() -> None:
    """Forced trix without a jack: seat 2 (first after the picker with one) starts."""
    st = table(TRIX_NO_JACK, picker=0, contract_no=20, used=[0b0011111, 0, 0, 0])
    act(st, "trix")
    assert st.phase[0] == PLACE and st.turn[0] == 2
    assert legal_cards(st) == names("JH JC JD JS")  # only jacks start a stack
    act(st, "JS")
    assert legal_cards(st) == {"QS"}
    with pytest.raises(IllegalActionError):
        act(st, "pass")  # must place when able
    act(st, "QS")
    assert st.turn[0] == 0 and engine.legal_action_mask(st)[0] == 0
    with pytest.raises(IllegalActionError):
        act(st, "7H")
    act(st, "pass pass 9S KS pass pass 8S 10S pass pass 7S AS")
    assert st.turn[0] == 3 and engine.legal_action_mask(st)[0] == 0  # ace: another turn
    act(st, "pass pass pass")
    assert st.turn[0] == 2
    act(st, "JD QD pass pass 9D KD 8D pass JH 10D 9H QH")
    assert st.phase[0] == PLACE and st.out_first[0] == -1
    act(st, "JC")
    assert st.out_first[0] == 2 and st.turn[0] == 3
    act(st, "AD")  # seat 3 empties their hand second: the contract stops
    assert points(st) == [0, 0, -100, -50]
    assert_next_contract(st, 21)


def test_trix_picker_starts_and_empty_hands_are_skipped() -> None:
    st = table(SUITED, picker=0)
    act(st, "trix")
    assert st.turn[0] == 0 and legal_cards(st) == {"JH"}
    act(st, "JH JC JD JS", "QH 9C 9D 9S", "KH 8C 8D 8S", "10H 7C 7D 7S", "AH")
    assert st.turn[0] == 0 and legal_cards(st) == {"9H"}
    act(st, "9H QC QD QS", "8H KC KD KS", "7H")
    assert st.out_first[0] == 0 and st.turn[0] == 1
    act(st, "10C 10D 10S")
    assert st.turn[0] == 1  # seat 0 holds nothing: skipped
    act(st, "AC")
    assert points(st) == [-100, -50, 0, 0]  # the picker's -100 is not doubled
    assert totals(st) == [-100, -50, 0, 0]  # totals go below zero


def test_trix_picker_with_jack_starts_even_if_not_first_seat() -> None:
    st = table(SUITED, picker=2, contract_no=2)
    act(st, "trix")
    assert st.turn[0] == 2 and legal_cards(st) == {"JD"}


# ---------------------------------------------------------------- totals and the end


def test_exactly_1000_goes_back_to_zero() -> None:
    st = table(MIXED, picker=0, totals=[800, 950, 0, -30])
    act(st, "farcha", *MIXED_TRICKS)
    assert totals(st) == [0, 950, 0, -30]
    assert st.phase[0] == PICK and st.contract_no[0] == 1
    st = table(MIXED, picker=0, totals=[0, 980, 960, 0])
    act(st, "pli", *MIXED_TRICKS)
    assert points(st) == [40, 20, 20, 20]
    assert totals(st) == [40, 0, 980, 20]


def test_over_1000_ends_the_game() -> None:
    st = table(MIXED, picker=0, totals=[900, 0, 0, 0])
    act(st, "farcha", *MIXED_TRICKS)
    assert totals(st) == [1100, 0, 0, 0]
    assert st.phase[0] == DONE and st.contract_no[0] == 1
    assert engine.legal_action_mask(st)[0] == 0
    before = st.data.copy()
    engine.step(st, np.array([PASS]))  # finished games ignore their action
    assert np.array_equal(st.data, before)


def test_1000_rule_applies_before_the_end_check() -> None:
    st = table(DIAMONDS, picker=0, totals=[400, 900, 999, 0])
    act(st, "general", DIAMOND_TRICKS[0], "quiet", *DIAMOND_TRICKS[1:])
    assert totals(st) == [0, 1110, 999, 0]
    assert st.phase[0] == DONE


def test_the_game_ends_after_28_contracts() -> None:
    st = table(MIXED, picker=1, contract_no=26, used=[0x7F, ALL_BUT[DAMET], 0x7F, 0x7F])
    act(st, "damet", "8H 9H JH AH")
    assert st.phase[0] == PLAY  # seat 0 won the first trick
    act(st, "7H 10H KH QH", "AC 8C 9C JC", "7C 10C KC QC", "AD 8D 9D JD", "7D 10D KD QD",
        "AS 8S 9S JS", "7S 10S KS QS")
    assert points(st) == [20, 80, 20, 20]  # seat 1: one queen, quadrupled on pick 7
    assert_next_contract(st, 27)
    st = table(MIXED, picker=0, contract_no=27, used=[ALL_BUT[PLI], 0x7F, 0x7F, 0x7F])
    act(st, "pli", *MIXED_TRICKS)
    assert points(st) == [80, 20, 20, 20]
    assert st.phase[0] == DONE and st.contract_no[0] == 28


def test_winners_lowest_losers_highest() -> None:
    outcomes = pytest.importorskip("trixsim.games.trix.outcomes")
    st = engine.init(0, [0, 1, 2])
    st.totals[:] = [[-100, 50, -100, 300], [0, 0, 0, 0], [1100, 20, 30, 1100]]
    df = outcomes.games_table(st, 0, ["random"] * 4).to_pandas()
    win = df[[f"winner_{s}" for s in range(4)]].to_numpy().tolist()
    lose = df[[f"loser_{s}" for s in range(4)]].to_numpy().tolist()
    assert win == [[True, False, True, False], [True] * 4, [False, True, False, False]]
    assert lose == [[False, False, False, True], [True] * 4, [True, False, False, True]]


def test_mixed_deal_constants_are_consistent() -> None:
    """The scenarios' trick lists use each card once (a typo would change the story)."""
    for tricks in (MIXED_TRICKS, DIAMOND_TRICKS):
        cards = " ".join(tricks).split()
        assert len(cards) == 32 and len(set(cards)) == 32


def test_trix_stack_order() -> None:
    """Stacks grow from the jack by 7 8 9 J Q K 10 A: after the K comes the 10, then the A."""
    placed = hand("JH QH KH 9H JS")
    got = {card_name(c) for c in cards_of(int(engine.placeable(np.array([placed]))[0]))}
    assert got == names("10H 8H QS 9S JC JD")
    placed = hand("JH QH KH 10H AH 9H 8H 7H")
    got = {card_name(c) for c in cards_of(int(engine.placeable(np.array([placed]))[0]))}
    assert got == names("JC JD JS")
