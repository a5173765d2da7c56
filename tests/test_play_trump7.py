"""``trixsim play --game trump7`` (and trump7-bid): the person's game scripted through the
same table the command builds, recorded as an envelope that ``trixsim replay`` checks,
saved and resumed; bids, card names, marked cards and refusals as in Trix."""

from __future__ import annotations

import json
import random
from collections.abc import Callable
from pathlib import Path

import pytest
from click.testing import CliRunner

from trixsim.cli import cli
from trixsim.games import get_game
from trixsim.games.trump7.cards import card_name
from trixsim.games.trump7.state import BID
from trixsim.loading import load_strategy
from trixsim.records import parse_record
from trixsim.table import Table
from trixsim.terminal.trump7 import read_card

Chooser = Callable[[Table], int]


def randomly(seed: int) -> Chooser:
    rnd = random.Random(seed)
    return lambda table: rnd.choice(table.legal_actions())


def typed(decision: int, action: int, k: int) -> str:
    """What a person types: a bid as a number, a card in varied spellings."""
    if decision == BID:
        return str(action)
    name = card_name(action)
    return (name, name.lower(), name.replace("10", "T"), name.replace("10", "t").lower())[k % 4]


class Script:
    """The lines a person at ``seat`` types to play the game of ``seed``."""

    def __init__(self, game: str, seed: int, seat: int = 0, choose: Chooser | None = None,
                 stop_after: int | None = None) -> None:
        choose = randomly(1) if choose is None else choose
        self.table = Table(seed, game_id=0, game=get_game(game))
        bot = load_strategy("heuristic", game)
        bots = {s: bot for s in range(4) if s != seat}
        self.lines: list[str] = []
        k = 0
        while True:
            self.table.play_bots(bots)
            if self.table.over or (stop_after is not None and k == stop_after):
                break
            a = choose(self.table)
            self.lines.append(typed(self.table.decision, a, k))
            self.table.act(a)
            k += 1

    @property
    def text(self) -> str:
        return "\n".join(self.lines) + "\n"


def play(args: list[str], text: str) -> tuple[int, str]:
    result = CliRunner().invoke(cli, ["play", *args], input=text)
    assert not isinstance(result.exception, AssertionError)
    return result.exit_code, result.output


@pytest.mark.parametrize("game,seat", [("trump7", 0), ("trump7-bid", 2)])
def test_a_whole_trump7_game_is_played_recorded_and_replayed(tmp_path: Path, game: str,
                                                             seat: int) -> None:
    script = Script(game, 21, seat=seat)
    out = tmp_path / "g.jsonl"
    code, output = play(["--game", game, "--seed", "21", "--seat", str(seat),
                         "--record", str(out)], script.text)
    assert code == 0, output[-2000:]
    assert "Game over." in output and "Final points:" in output
    assert output.count("Your card: ") >= 13 and "| trumps " in output and "[" in output
    if game == "trump7-bid":
        assert "Your bid (0-13): " in output and "For example, bid 3" in output
    rec = parse_record(out.read_text())
    assert rec.game == game and rec.seed == 21
    assert rec.final_scores == script.table.totals
    assert rec.strategies[seat] == "human"
    res = CliRunner().invoke(cli, ["replay", str(out)])
    assert res.exit_code == 0 and "all consistent" in res.output, res.output


def test_mistakes_and_commands_are_answered(tmp_path: Path) -> None:
    script = Script("trump7-bid", 4)
    lines = ["help", "99", "score", "last", "hand", script.lines[0], "zz", "2Z", "hand"]
    code, output = play(["--game", "trump7-bid", "--seed", "4"], "\n".join(lines) + "\nquit\n\n")
    assert code == 0, output[-2000:]
    assert "'99' is not a bid" in output and "No trick has been completed yet." in output
    assert "'zz' is not a card or a command" in output
    assert "Points so far:" in output and "Game left unsaved." in output


def test_an_illegal_card_is_refused_with_the_rule() -> None:
    table = Table(3, game=get_game("trump7"))
    bot = load_strategy("heuristic", "trump7")
    table.play_bots({s: bot for s in (1, 2, 3)})
    while table.turn != 0 or len(table.legal_actions()) == len(
            [c for c in range(52) if int(table.view(0).hand[0]) >> c & 1]):
        table.act(table.thinker(bot)())  # until seat 0 must follow and cannot play all
        table.play_bots({s: bot for s in (1, 2, 3)})
    hand = [c for c in range(52) if int(table.view(0).hand[0]) >> c & 1]
    wrong = next(c for c in hand if c not in table.legal_actions())
    from trixsim.terminal.trump7 import Trump7Session

    said: list[str] = []
    s = Trump7Session(table, 0, {1: bot, 2: bot, 3: bot}, ["human"] + ["heuristic"] * 3,
                      said.append)
    assert s._move(card_name(wrong)) is None
    assert said[-1].startswith("Not allowed: you must follow")
    assert "seat 0" not in said[-1]


def test_a_saved_trump7_game_resumes(tmp_path: Path) -> None:
    whole = Script("trump7-bid", 9)
    part = Script("trump7-bid", 9, stop_after=6)
    save = tmp_path / "save.json"
    code, output = play(["--game", "trump7-bid", "--seed", "9"],
                        part.text + "quit\n" + f"{save}\n")
    assert code == 0, output[-2000:]
    saved = json.loads(save.read_text())
    assert saved["game"] == "trump7-bid" and len(saved["actions"]) == 6
    out = tmp_path / "g.jsonl"
    code, output = play(["--resume", str(save), "--record", str(out)],
                        "\n".join(whole.lines[6:]) + "\n")
    assert code == 0, output[-2000:]
    assert "Resumed the trump7-bid game of seed 9" in output
    assert parse_record(out.read_text()).final_scores == whole.table.totals
    code, output = play(["--resume", str(save), "--game", "trump7"], "")
    assert code == 2 and "--resume takes the seat" in output


def test_bad_games_are_refused_in_one_line() -> None:
    code, output = play(["--game", "trump8"], "")
    assert code == 2 and "unknown game 'trump8'" in output and "Traceback" not in output


def test_card_names_are_read_as_people_type_them() -> None:
    assert read_card("10h") == read_card("TH") == read_card("10♥") == 2 * 13 + 8
    assert read_card("2c") == 0 and read_card("A♠") == 51 and read_card("1X") is None
