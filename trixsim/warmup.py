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
    cold = notice is not None and not kernels_cached()
    stop = threading.Event()
    t0 = time.perf_counter()
    if cold:
        text = "compiling the game kernels (once after installing)"
        notice(f"{text}...", False)  # type: ignore[misc]

        def tick() -> None:
            while not stop.wait(1.0):
                notice(f"{text}... {time.perf_counter() - t0:.0f} s", True)  # type: ignore[misc]

        threading.Thread(target=tick, daemon=True).start()
    try:
        seats = load_seats(",".join(specs))
        game = get_game()
        play_batch(seats, seed, [0], observer=game.outcomes(1), game=game)
        _WARM.add(tuple(specs))
    finally:
        stop.set()
    if cold:
        notice(f"compiled the game kernels in {time.perf_counter() - t0:.0f} s; "  # type: ignore[misc]
               f"they are cached for later runs", True)


__all__ = ["Notice", "kernels_cached", "warm_up"]
