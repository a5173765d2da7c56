"""``trixsim strategies``: list the available strategies with their parameters."""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any

import click

from trixsim.commands.options import game_option

if TYPE_CHECKING:
    from trixsim.loading import StrategyInfo


def _as_dict(info: StrategyInfo) -> dict[str, Any]:
    """One strategy as plain JSON-able values."""
    out: dict[str, Any] = {"name": info.name, "source": info.source, "target": info.target}
    cls = info.cls
    if cls is None:
        out["error"] = info.error
        return out
    out["description"] = cls.description
    out["game"] = cls.game
    out["observes"] = None if cls.observes is None else sorted(cls.observes)
    from trixsim.strategy import decision_fields  # here: --help imports no numba

    narrow = decision_fields(cls)
    out["observes_by_decision"] = None if narrow is None else {
        d: sorted(f) for d, f in sorted(narrow.items())}
    out["params"] = [
        {"name": k, "type": p.type.__name__, "default": p.default, "doc": p.doc}
        for k, p in cls.params.items()
    ]
    return out


def _as_text(info: StrategyInfo, same_as: str | None = None) -> str:
    """One strategy as a few indented lines (``same_as``: a strategy listed above with
    the same parameters, named instead of repeating them)."""
    lines = [f"{info.name}  [{info.source}: {info.target}]"]
    if info.cls is None:
        lines.append(f"  error: {info.error}")
        return "\n".join(lines)
    lines.append(f"  {info.cls.description}")
    lines.append(f"  game: {info.cls.game or 'any'}")
    if not info.cls.params:
        lines.append("  parameters: none")
    elif same_as is not None:
        lines.append(f"  parameters: as {same_as}")
    else:
        lines.append("  parameters:")
        lines += [f"    {k} ({p.type.__name__}, default {p.default!r}): {p.doc}"
                  for k, p in info.cls.params.items()]
    return "\n".join(lines)


def _given(specs: tuple[str, ...], game: str) -> list[StrategyInfo]:
    """The strategies of ``game`` named on the command line (names, file paths or import
    paths)."""
    from trixsim.loading import StrategyInfo, load_strategy, parse_spec

    out = []
    for spec in specs:
        cls = type(load_strategy(spec, game))
        out.append(StrategyInfo(cls.name, "given", parse_spec(spec).target or spec, cls))
    return out


@click.command("strategies")
@click.argument("specs", nargs=-1, metavar="[STRATEGY]...")
@click.option("--json", "as_json", is_flag=True, help="Machine-readable output (a JSON list).")
@game_option
def strategies_command(specs: tuple[str, ...], as_json: bool, game: str) -> None:
    """List the strategies of a game (--game): bundled ones and those installed through
    the 'trixsim.strategies' entry point, with their descriptions and parameters. A
    strategy of game "any" plays every game.

    Give STRATEGY names, file paths (bots/my_bot.py:MyBot) or import paths
    (package.module:MyBot) to describe only those.

    \b
    Strategy specs, as accepted by `run` and `record`:
      NAME | path/to/file.py[:Class] | package.module:Class
      SPEC:key=value,key=value      parameters on the command line
      SPEC@params.toml              parameters from the file's [params] table
      params.toml                   the file names it: strategy = "NAME"
    """
    # the strategies load numba: only when the command runs
    from trixsim.loading import StrategyLoadError, available

    try:
        infos = _given(specs, game) if specs else available(game)
    except StrategyLoadError as exc:
        raise click.UsageError(str(exc)) from None
    if as_json:
        click.echo(json.dumps([_as_dict(i) for i in infos], indent=2, default=repr))
    else:
        blocks: list[str] = []
        seen: dict[int, str] = {}
        for info in infos:
            params = info.cls.params if info.cls is not None else None
            blocks.append(_as_text(info, seen.get(id(params))))
            if params:
                seen.setdefault(id(params), info.name)
        click.echo("\n".join(blocks))
        if not specs:
            _echo_levels(game)


def _echo_levels(game_name: str) -> None:
    """The game's difficulty levels, one line each (none: nothing)."""
    from trixsim.games import get_game
    from trixsim.levels import describe

    lines = describe(get_game(game_name))
    if lines:
        click.echo("\nlevels (trixsim play --level, and the web table's bot picker):")
        click.echo("\n".join(f"  {line}" for line in lines))


def register(group: click.Group) -> None:
    """Add this module's commands to the CLI group."""
    group.add_command(strategies_command)
