"""Task workers as real processes that can be stopped at a named point and killed.

`python -m primer_memory.lessons.reconcile_worker run DB --worker NAME` runs the lesson's
reconcile job against the task file DB, resuming at the first unfinished step. Each
step is claimed with a lease (`--lease` seconds) that a background thread renews
while the worker is alive, so a second live worker waits instead of redoing the
step, and a killed worker's step is taken over once its lease expires.
With `--pause-at POINT` the worker prints `PAUSED POINT` when it gets there and
waits for a line on stdin, so a test (or the crash simulator) can SIGKILL it at
exactly that point. Points (`crash_points()`):

* `creating`          inside the transaction that creates the task
* `before:STEP`       at a step boundary: everything before STEP is done
* `running:STEP`      mid-job: STEP is claimed and running, its work not reported yet
* `writing:STEP`      mid-write: inside the transaction that marks STEP done, before COMMIT

While paused, the worker understands `continue` and `pause POINT`. If its stdin
closes, it exits. Nothing it prints contains a path, a pid or a time.

`lesson DB` makes the lesson's three proposals and waits to be killed; `drain` claims
steps from a whole task list until none is left (`--dsn` for PostgreSQL); `propose DB
TASK JSON` makes one proposal; `status DB` prints the steps as a new process sees them.
"""

from __future__ import annotations

import argparse
import os
import sys
import threading
import time
from collections.abc import Callable, Sequence
from typing import Any, TextIO

from .examples import (
    RECONCILE_GOAL,
    RECONCILE_OUTPUTS,
    RECONCILE_PROPOSALS,
    RECONCILE_STEP_NAMES,
    RECONCILE_STEPS,
    RECONCILE_TASK_ID,
)
from ..tasks.process import WorkerError, WorkerProcess
from ..tasks.store import (
    GaveUp,
    InvalidTask,
    InvalidUpdate,
    Lease,
    LeaseError,
    LeaseHeld,
    RetryLater,
    StoreBusy,
    TaskStateStore,
    retry_busy,
    steps_table,
)

__all__ = ["WorkerError", "WorkerProcess", "crash_points", "start_worker", "start_drainer", "reconcile", "main",
           "DEFAULT_LEASE"]

DEFAULT_LEASE = 2.0  # seconds; the heartbeat renews it four times a lease while the worker lives
IDLE_FIRST, IDLE_MOST = 0.002, 0.05  # a drainer with nothing to claim waits 2 ms, doubling up to 50 ms


def crash_points(step_names: Sequence[str] = RECONCILE_STEP_NAMES) -> list[str]:
    """Every point the reconcile worker can be stopped at, in the order it passes them."""
    points = ["creating"]
    for name in step_names:
        points += [f"before:{name}", f"running:{name}", f"writing:{name}"]
    return points


# --------------------------------------------------------------------------- inside the worker process


class _Pauser:
    """Stops at the chosen point: says PAUSED, then waits for an instruction on stdin."""

    def __init__(self, point: str | None, out: TextIO, inp: TextIO):
        self.point = point
        self.out = out
        self.inp = inp

    def say(self, line: str) -> None:
        print(line, file=self.out, flush=True)

    def at(self, point: str) -> None:
        if point != self.point:
            return
        self.say(f"PAUSED {point}")
        line = self.inp.readline()
        if not line:  # the parent went away: stop rather than run on unwatched
            self.say("STOPPED: stdin closed")
            raise SystemExit(3)
        command = line.strip()
        self.point = command.split(" ", 1)[1] if command.startswith("pause ") else None


class _Heartbeat:
    """Renews this worker's lease from a thread with its own connection, for as long as the process lives."""

    def __init__(self, opener: Any, worker: str, lease: float):
        self._opener, self._worker, self._lease = opener, worker, lease
        self._held: Lease | None = None
        self._lock = threading.Lock()
        self.lost: str | None = None
        threading.Thread(target=self._beat, daemon=True).start()

    def hold(self, lease: Lease | None) -> None:
        """Renew `lease` from now on (None: nothing); only that lease, fenced by its generation."""
        with self._lock:
            self._held = lease

    def _beat(self) -> None:
        store = self._opener()
        while True:
            time.sleep(self._lease / 4)
            with self._lock:
                held = self._held
            if held is None:
                continue
            try:
                store.heartbeat(held.task_id, self._worker, self._lease, lease=held)
            except LeaseError as lost:
                self.lost = str(lost)
            except Exception:  # the file is locked by our own paused write, or busy: try again next beat
                pass


def _claim_waiting(store: TaskStateStore, task_id: str, worker: str, lease: float, pauser: _Pauser) -> Any:
    """Claim the current step, waiting while another live worker holds it (what it prints depends on the file only)."""
    current = store.current_step(task_id)
    live = current is not None and (current.lease_expires or 0.0) > time.time()  # the SQLite store's own clock
    if live and current.lease_owner not in (None, worker) and current.status == "running":
        pauser.say(f"WAITING: {current.name} is claimed by {current.lease_owner}; "
                   "waiting until that worker finishes or its lease runs out")
    while True:
        try:
            return store.claim(task_id, worker, lease)
        except (LeaseHeld, RetryLater):  # another live worker holds it, or it waits out its backoff
            time.sleep(min(0.1, lease / 10))


def reconcile(store: TaskStateStore, pauser: _Pauser, task_id: str = RECONCILE_TASK_ID, *,
              worker: str = "worker", lease: float = DEFAULT_LEASE, heartbeat: _Heartbeat | None = None) -> int:
    """Run (or resume) the reconcile job: claim each unfinished step, in order, do it, report it."""
    if task_id not in store.tasks():
        pauser.say(f"STARTING {task_id}: creating {len(RECONCILE_STEPS)} steps")
        try:
            store.create_task(task_id, RECONCILE_GOAL, RECONCILE_STEPS)
        except InvalidTask:  # another worker created it between our look and our write
            if task_id not in store.tasks():
                raise
    else:
        current = store.current_step(task_id)
        where = f"at {current.name} ({current.status})" if current else "with nothing left to do"
        pauser.say(f"RESUMING {task_id} {where}")
    retried = _busy_retrier(pauser.say)

    while (step := store.current_step(task_id)) is not None:
        pauser.at(f"before:{step.name}")
        try:
            lease_ = retried(lambda: _claim_waiting(store, task_id, worker, lease, pauser))
        except GaveUp as stop:
            pauser.say(f"GAVE UP: {stop}")
            return 5
        if lease_ is None:
            break
        if heartbeat is not None:
            heartbeat.hold(lease_)
        if lease_.taken_over:
            pauser.say(f"{lease_.step}: taken over, the last holder's lease had expired (attempt {lease_.attempts})")
        else:
            pauser.say(f"{lease_.step}: running ({worker})")
        pauser.at(f"running:{lease_.step}")
        output = RECONCILE_OUTPUTS[lease_.step]  # the work itself; a real job would call an API here
        try:
            retried(lambda: store.apply(task_id, {"step": lease_.step, "status": "done", "output": output},
                                        lease=lease_))
        except LeaseError as lost:  # paused past its lease: report it, then go on from the task's current step
            pauser.say(f"LOST LEASE: {lost}")
            continue
        finally:
            if heartbeat is not None:
                heartbeat.hold(None)
        pauser.say(f"{lease_.step}: done -> {output}")
    pauser.say(f"FINISHED: all {len(store.steps(task_id))} steps done")
    return 0


def _busy_retrier(say: Callable[[str], None], bound: float = 300.0) -> Callable[[Callable[[], Any]], Any]:
    """Run a store call through `retry_busy`, saying BUSY at each wait: a peer frozen inside a write holds this
    worker up, never crashes it."""
    def busy(error: StoreBusy, wait: float) -> None:
        say(f"BUSY: the store is locked by another worker; trying again in {wait:g} s")

    return lambda operation: retry_busy(operation, bound=bound, on_busy=busy)


def _timeout(args: argparse.Namespace) -> dict[str, float]:
    """The store's own wait for a lock (SQLite's busy timeout), when the command line gives one."""
    return {"timeout": args.timeout} if getattr(args, "timeout", None) is not None and not args.dsn else {}


def _open(args: argparse.Namespace, **kwargs: Any) -> TaskStateStore:
    if getattr(args, "dsn", None):
        return TaskStateStore(dsn=args.dsn, schema=args.schema, **kwargs)
    return TaskStateStore(args.db, **kwargs)


def _run(args: argparse.Namespace) -> int:
    pauser = _Pauser(args.pause_at, sys.stdout, sys.stdin)

    def hook(point: str, task_id: str, step: str | None, status: str | None) -> None:
        if point == "creating":
            pauser.at("creating")
        elif point == "written" and status == "done":
            pauser.at(f"writing:{step}")

    beat = _Heartbeat(lambda: _open(args), args.worker, args.lease)
    with _open(args, hook=hook) as store:
        return reconcile(store, pauser, args.task, worker=args.worker, lease=args.lease, heartbeat=beat)


def _lesson(args: argparse.Namespace) -> int:
    """The lesson's worked example as it stands in a process: create, three proposals, then wait to be killed."""
    store = TaskStateStore(args.db)
    store.create_task(RECONCILE_TASK_ID, RECONCILE_GOAL, RECONCILE_STEPS)
    for proposal, _ in RECONCILE_PROPOSALS:
        try:
            step = store.apply(RECONCILE_TASK_ID, proposal)
            print(f"written  {step.name} {step.status} {step.output!r}", flush=True)
        except InvalidUpdate as refusal:
            print(f"refused  {proposal['step']} {proposal['status']}: {refusal}", flush=True)
    print("PAUSED with the store still open; kill me", flush=True)
    sys.stdin.readline()
    return 0


def _drain(args: argparse.Namespace) -> int:
    """Claim and finish steps from the whole task list until every task is done (used by many workers at once)."""
    beat = _Heartbeat(lambda: _open(args, **_timeout(args)), args.worker, args.lease)
    finished = 0

    retried = _busy_retrier(lambda line: print(line, flush=True), args.busy_bound)

    with _open(args, **_timeout(args)) as store:
        print("READY", flush=True)
        if args.wait_go and sys.stdin.readline().strip() != "go":
            print("STOPPED: expected go", flush=True)
            return 3
        lease: Any = None
        idle, waits = IDLE_FIRST, 0
        while True:
            if lease is None:
                lease = retried(lambda: store.claim_next(args.worker, args.lease))
                if lease is None:
                    if not retried(store.open_tasks):
                        break
                    waits += 1
                    time.sleep(idle)  # every open step is held by a live lease: wait, a little longer each time
                    idle = min(idle * 2, IDLE_MOST, args.lease / 10)
                    continue
            idle = IDLE_FIRST
            beat.hold(lease)
            print(f"CLAIMED {lease.task_id} {lease.step} {lease.attempts}", flush=True)
            if args.work_ms:
                time.sleep(args.work_ms / 1000)
            done = lease
            try:  # report it done and claim the next step in one transaction
                lease = retried(lambda: store.finish(done, f"{done.step} ok", lease_seconds=args.lease))
            except LeaseError as lost:
                print(f"LOST {done.task_id} {done.step}: {lost}", flush=True)
                lease = None
                beat.hold(None)
                continue
            beat.hold(lease)
            finished += 1
            print(f"DONE {done.task_id} {done.step}", flush=True)
    print(f"FINISHED {finished} idle {waits}", flush=True)  # idle: times it found every open step held
    return 0


def _propose(args: argparse.Namespace) -> int:
    pauser = _Pauser(args.pause_at, sys.stdout, sys.stdin)

    def hook(point: str, task_id: str, step: str | None, status: str | None) -> None:
        pauser.at(point)

    with TaskStateStore(args.db, hook=hook) as store:
        if args.wait_go:
            pauser.say("READY")
            if sys.stdin.readline().strip() != "go":
                pauser.say("STOPPED: expected go")
                return 3
        pauser.say("PROPOSING")
        try:
            step = store.apply(args.task, args.proposal, worker=args.worker)
        except InvalidUpdate as refusal:
            pauser.say(f"REFUSED {refusal.reason}")
        else:
            pauser.say(f"ACCEPTED {step.name} {step.status}")
    return 0


def _status(args: argparse.Namespace) -> int:
    with TaskStateStore(args.db) as store:
        print(f"integrity_check: {store.integrity_check()}")
        if args.task not in store.tasks():
            print(f"no task {args.task} in the file: it was never created, or its creation never committed")
            return 0
        print(steps_table(store.step_details(args.task)))
        print(f"next step: {store.next_step(args.task) or 'none, the task is finished'}")
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    """Command line: run | lesson | drain | propose | status (see the module docstring)."""
    parser = argparse.ArgumentParser(prog="python -m primer_memory.lessons.reconcile_worker")
    commands = parser.add_subparsers(dest="command", required=True)
    run = commands.add_parser("run", help="run or resume the reconcile job")
    run.add_argument("db")
    run.add_argument("--task", default=RECONCILE_TASK_ID)
    run.add_argument("--pause-at", choices=crash_points(), default=None)
    lesson = commands.add_parser("lesson", help="the lesson's three proposals, then wait to be killed")
    lesson.add_argument("db")
    drain = commands.add_parser("drain", help="claim and finish steps of every task until all are done")
    drain.add_argument("db", nargs="?")
    drain.add_argument("--dsn", default=None)
    drain.add_argument("--schema", default="primer_tasks")
    drain.add_argument("--work-ms", type=float, default=0.0)
    drain.add_argument("--wait-go", action="store_true", help="after READY, wait for 'go' on stdin")
    drain.add_argument("--timeout", type=float, default=None, help="seconds the store waits for a lock (SQLite)")
    drain.add_argument("--busy-bound", type=float, default=300.0,
                       help="seconds a busy store is retried before the worker gives up")
    for sub in (run, drain):
        sub.add_argument("--worker", default=f"worker-{os.getpid()}")
        sub.add_argument("--lease", type=float, default=DEFAULT_LEASE)
    propose = commands.add_parser("propose", help="make one proposal from this process")
    propose.add_argument("db")
    propose.add_argument("task")
    propose.add_argument("proposal", help="the proposal as JSON")
    propose.add_argument("--worker", default=None)
    propose.add_argument("--pause-at", choices=("checked", "written"), default=None)
    propose.add_argument("--wait-go", action="store_true", help="print READY and wait for 'go' on stdin")
    status = commands.add_parser("status", help="print the steps as a new process sees them")
    status.add_argument("db")
    status.add_argument("--task", default=RECONCILE_TASK_ID)
    args = parser.parse_args(argv)
    handlers = {"run": _run, "lesson": _lesson, "drain": _drain, "propose": _propose, "status": _status}
    return handlers[args.command](args)


def start_worker(db: str | os.PathLike[str], *, pause_at: str | None = None, task_id: str = RECONCILE_TASK_ID,
                 worker: str = "worker A", lease: float = DEFAULT_LEASE) -> WorkerProcess:
    """Start the reconcile job in a new process on the task file `db` as `worker`, optionally stopping at `pause_at`."""
    args = ["run", os.fspath(db), "--task", task_id, "--worker", worker, "--lease", str(lease)]
    if pause_at is not None:
        if pause_at not in crash_points():
            raise ValueError(f"unknown point {pause_at!r}; choose one of {', '.join(crash_points())}")
        args += ["--pause-at", pause_at]
    return WorkerProcess(*args)


def start_drainer(worker: str, *, db: str | os.PathLike[str] | None = None, dsn: str | None = None,
                  schema: str = "primer_tasks", lease: float = DEFAULT_LEASE, work_ms: float = 0.0,
                  wait_go: bool = False, timeout: float | None = None) -> WorkerProcess:
    """Start a worker process that claims and finishes steps of every task (a file, or PostgreSQL) until none is left.

    A store busy past its `timeout` (a peer frozen inside a write) is retried with backoff (`tasks.retry_busy`),
    each wait announced with a BUSY line, never a crash."""
    args = ["drain"] + ([os.fspath(db)] if db is not None else [])
    if dsn is not None:
        args += ["--dsn", dsn, "--schema", schema]
    extra = ["--wait-go"] if wait_go else []
    if timeout is not None:
        extra += ["--timeout", str(timeout)]
    return WorkerProcess(*args, "--worker", worker, "--lease", str(lease), "--work-ms", str(work_ms), *extra)


if __name__ == "__main__":
    sys.exit(main())
