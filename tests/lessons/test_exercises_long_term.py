"""Notebook 2's exercises: solutions pass, stubs say "not attempted yet", wrong answers get feedback, garbage never raises."""

from __future__ import annotations

import pytest

from primer_memory.lessons.exercises import grade, exercise, hint, show_solution
from primer_memory.lessons.exercises.long_term import LATE_QUESTION

IDS = ["2.1", "2.2", "2.3"]


def explode(*_args: object) -> object:
    raise RuntimeError("a learner's bug")


def text(*_args: object) -> str:
    return "junk"


@pytest.mark.parametrize("exercise_id", IDS)
def test_the_solution_passes_its_checker(exercise_id: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert grade(exercise_id, exercise(exercise_id).solution) is True
    assert "Right" in capsys.readouterr().out


@pytest.mark.parametrize("exercise_id", IDS)
@pytest.mark.parametrize("stub", [None, ...])
def test_a_stub_is_not_attempted_yet(exercise_id: str, stub: object, capsys: pytest.CaptureFixture[str]) -> None:
    assert grade(exercise_id, stub) is False
    out = capsys.readouterr().out
    assert "not attempted yet" in out and "Hint 1:" in out


@pytest.mark.parametrize("exercise_id", IDS)
@pytest.mark.parametrize("garbage", ["nope", 42, True, explode, text, [], ("a", "b", "c"), {"k": 1}, float("nan"),
                                     "   ", -0.5, 1.5])
def test_garbage_never_raises_and_always_says_something(exercise_id: str, garbage: object,
                                                         capsys: pytest.CaptureFixture[str]) -> None:
    assert grade(exercise_id, garbage) is False
    assert capsys.readouterr().out.strip()


@pytest.mark.parametrize(
    ("exercise_id", "answer", "feedback"),
    [
        ("2.1", (("episodic", "semantic", "procedural"), 3), "Can a smaller k, or fewer kinds"),
        ("2.1", (("semantic",), 3), "the reconcile habit is not among them"),
        ("2.1", ("procedural", 1), "recall refused"),
        ("2.1", (("procedural",), 0), "recall refused"),
        ("2.2", "how do I reconcile?", "avoid 'reconcile' and 'invoice'"),
        ("2.2", "how do I check that every bill got paid?", "the semantic one found it"),
        ("2.2", "?!", "did not put the habit first"),
        ("2.3", 0.05, "raise the floor"),
        ("2.3", 0.9, "lower the floor"),
    ],
)
def test_wrong_answers_get_feedback(exercise_id: str, answer: object, feedback: str,
                                    capsys: pytest.CaptureFixture[str]) -> None:
    assert grade(exercise_id, answer) is False
    assert feedback in capsys.readouterr().out


def test_every_floor_between_noise_and_signal_is_right(capsys: pytest.CaptureFixture[str]) -> None:
    for floor in (0.15, 0.3, 0.5):
        assert grade("2.3", floor) is True
    assert "Mount Everest" in capsys.readouterr().out


def test_hints_and_solutions_are_there_on_request(capsys: pytest.CaptureFixture[str]) -> None:
    for exercise_id in IDS:
        hint(exercise_id, 2)
        show_solution(exercise_id)
    out = capsys.readouterr().out
    assert out.count("Hint 2:") == 3 and out.count("One solution to exercise 2.") == 3
    assert LATE_QUESTION.startswith("what should I do")
