"""Game records in the ``trixsim-transcript/1`` format (see docs/record-format.md).

Four pieces, each usable on its own:

- the record model (``GameRecord``, ``ContractRecord``), holding cards and contracts as ints;
- ``Recorder``, an engine observer for ``sim.play_batch`` that builds one record per game
  from the states and actions it sees;
- JSON (de)serialisation: ``GameRecord.to_json`` writes the documented key order, and
  ``parse_record`` checks every field and type, naming the bad one (``RecordFormatError``);
- ``check_record``, which replays a record through the engine and stops at the first
  thing the rules do not allow or the record gets wrong (``ReplayError``).
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any, ClassVar

import numpy as np

from trixsim.games.trix import GAME, GameState, init, legal_action_mask, step
from trixsim.games.trix.cards import SUITS, card_name, cards_of, mask_of, parse_card
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
from trixsim.games.trix.types import (
    CONTRACT_BY_NAME,
    CONTRACT_NAMES,
    DECLARE,
    DONE,
    GENERAL,
    PASS,
    RAY,
    TRIX,
)
from trixsim.records import RecordFormatError as EnvelopeFormatError
from trixsim.records import ReplayError as EnvelopeReplayError

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


# --- parsing ---------------------------------------------------------------------------

class RecordFormatError(EnvelopeFormatError):
    """A record that is not well-formed JSON of the format; ``path`` names the field."""

    def __init__(self, path: str, message: str) -> None:
        super().__init__(f"{path}: {message}" if path else message)
        self.path = path


_GAME_KEYS = ("format", "game_id", "seed", "strategies", "first_picker", "contracts",
              "final_totals", "winners", "losers")
_CONTRACT_KEYS = ("number", "picker", "pick", "contract", "hands", "ray_declared", "tricks",
                  "moves", "points", "totals")


SHOWN = 40
"""Most characters of a bad value that a message quotes (a line may hold megabytes)."""


def _cut(text: str) -> str:
    """``text`` cut to SHOWN characters, so that a message stays short."""
    return text if len(text) <= SHOWN else text[:SHOWN - 3] + "..."


def _show(v: Any) -> str:
    """A bad value for a message: JSON for a scalar, only the kind for a list or object
    (printing those could be long, or recurse too deep on nested input)."""
    if isinstance(v, list):
        return "a list"
    if isinstance(v, dict):
        return "an object"
    return _cut(json.dumps(v))


def _key(k: str) -> str:
    """A field name for a path: as is when plain, else quoted JSON (no newline gets out)."""
    return k if k.isidentifier() and k.isascii() and len(k) <= SHOWN else _show(k)


def _unique_keys(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    """json ``object_pairs_hook``: the object as a dict, refusing a key given twice
    (plain json.loads keeps the last one silently)."""
    d = dict(pairs)
    if len(d) != len(pairs):
        seen: set[str] = set()
        for k, _ in pairs:
            if k in seen:
                raise RecordFormatError("", f"duplicate key {_show(k)}")
            seen.add(k)
    return d


def _load(line: str) -> Any:
    """The JSON value of one line; RecordFormatError for anything json cannot read, so
    that no input (deep nesting, huge numbers, repeated keys) escapes as another error."""
    try:
        return json.loads(line, object_pairs_hook=_unique_keys)
    except RecordFormatError:
        raise
    except json.JSONDecodeError as exc:
        raise RecordFormatError("", f"invalid JSON: {exc}") from None
    except RecursionError:
        raise RecordFormatError("", "invalid JSON: nested too deeply") from None
    except ValueError as exc:  # an integer of more digits than Python converts
        raise RecordFormatError("", f"invalid JSON: {str(exc).split(';')[0]}") from None


def _int(v: Any, path: str, lo: int | None = None, hi: int | None = None) -> int:
    """``v`` if it is an integer in lo..hi; a bool is not an integer here."""
    if not isinstance(v, int) or isinstance(v, bool):
        raise RecordFormatError(path, f"expected an integer, got {_show(v)}")
    if (lo is not None and v < lo) or (hi is not None and v > hi):
        raise RecordFormatError(path, f"{_show(v)} is out of range {lo}..{hi}")
    return v


def _str(v: Any, path: str) -> str:
    """``v`` if it is a string of valid Unicode (a JSON escape can make a lone surrogate,
    which no UTF-8 output can print)."""
    if not isinstance(v, str):
        raise RecordFormatError(path, f"expected a string, got {_show(v)}")
    try:
        v.encode("utf-8")
    except UnicodeEncodeError:
        raise RecordFormatError(path, f"not valid Unicode text: {_show(v)}") from None
    return v


def _list(v: Any, path: str, n: int | None = None) -> list[Any]:
    """``v`` if it is a list (of ``n`` items when n is given)."""
    if not isinstance(v, list):
        raise RecordFormatError(path, f"expected a list, got {_show(v)}")
    if n is not None and len(v) != n:
        raise RecordFormatError(path, f"expected {n} items, got {len(v)}")
    return v


def _card(v: Any, path: str) -> int:
    """The card named by ``v``."""
    try:
        return parse_card(v)
    except ValueError:
        shown = _cut(repr(v)) if isinstance(v, str) else _show(v)
        raise RecordFormatError(path, f"unknown card {shown}") from None


def _object(v: Any, path: str, keys: tuple[str, ...], required: tuple[str, ...]
            ) -> dict[str, Any]:
    """``v`` if it is an object with only ``keys`` and all of ``required``."""
    if not isinstance(v, dict):
        raise RecordFormatError(path, f"expected an object, got {_show(v)}")
    prefix = path + "." if path else ""
    for k in v:
        if k not in keys:
            raise RecordFormatError(prefix + _key(k), "unexpected field")
    for k in required:
        if k not in v:
            raise RecordFormatError(prefix + k, "missing field")
    return v


def _seats(v: Any, path: str, n: int | None = None) -> list[int]:
    return [_int(x, f"{path}[{i}]", 0, 3) for i, x in enumerate(_list(v, path, n))]


def _ints4(v: Any, path: str) -> list[int]:
    return [_int(x, f"{path}[{i}]") for i, x in enumerate(_list(v, path, 4))]


def _parse_contract(v: Any, path: str) -> ContractRecord:
    base = ("number", "picker", "pick", "contract", "hands", "points", "totals")
    d = _object(v, path, _CONTRACT_KEYS, base)
    name = _str(d["contract"], f"{path}.contract")
    if name not in CONTRACT_BY_NAME:
        raise RecordFormatError(f"{path}.contract", f"unknown contract {_show(name)}")
    cid = CONTRACT_BY_NAME[name]
    need, forbid = (("moves",), ("ray_declared", "tricks")) if cid == TRIX else (
        ("ray_declared", "tricks"), ("moves",))
    for k in need:
        if k not in d:
            raise RecordFormatError(f"{path}.{k}", f"missing field (required in {name})")
    for k in forbid:
        if k in d:
            raise RecordFormatError(f"{path}.{k}", f"not allowed in {name}")
    hands = [[_card(c, f"{path}.hands[{s}][{i}]")
              for i, c in enumerate(_list(h, f"{path}.hands[{s}]", 8))]
             for s, h in enumerate(_list(d["hands"], f"{path}.hands", 4))]
    rec = ContractRecord(
        number=_int(d["number"], f"{path}.number", 1, 28),
        picker=_int(d["picker"], f"{path}.picker", 0, 3),
        pick=_int(d["pick"], f"{path}.pick", 1, 7), contract=cid, hands=hands,
        points=_ints4(d["points"], f"{path}.points"),
        totals=_ints4(d["totals"], f"{path}.totals"))
    if cid == TRIX:
        rec.moves = []
        for i, m in enumerate(_list(d["moves"], f"{path}.moves")):
            mp = f"{path}.moves[{i}]"
            seat, c = _list(m, mp, 2)
            rec.moves.append((_int(seat, mp + "[0]", 0, 3),
                              None if c is None else _card(c, mp + "[1]")))
    else:
        if not isinstance(d["ray_declared"], bool):
            raise RecordFormatError(f"{path}.ray_declared",
                                    f"expected true or false, got {_show(d['ray_declared'])}")
        rec.ray_declared = d["ray_declared"]
        rec.tricks = []
        for i, t in enumerate(_list(d["tricks"], f"{path}.tricks")):
            tp = f"{path}.tricks[{i}]"
            t = _object(t, tp, ("leader", "cards"), ("leader", "cards"))
            rec.tricks.append((_int(t["leader"], tp + ".leader", 0, 3),
                               [_card(c, f"{tp}.cards[{k}]")
                                for k, c in enumerate(_list(t["cards"], tp + ".cards", 4))]))
    return rec


def parse_record(line: str) -> GameRecord:
    """A ``GameRecord`` from one JSON line; RecordFormatError names the first bad field.

    Types are strict (a bool is no integer; ``seed`` may be left out, but not null).
    """
    required = tuple(k for k in _GAME_KEYS if k != "seed")
    d = _object(_load(line), "", _GAME_KEYS, required)
    if d["format"] != FORMAT:
        raise RecordFormatError("format", f"expected {json.dumps(FORMAT)}, "
                                          f"got {_show(d['format'])}")
    strategies = [_str(s, f"strategies[{i}]")
                  for i, s in enumerate(_list(d["strategies"], "strategies", 4))]
    contracts = _list(d["contracts"], "contracts")
    if not 1 <= len(contracts) <= 28:
        raise RecordFormatError("contracts", f"expected 1 to 28 contracts, got {len(contracts)}")
    return GameRecord(
        game_id=_int(d["game_id"], "game_id", 0, MAX_INT),
        seed=_int(d["seed"], "seed", 0, MAX_INT) if "seed" in d else None,
        strategies=strategies,
        first_picker=_int(d["first_picker"], "first_picker", 0, 3),
        contracts=[_parse_contract(c, f"contracts[{i}]") for i, c in enumerate(contracts)],
        final_totals=_ints4(d["final_totals"], "final_totals"),
        winners=_seats(d["winners"], "winners"), losers=_seats(d["losers"], "losers"))


# --- replay check ----------------------------------------------------------------------

class ReplayError(EnvelopeReplayError):
    """A record that the rules or the engine's scoring contradict."""


class _Replayer:
    """Feeds one record through a B=1 engine state; every failure is a ReplayError."""

    def __init__(self, rec: GameRecord) -> None:
        self.rec = rec
        self.st = init(rec.seed or 0, [rec.game_id], first_pickers=[rec.first_picker])
        self.where = f"game {rec.game_id}"

    def fail(self, message: str) -> None:
        raise ReplayError(f"{self.where}: {message}")

    def legal(self) -> int:
        return int(legal_action_mask(self.st)[0])

    def act(self, a: int) -> None:
        step(self.st, np.array([a], dtype=np.int64))

    def run(self) -> int:
        """Check the whole game; returns the number of contracts checked."""
        st, rec = self.st, self.rec
        for c in rec.contracts:
            self.where = f"game {rec.game_id}, contract {c.number} ({c.name})"
            if st.phase[0] == DONE:
                self.fail(f"the game ended after contract {int(st.contract_no[0])}, "
                          "but the record goes on")
            self.contract(c)
        self.where = f"game {rec.game_id}"
        if st.phase[0] != DONE:
            self.fail(f"the record stops after contract {len(rec.contracts)}, "
                      "but the game goes on")
        totals = [int(v) for v in st.totals[0]]
        if rec.final_totals != totals:
            self.fail(f"final_totals {rec.final_totals} != {totals}")
        win, lose = result_seats(totals)
        if rec.winners != win:
            self.fail(f"winners {rec.winners} != {win}")
        if rec.losers != lose:
            self.fail(f"losers {rec.losers} != {lose}")
        return len(rec.contracts)

    def contract(self, c: ContractRecord) -> None:
        st = self.st
        cn = int(st.contract_no[0])
        if c.number != cn + 1:
            self.fail(f"number {c.number} but this is contract {cn + 1}")
        if c.picker != int(st.picker[0]):
            self.fail(f"picker {c.picker} but seat {int(st.picker[0])} picks this contract")
        if c.pick != cn // 4 + 1:
            self.fail(f"pick {c.pick} but this is the picker's pick {cn // 4 + 1}")
        self.impose_deal(c.hands)
        legal = self.legal()
        if not (legal >> c.contract) & 1:
            options = ", ".join(CONTRACT_NAMES[k] for k in range(7) if (legal >> k) & 1)
            self.fail(f"{c.name} is not a legal pick for seat {c.picker} (legal: {options})")
        self.act(c.contract)
        if c.contract == TRIX:
            self.trix(c, cn)
        else:
            self.tricks(c, cn)
        if int(st.contract_no[0]) == cn:
            what = f"{len(c.moves or [])} moves" if c.contract == TRIX else \
                f"{len(c.tricks or [])} tricks"
            self.fail(f"the record stops after {what}, but the contract goes on")
        points = [int(v) for v in st.points[0]]
        if c.points != points:
            self.fail(f"points {c.points} != {points}")
        totals = [int(v) for v in st.totals[0]]
        if c.totals != totals:
            self.fail(f"totals {c.totals} != {totals}")

    def impose_deal(self, hands: list[list[int]]) -> None:
        """Check the four hands form a deal of all 32 cards and put them in the state."""
        seen: set[int] = set()
        for h in hands:
            for card in h:
                if card in seen:
                    self.fail(f"hands: {card_name(card)} is dealt twice")
                seen.add(card)
        if len(seen) != 32 or any(len(h) != 8 for h in hands):
            self.fail("hands: not a deal of the 32 cards, 8 to each seat")
        for s, h in enumerate(hands):
            self.st.hands[0, s] = mask_of(h)

    def tricks(self, c: ContractRecord, cn: int) -> None:
        st = self.st
        asked = False
        for i, (leader, cards) in enumerate(c.tricks or []):
            if int(st.contract_no[0]) != cn:
                self.fail(f"the contract ended after trick {i}, but the record has "
                          f"{len(c.tricks or [])} tricks")
            if leader != int(st.leader[0]):
                self.fail(f"trick {i + 1}: leader {leader} but seat {int(st.leader[0])} leads")
            for card in cards:
                if st.phase[0] == DECLARE:
                    asked = True
                    self.act(1 if c.ray_declared else 0)
                t = int(st.turn[0])
                if not (self.legal() >> card) & 1:
                    self.fail(f"trick {i + 1}: {card_name(card)} is not a legal play for "
                              f"seat {t} ({GAME.why_illegal(st, 0, card)})")
                self.act(card)
        if c.ray_declared and not asked:
            if c.contract in (RAY, GENERAL):
                self.fail("ray_declared is true, but the king of hearts holder never got "
                          "to declare")
            self.fail(f"ray_declared is true, but {c.name} has no declaration")

    def trix(self, c: ContractRecord, cn: int) -> None:
        st = self.st
        moves = c.moves or []
        for i, (seat, card) in enumerate(moves):
            if int(st.contract_no[0]) != cn:
                self.fail(f"the contract ended after move {i}, but the record has "
                          f"{len(moves)} moves")
            t = int(st.turn[0])
            if seat != t:
                self.fail(f"move {i + 1}: seat {seat} moves, but it is seat {t}'s turn")
            legal = self.legal()
            if card is None:
                if legal:
                    self.fail(f"move {i + 1}: seat {t} passes, but "
                              f"{GAME.why_illegal(st, 0, PASS)}")
                self.act(PASS)
            else:
                if not (legal >> card) & 1:
                    self.fail(f"move {i + 1}: {card_name(card)} is not a legal placement for "
                              f"seat {t} ({GAME.why_illegal(st, 0, card)})")
                self.act(card)


def check_record(rec: GameRecord) -> int:
    """Replay ``rec`` through the engine; ReplayError at the first disagreement.

    Returns the number of contracts checked. The record's seed only seeds the engine
    state; every deal comes from the record's hands.
    """
    return _Replayer(rec).run()


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
        return parse_record(line)

    def check(self, rec: GameRecord) -> int:
        """Replay a transcript; the contracts checked, ReplayError at a disagreement."""
        return check_record(rec)
