"""``trixsim play``: one person against three bots at the terminal (trixsim.terminal),
in any game that names a terminal plug-in (``--game trump7``, ``--game trump7-bid``;
Trix by default)."""

from __future__ import annotations

import json
import secrets
import sys
from pathlib import Path
from typing import Any

import click

from trixsim.commands import Interrupted
from trixsim.commands.options import DEFAULT_GAME
from trixsim.folders import write_atomic

HUMAN = "human"
"""The record's name for the person's seat."""
SAVE_WITHOUT_GAME = "trix"
"""The game of a save that names none: saves written before they named their game were
Trix's."""


def _writable(path: Path, hint: str) -> None:
    """BadParameter now, before the game, if ``path`` could not be written at its end."""
    if path.is_dir():
        raise click.BadParameter(f"{path} is a directory", param_hint=hint)
    if not path.parent.is_dir():
        raise click.BadParameter(f"directory {path.parent} does not exist", param_hint=hint)


def _ask(prompt: str) -> str:
    """One line from the person (EOFError at the end of the input)."""
    return input(prompt)


def _offer_save(session: Any, seed: int, against: str) -> None:
    """After ``quit``: save the unfinished game if the person gives a file name."""
    try:
        name = _ask("Save the game to resume it later? File name (Enter: don't save): ")
    except (EOFError, KeyboardInterrupt):
        name = ""
    name = name.strip()
    if not name:
        click.echo("Game left unsaved.")
        return
    path = Path(name).expanduser()
    try:
        _writable(path, "file")
        write_atomic(path, json.dumps(session.saved(seed, 0, against)) + "\n")  # an old save
        # under that name stays whole if this write fails
    except (click.BadParameter, OSError) as exc:
        msg = exc.format_message() if isinstance(exc, click.BadParameter) else exc.strerror
        raise click.ClickException(f"cannot save to {path}: {msg}") from None
    click.echo(f"Saved. Resume with: trixsim play --resume {path}")


@click.command("play")
@click.option("--game", "game_name", default=None, metavar="NAME",
              help="The game: trix, trump7 or trump7-bid (trump7 with the bid).  "
                   f"[default: {DEFAULT_GAME}]")
@click.option("--seat", type=click.IntRange(0, 3), default=None,
              help="Your seat, 0-3 (play goes 0, 1, 2, 3).  [default: 0]")
@click.option("--against", default=None, metavar="SPEC",
              help="The bots' strategy spec (see `trixsim strategies`).  [default: the "
                   "medium level's, heuristic]")
@click.option("--level", default=None, metavar="LEVEL",
              help="How strong the bots are, instead of --against: easy, medium, hard "
                   "or expert (`trixsim strategies --game NAME` says what each plays).")
@click.option("--seed", type=click.IntRange(0, 2**63 - 1), default=None,
              help="Seed of the deals (and of the bots' draws).  [default: a random one, "
                   "printed]")
@click.option("--record", "record", type=click.Path(path_type=Path), default=None,
              metavar="FILE", help="Append the finished game to FILE as a record: "
                                   "trixsim-transcript/1 for Trix, the trixsim-record/1 "
                                   "envelope for other games (check it with `trixsim "
                                   "replay FILE`).")
@click.option("--resume", type=click.Path(exists=True, dir_okay=False, path_type=Path),
              default=None, metavar="FILE",
              help="Go on with a game saved when you quit (its seed, seat and bots).")
def play_cmd(game_name: str | None, seat: int | None, against: str | None,
             level: str | None, seed: int | None, record: Path | None,
             resume: Path | None) -> None:
    """Play Trix or trump7 at the terminal, you against three bots.

    Type a card (QH, 10S or TS), a contract name, y/n for the K♥ declaration, a bid
    (trump7-bid: 0-13), or a command: help, hand, score, last (the last trick, twice per
    contract or trump7 game), quit.
    Exit codes: 0 the game ended or you quit, 1 a bot failed or a file could not be
    written, 2 bad options, 130 the input ended or Ctrl-C.
    """
    from trixsim.errors import StrategyError
    from trixsim.games import UnknownGameError, get_game
    from trixsim.levels import UnknownLevelError, level_named
    from trixsim.loading import StrategyLoadError, load_strategy
    from trixsim.table import Table, parts
    from trixsim.terminal import QUIT, Session, Style, damaged, load_save, terminal_of
    from trixsim.terminal.names import PlaceNames

    saved: dict[str, Any] | None = None
    if resume is not None:
        if seat is not None or against is not None or seed is not None \
                or game_name is not None or level is not None:
            raise click.UsageError("--resume takes the seat, bots, seed and game from the "
                                   "save; give none of --seat, --against, --level, --seed, "
                                   "--game")
        try:
            saved = load_save(resume)
        except ValueError as exc:
            raise click.BadParameter(str(exc), param_hint="--resume") from None
        seat, against, seed = saved["seat"], saved["against"], saved["seed"]
        game_name = saved.get("game", SAVE_WITHOUT_GAME)
    game_name = DEFAULT_GAME if game_name is None else game_name
    try:
        game = get_game(game_name)
        parts(game)
        terminal_of(game)
    except (UnknownGameError, ValueError) as exc:
        raise click.BadParameter(str(exc), param_hint="--game") from None
    if saved is not None and resume is not None \
            and any(a >= game.n_actions for a in saved["actions"]):
        raise click.BadParameter(damaged(resume), param_hint="--resume")
    seat = 0 if seat is None else seat
    if level is not None:
        if against is not None:
            raise click.UsageError("give --level or --against, not both")
        try:
            against = level_named(game, level).spec
        except UnknownLevelError as exc:
            raise click.BadParameter(str(exc), param_hint="--level") from None
    against = "heuristic" if against is None else against.strip()
    seed = secrets.randbelow(2**31) if seed is None else seed
    if record is not None:
        _writable(record, "--record")
    try:
        bot = load_strategy(against, game_name)
    except StrategyLoadError as exc:
        raise click.BadParameter(str(exc), param_hint="--against") from None
    labels = [HUMAN if s == seat else against for s in range(4)]
    table = Table(seed, game_id=0, game=game)
    session = Session(table, seat, {s: bot for s in range(4) if s != seat}, labels,
                      say=click.echo, style=Style.for_stream(sys.stdout))
    if sys.stdin.isatty():
        try:
            import readline  # noqa: F401  (line editing for input())
        except ImportError:
            pass
    try:
        if saved is not None:
            try:
                session.replay(saved["actions"])
            except ValueError as exc:
                raise click.ClickException(f"{resume} does not fit its game: {exc}") from None
            which = "" if game_name == DEFAULT_GAME else f"{game_name} "
            click.echo(f"Resumed the {which}game of seed {seed}: you are seat {seat} "
                       f"against {against}.")
        else:
            title = session.title or game_name
            again = "" if game_name == DEFAULT_GAME else f"--game {game_name} "
            click.echo(f"{title}: you are seat {seat}, against {against}. Seed {seed} "
                       f"({again}--seed {seed} deals the same cards).")
        places = PlaceNames(seat)
        click.echo("Around you: " + ", ".join(f"{places(s)} is seat {s}" for s in
                                              ((seat + k) % 4 for k in (1, 2, 3)))
                   + " (turns pass to your right).")
        click.echo("Type help for the commands. Playable cards are in [brackets].")
        outcome = session.run(_ask)
    except StrategyError as exc:
        raise click.ClickException(str(exc)) from None
    except EOFError:
        click.echo()  # end the prompt's line
        raise Interrupted("the input ended; game abandoned") from None
    except KeyboardInterrupt:
        click.echo()
        raise Interrupted("interrupted; game abandoned") from None
    if outcome == QUIT:
        _offer_save(session, seed, against)
        return
    if record is not None:
        line = _record_line(table, seed, labels)
        try:
            with record.open("a", encoding="utf-8", newline="\n") as fh:
                fh.write(line + "\n")
        except OSError as exc:
            raise click.ClickException(f"cannot write {record}: {exc.strerror}") from None
        click.echo(f"The game is saved in {record} (trixsim replay {record} checks it).")


def _record_line(table: Any, seed: int, labels: list[str]) -> str:
    """The finished game as a record line: in the game's own format where its terminal
    plug-in writes one (Trix: trixsim-transcript/1), else the trixsim-record/1 envelope,
    which is replayed first (as ``replay`` would)."""
    from trixsim.records import Record, ReplayError, replay
    from trixsim.terminal import game_record

    rec = game_record(table, seed, labels)
    if isinstance(rec, Record):
        try:
            replay(rec)
        except ReplayError as exc:  # the table and the rules disagree: a bug, said plainly
            raise click.ClickException(f"the game's record does not replay: {exc}") from None
    return rec.to_json()


def register(group: click.Group) -> None:
    """Add ``play`` to the CLI group."""
    group.add_command(play_cmd)
