"""Find strategies by name and build them with parameters.

A spec is ``NAME`` or ``NAME:key=value,key=value``; NAME is a bundled strategy
(``random``, ...). (Paths, import paths, entry points and TOML files: see issue 3.)
"""

from __future__ import annotations

import importlib

from trixsim.strategy import Strategy

BUNDLED: dict[str, str] = {
    "random": "strategies.random_bot:RandomStrategy",
}


class StrategyLoadError(ValueError):
    """A strategy spec that names nothing loadable, or bad parameters."""


def _resolve(target: str) -> type[Strategy]:
    module, _, attr = target.partition(":")
    return getattr(importlib.import_module(module), attr)


def _parse_value(text: str) -> object:
    low = text.lower()
    if low in ("true", "false"):
        return low == "true"
    for conv in (int, float):
        try:
            return conv(text)
        except ValueError:
            pass
    return text


def load_strategy(spec: str) -> Strategy:
    """A strategy instance from a spec; StrategyLoadError with a one-line reason."""
    name, _, params = spec.strip().partition(":")
    if name not in BUNDLED:
        raise StrategyLoadError(
            f"unknown strategy {name!r} (available: {', '.join(sorted(BUNDLED))})")
    values: dict[str, object] = {}
    for item in filter(None, (p.strip() for p in params.split(","))):
        key, eq, value = item.partition("=")
        if not eq:
            raise StrategyLoadError(f"parameter {item!r} of {name!r} is not key=value")
        values[key.strip()] = _parse_value(value.strip())
    try:
        return _resolve(BUNDLED[name])(**values)
    except ValueError as exc:
        raise StrategyLoadError(str(exc)) from None


def load_seats(specs: str) -> list[Strategy]:
    """Four strategies from a comma-separated list of four specs (or one spec for all).

    Identical specs share one instance, so the engine asks it once for all its seats.
    """
    parts = _split_specs(specs)
    if len(parts) == 1:
        parts = parts * 4
    if len(parts) != 4:
        raise StrategyLoadError(f"need 1 or 4 strategies, got {len(parts)}: {specs!r}")
    cache: dict[str, Strategy] = {}
    return [cache.setdefault(p, load_strategy(p)) if p not in cache else cache[p]
            for p in parts]


def _split_specs(specs: str) -> list[str]:
    """Split on commas that start a new spec (not those between key=value parameters)."""
    out: list[str] = []
    for piece in specs.split(","):
        piece = piece.strip()
        if out and "=" in piece and ":" in out[-1] and ":" not in piece.split("=")[0]:
            out[-1] += "," + piece
        else:
            out.append(piece)
    return [p for p in out if p]
