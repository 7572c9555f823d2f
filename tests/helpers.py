"""Small helpers shared by tests in several folders (not a test module: pytest does not collect it)."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

from primer_memory import PolicyDecision

if TYPE_CHECKING:
    from primer_memory.tasks import TaskStateStore

ROOT = Path(__file__).resolve().parents[1]
BOUND = 30.0  # seconds for a server's watchdog to remove its folder after its owner exits (it takes about one)


def accept_all(content: str) -> PolicyDecision:
    """A policy that stores everything, for tests about the store rather than the detectors."""
    return PolicyDecision("store", "stored: test")


def disk_bytes(path: Path) -> bytes:
    """Every byte SQLite keeps for the database at `path`: the file, its WAL and its shared memory."""
    parts = [path, path.with_name(path.name + "-wal"), path.with_name(path.name + "-shm")]
    return b"".join(p.read_bytes() for p in parts if p.exists())


def assert_accepted_by_a_chat_api(sent: list[dict], start_on: str | None) -> None:
    """Tool results follow their call, every call has all its results, no leading tool message."""
    assert not sent or sent[0]["role"] != "tool"
    if start_on == "user":
        assert not sent or sent[0]["role"] == "user"
    waiting: list[str] = []
    for m in sent:
        if m["role"] == "tool":
            assert m["tool_call_id"] in waiting, "a tool result without its call"
            waiting.remove(m["tool_call_id"])
        else:
            assert not waiting, "a tool call without all its results"
            waiting = [c["id"] for c in m.get("tool_calls", ())]
    assert not waiting, "the window ends in a tool call without all its results"


def run_in_empty_tmp(argv: list[str], extra_env: dict[str, str] | None = None, timeout: float = 240
                     ) -> tuple[str, int]:
    """Run argv with TMPDIR (and tempfile's other variables) on a fresh folder; return its stdout and pid once the
    folder is empty again, or fail naming what is left."""
    tmp = Path(tempfile.mkdtemp(prefix="pm-t-", dir="/tmp"))  # short: the server's Unix socket path is limited
    env = {k: v for k, v in os.environ.items() if k not in {"PRIMER_PG_DSN", "TEMP", "TMP"}}
    env.update({"TMPDIR": str(tmp), "XDG_RUNTIME_DIR": str(tmp), **(extra_env or {})})
    try:
        proc = subprocess.Popen(argv, cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        try:
            stdout, stderr = proc.communicate(timeout=timeout)
        finally:
            proc.kill()
        assert proc.returncode == 0, f"{argv} failed:\n{stdout[-2000:]}\n{stderr[-3000:]}"
        deadline = time.monotonic() + BOUND
        while any(tmp.iterdir()) and time.monotonic() < deadline:
            time.sleep(0.25)
        left = sorted(str(p.relative_to(tmp)) for p in tmp.rglob("*"))
        assert left == [], f"{argv} left these in the system temporary directory: {left[:20]}"
        return stdout, proc.pid
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def luhn(body: str) -> str:
    """`body` with the Luhn check digit appended: a number a card detector must read as a card."""
    total = 0
    for i, d in enumerate(reversed(body)):
        n = int(d) * (2 if i % 2 == 0 else 1)
        total += n - 9 if n > 9 else n
    return body + str((10 - total % 10) % 10)


_DIGIT_RUN = re.compile(r"\d(?:[^\w\n]{0,2}\d)*")


def card_runs_in(texts: list[str], card: str) -> list[str]:
    """The runs of four or more of `card`'s digits written in any of `texts`. A run is digits joined by at most two
    characters that are neither letters, digits nor line breaks (a space, a dash, a dot: how numbers are grouped),
    read in each text apart: "548. Where we were: 548" holds two runs of three, not "548548"."""
    runs = [re.sub(r"\D", "", m.group()) for text in texts for m in _DIGIT_RUN.finditer(text)]
    return [card[i:i + 4] for i in range(len(card) - 3) if any(card[i:i + 4] in run for run in runs)]


def refused_cards() -> object:
    """Hypothesis strategy: Luhn-valid 16-digit Visa and Mastercard numbers the policy refuses whole (it lets the
    published test numbers pass, so those are filtered out)."""
    from hypothesis import strategies as st

    from primer_memory.policy.rules import review

    prefixes = st.sampled_from(["4", "51", "52", "53", "54", "55"])
    return st.builds(lambda prefix, rest: luhn((prefix + rest)[:15]), prefixes,
                     st.text("0123456789", min_size=14, max_size=14)).filter(lambda n: review(n).verdict == "refuse")


Opener = Callable[..., "TaskStateStore"]  # opens a task store: the `opener` fixture of tests/tasks


class Clock:
    """A clock the test moves by hand, so leases, backoffs and deadlines are judged without sleeping."""

    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now
