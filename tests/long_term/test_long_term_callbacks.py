"""Settings, callbacks and copies of LongTermMemory, from a second independent hostile-input run.

A str subclass that answers == for any name could read another tenant's memories through the in-memory store;
a tenant made only of invisible characters was accepted; huge ranking weights overflowed scores to inf; copies
and pickles of an open memory, policies and clocks that are not functions or return junk, a policy that closes
the memory mid-write, a store or dsn of the wrong type: each escaped as a raw error or did the wrong thing.
"""

from __future__ import annotations

import copy
import pickle

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from helpers import accept_all
from primer_memory import LongTermMemory, Scope
from primer_memory.long_term.memory import InvalidQuery, MemorySetupError, ScopeError, StoreClosed
from primer_memory.policy.rules import review

ACME = Scope("acme", "alice")


class Liar(str):
    def __eq__(self, other: object) -> bool:
        return True

    def __hash__(self) -> int:
        return hash("acme")


@pytest.mark.parametrize("path", [None, "file"])
def test_a_lying_str_subclass_cannot_name_another_tenant(tmp_path, path) -> None:
    memory = LongTermMemory(path=None if path is None else str(tmp_path / "m.db"), policy=accept_all)
    memory.remember(ACME, "semantic", "Acme plans to acquire Initech in Q4.")
    with pytest.raises(ScopeError, match="plain str"):
        memory.recall(Scope(Liar("mallory"), "alice"), "acquire")
    memory.close()


@settings(max_examples=100, deadline=None)
@given(st.text(st.sampled_from(" \t\u200b\u200c\u200d\u2060\ufeff\u00ad"), min_size=1, max_size=8))
def test_a_scope_part_that_is_blank_or_invisible_is_refused(part: str) -> None:
    with pytest.raises(ScopeError):
        Scope(part, "alice")


@pytest.mark.parametrize("weight", [1e6 + 1, 1e300, float("inf"), -1.0])
def test_ranking_weights_are_bounded_so_scores_stay_finite(weight: float) -> None:
    memory = LongTermMemory(policy=accept_all)
    memory.remember(ACME, "semantic", "Alice's fiscal year starts in April.")
    with pytest.raises(InvalidQuery):
        memory.recall_scored(ACME, "fiscal year", w_recency=weight)
    scores = [s.score for s in memory.recall_scored(ACME, "fiscal year", w_recency=1e6, w_importance=1e6)]
    assert all(abs(x) < float("inf") for x in scores)


@pytest.mark.parametrize("copier", [copy.copy, copy.deepcopy, pickle.dumps])
def test_an_open_memory_is_not_copied_or_pickled(tmp_path, copier) -> None:
    memory = LongTermMemory(path=str(tmp_path / "m.db"), policy=accept_all)
    memory.remember(ACME, "semantic", "Alice prefers euros.")
    with pytest.raises(MemorySetupError, match="cannot be copied or pickled"):
        copier(memory)
    assert [r.content for r in memory.recall(ACME, "euros")] == ["Alice prefers euros."]
    memory.close()


@pytest.mark.parametrize("options", [{"policy": "review"}, {"clock": 5}, {"store": "not a store"}, {"dsn": 5},
                                     {"path": "m.db", "dsn": "postgresql://x"}])
def test_settings_of_the_wrong_kind_get_a_named_error(tmp_path, monkeypatch, options) -> None:
    monkeypatch.chdir(tmp_path)
    with pytest.raises(MemorySetupError):
        LongTermMemory(**options)
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("reading", [float("nan"), float("inf"), None, True, "3"])
def test_a_clock_reading_that_is_no_finite_number_is_a_named_error_and_writes_nothing(reading) -> None:
    memory = LongTermMemory(policy=accept_all, clock=lambda: reading)
    with pytest.raises(MemorySetupError):
        memory.remember(ACME, "semantic", "Alice prefers euros.")
    assert memory.store.records(ACME) == []


def test_a_policy_that_returns_no_decision_is_a_named_error() -> None:
    memory = LongTermMemory(policy=lambda text: "store")
    with pytest.raises(MemorySetupError):
        memory.remember(ACME, "semantic", "Alice prefers euros.")
    assert memory.store.records(ACME) == []


@pytest.mark.parametrize("path", [None, "file"])
def test_a_policy_that_closes_the_memory_mid_write_stops_the_write(tmp_path, path) -> None:
    holder: list[LongTermMemory] = []

    def closing_policy(text: str):
        holder[0].close()
        return review(text)

    memory = LongTermMemory(path=None if path is None else str(tmp_path / "m.db"), policy=closing_policy)
    holder.append(memory)
    with pytest.raises(StoreClosed):
        memory.remember(ACME, "semantic", "Alice prefers euros.")
    if path:
        reopened = LongTermMemory(path=str(tmp_path / "m.db"))
        assert reopened.store.records(ACME) == []
        reopened.close()


def test_export_never_writes_over_the_files_behind_a_linked_store_path(tmp_path, monkeypatch) -> None:
    """Opened through a symbolic link, the store's real file and its -wal/-shm are still its own files."""
    from primer_memory.long_term.memory import ExportFileError

    monkeypatch.chdir(tmp_path)
    (tmp_path / "real").mkdir()
    memory = LongTermMemory(path="real/m.db", policy=accept_all)
    memory.close()
    (tmp_path / "alias.db").symlink_to(tmp_path / "real" / "m.db")
    memory = LongTermMemory(path="alias.db", policy=accept_all)
    memory.remember(ACME, "semantic", "Alice prefers euros.")
    for target in ("real/m.db", "real/m.db-wal", "real/m.db-shm"):
        with pytest.raises(ExportFileError):
            memory.export(ACME, path=target, overwrite=True)
    memory.close()
    reopened = LongTermMemory(path="real/m.db")
    assert [r.content for r in reopened.store.records(ACME)] == ["Alice prefers euros."]
    reopened.close()
