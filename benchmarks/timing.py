"""What every benchmark here shares: one timing rule, a tiny size for the clean-up test, and a scratch folder."""

from __future__ import annotations

import os
import shutil
import tempfile
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TypeVar

ROOT = Path(__file__).resolve().parent.parent
SCRATCH = ROOT / "build" / "bench"
"""Where benchmarks write their files: inside the project, so `make clean` removes whatever a killed run left."""
DEPS = ROOT / "build" / "bench-deps"
"""Packages a benchmark installs for itself only (a named peer such as LangGraph's PostgresStore)."""
TINY = os.environ.get("PRIMER_BENCH_TINY") == "1"
"""Set by tests/test_leaves_nothing.py: every size shrinks so set-up and tear-down run in seconds (the figures
printed then mean nothing)."""

T = TypeVar("T")


def best_of(repeats: int, fn: Callable[[], object]) -> float:
    """The fastest of `repeats` runs of `fn`, in seconds: the run least disturbed by the rest of the machine."""
    best = float("inf")
    for _ in range(repeats):
        start = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - start)
    return best


def size(full: T, tiny: T) -> T:
    """`full` for a real run, `tiny` when PRIMER_BENCH_TINY=1."""
    return tiny if TINY else full


@contextmanager
def scratch(name: str) -> Iterator[Path]:
    """A fresh folder under build/bench/ for one run's files, removed when the run ends, even on an error.

    Its name carries the process id (`<name>-<pid>-...`), so a test can tell one run's folders from another's.
    """
    SCRATCH.mkdir(parents=True, exist_ok=True)
    folder = Path(tempfile.mkdtemp(prefix=f"{name}-{os.getpid()}-", dir=SCRATCH))
    try:
        yield folder
    finally:
        shutil.rmtree(folder, ignore_errors=True)
