"""``trixsim run``: play many games in parallel and write outcome tables (being written)."""

from __future__ import annotations

import click


def register(group: click.Group) -> None:
    """Add this module's commands to the CLI group."""
