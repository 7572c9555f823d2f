"""Checks on what callers hand a task store besides a proposal, and the bound on what refusals may log.

A task's list of steps (how many, each name valid and new), the store's settings (timeout, clock, hook),
each clock reading, claim_next's `task_ids`, and how much of a refused proposal the event log keeps. Like
`rules.py`, plain Python with no storage: the store calls these before (or inside) its transactions.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from itertools import islice
from typing import Any

from .rules import (
    MAX_STEPS,
    ClockError,
    InvalidTask,
    InvalidUpdate,
    LeaseError,
    TaskFileError,
    _quote,
    check_name,
    step_spec,
)

__all__ = ["MAX_STEPS", "MAX_REFUSED_EVENTS", "MAX_LOGGED_PROPOSAL_CHARS", "step_items", "check_settings",
           "read_clock", "check_task_ids", "refusal_for_log"]

MAX_REFUSED_EVENTS = 500  # refused proposals logged per task; later ones are refused but not logged
MAX_LOGGED_PROPOSAL_CHARS = 1_000  # a refused proposal's text is logged up to this (an accepted one in full)
MAX_TASK_IDS = 100_000  # ids in claim_next's task_ids


def step_items(task_id: str, steps: Any) -> list[tuple[str, Any]]:
    """The (name, check) pairs of a task definition: at least one, at most MAX_STEPS, each name valid and new."""
    if isinstance(steps, (str, bytes)):
        raise InvalidTask(f"steps must be a list of step names, got the single text {_quote(steps)}; "
                          f"write [{_quote(steps)}] for a task of one step")
    if not isinstance(steps, (Mapping, list, tuple)):
        raise InvalidTask(f"steps must be a list of step names, got {type(steps).__name__}")
    if len(steps) > MAX_STEPS:
        raise InvalidTask(f"task {task_id!r} has {len(steps):,} steps; a task may have at most {MAX_STEPS:,} steps. "
                          "Split the job into several tasks")
    items = list(steps.items()) if isinstance(steps, Mapping) else [step_spec(s) for s in steps]
    if not items:
        raise InvalidTask(f"task {task_id!r} needs at least one step")
    seen: set[str] = set()
    for position, (name, _) in enumerate(items, start=1):
        check_name(name, f"step {position}'s name", InvalidTask)
        if name in seen:
            raise InvalidTask(f"step name {name!r} appears twice; each step of a task needs its own name")
        seen.add(name)
    return items


def check_settings(timeout: Any, clock: Any, hook: Any) -> None:
    """The store's settings, checked before anything is opened: TaskFileError naming the one that is wrong."""
    if isinstance(timeout, bool) or not isinstance(timeout, (int, float)) or not 0 <= timeout <= 86_400:
        raise TaskFileError(f"timeout must be the seconds to wait for another program's lock, a number from 0 to "
                            f"86400, got {_quote(timeout)}")
    for what, fn in (("clock", clock), ("hook", hook)):
        if fn is not None and not callable(fn):
            raise TaskFileError(f"{what} must be a function (or None), got {_quote(fn)}")


def read_clock(value: Any) -> float:
    """A clock reading as seconds, or ClockError: a lease measured on text or NaN could never be judged live."""
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value):
        raise ClockError(f"the store's clock returned {_quote(value)}; a clock must return the time as a finite "
                         "number of seconds (like time.time()). Nothing was written")
    return float(value)


def check_task_ids(task_ids: Any) -> list[str] | None:
    """claim_next's task_ids: None (every task) or a list of ids; a bare string would be read letter by letter."""
    if task_ids is None:
        return None
    if isinstance(task_ids, (str, bytes)):
        raise LeaseError(f"task_ids must be a list of task ids, got the single text {_quote(task_ids)}; "
                         f"write [{_quote(task_ids)}] to claim from that task only")
    try:
        ids = list(islice(task_ids, MAX_TASK_IDS + 1))  # islice: an endless iterator is refused, not followed
    except TypeError:
        raise LeaseError(f"task_ids must be a list of task ids (or None for every task), got "
                         f"{type(task_ids).__name__}") from None
    if len(ids) > MAX_TASK_IDS:
        raise LeaseError(f"task_ids holds more than {MAX_TASK_IDS:,} ids; give None to choose from every task")
    for task_id in ids:
        if not isinstance(task_id, str):
            raise LeaseError(f"task_ids must hold task ids (text), got {_quote(task_id)} in it")
        check_name(task_id, "a task id in task_ids", LeaseError)
    return ids


def refusal_for_log(refusal: InvalidUpdate, raw: str, logged: int) -> str | None:
    """The proposal text to log for a refusal, given how many refusals the task's log holds (None: log nothing).

    A refused proposal is kept up to MAX_LOGGED_PROPOSAL_CHARS, and at most MAX_REFUSED_EVENTS refusals per task,
    so a model stuck in a loop cannot grow the file without end; accepted proposals are always logged whole.
    """
    if logged >= MAX_REFUSED_EVENTS:
        _add_to_reason(refusal, f" (not logged: task {refusal.task_id}'s log already holds {MAX_REFUSED_EVENTS} "
                                "refusals, the most it keeps)")
        return None
    if logged == MAX_REFUSED_EVENTS - 1:
        _add_to_reason(refusal, f" (this is the last refusal logged for this task: its log keeps at most "
                                f"{MAX_REFUSED_EVENTS}; later ones are refused but not logged)")
    return raw if len(raw) <= MAX_LOGGED_PROPOSAL_CHARS else raw[:MAX_LOGGED_PROPOSAL_CHARS] + "..."


def _add_to_reason(refusal: InvalidUpdate, note: str) -> None:
    refusal.reason += note
    refusal.args = (refusal.reason,)
