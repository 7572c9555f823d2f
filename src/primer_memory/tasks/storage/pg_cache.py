"""Fewer round trips for a PostgreSQL write transaction: read a locked task's open steps once, keep them current.

A worker's step costs a claim and a report, each a transaction that reads the clock, the task's
policy, its current step and maybe a step by name before it writes. Once the task's row is
locked (`lock_task`, or `next_claimable`'s SKIP LOCKED), nobody else may change its steps until
COMMIT, so one statement can read all of that (issued after the lock, so it sees every earlier
commit) and later reads come from memory. Every write through this transaction updates the
copy it changed.

The same lock lets writes wait: the transaction runs in pipeline mode, and a write to a locked
task is queued, not waited for. Its row count is known from the copy (the row is there, in the
status expected), an event's number from the task's last one read with the state, so nothing
needs the server's answer until `settle()`, which sends every queued write in one round trip and
checks each changed what the copy said before COMMIT. A write to a task not read this way waits
for its answer as before.
"""

from __future__ import annotations

from typing import Any

__all__ = ["CACHE_STATEMENTS", "StepCache"]

_COLUMNS = ("position, name, status, output, output_kind, attempts, validator, lease_owner, lease_expires, retry_at, "
            "deadline, gave_up")
CACHE_STATEMENTS = {
    # The clock, the policy and the open steps (plus one named step) of a task locked by this transaction.
    "state": "SELECT extract(epoch FROM clock_timestamp())::float8, t.max_attempts, t.retry_initial, t.retry_rate, "
             "t.retry_max, t.start_to_close, " + ", ".join(f"s.{c.strip()}" for c in _COLUMNS.split(",")) +
             ", (SELECT COALESCE(MAX(e.seq), 0) FROM {s}.task_events e WHERE e.task_id = t.task_id)"
             " FROM {s}.task_tasks t LEFT JOIN {s}.task_steps s ON s.task_id = t.task_id"
             " AND (s.status <> 'done' OR s.name = %(name)s) WHERE t.task_id = %(task)s ORDER BY s.position",
    "add_event_one": "INSERT INTO {s}.task_events (task_id, seq, step, status, output, output_kind, accepted, reason, "
                     "proposal, worker) SELECT %s, COALESCE(MAX(seq), 0) + 1, %s, %s, %s, %s, %s, %s, %s, %s "
                     "FROM {s}.task_events WHERE task_id = %s RETURNING seq",
}


class _State:
    """One locked task as read after the lock: its policy, and its open steps (plus one named) by name."""

    def __init__(self, rows: list[Any]):
        self.policy = tuple(rows[0][1:6])
        self.steps = {r[7]: list(r[6:18]) for r in rows if r[6] is not None}  # name -> step row
        self.seq = int(rows[0][18])  # the task's last event number: the next is this + 1 while the lock is held


class StepCache:
    """Mixed into the PostgreSQL transaction: reads of a locked task come from one statement, writes keep it current."""

    _conn: Any
    _sql: dict[str, str]
    _clock: Any
    _locking: bool
    _pipe: Any

    def _cache_init(self) -> None:
        self._locked: set[str] = set()
        self._states: dict[str, _State] = {}
        self._read_at: float | None = None
        self._pending: list[tuple[Any, int, str]] = []  # (cursor, rows it must change, what it was) until settle()

    def settle(self) -> None:
        """Send the queued writes and check each changed the rows the locked copy promised; before COMMIT."""
        if not self._pending:
            return
        if self._pipe is not None:
            self._pipe.sync()
        pending, self._pending = self._pending, []
        for cursor, promised, what in pending:
            if cursor.rowcount != promised:  # impossible under the lock; refuse to commit
                raise RuntimeError(f"{what} changed {cursor.rowcount} rows where the locked task promised "
                                   f"{promised}; nothing was written")

    def _queued(self, task_id: str) -> bool:
        """Whether a write to `task_id` may be queued: in pipeline mode, with the task locked and read."""
        return self._pipe is not None and task_id in self._states

    def _defer(self, name: str, params: Any, promised: int, what: str) -> int:
        """Queue a write whose row count the locked copy already knows; settle() checks it before COMMIT."""
        self._pending.append((self._write(name, params), promised, what))
        return promised

    def _state(self, task_id: str, name: str | None = None) -> _State | None:
        if not self._locking or task_id not in self._locked:
            return None
        state = self._states.get(task_id)
        if state is None:
            rows = self._conn.execute(self._sql["state"], {"task": task_id, "name": name}).fetchall()
            if not rows:
                return None
            self._read_at = float(rows[0][0])
            state = self._states[task_id] = _State(rows)
        return state

    def now(self) -> float:
        if self._clock is not None:
            return float(self._clock())
        if self._read_at is not None:  # read after this transaction's lock, with the rows it judges
            return self._read_at
        return float(self._conn.execute(self._sql["now"]).fetchone()[0])

    def lock_task(self, task_id: str) -> str | None:
        goal = self._lock_task(task_id)
        if goal is not None and self._locking:
            self._locked.add(task_id)
        return goal

    def next_claimable(self, now: float, task_ids: Any, skip: Any) -> str | None:
        task_id = self._next_claimable(now, task_ids, skip)
        if task_id is not None:
            self._locked.add(task_id)
        return task_id

    def policy(self, task_id: str) -> tuple[Any, ...] | None:
        state = self._state(task_id)
        return state.policy if state is not None else self._policy(task_id)

    def step_named(self, task_id: str, name: str) -> Any:
        state = self._state(task_id, name)
        if state is None or name not in state.steps:  # a done step read before, or no such step: ask
            return self._step_named(task_id, name)
        return tuple(state.steps[name])

    def current(self, task_id: str) -> Any:
        state = self._state(task_id)
        if state is None:
            return self._current(task_id)
        open_rows = [r for r in state.steps.values() if r[2] != "done"]
        return tuple(min(open_rows, key=lambda r: r[0])) if open_rows else None

    def update_step(self, task_id: str, position: int, expect: str, status: str, output: str | None,
                    kind: str | None, add_attempt: int, owner: str | None, expires: float | None, *,
                    retry_at: float | None = None, deadline: float | None = None, gave_up: str | None = None) -> int:
        state = self._states.get(task_id)
        if self._queued(task_id):
            assert state is not None
            changed = self._defer("update_step", (status, output, kind, add_attempt, owner, expires, retry_at,
                                                  deadline, gave_up, task_id, position, expect),
                                  int(any(row[0] == position and row[2] == expect for row in state.steps.values())),
                                  f"the update of step {position} of task {task_id!r}")
        else:
            changed = self._update_step(task_id, position, expect, status, output, kind, add_attempt, owner,
                                        expires, retry_at=retry_at, deadline=deadline, gave_up=gave_up)
        if state is not None:
            for row in state.steps.values():
                if row[0] == position and changed:
                    row[2:6] = [status, output, kind, row[5] + add_attempt]
                    row[7:12] = [owner, expires, retry_at, deadline, gave_up]
        return changed

    def set_lease(self, task_id: str, position: int, owner: str | None, expires: float | None) -> int:
        state = self._states.get(task_id)
        if self._queued(task_id):
            assert state is not None
            changed = self._defer("set_lease", (owner, expires, task_id, position),
                                  int(any(row[0] == position for row in state.steps.values())),
                                  f"the lease of step {position} of task {task_id!r}")
        else:
            changed = self._set_lease(task_id, position, owner, expires)
        if state is not None:
            for row in state.steps.values():
                if row[0] == position and changed:
                    row[7:9] = [owner, expires]
        return changed

    def add_event(self, task_id: str, step: str | None, status: str | None, output: str | None,
                  kind: str | None, accepted: bool, reason: str, proposal: str, worker: str | None) -> int:
        state = self._states.get(task_id)
        if self._queued(task_id):
            assert state is not None
            state.seq += 1
            self._defer("add_event", (task_id, state.seq, step, status, output, kind, accepted, reason, proposal,
                                      worker), 1, f"event {state.seq} of task {task_id!r}")
            return state.seq
        seq = int(self._conn.execute(self._sql["add_event_one"], (task_id, step, status, output, kind, accepted,
                                                                  reason, proposal, worker, task_id)).fetchone()[0])
        if state is not None:
            state.seq = seq
        return seq

    # the plain statements, provided by the backend's transaction class
    def _write(self, name: str, params: Any) -> Any: ...  # pragma: no cover
    def _lock_task(self, task_id: str) -> str | None: ...  # pragma: no cover
    def _next_claimable(self, now: float, task_ids: Any, skip: Any) -> str | None: ...  # pragma: no cover
    def _policy(self, task_id: str) -> tuple[Any, ...] | None: ...  # pragma: no cover
    def _step_named(self, task_id: str, name: str) -> Any: ...  # pragma: no cover
    def _current(self, task_id: str) -> Any: ...  # pragma: no cover
    def _update_step(self, *args: Any, **kwargs: Any) -> int: ...  # pragma: no cover
    def _set_lease(self, *args: Any) -> int: ...  # pragma: no cover
