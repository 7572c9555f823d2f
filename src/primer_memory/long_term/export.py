"""Writing a data-access export (GDPR Art. 15) to a file the caller names, without ever losing a byte.

An export is personal data leaving the store, so where it lands is checked first: the path as a value (text,
no NUL, not too long), then as a place. An existing file is never replaced unless the caller says
`overwrite=True`, and even then never the store's own file (or its journal), a folder, a device or a link:
a link is refused outright, so what it points to (perhaps outside the folder) is never written through. The
JSON goes to a temporary file in the same folder, is flushed to disk, then takes the name in one step
(`os.link` for a new name, so a file that appears meanwhile is not replaced; `os.replace` with overwrite),
so a failure leaves the old file, or no file, never half an export. Messages name the path as given.
"""

from __future__ import annotations

import errno
import json
import os
import secrets
import stat
from collections.abc import Sequence
from contextlib import suppress
from typing import Any

from ..file_paths import check_new_file_place, check_path_value
from .records import ExportFileError

__all__ = ["check_export_target", "write_export"]

_NO_HARD_LINKS = {errno.EPERM, errno.EXDEV, errno.EMLINK, errno.ENOTSUP, errno.EOPNOTSUPP, errno.ENOSYS}


def check_export_target(path: object, *, overwrite: object = False, protected: Sequence[str] = ()) -> str:
    """The export path as given, once it is a place export may write; ExportFileError saying why not otherwise.

    `protected` lists the store's own files (absolute paths, never shown): refused even with overwrite=True.
    """
    given = check_path_value(path, ExportFileError, "the export path")
    if not isinstance(overwrite, bool):
        raise ExportFileError(f"overwrite must be True or False, got {overwrite!r}")
    if given.endswith(("/", os.sep)):
        raise ExportFileError(f"{given!r} ends with a separator, so it names a folder; give a file such as "
                              f"{os.path.join(given, 'export.json')!r}")
    if _is_protected(given, protected):
        raise ExportFileError(f"{given!r} is this store's own file; writing the export there would destroy every "
                              "memory it holds. Give a new file name, such as 'export.json'")
    if os.path.islink(given):
        raise ExportFileError(f"{given!r} is a link; export writes only to a plain file, never through a link "
                              "(what it points to is left alone). Give another path")
    try:
        info = os.stat(given)
    except FileNotFoundError:
        check_new_file_place(given, ExportFileError)
        return given
    except OSError as problem:
        raise ExportFileError(f"{given!r} cannot be used ({problem.strerror or problem}); give another path") from None
    if stat.S_ISDIR(info.st_mode):
        raise ExportFileError(f"{given!r} is a folder; give a file inside it, such as "
                              f"{os.path.join(given, 'export.json')!r}")
    if not overwrite:
        raise ExportFileError(f"{given!r} already exists and was left unchanged; export never replaces a file "
                              "unless you pass overwrite=True. Choose a new name to keep both")
    if not stat.S_ISREG(info.st_mode):
        raise ExportFileError(f"{given!r} is not a regular file (a device, a pipe or a socket); give a file path")
    if not (info.st_mode & 0o222 and os.access(given, os.W_OK)):  # mode bits too: root ignores them
        raise ExportFileError(f"{given!r} is read-only, so it was left unchanged; choose another path")
    check_new_file_place(given, ExportFileError)  # the temporary file is made in the same folder
    return given


def write_export(given: str, data: list[dict[str, Any]], *, overwrite: bool) -> None:
    """Write `data` as UTF-8 JSON at `given` (checked by `check_export_target`), all at once or not at all."""
    payload = (json.dumps(data, indent=2, ensure_ascii=False) + "\n").encode("utf-8")
    folder = os.path.dirname(given) or "."
    temporary: str | None = None
    try:
        temporary = os.path.join(folder, f".export-{secrets.token_hex(6)}.tmp")
        fd = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0), 0o666)
        with os.fdopen(fd, "wb") as out:
            out.write(payload)
            out.flush()
            os.fsync(out.fileno())
        if overwrite:
            os.replace(temporary, given)
            temporary = None
        else:
            _take_new_name(temporary, given)
    except OSError as problem:
        raise ExportFileError(f"could not write {given!r} ({problem.strerror or problem}); nothing was written "
                              "there") from None
    finally:
        if temporary is not None:
            with suppress(OSError):
                os.unlink(temporary)


def _take_new_name(temporary: str, given: str) -> None:
    """Give the written file its name only if the name is still free (a hard link fails on an existing name)."""
    try:
        os.link(temporary, given)
    except FileExistsError:
        raise ExportFileError(f"{given!r} appeared while the export was being written; it was left unchanged. "
                              "Choose a new name, or pass overwrite=True") from None
    except OSError as problem:
        if problem.errno not in _NO_HARD_LINKS:
            raise
        if os.path.lexists(given):  # a file system without hard links: check once more, then rename
            raise ExportFileError(f"{given!r} appeared while the export was being written; it was left "
                                  "unchanged") from None
        os.rename(temporary, given)


def _is_protected(given: str, protected: Sequence[str]) -> bool:
    """Whether `given` is (a link or another name for) one of the store's own files."""
    real = os.path.realpath(given)
    for own in protected:
        if real == os.path.realpath(own):
            return True
        with suppress(OSError):
            if os.path.exists(given) and os.path.exists(own) and os.path.samefile(given, own):
                return True
    return False
