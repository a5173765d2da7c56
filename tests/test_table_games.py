"""The generic table core: ``Table`` plays any registered game with table parts, shows
each seat its own view (built by the game's view module from its per-seat history),
narrates through the game's narrator, and writes the finished game as an envelope that
``trixsim.records.replay`` accepts."""

from __future__ import annotations

import json
import re

import pytest

from trixsim.games import get_game
from trixsim.games.trump7 import events as ev
from trixsim.games.trump7.cards import cards_of
from trixsim.loading import load_strategy
from trixsim.records import parse_record, replay
from trixsim.table import Table, parts
from trixsim.terminal.names import Names, PlaceNames, Style

TRIX_GAME = get_game("trix")


@pytest.mark.parametrize("name", ["trump7", "trump7-bid"])
def test_a_trump7_table_plays_to_its_end_and_its_record_replays(name: str) -> None:
    game = get_game(name)
    bots = {s: load_strategy("heuristic", name) for s in range(4)}
    t = Table(11, game_id=2, game=game)
    assert t.game is game and not t.over and t.turn == 3  # game 2: dealer 2, eldest 3
    t.play_bots(bots)
    assert t.over
    assert len(t.actions) == 52 + (4 if game.bidding else 0)
    rec = t.record(["human", "heuristic", "heuristic", "heuristic"])
    assert rec.game == name and rec.seed == 11 and rec.game_id == 2
    assert replay(parse_record(rec.to_json())) == len(t.actions)
    assert rec.final_scores == t.totals
    again = Table.replay(11, t.actions, game_id=2, game=game)
    assert again.over and again.totals == t.totals


def test_a_table_plays_the_game_it_is_given_and_has_no_default() -> None:
    t = Table(3, game=TRIX_GAME)
    assert t.game.name == "trix" and int(t.view(0).contract_no[0]) == 0
    with pytest.raises(TypeError, match="game"):
        Table(3)  # type: ignore[call-arg]


def test_a_record_of_an_unfinished_game_is_refused() -> None:
    with pytest.raises(ValueError, match="not over"):
        Table(1, game=get_game("trump7")).record(["human"] * 4)


def test_a_trix_table_writes_an_envelope_replay_accepts() -> None:
    t = Table(5, game=TRIX_GAME)
    t.play_bots({s: load_strategy("random", "trix") for s in range(4)})
    rec = t.record(["random"] * 4)
    assert rec.chance == {"first_picker": int(t.state.first_picker[0])}
    assert replay(parse_record(rec.to_json())) == len(t.actions)


def test_each_game_has_its_table_parts() -> None:
    for name in ("trix", "trump7", "trump7-bid"):
        p = parts(get_game(name))
        assert callable(p.view.game_view) and callable(p.narrator.Narrator)


def test_a_seat_sees_only_its_own_hand_and_draws() -> None:
    """Through the whole game, no seat's view or history holds another seat's hidden
    card: the view's hand is its own, a draw shows its own card and the turned one."""
    game = get_game("trump7-bid")
    t = Table(987654321987, game=game)
    bot = load_strategy("random", "trump7-bid")
    view = parts(game).view
    while not t.over:
        for seat in range(4):
            own = int(t.state.hands[0, seat])
            assert int(t.view(seat).hand[0]) == own
            shown = view.game_view(t, seat, 2, None)
            assert set(shown["hand"]) == set(cards_of(own))
            text = json.dumps(shown)
            for other in range(4):
                if other != seat:
                    hidden = set(cards_of(int(t.state.hands[0, other])))
                    assert not hidden & set(shown["hand"])
            assert "stock" not in shown
            assert str(t.seed) not in text
            for e in t.history_for(seat):
                if isinstance(e, ev.Deal):
                    assert all(h == 0 for s, h in enumerate(e.hands) if s != seat)
                if isinstance(e, ev.Draw):
                    for k, c in enumerate(e.cards):
                        drawer = (e.first + k) % 4
                        assert c == -1 or drawer in (seat, e.turned_holder)
        t.act(t.thinker(bot)())
    assert t.over


def test_the_trump7_narrator_tells_a_whole_game() -> None:
    game = get_game("trump7-bid")
    t = Table(4, game=game)
    t.play_bots({s: load_strategy("heuristic", "trump7-bid") for s in range(4)})
    narrator = parts(game).narrator
    n = narrator.Narrator(Style(False), Names(0))
    lines = [line for e in t.history_for(0) for line in n.lines(e)]
    text = "\n".join(lines)
    assert "trumps are" in text and text.count("Trick ") == 13
    assert "the turned card" in text and "Game over." in text
    assert sum(1 for line in lines if re.search(r" bids? \d+ tricks?\.$", line)) == 4
    final = [line for line in lines if line.startswith("Final points:")]
    assert final == [f"Final points: {Names(0).row(t.totals)}"]
    log = narrator.log_lines(t.history_for(1), 1)
    assert log[-1].startswith("Loser") and all(line == line.strip() for line in log)
    assert any(line.startswith("Left") or " left" in line for line in log)
    assert isinstance(PlaceNames(1), Names)


def test_a_trump7_hand_shows_trumps_apart_and_playable_cards() -> None:
    narrator = parts(get_game("trump7")).narrator
    from trixsim.games.trump7.cards import parse_card

    hand = sum(1 << parse_card(c) for c in ("AS", "2S", "KH", "10C", "3D"))
    line = narrator.hand_line(Style(False), hand, trump=3, playable={parse_card("KH")})
    assert line == "♣ 10♣   ♦ 3♦   ♥ [K♥]   | trumps ♠ A♠ 2♠"
    assert line.index("♣") < line.index("| trumps ♠")
    assert "[K♥]" in line and "[A♠]" not in line
