"""Load (or, the first time, compile) the compiled kernels before a run starts, and say so.

The first run after installing compiles the rules, the whole-game loop and the bundled
strategies' policies (about 20 seconds); later runs load them from the on-disk cache in
a fraction of a second. ``warm_up`` plays one game of the lineup in the main process, so
forked workers inherit the loaded kernels and spawned ones find them cached, and when the
cache was cold it reports the compilation through ``notice`` with a ticking line instead
of a progress bar frozen at zero.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Sequence

Notice = Callable[[str, bool], None]
"""Shows a line of text; the flag says whether it replaces the previous one (a tick)."""
_WARM: set[tuple[str, ...]] = set()


def kernels_cached() -> bool:
    """Whether Trix's whole-game loop is in numba's on-disk cache and current."""
    from trixsim.games.trix.fast import play_games

    try:
        return bool(play_games._cache._cache_file._load_index())
    except Exception:  # an unknown cache layout: say nothing rather than fail
        return True


def warm_up(specs: Sequence[str], seed: int, notice: Notice | None = None) -> None:
    """Play one game with the lineup ``specs`` (one spec per seat) to load the kernels;
    when they must be compiled first, report it through ``notice``."""
    from trixsim.games import get_game
    from trixsim.loading import load_seats
    from trixsim.sim import play_batch

    if tuple(specs) in _WARM:
        return
    t0 = time.perf_counter()
    stop = threading.Event()
    shown = threading.Event()
    text = "compiling the game kernels (once after installing)"
    if notice is not None:
        cold = not kernels_cached()

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
        seats = load_seats(",".join(specs))
        game = get_game()
        play_batch(seats, seed, [0], observer=game.outcomes(1), game=game)
        _WARM.add(tuple(specs))
    finally:
        stop.set()
        if notice is not None:
            ticker.join()
    if shown.is_set():
        notice(f"compiled the game kernels in {time.perf_counter() - t0:.0f} s; "  # type: ignore[misc]
               f"they are cached for later runs", True)

__all__ = ["Notice", "kernels_cached", "warm_up"]
