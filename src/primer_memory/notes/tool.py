"""Notes on demand: a file tool the agent calls, confined to one directory the application owns.

The model asks for `view`, `create`, `str_replace`, `insert`, `delete` and `rename`
on virtual paths such as `/memories/progress.md`; the code maps them onto the
directory `root`. A path is text chosen by the model, so it is checked before it
touches the disk: the virtual form first (`notes_paths`: no `..`, no encodings of
it, no backslashes, no look-alike Unicode, nothing outside `/memories`), then the
real form (symbolic links are resolved and must still land inside `root`). A
refused call changes nothing, and errors never show the host path.
"""

from __future__ import annotations

import os
import re
import shutil
import stat
import tempfile
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..policy.default import default_policy
from ..policy.gate import decide
from ..policy.provenance import PROVENANCES, is_provenance
from .errors import (
    InvalidLine,
    InvalidText,
    NoteConflict,
    NoteNotFound,
    NoteNotText,
    NoteRefused,
    NotesError,
    NotesSetupError,
    NotesStorageError,
    NoteTooLarge,
    TextNotFound,
    TextNotUnique,
    UnsafePath,
)
from .paths import MAX_NOTE_BYTES, TEMP_PREFIX, VIRTUAL_ROOT, is_inside, open_root, parse_path, virtual_path

__all__ = [
    "ATTACK_PATHS",
    "InvalidLine",
    "InvalidText",
    "MemoryNotes",
    "NoteConflict",
    "NoteNotFound",
    "NoteNotText",
    "NoteRefused",
    "NoteTooLarge",
    "NotesError",
    "NotesSetupError",
    "NotesStorageError",
    "TextNotFound",
    "TextNotUnique",
    "UnsafePath",
    "VIRTUAL_ROOT",
    "example_notes",
    "parse_path",
]


def _encodable(text: str) -> bool:
    """Whether `text` has a UTF-8 form: no lone surrogate (names the OS could not decode carry one)."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


# --------------------------------------------------------------------------- the tool


@dataclass(frozen=True)
class _Target:
    """A checked path: its names, the virtual form, the path as joined and the path after resolving links."""

    names: tuple[str, ...]
    virtual: str
    joined: str
    real: str

    @property
    def is_root(self) -> bool:
        return not self.names


class MemoryNotes:
    """The memory tool's six commands over /memories, stored as files below `root`.

    `root` is created if missing and resolved once; every later path must resolve
    inside it. Notes are UTF-8 text of at most `max_bytes` bytes. A root that cannot
    serve (a file, a link to nothing, a folder that cannot be made) raises NotesSetupError.

    Every write (create, str_replace, insert, and rename's new path) passes the write gate, as a memory does:
    `policy` over the note as it would be and its path (default: `review`), then the provenance rule for who
    writes. `provenance` is the assistant's by default, because the model is what calls a notes tool; an
    application writing its user's own words says `provenance="user"`. A refused write raises NoteRefused and
    changes nothing.
    """

    def __init__(self, root: str | os.PathLike[str], *, max_bytes: int = MAX_NOTE_BYTES,
                 policy: Any = None, provenance: str = "assistant"):
        if isinstance(max_bytes, bool) or not isinstance(max_bytes, int) or max_bytes < 1:
            raise NotesSetupError(f"max_bytes must be a positive integer, got {max_bytes!r}")
        if policy is not None and not callable(policy):
            raise NotesSetupError(f"policy must be a function of a text returning a PolicyDecision, got {policy!r:.60}")
        if not is_provenance(provenance):
            raise NotesSetupError(f"provenance must be one of {', '.join(map(repr, PROVENANCES))} (who writes these "
                                  f"notes); got {provenance!r:.60}")
        self._root = open_root(root)
        self.max_bytes = max_bytes
        self.provenance = provenance
        self._policy = default_policy if policy is None else policy
        self._lock = threading.RLock()

    def __repr__(self) -> str:  # the host path stays out of notebook output
        return f"MemoryNotes({VIRTUAL_ROOT!r}, max_bytes={self.max_bytes})"

    @property
    def root(self) -> Path:
        """The host directory behind /memories: for the application, never for the model."""
        return Path(self._root)

    # ----------------------------------------------------------------- resolving

    def _target(self, path: object) -> _Target:
        names = parse_path(path)
        joined = os.path.join(self._root, *names)
        real = os.path.realpath(joined)  # resolves every link on the way, existing or not
        if not is_inside(real, self._root):
            raise UnsafePath("the path leads outside the memory directory through a symbolic link; links must stay "
                             "inside it")
        return _Target(names, virtual_path(names), joined, real)

    def locate(self, path: str) -> Path:
        """The checked, link-resolved host path for a virtual path (for the application and tests only)."""
        return Path(self._target(path).real)

    def exists(self, path: str) -> bool:
        """Whether a note or folder is at this (safe) path."""
        return os.path.lexists(self._target(path).real)

    # ----------------------------------------------------------------- reading

    def view(self, path: str) -> str:
        """A folder: its notes and folders two levels deep, with sizes. A note: its lines, numbered from 1."""
        target = self._target(path)
        with self._lock, _host_errors():
            if os.path.isdir(target.real):
                return self._listing(target)
            text = self._read(target)
        lines = text.splitlines()
        width = max(4, len(str(len(lines))))
        body = "\n".join(f"{i:>{width}}\t{line}" for i, line in enumerate(lines, start=1))
        return f"{target.virtual} ({len(lines)} lines)\n{body}" if lines else f"{target.virtual} (empty)"

    def read(self, path: str) -> str:
        """The text of one note, as stored (a byte that is not UTF-8 reads as U+FFFD; edits refuse such a note)."""
        target = self._target(path)
        with self._lock, _host_errors():
            return self._read(target)

    def list_notes(self) -> list[str]:
        """Every note's virtual path, sorted (links are not followed; names that are not UTF-8 are left out)."""
        found = []
        with _host_errors():
            for folder, dirs, files in os.walk(self._root):
                dirs[:] = sorted(d for d in dirs if _shown(d))
                rel = os.path.relpath(folder, self._root)
                prefix = () if rel == "." else tuple(rel.split(os.sep))
                found += [virtual_path((*prefix, f)) for f in files if _shown(f)]
        return sorted(found)

    def _read(self, target: _Target) -> str:
        """The note's text for reading; bytes that are not UTF-8 show as U+FFFD."""
        return self._read_bytes(target).decode("utf-8", errors="replace")

    def _read_text(self, target: _Target) -> str:
        """The note's text for editing: exactly its bytes, so writing it back changes nothing outside the edit."""
        data = self._read_bytes(target)
        try:
            return data.decode("utf-8")
        except UnicodeDecodeError as error:
            raise NoteNotText(f"{target.virtual} is not UTF-8 text (byte {data[error.start]:#04x} at offset "
                              f"{error.start}), so an edit would change bytes outside it; replace the note whole "
                              "with create") from None

    def _read_bytes(self, target: _Target) -> bytes:
        if not os.path.lexists(target.real):
            raise NoteNotFound(f"no note at {target.virtual}; view {VIRTUAL_ROOT} to list what exists")
        flags = os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0)
        fd = os.open(target.real, flags)
        try:
            info = os.fstat(fd)
            if stat.S_ISDIR(info.st_mode):
                raise NoteConflict(f"{target.virtual} is a folder, not a note")
            if not stat.S_ISREG(info.st_mode):
                raise UnsafePath(f"{target.virtual} is not a regular file (a pipe or device); notes are plain files")
            if info.st_nlink > 1:
                raise UnsafePath(f"{target.virtual} has other hard links, so its content may live outside the memory "
                                 "directory; notes have exactly one name")
            if info.st_size > self.max_bytes:
                raise NoteTooLarge(f"{target.virtual} is {info.st_size} bytes, over the cap of {self.max_bytes}")
            with os.fdopen(fd, "rb", closefd=False) as handle:
                data = handle.read(self.max_bytes + 1)
        finally:
            os.close(fd)
        if len(data) > self.max_bytes:
            raise NoteTooLarge(f"{target.virtual} is over the cap of {self.max_bytes} bytes")
        return data

    def _listing(self, target: _Target) -> str:
        lines = [f"{target.virtual}/ (folders end in '/', sizes in bytes, two levels deep)"]
        hidden = 0

        def walk(real: str, virtual: str, depth: int) -> None:
            nonlocal hidden
            with os.scandir(real) as entries:
                for entry in sorted(entries, key=lambda e: e.name):
                    if not _shown(entry.name):
                        hidden += not entry.name.startswith(TEMP_PREFIX)
                        continue
                    child = f"{virtual}/{entry.name}"
                    if entry.is_symlink() and not is_inside(os.path.realpath(entry.path), self._root):
                        lines.append(f"{'  ' * depth}{child}  (link leading outside: refused)")
                    elif entry.is_symlink() and not os.path.exists(entry.path):
                        lines.append(f"{'  ' * depth}{child}  (broken link)")
                    elif entry.is_dir():
                        lines.append(f"{'  ' * depth}{child}/")
                        if depth < 2 and not entry.is_symlink():
                            walk(entry.path, child, depth + 1)
                    else:
                        lines.append(f"{'  ' * depth}{child}  {entry.stat().st_size}")

        walk(target.real, target.virtual, 1)
        if len(lines) == 1 and not hidden:
            lines.append("  (empty)")
        if hidden:
            lines.append(f"  ({hidden} name{'s' if hidden > 1 else ''} hidden: not UTF-8, so no path can reach "
                         f"{'them' if hidden > 1 else 'it'})")
        return "\n".join(lines)

    # ----------------------------------------------------------------- writing

    def create(self, path: str, text: str) -> str:
        """Create a note, or overwrite one; missing folders on the way are created."""
        target = self._target(path)
        if target.is_root:
            raise UnsafePath(f"{VIRTUAL_ROOT} is the memory folder itself; create a note below it, "
                             f"e.g. {VIRTUAL_ROOT}/notes.md")
        data = self._encode(text, target)
        with self._lock, _host_errors():
            if os.path.isdir(target.real):
                raise NoteConflict(f"{target.virtual} is a folder; a note cannot replace it")
            existed = os.path.lexists(target.real)
            self._write(target, data, text)
        return f"{'overwrote' if existed else 'created'} {target.virtual} ({len(data)} bytes)"

    def str_replace(self, path: str, old: str, new: str) -> str:
        """Replace the one occurrence of `old` with `new`; refuse if `old` is missing or occurs more than once."""
        target = self._target(path)
        _check_text(old, "the text to replace")
        _check_text(new, "the new text")
        if old == "":
            raise TextNotFound("the text to replace is empty; give the exact text to change")
        with self._lock, _host_errors():
            content = self._read_text(target)
            count = content.count(old)
            if count == 0:
                raise TextNotFound(f"the text to replace does not occur in {target.virtual}; view the note and copy "
                                   "it exactly")
            if count > 1:
                raise TextNotUnique(f"the text to replace occurs {count} times in {target.virtual}; include more "
                                    "of the surrounding text so it occurs once")
            edited = content.replace(old, new, 1)
            data = self._encode(edited, target)
            self._write(target, data, edited, new)
        return f"edited {target.virtual} ({len(data)} bytes)"

    def insert(self, path: str, line: int, text: str) -> str:
        """Insert `text` as whole lines after line `line` (0 puts it first, the line count puts it last)."""
        target = self._target(path)
        _check_text(text, "text")
        with self._lock, _host_errors():
            content = self._read_text(target)
            lines = re.findall(r"[^\n]*\n|[^\n]+$", content)
            if isinstance(line, bool) or not isinstance(line, int) or not 0 <= line <= len(lines):
                raise InvalidLine(f"line must be a whole number from 0 to {len(lines)} for {target.virtual}, "
                                  f"got {line!r}")
            if lines and not lines[-1].endswith("\n"):
                lines[-1] += "\n"
            lines.insert(line, text if text.endswith("\n") else text + "\n")
            data = self._encode("".join(lines), target)
            self._write(target, data, "".join(lines), text)
        return f"inserted {len(text.splitlines()) or 1} line(s) after line {line} of {target.virtual}"

    def delete(self, path: str) -> str:
        """Delete a note, or a folder with everything in it (a link is removed, never what it points to)."""
        target = self._target(path)
        if target.is_root:
            raise UnsafePath(f"deleting {VIRTUAL_ROOT} itself is not allowed; delete the notes inside it")
        with self._lock, _host_errors():
            if not os.path.lexists(target.joined):
                raise NoteNotFound(f"nothing to delete at {target.virtual}")
            if os.path.isdir(target.joined) and not os.path.islink(target.joined):
                shutil.rmtree(target.joined)
            else:
                os.unlink(target.joined)
        return f"deleted {target.virtual}"

    def rename(self, old: str, new: str) -> str:
        """Move a note or folder to a new path; the destination must not exist yet."""
        source, dest = self._target(old), self._target(new)
        if source.is_root or dest.is_root:
            raise UnsafePath(f"renaming {VIRTUAL_ROOT} itself, or onto it, is not allowed; rename the notes inside")
        with self._lock, _host_errors():
            if not os.path.lexists(source.joined):
                raise NoteNotFound(f"nothing to rename at {source.virtual}")
            if os.path.lexists(dest.real):
                raise NoteConflict(f"{dest.virtual} already exists; delete it first or choose another name")
            moved = os.path.realpath(source.joined) if not os.path.islink(source.joined) else source.joined
            if is_inside(dest.real, moved):
                raise NoteConflict(f"cannot move {source.virtual} into itself")
            self._gate("", dest)  # a note's path is stored text too
            created = self._make_parents(os.path.dirname(dest.real), dest)
            try:
                os.rename(source.joined, dest.real)
            except BaseException:
                _remove_dirs(created)
                raise
        return f"renamed {source.virtual} to {dest.virtual}"

    # ----------------------------------------------------------------- helpers

    def _encode(self, text: object, target: _Target) -> bytes:
        data = _check_text(text, "note text").encode("utf-8")
        if len(data) > self.max_bytes:
            raise NoteTooLarge(f"{target.virtual} would be {len(data)} bytes, over the cap of {self.max_bytes}; "
                               "keep notes short or split them")
        return data

    def _make_parents(self, folder: str, target: _Target) -> list[str]:
        """Create missing folders up to `folder`; return the ones created (to undo on failure)."""
        missing = []
        current = folder
        while not os.path.lexists(current):
            missing.append(current)
            current = os.path.dirname(current)
        if not os.path.isdir(current):
            raise NoteConflict(f"a parent of {target.virtual} is a note, not a folder")
        created = []
        try:
            for path in reversed(missing):
                os.mkdir(path)
                created.append(path)
        except BaseException:
            _remove_dirs(created)
            raise
        return created

    def _gate(self, text: str, target: _Target, edit: str | None = None) -> None:
        """The write gate over a note as it would be, its path and the edit itself; NoteRefused if it says no.

        A note is not a candidate memory, so "not worth remembering" does not stop it; a refusal does, and so
        does a redirect from the user, which a note cannot hold for confirmation as long-term memory does.
        """
        decision = decide(self._policy, text, kind="semantic", provenance=self.provenance,
                          fields={"path": target.virtual, "edit": edit}, worth=False)
        if decision.verdict in ("refuse", "confirm"):
            raise NoteRefused(f"nothing was written to {target.virtual}: {decision.reason}", reason=decision.reason,
                              detector=decision.detector)

    def _write(self, target: _Target, data: bytes, text: str, edit: str | None = None) -> None:
        """The one write path of the notes: the gate, then a temporary file and os.replace, so a refusal leaves
        everything as it was and a failure leaves the old note (or none), never half of one."""
        self._gate(text, target, edit)
        folder = os.path.dirname(target.real)
        created = self._make_parents(folder, target)
        tmp = None
        try:
            fd, tmp = tempfile.mkstemp(prefix=TEMP_PREFIX, dir=folder)
            with os.fdopen(fd, "wb") as handle:
                handle.write(data)
                handle.flush()
                os.fsync(handle.fileno())
            os.replace(tmp, target.real)
            tmp = None
        except BaseException:
            if tmp is not None and os.path.lexists(tmp):
                os.unlink(tmp)
            _remove_dirs(created)
            raise


def _shown(name: str) -> bool:
    """Whether a name on disk appears in listings: not a temporary file, and UTF-8 (else no path reaches it)."""
    return not name.startswith(TEMP_PREFIX) and _encodable(name)


def _check_text(text: object, what: str) -> str:
    """`text` if it can be stored as UTF-8; InvalidText (also a TypeError) saying why not."""
    if not isinstance(text, str):
        raise InvalidText(f"{what} must be a string, got {type(text).__name__}")
    if not _encodable(text):
        raise InvalidText(f"{what} holds a lone surrogate (half of a character), which has no UTF-8 form and "
                          "cannot be stored; send valid Unicode")
    return text


def _remove_dirs(created: list[str]) -> None:
    for path in reversed(created):
        try:
            os.rmdir(path)
        except OSError:
            pass


@contextmanager
def _host_errors() -> Iterator[None]:
    """Turn OSError (whose text carries host paths) into NotesStorageError with the reason only."""
    try:
        yield
    except NotesError:
        raise
    except OSError as error:
        reason = error.strerror or type(error).__name__
        raise NotesStorageError(error.errno, f"the storage refused the operation: {reason}") from None


# --------------------------------------------------------------------------- examples for the notebook

# Labelled paths for the notebook's path box: ordinary ones first, then escapes the tool refuses.
ATTACK_PATHS: tuple[tuple[str, str], ...] = (
    ("the memory folder", "/memories"),
    ("a note", "/memories/progress.md"),
    ("a note in a folder", "/memories/alice/preferences.md"),
    ("../ out of the folder", "/memories/../secrets.txt"),
    ("deep ../", "/memories/alice/../../../etc/passwd"),
    ("percent-encoded ..", "/memories/%2e%2e/secrets.txt"),
    ("double-encoded ..", "/memories/%252e%252e/secrets.txt"),
    ("encoded slash", "/memories/..%2fsecrets.txt"),
    ("backslashes", "/memories\\..\\secrets.txt"),
    ("an absolute host path", "/etc/passwd"),
    ("a sibling folder", "/memories_backup/notes.md"),
    ("a NUL byte", "/memories/notes.md\x00.png"),
    ("fullwidth dots and slash", "/memories/\uff0e\uff0e\uff0fsecrets.txt"),
    ("a link leading out", "/memories/shortcut/passwd"),
)


def example_notes(root: str | os.PathLike[str], *, with_escape_link: bool = False) -> MemoryNotes:
    """A notes folder with Alice's three notes; optionally a planted link to the folder outside it.

    The link stands for a mistake on the host (a symlink someone left in the store); the
    tool must refuse to follow it. It points to a sibling folder `<root>-outside` holding a decoy.
    """
    notes = MemoryNotes(root, provenance="assistant")  # the notes an agent would have written
    notes.create("/memories/progress.md", "Reconciling September invoices: 3 of 4 matched.\nNext: Globex.\n")
    notes.create("/memories/alice/preferences.md", "Alice's fiscal year starts in April.\n"
                 "Alice approves travel for her team.\n")
    notes.create("/memories/projects/invoices.md", "Globex prefers invoices in euros.\n")
    if with_escape_link:
        outside = notes.root.parent / f"{notes.root.name}-outside"
        outside.mkdir(exist_ok=True)
        (outside / "passwd").write_text("decoy: a file outside the memory folder\n", encoding="utf-8")
        link = notes.root / "shortcut"
        if not link.is_symlink():
            link.symlink_to(outside, target_is_directory=True)
    return notes
