"""The terminal table is generic: ``Session(table, ...)`` opens the session its game's
terminal plug-in names (``Game.terminal``), a game without one is refused in one line,
saves name their game (a save from before they did is Trix's), and what the person types
is read the same way for every game."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from trixsim.cli import cli
from trixsim.games import get_game
from trixsim.loading import load_strategy
from trixsim.table import Table
from trixsim.terminal import Session, game_record, load_save, terminal_of
from trixsim.terminal.text import read_name, read_typed_card, typed_card
from trixsim.terminal.trix import TrixSession
from trixsim.terminal.trump7 import Trump7Session


def _session(name: str, said: list[str]) -> Session:
    table = Table(5, game=get_game(name))
    bot = load_strategy("random", name)
    return Session(table, 0, {1: bot, 2: bot, 3: bot}, ["human"] + ["random"] * 3,
                   said.append)


@pytest.mark.parametrize(("name", "kind"), [("trix", TrixSession), ("trump7", Trump7Session),
                                            ("trump7-bid", Trump7Session)])
def test_a_session_is_its_games_plugin(name: str, kind: type) -> None:
    said: list[str] = []
    s = _session(name, said)
    assert type(s) is kind and terminal_of(get_game(name)).SESSION is kind
    s.status()
    assert any("Your hand:" in line for line in said)
    assert s.saved(5, 0, "random")["game"] == name  # every save names its game


def test_a_game_without_a_terminal_plugin_is_refused_in_one_line() -> None:
    class NoTable:
        name = "no-table"

    with pytest.raises(ValueError, match="cannot play 'no-table'") as exc:
        terminal_of(NoTable())  # type: ignore[arg-type]
    assert "\n" not in str(exc.value)


def test_records_are_the_games_own_or_the_envelope() -> None:
    for name, fmt in (("trix", "trixsim-transcript/1"), ("trump7", "trixsim-record/1")):
        table = Table(4, game=get_game(name))
        bot = load_strategy("random", name)
        table.play_bots({s: bot for s in range(4)})
        assert json.loads(game_record(table, 4, ["random"] * 4).to_json())["format"] == fmt


def test_a_save_without_a_game_resumes_as_trix(tmp_path: Path) -> None:
    save = tmp_path / "save.json"
    r = CliRunner().invoke(cli, ["play", "--seed", "9"], input="quit\n" + f"{save}\n")
    assert r.exit_code == 0, r.output
    doc = json.loads(save.read_text())
    assert doc["game"] == "trix"
    del doc["game"]  # as saves were written before they named their game
    save.write_text(json.dumps(doc))
    assert "game" not in load_save(save)
    r = CliRunner().invoke(cli, ["play", "--resume", str(save)], input="quit\n\n")
    assert r.exit_code == 0 and "Resumed the game of seed 9" in r.output, r.output
    assert "Contracts you may pick" in r.output or "Your hand" in r.output


def test_a_save_whose_moves_do_not_fit_its_game_is_damaged(tmp_path: Path) -> None:
    save = tmp_path / "save.json"
    base = {"format": "trixsim-play-save/1", "seed": 1, "game_id": 0, "seat": 0,
            "against": "random"}
    for game, action in (("trix", 33), ("trump7", 52)):  # one past each game's last action
        save.write_text(json.dumps({**base, "game": game, "actions": [action]}))
        r = CliRunner().invoke(cli, ["play", "--resume", str(save)], input="")
        assert r.exit_code == 2 and "a damaged save" in r.output, r.output
        assert "Traceback" not in r.output


def test_typed_cards_and_names_read_alike_in_every_game() -> None:
    assert typed_card(" q ♥ ") == "QH" and typed_card("ts") == "10S"
    assert typed_card("10♢") == "10D" and typed_card("A♤") == "AS"
    from trixsim.games.trix.cards import parse_card as trix_card
    from trixsim.games.trump7.cards import parse_card as trump7_card

    for parse in (trix_card, trump7_card):
        assert read_typed_card("Q♡", parse) == read_typed_card("qh", parse) == parse("QH")
        assert read_typed_card("1S", parse) is None and read_typed_card("", parse) is None
    names = ("dineri", "damet", "pli")
    assert read_name("D", names) == [0, 1] and read_name("pli", names) == [2]
    assert read_name("da", names) == [1] and read_name(" ", names) == []
