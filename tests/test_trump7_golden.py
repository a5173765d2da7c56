"""trump7 played card by card on an imposed deal, with every result worked out by hand.

Game index 3, so seat 3 deals and seat 0 (the eldest) leads first. Trumps are hearts: the
turned card is 2H, the last card of the stock. The deal::

    seat 0: AC KC QC JC 10C 9C 8C      seat 1: AD KD QD JD 10D 9D 8D
    seat 2: AS KS QS JS 10S 9S 8S      seat 3: AH KH QH JH 10H 9H 8H
    stock (drawing order): 7C 7D 7S 7H 6C 6D 6S 6H 5C 5D 5S 5H 4C 4D 4S 4H
                           3C 3D 3S 3H 2C 2D 2S 2H (turned)

``TRICKS`` lists the cards in playing order, the leader first; the comments say who wins
and why, and what everyone draws after it (the winner first). Worked out by hand:
tricks 2, 2, 2, 7; seat 3 wins AH (trick 2), QH (trick 7) and JH (trick 9): honours 12;
points without the bid 2, 2, 2, 19 (25 in all).
"""

from __future__ import annotations

import numpy as np
import pytest
from trump7_helpers import act, cards, hand_names, mask, table

from trixsim.games import get_game, trump7
from trixsim.games.trump7 import events as ev
from trixsim.games.trump7.cards import parse_card
from trixsim.games.trump7.rules import trick_winner
from trixsim.games.trump7.state import BID, DONE, PLAY

HANDS = ["AC KC QC JC 10C 9C 8C", "AD KD QD JD 10D 9D 8D", "AS KS QS JS 10S 9S 8S",
         "AH KH QH JH 10H 9H 8H"]
STOCK = "7C 7D 7S 7H 6C 6D 6S 6H 5C 5D 5S 5H 4C 4D 4S 4H 3C 3D 3S 3H 2C 2D 2S 2H"
TRICKS = [  # (leader, cards in playing order, winner)
    (0, "AC 8D 8S 8H", 3),    # 1: a trump (8H) beats the ace led; draws 7C 7D 7S 7H from 3
    (3, "AH 7D 7S 7H", 3),    # 2: trump lead; seat 2 must follow with 7H; AH +5 to seat 3
    (3, "7C KC 6S 6H", 2),    # 3: the lowest trump beats KC; draws 5C 5D 5S 5H from 2
    (2, "AS 5D 5S 5H", 1),    # 4: seat 0 follows with 5S; seat 1 trumps
    (1, "AD 4D 4S 6D", 1),    # 5: no trump: the ace led wins; seat 3 discards 4S
    (1, "KD 3D 9H 8C", 3),    # 6: seat 0 discards under 9H (no duty to over-trump);
                              #    draws 2C 2D 2S 2H from 3: seat 2 gets the turned 2H
    (3, "QH 3H 2S 2H", 3),    # 7: QH +3; stock empty from here
    (3, "6C 9C 4C 5C", 0),    # 8
    (0, "4H 3C 9S JH", 3),    # 9: trump lead, JH +4
    (3, "3S 2D 9D KS", 2),    # 10: two discards, KS follows and wins
    (2, "QS 10H 10C 10D", 3),  # 11
    (3, "2C QC JD JS", 0),    # 12
    (0, "JC QD 10S KH", 3),   # 13: KH trumps the last trick
]
BIDS = [2, 4, 0, 5]  # made exactly, short by 2, zero (always made), made with one over


def play_all(st: trump7.GameState, upto: int = 13) -> None:
    """Play the first ``upto`` tricks of TRICKS, checking the turn and winner of each."""
    for k, (leader, text, winner) in enumerate(TRICKS[:upto]):
        assert st.turn[0] == leader, f"trick {k + 1}"
        act(st, *text.split())
        assert st.last_winner[0] == winner, f"trick {k + 1}"
        assert trick_winner(leader, cards(text), 2) == winner


def test_the_deal_follows_the_pack_dealer_and_turned_card() -> None:
    st = table(HANDS, STOCK, game_id=3)
    assert (st.dealer[0], st.eldest[0], st.turn[0], st.phase[0]) == (3, 0, 0, PLAY)
    assert st.turned[0] == parse_card("2H") and st.trump[0] == 2
    for s in range(4):
        assert int(st.hands[0, s]) == mask(HANDS[s])
    assert st.turned_holder[0] == -1 and st.stock_n[0] == 0


def test_draws_after_each_trick_winner_first() -> None:
    st = table(HANDS, STOCK, game_id=3)
    play_all(st, 1)
    # seat 3 won trick 1 and draws first: 7C to 3, 7D to 0, 7S to 1, 7H to 2
    assert parse_card("7C") in hand_names(st, 3) and parse_card("7D") in hand_names(st, 0)
    assert parse_card("7S") in hand_names(st, 1) and parse_card("7H") in hand_names(st, 2)
    assert st.stock_n[0] == 4 and all(bin(int(h)).count("1") == 7 for h in st.hands[0])


def test_following_is_compulsory_trumping_is_not() -> None:
    st = table(HANDS, STOCK, game_id=3)
    play_all(st, 2)
    act(st, "7C")  # trick 3: seat 0 holds clubs and must follow
    game = get_game("trump7")
    assert int(game.legal_action_mask(st)[0]) == mask("KC QC JC 10C 9C 8C")
    why = game.why_illegal(st, 0, parse_card("6D"))
    assert why == "seat 0 must follow clubs with 8C 9C 10C JC QC KC"
    with pytest.raises(trump7.IllegalActionError):
        act(st, "6D")
    assert game.why_illegal(st, 0, parse_card("5S")) == "seat 0 does not hold 5S"
    st = table(HANDS, STOCK, game_id=3)
    play_all(st, 5)
    act(st, "KD", "3D", "9H")  # trick 6: seat 0 has no diamond: any card, trump or not
    assert int(game.legal_action_mask(st)[0]) == int(st.hands[0, 0])
    assert int(st.hands[0, 0]) & mask("4H 3H")  # it holds trumps and may keep them


def test_the_turned_card_is_drawn_last_and_its_holder_is_public() -> None:
    st = table(HANDS, STOCK, game_id=3)
    play_all(st, 5)
    game = get_game("trump7")
    before = game.observe(st, np.array([0]), 1)
    assert before.turned[0] == parse_card("2H") and before.turned_holder[0] == -1
    assert before.stock_left[0] == 4
    play_all_from(st, 5, 6)
    assert st.stock_n[0] == 24 and st.turned_holder[0] == 2  # (3 + 3) % 4
    for seat in range(4):
        obs = game.observe(st, np.array([0]), seat)
        assert obs.turned_holder[0] == 2 and obs.stock_left[0] == 0
        assert obs.hand[0] == st.hands[0, seat]
    assert hand_names(st, 2) == set(cards("KS QS JS 10S 9S 5C 2H"))


def play_all_from(st: trump7.GameState, start: int, stop: int) -> None:
    for leader, text, winner in TRICKS[start:stop]:
        assert st.turn[0] == leader
        act(st, *text.split())
        assert st.last_winner[0] == winner


def test_whole_game_without_the_bid() -> None:
    st = table(HANDS, STOCK, game_id=3)
    play_all(st)
    assert st.phase[0] == DONE and st.trick_no[0] == 13
    assert st.tricks[0].tolist() == [2, 2, 2, 7]
    assert st.honours[0].tolist() == [0, 0, 0, 12]
    assert st.points[0].tolist() == [2, 2, 2, 19] and st.points[0].sum() == 25
    assert st.played[0] == (1 << 52) - 1 and not st.hands[0].any()
    game = get_game("trump7")
    win, lose = game.winners_losers(game.final_scores(st))
    assert win[0].tolist() == [False, False, False, True]
    assert lose[0].tolist() == [True, True, True, False]
    assert game.higher_is_better


def test_whole_game_with_the_bid_made_short_and_zero() -> None:
    st = table(HANDS, STOCK, game_id=3, bidding=True)
    assert st.phase[0] == BID and st.turn[0] == 0
    game = get_game("trump7-bid")
    assert game.why_illegal(st, 0, 14) == "a bid is a number of tricks from 0 to 13, not 14"
    for seat, b in enumerate(BIDS):
        assert st.turn[0] == seat and st.phase[0] == BID
        act(st, b)
    assert st.bids[0].tolist() == BIDS and st.phase[0] == PLAY and st.turn[0] == 0
    # before any trick: bid points as they stand (0 tricks): 0-4, 0-8, 0, 0-10
    assert st.points[0].tolist() == [-4, -8, 0, -10]
    play_all(st)
    # seat 0 bid 2, won 2: 2*2 = 4; seat 1 bid 4, won 2: 2 - 2*2 = -2; seat 2 bid 0, won
    # 2: 0 + 2 = 2; seat 3 bid 5, won 7: 2*5 + 2 = 12, plus honours 12 = 24
    assert st.points[0].tolist() == [4, -2, 2, 24]
    win, lose = game.winners_losers(st.points)
    assert win[0].tolist() == [False, False, False, True]
    assert lose[0].tolist() == [False, True, False, False]


def test_events_of_the_game_and_what_each_seat_sees() -> None:
    log = ev.EventLog()
    st = trump7.init(table(HANDS, STOCK, game_id=3).chance, [3], events=log)
    got = ev.decode(log.rows, st.game_id)
    for _, text, _ in TRICKS:
        for c in text.split():
            trump7.step(st, np.array([parse_card(c)]), events=log)
            got += ev.decode(log.rows, st.game_id)
    deal = got[0]
    assert isinstance(deal, ev.Deal) and deal.dealer == 3 and deal.eldest == 0
    assert deal.turned == parse_card("2H")
    tricks = [e for e in got if isinstance(e, ev.Trick)]
    assert [t.winner for t in tricks] == [w for _, _, w in TRICKS]
    assert [t.honours for t in tricks if t.honours] == [5, 3, 4]
    draws = [e for e in got if isinstance(e, ev.Draw)]
    assert len(draws) == 6 and draws[-1].first == 3 and draws[-1].turned_holder == 2
    assert draws[-1].cards == tuple(cards("2C 2D 2S 2H"))
    seen = ev.visible_to(draws[-1], 0)
    assert seen.cards == (-1, parse_card("2D"), -1, parse_card("2H"))  # own and the turned
    assert ev.visible_to(deal, 1).hands == (0, mask(HANDS[1]), 0, 0)
    end = got[-1]
    assert isinstance(end, ev.GameEnd) and end.points == (2, 2, 2, 19)
    assert end.bids == (-1, -1, -1, -1) and end.honours == (0, 0, 0, 12)
