"""The lesson's task-state calls, typed exactly as LESSON.md lists them, return what the lesson shows."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from primer_memory import InvalidUpdate, TaskStateStore
from primer_memory.tasks.process import WorkerProcess


def test_the_lessons_walkthrough(tmp_path: Path) -> None:
    store = TaskStateStore(tmp_path / "tasks.db")
    store.create_task("reconcile-september", "Reconcile September's invoices",
                      ["fetch_invoices", "fetch_payments", "match"])
    assert store.next_step("reconcile-september") == "fetch_invoices"
    assert [name for name, status, _ in store.steps("reconcile-september")] == [
        "fetch_invoices", "fetch_payments", "match"]

    store.apply("reconcile-september", {"step": "fetch_invoices", "status": "done", "output": "4 invoices"})
    with pytest.raises(InvalidUpdate, match="the current step is fetch_payments"):
        store.apply("reconcile-september", {"step": "match", "status": "done", "output": "all matched"})
    assert store.next_step("reconcile-september") == "fetch_payments"
    store.apply("reconcile-september", {"step": "fetch_payments", "status": "done", "output": "3 payments"})
    assert store.steps("reconcile-september") == [
        ("fetch_invoices", "done", "4 invoices"), ("fetch_payments", "done", "3 payments"), ("match", "pending", None)]
    for name, status, _ in store.steps("reconcile-september"):
        assert isinstance(name, str) and status in ("done", "pending")
    assert store.next_step("reconcile-september") == "match"


@pytest.mark.slow
def test_a_sigkilled_process_then_a_new_one_resumes_at_match(tmp_path: Path) -> None:
    """The worked example in a process that is killed with SIGKILL while it holds the store open."""
    db = tmp_path / "tasks.db"
    with WorkerProcess("lesson", str(db)) as first:
        first.wait_for("PAUSED", timeout=60)
        first.kill()
    assert first.returncode == -9
    assert first.lines[:3] == [
        "written  fetch_invoices done '4 invoices'",
        "refused  match done: step match is not the current step: the current step is fetch_payments "
        "(steps run in order: fetch_invoices, fetch_payments, match)",
        "written  fetch_payments done '3 payments'"]
    code = ("import sys; from primer_memory import TaskStateStore; "
            "s = TaskStateStore(sys.argv[1]); print(s.next_step('reconcile-september'))")
    import subprocess

    src = str(Path(__file__).resolve().parents[2] / "src")
    done = subprocess.run([sys.executable, "-c", code, str(db)], capture_output=True, text=True, timeout=60,
                          env={"PYTHONPATH": src, "PATH": "/usr/bin:/bin"})
    assert done.stdout.strip() == "match", done.stderr
