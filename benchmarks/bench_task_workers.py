"""Task throughput with 1, 2, 4 and 8 worker processes: TaskStateStore on PostgreSQL beside a plain SKIP LOCKED queue.

Each worker is a real process (`python -m primer_memory.lessons.reconcile_worker drain`) that
claims the current step of some task with a lease, does the "work" (a sleep standing in
for an API call), and reports it done (`finish`: the report and the next claim in one
transaction). Workers start, say READY, and all get "go" at once; the clock runs from
"go" until the last one has finished the list. The baseline is the smallest queue that
does the same job on the same server: one table of steps, a claim that is one
`UPDATE ... WHERE (task, position) = (SELECT ... FOR UPDATE SKIP LOCKED)` and a finish that
is one `UPDATE` -- no leases, no event log, no checks, no fence.

The figure to read is TaskStateStore over the queue at the same number of workers. Both run in
each of ROUNDS rounds, one after the other at every count (which goes first alternates), and each
figure is the median over the rounds, printed with the machine's load average when each round
started: the two share whatever else the machine was doing. "idle" counts the times a worker found
every open step held and waited (2 ms, doubling to 50 ms) -- the queue's workers wait the same way.
SQLite, one run per count, gives the speed-up a single file allows.

Run: .venv/bin/python benchmarks/bench_task_workers.py
"""

from __future__ import annotations

import multiprocessing
import os
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
ROUNDS = size(3, 1)  # interleaved rounds of every case; medians are reported

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


def run(where: dict[str, Any], open_store: Any, workers: int, work_ms: float) -> tuple[float, int]:
    """Seconds for `workers` processes to finish TASKS x STEPS steps, from the moment they are told to go, and the
    times they found nothing free to claim."""
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
        ends = [p.wait_for("FINISHED", timeout=300) for p in procs]
        elapsed = time.perf_counter() - start
    finally:
        for p in procs:
            p.kill()
    with open_store() as store:
        assert all(store.next_step(t) is None for t in store.tasks())
    return elapsed, sum(int(line.split()[-1]) for line in ends)  # "FINISHED <steps> idle <waits>"


def _queue_worker(dsn: str, table: str, name: str, work_ms: float, ready: Any, idle_waits: Any) -> None:
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
                with idle_waits.get_lock():
                    idle_waits.value += 1
                time.sleep(idle)
                idle = min(idle * 2, IDLE_MOST)
                continue
            idle = IDLE_FIRST
            if work_ms:
                time.sleep(work_ms / 1000)
            conn.execute(sql["finish"], row)


def run_queue(dsn: str, workers: int, work_ms: float) -> tuple[float, int]:
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
    idle_waits = context.Value("i", 0)
    procs = [context.Process(target=_queue_worker, args=(dsn, table, f"q{i}", work_ms, ready, idle_waits))
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
    return elapsed, idle_waits.value


def main() -> None:
    import psycopg

    from primer_memory.postgres import local_server

    dsn = local_server()
    pg: dict[tuple[float, int], list[tuple[float, int]]] = {}
    queue: dict[tuple[float, int], list[tuple[float, int]]] = {}
    lite: dict[int, float] = {}
    loads: list[float] = []

    def postgres(workers: int, work_ms: float) -> tuple[float, int]:
        schema = f"bench_{uuid.uuid4().hex[:10]}"
        try:
            return run({"dsn": dsn, "schema": schema}, lambda: TaskStateStore(dsn=dsn, schema=schema), workers,
                       work_ms)
        finally:
            with psycopg.connect(dsn, autocommit=True) as conn:
                conn.execute(f'DROP SCHEMA "{schema}" CASCADE')

    with scratch("task-workers") as folder:
        for round_ in range(ROUNDS):
            loads.append(os.getloadavg()[0])
            for work_ms in WORK_MS:
                for workers in WORKERS if work_ms else (1, 8):
                    key = (work_ms, workers)
                    pair = [lambda: pg.setdefault(key, []).append(postgres(workers, work_ms)),
                            lambda: queue.setdefault(key, []).append(run_queue(dsn, workers, work_ms))]
                    for measure in pair if (round_ + workers) % 2 == 0 else pair[::-1]:
                        measure()
        for workers in WORKERS:
            db = Path(folder) / f"w{workers}.db"
            lite[workers] = run({"db": db}, lambda: TaskStateStore(db), workers, WORK_MS[0])[0]

    def median(runs: list[tuple[float, int]]) -> tuple[float, float]:
        return statistics.median(r[0] for r in runs), statistics.median(r[1] for r in runs)

    steps = TASKS * len(STEPS)
    print(f"{TASKS} tasks x {len(STEPS)} steps = {steps} steps; each step is claimed with a lease, worked, "
          f"and reported done. Medians of {ROUNDS} interleaved rounds; load average (1 min) at the start of each "
          f"round: {', '.join(f'{load:.1f}' for load in loads)} on {os.cpu_count()} cores")
    for work_ms in WORK_MS:
        print(f"\nwork per step: {work_ms:g} ms")
        print(f"{'workers':>7}  {'TaskStateStore steps/s':>22}  {'idle':>5}  {'SKIP LOCKED queue steps/s':>25}  "
              f"{'idle':>5}  {'store / queue':>13}  {'each round':>20}")
        for workers in WORKERS if work_ms else (1, 8):
            (store_s, store_idle), (queue_s, queue_idle) = median(pg[(work_ms, workers)]), median(
                queue[(work_ms, workers)])
            rounds = " ".join(f"{q[0] / p[0]:.2f}" for p, q in zip(pg[(work_ms, workers)], queue[(work_ms, workers)]))
            print(f"{workers:>7}  {steps / store_s:>22.0f}  {store_idle:>5.0f}  {steps / queue_s:>25.0f}  "
                  f"{queue_idle:>5.0f}  {queue_s / store_s:>12.2f}x  {rounds:>20}")
    print("\nstore / queue: TaskStateStore's throughput over the queue's (1.00x: as fast), from the medians; "
          "'each round' gives the same ratio round by round.")
    print(f"\nSQLite, one run each at {WORK_MS[0]:g} ms: " + ", ".join(
        f"{workers} worker{'s' if workers > 1 else ''} {steps / lite[workers]:.0f} steps/s "
        f"({lite[1] / lite[workers]:.1f}x)" for workers in WORKERS))


if __name__ == "__main__":
    main()
