"""Erasure on PostgreSQL: what DELETE, VACUUM and VACUUM FULL leave in the table's own files, and in the WAL.

DELETE only marks a row dead; its bytes stay in the heap page (and its index
entries stay in the indexes) until VACUUM. Plain VACUUM removes the index entries
and makes the space reusable, but does not zero it; VACUUM FULL rewrites the
table into new files. The write-ahead log keeps every insert regardless.
"""

from __future__ import annotations

import uuid
from collections.abc import Iterator

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from helpers import accept_all
from primer_memory import KINDS, LongTermMemory, Scope
from primer_memory.long_term.embedding import HashingEmbedder
from primer_memory.long_term.lexical import terms
from primer_memory.postgres import compact, files_contain, vacuum, wal_contains
from primer_memory.long_term.storage.postgres import PostgresStore, drop_schema

pytestmark = pytest.mark.postgres

SCOPES = [Scope("acme", "alice"), Scope("acme", "al"), Scope("acme-corp", "alice"), Scope("globex", "carol")]
EMBEDDER = HashingEmbedder()


def _memory(dsn: str, schema: str) -> LongTermMemory:
    store = PostgresStore(dsn, embedder_name=EMBEDDER.name, dim=EMBEDDER.dim, schema=schema, pool_size=1)
    return LongTermMemory(EMBEDDER, policy=accept_all, store=store)


@pytest.fixture
def schema(pg_dsn: str) -> Iterator[str]:
    name = "erase_" + uuid.uuid4().hex[:10]
    yield name
    drop_schema(pg_dsn, name)


@pytest.mark.parametrize(("before", "survives_vacuum"), [(5, True), (4, False)])
def test_delete_leaves_the_text_in_the_files_until_the_table_is_rewritten(
    pg_dsn: str, schema: str, before: int, survives_vacuum: bool
) -> None:
    """Three rows fit a page. Alice's row written 6th sits lowest on page 2 and plain VACUUM leaves its bytes;
    written 5th, it sits mid-page and the compaction happens to overwrite them. Only a rewrite is a guarantee."""
    alice, carol = SCOPES[0], SCOPES[3]
    memory = _memory(pg_dsn, schema)
    for i in range(before):
        memory.remember(carol, "episodic", f"Carol filed expense report number {i} for the Berlin trip.")
    memory.remember(alice, "semantic", "Alice's badge code is qzxvbnmw for the lab door.", key="badge")
    for i in range(before, 8):
        memory.remember(carol, "episodic", f"Carol filed expense report number {i} for the Berlin trip.")
    assert files_contain(pg_dsn, schema, "qzxvbnmw")["records"]

    assert memory.delete_user(alice) == 1
    assert memory.export(alice) == []
    after_delete = files_contain(pg_dsn, schema, "qzxvbnmw")
    assert after_delete["records"], "DELETE only marks the row dead: the heap page still holds it"
    assert files_contain(pg_dsn, schema, "alice")["records_pkey"], "and its index entry still names Alice"

    vacuum(pg_dsn, schema)
    after_vacuum = files_contain(pg_dsn, schema, "qzxvbnmw")
    assert files_contain(pg_dsn, schema, "alice")["records_pkey"] is False, "VACUUM removed the index entries"
    assert after_vacuum["records"] is survives_vacuum, "VACUUM compacts the page; it does not zero freed space"

    compact(pg_dsn, schema)
    assert not any(files_contain(pg_dsn, schema, "qzxvbnmw").values()), "VACUUM FULL wrote a new file without it"
    assert [r["content"].split()[5] for r in memory.export(carol)] == [str(i) for i in range(8)]
    assert wal_contains(pg_dsn, "qzxvbnmw"), "the write-ahead log still replays the insert"
    memory.close()


marker = st.text(alphabet="bcdfghjklmnpqrstvwxz", min_size=12, max_size=12)
writes = st.lists(
    st.tuples(st.integers(0, len(SCOPES) - 1), st.sampled_from(KINDS), marker, st.booleans()),
    min_size=1,
    max_size=10,
)


@settings(max_examples=8, deadline=None)
@given(writes=writes, victim=st.integers(0, len(SCOPES) - 1), forget_first=st.booleans())
def test_delete_user_then_compact_leaves_none_of_its_text_in_the_table_files(
    pg_dsn: str, writes: list[tuple[int, str, str, bool]], victim: int, forget_first: bool
) -> None:
    """The SQLite erasure property, ported: after delete_user and compaction no file of the table holds the text."""
    schema = "erasep_" + uuid.uuid4().hex[:10]
    memory = _memory(pg_dsn, schema)
    try:
        written: dict[Scope, list[str]] = {scope: [] for scope in SCOPES}
        for index, kind, word, keyed in writes:
            scope = SCOPES[index]
            if memory.remember(scope, kind, f"note {word} for the record", key="same-key" if keyed else None).stored:
                written[scope].append(word)
        target = SCOPES[victim]
        if forget_first and memory.export(target):
            memory.forget(target, memory.export(target)[0]["id"])
        memory.delete_user(target)
        compact(pg_dsn, schema)
        for word in written[target]:
            if not any(word in written[s] for s in SCOPES if s != target):
                for probe in {word, *terms(word)}:  # the text, and the stem BM25 keeps of it (records.terms, GIN)
                    found = files_contain(pg_dsn, schema, probe)
                    assert not any(found.values()), f"{probe!r} of {target} still in {found}"
        for scope in SCOPES:
            if scope != target:
                assert sorted(r["content"].split()[1] for r in memory.export(scope)) == sorted(written[scope])
        memory.close()
        reopened = _memory(pg_dsn, schema)  # another application server on the same database
        assert reopened.export(target) == []
        reopened.close()
    finally:
        drop_schema(pg_dsn, schema)


def _statistics(admin_dsn: str, schema: str) -> str:
    """Everything pg_statistic holds about the store's tables and their indexes, as the administrator reads it."""
    import psycopg

    with psycopg.connect(admin_dsn) as admin:
        rows = admin.execute(
            "SELECT s::text FROM pg_statistic s JOIN pg_class c ON c.oid = s.starelid"
            " WHERE c.relnamespace = %s::regnamespace", (schema,)).fetchall()
    return "\n".join(text for (text,) in rows)


def _alice_and_carol(memory: LongTermMemory) -> Scope:
    erased = Scope("acme", "alice-zqxvbnmw")
    for i in range(30):
        memory.remember(SCOPES[3], "episodic", f"Carol filed expense report number {i} for the Berlin trip.")
        memory.remember(erased, "semantic", f"Alice's door code {i} is qzxvbnmw{i}.", key=f"door_{i}")
    return erased


def test_memory_text_never_reaches_the_planners_statistics_and_erasure_clears_the_user(
        pg_dsn: str, schema: str) -> None:
    """ANALYZE samples columns into pg_statistic; a memory's text, key and vector are kept out of it, and
    compact() after delete_user refreshes the sample so the erased user's name is gone too."""
    import psycopg

    memory = _memory(pg_dsn, schema)
    erased = _alice_and_carol(memory)
    with psycopg.connect(pg_dsn, autocommit=True) as admin:
        admin.execute(f"ANALYZE {schema}.records")
        admin.execute(f"ANALYZE {schema}.scopes")
    stats = _statistics(pg_dsn, schema)
    assert "alice-zqxvbnmw" in stats, "the sample is real: it names the users"
    assert "qzxvbnmw" not in stats.replace("alice-zqxvbnmw", ""), "but never a memory's text or key"
    assert "Berlin" not in stats and "door_" not in stats
    assert memory.delete_user(erased) == 30
    compact(pg_dsn, schema)
    assert "zqxvbnmw" not in _statistics(pg_dsn, schema), "after erasure: no trace of the user or the text"
    memory.close()


def test_statistics_an_older_store_gathered_are_cleared_by_erasure(pg_dsn: str, schema: str) -> None:
    """A store created before the text was kept out of the statistics may hold a sample of it: compact() clears it."""
    import psycopg

    memory = _memory(pg_dsn, schema)
    erased = _alice_and_carol(memory)
    with psycopg.connect(pg_dsn, autocommit=True) as admin:
        admin.execute(f"ALTER TABLE {schema}.records ALTER COLUMN content SET STATISTICS -1")
        admin.execute(f"ANALYZE {schema}.records")
    assert "qzxvbnmw" in _statistics(pg_dsn, schema).replace("alice-zqxvbnmw", ""), "the old store's sample"
    memory.close()
    memory = _memory(pg_dsn, schema)  # setup runs again: the column is hidden again
    memory.delete_user(erased)
    compact(pg_dsn, schema)
    assert "zqxvbnmw" not in _statistics(pg_dsn, schema)
    memory.close()
