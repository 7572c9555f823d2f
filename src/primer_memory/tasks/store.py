"""Task state outside the model: the steps of a multi-step job, kept in a database.

The model proposes an update as JSON (`{"step": ..., "status": ..., "output": ...}`);
`TaskStateStore.apply` checks it against the task's state machine and writes it
only if every check passes. The check and the write happen in one transaction
that locks the task first, so two processes proposing at once cannot both move
the same step, and a crash leaves either the old state or the new one. Every
proposal for a task that exists, accepted or refused, is appended to its event log
(refusals up to a bound per task, `task_checks.MAX_REFUSED_EVENTS`, so a model stuck in
a loop cannot grow the file without end).

The state machine (`TRANSITIONS`):

* pending -> running, done or failed. Going straight to done (or failed) is an
  *implicit run*: the step was started and finished in one update.
* running -> done or failed.
* failed  -> running: a retry must be proposed explicitly, so it shows in the log.
* done    -> nothing. A done step is final: later steps were built on its output.

Only the current step -- the first step that is not done -- may move, so no
step is ever skipped.

Leases (optional): with one process, `apply` is all you need. With several
workers, each `claim`s the current step for a while (`lease_seconds`); while the
lease is live only its holder's proposals are accepted, `heartbeat` extends it,
and once it expires (the holder died or stalled) another worker may claim the step
again (attempts + 1). A step nobody claimed accepts proposals from anyone.

Retries (`RetryPolicy`, kept with each task): a step starts at most `max_attempts` times, a claim
after a failure waits out an exponential backoff, and `start_to_close` bounds one attempt however
often its lease is renewed. When the last attempt fails or never finishes, the step gives up: it
stays failed, keeps its reason (`Step.gave_up`, a "gave_up" event) and takes nothing more.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Mapping, Sequence
from dataclasses import replace
from typing import Any

from .checks import check_settings, read_clock, refusal_for_log, step_items
from .leases import LeaseMixin, check_lease, fence, lease_allows, step_from_row
from .retry import DEFAULT_RETRY, GaveUp, LeaseLost, RetryLater, RetryPolicy, StepTimedOut, gave_up_reason, retry_busy
from .rules import (
    BUILTIN_VALIDATORS,
    MAX_GOAL_CHARS,
    PROPOSAL_FIELDS,
    STATUSES,
    TRANSITIONS,
    ClockError,
    Event,
    Hook,
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
    TaskIdNotText,
    UnknownTask,
    Validator,
    _quote,
    check_name,
    count_text,
    decode_output,
    encode_output,
    events_table,
    list_names,
    parse,
    peek,
    raw_text,
    short_text,
    steps_table,
    transition_problem,
)

__all__ = [
    "STATUSES", "TRANSITIONS", "PROPOSAL_FIELDS", "BUILTIN_VALIDATORS", "ClockError", "Event", "InvalidTask",
    "InvalidUpdate", "GaveUp", "Lease", "LeaseError", "LeaseExpired", "LeaseHeld", "LeaseLost", "RetryLater",
    "RetryPolicy", "Step", "StepTimedOut", "StoreBusy", "StoreDamaged",
    "TaskFileError", "TaskIdNotText", "TaskStateStore", "UnknownTask", "count_text", "short_text", "events_table",
    "retry_busy", "steps_table",
]


_step = step_from_row


class TaskStateStore(LeaseMixin):
    """Tasks and their steps in a database; the code, not the model, decides what is written.

    `TaskStateStore(path)` keeps them in one SQLite file; `TaskStateStore(dsn="postgresql://...")`
    on a PostgreSQL server (same API, same rules; `schema=` names the PostgreSQL schema).
    `validators` names extra output checks (beyond `BUILTIN_VALIDATORS`): a check gets
    the proposed output of a step going to done and returns None or True when it is
    fine, False or a text saying what is wrong. A process that reopens the store must
    be given the same checks. `hook(point, task_id, step, status)` is called at named
    points inside a write transaction ("creating", "checked", "written") so tests and
    the crash simulator can stop a process there. `clock` (seconds) times leases.
    On PostgreSQL, `scope=` (a `Scope`: tenant and user) is whose tasks this store sees and
    writes, enforced by row-level security (default: tenant 'default', user 'tasks').
    `timeout` is how long a write waits for another program's lock before StoreBusy.
    `retry` is the `RetryPolicy` of tasks created without one (attempt limit, backoff, start-to-close).
    """

    def __init__(self, path: str | os.PathLike[str] | None = None, *, dsn: str | None = None,
                 schema: str = "primer_tasks", validators: Mapping[str, Validator] | None = None,
                 hook: Hook | None = None, timeout: float = 30.0, clock: Callable[[], float] | None = None,
                 scope: Any = None, retry: RetryPolicy = DEFAULT_RETRY):
        check_settings(timeout, clock, hook)
        if not isinstance(retry, RetryPolicy):
            raise TaskFileError(f"retry must be a RetryPolicy(max_attempts=..., ...), got {_quote(retry)}")
        self._retry = retry
        self._validators: dict[str, Validator] = dict(BUILTIN_VALIDATORS)
        for name, fn in (validators or {}).items():
            self._register(name, fn)
        self._hook = hook
        if (path is None) == (dsn is None):
            raise TaskFileError("give either a file path (SQLite) or dsn= (PostgreSQL), not both or neither")
        if dsn is not None:
            from .storage.postgres import PostgresTasks

            self._db: Any = PostgresTasks(dsn, schema=schema, clock=clock, scope=scope)
        elif scope is not None:
            raise TaskFileError("scope= binds a PostgreSQL task store to one tenant and user; an SQLite file "
                                "belongs to whoever opens it: give dsn= or leave scope out")
        else:
            from .storage.sqlite import SQLiteTasks

            self._db = SQLiteTasks(path, timeout=timeout, clock=clock)  # type: ignore[arg-type]

    # ----------------------------------------------------------------- plumbing

    def close(self) -> None:
        """Close the connection; committed updates are already stored."""
        self._db.close()

    def __enter__(self) -> TaskStateStore:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def _call_hook(self, point: str, task_id: str, step: str | None, status: str | None) -> None:
        if self._hook is not None:
            self._hook(point, task_id, step, status)

    def _register(self, name: str, fn: Validator) -> None:
        if not isinstance(name, str) or not name.isidentifier():
            raise InvalidTask(f"a validator needs a plain name (letters, digits, _), got {name!r}")
        if not callable(fn):
            raise InvalidTask(f"validator {name!r} must be a function of the output, got {fn!r}")
        known = self._validators.get(name)
        if known is not None and known is not fn:
            raise InvalidTask(f"another check is already called {name!r}; give this one a different name")
        self._validators[name] = fn

    def _validator_name(self, step: str, check: Any) -> str | None:
        if check is None:
            return None
        if isinstance(check, str):
            if check not in self._validators:
                raise InvalidTask(f"step {step!r} names check {check!r}, which this store does not know; "
                                  f"known checks: {', '.join(sorted(self._validators))}")
            return check
        name = getattr(check, "__name__", None)
        if not callable(check) or not isinstance(name, str) or not name.isidentifier():
            raise InvalidTask(f"step {step!r}: a check must be a named function (def ...), not {check!r}, "
                              "because the store keeps its name and a new process must find it again")
        self._register(name, check)
        return name

    # ----------------------------------------------------------------- creating and reading

    def create_task(self, task_id: str, goal: str,
                    steps: Sequence[str | tuple[str, Validator | str | None]] | Mapping[str, Validator | str | None],
                    *, retry: RetryPolicy | None = None) -> list[tuple[str, str, Any]]:
        """Write a task and all its steps (status pending) in one transaction: all of it or none of it.

        Each step is a name, or a (name, check) pair where the check is a named function of the
        output or the name of a known check; a mapping {name: check or None} works too.
        A task has at most `MAX_STEPS` (1,000) steps. `retry` (default: the store's) is kept with the task,
        so every process retries its steps alike. Two writers creating one id at once: one gets InvalidTask.
        """
        if retry is not None and not isinstance(retry, RetryPolicy):
            raise InvalidTask(f"retry must be a RetryPolicy(max_attempts=..., ...), got {_quote(retry)}")
        policy = (retry or self._retry).as_row()
        check_name(task_id, "task_id", InvalidTask)
        if not isinstance(goal, str):
            raise InvalidTask(f"goal must be a string, got {type(goal).__name__}")
        if goal:
            check_name(goal, "goal", InvalidTask, MAX_GOAL_CHARS)
        rows = [(position, name, self._validator_name(name, check))
                for position, (name, check) in enumerate(step_items(task_id, steps), start=1)]
        with self._db.transaction() as tx:
            if tx.lock_task(task_id) is not None or not tx.insert_task(task_id, goal, rows, policy):
                raise InvalidTask(f"task {task_id!r} already exists; pick a new id, or read it with steps()")
            self._call_hook("creating", task_id, None, None)
        return self.steps(task_id)

    def tasks(self) -> list[str]:
        """Every task id in the store, in id order."""
        with self._db.reading() as tx:
            return tx.task_ids()

    def goal(self, task_id: str) -> str:
        """The goal the task was created with."""
        with self._db.reading() as tx:
            goal = tx.lock_task(task_id) if self._known_shape(task_id) else None
        if goal is None:
            raise UnknownTask(self._unknown_task_message(task_id))
        return goal

    @staticmethod
    def _known_shape(task_id: Any) -> bool:
        try:
            check_name(task_id, "task_id", UnknownTask)
        except UnknownTask:
            return False
        return True

    def _unknown_task_message(self, task_id: Any) -> str:
        known = self.tasks()
        listed = ", ".join(known[:10]) + (", ..." if len(known) > 10 else "") if known else "none yet"
        return f"no task {_quote(task_id)} in this store; known tasks: {listed}"

    def step_details(self, task_id: str) -> list[Step]:
        """Every step of a task, in order, as rich `Step` values (attempts, check, lease)."""
        found: list[Step] = []
        if self._known_shape(task_id):
            with self._db.reading() as tx:
                found = [_step(task_id, r) for r in tx.steps(task_id)]
        if not found:
            raise UnknownTask(self._unknown_task_message(task_id))
        return found

    def steps(self, task_id: str) -> list[tuple[str, str, Any]]:
        """Every step of a task, in order, as (name, status, output): `for name, status, _ in store.steps(t)`."""
        return [(s.name, s.status, s.output) for s in self.step_details(task_id)]

    def current_step(self, task_id: str) -> Step | None:
        """The current step as a rich `Step`: the first one that is not done (None when the task is finished)."""
        return next((s for s in self.step_details(task_id) if s.status != "done"), None)

    def next_step(self, task_id: str) -> str | None:
        """The name of the current step, the first one that is not done (None when the task is finished)."""
        current = self.current_step(task_id)
        return None if current is None else current.name

    def events(self, task_id: str) -> list[Event]:
        """Every proposal and claim made for this task, accepted or refused, in the order they were decided."""
        if not self._known_shape(task_id):
            return []
        with self._db.reading() as tx:  # decoded inside, so a damaged row is reported with the file's name
            return [Event(task_id, q, st, s, decode_output(o, k, f"the output of event {q} of task {_quote(task_id)}"),
                          a, r, p, w) for q, st, s, o, k, a, r, p, w in tx.events(task_id)]

    def integrity_check(self) -> str:
        """The database's own check of its storage: 'ok' when every page and index is sound."""
        return self._db.integrity_check()

    def step_for_prompt(self, task_id: str) -> str:
        """One line for the prompt: the goal, the current step and what the finished steps produced."""
        steps = self.step_details(task_id)
        current = next((s for s in steps if s.status != "done"), None)
        finished = "; ".join(f"{s.name} -> {s.output}" for s in steps if s.status == "done") or "nothing yet"
        if current is None:
            head = f"all {len(steps)} steps are done"
        else:
            head = f"{current.name} (step {current.position} of {len(steps)}, {current.status})"
        return f"{head}. Goal: {self.goal(task_id)}. Done so far: {finished}."

    # ----------------------------------------------------------------- the one place that decides

    def _check(self, tx: Any, task_id: str, fields: dict[str, Any], worker: str | None,
               lease: Lease | None = None) -> tuple[Step, str, str]:
        """Every rule, in order; the first that fails raises InvalidUpdate with what is allowed instead."""
        name, status = fields["step"], fields["status"]
        found = tx.step_named(task_id, name)
        if found is None:
            raise InvalidUpdate(f"task {task_id} has no step {_quote(name)}; its steps are "
                                f"{list_names(r[1] for r in tx.steps(task_id))}")
        step = _step(task_id, found)
        row = found if step.status != "done" and step.position == 1 else tx.current(task_id)
        current = None if row is None else _step(task_id, row)
        if step.status == "done":
            finisher = tx.done_by(task_id, name) if worker is not None else None
            newer = lease is not None and lease.step == name and lease.attempts != step.attempts
            if finisher not in (None, worker) or newer:  # the generation tells a restarted namesake apart
                attempt = f" (its attempt {lease.attempts}; the step was done on attempt {step.attempts})" \
                    if newer and lease is not None else ""
                raise LeaseLost(f"step {name} was finished by {finisher} after the lease of {worker} ran out"
                                f"{attempt}; {worker}'s result is not recorded. Move on: claim the next step",
                                step=name)
            after = f"the current step is {current.name}" if current else "every step of this task is done"
            raise InvalidUpdate(f"step {name} is already done (output {_quote(step.output)}); a done step is final: "
                                f"{after}. To redo the work, create a new task")
        assert current is not None  # some step is not done: this one
        if step.name != current.name:
            raise InvalidUpdate(f"step {name} is not the current step: the current step is {current.name} "
                                f"(steps run in order: {list_names(r[1] for r in tx.steps(task_id))})")
        if step.gave_up is not None:
            raise GaveUp(f"step {name} {step.gave_up}; it takes no more proposals, and the task cannot go on. "
                         "To redo the work, create a new task", step=name)
        if lease is not None:
            fence(step, lease)  # the lease's generation: a frozen holder's late write is refused, even under its name
        if step.lease_owner is not None:  # the clock is read only for a claimed step (one round trip less)
            lease_allows(step, worker, read_clock(tx.now()))
        problem = transition_problem(name, step.status, status, step.output)
        if problem is not None:
            raise InvalidUpdate(problem)
        if status == "done" and step.validator is not None:
            self._check_output(step, fields.get("output"))
        implicit = " (started and finished in one update)" if step.status == "pending" and status != "running" else ""
        by = f" by {worker}" if worker else ""
        return step, status, f"accepted: {name} {step.status} -> {status}{implicit}{by}"

    def _check_output(self, step: Step, output: Any) -> None:
        check = self._validators.get(step.validator or "")
        if check is None:
            raise InvalidUpdate(
                f"step {step.name} is checked by {_quote(step.validator)}, which this process was not given, so its "
                f"output cannot be checked; open the store with validators={{{step.validator!r}: ...}}")
        try:
            verdict = check(output)
        except Exception as error:  # a check that crashes is a failed check, reported with its error
            verdict = f"the check raised {type(error).__name__}: {error}"
        if verdict is not None and verdict is not True:  # None or True: fine; False or a text: not
            problem = verdict if isinstance(verdict, str) and verdict else f"the check returned {verdict!r}"
            raise InvalidUpdate(f"output {_quote(output)} for step {step.name} fails the "
                                f"{_quote(step.validator)} check: {problem}")

    def apply(self, task_id: str, proposal: Mapping[str, Any] | str, *, worker: str | None = None,
              lease: Lease | None = None) -> Step:
        """Check a proposed update and write it, in one transaction; return the step as written.

        A refused proposal raises InvalidUpdate and changes nothing but the task's event log, which
        keeps its first MAX_LOGGED_PROPOSAL_CHARS (1,000) characters, for at most MAX_REFUSED_EVENTS
        (500) refusals per task: later ones are refused, not logged. A proposal for a task that does
        not exist changes nothing at all. Give `worker=` when steps are claimed, or better the `lease=` that
        `claim` returned: a write under a lease is fenced by its generation (its attempt number), so a worker that
        froze past its lease cannot write once the step was claimed again, even by a new process under its name
        (LeaseLost). A freeze between the check and COMMIT cannot be fenced: the write lock it holds keeps every
        other worker out of the task meanwhile, so nobody else takes the step over.
        """
        if not isinstance(task_id, str):
            raise TaskIdNotText(f"task_id must be a string such as 'q3-close', got {type(task_id).__name__}")
        if worker is not None:
            check_name(worker, "worker", InvalidUpdate)
        if lease is not None:
            worker = check_lease(lease, task_id, worker)
        if not self._known_shape(task_id):
            raise InvalidUpdate(self._unknown_task_message(task_id), task_id=task_id)
        raw = raw_text(proposal)
        with self._db.transaction() as tx:
            written, failure = self._apply_in(tx, task_id, proposal, raw, worker, lease)
        if failure is not None:  # raised after COMMIT, so the refusal stays in the log
            raise failure
        return written  # type: ignore[return-value]

    def _apply_in(self, tx: Any, task_id: str, proposal: Any, raw: str, worker: str | None,
                  lease: Lease | None = None) -> tuple[Step | None, InvalidUpdate | None]:
        """Check and write one proposal inside an open transaction: (the step as written, None) or (None, refusal)."""
        failure: InvalidUpdate | None = None
        written: Step | None = None
        if tx.lock_task(task_id) is None:
            failure = InvalidUpdate(self._unknown_task_message_in(tx, task_id), task_id=task_id)
        else:
            try:
                fields = parse(proposal)
                step, status, reason = self._check(tx, task_id, fields, worker, lease)
            except ClockError:
                raise  # the store's fault, not the proposal's: nothing is logged, the transaction rolls back
            except InvalidUpdate as refusal:
                name, asked = peek(proposal)
                refusal.task_id, refusal.step, refusal.status = task_id, name, asked
                logged = refusal_for_log(refusal, raw, tx.refused_count(task_id))
                if logged is not None:
                    refusal.seq = tx.add_event(task_id, name, asked, None, None, False, refusal.reason, logged,
                                               worker)
                failure = refusal
            else:
                self._call_hook("checked", task_id, step.name, status)
                output, kind = encode_output(fields.get("output"))
                started = 1 if step.status in ("pending", "failed") else 0
                keep = status == "running"  # a lease lasts while the step runs; done or failed ends it
                owner = step.lease_owner if keep else None
                expires = step.lease_expires if keep else None
                retry_at, gave_up = self._after_failure(tx, task_id, step, status, started, output)
                if tx.update_step(task_id, step.position, step.status, status, output, kind, started, owner,
                                  expires, retry_at=retry_at, deadline=step.deadline if keep else None,
                                  gave_up=gave_up) != 1:  # impossible under the lock; refuse to commit
                    raise RuntimeError(f"step {step.name!r} changed under us; nothing was written")
                tx.add_event(task_id, step.name, status, output, kind, True, reason, raw, worker)
                if gave_up is not None:
                    tx.add_event(task_id, step.name, "gave_up", None, None, True, gave_up, "retry limit", worker)
                self._call_hook("written", task_id, step.name, status)
                written = replace(step, status=status, output=decode_output(output, kind),
                                  attempts=step.attempts + started, lease_owner=owner, lease_expires=expires,
                                  retry_at=retry_at, deadline=step.deadline if keep else None, gave_up=gave_up)
        return written, failure

    @staticmethod
    def _after_failure(tx: Any, task_id: str, step: Step, status: str, started: int,
                       output: str | None) -> tuple[float | None, str | None]:
        """A failed attempt: when the next claim may come (backoff), or why the step gives up (its last attempt)."""
        if status != "failed":
            return None, None
        policy = RetryPolicy.from_row(tx.policy(task_id))
        attempts = step.attempts + started
        if policy.exhausted(attempts):
            return None, gave_up_reason(attempts, f"the last one failed with {_quote(output)}")
        return read_clock(tx.now()) + policy.delay(attempts), None

    def _unknown_task_message_in(self, tx: Any, task_id: Any) -> str:
        known = tx.task_ids()
        listed = ", ".join(known[:10]) + (", ..." if len(known) > 10 else "") if known else "none yet"
        return f"no task {_quote(task_id)} in this store; known tasks: {listed}"
