"""Notebook 4, task state: multi-step jobs that survive a crash.

`store` holds TaskStateStore (the rules plus leases); `rules` the statuses, transitions and
proposal parsing; `retry` the attempt limit, backoff and start-to-close bound; `leases` who may update a
claimed step; `checks` the checks on settings, clocks, ids and step lists; `process` a
worker as a child process that can be killed; `storage/` one file a backend.
"""

from __future__ import annotations

from .store import (
    STATUSES,
    TRANSITIONS,
    ClockError,
    Event,
    GaveUp,
    InvalidTask,
    InvalidUpdate,
    Lease,
    LeaseError,
    LeaseExpired,
    LeaseHeld,
    LeaseLost,
    RetryLater,
    RetryPolicy,
    Step,
    StepTimedOut,
    StoreBusy,
    StoreDamaged,
    TaskFileError,
    TaskStateStore,
    UnknownTask,
    events_table,
    steps_table,
)

__all__ = ["STATUSES", "TRANSITIONS", "ClockError", "Event", "GaveUp", "InvalidTask", "InvalidUpdate", "Lease",
           "LeaseError", "LeaseExpired", "LeaseHeld", "LeaseLost", "RetryLater", "RetryPolicy", "Step", "StepTimedOut",
           "StoreBusy", "StoreDamaged", "TaskFileError", "TaskStateStore", "UnknownTask", "events_table", "steps_table"]
