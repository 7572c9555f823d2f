"""LongTermMemory as a LangGraph store: a graph node reads and writes memories through `store=`.

A namespace names a scope: `(tenant, user, *rest)` opens the partition of
`Scope(tenant, user)`, and `rest` plus the item's key become the record's key. Every
value is kept as its JSON text, so it goes through everything notebook 3 put around
memory: the write policy (a refused value raises `PolicyRefused`, which a node can
catch), supersession (a new value for a key supersedes the old one; `history` shows
both), isolation (a search never leaves the caller's partition) and erasure
(`LongTermMemory.delete_user`). `search(query=...)` ranks by the memory's own embedder.

Deliberate limits: a namespace must start with a tenant and a user (no search or
listing across scopes, no wildcard in those two labels); `index=` takes None or False only (a value is embedded
whole; a list of fields is refused with `IndexNotSupported` rather than ignored); no TTL. Timestamps come from the memory's clock (hours since 1970). A store
that makes its own memory gives it the wall clock, so items carry real dates; a memory given without a clock
counts its writes instead (notebook 2's stand-in hours), which would date every item in January 1970, so the
store says so once in its log and in `dated`.
"""

from __future__ import annotations

import asyncio
import json
import logging
import math
import time
from collections.abc import Callable, Iterable, Mapping
from datetime import datetime, timedelta, timezone
from typing import Any

from . import require

require("langgraph.store.base", "langgraph", "The LangGraph store adapter")

from langgraph.store.base import (  # noqa: E402
    BaseStore,
    GetOp,
    InvalidNamespaceError,
    Item,
    ListNamespacesOp,
    MatchCondition,
    Op,
    PutOp,
    Result,
    SearchItem,
    SearchOp,
)

from primer_memory import KINDS, InvalidMemory, LongTermMemory, PolicyDecision, Scope, ScopeError, review  # noqa: E402
from primer_memory.policy.gate import decide  # noqa: E402
from primer_memory.policy.provenance import PROVENANCES, is_provenance  # noqa: E402

__all__ = ["IndexNotSupported", "LongTermStore", "MemoryNotStored", "NamespaceError", "PolicyRefused",
           "PolicySkipped", "wall_hours"]

_EPOCH = datetime(1970, 1, 1, tzinfo=timezone.utc)


class MemoryNotStored(ValueError):
    """A put the memory did not store; `reason` is the policy's, `namespace` and `key` say which item."""

    def __init__(self, message: str, *, namespace: tuple[str, ...], key: str, reason: str):
        super().__init__(message)
        self.namespace, self.key, self.reason = namespace, key, reason


class PolicyRefused(MemoryNotStored):
    """The write policy refused the value (a credential, a sensitive identifier): nothing of it was written."""


class PolicySkipped(MemoryNotStored):
    """The write policy skipped the value (nothing durable, nothing to index): it was not written."""


class IndexNotSupported(ValueError):
    """`put(..., index=[fields])`: this store embeds each value whole, so a list of fields to index would be
    ignored; it is refused instead, and nothing of the batch is written."""


class NamespaceError(InvalidNamespaceError):
    """A namespace that names no scope: it must start with (tenant, user), both clean non-empty labels."""


def _scope_of(namespace: tuple[str, ...], what: str = "namespace") -> Scope:
    if len(namespace) < 2 or "*" in namespace[:2]:
        raise NamespaceError(f"the {what} {namespace!r} must start with (tenant, user), e.g. ('acme', 'alice', "
                             "'memories'): every call opens one scope's partition, never a search across scopes")
    try:
        return Scope(namespace[0], namespace[1])
    except ScopeError as error:
        raise NamespaceError(f"the {what} {namespace!r} does not name a scope: {error}") from None


def _record_key(rest: tuple[str, ...], key: str) -> str:
    return json.dumps([*rest, key], ensure_ascii=False)


def _split_key(record_key: str | None) -> tuple[tuple[str, ...], str] | None:
    """The (rest, key) a record key encodes, or None for a record this adapter did not write."""
    if not record_key or not record_key.startswith("["):
        return None
    try:
        parts = json.loads(record_key)
    except ValueError:
        return None
    if not isinstance(parts, list) or not parts or not all(isinstance(p, str) for p in parts):
        return None
    return tuple(parts[:-1]), parts[-1]


def _value(content: str) -> dict[str, Any] | None:
    """The JSON object a record holds, or None for a record another writer stored as plain text."""
    try:
        value = json.loads(content)
    except ValueError:
        return None
    return value if isinstance(value, dict) else None


_log = logging.getLogger(__name__)


def wall_hours() -> float:
    """The wall clock in hours since 1970, as LongTermMemory's clock counts time."""
    return time.time() / 3600


def _when(hours: float) -> datetime:
    return _EPOCH + timedelta(hours=float(hours))


def _strings(value: Any, path: str = "$") -> Iterable[tuple[str, str]]:
    """Every string in a JSON value (keys too), with where it sits, so the policy sees each one whole."""
    if isinstance(value, str):
        yield path, value
    elif isinstance(value, Mapping):
        for k, v in value.items():
            yield f"{path}.{k}", str(k)
            yield from _strings(v, f"{path}.{k}")
    elif isinstance(value, (list, tuple)):
        for i, v in enumerate(value):
            yield from _strings(v, f"{path}[{i}]")


def matches(item_value: Any, condition: Any) -> bool:
    """LangGraph's filter semantics: equality, nested dicts, lists element-wise, $eq $ne $gt $gte $lt $lte."""
    if isinstance(condition, dict):
        if any(str(k).startswith("$") for k in condition):
            return all(_operator(item_value, op, operand) for op, operand in condition.items())
        return isinstance(item_value, dict) and all(matches(item_value.get(k), v) for k, v in condition.items())
    if isinstance(condition, (list, tuple)):
        return (isinstance(item_value, (list, tuple)) and len(item_value) == len(condition)
                and all(matches(a, b) for a, b in zip(item_value, condition)))
    return item_value == condition


def _operator(value: Any, op: str, operand: Any) -> bool:
    if op == "$eq":
        return value == operand
    if op == "$ne":
        return value != operand
    compare = {"$gt": float.__gt__, "$gte": float.__ge__, "$lt": float.__lt__, "$lte": float.__le__}.get(op)
    if compare is None:
        raise ValueError(f"unsupported filter operator {op!r}; use $eq, $ne, $gt, $gte, $lt or $lte")
    try:
        return compare(float(value), float(operand))
    except (TypeError, ValueError):  # a missing or non-numeric field does not match (as SQL's NULL does not)
        return False


def _namespace_matches(namespace: tuple[str, ...], condition: MatchCondition) -> bool:
    path = tuple(condition.path)
    if len(namespace) < len(path):
        return False
    pairs = zip(namespace, path) if condition.match_type == "prefix" else zip(reversed(namespace), reversed(path))
    return all(p == "*" or n == p for n, p in pairs)


class LongTermStore(BaseStore):
    """A LangGraph `BaseStore` whose items are LongTermMemory records (kind `kind`, source `source`).

    `provenance` says who speaks through the graph's puts, and must be given: "assistant" when nodes store what
    a model proposed (the usual case), "tool" for what tools returned, "user" only when every put carries the
    user's own words. It decides what a value may become (policy.provenance): only the user's can be a
    procedural memory or an instruction. `policy` checks every string inside a value before anything is written
    (default: `review`, the memory's own default); the memory then judges the whole value, its key (namespace
    labels included) and its source as it does every write.
    """

    supports_ttl = False

    def __init__(self, memory: LongTermMemory | None = None, *, provenance: str, kind: str = "semantic",
                 source: str = "langgraph", policy: Callable[[str], PolicyDecision] = review):
        if type(kind) is not str or kind not in KINDS:
            raise InvalidMemory(f"kind must be one of {', '.join(map(repr, KINDS))} (a plain string); got {kind!r:.60}")
        if not is_provenance(provenance):
            raise InvalidMemory(f"provenance must be one of {', '.join(map(repr, PROVENANCES))}: who speaks through "
                                f"this store's puts (usually 'assistant'); got {provenance!r:.60}")
        self.memory = LongTermMemory(clock=wall_hours) if memory is None else memory
        self.kind, self.source, self._policy, self.provenance = kind, source, policy, provenance
        self.dated = self.memory.clock is not None
        """Whether items carry real dates: False when the memory counts writes instead of keeping time."""
        if not self.dated:
            _log.warning("LongTermStore: this memory has no clock, so items are dated by write order from "
                         "1970-01-01; give LongTermMemory(clock=wall_hours) (or any clock in hours) for real dates")

    def __repr__(self) -> str:
        return f"LongTermStore({self.memory!r}, kind={self.kind!r}, provenance={self.provenance!r})"

    # ----------------------------------------------------------------- the two abstract methods

    def batch(self, ops: Iterable[Op]) -> list[Result]:
        """Reads in order, then the puts (the last put of a key wins), as LangGraph's InMemoryStore does."""
        ops = list(ops)
        results: list[Result] = []
        puts: dict[tuple[tuple[str, ...], str], PutOp] = {}
        for op in ops:
            if isinstance(op, GetOp):
                results.append(self._get(tuple(op.namespace), op.key))
            elif isinstance(op, SearchOp):
                results.append(self._search(op))
            elif isinstance(op, ListNamespacesOp):
                results.append(self._list_namespaces(op))
            elif isinstance(op, PutOp):
                if op.index is not None and op.index is not False:
                    raise IndexNotSupported(
                        f"put(..., index={op.index!r:.60}) asks for some fields to be indexed; this store embeds each "
                        "value whole with the memory's own embedder, so the list would be ignored. Pass index=None "
                        "(or False, as LangGraph's callers do), and search with query= over the whole value")
                puts[(tuple(op.namespace), op.key)] = op
                results.append(None)
            else:
                raise ValueError(f"unknown operation {type(op).__name__}; a store takes GetOp, SearchOp, "
                                 "ListNamespacesOp and PutOp")
        if puts:
            self._apply(list(puts.values()))
        return results

    async def abatch(self, ops: Iterable[Op]) -> list[Result]:
        """`batch` in a worker thread, so a graph's event loop is never blocked by the database."""
        return await asyncio.to_thread(self.batch, list(ops))

    # ----------------------------------------------------------------- history (beyond BaseStore)

    def history(self, namespace: tuple[str, ...], key: str) -> list[dict[str, Any]]:
        """Every value the item has had, oldest first: value (None once forgotten), current, source, record id."""
        scope = _scope_of(tuple(namespace))
        records = self.memory.history(scope, _record_key(tuple(namespace[2:]), str(key)))
        return [{"value": None if r.forgotten else json.loads(r.content), "current": r.current,
                 "source": r.source, "record_id": r.id, "at": _when(r.created_at)} for r in records]

    # ----------------------------------------------------------------- reading

    def _get(self, namespace: tuple[str, ...], key: str) -> Item | None:
        scope = _scope_of(namespace)
        records = self.memory.history(scope, _record_key(namespace[2:], key))
        return self._item(namespace, key, records)

    def _item(self, namespace: tuple[str, ...], key: str, records: list[Any]) -> Item | None:
        """The current value of a key with its timestamps: created when the current chain of values began."""
        if not records or not records[-1].current or _value(records[-1].content) is None:
            return None
        start = records[-1]
        for record in reversed(records[:-1]):
            if record.forgotten:
                break
            start = record
        return Item(value=json.loads(records[-1].content), key=key, namespace=namespace,
                    created_at=_when(start.created_at), updated_at=_when(records[-1].created_at))

    def _current(self, scope: Scope) -> dict[tuple[tuple[str, ...], str], list[dict[str, Any]]]:
        """Each item of the scope (by rest of namespace and key) with its records, oldest first."""
        chains: dict[tuple[tuple[str, ...], str], list[dict[str, Any]]] = {}
        for row in self.memory.export(scope):
            split = _split_key(row["key"])
            if split is not None and row["kind"] == self.kind:
                chains.setdefault(split, []).append(row)
        return {k: rows for k, rows in chains.items()
                if rows[-1]["current"] and _value(rows[-1]["content"]) is not None}

    def _search(self, op: SearchOp) -> list[SearchItem]:
        prefix = tuple(op.namespace_prefix)
        scope = _scope_of(prefix, "namespace prefix")
        rest = prefix[2:]
        chains = {k: v for k, v in self._current(scope).items() if k[0][:len(rest)] == rest}
        found: list[tuple[float | None, int, tuple[tuple[str, ...], str], list[dict[str, Any]]]] = []
        scores: dict[str, float] = {}
        if op.query:
            scores = {r.id: s for r, s in self.memory.similarities(scope, op.query, kinds=(self.kind,))}
        for name, rows in chains.items():
            value = json.loads(rows[-1]["content"])
            if op.filter and not all(matches(value.get(k), v) for k, v in op.filter.items()):
                continue
            score = scores.get(rows[-1]["id"]) if op.query else None
            found.append((score, rows[-1]["seq"], name, rows))
        if op.query:
            found.sort(key=lambda f: (-(f[0] if f[0] is not None and not math.isnan(f[0]) else -2.0), -f[1]))
        else:
            found.sort(key=lambda f: -f[1])  # most recently updated first
        items = []
        for score, _, (rest_ns, key), rows in found[op.offset:op.offset + op.limit]:
            start = next((r for r in reversed(rows) if r.get("forgotten")), None)
            first = rows[rows.index(start) + 1] if start is not None else rows[0]
            items.append(SearchItem(namespace=(scope.tenant_id, scope.user_id, *rest_ns), key=key,
                                    value=json.loads(rows[-1]["content"]), created_at=_when(first["created_at"]),
                                    updated_at=_when(rows[-1]["created_at"]), score=score))
        return items

    def _list_namespaces(self, op: ListNamespacesOp) -> list[tuple[str, ...]]:
        conditions = list(op.match_conditions or ())
        prefixes = [c for c in conditions if c.match_type == "prefix"]
        if not prefixes:
            raise NamespaceError("list_namespaces needs prefix=(tenant, user, ...): namespaces are listed inside one "
                                 "scope's partition, never across scopes")
        scope = _scope_of(tuple(prefixes[0].path), "prefix")
        spaces = {(scope.tenant_id, scope.user_id, *rest) for rest, _ in self._current(scope)}
        chosen = [ns for ns in spaces if all(_namespace_matches(ns, c) for c in conditions)]
        if op.max_depth is not None:
            chosen = [ns[:op.max_depth] for ns in chosen]
        return sorted(set(chosen))[op.offset:op.offset + op.limit]

    # ----------------------------------------------------------------- writing

    def _apply(self, puts: list[PutOp]) -> None:
        """Check every value first, then delete and write scope by scope (each scope's puts in one transaction)."""
        by_scope: dict[Scope, list[PutOp]] = {}
        for op in puts:
            namespace = tuple(op.namespace)
            by_scope.setdefault(_scope_of(namespace), []).append(op)
            if op.value is not None:
                self._check(namespace, op.key, op.value)
        for scope, ops in by_scope.items():
            for op in ops:
                if op.value is None:
                    self._delete(scope, tuple(op.namespace), op.key)
            writes = [op for op in ops if op.value is not None]
            if not writes:
                continue
            entries = [{"kind": self.kind, "content": json.dumps(dict(op.value), ensure_ascii=False),
                        "key": _record_key(tuple(op.namespace[2:]), op.key), "source": self.source} for op in writes]
            for op, result in zip(writes, self.memory.remember_many(scope, entries, provenance=self.provenance)):
                if not result.stored and result.record is None:  # a duplicate comes back with its record: fine
                    self._refuse(op, result.reason)

    def _check(self, namespace: tuple[str, ...], key: str, value: Any) -> None:
        if not isinstance(value, Mapping):
            raise InvalidMemory(f"a store value must be a dict of JSON values, got {type(value).__name__}")
        try:
            json.dumps(dict(value), ensure_ascii=False, allow_nan=False)
        except (TypeError, ValueError) as error:
            raise InvalidMemory(f"the value for key {key!r} is not JSON ({error}); store text, numbers, lists and "
                                "dicts only") from None
        # Every string whole, as its own text (JSON quoting could hide an instruction's start from the checks), and
        # the key and each namespace label as stored fields, under this store's provenance: the same gate as the
        # memory's write path, which then judges the whole value, the record key and the source once more.
        fields = {"key": key, **{f"namespace label {i}": label for i, label in enumerate(namespace[2:], start=3)}}
        checks = [("the key or namespace", "", fields), *((path, text, None) for path, text in _strings(dict(value)))]
        for where, text, named in checks:
            decision = decide(self._policy, text, kind=self.kind, provenance=self.provenance, fields=named,
                              worth=False)
            if decision.verdict == "refuse":
                raise PolicyRefused(f"not stored: {where} of key {key!r} in {namespace!r}: {decision.reason}",
                                    namespace=namespace, key=key, reason=decision.reason)

    def _refuse(self, op: PutOp, reason: str) -> None:
        namespace = tuple(op.namespace)
        error = PolicyRefused if reason.startswith("refused") else PolicySkipped
        raise error(f"not stored: key {op.key!r} in {namespace!r}: {reason}", namespace=namespace, key=op.key,
                    reason=reason)

    def _delete(self, scope: Scope, namespace: tuple[str, ...], key: str) -> None:
        records = self.memory.history(scope, _record_key(namespace[2:], key))
        if records and records[-1].current:
            self.memory.forget(scope, records[-1].id)
