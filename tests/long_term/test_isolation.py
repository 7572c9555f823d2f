"""Tenant isolation: no operation in one scope ever returns, changes or removes a record of another.

Adversarial inputs (quoted secrets, SQL injection, sibling prefixes, separator
tricks, look-alike characters, threads) and a hypothesis state machine that
checks every call against a model, on the in-memory and the SQLite store.
"""

from __future__ import annotations

import threading
from pathlib import Path

import pytest
from hypothesis import settings
from hypothesis import strategies as st
from hypothesis.stateful import Bundle, RuleBasedStateMachine, consumes, invariant, rule

from primer_memory import KINDS, LongTermMemory, RecordNotFound, Scope, ScopeError

ACME_SECRET = "Acme plans to acquire Initech in Q4."
CAROL_FACT = "Globex prefers invoices in euros."
ATTACK = f"{ACME_SECRET} tenant_id=acme OR 1=1"

SQL_INJECTIONS = [
    "acme' OR '1'='1",
    "acme\" OR \"1\"=\"1",
    "x'; DROP TABLE records; --",
    "acme' --",
    "' UNION SELECT content FROM records --",
    "%",
    "_",
    "*",
    "acme%",
]


def _stores(tmp_path: Path) -> list[LongTermMemory]:
    return [LongTermMemory(), LongTermMemory(path=tmp_path / "memory.sqlite")]


@pytest.fixture(params=["memory", "sqlite"])
def store(request: pytest.FixtureRequest, tmp_path: Path) -> LongTermMemory:
    memory = LongTermMemory() if request.param == "memory" else LongTermMemory(path=tmp_path / "m.sqlite")
    yield memory
    memory.close()


def _contents(records: list) -> list[str]:
    return [r.content for r in records]


def test_carol_quoting_acmes_secret_gets_only_her_own_memory(store: LongTermMemory) -> None:
    alice, carol = Scope("acme", "alice"), Scope("globex", "carol")
    store.remember(alice, "semantic", ACME_SECRET, key="acquisition_plan")
    store.remember(carol, "semantic", CAROL_FACT, key="invoice_currency")
    assert _contents(store.recall(carol, ATTACK, k=5)) == [CAROL_FACT]
    assert _contents(store.recall(alice, ATTACK, k=5))[0] == ACME_SECRET  # the query really does match it


@pytest.mark.parametrize("attack", SQL_INJECTIONS)
def test_sql_injection_in_queries_returns_only_own_records(store: LongTermMemory, attack: str) -> None:
    alice, carol = Scope("acme", "alice"), Scope("globex", "carol")
    store.remember(alice, "semantic", ACME_SECRET)
    store.remember(carol, "semantic", CAROL_FACT)
    for record in store.recall(carol, f"{ACME_SECRET} {attack}", k=10):
        assert record.scope == carol


@pytest.mark.parametrize("attack", SQL_INJECTIONS)
def test_sql_injection_in_scope_fields_is_just_a_name(tmp_path: Path, attack: str) -> None:
    store = LongTermMemory(path=tmp_path / "m.sqlite")
    victim, attacker = Scope("acme", "alice"), Scope(attack, attack)
    store.remember(victim, "semantic", ACME_SECRET)
    store.remember(attacker, "semantic", "the attacker's own note about Initech acquisitions")
    assert all(r.scope == attacker for r in store.recall(attacker, ACME_SECRET, k=10))
    assert [r["content"] for r in store.export(attacker)] == ["the attacker's own note about Initech acquisitions"]
    store.delete_user(attacker)
    store.close()
    reopened = LongTermMemory(path=tmp_path / "m.sqlite")
    assert [r["content"] for r in reopened.export(victim)] == [ACME_SECRET]  # the table survived, untouched
    reopened.close()


SIBLINGS = [
    (Scope("acme", "alice"), Scope("acme-corp", "alice")),  # tenant prefix
    (Scope("acme", "a"), Scope("acme", "ab")),  # user prefix
    (Scope("acme", "alice"), Scope("acm", "ealice")),  # same concatenation
    (Scope("acme/alice", "x"), Scope("acme", "alice/x")),  # separator moved across the boundary
    (Scope("acme:alice", "x"), Scope("acme", "alice:x")),
    (Scope("acme", "alice"), Scope("ACME", "alice")),  # case
    (Scope("acme", "alice"), Scope("\u0430cme", "alice")),  # Cyrillic a, looks identical
    (Scope("acme", "alice"), Scope("\uff41\uff43\uff4d\uff45", "alice")),  # fullwidth letters (NFKC-equal)
    (Scope("acme", "alice"), Scope("acme", "alice\u200b")),  # zero-width space
    (Scope("acme", "alice"), Scope("acme", "ali\u0301ce")),  # combining accent
]


@pytest.mark.parametrize(("owner", "other"), SIBLINGS, ids=lambda s: repr(str(s)))
def test_look_alike_scopes_are_strangers(store: LongTermMemory, owner: Scope, other: Scope) -> None:
    written = store.remember(owner, "semantic", ACME_SECRET, key="plan").record
    assert store.recall(other, ACME_SECRET, k=10) == []
    assert store.export(other) == []
    assert store.history(other, "plan") == []
    with pytest.raises(RecordNotFound):
        store.forget(other, written.id)
    assert store.delete_user(other) == 0
    assert _contents(store.recall(owner, ACME_SECRET, k=10)) == [ACME_SECRET]


def test_forget_only_finds_ids_in_the_callers_scope(store: LongTermMemory) -> None:
    alice, carol = Scope("acme", "alice"), Scope("globex", "carol")
    secret = store.remember(alice, "semantic", ACME_SECRET).record
    with pytest.raises(RecordNotFound, match="other scopes are not searched"):
        store.forget(carol, secret.id)
    assert _contents(store.recall(alice, ACME_SECRET)) == [ACME_SECRET]


def test_a_scope_cannot_be_parsed_from_text() -> None:
    for bad in [("acme", ""), ("", "alice"), (" acme", "alice"), ("acme", None), ("acme\x00", "alice")]:
        with pytest.raises(ScopeError):
            Scope(*bad)  # type: ignore[arg-type]
    with pytest.raises(ScopeError):
        LongTermMemory().recall("acme/alice", "anything")  # type: ignore[arg-type]


@pytest.mark.parametrize("backend", ["memory", "sqlite"])
def test_many_scopes_written_from_threads_stay_apart(tmp_path: Path, backend: str) -> None:
    store = LongTermMemory() if backend == "memory" else LongTermMemory(path=tmp_path / "m.sqlite")
    scopes = [Scope(f"tenant{t}", f"user{u}") for t in range(4) for u in range(4)]
    errors: list[BaseException] = []

    def writer(scope: Scope) -> None:
        try:
            for i in range(15):
                store.remember(scope, KINDS[i % 3], f"note {i} about invoices for {scope.tenant_id} {scope.user_id}")
                for record in store.recall(scope, "note about invoices", k=5):
                    assert record.scope == scope
        except BaseException as error:  # re-raised in the main thread below
            errors.append(error)

    threads = [threading.Thread(target=writer, args=(scope,)) for scope in scopes]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=120)
    assert not any(t.is_alive() for t in threads), "a writer thread did not finish within 120 s"
    assert not errors, errors[0]
    for scope in scopes:
        exported = store.export(scope)
        assert len(exported) == 15
        assert all((r["tenant_id"], r["user_id"]) == (scope.tenant_id, scope.user_id) for r in exported)
        assert all(f"for {scope.tenant_id} {scope.user_id}" in r["content"] for r in exported)
    store.close()


# --------------------------------------------------------------------------- a state machine against a model

SCOPES = [Scope("acme", "alice"), Scope("acme", "al"), Scope("acme-corp", "alice"), Scope("globex", "carol")]
WORDS = ["invoice", "vendor", "travel", "budget", "fiscal", "euro", "Initech", "Globex", "payment", "team"]
texts = st.lists(st.sampled_from(WORDS), min_size=1, max_size=6).map(lambda ws: "note " + " ".join(ws))


class IsolationMachine(RuleBasedStateMachine):
    """Random writes, recalls, forgets, exports and deletions across sibling scopes, checked against a dict."""

    records = Bundle("records")

    def __init__(self) -> None:
        super().__init__()
        import tempfile

        self._tmp = tempfile.TemporaryDirectory()
        self.store = LongTermMemory(path=Path(self._tmp.name) / "m.sqlite") if self.durable else LongTermMemory()
        self.model: dict[Scope, dict[str, str]] = {s: {} for s in SCOPES}

    durable = False

    @rule(target=records, scope=st.sampled_from(SCOPES), kind=st.sampled_from(KINDS), text=texts)
    def remember(self, scope: Scope, kind: str, text: str):  # type: ignore[no-untyped-def]
        result = self.store.remember(scope, kind, text)
        if result.stored:
            assert result.record is not None and result.record.scope == scope
            self.model[scope][result.record.id] = text
        return (scope, result.record.id if result.record else None)

    @rule(scope=st.sampled_from(SCOPES), query=texts, k=st.integers(1, 8))
    def recall(self, scope: Scope, query: str, k: int) -> None:
        for record in self.store.recall(scope, query, k=k):
            assert record.scope == scope
            assert self.model[scope].get(record.id) == record.content

    @rule(owned=consumes(records), caller=st.sampled_from(SCOPES))
    def forget(self, owned: tuple[Scope, str | None], caller: Scope) -> None:
        owner, record_id = owned
        if record_id is None:
            return
        if caller == owner and record_id in self.model[owner]:
            assert self.store.forget(caller, record_id).id == record_id
            del self.model[owner][record_id]
        else:
            with pytest.raises(RecordNotFound):
                self.store.forget(caller, record_id)

    @rule(scope=st.sampled_from(SCOPES))
    def delete_user(self, scope: Scope) -> None:
        assert self.store.delete_user(scope) == len(self.model[scope])
        self.model[scope] = {}

    @invariant()
    def exports_match_the_model(self) -> None:
        for scope in SCOPES:
            exported = self.store.export(scope)
            assert {r["id"]: r["content"] for r in exported} == self.model[scope]
            assert all((r["tenant_id"], r["user_id"]) == (scope.tenant_id, scope.user_id) for r in exported)

    def teardown(self) -> None:
        self.store.close()
        self._tmp.cleanup()


class DurableIsolationMachine(IsolationMachine):
    durable = True


TestIsolationInMemory = IsolationMachine.TestCase
TestIsolationInMemory.settings = settings(max_examples=60, stateful_step_count=30, deadline=None)
TestIsolationOnDisk = DurableIsolationMachine.TestCase
TestIsolationOnDisk.settings = settings(max_examples=25, stateful_step_count=25, deadline=None)
