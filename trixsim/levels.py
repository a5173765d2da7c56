"""Difficulty levels for people: easy, medium, hard and expert, each a bundled spec.

A person at the table (``trixsim play --level``, the web table's bot picker) chooses how
strong the bots are by a word, not a strategy spec. Each game names its own ladder in
``Game.levels``: for every level, the spec it plays and one line that says what that means
(the measured strength behind each step is in the README). A game without levels offers
none, and its players name strategies instead.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

LEVEL_NAMES = ("easy", "medium", "hard", "expert")
"""The ladder's steps, weakest first."""


@dataclass(frozen=True)
class Level:
    """One step of a game's ladder: its name, the spec it plays and what that means."""

    name: str
    spec: str
    about: str


class UnknownLevelError(ValueError):
    """A level name the game does not offer (the message lists those it does)."""


def levels_of(game: Any) -> tuple[Level, ...]:
    """``game``'s ladder, weakest first (empty when it offers none)."""
    return tuple(getattr(game, "levels", ()) or ())


def level_named(game: Any, name: str) -> Level:
    """The level of ``game`` called ``name`` (case and spaces ignored), or
    UnknownLevelError naming the levels it has."""
    wanted = name.strip().lower()
    ladder = levels_of(game)
    for level in ladder:
        if level.name == wanted:
            return level
    if not ladder:
        raise UnknownLevelError(f"{game.name} has no difficulty levels; name a strategy "
                                f"instead")
    raise UnknownLevelError(f"unknown level {name!r}; {game.name} has "
                            + ", ".join(level.name for level in ladder))


def describe(game: Any) -> list[str]:
    """One line per level: its name, its spec and what it means."""
    ladder = levels_of(game)
    width = max((len(level.name) for level in ladder), default=0)
    return [f"{level.name:<{width}}  {level.spec}: {level.about}" for level in ladder]


def check_ladder(ladder: tuple[Level, ...]) -> None:
    """Refuse a malformed ladder: the four names in order, each spec and line given."""
    names = tuple(level.name for level in ladder)
    if names != LEVEL_NAMES:
        raise ValueError(f"a ladder names the levels {', '.join(LEVEL_NAMES)} in that "
                         f"order, not {', '.join(names) or 'none'}")
    for level in ladder:
        if not level.spec.strip() or not level.about.strip() or "\n" in level.about:
            raise ValueError(f"level {level.name!r} needs a spec and a one-line "
                             f"explanation")


__all__ = ["LEVEL_NAMES", "Level", "UnknownLevelError", "check_ladder", "describe",
           "level_named", "levels_of"]
