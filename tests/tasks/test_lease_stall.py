"""What loses a lease, with real processes: a living worker keeps its step however long it takes (its heartbeat
renews the lease), and only a worker that stops running without dying (SIGSTOP) loses it; its late report is
refused, not written twice. This is the caveat notebook 4 states."""

from __future__ import annotations

import signal
import time
from pathlib import Path

import pytest

from primer_memory import TaskStateStore
from primer_memory.lessons.examples import RECONCILE_TASK_ID
from primer_memory.lessons.reconcile_worker import start_worker

pytestmark = [pytest.mark.slow, pytest.mark.skipif(not hasattr(signal, "SIGSTOP"), reason="needs SIGSTOP")]


def test_a_stalled_worker_loses_its_step_and_its_late_report_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "tasks.db"
    with start_worker(path, pause_at="running:fetch_payments", worker="worker A", lease=1.0) as a:
        a.wait_for("PAUSED")
        a.freeze(outside_write_of=path)  # alive, but its heartbeat thread stops with it (not mid-write)
        try:
            with start_worker(path, worker="worker B", lease=1.0) as b:
                assert b.finish() == 0, b.errors[-8:]
        finally:
            a.thaw()
        a.send("continue")
        assert a.finish() == 0  # it reports the lost lease and goes on; the task is finished, so it exits cleanly
    assert any(line.startswith("LOST LEASE") for line in a.lines), a.lines
    assert "fetch_payments: taken over, the last holder's lease had expired (attempt 2)" in b.lines
    with TaskStateStore(path) as store:
        dones = [e for e in store.events(RECONCILE_TASK_ID) if e.accepted and e.status == "done"]
        assert [e.step for e in dones] == ["fetch_invoices", "fetch_payments", "match"]  # each once
        assert all(e.worker == "worker B" for e in dones[1:])


def test_a_slow_living_worker_keeps_its_step(tmp_path: Path) -> None:
    path = tmp_path / "tasks.db"
    with start_worker(path, pause_at="running:fetch_payments", worker="worker A", lease=1.0) as a:
        a.wait_for("PAUSED")
        time.sleep(3.5)  # three and a half leases with no progress: only the heartbeat runs
        with TaskStateStore(path) as store:
            step = store.current_step(RECONCILE_TASK_ID)
        assert step is not None and (step.name, step.lease_owner, step.attempts) == ("fetch_payments", "worker A", 1)
        a.send("continue")
        assert a.finish() == 0
