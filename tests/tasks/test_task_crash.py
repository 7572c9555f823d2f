"""Crash safety and atomicity with real processes.

A worker runs the reconcile job in a subprocess and stops at a named point
(it prints PAUSED and waits on stdin), so each test kills it with SIGKILL at
exactly that point: at a step boundary, mid-step, or inside the transaction
that writes a step. Every wait is bounded and fails with the worker's output.
"""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import pytest

from primer_memory.lessons.examples import RECONCILE_OUTPUTS, RECONCILE_STEP_NAMES, RECONCILE_STEPS, RECONCILE_TASK_ID
from primer_memory.tasks.store import Event, TaskStateStore
from primer_memory.lessons.reconcile_worker import WorkerError, WorkerProcess, crash_points, start_worker

pytestmark = pytest.mark.slow
TASK = RECONCILE_TASK_ID
WAIT = 60.0  # seconds; only reached when something is broken, and then the message shows the worker's output
LEASE = 0.5  # seconds: a killed worker's step is taken over this long after its last heartbeat


def crash_at(db: Path, point: str) -> list[str]:
    """Run a worker until `point`, SIGKILL it there, and return what it printed."""
    with start_worker(db, pause_at=point, worker=f"killed at {point}", lease=LEASE) as worker:
        line = worker.wait_for("PAUSED", "FINISHED", timeout=WAIT)
        assert line == f"PAUSED {point}", worker.lines
        worker.kill()
        assert worker.returncode == -9
        return worker.lines


def run_to_end(db: Path) -> list[str]:
    with start_worker(db, worker="resumer", lease=LEASE) as worker:
        assert worker.finish(timeout=WAIT) == 0, worker.errors
        assert worker.lines[-1] == f"FINISHED: all {len(RECONCILE_STEP_NAMES)} steps done", worker.lines
        return worker.lines


def state_after_crash(db: Path) -> tuple[list[tuple[str, str]], list[Event]]:
    """Reopen the file as a new process would, check it is sound, and read it."""
    with TaskStateStore(db) as store:
        assert store.integrity_check() == "ok"
        if TASK not in store.tasks():
            return [], store.events(TASK)
        return [(name, status) for name, status, _ in store.steps(TASK)], store.events(TASK)


def assert_finished_once_each(db: Path) -> list[Event]:
    """All done, the right outputs, exactly one accepted 'done' per step, no refusals, no gaps in the log."""
    with TaskStateStore(db) as store:
        assert store.integrity_check() == "ok"
        steps = store.step_details(TASK)
        events = store.events(TASK)
    assert [(s.name, s.status, s.output) for s in steps] == [
        (name, "done", RECONCILE_OUTPUTS[name]) for name in RECONCILE_STEP_NAMES]
    done = Counter(e.step for e in events if e.accepted and e.status == "done")
    assert done == dict.fromkeys(RECONCILE_STEP_NAMES, 1), "a step was done twice or never"
    assert all(e.accepted for e in events), [e.reason for e in events if not e.accepted]
    assert [e.seq for e in events] == list(range(1, len(events) + 1))
    return events


def expected_before_resume(point: str) -> list[tuple[str, str]]:
    """What the file must say after a kill at `point`: done up to it, then the interrupted step, then pending."""
    if point == "creating":
        return []  # the create transaction never committed: no task at all
    where, name = point.split(":")
    index = RECONCILE_STEP_NAMES.index(name)
    here = "pending" if where == "before" else "running"  # writing:X never committed its 'done'
    return ([(n, "done") for n in RECONCILE_STEP_NAMES[:index]] + [(name, here)]
            + [(n, "pending") for n in RECONCILE_STEP_NAMES[index + 1:]])


@pytest.mark.parametrize("point", crash_points())
def test_kill_at_each_point_then_resume(tmp_path: Path, point: str) -> None:
    db = tmp_path / "tasks.db"
    crash_at(db, point)
    steps, events = state_after_crash(db)
    assert steps == expected_before_resume(point)
    if point.startswith("writing:"):  # killed inside the transaction: its done event is gone too
        assert not any(e.status == "done" and e.step == point.split(":")[1] for e in events)

    lines = run_to_end(db)
    first_unfinished = next((name for name, status in steps if status != "done"), None)
    if point == "creating":
        assert lines[0].startswith("STARTING")
    else:
        assert lines[0] == f"RESUMING {TASK} at {first_unfinished} ({dict(steps)[first_unfinished]})"
    events = assert_finished_once_each(db)
    with TaskStateStore(db) as store:
        attempts = {s.name: s.attempts for s in store.step_details(TASK)}
    interrupted = point.split(":")[1] if point.startswith(("running:", "writing:")) else None
    assert attempts == {n: 2 if n == interrupted else 1 for n in RECONCILE_STEP_NAMES}
    taken = [(e.step, e.worker) for e in events if "taken over" in e.reason]
    assert taken == ([(interrupted, "resumer")] if interrupted else [])
    assert not any(e.status == "failed" for e in events)


def test_crash_at_every_point_in_one_run(tmp_path: Path) -> None:
    """Nine kills in a row on one file, each new process resuming where the last one died."""
    db = tmp_path / "tasks.db"
    for point in crash_points():
        crash_at(db, point)
        steps, _ = state_after_crash(db)
        assert steps == expected_before_resume(point), point
    run_to_end(db)
    events = assert_finished_once_each(db)
    interrupted = [e.step for e in events if "taken over" in e.reason]
    # each step died twice, once mid-step and once mid-write, and was retried each time
    assert interrupted == [name for name in RECONCILE_STEP_NAMES for _ in range(2)]
    with TaskStateStore(db) as store:
        assert [s.attempts for s in store.step_details(TASK)] == [3, 3, 3]


def test_the_lessons_crash_resumes_at_match(tmp_path: Path) -> None:
    db = tmp_path / "tasks.db"
    crash_at(db, "before:match")
    with WorkerProcess("status", str(db)) as status:
        assert status.finish(timeout=WAIT) == 0, status.errors
    assert status.lines[0] == "integrity_check: ok"
    assert status.lines[-1] == "next step: match"
    assert run_to_end(db)[0] == f"RESUMING {TASK} at match (pending)"


def test_worker_exits_when_its_parent_goes_away(tmp_path: Path) -> None:
    with start_worker(tmp_path / "tasks.db", pause_at="before:fetch_payments") as worker:
        worker.wait_for("PAUSED", timeout=WAIT)
        worker._close_pipes()  # what the operating system does when the parent dies
        assert worker.finish(timeout=WAIT) == 3
        assert worker.lines[-1] == "STOPPED: stdin closed"


def test_a_worker_that_overruns_is_killed_and_the_error_shows_what_it_printed(tmp_path: Path) -> None:
    """A hung worker's lines are the only clue to where it hung: they must reach the message, not stay queued."""
    with start_worker(tmp_path / "tasks.db", pause_at="before:fetch_payments") as worker:
        with pytest.raises(WorkerError, match=r"(?s)within 1 s.*fetch_invoices: done.*PAUSED before:fetch_payments"):
            worker.finish(timeout=1.0)
        assert not worker.alive


# --------------------------------------------------------------------------- two processes at once


def make_task(db: Path) -> None:
    with TaskStateStore(db) as store:
        store.create_task(TASK, "goal", RECONCILE_STEPS)


def proposer(db: Path, proposal: dict[str, str], *extra: str) -> WorkerProcess:
    return WorkerProcess("propose", str(db), TASK, json.dumps(proposal), *extra)


def test_a_second_process_waits_for_the_first_and_is_refused(tmp_path: Path) -> None:
    db = tmp_path / "tasks.db"
    make_task(db)
    first = {"step": "fetch_invoices", "status": "done", "output": "4 invoices"}
    second = {"step": "fetch_invoices", "status": "done", "output": "5 invoices"}
    with proposer(db, second, "--wait-go") as b, proposer(db, first, "--pause-at", "checked") as a:
        b.wait_for("READY", timeout=WAIT)  # b has the file open before a takes the lock
        a.wait_for("PAUSED checked", timeout=WAIT)  # a has checked and holds the write lock, not yet written
        b.send("go")
        b.wait_for("PROPOSING", timeout=WAIT)  # b is now inside apply(), waiting for the lock
        assert b.alive
        a.send("continue")
        assert a.wait_for("ACCEPTED", "REFUSED", timeout=WAIT) == "ACCEPTED fetch_invoices done"
        result = b.wait_for("ACCEPTED", "REFUSED", timeout=WAIT)
        assert result.startswith("REFUSED step fetch_invoices is already done (output \"4 invoices\")"), result
        assert a.finish(timeout=WAIT) == 0 and b.finish(timeout=WAIT) == 0
    with TaskStateStore(db) as store:
        assert store.steps(TASK)[0][2] == "4 invoices"
        assert [(e.output, e.accepted) for e in store.events(TASK)] == [("4 invoices", True), (None, False)]


def test_a_process_killed_inside_its_write_leaves_the_step_for_the_other(tmp_path: Path) -> None:
    db = tmp_path / "tasks.db"
    make_task(db)
    first = {"step": "fetch_invoices", "status": "done", "output": "4 invoices"}
    second = {"step": "fetch_invoices", "status": "done", "output": "5 invoices"}
    with proposer(db, second, "--wait-go") as b, proposer(db, first, "--pause-at", "written") as a:
        b.wait_for("READY", timeout=WAIT)
        a.wait_for("PAUSED written", timeout=WAIT)  # a has written, not committed
        b.send("go")
        b.wait_for("PROPOSING", timeout=WAIT)
        a.kill()  # the uncommitted write dies with a, and the lock is released
        assert b.wait_for("ACCEPTED", "REFUSED", timeout=WAIT) == "ACCEPTED fetch_invoices done"
    with TaskStateStore(db) as store:
        assert store.integrity_check() == "ok"
        assert store.steps(TASK)[0][2] == "5 invoices"
        assert [(e.seq, e.output, e.accepted) for e in store.events(TASK)] == [(1, "5 invoices", True)]


@pytest.mark.parametrize("round_", range(4))
def test_two_processes_racing_only_one_moves_the_step(tmp_path: Path, round_: int) -> None:
    db = tmp_path / "tasks.db"
    make_task(db)
    if round_ >= 2:  # also race on a later step, after a real transition
        with TaskStateStore(db) as store:
            store.apply(TASK, {"step": "fetch_invoices", "status": "done", "output": "4 invoices"})
    step = "fetch_invoices" if round_ < 2 else "fetch_payments"
    outputs = ("1 invoices", "2 invoices") if round_ < 2 else ("1 payments", "2 payments")
    with proposer(db, {"step": step, "status": "done", "output": outputs[0]}, "--wait-go") as a, \
            proposer(db, {"step": step, "status": "done", "output": outputs[1]}, "--wait-go") as b:
        a.wait_for("READY", timeout=WAIT)
        b.wait_for("READY", timeout=WAIT)
        a.send("go")
        b.send("go")
        results = sorted(p.wait_for("ACCEPTED", "REFUSED", timeout=WAIT).split()[0] for p in (a, b))
    assert results == ["ACCEPTED", "REFUSED"]
    with TaskStateStore(db) as store:
        events = [e for e in store.events(TASK) if e.step == step]
        winner = next(e.output for e in events if e.accepted)
        assert store.next_step(TASK) != step
        assert [output for name, _, output in store.steps(TASK) if name == step] == [winner]
        assert sorted(e.accepted for e in events) == [False, True]
