"""Write the golden games of tests/data/golden/: one record and one play-by-play per game.

    python scripts/make_golden_games.py              # (re)write every golden game
    python scripts/make_golden_games.py --scan FILE  # notable events of each record in FILE

Each golden game is named by its seed, strategies and game id, so it is played again
exactly by ``trixsim record --seed S --first-game ID --games 1 --strategies SPECS``. The
``.jsonl`` file is that record (the data tests/test_golden_games.py checks); the ``.txt``
file next to it is ``trixsim replay FILE --game ID``, for people to read.

The games were found by recording a few thousand games per lineup with ``trixsim record``
and listing what happens in them with ``--scan``. Rerun this script only when a change of
the rules engine, the record format or a strategy is meant to change the games; then
read the new ``.txt`` files, since tests/test_golden_games.py also checks that every game
still shows the events it was chosen for.
"""

from __future__ import annotations

import argparse
import io
import sys
from pathlib import Path

from click.testing import CliRunner

from trixsim.cli import cli
from trixsim.commands.record import record_games
from trixsim.games.trix.cards import KING_OF_HEARTS
from trixsim.games.trix.rules import trick_winner
from trixsim.games.trix.transcript import GameRecord
from trixsim.games.trix.transcript_check import check_record
from trixsim.games.trix.transcript_parse import parse_record
from trixsim.games.trix.types import GENERAL, RAY, TRIX
from trixsim.loading import load_seats

GOLDEN_DIR = Path(__file__).resolve().parent.parent / "tests" / "data" / "golden"

# the heuristic as it was when these games were chosen (every parameter pinned: later
# rules switched off, the defaults before tuning), so that the games still show the events
# they were chosen for
_H_REST = ("trix_min_score=2.5,trix_by_pick=2,seventh_weight=1.0,farcha_shed_tricks=5,"
           "lead_guard=15.0,place_own_weight=2.0,place_other_weight=1.0,place_ace_bonus=3.0,"
           "farcha_by_rank=false,over_1000_penalty=0.0")
_H = "declare_margin=-20.0," + _H_REST

GOLDEN: dict[str, tuple[int, str, int]] = {
    # name: (seed, strategies, game id)
    "docs_example": (5, "random,random,random,random", 0),
    "general_declared": (1, f"heuristic:{_H}", 902),
    "reset_1000_then_end": (1, f"heuristic:{_H}", 1897),
    "full_28_forced_trix": (
        3, f"heuristic-late-trix:{_H},random,heuristic:declare_margin=40,{_H_REST},random", 1313),
    "forced_trix_wraps": (1, "random", 141),
}

JACKS = (3, 11, 19, 27)


def record_line(seed: int, strategies: str, game_id: int) -> str:
    """The record of one game, as ``trixsim record`` writes it (one line, with newline)."""
    buf = io.StringIO()
    record_games(buf, load_seats(strategies, "trix"), seed, game_id, 1, "trix")
    return buf.getvalue()


def replay_text(path: Path, game_id: int) -> str:
    """The output of ``trixsim replay PATH --game ID`` (the game is checked first)."""
    res = CliRunner().invoke(cli, ["replay", str(path), "--game", str(game_id)])
    if res.exit_code != 0:
        raise SystemExit(f"replay of {path} failed: {res.output}")
    return res.output


def notable_events(rec: GameRecord) -> list[str]:
    """Short tags for what happens in a game, e.g. ``c13 ray: declared K♥ taken by seat 3``."""
    out: list[str] = []
    before = [0, 0, 0, 0]
    for c in rec.contracts:
        tag = f"c{c.number} {c.name}"
        if c.contract in (RAY, GENERAL) and c.ray_declared:
            holder = next(s for s, h in enumerate(c.hands) if KING_OF_HEARTS in h)
            winners = [trick_winner(lead, cards) for lead, cards in c.tricks or []]
            taker = next(w for (_, cards), w in zip(c.tricks or [], winners, strict=True)
                         if KING_OF_HEARTS in cards)
            who = "the picker" if holder == c.picker else f"seat {holder}"
            extra = ", all 8 tricks to one seat" if len(set(winners)) == 1 and \
                len(winners) == 8 and c.contract == GENERAL else ""
            out.append(f"{tag}: {who} declares, K♥ taken by seat {taker}{extra}")
        if c.contract == TRIX:
            moves = c.moves or []
            if not any(j in c.hands[c.picker] for j in JACKS):
                out.append(f"{tag}: forced, picker seat {c.picker} has no jack, "
                           f"seat {moves[0][0]} starts")
            aces = sum(1 for i in range(len(moves) - 1)
                       if moves[i][1] is not None and moves[i][1] & 7 == 7
                       and moves[i + 1][0] == moves[i][0])
            if aces:
                out.append(f"{tag}: {aces} extra turns after an ace")
        for s in range(4):
            if c.totals[s] == 0 and before[s] + c.points[s] == 1000:
                out.append(f"{tag}: seat {s} lands on 1000, reset to 0")
        before = c.totals
    n = len(rec.contracts)
    out.append(f"{n} contracts" + (", a total passed 1000" if max(rec.final_totals) > 1000
                                   else ""))
    return out


def write_all() -> None:
    """Record, check and write every golden game and its play-by-play."""
    GOLDEN_DIR.mkdir(parents=True, exist_ok=True)
    for name, (seed, strategies, game_id) in GOLDEN.items():
        line = record_line(seed, strategies, game_id)
        rec = parse_record(line)
        check_record(rec)
        path = GOLDEN_DIR / f"{name}.jsonl"
        path.write_text(line, encoding="utf-8", newline="\n")
        (GOLDEN_DIR / f"{name}.txt").write_text(replay_text(path, game_id), encoding="utf-8",
                                                newline="\n")
        print(f"{name}: {len(rec.contracts)} contracts, {len(line)} bytes")
        for tag in notable_events(rec):
            print(f"    {tag}")


def scan(path: Path) -> None:
    """Print the notable events of every record in ``path``, one game per line."""
    with path.open(encoding="utf-8") as fh:
        for line in fh:
            if line.strip():
                rec = parse_record(line)
                print(f"game {rec.game_id}: " + "; ".join(notable_events(rec)))


def main() -> None:
    """Command line: write the golden games, or scan a record file."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--scan", type=Path, help="list the notable events of FILE's games")
    args = parser.parse_args()
    if args.scan is not None:
        scan(args.scan)
    else:
        write_all()


if __name__ == "__main__":
    sys.exit(main())
