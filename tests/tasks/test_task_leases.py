"""Leases: a claimed step takes proposals only from its live holder; an expired lease is taken over once.

The rules are tested in one process with a clock the test moves; the guarantees that
matter (a live holder is never displaced, a SIGKILLed holder's step is finished exactly
once) are tested with real worker processes.
"""

from __future__ import annotations

from collections import Counter
from pathlib import Path
from typing import Any

import pytest
from hypothesis import settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, invariant, rule

from helpers import Clock

from primer_memory.lessons.examples import RECONCILE_OUTPUTS, RECONCILE_STEP_NAMES, RECONCILE_TASK_ID
from primer_memory.tasks.store import LeaseError, LeaseExpired, LeaseHeld, TaskStateStore
from primer_memory.lessons.reconcile_worker import start_worker

TASK = RECONCILE_TASK_ID
STEPS = list(RECONCILE_STEP_NAMES)


@pytest.fixture
def clock() -> Clock:
    return Clock()


@pytest.fixture
def store(tmp_path: Path, clock: Clock):
    with TaskStateStore(tmp_path / "t.db", clock=clock) as s:
        s.create_task(TASK, "goal", STEPS)
        yield s


def done(name: str) -> dict[str, str]:
    return {"step": name, "status": "done", "output": RECONCILE_OUTPUTS[name]}


def test_claim_runs_the_step_and_only_the_holder_may_propose(store: TaskStateStore, clock: Clock) -> None:
    lease = store.claim(TASK, "A", lease_seconds=10)
    assert lease is not None and (lease.step, lease.worker, lease.attempts, lease.taken_over) == (
        "fetch_invoices", "A", 1, False)
    assert store.current_step(TASK).status == "running"
    for intruder in (None, "B"):
        with pytest.raises(LeaseHeld, match="claimed by A, whose lease is live"):
            store.apply(TASK, done("fetch_invoices"), worker=intruder)
    with pytest.raises(LeaseHeld):
        store.claim(TASK, "B", 10)
    step = store.apply(TASK, done("fetch_invoices"), worker="A")
    assert (step.status, step.lease_owner, step.lease_expires) == ("done", None, None)  # done ends the lease
    assert store.steps(TASK)[1] == ("fetch_payments", "pending", None)


def test_heartbeat_extends_and_an_expired_lease_is_taken_over_once(store: TaskStateStore, clock: Clock) -> None:
    store.claim(TASK, "A", 10)
    clock.now += 8
    assert store.heartbeat(TASK, "A", 10).expires == clock.now + 10
    clock.now += 8  # 16 s after the claim, but only 8 after the heartbeat: still A's
    with pytest.raises(LeaseHeld):
        store.claim(TASK, "B", 10)
    clock.now += 3  # now expired
    with pytest.raises(LeaseExpired, match="the lease of A on step fetch_invoices expired"):
        store.apply(TASK, done("fetch_invoices"), worker="A")  # a stalled holder is fenced off
    with pytest.raises(LeaseExpired):
        store.heartbeat(TASK, "A", 10)
    taken = store.claim(TASK, "B", 10)
    assert taken is not None and (taken.worker, taken.attempts, taken.taken_over) == ("B", 2, True)
    with pytest.raises(LeaseHeld):
        store.apply(TASK, done("fetch_invoices"), worker="A")
    store.apply(TASK, done("fetch_invoices"), worker="B")
    events = store.events(TASK)
    assert [e.reason for e in events if "taken over" in e.reason] == [
        "claimed by B for 10 s: taken over, the lease of A expired (attempt 2)"]
    assert Counter(e.step for e in events if e.accepted and e.status == "done") == {"fetch_invoices": 1}


def test_unclaimed_steps_work_as_in_the_lesson(store: TaskStateStore) -> None:
    for name in STEPS:
        store.apply(TASK, done(name))
    assert store.next_step(TASK) is None
    assert store.claim(TASK, "A") is None  # nothing left to claim


def test_claim_next_walks_the_task_list(tmp_path: Path, clock: Clock) -> None:
    with TaskStateStore(tmp_path / "t.db", clock=clock) as s:
        for t in ("t1", "t2"):
            s.create_task(t, "g", ["a", "b"])
        first, second = s.claim_next("A", 5), s.claim_next("B", 5)
        assert (first.task_id, first.step, second.task_id, second.step) == ("t1", "a", "t2", "a")
        assert s.claim_next("C", 5) is None  # both current steps are held
        clock.now += 6
        third = s.claim_next("C", 5)
        assert (third.task_id, third.step, third.taken_over) == ("t1", "a", True)


@pytest.mark.parametrize(("call", "message"), [
    (lambda s: s.claim(TASK, "", 5), "worker must be a non-empty string"),
    (lambda s: s.claim(TASK, "A", 0), "lease_seconds must be a number"),
    (lambda s: s.claim(TASK, "A", float("nan")), "lease_seconds"),
    (lambda s: s.heartbeat(TASK, "A", 5), "A holds no lease"),
    (lambda s: s.claim(TASK, "A\ud800", 5), "lone surrogate"),
])
def test_bad_lease_calls_are_named_errors(store: TaskStateStore, call: Any, message: str) -> None:
    before = store.step_details(TASK)
    with pytest.raises(LeaseError, match=message):
        call(store)
    assert store.step_details(TASK) == before


class LeaseMachine(RuleBasedStateMachine):
    """Workers claim, beat, propose and stall in any order; a step is never done twice and never skipped."""

    def __init__(self) -> None:
        super().__init__()
        import tempfile

        self.folder = tempfile.TemporaryDirectory()
        self.clock = Clock()
        self.store = TaskStateStore(Path(self.folder.name) / "t.db", clock=self.clock)
        self.store.create_task(TASK, "g", STEPS)

    @rule(worker=st.sampled_from("ABC"))
    def claim(self, worker: str) -> None:
        try:
            self.store.claim(TASK, worker, 10)
        except LeaseHeld:
            current = self.store.current_step(TASK)
            assert current.lease_owner not in (None, worker) and current.lease_expires > self.clock.now

    @rule(worker=st.sampled_from("ABC"))
    def finish(self, worker: str) -> None:
        current = self.store.current_step(TASK)
        if current is None:
            return
        try:
            self.store.apply(TASK, done(current.name), worker=worker)
        except LeaseError:
            assert current.lease_owner is not None
        else:
            assert current.lease_owner in (None, worker)

    @rule(seconds=st.sampled_from([1, 5, 11]))
    def time_passes(self, seconds: int) -> None:
        self.clock.now += seconds

    @invariant()
    def each_step_done_at_most_once_and_in_order(self) -> None:
        events = self.store.events(TASK)
        dones = [e.step for e in events if e.accepted and e.status == "done"]
        assert dones == STEPS[: len(dones)]

    def teardown(self) -> None:
        self.store.close()
        self.folder.cleanup()


TestLeaseMachine = LeaseMachine.TestCase
TestLeaseMachine.settings = settings(max_examples=30, stateful_step_count=25)


# --------------------------------------------------------------------------- real processes


@pytest.mark.slow
def test_a_live_holder_is_never_displaced(tmp_path: Path) -> None:
    """A holds fetch_payments, paused but alive (its heartbeat renews a 2 s lease); B waits for 3 leases' time."""
    db = tmp_path / "tasks.db"
    with start_worker(db, pause_at="running:fetch_payments", worker="A", lease=2.0) as a:
        a.wait_for("PAUSED", timeout=60)
        with start_worker(db, worker="B", lease=2.0) as b:
            b.wait_for("WAITING", timeout=60)
            import time

            time.sleep(6.0)
            with TaskStateStore(db) as s:
                current = s.current_step(TASK)
            assert (current.name, current.lease_owner, current.attempts) == ("fetch_payments", "A", 1)
            a.send("continue")
            assert a.finish(timeout=60) == 0 and b.finish(timeout=60) == 0
    assert not any(line.startswith("LOST") for line in a.lines + b.lines), a.lines + b.lines
    with TaskStateStore(db) as s:
        events = s.events(TASK)
        assert s.steps(TASK) == [(n, "done", RECONCILE_OUTPUTS[n]) for n in STEPS]
    assert not any("taken over" in e.reason for e in events)
    assert [e.worker for e in events if e.step == "fetch_payments" and e.status == "done"] == ["A"]
    assert Counter(e.step for e in events if e.accepted and e.status == "done") == dict.fromkeys(STEPS, 1)


@pytest.mark.slow
def test_a_sigkilled_holders_step_is_taken_over_after_expiry_exactly_once(tmp_path: Path) -> None:
    db = tmp_path / "tasks.db"
    with start_worker(db, pause_at="running:fetch_payments", worker="A", lease=1.0) as a:
        a.wait_for("PAUSED", timeout=60)
        with start_worker(db, worker="B", lease=1.0) as b, start_worker(db, worker="C", lease=1.0) as c:
            b.wait_for("WAITING", timeout=60)
            c.wait_for("WAITING", timeout=60)
            a.kill()
            assert b.finish(timeout=60) == 0 and c.finish(timeout=60) == 0
    with TaskStateStore(db) as s:
        events = s.events(TASK)
        details = s.step_details(TASK)
    assert [(d.name, d.status, d.attempts) for d in details] == [
        ("fetch_invoices", "done", 1), ("fetch_payments", "done", 2), ("match", "done", 1)]
    taken = [e for e in events if "taken over" in e.reason]
    assert len(taken) == 1 and taken[0].step == "fetch_payments" and taken[0].worker in ("B", "C")
    assert Counter(e.step for e in events if e.accepted and e.status == "done") == dict.fromkeys(STEPS, 1)
