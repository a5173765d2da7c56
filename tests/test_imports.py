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
    "trixsim.strategies.pimc": "Trix's pimc",
    "trixsim.strategies._pimc_kernels": "Trix's pimc's compiled kernels",
    "trixsim.strategies.expert": "Trix's learned expert policy",
    "trixsim.strategies._expert_kernels": "Trix's expert's features and compiled scorer",
    # Trix's own plug-in: its report aspects
    "trixsim.reports.trix_aspects": "Trix's own plug-in: its report aspects",
    "trixsim.reports.trix_pairing": "Trix's own plug-in: its report aspects",
    "trixsim.reports.trix_plots": "Trix's own plug-in: its report aspects",
    "trixsim.reports.trix_sums": "Trix's own plug-in: its report aspects",
    # Trix-only features not yet split into a generic core and a Trix plug-in
    "trixsim.train.data": "train: self-play data of Trix labelled by a Trix teacher",
    "trixsim.train.verify": "train: each iteration verified on Trix deals",
    "trixsim.train.expert_search": "train: the prototype search with Trix's expert",
    "trixsim.train._search_kernels": "train: its compiled Trix search",
    "trixsim.terminal.session": "play: Trix at the terminal",
    "trixsim.terminal.text": "play: Trix's terminal text",
    "trixsim.testing._common": "check_strategy's Trix scenarios",
    "trixsim.testing.engine": "check_game_engine: Trix's engine conformance",
    "trixsim.testing.fairness": "Trix's fair-play checks",
    "trixsim.testing.policy": "Trix's compiled-policy agreement check",
    "trixsim.testing.redeal": "Trix's re-deal checks",
    "trixsim.testing.strategy": "check_strategy plays Trix",
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
               "trixsim.serve.wire", "trixsim.serve.store"]
    found = walk()
    assert [m for m in generic if m in found] == []
