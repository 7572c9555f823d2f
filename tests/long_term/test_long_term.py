"""Long-term memory: the lesson's examples, supersession, forgetting, isolation, persistence, erasure, bad input."""

from __future__ import annotations

import json
import sqlite3
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from primer_memory.long_term.embedding import EmbeddingError, HashingEmbedder
from primer_memory.lessons.examples import ALICE_MEMORIES, RECALL_QUESTIONS, alice_memories, alice_scope, alice_store
from primer_memory.long_term.memory import (
    KINDS,
    InvalidMemory,
    InvalidQuery,
    LongTermMemory,
    MemoryRecord,
    RecordNotFound,
    Scope,
    ScopeError,
    StoreClosed,
    StoreFileError,
    WriteResult,
)
from helpers import accept_all, disk_bytes
from primer_memory.policy.rules import PolicyDecision

ALICE = Scope("acme", "alice")
BOB = Scope("acme", "bob")
CAROL = Scope("globex", "carol")


@pytest.fixture(params=["memory", "sqlite"])
def store(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[LongTermMemory]:
    """The same tests run against the in-memory store and the SQLite-backed one."""
    path = tmp_path / "memory.db" if request.param == "sqlite" else None
    memory = LongTermMemory(path=path)
    yield memory
    memory.close()


@pytest.fixture
def alice(store: LongTermMemory) -> LongTermMemory:
    store.remember_many(ALICE, alice_memories())
    return store


def snapshot(memory: LongTermMemory, *scopes: Scope) -> Any:
    """Everything observable about some scopes: exports plus a recall per scope."""
    return [
        (memory.export(s), [r.id for r in memory.recall(s, "invoices Globex travel fiscal year", k=10)])
        for s in scopes
    ]


def raw_rows(path: Path) -> list[tuple[Any, ...]]:
    conn = sqlite3.connect(path)
    try:
        return conn.execute("SELECT * FROM records ORDER BY tenant_id, user_id, seq").fetchall() + \
            conn.execute("SELECT * FROM partitions ORDER BY tenant_id, user_id").fetchall()
    finally:
        conn.close()


# --------------------------------------------------------------------------- scope


@pytest.mark.parametrize(
    ("tenant", "user", "message"),
    [
        ("", "alice", "tenant_id is required"),
        ("acme", "", "user_id is required"),
        ("acme", "   ", "user_id is required"),
        (None, "alice", "tenant_id must be a string"),
        ("acme", 7, "user_id must be a string"),
        (" acme", "alice", "whitespace"),
        ("acme", "alice\n", "whitespace"),
        ("ac\x00me", "alice", "control characters"),
        ("acme", "x" * 257, "at most 256"),
    ],
)
def test_scope_refuses_missing_or_unclean_parts(tenant: object, user: object, message: str) -> None:
    with pytest.raises(ScopeError, match=message):
        Scope(tenant, user)  # type: ignore[arg-type]


def test_scope_is_a_frozen_value() -> None:
    assert Scope("acme", "alice") == ALICE and hash(Scope("acme", "alice")) == hash(ALICE)
    assert Scope("acme", "a") != Scope("acme-corp", "a") and str(ALICE) == "acme/alice"
    with pytest.raises(AttributeError):
        ALICE.user_id = "bob"  # type: ignore[misc]
    assert issubclass(ScopeError, ValueError)


def test_every_call_needs_a_scope(alice: LongTermMemory) -> None:
    for call in (
        lambda: alice.remember(("acme", "alice"), "semantic", "x y z"),  # type: ignore[arg-type]
        lambda: alice.recall("acme/alice", "Globex"),  # type: ignore[arg-type]
        lambda: alice.history(None, "k"),  # type: ignore[arg-type]
        lambda: alice.export({"tenant_id": "acme"}),  # type: ignore[arg-type]
        lambda: alice.forget(None, "mem-1"),  # type: ignore[arg-type]
        lambda: alice.delete_user("alice"),  # type: ignore[arg-type]
    ):
        with pytest.raises(ScopeError, match="Scope"):
            call()


# --------------------------------------------------------------------------- the lesson's examples


def test_globex_question_recalls_the_diary_entry(alice: LongTermMemory) -> None:
    question, kinds = RECALL_QUESTIONS[0]
    best = alice.recall(ALICE, question, k=1, kinds=kinds)
    assert [r.kind for r in best] == ["episodic"]
    assert "rejected the vendor Globex" in best[0].content


def test_reconcile_question_with_procedural_kind_recalls_the_habit(alice: LongTermMemory) -> None:
    question, kinds = RECALL_QUESTIONS[1]
    assert kinds == ("procedural",)
    recalled = alice.recall(ALICE, question, k=3, kinds=kinds)
    assert recalled[0].content.startswith("To reconcile invoices")
    assert all(r.kind == "procedural" for r in recalled)
    assert alice.recall(ALICE, question, k=1)[0] == recalled[0]  # tallest bar even without the filter


def test_kinds_filter_changes_the_answer(alice: LongTermMemory) -> None:
    question = "what should I do when a vendor sends invoices late?"
    assert alice.recall(ALICE, question, k=1)[0].kind == "episodic"
    assert alice.recall(ALICE, question, k=1, kinds=("procedural",))[0].content.startswith("To reconcile")


def test_records_carry_the_fields_the_lesson_lists(alice: LongTermMemory) -> None:
    records = alice.export(ALICE)
    assert all(isinstance(r, MemoryRecord) for r in alice.history(ALICE, "fiscal_year_start"))
    assert [r["seq"] for r in records] == list(range(1, len(ALICE_MEMORIES) + 1))
    first = records[1]
    assert first["kind"] == "semantic" and first["key"] == "fiscal_year_start"
    assert first["source"] == "conversation" and first["superseded_by"] is None and first["current"]
    assert first["id"].startswith("mem-")
    assert len({r["id"] for r in records}) == len(records)


def test_recall_results_are_best_first_with_k_respected(alice: LongTermMemory) -> None:
    scored = alice.recall_with_scores(ALICE, "invoices", k=2)
    assert len(scored) == 2
    assert scored[0][1] >= scored[1][1] > 0
    assert len(alice.recall(ALICE, "invoices", k=50)) <= len(ALICE_MEMORIES)


def test_recall_returns_k_records_whatever_their_score(alice: LongTermMemory) -> None:
    # Only stop words: nothing to compare, every cosine is 0, yet the lesson's recall(...)[0] still works.
    scored = alice.recall_with_scores(ALICE, "what is it?")
    assert len(scored) == 3 and all(s == 0 for _, s in scored)
    assert [r.seq for r, _ in scored] == [6, 5, 4]  # ties go to the newer record
    assert alice.recall(ALICE, "what is it?", min_score=0.01) == []  # the relevance floor keeps them out
    # A made-up word shares no word with any memory; only hash collisions of its n-grams can score, faintly.
    noise = max(score for _, score in alice.recall_with_scores(ALICE, "zzzqx", k=10))
    assert noise < 0.15 < alice.recall_with_scores(ALICE, "Globex", k=1)[0][1]
    assert alice.recall(ALICE, "zzzqx", k=10, min_score=0.15) == []
    assert [r.content for r in alice.recall(ALICE, "Globex", k=10, min_score=0.15)] == [ALICE_MEMORIES[0]["content"]]
    assert alice.recall(BOB, "Globex") == []  # an empty scope


@pytest.mark.parametrize("floor", [-1.5, 2, "high", True, float("nan")])
def test_min_score_must_be_a_cosine(alice: LongTermMemory, floor: object) -> None:
    with pytest.raises(InvalidQuery, match="min_score"):
        alice.recall(ALICE, "Globex", min_score=floor)  # type: ignore[arg-type]


def test_a_held_record_is_a_snapshot_and_get_tells_the_truth(alice: LongTermMemory) -> None:
    april = alice.history(ALICE, "fiscal_year_start")[0]
    july = alice.remember(ALICE, "semantic", "Alice's fiscal year starts in July.", key="fiscal_year_start").record
    assert april.current  # as it was when it was read ...
    assert not alice.get(ALICE, april.id).current  # ... and as it is now
    assert alice.get(ALICE, april.id).superseded_by == july.id  # type: ignore[union-attr]
    with pytest.raises(RecordNotFound):
        alice.get(CAROL, april.id)


def test_similarities_cover_every_current_record_in_write_order(alice: LongTermMemory) -> None:
    pairs = alice.similarities(ALICE, "what happened with Globex?")
    assert [r.seq for r, _ in pairs] == list(range(1, 7))
    best = max(pairs, key=lambda p: p[1])[0]
    assert best == alice.recall(ALICE, "what happened with Globex?", k=1)[0]
    procedural = alice.similarities(ALICE, "reconcile", kinds=("procedural",))
    assert {r.kind for r, _ in procedural} == {"procedural"}


def test_alice_store_helper_holds_her_six_memories() -> None:
    with alice_store() as memory:
        assert len(memory.export(alice_scope())) == 6


# --------------------------------------------------------------------------- the write policy


def test_policy_skips_small_talk_and_refuses_credentials(store: LongTermMemory) -> None:
    skipped = store.remember(ALICE, "episodic", "thanks, great!")
    refused = store.remember(ALICE, "semantic", "my VPN password is hunter2")
    assert (skipped.stored, refused.stored) == (False, False)
    assert skipped.reason.startswith("skipped") and refused.reason.startswith("refused")
    assert "hunter2" not in refused.reason
    assert skipped.record is None and refused.record is None
    assert store.export(ALICE) == []
    stored = store.remember(ALICE, "semantic", "Alice approves travel for her team.")
    assert isinstance(stored, WriteResult) and stored.stored and stored.record is not None


def test_the_policy_is_pluggable(tmp_path: Path) -> None:
    seen: list[str] = []

    def never(content: str) -> PolicyDecision:
        seen.append(content)
        return PolicyDecision("skip", "skipped: test policy")

    memory = LongTermMemory(policy=never)
    assert memory.remember(ALICE, "semantic", "Alice likes tea.") == WriteResult(False, "skipped: test policy")
    assert seen == ["Alice likes tea."] and memory.export(ALICE) == []
    with pytest.raises(TypeError, match="PolicyDecision"):
        LongTermMemory(policy=lambda c: "store").remember(ALICE, "semantic", "x y")  # type: ignore[arg-type,return-value]


def test_duplicate_of_a_current_record_is_not_stored_twice(alice: LongTermMemory) -> None:
    again = alice.remember(ALICE, "semantic", "Alice's fiscal year starts in April.", key="fiscal_year_start")
    assert not again.stored and again.reason.startswith("skipped: already remembered as")
    assert again.record is not None and again.record.seq == 2
    assert len(alice.export(ALICE)) == 6
    other_kind = alice.remember(ALICE, "episodic", "Alice's fiscal year starts in April.")
    assert other_kind.stored  # the same words as a diary entry are a different memory


def test_content_with_nothing_to_index_is_skipped(store: LongTermMemory) -> None:
    result = store.remember(ALICE, "semantic", "it is what it is")
    assert not result.stored and "no words to index" in result.reason
    assert store.export(ALICE) == []


# --------------------------------------------------------------------------- supersession and history


def test_correction_supersedes_and_history_keeps_both(alice: LongTermMemory) -> None:
    july = alice.remember(ALICE, "semantic", "Alice's fiscal year starts in July.", key="fiscal_year_start",
                          source="user correction")
    assert july.stored and "supersedes" in july.reason
    history = alice.history(ALICE, "fiscal_year_start")
    assert [(r.content, r.source) for r in history] == [
        ("Alice's fiscal year starts in April.", "conversation"),
        ("Alice's fiscal year starts in July.", "user correction"),
    ]
    assert history[0].superseded_by == history[1].id and not history[0].current and history[1].current
    recalled = alice.recall(ALICE, "when does the fiscal year start?", k=10)
    assert "Alice's fiscal year starts in July." in [r.content for r in recalled]
    assert "Alice's fiscal year starts in April." not in [r.content for r in recalled]
    exported = alice.export(ALICE)
    assert len(exported) == 7 and sum(not r["current"] for r in exported) == 1


def test_a_chain_of_corrections_keeps_one_current_value(store: LongTermMemory) -> None:
    for month in ("April", "July", "October"):
        store.remember(ALICE, "semantic", f"The fiscal year starts in {month}.", key="fy")
    history = store.history(ALICE, "fy")
    assert [r.current for r in history] == [False, False, True]
    assert history[0].superseded_by == history[1].id and history[1].superseded_by == history[2].id
    assert [r.content for r in store.recall(ALICE, "fiscal year", k=5)] == ["The fiscal year starts in October."]


def test_corrections_inside_one_batch(store: LongTermMemory) -> None:
    results = store.remember_many(ALICE, [
        {"kind": "semantic", "content": "Budget owner is Dana.", "key": "budget_owner"},
        {"kind": "semantic", "content": "Budget owner is Eve.", "key": "budget_owner", "source": "user correction"},
    ])
    assert [r.stored for r in results] == [True, True]
    first, second = store.history(ALICE, "budget_owner")
    assert first.superseded_by == second.id and second.current
    assert results[0].record == first  # the result shows the record as it ended up
    assert [r.content for r in store.recall(ALICE, "budget owner", k=5)] == ["Budget owner is Eve."]


def test_history_of_unknown_key_is_empty_and_key_is_checked(alice: LongTermMemory) -> None:
    assert alice.history(ALICE, "no_such_key") == []
    assert alice.history(BOB, "fiscal_year_start") == []
    with pytest.raises(InvalidMemory):
        alice.history(ALICE, "")
    with pytest.raises(InvalidMemory):
        alice.history(ALICE, None)  # type: ignore[arg-type]


# --------------------------------------------------------------------------- forget


def test_forgetting_the_current_value_does_not_bring_back_the_old_one(alice: LongTermMemory) -> None:
    july = alice.remember(ALICE, "semantic", "Alice's fiscal year starts in July.", key="fiscal_year_start").record
    assert july is not None
    forgotten = alice.forget(ALICE, july.id)
    assert forgotten.content == "Alice's fiscal year starts in July."
    history = alice.history(ALICE, "fiscal_year_start")
    assert [r.content for r in history] == ["Alice's fiscal year starts in April.", ""]
    assert history[0].superseded_by == july.id and not history[0].current  # still corrected, not current again
    stone = history[1]  # the tombstone says what the old record points at, and that it was forgotten
    assert (stone.id, stone.forgotten, stone.current, stone.key) == (july.id, True, False, "fiscal_year_start")
    assert alice.forget(ALICE, july.id) == stone  # forgetting again changes nothing
    recalled = [r.content for r in alice.recall(ALICE, "fiscal year starts", k=10)]
    assert not any("fiscal year" in c for c in recalled)
    # A new value for the key becomes current and supersedes nothing.
    october = alice.remember(ALICE, "semantic", "Alice's fiscal year starts in October.", key="fiscal_year_start")
    assert october.stored and "supersedes" not in october.reason
    assert alice.recall(ALICE, "fiscal year starts", k=1)[0].content.endswith("October.")


def test_forgetting_an_old_value_leaves_the_current_one(alice: LongTermMemory) -> None:
    alice.remember(ALICE, "semantic", "Alice's fiscal year starts in July.", key="fiscal_year_start")
    april = alice.history(ALICE, "fiscal_year_start")[0]
    alice.forget(ALICE, april.id)
    history = alice.history(ALICE, "fiscal_year_start")
    assert [(r.content, r.forgotten) for r in history] == [("", True), ("Alice's fiscal year starts in July.", False)]
    assert alice.recall(ALICE, "fiscal year", k=1)[0].content.endswith("July.")


def test_forget_only_finds_ids_in_the_callers_scope(alice: LongTermMemory) -> None:
    carol = alice.remember(CAROL, "semantic", "Globex prefers invoices in euros.").record
    assert carol is not None
    before = snapshot(alice, ALICE, CAROL)
    with pytest.raises(RecordNotFound, match="no record") as caught:
        alice.forget(ALICE, carol.id)
    assert "euros" not in str(caught.value)
    with pytest.raises(RecordNotFound):
        alice.forget(ALICE, "mem-0000000000")
    with pytest.raises(RecordNotFound):
        alice.forget(ALICE, 42)  # type: ignore[arg-type]
    assert snapshot(alice, ALICE, CAROL) == before
    assert issubclass(RecordNotFound, KeyError)


def test_forgotten_ids_are_never_reused(store: LongTermMemory) -> None:
    first = store.remember(ALICE, "semantic", "Alice likes green tea.").record
    assert first is not None
    store.forget(ALICE, first.id)
    second = store.remember(ALICE, "semantic", "Alice likes black coffee.").record
    assert second is not None and second.id != first.id and second.seq == 2


def test_ids_are_never_reused_after_delete_user(tmp_path: Path) -> None:
    path = tmp_path / "ids.db"
    seen: set[str] = set()
    for _ in range(3):  # write, erase, reopen the file, write again: never an old id
        with LongTermMemory(path=path) as memory:
            ids = [r.record.id for r in memory.remember_many(ALICE, alice_memories())]  # type: ignore[union-attr]
            assert not seen & set(ids)
            seen |= set(ids)
            memory.delete_user(ALICE)
    in_memory = LongTermMemory()
    first = {r.record.id for r in in_memory.remember_many(ALICE, alice_memories())}  # type: ignore[union-attr]
    in_memory.delete_user(ALICE)
    again = {r.record.id for r in in_memory.remember_many(ALICE, alice_memories())}  # type: ignore[union-attr]
    assert not first & again


# --------------------------------------------------------------------------- isolation


def test_recall_never_leaves_the_callers_partition(alice: LongTermMemory) -> None:
    alice.remember(Scope("acme", "alicia"), "semantic", "Acme plans to acquire Initech in Q4.")
    alice.remember(Scope("acme-corp", "alice"), "semantic", "Acme plans to acquire Initech in Q4.")
    alice.remember(CAROL, "semantic", "Globex prefers invoices in euros.")
    quote = "Acme plans to acquire Initech in Q4. tenant_id=acme OR 1=1"
    assert all(r.scope == CAROL for r in alice.recall(CAROL, quote, k=10))
    assert all(r.scope == ALICE for r in alice.recall(ALICE, quote, k=10))
    assert [r.content for r in alice.recall(CAROL, quote, k=10)] == ["Globex prefers invoices in euros."]


def test_hostile_strings_are_stored_as_plain_text(store: LongTermMemory) -> None:
    sly = Scope("acme'; DROP TABLE records; --", "x\" OR 1=1 --")
    text = "Robert'); DELETE FROM records WHERE ('1'='1 reviews the Globex invoices."
    result = store.remember(sly, "semantic", text, key="k'; --")
    assert result.stored
    assert store.recall(sly, "Globex invoices", k=1)[0].content == text
    assert store.history(sly, "k'; --")[0].content == text
    assert store.export(ALICE) == []


def test_threads_writing_many_scopes_keep_them_apart(store: LongTermMemory) -> None:
    scopes = [Scope(f"tenant{i % 3}", f"user{i}") for i in range(8)]

    def work(scope: Scope) -> None:
        for j in range(15):
            store.remember(scope, KINDS[j % 3], f"{scope.user_id} note number {j} about invoices")

    threads = [threading.Thread(target=work, args=(s,)) for s in scopes]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    for scope in scopes:
        exported = store.export(scope)
        assert [r["seq"] for r in exported] == list(range(1, 16))
        assert all(r["content"].startswith(scope.user_id + " ") for r in exported)
        assert all(r.scope == scope for r in store.recall(scope, "invoices note", k=20))


# --------------------------------------------------------------------------- export and erasure


def test_export_is_json_ready_and_can_be_written(alice: LongTermMemory, tmp_path: Path) -> None:
    alice.remember(ALICE, "semantic", "Alice's fiscal year starts in July.", key="fiscal_year_start")
    data = alice.export(ALICE, tmp_path / "alice.json")
    assert json.loads((tmp_path / "alice.json").read_text(encoding="utf-8")) == data
    assert json.loads(json.dumps(data)) == data
    assert {r["tenant_id"] for r in data} == {"acme"} and len(data) == 7
    assert alice.export(BOB) == []


def test_delete_user_erases_one_user_only(alice: LongTermMemory) -> None:
    alice.remember(BOB, "semantic", "Bob reviews Globex invoices on Mondays.")
    alice.remember(CAROL, "semantic", "Globex prefers invoices in euros.")
    assert alice.delete_user(ALICE) == 6
    assert alice.export(ALICE) == [] and alice.recall(ALICE, "Globex invoices") == []
    assert alice.history(ALICE, "fiscal_year_start") == []
    assert len(alice.export(BOB)) == 1 and len(alice.export(CAROL)) == 1
    assert alice.delete_user(ALICE) == 0
    again = alice.remember(ALICE, "semantic", "Alice joined the finance team.")
    assert again.stored and again.record is not None and again.record.seq == 1


def test_delete_user_clears_the_embedder_cache(store: LongTermMemory) -> None:
    embedder = store.embedder
    assert isinstance(embedder, HashingEmbedder)
    store.remember(ALICE, "semantic", "Alice's codename is Bluebird.")
    assert embedder._features.cache_info().currsize > 0
    store.delete_user(ALICE)
    assert embedder._features.cache_info().currsize == 0


def test_delete_user_leaves_no_trace_in_the_files(tmp_path: Path) -> None:
    path = tmp_path / "erase.db"
    secret = "Alice privately plans to leave for Umbrella Corp in March."
    memory = LongTermMemory(path=path, policy=accept_all)
    memory.remember_many(ALICE, alice_memories())
    memory.remember(ALICE, "semantic", secret, key="plans")
    memory.remember(ALICE, "semantic", secret.replace("March", "June"), key="plans")  # a superseded value too
    memory.remember(CAROL, "semantic", "Globex prefers invoices in euros.")
    memory.recall_scored(ALICE, "Umbrella plans", touch=True)  # an UPDATE in the WAL as well
    assert b"Umbrella" in disk_bytes(path)
    memory.delete_user(ALICE)
    needles = [b"Umbrella", b"Globex over late", b"fiscal year", b"reconcile", b"alice"]
    found = disk_bytes(path)
    assert [n for n in needles if n in found] == []  # while still open: erased "without undue delay"
    assert b"euros" in found
    memory.close()
    found = disk_bytes(path)
    assert [n for n in needles if n in found] == []
    with LongTermMemory(path=path) as reopened:
        assert reopened.export(ALICE) == [] and len(reopened.export(CAROL)) == 1


def test_forget_scrubs_the_text_from_the_files(tmp_path: Path) -> None:
    path = tmp_path / "forget.db"
    with LongTermMemory(path=path, policy=accept_all) as memory:
        record = memory.remember(ALICE, "semantic", "Alice's locker combination hint is Zanzibar.").record
        memory.remember(ALICE, "semantic", "Alice approves travel for her team.")
        assert record is not None and b"Zanzibar" in disk_bytes(path)
        memory.forget(ALICE, record.id)
        assert b"Zanzibar" not in disk_bytes(path)


# --------------------------------------------------------------------------- scored recall


def test_scored_recall_with_only_relevance_matches_plain_recall(alice: LongTermMemory) -> None:
    for question, kinds in RECALL_QUESTIONS:
        plain = alice.recall(alice_scope(), question, k=2, kinds=kinds)
        scored = alice.recall_scored(ALICE, question, k=2, kinds=kinds, w_recency=0, w_importance=0)
        assert [s.record for s in scored] == plain
        assert scored[0].relevance == 1.0 and scored[0].score == 1.0


def test_scored_recall_parts_are_normalised_and_weighted(alice: LongTermMemory) -> None:
    results = alice.recall_scored(ALICE, "invoices", k=6, w_relevance=1, w_recency=2, w_importance=0.5)
    assert len(results) == 6
    for r in results:
        assert 0 <= r.relevance <= 1 and 0 <= r.recency <= 1 and 0 <= r.importance <= 1
        assert r.score == pytest.approx(r.relevance + 2 * r.recency + 0.5 * r.importance)
        assert r.recency == pytest.approx((0.995**r.hours_since_access - 0.995**5) / (1 - 0.995**5))
    assert [r.score for r in results] == sorted((r.score for r in results), reverse=True)
    newest = alice.recall_scored(ALICE, "invoices", k=1, w_relevance=0, w_recency=1, w_importance=0)
    assert newest[0].record.seq == 6 and newest[0].hours_since_access == 0
    important = alice.recall_scored(ALICE, "invoices", k=1, w_relevance=0, w_recency=0, w_importance=1)
    assert important[0].record.importance == 8
    assert newest[0].content == newest[0].record.content


def test_scored_recall_uses_the_clock_and_touch(tmp_path: Path) -> None:
    hours = [100.0]
    path = tmp_path / "clock.db"
    memory = LongTermMemory(path=path, clock=lambda: hours[0])
    memory.remember(ALICE, "semantic", "Alice approves travel for her team.")
    hours[0] = 124.0
    memory.remember(ALICE, "semantic", "Alice approves invoices under 500 dollars.")
    hours[0] = 148.0
    result = memory.recall_scored(ALICE, "Alice approves", k=2, touch=True)
    assert sorted(r.hours_since_access for r in result) == [24.0, 48.0]
    assert all(r.record.last_access == 148.0 for r in result)
    memory.close()
    with LongTermMemory(path=path, clock=lambda: 150.0) as reopened:
        again = reopened.recall_scored(ALICE, "Alice approves", k=2)
        assert [r.hours_since_access for r in again] == [2.0, 2.0]
        assert [r.recency for r in again] == [1.0, 1.0]  # equal for every candidate: counts 1


def test_scored_recall_refuses_bad_weights(alice: LongTermMemory) -> None:
    before = snapshot(alice, ALICE)
    for bad in ({"w_recency": -1}, {"w_importance": float("nan")}, {"w_relevance": "1"}, {"now": "soon"},
                {"touch": 1}):
        with pytest.raises(InvalidQuery):
            alice.recall_scored(ALICE, "invoices", **bad)  # type: ignore[arg-type]
    assert snapshot(alice, ALICE) == before


# --------------------------------------------------------------------------- bad input changes nothing


BAD_WRITES = [
    ({"kind": "diary", "content": "Alice likes tea."}, InvalidMemory, "kind must be one of"),
    ({"kind": "semantic", "content": ""}, InvalidMemory, "content is empty"),
    ({"kind": "semantic", "content": "   \n"}, InvalidMemory, "content is empty"),
    ({"kind": "semantic", "content": None}, InvalidMemory, "content must be a string"),
    ({"kind": "semantic", "content": "Alice likes tea.", "key": ""}, InvalidMemory, "key must be"),
    ({"kind": "semantic", "content": "Alice likes tea.", "key": " fy"}, InvalidMemory, "whitespace"),
    ({"kind": "semantic", "content": "Alice likes tea.", "source": ""}, InvalidMemory, "source must be"),
    ({"kind": "semantic", "content": "Alice likes tea.", "importance": 11}, InvalidMemory, "1 to 10"),
    ({"kind": "semantic", "content": "Alice likes tea.", "importance": True}, InvalidMemory, "1 to 10"),
]


@pytest.mark.parametrize(("entry", "error", "message"), BAD_WRITES)
def test_bad_writes_raise_and_change_nothing(alice: LongTermMemory, entry: dict[str, Any], error: type,
                                             message: str) -> None:
    before = snapshot(alice, ALICE)
    with pytest.raises(error, match=message):
        alice.remember(ALICE, **entry)
    with pytest.raises(error, match=message):  # one bad entry refuses the whole batch
        alice.remember_many(ALICE, [{"kind": "semantic", "content": "Alice likes green tea."}, entry])
    assert snapshot(alice, ALICE) == before


def test_remember_many_refuses_unknown_fields_and_a_bare_mapping(alice: LongTermMemory) -> None:
    before = snapshot(alice, ALICE)
    with pytest.raises(InvalidMemory, match="unknown field 'kinds'"):
        alice.remember_many(ALICE, [{"kinds": "semantic", "content": "x y"}])
    with pytest.raises(InvalidMemory, match="list of memories"):
        alice.remember_many(ALICE, {"kind": "semantic", "content": "x y"})  # type: ignore[arg-type]
    assert snapshot(alice, ALICE) == before


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"k": 0}, "at least 1"),
        ({"k": -3}, "at least 1"),
        ({"k": 2.0}, "whole number"),
        ({"k": True}, "whole number"),
        ({"kinds": ()}, "at least one"),
        ({"kinds": ("diary",)}, "unknown kind 'diary'"),
        ({"kinds": "procedural"}, "bare string"),
        ({"kinds": 3}, "tuple of kinds"),
        ({"query": ""}, "question is empty"),
        ({"query": "  "}, "question is empty"),
        ({"query": None}, "must be a string"),
    ],
)
def test_bad_recalls_raise_and_change_nothing(alice: LongTermMemory, kwargs: dict[str, Any], message: str) -> None:
    before = snapshot(alice, ALICE)
    call = {"query": "invoices", **kwargs}
    with pytest.raises(InvalidQuery, match=message):
        alice.recall(ALICE, **call)
    with pytest.raises(InvalidQuery, match=message):
        alice.recall_scored(ALICE, **call)
    assert snapshot(alice, ALICE) == before


def test_bad_input_leaves_the_file_untouched(tmp_path: Path) -> None:
    path = tmp_path / "same.db"
    with LongTermMemory(path=path) as memory:
        memory.remember_many(ALICE, alice_memories())
        rows = raw_rows(path)
        for entry, error, _ in BAD_WRITES:
            with pytest.raises(error):
                memory.remember(ALICE, **entry)
        with pytest.raises(RecordNotFound):
            memory.forget(ALICE, "mem-nope")
        with pytest.raises(InvalidQuery):
            memory.recall(ALICE, "invoices", k=0)
        memory.remember(ALICE, "semantic", "my VPN password is hunter2")
        assert raw_rows(path) == rows


def test_a_failed_transaction_changes_neither_file_nor_memory(tmp_path: Path) -> None:
    path = tmp_path / "atomic.db"
    memory = LongTermMemory(path=path)
    memory.remember_many(ALICE, alice_memories())
    conn = sqlite3.connect(path)  # a trigger that makes the second insert of a batch fail inside the transaction
    conn.execute("CREATE TRIGGER boom BEFORE INSERT ON records WHEN NEW.content LIKE '%BOOM%'"
                 " BEGIN SELECT RAISE(ABORT, 'boom'); END")
    conn.commit()
    conn.close()
    before, rows = snapshot(memory, ALICE), raw_rows(path)
    with pytest.raises(sqlite3.IntegrityError, match="boom"):
        memory.remember_many(ALICE, [
            {"kind": "semantic", "content": "Alice's fiscal year starts in July.", "key": "fiscal_year_start"},
            {"kind": "episodic", "content": "BOOM went the invoice printer."},
        ])
    assert snapshot(memory, ALICE) == before and raw_rows(path) == rows
    memory.close()


# --------------------------------------------------------------------------- files


def test_memories_outlive_the_store_object(tmp_path: Path) -> None:
    path = tmp_path / "alice.db"
    with LongTermMemory(path=path) as first:
        first.remember_many(ALICE, alice_memories())
        first.remember(ALICE, "semantic", "Alice's fiscal year starts in July.", key="fiscal_year_start",
                       source="user correction")
        expected = snapshot(first, ALICE)
        scored = first.recall_scored(ALICE, "invoices", k=4)
    with LongTermMemory(path=path) as second:
        assert snapshot(second, ALICE) == expected
        assert second.recall_scored(ALICE, "invoices", k=4) == scored
        for question, kinds in RECALL_QUESTIONS:
            assert second.recall(ALICE, question, k=1, kinds=kinds)[0].kind == ("episodic", "procedural")[
                RECALL_QUESTIONS.index((question, kinds))]
        assert second.remember(ALICE, "semantic", "Alice likes tea.").record.seq == 8  # type: ignore[union-attr]


def test_file_uses_wal_secure_delete_and_large_pages(tmp_path: Path) -> None:
    path = tmp_path / "pragmas.db"
    with LongTermMemory(path=path) as memory:
        memory.remember(ALICE, "semantic", "Alice likes tea.")
        conn = memory.store.conn  # type: ignore[attr-defined]
        assert conn is not None
        assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
        assert conn.execute("PRAGMA secure_delete").fetchone()[0] == 1
        assert conn.execute("PRAGMA page_size").fetchone()[0] == 8192
    blob = sqlite3.connect(path).execute("SELECT vector FROM records").fetchone()[0]
    assert len(blob) == 4 * 512
    assert np.linalg.norm(np.frombuffer(blob, dtype=np.float32)) == pytest.approx(1.0, rel=1e-6)


@pytest.mark.parametrize(
    ("content", "message"),
    [
        (b"this is a text file, not a database\n" * 50, "not a usable primer-memory store"),
        (b"SQLite format 3\x00" + b"\xff" * 4080, "not a usable primer-memory store"),
    ],
)
def test_a_corrupt_file_is_refused_and_left_alone(tmp_path: Path, content: bytes, message: str) -> None:
    path = tmp_path / "notes.db"
    path.write_bytes(content)
    with pytest.raises(StoreFileError, match=message):
        LongTermMemory(path=path)
    assert path.read_bytes() == content
    assert sorted(p.name for p in tmp_path.iterdir()) == ["notes.db"]


def test_another_programs_database_is_refused_and_left_alone(tmp_path: Path) -> None:
    path = tmp_path / "crm.db"
    conn = sqlite3.connect(path)
    conn.execute("CREATE TABLE customers (name TEXT)")
    conn.execute("INSERT INTO customers VALUES ('Initech')")
    conn.commit()
    conn.close()
    content = path.read_bytes()
    with pytest.raises(StoreFileError, match="another program's SQLite database"):
        LongTermMemory(path=path)
    assert path.read_bytes() == content
    assert sqlite3.connect(path).execute("PRAGMA journal_mode").fetchone()[0] == "delete"


def test_a_damaged_store_is_reported_when_read(tmp_path: Path) -> None:
    path = tmp_path / "damaged.db"
    with LongTermMemory(path=path) as memory:
        memory.remember(ALICE, "semantic", "Alice likes tea.")
    conn = sqlite3.connect(path)
    conn.execute("UPDATE records SET vector = x'00'")
    conn.commit()
    conn.close()
    with LongTermMemory(path=path) as memory, pytest.raises(StoreFileError, match="stored vector"):
        memory.recall(ALICE, "tea")


def test_other_file_problems_get_clear_errors(tmp_path: Path) -> None:
    with pytest.raises(StoreFileError, match="not a regular file"):
        LongTermMemory(path=tmp_path)
    path = tmp_path / "dims.db"
    LongTermMemory(path=path).close()
    with pytest.raises(StoreFileError, match="embedder"):
        LongTermMemory(path=path, embedder=HashingEmbedder(dim=256))
    conn = sqlite3.connect(path)
    conn.execute("PRAGMA user_version = 99")
    conn.commit()
    conn.close()
    with pytest.raises(StoreFileError, match="schema version 99"):
        LongTermMemory(path=path)


def test_a_closed_store_says_so(tmp_path: Path) -> None:
    memory = LongTermMemory(path=tmp_path / "closed.db")
    memory.close()
    memory.close()  # closing twice is harmless
    with pytest.raises(StoreClosed):
        memory.recall(ALICE, "invoices")
    with pytest.raises(StoreClosed):
        memory.remember(ALICE, "semantic", "Alice likes tea.")
    assert "closed" in repr(memory)


def test_repr_never_shows_the_path(tmp_path: Path) -> None:
    with LongTermMemory(path=tmp_path / "hidden.db") as memory:
        assert str(tmp_path) not in repr(memory) and "SQLite file" in repr(memory)
    assert "in memory" in repr(LongTermMemory())


# --------------------------------------------------------------------------- embedders


class BadEmbedder:
    name = "bad"
    dim = 4

    def embed(self, texts: list[str]) -> np.ndarray:
        return np.full((len(texts), 3), 1.0)


def test_an_embedder_with_the_wrong_shape_is_caught(tmp_path: Path) -> None:
    memory = LongTermMemory(embedder=BadEmbedder())  # type: ignore[arg-type]
    with pytest.raises(EmbeddingError, match="shape"):
        memory.remember(ALICE, "semantic", "Alice likes tea.")
    assert memory.export(ALICE) == []
    with pytest.raises(EmbeddingError):
        LongTermMemory(embedder=object())  # type: ignore[arg-type]


class TinyEmbedder:
    """A two-dimensional 'model' that puts tea on one axis and coffee on the other."""

    name = "tiny-test-embedder"
    dim = 2

    def embed(self, texts: list[str]) -> np.ndarray:
        return np.array([[float("tea" in t), float("coffee" in t)] for t in texts])


def test_any_embedder_that_follows_the_protocol_works(tmp_path: Path) -> None:
    with LongTermMemory(embedder=TinyEmbedder(), path=tmp_path / "tiny.db", policy=accept_all) as memory:
        memory.remember(ALICE, "semantic", "Alice drinks tea.")
        memory.remember(ALICE, "semantic", "Alice drinks coffee.")
        assert memory.recall(ALICE, "coffee please", k=1)[0].content == "Alice drinks coffee."
    with LongTermMemory(embedder=TinyEmbedder(), path=tmp_path / "tiny.db") as memory:
        assert memory.recall(ALICE, "more tea", k=5)[0].content == "Alice drinks tea."


def test_large_partition_agrees_with_brute_force() -> None:
    """The fast path (one matrix product, argpartition, exact tie-break) equals sorting every record."""
    rng = np.random.default_rng(7)
    words = [f"w{i}" for i in range(60)]
    memory = LongTermMemory(policy=accept_all, embedder=HashingEmbedder(dim=64))
    entries = [{"kind": KINDS[i % 3], "content": " ".join(rng.choice(words, 4))} for i in range(1500)]
    memory.remember_many(ALICE, entries)
    for _ in range(20):
        query = " ".join(rng.choice(words, 2))
        for kinds in (KINDS, ("semantic",), ("episodic", "procedural")):
            pairs = memory.similarities(ALICE, query, kinds)
            expected = sorted(pairs, key=lambda p: (-p[1], -p[0].seq))[:7]
            got = memory.recall_with_scores(ALICE, query, k=7, kinds=kinds)
            assert [r.id for r, _ in got] == [r.id for r, _ in expected]


# --------------------------------------------------------------------------- properties (hypothesis)

from hypothesis import HealthCheck, given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402
from hypothesis.stateful import RuleBasedStateMachine, invariant, rule  # noqa: E402

WORDS = ["invoice", "invoices", "vendor", "Globex", "payment", "travel", "budget", "fiscal", "April", "July",
         "reconcile", "match", "team", "approve", "late", "euros", "Initech", "report"]
SCOPES = [Scope("acme", "a"), Scope("acme", "ab"), Scope("acme-corp", "a"), Scope("globex", "carol")]
sentences = st.lists(st.sampled_from(WORDS), min_size=1, max_size=5).map(" ".join)
keys = st.sampled_from([None, None, "fy", "owner"])
kind_sets = st.sampled_from([KINDS, ("episodic",), ("semantic", "procedural"), ("procedural",)])


class MemoryAndDiskAgree(RuleBasedStateMachine):
    """Random writes, recalls, forgets, exports, erasures and reopenings across sibling scopes.

    The in-memory store and the SQLite store get the same calls and must answer alike;
    no call in one scope may return, change or remove anything of another.
    """

    def __init__(self) -> None:
        super().__init__()
        import tempfile

        self.folder = tempfile.TemporaryDirectory()
        self.path = Path(self.folder.name) / "prop.db"
        self.memory = LongTermMemory(policy=accept_all, embedder=HashingEmbedder(dim=64))
        self.disk = LongTermMemory(policy=accept_all, embedder=HashingEmbedder(dim=64), path=self.path)
        self.known: dict[Scope, set[str]] = {s: set() for s in SCOPES}

    def teardown(self) -> None:
        self.memory.close()
        self.disk.close()
        self.folder.cleanup()

    def others(self, scope: Scope) -> list[tuple[Scope, list[dict[str, Any]]]]:
        return [(s, self.memory.export(s)) for s in SCOPES if s != scope]

    @rule(scope=st.sampled_from(SCOPES), kind=st.sampled_from(KINDS), content=sentences, key=keys)
    def remember(self, scope: Scope, kind: str, content: str, key: str | None) -> None:
        before = self.others(scope)
        a = self.memory.remember(scope, kind, content, key=key)
        b = self.disk.remember(scope, kind, content, key=key)
        assert a == b
        if a.stored:
            assert a.record is not None and a.record.scope == scope
            self.known[scope].add(a.record.id)
        assert self.others(scope) == before

    @rule(scope=st.sampled_from(SCOPES), query=sentences, k=st.integers(1, 6), kinds=kind_sets)
    def recall(self, scope: Scope, query: str, k: int, kinds: tuple[str, ...]) -> None:
        a = self.memory.recall_with_scores(scope, query, k=k, kinds=kinds)
        b = self.disk.recall_with_scores(scope, query, k=k, kinds=kinds)
        assert a == b
        assert len(a) <= k
        assert all(r.scope == scope and r.current and r.kind in kinds for r, s in a)
        assert [s for _, s in a] == sorted((s for _, s in a), reverse=True)
        everything = self.memory.similarities(scope, query, kinds)
        best = sorted(everything, key=lambda p: (-p[1], -p[0].seq))[:k]
        assert [r.id for r, _ in a] == [r.id for r, _ in best]

    @rule(scope=st.sampled_from(SCOPES), query=sentences, k=st.integers(1, 4),
          weights=st.tuples(st.floats(0, 2), st.floats(0, 2), st.floats(0, 2)))
    def recall_scored(self, scope: Scope, query: str, k: int, weights: tuple[float, float, float]) -> None:
        kw = dict(zip(("w_relevance", "w_recency", "w_importance"), weights))
        a = self.memory.recall_scored(scope, query, k=k, **kw)
        b = self.disk.recall_scored(scope, query, k=k, **kw)
        assert [r.record.id for r in a] == [r.record.id for r in b]
        assert all(r.record.scope == scope and r.record.current for r in a) and len(a) <= k

    @rule(scope=st.sampled_from(SCOPES), pick=st.integers(0, 10_000), foreign=st.booleans())
    def forget(self, scope: Scope, pick: int, foreign: bool) -> None:
        pool = sorted(set().union(*(v for s, v in self.known.items() if s != scope))) if foreign else \
            sorted(self.known[scope])
        if not pool:
            return
        record_id = pool[pick % len(pool)]
        before = self.others(scope)
        if foreign and record_id not in self.known[scope]:
            for store in (self.memory, self.disk):
                with pytest.raises(RecordNotFound):
                    store.forget(scope, record_id)
        else:
            forgotten = self.memory.forget(scope, record_id)
            assert forgotten == self.disk.forget(scope, record_id)
            if forgotten.key is None:  # a keyed record leaves a tombstone in its key's history
                self.known[scope].discard(record_id)
        assert self.others(scope) == before

    @rule(scope=st.sampled_from(SCOPES))
    def delete_user(self, scope: Scope) -> None:
        before = self.others(scope)
        assert self.memory.delete_user(scope) == self.disk.delete_user(scope) == len(self.known[scope])
        self.known[scope].clear()
        assert self.others(scope) == before

    @rule(key=st.sampled_from(["fy", "owner"]), scope=st.sampled_from(SCOPES))
    def history(self, key: str, scope: Scope) -> None:
        history = self.memory.history(scope, key)
        assert history == self.disk.history(scope, key)
        assert [r.seq for r in history] == sorted(r.seq for r in history)
        assert sum(r.current for r in history) <= 1
        assert all(r.scope == scope and r.key == key for r in history)

    @rule()
    def reopen(self) -> None:
        self.disk.close()
        self.disk = LongTermMemory(policy=accept_all, embedder=HashingEmbedder(dim=64), path=self.path)

    @invariant()
    def same_everywhere(self) -> None:
        for scope in SCOPES:
            exported = self.memory.export(scope)
            assert exported == self.disk.export(scope)
            assert {r["id"] for r in exported} == self.known[scope]
            assert all((r["tenant_id"], r["user_id"]) == (scope.tenant_id, scope.user_id) for r in exported)
            current_keys = [r["key"] for r in exported if r["current"] and r["key"] is not None]
            assert len(current_keys) == len(set(current_keys))  # at most one current value per key


TestMemoryAndDiskAgree = MemoryAndDiskAgree.TestCase
TestMemoryAndDiskAgree.settings = settings(max_examples=40, stateful_step_count=25, deadline=None,
                                           suppress_health_check=[HealthCheck.too_slow])


@settings(max_examples=40, deadline=None)
@given(
    mine=st.lists(st.tuples(st.sampled_from(KINDS), sentences), min_size=1, max_size=8),
    theirs=st.lists(st.tuples(st.sampled_from(KINDS), sentences), min_size=1, max_size=8),
    k=st.integers(1, 10),
)
def test_quoting_another_scope_word_for_word_never_reaches_it(
    mine: list[tuple[str, str]], theirs: list[tuple[str, str]], k: int
) -> None:
    memory = LongTermMemory(policy=accept_all, embedder=HashingEmbedder(dim=64))
    me, them = Scope("acme", "a"), Scope("acme", "ab")
    memory.remember_many(me, [{"kind": kd, "content": c} for kd, c in mine])
    memory.remember_many(them, [{"kind": kd, "content": c} for kd, c in theirs])
    for _, content in theirs:
        for record in memory.recall(me, f"{content} tenant_id=acme OR 1=1", k=k):
            assert record.scope == me


def test_a_version_1_file_is_migrated_in_place(tmp_path: Path) -> None:
    path = tmp_path / "v1.db"
    with LongTermMemory(path=path) as memory:
        memory.remember_many(ALICE, alice_memories())
        expected = snapshot(memory, ALICE)
    conn = sqlite3.connect(path)  # take the file back to schema version 1, as the previous release wrote it
    conn.executescript("DROP INDEX records_by_id; ALTER TABLE partitions DROP COLUMN generation;"
                       " ALTER TABLE records DROP COLUMN forgotten; ALTER TABLE records DROP COLUMN text_hash;"
                       " ALTER TABLE records DROP COLUMN key_hash; ALTER TABLE records DROP COLUMN provenance;"
                       " DELETE FROM meta WHERE name = 'erasures'; PRAGMA user_version = 1;")
    conn.close()
    with LongTermMemory(path=path) as memory:
        assert snapshot(memory, ALICE) == expected
        again = memory.remember(ALICE, "semantic", "Alice's fiscal year starts in April.", key="fiscal_year_start")
        assert not again.stored and "already remembered" in again.reason  # the hashes were filled in
        assert memory.delete_user(ALICE) == 6
    assert sqlite3.connect(path).execute("PRAGMA user_version").fetchone()[0] == 3  # versions 2 and 3 applied
