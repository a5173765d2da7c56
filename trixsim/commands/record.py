"""``trixsim record`` and ``trixsim replay``: write game records, check and show them.

Records are JSON Lines: any game's ``trixsim-record/1`` envelope (trixsim/records.py) and
a game's own format where it has one (``own_records()``: Trix's ``trixsim-transcript/1``);
``replay`` reads both, line by line. ``record`` writes its file atomically (a temporary
file next to the target, renamed at the end), so an interrupted run leaves either the old
file or the complete new one.
"""

from __future__ import annotations

import codecs
import os
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any, TextIO

import click

from trixsim.commands.options import Count, game_option

if TYPE_CHECKING:
    from trixsim.records import Record
    from trixsim.strategy import Strategy

    AnyRecord = Record | Any
    """An envelope, or a record in a game's own format (it names its ``game`` too)."""

TRANSCRIPT, ENVELOPE = "transcript", "record"
"""``record --format``: the game's own format (Trix's trixsim-transcript/1), or the
trixsim-record/1 envelope."""

MAX_INT = 2**63 - 1
"""The largest seed and game id of the records (trixsim.records.MAX_INT, Trix's transcripts'
too). Repeated here because the options need it when the module loads, and those modules
load numpy or numba (``record --help`` should not); tests/test_startup.py checks that they
agree."""

CHUNK = 2000
"""Games played per batch while recording (bounds the memory held by unwritten records)."""

MAX_LINE_BYTES = 1 << 20
"""Longest line ``replay`` reads: a full 28-contract record is about 18 kB, so a longer line
is no record, and reading it whole could take all the memory (a file with no newline)."""


def _open_temp(out: Path) -> tuple[TextIO, Path]:
    """A new temporary file in ``out``'s directory; BadParameter if it cannot be made."""
    parent = out.parent
    if out.is_dir():
        raise click.BadParameter(f"{out} is a directory", param_hint="--out")
    if not parent.is_dir():
        raise click.BadParameter(f"directory {parent} does not exist", param_hint="--out")
    try:
        fd, name = tempfile.mkstemp(prefix=f".{out.name}.", suffix=".tmp", dir=parent)
    except OSError as exc:
        raise click.BadParameter(f"cannot write in {parent}: {exc.strerror}",
                                 param_hint="--out") from None
    umask = os.umask(0)
    os.umask(umask)
    os.chmod(name, 0o666 & ~umask)
    return os.fdopen(fd, "w", encoding="utf-8", newline="\n"), Path(name)


def own_records(game: Any) -> Any | None:
    """A game's own record format (``recorder``, ``parse``, ``check``, ``format``), None
    when it writes only the envelope."""
    own = getattr(game, "own_records", None)
    return own() if own is not None else None


def record_games(out: TextIO, seats: list[Strategy], seed: int, first_game: int,
                 games: int, game: str, fmt: str | None = None) -> int:
    """Play ``games`` games of ``game`` from game id ``first_game`` and write one record
    per line (``fmt``: TRANSCRIPT, the game's own format; ENVELOPE, the envelope any game
    writes; None, the first of them the game has). ValueError when the game has no own
    format and TRANSCRIPT is asked for."""
    import numpy as np

    from trixsim.games import get_game
    from trixsim.records import record_games as envelopes
    from trixsim.sim import play_batch

    rules = get_game(game)
    own = own_records(rules)
    fmt = fmt or (TRANSCRIPT if own is not None else ENVELOPE)
    if fmt == TRANSCRIPT and own is None:
        raise ValueError(f"{game} has no records of its own, only the envelope "
                         f"(use --format {ENVELOPE})")
    labels = [getattr(s, "spec", s.label) for s in seats]  # specs reload the strategy
    done = 0
    for start in range(first_game, first_game + games, CHUNK):
        ids = np.arange(start, min(start + CHUNK, first_game + games), dtype=np.int64)
        if fmt == ENVELOPE:
            for r in envelopes(rules, seats, seed, ids, labels):
                out.write(r.to_json() + "\n")
        else:
            rec = own.recorder(seed, labels)
            st = play_batch(seats, seed, ids, observer=rec, game=rules)
            for one in rec.records(st):
                out.write(one.to_json() + "\n")
        done += len(ids)
    return done


@click.command("record")
@click.option("--games", "-n", type=Count(min=1), default=1, show_default=True,
              help="Number of games to play.")
@click.option("--seed", type=click.IntRange(0, MAX_INT), default=0, show_default=True,
              help="Run seed: deals and strategy draws are pure functions of it and the game id.")
@click.option("--strategies", "-s", default="random", show_default=True,
              help="Four comma-separated strategy specs, seats 0-3 (or one for all seats).")
@click.option("--out", "-o", type=click.Path(path_type=Path), required=True,
              help="The JSON Lines file to write.")
@click.option("--force", "-f", is_flag=True, help="Overwrite --out if it exists.")
@click.option("--first-game", type=click.IntRange(0, MAX_INT), default=0, show_default=True,
              help="Game id of the first game (ids run on from it).")
@click.option("--format", "fmt", type=click.Choice([TRANSCRIPT, ENVELOPE]), default=None,
              help="The game's own format (Trix's trixsim-transcript/1; the default where "
                   "there is one) or the trixsim-record/1 envelope (every game).")
@game_option
def record_cmd(games: int, seed: int, strategies: str, out: Path, force: bool,
               first_game: int, fmt: str | None, game: str) -> None:
    """Play games and write each one as a record (one JSON line): Trix's
    trixsim-transcript/1, or the trixsim-record/1 envelope of any game (--format).

    Exit codes: 0 written, 1 a strategy failed, 2 bad options (nothing is written).
    """
    from trixsim.games import get_game
    from trixsim.loading import StrategyLoadError, load_seats
    from trixsim.sim import StrategyError

    if first_game + games - 1 > MAX_INT:
        raise click.BadParameter("game ids would exceed 2**63-1", param_hint="--first-game")
    if fmt == TRANSCRIPT and own_records(get_game(game)) is None:
        raise click.BadParameter(f"{game} has no records of its own, only the envelope "
                                 f"(use --format {ENVELOPE})", param_hint="--format")
    try:
        seats = load_seats(strategies, game)
    except StrategyLoadError as exc:
        raise click.BadParameter(str(exc), param_hint="--strategies") from None
    if out.exists() and not out.is_dir() and not force:
        raise click.BadParameter(f"{out} exists (use --force to overwrite)", param_hint="--out")
    fh, tmp = _open_temp(out)
    try:
        with fh:
            n = record_games(fh, seats, seed, first_game, games, game, fmt)
        os.replace(tmp, out)
    except StrategyError as exc:
        raise click.ClickException(str(exc)) from None
    except OSError as exc:
        raise click.ClickException(f"cannot write {out}: {exc.strerror}") from None
    finally:
        tmp.unlink(missing_ok=True)
    click.echo(f"recorded {n} games to {out}")


def _decode(path: Path, no: int, raw: bytes) -> str:
    """Line ``no`` of ``path`` as text; ClickException naming the line when it is too long
    or not UTF-8. A byte order mark opening the file is dropped (JSON readers may)."""
    if len(raw) > MAX_LINE_BYTES and not raw.endswith(b"\n"):
        raise click.ClickException(f"{path}:{no}: line longer than {MAX_LINE_BYTES} bytes, "
                                   "too long for a game record")
    skip = len(codecs.BOM_UTF8) if no == 1 and raw.startswith(codecs.BOM_UTF8) else 0
    try:
        return raw[skip:].decode("utf-8")
    except UnicodeDecodeError as exc:
        raise click.ClickException(f"{path}:{no}: not UTF-8 text ({exc.reason} at byte "
                                   f"{skip + exc.start + 1} of the line)") from None


def _lines(path: Path) -> Iterator[tuple[int, str]]:
    """(line number, text) for each non-blank line of ``path``.

    The file is read as bytes and each line decoded on its own, so that an error can name
    its line; a line is read at most MAX_LINE_BYTES at a time.
    """
    try:
        with path.open("rb") as fh:
            no = 0
            while raw := fh.readline(MAX_LINE_BYTES + 1):
                no += 1
                text = _decode(path, no, raw)
                if text.strip():
                    yield no, text
    except OSError as exc:
        raise click.ClickException(f"cannot read {path}: {exc.strerror}") from None


def _own_formats() -> dict[str, Any]:
    """Format name -> the own record format of the registered game that has it."""
    from trixsim.games import game_names, get_game

    out: dict[str, Any] = {}
    for name in game_names():
        own = own_records(get_game(name))
        if own is not None:
            out.setdefault(own.format, own)
    return out


def _records(path: Path) -> Iterator[tuple[int, AnyRecord]]:
    """(line number, record) for each non-blank line, an envelope or a game's own format
    as its ``format`` says; ClickException on a bad line. A line of no known format is
    judged by the first own format's parser (Trix's transcripts), whose messages name the
    field, else by the envelope's."""
    import json

    from trixsim import records

    owns = _own_formats()
    for no, line in _lines(path):
        try:
            try:
                fmt = json.loads(line).get("format")
            except (ValueError, AttributeError, RecursionError):
                fmt = None
            fmt = fmt if isinstance(fmt, str) else None
            own = owns.get(fmt, next(iter(owns.values()), None))
            if fmt == records.FORMAT or own is None:
                yield no, records.parse_record(line)
            else:
                yield no, own.parse(line)
        except records.RecordFormatError as exc:
            raise click.ClickException(f"{path}:{no}: {exc}") from None


def _game_of(rec: AnyRecord) -> str:
    """The game a record plays (an own format's records name it too)."""
    return rec.game


def _check(path: Path, no: int, rec: AnyRecord) -> int:
    """Replay one record; its contracts (Trix's transcripts) or actions (envelopes)
    checked."""
    from trixsim import records
    from trixsim.games import get_game

    try:
        if isinstance(rec, records.Record):
            return records.replay(rec)
        return own_records(get_game(rec.game)).check(rec)
    except records.ReplayError as exc:
        raise click.ClickException(f"{path}:{no}: {exc}") from None


def show(rec: AnyRecord) -> list[str]:
    """A record's play-by-play: envelopes action by action in their game's names, a
    game's own format as that game shows it (Trix's transcripts contract by contract)."""
    from trixsim.games import get_game
    from trixsim.records import Record, play_by_play

    return play_by_play(rec) if isinstance(rec, Record) else \
        get_game(rec.game).play_by_play(rec)


def _game_or_id(ctx: click.Context, param: click.Parameter,
                value: str | None) -> str | int | None:
    """``--game``: a game's name, or (the option's older spelling) a game id, digits."""
    if value is None or not value.strip().isdigit():
        return value
    return int(value)


@click.command("replay")
@click.argument("file", required=False,
                type=click.Path(exists=True, dir_okay=False, path_type=Path))
@click.option("--game-id", "game_id", type=click.IntRange(0, 2**63 - 1), default=None,
              help="Show this game's play-by-play (after checking it).")
@click.option("--game", "game_opt", default=None, callback=_game_or_id, metavar="NAME",
              help="The game the records or the run must play (a name registered in "
                   "trixsim.games). A number here is a --game-id (its older spelling).")
@click.option("--run", "run_dir", type=click.Path(path_type=Path), default=None,
              help="Replay a game of a `trixsim run` folder from its seed (needs --game-id).")
@click.option("--lineup", type=int, default=0, show_default=True,
              help="With --run: which of the run's lineups to replay the game with.")
def replay_cmd(file: Path | None, game_id: int | None, game_opt: str | int | None,
               run_dir: Path | None, lineup: int) -> None:
    """Check every record of FILE against the rules engine, or show one game.

    Trix's transcripts: every pick, declaration, card and trix move is replayed from the
    recorded hands and must be legal; trick leaders, contract ends, points, totals and the
    result must match. Envelopes (any game): the game is dealt again from its seed and
    index, every action must be legal for its seat and decision, and the final scores,
    winners and losers must match. With --run DIR --game-id ID, the game is played again
    exactly from the run's seed, strategies and game index, compared whole rows (every
    column) with the run's tables, and shown; a game missing from the tables is an error.
    Exit codes: 0 all records check out, 1 a record is malformed or breaks a rule (the
    message names the line and the field, or the game and the contract), 2 usage errors
    (missing file, unknown game id or game, a folder that is not a run).
    """
    name = None
    if isinstance(game_opt, int):
        if game_id is not None and game_id != game_opt:
            raise click.UsageError("--game ID and --game-id name different games")
        game_id = game_opt
    elif game_opt is not None:
        from trixsim.games import UnknownGameError, get_game

        try:
            name = get_game(game_opt).name
        except UnknownGameError as exc:
            raise click.BadParameter(str(exc), param_hint="--game") from None
    if run_dir is not None:
        if file is not None:
            raise click.UsageError("give either FILE or --run, not both")
        if game_id is None:
            raise click.UsageError("--run needs --game-id ID")
        rec, matched = _from_run(run_dir, game_id, lineup, name)
        click.echo("\n".join(show(rec)))
        click.echo(matched)
        return
    if file is None:
        raise click.UsageError("missing FILE (or --run DIR --game-id ID)")
    if game_id is not None:
        for no, rec in _records(file):
            if rec.game_id == game_id and name in (None, _game_of(rec)):
                _check(file, no, rec)
                click.echo("\n".join(show(rec)))
                return
        raise click.BadParameter(f"no game {game_id} in {file}", param_hint="--game-id")
    games = contracts = actions = 0
    for no, rec in _records(file):
        if name is not None and _game_of(rec) != name:
            raise click.ClickException(f"{file}:{no}: the record plays {_game_of(rec)}, "
                                       f"not {name}")
        if hasattr(rec, "actions"):
            actions += _check(file, no, rec)
        else:
            contracts += _check(file, no, rec)
        games += 1
    if not games:
        raise click.ClickException(f"{file}: no game records")
    checked = ", ".join(x for x in (f"{contracts} contracts" if contracts else "",
                                    f"{actions} actions" if actions else "") if x)
    click.echo(f"{file}: {games} games, {checked or 'nothing'} checked, all consistent")


def _from_run(run_dir: Path, game_id: int, lineup: int,
              name: str | None = None) -> tuple[AnyRecord, str]:
    """Play game ``game_id`` of a run again and compare it, whole rows, with the run's
    tables (the run's game's, ``name`` if given must be it); returns the record (a
    game's own format where it has one, else an envelope) and the line saying it matched."""
    import numpy as np
    import pyarrow.parquet as pq

    from trixsim.commands import folder_failed
    from trixsim.games import get_game
    from trixsim.loading import StrategyLoadError, load_seats, split_specs
    from trixsim.records import record_games as envelopes
    from trixsim.runfolder import game_name
    from trixsim.runner import RunFolderError, read_run
    from trixsim.sim import play_batch

    try:
        meta = read_run(run_dir)
    except RunFolderError as exc:
        raise folder_failed(exc, "--run") from None
    first, n = meta["first_game"], meta["games"]
    if not first <= game_id < first + n:
        raise click.BadParameter(f"the run has games {first}..{first + n - 1}",
                                 param_hint="--game")
    if not 0 <= lineup < len(meta["lineups"]):
        raise click.BadParameter(f"the run has lineups 0..{len(meta['lineups']) - 1}",
                                 param_hint="--lineup")
    played = game_name(meta)
    if name is not None and played != name:
        raise click.BadParameter(f"the run plays {played}, not {name}", param_hint="--game")
    rules = get_game(played)
    specs = split_specs(meta["lineups"][lineup])
    try:
        seats = load_seats(meta["lineups"][lineup], played)
    except StrategyLoadError as exc:
        raise click.ClickException(f"cannot load the run's strategies: {exc}") from None
    ids = np.array([game_id], dtype=np.int64)
    own = own_records(rules)
    if own is not None:  # the game's own record (Trix's transcript, contract by contract)
        rec = own.recorder(meta["seed"], specs)
        game: AnyRecord = rec.records(play_batch(seats, meta["seed"], ids, observer=rec,
                                                 game=rules))[0]
    else:
        game = envelopes(rules, seats, meta["seed"], ids, specs)[0]
    outcomes = rules.outcomes(1, lineup)
    fresh = outcomes.tables(play_batch(seats, meta["seed"], ids, observer=outcomes,
                                       game=rules), specs)
    rows = 0
    for name in fresh:
        folder = Path(run_dir) / name
        try:
            stored = pq.read_table(folder, filters=[("game", "=", game_id),
                                                    ("lineup", "=", lineup)])
        except (OSError, ValueError) as exc:
            raise click.ClickException(f"cannot read {folder}: {exc}") from None
        if not stored.num_rows:
            raise click.ClickException(
                f"game {game_id} of lineup {lineup} is not in the run's {name} table (its "
                "chunk is not finished: complete the run with --resume), so the replay "
                "could not be compared with it")
        got = stored.to_pylist()
        want = fresh[name].select([c for c in stored.column_names
                                   if c in fresh[name].column_names]).to_pylist()
        for g, w in zip(got, want, strict=False):
            diff = [c for c in w if g.get(c) != w[c]]
            if diff:
                where = f"row {w['number']}" if "number" in w else "its game row"
                where = where.replace("row", "contract", 1) if name == "contracts" else where
                raise click.ClickException(
                    f"game {game_id} replays differently from the run's {name} table at "
                    f"{where} ({diff[0]}: replayed {w[diff[0]]!r}, recorded "
                    f"{g.get(diff[0])!r}; different strategy code or version?)")
        if len(got) != len(want):
            raise click.ClickException(f"game {game_id} replays to {len(want)} {name} rows, "
                                       f"the run recorded {len(got)}")
        rows += len(got)
    what = (f"{rows - 1} contract rows and the game row" if "contracts" in fresh
            else "the game row")
    return game, (f"game {game_id} (lineup {lineup}) matches the run's tables: {what}, "
                  "every column")


def register(group: click.Group) -> None:
    """Add this module's commands to the CLI group."""
    group.add_command(record_cmd)
    group.add_command(replay_cmd)
