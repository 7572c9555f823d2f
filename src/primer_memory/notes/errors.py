"""The refusals of the notes tool: one class per kind, all under NotesError.

Messages name a virtual path (`/memories/...`) or the root exactly as the caller gave it, never the host path.
`from primer_memory.notes.tool import ...` gives every one of them.
"""

from __future__ import annotations

__all__ = ["InvalidLine", "InvalidText", "NoteConflict", "NoteNotFound", "NoteNotText", "NoteRefused", "NoteTooLarge",
           "NotesError", "NotesSetupError", "NotesStorageError", "TextNotFound", "TextNotUnique", "UnsafePath"]


class NotesError(Exception):
    """Base of every refusal of the notes tool; messages name the virtual path at most, never the host path."""


class UnsafePath(NotesError, ValueError):
    """The path could reach outside the memory directory, or is not a plain memory path."""


class NoteNotFound(NotesError, KeyError):
    """No note or folder at that (safe) path."""

    def __str__(self) -> str:  # KeyError would print the message with quotes around it
        return str(self.args[0]) if self.args else ""


class NoteRefused(NotesError, ValueError):
    """The write gate refused the text or the path: a credential or sensitive identifier, or, from anyone but the
    user, an instruction or a redirect. Nothing was written; `reason` says why, without repeating the secret."""

    def __init__(self, message: str, *, reason: str = "", detector: str | None = None):
        super().__init__(message)
        self.reason, self.detector = reason or message, detector


class NoteTooLarge(NotesError, ValueError):
    """A note would exceed the size cap (or one on disk already does)."""


class NoteConflict(NotesError, ValueError):
    """The operation does not fit what is there: a folder where a note was expected, an existing destination."""


class TextNotFound(NotesError, ValueError):
    """str_replace: the old text does not occur in the note."""


class TextNotUnique(NotesError, ValueError):
    """str_replace: the old text occurs more than once, so the edit would be ambiguous."""


class InvalidLine(NotesError, ValueError):
    """insert: the line number is outside the note."""


class InvalidText(NotesError, ValueError, TypeError):
    """Text the tool cannot store: not a string, or holding a lone surrogate, which has no UTF-8 form.

    Also a TypeError, which is what a text of the wrong type raised before this class existed.
    """


class NoteNotText(NotesError, ValueError):
    """A note on disk whose bytes are not UTF-8: an edit would rewrite bytes outside it, so edits refuse it."""


class NotesSetupError(NotesError, ValueError):
    """The tool cannot start as asked: a root that is not a usable folder, or a size cap that is not a whole number."""


class NotesStorageError(NotesError, OSError):
    """The disk refused an operation (permissions, space); the host path is kept out of the message."""
