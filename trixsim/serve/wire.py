"""What a seat is sent: its view of the game and the events it may see, as JSON-ready dicts.

Everything a web client receives about the game is built here, from ``Table.view(seat)``
(own hand only) and ``Table.history_for(seat)``, field by field: nothing is copied over
wholesale, so a field added to the engine's state or events reaches no browser unless it
is named here. The engine's per-seat history already keeps a K♥ declaration left unmade
from everyone but the holder (it would say who holds the K♥); one more thing is held back
here: while the K♥ holder decides whether to declare, the other seats are told it is
that seat's turn to play, not that it is deciding on a declaration.

Completed tricks are not part of the state (won tricks lie face down: the "last trick"
may be looked at twice per contract); the events of one update do carry the trick just
completed, so a client can show it for a moment before clearing the table.
"""

from __future__ import annotations

from typing import Any

from trixsim.games.trix.cards import cards_of
from trixsim.games.trix.events import (
    Card,
    ContractEnd,
    Deal,
    Declare,
    Event,
    GameEnd,
    Out,
    Pass,
    Pick,
    Place,
    Trick,
)
from trixsim.games.trix.types import CONTRACT_NAMES, DECISION_NAMES, DECLARE, PICK, PLAY, TRIX
from trixsim.table import Table
from trixsim.terminal.text import Names, Narrator, Style, result_lines

LOG_LINES = 40
"""How many of the latest log lines a state carries."""


def event_dict(e: Event) -> dict[str, Any] | None:
    """One event for the wire (None: not told); a deal names only its picker."""
    c = e.contract
    if isinstance(e, Deal):
        return {"kind": "deal", "contract_no": c, "picker": e.picker}
    if isinstance(e, Pick):
        return {"kind": "pick", "contract_no": c, "seat": e.seat, "contract": e.choice}
    if isinstance(e, Declare):
        return {"kind": "declare", "contract_no": c, "seat": e.seat} if e.declared else None
    if isinstance(e, Card):
        return {"kind": "card", "contract_no": c, "seat": e.seat, "card": e.card,
                "trick": e.trick}
    if isinstance(e, Trick):
        return {"kind": "trick", "contract_no": c, "winner": e.winner, "leader": e.leader,
                "cards": list(e.cards), "trick": e.trick}
    if isinstance(e, Place):
        return {"kind": "place", "contract_no": c, "seat": e.seat, "card": e.card}
    if isinstance(e, Pass):
        return {"kind": "pass", "contract_no": c, "seat": e.seat}
    if isinstance(e, Out):
        return {"kind": "out", "contract_no": c, "seat": e.seat, "place": e.place}
    if isinstance(e, ContractEnd):
        return {"kind": "contract_end", "contract_no": c, "picker": e.picker,
                "points": list(e.points), "totals": list(e.totals)}
    if isinstance(e, GameEnd):
        return {"kind": "game_end", "totals": list(e.totals)}
    return None


class PlaceNames(Names):
    """Seats named by where the web table draws them around the person at ``me`` ("you",
    "right", "across", "left"), as its seat boxes are: two bots of one strategy stay apart."""

    PLACES = ("you", "right", "across", "left")

    def __call__(self, seat: int, cap: bool = False) -> str:
        if seat == self.me:
            return super().__call__(seat, cap)
        place = self.PLACES[(seat - self.me) % 4]
        return place.capitalize() if cap else place


def log_lines(events: list[Event], seat: int) -> list[str]:
    """The game so far as short sentences for the person at ``seat``: the terminal
    table's narration, except that a trick is told by its winner only (its cards lie
    face down), a contract's end in one line, and seats named by where they sit."""
    names = PlaceNames(seat)
    narrator = Narrator(Style(False), names)
    out: list[str] = []
    for e in events:
        if isinstance(e, Trick):
            out.append(f"{names.does(e.winner, 'take')} trick {e.trick + 1}.")
        elif isinstance(e, ContractEnd):
            name = CONTRACT_NAMES[narrator.contract] if narrator.contract >= 0 else "contract"
            out.append(f"{name.capitalize()} is over: {names.row(e.points, sign=True)}.")
        elif isinstance(e, GameEnd):
            out += ["Game over.", *result_lines(names, e.totals)]
        else:
            out += [line.strip() for line in narrator.lines(e) if line.strip()]
    return out


def _contract_history(events: list[Event]) -> list[dict[str, Any]]:
    """Every finished contract: number, picker, contract, points and totals."""
    picked: dict[int, int] = {}
    out = []
    for e in events:
        if isinstance(e, Pick):
            picked[e.contract] = e.choice
        elif isinstance(e, ContractEnd):
            out.append({"no": e.contract + 1, "picker": e.picker,
                        "contract": picked.get(e.contract, -1), "points": list(e.points),
                        "totals": list(e.totals)})
    return out


def _passed(events: list[Event], contract_no: int) -> list[int]:
    """Seats whose latest trix move in this contract was a pass."""
    last: dict[int, bool] = {}
    for e in events:
        if e.contract == contract_no and isinstance(e, Pass | Place):
            last[e.seat] = isinstance(e, Pass)
    return sorted(s for s, p in last.items() if p)


def game_view(table: Table, seat: int, looks_left: int,
              preselect: int | None) -> dict[str, Any]:
    """The game as ``seat`` may see it now (the ``game`` part of a state message)."""
    v = table.view(seat)
    events = table.history_for(seat)
    over = table.over
    turn = -1 if over else table.turn
    decision = DECISION_NAMES[table.decision] if not over else "done"
    legal: list[int] = []
    why: dict[str, str] = {}
    if turn == seat:
        legal = table.legal_actions()
        if table.decision == PICK:
            used = int(v.used[0][seat])
            names = Names(seat)
            for a in range(len(CONTRACT_NAMES)):
                if a not in legal and not used >> a & 1:
                    why[str(a)] = names.personal(table.why_illegal(a) or "not allowed")
    elif table.decision == DECLARE:
        decision = DECISION_NAMES[PLAY]  # others must not learn who holds the K♥
    contract = int(v.contract[0])
    contract_no = int(v.contract_no[0])
    leader = int(v.leader[0])
    trick = [{"seat": (leader + k) % 4, "card": int(c)}
             for k, c in enumerate(v.trick_cards[0]) if int(c) >= 0]
    return {
        "over": over,
        "contract_no": contract_no,
        "picker": int(v.picker[0]),
        "pick": int(v.pick[0]),
        "contract": contract,
        "declared": int(v.declared[0]),
        "turn": turn,
        "decision": decision,
        "hand": sorted(cards_of(int(v.hand[0]))),
        "legal": legal,
        "why": why,
        "trick": {"leader": leader, "cards": trick} if contract not in (-1, TRIX) else None,
        "tricks": [int(x) for x in v.tricks[0]],
        "trick_no": int(v.trick_no[0]),
        "hand_sizes": [int(x) for x in v.hand_sizes[0]],
        "layout": sorted(cards_of(int(v.played[0]))) if contract == TRIX else [],
        "passed": _passed(events, contract_no) if contract == TRIX else [],
        "totals": [int(x) for x in v.totals[0]],
        "left": [[a for a in range(len(CONTRACT_NAMES)) if not int(v.used[0][s]) >> a & 1]
                 for s in range(4)],
        "history": _contract_history(events),
        "looks_left": looks_left,
        "preselect": preselect,
        "log": log_lines(events, seat)[-LOG_LINES:],
    }


__all__ = ["LOG_LINES", "PlaceNames", "event_dict", "game_view", "log_lines"]
