"""The cache guard's fingerprints: a kernel's cached machine code holds what it calls or
inlines from other modules, so their sources must count too, found from the compiled
functions a module imports (and theirs in turn), not only from the modules named."""

from __future__ import annotations

from trixsim import choice, rng
from trixsim.games.trix import cards, fast, policy
from trixsim.jitcache import sources


def test_sources_cover_the_modules_whose_kernels_a_module_imports() -> None:
    got = set(sources(policy))
    assert set(sources(cards)) <= got  # policy imports cards' bit kernels
    assert set(sources(rng)) <= got


def test_sources_follow_imports_transitively() -> None:
    got = set(sources(fast))  # fast -> policy (uniform_action) -> choice
    assert set(sources(policy)) <= got
    assert set(sources(choice)) <= set(sources(policy))


def test_sources_name_each_module_once() -> None:
    assert len(sources(policy, policy, cards)) == len(set(sources(policy, policy, cards)))
