"""LongTermMemory as a LangGraph BaseStore, tested against BaseStore's documented semantics.

From LangGraph's reference for `BaseStore`: `put` stores or updates an item (a dict of JSON
values) under a namespace and key; `get` returns it (or None), with `created_at` kept and
`updated_at` moved by an update; `delete` removes it; `search` lists items under a
namespace prefix, narrowed by `filter` (exact values, or $eq $ne $gt $gte $lt $lte), paged
by `limit`/`offset`, ranked by similarity with `query` (each item then has a `score`);
`list_namespaces` filters by prefix/suffix (with `*` wildcards), truncates at `max_depth`
and pages; `batch` returns one result per operation in order; every method has an async
twin. Then what the memory adds: the write policy, supersession with history, isolation.
"""

from __future__ import annotations

import asyncio
import os
from datetime import datetime

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

if not os.environ.get("CI"):  # CI installs every extra (make test): there a missing one fails
    pytest.importorskip("langgraph.store.base", reason="the [langgraph] extra is not installed")

from langgraph.store.base import GetOp, InvalidNamespaceError, PutOp, SearchOp  # noqa: E402
from langchain_core.runnables import RunnableConfig  # noqa: E402
from langgraph.store.memory import InMemoryStore  # noqa: E402

from primer_memory import LongTermMemory, Scope, review  # noqa: E402
from primer_memory.integrations import LongTermStore, PolicyRefused, PolicySkipped  # noqa: E402
from primer_memory.integrations.langgraph_store import NamespaceError  # noqa: E402

NS = ("acme", "alice", "memories")
SECRETS = ["my VPN password is hunter2", "sk-ant-api03-abcdefghijklmnopqrstuvwxyz0123456789",
           "password = correct-horse-battery"]


@pytest.fixture
def store() -> LongTermStore:
    return LongTermStore(LongTermMemory(), provenance="assistant")


# --------------------------------------------------------------------------- put / get / delete


def test_put_then_get_returns_the_value_with_its_namespace_key_and_timestamps(store: LongTermStore) -> None:
    store.put(NS, "fy", {"fact": "Alice's fiscal year starts in April.", "confidence": 0.9})
    item = store.get(NS, "fy")
    assert item is not None and item.value == {"fact": "Alice's fiscal year starts in April.", "confidence": 0.9}
    assert (item.namespace, item.key) == (NS, "fy")
    assert isinstance(item.created_at, datetime) and item.created_at.tzinfo is not None
    assert store.get(NS, "missing") is None and store.get(("acme", "alice", "other"), "fy") is None


def test_an_update_keeps_created_at_moves_updated_at_and_keeps_the_history(store: LongTermStore) -> None:
    store.put(NS, "fy", {"fact": "Alice's fiscal year starts in April."})
    first = store.get(NS, "fy")
    store.put(NS, "fy", {"fact": "Alice's fiscal year starts in July."})
    second = store.get(NS, "fy")
    assert second.value == {"fact": "Alice's fiscal year starts in July."}
    assert second.created_at == first.created_at and second.updated_at > first.updated_at
    history = store.history(NS, "fy")
    assert [(h["value"]["fact"].split()[-1], h["current"]) for h in history] == [("April.", False), ("July.", True)]
    records = store.memory.history(Scope("acme", "alice"), '["memories", "fy"]')  # the memory's own view
    assert [r.superseded_by is not None for r in records] == [True, False]


def test_delete_removes_the_item_and_a_later_put_starts_a_new_one(store: LongTermStore) -> None:
    store.put(NS, "fy", {"fact": "Alice's fiscal year starts in April."})
    store.delete(NS, "fy")
    store.delete(NS, "never-there")  # deleting nothing is not an error
    assert store.get(NS, "fy") is None and store.search(NS) == []
    store.put(NS, "fy", {"fact": "Alice's fiscal year starts in October."})
    again = store.get(NS, "fy")
    assert again.value["fact"].endswith("October.") and again.created_at == again.updated_at
    assert [h["value"] is None for h in store.history(NS, "fy")] == [True, False]  # the tombstone stays


def test_putting_the_same_value_twice_is_one_item(store: LongTermStore) -> None:
    for _ in range(2):
        store.put(NS, "fy", {"fact": "Alice's fiscal year starts in April."})
    assert len(store.history(NS, "fy")) == 1


# --------------------------------------------------------------------------- search


def _fill(store: object) -> None:
    store.put(("acme", "alice", "memories"), "fy", {"fact": "Alice's fiscal year starts in April.", "score": 3})
    store.put(("acme", "alice", "memories"), "cur", {"fact": "Alice prefers invoices in euros.", "score": 5})
    store.put(("acme", "alice", "habits"), "rec", {"fact": "To reconcile invoices, match each invoice to its payment.",
                                                   "score": 1})
    store.put(("acme", "bob", "memories"), "fy", {"fact": "Bob's fiscal year starts in January.", "score": 4})


def test_search_stays_under_the_namespace_prefix(store: LongTermStore) -> None:
    _fill(store)
    assert {i.key for i in store.search(("acme", "alice"))} == {"fy", "cur", "rec"}
    assert {i.key for i in store.search(("acme", "alice", "memories"))} == {"fy", "cur"}
    assert {(i.namespace, i.key) for i in store.search(("acme", "bob"))} == {(("acme", "bob", "memories"), "fy")}
    assert all(i.score is None for i in store.search(("acme", "alice")))


def test_search_filters_with_exact_values_and_comparison_operators(store: LongTermStore) -> None:
    _fill(store)
    alice = ("acme", "alice")
    assert {i.key for i in store.search(alice, filter={"score": 3})} == {"fy"}
    assert {i.key for i in store.search(alice, filter={"score": {"$gte": 3}})} == {"fy", "cur"}
    assert {i.key for i in store.search(alice, filter={"score": {"$gt": 1, "$lt": 5}})} == {"fy"}
    assert {i.key for i in store.search(alice, filter={"score": {"$ne": 5}})} == {"fy", "rec"}
    assert store.search(alice, filter={"missing": {"$gt": 0}}) == []


def test_search_with_a_query_ranks_by_the_memorys_embedder_and_scores_each_item(store: LongTermStore) -> None:
    _fill(store)
    found = store.search(("acme", "alice"), query="how do I reconcile invoices?")
    assert found[0].key == "rec" and all(isinstance(i.score, float) for i in found)
    assert [i.score for i in found] == sorted((i.score for i in found), reverse=True)
    scope = Scope("acme", "alice")
    best = store.memory.recall(scope, "how do I reconcile invoices?", k=1)[0]
    assert found[0].value == {"fact": "To reconcile invoices, match each invoice to its payment.", "score": 1}
    assert '"rec"' in best.key


def test_search_pages_with_limit_and_offset(store: LongTermStore) -> None:
    _fill(store)
    everything = store.search(("acme", "alice"), query="fiscal year invoices")
    pages = [store.search(("acme", "alice"), query="fiscal year invoices", limit=1, offset=n) for n in range(4)]
    assert [p[0].key for p in pages[:3]] == [i.key for i in everything] and pages[3] == []
    assert len(store.search(("acme", "alice"), limit=2)) == 2


# --------------------------------------------------------------------------- list_namespaces and batch


def test_list_namespaces_with_prefix_suffix_wildcards_and_depth(store: LongTermStore) -> None:
    for ns in [("a", "b", "c"), ("a", "b", "d", "e"), ("a", "b", "d", "i"), ("a", "b", "f"), ("a", "c", "f")]:
        store.put(ns, "k", {"fact": f"lives in {'/'.join(ns)}"})
    # the reference's own example: prefix ("a", "b"), max_depth 3
    assert store.list_namespaces(prefix=("a", "b"), max_depth=3) == [("a", "b", "c"), ("a", "b", "d"), ("a", "b", "f")]
    assert store.list_namespaces(prefix=("a", "b"), suffix=("f",)) == [("a", "b", "f")]
    assert store.list_namespaces(prefix=("a", "b", "*", "i")) == [("a", "b", "d", "i")]
    assert store.list_namespaces(prefix=("a", "b"), limit=2, offset=1) == [("a", "b", "d", "e"), ("a", "b", "d", "i")]
    assert store.list_namespaces(prefix=("a", "c")) == [("a", "c", "f")]


def test_batch_returns_one_result_per_operation_in_order(store: LongTermStore) -> None:
    results = store.batch([
        PutOp(NS, "fy", {"fact": "Alice's fiscal year starts in April."}),
        GetOp(NS, "fy"),
        PutOp(NS, "cur", {"fact": "Alice prefers invoices in euros."}),
    ])
    assert results == [None, None, None]  # reads see the store as it was before the batch's puts
    results = store.batch([GetOp(NS, "fy"), SearchOp(("acme", "alice"), query="euros"), PutOp(NS, "fy", None),
                           GetOp(NS, "cur")])
    assert results[0].value["fact"].endswith("April.") and results[1][0].key == "cur" and results[2] is None
    assert results[3].key == "cur" and store.get(NS, "fy") is None


def test_every_method_has_an_async_twin(store: LongTermStore) -> None:
    async def run() -> tuple:
        await store.aput(NS, "fy", {"fact": "Alice's fiscal year starts in April."})
        got = await store.aget(NS, "fy")
        found = await store.asearch(("acme", "alice"), query="fiscal year")
        spaces = await store.alist_namespaces(prefix=("acme", "alice"))
        await store.adelete(NS, "fy")
        return got, found, spaces, await store.aget(NS, "fy")

    got, found, spaces, gone = asyncio.run(run())
    assert got.value["fact"].endswith("April.") and found[0].key == "fy" and spaces == [NS] and gone is None


# --------------------------------------------------------------------------- what the memory adds


@pytest.mark.parametrize("secret", SECRETS)
def test_a_refused_value_raises_a_named_error_and_writes_nothing(store: LongTermStore, secret: str) -> None:
    with pytest.raises(PolicyRefused) as refused:
        store.put(NS, "creds", {"note": {"deep": ["fine", f"{secret}"]}})
    assert refused.value.namespace == NS and refused.value.key == "creds" and "refused" in refused.value.reason
    assert store.history(NS, "creds") == [] and store.memory.export(Scope("acme", "alice")) == []
    with pytest.raises(PolicyRefused):  # a key of the value is text read back into prompts too
        store.put(NS, "creds2", {secret: "x"})


SECRET_TEXT = st.sampled_from(SECRETS)
AROUND = st.text(alphabet=st.characters(whitelist_categories=("L", "Zs")), max_size=20)


@settings(max_examples=40)
@given(secret=SECRET_TEXT, before=AROUND, field=st.text(min_size=1, max_size=8), depth=st.integers(0, 3))
def test_a_secret_anywhere_in_a_value_is_refused(secret: str, before: str, field: str, depth: int) -> None:
    """Values of any shape (nested dicts and lists, any field names) holding a text the policy refuses."""
    text = f"{before} {secret}" if review(f"{before} {secret}").verdict == "refuse" else secret
    value: object = text
    for level in range(depth):
        value = {field: value} if level % 2 == 0 else [value]
    store = LongTermStore(LongTermMemory(), provenance="assistant")
    with pytest.raises(PolicyRefused):
        store.put(NS, "k", {"v": value})
    assert store.get(NS, "k") is None


def test_small_talk_the_policy_skips_is_a_named_error_too(store: LongTermStore) -> None:
    with pytest.raises(PolicySkipped):
        store.put(NS, "k", {"": ""})  # no words: nothing the embedder could ever find


def test_one_users_items_are_invisible_to_another_even_under_the_same_names(store: LongTermStore) -> None:
    store.put(("acme", "alice", "memories"), "plan", {"fact": "Acme plans to acquire Initech in Q4."})
    store.put(("globex", "carol", "memories"), "plan", {"fact": "Globex prefers invoices in euros."})
    found = store.search(("globex", "carol"), query="Acme plans to acquire Initech in Q4.")
    assert [i.value["fact"] for i in found] == ["Globex prefers invoices in euros."]
    assert store.list_namespaces(prefix=("globex", "carol")) == [("globex", "carol", "memories")]


@pytest.mark.parametrize("namespace", [(), ("acme",), ("*", "alice"), ("acme", "*"), (" acme", "alice")])
def test_a_namespace_must_name_one_scope(store: LongTermStore, namespace: tuple[str, ...]) -> None:
    with pytest.raises(NamespaceError):
        store.search(namespace)
    with pytest.raises(InvalidNamespaceError):
        store.put(namespace or ("x",), "k", {"fact": "a fact about invoices"})


def test_langgraphs_own_namespace_rules_still_apply(store: LongTermStore) -> None:
    with pytest.raises(InvalidNamespaceError):
        store.put(("acme", "alice", "a.b"), "k", {"fact": "x"})
    with pytest.raises(NotImplementedError):
        store.put(NS, "k", {"fact": "x"}, ttl=5)


FLAT_VALUES = st.dictionaries(st.sampled_from(["a", "b", "c"]),
                              st.integers(-3, 3) | st.sampled_from(["x", "y"]) | st.none(), max_size=3)
CONDITIONS = st.integers(-3, 3) | st.sampled_from(["x", "y"]) | st.dictionaries(
    st.sampled_from(["$eq", "$ne", "$gt", "$gte", "$lt", "$lte"]), st.integers(-3, 3), min_size=1, max_size=2)


@settings(max_examples=80)
@given(values=st.lists(FLAT_VALUES, min_size=1, max_size=5), query=st.dictionaries(
    st.sampled_from(["a", "b", "c"]), CONDITIONS, min_size=1, max_size=2))
def test_filters_select_what_langgraphs_in_memory_store_selects(values: list[dict], query: dict) -> None:
    """Flat values of ints, strings and None, filters of exact values and operators: the same items as InMemoryStore.

    Where InMemoryStore itself fails (an operator on a missing or non-numeric field raises
    there), this adapter matches nothing, as a SQL comparison with NULL does.
    """
    ours, theirs = LongTermStore(LongTermMemory(), provenance="assistant"), InMemoryStore()
    for i, value in enumerate(values):
        stored = {**value, "fact": f"note number {i} about invoices"}
        ours.put(NS, f"k{i}", stored)
        theirs.put(NS, f"k{i}", stored)
    try:
        expected = {i.key for i in theirs.search(NS, filter=query, limit=100)}
    except (TypeError, ValueError):
        return
    assert {i.key for i in ours.search(NS, filter=query, limit=100)} == expected


# --------------------------------------------------------------------------- a graph with store=


def test_a_graph_node_reads_and_writes_memories_through_store(store: LongTermStore) -> None:
    from langchain_core.language_models.fake_chat_models import FakeListChatModel
    from langchain_core.messages import HumanMessage, SystemMessage
    from langgraph.graph import END, START, MessagesState, StateGraph
    from langgraph.store.base import BaseStore

    proposals = FakeListChatModel(responses=["Alice's fiscal year starts in April.", "my VPN password is hunter2",
                                             "Alice's fiscal year starts in July."])
    answers = FakeListChatModel(responses=["Your fiscal year starts in July."])
    outcomes: list[str] = []

    def remember(state: MessagesState, config: RunnableConfig, *, store: BaseStore) -> dict:
        namespace = ("acme", config["configurable"]["user_id"], "memories")
        fact = proposals.invoke(state["messages"]).content  # the model proposes; the code decides
        try:
            store.put(namespace, "fiscal_year_start", {"fact": fact})
            outcomes.append("stored")
        except PolicyRefused as refused:
            outcomes.append(f"refused: {refused.reason[:40]}")
        return {}

    def answer(state: MessagesState, config: RunnableConfig, *, store: BaseStore) -> dict:
        namespace = ("acme", config["configurable"]["user_id"])
        found = store.search(namespace, query=state["messages"][-1].content, limit=1)
        memories = "; ".join(i.value["fact"] for i in found)
        reply = answers.invoke([SystemMessage(f"Memories: {memories}"), *state["messages"]])
        return {"messages": [reply]}

    graph = StateGraph(MessagesState)
    graph.add_node("remember", remember)
    graph.add_node("answer", answer)
    graph.add_edge(START, "remember")
    graph.add_edge("remember", END)
    learn = graph.compile(store=store)
    config = {"configurable": {"user_id": "alice"}}
    for said in ["My fiscal year starts in April.", "My VPN password is hunter2.", "Correction: it starts in July."]:
        learn.invoke({"messages": [HumanMessage(said)]}, config)
    assert outcomes[0] == "stored" and outcomes[1].startswith("refused") and outcomes[2] == "stored"

    ask = StateGraph(MessagesState)
    ask.add_node("answer", answer)
    ask.add_edge(START, "answer")
    ask.add_edge("answer", END)
    result = ask.compile(store=store).invoke({"messages": [HumanMessage("When does my fiscal year start?")]}, config)
    assert result["messages"][-1].content == "Your fiscal year starts in July."
    assert [h["value"]["fact"] for h in store.history(("acme", "alice", "memories"), "fiscal_year_start")] == [
        "Alice's fiscal year starts in April.", "Alice's fiscal year starts in July."]
    assert "hunter2" not in str(store.memory.export(Scope("acme", "alice")))


def test_records_written_with_remember_directly_are_not_items(store: LongTermStore) -> None:
    """A key shaped like the adapter's, holding plain text: left out, never a crash."""
    scope = Scope("acme", "alice")
    store.memory.remember(scope, "semantic", "Alice's fiscal year starts in April.", key='["memories", "fy"]')
    store.memory.remember(scope, "semantic", "Alice prefers invoices in euros.", key="currency")
    assert store.get(NS, "fy") is None and store.search(("acme", "alice"), query="fiscal year") == []
    assert store.list_namespaces(prefix=("acme", "alice")) == []


SAFE_WORDS = st.sampled_from(["invoice", "payment", "vendor", "euros", "April", "July", "ledger", "audit"])
OPS = st.lists(st.tuples(st.sampled_from(["put", "delete", "get"]),
                         st.sampled_from([("acme", "alice", "memories"), ("acme", "alice", "habits"),
                                          ("acme", "bob", "memories")]),
                         st.sampled_from(["fy", "cur", "rec"]),
                         st.lists(SAFE_WORDS, min_size=1, max_size=4)), max_size=25)


@settings(max_examples=40)
@given(ops=OPS)
def test_put_get_delete_sequences_match_langgraphs_in_memory_store(ops: list[tuple]) -> None:
    """Any sequence of puts, deletes and gets over a few namespaces and keys (values of plain words): every get,
    every search of a scope and every namespace listing agrees with InMemoryStore. (InMemoryStore also lists a
    namespace that was only read or deleted from, an artefact of its defaultdict; namespaces are compared where they
    hold items, as LangGraph's PostgresStore lists them.)"""
    ours, theirs = LongTermStore(LongTermMemory(), provenance="assistant"), InMemoryStore()
    for action, namespace, key, words in ops:
        if action == "put":
            value = {"fact": " ".join(words), "n": len(words)}
            ours.put(namespace, key, value)
            theirs.put(namespace, key, value)
        elif action == "delete":
            ours.delete(namespace, key)
            theirs.delete(namespace, key)
        mine, reference = ours.get(namespace, key), theirs.get(namespace, key)
        assert (mine and mine.value) == (reference and reference.value)
    for scope in (("acme", "alice"), ("acme", "bob")):
        assert sorted((i.namespace, i.key, str(i.value)) for i in ours.search(scope, limit=100)) == \
            sorted((i.namespace, i.key, str(i.value)) for i in theirs.search(scope, limit=100))
        holding = [ns for ns in theirs.list_namespaces(prefix=scope) if theirs.search(ns, limit=1)]
        assert ours.list_namespaces(prefix=scope) == holding


def test_a_store_that_makes_its_memory_dates_items_by_the_wall_clock() -> None:
    """Issue 50: through LongTermStore(LongTermMemory()) items were dated 1970."""
    import datetime as dt

    store = LongTermStore(provenance="assistant")
    store.put(("acme", "alice", "memories"), "fiscal", {"fact": "Alice's fiscal year starts in April."})
    item = store.get(("acme", "alice", "memories"), "fiscal")
    assert store.dated and abs(item.created_at - dt.datetime.now(dt.timezone.utc)) < dt.timedelta(minutes=5)


def test_a_memory_given_without_a_clock_is_said_to_date_by_write_order(caplog: pytest.LogCaptureFixture) -> None:
    import datetime as dt
    import logging

    with caplog.at_level(logging.WARNING, logger="primer_memory.integrations.langgraph_store"):
        undated = LongTermStore(LongTermMemory(), provenance="assistant")
    assert not undated.dated and "no clock" in caplog.text and "1970" in caplog.text
    october = dt.datetime(2026, 10, 1, tzinfo=dt.timezone.utc).timestamp() / 3600
    fixed = LongTermStore(LongTermMemory(clock=lambda: october), provenance="assistant")
    fixed.put(("acme", "alice", "memories"), "fiscal", {"fact": "Alice's fiscal year starts in April."})
    assert fixed.dated
    assert fixed.get(("acme", "alice", "memories"), "fiscal").created_at == dt.datetime(2026, 10, 1,
                                                                                        tzinfo=dt.timezone.utc)


def test_a_list_of_fields_to_index_is_refused_by_name_and_nothing_is_written() -> None:
    """Issue 49: put(index=[...]) was ignored silently. None and False, which LangGraph's callers pass, still work."""
    from primer_memory.integrations.langgraph_store import IndexNotSupported

    store = LongTermStore(LongTermMemory(clock=lambda: 0.0), provenance="assistant")
    namespace = ("acme", "alice", "memories")
    with pytest.raises(IndexNotSupported, match="embeds each value whole"):
        store.put(namespace, "fiscal", {"fact": "Alice's fiscal year starts in April."}, index=["fact"])
    assert store.get(namespace, "fiscal") is None
    for index in (None, False):
        store.put(namespace, "fiscal", {"fact": "Alice's fiscal year starts in April."}, index=index)
    assert store.get(namespace, "fiscal").value == {"fact": "Alice's fiscal year starts in April."}
