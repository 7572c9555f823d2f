"""Task throughput with 1, 2, 4 and 8 worker processes: SQLite, PostgreSQL, and a hand-written SKIP LOCKED queue.

Each worker is a real process (`python -m primer_memory.lessons.reconcile_worker drain`) that
claims the current step of some task with a lease, does the "work" (a sleep standing in
for an API call), and reports it done (`finish`: the report and the next claim in one
transaction). Workers start, say READY, and all get "go" at once; the clock runs from
"go" until the last one has finished the list. The baseline is the smallest queue that
does the same job on the same server: one table of steps, a claim that is one
`UPDATE ... WHERE (task, position) = (SELECT ... FOR UPDATE SKIP LOCKED)` and a finish that
is one `UPDATE` -- no leases, no event log, no checks. The figures to read are ratios:
speed-up over one worker, PostgreSQL over SQLite, and TaskStateStore over the baseline
at the same number of workers (the 8-worker, 20 ms figure is the median of three runs).

Run: .venv/bin/python benchmarks/bench_task_workers.py
"""

from __future__ import annotations

import multiprocessing
import statistics
import time
import uuid
from pathlib import Path
from typing import Any

from primer_memory.lessons.reconcile_worker import IDLE_FIRST, IDLE_MOST, start_drainer
from primer_memory.tasks.store import TaskStateStore
from timing import scratch, size  # benchmarks/ is on the path

TASKS = size(48, 2)
STEPS = ("fetch", "transform", "load")
WORKERS = size((1, 2, 4, 8), (1, 2))
WORK_MS = size((20.0, 0.0), (20.0,))
REPEATS = size(3, 1)  # runs of the headline case (8 workers, 20 ms), interleaved; the median is reported

QUEUE = {
    "create": "CREATE TABLE {t} (task_id text NOT NULL, position int NOT NULL,"
              " status text NOT NULL DEFAULT 'pending', owner text, PRIMARY KEY (task_id, position))",
    "claim": "UPDATE {t} SET status = 'running', owner = %s WHERE (task_id, position) = ("
             "SELECT s.task_id, s.position FROM {t} s WHERE s.status = 'pending' AND NOT EXISTS ("
             "SELECT 1 FROM {t} p WHERE p.task_id = s.task_id AND p.position < s.position AND p.status <> 'done')"
             " ORDER BY s.task_id, s.position LIMIT 1 FOR UPDATE SKIP LOCKED) RETURNING task_id, position",
    "finish": "UPDATE {t} SET status = 'done' WHERE task_id = %s AND position = %s",
    "left": "SELECT count(*) FROM {t} WHERE status <> 'done'",
}


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


def _queue_worker(dsn: str, table: str, name: str, work_ms: float, ready: Any) -> None:
    """One baseline worker: claim with SKIP LOCKED, work, finish; wait 2 ms doubling to 50 ms when nothing is free."""
    import psycopg

    with psycopg.connect(dsn, autocommit=True) as conn:
        sql = {k: v.replace("{t}", table) for k, v in QUEUE.items()}
        ready.wait()  # everyone connected: the parent starts the clock and lets them go
        ready.wait()
        idle = IDLE_FIRST
        while True:
            row = conn.execute(sql["claim"], (name,)).fetchone()
            if row is None:
                if conn.execute(sql["left"]).fetchone()[0] == 0:
                    return
                time.sleep(idle)
                idle = min(idle * 2, IDLE_MOST)
                continue
            idle = IDLE_FIRST
            if work_ms:
                time.sleep(work_ms / 1000)
            conn.execute(sql["finish"], row)


def run_queue(dsn: str, workers: int, work_ms: float) -> float:
    """Seconds for the hand-written SKIP LOCKED queue to do the same steps with the same number of processes."""
    import psycopg

    table = f"bench_queue_{uuid.uuid4().hex[:10]}"
    with psycopg.connect(dsn, autocommit=True) as conn:
        conn.execute(QUEUE["create"].replace("{t}", table))
        with conn.cursor() as cur:
            cur.executemany(f"INSERT INTO {table} (task_id, position) VALUES (%s, %s)",
                            [(f"job-{n:02d}", p) for n in range(TASKS) for p in range(1, len(STEPS) + 1)])
    context = multiprocessing.get_context("spawn")  # a fresh interpreter, as each drainer is
    ready = context.Barrier(workers + 1)
    procs = [context.Process(target=_queue_worker, args=(dsn, table, f"q{i}", work_ms, ready))
             for i in range(workers)]
    for p in procs:
        p.start()
    try:
        ready.wait(timeout=120)
        start = time.perf_counter()
        ready.wait(timeout=120)
        for p in procs:
            p.join(300)
        elapsed = time.perf_counter() - start
    finally:
        for p in procs:
            if p.is_alive():
                p.kill()
    with psycopg.connect(dsn, autocommit=True) as conn:
        assert conn.execute(QUEUE["left"].replace("{t}", table)).fetchone()[0] == 0
        conn.execute(f"DROP TABLE {table}")
    return elapsed


def main() -> None:
    import psycopg

    from primer_memory.postgres import local_server

    dsn = local_server()
    results: dict[tuple[str, float, int], float] = {}

    def postgres(workers: int, work_ms: float) -> float:
        schema = f"bench_{uuid.uuid4().hex[:10]}"
        try:
            return run({"dsn": dsn, "schema": schema}, lambda: TaskStateStore(dsn=dsn, schema=schema), workers,
                       work_ms)
        finally:
            with psycopg.connect(dsn, autocommit=True) as conn:
                conn.execute(f'DROP SCHEMA "{schema}" CASCADE')

    with scratch("task-workers") as folder:
        for work_ms in WORK_MS:
            for workers in WORKERS if work_ms else (1, 8):
                db = Path(folder) / f"w{workers}-{work_ms:g}.db"
                results[("sqlite", work_ms, workers)] = run({"db": db}, lambda: TaskStateStore(db), workers, work_ms)
                headline = work_ms == 20.0 and workers == 8
                pg, queue = [], []
                for _ in range(REPEATS if headline else 1):
                    pg.append(postgres(workers, work_ms))
                    queue.append(run_queue(dsn, workers, work_ms))
                results[("postgres", work_ms, workers)] = statistics.median(pg)
                results[("queue", work_ms, workers)] = statistics.median(queue)
    steps = TASKS * len(STEPS)
    print(f"{TASKS} tasks x {len(STEPS)} steps = {steps} steps; each step is claimed with a lease, worked, "
          "and reported done")
    for work_ms in WORK_MS:
        print(f"\nwork per step: {work_ms:g} ms")
        print(f"{'workers':>7}  {'SQLite steps/s':>14}  {'speed-up':>8}  {'PostgreSQL steps/s':>18}  {'speed-up':>8}"
              f"  {'PG / SQLite':>11}  {'SKIP LOCKED queue steps/s':>25}  {'PG / queue':>10}")
        for workers in WORKERS if work_ms else (1, 8):
            lite, pg = results[("sqlite", work_ms, workers)], results[("postgres", work_ms, workers)]
            queue = results[("queue", work_ms, workers)]
            base_lite, base_pg = results[("sqlite", work_ms, 1)], results[("postgres", work_ms, 1)]
            print(f"{workers:>7}  {steps / lite:>14.0f}  {base_lite / lite:>7.1f}x  {steps / pg:>18.0f}  "
                  f"{base_pg / pg:>7.1f}x  {lite / pg:>10.2f}x  {steps / queue:>25.0f}  {queue / pg:>9.2f}x")
    print("\nPG / queue is TaskStateStore's throughput over the hand-written queue's (1.00x: as fast); the "
          f"8-worker 20 ms row is the median of {REPEATS} runs of each.")


if __name__ == "__main__":
    main()
