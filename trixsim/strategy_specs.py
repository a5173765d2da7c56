"""Strategy specs and their parameters: ``parse_spec`` splits a spec (see
``trixsim.loading``) into target, TOML file and command-line parameters, and
``convert_params`` checks values against a strategy's declared ``params`` (converted to
the declared type, unknown names refused). ``StrategyLoadError`` is every loading error."""

from __future__ import annotations

import tomllib
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from trixsim.strategy import Param, Strategy


class StrategyLoadError(ValueError):
    """A strategy spec that names nothing loadable, or bad parameters."""



_COPIES: dict[str, str] = {}
"""Files named in specs (as written there) -> where this process keeps a copy of them: a
cluster worker loads the strategy files of the machine that sent it the job."""


def use_copies(copies: dict[str, str]) -> bool:
    """Load the files named ``copies``' keys from their values; whether anything changed
    (then strategies cached by spec must be loaded again)."""
    changed = any(_COPIES.get(k) != v for k, v in copies.items())
    _COPIES.update(copies)
    return changed


@dataclass(frozen=True)
class Spec:
    """A parsed strategy spec (see the module docstring)."""

    target: str | None
    """Name, file path or import path; None when the TOML file names the strategy."""
    toml: str | None
    """TOML parameter file, if any."""
    params: dict[str, str]
    """Command-line parameters, as written."""



# ---------------------------------------------------------------- specs and parameters

def parse_spec(spec: str) -> Spec:
    """Split a spec into target, TOML file and command-line parameters (not loaded yet)."""
    text = spec.strip()
    if not text:
        raise StrategyLoadError("empty strategy spec")
    head, colon, tail = text.rpartition(":")
    params: dict[str, str] = {}
    if colon and "=" in tail:
        text = head
        for item in filter(None, (p.strip() for p in tail.split(","))):
            key, eq, value = item.partition("=")
            if not eq or not key.strip():
                raise StrategyLoadError(f"parameter {item!r} of {head!r} is not key=value")
            params[key.strip()] = value.strip()
    toml: str | None = None
    if "@" in text:
        text, _, toml = text.rpartition("@")
        if not text:
            raise StrategyLoadError(f"spec {spec!r} names no strategy before '@'")
    elif text.endswith(".toml"):
        text, toml = "", text
    return Spec(text or None, toml, params)


def _read_toml(path: str) -> tuple[str | None, dict[str, Any]]:
    """The ``strategy`` key and the ``[params]`` table of a parameter file."""
    try:
        with open(_COPIES.get(path, path), "rb") as f:
            doc = tomllib.load(f)
    except FileNotFoundError:
        raise StrategyLoadError(f"parameter file {path!r} not found") from None
    except (OSError, tomllib.TOMLDecodeError) as exc:
        raise StrategyLoadError(f"parameter file {path!r}: {exc}") from None
    extra = sorted(set(doc) - {"strategy", "params"})
    if extra:
        raise StrategyLoadError(f"parameter file {path!r}: unknown keys {', '.join(extra)} "
                                f"(expected `strategy = \"NAME\"` and a [params] table)")
    name = doc.get("strategy")
    params = doc.get("params", {})
    if name is not None and not isinstance(name, str):
        raise StrategyLoadError(f"parameter file {path!r}: `strategy` must be a string")
    if not isinstance(params, dict):
        raise StrategyLoadError(f"parameter file {path!r}: `params` must be a table")
    return name, params


def _relative_to(target: str, toml: str) -> str:
    """A file-path target named in a TOML file, taken relative to that file."""
    path, colon, attr = target.rpartition(":")
    if not colon:
        path, attr = target, ""
    if not path.endswith(".py") or Path(path).is_absolute():
        return target
    return str(Path(toml).parent / path) + (":" + attr if attr else "")


def describe_params(cls: type[Strategy]) -> str:
    """``a (int, default 1), b (bool, default False)`` or ``none``."""
    return ", ".join(f"{k} ({p.type.__name__}, default {p.default!r})"
                     for k, p in cls.params.items()) or "none"


_TRUE = {"true", "yes", "on", "1"}
_FALSE = {"false", "no", "off", "0"}


def _convert(value: Any, p: Param) -> Any:
    """``value`` (text from the command line, or a TOML value) as the parameter's type."""
    t = p.type
    if isinstance(value, str) and t is not str:
        low = value.strip().lower()
        if t is bool:
            if low in _TRUE | _FALSE:
                return low in _TRUE
            raise ValueError
        if t in (int, float):
            return t(value)
        return _parse_value(value)
    if t is float and isinstance(value, int) and not isinstance(value, bool):
        return float(value)
    if not isinstance(value, t) or (t is not bool and isinstance(value, bool)):
        raise ValueError
    return value


def _parse_value(text: str) -> object:
    """A best guess at a command-line value's type, for parameters of unusual types."""
    low = text.lower()
    if low in ("true", "false"):
        return low == "true"
    for conv in (int, float):
        try:
            return conv(text)
        except ValueError:
            pass
    return text


def convert_params(cls: type[Strategy], values: dict[str, Any], who: str) -> dict[str, Any]:
    """``values`` converted to the types ``cls`` declares; StrategyLoadError for an
    unknown name or a value of the wrong type (``who`` names the strategy)."""
    known = describe_params(cls)
    checked: dict[str, Any] = {}
    for key, value in values.items():
        if key not in cls.params:
            raise StrategyLoadError(f"strategy {who!r} has no parameter {key!r} "
                                    f"(parameters: {known})")
        p = cls.params[key]
        try:
            checked[key] = _convert(value, p)
        except (ValueError, TypeError):
            raise StrategyLoadError(
                f"strategy {who!r}: parameter {key!r} must be {p.type.__name__}, got "
                f"{value!r} (parameters: {known})") from None
    return checked


def is_data_file(path: str) -> bool:
    """Whether the file after ``@`` is a data file (weights), not a TOML parameter file."""
    return path.endswith(".npz")
