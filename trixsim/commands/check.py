"""``trixsim check FOLDER``: verify any folder trixsim writes, without changing it."""

from __future__ import annotations

from pathlib import Path

import click

from trixsim.commands import folder_failed
from trixsim.runfolder import RunFolderError


def register(group: click.Group) -> None:
    """Add ``check`` to the CLI group."""

    @group.command("check")
    @click.argument("run_dir", metavar="FOLDER", type=click.Path(path_type=Path))
    @click.option("--game", default=None, metavar="NAME",
                  help="The game FOLDER must play [default: whatever its run.json, "
                       "tournament.json or state.json names].")
    def check_cmd(run_dir: Path, game: str | None) -> None:
        """Verify FOLDER, any folder trixsim writes; changes nothing.

        A run or comparison folder is checked as follows; a tournament folder as its
        tournament.json and every pair's run folder; a tuning folder as its state.json,
        history.csv (exactly the finished iterations), best.toml (loads) and verdict.json;
        a report folder for files trixsim does not write there.

        Every listed chunk must be present, of the size and SHA-256 recorded when it was
        written, and every table file must be listed. Every table is then read and
        checked by the rules: each contract's totals are the previous totals plus its
        points (1000 rule), games end when a total passes 1000 or after 28 contracts,
        final totals, winners and losers follow, and run.json's sums match. The game then
        re-derives every contract row: who picked what (turn, pick number, multiplier,
        trix by the 6th pick), the tricks and cards each seat took, the declaration, and
        each seat's points. Exit 0 when all is well, 1 when a problem was found (each
        printed on its own line), 2 when FOLDER is not one trixsim wrote (or plays
        another game than --game). Each game's tables are checked by its own rules.
        """
        from trixsim.checkfolders import check_folder, game_of_folder  # numba: when it runs

        if game is not None:
            from trixsim.games import UnknownGameError, get_game

            try:
                get_game(game)
            except UnknownGameError as exc:
                raise click.BadParameter(str(exc), param_hint="--game") from None
            played = game_of_folder(run_dir)
            if played is not None and played != game:
                raise click.UsageError(f"{run_dir} plays {played}, not {game}")

        try:
            kind, audit = check_folder(run_dir)
        except RunFolderError as exc:
            raise folder_failed(exc) from None
        for note in audit.notes:
            click.echo(f"note: {note}")
        for problem in audit.problems:
            click.echo(f"problem: {problem}")
        if kind in ("run", "compare", "tournament"):
            summary = (f"{run_dir}: {audit.chunks} chunk(s) read, {audit.games:,} games, "
                       f"{audit.checked}")
        elif kind == "tune":
            summary = (f"{run_dir}: tuning folder, {audit.games} iteration(s): state.json, "
                       "history.csv, best.toml and verdict.json")
        else:
            summary = f"{run_dir}: report folder: its files"
        if audit.ok:
            click.echo(f"{summary} all consistent")
            return
        raise click.ClickException(f"{summary} checked; {len(audit.problems)} problem(s)")

    del check_cmd
