"""No module outside ``trixsim/games/trix/`` imports Trix (its package, its vocabulary
included: ``types``, ``cards``, ``transcript``) except those allowed below, each for a
reason; the walk reads every import statement, function-level ones included. Shrink
``ALLOWED`` as Trix's parts move into its package; a module that starts importing Trix
fails here."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
TRIX = ("trixsim.games.trix",)
PACKAGES = {"trixsim": "trixsim", "strategies": "trixsim.strategies",
            "reports": "trixsim.reports"}

ALLOWED: dict[str, str] = {
    # Trix's own plug-ins: its strategies and their kernels
    "trixsim.strategies.heuristic": "Trix's heuristic",
    "trixsim.strategies.heuristic_kernels": "Trix's heuristic's compiled kernels",
    "trixsim.strategies.heuristic_params": "Trix's heuristic's parameters and card masks",
    "trixsim.strategies.heuristic_play": "Trix's heuristic's card play and placements",
    "trixsim.strategies.pimc": "Trix's pimc",
    "trixsim.strategies._pimc_kernels": "Trix's pimc's compiled kernels",
    "trixsim.strategies.expert": "Trix's learned expert policy",
    "trixsim.strategies._expert_kernels": "Trix's expert's features and compiled scorer",
    "trixsim.strategies._expert_search_kernels": "Trix's expert's compiled search",
    # Trix's own plug-in for training its expert (trixsim.train is the generic loop)
    "trixsim.strategies.expert_training.data": "Trix's expert: self-play data, labelled",
    "trixsim.strategies.expert_training.trainee": "Trix's expert as a trixsim.train Trainee",
    # Trix's own plug-in of the terminal table (Trix's Game.terminal names it)
    "trixsim.terminal.trix": "Trix at the terminal: its session, typed moves and records",
    # Trix's own plug-in: its report aspects
    "trixsim.reports.trix_aspects": "Trix's own plug-in: its report aspects",
    "trixsim.reports.trix_pairing": "Trix's own plug-in: its report aspects",
    "trixsim.reports.trix_plots": "Trix's own plug-in: its report aspects",
    "trixsim.reports.trix_sums": "Trix's own plug-in: its report aspects",
}


def _module(path: Path, base: str) -> str:
    parts = path.relative_to(ROOT / base).with_suffix("").parts
    return ".".join((PACKAGES[base], *parts)).removesuffix(".__init__")


def _imports_trix(tree: ast.AST) -> list[str]:
    """The Trix modules a module's import statements name."""
    def trix(name: str) -> bool:
        return any(name == t or name.startswith(t + ".") for t in TRIX)

    out = []
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            out += [node.module] if trix(node.module) else [
                f"{node.module}.{a.name}" for a in node.names if trix(f"{node.module}.{a.name}")]
        elif isinstance(node, ast.Import):
            out += [a.name for a in node.names if trix(a.name)]
    return sorted(set(out))


def walk() -> dict[str, list[str]]:
    """Every module outside trixsim.games.trix that imports Trix, with what it imports."""
    found = {}
    for base in PACKAGES:
        for path in sorted((ROOT / base).rglob("*.py")):
            mod = _module(path, base)
            if mod == "trixsim.games.trix" or mod.startswith("trixsim.games.trix."):
                continue
            hits = _imports_trix(ast.parse(path.read_text(encoding="utf-8")))
            if hits:
                found[mod] = hits
    return found


def test_only_allowed_modules_import_trix() -> None:
    found = walk()
    new = {m: v for m, v in found.items() if m not in ALLOWED}
    assert not new, f"modules outside games/trix import Trix: {new}"


def test_the_allow_list_names_no_module_that_no_longer_needs_it() -> None:
    assert not set(ALLOWED) - set(walk()), "shrink ALLOWED: these import no Trix any more"


def test_the_generic_layers_import_no_trix() -> None:
    generic = ["trixsim.game", "trixsim.games", "trixsim.runner", "trixsim.runfolder",
               "trixsim.loading", "trixsim.strategy_find", "trixsim.strategy_specs",
               "trixsim.strategy", "trixsim.gamekit", "trixsim.gamekit.state",
               "trixsim.gamekit.events", "trixsim.gamekit.observation", "trixsim.gamekit.game",
               "trixsim.records", "trixsim.tune",
               "trixsim.tune.play", "trixsim.tune.spsa", "trixsim.audit", "trixsim.checkfolders",
               "trixsim.reports.tournament", "trixsim.reports.tables", "trixsim.policykit",
               "trixsim.reports.aggregate", "trixsim.reports.aspects",
               "trixsim.reports.compare", "trixsim.reports.pairing", "trixsim.reports.plots",
               "trixsim.reports.report", "trixsim.reports.verdict_plots",
               "trixsim.reports.verdicts", "trixsim.reports.html", "trixsim.reports.stats",
               "trixsim.commands.run", "trixsim.commands.compare", "trixsim.commands.tune",
               "trixsim.sim", "trixsim.commands.record", "trixsim.search.deal",
               "trixsim.search", "trixsim.search.pimc", "trixsim.strategies.trump7_pimc",
               "trixsim.strategies._trump7_pimc_kernels", "trixsim.table", "trixsim.serve.tables",
               "trixsim.serve.wire", "trixsim.serve.store", "trixsim.testing",
               "trixsim.testing._common", "trixsim.testing.fairness", "trixsim.testing.game",
               "trixsim.testing.policy", "trixsim.testing.redeal", "trixsim.testing.strategy",
               "trixsim.terminal",
               "trixsim.terminal.session", "trixsim.terminal.text", "trixsim.terminal.names",
               "trixsim.commands.play", "trixsim.train", "trixsim.train.fit",
               "trixsim.train.verify", "trixsim.train.plots", "trixsim.commands.train",
               "trixsim.serve.app", "trixsim.serve.hub", "trixsim.serve.bots",
               "trixsim.commands.serve"]
    found = walk()
    assert [m for m in generic if m in found] == []


def test_the_generic_play_serve_and_train_layers_name_no_game() -> None:
    """No game's name as a value (a default, a branch) in the layers below the command
    line that play, serve or train any game: they are given their game."""
    names = {"trix", "trump7", "trump7-bid"}
    modules = ["terminal/session.py", "terminal/text.py", "terminal/names.py",
               "terminal/__init__.py", "train/__init__.py", "train/fit.py",
               "train/verify.py", "train/plots.py", "serve/app.py", "serve/hub.py",
               "serve/bots.py", "serve/tables.py", "serve/wire.py", "table.py"]
    found = {}
    for rel in modules:
        tree = ast.parse((ROOT / "trixsim" / rel).read_text(encoding="utf-8"))
        hits = [n.lineno for n in ast.walk(tree)
                if isinstance(n, ast.Constant) and n.value in names]
        if hits:
            found[rel] = hits
    assert found == {}
