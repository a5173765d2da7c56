"""What a Trix seat is shown at a table: its view of the game and the events it may see,
as JSON-ready dicts (the web table's per-game view; ``trixsim.serve.wire`` sends it).

Everything a web client receives about a Trix game is built here, from
``Table.view(seat)`` (own hand only) and ``Table.history_for(seat)``, field by field:
nothing is copied over wholesale, so a field added to the engine's state or events
reaches no browser unless it is named here. The engine's per-seat history already keeps
a K♥ declaration left unmade from everyone but the holder (it would say who holds the
K♥); one more thing is held back here: while the K♥ holder decides whether to declare,
the other seats are told it is that seat's turn to play, not that it is deciding on a
declaration.

Completed tricks are not part of the state (won tricks lie face down: the "last trick"
may be looked at twice per contract); the events of one update do carry the trick just
completed, so a client can show it for a moment before clearing the table.

Besides the view, what a table asks of the game: ``round_no`` (the looks at the last
trick are counted per contract), ``last_trick`` (the trick a seat may look at, or why
not), ``choose_refusal`` (why a card cannot be chosen in advance now) and
``PLAY_DECISIONS`` (the decisions a card chosen in advance answers).
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
from trixsim.games.trix.narrator import Names, Style, log_lines, points_so_far, trick_line
from trixsim.games.trix.types import (
    CONTRACT_NAMES,
    DECISION_NAMES,
    DECLARE,
    PICK,
    PLACE,
    PLAY,
    TRIX,
)

PLAY_DECISIONS = (PLAY, PLACE)
"""The decisions a card chosen in advance is played for."""
N_CARDS = 32
"""Card ids a client may name (0-31)."""
LOOKS = 2
"""How often the last trick may be looked at per contract."""
ROUND = "contract"
"""What ``LOOKS`` counts within: a contract."""

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


def game_view(table: Any, seat: int, looks_left: int,
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
        "points": _so_far(v, events, contract, contract_no),
        "left": [[a for a in range(len(CONTRACT_NAMES)) if not int(v.used[0][s]) >> a & 1]
                 for s in range(4)],
        "history": _contract_history(events),
        "looks_left": looks_left,
        "preselect": preselect,
        "log": log_lines(events, seat)[-LOG_LINES:],
    }


def _so_far(v: Any, events: list[Event], contract: int,
            contract_no: int) -> list[int] | None:
    """Each seat's points taken so far in the trick contract being played (None before
    the pick and in trix), as the terminal's ``score`` shows them."""
    if contract < 0 or contract == TRIX:
        return None
    tricks = [(e.winner, e.cards) for e in events
              if isinstance(e, Trick) and e.contract == contract_no]
    return points_so_far(contract, int(v.picker[0]), contract_no // 4 + 1,
                         int(v.declared[0]), tricks)[0]


def round_no(table: Any, seat: int) -> int:
    """The contract being played (the last trick's looks are counted per contract)."""
    return int(table.view(seat).contract_no[0])


def last_trick(table: Any, seat: int) -> Trick:
    """The last completed trick of this contract; ValueError saying why there is none."""
    v = table.view(seat)
    number = int(v.contract_no[0])
    if int(v.contract[0]) in (-1, TRIX):
        raise ValueError("there are no tricks in this contract")
    tricks = [e for e in table.history if isinstance(e, Trick) and e.contract == number]
    if not tricks:
        raise ValueError("no trick has been completed in this contract yet")
    return tricks[-1]


def trick_text(names: Names, e: Trick) -> str:
    """``Trick 3: you Q♥, right 7♥ … → Left takes it.`` without colour."""
    return (f"Trick {e.trick + 1}: {trick_line(Style(False), names, e.leader, e.cards)}"
            f" → {names.does(e.winner, 'take')} it.")


def choose_refusal(table: Any, seat: int) -> str | None:
    """Why ``seat`` may not choose a card in advance now (None: it may)."""
    if table.turn == seat and table.decision in PLAY_DECISIONS:
        return "it is your turn: play the card"
    if int(table.view(seat).contract[0]) < 0:
        return "wait for the contract to be picked"
    return None


__all__ = ["LOG_LINES", "LOOKS", "N_CARDS", "PLAY_DECISIONS", "choose_refusal", "event_dict",
           "game_view", "last_trick", "round_no", "trick_text"]
