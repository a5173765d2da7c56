"""Finding strategies: the bundled ones (every module of the ``strategies`` package) and
the installed ones (the ``trixsim.strategies`` entry-point group), classes in files or by
import path, and the checks that a class is a well-formed strategy of a game (its
``game``, the fields its ``observes`` names, the decisions it answers)."""

from __future__ import annotations

import difflib
import functools
import hashlib
import importlib
import importlib.util
import inspect
import pkgutil
import sys
from dataclasses import dataclass
from importlib.metadata import EntryPoint, entry_points
from pathlib import Path
from types import ModuleType
from typing import Any

from trixsim.strategy import Param, Strategy
from trixsim.strategy_specs import (
    _COPIES,
    StrategyLoadError,
    _read_toml,
    _relative_to,
    is_data_file,
    parse_spec,
)

ENTRY_POINT_GROUP = "trixsim.strategies"
BUNDLED_PACKAGE = "trixsim.strategies"


@dataclass(frozen=True)
class StrategyInfo:
    """An available strategy: where it comes from, its class, or why it cannot load."""

    name: str
    source: str
    """``bundled`` or ``entry point``."""
    target: str
    """``module:Class`` it is loaded from."""
    cls: type[Strategy] | None
    error: str | None = None



# ---------------------------------------------------------------- discovery

def plays(cls: type[Strategy], game: str | None) -> bool:
    """Whether strategies of ``cls`` may play ``game`` (None: any game)."""
    return game is None or cls.game is None or cls.game == game


@functools.cache
def _all_bundled() -> tuple[dict[tuple[str | None, str], StrategyInfo], tuple[str, ...]]:
    """Bundled strategies by (game, name), and one-line errors of modules that failed to
    import."""
    found: dict[tuple[str | None, str], StrategyInfo] = {}
    errors: list[str] = []
    package = importlib.import_module(BUNDLED_PACKAGE)
    for mod in pkgutil.iter_modules(package.__path__, BUNDLED_PACKAGE + "."):
        if mod.name.rpartition(".")[2].startswith("_"):
            continue
        try:
            module = importlib.import_module(mod.name)
        except Exception as exc:  # one broken module must not hide the others
            errors.append(f"module {mod.name} failed to import: {type(exc).__name__}: {exc}")
            continue
        for cls in _own_strategies(module):
            if "name" not in cls.__dict__:
                continue
            target = f"{module.__name__}:{cls.__qualname__}"
            key = (cls.game, cls.name)
            if key in found:
                errors.append(f"strategy name {cls.name!r} is defined twice: "
                              f"{found[key].target} and {target}")
                continue
            found[key] = StrategyInfo(cls.name, "bundled", target, cls)
    return dict(sorted(found.items(), key=lambda kv: (kv[0][1], str(kv[0][0])))), \
        tuple(errors)


def _bundled(game: str | None = None) -> tuple[dict[str, StrategyInfo], tuple[str, ...]]:
    """Bundled strategies that play ``game`` (None: every game) by name (a game's own
    before a game-neutral one of the same name; with ``game`` None and a name two games
    use, the first game's in name order, so callers that mean another name it), and the
    import errors."""
    infos, errors = _all_bundled()
    out: dict[str, StrategyInfo] = {}
    for (g, name), info in infos.items():
        if info.cls is None or not plays(info.cls, game):
            continue
        if name not in out or (g is not None and out[name].cls.game is None):
            out[name] = info
    return dict(sorted(out.items())), errors


def _own_strategies(module: ModuleType) -> list[type[Strategy]]:
    """Strategy subclasses defined in the module itself (not imported into it)."""
    return [obj for obj in vars(module).values()
            if isinstance(obj, type) and issubclass(obj, Strategy) and obj is not Strategy
            and obj.__module__ == module.__name__]


def bundled(game: str | None = None) -> dict[str, type[Strategy]]:
    """Bundled strategy classes that play ``game`` (None: any) by name."""
    return {n: i.cls for n, i in _bundled(game)[0].items() if i.cls is not None}


def _entry_points() -> dict[str, EntryPoint]:
    """Installed strategies' entry points by name (first one wins on duplicates)."""
    out: dict[str, EntryPoint] = {}
    for ep in entry_points(group=ENTRY_POINT_GROUP):
        out.setdefault(ep.name, ep)
    return out


def _load_entry_point(ep: EntryPoint) -> type[Strategy]:
    where = f"entry point {ep.name!r} ({ep.value})"
    try:
        obj = ep.load()
    except Exception as exc:
        raise StrategyLoadError(f"{where} failed to load: {type(exc).__name__}: {exc}") from None
    return check_class(obj, where)


def names(game: str | None = None) -> list[str]:
    """Every strategy name of ``game`` (None: of any game): bundled, then installed."""
    out = list(_bundled(game)[0])
    out += [n for n in sorted(_entry_points()) if n not in out]
    return out


def available(game: str | None = None) -> list[StrategyInfo]:
    """Every bundled and installed strategy that plays ``game`` (None: every one), loaded
    (``error`` says why one cannot be)."""
    infos, errors = _bundled(game)
    if game is None:
        infos = {f"{i.target}": i for i in _all_bundled()[0].values()}
    out = list(infos.values())
    out += [StrategyInfo("?", "bundled", BUNDLED_PACKAGE, None, e) for e in errors]
    for name, ep in sorted(_entry_points().items()):
        if name in infos:
            out.append(StrategyInfo(name, "entry point", ep.value, None,
                                    "shadowed by the bundled strategy of the same name"))
            continue
        try:
            cls = _load_entry_point(ep)
            if plays(cls, game):
                out.append(StrategyInfo(name, "entry point", ep.value, cls))
        except StrategyLoadError as exc:
            out.append(StrategyInfo(name, "entry point", ep.value, None, str(exc)))
    return out


# ---------------------------------------------------------------- classes

def check_class(obj: object, where: str, game: str | None = None) -> type[Strategy]:
    """``obj`` if it is a well-formed Strategy subclass that can play ``game`` (None: not
    checked against a game), else StrategyLoadError."""
    if not (isinstance(obj, type) and issubclass(obj, Strategy)):
        what = f"class {obj.__name__}" if isinstance(obj, type) else type(obj).__name__
        raise StrategyLoadError(
            f"{where} is not a Strategy subclass ({what}); a one-game bot must be wrapped "
            "with trixsim.games.trix.adapter.adapt or subclass "
            "trixsim.games.trix.adapter.PerGameStrategy")
    for method in _decision_methods(game):
        if method in vars(obj) or hasattr(Strategy, method):
            if not callable(getattr(obj, method, None)):
                raise StrategyLoadError(f"{where}: method {method!r} is not callable")
    params = obj.params
    if not isinstance(params, dict) or not all(
            isinstance(k, str) and isinstance(p, Param) for k, p in params.items()):
        raise StrategyLoadError(f"{where}: `params` must map names to Param(default, doc)")
    if game is not None:
        check_game(obj, where, game)
    elif obj.observes is not None:  # no game named: a field no game offers is still wrong
        fields = _all_fields()
        unknown = sorted(set(obj.observes) - fields)
        if unknown:
            raise StrategyLoadError(f"{where}: `observes` names unknown observation fields "
                                    f"{', '.join(unknown)} (fields of any game: "
                                    f"{', '.join(sorted(fields))})")
    return obj


def _all_fields() -> set[str]:
    """Every observation field of every registered game."""
    from trixsim.games import game_names, get_game

    out: set[str] = set()
    for name in game_names():
        try:
            out |= set(get_game(name).observation_fields)
        except ValueError:
            continue
    return out


def _decision_methods(game: str | None = None) -> set[str]:
    """The strategy method names of ``game``'s decisions (None: of every registered game's;
    loading every game costs each one's kernels, so a caller that knows its game says it)."""
    from trixsim.games import game_names, get_game

    if game is not None:
        return {d.method for d in get_game(game).decisions}
    out: set[str] = set()
    for name in game_names():
        try:
            out |= {d.method for d in get_game(name).decisions}
        except ValueError:  # a registered game that fails to load: not ours to judge here
            continue
    return out


def check_game(cls: type[Strategy], where: str, game: str) -> None:
    """StrategyLoadError (one line) unless ``cls`` can play ``game``: its tag, the decision
    methods it defines and the observation fields it reads."""
    from trixsim.games import UnknownGameError, get_game

    try:
        rules = get_game(game)
    except UnknownGameError as exc:
        raise StrategyLoadError(str(exc)) from None
    if cls.game is not None and cls.game != game:
        raise StrategyLoadError(f"{where} plays {cls.game}, not {game} (strategies of "
                                f"{game}: trixsim strategies --game {game})")
    own = {d.method for d in rules.decisions}
    # an untagged class defining another game's decision method is that game's bot (the
    # other games are loaded only when the class defines a method ``game`` does not ask)
    defined = {m for c in cls.__mro__ if c is not Strategy and c is not object
               for m, v in vars(c).items() if callable(v) and not m.startswith("_")} - own
    foreign = sorted(defined & _decision_methods()) if cls.game is None and defined else []
    if foreign:
        raise StrategyLoadError(
            f"{where} answers decision(s) {', '.join(foreign)}, which {game} does not have "
            f"(its decisions: {', '.join(sorted(own))}): a strategy of another game?")
    if cls.observes is not None:
        fields = tuple(rules.observation_fields)
        unknown = sorted(set(cls.observes) - set(fields))
        if unknown:
            raise StrategyLoadError(f"{where}: `observes` names unknown observation fields "
                                    f"{', '.join(unknown)} (fields of {game}: "
                                    f"{', '.join(fields)})")
    _check_narrowing(cls, where, game, {d.name for d in rules.decisions},
                     set(rules.observation_fields))


def _check_narrowing(cls: type, where: str, game: str, decisions: set[str],
                     fields: set[str]) -> None:
    """``observes_by_decision`` may name only the game's decisions, and give each fields
    within ``observes`` (within the game's fields where ``observes`` is None)."""
    by = getattr(cls, "observes_by_decision", None)
    if not by:
        return
    odd = sorted(set(by) - decisions)
    if odd:
        raise StrategyLoadError(f"{where}: `observes_by_decision` names decision(s) "
                                f"{', '.join(odd)}, which {game} does not have (its "
                                f"decisions: {', '.join(sorted(decisions))})")
    allowed = fields if cls.observes is None else set(cls.observes)
    for decision, names in sorted(by.items()):
        extra = sorted(set(names) - allowed)
        if extra:
            raise StrategyLoadError(
                f"{where}: `observes_by_decision` gives {decision!r} field(s) "
                f"{', '.join(extra)} outside `observes`" if cls.observes is not None else
                f"{where}: `observes_by_decision` gives {decision!r} unknown observation "
                f"field(s) {', '.join(extra)} (fields of {game}: "
                f"{', '.join(sorted(fields))})")


def _check_methods(strategy: Strategy, where: str, game: str | None = None) -> None:
    """Each decision method (of ``game``; None: of any game) must accept exactly one
    observation."""
    for method in sorted(_decision_methods(game)):
        fn = getattr(strategy, method, None)
        if fn is None:
            continue
        try:
            sig = inspect.signature(fn)
        except (TypeError, ValueError):
            continue  # builtins and the like: nothing to check
        try:
            sig.bind(None)
        except TypeError:
            shown = sig.replace(return_annotation=inspect.Signature.empty)
            raise StrategyLoadError(f"{where}: method {method}{shown} must take one "
                                    f"observation argument") from None


def spec_files(spec: str) -> list[str]:
    """The local files a spec reads (its TOML file, the Python file it or the TOML file
    names), as the loader looks them up (the keys of ``use_copies``)."""
    parsed = parse_spec(spec)
    out: list[str] = []
    target = parsed.target
    if parsed.toml is not None and is_data_file(parsed.toml):
        out.append(parsed.toml)
    elif parsed.toml is not None:
        out.append(parsed.toml)
        named, _ = _read_toml(parsed.toml)
        if target is None and named is not None:
            target = _relative_to(named, parsed.toml)
    if target is not None:
        path, colon, attr = target.strip().rpartition(":")
        if not colon or "/" in attr or "\\" in attr:
            path = target.strip()
        if path.endswith(".py"):
            out.append(str(Path(path)))
    return out


def _import_file(path: Path) -> ModuleType:
    """Import a Python file under a private module name derived from its path."""
    path = Path(_COPIES.get(str(path), path))
    if not path.is_file():
        raise StrategyLoadError(f"strategy file {str(path)!r} not found")
    resolved = path.resolve()
    digest = hashlib.sha1(str(resolved).encode()).hexdigest()[:10]
    mod_name = f"_trixsim_user_{resolved.stem}_{digest}"
    if mod_name in sys.modules:
        return sys.modules[mod_name]
    spec = importlib.util.spec_from_file_location(mod_name, resolved)
    if spec is None or spec.loader is None:
        raise StrategyLoadError(f"strategy file {str(path)!r} is not a Python module")
    module = importlib.util.module_from_spec(spec)
    sys.modules[mod_name] = module
    try:
        spec.loader.exec_module(module)
    except Exception as exc:
        del sys.modules[mod_name]
        raise StrategyLoadError(f"strategy file {str(path)!r} failed to import: "
                                f"{type(exc).__name__}: {exc}") from None
    return module


def _attr(module: ModuleType, attr: str, where: str,
          game: str | None = None) -> type[Strategy]:
    """A named class of the module, or its only Strategy subclass when ``attr`` is empty."""
    if attr:
        obj: Any = module
        for part in attr.split("."):
            if not hasattr(obj, part):
                raise StrategyLoadError(f"{where}: no {attr!r} in module {module.__name__}")
            obj = getattr(obj, part)
        return check_class(obj, where, game)
    own = _own_strategies(module)
    if len(own) != 1:
        listed = ", ".join(c.__name__ for c in own) or "none"
        raise StrategyLoadError(f"{where}: name the class as FILE:CLASS (Strategy subclasses "
                                f"defined there: {listed})")
    return check_class(own[0], where, game)


def _indexed(name: str, game: str) -> type[Strategy] | None:
    """The bundled strategy ``name`` of ``game`` (its own before a game-neutral one) found
    through the package's index, importing its module alone; None when the index does not
    list it or its module fails to import (the full scan then says why)."""
    from trixsim.strategies import INDEX

    for key in ((game, name), (None, name)):
        if key in INDEX:
            module, _, cls_name = INDEX[key].partition(":")
            try:
                cls = getattr(importlib.import_module(f"{BUNDLED_PACKAGE}.{module}"), cls_name)
            except Exception:
                return None
            ok = isinstance(cls, type) and issubclass(cls, Strategy) and cls.name == name
            return cls if ok and cls.game == key[0] else None
    return None


def strategy_exists(name: str, game: str) -> bool:
    """Whether ``game`` has a strategy ``name``: through the bundled strategies' index when
    it lists one (its module alone imported: a run's default lineup is found without
    loading every strategy's kernels), else among every bundled and installed one."""
    return _indexed(name, game) is not None or name in names(game)


def find_class(target: str, game: str | None = None) -> type[Strategy]:
    """The class a name, file path (``x.py[:Class]``) or import path (``pkg.mod:Class``)
    names, checked to play ``game`` (None: not checked; a name two games share is then
    refused as ambiguous)."""
    target = target.strip()
    if game is not None:
        cls = _indexed(target, game)
        if cls is not None:
            return check_class(cls, f"strategy {target!r}", game)
    path, colon, attr = target.rpartition(":")
    if not colon or "/" in attr or "\\" in attr:
        path, attr = target, ""
    where = f"strategy {target!r}"
    if path.endswith(".py"):
        return _attr(_import_file(Path(path)), attr, where, game)
    infos = _bundled(game)[0]
    if target in infos:
        if game is None:
            games = sorted(str(g) for (g, n) in _all_bundled()[0] if n == target)
            if len(games) > 1:
                raise StrategyLoadError(f"strategy {target!r} exists for several games "
                                        f"({', '.join(games)}): name the game (--game)")
        return check_class(infos[target].cls, where, game)
    eps = _entry_points()
    if target in eps:
        return check_class(_load_entry_point(eps[target]), where, game)
    other = sorted({str(g) for (g, n) in _all_bundled()[0] if n == target})
    if other and game is not None:
        raise StrategyLoadError(f"strategy {target!r} plays {', '.join(other)}, not {game} "
                                f"(strategies of {game}: {', '.join(names(game))})")
    if attr and (path in infos or path in eps):
        raise StrategyLoadError(f"parameter {attr!r} of {path!r} is not key=value")
    if attr:
        try:
            module = importlib.import_module(path)
        except ImportError as exc:
            raise StrategyLoadError(f"strategy {target!r}: cannot import module {path!r} "
                                    f"({exc})") from None
        except Exception as exc:
            raise StrategyLoadError(f"strategy {target!r}: module {path!r} failed to import: "
                                    f"{type(exc).__name__}: {exc}") from None
        return _attr(module, attr, where, game)
    known = ", ".join(names(game)) or "none"
    broken = _bundled()[1]
    hint = f"; {broken[0]}" if broken else ""
    close = difflib.get_close_matches(target, names(game), n=1, cutoff=0.6)
    mean = f"; did you mean {close[0]!r}?" if close else ""
    raise StrategyLoadError(f"unknown strategy {target!r}{mean} (available: {known}; or give "
                            f"path/to/file.py:Class or package.module:Class){hint}")
