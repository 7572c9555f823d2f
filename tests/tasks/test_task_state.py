"""TaskStateStore: the worked example, every refusal, the state machine, the event log, and
property tests against a small in-Python model of the rules."""

from __future__ import annotations

import json
import sqlite3
import tempfile
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, invariant, rule

from primer_memory.lessons.examples import (
    RECONCILE_GOAL,
    RECONCILE_OUTPUTS,
    RECONCILE_PROPOSALS,
    RECONCILE_RESUMES_AT,
    RECONCILE_STEP_NAMES,
    RECONCILE_STEPS,
    RECONCILE_TASK_ID,
)
from primer_memory.policy.boundary import parse_system
from primer_memory.short_term.prompt import build_prompt
from primer_memory.tasks.store import (
    STATUSES,
    TRANSITIONS,
    InvalidTask,
    InvalidUpdate,
    RetryPolicy,
    TaskStateStore,
    UnknownTask,
    count_text,
    events_table,
    short_text,
    steps_table,
)


def stored_bytes(path: Path) -> bytes:
    """What SQLite keeps for the database: the file and its WAL (the -shm index changes on every read)."""
    wal = path.with_name(path.name + "-wal")
    return path.read_bytes() + (wal.read_bytes() if wal.exists() else b"")


TASK = RECONCILE_TASK_ID


@pytest.fixture
def store(tmp_path: Path):
    with TaskStateStore(tmp_path / "tasks.db") as s:
        s.create_task(TASK, RECONCILE_GOAL, RECONCILE_STEPS)
        yield s


def statuses(store: TaskStateStore, task_id: str = TASK) -> list[str]:
    return [status for _, status, _ in store.steps(task_id)]


# --------------------------------------------------------------------------- the lesson's worked example


def test_worked_example_holds_exactly(tmp_path: Path) -> None:
    path = tmp_path / "tasks.db"
    store = TaskStateStore(path)
    created = store.create_task(TASK, RECONCILE_GOAL, RECONCILE_STEPS)
    assert created == [("fetch_invoices", "pending", None), ("fetch_payments", "pending", None),
                       ("match", "pending", None)]
    assert statuses(store) == ["pending"] * 3
    assert store.next_step(TASK) == "fetch_invoices"

    first, refused, third = (p for p, _ in RECONCILE_PROPOSALS)
    written = store.apply(TASK, first)
    assert (written.name, written.status, written.output) == ("fetch_invoices", "done", "4 invoices")
    with pytest.raises(InvalidUpdate, match="the current step is fetch_payments") as info:
        store.apply(TASK, refused)
    assert info.value.step == "match" and info.value.status == "done"
    assert statuses(store) == ["done", "pending", "pending"]  # the refusal changed nothing
    written = store.apply(TASK, json.dumps(third))  # a model sends text: the JSON form works the same
    assert (written.name, written.output) == ("fetch_payments", "3 payments")
    store.close()  # the process "crashes": nothing is held in memory anyway

    reopened = TaskStateStore(path)
    assert reopened.next_step(TASK) == RECONCILE_RESUMES_AT == "match"
    assert [(status, output) for _, status, output in reopened.steps(TASK)] == [
        ("done", "4 invoices"), ("done", "3 payments"), ("pending", None)]
    assert [(e.step, e.accepted) for e in reopened.events(TASK)] == [
        ("fetch_invoices", True), ("match", False), ("fetch_payments", True)]
    assert [accepted for _, accepted in RECONCILE_PROPOSALS] == [True, False, True]
    reopened.close()


def test_example_data_is_consistent() -> None:
    assert tuple(n for n, _ in RECONCILE_STEPS) == RECONCILE_STEP_NAMES
    assert set(RECONCILE_OUTPUTS) == set(RECONCILE_STEP_NAMES)
    for (name, check) in RECONCILE_STEPS:
        assert {"count": count_text, "text": short_text}[check](RECONCILE_OUTPUTS[name]) is None


# --------------------------------------------------------------------------- creating tasks


def test_create_task_is_all_or_nothing(tmp_path: Path) -> None:
    def boom(point: str, *_: Any) -> None:
        if point == "creating":
            raise RuntimeError("crash inside the create transaction")

    with TaskStateStore(tmp_path / "t.db", hook=boom) as store:
        with pytest.raises(RuntimeError):
            store.create_task("t1", "goal", ["a", "b", "c"])
        assert store.tasks() == []
        raw = sqlite3.connect(tmp_path / "t.db")
        assert raw.execute("SELECT COUNT(*) FROM steps").fetchone() == (0,)
        raw.close()


def test_create_task_accepts_names_pairs_and_mappings(tmp_path: Path) -> None:
    def has_vendor(output: Any) -> bool:
        return isinstance(output, str) and "vendor" in output

    with TaskStateStore(tmp_path / "t.db") as store:
        store.create_task("names", "g", ["a", "b"])
        store.create_task("pairs", "g", [("a", has_vendor), ("b", "text"), "c"])
        store.create_task("mapping", "g", {"a": None, "b": "count"})
        assert [(s.name, s.validator) for s in store.step_details("pairs")] == [
            ("a", "has_vendor"), ("b", "text"), ("c", None)]
        assert [(s.name, s.validator) for s in store.step_details("mapping")] == [("a", None), ("b", "count")]
        assert store.tasks() == ["mapping", "names", "pairs"]
        assert store.goal("names") == "g"


@pytest.mark.parametrize(
    ("task_id", "steps", "message"),
    [
        ("", ["a"], "task_id must be a non-empty string"),
        ("t", [], "needs at least one step"),
        ("t", ["a", "a"], "appears twice"),
        ("t", ["a", ""], "step 2's name must be a non-empty string"),
        ("t", [("a", lambda out: True)], "named function"),
        ("t", [("a", "no_such_check")], "known checks: count, text"),
        ("t", [("a", "text", "extra")], "a name or a \\(name, validator\\) pair"),
    ],
)
def test_create_task_refuses_bad_definitions(tmp_path: Path, task_id: str, steps: Any, message: str) -> None:
    with TaskStateStore(tmp_path / "t.db") as store:
        with pytest.raises(InvalidTask, match=message):
            store.create_task(task_id, "goal", steps)
        assert store.tasks() == []


def test_create_task_refuses_an_existing_id(store: TaskStateStore) -> None:
    store.apply(TASK, {"step": "fetch_invoices", "status": "running"})
    with pytest.raises(InvalidTask, match="already exists"):
        store.create_task(TASK, "again", ["x"])
    assert statuses(store) == ["running", "pending", "pending"]  # the old task is untouched


def test_unknown_task_on_read(store: TaskStateStore) -> None:
    with pytest.raises(UnknownTask, match=f"no task \"nope\" in this store; known tasks: {TASK}"):
        store.steps("nope")
    with pytest.raises(UnknownTask):
        store.next_step("nope")
    assert isinstance(UnknownTask("x"), LookupError)


# --------------------------------------------------------------------------- every refusal


REFUSALS = [
    ('{"step": "fetch_invoices", "status": "done"', "not valid JSON"),
    ('["fetch_invoices", "done"]', "must be a JSON object, got a list"),
    ('"done"', "must be a JSON object, got a string"),
    ({"step": "fetch_invoices", "status": "done", "output": "4 invoices", "confidence": 0.9},
     "unknown field\\(s\\) 'confidence'; the allowed fields are step, status, output"),
    ({"step": "fetch_invoices"}, "missing field\\(s\\) 'status'"),
    ({"step": 1, "status": "done"}, "field 'step' must be a string"),
    ('{"step": "fetch_invoices", "step": "match", "status": "done"}', "field 'step' is given twice"),
    ({"step": "fetch_vendors", "status": "done"}, "has no step \"fetch_vendors\"; its steps are fetch_invoices"),
    ({"step": "fetch_invoices", "status": "complete"},
     "status \"complete\" is not a status; a proposal may set running, done, failed \\(pending is where"),
    ({"step": "fetch_payments", "status": "done", "output": "3 payments"},
     "not the current step: the current step is fetch_invoices"),
    ({"step": "fetch_invoices", "status": "pending"}, "only create_task sets it"),
    ({"step": "fetch_invoices", "status": "done", "output": "some invoices"},
     "fails the \"count\" check: expected a whole number"),
    ({"step": "fetch_invoices", "status": "done"}, "expected a non-empty text"),
    ({"step": "fetch_invoices", "status": "done", "output": {1, 2}}, "cannot be stored as JSON"),
    ("x" * 10_001, "at most 10000 are accepted"),
    ("[" * 5_000, "nested too deeply"),
]


@pytest.mark.parametrize(("proposal", "message"), REFUSALS)
def test_each_refusal_says_why_and_changes_only_the_log(store: TaskStateStore, proposal: Any,
                                                        message: str) -> None:
    before = store.steps(TASK)
    with pytest.raises(InvalidUpdate, match=message) as info:
        store.apply(TASK, proposal)
    assert store.steps(TASK) == before
    (event,) = store.events(TASK)
    assert not event.accepted and event.reason == str(info.value) == info.value.reason
    assert event.seq == info.value.seq == 1
    assert isinstance(info.value, ValueError)


def test_unknown_task_is_refused_and_changes_nothing(store: TaskStateStore, tmp_path: Path) -> None:
    before = stored_bytes(tmp_path / "tasks.db")
    for n in range(50):  # invented ids cannot grow the file: the log belongs to tasks that exist
        with pytest.raises(InvalidUpdate, match='no task "reconcile-octobre-'):
            store.apply(f"reconcile-octobre-{n}", {"step": "match", "status": "done"})
    assert store.events("reconcile-octobre-1") == [] and store.events(TASK) == []
    assert stored_bytes(tmp_path / "tasks.db") == before


def test_done_is_final(store: TaskStateStore) -> None:
    store.apply(TASK, {"step": "fetch_invoices", "status": "done", "output": "4 invoices"})
    for status in STATUSES:
        with pytest.raises(InvalidUpdate, match="is already done .*a done step is final"):
            store.apply(TASK, {"step": "fetch_invoices", "status": status, "output": "5 invoices"})
    assert store.steps(TASK)[0][2] == "4 invoices"


def test_a_finished_task_refuses_everything(store: TaskStateStore) -> None:
    for name in RECONCILE_STEP_NAMES:
        store.apply(TASK, {"step": name, "status": "done", "output": RECONCILE_OUTPUTS[name]})
    assert store.next_step(TASK) is None
    with pytest.raises(InvalidUpdate, match="every step of this task is done"):
        store.apply(TASK, {"step": "match", "status": "running"})


def test_task_id_must_be_text(store: TaskStateStore) -> None:
    with pytest.raises(TypeError):
        store.apply(42, {"step": "fetch_invoices", "status": "running"})  # type: ignore[arg-type]


# --------------------------------------------------------------------------- the state machine


def test_transition_table_is_as_documented() -> None:
    assert TRANSITIONS == {
        "pending": ("running", "done", "failed"),
        "running": ("done", "failed"),
        "failed": ("running",),
        "done": (),
    }


def walk(store: TaskStateStore, statuses_: list[str]) -> None:
    for status in statuses_:
        store.apply(TASK, {"step": "fetch_invoices", "status": status, "output": "4 invoices"})


@pytest.mark.parametrize("start", [[], ["running"], ["failed"], ["running", "failed"]])
@pytest.mark.parametrize("target", STATUSES)
def test_every_transition(store: TaskStateStore, start: list[str], target: str) -> None:
    walk(store, start)
    current = start[-1] if start else "pending"
    if target in TRANSITIONS[current]:
        step = store.apply(TASK, {"step": "fetch_invoices", "status": target, "output": "4 invoices"})
        assert step.status == target
    else:
        with pytest.raises(InvalidUpdate, match=f"from {current} a proposal may set"):
            store.apply(TASK, {"step": "fetch_invoices", "status": target, "output": "4 invoices"})
        assert store.steps(TASK)[0][1] == current


def test_retry_counts_attempts_and_the_failed_step_stays_current(store: TaskStateStore) -> None:
    store.apply(TASK, {"step": "fetch_invoices", "status": "running"})
    store.apply(TASK, {"step": "fetch_invoices", "status": "failed", "output": "API timeout"})
    assert store.next_step(TASK) == "fetch_invoices"
    with pytest.raises(InvalidUpdate, match="to retry it, propose running first"):
        store.apply(TASK, {"step": "fetch_invoices", "status": "done", "output": "4 invoices"})
    with pytest.raises(InvalidUpdate, match="the current step is fetch_invoices"):
        store.apply(TASK, {"step": "fetch_payments", "status": "running"})
    store.apply(TASK, {"step": "fetch_invoices", "status": "running"})
    step = store.apply(TASK, {"step": "fetch_invoices", "status": "done", "output": "4 invoices"})
    assert (step.attempts, step.output) == (2, "4 invoices")


def test_implicit_run_is_named_in_the_log(store: TaskStateStore) -> None:
    store.apply(TASK, {"step": "fetch_invoices", "status": "done", "output": "4 invoices"})
    (event,) = store.events(TASK)
    assert event.reason == "accepted: fetch_invoices pending -> done (started and finished in one update)"
    assert store.step_details(TASK)[0].attempts == 1


# --------------------------------------------------------------------------- output checks


def test_custom_checks_false_text_or_exception(tmp_path: Path) -> None:
    def is_upper(output: Any) -> bool:
        return isinstance(output, str) and output.isupper()

    def explains(output: Any) -> str | None:
        return None if output == "ok" else "say ok"

    def crashes(output: Any) -> bool:
        raise KeyError("vendor")

    with TaskStateStore(tmp_path / "t.db") as store:
        store.create_task("t", "g", [("a", is_upper), ("b", explains), ("c", crashes)])
        with pytest.raises(InvalidUpdate, match="fails the \"is_upper\" check: the check returned False"):
            store.apply("t", {"step": "a", "status": "done", "output": "lower"})
        store.apply("t", {"step": "a", "status": "done", "output": "UPPER"})
        with pytest.raises(InvalidUpdate, match="fails the \"explains\" check: say ok"):
            store.apply("t", {"step": "b", "status": "done", "output": "nope"})
        store.apply("t", {"step": "b", "status": "running", "output": "checks apply to done only"})
        store.apply("t", {"step": "b", "status": "done", "output": "ok"})
        with pytest.raises(InvalidUpdate, match="the check raised KeyError"):
            store.apply("t", {"step": "c", "status": "done", "output": 1})
        assert statuses(store, "t") == ["done", "done", "pending"]


def test_a_new_process_needs_the_same_custom_checks(tmp_path: Path) -> None:
    def has_vendor(output: Any) -> bool:
        return isinstance(output, str) and "vendor" in output

    with TaskStateStore(tmp_path / "t.db") as store:
        store.create_task("t", "g", [("a", has_vendor)])
    with TaskStateStore(tmp_path / "t.db") as fresh:
        with pytest.raises(InvalidUpdate, match="open the store with validators=\\{'has_vendor': ...\\}"):
            fresh.apply("t", {"step": "a", "status": "done", "output": "vendor Acme"})
        assert statuses(fresh, "t") == ["pending"]
    with TaskStateStore(tmp_path / "t.db", validators={"has_vendor": has_vendor}) as told:
        with pytest.raises(InvalidUpdate, match="has_vendor"):
            told.apply("t", {"step": "a", "status": "done", "output": "no name"})
        assert told.apply("t", {"step": "a", "status": "done", "output": "vendor Acme"}).status == "done"


def test_check_names_cannot_be_reused(tmp_path: Path) -> None:
    def text(output: Any) -> bool:  # same name as the built-in
        return True

    with TaskStateStore(tmp_path / "t.db") as store:
        with pytest.raises(InvalidTask, match="already called 'text'"):
            store.create_task("t", "g", [("a", text)])


# --------------------------------------------------------------------------- storage details


def test_file_is_wal_and_sound(store: TaskStateStore, tmp_path: Path) -> None:
    raw = sqlite3.connect(tmp_path / "tasks.db")
    assert raw.execute("PRAGMA journal_mode").fetchone() == ("wal",)
    raw.close()
    assert store.integrity_check() == "ok"


def test_hostile_ids_and_names_are_data_not_sql(tmp_path: Path) -> None:
    nasty = "x'); DROP TABLE steps; --"
    with TaskStateStore(tmp_path / "t.db") as store:
        store.create_task(nasty, nasty, [nasty, "b"])
        store.apply(nasty, {"step": nasty, "status": "done", "output": nasty})
        assert store.steps(nasty)[0][2] == nasty
        assert store.next_step(nasty) == "b"


def test_outputs_round_trip_as_json(store: TaskStateStore) -> None:
    store.apply(TASK, {"step": "fetch_invoices", "status": "running"})
    failed = store.apply(TASK, '{"step": "fetch_invoices", "status": "failed", "output": {"error": "timeout", "n": 2}}')
    assert failed.output == {"error": "timeout", "n": 2}
    assert store.events(TASK)[-1].output == {"error": "timeout", "n": 2}


def test_event_numbers_are_per_task_and_deterministic(tmp_path: Path) -> None:
    with TaskStateStore(tmp_path / "t.db") as store:
        store.create_task("a", "g", ["x", "y"])
        store.create_task("b", "g", ["x"])
        store.apply("a", {"step": "x", "status": "running"})
        with pytest.raises(InvalidUpdate):
            store.apply("b", {"step": "y", "status": "running"})
        store.apply("b", {"step": "x", "status": "running"})
        store.apply("a", {"step": "x", "status": "done"})
        assert [e.seq for e in store.events("a")] == [1, 2]
        assert [e.seq for e in store.events("b")] == [1, 2]


def test_an_error_inside_the_write_rolls_everything_back(store: TaskStateStore, tmp_path: Path) -> None:
    def fail_after_write(point: str, *_: Any) -> None:
        if point == "written":
            raise RuntimeError("power cut")

    with TaskStateStore(tmp_path / "tasks.db", hook=fail_after_write) as flaky:
        with pytest.raises(RuntimeError, match="power cut"):
            flaky.apply(TASK, {"step": "fetch_invoices", "status": "done", "output": "4 invoices"})
    assert statuses(store) == ["pending"] * 3
    assert store.events(TASK) == []  # the decision never committed, so neither did its log line
    store.apply(TASK, {"step": "fetch_invoices", "status": "done", "output": "4 invoices"})
    assert [e.seq for e in store.events(TASK)] == [1]


def test_tables_and_prompt_line(store: TaskStateStore) -> None:
    store.apply(TASK, {"step": "fetch_invoices", "status": "done", "output": "4 invoices"})
    with pytest.raises(InvalidUpdate):
        store.apply(TASK, {"step": "match", "status": "done", "output": "all matched"})
    table = steps_table(store.step_details(TASK))
    assert table.splitlines()[0].split() == ["#", "step", "status", "output", "attempts"]
    assert "fetch_invoices  done     4 invoices" in table
    log = events_table(store.events(TASK), width=40)
    assert log.splitlines()[3].startswith("2    match           done")
    assert all(len(line) < 120 for line in log.splitlines())
    line = store.step_for_prompt(TASK)
    assert line.startswith("fetch_payments (step 2 of 3, pending). Goal: Reconcile")
    assert "Done so far: fetch_invoices -> 4 invoices." in line
    system = build_prompt("You reconcile invoices.", task_step=line)[0]["content"]
    assert '{"type": "task step", "text": "fetch_payments (step 2 of 3, pending). Goal: Reconcile' in system
    assert parse_system(system)[1] == [{"type": "task step", "text": line}]  # quoted data, as the renderer wrote it


# --------------------------------------------------------------------------- properties against a model


NAMES = ("a", "b", "c")
LIMIT = 3  # attempts per step in the stores below: small, so sequences reach it
LIMITED = RetryPolicy(max_attempts=LIMIT)
OK_PAIRS = {("pending", "running"), ("pending", "done"), ("pending", "failed"),
            ("running", "done"), ("running", "failed"), ("failed", "running")}


def nonempty(output: Any) -> bool:
    return isinstance(output, str) and output != ""


class Model:
    """The rules restated as plainly as possible, with no database."""

    def __init__(self) -> None:
        self.status = dict.fromkeys(NAMES, "pending")
        self.output: dict[str, Any] = dict.fromkeys(NAMES)
        self.attempts = dict.fromkeys(NAMES, 0)
        self.gave_up: set[str] = set()  # a step that failed on its last allowed attempt takes nothing more

    def apply(self, proposal: dict[str, Any]) -> bool:
        step, status, output = proposal["step"], proposal["status"], proposal.get("output")
        if status not in STATUSES or step not in NAMES:
            return False
        current = next((n for n in NAMES if self.status[n] != "done"), None)
        if step != current or step in self.gave_up or (self.status[step], status) not in OK_PAIRS:
            return False
        if status == "done" and step == "b" and not nonempty(output):
            return False
        self.attempts[step] += self.status[step] in ("pending", "failed")
        if status == "failed" and self.attempts[step] >= LIMIT:
            self.gave_up.add(step)
        self.status[step], self.output[step] = status, output
        return True


proposals = st.fixed_dictionaries(
    {"step": st.sampled_from(NAMES + ("zzz",)), "status": st.sampled_from(STATUSES + ("complete",))},
    optional={"output": st.one_of(st.none(), st.sampled_from(["", "4 invoices"]), st.integers(-3, 3))},
)


def check_against(store: TaskStateStore, model: Model, done_before: dict[str, Any]) -> None:
    steps = store.step_details("t")
    assert {s.name: s.status for s in steps} == model.status
    assert {s.name: s.output for s in steps} == model.output
    seen_unfinished = False
    for s in steps:  # never a skip: after the first unfinished step, everything is pending
        if seen_unfinished:
            assert s.status == "pending"
        seen_unfinished = seen_unfinished or s.status != "done"
    for name, output in done_before.items():  # never a done step moved
        assert (model.status[name], model.output[name]) == ("done", output)


@settings(max_examples=60)
@given(st.lists(proposals, max_size=25))
def test_random_proposals_match_the_model(sequence: list[dict[str, Any]]) -> None:
    with tempfile.TemporaryDirectory() as folder, TaskStateStore(Path(folder) / "t.db", retry=LIMITED) as store:
        store.create_task("t", "g", [("a", None), ("b", nonempty), ("c", None)])
        model = Model()
        done: dict[str, Any] = {}
        for proposal in sequence:
            expected = model.apply(proposal)
            try:
                store.apply("t", proposal)
                accepted = True
            except InvalidUpdate:
                accepted = False
            assert accepted == expected, (proposal, model.status)
            check_against(store, model, done)
            done = {n: model.output[n] for n in NAMES if model.status[n] == "done"}
        events = store.events("t")
        assert [e.accepted for e in events if e.status != "gave_up"] == _replay(sequence)
        assert {e.step for e in events if e.status == "gave_up"} == model.gave_up  # each with its reason


def _replay(sequence: list[dict[str, Any]]) -> list[bool]:
    model = Model()
    return [model.apply(p) for p in sequence]


class TaskMachine(RuleBasedStateMachine):
    """Stateful version: hypothesis interleaves proposals, JSON text and reopening the file."""

    def __init__(self) -> None:
        super().__init__()
        self.folder = tempfile.TemporaryDirectory()
        self.path = Path(self.folder.name) / "t.db"
        self.store = TaskStateStore(self.path, validators={"nonempty": nonempty}, retry=LIMITED)
        self.store.create_task("t", "g", [("a", None), ("b", "nonempty"), ("c", None)])
        self.model = Model()
        self.proposed = 0
        self.done: dict[str, Any] = {}

    @rule(proposal=proposals, as_json=st.booleans())
    def propose(self, proposal: dict[str, Any], as_json: bool) -> None:
        expected = self.model.apply(proposal)
        self.proposed += 1
        try:
            self.store.apply("t", json.dumps(proposal) if as_json else proposal)
        except InvalidUpdate:
            assert not expected
        else:
            assert expected

    @rule()
    def reopen(self) -> None:
        self.store.close()
        self.store = TaskStateStore(self.path, validators={"nonempty": nonempty}, retry=LIMITED)

    @invariant()
    def agrees_with_the_model(self) -> None:
        check_against(self.store, self.model, self.done)
        self.done = {n: self.model.output[n] for n in NAMES if self.model.status[n] == "done"}
        assert len([e for e in self.store.events("t") if e.status != "gave_up"]) == self.proposed

    def teardown(self) -> None:
        self.store.close()
        self.folder.cleanup()


TestTaskMachine = TaskMachine.TestCase
TestTaskMachine.settings = settings(max_examples=40, stateful_step_count=20)


def test_a_file_of_another_schema_version_is_refused(tmp_path: Path) -> None:
    raw = sqlite3.connect(tmp_path / "other.db")
    raw.execute("PRAGMA user_version=7")
    raw.close()
    with pytest.raises(ValueError, match="schema version 7; this code reads task files of version 3 or older"):
        TaskStateStore(tmp_path / "other.db")
