"""The lesson's long-term memory calls, typed exactly as LESSON.md lists them, return what the lesson shows.

Run with each embedder: the default (hashing) and the semantic one.
"""

from __future__ import annotations

import pytest

from primer_memory import KINDS, LongTermMemory, Scope

EMBEDDERS = ["hashing", "semantic"]


@pytest.fixture(params=EMBEDDERS)
def memory(request: pytest.FixtureRequest) -> LongTermMemory:
    if request.param == "hashing":
        return LongTermMemory()
    from primer_memory import SemanticEmbedder

    return LongTermMemory(embedder=SemanticEmbedder())


def test_three_kinds_and_recall_by_kind(memory: LongTermMemory) -> None:
    alice = Scope("acme", "alice")
    assert KINDS == ("episodic", "semantic", "procedural")
    diary = memory.remember(alice, "episodic", "on 2026-09-18 Alice rejected the vendor Globex over late invoices")
    fact = memory.remember(alice, "semantic", "Alice's fiscal year starts in April", key="fiscal_year_start")
    habit = memory.remember(alice, "procedural",
                            "to reconcile invoices, match each vendor invoice to its payment, then list mismatches")
    for result in (diary, fact, habit):
        stored, reason, record = result
        assert stored and reason and record is not None
    assert memory.recall(alice, "what happened with Globex?")[0].kind == "episodic"
    assert memory.recall(alice, "what happened with Globex?", k=1)[0].id == diary.record.id
    best = memory.recall(alice, "how do I reconcile invoices?", k=3, kinds=("procedural",))[0]
    assert best.id == habit.record.id
    assert len(memory.recall(alice, "what is it?")) == 3  # the k current records, whatever their scores
    record = memory.recall(alice, "fiscal year")[0]
    for field in ("id", "scope", "kind", "content", "key", "source", "seq", "superseded_by"):
        assert hasattr(record, field)
    vector = memory.embedder.encode("what happened with Globex?")
    assert vector.shape == (memory.embedder.dim,)


def test_write_policy_conflicts_history(memory: LongTermMemory) -> None:
    alice = Scope("acme", "alice")
    assert memory.remember(alice, "semantic", "thanks, great!").stored is False
    refused = memory.remember(alice, "semantic", "my VPN password is hunter2")
    assert refused.stored is False and "refused" in refused.reason and "hunter2" not in refused.reason
    april = memory.remember(alice, "semantic", "Alice's fiscal year starts in April.", key="fiscal_year_start")
    july = memory.remember(alice, "semantic", "Alice's fiscal year starts in July.", key="fiscal_year_start",
                           source="user correction")
    assert april.stored and july.stored
    recalled = memory.recall(alice, "when does the fiscal year start?")
    assert [r.content for r in recalled] == ["Alice's fiscal year starts in July."]
    history = memory.history(alice, "fiscal_year_start")
    assert [(r.content, r.source) for r in history] == [
        ("Alice's fiscal year starts in April.", "conversation"),
        ("Alice's fiscal year starts in July.", "user correction")]
    assert history[0].superseded_by == july.record.id


def test_isolation_access_and_erasure(memory: LongTermMemory) -> None:
    alice, carol = Scope("acme", "alice"), Scope("globex", "carol")
    memory.remember(alice, "semantic", "Acme plans to acquire Initech in Q4.", key="acquisition_plan")
    memory.remember(carol, "semantic", "Globex prefers invoices in euros.", key="invoice_currency")
    for content in ["Alice approves travel for her team.", "Alice's fiscal year starts in April.",
                    "On 2026-09-18 Alice rejected the vendor Globex over late invoices."]:
        memory.remember(alice, "semantic", content)
    memory.remember(alice, "semantic", "Alice's fiscal year starts in July.", key="fiscal_year_start")
    memory.remember(alice, "semantic", "Alice's fiscal year starts in August.", key="fiscal_year_start")
    attack = "Acme plans to acquire Initech in Q4. tenant_id=acme OR 1=1"
    assert [r.content for r in memory.recall(carol, attack)] == ["Globex prefers invoices in euros."]
    exported = memory.export(alice)
    assert len(exported) == 6 and {"id", "kind", "content", "key", "source", "current"} <= set(exported[0])
    assert sum(not row["current"] for row in exported) == 1  # the superseded July value is exported too
    with pytest.raises(KeyError):
        memory.forget(carol, exported[0]["id"])
    forgotten = memory.forget(alice, exported[1]["id"])
    assert forgotten.content == exported[1]["content"]
    assert memory.delete_user(alice) == 5
    assert memory.export(alice) == [] and len(memory.export(carol)) == 1
