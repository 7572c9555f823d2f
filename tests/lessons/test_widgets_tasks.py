"""The crash simulator, driven from Python: buttons are clicked, the HTML is read back."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from primer_memory.tasks.store import Step
from primer_memory.lessons.reconcile_worker import crash_points
from primer_memory.lessons.widgets import CrashView, crash_decision, crash_panel, crash_view, resume_note, steps_html


def plain(markup: str) -> str:
    """The HTML's text, tags dropped and spaces squeezed, for readable assertions."""
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", markup)).replace("&gt;", ">").strip()


def rows(markup: str) -> list[tuple[str, ...]]:
    """(step, status, output, attempts) for each row of the steps table."""
    table = re.search(r"<table class='pm-steps-table'>(.*?)</table>", markup, re.S)
    assert table, markup
    cells = [re.findall(r"<td[^>]*>(.*?)</td>", row) for row in re.findall(r"<tr>(.*?)</tr>", table.group(1))]
    return [tuple(plain(c) for c in r[1:]) for r in cells if r]


def step(position: int, name: str, status: str, output: object = None, attempts: int = 0) -> Step:
    return Step("t", position, name, status, output, attempts)


# --------------------------------------------------------------------------- the pure view


def test_crash_view_shows_the_first_unfinished_step_and_the_log() -> None:
    view = crash_view([step(1, "a", "done", "4 invoices", 1), step(2, "b", "running", None, 1)],
                      "Killed.", ["a: done -> 4 invoices", "PAUSED running:b"], "ok")
    assert isinstance(view, CrashView) and view.next_step == "b"
    markup = view.html()
    assert rows(markup) == [("a", "done", "4 invoices", "1"), ("b", "running", "", "1")]
    text = plain(markup)
    assert "Killed." in text and "The first unfinished step is b" in text and "integrity_check : ok" in text
    assert "a: done -> 4 invoices" in text


def test_crash_view_of_an_empty_and_a_finished_file() -> None:
    assert "The file holds no task yet" in crash_view([], "x").html()
    assert "(nothing yet)" in crash_view([], "x").html()
    assert "Every step is done" in crash_view([step(1, "a", "done", "ok", 1)], "x").html()


def test_steps_html_escapes_what_it_shows() -> None:
    markup = steps_html([step(1, "<b>", "done", "<script>", 1)])
    assert "<script>" not in markup and "&lt;script&gt;" in markup and "&lt;b&gt;" in markup


# --------------------------------------------------------------------------- the panel, with real processes


POINTS = crash_points()


@pytest.mark.parametrize("last", [None, "killed", "finished"])
@pytest.mark.parametrize("alive", [True, False])
@pytest.mark.parametrize("paused_at", [None, *POINTS])
@pytest.mark.parametrize("chosen", [None, *POINTS])
def test_crash_decision_is_true_for_every_input(chosen: str | None, paused_at: str | None, alive: bool,
                                                last: str | None) -> None:
    action, why = crash_decision(chosen, paused_at, alive, POINTS, last=last)
    if not alive:  # the refusal names the button that helps after what happened last
        assert action == "refuse"
        assert ("Press resume" in why) == (last == "killed") and ("ran to the end" in why) == (last == "finished")
        assert ("Press start first" in why) == (last is None)
    elif chosen is None:  # "no crash" selected: never kill
        assert action == "refuse" and "Nothing was killed" in why
    elif paused_at is not None and POINTS.index(chosen) > POINTS.index(paused_at):
        assert action == "run_on"
    else:
        assert action == "kill"
        assert (why == "") == (chosen == paused_at)
        if why:
            assert "already past the chosen point" in why


def _steps(statuses: list[str]) -> list[Step]:
    return [step(i, n, s) for i, (n, s) in enumerate(zip(("a", "b", "c"), statuses), 1)]


@pytest.mark.parametrize("finished", [True, False])
@pytest.mark.parametrize("before", [[], ["pending"] * 3, ["done", "running", "pending"], ["done", "done", "pending"],
                                    ["done"] * 3])
def test_resume_note_says_what_really_happened(before: list[str], finished: bool) -> None:
    note = resume_note(_steps(before), _steps(["done"] * 3), finished)
    if not before:
        assert "held no task" in note and "carried on" not in note
    elif all(s == "done" for s in before):
        assert "nothing to do" in note and "carried on" not in note
    else:
        first = "abc"[before.index(next(s for s in before if s != "done"))]
        assert f"carried on from its first unfinished step, {first}." in note
    assert ("ran the job to the end" in note) == (finished and not (before and all(s == "done" for s in before)))


@pytest.fixture
def panel(tmp_path: Path):
    made = crash_panel(tmp_path / "tasks.db")
    yield made
    made.stop()  # never leave a worker behind, whatever the test did


@pytest.mark.slow
def test_panel_parts_carry_css_classes_and_a_short_repr(panel) -> None:
    assert repr(panel) == "CrashPanel()"
    assert "pm-crash-step" in panel.chooser._dom_classes
    for name in ("start", "crash", "resume"):
        assert f"pm-{name}-button" in panel.buttons[name]._dom_classes
    assert "pm-crash-text" in panel.text._dom_classes
    assert "Choose where to crash" in panel.text.value


@pytest.mark.slow
def test_the_lessons_crash_and_resume(panel) -> None:
    assert panel.chooser.value == "before:match"
    panel.buttons["start"].click()
    assert rows(panel.text.value) == [("fetch_invoices", "done", "4 invoices", "1"),
                                      ("fetch_payments", "done", "3 payments", "1"), ("match", "pending", "", "0")]
    assert "paused before match" in plain(panel.text.value)
    panel.buttons["crash"].click()
    text = plain(panel.text.value)
    assert "Killed the worker with SIGKILL before match" in text and "The first unfinished step is match" in text
    assert "integrity_check : ok" in text
    panel.buttons["resume"].click()
    assert rows(panel.text.value) == [("fetch_invoices", "done", "4 invoices", "1"),
                                      ("fetch_payments", "done", "3 payments", "1"),
                                      ("match", "done", "all matched", "1")]
    assert "RESUMING reconcile-september at match (pending)" in plain(panel.text.value)
    assert "carried on from its first unfinished step, match" in plain(panel.text.value)


@pytest.mark.slow
@pytest.mark.parametrize(("point", "expected"), [
    ("creating", []),
    ("running:fetch_invoices", [("fetch_invoices", "running", "", "1"), ("fetch_payments", "pending", "", "0"),
                                ("match", "pending", "", "0")]),
    ("writing:fetch_payments", [("fetch_invoices", "done", "4 invoices", "1"),
                                ("fetch_payments", "running", "", "1"), ("match", "pending", "", "0")]),
])
def test_crash_at_a_chosen_point_then_resume(panel, point: str, expected: list[tuple[str, ...]]) -> None:
    panel.chooser.value = point
    panel.buttons["start"].click()
    panel.buttons["crash"].click()
    markup = panel.text.value
    assert (rows(markup) if expected else []) == expected
    if not expected:
        assert "The file holds no task yet" in markup
    panel.buttons["resume"].click()
    done = rows(panel.text.value)
    assert [r[1] for r in done] == ["done"] * 3
    interrupted = point.split(":")[1] if ":" in point and not point.startswith("before") else None
    assert [r[3] for r in done] == ["2" if r[0] == interrupted else "1" for r in done]


@pytest.mark.slow
def test_crash_runs_on_to_a_later_choice(panel) -> None:
    panel.chooser.value = "before:fetch_payments"
    panel.buttons["start"].click()
    panel.chooser.value = "running:match"
    panel.buttons["crash"].click()
    assert [r[1] for r in rows(panel.text.value)] == ["done", "done", "running"]
    assert "during match" in plain(panel.text.value)


@pytest.mark.slow
def test_buttons_in_the_wrong_order_explain_themselves(panel) -> None:
    panel.buttons["crash"].click()
    assert "Nothing to crash: no worker is running" in plain(panel.text.value)
    panel.buttons["start"].click()
    panel.buttons["resume"].click()
    assert "The worker is still alive, paused before match (a step boundary). Press crash first." in plain(
        panel.text.value)
    panel.chooser.value = None
    panel.buttons["start"].click()  # start again: the paused worker is killed, the file replaced
    assert "ran the job to the end" in plain(panel.text.value)
    assert [r[3] for r in rows(panel.text.value)] == ["1", "1", "1"]
    panel.buttons["crash"].click()
    assert "Nothing to crash" in plain(panel.text.value)
    panel.buttons["resume"].click()  # a finished file: the new process has nothing to do, and says so
    assert "Every step was already done, so the new process found nothing to do" in plain(panel.text.value)


def test_crash_twice_and_resume_twice_say_what_is_true(panel) -> None:
    """Crash after a crash: the worker is already dead (press resume), and what it printed stays on screen. Resume
    after the job is done: nothing to do, and no claim that it ran the job."""
    panel.buttons["start"].click()
    panel.buttons["crash"].click()
    killed = plain(panel.text.value)
    assert "Killed the worker with SIGKILL" in killed
    panel.buttons["crash"].click()
    again = plain(panel.text.value)
    assert "the worker was already killed. Press resume" in again and "Press start first" not in again
    assert "(killed with SIGKILL)" in again and "(nothing yet)" not in again
    panel.buttons["resume"].click()
    assert "ran the job to the end" in plain(panel.text.value)
    panel.buttons["resume"].click()
    twice = plain(panel.text.value)
    assert "found nothing to do and exited" in twice and "ran the job to the end" not in twice


@pytest.mark.slow
def test_no_crash_selected_never_kills(panel) -> None:
    panel.buttons["start"].click()  # paused before match
    panel.chooser.value = None
    panel.buttons["crash"].click()
    assert "Nothing was killed" in plain(panel.text.value)
    assert panel.buttons and "killed with SIGKILL" not in plain(panel.text.value)
    panel.chooser.value = "before:match"
    panel.buttons["crash"].click()
    assert "Killed the worker with SIGKILL before match" in plain(panel.text.value)


@pytest.mark.slow
def test_resume_on_an_empty_file_says_it_started_afresh(panel) -> None:
    panel.buttons["resume"].click()
    text = plain(panel.text.value)
    assert "held no task" in text and "carried on" not in text and "STARTING" in text


@pytest.mark.slow
def test_default_panel_hides_its_temporary_path() -> None:
    made = crash_panel()
    try:
        made.buttons["start"].click()
        made.buttons["crash"].click()
        folder = Path(made._folder.name)
        assert str(folder) not in made.text.value and folder.name not in made.text.value
        assert "The first unfinished step is match" in plain(made.text.value)
    finally:
        made.stop()
