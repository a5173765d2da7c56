"""Output folders this tool owns: a marker that says so, safe replacement, a writer's lock.

Every folder trixsim creates (a run, a comparison, a report, a tuning folder) holds a small
marker file naming its kind and recording the files this tool wrote there (name, size,
SHA-256; updated whenever a writer releases the folder). ``--force`` replaces a folder only
when that marker is there, every entry in it is one this tool writes for that kind and is
as it wrote it (a chunk file by the checksum run.json lists, any other file by the marker's
record), and the folder is neither the current directory, nor an input of the command, nor
above or inside one. A marker without a record (written by an older version) is judged by
names only, as then. A new folder is built under a temporary name beside its target and
renamed into place, so it appears whole.

A process that writes a folder holds an OS file lock on ``.trixsim-lock`` inside it for as
long as it writes; the lock dies with the process. A second writer is refused with a line
naming the holder (its pid, host, start time and command).
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import re
import shutil
import socket
import sys
import tempfile
import time
from collections.abc import Iterable, Iterator
from fnmatch import fnmatch
from pathlib import Path
from typing import IO

from trixsim import __version__

MARKER = ".trixsim-folder"
LOCK = ".trixsim-lock"
JOURNAL = "chunks.jsonl"
"""A run folder's chunk journal (written and read by ``trixsim.runfolder``): the chunks
listed since run.json was last written, one JSON line each, appended and synced as each
chunk is placed; ``write_run_json`` folds them into run.json and removes it. Each listing
costs one short line instead of a rewrite of every chunk listed so far (a
100,000,000-game run lists 10,000 chunks), and a main process killed outright still
leaves every placed chunk listed."""

# What each kind of folder may hold (top-level names, then the names inside subfolders).
_COMMON = (MARKER, LOCK, ".run.json.tmp*", f".{MARKER}.tmp-*")
_RUN = (*_COMMON, "run.json", JOURNAL, "run.log", "contracts", "games", "compare.json",
        "report.md", "report")
CONTENTS: dict[str, tuple[str, ...]] = {
    "run": _RUN,
    "compare": _RUN,
    "report": (*_COMMON, "report.md", "index.html", "*.png", "*.csv"),
    "tune": (*_COMMON, "tune.json", "state.json", "verdict.json", "best.toml", "tuned.toml",
             "history.*",
             "*.png", "verify", "run.log",
             "report.md"),
    "tournament": (*_COMMON, "tournament.json", "report.md", "report", "pair-*"),
}
_SUBFOLDERS: dict[str, tuple[str, ...]] = {
    "contracts": ("*.parquet", ".tmp-*"),
    "games": ("*.parquet", ".tmp-*"),
}
Kind = str
Record = dict[str, dict[str, int | str]]
"""What the marker records of the files trixsim wrote: name -> {"bytes", "sha256"}."""
_LOCK_LINE = re.compile(r"pid \d+ on \S* since ")


class FolderError(ValueError):
    """An output folder that cannot be used as asked; the message is one line."""


class FolderLocked(FolderError):
    """Another process is writing the folder."""


def _marker(path: Path) -> dict | None:
    """The parsed marker of ``path``, or None when it has no valid one."""
    try:
        data = json.loads((Path(path) / MARKER).read_text(encoding="utf-8"))
    except (OSError, ValueError, RecursionError):
        return None
    if isinstance(data, dict) and data.get("tool") == "trixsim":
        return data
    return None


def kind_of(path: Path) -> Kind | None:
    """The kind written in ``path``'s marker, or None when it has no valid marker."""
    kind = (_marker(path) or {}).get("kind")
    return kind if isinstance(kind, str) else None


def _is_within(inner: Path, outer: Path) -> bool:
    return inner == outer or outer in inner.parents


def _foreign_entries(path: Path, kind: Kind) -> list[str]:
    """Entries of ``path`` that this tool does not write in a folder of ``kind``."""
    allowed = CONTENTS.get(kind, _COMMON)
    foreign: list[str] = []
    for entry in sorted(path.iterdir()):
        if not any(fnmatch(entry.name, pat) for pat in allowed) or entry.is_symlink():
            foreign.append(entry.name)
        elif entry.is_dir():
            if entry.name in _SUBFOLDERS:
                foreign += [f"{entry.name}/{e.name}" for e in sorted(entry.iterdir())
                            if not any(fnmatch(e.name, p) for p in _SUBFOLDERS[entry.name])
                            or not e.is_file() or e.is_symlink()]
            elif kind_of(entry) is None:  # a nested report or verification folder
                foreign.append(entry.name + "/")
            else:
                foreign += [f"{entry.name}/{e}"
                            for e in _foreign_entries(entry, kind_of(entry) or "")]
        elif entry.name in _SUBFOLDERS:
            foreign.append(entry.name)
    return foreign


def foreign_entries(path: Path, kind: Kind) -> list[str]:
    """Entries of ``path`` that this tool does not write in a folder of ``kind``."""
    return _foreign_entries(Path(path), kind)


def check_replaceable(path: Path, kinds: Iterable[Kind], inputs: Iterable[Path] = (),
                      held: bool = False) -> None:
    """Refuse (FolderError) to replace ``path`` unless it is a folder this tool created,
    of one of ``kinds``, holding nothing else and nothing changed since this tool wrote it,
    and not the current directory, an input, or above or inside one. While another process
    writes it (``held``: unless this one holds its lock), changed files are its writer's:
    taking the lock will refuse it, naming the writer."""
    path = Path(path)
    here = Path.cwd().resolve()
    real = path.resolve()
    if _is_within(here, real):
        raise FolderError(f"{path} is the current folder or one above it: not replacing it")
    for inp in inputs:
        src = Path(inp).resolve()
        if _is_within(src, real):
            raise FolderError(f"{path} is or holds the input {inp}: not replacing it")
    if path.is_symlink() or not path.is_dir():
        raise FolderError(f"{path} exists and is not a folder created by trixsim: "
                          "not replacing it")
    kind = kind_of(path)
    kinds = tuple(kinds)
    if kind is None:
        raise FolderError(f"{path} was not created by trixsim (no {MARKER} marker): "
                          "not replacing it; remove it yourself or choose another --out")
    if kind not in kinds:
        raise FolderError(f"{path} is a trixsim {kind} folder, not a {' or '.join(kinds)} "
                          "folder: not replacing it")
    foreign = _foreign_entries(path, kind)
    if foreign:
        raise FolderError(f"{path} holds files trixsim did not write ({_shown(foreign)}): "
                          "not replacing it")
    changed = _changed_entries(path)
    if changed and (held or holder(path) is None):
        raise FolderError(f"{path} holds files that are not as trixsim wrote them "
                          f"({_shown(changed)}): not replacing it (remove it yourself; "
                          "after a kill -9, --resume it first)")


def _shown(names: list[str]) -> str:
    return ", ".join(names[:3]) + (f" and {len(names) - 3} more" if len(names) > 3 else "")


def _sha256(path: Path) -> str:
    h = hashlib.sha256()
    with open(path, "rb") as fh:
        for block in iter(lambda: fh.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()


def _is_temp(name: str) -> bool:
    """A temporary file of an interrupted atomic write of this tool's (``write_atomic``)."""
    return fnmatch(name, ".run.json.tmp*") or fnmatch(name, f".{MARKER}.tmp-*")


def _same(path: Path, size: object, sha: object) -> bool:
    """Whether the file ``path`` has this size and SHA-256."""
    return path.stat().st_size == size and _sha256(path) == sha


def _changed_entries(path: Path) -> list[str]:
    """Entries of a folder whose marker records its files (its names already checked)
    that are not as this tool wrote them: a file the record lacks or that differs from it,
    a chunk file that differs from the checksum run.json lists or that it does not list,
    a lock file holding something else than a holder's line; nested folders the same way.
    A marker without a record (an older version's) checks nothing here: names only."""
    files = (_marker(path) or {}).get("files")
    if not isinstance(files, dict):
        return []
    out: list[str] = []
    for entry in sorted(path.iterdir()):
        name = entry.name
        if entry.is_dir():
            if name not in _SUBFOLDERS:
                out += [f"{name}/{e}" for e in _changed_entries(entry)]
        elif not entry.is_file():  # a pipe or a device: never one of this tool's files
            out.append(name)
        elif name == LOCK:
            with open(entry, "rb") as fh:
                text = fh.read(4096)
            if text.strip() and not _LOCK_LINE.match(text.decode("utf-8", "replace")):
                out.append(name)
        elif name != MARKER and not _is_temp(name):
            rec = files.get(name)
            if not isinstance(rec, dict) or not _same(entry, rec.get("bytes"),
                                                      rec.get("sha256")):
                out.append(name)
    if "run.json" not in out and any((path / t).is_dir() for t in _SUBFOLDERS):
        out += _changed_chunks(path)
    return out


def _changed_chunks(path: Path) -> list[str]:
    """Chunk files of a run folder that run.json does not list, or that differ from the
    size and SHA-256 it lists (chunks listed before checksums were kept: their rows)."""
    from trixsim.runfolder import RunFolderError, read_run, verify_chunk

    try:
        chunks = read_run(path)["chunks"]
    except RunFolderError:
        chunks = []
    listed = {c[f"{t}_file"]: (t, c) for c in chunks for t in _SUBFOLDERS
              if f"{t}_file" in c}  # a game without a contracts table lists none
    out = []
    for table in sorted(_SUBFOLDERS):
        if not (path / table).is_dir():
            continue
        for f in sorted((path / table).iterdir()):
            rel = f"{table}/{f.name}"
            if fnmatch(f.name, ".tmp-*") and not f.is_symlink():
                continue
            t, chunk = listed.get(rel, (table, None))
            if chunk is None or f.is_symlink() or not f.is_file():
                out.append(rel)
            elif t in (chunk.get("sha256") or {}):
                if not _same(f, (chunk.get("bytes") or {}).get(t, f.stat().st_size),
                             chunk["sha256"][t]):
                    out.append(rel)
            elif verify_chunk(path, chunk) is not None:
                out.append(rel)
    return out


def record_files(path: Path, since_ns: int = 0) -> None:
    """Record in ``path``'s marker the files this tool wrote there: every file of a name
    it writes in a folder of that kind changed at or after ``since_ns`` (a file time: when
    this writer took the folder), the others as recorded before, or not at all (a file
    changed while no writer held the folder is not vouched for). Written atomically; a
    folder without a marker is left alone."""
    path = Path(path)
    data = _marker(path)
    if data is None:
        return
    allowed = CONTENTS.get(str(data.get("kind")), _COMMON)
    old = data.get("files") if isinstance(data.get("files"), dict) else {}
    files: Record = {}
    for entry in sorted(path.iterdir()):
        name = entry.name
        if (name in (MARKER, LOCK) or _is_temp(name) or entry.is_symlink()
                or not entry.is_file() or not any(fnmatch(name, p) for p in allowed)):
            continue
        if entry.stat().st_mtime_ns >= since_ns:
            files[name] = {"bytes": entry.stat().st_size, "sha256": _sha256(entry)}
        elif name in old:
            files[name] = old[name]
    if files != old or "files" not in data:
        write_atomic(path / MARKER, json.dumps({**data, "files": files}) + "\n")


def check_new_output(path: Path, kinds: Iterable[Kind], force: bool,
                     inputs: Iterable[Path] = (), held: bool = False) -> None:
    """Refuse (FolderError) an output path that exists, unless ``force`` and it may be
    replaced (see ``check_replaceable``). Touches nothing."""
    path = Path(path)
    if not (path.exists() or path.is_symlink()):
        return
    if not force:
        raise FolderError(f"{path} already exists (use --force to replace a folder "
                          "trixsim created)")
    check_replaceable(path, kinds, inputs, held)


def write_marker(path: Path, kind: Kind) -> None:
    """Mark ``path`` as a folder of ``kind`` written by this tool (with an empty record of
    its files, which ``record_files`` fills)."""
    (Path(path) / MARKER).write_text(json.dumps(
        {"tool": "trixsim", "kind": kind, "version": __version__,
         "created": time.strftime("%Y-%m-%dT%H:%M:%S%z"), "files": {}}) + "\n",
        encoding="utf-8")


class FolderLock:
    """An exclusive OS lock on a folder (``LOCK`` inside it), held until ``release``. On
    release, the files written while it was held are recorded in the folder's marker
    (``record_files``), unless ``record`` is False."""

    def __init__(self, folder: Path, record: bool = True) -> None:
        self.folder = Path(folder)
        self.record = record
        self._fh: IO[str] | None = None
        self._since = 0

    def acquire(self) -> FolderLock:
        """Take the lock or raise FolderLocked naming the holder."""
        fh = open(self.folder / LOCK, "a+", encoding="utf-8")  # noqa: SIM115 (held open)
        if not _try_lock(fh):
            fh.seek(0)
            holder = fh.read().strip() or "another process"
            fh.close()
            raise FolderLocked(f"{self.folder} is being written by {holder}")
        fh.seek(0)
        fh.truncate()
        fh.write(f"pid {os.getpid()} on {socket.gethostname()} since "
                 f"{time.strftime('%Y-%m-%d %H:%M:%S')} ({' '.join(sys.argv)[:200]})\n")
        fh.flush()
        self._since = os.fstat(fh.fileno()).st_mtime_ns  # the file clock: later writes
        self._fh = fh                                    # get later times
        return self

    def release(self) -> None:
        """Record the files written meanwhile, then let go of the lock (closing the file
        releases it). A record that cannot be written (a full disk) is skipped: the folder
        then holds files its marker does not vouch for, and ``--force`` refuses it."""
        if self._fh is None:
            return
        try:
            if self.record:
                with contextlib.suppress(OSError):
                    record_files(self.folder, self._since)
            with contextlib.suppress(OSError):
                self._fh.seek(0)
                self._fh.truncate()
        finally:
            self._fh.close()
            self._fh = None

    def __enter__(self) -> FolderLock:
        return self if self._fh is not None else self.acquire()

    def __exit__(self, *exc: object) -> None:
        self.release()


def holder(folder: Path) -> str | None:
    """Who is writing ``folder`` now, or None when nobody holds its lock."""
    path = Path(folder) / LOCK
    if not path.exists():
        return None
    try:
        with open(path, encoding="utf-8") as fh:
            if _try_lock(fh, shared=True):
                return None
            return fh.read().strip() or "another process"
    except OSError:
        return None


def _try_lock(fh: IO[str], shared: bool = False) -> bool:
    """A non-blocking lock on an open file; False when another process holds it."""
    try:
        import fcntl
    except ImportError:  # no POSIX locks here: a lock is then always granted
        return True
    try:
        fcntl.flock(fh.fileno(), (fcntl.LOCK_SH if shared else fcntl.LOCK_EX) | fcntl.LOCK_NB)
    except BlockingIOError:
        return False
    return True


def current_umask() -> int:
    """The process's umask (read by setting it and setting it back)."""
    mask = os.umask(0o077)
    os.umask(mask)
    return mask


@contextlib.contextmanager
def create_folder(path: Path, kind: Kind, force: bool = False,
                  inputs: Iterable[Path] = ()) -> Iterator[tuple[Path, FolderLock]]:
    """Build a new folder of ``kind`` and hold its lock.

    Yields (a temporary folder beside ``path``, its lock): the caller writes the first
    files there; on leaving the block the folder is renamed to ``path`` (replacing a
    replaceable old one when ``force``), whole. If the block fails, the temporary folder is
    removed and nothing at ``path`` changes. The lock is still held afterwards: the caller
    releases it when done writing.
    """
    path = Path(path)
    check_new_output(path, (kind,), force, inputs)
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = Path(tempfile.mkdtemp(prefix=f".{path.name}.new-", dir=path.parent))
    lock = FolderLock(tmp)
    try:  # mkdtemp makes it owner-only; the folder is shared as the umask allows
        os.chmod(tmp, 0o777 & ~current_umask())
    except BaseException:
        shutil.rmtree(tmp, ignore_errors=True)
        raise
    try:
        write_marker(tmp, kind)
        lock.acquire()
        yield tmp, lock
        _move_into_place(tmp, path, kind, force, inputs)
    except BaseException:
        lock.release()
        shutil.rmtree(tmp, ignore_errors=True)
        raise
    lock.folder = path


def _move_into_place(tmp: Path, path: Path, kind: Kind, force: bool,
                     inputs: Iterable[Path]) -> None:
    """Rename ``tmp`` to ``path``; an old folder there is checked, locked, then removed."""
    if not (path.exists() or path.is_symlink()):
        os.rename(tmp, path)
        return
    if path.is_symlink() or not path.is_dir():
        check_new_output(path, (kind,), force, inputs)  # refuses it
    with FolderLock(path, record=False):  # the old folder, going to the trash
        check_new_output(path, (kind,), force, inputs, held=True)  # now that none writes it
        trash = path.with_name(f".{path.name}.old-{os.getpid()}")
        os.rename(path, trash)
        os.rename(tmp, path)
    shutil.rmtree(trash)


def write_atomic(path: Path | str, data: str | bytes, tmp: Path | None = None,
                 private: bool = False) -> None:
    """Replace the file ``path`` by ``data`` at once: written to a temporary file of this
    process beside it (``tmp``, else ``.NAME.tmp-PID``), synced, then renamed over it. A
    reader never sees half a file, and a write that fails or is interrupted leaves the old
    file as it was and no temporary file behind. ``private``: readable by the owner only
    (the file holds secrets)."""
    path = Path(path)
    tmp = tmp or path.with_name(f".{path.name}.tmp-{os.getpid()}")
    try:
        if private:  # a leftover temporary file would keep its wider permissions
            tmp.unlink(missing_ok=True)
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600 if private else 0o666)
        with open(fd, "wb") as fh:
            fh.write(data.encode("utf-8") if isinstance(data, str) else data)
            fh.flush()
            os.fsync(fh.fileno())
        os.replace(tmp, path)
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise


__all__ = ["CONTENTS", "LOCK", "MARKER", "FolderError", "FolderLock", "FolderLocked",
           "check_new_output", "check_replaceable", "create_folder", "current_umask",
           "foreign_entries", "holder", "kind_of", "record_files", "write_atomic",
           "write_marker"]
