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
    assert "you kept the first sentence of each message" in capsys.readouterr().out
    assert grade("1.1", lambda ms: "; ".join(m["content"][:3] for m in ms)) is False
    assert "Not yet. On these 9 messages we expected" in capsys.readouterr().out


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


def splits_on_every_period(messages):  # type: ignore[no-untyped-def]
    return "; ".join(m["content"].rstrip(".").split(".")[-1].strip() for m in messages)


def strips_both_ends(messages):  # type: ignore[no-untyped-def]
    return "; ".join(m["content"].strip(".").split(". ")[-1] for m in messages)


def first_of_each(messages):  # type: ignore[no-untyped-def]
    return "; ".join(m["content"].rstrip(".").split(". ")[0] for m in messages)


@pytest.mark.parametrize(("answer", "message"), [
    (splits_on_every_period, "'12.50 EUR' is cut at its decimal point"),
    (strips_both_ends, "'...thanks' lost its opening dots"),
    (first_of_each, "you kept the first sentence of each message"),
])
def test_each_last_sentence_mistake_is_named(answer: object, message: str,
                                             capsys: pytest.CaptureFixture[str]) -> None:
    """Issue 49: splitting on '.' and strip('.') were accepted; now each is rejected with what it breaks."""
    assert grade("1.1", answer) is False
    assert message in capsys.readouterr().out


def test_no_hint_is_the_solution() -> None:
    """Issue 49: 1.3's second hint was its solution, line for line. A hint may name a step, not hold every line of
    the solution's code (compared without quotes and spaces)."""
    from primer_memory.lessons.exercises import exercises
    from primer_memory.lessons.exercises._core import solution_text

    def bare(text: str) -> str:
        return "".join(c for c in text if c not in "\"' ")

    for ex in exercises().values():
        lines = [bare(line) for line in solution_text(ex).splitlines()
                 if line.strip() and not line.strip().startswith(("def ", '"""', "#", "return"))]
        for hint_text in ex.hints:
            assert not (len(lines) > 1 and all(line in bare(hint_text) for line in lines)), (ex.id, hint_text)
    old_hint = ("start = max(0, len(messages) - n), then: while start > 0 and messages[start]['role'] == 'tool': "
                "start -= 1.")
    code = [bare(line) for line in solution_text(exercises()["1.3"]).splitlines()[2:] if "return" not in line]
    assert all(line in bare(old_hint) for line in code if line), "the test would have caught the old hint"
