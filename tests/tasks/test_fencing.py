"""Fencing by lease generation (issue 43, step 2): a write under a lease that the step has moved on from is refused.

A lease's attempt number is its generation. The property drives any interleaving of claims (including a new
process under a name already used, the restarted-worker case a name check alone lets through), heartbeats, time
passing (a holder frozen past its lease), and late writes under any lease ever issued, live or stale; plain
`apply` without a lease (the lesson's API) is mixed in. A model kept apart from the store says which lease is
current; every write the store accepts must come from it, before it expired, and each step is done once. The
examples then run on every backend.
"""

from __future__ import annotations

import tempfile
from pathlib import Path

import pytest
from hypothesis import settings
from hypothesis import strategies as st
from hypothesis.stateful import Bundle, RuleBasedStateMachine, invariant, rule

from helpers import Clock, Opener

from primer_memory.tasks import (
    GaveUp,
    InvalidUpdate,
    Lease,
    LeaseError,
    LeaseLost,
    RetryLater,
    RetryPolicy,
    TaskStateStore,
)

TASK = "q3-close"
STEPS = ["fetch", "match", "report"]
LEASE = 10.0


class FencingMachine(RuleBasedStateMachine):
    """Claims, beats, freezes and late writes in any order; the store is checked against a model of its leases."""

    leases = Bundle("leases")

    def __init__(self) -> None:
        super().__init__()
        self.folder = tempfile.TemporaryDirectory()
        self.clock = Clock()
        self.store = TaskStateStore(Path(self.folder.name) / "t.db", clock=self.clock)
        self.store.create_task(TASK, "g", STEPS, retry=RetryPolicy(max_attempts=None, initial_interval=0.0))
        # The model: the newest lease issued on each step, and until when it runs (claims and heartbeats move it).
        self.newest: dict[str, Lease] = {}
        self.until: dict[tuple[str, int], float] = {}
        self.ended: set[tuple[str, int]] = set()  # generations that reported done or failed

    def _issued(self, lease: Lease) -> None:
        if lease.step in self.newest:
            assert lease.attempts >= self.newest[lease.step].attempts  # generations only grow
        self.newest[lease.step] = lease
        self.until[(lease.step, lease.attempts)] = lease.expires

    def _may_write(self, lease: Lease) -> bool:
        """The model's answer: `lease` is its step's newest, it has not ended, and it has not expired."""
        key = (lease.step, lease.attempts)
        newest = self.newest.get(lease.step)
        return (newest is not None and (newest.attempts, newest.worker) == (lease.attempts, lease.worker)
                and key not in self.ended and self.clock.now < self.until[key])

    @rule(target=leases, worker=st.sampled_from(["A", "B", "A"]))  # "A" twice: a restarted process reuses its name
    def claim(self, worker: str) -> Lease | None:
        try:
            lease = self.store.claim(TASK, worker, LEASE)
        except (LeaseError, RetryLater, GaveUp):
            return None
        if lease is not None:
            self._issued(lease)
        return lease

    @rule(lease=leases)
    def heartbeat(self, lease: Lease | None) -> None:
        if lease is None:
            return
        allowed = self._may_write(lease)
        try:
            renewed = self.store.heartbeat(TASK, lease.worker, LEASE, lease=lease)
        except LeaseError:
            assert not allowed, f"the heartbeat of {lease}, the current lease, was refused"
            return
        assert allowed, f"a heartbeat under {lease} renewed a lease the model says is over"
        self.until[(lease.step, lease.attempts)] = renewed.expires

    @rule(seconds=st.sampled_from([1.0, 4.0, 11.0]))  # 11 s: every holder is frozen past its lease
    def time_passes(self, seconds: float) -> None:
        self.clock.now += seconds

    @rule(lease=leases, status=st.sampled_from(["done", "failed"]), through=st.sampled_from(["apply", "finish"]))
    def late_or_timely_write(self, lease: Lease | None, status: str, through: str) -> None:
        if lease is None or (through == "finish" and status == "failed"):
            return
        allowed = self._may_write(lease)
        try:
            if through == "finish":
                self.store.finish(lease, f"{lease.step} by {lease.worker}", then_claim=False)
            else:
                self.store.apply(TASK, {"step": lease.step, "status": status, "output": lease.worker}, lease=lease)
        except InvalidUpdate as refusal:
            assert not allowed, f"a write under {lease}, the current lease, was refused: {refusal}"
            return
        assert allowed, f"a write under {lease} was recorded, but the model says its lease is over"
        self.ended.add((lease.step, lease.attempts))

    @rule(status=st.sampled_from(["running", "done", "failed"]))
    def plain_apply(self, status: str) -> None:
        """The lesson's `apply` without a lease: accepted only on a step nobody holds."""
        step = self.store.current_step(TASK)
        if step is None:
            return
        try:
            self.store.apply(TASK, {"step": step.name, "status": status, "output": "by hand"})
        except InvalidUpdate:
            return
        assert step.lease_owner is None, f"a write without a lease moved {step.name}, held by {step.lease_owner}"
        if step.status == "running" or status != "running":  # the unclaimed attempt ends; a lease on it too
            self.ended.add((step.name, step.attempts))
        if status == "running":  # an unclaimed attempt starts: older generations are over
            self.newest.pop(step.name, None)

    @invariant()
    def each_step_done_once_in_order(self) -> None:
        dones = [e.step for e in self.store.events(TASK) if e.accepted and e.status == "done"]
        assert dones == STEPS[: len(dones)]

    def teardown(self) -> None:
        self.store.close()
        self.folder.cleanup()


TestFencing = FencingMachine.TestCase
TestFencing.settings = settings(max_examples=40, stateful_step_count=30, deadline=None)


# --------------------------------------------------------------------------- the named cases, on every backend


def test_a_restarted_worker_under_the_same_name_fences_its_frozen_predecessor(opener: Opener) -> None:
    clock = Clock()
    with opener(clock=clock) as store:
        store.create_task(TASK, "g", STEPS)
        frozen = store.claim(TASK, "worker A", LEASE)
        clock.now += LEASE + 1  # frozen past its lease; a new process starts under the same name
        restarted = store.claim(TASK, "worker A", LEASE)
        assert frozen is not None and restarted is not None and restarted.attempts == frozen.attempts + 1
        with pytest.raises(LeaseLost, match=r"claimed again since \(attempt 2, by worker A\).*attempt 1"):
            store.apply(TASK, {"step": "fetch", "status": "done", "output": "late"}, lease=frozen)
        with pytest.raises(LeaseLost):
            store.heartbeat(TASK, "worker A", LEASE, lease=frozen)  # its waking heartbeat renews nothing
        assert store.current_step(TASK).lease_expires == restarted.expires
        store.apply(TASK, {"step": "fetch", "status": "done", "output": "on time"}, lease=restarted)
        with pytest.raises(LeaseLost, match=r"finished by worker A after the lease of worker A ran out \(its attempt 1; "
                           r"the step was done on attempt 2\)"):  # once the step is done, still refused
            store.finish(frozen, "late")
        [event] = [e for e in store.events(TASK) if e.accepted and e.status == "done"]
        assert event.output == "on time"
        refused = [e for e in store.events(TASK) if not e.accepted]
        assert len(refused) == 2 and all("not recorded" in e.reason for e in refused)  # the log keeps the refusals


def test_a_lease_for_another_task_or_worker_is_refused_before_anything_is_read(opener: Opener) -> None:
    with opener() as store:
        store.create_task(TASK, "g", STEPS)
        store.create_task("other", "g", STEPS)
        lease = store.claim(TASK, "worker A", LEASE)
        with pytest.raises(LeaseError, match="is on task \"q3-close\", not \"other\""):
            store.apply("other", {"step": "fetch", "status": "done"}, lease=lease)
        with pytest.raises(LeaseError, match="does not match the lease's worker"):
            store.apply(TASK, {"step": "fetch", "status": "done"}, lease=lease, worker="worker B")
        with pytest.raises(LeaseError, match="takes the Lease"):
            store.apply(TASK, {"step": "fetch", "status": "done"}, lease="worker A")  # type: ignore[arg-type]
        assert store.events(TASK)[-1].status == "running"  # nothing logged: these never reached the task


def test_apply_without_a_lease_works_as_the_lesson_shows(opener: Opener) -> None:
    with opener() as store:
        store.create_task(TASK, "g", STEPS)
        assert store.apply(TASK, {"step": "fetch", "status": "done", "output": "ok"}).status == "done"
