"""Notebook 4's exercises: every solution passes, every stub is 'not attempted', wrong answers get feedback,
and nothing a learner passes makes a checker raise."""

from __future__ import annotations

import pytest

from primer_memory.lessons.exercises import grade, exercise, is_stub, show_solution
from primer_memory.lessons.exercises import tasks as t4

IDS = ("4.1", "4.2", "4.3")


def explode(*_args: object) -> object:
    raise RuntimeError("a learner's bug")


def text(output: object) -> object:  # a learner's function named like a built-in check
    return "junk"


def count(output: object) -> object:
    raise ValueError("oops")


def stub_check(output):  # type: ignore[no-untyped-def]
    ...


@pytest.mark.parametrize("exercise_id", IDS)
def test_each_solution_passes_its_checker(exercise_id: str, capsys: pytest.CaptureFixture[str]) -> None:
    ex = exercise(exercise_id)
    assert grade(exercise_id, ex.solution) is True, capsys.readouterr().out
    assert "not attempted" not in capsys.readouterr().out


@pytest.mark.parametrize("exercise_id", IDS)
def test_each_stub_is_not_attempted(exercise_id: str, capsys: pytest.CaptureFixture[str]) -> None:
    ex = exercise(exercise_id)
    assert grade(exercise_id, ex.stub) is False
    out = capsys.readouterr().out
    assert "not attempted yet" in out and f"Hint 1: {ex.hints[0]}" in out


def test_a_function_stub_is_not_attempted(capsys: pytest.CaptureFixture[str]) -> None:
    assert is_stub(stub_check)
    assert grade("4.2", stub_check) is False and "not attempted yet" in capsys.readouterr().out


GARBAGE = [None, "nope", 42, ["a", "list"], {"nowhere": "match"}, explode, text, count, "{not json",
           {"step": "match"}, {"before:match": 3}, lambda output: None]


@pytest.mark.parametrize("exercise_id", IDS)
@pytest.mark.parametrize("answer", GARBAGE, ids=lambda a: getattr(a, "__name__", repr(a))[:20])
def test_garbage_never_raises_and_is_never_right(exercise_id: str, answer: object,
                                                 capsys: pytest.CaptureFixture[str]) -> None:
    assert grade(exercise_id, answer) is False
    assert capsys.readouterr().out.strip()


def test_wrong_answers_say_what_to_fix(capsys: pytest.CaptureFixture[str]) -> None:
    grade("4.1", {"step": "fetch_payments", "status": "done", "output": "3 payments"})
    assert "already done" in capsys.readouterr().out
    grade("4.1", {"step": "match", "status": "running"})
    assert "Not yet: the step is running" in capsys.readouterr().out
    def accepts_all(output: object) -> bool:
        return True

    grade("4.2", accepts_all)
    assert "accepted '', which does not say what matched" in capsys.readouterr().out


@pytest.mark.slow
def test_resume_prediction_with_real_workers(capsys: pytest.CaptureFixture[str]) -> None:
    assert grade("4.3", {"before:fetch_payments": ("fetch_payments", "pending"),
                         "writing:fetch_invoices": ("fetch_invoices", "pending"),
                         "running:match": ("fetch_invoices", "running")}) is False
    out = capsys.readouterr().out
    assert "right  killed before:fetch_payments    -> resumes at fetch_payments" in out
    assert ("wrong  killed writing:fetch_invoices   -> resumes at fetch_invoices (running), you said "
            "('fetch_invoices', 'pending'): the claim committed in an earlier transaction") in out
    assert "wrong  killed running:match            -> resumes at match (running), you said ('fetch_invoices'" in out
    assert "1 of 3 right" in out


def test_the_step_alone_is_not_the_answer_and_starts_no_process(capsys: pytest.CaptureFixture[str]) -> None:
    """Issue 49: every right answer was the step the crash point names; the question is now its status too."""
    assert grade("4.3", {"before:fetch_payments": "fetch_payments", "writing:fetch_invoices": "fetch_invoices",
                         "running:match": "match"}) is False
    out = capsys.readouterr().out
    assert "the step alone is in the crash point's name" in out and "resumes at" not in out


def test_a_partial_prediction_is_not_right_and_starts_no_process(capsys: pytest.CaptureFixture[str]) -> None:
    assert grade("4.3", {"before:fetch_payments": ("fetch_payments", "pending")}) is False
    out = capsys.readouterr().out
    assert "predict all 3 crash points" in out and "resumes at" not in out


def test_solutions_are_shown_only_on_request(capsys: pytest.CaptureFixture[str]) -> None:
    show_solution("4.2")
    out = capsys.readouterr().out
    assert "def says_matched(output" in out and t4.says_matched("all matched") is None


def raises_on_purpose(output):  # type: ignore[no-untyped-def]
    if not isinstance(output, str) or "matched" not in output.replace(",", " ").split():
        raise ValueError("no 'matched' in the output")


def forgets_the_type(output):  # type: ignore[no-untyped-def]
    return None if "matched" in output else "say what matched"


def test_a_check_that_raises_on_purpose_is_told_to_return_the_reason_once(capsys: pytest.CaptureFixture[str]) -> None:
    """Issue 49: an answer raising ValueError on purpose was told six times to check the type first."""
    assert grade("4.2", raises_on_purpose) is False
    out = capsys.readouterr().out
    assert out.count("raised") == 1 and "return the reason as a text" in out and "Check the type first" not in out


def test_a_check_that_breaks_on_other_types_is_told_to_check_the_type(capsys: pytest.CaptureFixture[str]) -> None:
    assert grade("4.2", forgets_the_type) is False
    out = capsys.readouterr().out
    assert "Check the type first" in out and out.count("Check the type first") == 1


def test_a_trailing_space_in_the_output_is_named(capsys: pytest.CaptureFixture[str]) -> None:
    """Issue 49: '3 matched, 1 unpaid ' got no hint about the space."""
    assert grade("4.1", '{"step": "match", "status": "done", "output": "3 matched, 1 unpaid "}') is False
    assert "white space at its start or end" in capsys.readouterr().out


def test_4_4_a_write_under_the_workers_name_alone_is_told_to_use_the_fence(capsys: pytest.CaptureFixture[str]) -> None:
    """The wrong answer the fence exists for: apply(worker=worker) lets a frozen process's late write through once a
    new process under the same name claimed the step; the message names the mistake and the fix."""
    from test_exercise_wrong_answers import writes_under_its_name

    assert t4.check_take_step(writes_under_its_name) is False
    out = capsys.readouterr().out
    assert "wrong  you froze for 40 s" in out and "apply(..., lease=lease)" in out and "4 of 5 right" in out
