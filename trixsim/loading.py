"""Find strategies and build them with parameters.

A strategy spec names a strategy, optionally a TOML parameter file, optionally
command-line parameters::

    heuristic                           bundled strategy (or an installed one) by name
    bots/my_bot.py:MyBot                a class in a Python file
    bots/my_bot.py                      the file's only Strategy subclass
    mypackage.bots:MyBot                a class by import path
    heuristic:declare_margin=20,trix_by_pick=4    parameters, key=value
    heuristic@params.toml               parameters from the [params] table of a TOML file
    params.toml                         the file names the strategy: strategy = "heuristic"
    heuristic@params.toml:declare_margin=20       both; the command line wins
    expert@runs/train/model.npz         a data file (weights) for a strategy that takes one

Names come from every module of the ``strategies`` package (each Strategy subclass that
defines its own ``name``; modules starting with ``_`` are skipped), then from installed
packages through the ``trixsim.strategies`` entry-point group (entry name = strategy
name; bundled names take precedence). A strategy names its game (``Strategy.game``, a
name of ``trixsim.games``; None for one that plays any game, as the uniform ``random``):
two games may each have a strategy of the same name, and loading for a game finds that
game's. A strategy loaded for a game is refused in one line when it plays another, when
its ``observes`` names a field that game's observations lack, or when it answers a
decision that game does not have. Parameters are checked against the strategy's
declared ``params``: values are converted to the declared type, unknown names refused.
Parameter values cannot contain ``,`` or ``:`` on the command line (use a TOML file).

This module loads; finding and checking classes is ``trixsim.strategy_find``, specs and
parameters ``trixsim.strategy_specs``, and their public names are all here too.
"""

from __future__ import annotations

from typing import Any

from trixsim.strategy import Strategy
from trixsim.strategy_find import (
    ENTRY_POINT_GROUP,
    StrategyInfo,
    _check_methods,
    available,
    bundled,
    check_class,
    check_game,
    find_class,
    names,
    plays,
    spec_files,
)
from trixsim.strategy_specs import (
    _COPIES,
    Spec,
    StrategyLoadError,
    _read_toml,
    _relative_to,
    convert_params,
    describe_params,
    is_data_file,
    parse_spec,
    use_copies,
)


def build(cls: type[Strategy], values: dict[str, Any], who: str,
          game: str | None = None) -> Strategy:
    """An instance of ``cls`` with checked parameters, to play ``game`` (None: any); ``who``
    names it in errors."""
    checked = convert_params(cls, values, who)
    try:
        strategy = cls(**checked)
    except Exception as exc:
        raise StrategyLoadError(f"strategy {who!r} could not be built: "
                                f"{type(exc).__name__}: {exc}") from None
    _check_methods(strategy, f"strategy {who!r}", game)
    return strategy


def load_strategy(spec: str, game: str | None = None) -> Strategy:
    """A strategy instance from a spec, checked to play ``game`` (None: not checked);
    StrategyLoadError with a one-line reason.

    The instance's ``spec`` attribute keeps the spec it was loaded from.
    """
    parsed = parse_spec(spec)
    values: dict[str, Any] = {}
    target = parsed.target
    if parsed.toml is not None and is_data_file(parsed.toml):
        return _load_with_data_file(spec, parsed, game)
    if parsed.toml is not None:
        named, values = _read_toml(parsed.toml)
        if target is None:
            if named is None:
                raise StrategyLoadError(f"parameter file {parsed.toml!r} names no strategy "
                                        f"(add `strategy = \"NAME\"`, or use NAME@FILE)")
            target = _relative_to(named, parsed.toml)
        elif named is not None and named != target:
            raise StrategyLoadError(f"parameter file {parsed.toml!r} is for strategy "
                                    f"{named!r}, not {target!r}")
    assert target is not None
    values = {**values, **parsed.params}
    strategy = build(find_class(target, game), values, target, game)
    strategy.spec = spec.strip()  # type: ignore[attr-defined]
    return strategy


def _load_with_data_file(spec: str, parsed: Spec, game: str | None) -> Strategy:
    """``NAME@FILE.npz``: the strategy NAME (it must take a data file) reading FILE."""
    assert parsed.toml is not None
    if parsed.target is None:
        raise StrategyLoadError(f"spec {spec!r} names no strategy for data file "
                                f"{parsed.toml!r}")
    cls = find_class(parsed.target, game)
    if not getattr(cls, "takes_data_file", False):
        raise StrategyLoadError(f"strategy {parsed.target!r} takes no data file "
                                f"({parsed.toml!r}); only a .toml parameter file")
    strategy = build(cls, dict(parsed.params), parsed.target, game)
    try:
        strategy = strategy.with_data_file(_COPIES.get(parsed.toml, parsed.toml))  # type: ignore[attr-defined]
    except ValueError as exc:
        raise StrategyLoadError(str(exc).splitlines()[0]) from None
    strategy.spec = spec.strip()  # type: ignore[attr-defined]
    return strategy


def load_seats(specs: str, game: str | None = None) -> list[Strategy]:
    """Four strategies of ``game`` (None: not checked against a game) from a
    comma-separated list of four specs (or one spec for all).

    Identical specs share one instance, so the engine asks it once for all its seats.
    """
    parts = split_specs(specs)
    if len(parts) == 1:
        parts = parts * 4
    if len(parts) != 4:
        raise StrategyLoadError(f"need 1 or 4 strategies, got {len(parts)}: {specs!r}")
    cache: dict[str, Strategy] = {}
    return [cache.setdefault(p, load_strategy(p, game)) if p not in cache else cache[p]
            for p in parts]


def split_specs(specs: str) -> list[str]:
    """The seat specs of a comma-separated lineup: split on the commas that start a new
    spec, not on those between key=value parameters."""
    out: list[str] = []
    for piece in specs.split(","):
        piece = piece.strip()
        if out and "=" in piece and ":" in out[-1] and ":" not in piece.split("=")[0]:
            out[-1] += "," + piece
        else:
            out.append(piece)
    return [p for p in out if p]


__all__ = ["ENTRY_POINT_GROUP", "Spec", "StrategyInfo", "StrategyLoadError", "available", "build",
           "bundled", "check_class", "check_game", "convert_params", "describe_params",
           "find_class", "load_seats", "load_strategy", "names", "parse_spec", "plays",
           "spec_files", "split_specs", "use_copies"]
