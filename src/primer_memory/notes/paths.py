"""Which memory paths the notes tool accepts: the virtual path checked as text, and the root checked once.

A path is text chosen by the model, so it is checked before it touches the disk: no `..`, no encodings of it,
no backslashes, no look-alike Unicode, nothing outside `/memories`. `MemoryNotes` then resolves links on disk
and checks containment again. The root is the application's choice, checked when the tool starts: a folder
that exists or can be made, named in errors exactly as given.
"""

from __future__ import annotations

import os
import re
import unicodedata
from urllib.parse import unquote

from ..file_paths import check_path_value
from .errors import NotesSetupError, UnsafePath

__all__ = ["MAX_DEPTH", "MAX_NAME_BYTES", "MAX_NOTE_BYTES", "MAX_PATH_CHARS", "TEMP_PREFIX", "VIRTUAL_ROOT", "is_inside",
           "open_root", "parse_path", "virtual_path"]

VIRTUAL_ROOT = "/memories"
MAX_NOTE_BYTES = 64 * 1024  # a note is read back into prompts; a megabyte of "memory" is a bug or an attack
MAX_PATH_CHARS = 512
MAX_DEPTH = 12
MAX_NAME_BYTES = 255
TEMP_PREFIX = ".~tmp-"  # names the tool writes for atomic replaces; reserved, never visible to the agent
_NAME_RULE = "names use letters, digits, '.', '_', '-' and spaces"
_SHAPE = f"paths look like {VIRTUAL_ROOT}/<name>[/<name>...]"


# --------------------------------------------------------------------------- the virtual path

# Characters that read as '.', '/' or '\' on some system although they are none of them (NFKC may keep them).
_LOOKALIKES = {
    "\u2215": "DIVISION SLASH", "\u2044": "FRACTION SLASH", "\u29f8": "BIG SOLIDUS", "\u2571": "BOX DRAWINGS",
    "\u29f5": "REVERSE SOLIDUS OPERATOR", "\u2216": "SET MINUS", "\u29f9": "BIG REVERSE SOLIDUS",
    "\u3002": "IDEOGRAPHIC FULL STOP", "\u0701": "SYRIAC SUPRALINEAR FULL STOP", "\u2e33": "RAISED DOT",
    "\u00b7": "MIDDLE DOT", "\u2027": "HYPHENATION POINT", "\u02d9": "DOT ABOVE",
}
_PERCENT_ESCAPE = re.compile(r"%[0-9A-Fa-f]{2}")


def parse_path(path: object) -> tuple[str, ...]:
    """Check a virtual path and return its names below /memories (empty for the root itself).

    Raises UnsafePath saying which rule the path breaks. The checks are on the text
    alone; MemoryNotes then resolves links on disk and checks containment again.
    """
    if not isinstance(path, str):
        raise UnsafePath(f"a memory path must be a string, got {type(path).__name__}; {_SHAPE}")
    if not path:
        raise UnsafePath(f"the path is empty; {_SHAPE}")
    if len(path) > MAX_PATH_CHARS:
        raise UnsafePath(f"the path is longer than {MAX_PATH_CHARS} characters")
    if "\x00" in path:
        raise UnsafePath("the path contains a NUL byte, which cuts a path short in C libraries; remove it")
    for ch in path:
        if unicodedata.category(ch)[0] in "CZ" and ch != " ":
            raise UnsafePath(f"the path contains a control, invisible or separator character (U+{ord(ch):04X}); "
                             f"{_NAME_RULE}")
    if "%" in path:
        decoded, layers = path, 0
        while _PERCENT_ESCAPE.search(decoded) and layers < 4:
            decoded, layers = unquote(decoded), layers + 1
        if layers and any(s in decoded for s in ("..", "/", "\\")) and decoded != path:
            raise UnsafePath("the path is percent-encoded (%2e is '.', %2f is '/', %5c is '\\', %25 hides another "
                             "layer); encoded dots and slashes are refused, write names in plain characters")
        raise UnsafePath(f"'%' is not allowed in a memory path (it starts a percent-encoding); {_NAME_RULE}")
    if "\\" in path:
        raise UnsafePath("backslashes are not allowed (Windows reads them as separators); use '/' between names")
    if unicodedata.normalize("NFKC", path) != path:
        raise UnsafePath("the path changes under Unicode normalisation (NFKC), e.g. fullwidth dots or slashes that "
                         "some systems read as '.' or '/'; use plain characters")
    for ch in path:
        if ch in _LOOKALIKES:
            raise UnsafePath(f"the path contains U+{ord(ch):04X} {_LOOKALIKES[ch]}, which looks like '.', '/' or "
                             f"'\\'; {_NAME_RULE}")
    if not path.startswith("/"):
        raise UnsafePath(f"relative paths are not allowed: every path starts with {VIRTUAL_ROOT}; {_SHAPE}")
    if path != VIRTUAL_ROOT and not path.startswith(VIRTUAL_ROOT + "/"):
        if path.startswith(VIRTUAL_ROOT):
            raise UnsafePath(f"the path is a sibling of {VIRTUAL_ROOT} (such as {VIRTUAL_ROOT}_backup), not inside "
                             f"it; {_SHAPE}")
        raise UnsafePath(f"the path is outside {VIRTUAL_ROOT}: only {VIRTUAL_ROOT} and paths below it are allowed, "
                         "never a host path")
    rest = path[len(VIRTUAL_ROOT):]
    if rest.endswith("/"):
        rest = rest[:-1]  # one trailing slash names the same folder
    names = tuple(rest.split("/")[1:]) if rest else ()
    if len(names) > MAX_DEPTH:
        raise UnsafePath(f"the path is deeper than {MAX_DEPTH} folders")
    for name in names:
        _check_name(name)
    return names


def _check_name(name: str) -> None:
    if name == "":
        raise UnsafePath(f"the path has an empty name ('//'); {_SHAPE}")
    if name == "..":
        raise UnsafePath(f"'..' is not allowed in a memory path: it steps up to the parent folder; {_SHAPE}")
    if name == ".":
        raise UnsafePath(f"'.' is not allowed as a path name; {_SHAPE}")
    if set(name) == {"."}:
        raise UnsafePath("a name made only of dots is not allowed (some systems read it as a parent folder)")
    if name.startswith(TEMP_PREFIX):
        raise UnsafePath(f"names starting with '{TEMP_PREFIX}' are reserved for the tool's temporary files")
    if name != name.strip(" ") or name.endswith("."):
        raise UnsafePath("a name may not start or end with a space, or end with a dot (Windows drops them)")
    if len(name.encode("utf-8")) > MAX_NAME_BYTES:
        raise UnsafePath(f"a name is longer than {MAX_NAME_BYTES} bytes")
    for ch in name:
        if not (ch.isalnum() or ch in "._- "):
            shown = repr(ch) if ch.isprintable() else f"U+{ord(ch):04X}"
            raise UnsafePath(f"the character {shown} is not allowed in a memory name; {_NAME_RULE}")


def virtual_path(names: tuple[str, ...]) -> str:
    """The virtual path of checked names: ("alice", "prefs.md") -> /memories/alice/prefs.md."""
    return "/".join((VIRTUAL_ROOT, *names))


def is_inside(path: str, root: str) -> bool:
    """Whether a real path is `root` or below it (compared as text, after links are resolved)."""
    return path == root or path.startswith(root.rstrip(os.sep) + os.sep)


# --------------------------------------------------------------------------- the root


def open_root(root: object) -> str:
    """The real path of the notes folder `root`, made if missing; NotesSetupError naming `root` as given if not usable.

    Refused: a value that is no path, a file (or a link to one), a link to nothing (never created through), a
    parent that is not a folder, a folder that cannot be made. Folders made before a failure are removed again.
    """
    if isinstance(root, bytes) or not isinstance(root, (str, os.PathLike)):
        raise NotesSetupError(f"the notes root must be a folder path as text, such as 'memories', got "
                              f"{type(root).__name__}")
    text = os.fspath(root)
    if isinstance(text, str) and not text.strip():
        raise NotesSetupError("the notes root is empty; give a folder such as 'memories'")
    given = check_path_value(root, NotesSetupError, "the notes root")
    path = given.rstrip("/" + os.sep) or given  # 'mem/' names the folder 'mem'
    if os.path.lexists(path) and not os.path.exists(path):
        raise NotesSetupError(f"the notes root {given!r} is a link to something that does not exist; give a folder, "
                              "or remove the link")
    missing = []
    current = path
    while current and not os.path.lexists(current):
        missing.append(current)
        current = os.path.dirname(current)
    if current and not os.path.isdir(current):
        which = "is" if current == path else f"has a parent ({current!r}) that is"
        raise NotesSetupError(f"the notes root {given!r} {which} not a folder; give a folder for the notes")
    created: list[str] = []
    try:
        for folder in reversed(missing):
            try:
                os.mkdir(folder)
            except FileExistsError:
                if not os.path.isdir(folder):  # something appeared there meanwhile
                    raise
                continue
            created.append(folder)
    except OSError as error:
        for folder in reversed(created):
            try:
                os.rmdir(folder)
            except OSError:
                pass
        reason = error.strerror or type(error).__name__
        raise NotesSetupError(f"the notes root {given!r} cannot be made: {reason}; choose another folder") from None
    real = os.path.realpath(path)
    if not os.path.isdir(real):  # replaced by something else meanwhile
        raise NotesSetupError(f"the notes root {given!r} is not a folder; give a folder for the notes")
    return real
