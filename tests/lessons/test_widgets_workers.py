"""The worker panel: its pure view over a grid of situations, and the panel with real worker processes."""

from __future__ import annotations

import html
import itertools
import re
import uuid

import pytest

from primer_memory.tasks.store import Event, Step
from primer_memory.lessons.widgets import WorkersView, workers_panel, workers_view


def plain(markup: str) -> str:
    return html.unescape(re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", markup)).strip())


def step(name: str, status: str, holder: str | None = None) -> Step:
    return Step("t", 1, name, status, None, 1, None, holder, 5.0 if holder else None)


def claim(seq: int, name: str, worker: str, taken: bool = False) -> Event:
    reason = f"claimed by {worker} for 1 s: " + ("taken over, the lease of x expired" if taken else "pending -> running")
    return Event("t", seq, name, "running", None, True, reason, "claim", worker)


def done(seq: int, name: str, worker: str) -> Event:
    return Event("t", seq, name, "done", "ok", True, "accepted", "{}", worker)


SITUATIONS = {
    "nothing yet": ([], []),
    "running": ([step("a", "running", "w1"), step("b", "pending")], [claim(1, "a", "w1")]),
    "taken over": ([step("a", "running", "w2"), step("b", "pending")], [claim(1, "a", "w1"), claim(2, "a", "w2", True)]),
    "all done": ([step("a", "done"), step("b", "done")],
                 [claim(1, "a", "w1"), done(2, "a", "w1"), claim(3, "b", "w1"), done(4, "b", "w1")]),
    "done after takeover": ([step("a", "done"), step("b", "done")],
                            [claim(1, "a", "w1"), claim(2, "a", "w2", True), done(3, "a", "w2"), claim(4, "b", "w2"),
                             done(5, "b", "w2")]),
}
STATES = [{}, {"w1": "alive"}, {"w1": "killed"}, {"w1": "killed", "w2": "alive"}, {"w1": "finished", "w2": "finished"}]


@pytest.mark.parametrize(("situation", "workers"), list(itertools.product(SITUATIONS, range(len(STATES)))))
def test_every_sentence_is_true(situation: str, workers: int) -> None:
    steps, events = SITUATIONS[situation]
    states = STATES[workers]
    view = workers_view({"t": steps} if steps else {}, {"t": events} if events else {}, states)
    assert isinstance(view, WorkersView)
    text = " ".join(view.notes)
    if not states:
        assert "No worker has been started yet" in text
    else:
        alive = sum(v == "alive" for v in states.values())
        done_n = sum(s.status == "done" for s in steps)
        assert f"{alive} worker(s) alive" in text and f"{done_n} of {len(steps)} steps done" in text
    if "took the step over" in text:
        assert any("taken over" in e.reason for e in events)
        dead = "was killed" if states.get("w1") == "killed" else "stopped renewing its lease"
        assert f"w1 {dead} holding t/a; once its lease expired, w2 took the step over." in text
    holding_dead = any(s.status == "running" and states.get(s.lease_owner) == "killed" for s in steps)
    assert ("was killed while holding a step" in text) == holding_dead
    if "another worker will take that step over" in text:
        assert any(v == "alive" for v in states.values()), "a take-over is promised only while a worker lives"
    if holding_dead and not any(v == "alive" for v in states.values()):
        assert "no worker is left alive to take it over" in text
    assert ("Every step is done exactly once." in text) == (bool(steps) and all(s.status == "done" for s in steps))
    assert "Recorded twice" not in text


def test_a_step_recorded_twice_is_called_out() -> None:
    view = workers_view({"t": [step("a", "done")]}, {"t": [done(1, "a", "w1"), done(2, "a", "w2")]}, {"w1": "alive"})
    assert "Recorded twice (this must never happen): t/a." in view.notes
    assert "exactly once" not in " ".join(view.notes)


def test_the_html_escapes_names() -> None:
    markup = workers_view({"<t>": [step("<a>", "running", "<w>")]}, {}, {"<w>": "alive"}).html()
    assert "<t>" not in markup.replace("<table", "").replace("<tr>", "") or "&lt;t&gt;" in markup
    assert "&lt;a&gt;" in markup and "&lt;w&gt;" in markup


@pytest.mark.slow
@pytest.mark.parametrize("backend", ["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)])
def test_the_panel_kills_one_and_another_takes_over(backend: str, request: pytest.FixtureRequest) -> None:
    dsn = request.getfixturevalue("pg_dsn") if backend == "postgres" else None
    panel = workers_panel(dsn=dsn, schema=f"panel_{uuid.uuid4().hex[:8]}", tasks=4, lease=1.0, work_ms=600)
    try:
        assert repr(panel) == "WorkersPanel()" and "No worker has been started yet" in plain(panel.text.value)
        panel.buttons["kill"].click()
        assert "Nothing to kill: press start first" in plain(panel.text.value)
        panel.count.value = 2
        panel.buttons["start"].click()
        assert "Started 2 worker process(es) on 4 tasks" in plain(panel.text.value)
        panel.buttons["kill"].click()
        text = plain(panel.text.value)
        killed = re.search(r"Killed (worker \d) with SIGKILL while it held a step", text)
        assert killed, text
        victim = killed.group(1)
        heir = "worker 2" if victim == "worker 1" else "worker 1"
        import time

        for _ in range(60):  # wait (bounded) until the survivor has drained the list
            panel.buttons["refresh"].click()
            if "Every step is done" in plain(panel.text.value):
                break
            time.sleep(0.5)
        text = plain(panel.text.value)
        assert "Every step is done exactly once." in text, text
        assert f"{victim} was killed holding" in text and f"{heir} took the step over" in text
    finally:
        panel.stop()


@pytest.mark.slow
@pytest.mark.postgres
def test_a_rerun_panel_starts_cleanly_and_leaves_no_schema_behind(pg_dsn: str) -> None:
    """Re-running the cell made a second panel on the same schema: its start hit 'job-1 already exists'."""
    import psycopg

    name = f"rerun_{uuid.uuid4().hex[:6]}"
    first, second = (workers_panel(dsn=pg_dsn, schema=name, tasks=2, lease=1.0, work_ms=50) for _ in range(2))
    try:
        for panel in (first, second, first):
            panel.count.value = 1
            panel.buttons["start"].click()
            assert "Started 1 worker process(es) on 2 tasks" in plain(panel.text.value), plain(panel.text.value)
    finally:
        first.stop()
        second.stop()
    with psycopg.connect(pg_dsn) as admin:
        left = admin.execute("SELECT nspname FROM pg_namespace WHERE nspname LIKE %s", (name + "%",)).fetchall()
    assert left == [], "every round's schema is dropped"


def test_a_killed_lone_worker_names_its_lease_and_the_way_on() -> None:
    """The step still names the killed worker (its lease has not run out); the note says so and offers 'add one'."""
    view = workers_view({"t": [step("a", "running", "w1"), step("b", "pending")]}, {"t": [claim(1, "a", "w1")]},
                        {"w1": "killed"})
    text = " ".join(view.notes)
    assert "still names w1 as its holder" in text and "Press 'add one'" in text and "leased to nobody" not in text


@pytest.mark.slow
def test_one_worker_killed_then_one_added_takes_its_step_over() -> None:
    """With a single worker nobody can take over; 'add one' starts a worker on the same list, which does."""
    import time

    panel = workers_panel(tasks=2, lease=1.0, work_ms=600)
    try:
        panel.buttons["add"].click()
        assert "No task list yet: press start first" in plain(panel.text.value)
        panel.count.value = 1
        panel.buttons["start"].click()
        panel.buttons["kill"].click()
        text = plain(panel.text.value)
        assert "Killed worker 1 with SIGKILL" in text and "Press 'add one'" in text, text
        panel.buttons["add"].click()
        assert "Added worker 2 to the same task list" in plain(panel.text.value)
        for _ in range(60):
            panel.buttons["refresh"].click()
            if "Every step is done" in plain(panel.text.value):
                break
            time.sleep(0.5)
        text = plain(panel.text.value)
        assert "Every step is done exactly once." in text and "worker 2 took the step over" in text, text
    finally:
        panel.stop()
