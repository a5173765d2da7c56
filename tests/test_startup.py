"""The CLI starts fast: help loads no heavy library, and ``run`` no reporting library.

numba, pandas, pyarrow and matplotlib took over a second to import before ``trixsim
--help`` printed anything. trixsim/cli.py imports a command's module only when the command
is looked up to run, and lists the commands from its COMMANDS table; the subcommand
modules import the library inside their command functions. Each check runs in a fresh
interpreter (``-X importtime`` lists every module it imports), since this test process
has long loaded all of them.
"""

from __future__ import annotations

import subprocess
import sys

import click
import pytest
from click.testing import CliRunner

from trixsim import cli as cli_module
from trixsim.cli import COMMANDS, cli

HEAVY = frozenset({"numba", "pandas", "pyarrow", "matplotlib"})
"""Libraries that ``--help`` must not import."""

REPORTING = frozenset({"pandas", "matplotlib"})
"""Libraries that only ``report`` and ``compare`` need."""


def _imported(*args: str) -> set[str]:
    """The top-level packages a fresh ``python -X importtime ARGS`` imports; it must
    succeed."""
    proc = subprocess.run([sys.executable, "-X", "importtime", *args], capture_output=True,
                          text=True, timeout=120)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    names = set()
    for line in proc.stderr.splitlines():
        if line.startswith("import time:") and line.count("|") == 2:
            name = line.rsplit("|", 1)[1].strip()
            if name != "imported package":  # the header line
                names.add(name.split(".")[0])
    assert "trixsim" in names, proc.stderr[-2000:]  # the lines were read
    return names


def test_help_imports_no_heavy_library() -> None:
    assert not _imported("-m", "trixsim", "--help") & HEAVY
    assert not _imported("-m", "trixsim", "--version") & HEAVY
    assert not _imported("-c", "import trixsim") & HEAVY


@pytest.mark.parametrize("name", sorted(COMMANDS))
def test_command_help_imports_no_heavy_library(name: str) -> None:
    assert not _imported("-m", "trixsim", name, "--help") & HEAVY


def test_run_imports_no_reporting_library() -> None:
    """The module behind ``run``, and the library its command loads with the default
    strategies, leave pandas and matplotlib alone."""
    assert not _imported("-c", "import trixsim.commands.run") & HEAVY
    code = ("import trixsim.commands.run as r, trixsim.loading, trixsim.runner, trixsim.sim; "
            "trixsim.loading.load_seats(r.DEFAULT_STRATEGIES, 'trix')")
    assert not _imported("-c", code) & REPORTING


def _loaded_group() -> click.Group:
    """A plain group with every command registered, as the CLI was before lazy loading."""
    group = click.Group("trixsim")
    for module in sorted({m for m, _ in COMMANDS.values()}):
        __import__(f"trixsim.commands.{module}", fromlist=["register"]).register(group)
    return group


def test_table_lists_every_command_from_its_module() -> None:
    group = _loaded_group()
    assert sorted(group.commands) == sorted(COMMANDS)
    for name, (module, _) in COMMANDS.items():
        assert group.commands[name].callback.__module__ == f"trixsim.commands.{module}"


def test_table_short_help_matches_the_commands_help() -> None:
    group = _loaded_group()
    for name in COMMANDS:
        real, listed = group.commands[name], cli_module._listed(name)
        for limit in range(0, 201):
            assert listed.get_short_help_str(limit) == real.get_short_help_str(limit), \
                (name, limit)


@pytest.mark.parametrize("width", [20, 45, 60, 80, 100, 200])
def test_listing_is_the_same_as_with_the_commands_loaded(width: int) -> None:
    def listing(group: click.Group) -> str:
        ctx = click.Context(group, terminal_width=width, max_content_width=width)
        formatter = ctx.make_formatter()
        group.format_commands(ctx, formatter)
        return formatter.getvalue()

    lazy = cli_module._Group("trixsim")
    assert listing(lazy) == listing(_loaded_group())
    assert not lazy.commands  # listing loaded nothing


def test_lazy_group_runs_each_command() -> None:
    """Every listed name resolves to the real command (a fresh group loads it)."""
    group = _loaded_group()
    lazy = cli_module._Group("trixsim")
    ctx = click.Context(lazy)
    for name in COMMANDS:
        cmd = lazy.get_command(ctx, name)
        assert cmd is not None and cmd.name == name
        assert cmd.callback.__qualname__ == group.commands[name].callback.__qualname__
    assert lazy.get_command(ctx, "nosuch") is None


@pytest.mark.optional
@pytest.mark.skipif(not hasattr(click.exceptions, "NoSuchCommand"),
                    reason="click < 8.4 suggests no command names")
def test_unknown_command_suggests_unloaded_commands() -> None:
    res = CliRunner().invoke(cli, ["rn"])
    assert res.exit_code == 2
    assert res.output == "Error: No such command 'rn'. Did you mean 'run'?\n"


def test_record_max_int_is_the_transcript_one() -> None:
    from trixsim.commands import record
    from trixsim.games.trix.transcript import MAX_INT

    assert record.MAX_INT == MAX_INT


def test_a_whole_run_imports_no_reporting_library(tmp_path) -> None:
    """``trixsim run`` itself, tables written, never loads pandas or matplotlib (building
    Arrow columns with ``pyarrow.array`` would: see ``trixsim.arrow``)."""
    out = tmp_path / "run"
    code = ("from trixsim.cli import cli as main\n"
            f"try: main(['run', '-n', '30', '-q', '-j', '1', '-o', {str(out)!r}])\n"
            "except SystemExit as e: assert not e.code, e.code\n")
    assert not _imported("-c", code) & REPORTING
    assert (out / "run.json").exists()
