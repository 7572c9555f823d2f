"""Nothing left behind: the benchmarks, the demo and the token counter leave the system temporary directory as
they found it, and keep their own files inside the project (build/), removed when they end.

Each case runs one real process with TMPDIR pointing at a fresh empty folder, so everything that process (and any
server it starts) puts in "the system temporary directory" lands there and nowhere else; the folder must be empty
again once the process has ended (the embedded PostgreSQL's folder is removed by its watchdog a moment after its
owner exits, so the check waits a bounded time). Benchmarks run at the tiny size of `PRIMER_BENCH_TINY=1`: the
same set-up and tear-down as a real run, on a handful of records. The class of input covered: every script in
benchmarks/ that writes a file, starts a server or installs a package (found by reading their source, so a new
one cannot be left out), every part of the demo, and the first use of the real token counter.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from helpers import run_in_empty_tmp

ROOT = Path(__file__).resolve().parents[1]
BENCHMARKS = ROOT / "benchmarks"
SCRATCH = ROOT / "build" / "bench"

# What makes a benchmark write outside its own process: a temporary file or folder, a database file, a server
# (the embedded PostgreSQL), or worker processes with their own files. (A package a benchmark installs for itself
# goes into build/bench-deps, which `make clean` removes: bench_postgres.py.)
WRITES = re.compile(r"tempfile|mkdtemp|scratch\(|local_server|sqlite3\.connect|TaskStateStore|SaverI?\(|"
                    r"path=|\.db\b")
TINY_RUNS = {  # benchmark -> extra arguments for a tiny run (sizes come from PRIMER_BENCH_TINY)
    "bench_integrations.py": [],
    "bench_postgres.py": [],
    "bench_recall.py": [],
    "bench_signed_scope.py": [],
    "bench_task_state.py": [],
    "bench_task_workers.py": [],
}


def _writers() -> set[str]:
    return {p.name for p in BENCHMARKS.glob("bench_*.py") if WRITES.search(p.read_text(encoding="utf-8"))}


def test_every_benchmark_that_writes_has_a_tiny_run_here() -> None:
    """A new benchmark that writes files must join TINY_RUNS, so its clean-up is tested too."""
    assert _writers() == set(TINY_RUNS), "add the benchmark to TINY_RUNS (or remove it if it no longer writes)"


@pytest.mark.slow
@pytest.mark.postgres
@pytest.mark.parametrize("script", sorted(TINY_RUNS))
def test_a_tiny_benchmark_run_leaves_nothing_behind(script: str) -> None:
    _, pid = run_in_empty_tmp([sys.executable, str(BENCHMARKS / script), *TINY_RUNS[script]],
                              {"PRIMER_BENCH_TINY": "1"})
    left = sorted(p.name for p in SCRATCH.glob(f"*-{pid}-*"))  # scratch folders carry their process id
    assert left == [], f"{script} left its scratch folders in build/bench: {left}"


@pytest.mark.slow
def test_the_token_counter_copies_its_table_nowhere() -> None:
    code = "from primer_memory.short_term.tokens import bpe_tokens; print(bpe_tokens('hello world'))"
    out, _ = run_in_empty_tmp([sys.executable, "-c", code])
    assert out.strip() == "2"


def test_the_token_counter_keeps_a_cache_folder_the_user_chose(tmp_path: Path) -> None:
    """TIKTOKEN_CACHE_DIR set by the user is tiktoken's to use; the counter only stops the default copy."""
    code = ("import os; from primer_memory.short_term.tokens import bpe_tokens; bpe_tokens('hi'); "
            "print(os.environ['TIKTOKEN_CACHE_DIR'] == os.environ['WANTED'])")
    env = {**os.environ, "TIKTOKEN_CACHE_DIR": str(tmp_path), "WANTED": str(tmp_path)}
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "True" and any(tmp_path.iterdir())
