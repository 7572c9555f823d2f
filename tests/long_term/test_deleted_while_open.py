"""A store file deleted or replaced while it is open: the next write is refused by name, never lost quietly.

A second independent hostile-input run found remember() and apply() reported success after the file had been
deleted; the writes went to a file no name reached and were gone on reopen.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from helpers import accept_all
from primer_memory import LongTermMemory, Scope, StoreFileError, TaskFileError, TaskStateStore

ALICE = Scope("acme", "alice")


@pytest.mark.parametrize("how", ["deleted", "replaced"])
def test_a_long_term_write_after_the_file_went_is_refused(tmp_path: Path, how: str) -> None:
    path = tmp_path / "m.db"
    memory = LongTermMemory(path=str(path), policy=accept_all)
    memory.remember(ALICE, "semantic", "Alice prefers euros.")
    os.remove(path)
    if how == "replaced":
        LongTermMemory(path=str(path), policy=accept_all).close()
    with pytest.raises(StoreFileError, match="deleted or replaced"):
        memory.remember(ALICE, "semantic", "Alice's fiscal year starts in April.")


@pytest.mark.parametrize("how", ["deleted", "replaced"])
def test_a_task_write_after_the_file_went_is_refused(tmp_path: Path, how: str) -> None:
    path = tmp_path / "t.db"
    store = TaskStateStore(str(path))
    store.create_task("q3", "close the quarter", ["fetch", "match"])
    os.remove(path)
    if how == "replaced":
        TaskStateStore(str(path))
    with pytest.raises(TaskFileError, match="deleted or replaced"):
        store.apply("q3", {"step": "fetch", "status": "running"})


def test_a_store_opened_by_a_relative_path_still_writes_after_the_process_changes_folder(tmp_path: Path,
                                                                                         monkeypatch) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "sub").mkdir()
    memory = LongTermMemory(path="m.db", policy=accept_all)
    store = TaskStateStore("t.db")
    store.create_task("q3", "close the quarter", ["fetch"])
    monkeypatch.chdir(tmp_path / "sub")
    memory.remember(ALICE, "semantic", "Alice prefers euros.")
    store.apply("q3", {"step": "fetch", "status": "running"})
    memory.close()
    assert [r.content for r in LongTermMemory(path=str(tmp_path / "m.db")).store.records(ALICE)] == [
        "Alice prefers euros."]
