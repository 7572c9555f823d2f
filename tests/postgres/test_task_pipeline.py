"""A task store's write transaction in pipeline mode: writes to a locked task are queued, and checked before COMMIT.

The queued writes' row counts come from the locked copy of the task, not from the server; `settle()` compares
them with what the server did. That can only differ if the copy is wrong, which the lock rules out, so the test
makes the copy wrong by hand: the transaction must refuse to commit, leaving every row as it was.
"""

from __future__ import annotations

import uuid
from collections.abc import Iterator

import pytest

from primer_memory import TaskStateStore
from primer_memory.long_term.storage.postgres import drop_schema

pytestmark = pytest.mark.postgres


@pytest.fixture
def store(pg_dsn: str) -> Iterator[TaskStateStore]:
    name = "tpipe_" + uuid.uuid4().hex[:8]
    with TaskStateStore(dsn=pg_dsn, schema=name) as opened:
        opened.create_task("t", "g", ["fetch", "load"])
        yield opened
    drop_schema(pg_dsn, name)


def test_a_write_that_breaks_the_locks_promise_is_refused_before_commit(store: TaskStateStore) -> None:
    with pytest.raises(RuntimeError, match="promised 1; nothing was written"):
        with store._db.transaction() as tx:
            tx.lock_task("t")
            row = tx.current("t")  # the locked task is read once, into the copy writes are judged by
            tx._states["t"].steps[row[1]][2] = "running"  # the copy now disagrees with the row (pending)
            tx.update_step("t", row[0], "running", "done", "out", "text", 0, None, None)
            tx.add_event("t", row[1], "done", "out", "text", True, "by hand", "{}", None)
    assert [(s.name, s.status) for s in store.step_details("t")] == [("fetch", "pending"), ("load", "pending")]
    assert [e.reason for e in store.events("t")] == []


def test_queued_writes_are_sent_and_numbered_in_order(store: TaskStateStore) -> None:
    lease = store.claim("t", "w", 30)
    nxt = store.finish(lease, "fetched", lease_seconds=30)  # report and next claim: four writes, one sync
    assert nxt is not None and nxt.step == "load"
    events = store.events("t")
    assert [(e.seq, e.step, e.status) for e in events] == [(1, "fetch", "running"), (2, "fetch", "done"),
                                                          (3, "load", "running")]
    store.finish(nxt, "loaded", then_claim=False)
    assert store.events("t")[-1].seq == 4 and store.next_step("t") is None
