"""The one write path of long-term memory: every memory passes the write gate, then one backend write.

`remember`, `remember_many`, a confirmed held write, and every adapter (the LangGraph store, a model's proposals,
the hand-off) reach storage through `_remember_checked` and nothing else: the gate (`policy.gate.decide`) judges
content, key and source under the entry's provenance, and `_write` plans supersession and duplicates for the batch
and hands it to the backend as one transaction.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from ..policy.decision import STORE_REASON, PolicyDecision
from ..policy.gate import decide
from ..policy.provenance import outranks
from .records import MemoryRecord, MemorySetupError, Scope, WriteResult
from .storage import MemoryStore, NewRecord, TextKey
from .validation import Entry

__all__ = ["WritePath"]

_FIELD_CACHE = 4096  # distinct keys and sources whose verdict is kept
_OUTRANKED = ("refused: the key {key!r} holds a value from the {held} ({old}), and a write from the {new} never "
              "supersedes a more trusted one (user, then assistant, then tool and import); ask the user to correct it")


class WritePath:
    """The write half of LongTermMemory (a mixin): the gate, then supersession, then one backend transaction."""

    _store: MemoryStore
    _embedder: Any
    _policy: Callable[[str], PolicyDecision]
    _open: Callable[[], None]
    _now: Callable[[], "float | None"]
    _vectors: Callable[[list[str]], np.ndarray]
    _hold: Callable[..., WriteResult]

    def _remember_checked(self, scope: Scope, checked: list[Entry], *, confirmed: bool = False) -> list[WriteResult]:
        """The gate over every entry (content, key and source; policy, then provenance), then one write."""
        self._open()
        decisions = [decide(self._review, content, kind=kind, provenance=origin,
                            fields={"key": key, "source": source}, review_field=self._review_field)
                     for kind, content, key, source, _, origin in checked]
        if confirmed:  # the user confirmed this redirect: the rest of the rules still hold
            decisions = [PolicyDecision("store", STORE_REASON) if d.verdict == "confirm" else d for d in decisions]
        wanted = [i for i, d in enumerate(decisions) if d.verdict == "store"]
        vectors = np.zeros((len(checked), self._embedder.dim), dtype=np.float32)
        if wanted:
            vectors[wanted] = self._vectors([checked[i][1] for i in wanted])
        results = self._write(scope, checked, decisions, vectors)
        return [self._hold(scope, entry, d.reason) if d.verdict == "confirm" else result
                for entry, d, result in zip(checked, decisions, results)]

    def _review(self, content: str) -> PolicyDecision:
        decision = self._policy(content)
        if getattr(decision, "verdict", None) not in ("store", "skip", "refuse", "confirm"):
            raise MemorySetupError(f"the write policy must return a PolicyDecision (store/skip/refuse/confirm), got "
                                   f"{decision!r}")
        self._open()  # a policy that closed this memory (re-entrancy) leaves nothing to write to
        return decision

    def _review_field(self, text: str) -> PolicyDecision:
        """The policy over a key or a source, remembered per text: they repeat from write to write."""
        cache: dict[str, PolicyDecision] = self.__dict__.setdefault("_field_reviews", {})
        found = cache.get(text)
        if found is None:
            found = self._review(text)
            if len(cache) >= _FIELD_CACHE:
                cache.pop(next(iter(cache)))  # the oldest first
            cache[text] = found
        return found

    def _write(
        self, scope: Scope, checked: list[Entry], decisions: list[PolicyDecision], vectors: np.ndarray
    ) -> list[WriteResult]:
        """Plan the batch (duplicates, supersession, in order), then hand it to the backend as one transaction."""
        keys = {key for _, _, key, _, _, _ in checked if key is not None}
        texts = {(kind, key, content) for kind, content, key, _, _, _ in checked}
        current_key, current_text = self._store.lookup(scope, keys, texts)
        # The batch's own effect, as of each entry: key -> what is current (an id, or a batch position).
        staged_key: dict[str, str | int] = {}
        staged_text: dict[TextKey, MemoryRecord | int | None] = {}  # None: no longer current
        plans: list[NewRecord] = []
        rows: list[int] = []
        pending: list[tuple[bool, str, MemoryRecord | int | None]] = []
        now = self._now()
        for row, ((kind, content, key, source, importance, origin), decision) in enumerate(zip(checked, decisions)):
            if decision.verdict != "store":
                pending.append((False, decision.reason, None))
                continue
            if not vectors[row].any():
                pending.append((False, "skipped: no words to index, so it could never be recalled", None))
                continue
            text_key = (kind, key, content)
            duplicate = staged_text[text_key] if text_key in staged_text else current_text.get(text_key)
            if duplicate is not None:
                pending.append((False, "", duplicate))  # reason filled in once the duplicate has an id
                continue
            supersedes: str | int | None = None
            reason = decision.reason
            if key is not None:
                old = staged_key[key] if key in staged_key else (current_key[key].id if key in current_key else None)
                if old is not None:
                    stale = plans[old] if isinstance(old, int) else current_key[key]
                    if outranks(stale.provenance, origin):
                        named = "an earlier memory of this batch" if isinstance(old, int) else old
                        pending.append((False, _OUTRANKED.format(key=key, old=named, held=stale.provenance,
                                                                 new=origin), None))
                        continue
                    supersedes = old
                    staged_text[(stale.kind, stale.key, stale.content)] = None
                staged_key[key] = len(plans)
            staged_text[text_key] = len(plans)
            plans.append(NewRecord(kind, content, key, source, importance, now, supersedes, origin))
            rows.append(row)
            pending.append((True, reason, len(plans) - 1))
        made = self._store.write(scope, plans, vectors[rows]) if plans else []
        results = []
        for stored, reason, ref in pending:
            record = made[ref] if isinstance(ref, int) else ref
            if not stored and record is not None:
                reason = f"skipped: already remembered as {record.id}"
            elif stored and record is not None:
                plan = plans[ref]  # type: ignore[index]
                if plan.supersedes is not None:
                    old_id = made[plan.supersedes].id if isinstance(plan.supersedes, int) else plan.supersedes
                    reason = f"{reason} (supersedes {old_id})"
            results.append(WriteResult(stored, reason, record))
        return results
