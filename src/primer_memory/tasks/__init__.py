"""Notebook 4, task state: multi-step jobs that survive a crash.

`store` holds TaskStateStore (the rules plus leases); `rules` the statuses, transitions and
proposal parsing; `checks` the checks on settings, clocks, ids and step lists; `process` a
worker as a child process that can be killed; `storage/` one file a backend.
"""

from __future__ import annotations

from .store import (
    STATUSES,
    TRANSITIONS,
    ClockError,
    Event,
    InvalidTask,
    InvalidUpdate,
    Lease,
    LeaseError,
    LeaseExpired,
    LeaseHeld,
    Step,
    StoreBusy,
    StoreDamaged,
    TaskFileError,
    TaskStateStore,
    UnknownTask,
    events_table,
    steps_table,
)

__all__ = ["STATUSES", "TRANSITIONS", "ClockError", "Event", "InvalidTask", "InvalidUpdate", "Lease", "LeaseError",
           "LeaseExpired", "LeaseHeld", "Step", "StoreBusy", "StoreDamaged", "TaskFileError", "TaskStateStore",
           "UnknownTask", "events_table", "steps_table"]
