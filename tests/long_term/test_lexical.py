"""The lexical index and hybrid recall on the in-memory backend (issue 45, step 1).

The index is kept incrementally (writes, supersession, forget, erasure), so its guarantee is a property: after
any sequence of those, its BM25 ranking equals a plain BM25 computed from scratch over the scope's current
records, and another scope's records never move it. Hybrid recall returns current records of the caller's scope
only, fused by rank.
"""

from __future__ import annotations

import math
import tempfile
from collections import Counter
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from primer_memory import HashingEmbedder, LongTermMemory, Scope
from primer_memory.long_term.hybrid import DEPTH
from primer_memory.long_term.lexical import B, K1, RRF_K, LexicalIndex, fuse, terms, with_context
from primer_memory.long_term.records import InvalidQuery, MemorySetupError

from helpers import accept_all

ALICE, BOB = Scope("acme", "alice"), Scope("globex", "bob")
WORDS = ["invoice", "budget", "travel", "tea", "april", "globex", "alice", "approves", "the", "is", "of", "q3"]


def plain_bm25(docs: dict[int, str], query: str) -> dict[int, float]:
    """BM25 from scratch over `docs` (seq -> text): the reference the incremental index must agree with."""
    counted = {seq: Counter(terms(text)) for seq, text in docs.items()}
    n = len(counted)
    average = (sum(sum(c.values()) for c in counted.values()) / n or 1.0) if n else 1.0
    scores: dict[int, float] = {}
    for term, times in Counter(terms(query)).items():
        df = sum(1 for c in counted.values() if term in c)
        if not df:
            continue
        idf = math.log(1 + (n - df + 0.5) / (df + 0.5))
        for seq, c in counted.items():
            if term in c:
                tf, length = c[term], sum(c.values())
                scores[seq] = scores.get(seq, 0.0) + times * idf * tf * (K1 + 1) / (tf + K1 * (1 - B + B * length / average))
    return scores


_TEXT = st.lists(st.sampled_from(WORDS), min_size=1, max_size=8).map(" ".join)
_STEP = st.one_of(
    st.tuples(st.just("remember"), st.sampled_from([ALICE, BOB]), _TEXT, st.sampled_from([None, "k1", "k2"])),
    st.tuples(st.just("turn"), st.sampled_from([ALICE, BOB]), _TEXT, st.none()),  # an episodic record
    st.tuples(st.just("forget"), st.sampled_from([ALICE, BOB]), st.integers(0, 20), st.none()),
)
KINDS = ("semantic", "episodic")


@pytest.mark.parametrize("backend", ["memory", "sqlite"])
@settings(max_examples=40, deadline=None)
@given(steps=st.lists(_STEP, min_size=1, max_size=25), query=_TEXT, early=st.booleans())
def test_the_index_ranks_as_plain_bm25_over_the_current_records_of_the_scope(backend: str, steps: list, query: str,
                                                                            early: bool) -> None:
    """Class covered: any interleaving of writes (keyed ones supersede), forgets and another scope's writes, on
    each backend with a lexical index, the index built before the changes (`early`) or after them."""
    with tempfile.TemporaryDirectory() as folder:
        path = None if backend == "memory" else Path(folder) / "m.db"
        memory = LongTermMemory(policy=accept_all, path=path)
        try:
            _check_against_plain_bm25(memory, steps, query, early)
        finally:
            memory.close()


@pytest.mark.postgres
def test_on_postgres_the_index_ranks_as_plain_bm25_under_the_same_function() -> None:
    """The same property on PostgreSQL (the words in a column, the statistics read under RLS), each example in two
    fresh scopes of one schema."""
    import uuid

    from primer_memory.long_term.storage.postgres import PostgresStore, drop_schema
    from primer_memory.postgres import local_server

    schema = "lexical_" + uuid.uuid4().hex[:10]
    memory = LongTermMemory(policy=accept_all, store=PostgresStore(local_server(), embedder_name=HashingEmbedder().name,
                                                                   dim=512, schema=schema, pool_size=1))

    @settings(max_examples=20, deadline=None)
    @given(steps=st.lists(_STEP, min_size=1, max_size=15), query=_TEXT, early=st.booleans())
    def run(steps: list, query: str, early: bool) -> None:
        mine, theirs = Scope("t" + uuid.uuid4().hex[:8], "alice"), Scope("t" + uuid.uuid4().hex[:8], "bob")
        renamed = [(op, mine if scope == ALICE else theirs, arg, key) for op, scope, arg, key in steps]
        _check_against_plain_bm25(memory, renamed, query, early, mine)

    try:
        run()
    finally:
        memory.close()
        drop_schema(local_server(), schema)


def _check_against_plain_bm25(memory: LongTermMemory, steps: list, query: str, early: bool,
                              alice: Scope = ALICE) -> None:
    if early:
        memory.store.lexical_search(alice, query, 1, KINDS)
    for op, scope, arg, key in steps:
        if op == "remember":
            memory.remember(scope, "semantic", arg, key=key)
        elif op == "turn":
            memory.remember(scope, "episodic", arg)
        else:
            current = [r for r in memory.store.records(scope) if r.current]
            if current:
                memory.forget(scope, current[arg % len(current)].id)
    current = [r for r in memory.store.records(alice) if r.current]
    raw = plain_bm25({r.seq: r.content for r in current}, query)
    turns = [r.seq for r in current if r.kind == "episodic"]  # in seq order: each turn's neighbours
    around = {seq: (turns[i - 1] if i else None, turns[i + 1] if i + 1 < len(turns) else None)
              for i, seq in enumerate(turns) if seq in raw}
    for kinds in (KINDS, ("semantic",), ("episodic",)):
        of_kinds = {seq: v for seq, v in raw.items() if next(r.kind for r in current if r.seq == seq) in kinds}
        expected = with_context(of_kinds, {s: a for s, a in around.items() if s in of_kinds}) \
            if "episodic" in kinds else of_kinds
        found = memory.store.lexical_search(alice, query, 100, kinds)
        assert {r.seq for r, _ in found} == set(expected), kinds
        for record, score in found:
            assert record.kind in kinds and score == pytest.approx(expected[record.seq], rel=1e-9)
        assert [s for _, s in found] == sorted((s for _, s in found), reverse=True)


def test_a_forgotten_or_superseded_record_leaves_the_index_with_its_words() -> None:
    memory = LongTermMemory(policy=accept_all)
    memory.remember(ALICE, "semantic", "the vault code word is marmalade", key="vault")
    assert memory.store._partition(ALICE).lexical is None  # nothing built until a search by words asks
    assert memory.recall(ALICE, "marmalade", 1, search="hybrid")[0].content.endswith("marmalade")
    index = memory.store._partition(ALICE).lexical  # the partition's own index, built by that search
    memory.remember(ALICE, "semantic", "the vault code word is pumpkin", key="vault")  # supersedes
    assert "marmalad" not in index.postings and "pumpkin" in index.postings  # stems
    (current,) = [r for r in memory.store.records(ALICE) if r.current]
    memory.forget(ALICE, current.id)
    assert index.postings == {} and index.lengths == {} and index.total == 0
    assert memory.recall(ALICE, "pumpkin", 3, search="hybrid") == []


def test_another_scopes_text_never_moves_this_scopes_ranking() -> None:
    memory = LongTermMemory(policy=accept_all)
    for text in ["Globex invoice due in April", "travel budget for Q3", "tea with Alice"]:
        memory.remember(ALICE, "semantic", text)
    before = memory.recall_with_scores(ALICE, "globex invoice budget", 3, search="hybrid")
    lexical = memory.store.lexical_search(ALICE, "globex invoice budget", 3, ("semantic",))
    for n in range(30):
        memory.remember(BOB, "semantic", f"globex invoice {n}")  # Bob's words would change df and the average
    assert memory.recall_with_scores(ALICE, "globex invoice budget", 3, search="hybrid") == before
    assert memory.store.lexical_search(ALICE, "globex invoice budget", 3, ("semantic",)) == lexical
    assert all(r.scope == ALICE for r, _ in before)


def test_hybrid_fuses_the_two_rankings_by_rank_and_honours_kinds() -> None:
    memory = LongTermMemory(policy=accept_all, search="hybrid")
    memory.remember(ALICE, "semantic", "Alice approves travel for her team.")
    memory.remember(ALICE, "episodic", "Alice approved the Lisbon travel on Monday.")
    memory.remember(ALICE, "semantic", "The fiscal year starts in April.")
    found = memory.recall_with_scores(ALICE, "who approves travel", 2, kinds=("semantic",))
    assert [r.kind for r, _ in found] == ["semantic", "semantic"]
    assert found[0][0].content.startswith("Alice approves") and found[0][1] == pytest.approx(2 / (RRF_K + 1))
    assert fuse([[3, 2, 1], [1, 3]], 2) == [(3, 1 / 61 + 1 / 62), (1, 1 / 63 + 1 / 61)]


def test_min_score_floors_the_cosine_ranking_only() -> None:
    memory = LongTermMemory(policy=accept_all)
    memory.remember(ALICE, "semantic", "zzqx invoice")
    assert memory.recall(ALICE, "zzqx", 3, min_score=0.99) == []  # the cosine alone is below the floor
    assert [r.content for r in memory.recall(ALICE, "zzqx", 3, min_score=0.99, search="hybrid")] == ["zzqx invoice"]


def test_on_sqlite_the_index_is_memory_only_so_an_erased_word_leaves_the_file(tmp_path: Path) -> None:
    path = tmp_path / "m.db"
    memory = LongTermMemory(policy=accept_all, path=path)
    kept = memory.remember(ALICE, "semantic", "the shed key hides under the marmalade jar").record
    memory.remember(ALICE, "semantic", "Alice approves travel for her team.")
    assert memory.recall(ALICE, "marmalade jar", 1, search="hybrid")[0].id == kept.id  # the index is built
    memory.forget(ALICE, kept.id)
    assert [r.content for r in memory.recall(ALICE, "marmalade jar", 3, search="hybrid")] == [
        "Alice approves travel for her team."]
    memory.close()
    assert not any(b"marmalade" in p.read_bytes() for p in tmp_path.iterdir() if p.is_file())
    again = LongTermMemory(policy=accept_all, path=path)  # a new store builds its index from the file
    assert again.store.lexical_search(ALICE, "travel approves", 3, ("semantic",))[0][0].content.startswith("Alice")
    again.close()


def test_search_modes_are_named_errors(tmp_path) -> None:
    with pytest.raises(MemorySetupError, match="search must be one of 'vector', 'hybrid'"):
        LongTermMemory(search="bm25")
    memory = LongTermMemory()
    with pytest.raises(InvalidQuery, match="search must be one of"):
        memory.recall(ALICE, "x", search="lexical")
    from primer_memory.long_term.storage.memory import InMemoryStore

    class VectorsOnly(InMemoryStore):  # a backend that keeps no lexical index (PostgreSQL's, until step 3)
        label = "vectors-only"
        lexical_search = None

    bare = LongTermMemory(store=VectorsOnly(512))
    bare.remember(ALICE, "semantic", "Alice approves travel.")
    with pytest.raises(InvalidQuery, match="needs a lexical index, which the vectors-only backend does not keep"):
        bare.recall(ALICE, "travel", search="hybrid")


def test_fusion_reads_each_ranking_deep_enough() -> None:
    assert DEPTH >= 50
    index = LexicalIndex()
    index.add(1, "semantic", "tea")
    assert index.search("tea", 5, ("episodic",)) == []  # kinds filter the lexical ranking too
