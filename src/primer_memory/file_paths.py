"""Checks on a path a learner gives, before anything opens it: one place for every store that takes a file.

A path is checked as a value first (text, no NUL byte, no name longer than the file system allows), then
as a place (its folder exists, it is not itself a folder or a device, it can be written). Each check raises
the caller's own error class with a message that names the path exactly as it was given, never the host's
absolute path, and nothing on disk is touched: these checks only read metadata.
"""

from __future__ import annotations

import os
import stat
from pathlib import Path

__all__ = ["MAX_NAME_BYTES", "MAX_PATH_BYTES", "check_file_place", "check_new_file_place", "check_path_value",
           "check_still_there", "file_identity"]

MAX_NAME_BYTES = 255  # one name in a path (NAME_MAX on Linux, macOS and Windows alike)
MAX_PATH_BYTES = 4096  # the whole path (PATH_MAX on Linux)


def check_path_value(path: object, error: type[Exception], what: str = "the path") -> str:
    """`path` as text (str or os.PathLike of str), or `error` saying what is wrong with the value itself."""
    if isinstance(path, bytes) or not isinstance(path, (str, os.PathLike)):
        raise error(f"{what} must be text such as 'memory.db', got {type(path).__name__}")
    try:
        given = os.fspath(path)
    except TypeError:  # an os.PathLike whose __fspath__ returns neither str nor bytes
        raise error(f"{what} must be text such as 'memory.db', got a {type(path).__name__} that is no path") from None
    if not isinstance(given, str):
        raise error(f"{what} must be text such as 'memory.db', got a path of {type(given).__name__}")
    if not given or not given.strip():
        raise error(f"{what} is empty; give a file name such as 'memory.db'")
    if given == ":memory:" or given.startswith("file:"):  # SQLite reads these as a database in memory, or a URI
        raise error(f"{what} {given!r} is not a file name: SQLite would keep nothing on disk; give a file such as "
                    "'memory.db' (or no path, for a memory that lives only as long as the process)")
    if "\0" in given:
        raise error(f"{what} {given!r} holds a NUL character, which no file name can contain")
    try:
        encoded = given.encode("utf-8")
    except UnicodeEncodeError:
        raise error(f"{what} {given!r} holds a lone surrogate and cannot be a file name") from None
    if len(encoded) > MAX_PATH_BYTES or any(len(part) > MAX_NAME_BYTES for part in encoded.split(b"/")):
        raise error(f"{what} is too long for the file system (a name may have {MAX_NAME_BYTES} bytes, a path "
                    f"{MAX_PATH_BYTES}); choose a shorter one")
    return given


def check_file_place(given: str, error: type[Exception], *, writable: bool = True,
                     example: str = "memory.db") -> bool:
    """Whether a file exists at `given` (True) or may be created there (False); `error` if neither.

    Refused: a folder, a path ending in a separator, a missing folder, something that is not a regular file
    (a device, a pipe, a socket), a read-only file or folder when `writable`.
    """
    if given.endswith(("/", os.sep)):
        raise error(f"{given!r} ends with a separator, so it names a folder; give a file such as "
                    f"{os.path.join(given, example)!r}")
    path = Path(given)
    try:
        info = path.stat()
    except FileNotFoundError:
        info = None
    except OSError as problem:
        raise error(f"{given!r} cannot be read ({problem.strerror or problem})") from None
    if info is None:
        if path.is_symlink():
            raise error(f"{given!r} is a link to something that does not exist; give the path of a real file")
        check_new_file_place(given, error, writable=writable)
        return False
    if stat.S_ISDIR(info.st_mode):
        raise error(f"{given!r} is a folder; give the path of a file inside it, such as "
                    f"{os.path.join(given, example)!r}")
    if not stat.S_ISREG(info.st_mode):
        raise error(f"{given!r} is not a regular file (a device, a pipe or a socket); give the path of a file")
    if writable and not (info.st_mode & 0o222 and os.access(given, os.W_OK)):  # mode bits too: root ignores them
        raise error(f"{given!r} is read-only; make it writable (chmod u+w) or copy it, then try again")
    return True


def check_new_file_place(given: str, error: type[Exception], *, writable: bool = True) -> None:
    """A file may be created at `given`: its folder exists, is a folder, and (when `writable`) can be written."""
    folder = os.path.dirname(given) or "."
    if not os.path.isdir(folder):
        raise error(f"the folder of {given!r} does not exist; create it first, or choose another path")
    if writable and not (os.stat(folder).st_mode & 0o222 and os.access(folder, os.W_OK | os.X_OK)):
        raise error(f"the folder of {given!r} is read-only, so no file can be created in it; choose another path")


def file_identity(given: str) -> tuple[int, int] | None:
    """The (device, inode) of the file at `given` now, or None if there is none: which file a name points to."""
    try:
        info = os.stat(given)
    except OSError:
        return None
    return info.st_dev, info.st_ino


def check_still_there(given: str, identity: tuple[int, int] | None, error: type[Exception],
                      where: str | None = None) -> None:
    """`error` if the file opened at `given` was deleted or replaced since: a write would go to a file no name
    reaches, and be lost when the store is closed. `where` is the absolute path taken when it was opened (the
    process may have changed its working folder since); messages name `given`."""
    if identity is not None and file_identity(where or given) != identity:
        raise error(f"{given!r} was deleted or replaced while it was open, so nothing was written (it would have "
                    "been lost); restore the file, or open the store again to start a new one")
