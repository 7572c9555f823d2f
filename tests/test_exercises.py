"""Exercise checkers: right answers are recognised, wrong ones get feedback, and nothing a learner passes raises."""

from __future__ import annotations

import re

import pytest

from primer_memory import exercises as ex


def explode(*_args: object) -> object:
    raise RuntimeError("a learner's bug")


def says_matched(output: object) -> str | None:
    if isinstance(output, str) and re.search(r"\bmatched\b", output):
        return None
    return "expected a text with the word 'matched'"


def strict_guard(path: str) -> bool:
    from primer_memory.notes import parse_path

    try:
        parse_path(path)
    except ValueError:
        return False
    return True


RIGHT = [
    (ex.check_policy_guesses, ({"thanks, great!": "skip", "my VPN password is hunter2": "refuse"},), "2 of 2 right"),
    (ex.check_path_guard, (strict_guard,), "All right."),
    (ex.check_recall_choice, ("what should I do when a vendor sends invoices late?", ("procedural",), 1), "Yes"),
    (ex.check_match_check, (says_matched,), "Right on all"),
    (ex.check_next_proposal, ('{"step": "match", "status": "done", "output": "3 matched, 1 unpaid"}',), "Written"),
]

WRONG = [
    (ex.check_policy_guesses, ({"my VPN password is hunter2": "store"},), "0 of 1 right"),
    (ex.check_path_guard, (lambda p: True,), "got through"),
    (ex.check_recall_choice, ("what should I do when a vendor sends invoices late?", ("episodic", "semantic", "procedural"), 3), "Can a smaller k, or fewer kinds"),
    (ex.check_match_check, (lambda output: None,), "Not yet"),
]

GARBAGE = [
    (ex.check_policy_guesses, ("not a dict",)),
    (ex.check_policy_guesses, ({42: "store"},)),
    (ex.check_path_guard, (explode,)),
    (ex.check_recall_choice, ("", "procedural", -1)),
    (ex.check_recall_choice, ("x", None, "three")),
    (ex.check_paraphrase, (None,)),
    (ex.check_paraphrase, ("",)),
    (ex.check_match_check, (explode,)),
    (ex.check_match_check, ("not callable",)),
    (ex.check_next_proposal, ("{not json",)),
    (ex.check_next_proposal, (["a", "list"],)),
    (ex.check_resume_prediction, ({"nowhere": "match"},)),
    (ex.check_resume_prediction, ("not a dict",)),
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


def test_resume_prediction_with_real_workers(capsys) -> None:  # type: ignore[no-untyped-def]
    ex.check_resume_prediction({"before:fetch_payments": "fetch_payments", "running:match": "fetch_invoices"})
    out = capsys.readouterr().out
    assert "right  killed before:fetch_payments    -> resumes at fetch_payments" in out
    assert "wrong  killed running:match            -> resumes at match (running), you said 'fetch_invoices'" in out
    assert "1 of 2 right" in out
