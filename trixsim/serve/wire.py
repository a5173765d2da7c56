"""What a seat is sent: its view of the game and the events it may see, as JSON-ready
dicts, for any game.

The per-game part is the game's own ``view`` module (``trixsim.table.parts``): Trix's in
``trixsim.games.trix.view``, trump7's in ``trixsim.games.trump7.view``. Each builds a
seat's view from ``Table.view(seat)`` and ``Table.history_for(seat)`` field by field, so
nothing hidden reaches a browser unless a view names it. This module only picks the
game's view and puts the events a seat may see on the wire.
"""

from __future__ import annotations

from types import ModuleType
from typing import Any

from trixsim.table import Table, parts
from trixsim.terminal.names import PlaceNames


def view_of(table: Table) -> ModuleType:
    """The ``view`` module of the game ``table`` plays."""
    return parts(table.game).view


def event_dicts(table: Table, events: list[Any]) -> list[dict[str, Any]]:
    """Events (already as one seat may see them) for the wire; untold ones left out."""
    view = view_of(table)
    return [d for d in (view.event_dict(e) for e in events) if d is not None]


def game_view(table: Table, seat: int, looks_left: int,
              preselect: int | None) -> dict[str, Any]:
    """The game as ``seat`` may see it now (the ``game`` part of a state message)."""
    return view_of(table).game_view(table, seat, looks_left, preselect)


__all__ = ["PlaceNames", "event_dicts", "game_view", "view_of"]
