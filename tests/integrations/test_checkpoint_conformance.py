"""LangGraph's own conformance suite (langgraph-checkpoint-conformance) on both backends, report printed.

The suite auto-detects which capabilities a saver implements (a method overridden from
BaseCheckpointSaver) and runs every test of each: base ones (put, put_writes, get_tuple,
list, delete_thread) and extended ones (delete_for_runs, copy_thread, prune). Each report is
kept as a test property and printed after the run in its own section of pytest's summary
(tests/conftest.py), so CI logs show the counts without writing into the progress line.
"""

from __future__ import annotations

import asyncio
import contextlib
import io
import os
import uuid
from pathlib import Path

import pytest

if not os.environ.get("CI"):  # CI installs every extra (make test): there a missing one fails
    pytest.importorskip("langgraph.checkpoint.conformance", reason="the [langgraph] extra is not installed")

from langgraph.checkpoint.conformance import checkpointer_test, validate  # noqa: E402
from langgraph.checkpoint.conformance.capabilities import ALL_CAPABILITIES  # noqa: E402
from langgraph.checkpoint.conformance.report import ProgressCallbacks  # noqa: E402

from primer_memory.integrations import PostgresCheckpointSaver, SQLiteCheckpointSaver  # noqa: E402


def _run(registered: object, record_property: object) -> None:
    shown = io.StringIO()
    with contextlib.redirect_stdout(shown):
        report = asyncio.run(validate(registered, progress=ProgressCallbacks.default()))
        report.print_report()
        counts = {name: (r.tests_passed, r.tests_failed) for name, r in sorted(report.results.items())}
        print(f"  conformance counts (passed, failed): {counts}")
    record_property("summary_section", ("LangGraph checkpoint conformance", shown.getvalue()))  # type: ignore[operator]
    failures = [f for r in report.results.values() for f in r.failures]
    assert not failures, failures
    assert {name for name, r in report.results.items() if r.detected} == {c.value for c in ALL_CAPABILITIES}
    assert report.passed_all() and report.conformance_level() == "FULL"
    assert all(r.tests_passed > 0 for r in report.results.values())


def test_sqlite_saver_passes_langgraphs_conformance_suite(tmp_path: Path, record_property: object) -> None:
    @checkpointer_test(name="SQLiteCheckpointSaver")
    async def saver():  # a fresh file for each capability's tests
        made = SQLiteCheckpointSaver(tmp_path / f"{uuid.uuid4().hex}.db", tenant="acme")
        yield made
        made.close()

    _run(saver, record_property)


@pytest.mark.postgres
def test_postgres_saver_passes_langgraphs_conformance_suite(pg_dsn: str, record_property: object) -> None:
    from primer_memory.integrations.checkpoint_backends import drop_schema

    schemas: list[str] = []

    @checkpointer_test(name="PostgresCheckpointSaver")
    async def saver():  # a fresh schema for each capability's tests, dropped afterwards
        schemas.append("conf_" + uuid.uuid4().hex[:10])
        made = PostgresCheckpointSaver(pg_dsn, tenant="acme", schema=schemas[-1])
        yield made
        made.close()
        drop_schema(pg_dsn, schemas[-1])

    _run(saver, record_property)
