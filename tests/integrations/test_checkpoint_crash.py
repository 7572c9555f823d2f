"""A real compiled StateGraph, SIGKILLed mid-run in its own process, resumes with no node's write recorded twice.

The graph runs prepare, then fast and slow side by side, then finish. The child process
is killed while `slow` hangs and after `fast` has finished (its write is stored as a
pending write of the last checkpoint). A new process resumes the thread: `fast` must not
run again (its stored write is reused), `slow` runs again, and the final state holds
each node's write exactly once.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
import uuid
from collections import Counter
from pathlib import Path

import pytest

if not os.environ.get("CI"):  # CI installs every extra (make test): there a missing one fails
    pytest.importorskip("langgraph.graph", reason="the [langgraph] extra is not installed")

from primer_memory.integrations import PostgresCheckpointSaver, SQLiteCheckpointSaver  # noqa: E402

CHILD = Path(__file__).with_name("crash_graph.py")
SRC = Path(__file__).resolve().parents[2] / "src"


def _env(dsn: str | None) -> dict[str, str]:
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join([str(SRC), env.get("PYTHONPATH", "")])
    if dsn is not None:
        env["PRIMER_PG_DSN"] = dsn  # the child talks to this test session's server, not one of its own
    return env


def _kill_mid_run(backend: str, where: str, saver: object, side: Path, env: dict[str, str]) -> None:
    child = subprocess.Popen([sys.executable, str(CHILD), "run", backend, where, "t-1", str(side)], env=env,
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    deadline = time.monotonic() + 120
    try:
        while True:
            latest = saver.get_tuple({"configurable": {"thread_id": "t-1", "checkpoint_ns": ""}})
            fast_done = latest is not None and any(
                w[1] == "log" and w[2] == ["fast"] for w in latest.pending_writes or [])
            if fast_done and Path(f"{side}.slow-started").exists():
                break
            assert child.poll() is None, child.communicate()
            assert time.monotonic() < deadline, "the child never reached the slow node"
            time.sleep(0.05)
    finally:
        os.kill(child.pid, signal.SIGKILL)
        child.communicate()
    assert child.returncode == -signal.SIGKILL


def _resume_and_check(backend: str, where: str, side: Path, env: dict[str, str]) -> None:
    done = subprocess.run([sys.executable, str(CHILD), "resume", backend, where, "t-1", str(side)], env=env,
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    log = json.loads(done.stdout.strip().splitlines()[-1])
    assert Counter(log) == Counter({"prepare": 1, "fast": 1, "slow": 1, "finish": 1})
    ran = Counter(side.read_text().split())
    assert ran == Counter({"prepare": 1, "fast": 1, "slow": 2, "finish": 1})  # slow was interrupted once


@pytest.mark.slow
def test_sqlite_graph_killed_mid_run_resumes_without_double_writes(tmp_path: Path) -> None:
    where, side = str(tmp_path / "checkpoints.db"), tmp_path / "side-effects.txt"
    with SQLiteCheckpointSaver(where, tenant="acme") as saver:
        _kill_mid_run("sqlite", where, saver, side, _env(None))
    _resume_and_check("sqlite", where, side, _env(None))


@pytest.mark.slow
@pytest.mark.postgres
def test_postgres_graph_killed_mid_run_resumes_without_double_writes(pg_dsn: str, tmp_path: Path) -> None:
    from primer_memory.integrations.checkpoint_backends import drop_schema

    schema, side = "crash_" + uuid.uuid4().hex[:10], tmp_path / "side-effects.txt"
    try:
        with PostgresCheckpointSaver(pg_dsn, tenant="acme", schema=schema) as saver:
            _kill_mid_run("postgres", schema, saver, side, _env(pg_dsn))
        _resume_and_check("postgres", schema, side, _env(pg_dsn))
    finally:
        drop_schema(pg_dsn, schema)
