"""Notebook 1's exercises: solutions pass, stubs are "not attempted", wrong answers get feedback, garbage never raises."""

from __future__ import annotations

import pytest

from primer_memory.lessons.exercises import grade, exercise, hint, show_solution

IDS = ["1.1", "1.2", "1.3"]


def explode(*_args: object) -> object:
    raise RuntimeError("a learner's bug")


def text(messages):  # type: ignore[no-untyped-def]  (a function named like a variable a learner might pass)
    return None


def count(messages):  # type: ignore[no-untyped-def]
    return 42


@pytest.mark.parametrize("exercise_id", IDS)
def test_every_solution_passes_its_checker(exercise_id: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert grade(exercise_id, exercise(exercise_id).solution) is True
    assert "Right" in capsys.readouterr().out


@pytest.mark.parametrize("exercise_id", IDS)
def test_every_stub_reports_not_attempted(exercise_id: str, capsys: pytest.CaptureFixture[str]) -> None:
    ex = exercise(exercise_id)
    assert grade(exercise_id, ex.stub) is False
    out = capsys.readouterr().out
    assert "not attempted yet" in out and ex.hints[0] in out


def test_the_notebook_stub_cell_is_a_stub(capsys: pytest.CaptureFixture[str]) -> None:
    def last_sentences(messages):  # type: ignore[no-untyped-def]
        """The last sentence of each message, trailing period stripped, joined with "; "."""
        ...  # your code here

    assert grade("1.1", last_sentences) is False and "not attempted yet" in capsys.readouterr().out


@pytest.mark.parametrize("exercise_id", IDS)
@pytest.mark.parametrize("garbage", [None, "nope", 42, 3.5, True, [], {}, explode, text, count,
                                     lambda ms: "; ".join(ms), print])
def test_garbage_never_raises_and_says_something(exercise_id: str, garbage: object,
                                                 capsys: pytest.CaptureFixture[str]) -> None:
    assert grade(exercise_id, garbage) is False
    assert capsys.readouterr().out.strip()


def test_first_sentences_is_not_last_sentences(capsys: pytest.CaptureFixture[str]) -> None:
    from primer_memory import first_sentences

    assert grade("1.1", first_sentences) is False
    assert "Not yet. On these seven messages we expected" in capsys.readouterr().out


@pytest.mark.parametrize(("guess", "words"), [(0, "more than that"), (2, "fewer than that"), (4, "fewer")])
def test_wrong_predictions_point_the_right_way(guess: int, words: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert grade("1.2", guess) is False
    assert words in capsys.readouterr().out


@pytest.mark.parametrize("exercise_id", IDS)
def test_hints_and_solutions_print(exercise_id: str, capsys: pytest.CaptureFixture[str]) -> None:
    hint(exercise_id, 2)
    show_solution(exercise_id)
    out = capsys.readouterr().out
    assert "Hint 2" in out and f"One solution to exercise {exercise_id}" in out


def test_a_trim_that_opens_on_a_tool_result_is_caught(capsys: pytest.CaptureFixture[str]) -> None:
    assert grade("1.3", lambda messages, n: max(0, len(messages) - n)) is False
    assert "for n=1" not in capsys.readouterr().out  # n=1 opens on the answer, which is fine; n=2 is the first miss
