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
