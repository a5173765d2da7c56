"""Loading strategies by name, file path, import path and entry point, with parameters."""

from __future__ import annotations

import importlib
import json
import sys
from importlib.metadata import EntryPoint
from pathlib import Path

import pytest
from click.testing import CliRunner

from trixsim import loading, strategy_find
from trixsim.cli import cli
from trixsim.loading import (
    StrategyLoadError,
    available,
    load_seats,
    load_strategy,
    names,
    parse_spec,
)
from trixsim.strategy import Strategy

FIXTURES = Path(__file__).parent / "fixtures"
BOT_FILE = FIXTURES / "trixsim_fixture_bots.py"
BOT = f"{BOT_FILE}:NeverDeclareLowest"


@pytest.fixture
def on_path(monkeypatch: pytest.MonkeyPatch) -> None:
    """Make the fixture modules importable by import path."""
    monkeypatch.syspath_prepend(str(FIXTURES))


@pytest.fixture
def fake_entry_point(monkeypatch: pytest.MonkeyPatch, on_path: None) -> None:
    """Pretend an installed package registers the fixture strategy as ``ep-bot``."""
    eps = [EntryPoint("ep-bot", "trixsim_fixture_bots:NeverDeclareLowest",
                      loading.ENTRY_POINT_GROUP),
           EntryPoint("ep-broken", "no_such_module_xyz:Bot", loading.ENTRY_POINT_GROUP)]

    def entry_points(group: str) -> list[EntryPoint]:
        return [e for e in eps if e.group == group]

    monkeypatch.setattr(strategy_find, "entry_points", entry_points)


# ---------------------------------------------------------------- finding strategies

def test_bundled_by_name_is_discovered_from_the_package() -> None:
    s = load_strategy("random", "trix")
    assert type(s).__module__ == "trixsim.strategies.random_bot"
    assert s.name == "random" and s.spec == "random"
    assert "random" in names()
    assert all(i.error is None for i in available() if i.source == "bundled")


def test_every_bundled_strategy_loads_with_defaults() -> None:
    for name, cls in loading.bundled().items():
        s = load_strategy(name, "trix")
        assert isinstance(s, cls) and s.name == name


def test_by_file_path() -> None:
    s = load_strategy(BOT, "trix")
    assert type(s).__name__ == "NeverDeclareLowest" and s.margin == 10
    assert load_strategy(str(FIXTURES / "single_bot.py")).name == "only-bot"


def test_by_import_path(on_path: None) -> None:
    s = load_strategy("trixsim_fixture_bots:NeverDeclareLowest:margin=3", "trix")
    assert type(s).__module__ == "trixsim_fixture_bots" and s.margin == 3


def test_by_entry_point(fake_entry_point: None) -> None:
    s = load_strategy("ep-bot:greedy=yes", "trix")
    assert s.name == "never-declare-lowest" and s.greedy is True
    assert "ep-bot" in names()
    by_name = {i.name: i for i in available()}
    assert by_name["ep-bot"].source == "entry point" and by_name["ep-bot"].cls is type(s)
    assert "no_such_module_xyz" in by_name["ep-broken"].error
    with pytest.raises(StrategyLoadError, match="entry point 'ep-broken'.*failed to load"):
        load_strategy("ep-broken", "trix")


def test_by_real_installed_distribution(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A dist-info with an entry_points.txt on sys.path, as pip would install it."""
    (tmp_path / "tmp_trix_plugin.py").write_text(
        "from trixsim.strategy import Strategy\n"
        "class PluginBot(Strategy):\n"
        "    name = 'plugin-bot'\n"
        "    description = 'installed through an entry point'\n")
    dist = tmp_path / "tmp_trix_plugin-0.1.dist-info"
    dist.mkdir()
    (dist / "METADATA").write_text("Metadata-Version: 2.1\nName: tmp-trix-plugin\n"
                                   "Version: 0.1\n")
    (dist / "entry_points.txt").write_text(
        "[trixsim.strategies]\nplugin = tmp_trix_plugin:PluginBot\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    importlib.invalidate_caches()
    assert load_strategy("plugin", "trix").name == "plugin-bot"
    result = CliRunner().invoke(cli, ["strategies"])
    assert "plugin  [entry point: tmp_trix_plugin:PluginBot]" in result.output


def test_seats_share_identical_specs() -> None:
    seats = load_seats(f"random,{BOT}:margin=1,tag=a,random,{BOT}:margin=1,tag=a", "trix")
    assert seats[0] is seats[2] and seats[1] is seats[3] and seats[1].tag == "a"
    assert len(set(map(id, load_seats("random", "trix")))) == 1


# ---------------------------------------------------------------- parameters

def test_cli_parameters_are_converted_to_the_declared_types() -> None:
    s = load_strategy(f"{BOT}:margin=20,scale=3,greedy=true,tag=12", "trix")
    assert (s.margin, s.scale, s.greedy, s.tag) == (20, 3.0, True, "12")
    assert type(s.scale) is float and type(s.tag) is str
    assert s.label == "never-declare-lowest:margin=20,scale=3.0,greedy=True,tag=12"


def test_parse_spec_forms() -> None:
    assert parse_spec("heuristic") == loading.Spec("heuristic", None, {})
    assert parse_spec("h@p.toml:a=1, b=x") == loading.Spec("h", "p.toml", {"a": "1", "b": "x"})
    assert parse_spec("dir/p.toml") == loading.Spec(None, "dir/p.toml", {})
    assert parse_spec("a/b.py:Bot:k=2") == loading.Spec("a/b.py:Bot", None, {"k": "2"})
    assert parse_spec("pkg.mod:Bot") == loading.Spec("pkg.mod:Bot", None, {})


def test_toml_file_naming_the_strategy() -> None:
    """tests/fixtures/params.toml names the bot by a path relative to the TOML file."""
    s = load_strategy(str(FIXTURES / "params.toml"))
    assert (s.margin, s.scale, s.greedy, s.tag) == (25, 2.0, True, "x")


def test_toml_file_for_a_named_strategy_and_cli_override(tmp_path: Path) -> None:
    toml = tmp_path / "p.toml"
    toml.write_text('[params]\nmargin = 7\ntag = "from-file"\n')
    s = load_strategy(f"{BOT}@{toml}:margin=8", "trix")
    assert (s.margin, s.tag) == (8, "from-file")
    toml.write_text('strategy = "random"\n[params]\n')
    with pytest.raises(StrategyLoadError, match="is for strategy 'random'"):
        load_strategy(f"{BOT}@{toml}", "trix")


@pytest.mark.parametrize(("body", "message"), [
    ("[params]\nmargin = 1.5\n", "parameter 'margin' must be int, got 1.5"),
    ("[params]\ngreedy = 1\n", "parameter 'greedy' must be bool, got 1"),
    ("[params]\nmargin = true\n", "parameter 'margin' must be int, got True"),
    ("[params]\nnope = 1\n", "has no parameter 'nope'"),
    ("margin = 1\n", "unknown keys margin"),
    ("[params\n", "parameter file"),
    ("[params]\n", "names no strategy"),
])
def test_toml_errors(tmp_path: Path, body: str, message: str) -> None:
    toml = tmp_path / "p.toml"
    toml.write_text(body if "names no" in message else f'strategy = "{BOT}"\n' + body)
    with pytest.raises(StrategyLoadError, match=message.replace("(", r"\(")):
        load_strategy(str(toml))


# ---------------------------------------------------------------- errors

@pytest.mark.parametrize(("spec", "message"), [
    ("nosuch", r"unknown strategy 'nosuch' \(available: .*random"),
    ("random:foo=1", r"strategy 'random' has no parameter 'foo' \(parameters: none\)"),
    ("random:foo", r"parameter 'foo' of 'random' is not key=value"),
    (f"{BOT}:margin=abc",
     r"strategy '.*NeverDeclareLowest': parameter 'margin' must be int, got 'abc' "
     r"\(parameters: margin \(int, default 10\), scale \(float"),
    (f"{BOT}:greedy=maybe", r"parameter 'greedy' must be bool, got 'maybe'"),
    (f"{BOT}:scale=x", r"parameter 'scale' must be float"),
    (f"{BOT}:nope=1", r"has no parameter 'nope' \(parameters: margin \(int"),
    ("missing/bot.py:Bot", r"strategy file 'missing/bot.py' not found"),
    (f"{BOT_FILE}:Missing", r"no 'Missing' in module"),
    (f"{BOT_FILE}:NotAStrategy", r"is not a Strategy subclass \(class NotAStrategy\)"),
    (f"{BOT_FILE}", r"name the class as FILE:CLASS .*NeverDeclareLowest"),
    (f"{BOT_FILE}:BadSignature", r"method play\(\) must take one observation"),
    (f"{BOT_FILE}:BadObserves", r"unknown observation fields other_hands"),
    ("no_such_pkg_xyz.mod:Bot", r"cannot import module 'no_such_pkg_xyz.mod'"),
    (f"{FIXTURES}/absent.toml", r"parameter file .* not found"),
    ("random,random", r"need 1 or 4 strategies"),
])
def test_load_errors_are_one_line(spec: str, message: str) -> None:
    with pytest.raises(StrategyLoadError, match=message) as err:
        load_seats(spec, "trix")
    assert "\n" not in str(err.value)


def test_import_path_to_a_non_strategy(on_path: None) -> None:
    with pytest.raises(StrategyLoadError, match="not a Strategy subclass"):
        load_strategy("trixsim_fixture_bots:NotAStrategy", "trix")


def test_broken_bundled_module_is_reported_not_fatal(monkeypatch: pytest.MonkeyPatch,
                                                     tmp_path: Path) -> None:
    pkg = tmp_path / "fake_bundled_pkg"
    pkg.mkdir()
    (pkg / "__init__.py").write_text("")
    (pkg / "good.py").write_text("from trixsim.strategy import Strategy\n"
                                 "class Good(Strategy):\n    name = 'good'\n"
                                 "class Unnamed(Good):\n    pass\n")
    (pkg / "bad.py").write_text("raise RuntimeError('boom')\n")
    (pkg / "_private.py").write_text("raise RuntimeError('never imported')\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.setattr(strategy_find, "BUNDLED_PACKAGE", "fake_bundled_pkg")
    strategy_find._all_bundled.cache_clear()
    try:
        assert list(loading.bundled()) == ["good"]
        errors = [i.error for i in available() if i.error]
        assert errors == ["module fake_bundled_pkg.bad failed to import: RuntimeError: boom"]
        with pytest.raises(StrategyLoadError, match="fake_bundled_pkg.bad failed"):
            load_strategy("nosuch", "trix")
    finally:
        strategy_find._all_bundled.cache_clear()
        for mod in [m for m in sys.modules if m.startswith("fake_bundled_pkg")]:
            del sys.modules[mod]


# ---------------------------------------------------------------- the command

def test_strategies_command_lists_names_descriptions_and_params() -> None:
    result = CliRunner().invoke(cli, ["strategies"])
    assert result.exit_code == 0, result.output
    assert "random  [bundled: trixsim.strategies.random_bot:RandomStrategy]" in result.output
    assert "uniform random among the legal actions" in result.output
    for name, cls in loading.bundled().items():
        assert f"{name}  [bundled" in result.output
        for key, p in cls.params.items():
            assert f"{key} ({p.type.__name__}, default {p.default!r})" in result.output \
                or "parameters: as " in result.output


def test_strategies_command_json_and_given_specs(fake_entry_point: None) -> None:
    result = CliRunner().invoke(cli, ["strategies", "--json"])
    assert result.exit_code == 0, result.output
    rows = {r["name"]: r for r in json.loads(result.output)}
    assert rows["random"]["params"] == [] and rows["random"]["observes"] == ["key", "legal"]
    assert rows["random"]["observes_by_decision"] is None
    assert rows["heuristic"]["observes_by_decision"]["place"] == ["hand", "legal", "played"]
    assert rows["ep-bot"]["source"] == "entry point"
    assert {"name": "margin", "type": "int", "default": 10, "doc": "an int parameter"} \
        in rows["ep-bot"]["params"]
    assert "error" in rows["ep-broken"]

    result = CliRunner().invoke(cli, ["strategies", BOT])
    assert result.exit_code == 0, result.output
    assert "never-declare-lowest  [given:" in result.output
    assert "greedy (bool, default False): a bool parameter" in result.output


def test_strategies_command_unknown_is_a_usage_error() -> None:
    result = CliRunner().invoke(cli, ["strategies", "nosuch"])
    assert result.exit_code == 2
    assert "Error: unknown strategy 'nosuch'" in result.output
    assert "Traceback" not in result.output


def test_loaded_class_is_a_strategy() -> None:
    assert issubclass(type(load_strategy(BOT, "trix")), Strategy)


def test_the_index_of_bundled_strategies_is_what_the_package_scan_finds() -> None:
    from trixsim.strategies import INDEX

    scanned = {key: info.target.removeprefix(strategy_find.BUNDLED_PACKAGE + ".")
               for key, info in strategy_find._all_bundled()[0].items()}
    assert INDEX == scanned


def test_a_trump7_seat_loads_without_trixs_modules() -> None:
    # loading every bundled module (and every game) cost each one's kernels at start
    code = ("import sys; from trixsim.loading import load_seats; "
            "load_seats('random,heuristic,pimc,random', 'trump7'); "
            "print(sorted(m for m in sys.modules if m.startswith('trixsim.games.trix')"
            " or m.startswith('trixsim.strategies.heuristic')))")
    import subprocess

    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True).stdout
    assert out.strip() == "[]"


def test_a_default_lineup_loads_its_own_strategy_module_only() -> None:
    # a run without -s found its default (the game's heuristic) by importing every
    # bundled strategy module, expert's and trump7's kernels too, at each start
    import ast

    code = ("import sys; from trixsim.commands.options import default_lineup; "
            "from trixsim.loading import load_seats; "
            "print(default_lineup('trix')); "
            "load_seats(default_lineup('trix'), 'trix'); "
            "print(sorted(m for m in sys.modules if m.startswith('trixsim.strategies.'))); "
            "print(default_lineup('trump7'))")
    import subprocess

    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True).stdout.splitlines()
    assert out[0] == out[2] == "heuristic"
    loaded = set(ast.literal_eval(out[1]))  # a printed list of module names
    assert "trixsim.strategies.heuristic" in loaded
    assert not loaded & {"trixsim.strategies.expert", "trixsim.strategies._expert_kernels",
                         "trixsim.strategies.trump7_heuristic", "trixsim.strategies.pimc"}
