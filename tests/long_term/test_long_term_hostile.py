"""Long-term memory under hostile input: every bad value, path or file gets a named error, and nothing stored changes.

Paths are given relative to a temporary working folder, so a message can be checked for the path exactly as
given and for the absence of the host's absolute path. The root user ignores permission bits, so the read-only
cases rely on the library checking the mode bits itself.
"""

from __future__ import annotations

import json
import os
import sqlite3
from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from primer_memory.long_term.memory import (
    InvalidMemory,
    LongTermMemory,
    RecordNotFound,
    Scope,
    ScopeError,
    StoreFileError,
)
from primer_memory.long_term.records import ExportFileError, StoreLocked
from primer_memory.long_term.storage.sqlite import SQLiteStore
from helpers import accept_all

ALICE = Scope("acme", "alice")
CAROL = Scope("globex", "carol")
FACTS = [
    {"kind": "semantic", "content": "Alice's fiscal year starts in April.", "key": "fiscal_year_start"},
    {"kind": "episodic", "content": "On 2026-09-18 Alice rejected the vendor Globex over late invoices."},
    {"kind": "procedural", "content": "To reconcile invoices, match each invoice to its payment."},
]
SHARED = [HealthCheck.function_scoped_fixture]  # one store per test, shared by the examples: it must not change


def files(folder: Path) -> dict[str, bytes | str]:
    """Every entry under `folder`: a file's bytes, a link's target, '<dir>' for a folder (links not followed).

    SQLite's -shm file counts only by its presence: reads change it and it holds no data.
    """
    out: dict[str, bytes | str] = {}
    for root, dirs, names in os.walk(folder):
        for name in dirs + names:
            full = os.path.join(root, name)
            rel = os.path.relpath(full, folder)
            if os.path.islink(full):
                out[rel] = "-> " + os.readlink(full)
            elif name.endswith("-shm"):
                out[rel] = "<shm>"
            elif os.path.isdir(full):
                out[rel] = "<dir>"
            else:
                out[rel] = Path(full).read_bytes()
    return out


def filled(path: str | None = "mem.db") -> LongTermMemory:
    memory = LongTermMemory(path=path, policy=accept_all)
    memory.remember_many(ALICE, FACTS)
    memory.remember(CAROL, "semantic", "Globex prefers invoices in euros.", key="currency")
    return memory


@pytest.fixture
def here(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Work inside a fresh folder, so the tests give relative paths as a learner would."""
    monkeypatch.chdir(tmp_path)
    return tmp_path


@pytest.fixture(params=["memory", "sqlite"])
def memory(request: pytest.FixtureRequest, here: Path) -> Iterator[LongTermMemory]:
    store = filled(None if request.param == "memory" else "mem.db")
    yield store
    store.close()


def refused_naming(error: BaseException, given: str, host: Path) -> None:
    text = str(error)
    assert repr(given) in text, text
    assert str(host) not in text and os.path.realpath(host) not in text, text


# --------------------------------------------------------------------------- export never overwrites


def _own_store(here: Path) -> str:
    return "mem.db"


def _foreign(here: Path) -> str:
    Path("thesis.txt").write_text("precious work, not a memory export\n")
    return "thesis.txt"


def _link_out(here: Path) -> str:
    os.mkdir("other")
    Path("other/f").write_text("keep me\n")
    os.symlink("other/f", "a.json")
    return "a.json"


def _dangling_link(here: Path) -> str:
    os.symlink("nowhere/f", "d.json")
    return "d.json"


def _folder(here: Path) -> str:
    os.mkdir("out")
    return "out"


def _missing_parent(here: Path) -> str:
    return "nope/alice.json"


def _readonly_folder(here: Path) -> str:
    os.mkdir("ro")
    os.chmod("ro", 0o555)
    return "ro/a.json"


def _wal(here: Path) -> str:
    return "mem.db-wal"


@pytest.mark.parametrize(("setup", "overwrite"), [
    (setup, overwrite)
    for setup in (_own_store, _foreign, _link_out, _dangling_link, _folder, _missing_parent, _readonly_folder, _wal)
    for overwrite in (False, True)
    if not (setup is _foreign and overwrite)  # overwrite=True may replace a plain file: tested below
])
def test_export_refuses_a_path_it_must_not_write(here: Path, setup, overwrite: bool) -> None:
    memory = filled()
    given = setup(here)
    before = files(here)
    with pytest.raises(ExportFileError) as refused:
        memory.export(ALICE, path=given, overwrite=overwrite)
    assert isinstance(refused.value, StoreFileError)
    refused_naming(refused.value, given, here)
    assert files(here) == before
    assert len(memory.export(CAROL)) == 1
    memory.close()
    with LongTermMemory(path="mem.db") as reopened:  # every tenant's memories are still in the file
        assert len(reopened.export(ALICE)) == 3 and len(reopened.export(CAROL)) == 1


@pytest.mark.parametrize("value", ["a\x00.json", "x" * 300 + ".json", "d/" * 2100 + "a.json", 5, b"a.json",
                                   ["a.json"], "", "al\ud800.json"])
def test_export_refuses_bad_path_values(here: Path, value: object) -> None:
    memory = filled()
    before = files(here)
    with pytest.raises(ExportFileError):
        memory.export(ALICE, path=value)  # type: ignore[arg-type]
    assert files(here) == before


def test_export_refuses_a_hard_link_to_the_store_even_with_overwrite(here: Path) -> None:
    memory = filled()
    memory.close()
    memory = LongTermMemory(path="mem.db")
    os.link("mem.db", "copy.json")
    before = files(here)
    with pytest.raises(ExportFileError, match="own file"):
        memory.export(ALICE, path="copy.json", overwrite=True)
    assert files(here) == before


def test_overwrite_true_replaces_a_plain_file_with_the_export(here: Path) -> None:
    memory = filled()
    Path("old.json").write_text("[]\n")
    data = memory.export(ALICE, path="old.json", overwrite=True)
    assert json.loads(Path("old.json").read_text(encoding="utf-8")) == data and len(data) == 3
    assert sorted(os.listdir(here)) == ["mem.db", "mem.db-shm", "mem.db-wal", "old.json"]  # no temp file left


def test_export_to_a_new_file_returns_the_lesson_list(here: Path) -> None:
    memory = filled()
    data = memory.export(ALICE, "alice.json")
    assert isinstance(data, list) and data == memory.export(ALICE)
    assert json.loads(Path("alice.json").read_text(encoding="utf-8")) == data


def test_a_failed_export_leaves_nothing_half_written(here: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    memory = filled()
    Path("old.json").write_text("the previous export\n")
    before = files(here)
    import primer_memory.long_term.export as export_file

    def broken(*args: object, **kwargs: object) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(export_file.os, "fsync", broken)
    for given, overwrite in (("old.json", True), ("new.json", False)):
        with pytest.raises(ExportFileError, match="No space left") as refused:
            memory.export(ALICE, path=given, overwrite=overwrite)
        refused_naming(refused.value, given, here)
        assert files(here) == before


@settings(max_examples=40, suppress_health_check=SHARED)
@given(content=st.binary(max_size=64), name=st.sampled_from(["a.json", "b.txt", "mem.db", "sub/c.json"]),
       overwrite=st.booleans())
def test_export_never_changes_an_existing_file_without_overwrite_nor_the_store(
        here: Path, content: bytes, name: str, overwrite: bool) -> None:
    if not Path("mem.db").exists():
        filled().close()
        os.makedirs("sub", exist_ok=True)
    if name != "mem.db":
        Path(name).write_bytes(content)
    with LongTermMemory(path="mem.db") as memory:
        before = files(here)
        if overwrite and name != "mem.db":
            memory.export(ALICE, path=name, overwrite=True)
            assert len(json.loads(Path(name).read_text(encoding="utf-8"))) == 3
            before.pop(name)
            after = files(here)
            after.pop(name)
            assert after == before
        else:
            with pytest.raises(ExportFileError):
                memory.export(ALICE, path=name, overwrite=overwrite)
            assert files(here) == before
    with LongTermMemory(path="mem.db") as reopened:
        assert len(reopened.export(ALICE)) == 3 and len(reopened.export(CAROL)) == 1


# --------------------------------------------------------------------------- lone surrogates


def with_surrogate(text: str, at: int, code: int) -> str:
    at = at % (len(text) + 1)
    return text[:at] + chr(code) + text[at:]


surrogates = st.integers(0xD800, 0xDFFF)


@settings(max_examples=60, suppress_health_check=SHARED)
@given(field=st.sampled_from(["content", "key", "source"]), at=st.integers(0, 40), code=surrogates)
def test_a_lone_surrogate_in_a_memory_is_refused_and_nothing_changes(
        memory: LongTermMemory, field: str, at: int, code: int) -> None:
    entry = {"kind": "semantic", "content": "Alice likes green tea a lot.", "key": "drink", "source": "chat"}
    entry[field] = with_surrogate(entry[field], at, code)  # type: ignore[arg-type]
    before = memory.export(ALICE)
    with pytest.raises(InvalidMemory, match="surrogate"):
        memory.remember(ALICE, **entry)  # type: ignore[arg-type]
    with pytest.raises(InvalidMemory, match="surrogate"):  # a good entry first: all or nothing
        memory.remember_many(ALICE, [{"kind": "episodic", "content": "Alice visited Paris in May."}, entry])
    assert memory.export(ALICE) == before


@settings(max_examples=40, suppress_health_check=SHARED)
@given(part=st.sampled_from(["tenant_id", "user_id"]), at=st.integers(0, 10), code=surrogates)
def test_a_lone_surrogate_in_a_scope_is_refused(memory: LongTermMemory, part: str, at: int, code: int) -> None:
    parts = {"tenant_id": "acme", "user_id": "alice"}
    parts[part] = with_surrogate(parts[part], at, code)
    with pytest.raises(ScopeError, match="surrogate"):
        Scope(**parts)


def test_a_surrogate_id_or_key_is_not_found_or_refused(memory: LongTermMemory) -> None:
    before = memory.export(ALICE)
    with pytest.raises(RecordNotFound):
        memory.forget(ALICE, "id\ud800")
    with pytest.raises(RecordNotFound):
        memory.get(ALICE, "mem-\udfff")
    with pytest.raises(InvalidMemory, match="surrogate"):
        memory.history(ALICE, "fiscal\ud800")
    assert memory.export(ALICE) == before


@pytest.mark.parametrize("entries", [None, 5, "semantic", b"x", 3.5])
def test_remember_many_needs_a_list(memory: LongTermMemory, entries: object) -> None:
    before = memory.export(ALICE)
    with pytest.raises(InvalidMemory, match="list"):
        memory.remember_many(ALICE, entries)  # type: ignore[arg-type]
    assert memory.export(ALICE) == before


# --------------------------------------------------------------------------- opening a file


@pytest.mark.parametrize("value", ["m\x00.db", "m" * 300 + ".db", "d/" * 2100 + "m.db", b"m.db", 3, 1.5,
                                   ["m.db"], "", "m\ud800.db"])
def test_bad_path_values_are_refused(here: Path, value: object) -> None:
    with pytest.raises(StoreFileError):
        LongTermMemory(path=value)  # type: ignore[arg-type]
    assert files(here) == {}


def _nothing(here: Path) -> None:
    pass


def _mkdir_a(here: Path) -> None:
    os.mkdir("a")


def _ro_empty(here: Path) -> None:
    os.mkdir("ro")
    os.chmod("ro", 0o555)


def _ro_with_store(here: Path) -> None:
    os.mkdir("ro")
    filled("ro/mem.db").close()
    os.chmod("ro", 0o555)


def _ro_store(here: Path) -> None:
    filled("mem.db").close()
    os.chmod("mem.db", 0o444)


@pytest.mark.parametrize(("setup", "given"), [
    (_nothing, "nope/mem.db"), (_mkdir_a, "a/b/mem.db"), (_ro_empty, "ro/mem.db"), (_ro_with_store, "ro/mem.db"),
    (_ro_store, "mem.db"), (_nothing, "/dev/null"), (_mkdir_a, "a"), (_mkdir_a, "a/"),
])
def test_unusable_places_are_refused_naming_the_path_as_given(here: Path, setup, given: str) -> None:
    setup(here)
    before = files(here)
    with pytest.raises(StoreFileError) as refused:
        LongTermMemory(path=given).remember(ALICE, "semantic", "Alice likes tea.", key="drink")
    refused_naming(refused.value, given, here)
    assert files(here) == before  # no -wal or -shm left behind either


def test_a_locked_store_says_another_program_holds_it(here: Path) -> None:
    filled().close()
    with LongTermMemory(path="mem.db") as memory:
        before = memory.export(ALICE)
    other = sqlite3.connect("mem.db", isolation_level=None)
    other.execute("BEGIN EXCLUSIVE")
    try:
        store = SQLiteStore("mem.db", LongTermMemory().embedder.name, 512, timeout=0.01)
        memory = LongTermMemory(store=store, policy=accept_all)
        with pytest.raises(StoreLocked, match="another program") as refused:
            memory.remember(ALICE, "semantic", "Alice likes tea.", key="drink")
        assert isinstance(refused.value, StoreFileError)
        refused_naming(refused.value, "mem.db", here)
    finally:
        other.execute("ROLLBACK")
        other.close()
    assert memory.export(ALICE) == before
    memory.remember(ALICE, "semantic", "Alice likes tea.", key="drink")  # once released, writes go through
    memory.close()


@pytest.mark.parametrize(("edit", "still_current"), [
    ("kind = 'bogus'", True), ("importance = 'high'", True), ("importance = 42", True), ("importance = 0", True),
    ("created_at = 'yesterday'", True), ("source = ''", True), ("content = ''", True), ("key = ''", True),
    ("key = x'00'", True), ("forgotten = 7", False), ("superseded_by = x'01'", False),
])
def test_a_record_edited_on_disk_is_reported_not_returned(here: Path, edit: str, still_current: bool) -> None:
    filled().close()
    conn = sqlite3.connect("mem.db")
    conn.execute("PRAGMA ignore_check_constraints = ON")
    conn.execute(f"UPDATE records SET {edit} WHERE seq = 1 AND user_id = 'alice'")
    conn.commit()
    conn.close()
    before = files(here)
    with LongTermMemory(path="mem.db") as memory:
        reads = [lambda: memory.export(ALICE)]
        if still_current:  # a row that is no longer current is never a recall candidate
            reads.append(lambda: memory.recall(ALICE, "fiscal year", k=3))
        for read in reads:
            with pytest.raises(StoreFileError, match="damaged record") as refused:
                read()
            refused_naming(refused.value, "mem.db", here)
        assert len(memory.export(CAROL)) == 1  # other scopes still read
    assert files(here) == before


def test_a_hand_edited_kind_is_also_caught_by_the_search_cache(here: Path) -> None:
    filled().close()
    conn = sqlite3.connect("mem.db")
    conn.execute("PRAGMA ignore_check_constraints = ON")
    conn.execute("UPDATE records SET kind = 'bogus' WHERE seq = 2 AND user_id = 'alice'")
    conn.commit()
    conn.close()
    with LongTermMemory(path="mem.db") as memory, pytest.raises(StoreFileError, match="damaged record"):
        memory.recall(ALICE, "fiscal year", k=1, kinds=("semantic",))
