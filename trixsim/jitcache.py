"""Keep numba's on-disk cache honest about constants imported from other modules.

numba freezes global constants into compiled code and checks only the defining file's
time stamp when it reuses its cache, so a change to, say, the state layout in another
module would silently run stale kernels. ``guard`` drops a module's cached kernels when a
fingerprint of the constants it imports changes.
"""

from __future__ import annotations

import hashlib
from pathlib import Path


def guard(module_file: str, *constants: object) -> None:
    """Delete ``module_file``'s numba cache files if ``constants`` changed since last time."""
    src = Path(module_file)
    cache = src.parent / "__pycache__"
    digest = hashlib.sha256(repr(constants).encode()).hexdigest()[:16]
    stamp = cache / f"{src.stem}.constants"
    try:
        if stamp.exists() and stamp.read_text() == digest:
            return
        for f in cache.glob(f"{src.stem}.*.nb[ic]"):
            f.unlink(missing_ok=True)
        cache.mkdir(exist_ok=True)
        stamp.write_text(digest)
    except OSError:  # a read-only install: numba then cannot cache either
        pass
