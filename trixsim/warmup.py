"""Load (or, the first time, compile) the compiled kernels before a run starts, and say so.

The first run after installing compiles the rules, the whole-game loop and the bundled
strategies' policies (about 20 seconds); later runs load them from the on-disk cache in
a fraction of a second. ``warm_up`` plays one game of the lineup in the main process and
builds its outcome tables, so forked workers inherit the loaded kernels and spawned ones
find them cached, and when the cache was cold it reports the compilation through
``notice`` with a ticking line instead of a progress bar frozen at zero.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Sequence

Notice = Callable[[str, bool], None]
"""Shows a line of text; the flag says whether it replaces the previous one (a tick)."""
_WARM: set[tuple[str, ...]] = set()


def kernels_cached(game: str) -> bool:
    """Whether ``game``'s whole-game loop (its ``whole_game_kernel``) is in numba's
    on-disk cache and current."""
    from trixsim.games import get_game

    try:
        kernel = get_game(game).whole_game_kernel()
        return bool(kernel._cache._cache_file._load_index())
    except Exception:  # no such kernel, or an unknown cache layout: say nothing
        return True


def warm_up(specs: Sequence[str], seed: int, game: str, notice: Notice | None = None) -> None:
    """Play one game of ``game`` with the lineup ``specs`` (one spec per seat) to load the
    kernels; when they must be compiled first, report it through ``notice``."""
    from trixsim.games import get_game
    from trixsim.loading import load_seats
    from trixsim.sim import play_batch

    if (game, *specs) in _WARM:
        return
    t0 = time.perf_counter()
    stop = threading.Event()
    shown = threading.Event()
    text = "compiling the game kernels (once after installing)"
    if notice is not None:
        cold = not kernels_cached(game)

        def tick() -> None:
            # a cold cache is announced at once; otherwise only a load that takes long
            # (a strategy's kernel compiling on first use) is
            if not cold and stop.wait(1.5):
                return
            shown.set()
            notice(f"{text}...", False)  # type: ignore[misc]
            while not stop.wait(1.0):
                notice(f"{text}... {time.perf_counter() - t0:.0f} s", True)  # type: ignore[misc]

        ticker = threading.Thread(target=tick, daemon=True)
        ticker.start()
    try:
        seats = load_seats(",".join(specs), game)
        rules = get_game(game)
        log = rules.outcomes(1)
        log.tables(play_batch(seats, seed, [0], observer=log, game=rules), list(specs))
        _WARM.add((game, *specs))
    finally:
        stop.set()
        if notice is not None:
            ticker.join()
    if shown.is_set():
        notice(f"compiled the game kernels in {time.perf_counter() - t0:.0f} s; "  # type: ignore[misc]
               f"they are cached for later runs", True)

__all__ = ["Notice", "kernels_cached", "warm_up"]
