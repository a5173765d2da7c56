"""Keep numba's on-disk cache honest about constants imported from other modules.

numba freezes global constants into compiled code, and links the compiled functions a
kernel calls into it, yet checks only the defining file's source when it reuses its
cache, so a change to, say, the state layout or a rule in another module would silently
run stale kernels. ``guard`` drops a module's cached kernels when a fingerprint of the
constants it imports, or of the sources of the modules it calls into (``sources``),
changes.
"""

from __future__ import annotations

import hashlib
import sys
import types
from pathlib import Path


def _stand_in() -> None:
    """Body of the probe function ``cache_dir`` hands to numba (never called)."""


def cache_dir(module_file: str) -> Path | None:
    """The folder numba caches ``module_file``'s kernels in; None if numba cannot cache them.

    numba picks the folder per source file (``NUMBA_CACHE_DIR``, which the package sets on
    import, plus a per-source-folder subfolder; else ``__pycache__`` or a user-wide folder), so
    rather than repeat its rules this asks numba's own cache for a function of that file. The
    import is deferred because numba reads its settings when first imported.
    """
    from numba.core.caching import FunctionCache

    probe = types.FunctionType(_stand_in.__code__.replace(co_filename=module_file), {})
    try:
        return Path(FunctionCache(probe).cache_path)
    except (OSError, RuntimeError):  # no usable folder: numba raises "no locator available"
        return None


def _kernel_modules(module: types.ModuleType) -> list[types.ModuleType]:
    """The other modules whose compiled functions ``module`` imported (a numba dispatcher
    carries its Python function, and so the module that defines it)."""
    out = []
    for value in vars(module).values():
        name = getattr(getattr(value, "py_func", None), "__module__", None)
        if name and name != module.__name__ and name in sys.modules:
            out.append(sys.modules[name])
    return out


def sources(*modules: types.ModuleType) -> tuple[str, ...]:
    """Fingerprints of modules' source files, for ``guard``: a cached kernel holds the
    machine code of every compiled function it calls or inlines from other modules, so
    their sources must be part of its fingerprint. Besides the modules named, every module
    whose compiled functions one of them imports counts, and so on (each once, in the
    order first met)."""
    seen: dict[str, types.ModuleType] = {}
    todo = list(modules)
    while todo:
        m = todo.pop(0)
        if m.__name__ in seen:
            continue
        seen[m.__name__] = m
        todo += _kernel_modules(m)
    return tuple(hashlib.sha256(Path(m.__file__).read_bytes()).hexdigest()[:16]
                 for m in seen.values() if m.__file__)


def guard(module_file: str, *constants: object) -> None:
    """Delete ``module_file``'s numba cache files if ``constants`` changed since last time."""
    src = Path(module_file)
    cache = cache_dir(module_file)
    if cache is None:  # a read-only install: numba then cannot cache either
        return
    digest = hashlib.sha256(repr(constants).encode()).hexdigest()[:16]
    stamp = cache / f"{src.stem}.constants"
    try:
        if stamp.exists() and stamp.read_text() == digest:
            return
        for f in cache.glob(f"{src.stem}.*.nb[ic]"):
            f.unlink(missing_ok=True)
        cache.mkdir(parents=True, exist_ok=True)
        stamp.write_text(digest)
    except OSError:  # e.g. the folder turned read-only: numba then cannot cache either
        pass
