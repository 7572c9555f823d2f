"""One contract for every long-term storage backend: the same tests, one `store` fixture per backend.

A new backend joins by adding one entry to BACKENDS (a function that opens a
fresh, empty `MemoryStore` for an embedder's name and dim). Everything below
runs against each: the lesson's examples, supersession, history, export,
forget, delete_user, bad input, the protocol's own promises, and a hypothesis
state machine that compares the backend with a plain Python model.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, invariant, precondition, rule

from helpers import accept_all
from primer_memory.long_term.embedding import HashingEmbedder
from primer_memory.lessons.examples import ALICE_MEMORIES, RECALL_QUESTIONS, alice_memories
from primer_memory.long_term.memory import (
    KINDS,
    InvalidMemory,
    InvalidQuery,
    LongTermMemory,
    RecordNotFound,
    Scope,
    ScopeError,
    WriteConflict,
)
from primer_memory.long_term.storage import MemoryStore, NewRecord

ALICE = Scope("acme", "alice")
CAROL = Scope("globex", "carol")
NEIGHBOURS = [Scope("acme", "alicia"), Scope("acme-corp", "alice"), Scope("acme", "ali")]


def _memory(tmp: Path, embedder_name: str, dim: int) -> MemoryStore:
    from primer_memory.long_term.storage.memory import InMemoryStore

    return InMemoryStore(dim)


def _sqlite(tmp: Path, embedder_name: str, dim: int) -> MemoryStore:
    from primer_memory.long_term.storage.sqlite import SQLiteStore

    return SQLiteStore(tmp / "contract.db", embedder_name, dim)


def _postgres(tmp: Path, embedder_name: str, dim: int) -> MemoryStore:
    import uuid

    from primer_memory.postgres import local_server
    from primer_memory.long_term.storage.postgres import PostgresStore

    schema = "contract_" + uuid.uuid4().hex[:12]  # a fresh schema per store; the embedded server goes at exit
    return PostgresStore(local_server(), embedder_name=embedder_name, dim=dim, schema=schema, pool_size=1)


BACKENDS: dict[str, Callable[[Path, str, int], MemoryStore]] = {
    "memory": _memory, "sqlite": _sqlite, "postgres": _postgres}
"""name -> open a fresh, empty backend in the given folder."""


@pytest.fixture(params=[pytest.param(name, marks=[pytest.mark.postgres] if name == "postgres" else [])
                        for name in sorted(BACKENDS)])
def backend_factory(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Callable[..., Any]:
    """A function giving LongTermMemory objects, each on a fresh backend of this kind."""
    opened: list[LongTermMemory] = []

    def make(embedder: HashingEmbedder | None = None, **kwargs: Any) -> LongTermMemory:
        embedder = embedder or HashingEmbedder()
        folder = tmp_path_factory.mktemp(request.param)
        memory = LongTermMemory(embedder=embedder, store=BACKENDS[request.param](folder, embedder.name, embedder.dim),
                                **kwargs)
        opened.append(memory)
        return memory

    yield make
    for memory in opened:
        memory.close()


@pytest.fixture
def store(backend_factory: Callable[..., LongTermMemory]) -> LongTermMemory:
    return backend_factory()


@pytest.fixture
def alice(store: LongTermMemory) -> LongTermMemory:
    store.remember_many(ALICE, alice_memories())
    return store


def everything(memory: LongTermMemory, *scopes: Scope) -> Any:
    return [(memory.export(s), [r.id for r in memory.recall(s, "invoices Globex travel fiscal year", k=10)])
            for s in scopes]


# --------------------------------------------------------------------------- the lesson's examples


def test_the_lesson_examples(alice: LongTermMemory) -> None:
    assert isinstance(alice.store, MemoryStore)
    assert [r["content"] for r in alice.export(ALICE)] == [m["content"] for m in ALICE_MEMORIES]
    globex, reconcile = RECALL_QUESTIONS
    assert alice.recall(ALICE, globex[0], k=1, kinds=globex[1])[0].kind == "episodic"
    assert alice.recall(ALICE, reconcile[0], k=1, kinds=reconcile[1])[0].content.startswith("To reconcile")
    scored = alice.recall_with_scores(ALICE, globex[0], k=3)
    assert len(scored) == 3 and [s for _, s in scored] == sorted((s for _, s in scored), reverse=True)
    assert len(alice.recall(ALICE, "what is it?", k=10)) == 6  # recall(...)[0] works whatever the scores
    assert alice.recall(ALICE, "what is it?", min_score=0.01) == []


def test_the_lesson_examples_hold_with_the_semantic_embedder(backend_factory: Callable[..., LongTermMemory]) -> None:
    from primer_memory import SemanticEmbedder

    memory = backend_factory(embedder=SemanticEmbedder())
    memory.remember_many(ALICE, alice_memories())
    globex, reconcile = RECALL_QUESTIONS
    assert memory.recall(ALICE, globex[0], k=1, kinds=globex[1])[0].kind == "episodic"
    assert memory.recall(ALICE, reconcile[0], k=1, kinds=reconcile[1])[0].content.startswith("To reconcile")
    memory.remember(ALICE, "semantic", "Alice's fiscal year starts in July.", key="fiscal_year_start")
    assert memory.recall(ALICE, "when does the budget year begin?", k=1)[0].content.endswith("July.")


def test_supersession_history_and_atomic_correction(alice: LongTermMemory) -> None:
    april = alice.history(ALICE, "fiscal_year_start")[0]
    july = alice.remember(ALICE, "semantic", "Alice's fiscal year starts in July.", key="fiscal_year_start",
                          source="user correction")
    assert july.stored and f"supersedes {april.id}" in july.reason
    history = alice.history(ALICE, "fiscal_year_start")
    assert [(r.content, r.source, r.current) for r in history] == [
        ("Alice's fiscal year starts in April.", "conversation", False),
        ("Alice's fiscal year starts in July.", "user correction", True)]
    assert history[0].superseded_by == history[1].id
    recalled = [r.content for r in alice.recall(ALICE, "fiscal year starts", k=10)]
    assert "Alice's fiscal year starts in July." in recalled and "Alice's fiscal year starts in April." not in recalled
    batch = alice.remember_many(ALICE, [
        {"kind": "semantic", "content": "Alice's fiscal year starts in May.", "key": "fiscal_year_start"},
        {"kind": "semantic", "content": "Alice's fiscal year starts in June.", "key": "fiscal_year_start"},
    ])
    assert [r.record.current for r in batch] == [False, True]  # type: ignore[union-attr]
    assert sum(r.current for r in alice.history(ALICE, "fiscal_year_start")) == 1


def test_forgetting_leaves_a_history_that_explains_itself(alice: LongTermMemory) -> None:
    july = alice.remember(ALICE, "semantic", "Alice's fiscal year starts in July.", key="fiscal_year_start").record
    assert july is not None
    assert alice.forget(ALICE, july.id).content.endswith("July.")
    april, stone = alice.history(ALICE, "fiscal_year_start")
    assert april.superseded_by == stone.id and stone.forgotten and stone.content == "" and not stone.current
    assert not any("fiscal" in r.content for r in alice.recall(ALICE, "fiscal year", k=10))
    unkeyed = alice.export(ALICE)[0]["id"]
    alice.forget(ALICE, unkeyed)
    assert unkeyed not in {r["id"] for r in alice.export(ALICE)}  # nothing points at it: gone entirely


def test_export_is_complete_and_json_ready(alice: LongTermMemory) -> None:
    alice.remember(ALICE, "semantic", "Alice's fiscal year starts in July.", key="fiscal_year_start")
    rows = alice.export(ALICE)
    assert json.loads(json.dumps(rows)) == rows
    assert len(rows) == 7 and sum(not r["current"] for r in rows) == 1
    assert {"id", "kind", "content", "key", "source", "current", "seq", "superseded_by", "forgotten"} <= set(rows[0])
    assert [r["seq"] for r in rows] == list(range(1, 8))


def test_forget_and_delete_user_stay_in_their_scope(alice: LongTermMemory) -> None:
    for scope in NEIGHBOURS + [CAROL]:
        alice.remember(scope, "semantic", f"{scope.user_id} of {scope.tenant_id} keeps invoices.")
    before = everything(alice, CAROL, *NEIGHBOURS)
    theirs = alice.export(CAROL)[0]["id"]
    with pytest.raises(RecordNotFound):
        alice.forget(ALICE, theirs)
    old_ids = {r["id"] for r in alice.export(ALICE)}
    assert alice.delete_user(ALICE) == 6
    assert alice.export(ALICE) == [] and alice.recall(ALICE, "Globex") == []
    assert everything(alice, CAROL, *NEIGHBOURS) == before
    again = {r.record.id for r in alice.remember_many(ALICE, alice_memories())}  # type: ignore[union-attr]
    assert not again & old_ids  # ids are never reused


BAD_CALLS: list[tuple[str, tuple[Any, ...], dict[str, Any], type[Exception]]] = [
    ("remember", (ALICE, "diary", "x y z"), {}, InvalidMemory),
    ("remember", (ALICE, "semantic", "   "), {}, InvalidMemory),
    ("remember", (ALICE, "semantic", "Alice likes tea.", " key"), {}, InvalidMemory),
    ("remember", (ALICE, "semantic", "Alice likes tea."), {"importance": 11}, InvalidMemory),
    ("remember", (("acme", "alice"), "semantic", "Alice likes tea."), {}, ScopeError),
    ("remember_many", (ALICE, [{"kind": "semantic", "content": "fine"}, {"kind": "nope", "content": "x"}]), {},
     InvalidMemory),
    ("recall", (ALICE, ""), {}, InvalidQuery),
    ("recall", (ALICE, "invoices"), {"k": 0}, InvalidQuery),
    ("recall", (ALICE, "invoices"), {"kinds": "episodic"}, InvalidQuery),
    ("recall", (ALICE, "invoices"), {"min_score": 3}, InvalidQuery),
    ("history", (ALICE, None), {}, InvalidMemory),
    ("forget", (ALICE, "mem-0000000000"), {}, RecordNotFound),
    ("forget", (CAROL, "mem-0000000000"), {}, RecordNotFound),
    ("delete_user", ("acme/alice",), {}, ScopeError),
]


@pytest.mark.parametrize(("method", "args", "kwargs", "error"), BAD_CALLS, ids=[c[0] for c in BAD_CALLS])
def test_bad_input_changes_nothing(alice: LongTermMemory, method: str, args: tuple[Any, ...],
                                   kwargs: dict[str, Any], error: type[Exception]) -> None:
    before = everything(alice, ALICE, CAROL)
    with pytest.raises(error):
        getattr(alice, method)(*args, **kwargs)
    assert everything(alice, ALICE, CAROL) == before


# --------------------------------------------------------------------------- the protocol's own promises


def unit(*values: float) -> np.ndarray:
    v = np.array(values, dtype=np.float32)
    return v / np.linalg.norm(v)


def test_backend_search_ranks_every_current_record(backend_factory: Callable[..., LongTermMemory]) -> None:
    backend = backend_factory(embedder=HashingEmbedder(dim=16)).store
    vectors = np.zeros((4, 16), dtype=np.float32)
    vectors[0, 0] = vectors[1, 0] = 1.0  # a tie: the newer wins
    vectors[2, 1] = 1.0  # orthogonal: cosine 0
    vectors[3, 0] = -1.0  # opposite: cosine -1, still a current record
    new = [NewRecord(kind, f"text {i}", None, "test", 5) for i, kind in enumerate(("episodic", "semantic",
                                                                                    "episodic", "procedural"))]
    made = backend.write(ALICE, new, vectors)
    assert [r.seq for r in made] == [1, 2, 3, 4] and len({r.id for r in made}) == 4
    q = np.zeros(16, dtype=np.float32)
    q[0] = 1.0
    found = backend.search(ALICE, q, 10, KINDS)
    assert [(r.seq, round(s, 6)) for r, s in found] == [(2, 1.0), (1, 1.0), (3, 0.0), (4, -1.0)]
    assert [r.seq for r, _ in backend.search(ALICE, q, 2, ("episodic", "procedural"))] == [1, 3]
    assert [r.seq for r, _ in backend.scan(ALICE, q, ("episodic",))] == [1, 3]
    assert backend.search(CAROL, q, 10, KINDS) == [] and backend.last_seq(ALICE) == 4
    assert backend.get(CAROL, made[0].id) is None and backend.get(ALICE, made[0].id) == made[0]


def test_backend_write_is_one_transaction(backend_factory: Callable[..., LongTermMemory]) -> None:
    backend = backend_factory(embedder=HashingEmbedder(dim=16)).store
    vectors = np.tile(unit(*([1.0] * 16)), (2, 1))
    first = backend.write(ALICE, [NewRecord("semantic", "April", "fy", "conversation", 5)], vectors[:1])[0]
    second = backend.write(ALICE, [NewRecord("semantic", "July", "fy", "user correction", 5, supersedes=first.id)],
                           vectors[:1])[0]
    assert backend.get(ALICE, first.id).superseded_by == second.id  # type: ignore[union-attr]
    before = backend.records(ALICE)
    with pytest.raises(WriteConflict):  # superseding a record that is no longer current: refused, nothing written
        backend.write(ALICE, [NewRecord("semantic", "May", "fy", "x", 5),
                              NewRecord("semantic", "June", "fy", "x", 5, supersedes=first.id)], vectors)
    assert backend.records(ALICE) == before
    by_key, by_text = backend.lookup(ALICE, ["fy"], [("semantic", "fy", "July"), ("semantic", "fy", "April")])
    assert by_key == {"fy": second} and list(by_text) == [("semantic", "fy", "July")]


# --------------------------------------------------------------------------- the model-based state machine

WORDS = ["invoice", "invoices", "vendor", "Globex", "payment", "travel", "budget", "fiscal", "April", "July",
         "reconcile", "team", "late", "euros"]
SCOPES = [Scope("acme", "a"), Scope("acme", "ab"), Scope("acme-corp", "a")]
sentences = st.lists(st.sampled_from(WORDS), min_size=1, max_size=4).map(" ".join)


class StoreMatchesModel(RuleBasedStateMachine):
    """Random calls on a backend, and the same on a plain list of dicts; they must agree after every step."""

    factory: Callable[[Path, str, int], MemoryStore]

    def __init__(self) -> None:
        super().__init__()
        import tempfile

        self.folder = tempfile.TemporaryDirectory()
        self.embedder = HashingEmbedder(dim=64)
        backend = self.factory(Path(self.folder.name), self.embedder.name, self.embedder.dim)
        self.memory = LongTermMemory(embedder=self.embedder, store=backend, policy=accept_all)
        self.model: dict[Scope, list[dict[str, Any]]] = {s: [] for s in SCOPES}
        self.next_seq = {s: 1 for s in SCOPES}
        self.ids_ever: set[str] = set()

    def teardown(self) -> None:
        self.memory.close()
        self.folder.cleanup()

    def current(self, scope: Scope) -> list[dict[str, Any]]:
        return [r for r in self.model[scope] if r["superseded_by"] is None and not r["forgotten"]]

    @rule(scope=st.sampled_from(SCOPES), kind=st.sampled_from(KINDS), content=sentences,
          key=st.sampled_from([None, None, "fy"]))
    def remember(self, scope: Scope, kind: str, content: str, key: str | None) -> None:
        result = self.memory.remember(scope, kind, content, key=key)
        duplicate = [r for r in self.current(scope) if (r["kind"], r["key"], r["content"]) == (kind, key, content)]
        if duplicate:
            assert not result.stored and result.record.id == duplicate[0]["id"]  # type: ignore[union-attr]
            return
        assert result.stored and result.record is not None
        record = result.record
        assert record.id not in self.ids_ever and record.seq == self.next_seq[scope]
        self.ids_ever.add(record.id)
        self.next_seq[scope] += 1
        for old in self.current(scope):
            if key is not None and old["key"] == key:
                old["superseded_by"] = record.id
        self.model[scope].append({"id": record.id, "kind": kind, "content": content, "key": key, "seq": record.seq,
                                  "superseded_by": None, "forgotten": False})

    @rule(scope=st.sampled_from(SCOPES), query=sentences, k=st.integers(1, 5),
          kinds=st.sampled_from([KINDS, ("episodic",), ("semantic", "procedural")]))
    def recall(self, scope: Scope, query: str, k: int, kinds: tuple[str, ...]) -> None:
        got = self.memory.recall_with_scores(scope, query, k=k, kinds=kinds)
        q = self.embedder.embed([query])[0].astype(np.float64)
        pool = [r for r in self.current(scope) if r["kind"] in kinds]
        scored = [(float(self.embedder.embed([r["content"]])[0].astype(np.float64) @ q), r) for r in pool]
        want = sorted(scored, key=lambda p: (-p[0], -p[1]["seq"]))[:k]
        assert len(got) == len(want)
        for (record, score), (expected, row) in zip(got, want):
            assert score == pytest.approx(expected, abs=1e-6)
        # The same ids, except where two scores tie within float error (either order is right).
        assert sorted(round(s, 5) for _, s in got) == sorted(round(s, 5) for s, _ in want)

    @precondition(lambda self: any(self.model.values()))
    @rule(data=st.data())
    def forget(self, data: st.DataObject) -> None:
        scope = data.draw(st.sampled_from([s for s in SCOPES if self.model[s]]))
        row = data.draw(st.sampled_from(self.model[scope]))
        stranger = data.draw(st.sampled_from([s for s in SCOPES if s != scope]))
        with pytest.raises(RecordNotFound):
            self.memory.forget(stranger, row["id"])
        self.memory.forget(scope, row["id"])
        if row["key"] is None:
            self.model[scope].remove(row)
        else:
            row["content"], row["forgotten"] = "", True

    @rule(scope=st.sampled_from(SCOPES))
    def delete_user(self, scope: Scope) -> None:
        assert self.memory.delete_user(scope) == len(self.model[scope])
        self.model[scope] = []
        self.next_seq[scope] = 1

    @invariant()
    def exports_match(self) -> None:
        for scope in SCOPES:
            got = [{k: r[k] for k in ("id", "kind", "content", "key", "seq", "superseded_by", "forgotten")}
                   for r in self.memory.export(scope)]
            assert got == self.model[scope]
            assert [r.id for r in self.memory.history(scope, "fy")] == \
                [r["id"] for r in self.model[scope] if r["key"] == "fy"]


def _machine_tests() -> Iterator[tuple[str, type]]:
    for name, factory in BACKENDS.items():
        machine = type(f"StoreMatchesModel_{name}", (StoreMatchesModel,), {"factory": staticmethod(factory)})
        case = machine.TestCase
        case.settings = settings(max_examples=25, stateful_step_count=20, deadline=None,
                                 suppress_health_check=[HealthCheck.too_slow])
        yield f"TestStoreMatchesModel_{name}", case


globals().update(dict(_machine_tests()))


# --------------------------------------------------------------------------- provenance


def test_every_backend_keeps_where_each_memory_came_from(store: LongTermMemory) -> None:
    said = store.remember(ALICE, "semantic", "Alice approves travel for her team.")
    read = store.remember(ALICE, "episodic", "On 2026-09-18 Globex sent invoice INV-7.", provenance="tool")
    keyed = store.remember(ALICE, "semantic", "Alice's fiscal year starts in July.", key="fy", provenance="import")
    assert [r.record.provenance for r in (said, read, keyed)] == ["user", "tool", "import"]
    assert store.get(ALICE, read.record.id).provenance == "tool"
    assert [r["provenance"] for r in store.export(ALICE)] == ["user", "tool", "import"]
    assert store.history(ALICE, "fy")[0].provenance == "import"
    assert {r.provenance for r in store.recall(ALICE, "Globex invoice travel fiscal", k=3)} == {"user", "tool", "import"}
