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

__all__ = ["LEASE_OUTPUT", "take_step", "MATCH_GOOD", "MATCH_BAD", "RESUME_POINTS", "says_matched", "RESUME_SOLUTION", "FINISH_SOLUTION"]

FINISH_OUTPUT = "3 matched, 1 unpaid"
FINISH_SOLUTION = '{"step": "match", "status": "done", "output": "3 matched, 1 unpaid"}'
MATCH_GOOD: tuple[str, ...] = ("all matched", "3 matched, 1 unpaid (Globex)", "0 matched")
MATCH_BAD: tuple[object, ...] = ("", None, 42, "done", "finished matching", ["all matched"])
RESUME_POINTS: tuple[str, ...] = ("before:fetch_payments", "writing:fetch_invoices", "running:match")
RESUME_HINTS = ("The next process starts at the first step that is not done; a kill inside a transaction "
                "undoes that transaction's writes, and only those.",
                "The step is in the point's name; the question is its status. before:STEP: nothing has claimed "
                "STEP yet. running:STEP: its claim committed. writing:STEP: the claim committed earlier, and only "
                "the write that marks it done rolls back.")
RESUME_SOLUTION: dict[str, tuple[str, str]] = {
    "before:fetch_payments": ("fetch_payments", "pending"),
    "writing:fetch_invoices": ("fetch_invoices", "running"),
    "running:match": ("match", "running"),
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
        except Exception as error:  # whatever else a strange proposal makes the store say
            print(f"Refused: {type(error).__name__}: {error}")
            return False
        finally:
            store.close()
    print(f"Written: step {step.name} is now {step.status}, output {step.output!r}.")
    if step.status == "done" and step.output == FINISH_OUTPUT:
        print("Right. That was the last step: next_step() now returns None and the task is finished.")
        return True
    if step.status == "done" and isinstance(step.output, str) and step.output.strip() == FINISH_OUTPUT:
        print(f"Not yet: your output {step.output!r} has white space at its start or end. The store keeps text "
              f"exactly as sent, so a reader comparing it with {FINISH_OUTPUT!r} finds a different text: drop it.")
    elif step.status == "done":
        print(f"Not yet: the store took it (any short text passes match's check), but the exercise asks you to "
              f"report the output {FINISH_OUTPUT!r}: the output is what the next reader of the file relies on.")
    elif step.status == "running":
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


def _verdict(check: Callable[[object], object], output: object) -> tuple[bool | None, str]:
    """(accepted?, what the check said) under the store's contract: None/True fine, False or a text not;
    None for "accepted?" when the check raised instead of answering."""
    try:
        verdict = check(output)
    except NotImplementedError:
        raise  # a stub: check() says "not attempted yet"
    except Exception as error:
        return None, f"raised {type(error).__name__}: {error}"
    return verdict is None or verdict is True, repr(verdict)[:80]


def _raised_advice(raised: list[tuple[object, str]]) -> str:
    """One line for every output the check raised on, with advice for why it raised: a type it did not expect
    (check the type first) or an error raised on purpose (return the text instead)."""
    outputs = ", ".join(repr(o) for o, _ in raised)
    kinds = {said.split(":")[0].removeprefix("raised ") for _, said in raised}
    if kinds <= {"TypeError", "AttributeError"} and all(not isinstance(o, str) for o, _ in raised):
        return (f"your check raised on {outputs} ({'; '.join(sorted(kinds))}) instead of saying what is wrong: "
                "those are not text. Check the type first (isinstance(output, str)).")
    return (f"your check raised ({', '.join(sorted(kinds))}) on {len(raised)} outputs ({outputs}) instead of "
            "answering. The store takes a check's answer, not its exception: return the reason as a text (or "
            "False), and the store passes that text back to the model.")


def check_match_check(check: object) -> bool:
    """A learner's output check for match: it must accept texts with the word 'matched' and refuse the rest."""
    name = getattr(check, "__name__", "")
    if not callable(check) or not isinstance(name, str) or not name.isidentifier():
        print("Not yet: give a named function (def my_check(output): ...); the store keeps its name.")
        return False
    wrong = [f"refused {o!r}, which says how the matching went (your check returned {said})"
             if ok is False else f"your check {said} on {o!r}, which says how the matching went"
             for o in MATCH_GOOD for ok, said in [_verdict(check, o)] if ok is not True]
    raised: list[tuple[object, str]] = []
    for bad in MATCH_BAD:
        ok, said = _verdict(check, bad)
        if ok is True:
            wrong.append(f"accepted {bad!r}, which does not say what matched")
        elif ok is None:
            raised.append((bad, said))
    if raised:
        wrong.append(_raised_advice(raised))
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
        print("Not yet: give a dict {crash point: (step, status)}, e.g. {'before:match': ('match', 'pending')}.")
        return False
    if all(v is Ellipsis or v is None for v in predictions.values()):  # the cell's stub: nothing predicted yet
        print("Exercise 4.3 (where does it resume?): not attempted yet.")
        print(f"Hint 1: {RESUME_HINTS[0]}")
        return False
    unknown = [p for p in predictions if p not in crash_points()]
    if unknown:
        print(f"Not yet: {unknown} are not crash points; choose from {crash_points()}.")
        return False
    missing = [p for p in RESUME_POINTS if predictions.get(p, ...) is Ellipsis or predictions.get(p) is None]
    if missing:
        print(f"Not yet: predict all {len(RESUME_POINTS)} crash points; still open: {missing}. (Each one is a real "
              "process killed there, so the checker runs them once you have a guess for every one.)")
        return False
    shapes = [p for p in RESUME_POINTS if not (isinstance(predictions[p], (tuple, list)) and len(predictions[p]) == 2)]
    if shapes:
        print(f"Not yet: for {shapes[0]} you gave {predictions[shapes[0]]!r}. Give the step and the status it is in "
              "when the next process opens the file, as a pair such as ('match', 'running'): the step alone is in "
              "the crash point's name, and what the file says about it is the question.")
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
        if tuple(guess) == (actual, state):
            right += 1
            print(f"  right  killed {point:<24} -> resumes at {actual} ({state})")
        else:
            print(f"  wrong  killed {point:<24} -> resumes at {actual} ({state}), you said {tuple(guess)!r}"
                  + _status_advice(point, tuple(guess), state))
    print(f"{right} of {len(predictions)} right (each answer came from a real process killed with SIGKILL).")
    return right == len(predictions)


def _status_advice(point: str, guess: tuple[object, ...], state: str) -> str:
    """Why the status is what it is, for a guess that names the right step with the wrong status."""
    if guess[0] != point.split(":", 1)[1] or guess[1] == state:
        return ""
    return {"before": ": nothing had claimed the step yet, so it is still pending",
            "running": ": its claim committed before the kill, so it stays running until its lease lapses",
            "writing": ": the claim committed in an earlier transaction; the kill rolls back only the write that "
                       "would mark it done, so it is running, not pending"}.get(point.split(":", 1)[0], "")


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


# --------------------------------------------------------------------------- 4.4 take a step with a lease

LEASE_OUTPUT = "3 matched, 1 unpaid"
LEASE_HINTS = ("claim(task_id, worker) first: it returns a Lease naming the step, and raises LeaseHeld while another "
               "worker's lease is live. Then apply the proposal under that lease: apply(..., lease=lease), the "
               "fence, so a write that comes after the lease ran out and the step was claimed again is refused.",
               "try: lease = store.claim(task_id, worker)  except LeaseHeld: return None; then return "
               "store.apply(task_id, {'step': lease.step, 'status': 'done', 'output': output}, lease=lease).")


def take_step(store, task_id, worker, output):  # type: ignore[no-untyped-def]
    """Claim the current step for `worker` and report it done; None while another worker's live lease holds it."""
    from primer_memory import LeaseHeld

    try:
        lease = store.claim(task_id, worker)
    except LeaseHeld:
        return None  # someone else is working on it: leave it alone
    return store.apply(task_id, {"step": lease.step, "status": "done", "output": output}, lease=lease)


def _stub_take_step(store, task_id, worker, output):  # type: ignore[no-untyped-def]
    """Claim the current step for `worker` and report it done; None while another worker's live lease holds it."""
    ...


class _Clock:
    """A clock the checker moves by hand, so a lease runs out without anyone waiting."""

    def __init__(self) -> None:
        self.now = 1_000.0

    def __call__(self) -> float:
        return self.now


def _lease_case(folder: str, name: str, clock: _Clock) -> Any:
    """The worked example's file at match, as one of 4.4's situations: 'free', 'held' (worker A's lease is live),
    'expired' (worker A claimed 40 s ago with a 30 s lease and went silent) or 'mine' (the learner holds it)."""
    from ..examples import RECONCILE_TASK_ID
    from ...tasks.store import TaskStateStore

    _worked_example_file(folder).close()
    store = TaskStateStore(Path(folder) / "tasks.db", clock=clock)
    holder = {"held": "worker A", "expired": "worker A", "mine": "worker B"}.get(name)
    if holder is not None:
        store.claim(RECONCILE_TASK_ID, holder, 30.0)
        clock.now += 40.0 if name == "expired" else 10.0
    return store


_LEASE_CASES = {
    "free": "nobody holds match",
    "held": "worker A holds match, its lease live for 20 more seconds",
    "expired": "worker A claimed match 40 s ago with a 30 s lease and never renewed it",
    "mine": "worker B (you) already holds match",
    "frozen": "you froze for 40 s between claim and apply; a new process of worker B claimed match again meanwhile",
}


class _FreezesAfterClaim:
    """The store as a worker sees it that freezes between its claim and its write: the lease runs out, and a new
    process under the same name (a restarted container) claims the step again, attempt 2, before the write."""

    def __init__(self, store: Any, clock: _Clock) -> None:
        self._store, self._clock = store, clock

    def claim(self, task_id: str, worker: str, *args: Any, **kwargs: Any) -> Any:
        lease = self._store.claim(task_id, worker, *args, **kwargs)
        self._clock.now = lease.expires + 10.0  # frozen past the lease's end
        self._store.claim(task_id, worker, 30.0)  # the new process, same name, a new attempt
        return lease

    def __getattr__(self, name: str) -> Any:
        return getattr(self._store, name)


def _run_lease_case(take: Callable[..., object], name: str) -> tuple[bool, str]:
    """Run the learner's function as worker B in one situation: (right?, what happened)."""
    from ..examples import RECONCILE_TASK_ID
    from ...tasks.store import LeaseHeld, LeaseLost, Step

    with tempfile.TemporaryDirectory() as folder:
        clock = _Clock()
        store = _lease_case(folder, "free" if name == "frozen" else name, clock)
        try:
            before = len(store.events(RECONCILE_TASK_ID))
            try:
                result = take(_FreezesAfterClaim(store, clock) if name == "frozen" else store, RECONCILE_TASK_ID,
                              "worker B", LEASE_OUTPUT)
            except NotImplementedError:
                raise  # a stub: check() says "not attempted yet"
            except Exception as error:
                if name == "frozen" and isinstance(error, LeaseLost):
                    return True, "the store refused your late write (the fence: your lease was attempt 1, not 2)"
                hint = (" Another worker's live lease is not an error to pass on: catch LeaseHeld and return None."
                        if name == "held" and isinstance(error, LeaseHeld) else "")
                return False, f"your function raised {type(error).__name__}: {error}.{hint}"
            step = store.current_step(RECONCILE_TASK_ID)
            events = store.events(RECONCILE_TASK_ID)[before:]
            finished = store.step_details(RECONCILE_TASK_ID)[-1]
        finally:
            store.close()
    if name == "frozen":
        if result is None and not any(e.accepted and e.status == "done" for e in events):
            return True, "returned None and wrote nothing"
        return False, ("your write went through after your lease ran out and a new process of worker B claimed the "
                       "step again: two processes now think they did match. Write under the lease, "
                       "apply(..., lease=lease), and the store refuses a write from an older attempt")
    if name == "held":
        if result is not None:
            return False, f"you returned {result!r:.80}; with worker A's lease live, return None and leave it"
        if step is None or step.lease_owner != "worker A" or any(e.accepted for e in events):
            return False, "worker A's step changed hands or status; a live lease belongs to its holder"
        return True, "returned None and left worker A's step alone"
    if not isinstance(result, Step) or result.status != "done" or result.output != LEASE_OUTPUT:
        return False, (f"you returned {result!r:.80}; return the step as apply() wrote it: match, done, "
                       f"{LEASE_OUTPUT!r}")
    claimed = [e for e in events if e.accepted and e.status == "running" and e.worker == "worker B"]
    if name in ("free", "expired") and not claimed:
        return False, "the step was written without a claim: claim it first, so no other worker can take it meanwhile"
    if not any(e.accepted and e.status == "done" and e.worker == "worker B" for e in events):
        return False, "the log does not show worker B writing done: apply under your lease, apply(..., lease=lease)"
    attempts = {"expired": 2}.get(name, 1)
    if finished.attempts != attempts:
        return False, f"match took {finished.attempts} attempts, expected {attempts}"
    said = {"free": "claimed it and wrote done", "expired": "took it over (attempt 2) and wrote done",
            "mine": "renewed its own claim and wrote done"}[name]
    return True, said


def check_take_step(take: object) -> bool:
    """Exercise 4.4: run the learner's take_step as worker B in five situations, on a clock moved by hand."""
    if not callable(take):
        print(f"Not yet: give a function take_step(store, task_id, worker, output); got {type(take).__name__}.")
        return False
    right = 0
    for name, situation in _LEASE_CASES.items():
        ok, said = _run_lease_case(take, name)
        right += ok
        print(f"  {'right' if ok else 'wrong'}  {situation}: {said}")
    print(f"{right} of {len(_LEASE_CASES)} right.")
    if right == len(_LEASE_CASES):
        print("Right. The reconcile worker does exactly this, plus a heartbeat thread that renews its lease while "
              "it works, so a slow worker keeps its step and only a dead or stalled one loses it; and when a "
              "stalled one wakes up, the fence refuses what it writes.")
    return right == len(_LEASE_CASES)


register(Exercise(
    id="4.4", title="take a step with a lease", checker=check_take_step,
    hints=LEASE_HINTS, solution=take_step, stub=_stub_take_step,
    notes=("claim() renews a lease its caller already holds, so a worker asking twice is not refused; "
           "the store's clock decides what 'live' means, which is why the checker can move it by hand.",),
))
