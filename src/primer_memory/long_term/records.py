"""The value types of long-term memory: scopes, records, write results, and the errors a caller can catch.

Kept apart from the logic (`long_term`) and the storage backends (`storage`) so
both can use them without importing each other.
"""

from __future__ import annotations

import unicodedata

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

__all__ = [
    "DEFAULT_IMPORTANCE",
    "ExportFileError",
    "KINDS",
    "KIND_NAMES",
    "RECENCY_DECAY",
    "InvalidMemory",
    "InvalidQuery",
    "MemoryRecord",
    "RecordNotFound",
    "Scope",
    "ScopeError",
    "ScoredMemory",
    "StoreClosed",
    "StoreFileError",
    "StoreLocked",
    "WriteConflict",
    "WriteResult",
]

KINDS: tuple[str, ...] = ("episodic", "semantic", "procedural")
KIND_NAMES: dict[str, str] = {"episodic": "diary", "semantic": "encyclopedia", "procedural": "habit"}
"""The everyday name of each kind: the three notebooks a person keeps."""

RECENCY_DECAY = 0.995
"""Recency of a memory = RECENCY_DECAY ** hours since it was last accessed (Park et al. 2023)."""

DEFAULT_IMPORTANCE = 5
"""Importance runs from 1 (mundane) to 10 (poignant); a write that gives none is in the middle."""

_MAX_SCOPE_PART = 256


# --------------------------------------------------------------------------- errors


class ScopeError(ValueError):
    """A scope is missing a part, or a part is not a clean, non-empty string."""


class InvalidMemory(ValueError):
    """A write the store cannot accept: unknown kind, empty content, a bad key, source or importance."""


class InvalidQuery(ValueError):
    """A recall the store cannot run: empty question, k < 1, unknown kinds, bad weights."""


class RecordNotFound(KeyError):
    """No record with that id in the caller's scope (other scopes are never searched)."""

    def __str__(self) -> str:  # KeyError would show the message in quotes
        return str(self.args[0]) if self.args else "record not found"


class MemorySetupError(TypeError):
    """A setting or callback LongTermMemory cannot use: a policy, clock or store that is not one, a callback that
    returned something else, or an attempt to copy or pickle an object that holds an open store."""


class StoreFileError(ValueError):
    """A file the store cannot use: a bad path, a read-only or missing place, another program's, damaged, or
    written with another embedder. The message names the path as the caller gave it."""


class StoreLocked(StoreFileError):
    """Another program holds the store file's write lock; nothing was written. Try again once it is done."""


class ExportFileError(StoreFileError):
    """`export(path=...)` will not write there: a bad path, a folder, a link, an existing file (unless
    `overwrite=True`), the store's own file, or a place that cannot be written. Nothing was changed."""


class WriteConflict(RuntimeError):
    """A write was planned against a record that changed meanwhile (no longer current); nothing was written."""


class StoreClosed(RuntimeError):
    """The store was closed; open a new `LongTermMemory` on the same path to go on."""


# --------------------------------------------------------------------------- value types


def _check_part(name: str, value: object) -> None:
    if type(value) is not str:  # a str subclass could answer == and hash() for another tenant's name
        raise ScopeError(f"{name} must be a string (a plain str) given by the authentication layer, got "
                         f"{type(value).__name__}")
    if all(c.isspace() or unicodedata.category(c) == "Cf" for c in value):
        raise ScopeError(f"{name} is required and must not be empty, blank or invisible; got {value!r}")
    if value != value.strip():
        raise ScopeError(f"{name} must not start or end with whitespace; got {value!r}")
    if len(value) > _MAX_SCOPE_PART:
        raise ScopeError(f"{name} is {len(value)} characters; at most {_MAX_SCOPE_PART} are allowed")
    if any(ord(c) < 32 or ord(c) == 127 for c in value):
        raise ScopeError(f"{name} must not contain control characters (such as NUL or newline); got {value!r}")
    surrogate = lone_surrogate(value)
    if surrogate is not None:
        raise ScopeError(f"{name} holds a lone surrogate ({value[surrogate]!r} at position {surrogate}), which is "
                         f"not text and cannot be stored; got {value!r}")


def lone_surrogate(text: str) -> int | None:
    """The position of the first lone surrogate ('\\ud800'...'\\udfff') in `text`, or None if it encodes as UTF-8.

    Such a code point comes from decoding bytes with errors='surrogateescape'; no store or model accepts it.
    """
    try:
        text.encode("utf-8")
    except UnicodeEncodeError as problem:
        return problem.start
    return None


@dataclass(frozen=True, slots=True)
class Scope:
    """Whose memory this is: a tenant and a user, both required.

    Supplied by the authentication layer, never parsed from a query. Two scopes
    are the same only if both parts are exactly equal (no prefix matching, no
    case folding), so `acme` and `acme-corp` are strangers.
    """

    tenant_id: str
    user_id: str

    def __post_init__(self) -> None:
        _check_part("tenant_id", self.tenant_id)
        _check_part("user_id", self.user_id)

    def __str__(self) -> str:
        return f"{self.tenant_id}/{self.user_id}"


@dataclass(frozen=True, slots=True)
class MemoryRecord:
    """One memory: what it says, what kind it is, where it came from, and whether it is still current.

    `seq` is the write order inside the scope (it stands in for time, so
    examples are deterministic); `superseded_by` is the id of the record that
    replaced this one. A record is a snapshot taken when it was returned: ask
    the store again (`get`, `history`) to see whether it is still current.
    """

    id: str
    scope: Scope
    kind: str
    content: str
    key: str | None
    source: str
    seq: int
    superseded_by: str | None = None
    importance: int = DEFAULT_IMPORTANCE
    created_at: float = 0.0
    last_access: float = 0.0
    forgotten: bool = False
    provenance: str = "user"  # who it came from: user, assistant, tool or import (policy.provenance)

    @property
    def current(self) -> bool:
        """True until a later write with the same key supersedes it (or it is forgotten)."""
        return self.superseded_by is None and not self.forgotten

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready dict (for export): every field, the scope spelled out."""
        return {
            "id": self.id,
            "tenant_id": self.scope.tenant_id,
            "user_id": self.scope.user_id,
            "kind": self.kind,
            "content": self.content,
            "key": self.key,
            "source": self.source,
            "seq": self.seq,
            "superseded_by": self.superseded_by,
            "current": self.current,
            "importance": self.importance,
            "created_at": self.created_at,
            "last_access": self.last_access,
            "forgotten": self.forgotten,
            "provenance": self.provenance,
        }


@dataclass(frozen=True, slots=True)
class WriteResult:
    """What `remember` did: stored or not, why, and the record (the new one, or the existing duplicate); `held`
    names a write kept back until the application confirms it (the fourth outcome, `confirm`).

    `record` is as it was at the time of the write; a later correction does not
    update it, so read `memory.get(scope, record.id).current` for its state now.
    """

    stored: bool
    reason: str
    record: MemoryRecord | None = None
    held: str | None = None  # a write held for the user's confirmation: its id for confirm() or reject()

    def __iter__(self) -> Iterator[Any]:
        """Unpacks like the lesson's tuple: `stored, reason, record = memory.remember(...)`."""
        return iter((self.stored, self.reason, self.record))


@dataclass(frozen=True, slots=True)
class ScoredMemory:
    """One result of `recall_scored`, with the parts of its score.

    `relevance`, `recency` and `importance` are each min-max normalised over
    the candidates (0..1); `score` is their weighted sum. `cosine` and
    `hours_since_access` are the raw values before normalising.
    """

    record: MemoryRecord
    score: float
    relevance: float
    recency: float
    importance: float
    cosine: float
    hours_since_access: float

    @property
    def content(self) -> str:
        """The memory's text, so a list of these can go straight into `build_prompt(recalled=...)`."""
        return self.record.content

