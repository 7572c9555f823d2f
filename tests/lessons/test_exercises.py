"""Every exercise of every notebook, through the shared machinery: solutions pass, stubs are "not attempted",
and nothing a learner passes makes a checker raise."""

from __future__ import annotations

import pytest

from primer_memory.lessons.exercises import check, exercise, exercises, grade, hint, is_stub, show_solution

IDS = sorted(exercises())


def explode(*_args: object) -> object:
    raise RuntimeError("a learner's bug")


def text(*_args: object) -> object:  # a learner's function named like a builtin, returning junk
    return 42


def count(*_args: object) -> object:
    return None


GARBAGE: list[object] = [None, ..., "nope", 42, [], {}, {"nope": 1}, explode, text, count, object()]


def test_every_notebook_has_exercises() -> None:
    assert {i.split(".")[0] for i in IDS} >= {"1", "2", "3", "4", "5"}


@pytest.mark.parametrize("exercise_id", IDS)
def test_solution_passes_its_checker(exercise_id: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert grade(exercise_id, exercise(exercise_id).solution) is True, capsys.readouterr().out


@pytest.mark.parametrize("exercise_id", IDS)
def test_stub_is_not_attempted(exercise_id: str, capsys: pytest.CaptureFixture[str]) -> None:
    stub = exercise(exercise_id).stub
    assert is_stub(stub) or stub is None
    assert grade(exercise_id, stub) is False
    out = capsys.readouterr().out
    assert "not attempted yet" in out and "Hint 1:" in out


@pytest.mark.parametrize("exercise_id", IDS)
@pytest.mark.parametrize("garbage", GARBAGE, ids=lambda g: getattr(g, "__name__", repr(g))[:20])
def test_garbage_never_raises_and_is_never_right(exercise_id: str, garbage: object,
                                                  capsys: pytest.CaptureFixture[str]) -> None:
    assert grade(exercise_id, garbage) is False
    assert capsys.readouterr().out.strip()  # always says something


@pytest.mark.parametrize("exercise_id", IDS)
def test_hints_and_solution_print_on_request(exercise_id: str, capsys: pytest.CaptureFixture[str]) -> None:
    ex = exercise(exercise_id)
    assert 1 <= len(ex.hints) <= 3
    for n in range(1, len(ex.hints) + 1):
        hint(exercise_id, n)
    show_solution(exercise_id)
    out = capsys.readouterr().out
    assert all(h in out for h in ex.hints) and f"exercise {exercise_id}" in out


def test_check_shows_only_feedback(capsys: pytest.CaptureFixture[str]) -> None:
    assert check(IDS[0], None) is None  # nothing for a notebook cell to echo after the feedback
    assert "not attempted yet" in capsys.readouterr().out


@pytest.mark.parametrize("bad_id", ["9.9", None, 9.9, 7, ""])  # 1.1 as a number is exercise "1.1" now
def test_unknown_ids_are_named_not_raised(bad_id: object, capsys: pytest.CaptureFixture[str]) -> None:
    check(bad_id, "x")
    hint(bad_id)
    show_solution(bad_id)
    hint(IDS[0], 99)
    out = capsys.readouterr().out
    assert "no exercise" in out and "has hints 1 to" in out


def test_an_id_typed_as_a_number_is_read_as_the_text_it_shows(capsys: pytest.CaptureFixture[str]) -> None:
    """Issue 49: hint(3.1, 2) said 'no exercise 3.1; the exercises are ... 3.1 ...'."""
    hint(3.1, 1)
    show_solution(3.1)
    out = capsys.readouterr().out
    assert "no exercise" not in out and out.startswith("Hint 1:")
    hint(9.9)
    hint(7)
    out = capsys.readouterr().out
    assert out.count('(ids are text, in quotes: "3.1")') == 2
