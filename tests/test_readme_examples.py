"""The README's code examples run as written."""

from __future__ import annotations

import re
import sys
from pathlib import Path

from trixsim.testing import check_strategy

README = Path(__file__).resolve().parents[1] / "README.md"


def _block_after(heading: str) -> str:
    """The first ```python block after a heading of the README."""
    text = README.read_text()
    start = text.index(heading)
    return re.search(r"```python\n(.*?)```", text[start:], re.S).group(1)


def test_the_compiled_policy_example_passes_the_strategy_checks(tmp_path, monkeypatch) -> None:
    src = tmp_path / "lowest_example.py"
    src.write_text(_block_after("### The fast path: a compiled policy"))
    monkeypatch.syspath_prepend(str(tmp_path))
    import lowest_example

    bot = lowest_example.Lowest()
    assert bot.compiled() is not None
    check_strategy(bot, games=60)  # includes check_policy: both paths, no peeking
    sys.modules.pop("lowest_example", None)


def _usage_commands() -> list[list[str]]:
    """The commands of the README's Usage block, split as a shell would (comments dropped)."""
    import shlex

    text = README.read_text()
    block = re.search(r"## Usage\n+```bash\n(.*?)```", text, re.S).group(1)
    return [shlex.split(line, comments=True) for line in block.splitlines() if line.strip()]


def test_usage_runs_of_several_strategies_are_designs_the_report_can_judge() -> None:
    """Every Usage `trixsim run` naming two or more strategies pairs each two of them on the
    same deal and seat (report verdicts), not only tables of one strategy each."""
    from itertools import combinations

    from trixsim.reports.pairing import lineup_pairs

    from trixsim.runner import expand_lineups

    checked = 0
    for cmd in _usage_commands():
        if cmd[:2] != ["trixsim", "run"]:
            continue
        lineups = [cmd[i + 1] for i, a in enumerate(cmd) if a in ("-s", "--strategies")]
        seatings = [tuple(s) for s in expand_lineups(lineups, "--rotate" in cmd)]
        names = sorted({s for lu in seatings for s in lu})
        if len(names) < 2:
            continue
        matched, seat = lineup_pairs(seatings)
        compared = {frozenset((seatings[i][s], seatings[j][s])) for i, j, s in matched + seat}
        for a, b in combinations(names, 2):
            assert frozenset((a, b)) in compared, f"{' '.join(cmd)}: no verdict {a} vs {b}"
        checked += 1
    assert checked >= 2
