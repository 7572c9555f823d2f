"""The exercise machinery shared by every notebook: check, hint, solution.

A notebook cell holds a stub (`...`, `None`, or a function whose body is
`...`); `check("1.1", answer)` prints "not attempted yet" and the first hint
for a stub, feedback for an attempt, and never raises, whatever it is given.
`hint("1.1", 2)` gives the next nudge; `show_solution("1.1")` prints the
solution, only when the learner asks for it.
"""

from __future__ import annotations

import ast
import inspect
import os
import pprint
import textwrap
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

__all__ = ["CHECKER_FAILED", "Exercise", "ExerciseError", "check", "exercise", "exercises", "grade", "hint", "is_stub",
           "raised_in_checker", "register", "show_solution"]


class ExerciseError(KeyError):
    """No exercise with that id; the message lists the ids that exist."""

    def __str__(self) -> str:
        return str(self.args[0]) if self.args else "unknown exercise"


@dataclass(frozen=True)
class Exercise:
    """One exercise: what to do, how to check it, nudges, and a solution shown only on request.

    `checker(answer)` prints its feedback and returns True when the answer is
    right, False otherwise; it may raise NotImplementedError for an unfinished
    answer (reported as "not attempted yet"). `solution` is the answer itself:
    a function (its source is shown) or a value (pretty-printed).
    """

    id: str
    title: str
    checker: Callable[[Any], bool | None]
    hints: tuple[str, ...]
    solution: Any
    stub: Any = None  # what the notebook's cell holds before the learner starts
    notes: tuple[str, ...] = field(default_factory=tuple)


_REGISTRY: dict[str, Exercise] = {}


def register(ex: Exercise) -> Exercise:
    """Add an exercise to the registry (ids are unique, such as "2.1")."""
    if not ex.hints:
        raise ValueError(f"exercise {ex.id} needs at least one hint")
    _REGISTRY[ex.id] = ex
    return ex


def exercises() -> dict[str, Exercise]:
    """Every registered exercise by id (the notebooks' modules are imported first)."""
    return dict(sorted(_REGISTRY.items()))


def exercise(exercise_id: object) -> Exercise:
    """The exercise with this id, or ExerciseError naming the ids that exist. An id typed as a number (3.1) is read
    as the text it shows ("3.1"): the message that it does not exist would otherwise list the very id asked for."""
    if isinstance(exercise_id, float) and str(exercise_id) in _REGISTRY:
        exercise_id = str(exercise_id)
    if not isinstance(exercise_id, str) or exercise_id not in _REGISTRY:
        known = ", ".join(sorted(_REGISTRY)) or "none"
        typed = " (ids are text, in quotes: \"3.1\")" if not isinstance(exercise_id, str) else ""
        raise ExerciseError(f"no exercise {exercise_id!r}{typed}; the exercises are {known}")
    return _REGISTRY[exercise_id]


# Not "return None": for a check (4.2) that is a real answer, one that accepts everything.
_STUB_BODIES = {"...", "pass", "raise NotImplementedError", "raise NotImplementedError()", "return ..."}


def is_stub(answer: object) -> bool:
    """True for an answer not written yet: `...`, None, a template whose every blank is `...`, or a function whose body
    is only `...`, pass or a raise."""
    if answer is None or answer is Ellipsis:
        return True
    if isinstance(answer, dict) and answer:  # a template to fill in: {"question": ..., ...}
        return all(v is Ellipsis for v in answer.values())
    if isinstance(answer, (list, tuple)) and answer:
        return all(v is Ellipsis for v in answer)
    if not callable(answer) or not inspect.isfunction(answer):
        return False
    try:
        source = textwrap.dedent(inspect.getsource(answer))
        tree = ast.parse(source)
    except (OSError, TypeError, SyntaxError, IndentationError):
        return False
    node = tree.body[0] if tree.body else None
    if isinstance(node, ast.Expr) and isinstance(node.value, ast.Lambda):
        return ast.unparse(node.value.body) in {"...", "None"}
    if not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
        return False
    body = [s for s in node.body if not (isinstance(s, ast.Expr) and isinstance(s.value, ast.Constant)
                                        and isinstance(s.value.value, str))]
    if not body:
        return True
    return len(body) == 1 and ast.unparse(body[0]) in _STUB_BODIES


def check(exercise_id: object, answer: object = None) -> None:
    """Check an answer and print feedback; never raises (returns nothing, so a notebook cell shows only the feedback)."""
    grade(exercise_id, answer)


def grade(exercise_id: object, answer: object = None) -> bool:
    """`check`, returning True only for a right answer (for code that needs the verdict, such as tests)."""
    try:
        ex = exercise(exercise_id)
    except ExerciseError as error:
        print(f"Cannot check: {error}.")
        return False
    try:
        stub = is_stub(answer)
    except Exception:  # an answer whose own methods raise is not a stub; the checker reports what it does
        stub = False
    if stub:
        print(f"Exercise {ex.id} ({ex.title}): not attempted yet.")
        print(f"Hint 1: {ex.hints[0]}")
        return False
    try:
        verdict = ex.checker(answer)
    except NotImplementedError:
        print(f"Exercise {ex.id} ({ex.title}): not attempted yet (your code raises NotImplementedError).")
        print(f"Hint 1: {ex.hints[0]}")
        return False
    except Exception as error:  # a learner's answer may break in any way: report it, never raise
        if raised_in_checker(error):
            print(f"{CHECKER_FAILED} {ex.id} failed on this answer ({type(error).__name__}: {error}); that is a "
                  "bug in the exercise, not in your answer. Please report it.")
        else:
            print(f"Not yet: your code raised {type(error).__name__}: {error}")
        print(f"Hint 1: {ex.hints[0]}")
        return False
    if verdict is not True and len(ex.hints) > 1:
        print(f"Stuck? hint({ex.id!r}, 2) gives another nudge; show_solution({ex.id!r}) shows one answer.")
    return verdict is True


CHECKER_FAILED = "Sorry: the checker of exercise"
"""How a checker's own failure starts (tests look for it: no answer may ever cause it)."""


def raised_in_checker(error: BaseException) -> bool:
    """True when the innermost frame of `error` is in this package: the checker broke, not the learner's code."""
    tb = error.__traceback__
    if tb is None:
        return False
    while tb.tb_next is not None:
        tb = tb.tb_next
    here = os.path.dirname(os.path.abspath(__file__))
    return os.path.dirname(os.path.abspath(tb.tb_frame.f_code.co_filename)) == here


def hint(exercise_id: object, n: int = 1) -> None:
    """Print hint number n (1-based) of an exercise."""
    try:
        ex = exercise(exercise_id)
    except ExerciseError as error:
        print(f"No hint: {error}.")
        return
    if isinstance(n, bool) or not isinstance(n, int) or not 1 <= n <= len(ex.hints):
        print(f"Exercise {ex.id} has hints 1 to {len(ex.hints)}.")
        return
    print(f"Hint {n}: {ex.hints[n - 1]}")


def solution_text(ex: Exercise) -> str:
    """The solution as the learner sees it: a function's source, or a value pretty-printed."""
    if inspect.isfunction(ex.solution):
        return textwrap.dedent(inspect.getsource(ex.solution)).rstrip()
    return pprint.pformat(ex.solution, width=100, sort_dicts=False)


def show_solution(exercise_id: object) -> None:
    """Print one solution of an exercise, with what is worth noticing about it."""
    try:
        ex = exercise(exercise_id)
    except ExerciseError as error:
        print(f"No solution: {error}.")
        return
    print(f"One solution to exercise {ex.id} ({ex.title}):\n")
    print(solution_text(ex))
    for note in ex.notes:
        print(f"\n{note}")
