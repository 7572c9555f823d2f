"""A worker frozen inside a write holds its peers up, and never crashes them (issue 43, step 1).

Worker A pauses inside its write transaction (the store's "written" hook: the step's row is written, nothing is
committed, SQLite's write lock is held), as a process stopped by SIGSTOP mid-write would; it is then killed. Worker B, draining the
same file, finds the store busy past its own timeout: `StoreBusy`. Before, B died of it with a traceback; now it
retries with backoff (`tasks.retry_busy`), says BUSY, and finishes every step once A is gone. The bound is checked
on its own, with a fake clock.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from primer_memory import TaskStateStore
from primer_memory.lessons.reconcile_worker import start_drainer
from primer_memory.tasks.process import WorkerProcess
from primer_memory.tasks.store import StoreBusy, retry_busy

pytestmark = pytest.mark.slow


def test_a_peer_frozen_inside_a_write_holds_a_worker_up_but_never_crashes_it(tmp_path: Path) -> None:
    db = tmp_path / "tasks.db"
    with TaskStateStore(db) as store:
        for n in range(3):
            store.create_task(f"job-{n}", f"job {n}", ["fetch", "match"])
    frozen = WorkerProcess("propose", str(db), "job-0", '{"step": "fetch", "status": "running"}',
                           "--worker", "worker A", "--pause-at", "written")
    with frozen:
        frozen.wait_for("PAUSED written")  # inside its write: the row is written, nothing committed, the lock held
        with start_drainer("worker B", db=db, lease=1.0, timeout=0.2) as b:
            b.wait_for("BUSY")  # told, and still running
            assert b.alive
            frozen.kill()  # the frozen writer dies: its transaction rolls back, its lock goes with it
            assert b.finish(timeout=60) == 0
    with TaskStateStore(db) as store:
        assert all(status == "done" for n in range(3) for _, status, _ in store.steps(f"job-{n}"))


def test_a_store_busy_past_the_bound_is_a_named_error_saying_how_long() -> None:
    now, waits = [0.0], []

    def sleep(seconds: float) -> None:
        waits.append(seconds)
        now[0] += seconds

    def busy() -> None:
        now[0] += 0.2  # each attempt waits out the store's own timeout first
        raise StoreBusy("'tasks.db' is locked by another program")

    with pytest.raises(StoreBusy, match=r"stayed busy for .* past this worker's bound of 5 s"):
        retry_busy(busy, bound=5.0, first=0.05, most=1.0, sleep=sleep, clock=lambda: now[0])
    assert waits[:5] == [0.05, 0.1, 0.2, 0.4, 0.8] and set(waits[5:]) <= {1.0}  # doubling, then capped
    assert now[0] <= 5.0 + 0.2


def test_a_store_that_frees_up_is_retried_to_success() -> None:
    attempts = []

    def flaky() -> str:
        attempts.append(1)
        if len(attempts) < 3:
            raise StoreBusy("busy")
        return "claimed"

    told: list[float] = []
    assert retry_busy(flaky, sleep=lambda s: None, on_busy=lambda error, wait: told.append(wait)) == "claimed"
    assert told == [0.05, 0.1]
