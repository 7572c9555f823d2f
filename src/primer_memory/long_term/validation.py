"""Input checks for long-term memory: what a scope, a memory, a question and a weight must look like.

Every public call of `LongTermMemory` runs these before it touches storage, so
bad input raises a named error (ScopeError, InvalidMemory, InvalidQuery) with a
message a learner can act on, and nothing stored is changed.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping
from typing import Any

from ..policy.provenance import PROVENANCES, is_provenance
from .records import (DEFAULT_IMPORTANCE, KINDS, InvalidMemory, InvalidQuery, MemoryRecord, Scope, ScopeError,
                      lone_surrogate)

__all__ = ["Entry", "check_entries", "check_entry", "check_floor", "check_k", "check_key", "check_kinds",
           "check_query", "check_scope", "check_weight", "findable_id", "stored_record_problem"]

Entry = tuple[str, str, "str | None", str, int, str]
"""A checked memory: kind, content, key, source, importance, provenance."""


def check_scope(scope: object) -> Scope:
    if not isinstance(scope, Scope):
        raise ScopeError(
            f"every call needs a Scope(tenant_id, user_id) from the authentication layer; got {type(scope).__name__}"
        )
    return scope


def check_kind(kind: object) -> str:
    """One of KINDS, as a plain str: a subclass could compare equal here and differently later (the provenance
    rule asks `kind == "procedural"`), so only the exact type is accepted, and the canonical value is returned."""
    if type(kind) is not str or kind not in KINDS:
        raise InvalidMemory(f"kind must be one of {', '.join(map(repr, KINDS))} (a plain string); got {kind!r:.60}")
    return KINDS[KINDS.index(kind)]


def check_kinds(kinds: object) -> tuple[str, ...]:
    if isinstance(kinds, str):
        raise InvalidQuery(f"kinds must be a tuple of kinds such as ({kinds!r},), not the bare string {kinds!r}")
    try:
        chosen = list(kinds)  # type: ignore[call-overload]
    except TypeError:
        raise InvalidQuery(f"kinds must be a tuple of kinds from {KINDS}; got {kinds!r}") from None
    if not chosen:
        raise InvalidQuery(f"kinds must name at least one of {', '.join(map(repr, KINDS))}")
    unknown = [k for k in chosen if k not in KINDS]
    if unknown:
        raise InvalidQuery(f"unknown kind {unknown[0]!r} in kinds; allowed: {', '.join(map(repr, KINDS))}")
    return tuple(k for k in KINDS if k in chosen)


def check_k(k: object) -> int:
    if isinstance(k, bool) or not isinstance(k, int):
        raise InvalidQuery(f"k must be a whole number of at least 1, got {k!r}")
    if k < 1:
        raise InvalidQuery(f"k must be at least 1 (how many memories to recall), got {k}")
    return k


def check_query(query: object) -> str:
    if not isinstance(query, str):
        raise InvalidQuery(f"the question must be a string, got {type(query).__name__}")
    if not query.strip():
        raise InvalidQuery("the question is empty; recall needs some text to compare memories with")
    return query


def check_key(key: object) -> str | None:
    if key is None:
        return None
    if not isinstance(key, str) or not key.strip():
        raise InvalidMemory(f"key must be None or a non-empty string such as 'fiscal_year_start'; got {key!r}")
    if key != key.strip():
        raise InvalidMemory(f"key must not start or end with whitespace (it would be a different key); got {key!r}")
    _check_text(key, "key")
    return key


def _check_text(text: str, what: str) -> None:
    """A lone surrogate cannot be encoded, so no store can keep it: refused before anything is written."""
    at = lone_surrogate(text)
    if at is not None:
        raise InvalidMemory(f"{what} holds a lone surrogate ({text[at]!r} at position {at}), which is not text and "
                            "cannot be stored; decode the bytes it came from with errors='replace'")


def check_entries(entries: object, *, provenance: str | None = None) -> list[Entry]:
    """Every entry of a `remember_many` batch, checked before any is written (all or nothing).

    With `provenance`, every entry comes from it: an entry without one gets it, one naming another is refused.
    """
    if isinstance(entries, Mapping):
        raise InvalidMemory("remember_many takes a list of memories; wrap a single one as [entry]")
    if isinstance(entries, (str, bytes, bytearray)) or not isinstance(entries, Iterable):
        raise InvalidMemory(f"remember_many takes a list of memories (mappings with kind and content), "
                            f"got {type(entries).__name__}")
    if provenance is not None:
        _check_provenance(provenance, "remember_many")
    return [check_entry(e, f"memory {i}", batch=provenance) for i, e in enumerate(entries)]


def _check_provenance(provenance: object, where: str) -> str:
    if not is_provenance(provenance):
        raise InvalidMemory(f"{where}: provenance must be one of {', '.join(map(repr, PROVENANCES))} (where the "
                            f"memory came from); got {provenance!r:.60}")
    return provenance


def check_entry(entry: Mapping[str, Any], where: str, *, batch: str | None = None) -> Entry:
    allowed = {"kind", "content", "key", "source", "importance", "provenance"}
    if not isinstance(entry, Mapping):
        raise InvalidMemory(f"{where}: each memory must be a mapping with kind and content, got {type(entry).__name__}")
    extra = set(entry) - allowed
    if extra:
        raise InvalidMemory(f"{where}: unknown field {sorted(extra)[0]!r}; allowed: {', '.join(sorted(allowed))}")
    kind = check_kind(entry.get("kind"))
    content = entry.get("content")
    if not isinstance(content, str):
        raise InvalidMemory(f"{where}: content must be a string, got {type(content).__name__}")
    if not content.strip():
        raise InvalidMemory(f"{where}: content is empty; a memory needs some text")
    _check_text(content, f"{where}: content")
    key = check_key(entry.get("key"))
    source = entry.get("source", "conversation")
    if not isinstance(source, str) or not source.strip():
        raise InvalidMemory(f"{where}: source must be a non-empty string such as 'conversation'; got {source!r}")
    _check_text(source, f"{where}: source")
    importance = entry.get("importance", DEFAULT_IMPORTANCE)
    if isinstance(importance, bool) or not isinstance(importance, int) or not 1 <= importance <= 10:
        raise InvalidMemory(f"{where}: importance must be a whole number from 1 to 10; got {importance!r}")
    provenance = _check_provenance(entry.get("provenance", batch or "user"), where)
    if batch is not None and provenance != batch:
        raise InvalidMemory(f"{where}: the entry says provenance {provenance!r}, but the batch comes from {batch!r}; "
                            "write memories from different sources in separate batches")
    return kind, content, key, source, importance, provenance


def check_floor(value: object) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not -1.0 <= value <= 1.0:
        raise InvalidQuery(f"min_score must be a cosine between -1 and 1 (or None for no floor), got {value!r}")
    return float(value)


MAX_WEIGHT = 1e6  # far above any useful blend, far below where a weighted sum of scores overflows to inf


def check_weight(name: str, value: object) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not 0 <= value <= MAX_WEIGHT:
        raise InvalidQuery(f"{name} must be a number from 0 to {MAX_WEIGHT:g}, got {value!r}")
    return float(value)


def findable_id(record_id: object) -> bool:
    """Whether `record_id` could be an id at all (text that encodes); anything else is simply not found."""
    return isinstance(record_id, str) and lone_surrogate(record_id) is None


def _number(value: object) -> bool:
    return not isinstance(value, bool) and isinstance(value, (int, float)) and math.isfinite(value)


def _text(value: object) -> bool:
    return isinstance(value, str) and value != "" and not value.isspace()  # as `strip()` would, without a copy


def stored_record_problem(record: MemoryRecord) -> str | None:
    """What is wrong with a record read back from a file (edited by hand, or damaged), or None if it is sound.

    The same rules as a write, so nothing a store returns could not have been written through `remember`.
    """
    checks = [
        (_text(record.id), "id", record.id),
        (record.kind in KINDS, "kind", record.kind),
        (isinstance(record.forgotten, bool), "forgotten", record.forgotten),
        (isinstance(record.content, str) and (record.forgotten is True or _text(record.content)), "content",
         record.content),
        (record.key is None or _text(record.key), "key", record.key),
        (_text(record.source), "source", record.source),
        (not isinstance(record.seq, bool) and isinstance(record.seq, int) and record.seq >= 1, "seq", record.seq),
        (record.superseded_by is None or _text(record.superseded_by), "superseded_by", record.superseded_by),
        (not isinstance(record.importance, bool) and isinstance(record.importance, int)
         and 1 <= record.importance <= 10, "importance", record.importance),
        (_number(record.created_at), "created_at", record.created_at),
        (_number(record.last_access), "last_access", record.last_access),
        (record.provenance in PROVENANCES, "provenance", record.provenance),
    ]
    for ok, field, value in checks:
        if not ok:
            return f"{field} is {value!r}" if field != "content" else f"content is {str(value)[:40]!r}"
    return None
