"""Exercises for the notebooks: `check(id, answer)`, `hint(id, n)`, `show_solution(id)`.

Checkers print feedback and never raise, so a notebook with unfinished
exercises still runs top to bottom.
"""

from __future__ import annotations

from ._core import Exercise, ExerciseError, check, exercise, exercises, hint, is_stub, register, show_solution
from ._legacy import *  # noqa: F401,F403  (the per-notebook checkers, until each moves to its own module)
from ._legacy import __all__ as _legacy_all

__all__ = ["Exercise", "ExerciseError", "check", "exercise", "exercises", "hint", "is_stub", "register",
           "show_solution", *_legacy_all]
