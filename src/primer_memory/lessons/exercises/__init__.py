"""Exercises for the notebooks: `check(id, answer)`, `hint(id, n)`, `show_solution(id)`.

Checkers print feedback and never raise, so a notebook with unfinished
exercises still runs top to bottom. Each notebook's exercises live in a module
of their own (short_term, long_term, safety, tasks, beyond, plug_in) and register themselves.
"""

from __future__ import annotations

from ._core import (CHECKER_FAILED, Exercise, ExerciseError, check, exercise, exercises, grade, hint, is_stub,
                    register, show_solution)

# Each notebook's exercises register themselves with _core when imported.
from . import beyond, long_term, plug_in, safety, short_term, tasks  # noqa: E402,F401  (notebooks 5, 2, 6, 3, 1, 4)

__all__ = ["CHECKER_FAILED", "Exercise", "ExerciseError", "check", "exercise", "exercises", "grade", "hint", "is_stub", "register",
           "show_solution"]
