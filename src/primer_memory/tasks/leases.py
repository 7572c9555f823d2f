"""Leases on steps: who may update a claimed step, until when, and what a claim writes.

Exclusivity comes from these columns, read and changed while the task's row is locked:
a step with a live lease takes proposals only from its holder, and a claim re-checks the
lease under the lock before it writes. (`SKIP LOCKED` only spares a worker the wait for a
task another worker is busy with.) A lease never outlives the attempt's start-to-close
deadline, and a new attempt is refused once the task's `RetryPolicy` is used up.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from typing import Any

from .checks import check_task_ids, read_clock
from .retry import GaveUp, LeaseLost, RetryLater, RetryPolicy, StepTimedOut, gave_up_reason
from .rules import (
    Lease,
    LeaseError,
    LeaseExpired,
    LeaseHeld,
    Step,
    UnknownTask,
    _quote,
    check_name,
    decode_output,
    raw_text,
)

__all__ = ["LeaseMixin", "check_lease", "check_seconds", "fence", "lease_allows", "lease_until", "claim_step",
           "step_from_row"]


def step_from_row(task_id: str, row: Sequence[Any]) -> Step:
    """A backend's step row as a `Step` (its output decoded)."""
    position, name, status, output, kind, attempts, validator, owner, expires, retry_at, deadline, gave_up = row
    output = decode_output(output, kind, f"the output of step {_quote(name)} of task {_quote(task_id)}")
    return Step(task_id, position, name, status, output, attempts, validator, owner, expires, retry_at, deadline,
                gave_up)


def check_seconds(value: Any) -> float:
    """A lease length: more than 0 and at most a day."""
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not 0 < value <= 86_400:
        raise LeaseError(f"lease_seconds must be a number of seconds between 0 and 86400, got {_quote(value)}")
    return float(value)


def lease_until(now: float, seconds: float, deadline: float | None) -> float:
    """When a lease taken or renewed at `now` ends: `seconds` later, but never after the attempt's deadline."""
    return now + seconds if deadline is None else min(now + seconds, deadline)


def _timed_out(step: Step) -> bool:
    return step.deadline is not None and step.lease_expires is not None and step.lease_expires >= step.deadline


def lease_allows(step: Step, worker: str | None, now: float) -> None:
    """A claimed step takes proposals only from its live holder; an expired lease must be claimed again."""
    if step.lease_owner is None:
        return
    expires = step.lease_expires or 0.0
    if expires <= now:
        if _timed_out(step):
            raise StepTimedOut(f"the attempt of {step.lease_owner} on step {step.name} ran past its start-to-close "
                               "bound, so its lease ended there; the step must be claimed again (a new attempt)",
                               step=step.name)
        raise LeaseExpired(f"the lease of {step.lease_owner} on step {step.name} expired; whoever does the step "
                           "(its old holder too) must claim it again before proposing", step=step.name)
    if worker != step.lease_owner:
        who = f"{worker} is not the holder, and only" if worker else "this proposal names no worker, and only"
        raise LeaseHeld(f"step {step.name} is claimed by {step.lease_owner}, whose lease is live; "
                        f"{who} the holder may update it (give worker={step.lease_owner!r} if you are)",
                        step=step.name)


def check_lease(lease: Any, task_id: str, worker: str | None) -> str:
    """The worker a write under `lease` speaks for; a lease that is not one, or is for another task or worker, is
    refused before anything is read."""
    if not isinstance(lease, Lease):
        raise LeaseError(f"lease= takes the Lease that claim, claim_next or finish returned, got {_quote(lease)}")
    if lease.task_id != task_id:
        raise LeaseError(f"this lease is on task {_quote(lease.task_id)}, not {_quote(task_id)}; a write under a "
                         "lease goes to the task it was claimed on")
    if worker is not None and worker != lease.worker:
        raise LeaseError(f"worker={_quote(worker)} does not match the lease's worker {_quote(lease.worker)}; give "
                         "one or the other (the lease says who you are)")
    return lease.worker


def fence(step: Step, lease: Lease) -> None:
    """Refuse a write under `lease` once the step (the task's current one, never done) has moved on from it: claimed
    again since (a newer attempt, by another worker or by a new process under the same name), or let go (failed).
    A done step's late report is judged where done steps are (TaskStateStore._check).

    A lease's attempt number is its generation, a fencing token: a worker that froze past its lease and wakes
    carries an old one, so its late write is refused even when its name matches the new holder's."""
    if step.name != lease.step:
        raise LeaseLost(f"the lease of {lease.worker} is on step {lease.step}, not {step.name}; a write under a "
                        "lease is for the step it claimed", step=step.name)
    if step.attempts == lease.attempts and step.lease_owner == lease.worker and step.status == "running":
        return
    if step.attempts != lease.attempts:
        since = f"claimed again since (attempt {step.attempts}" + (f", by {step.lease_owner})"
                                                                   if step.lease_owner else ")")
    else:
        since = f"{step.status} since, and no longer held"
    raise LeaseLost(f"step {step.name} was {since}; the lease of {lease.worker} (attempt {lease.attempts}) is "
                    f"over, so this write is not recorded. Move on: claim the current step", step=step.name)


def claim_step(tx: Any, step: Step, worker: str, seconds: float, now: float, policy: Callable[[], RetryPolicy], *,
               strict: bool) -> Lease | None:
    """Claim `step` (the task's current one, its row locked) for `worker`, or say why not.

    None (strict=False) or a named error (strict=True): a live lease of another worker (LeaseHeld),
    a backoff not yet over (RetryLater), a step that gave up (GaveUp). A claim that would start
    an attempt past the limit gives the step up instead, and records why.
    """
    task_id = step.task_id
    live = step.lease_owner is not None and step.lease_expires is not None and step.lease_expires > now
    if live and step.lease_owner == worker:
        expires = lease_until(now, seconds, step.deadline)
        tx.set_lease(task_id, step.position, worker, expires)
        return Lease(task_id, step.name, worker, expires, step.attempts)
    if step.gave_up is not None:
        if strict:
            raise GaveUp(f"step {step.name} {step.gave_up}; the task cannot go on. To redo the work, create a new "
                         "task", task_id=task_id, step=step.name)
        return None
    if live:
        if not strict:
            return None
        raise LeaseHeld(f"step {step.name} is claimed by {step.lease_owner}, whose lease is live; only that "
                        "worker may update it until its lease expires (then claim it again)",
                        task_id=task_id, step=step.name)
    if step.status == "failed" and step.retry_at is not None and step.retry_at > now:
        if not strict:
            return None
        raise RetryLater(f"step {step.name} failed on attempt {step.attempts} and waits out its backoff: claim it "
                         f"again in {step.retry_at - now:.3g} s", retry_at=step.retry_at, task_id=task_id,
                         step=step.name)
    rules = policy()
    if step.status == "running":
        if _timed_out(step):
            whose = f"the attempt of {step.lease_owner} ran past its start-to-close bound"
        elif step.lease_owner:
            whose = f"the lease of {step.lease_owner} expired"
        else:
            whose = "it was running unclaimed"
        if rules.exhausted(step.attempts):
            reason = gave_up_reason(step.attempts, f"the last one never finished ({whose})")
            tx.update_step(task_id, step.position, "running", "failed", None, None, 0, None, None, gave_up=reason)
            tx.add_event(task_id, step.name, "gave_up", None, None, True, reason, f"claim {seconds:g} s", worker)
            if strict:
                raise GaveUp(f"step {step.name} {reason}; the task cannot go on. To redo the work, create a new "
                             "task", task_id=task_id, step=step.name)
            return None
        reason = f"claimed by {worker} for {seconds:g} s: taken over, {whose} (attempt {step.attempts + 1})"
    else:
        reason = f"claimed by {worker} for {seconds:g} s: {step.name} {step.status} -> running"
    deadline = None if rules.start_to_close is None else now + rules.start_to_close
    expires = lease_until(now, seconds, deadline)
    tx.update_step(task_id, step.position, step.status, "running", None, None, 1, worker, expires, deadline=deadline)
    tx.add_event(task_id, step.name, "running", None, None, True, reason, f"claim {seconds:g} s", worker)
    return Lease(task_id, step.name, worker, expires, step.attempts + 1, step.status == "running")


class LeaseMixin:
    """TaskStateStore's methods for several workers on one task list: claim, claim_next, heartbeat, finish."""

    _db: Any

    def _known_shape(self, task_id: Any) -> bool: ...  # pragma: no cover - the store's
    def _unknown_task_message(self, task_id: Any) -> str: ...  # pragma: no cover - the store's
    def _unknown_task_message_in(self, tx: Any, task_id: Any) -> str: ...  # pragma: no cover - the store's
    def _apply_in(self, tx: Any, task_id: str, proposal: Any, raw: str, worker: str | None,
                  lease: Lease | None = None) -> Any: ...  # pragma: no cover - the store's

    def claim(self, task_id: str, worker: str, lease_seconds: float = 30.0) -> Lease | None:
        """Claim the task's current step for `worker` until the lease runs out; None when the task is finished.

        A pending or failed step starts running (attempts + 1). A step whose lease expired is
        taken over (attempts + 1, logged). A live lease of another worker raises LeaseHeld;
        the holder claiming again just extends its lease. A failed step waiting out its backoff
        raises RetryLater; a step past its task's attempt limit gives up (GaveUp).
        """
        stop: GaveUp | None = None
        with self._lease_transaction(task_id, worker, lease_seconds) as (tx, seconds):
            try:
                return self._claim_in(tx, task_id, worker, seconds, strict=True)
            except GaveUp as gave_up:  # raised after COMMIT, so a step that gives up now stays given up
                stop = gave_up
        raise stop

    @contextmanager
    def _lease_transaction(self, task_id: str, worker: str, lease_seconds: float) -> Iterator[tuple[Any, float]]:
        """Check a lease request, then open one transaction with the task's row locked (claim and heartbeat)."""
        check_name(worker, "worker", LeaseError)
        seconds = check_seconds(lease_seconds)
        if not self._known_shape(task_id):
            raise UnknownTask(self._unknown_task_message(task_id))
        with self._db.transaction() as tx:
            if tx.lock_task(task_id) is None:
                raise UnknownTask(self._unknown_task_message_in(tx, task_id))
            yield tx, seconds

    def claim_next(self, worker: str, lease_seconds: float = 30.0,
                   task_ids: Sequence[str] | None = None) -> Lease | None:
        """Claim the current step of the first task (in id order) that nobody holds; None when there is none.

        `task_ids` limits the choice to a list of ids. On PostgreSQL the candidates are locked with
        FOR UPDATE SKIP LOCKED, so workers racing for one list never wait on each other or take one step.
        """
        check_name(worker, "worker", LeaseError)
        seconds = check_seconds(lease_seconds)
        task_ids = check_task_ids(task_ids)
        tried: list[str] = []
        while True:
            with self._db.transaction() as tx:
                now = read_clock(tx.now())
                task_id = tx.next_claimable(now, task_ids, tried)
                if task_id is None:
                    return None
                lease = self._claim_in(tx, task_id, worker, seconds, strict=False, now=now)
            if lease is not None:
                return lease
            tried.append(task_id)  # claimed by someone else between the look and the lock: try the next

    def _claim_in(self, tx: Any, task_id: str, worker: str, seconds: float, *, strict: bool,
                  now: float | None = None) -> Lease | None:
        now = read_clock(tx.now()) if now is None else now
        row = tx.current(task_id)
        if row is None:
            return None
        return claim_step(tx, step_from_row(task_id, row), worker, seconds, now,
                          lambda: RetryPolicy.from_row(tx.policy(task_id)), strict=strict)

    def heartbeat(self, task_id: str, worker: str, lease_seconds: float = 30.0, *, lease: Lease | None = None
                  ) -> Lease:
        """Extend `worker`'s live lease on the current step; LeaseExpired or LeaseHeld when it holds none.

        With `lease=`, only that lease is extended (LeaseLost once the step was claimed again since): a
        heartbeat thread waking in a frozen process never renews the lease of a new holder with its name."""
        if lease is not None:
            check_lease(lease, task_id, worker)
        with self._lease_transaction(task_id, worker, lease_seconds) as (tx, seconds):
            now = read_clock(tx.now())
            row = tx.current(task_id)
            step = None if row is None else step_from_row(task_id, row)
            if step is None or step.lease_owner is None:
                raise LeaseError(f"{worker} holds no lease on task {task_id}: claim its current step first",
                                 task_id=task_id)
            if lease is not None:
                fence(step, lease)
            lease_allows(step, worker, now)
            expires = lease_until(now, seconds, step.deadline)  # never past the attempt's start-to-close bound
            tx.set_lease(task_id, step.position, worker, expires)
            return Lease(task_id, step.name, worker, expires, step.attempts)


    def finish(self, lease: Lease, output: Any = None, *, then_claim: bool = True, lease_seconds: float = 30.0,
               task_ids: Sequence[str] | None = None) -> Lease | None:
        """Report the leased step done (checked like any proposal) and, in the same transaction, claim what is next.

        The next claim is the same task's next step when it has one (its row is already locked), else
        the first free task (SKIP LOCKED on PostgreSQL); None when nothing is free right now. One
        transaction instead of two is what makes a worker loop cheap. Refusals raise as `apply` does.
        """
        if not isinstance(lease, Lease):
            raise LeaseError(f"finish takes the Lease that claim or claim_next returned, got {_quote(lease)}")
        seconds = check_seconds(lease_seconds)
        wanted = check_task_ids(task_ids)
        proposal = {"step": lease.step, "status": "done", "output": output}
        raw = raw_text(proposal)
        claimed: Lease | None = None
        with self._db.transaction() as tx:
            _, failure = self._apply_in(tx, lease.task_id, proposal, raw, lease.worker, lease)
            if failure is None and then_claim:
                if wanted is None or lease.task_id in wanted:
                    claimed = self._claim_in(tx, lease.task_id, lease.worker, seconds, strict=False)
                if claimed is None:
                    now = read_clock(tx.now())
                    other = tx.next_claimable(now, wanted, [lease.task_id])
                    if other is not None:
                        claimed = self._claim_in(tx, other, lease.worker, seconds, strict=False, now=now)
        if failure is not None:  # raised after COMMIT, so the refusal stays in the log
            raise failure
        return claimed

    def open_tasks(self, task_ids: Sequence[str] | None = None) -> list[str]:
        """Tasks (of `task_ids`, or all) that can still move: a step not done and none given up. A drain loop
        stops when this is empty, in one query however many tasks there are."""
        wanted = check_task_ids(task_ids)
        with self._db.reading() as tx:
            return tx.open_tasks(wanted)
