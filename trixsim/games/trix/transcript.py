"""Game records in the ``trixsim-transcript/1`` format (see docs/record-format.md).

Four pieces, each usable on its own:

- the record model (``GameRecord``, ``ContractRecord``), holding cards and contracts as ints;
- ``Recorder``, an engine observer for ``sim.play_batch`` that builds one record per game
  from the states and actions it sees;
- JSON (de)serialisation: ``GameRecord.to_json`` writes the documented key order, and
  ``transcript_parse.parse_record`` checks every field and type, naming the bad one
  (``RecordFormatError``);
- ``transcript_check.check_record``, which replays a record through the engine and stops
  at the first thing the rules do not allow or the record gets wrong (``ReplayError``).

``Transcripts`` bundles them as Trix's own record format (``TrixGame.own_records``).
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any, ClassVar

import numpy as np

from trixsim.games.trix import GameState
from trixsim.games.trix.cards import SUITS, card_name, cards_of
from trixsim.games.trix.events import (
    Card,
    ContractEnd,
    Deal,
    Declare,
    Event,
    Pass,
    Pick,
    Place,
    decode,
)
from trixsim.games.trix.rules import winners_losers
from trixsim.games.trix.types import CONTRACT_NAMES, TRIX

FORMAT = "trixsim-transcript/1"
MAX_INT = 2**63 - 1
"""Largest seed or game id the engine state (int64) holds."""


@dataclass
class ContractRecord:
    """One contract of a game. Cards are ints (trixsim.games.trix.cards), the contract an id.

    Trick contracts have ``tricks`` (leader, cards) and ``ray_declared``; trix has
    ``moves`` (seat, card or None for a pass) and neither of the others.
    """

    number: int
    picker: int
    pick: int
    contract: int
    hands: list[list[int]]
    ray_declared: bool | None = None
    tricks: list[tuple[int, list[int]]] | None = None
    moves: list[tuple[int, int | None]] | None = None
    points: list[int] = field(default_factory=lambda: [0, 0, 0, 0])
    totals: list[int] = field(default_factory=lambda: [0, 0, 0, 0])

    @property
    def name(self) -> str:
        """The contract's name, e.g. ``'pli'``."""
        return CONTRACT_NAMES[self.contract]

    def to_dict(self) -> dict[str, Any]:
        """The JSON object of this contract, keys in the documented order."""
        d: dict[str, Any] = {
            "number": self.number, "picker": self.picker, "pick": self.pick,
            "contract": self.name,
            "hands": [[card_name(c) for c in h] for h in self.hands],
        }
        if self.contract == TRIX:
            d["moves"] = [[s, None if c is None else card_name(c)] for s, c in self.moves or []]
        else:
            d["ray_declared"] = bool(self.ray_declared)
            d["tricks"] = [{"leader": lead, "cards": [card_name(c) for c in cards]}
                           for lead, cards in self.tricks or []]
        d["points"] = list(self.points)
        d["totals"] = list(self.totals)
        return d


@dataclass
class GameRecord:
    """One complete game: who played, how it started, every contract, the result."""

    game: ClassVar[str] = "trix"
    """The game a transcript plays (as an envelope's ``game`` names it)."""
    game_id: int
    seed: int | None
    strategies: list[str]
    first_picker: int
    contracts: list[ContractRecord] = field(default_factory=list)
    final_totals: list[int] = field(default_factory=lambda: [0, 0, 0, 0])
    winners: list[int] = field(default_factory=list)
    losers: list[int] = field(default_factory=list)

    def to_dict(self) -> dict[str, Any]:
        """The JSON object of this game, keys in the documented order (no seed if None)."""
        d: dict[str, Any] = {"format": FORMAT, "game_id": self.game_id}
        if self.seed is not None:
            d["seed"] = self.seed
        d.update(strategies=list(self.strategies), first_picker=self.first_picker,
                 contracts=[c.to_dict() for c in self.contracts],
                 final_totals=list(self.final_totals), winners=list(self.winners),
                 losers=list(self.losers))
        return d

    def to_json(self) -> str:
        """One JSON Lines line (no trailing newline)."""
        return json.dumps(self.to_dict(), separators=(",", ":"))


def result_seats(totals: list[int]) -> tuple[list[int], list[int]]:
    """Winners (lowest total) and losers (highest total), ascending seat lists (§10)."""
    win, lose = winners_losers(np.asarray(totals))
    return [s for s in range(4) if win[s]], [s for s in range(4) if lose[s]]


# --- recording -------------------------------------------------------------------------

class Recorder:
    """Engine observer that builds a ``GameRecord`` for every game of a batch from the
    engine's events: a deal keeps the hands, a pick opens a contract with them, a
    declaration, a card or a trix move is appended, a contract's end closes it with its
    points and totals. ``records(st)`` returns the games."""

    def __init__(self, seed: int | None, strategies: list[str]) -> None:
        self.seed = seed
        self.strategies = list(strategies)
        self._games: list[GameRecord] = []
        self._open: list[ContractRecord | None] = []
        self._dealt: list[tuple[int, ...]] = []
        self._where: dict[int, int] = {}

    def _ensure(self, st: GameState) -> None:
        if not self._games:
            fp, gid = st.first_picker.tolist(), st.game_id.tolist()
            self._games = [GameRecord(gid[g], self.seed, self.strategies, fp[g])
                           for g in range(st.batch_size)]
            self._open = [None] * st.batch_size
            self._dealt = [()] * st.batch_size
            self._where = {g: k for k, g in enumerate(gid)}

    def events(self, st: GameState, rows: np.ndarray) -> None:
        """Fold in the events of one ``init`` or ``step``."""
        self.fold(st, decode(rows, st.game_id))

    def fold(self, st: GameState, events: list[Event]) -> None:
        """Fold in decoded events, in order (e.g. a ``Table``'s whole history)."""
        self._ensure(st)
        for e in events:
            g = self._where[e.game]
            if isinstance(e, Deal):
                self._dealt[g] = e.hands
            elif isinstance(e, Pick):
                trix = e.choice == TRIX
                self._open[g] = ContractRecord(
                    number=e.contract + 1, picker=e.seat, pick=e.pick, contract=e.choice,
                    hands=[cards_of(h) for h in self._dealt[g]],
                    ray_declared=None if trix else False, tricks=None if trix else [],
                    moves=[] if trix else None)
            else:
                self._fold(g, e)

    def _fold(self, g: int, e: Event) -> None:
        rec = self._open[g]
        if isinstance(e, Declare):
            rec.ray_declared = e.declared
        elif isinstance(e, Card):
            if e.trick == len(rec.tricks):
                rec.tricks.append((e.seat, []))
            rec.tricks[-1][1].append(e.card)
        elif isinstance(e, Place | Pass):
            rec.moves.append((e.seat, e.card if isinstance(e, Place) else None))
        elif isinstance(e, ContractEnd):
            rec.points, rec.totals = list(e.points), list(e.totals)
            self._games[g].contracts.append(rec)
            self._open[g] = None

    def records(self, st: GameState) -> list[GameRecord]:
        """The finished games, with final totals and results from the final state."""
        self._ensure(st)
        for g, game in enumerate(self._games):
            game.final_totals = [int(v) for v in st.totals[g]]
            game.winners, game.losers = result_seats(game.final_totals)
        return self._games


def hand_by_suit(cards: list[int]) -> list[list[int]]:
    """A hand's cards per suit (H C D S), strongest first, for display."""
    return [sorted((c for c in cards if c >> 3 == s), reverse=True) for s in range(len(SUITS))]


class Transcripts:
    """Trix's own record format, as ``trixsim record`` and ``replay`` ask a game for one
    (``TrixGame.own_records``): write, parse and check ``trixsim-transcript/1`` lines."""

    format = FORMAT

    def recorder(self, seed: int, labels: list[str]) -> Recorder:
        """An observer of ``sim.play_batch`` whose ``records(state)`` gives the games."""
        return Recorder(seed, labels)

    def parse(self, line: str) -> GameRecord:
        """A transcript from its JSON line; RecordFormatError naming the field."""
        from trixsim.games.trix.transcript_parse import parse_record

        return parse_record(line)

    def check(self, rec: GameRecord) -> int:
        """Replay a transcript; the contracts checked, ReplayError at a disagreement."""
        from trixsim.games.trix.transcript_check import check_record

        return check_record(rec)
