"""The reconcile job as a real process that can be stopped at a named point and killed.

`python -m primer_memory.task_state_worker run DB` runs the lesson's reconcile
job against the task file DB, resuming at the first unfinished step.
With `--pause-at POINT` the worker prints `PAUSED POINT` when it gets there and
waits for a line on stdin, so a test (or the crash simulator) can SIGKILL it at
exactly that point instead of sleeping and hoping. Points (`crash_points()`):

* `creating`          inside the transaction that creates the task
* `before:STEP`       at a step boundary: everything before STEP is done
* `running:STEP`      mid-job: STEP is marked running, its work not reported yet
* `writing:STEP`      mid-write: inside the transaction that marks STEP done, before COMMIT

While paused, the worker understands `continue` (run on) and `pause POINT`
(run on and stop at POINT). If its stdin closes, it exits: a worker never
outlives the process that started it. Nothing it prints contains a path, a pid
or a time, so notebooks can show its output.

`propose DB TASK JSON` makes one proposal from its own process (for the test
that two processes proposing at once cannot both move a step); `status DB`
prints the steps as a new process sees them.
"""

from __future__ import annotations

import argparse
import os
import queue
import signal
import subprocess
import sys
import threading
from collections.abc import Sequence
from pathlib import Path
from typing import TextIO

from .examples import RECONCILE_GOAL, RECONCILE_OUTPUTS, RECONCILE_STEP_NAMES, RECONCILE_STEPS, RECONCILE_TASK_ID
from .task_state import InvalidUpdate, TaskStateStore, steps_table

__all__ = ["WorkerError", "WorkerProcess", "crash_points", "start_worker", "reconcile", "main"]

INTERRUPTED = "interrupted: a worker died mid-step"


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
        if command.startswith("pause "):
            self.point = command.split(" ", 1)[1]
        else:
            self.point = None


def reconcile(store: TaskStateStore, pauser: _Pauser, task_id: str = RECONCILE_TASK_ID) -> None:
    """Run (or resume) the reconcile job: each unfinished step, in order, from what the file says."""
    if task_id not in store.tasks():
        pauser.say(f"STARTING {task_id}: creating {len(RECONCILE_STEPS)} steps")
        store.create_task(task_id, RECONCILE_GOAL, RECONCILE_STEPS)
    else:
        current = store.next_step(task_id)
        where = f"at {current.name} ({current.status})" if current else "with nothing left to do"
        pauser.say(f"RESUMING {task_id} {where}")
    while (step := store.next_step(task_id)) is not None:
        if step.status == "running":  # a worker died mid-step: record that before retrying
            store.apply(task_id, {"step": step.name, "status": "failed", "output": INTERRUPTED})
            pauser.say(f"{step.name}: failed ({INTERRUPTED})")
        pauser.at(f"before:{step.name}")
        store.apply(task_id, {"step": step.name, "status": "running"})
        pauser.say(f"{step.name}: running")
        pauser.at(f"running:{step.name}")
        output = RECONCILE_OUTPUTS[step.name]  # the work itself; a real job would call an API here
        store.apply(task_id, {"step": step.name, "status": "done", "output": output})
        pauser.say(f"{step.name}: done -> {output}")
    pauser.say(f"FINISHED: all {len(store.steps(task_id))} steps done")


def _run(args: argparse.Namespace) -> int:
    pauser = _Pauser(args.pause_at, sys.stdout, sys.stdin)

    def hook(point: str, task_id: str, step: str | None, status: str | None) -> None:
        if point == "creating":
            pauser.at("creating")
        elif point == "written" and status == "done":
            pauser.at(f"writing:{step}")

    with TaskStateStore(args.db, hook=hook) as store:
        reconcile(store, pauser, args.task)
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
            step = store.apply(args.task, args.proposal)
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
        print(steps_table(store.steps(args.task)))
        current = store.next_step(args.task)
        print(f"next step: {current.name if current else 'none, the task is finished'}")
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    """Command line: run | propose | status (see the module docstring)."""
    parser = argparse.ArgumentParser(prog="python -m primer_memory.task_state_worker")
    commands = parser.add_subparsers(dest="command", required=True)
    run = commands.add_parser("run", help="run or resume the reconcile job")
    run.add_argument("db")
    run.add_argument("--task", default=RECONCILE_TASK_ID)
    run.add_argument("--pause-at", choices=crash_points(), default=None)
    propose = commands.add_parser("propose", help="make one proposal from this process")
    propose.add_argument("db")
    propose.add_argument("task")
    propose.add_argument("proposal", help="the proposal as JSON")
    propose.add_argument("--pause-at", choices=("checked", "written"), default=None)
    propose.add_argument("--wait-go", action="store_true", help="print READY and wait for 'go' on stdin")
    status = commands.add_parser("status", help="print the steps as a new process sees them")
    status.add_argument("db")
    status.add_argument("--task", default=RECONCILE_TASK_ID)
    args = parser.parse_args(argv)
    return {"run": _run, "propose": _propose, "status": _status}[args.command](args)


# --------------------------------------------------------------------------- driving it from another process


class WorkerError(RuntimeError):
    """The worker did not print what was expected in time, or exited first; the message holds its output."""


class WorkerProcess:
    """A worker subprocess whose output is read line by line, with bounded waits and a sure kill.

    Use it as a context manager: on exit the process is killed if still alive,
    so a failing test leaves nothing behind.
    """

    def __init__(self, *args: str):
        src = str(Path(__file__).resolve().parent.parent)
        env = dict(os.environ)
        env["PYTHONPATH"] = src + (os.pathsep + env["PYTHONPATH"] if env.get("PYTHONPATH") else "")
        env["PYTHONUNBUFFERED"] = "1"
        self._proc = subprocess.Popen(
            [sys.executable, "-m", "primer_memory.task_state_worker", *args],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
            text=True, bufsize=1, env=env,
        )
        self.lines: list[str] = []
        self.errors: list[str] = []
        self._queue: queue.Queue[str | None] = queue.Queue()
        threading.Thread(target=self._pump, args=(self._proc.stdout, self._queue), daemon=True).start()
        threading.Thread(target=self._drain, args=(self._proc.stderr,), daemon=True).start()

    @staticmethod
    def _pump(stream: TextIO, lines: queue.Queue[str | None]) -> None:
        for line in stream:
            lines.put(line.rstrip("\n"))
        lines.put(None)

    def _drain(self, stream: TextIO) -> None:
        for line in stream:
            self.errors.append(line.rstrip("\n"))

    @property
    def alive(self) -> bool:
        return self._proc.poll() is None

    @property
    def returncode(self) -> int | None:
        return self._proc.poll()

    def _explain(self, wanted: str) -> str:
        said = "\n  ".join(self.lines) or "(nothing)"
        err = "\n  ".join(self.errors[-15:]) or "(nothing)"
        return f"worker did not print {wanted}; it printed:\n  {said}\nstderr:\n  {err}"

    def wait_for(self, *prefixes: str, timeout: float = 60.0) -> str:
        """Read output until a line starts with one of `prefixes`; return that line."""
        while True:
            try:
                line = self._queue.get(timeout=timeout)
            except queue.Empty:
                raise WorkerError(self._explain(f"{' or '.join(prefixes)} within {timeout:g} s")) from None
            if line is None:
                self._queue.put(None)  # keep the end marker for later calls
                self._proc.wait()
                raise WorkerError(self._explain(f"{' or '.join(prefixes)} before exiting with "
                                                f"code {self._proc.returncode}"))
            self.lines.append(line)
            if line.startswith(prefixes):
                return line

    def send(self, line: str) -> None:
        """Write one instruction line to the worker's stdin (continue, pause POINT, go)."""
        assert self._proc.stdin is not None
        self._proc.stdin.write(line + "\n")
        self._proc.stdin.flush()

    def kill(self) -> None:
        """SIGKILL: no cleanup, no atexit, no rollback in the process -- what a crash looks like."""
        if self.alive:
            if hasattr(signal, "SIGKILL"):
                os.kill(self._proc.pid, signal.SIGKILL)
            else:  # pragma: no cover - Windows has no SIGKILL; TerminateProcess is as abrupt
                self._proc.kill()
        self._proc.wait()
        self._close_pipes()

    def finish(self, timeout: float = 60.0) -> int:
        """Let the worker run to its end; return its exit code (it is killed if it overruns)."""
        try:
            self._proc.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            self.kill()
            raise WorkerError(self._explain(f"its last line within {timeout:g} s")) from None
        while True:  # collect what it printed before exiting
            line = self._queue.get(timeout=timeout)
            if line is None:
                self._queue.put(None)
                break
            self.lines.append(line)
        self._close_pipes()
        return self._proc.returncode

    def _close_pipes(self) -> None:
        if self._proc.stdin is not None and not self._proc.stdin.closed:
            try:
                self._proc.stdin.close()
            except BrokenPipeError:
                pass

    def __enter__(self) -> WorkerProcess:
        return self

    def __exit__(self, *exc: object) -> None:
        self.kill()

    def __del__(self) -> None:  # a forgotten worker is still killed, never left running
        try:
            if self._proc.poll() is None:
                self._proc.kill()
                self._proc.wait()
        except Exception:
            pass


def start_worker(db: str | os.PathLike[str], *, pause_at: str | None = None,
                 task_id: str = RECONCILE_TASK_ID) -> WorkerProcess:
    """Start the reconcile job in a new process on the task file `db`, optionally stopping at `pause_at`."""
    args = ["run", os.fspath(db), "--task", task_id]
    if pause_at is not None:
        if pause_at not in crash_points():
            raise ValueError(f"unknown point {pause_at!r}; choose one of {', '.join(crash_points())}")
        args += ["--pause-at", pause_at]
    return WorkerProcess(*args)


if __name__ == "__main__":
    sys.exit(main())
