"""Difficulty levels: each game's ladder, ``play --level``, ``strategies`` and the web
table's bot picker."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner
from test_serve import create, hello, make, seat_bots

from trixsim.cli import cli
from trixsim.games import game_names, get_game
from trixsim.levels import (
    LEVEL_NAMES,
    Level,
    UnknownLevelError,
    check_ladder,
    level_named,
    levels_of,
)
from trixsim.loading import load_strategy
from trixsim.serve.bots import BotList

LADDERS = {"trix": ("random", "heuristic", "pimc", "expert"),
           "trump7": ("random", "heuristic", "pimc", "pimc:worlds=64"),
           "trump7-bid": ("random", "heuristic", "pimc", "pimc:worlds=64")}


@pytest.mark.parametrize("name", sorted(LADDERS))
def test_each_game_offers_four_levels_of_its_own_bundled_bots(name: str) -> None:
    game = get_game(name)
    ladder = levels_of(game)
    check_ladder(ladder)
    assert tuple(level.spec for level in ladder) == LADDERS[name]
    for level in ladder:
        bot = load_strategy(level.spec, name)
        assert type(bot).game in (name, name.removesuffix("-bid"), None)
    # the web table seats every level: its specs are within the limits strangers get
    bots = BotList(game=name)
    for level in ladder:
        assert bots.load(level.name) is not None


def test_a_game_without_levels_offers_none() -> None:
    game = get_game("trix")

    class Bare:
        name = "bare"

    assert levels_of(Bare()) == ()
    with pytest.raises(UnknownLevelError, match="bare has no difficulty levels"):
        level_named(Bare(), "easy")
    assert level_named(game, " Hard ").spec == "pimc"
    with pytest.raises(UnknownLevelError, match="trix has easy, medium, hard, expert"):
        level_named(game, "grandmaster")


def test_a_malformed_ladder_is_refused() -> None:
    good = tuple(Level(n, "random", "plays at random") for n in LEVEL_NAMES)
    check_ladder(good)
    with pytest.raises(ValueError, match="in that order"):
        check_ladder(good[::-1])
    with pytest.raises(ValueError, match="one-line"):
        check_ladder(good[:3] + (Level("expert", "pimc", "two\nlines"),))


def test_every_registered_game_with_levels_has_a_well_formed_ladder() -> None:
    for name in game_names():
        if levels_of(get_game(name)):
            check_ladder(levels_of(get_game(name)))


def _play(args: list[str], text: str = "quit\n\n") -> tuple[int, str]:
    result = CliRunner().invoke(cli, ["play", *args], input=text)
    return result.exit_code, result.output


@pytest.mark.parametrize(("game", "level", "spec"),
                         [("trix", "easy", "random"), ("trump7", "hard", "pimc"),
                          ("trump7-bid", "medium", "heuristic")])
def test_play_level_seats_the_levels_bots(game: str, level: str, spec: str) -> None:
    code, out = _play(["--game", game, "--level", level, "--seed", "3", "--seat", "1"])
    assert code == 0, out
    assert f"you are seat 1, against {spec}." in out.splitlines()[0], out


def test_play_level_refuses_bad_use_in_one_line(tmp_path: Path) -> None:
    code, out = _play(["--level", "grandmaster"])
    assert code == 2 and "unknown level 'grandmaster'; trix has easy, medium, hard, " \
                          "expert" in out and "Traceback" not in out
    code, out = _play(["--level", "hard", "--against", "pimc"])
    assert code == 2 and "give --level or --against, not both" in out
    save = tmp_path / "save.json"
    save.write_text("{}")
    code, out = _play(["--resume", str(save), "--level", "easy"])
    assert code == 2 and "--level" in out


def test_strategies_lists_the_games_levels() -> None:
    result = CliRunner().invoke(cli, ["strategies", "--game", "trump7"])
    assert result.exit_code == 0
    tail = result.output.split("levels (")[1].splitlines()
    assert [line.split()[:2] for line in tail[1:5]] == [
        ["easy", "random:"], ["medium", "heuristic:"], ["hard", "pimc:"],
        ["expert", "pimc:worlds=64:"]]


def test_the_web_table_offers_and_seats_levels(tmp_path: Path) -> None:
    _, client = make(tmp_path)
    data = client.get("/api/strategies?game=trump7").json()
    assert [lv["name"] for lv in data["levels"]] == list(LEVEL_NAMES)
    assert data["levels"][3]["spec"] == "pimc:worlds=64" and data["levels"][3]["about"]
    tid, token = create(client)
    with client.websocket_connect(f"/ws/{tid}") as ws:
        hello(ws, token)
        m = seat_bots(ws, [1], "hard")
        m = seat_bots(ws, [2], "expert")
    seats = {s["seat"]: s for s in m["seats"]}
    assert seats[1]["name"] == "hard (pimc)" and seats[1]["kind"] == "bot"
    assert seats[2]["name"] == "expert"  # a level and its spec of one name are shown once
