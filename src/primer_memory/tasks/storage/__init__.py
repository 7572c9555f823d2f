"""Where task state is kept: one small protocol, one module per backend (SQLite, PostgreSQL).

The rules live above this line, in `store.py` and `rules.py`; a backend only
stores and fetches rows, opens transactions in one place, and locks what it is told to.
"""

from __future__ import annotations

from collections.abc import Sequence
from contextlib import AbstractContextManager
from typing import Any, Protocol

__all__ = ["StepRow", "EventRow", "TaskTx", "TaskBackend"]

# position, name, status, output, output_kind, attempts, validator, lease_owner, lease_expires, retry_at, deadline,
# gave_up
StepRow = tuple[int, str, str, "str | None", "str | None", int, "str | None", "str | None", "float | None",
                "float | None", "float | None", "str | None"]
# seq, step, status, output, output_kind, accepted, reason, proposal, worker
EventRow = tuple[int, "str | None", "str | None", "str | None", "str | None", bool, str, str, "str | None"]


class TaskTx(Protocol):
    """What the store may do inside one transaction (or, for reads, one connection)."""

    def now(self) -> float:
        """The clock leases are measured on, in seconds."""

    def lock_task(self, task_id: str) -> str | None:
        """The task's goal, locking the task against other writers until the transaction ends (None: no task)."""

    def next_claimable(self, now: float, task_ids: Sequence[str] | None, skip: Sequence[str]) -> str | None:
        """Lock and return one task (not in `skip`) whose current step has no live lease; others' locks are skipped."""

    def insert_task(self, task_id: str, goal: str, rows: Sequence[tuple[int, str, str | None]],
                    policy: Sequence[Any] = ...) -> bool:
        """Write a task, its retry policy (`RetryPolicy.as_row()`) and its (position, name, validator) steps, all
        pending; False (nothing written) when a task of that id exists, even one created by a concurrent writer."""

    def policy(self, task_id: str) -> tuple[Any, ...] | None:
        """The task's stored retry policy row (None: no such task)."""

    def done_by(self, task_id: str, step: str) -> str | None:
        """The worker named on the accepted 'done' event of that step (None: not done, or done with no worker)."""

    def steps(self, task_id: str) -> list[StepRow]:
        """The task's steps in order (empty when there is no such task)."""

    def step_named(self, task_id: str, name: str) -> StepRow | None:
        """One step of the task by name (None when the task has no such step)."""

    def current(self, task_id: str) -> StepRow | None:
        """The task's current step: the first one that is not done (None when all are done or no such task)."""

    def update_step(self, task_id: str, position: int, expect: str, status: str, output: str | None,
                    kind: str | None, add_attempt: int, owner: str | None, expires: float | None, *,
                    retry_at: float | None = None, deadline: float | None = None, gave_up: str | None = None) -> int:
        """Move one step if it still has status `expect` (setting its backoff, deadline and reason for giving up);
        return how many rows changed (1 or 0)."""

    def set_lease(self, task_id: str, position: int, owner: str | None, expires: float | None) -> int:
        """Set or clear a step's lease; return how many rows changed."""

    def add_event(self, task_id: str, step: str | None, status: str | None, output: str | None,
                  kind: str | None, accepted: bool, reason: str, proposal: str, worker: str | None) -> int:
        """Append one event to the task's log and return its number (1, 2, ... per task)."""

    def refused_count(self, task_id: str) -> int:
        """How many refused proposals the task's log holds (the store logs at most MAX_REFUSED_EVENTS)."""

    def task_ids(self) -> list[str]:
        """Every task id, in id order."""

    def open_tasks(self, task_ids: Sequence[str] | None) -> list[str]:
        """Tasks (of `task_ids`, or all) that can still move: a step not done, none given up; in id order."""

    def events(self, task_id: str) -> list[EventRow]:
        """The task's log in order."""


class TaskBackend(Protocol):
    """A place that keeps task state: transactions are opened here and nowhere else."""

    def transaction(self) -> AbstractContextManager[TaskTx]:
        """A write transaction that commits on success and rolls back on any error; the backend's own errors
        and `StoreDamaged` rows leave it as named errors (`TaskFileError`, `StoreBusy`, `StoreDamaged`) that say
        where the store is."""

    def reading(self) -> AbstractContextManager[TaskTx]:
        """Read-only access (no write lock taken); errors named as in `transaction`."""

    def integrity_check(self) -> str:
        """The backend's own soundness check: 'ok' when sound."""

    def close(self) -> None:
        """Let go of the connection; committed work is already stored."""

    def tables(self) -> Any:
        """Where the rows live, for people who query them directly (table names)."""
