"""How any game's table text names seats and paints words, with no game in it.

``Style`` wraps text in ANSI colours when asked (red suits, bold playable cards, dim
others); each game's narrator (``trixsim.games.<name>.narrator``) writes its cards with
it. ``Names`` calls the seat at the keyboard "you" and the others "seat N";
``PlaceNames`` calls them by where a table draws them around that seat (you, right,
across, left), as the web table's seat boxes are.
"""

from __future__ import annotations

import os
from typing import TextIO

Seat = int
"""A seat, 0-3."""

_RED, _BOLD, _DIM, _RESET = "\x1b[31m", "\x1b[1m", "\x1b[2m", "\x1b[0m"


class Style:
    """How text looks: plain, or with ANSI colours (``color``)."""

    def __init__(self, color: bool = False) -> None:
        self.color = color

    @classmethod
    def for_stream(cls, stream: TextIO) -> Style:
        """Colour only on a terminal, and never when NO_COLOR is set (https://no-color.org)."""
        isatty = getattr(stream, "isatty", None)
        tty = bool(isatty and isatty())
        return cls(tty and not os.environ.get("NO_COLOR"))

    def _wrap(self, code: str, text: str) -> str:
        return f"{code}{text}{_RESET}" if self.color else text

    def paint(self, text: str, red: bool = False, playable: bool | None = None) -> str:
        """``text`` in red (``red``), bold when ``playable``, dim when not playable (None:
        neither), when colour is on."""
        if not self.color:
            return text
        codes = (_RED if red else "") + (
            _BOLD if playable else _DIM if playable is not None else "")
        return f"{codes}{text}{_RESET}" if codes else text

    def bold(self, text: str) -> str:
        """``text`` in bold when colour is on."""
        return self._wrap(_BOLD, text)


class Names:
    """How seats are named for the person at seat ``me``: "you", "seat 2"."""

    def __init__(self, me: Seat) -> None:
        self.me = me

    def __call__(self, seat: Seat, cap: bool = False) -> str:
        if seat == self.me:
            return "You" if cap else "you"
        return f"{'Seat' if cap else 'seat'} {seat}"

    def does(self, seat: Seat, verb: str, cap: bool = True) -> str:
        """``"You play"`` / ``"Seat 2 plays"`` (regular verbs, plus be and have)."""
        if seat == self.me:
            return f"{self(seat, cap)} {dict(is_='are', has='have').get(verb, verb)}"
        third = {"is_": "is", "has": "has", "pass": "passes", "draw": "draws"}.get(
            verb, verb + "s")
        return f"{self(seat, cap)} {third}"

    def row(self, values: list[int] | tuple[int, ...], sign: bool = False) -> str:
        """``you 120 · seat 1 40 · ...``."""
        return " · ".join(f"{self(s)} {v:+d}" if sign else f"{self(s)} {v}"
                          for s, v in enumerate(values))

    def personal(self, why: str) -> str:
        """A rules message about seat ``me`` (a game's ``why_illegal``) addressed to you."""
        me = f"seat {self.me} "
        for old, new in ((me + "does not", "you do not"), (me + "has ", "you have "),
                         (me + "must", "you must"),
                         ("cannot pass: it can", "cannot pass: you can"), (me, "you ")):
            why = why.replace(old, new)
        return why


class PlaceNames(Names):
    """Seats named by where a table draws them around the person at ``me`` ("you",
    "right", "across", "left"): two bots of one strategy stay apart."""

    PLACES = ("you", "right", "across", "left")

    def __call__(self, seat: Seat, cap: bool = False) -> str:
        if seat == self.me:
            return super().__call__(seat, cap)
        place = self.PLACES[(seat - self.me) % 4]
        return place.capitalize() if cap else place


__all__ = ["Names", "PlaceNames", "Seat", "Style"]
