"""LongTermMemory on PostgreSQL: the same answers as the in-memory store, shared safely by many app servers."""

from __future__ import annotations

import threading
import uuid
from collections.abc import Iterator

import psycopg
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from helpers import accept_all
from primer_memory import KINDS, LongTermMemory, RecordNotFound, Scope
from primer_memory.long_term.records import StoreFileError, WriteConflict
from primer_memory.long_term.embedding import HashingEmbedder
from primer_memory.long_term.on_postgres import memory_on_postgres
from primer_memory.long_term.storage import NewRecord
from primer_memory.long_term.storage.postgres import SCHEMA_VERSION, PostgresSetupError, PostgresStore, drop_schema, setup

pytestmark = pytest.mark.postgres

EMBEDDER = HashingEmbedder()
ACME_SECRET = "Acme plans to acquire Initech in Q4."
CAROL_FACT = "Globex prefers invoices in euros."
ALICE, CAROL = Scope("acme", "alice"), Scope("globex", "carol")


@pytest.fixture
def schema(pg_dsn: str) -> Iterator[str]:
    name = "store_" + uuid.uuid4().hex[:10]
    yield name
    drop_schema(pg_dsn, name)


def _pg(dsn: str, schema: str, **options: object) -> LongTermMemory:
    store = PostgresStore(dsn, embedder_name=EMBEDDER.name, dim=EMBEDDER.dim, schema=schema, pool_size=2, **options)
    return LongTermMemory(EMBEDDER, policy=accept_all, store=store)


def test_the_lessons_walkthrough_works_on_postgres(pg_dsn: str, schema: str) -> None:
    memory = memory_on_postgres(pg_dsn, schema=schema)
    assert repr(memory.__class__.__name__) == "'LongTermMemory'"
    memory.remember(ALICE, "episodic", "On 2026-09-18 Alice rejected the vendor Globex over late invoices.")
    memory.remember(ALICE, "semantic", "Alice's fiscal year starts in April.", key="fiscal_year_start")
    memory.remember(ALICE, "semantic", "Alice's fiscal year starts in July.", key="fiscal_year_start",
                    source="user correction")
    memory.remember(ALICE, "procedural",
                    "To reconcile invoices, match each vendor invoice to its payment, then list mismatches.")
    assert "Globex" in memory.recall(ALICE, "what happened with Globex?")[0].content
    assert memory.recall(ALICE, "how do I reconcile invoices?", kinds=("procedural",))[0].kind == "procedural"
    assert [(r.content.split()[-1], r.source, r.current) for r in memory.history(ALICE, "fiscal_year_start")] == [
        ("April.", "conversation", False), ("July.", "user correction", True)]
    assert "April" not in " ".join(r.content for r in memory.recall(ALICE, "fiscal year", k=5))
    memory.remember(CAROL, "semantic", CAROL_FACT, key="invoice_currency")
    with pytest.raises(RecordNotFound):
        memory.forget(CAROL, memory.export(ALICE)[0]["id"])
    assert memory.delete_user(ALICE) == 4
    assert [r["content"] for r in memory.export(CAROL)] == [CAROL_FACT]
    memory.close()


def test_carol_quoting_acmes_secret_gets_only_her_own_memory(pg_dsn: str, schema: str) -> None:
    memory = _pg(pg_dsn, schema)
    memory.remember(ALICE, "semantic", ACME_SECRET, key="acquisition_plan")
    memory.remember(CAROL, "semantic", CAROL_FACT, key="invoice_currency")
    attack = f"{ACME_SECRET} tenant_id=acme OR 1=1"
    assert [r.content for r in memory.recall(CAROL, attack, k=5)] == [CAROL_FACT]
    assert memory.recall(ALICE, attack, k=5)[0].content == ACME_SECRET
    memory.close()


@pytest.mark.parametrize("name", ["acme' OR '1'='1", "%", "_", "acme%", "a_me", "acme-corp", "\u0430cme", "ACME"])
def test_hostile_or_look_alike_scope_names_are_just_names(pg_dsn: str, schema: str, name: str) -> None:
    memory = _pg(pg_dsn, schema)
    memory.remember(ALICE, "semantic", ACME_SECRET)
    attacker = Scope(name, name)
    memory.remember(attacker, "semantic", "the attacker's own note about Initech acquisitions")
    assert [r.scope for r in memory.recall(attacker, ACME_SECRET, k=10)] == [attacker]
    memory.delete_user(attacker)
    assert [r["content"] for r in memory.export(ALICE)] == [ACME_SECRET]
    memory.close()


op = st.one_of(
    st.tuples(st.just("remember"), st.integers(0, 2), st.sampled_from(KINDS),
              st.lists(st.sampled_from("invoice vendor payment april july globex budget travel".split()),
                       min_size=1, max_size=3), st.sampled_from([None, "k1", "k2"])),
    st.tuples(st.just("recall"), st.integers(0, 2), st.sampled_from(["invoice payment", "july budget", "globex"]),
              st.integers(1, 4), st.sampled_from([KINDS, ("semantic",), ("episodic", "procedural")])),
    st.tuples(st.just("forget"), st.integers(0, 2), st.integers(0, 5)),
    st.tuples(st.just("delete_user"), st.integers(0, 2)),
)
SIBLINGS = [Scope("acme", "alice"), Scope("acme", "al"), Scope("acme-corp", "alice")]


@settings(max_examples=12, deadline=None)
@given(ops=st.lists(op, min_size=1, max_size=25), exact_limit=st.sampled_from([0, 20_000]))
def test_postgres_answers_exactly_as_the_in_memory_store(pg_dsn: str, ops: list[tuple], exact_limit: int) -> None:
    """Model-based: the same calls on both stores give the same results, scores and exports (HNSW path too)."""
    schema = "model_" + uuid.uuid4().hex[:10]
    model, real = LongTermMemory(EMBEDDER, policy=accept_all), _pg(pg_dsn, schema, exact_limit=exact_limit)
    try:
        for name, who, *args in ops:
            scope = SIBLINGS[who]
            if name == "remember":
                kind, words, key = args
                assert model.remember(scope, kind, " ".join(words), key=key) == real.remember(
                    scope, kind, " ".join(words), key=key)
            elif name == "recall":
                query, k, kinds = args
                assert model.recall_with_scores(scope, query, k, kinds) == real.recall_with_scores(
                    scope, query, k, kinds)
            elif name == "forget":
                records = model.export(scope)
                if records:
                    rid = records[args[0] % len(records)]["id"]
                    assert model.forget(scope, rid) == real.forget(scope, rid)
            else:
                assert model.delete_user(scope) == real.delete_user(scope)
            for each in SIBLINGS:
                assert model.export(each) == real.export(each)
    finally:
        real.close()
        drop_schema(pg_dsn, schema)


def test_two_application_servers_share_one_database(pg_dsn: str, schema: str) -> None:
    """No cache: what one process writes, another reads at once; concurrent writes to one scope queue up."""
    one, two = _pg(pg_dsn, schema), _pg(pg_dsn, schema)

    def write(memory: LongTermMemory, label: str) -> None:
        for i in range(10):
            memory.remember(ALICE, "episodic", f"{label} wrote note {i} about invoices")

    threads = [threading.Thread(target=write, args=(m, n)) for m, n in ((one, "one"), (two, "two"))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    records = two.export(ALICE)
    assert len(records) == 20 and sorted(r["seq"] for r in records) == list(range(1, 21))
    assert len({r["id"] for r in records}) == 20
    one.remember(ALICE, "semantic", "Alice's fiscal year starts in April.", key="fy")
    two.remember(ALICE, "semantic", "Alice's fiscal year starts in July.", key="fy")
    assert [r.current for r in one.history(ALICE, "fy")] == [False, True]
    one.close()
    two.close()


def test_setup_is_idempotent_and_refuses_another_embedder(pg_dsn: str, schema: str) -> None:
    assert setup(pg_dsn, schema=schema, dim=EMBEDDER.dim, embedder_name=EMBEDDER.name) == SCHEMA_VERSION
    assert setup(pg_dsn, schema=schema, dim=EMBEDDER.dim, embedder_name=EMBEDDER.name) == SCHEMA_VERSION
    with psycopg.connect(pg_dsn) as admin:
        versions = admin.execute(f"SELECT version FROM {schema}.schema_version ORDER BY version").fetchall()
    assert versions == [(n,) for n in range(1, SCHEMA_VERSION + 1)]  # each migration applied once
    with pytest.raises(PostgresSetupError, match="embedder"):
        setup(pg_dsn, schema=schema, dim=64, embedder_name="another-embedder")
    with pytest.raises(ValueError, match="schema"):
        setup(pg_dsn, schema="Robert'); DROP TABLE students;--", dim=4, embedder_name="x")


def test_a_connection_that_would_bypass_rls_is_refused(pg_dsn: str, schema: str) -> None:
    from primer_memory.postgres.scope import read_signing_key

    setup(pg_dsn, schema=schema, dim=EMBEDDER.dim, embedder_name=EMBEDDER.name)
    with pytest.raises(PostgresSetupError, match="bypasses row-level security"):
        PostgresStore(pg_dsn, embedder_name=EMBEDDER.name, dim=EMBEDDER.dim, schema=schema, app_dsn=pg_dsn,
                      signing_key=read_signing_key(pg_dsn, schema))


def test_an_application_server_without_setup_needs_the_signing_key(pg_dsn: str, schema: str) -> None:
    from primer_memory.postgres.scope import read_signing_key
    from primer_memory.long_term.storage.postgres import application_dsn

    setup(pg_dsn, schema=schema, dim=EMBEDDER.dim, embedder_name=EMBEDDER.name)
    with pytest.raises(PostgresSetupError, match="signing_key="):
        PostgresStore(embedder_name=EMBEDDER.name, dim=EMBEDDER.dim, schema=schema, app_dsn=application_dsn(pg_dsn))
    store = PostgresStore(embedder_name=EMBEDDER.name, dim=EMBEDDER.dim, schema=schema,
                          app_dsn=application_dsn(pg_dsn), signing_key=read_signing_key(pg_dsn, schema))
    memory = LongTermMemory(EMBEDDER, policy=accept_all, store=store)
    try:
        assert memory.remember(ALICE, "semantic", "Alice's fiscal year starts in April.").stored
        assert [r.content for r in memory.recall(ALICE, "fiscal year")] == ["Alice's fiscal year starts in April."]
    finally:
        memory.close()


def test_a_failed_write_changes_nothing(pg_dsn: str, schema: str) -> None:
    memory = _pg(pg_dsn, schema)
    memory.remember(ALICE, "semantic", "Alice's fiscal year starts in April.", key="fy")
    before = memory.export(ALICE)
    rows = [NewRecord("semantic", "July", "fy", "t", 5, supersedes=before[0]["id"]),
            NewRecord("gossip", "bad", None, "t", 5)]  # an unknown kind, slipped past the logic's checks
    with pytest.raises(psycopg.errors.CheckViolation):  # the database refuses it and the whole write rolls back
        memory.store.write(ALICE, rows, EMBEDDER.embed(["July", "bad"]))  # under the memory logic, on purpose
    assert memory.export(ALICE) == before
    memory.close()


def test_a_row_edited_in_sql_is_reported_never_recalled(pg_dsn: str, schema: str) -> None:
    memory = _pg(pg_dsn, schema)
    memory.remember(ALICE, "semantic", "Alice's fiscal year starts in April.", key="fy")
    with psycopg.connect(pg_dsn, autocommit=True) as admin:  # the server's owner, as a hand edit would be
        admin.execute(f'UPDATE "{schema}".records SET importance = 99')
    for read in (lambda: memory.export(ALICE), lambda: memory.recall(ALICE, "fiscal year")):
        with pytest.raises(StoreFileError, match="damaged record .* importance is 99"):
            read()
    memory.close()


def test_the_notebooks_summaries_and_the_search_comparison(pg_dsn: str) -> None:
    from primer_memory.postgres import role_summary, server_summary
    from primer_memory.long_term.storage.postgres import APP_ROLE
    from primer_memory.lessons.vector_search import hnsw_tradeoff

    summary = server_summary(pg_dsn)
    assert summary["PostgreSQL"].split(".")[0].isdigit() and summary["pgvector"] >= "0.8"
    assert not any("/" in value and "socket" not in value for value in summary.values())  # no address shown
    setup(pg_dsn, schema="summary_probe", dim=4, embedder_name="x")
    assert role_summary(pg_dsn, APP_ROLE) == {"role": APP_ROLE, "superuser": False, "bypassrls": False,
                                              "tables owned": 0}
    drop_schema(pg_dsn, "summary_probe")
    exact, hnsw = hnsw_tradeoff(pg_dsn, schema="tradeoff_probe", tenants=3, per_tenant=30, questions=6)
    assert (exact.mode, exact.recall_at_k, exact.fewer_than_k) == ("exact", 1.0, 0)
    assert exact.index and "hnsw" not in exact.index and hnsw.index == "records_embedding_hnsw"  # a B-tree finds it
    assert 0.0 <= hnsw.recall_at_k <= 1.0


def test_an_existing_role_that_would_bypass_rls_is_refused_not_altered(pg_dsn: str, schema: str) -> None:
    with psycopg.connect(pg_dsn, autocommit=True) as admin:
        admin.execute("DROP ROLE IF EXISTS primer_test_bypass")
        admin.execute("CREATE ROLE primer_test_bypass LOGIN BYPASSRLS")
    try:
        with pytest.raises(PostgresSetupError, match="BYPASSRLS"):
            setup(pg_dsn, schema=schema, dim=4, embedder_name="x", app_role="primer_test_bypass")
    finally:
        with psycopg.connect(pg_dsn, autocommit=True) as admin:
            admin.execute("DROP ROLE IF EXISTS primer_test_bypass")


def test_an_application_password_reaches_the_role_and_the_dsn(pg_dsn: str, schema: str) -> None:
    from psycopg.conninfo import conninfo_to_dict

    from primer_memory.long_term.storage.postgres import application_dsn

    dsn = application_dsn(pg_dsn, app_password="s3cret 'quoted'")
    assert conninfo_to_dict(dsn)["password"] == "s3cret 'quoted'" and conninfo_to_dict(dsn)["user"] == "primer_app"
    setup(pg_dsn, schema=schema, dim=4, embedder_name="x", app_password="s3cret 'quoted'")
    with psycopg.connect(pg_dsn) as admin:
        assert admin.execute("SELECT rolpassword IS NOT NULL FROM pg_authid WHERE rolname = 'primer_app'").fetchone()[0]
        admin.execute("ALTER ROLE primer_app PASSWORD NULL")  # leave the shared role as the other tests expect


def test_two_servers_racing_on_a_new_key_leave_one_current_value(pg_dsn: str, schema: str) -> None:
    """Both looked before either wrote, so both plan a first value for the key: the database lets one in."""
    one, two = _pg(pg_dsn, schema), _pg(pg_dsn, schema)
    april = [NewRecord("semantic", "Alice's fiscal year starts in April.", "fy", "t", 5)]
    july = [NewRecord("semantic", "Alice's fiscal year starts in July.", "fy", "t", 5)]
    one.store.write(ALICE, april, EMBEDDER.embed([april[0].content]))
    with pytest.raises(WriteConflict, match="write again"):
        two.store.write(ALICE, july, EMBEDDER.embed([july[0].content]))
    with pytest.raises(WriteConflict):  # the same memory twice, planned by two servers at once
        two.store.write(ALICE, april, EMBEDDER.embed([april[0].content]))
    assert [(r.content, r.current) for r in two.history(ALICE, "fy")] == [("Alice's fiscal year starts in April.", True)]
    two.remember(ALICE, "semantic", "Alice's fiscal year starts in July.", key="fy")  # a fresh look: supersedes
    assert [r.current for r in one.history(ALICE, "fy")] == [False, True]
    one.close()
    two.close()


def test_indexes_are_read_from_every_kind_of_plan_line() -> None:
    from primer_memory.lessons.vector_search import indexes_in_plan

    plan = ("CTE part\n  ->  Bitmap Heap Scan on records\n        ->  Bitmap Index Scan on records_pkey\n"
            "Limit\n  ->  Index Scan using records_embedding_hnsw on records\nSeq Scan on scopes")
    assert indexes_in_plan(plan) == ["records_embedding_hnsw", "records_pkey"]
    assert indexes_in_plan("Seq Scan on records") == []


@pytest.mark.postgres
def test_long_term_memory_takes_a_dsn(pg_dsn: str) -> None:
    """`LongTermMemory(dsn=...)`: the lesson's calls on PostgreSQL, with no other set-up."""
    from primer_memory import LongTermMemory, Scope

    memory = LongTermMemory(dsn=pg_dsn)
    me = Scope("dsn-keyword-tenant", "alice")
    memory.delete_user(me)
    assert memory.remember(me, "semantic", "Alice's fiscal year starts in April.", key="fiscal_year_start").stored
    memory.remember(me, "semantic", "Alice's fiscal year starts in July.", key="fiscal_year_start",
                    source="user correction")
    assert [r.content for r in memory.recall(me, "when does the fiscal year start?", k=3)] == [
        "Alice's fiscal year starts in July."]
    assert [r.current for r in memory.history(me, "fiscal_year_start")] == [False, True]
    assert memory.delete_user(me) == 2
    with pytest.raises(TypeError, match="at most one"):
        LongTermMemory(dsn=pg_dsn, path="x.db")
