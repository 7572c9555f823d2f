"""What do the checks, the BEGIN IMMEDIATE transaction and the event log cost per update?

`TaskStateStore.apply` parses the proposal, reads the task's steps, checks the
state machine and the output, then writes the step and an event in one
transaction. The baseline is what a program without rules would do: one bare
`UPDATE steps SET status = 'done'` per step in autocommit, on the same kind of
file (WAL, synchronous=FULL). Both run here, in one process; the figure to
read is the ratio.

Run: .venv/bin/python benchmarks/bench_task_state.py
"""

from __future__ import annotations

import sqlite3
import time
from pathlib import Path

from primer_memory.tasks.store import TaskStateStore
from timing import scratch, size  # benchmarks/ is on the path

STEPS = size(200, 5)
REPEATS = size(5, 1)


def checked(folder: Path, run: int) -> float:
    with TaskStateStore(folder / f"checked{run}.db") as store:
        names = [f"step{i}" for i in range(STEPS)]
        store.create_task("t", "benchmark", [(n, "text") for n in names])
        start = time.perf_counter()
        for name in names:
            store.apply("t", {"step": name, "status": "done", "output": "ok"})
        elapsed = time.perf_counter() - start
        assert store.next_step("t") is None and len(store.events("t")) == STEPS
    return elapsed


def baseline(folder: Path, run: int) -> float:
    conn = sqlite3.connect(folder / f"bare{run}.db", isolation_level=None)
    conn.execute("PRAGMA journal_mode=WAL")
    conn.execute("PRAGMA synchronous=FULL")
    conn.execute("CREATE TABLE steps (task_id TEXT, position INTEGER, name TEXT, status TEXT, output TEXT, "
                 "PRIMARY KEY (task_id, position), UNIQUE (task_id, name))")
    conn.executemany("INSERT INTO steps VALUES ('t', ?, ?, 'pending', NULL)",
                     [(i, f"step{i}") for i in range(STEPS)])
    start = time.perf_counter()
    for i in range(STEPS):
        conn.execute("UPDATE steps SET status = 'done', output = ? WHERE task_id = 't' AND name = ?",
                     ("ok", f"step{i}"))
    elapsed = time.perf_counter() - start
    assert conn.execute("SELECT COUNT(*) FROM steps WHERE status = 'done'").fetchone() == (STEPS,)
    conn.close()
    return elapsed


def main() -> None:
    with scratch("task-state") as folder:
        bare = full = float("inf")
        for run in range(REPEATS):  # interleaved, so a busy disk slows both alike
            bare = min(bare, baseline(folder, run))
            full = min(full, checked(folder, run))
    per = lambda seconds: seconds / STEPS * 1e6  # noqa: E731 - microseconds per update
    print(f"{STEPS} step updates, best of {REPEATS} runs, WAL + synchronous=FULL on both")
    print(f"  bare UPDATE in autocommit       {per(bare):8.0f} us/update  {STEPS / bare:8.0f} updates/s")
    print(f"  apply(): checks + tx + event    {per(full):8.0f} us/update  {STEPS / full:8.0f} updates/s")
    print(f"  ratio apply / bare: {full / bare:.1f}x")


if __name__ == "__main__":
    main()
