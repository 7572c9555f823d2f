"""Task throughput with 1, 2, 4 and 8 worker processes, on SQLite and on PostgreSQL.

Each worker is a real process (`python -m primer_memory.lessons.reconcile_worker drain`) that
claims the current step of some task with a lease, does the "work" (a sleep standing in
for an API call), and reports it done. Workers start, say READY, and all get "go" at
once; the clock runs from "go" until the last one has finished the list. The figures to
read are the ratios: speed-up over one worker on the same backend, and PostgreSQL over
SQLite at the same number of workers. With no work at all, the ratio shows what the
database itself allows (SQLite has one writer at a time; PostgreSQL locks per task).

Run: .venv/bin/python benchmarks/bench_task_workers.py
"""

from __future__ import annotations

import tempfile
import time
import uuid
from pathlib import Path
from typing import Any

from primer_memory.tasks.store import TaskStateStore
from primer_memory.lessons.reconcile_worker import start_drainer

TASKS = 32
STEPS = ("fetch", "transform", "load")
WORKERS = (1, 2, 4, 8)
WORK_MS = (20.0, 0.0)


def run(where: dict[str, Any], open_store: Any, workers: int, work_ms: float) -> float:
    """Seconds for `workers` processes to finish TASKS x STEPS steps, from the moment they are told to go."""
    with open_store() as store:
        for n in range(TASKS):
            store.create_task(f"job-{n:02d}", "benchmark", list(STEPS))
    procs = [start_drainer(f"w{i}", lease=5.0, work_ms=work_ms, wait_go=True, **where) for i in range(workers)]
    try:
        for p in procs:
            p.wait_for("READY", timeout=120)
        start = time.perf_counter()
        for p in procs:
            p.send("go")
        for p in procs:
            p.wait_for("FINISHED", timeout=300)
        elapsed = time.perf_counter() - start
    finally:
        for p in procs:
            p.kill()
    with open_store() as store:
        assert all(store.next_step(t) is None for t in store.tasks())
    return elapsed


def main() -> None:
    from primer_memory.postgres import local_server

    dsn = local_server()
    results: dict[tuple[str, float, int], float] = {}
    with tempfile.TemporaryDirectory() as folder:
        for work_ms in WORK_MS:
            for workers in WORKERS if work_ms else (1, 8):
                db = Path(folder) / f"w{workers}-{work_ms:g}.db"
                results[("sqlite", work_ms, workers)] = run({"db": db}, lambda: TaskStateStore(db), workers, work_ms)
                schema = f"bench_{uuid.uuid4().hex[:10]}"
                results[("postgres", work_ms, workers)] = run(
                    {"dsn": dsn, "schema": schema}, lambda: TaskStateStore(dsn=dsn, schema=schema), workers, work_ms)
                import psycopg

                with psycopg.connect(dsn, autocommit=True) as conn:
                    conn.execute(f'DROP SCHEMA "{schema}" CASCADE')
    steps = TASKS * len(STEPS)
    print(f"{TASKS} tasks x {len(STEPS)} steps = {steps} steps; each step is claimed with a lease, worked, "
          "and reported done")
    for work_ms in WORK_MS:
        print(f"\nwork per step: {work_ms:g} ms")
        print(f"{'workers':>7}  {'SQLite steps/s':>14}  {'speed-up':>8}  {'PostgreSQL steps/s':>18}  {'speed-up':>8}"
              f"  {'PG / SQLite':>11}")
        for workers in WORKERS if work_ms else (1, 8):
            lite, pg = results[("sqlite", work_ms, workers)], results[("postgres", work_ms, workers)]
            base_lite, base_pg = results[("sqlite", work_ms, 1)], results[("postgres", work_ms, 1)]
            print(f"{workers:>7}  {steps / lite:>14.0f}  {base_lite / lite:>7.1f}x  {steps / pg:>18.0f}  "
                  f"{base_pg / pg:>7.1f}x  {lite / pg:>10.2f}x")


if __name__ == "__main__":
    main()
