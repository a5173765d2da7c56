"""Reading ``trixsim-transcript/1`` lines: ``parse_record`` checks every field and type
of a record and names the first bad one (``RecordFormatError``); values quoted in a
message are cut short, since a line may hold megabytes."""

from __future__ import annotations

import json
from typing import Any

from trixsim.games.trix.cards import parse_card
from trixsim.games.trix.transcript import FORMAT, MAX_INT, ContractRecord, GameRecord
from trixsim.games.trix.types import CONTRACT_BY_NAME, TRIX
from trixsim.records import RecordFormatError as EnvelopeFormatError


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

