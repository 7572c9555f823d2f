"""Shared test settings: hypothesis profiles sized for a two-core machine, and the PostgreSQL server."""

from __future__ import annotations

import os

import pytest
from hypothesis import HealthCheck, settings

settings.register_profile("default", deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.register_profile("ci", deadline=None, max_examples=200, suppress_health_check=[HealthCheck.too_slow])
settings.load_profile("ci" if os.environ.get("CI") else "default")


@pytest.fixture(scope="session")
def pg_dsn() -> str:
    """Superuser DSN of the PostgreSQL the tests use: PRIMER_PG_DSN, or the embedded server started once."""
    from primer_memory.postgres import local_server

    return local_server()


def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    """Servers and scratch folders of ours whose owners are gone (a kernel nbval or the browser test killed) are
    stopped and deleted."""
    from primer_memory.lessons.scratch import reap_scratch
    from primer_memory.postgres import reap_orphans

    reap_orphans()
    reap_scratch()


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter) -> None:
    """Print the sections tests asked for (a `summary_section` property: title, text) after the run, once each.

    A test that prints with capture disabled writes into the progress line; this keeps such reports (LangGraph's
    conformance counts) readable in CI logs, with pytest-xdist too (properties travel with each test's report).
    """
    for reports in terminalreporter.stats.values():
        for report in reports:
            for name, value in getattr(report, "user_properties", ()):
                if name == "summary_section" and getattr(report, "when", "call") == "call":
                    title, text = value
                    terminalreporter.write_sep("-", f"{title}: {report.nodeid.split('::')[-1]}")
                    terminalreporter.write(str(text))

