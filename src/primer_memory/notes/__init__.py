"""Notebook 3, the path-safe notes tool: `tool` holds MemoryNotes, `paths` its path rules, `errors` its errors."""

from __future__ import annotations

from .errors import (
    InvalidText,
    NoteConflict,
    NoteNotFound,
    NoteNotText,
    NoteRefused,
    NotesError,
    NotesSetupError,
    NoteTooLarge,
    TextNotFound,
    TextNotUnique,
    UnsafePath,
)
from .tool import MemoryNotes

__all__ = ["InvalidText", "MemoryNotes", "NoteConflict", "NoteNotFound", "NoteNotText", "NoteRefused",
           "NotesError", "NotesSetupError", "NoteTooLarge", "TextNotFound", "TextNotUnique", "UnsafePath"]
