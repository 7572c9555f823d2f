"""Exercise checkers: right answers are recognised, wrong ones get feedback, and nothing a learner passes raises."""

from __future__ import annotations

import pytest

from primer_memory import exercises as ex


def explode(*_args: object) -> object:
    raise RuntimeError("a learner's bug")


def last_sentences(messages):  # type: ignore[no-untyped-def]
    return "; ".join(m["content"].rstrip(".").split(". ")[-1] for m in messages)


def strict_guard(path: str) -> bool:
    from primer_memory.notes import parse_path

    try:
        parse_path(path)
    except ValueError:
        return False
    return True


RIGHT = [
    (ex.check_last_sentence_summarizer, (last_sentences,), "Right: the last sentence"),
    (ex.check_summarizer, (last_sentences,), "The budget held in all 18 cases"),
    (ex.check_policy_guesses, ({"thanks, great!": "skip", "my VPN password is hunter2": "refuse"},), "2 of 2 right"),
    (ex.check_path_guard, (strict_guard,), "All right."),
]

WRONG = [
    (ex.check_last_sentence_summarizer, (lambda ms: "nope",), "Not yet"),
    (ex.check_policy_guesses, ({"my VPN password is hunter2": "store"},), "0 of 1 right"),
    (ex.check_path_guard, (lambda p: True,), "got through"),
]

GARBAGE = [
    (ex.check_summarizer, (explode,)),
    (ex.check_summarizer, (lambda ms: 42,)),
    (ex.check_last_sentence_summarizer, (explode,)),
    (ex.check_policy_guesses, ("not a dict",)),
    (ex.check_policy_guesses, ({42: "store"},)),
    (ex.check_path_guard, (explode,)),
]


@pytest.mark.parametrize(("checker", "args", "expected"), RIGHT, ids=lambda v: getattr(v, "__name__", ""))
def test_right_answers_are_recognised(checker, args, expected, capsys) -> None:  # type: ignore[no-untyped-def]
    checker(*args)
    assert expected in capsys.readouterr().out


@pytest.mark.parametrize(("checker", "args", "expected"), WRONG, ids=lambda v: getattr(v, "__name__", ""))
def test_wrong_answers_get_feedback(checker, args, expected, capsys) -> None:  # type: ignore[no-untyped-def]
    checker(*args)
    assert expected in capsys.readouterr().out


@pytest.mark.parametrize(("checker", "args"), GARBAGE, ids=lambda v: getattr(v, "__name__", ""))
def test_garbage_never_raises(checker, args, capsys) -> None:  # type: ignore[no-untyped-def]
    checker(*args)
    assert capsys.readouterr().out.strip(), "a checker must always say something"
