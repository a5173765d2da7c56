"""trixsim: a fast batched simulator and strategy-analysis tool for the card game Trix.

Importing the package points numba's on-disk kernel cache at a per-user cache folder
(``$XDG_CACHE_HOME/trixsim/numba`` or ``~/.cache/trixsim/numba``) unless ``NUMBA_CACHE_DIR``
is already set. By default numba caches next to the sources, in ``__pycache__`` folders pip
does not own: after ``pip install .`` an uninstall left ``site-packages/trixsim`` behind holding
only cache files, and that folder then shadowed a later editable install. Every module that
uses numba is imported through this package, so this runs before numba reads its settings.
"""

from __future__ import annotations

import os
import sys

__version__ = "0.1.0"

_CACHE = "numba-3"
"""The kernel cache folder's name. numba keys its cache on a kernel's file, not on its
module's name, and a cached kernel refers to its module by name: bump this when a module
with cached kernels is renamed or moved (2: strategies became trixsim.strategies;
3: trixsim.engine became trixsim.games.trix)."""


def _usable_dir(path: str) -> bool:
    """Whether ``path`` exists (created if need be) and this process can write in it."""
    try:
        os.makedirs(path, exist_ok=True)
    except OSError:
        return False
    return os.access(path, os.W_OK | os.X_OK)


def _user_tag() -> str:
    """A name for the current user that is safe in a folder name."""
    if hasattr(os, "getuid"):
        return str(os.getuid())
    try:
        import getpass

        return "".join(c for c in getpass.getuser() if c.isalnum() or c in "-_.") or "user"
    except Exception:  # no user name in the environment or the password database
        return "user"


def _temp_cache_dir() -> str:
    """A folder of this user's under the temp folder: a shared one is never trusted.

    numba's cache files are pickles, so a folder another user created or can write in is
    refused for a fresh private one (kernels then compile on every start, but safely).
    """
    import tempfile

    base = os.path.join(tempfile.gettempdir(), f"trixsim-{_user_tag()}")
    try:
        os.makedirs(base, mode=0o700, exist_ok=True)
        st = os.lstat(base)
        owned = not hasattr(os, "getuid") or st.st_uid == os.getuid()
        if owned and os.path.isdir(base) and not os.path.islink(base) and not st.st_mode & 0o022:
            path = os.path.join(base, _CACHE)
            if _usable_dir(path):
                return path
    except OSError:
        pass
    return tempfile.mkdtemp(prefix="trixsim-numba-")


def _default_cache_dir() -> str:
    """``$XDG_CACHE_HOME/trixsim/numba`` (or ``~/.cache/...``), else a per-user temp folder."""
    xdg = os.environ.get("XDG_CACHE_HOME", "")
    root = xdg if os.path.isabs(xdg) else os.path.join(os.path.expanduser("~"), ".cache")
    path = os.path.join(root, "trixsim", _CACHE)
    return path if _usable_dir(path) else _temp_cache_dir()


def _use_user_cache_dir() -> None:
    """Set ``NUMBA_CACHE_DIR`` (kept if the user set it; inherited by worker processes)."""
    if os.environ.get("NUMBA_CACHE_DIR"):
        return
    try:
        os.environ["NUMBA_CACHE_DIR"] = _default_cache_dir()
    except OSError:  # not even the temp folder is writable: numba then cannot cache anyway
        return
    config = sys.modules.get("numba.core.config")
    if config is not None:  # numba was imported first: have it read the variable again
        config.reload_config()


_use_user_cache_dir()
