"""Game records of any game: the ``trixsim-record/1`` envelope, written while games are
played and replayed through the game's rules alone.

A record names its game (a name registered in ``trixsim.games``), the run seed and the
game index (together they fix every deal: chance is an input of ``Game.init``), each
seat's strategy spec, the values of the game's ``record_fields`` (checked on replay: Trix
keeps its first picker), every action in order as ``[decision, seat, action]``, and the
result: final scores, winners and losers. Replaying deals the game again from the seed and
index, checks each action against the rules' legal actions for that seat and decision,
and checks that the game ends with the recorded result; no strategy is run. Trix's
richer ``trixsim-transcript/1`` records (trixsim.games.trix.transcript) are still written and read.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from trixsim.game import Game, mask_actions

FORMAT = "trixsim-record/1"
MAX_INT = 2**63 - 1
MAX_ACTIONS = 10_000
"""The most actions a record may hold (a Trix game takes under 1,000, trump7 52 or 56)."""

Move = tuple[int, int, int]
"""(decision id, seat, action) of one step of one game."""


class RecordFormatError(ValueError):
    """A line that is not a well-formed record; the message names the field."""


class ReplayError(ValueError):
    """A record that the rules refuse, or whose result differs; one line."""


@dataclass
class Record:
    """One game as ``trixsim-record/1`` holds it (see the module docstring)."""

    game: str
    seed: int
    game_id: int
    strategies: list[str]
    chance: dict[str, int]
    actions: list[Move]
    final_scores: list[int]
    winners: list[int] = field(default_factory=list)
    losers: list[int] = field(default_factory=list)

    def to_json(self) -> str:
        """The record as one compact JSON line (without the newline)."""
        return json.dumps({"format": FORMAT, "game": self.game, "seed": self.seed,
                           "game_id": self.game_id, "strategies": self.strategies,
                           "chance": self.chance, "actions": [list(m) for m in self.actions],
                           "final_scores": self.final_scores, "winners": self.winners,
                           "losers": self.losers}, separators=(",", ":"), ensure_ascii=True)


class ActionRecorder:
    """An observer of ``sim.play_batch`` that keeps every action of every game (it watches
    the steps, so the batch is played stepwise)."""

    def __init__(self, game: Game) -> None:
        self.game = game
        self.moves: dict[int, list[Move]] = {}

    def before_step(self, state: Any, actions: np.ndarray, legal: np.ndarray) -> None:
        """Keep the action each live game is about to take, with its decision and seat."""
        decision, seat, _ = self.game.pending(state, legal)
        for g in np.flatnonzero(decision >= 0):
            gid = int(state.game_id[g])
            self.moves.setdefault(gid, []).append((int(decision[g]), int(seat[g]),
                                                   int(actions[g])))

    def records(self, state: Any, seed: int, specs: Sequence[str]) -> list[Record]:
        """The finished batch's records, in batch order."""
        final = np.asarray(self.game.final_scores(state))
        win, lose = self.game.winners_losers(final)
        out = []
        for g in range(state.batch_size):
            gid = int(state.game_id[g])
            out.append(Record(
                self.game.name, int(seed), gid, list(specs),
                {f: int(getattr(state, f)[g]) for f in self.game.record_fields},
                self.moves.get(gid, []), [int(x) for x in final[g]],
                [int(s) for s in np.flatnonzero(win[g])],
                [int(s) for s in np.flatnonzero(lose[g])]))
        return out


def record_games(game: Game, seats: Sequence[Any], seed: int, game_ids: Any,
                 specs: Sequence[str]) -> list[Record]:
    """Play the games ``game_ids`` of ``game`` with ``seats`` and return their records."""
    from trixsim.sim import play_batch

    rec = ActionRecorder(game)
    st = play_batch(list(seats), seed, np.asarray(game_ids, dtype=np.int64), observer=rec,
                    game=game)
    return rec.records(st, seed, specs)


def _int(d: dict, key: str, lo: int, hi: int) -> int:
    v = d.get(key)
    if not isinstance(v, int) or isinstance(v, bool) or not lo <= v <= hi:
        raise RecordFormatError(f"{key} must be an integer from {lo} to {hi}, got {v!r}")
    return v


def _ints(d: dict, key: str, n: int | None = None) -> list[int]:
    v = d.get(key)
    if not isinstance(v, list) or (n is not None and len(v) != n) or not all(
            isinstance(x, int) and not isinstance(x, bool) for x in v):
        size = f"{n} " if n is not None else ""
        raise RecordFormatError(f"{key} must be a list of {size}integers, got {str(v)[:60]}")
    return v


def parse_record(line: str | dict) -> Record:
    """A record from its JSON line (or the decoded object); RecordFormatError otherwise.
    The game is not looked up here (``replay`` does)."""
    try:
        d = json.loads(line) if isinstance(line, str) else line
    except ValueError as exc:
        raise RecordFormatError(f"not JSON ({exc})") from None
    if not isinstance(d, dict):
        raise RecordFormatError("a record is a JSON object")
    if d.get("format") != FORMAT:
        raise RecordFormatError(f"format must be {FORMAT!r}, got {d.get('format')!r}")
    if not isinstance(d.get("game"), str) or not d["game"]:
        raise RecordFormatError("game must be the name of a game")
    strategies = d.get("strategies")
    if not isinstance(strategies, list) or not all(isinstance(s, str) for s in strategies):
        raise RecordFormatError("strategies must be a list of strategy specs")
    chance = d.get("chance", {})
    if not isinstance(chance, dict) or not all(
            isinstance(v, int) and not isinstance(v, bool) for v in chance.values()):
        raise RecordFormatError("chance must map field names to integers")
    actions = d.get("actions")
    if not isinstance(actions, list) or len(actions) > MAX_ACTIONS:
        raise RecordFormatError(f"actions must be a list of at most {MAX_ACTIONS} moves")
    moves = []
    for k, m in enumerate(actions):
        if not isinstance(m, list) or len(m) != 3 or not all(
                isinstance(x, int) and not isinstance(x, bool) and 0 <= x < 64 for x in m):
            raise RecordFormatError(f"actions[{k}] must be [decision, seat, action], "
                                    f"got {str(m)[:40]}")
        moves.append((m[0], m[1], m[2]))
    return Record(d["game"], _int(d, "seed", 0, MAX_INT), _int(d, "game_id", 0, MAX_INT),
                  list(strategies), dict(chance), moves, _ints(d, "final_scores"),
                  _ints(d, "winners"), _ints(d, "losers"))


def replay(rec: Record) -> int:
    """Play the record again through its game's rules alone and check it: every action
    legal for the recorded seat and decision, the game over after the last one, the chance
    fields, final scores, winners and losers as recorded. Returns the number of actions;
    ReplayError (one line) otherwise."""
    from trixsim.games import UnknownGameError, get_game

    try:
        game = get_game(rec.game)
    except UnknownGameError as exc:
        raise ReplayError(str(exc)) from None
    where = f"game {rec.game_id}"
    if len(rec.strategies) != game.n_seats:
        raise ReplayError(f"{where}: {len(rec.strategies)} strategies for {game.n_seats} "
                          "seats")
    st = game.init(rec.seed, np.array([rec.game_id], dtype=np.int64))
    fields = set(game.record_fields)
    if set(rec.chance) != fields:
        raise ReplayError(f"{where}: chance must give {', '.join(sorted(fields)) or 'nothing'}"
                          f" for {game.name}, not {', '.join(sorted(rec.chance)) or 'nothing'}")
    for f in sorted(fields):
        dealt = int(getattr(st, f)[0])
        if dealt != rec.chance[f]:
            raise ReplayError(f"{where}: {f} is {dealt} from the seed, the record says "
                              f"{rec.chance[f]}")
    legal = game.legal_action_mask(st)
    for k, (d, seat, a) in enumerate(rec.actions, 1):
        due, who = int(game.decision(st)[0]), int(game.to_act(st)[0])
        if due < 0:
            raise ReplayError(f"{where}: action {k} after the game is over")
        if (d, seat) != (due, who):
            raise ReplayError(f"{where}: action {k} is a {_decision(game, d)} by seat "
                              f"{seat}, but seat {who} must take a {_decision(game, due)}")
        if not (int(legal[0]) >> a) & 1:
            names = " ".join(game.action_name(d, x) for x in mask_actions(legal[0]))
            raise ReplayError(f"{where}: action {k}, {game.action_name(d, a)} by seat {seat}, "
                              f"is illegal: {game.why_illegal(st, 0, a)} (legal: {names})")
        legal = game.step(st, np.array([a], dtype=np.int64))
    if int(game.decision(st)[0]) >= 0:
        raise ReplayError(f"{where}: the record ends after {len(rec.actions)} actions, before "
                          "the game is over")
    final = np.asarray(game.final_scores(st))
    win, lose = game.winners_losers(final)
    got = {"final_scores": [int(x) for x in final[0]],
           "winners": [int(s) for s in np.flatnonzero(win[0])],
           "losers": [int(s) for s in np.flatnonzero(lose[0])]}
    for key, value in got.items():
        if getattr(rec, key) != value:
            raise ReplayError(f"{where}: {key} replay to {value}, the record says "
                              f"{getattr(rec, key)}")
    return len(rec.actions)


def _decision(game: Game, d: int) -> str:
    return game.decisions[d].name if 0 <= d < len(game.decisions) else f"decision {d}"


def play_by_play(rec: Record) -> list[str]:
    """A readable account of one game, action by action, in the game's own names."""
    from trixsim.games import get_game

    game = get_game(rec.game)
    lines = [f"{rec.game} game {rec.game_id}, seed {rec.seed}"
             + "".join(f", {k.replace('_', ' ')}: {v}" for k, v in rec.chance.items()),
             "seats: " + ", ".join(f"{s} {name}" for s, name in enumerate(rec.strategies))]
    for k, (d, seat, a) in enumerate(rec.actions, 1):
        lines.append(f"{k:>4}. seat {seat} {_decision(game, d)}: {game.action_name(d, a)}")
    lines += [f"final {game.score_word}: " + "  ".join(f"{x:>4}" for x in rec.final_scores),
              "winners: " + ", ".join(f"seat {s}" for s in rec.winners),
              "losers: " + ", ".join(f"seat {s}" for s in rec.losers)]
    return lines


__all__ = ["FORMAT", "ActionRecorder", "Move", "Record", "RecordFormatError", "ReplayError",
           "parse_record", "play_by_play", "record_games", "replay"]
