"""Writes held for the user's confirmation: the fourth outcome of `remember`, `confirm`.

A memory from the user that would send data or money somewhere (policy.provenance) is neither stored nor lost:
it waits here, in this process, under an id, until the application has asked the user and calls `confirm` (it
is then written, through the write policy once more) or `reject` (it is dropped). Nothing held is recalled,
exported or sent to a model. A held write lives as long as the LongTermMemory object; ask again after a restart.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass
from typing import Any

from .records import RecordNotFound, Scope, WriteResult
from .validation import Entry, check_scope

__all__ = ["HeldWrite", "HeldWrites"]


@dataclass(frozen=True)
class HeldWrite:
    """One write waiting for confirmation: its id, whose it is, what it would store, and why it is held."""

    id: str
    scope: Scope
    kind: str
    content: str
    key: str | None
    source: str
    reason: str


class HeldWrites:
    """The held-writes half of LongTermMemory: hold, list, confirm, reject (each only inside the caller's scope)."""

    _lock: Any

    def _holding(self) -> dict[str, tuple[HeldWrite, Entry]]:
        """This memory's held writes by id (made on first use, so LongTermMemory's constructor stays as it is)."""
        if "_held" not in self.__dict__:
            self.__dict__["_held"], self.__dict__["_held_ids"] = {}, itertools.count(1)
        return self.__dict__["_held"]

    def _hold(self, scope: Scope, entry: Entry, reason: str) -> WriteResult:
        holding = self._holding()
        kind, content, key, source = entry[:4]
        held = HeldWrite(f"held-{next(self.__dict__['_held_ids'])}", scope, kind, content, key, source, reason)
        holding[held.id] = (held, entry)
        return WriteResult(False, f"{reason} [{held.id}]", None, held=held.id)

    def held(self, scope: Scope) -> list[HeldWrite]:
        """The writes of this scope waiting for confirmation, oldest first."""
        check_scope(scope)
        with self._lock:
            return [h for h, _ in self._holding().values() if h.scope == scope]

    def _take(self, scope: Scope, held_id: str) -> tuple[HeldWrite, Entry]:
        check_scope(scope)
        holding = self._holding()
        found = holding.get(held_id) if isinstance(held_id, str) else None
        if found is None or found[0].scope != scope:
            raise RecordNotFound(f"no held write {held_id!r} in scope {scope}; held writes of other scopes are "
                                 "not searched, and one confirmed or rejected is gone")
        del holding[held_id]
        return found

    def _drop_held(self, scope: Scope) -> None:
        holding = self._holding()
        for held_id in [i for i, (h, _) in holding.items() if h.scope == scope]:
            del holding[held_id]

    def confirm(self, scope: Scope, held_id: str) -> WriteResult:
        """The user confirmed: write the held memory (the write policy still decides, as for any write)."""
        with self._lock:
            _, entry = self._take(scope, held_id)
            return self._remember_checked(scope, [entry], confirmed=True)[0]  # type: ignore[attr-defined]

    def reject(self, scope: Scope, held_id: str) -> HeldWrite:
        """The user said no: drop the held memory and return what it was."""
        with self._lock:
            return self._take(scope, held_id)[0]
