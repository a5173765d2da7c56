"""Unfinished tables kept on disk, so that a server restart does not end their games.

After a change a table is written, whole and atomically, to ``FOLDER/ID.json``
(``trixsim-table/1``: its id, game and seed, whether the lobby lists it, each seat's
kind, name, seat token and bot spec, every action of the game so far, the last-trick
looks and the cards chosen in advance),
readable by the server's user only since seat tokens are in it. A new server on the same
folder reads the files back: the game is replayed from its seed and actions through the
rules, so a damaged or edited file is refused (and left where it is) rather than trusted.
The file of a finished game goes once its record is written. The server writes in a
worker thread, at most every ``Limits.keep_every`` seconds per server, and only files
whose text changed (trixsim.serve.keeper).
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

from trixsim.folders import write_atomic
from trixsim.games import UnknownGameError, get_game
from trixsim.serve.bots import BotList, BotRefused
from trixsim.serve.tables import BOT, OPEN, PERSON, GameTable, SeatInfo, clean_name
from trixsim.strategy import Strategy
from trixsim.table import Table, parts

FORMAT = "trixsim-table/1"
ID_RE = re.compile(r"^[A-Za-z0-9_-]{1,64}$")
TOKEN_RE = re.compile(r"^[A-Za-z0-9_-]{16,64}$")
MAX_FILE = 256 * 1024
"""Largest table file read back (a whole game's actions take a few KiB)."""
UNNAMED_GAME = "trix"
"""The game of a kept table whose file names none: files written before tables named
their game were Trix's (a fact of the old files, not a default: every file written now
names its game)."""


def snapshot(t: GameTable) -> dict[str, Any]:
    """What ``restore`` needs to rebuild the table ``t``."""
    return {"format": FORMAT, "id": t.id, "game": t.game_name, "listed": t.listed,
            "seed": t.seed,
            "seats": [{"kind": i.kind, "name": i.name, "token": i.token, "spec": i.spec,
                       "preselect": i.preselect} for i in t.seats],
            "actions": None if t.game is None else list(t.game.actions),
            "looks": [[s, n, k] for (s, n), k in sorted(t.looks.items())]}


StandIn = Strategy | Callable[[str], Strategy]
"""A stand-in bot, or the stand-in of each game by its name."""
Bots = BotList | Callable[[str], BotList]
"""The bots a table may seat, or those of each game by its name."""


def restore(d: Any, bot_after: float | None, stand_in: StandIn, records: Path | None,
            clock: Callable[[], float], bots: Bots | None = None) -> GameTable:
    """The table a snapshot describes, its people away until they reconnect; ValueError
    with a one-line reason when the snapshot is not one or the rules refuse its game.
    ``stand_in`` and ``bots`` may be given per game (a function of the game's name)."""
    if not isinstance(d, dict) or d.get("format") != FORMAT:
        raise ValueError(f"not a {FORMAT} file")
    tid, seed, seats = d.get("id"), d.get("seed"), d.get("seats")
    if not isinstance(tid, str) or not ID_RE.match(tid) or not _int(seed) \
            or not 0 <= seed < 2**64 \
            or not isinstance(seats, list) or len(seats) != 4:
        raise ValueError("damaged (id, seed or seats)")
    name = d.get("game", UNNAMED_GAME)
    try:
        view = parts(get_game(name)).view if isinstance(name, str) else None
    except (UnknownGameError, ValueError):
        view = None
    if view is None:
        raise ValueError("damaged (a game this server does not play)")
    listed = d.get("listed", False)
    if not isinstance(listed, bool):
        raise ValueError("damaged (listed)")
    if callable(stand_in) and not isinstance(stand_in, Strategy):
        stand_in = stand_in(name)
    t = GameTable(tid, bot_after, stand_in, records, clock=clock, game_name=name,
                  listed=listed)
    if bots is not None:
        t.bots = bots if isinstance(bots, BotList) else bots(name)
    t.seed = seed
    for s, x in enumerate(seats):
        t.seats[s] = _seat(x, s, clock(), t.bots, view.N_CARDS)
    actions = d.get("actions")
    if actions is not None:
        if any(i.kind == OPEN for i in t.seats):
            raise ValueError("a game with an open seat")
        if not isinstance(actions, list) or not all(_int(a) for a in actions):
            raise ValueError("damaged actions")
        t.game = Table.replay(seed, actions, game=get_game(name))
    for s, info in enumerate(t.seats):  # a chosen card must be in the seat's hand now
        if info.preselect is not None and (t.game is None or t.game.over or not (
                int(t.game.view(s).hand[0]) >> info.preselect) & 1):
            raise ValueError(f"damaged seat {s}: a chosen card not in its hand")
    looks = d.get("looks") or []
    if not isinstance(looks, list) or len(looks) > 4 * 64:
        raise ValueError("damaged last-trick looks")
    for x in looks:
        if not (isinstance(x, list) and len(x) == 3 and all(_int(v) for v in x)
                and 0 <= x[0] <= 3 and 0 <= x[1] < 64 and 0 <= x[2] <= view.LOOKS):
            raise ValueError("damaged last-trick looks")
        t.looks[(x[0], x[1])] = x[2]
    return t


def _int(v: Any) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


def _seat(x: Any, s: int, now: float, bots: BotList, n_cards: int) -> SeatInfo:
    if not isinstance(x, dict) or x.get("kind") not in (OPEN, PERSON, BOT):
        raise ValueError(f"damaged seat {s}")
    kind, name, token, spec = x["kind"], x.get("name"), x.get("token"), x.get("spec")
    pre = x.get("preselect")
    if not isinstance(name, str) or (pre is not None and not (_int(pre) and 0 <= pre < n_cards)):
        raise ValueError(f"damaged seat {s}")
    if kind != OPEN and clean_name(name, s) != name:
        raise ValueError(f"damaged seat {s}: a name the table would not give")
    if token is not None and not (isinstance(token, str) and TOKEN_RE.match(token)):
        raise ValueError(f"damaged seat {s}: a malformed seat token")
    if kind == OPEN:
        return SeatInfo()
    if kind == PERSON:
        if not isinstance(token, str) or len(token) < 16:
            raise ValueError(f"seat {s}: a person without a seat token")
        return SeatInfo(kind=PERSON, name=name, token=token, away_since=now, preselect=pre)
    if not isinstance(spec, str):
        raise ValueError(f"seat {s}: a bot without a strategy")
    try:
        bot = bots.load(spec)
    except BotRefused:
        raise ValueError(f"seat {s}: a bot this server does not seat ({spec[:60]!r})"
                         ) from None
    return SeatInfo(kind=BOT, name=name, spec=spec, bot=bot)


class TableStore:
    """The folder of unfinished tables (created readable by its owner only)."""

    def __init__(self, folder: Path) -> None:
        self.folder = Path(folder)
        self.folder.mkdir(mode=0o700, parents=True, exist_ok=True)
        self.written: dict[str, str] = {}
        """What was last written for each table (a save that changes nothing is skipped)."""
        self.writes = 0
        """Files written so far (a measure of the disk work)."""

    def path(self, table_id: str) -> Path:
        """The file of table ``table_id``."""
        return self.folder / f"{table_id}.json"

    def save(self, t: GameTable) -> None:
        """Write ``t`` now (its file goes instead once its game is over and recorded)."""
        self.put(t.id, self.text(t))

    @staticmethod
    def text(t: GameTable) -> str | None:
        """What ``t``'s file must hold now; None when the file must go (the game is over
        and recorded; kept while its record could not be written: the only copy)."""
        if t.phase == "over" and (t.record_path is not None or t.records is None):
            return None
        return json.dumps(snapshot(t)) + "\n"

    def put(self, table_id: str, text: str | None) -> bool:
        """Make table ``table_id``'s file hold ``text`` (None: remove it); whether the
        disk was touched (a text already written is skipped: no write, no fsync)."""
        if text is None:
            there = table_id in self.written or self.path(table_id).exists()
            self.drop(table_id)
            return there
        if self.written.get(table_id) == text:
            return False
        write_atomic(self.path(table_id), text, private=True)
        self.written[table_id] = text
        self.writes += 1
        return True

    def drop(self, table_id: str) -> None:
        """Remove the file of table ``table_id`` (one this server wrote), if any."""
        self.written.pop(table_id, None)
        self.path(table_id).unlink(missing_ok=True)

    def load(self, bot_after: float | None, stand_in: StandIn, records: Path | None,
             clock: Callable[[], float], bots: Bots | None = None
             ) -> tuple[list[GameTable], list[str]]:
        """Every table in the folder, and a line for each file that could not be read
        (such files are left as they are)."""
        tables, problems = [], []
        for f in sorted(self.folder.glob("*.json")):
            try:
                if f.stat().st_size > MAX_FILE:
                    raise ValueError(f"larger than {MAX_FILE // 1024} KiB")
                d = json.loads(f.read_text(encoding="utf-8"))
                t = restore(d, bot_after, stand_in, records, clock, bots)
                if f.stem != t.id:
                    raise ValueError(f"holds table {t.id}")
            except Exception as exc:  # any damage: one line, the file left, the server up
                why = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
                problems.append(f"{f}: {why}")
                continue
            tables.append(t)
        return tables, problems


__all__ = ["FORMAT", "TableStore", "restore", "snapshot"]
