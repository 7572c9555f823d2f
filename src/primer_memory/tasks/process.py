"""Driving a worker process from another: read its output line by line, with bounded waits and a sure kill.

Tests, the crash simulator and the worker panel start `python -m primer_memory.lessons.reconcile_worker ...`
through `WorkerProcess`, wait for named lines, send it instructions and SIGKILL it.
"""

from __future__ import annotations

import os
import queue
import signal
import subprocess
import sys
import threading
from pathlib import Path
from typing import TextIO

__all__ = ["WorkerError", "WorkerProcess"]


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
            [sys.executable, "-m", "primer_memory.lessons.reconcile_worker", *args],
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
    def pid(self) -> int:
        """The worker's process id (to pause it with SIGSTOP and resume it with SIGCONT)."""
        return self._proc.pid

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

    def freeze(self, outside_write_of: str | os.PathLike[str] | None = None, attempts: int = 50) -> None:
        """SIGSTOP the worker: alive, holding whatever it holds, running nothing (a laptop asleep, a debugger).

        With `outside_write_of=` an SQLite task file, it is frozen at a moment it holds no write lock on it (a
        frozen writer holds every peer up instead): frozen, probed, thawed and tried again while it was mid-write.
        """
        if not hasattr(signal, "SIGSTOP"):  # pragma: no cover - Windows cannot stop a process and resume it
            raise WorkerError("freezing a worker needs SIGSTOP, which this system does not have")
        import sqlite3
        import time

        for _ in range(attempts):
            os.kill(self._proc.pid, signal.SIGSTOP)
            self._wait_until_stopped()
            if outside_write_of is None:
                return
            probe = sqlite3.connect(outside_write_of, timeout=0.05, isolation_level=None)
            try:
                probe.execute("BEGIN IMMEDIATE")  # succeeds only while nobody holds the write lock
                probe.execute("ROLLBACK")
                return
            except sqlite3.OperationalError:
                self.thaw()
                time.sleep(0.02)
            finally:
                probe.close()
        raise WorkerError(f"the worker held the write lock at every one of {attempts} tries to freeze it")

    def thaw(self) -> None:
        """SIGCONT: a frozen worker runs on from where it stopped, its lease perhaps long gone."""
        os.kill(self._proc.pid, signal.SIGCONT)

    def _wait_until_stopped(self, within: float = 5.0) -> None:
        """Return once every thread of the worker is stopped (state T in /proc/PID/task/*/stat).

        kill() only queues SIGSTOP: one thread takes it and then stops the others, so under load a second thread
        (the heartbeat) can run on, and take the write lock, for milliseconds after kill() returns. Without /proc,
        a short pause."""
        import time

        tasks = Path(f"/proc/{self._proc.pid}/task")
        if not tasks.exists():
            time.sleep(0.05)
            return
        deadline = time.monotonic() + within
        while time.monotonic() < deadline:
            states = []
            for stat in tasks.glob("*/stat"):
                try:
                    states.append(stat.read_text().rsplit(")", 1)[1].split()[0])
                except (FileNotFoundError, ProcessLookupError):  # a thread that ended meanwhile
                    continue
            if states and all(state in ("T", "t") for state in states):
                return
            time.sleep(0.001)
        raise WorkerError(f"the worker was sent SIGSTOP but not all its threads had stopped after {within:g} s")

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
            self._collect(timeout=5.0)  # what it printed before the kill belongs in the message
            raise WorkerError(self._explain(f"its last line within {timeout:g} s")) from None
        self._collect(timeout=timeout)
        self._close_pipes()
        return self._proc.returncode

    def _collect(self, timeout: float) -> None:
        """Move every line the worker printed, up to its end of output, from the reader's queue to `lines`."""
        while True:
            try:
                line = self._queue.get(timeout=timeout)
            except queue.Empty:
                return
            if line is None:
                self._queue.put(None)
                return
            self.lines.append(line)

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
