"""What the task tests share: a store opener on every backend (the hand-moved clock is in helpers)."""

from __future__ import annotations

import uuid
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from primer_memory.tasks import TaskStateStore

@pytest.fixture(params=["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)])
def opener(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Callable[..., TaskStateStore]]:
    """Opens a store on this test's own place: a file, or a PostgreSQL schema of its own."""
    if request.param == "sqlite":
        yield lambda **kw: TaskStateStore(tmp_path / "tasks.db", **kw)
        return
    dsn = request.getfixturevalue("pg_dsn")
    schema = f"retry_{uuid.uuid4().hex[:12]}"
    yield lambda **kw: TaskStateStore(dsn=dsn, schema=schema, **kw)
    import psycopg

    with psycopg.connect(dsn, autocommit=True) as conn:
        conn.execute(f'DROP SCHEMA IF EXISTS "{schema}" CASCADE')
