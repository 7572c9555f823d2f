"""Bounded retries and a bound on each attempt, as Temporal and DBOS promise them for a step.

A step may start at most `max_attempts` times (a start is a claim, a takeover after an expired
lease, or a proposal that moves it out of pending or failed). After a failure the next claim waits
`initial_interval * backoff_rate ** (attempts - 1)` seconds (at most `max_interval`), so a step that
fails because a service is down is not hammered. When the last attempt fails, or its lease runs
out, the step *gives up*: it stays failed, keeps the reason, and refuses every later proposal and
claim. `start_to_close` bounds one attempt, heartbeats included: a lease never outlives it, so a
worker stuck in a loop loses the step however often it renews. Plain Python, no storage: the store
keeps a task's policy in its row, so every process judges it alike.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, TypeVar

from .rules import InvalidTask, InvalidUpdate, LeaseError, LeaseExpired, StoreBusy

__all__ = ["RetryPolicy", "DEFAULT_RETRY", "GaveUp", "LeaseLost", "RetryLater", "StepTimedOut", "gave_up_reason",
           "retry_busy"]

T = TypeVar("T")


class GaveUp(InvalidUpdate):
    """The step used all its attempts and gave up: the task cannot go on (create a new task to redo the work)."""


class RetryLater(LeaseError):
    """The step failed and waits out its backoff before the next claim; `retry_at` says when (store clock)."""

    def __init__(self, reason: str, *, retry_at: float, **kwargs: Any):
        super().__init__(reason, **kwargs)
        self.retry_at = retry_at


class StepTimedOut(LeaseExpired):
    """The attempt ran past the step's start-to-close bound: its lease ended there, however often it was renewed."""


class LeaseLost(LeaseError):
    """This worker's lease ran out and another worker finished the step: this worker's result is not recorded."""


def _seconds(value: Any, what: str, *, allow_none: bool = False, allow_zero: bool = True) -> float | None:
    if value is None and allow_none:
        return None
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value) or value < 0 \
            or (value == 0 and not allow_zero) or value > 86_400 * 365:
        low = "0" if allow_zero else "more than 0"
        raise InvalidTask(f"{what} must be a number of seconds from {low} to one year"
                          f"{' (or None)' if allow_none else ''}, got {value!r}")
    return float(value)


@dataclass(frozen=True)
class RetryPolicy:
    """How often a step may start, how long to wait after a failure, and how long one attempt may run.

    `max_attempts=None` allows unlimited attempts; `start_to_close=None` leaves an attempt unbounded
    (its lease still has to be renewed).
    """

    max_attempts: int | None = 10
    initial_interval: float = 1.0
    backoff_rate: float = 2.0
    max_interval: float = 300.0
    start_to_close: float | None = None

    def __post_init__(self) -> None:
        n = self.max_attempts
        if n is not None and (isinstance(n, bool) or not isinstance(n, int) or not 1 <= n <= 1_000_000):
            raise InvalidTask(f"max_attempts must be a whole number from 1 to 1,000,000 (or None), got {n!r}")
        _seconds(self.initial_interval, "initial_interval")
        _seconds(self.max_interval, "max_interval")
        rate = self.backoff_rate
        if isinstance(rate, bool) or not isinstance(rate, (int, float)) or not 1 <= rate <= 100:
            raise InvalidTask(f"backoff_rate must be a number from 1 to 100, got {rate!r}")
        _seconds(self.start_to_close, "start_to_close", allow_none=True, allow_zero=False)

    def delay(self, attempts: int) -> float:
        """Seconds to wait before the next claim after attempt number `attempts` failed."""
        exponent = max(0, attempts - 1)
        if self.backoff_rate > 1 and exponent > 64:  # past any max_interval: no float overflow
            return float(self.max_interval)
        return float(min(self.initial_interval * self.backoff_rate ** exponent, self.max_interval))

    def exhausted(self, attempts: int) -> bool:
        """Whether `attempts` starts use up the limit (no further start is allowed)."""
        return self.max_attempts is not None and attempts >= self.max_attempts

    def as_row(self) -> tuple[int | None, float, float, float, float | None]:
        return (self.max_attempts, self.initial_interval, self.backoff_rate, self.max_interval, self.start_to_close)

    @classmethod
    def from_row(cls, row: Any) -> RetryPolicy:
        """The policy stored with a task; a task written before policies existed retries as it always did."""
        if row is None or row[0] is None and row[1] is None:
            return UNLIMITED
        n, initial, rate, most, bound = row
        return cls(None if n is None else int(n), float(initial), float(rate), float(most),
                   None if bound is None else float(bound))


DEFAULT_RETRY = RetryPolicy()
UNLIMITED = RetryPolicy(max_attempts=None, initial_interval=0.0)


def gave_up_reason(attempts: int, last: str) -> str:
    """The reason kept with a step that gave up: how many attempts, and how the last one ended."""
    return f"gave up after {attempts} attempt{'s' if attempts != 1 else ''}: {last}"


def retry_busy(operation: Callable[[], T], *, bound: float = 300.0, first: float = 0.05, most: float = 2.0,
               on_busy: Callable[[StoreBusy, float], None] | None = None,
               sleep: Callable[[float], None] = time.sleep, clock: Callable[[], float] = time.monotonic) -> T:
    """`operation()`, run again while it raises StoreBusy: waits double from `first` up to `most` seconds, for at
    most `bound` seconds in all; then StoreBusy, saying how long the store stayed busy.

    StoreBusy means another process held the file's write lock longer than the store's own `timeout` (a peer
    frozen inside a write, say) and nothing was changed, so running the operation again is safe. A worker that
    calls its store through this is held up by a frozen peer, never crashed by one. `on_busy(error, wait)` is told
    before each wait.
    """
    started, wait = clock(), first
    while True:
        try:
            return operation()
        except StoreBusy as busy:
            waited = clock() - started
            if waited + wait > bound:
                raise StoreBusy(f"the store stayed busy for {waited:.1f} s, past this worker's bound of {bound:g} s; "
                                f"nothing was changed. {busy}") from None
            if on_busy is not None:
                on_busy(busy, wait)
            sleep(wait)
            wait = min(wait * 2, most)
