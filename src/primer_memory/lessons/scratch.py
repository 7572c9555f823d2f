"""Scratch folders for the notebooks' panels and examples, removed even when the kernel is killed.

A kernel killed outright (nbval, the browser test, a stopped JupyterLab) runs no clean-up, so a
folder made with `tempfile` would stay behind. Each folder made here carries its owner in its name
(`<prefix>-<pid>-<start time>-<random>`, so it is never seen without one); making one also removes
every folder whose owner is gone, as the embedded PostgreSQL reaps its servers
(`postgres.reap_orphans`), and a normal exit removes the owner's own.
"""

from __future__ import annotations

import atexit
import os
import shutil
import tempfile
from pathlib import Path

from ..postgres import process_alive, process_started

__all__ = ["PARENT", "fresh_path", "reap_scratch", "scratch_folder"]

PARENT = Path(tempfile.gettempdir()) / "primer-memory-lessons"
_mine: list[Path] = []


def scratch_folder(prefix: str) -> Path:
    """A new empty folder for this process, under PARENT; folders left by dead processes are removed first."""
    reap_scratch()
    pid = os.getpid()
    for _ in range(10):  # another process may remove PARENT, once empty, between the two calls: try again
        PARENT.mkdir(exist_ok=True)
        try:
            folder = Path(tempfile.mkdtemp(prefix=f"{prefix}-{pid}-{process_started(pid) or 0}-", dir=PARENT))
            break
        except FileNotFoundError:
            continue
    else:
        raise FileNotFoundError(f"could not make a scratch folder under {PARENT}")
    if not _mine:
        atexit.register(_remove_mine)
    _mine.append(folder)
    return folder


def fresh_path(folder: Path, name: str) -> Path:
    """`folder / name` the first time, then `name-2`, `name-3`... (before the suffix): a path nothing has used yet.

    A notebook cell that makes a file, a database or a folder takes its path from here, so running the cell again
    starts afresh instead of finding what its first run left ("task already exists", a thread's outputs twice).
    The folder is made again if a clean-up cell removed it.
    """
    folder.mkdir(parents=True, exist_ok=True)
    stem, dot, suffix = name.partition(".")
    candidate, n = folder / name, 1
    while candidate.exists():
        n += 1
        candidate = folder / f"{stem}-{n}{dot}{suffix}"
    return candidate


def reap_scratch() -> list[Path]:
    """Remove every scratch folder whose owner process is gone; say which."""
    removed = []
    for folder in sorted(PARENT.glob("*")) if PARENT.is_dir() else ():
        _, pid, started, _ = (["", "", "", ""] + folder.name.rsplit("-", 3))[-4:]  # mkdtemp's suffix has no "-"
        if not pid.isdigit() or not process_alive(int(pid), None if started in ("", "0") else started):
            shutil.rmtree(folder, ignore_errors=True)
            removed.append(folder)
    _remove_parent_if_empty()
    return removed


def _remove_mine() -> None:
    for folder in _mine:
        shutil.rmtree(folder, ignore_errors=True)
    _remove_parent_if_empty()


def _remove_parent_if_empty() -> None:
    """PARENT goes with its last folder, so nothing is left in the system temporary directory."""
    try:
        PARENT.rmdir()
    except OSError:  # not empty (another process's folder), or already gone
        pass
