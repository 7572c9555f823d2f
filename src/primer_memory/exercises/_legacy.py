"""Checkers for the notebooks' exercises: they print feedback and never raise.

A learner's attempt may be wrong in any way (it may even crash), so each
checker catches everything and says what it saw, in words.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any


__all__ = ["check_policy_guesses", "check_path_guard"]

# --------------------------------------------------------------------------- notebook 3


def check_policy_guesses(guesses: dict[str, str]) -> None:
    """Compare a learner's store/skip/refuse guesses with what the write policy decides, and say why."""
    from ..policy import review

    if not isinstance(guesses, dict) or not guesses:
        print("Not yet: give a dict that maps each sentence to 'store', 'skip' or 'refuse'.")
        return
    right = 0
    for sentence, guess in guesses.items():
        try:
            decision = review(sentence)
        except Exception as error:  # a learner may pass anything as a key
            print(f"  ? {sentence!r}: the policy could not read it ({error})")
            continue
        if str(guess).strip().lower() == decision.verdict:
            right += 1
            print(f"  right  {decision.verdict:<6} {sentence!r}")
        else:
            print(f"  wrong  {sentence!r}\n         you said {guess!r}; the policy says {decision.reason}")
    print(f"{right} of {len(guesses)} right.")


PATH_ATTACKS: tuple[str, ...] = (
    "/memories/../secrets.txt", "/memories/notes/../../etc/passwd", "../memories/x", "/memories/..",
    "/memories/%2e%2e/secrets", "/memories/%252e%252e/secrets", "/memories/..%2fsecrets", "/memories\\..\\secrets",
    "/etc/passwd", "/memories_backup/x.md", "/memoriesx", "/memories/x\x00.md", "memories/../../x",
    "/memories/./../x", "/memories/\uff0e\uff0e/x", "//memories/../x", "/memories/notes/..\\..\\x",
)
PATH_LEGIT: tuple[str, ...] = (
    "/memories", "/memories/progress.md", "/memories/projects/invoices.md", "/memories/a..b.md",
    "/memories/notes/2026-09.md", "/memories/.hidden_ok.md",
)


def check_path_guard(is_safe: Callable[[str], bool]) -> None:
    """Run a learner's `is_safe(path)` on known escapes and on ordinary paths; report what slipped through."""
    escaped, blocked = [], []
    for path in PATH_ATTACKS:
        try:
            if is_safe(path):
                escaped.append(path)
        except Exception as error:  # raising on an attack is a refusal, which is fine
            _ = error
    for path in PATH_LEGIT:
        try:
            if not is_safe(path):
                blocked.append(path)
        except Exception as error:
            blocked.append(f"{path} (raised {error!r})")
    print(f"Escapes refused: {len(PATH_ATTACKS) - len(escaped)} of {len(PATH_ATTACKS)}; "
          f"ordinary paths allowed: {len(PATH_LEGIT) - len(blocked)} of {len(PATH_LEGIT)}.")
    for path in escaped:
        print(f"  got through: {path!r}")
    for path in blocked:
        print(f"  wrongly refused: {path!r}")
    if not escaped and not blocked:
        print("All right. MemoryNotes goes further still: it resolves symlinks and checks the real path too.")


# --------------------------------------------------------------------------- notebook 4: task state


def _worked_example_file(folder: str):  # -> TaskStateStore
    """A task file in the state the lesson leaves it: fetch_invoices and fetch_payments done, match next."""
    from pathlib import Path

    from ..examples import RECONCILE_GOAL, RECONCILE_PROPOSALS, RECONCILE_STEPS, RECONCILE_TASK_ID
    from ..task_state import TaskStateStore

    store = TaskStateStore(Path(folder) / "tasks.db")
    store.create_task(RECONCILE_TASK_ID, RECONCILE_GOAL, RECONCILE_STEPS)
    for proposal, accepted in RECONCILE_PROPOSALS:
        if accepted:
            store.apply(RECONCILE_TASK_ID, proposal)
    return store


def check_next_proposal(proposal: object) -> None:
    """Send a learner's proposal (dict or JSON text) to the worked example's file and report what the code decides."""
    import tempfile

    from ..examples import RECONCILE_TASK_ID
    from ..task_state import InvalidUpdate

    with tempfile.TemporaryDirectory() as folder:
        store = _worked_example_file(folder)
        try:
            step = store.apply(RECONCILE_TASK_ID, proposal)  # type: ignore[arg-type]
        except InvalidUpdate as refusal:
            print(f"Refused, exactly as a model's proposal would be: {refusal}")
            print("The reason says what was wrong and what is allowed: fix the proposal and run the cell again.")
            return
        except Exception as error:  # a learner may pass anything at all: report it, never raise
            print(f"Not yet: apply() could not take that ({type(error).__name__}: {error}). "
                  "Give a dict or a JSON string.")
            return
        finally:
            store.close()
    print(f"Written: step {step.name} is now {step.status}, output {step.output!r}.")
    if step.status == "done":
        print("That was the last step: next_step() now returns None and the task is finished.")
    elif step.status == "running":
        print("The step is running. A second proposal with status done (and an output) would finish it.")
    else:
        print("The step failed; the worker would retry it by proposing running again.")


MATCH_GOOD: tuple[str, ...] = ("all matched", "3 matched, 1 unpaid (Globex)", "0 matched")
MATCH_BAD: tuple[object, ...] = ("", None, 42, "done", "finished matching", ["all matched"])


def _check_verdict(check: Callable[[object], object], output: object) -> tuple[bool, str]:
    """(accepted?, what the check said) under the store's contract: None/True fine, False or a text not."""
    try:
        verdict = check(output)
    except Exception as error:
        return False, f"raised {type(error).__name__}: {error}"
    return verdict is None or verdict is True, repr(verdict)


def check_match_check(check: Callable[[object], object]) -> None:
    """A learner's output check for the match step: it must accept texts with the word 'matched', refuse the rest."""
    if not callable(check) or not getattr(check, "__name__", "").isidentifier():
        print("Not yet: give a named function (def my_check(output): ...), the store keeps its name.")
        return
    wrong = []
    for output in MATCH_GOOD:
        ok, said = _check_verdict(check, output)
        if not ok:
            wrong.append(f"refused {output!r}, which says how the matching went (your check said {said})")
    for bad in MATCH_BAD:
        ok, said = _check_verdict(check, bad)
        if ok:
            wrong.append(f"accepted {bad!r}, which does not say what matched")
    if wrong:
        print("Not yet:")
        for line in wrong:
            print("  -", line)
        return
    print(f"Right on all {len(MATCH_GOOD) + len(MATCH_BAD)} outputs. Now the store enforces it:")
    import tempfile
    from pathlib import Path

    from ..task_state import InvalidUpdate, TaskStateStore

    with tempfile.TemporaryDirectory() as folder, TaskStateStore(Path(folder) / "t.db") as store:
        steps: list[Any] = [("match", check)]  # the learner's function, whatever it returns
        store.create_task("match-only", "match invoices to payments", steps)
        for output in ("finished matching", "3 matched, 1 unpaid (Globex)"):
            try:
                store.apply("match-only", {"step": "match", "status": "done", "output": output})
                print(f"  written: match done {output!r}")
            except InvalidUpdate as refusal:
                print(f"  refused: {refusal}")


def check_resume_prediction(predictions: dict[str, str]) -> None:
    """Crash a real worker at each point the learner chose and compare the step it resumes at with the guess."""
    import tempfile
    from pathlib import Path

    from ..examples import RECONCILE_TASK_ID
    from ..task_state import TaskStateStore
    from ..task_state_worker import WorkerError, crash_points, start_worker

    if not isinstance(predictions, dict) or not predictions:
        print("Not yet: give a dict {crash point: step name}, e.g. {'before:match': 'match'}.")
        return
    unknown = [p for p in predictions if p not in crash_points()]
    if unknown:
        print(f"Not yet: {unknown} are not crash points; choose from {crash_points()}.")
        return
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
                    current = store.next_step(RECONCILE_TASK_ID)
                    actual = current.name if current else "(none)"
                    state = f"{current.status}" if current else "finished"
                else:
                    actual, state = "fetch_invoices", "no task in the file: it is created again"
        if guess == actual:
            right += 1
            print(f"  right  killed {point:<24} -> resumes at {actual} ({state})")
        else:
            print(f"  wrong  killed {point:<24} -> resumes at {actual} ({state}), you said {guess!r}")
    print(f"{right} of {len(predictions)} right (each answer came from a real process killed with SIGKILL).")


__all__ += ["check_next_proposal", "check_match_check", "check_resume_prediction"]


# --------------------------------------------------------------------------- notebook 2: recall


def check_recall_choice(question: str, kinds: object, k: object) -> None:
    """Exercise: choose kinds and k so that recall returns exactly the reconcile habit for `question`."""
    from ..examples import alice_scope, alice_store

    try:
        memory = alice_store()
        recalled = memory.recall(alice_scope(), question, k=k, kinds=kinds)  # type: ignore[arg-type]
    except Exception as error:  # a learner's choice may be invalid in any way: report it, don't raise
        print(f"Not yet: recall refused that choice -- {type(error).__name__}: {error}")
        return
    print(f"recall(alice, {question!r}, k={k!r}, kinds={kinds!r}) returned {len(recalled)} memory(ies):")
    for record in recalled:
        print(f"  [{record.kind}] {record.content}")
    habit = [r for r in recalled if r.content.startswith("To reconcile invoices")]
    if not habit:
        print("Not yet: the reconcile habit is not among them. Which kind of memory holds a how-to?")
    elif len(recalled) > 1:
        print("Close: the habit is there, but so is something else that would also go into the prompt. "
              "Can a smaller k, or fewer kinds, leave only the habit?")
    else:
        print("Yes: only the habit. The question asks 'what should I do', so it wants a how-to (procedural); "
              "without the filter the diary entry about late invoices would score higher.")


def check_paraphrase(question: str) -> None:
    """Exercise: ask for the reconcile habit without the words 'reconcile' or 'invoice'; explain what happened."""
    from ..embedding import content_words
    from ..examples import alice_scope, alice_store

    if not isinstance(question, str) or not question.strip():
        print("Not yet: write your question as a non-empty string.")
        return
    lowered = question.casefold()
    if "reconcil" in lowered or "invoice" in lowered:
        print("Not yet: the challenge is to avoid 'reconcile' and 'invoice' -- paraphrase them.")
        return
    try:
        memory = alice_store()
        scored = memory.recall_with_scores(alice_scope(), question, k=3)
    except Exception as error:
        print(f"Not yet: recall raised {type(error).__name__}: {error}")
        return
    habit = next(r for r in memory.export(alice_scope()) if r["content"].startswith("To reconcile invoices"))
    shared = sorted(set(content_words(question)) & set(content_words(habit["content"])))
    for rank, (record, score) in enumerate(scored, start=1):
        print(f"  {rank}. cosine {score:.2f}  [{record.kind}] {record.content}")
    first = scored[0][0].content if scored else ""
    if first == habit["content"]:
        print(f"The habit came first. Words it shares with the habit: {', '.join(shared) or '(none: only n-grams)'}.")
        print("That is the point: the default embedder matches spelling (words and word pieces), not meaning.")
    else:
        print(f"The habit did not come first. Shared words with it: {', '.join(shared) or 'none'}.")
        print("The default embedder only sees spelling: with no shared words or word pieces, a perfect paraphrase")
        print("scores about as low as an unrelated sentence. A sentence-embedding model would bridge that gap.")


__all__ += ["check_recall_choice", "check_paraphrase"]
