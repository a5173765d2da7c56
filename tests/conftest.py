"""Shared helpers for the rules tests: imposed deals, scripted play and random playouts.

A scenario is built with ``table(hands, picker=..., contract_no=...)``: a one-game state
waiting for its pick, with the four hands replaced by the given ones (docs/rules.md is the
reference). ``act(st, "pli", "AH", "KH", ...)`` then applies actions written as words:
contract names pick, card names play or place, ``declare``/``quiet`` answer the king of
hearts question and ``pass`` is the trix pass.
"""

from __future__ import annotations

import signal
from collections.abc import Callable, Sequence

import numpy as np

# under TRIXSIM_STRICT_SKIPS (CI) a skip fails unless the test is marked optional
from strict_skips import pytest_make_collect_report, pytest_runtest_makereport  # noqa: F401

from trixsim.games import trix as engine
from trixsim.games.trix import GameState
from trixsim.games.trix.cards import card_name, cards_of, choose_uniform, mask_of, parse_card
from trixsim.games.trix.types import CONTRACT_BY_NAME, DONE, PASS, PICK, PLACE

FULL = 0xFFFFFFFF


def pytest_configure(config: object) -> None:
    """Let the runs the tests interrupt hear Ctrl-C. A suite started in the background by
    a shell (``pytest &``, ``nohup``) inherits SIGINT ignored; Python then installs no
    handler, and every process a test starts inherits the ignoring, so a test's SIGINT
    would not reach its run (as POSIX intends for background jobs)."""
    if signal.getsignal(signal.SIGINT) == signal.SIG_IGN:
        signal.signal(signal.SIGINT, signal.default_int_handler)

_WORDS: dict[str, int] = {"pass": PASS, "declare": 1, "quiet": 0, **CONTRACT_BY_NAME}


def hand(text: str) -> int:
    """The mask of a hand written as card names, e.g. ``"AH KH 7C"``."""
    cards = [parse_card(name) for name in text.split()]
    assert len(set(cards)) == len(cards), f"repeated card in {text!r}"
    return mask_of(cards)


def deal(*hands: str) -> list[int]:
    """Four hands as masks; checks they are a valid deal (8 cards each, all 32 cards)."""
    masks = [hand(h) for h in hands]
    assert len(masks) == 4
    assert all(bin(m).count("1") == 8 for m in masks), "every hand needs 8 cards"
    assert masks[0] | masks[1] | masks[2] | masks[3] == FULL, "the hands must hold all 32 cards"
    return masks


def rotate(hands: Sequence[int], k: int) -> list[int]:
    """The deal with every hand moved ``k`` seats on (seat s gets the hand of s - k)."""
    return [hands[(s - k) % 4] for s in range(4)]


def table(hands: Sequence[int], picker: int = 0, contract_no: int = 0,
          used: int | Sequence[int] | None = None, totals: Sequence[int] | None = None,
          seed: int = 0) -> GameState:
    """One game waiting for the pick of contract ``contract_no`` by ``picker``, with an
    imposed deal (and optionally the contracts used and the totals so far). ``used`` is a
    mask per seat, or one int: the picker's used contracts (the others' stay empty)."""
    st = engine.init(seed, [0])
    assert st.phase[0] == PICK
    fp = (picker - contract_no) % 4
    st.first_picker[0] = fp
    st.contract_no[0] = contract_no
    st.picker[0] = picker
    st.turn[0] = picker
    st.leader[0] = picker
    st.hands[0] = list(hands)
    if isinstance(used, int):
        st.used[0, picker] = used
    elif used is not None:
        st.used[0] = list(used)
    if totals is not None:
        st.totals[0] = list(totals)
    return st


def action_of(token: int | str) -> int:
    """An action from a word (contract, card name, declare/quiet, pass) or an int."""
    if isinstance(token, int):
        return token
    low = token.lower()
    if low in _WORDS:
        return _WORDS[low]
    return parse_card(token)


def act(st: GameState, *tokens: int | str) -> None:
    """Apply actions one by one to game 0 of ``st``; a token may hold several words."""
    for token in tokens:
        words = token.split() if isinstance(token, str) else [token]
        for w in words:
            engine.step(st, np.array([action_of(w)]))


def legal_cards(st: GameState, g: int = 0) -> set[str]:
    """The legal cards of game ``g`` as names (PLAY / PLACE)."""
    return {card_name(c) for c in cards_of(int(engine.legal_action_mask(st)[g]))}


def names(text: str) -> set[str]:
    """A set of card names from a string."""
    return set(text.split())


def random_actions(st: GameState, rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray]:
    """Legal masks and uniformly random legal actions (PASS where a trix seat must pass)."""
    legal = engine.legal_action_mask(st)
    keys = rng.integers(0, 2**63, size=st.batch_size, dtype=np.uint64) * np.uint64(2)
    a = choose_uniform(legal, keys)
    a[(st.phase == PLACE) & (legal == 0)] = PASS
    a[st.phase == DONE] = 0
    return legal, a


def playout(seed: int, game_ids: Sequence[int], rng_seed: int,
            check: Callable[[GameState, np.ndarray, np.ndarray], None] | None = None,
            after: Callable[[GameState], None] | None = None,
            max_steps: int = 5000) -> GameState:
    """Play games to the end with uniformly random legal actions.

    ``check(st, legal, actions)`` is called before every step with the actions about to be
    applied (state not yet changed) and ``after(st)`` after it; ``check`` is called once
    more at the end with empty arrays.
    """
    st = engine.init(seed, list(game_ids))
    rng = np.random.default_rng(rng_seed)
    for _ in range(max_steps):
        if (st.phase == DONE).all():
            break
        legal, a = random_actions(st, rng)
        if check is not None:
            check(st, legal, a)
        engine.step(st, a)
        if after is not None:
            after(st)
    assert (st.phase == DONE).all(), "games did not finish"
    if check is not None:
        check(st, np.zeros(0, np.uint32), np.zeros(0, np.int64))
    return st
