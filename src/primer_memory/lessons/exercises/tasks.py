"""Notebook 4's exercises: finish the job with a proposal, write a check for `match`, predict where a crash resumes.

Each checker runs the learner's answer against a real task file (and, for 4.3, real
worker processes killed with SIGKILL), prints what happened and returns True only
for a right answer. Nothing a learner passes makes a checker raise.
"""

from __future__ import annotations

import re
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

from ._core import Exercise, register

__all__ = ["MATCH_GOOD", "MATCH_BAD", "RESUME_POINTS", "says_matched", "RESUME_SOLUTION", "FINISH_SOLUTION"]

FINISH_SOLUTION = '{"step": "match", "status": "done", "output": "3 matched, 1 unpaid"}'
MATCH_GOOD: tuple[str, ...] = ("all matched", "3 matched, 1 unpaid (Globex)", "0 matched")
MATCH_BAD: tuple[object, ...] = ("", None, 42, "done", "finished matching", ["all matched"])
RESUME_POINTS: tuple[str, ...] = ("before:fetch_payments", "writing:fetch_invoices", "running:match")
RESUME_HINTS = ("The next process starts at the first step that is not done; a kill inside a transaction "
                "undoes that transaction's writes.",
                "writing:STEP dies before COMMIT, so STEP is not done; running:STEP dies after its claim committed.")
RESUME_SOLUTION: dict[str, str] = {
    "before:fetch_payments": "fetch_payments",
    "writing:fetch_invoices": "fetch_invoices",
    "running:match": "match",
}


def _worked_example_file(folder: str) -> Any:
    """A task file in the state the lesson leaves it: fetch_invoices and fetch_payments done, match next."""
    from ..examples import RECONCILE_GOAL, RECONCILE_PROPOSALS, RECONCILE_STEPS, RECONCILE_TASK_ID
    from ...tasks.store import TaskStateStore

    store = TaskStateStore(Path(folder) / "tasks.db")
    store.create_task(RECONCILE_TASK_ID, RECONCILE_GOAL, RECONCILE_STEPS)
    for proposal, accepted in RECONCILE_PROPOSALS:
        if accepted:
            store.apply(RECONCILE_TASK_ID, proposal)
    return store


# --------------------------------------------------------------------------- 4.1 finish the job


def check_finish(proposal: object) -> bool:
    """Send the learner's proposal (dict or JSON text) to the worked example's file; right when match is done."""
    from ..examples import RECONCILE_TASK_ID
    from ...tasks.store import InvalidUpdate

    if not isinstance(proposal, (str, dict)):
        print(f"Not yet: a proposal is JSON text or a dict, got {type(proposal).__name__}.")
        return False
    with tempfile.TemporaryDirectory() as folder:
        store = _worked_example_file(folder)
        try:
            step = store.apply(RECONCILE_TASK_ID, proposal)  # type: ignore[arg-type]
        except InvalidUpdate as refusal:
            print(f"Refused, exactly as a model's proposal would be: {refusal}")
            print("The reason says what was wrong and what is allowed: fix the proposal and run the cell again.")
            return False
        finally:
            store.close()
    print(f"Written: step {step.name} is now {step.status}, output {step.output!r}.")
    if step.status == "done":
        print("Right. That was the last step: next_step() now returns None and the task is finished.")
        return True
    if step.status == "running":
        print("Not yet: the step is running. A proposal with status done (and an output) would finish it.")
    else:
        print("Not yet: the step failed; report it done instead.")
    return False


# --------------------------------------------------------------------------- 4.2 a check for match


def says_matched(output: object) -> str | None:
    """Fine (None) for a text with the word 'matched'; otherwise a text saying what is wrong."""
    if isinstance(output, str) and re.search(r"\bmatched\b", output):
        return None
    return "expected a text with the word 'matched', like '3 matched, 1 unpaid'"


def _verdict(check: Callable[[object], object], output: object) -> tuple[bool, str]:
    """(accepted?, what the check said) under the store's contract: None/True fine, False or a text not."""
    try:
        verdict = check(output)
    except Exception as error:
        return False, f"raised {type(error).__name__}: {error}"
    return verdict is None or verdict is True, repr(verdict)[:80]


def check_match_check(check: object) -> bool:
    """A learner's output check for match: it must accept texts with the word 'matched' and refuse the rest."""
    name = getattr(check, "__name__", "")
    if not callable(check) or not isinstance(name, str) or not name.isidentifier():
        print("Not yet: give a named function (def my_check(output): ...); the store keeps its name.")
        return False
    wrong = [f"refused {o!r}, which says how the matching went (your check said {said})"
             for o in MATCH_GOOD for ok, said in [_verdict(check, o)] if not ok]
    wrong += [f"accepted {b!r}, which does not say what matched" for b in MATCH_BAD if _verdict(check, b)[0]]
    if wrong:
        print("Not yet:")
        for line in wrong:
            print("  -", line)
        return False
    print(f"Right on all {len(MATCH_GOOD) + len(MATCH_BAD)} outputs. Now the store enforces it:")
    from ...tasks.store import InvalidUpdate, TaskStateStore

    with tempfile.TemporaryDirectory() as folder, TaskStateStore(Path(folder) / "t.db") as store:
        store.create_task("match-only", "match invoices to payments", [("match", check)])  # type: ignore[list-item]
        for output in ("finished matching", "3 matched, 1 unpaid (Globex)"):
            try:
                store.apply("match-only", {"step": "match", "status": "done", "output": output})
                print(f"  written: match done {output!r}")
            except InvalidUpdate as refusal:
                print(f"  refused: {refusal}")
    return True


# --------------------------------------------------------------------------- 4.3 where does it resume?


def check_resume_prediction(predictions: object) -> bool:
    """Kill a real worker at each point the learner chose and compare the step it resumes at with the guess."""
    from ..examples import RECONCILE_TASK_ID
    from ...tasks.store import TaskStateStore
    from ..reconcile_worker import WorkerError, crash_points, start_worker

    if not isinstance(predictions, dict) or not predictions:
        print("Not yet: give a dict {crash point: step name}, e.g. {'before:match': 'match'}.")
        return False
    if all(v is Ellipsis or v is None for v in predictions.values()):  # the cell's stub: nothing predicted yet
        print("Exercise 4.3 (where does it resume?): not attempted yet.")
        print(f"Hint 1: {RESUME_HINTS[0]}")
        return False
    unknown = [p for p in predictions if p not in crash_points()]
    if unknown:
        print(f"Not yet: {unknown} are not crash points; choose from {crash_points()}.")
        return False
    right = 0
    for point, guess in predictions.items():
        with tempfile.TemporaryDirectory() as folder:
            path = Path(folder) / "tasks.db"
            try:
                with start_worker(path, pause_at=point) as worker:
                    worker.wait_for("PAUSED")
                    worker.kill()
            except WorkerError as error:
                print(f"  {point}: the worker did not reach it ({error}); please report this")
                continue
            with TaskStateStore(path) as store:
                if RECONCILE_TASK_ID in store.tasks():
                    current = store.current_step(RECONCILE_TASK_ID)
                    actual = current.name if current else "(none)"
                    state = current.status if current else "finished"
                else:
                    actual, state = "fetch_invoices", "no task in the file: it is created again"
        if guess == actual:
            right += 1
            print(f"  right  killed {point:<24} -> resumes at {actual} ({state})")
        else:
            print(f"  wrong  killed {point:<24} -> resumes at {actual} ({state}), you said {guess!r}")
    print(f"{right} of {len(predictions)} right (each answer came from a real process killed with SIGKILL).")
    return right == len(predictions)


register(Exercise(
    id="4.1", title="finish the job", checker=check_finish,
    hints=("A proposal is one JSON object with the fields step, status and output; the current step is match.",
           "The status that finishes a step is done, and match's check wants a short non-empty text."),
    solution=FINISH_SOLUTION, stub=None,
    notes=("A pending step may go straight to done: an implicit run, started and finished in one update.",),
))
register(Exercise(
    id="4.2", title="a check for match", checker=check_match_check,
    hints=("Return None when the output is fine and a text saying what is wrong otherwise; "
           "check the type first, since the output may be None or a number.",
           "re.search(r'\\bmatched\\b', output) finds the whole word, so 'finished matching' does not count."),
    solution=says_matched, stub=None,
    notes=("The store keeps the check's name, so a new process must be given the same function again.",),
))
register(Exercise(
    id="4.3", title="where does it resume?", checker=check_resume_prediction,
    hints=RESUME_HINTS,
    solution=RESUME_SOLUTION, stub=dict.fromkeys(RESUME_POINTS, ...),
))
