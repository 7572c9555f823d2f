"""Every exercise's checker against the mistakes a learner makes: each wrong answer is rejected with feedback, the
solution is accepted, and no answer makes a checker itself fail.

WRONG lists, per exercise, at least three answers a learner is likely to write (an off-by-one, a missing bound, a
keyword filter, a partial answer, the wrong type). A checker that accepts one of them fails this suite; so does an
exercise with no list here.
"""

from __future__ import annotations

import contextlib
import io
import posixpath
import re

import pytest
from hypothesis import given, settings, strategies as st

from primer_memory.lessons.exercises import CHECKER_FAILED, exercise, exercises, grade
from primer_memory.lessons.exercises.safety import GUESS_SENTENCES

# --------------------------------------------------------------------------- notebook 1


def second_sentence(messages):  # type: ignore[no-untyped-def]
    return "; ".join(m["content"].rstrip(".").split(". ")[1] for m in messages)


def strip_any_last_character(messages):  # type: ignore[no-untyped-def]
    return "; ".join(m["content"][:-1].split(". ")[-1] for m in messages)


def raises_on_a_question(messages):  # type: ignore[no-untyped-def]
    pieces = []
    for m in messages:
        assert m["content"].endswith("."), "every message ends with a period"
        pieces.append(m["content"][:-1].split(". ")[-1])
    return "; ".join(pieces)


def keeps_the_period(messages):  # type: ignore[no-untyped-def]
    return "; ".join(m["content"].split(". ")[-1] for m in messages)


def strips_every_mark(messages):  # type: ignore[no-untyped-def]
    return "; ".join(m["content"].rstrip(".?!").split(". ")[-1] for m in messages)


def joined_with_commas(messages):  # type: ignore[no-untyped-def]
    return ", ".join(m["content"].rstrip(".").split(". ")[-1] for m in messages)


def no_lower_bound(messages, n):  # type: ignore[no-untyped-def]
    start = len(messages) - n
    while start > 0 and messages[start]["role"] == "tool":
        start -= 1
    return start


def steps_forward(messages, n):  # type: ignore[no-untyped-def]
    start = max(0, len(messages) - n)
    while start < len(messages) and messages[start]["role"] == "tool":
        start += 1
    return start


def off_by_one(messages, n):  # type: ignore[no-untyped-def]
    start = max(0, len(messages) - n - 1)
    while start > 0 and messages[start]["role"] == "tool":
        start -= 1
    return start


def ignores_tools(messages, n):  # type: ignore[no-untyped-def]
    return max(0, len(messages) - n)


def returns_the_window(messages, n):  # type: ignore[no-untyped-def]
    start = max(0, len(messages) - n)
    while start > 0 and messages[start]["role"] == "tool":
        start -= 1
    return messages[start:]


# --------------------------------------------------------------------------- notebook 3

KEYWORD_GUESSES = {s: "refuse" if re.search(r"pin|token|from now on|passe", s, re.I) else "store"
                   for s in GUESS_SENTENCES}
RIGHT_GUESSES = exercise("3.1").solution


def normalise_then_prefix(path):  # type: ignore[no-untyped-def]
    return posixpath.normpath(path).startswith("/memories")


def prefix_only(path):  # type: ignore[no-untyped-def]
    return path.startswith("/memories/") or path == "/memories"


def dots_anywhere(path):  # type: ignore[no-untyped-def]
    return path.startswith("/memories") and ".." not in path


def returns_a_match(path):  # type: ignore[no-untyped-def]
    return re.match(r"^/memories(/[\w.-]+)*$", path)


def keyword_filter(text):  # type: ignore[no-untyped-def]
    from primer_memory.policy.rules import findings, redact

    if re.search(r"from now on|ignore previous", text, re.I):
        return None
    return redact(text) if findings(text) else text


def ignores_hidden_text(text):  # type: ignore[no-untyped-def]
    from primer_memory.policy.rules import findings, redact

    found = {f.detector for f in findings(text)}
    if "prompt_injection" in found:
        return None
    return redact(text) if found else text


def refuses_every_finding(text):  # type: ignore[no-untyped-def]
    from primer_memory.policy.rules import findings

    return None if findings(text) else text


def masks_everything(text):  # type: ignore[no-untyped-def]
    from primer_memory.policy.rules import redact

    return redact(text)


# --------------------------------------------------------------------------- notebook 4


def contains_matched(output):  # type: ignore[no-untyped-def]
    return None if "matched" in output else "say what matched"


def ends_with_matched(output):  # type: ignore[no-untyped-def]
    return None if output.endswith("matched") else "say what matched"


def accepts_everything(output):  # type: ignore[no-untyped-def]
    return None


def any_match_word(output):  # type: ignore[no-untyped-def]
    return isinstance(output, str) and "match" in output


def apply_without_a_claim(store, task_id, worker, output):  # type: ignore[no-untyped-def]
    return store.apply(task_id, {"step": "match", "status": "done", "output": output}, worker=worker)


def claim_but_no_worker(store, task_id, worker, output):  # type: ignore[no-untyped-def]
    from primer_memory import LeaseHeld

    try:
        lease = store.claim(task_id, worker)
    except LeaseHeld:
        return None
    return store.apply(task_id, {"step": lease.step, "status": "done", "output": output})


def never_catches(store, task_id, worker, output):  # type: ignore[no-untyped-def]
    lease = store.claim(task_id, worker)
    return store.apply(task_id, {"step": lease.step, "status": "done", "output": output}, worker=worker)


def writes_under_its_name(store, task_id, worker, output):  # type: ignore[no-untyped-def]
    from primer_memory import LeaseHeld

    try:
        lease = store.claim(task_id, worker)
    except LeaseHeld:
        return None
    return store.apply(task_id, {"step": lease.step, "status": "done", "output": output}, worker=worker)


def claims_only(store, task_id, worker, output):  # type: ignore[no-untyped-def]
    from primer_memory import LeaseHeld

    try:
        return store.claim(task_id, worker)
    except LeaseHeld:
        return None


# --------------------------------------------------------------------------- notebook 5


def recall_by_k(exact_ids, found_ids, k):  # type: ignore[no-untyped-def]
    return len(set(found_ids[:k]) & set(exact_ids[:k])) / k


def precision_not_recall(exact_ids, found_ids, k):  # type: ignore[no-untyped-def]
    return len(set(found_ids[:k]) & set(exact_ids[:k])) / max(len(found_ids[:k]), 1)


def recall_in_order(exact_ids, found_ids, k):  # type: ignore[no-untyped-def]
    return sum(a == b for a, b in zip(exact_ids[:k], found_ids[:k])) / max(len(exact_ids[:k]), 1)


def recall_past_k(exact_ids, found_ids, k):  # type: ignore[no-untyped-def]
    return len(set(found_ids) & set(exact_ids[:k])) / len(exact_ids[:k]) if exact_ids else 1.0



def _scope(settings, verify):  # type: ignore[no-untyped-def]
    token = settings.get("app.scope")
    return verify(token) if token else (None, None)


def prefix_policy(rt, ru, settings, verify):  # type: ignore[no-untyped-def]
    st, su = _scope(settings, verify)
    return bool(st) and bool(su) and rt.startswith(st) and ru == su


def case_blind(rt, ru, settings, verify):  # type: ignore[no-untyped-def]
    st, su = _scope(settings, verify)
    return bool(st) and bool(su) and rt.lower() == st.lower() and ru == su


def open_when_unset(rt, ru, settings, verify):  # type: ignore[no-untyped-def]
    st, su = _scope(settings, verify)
    return not st or (rt == st and ru == su)


def trusts_the_plain_setting(rt, ru, settings, verify):  # type: ignore[no-untyped-def]
    st, su = settings.get("app.tenant_id"), settings.get("app.user_id")  # the old design, which injection forges
    if not (st and su):
        st, su = _scope(settings, verify)
    return bool(st) and bool(su) and (rt, ru) == (st, su)


def swallows_a_forgery(rt, ru, settings, verify):  # type: ignore[no-untyped-def]
    from primer_memory.lessons.exercises.beyond import ForgedScope

    try:
        st, su = _scope(settings, verify)
    except ForgedScope:
        return False  # an attack that reads as "no rows"
    return bool(st) and bool(su) and (rt, ru) == (st, su)


def returns_a_number(rt, ru, settings, verify):  # type: ignore[no-untyped-def]
    st, su = _scope(settings, verify)
    return int(bool(st) and bool(su) and rt == st and ru == su)


from test_exercises_long_term import (adds_raw_scores, best_rank_only, keeps_only_both,  # noqa: E402
                                     one_after_the_other, ranks_from_zero, twice, with_scores, without_the_60,
                                     worst_first)
from test_exercises_plug_in import as_list, from_config, lower_cased, no_collection, user_from_config  # noqa: E402

WRONG: dict[str, list[object]] = {
    "1.1": [second_sentence, strip_any_last_character, raises_on_a_question, keeps_the_period, strips_every_mark,
            joined_with_commas, "last_sentences"],
    "1.2": [0, 2, 4, "1", 1.0, True],
    "1.3": [no_lower_bound, steps_forward, off_by_one, ignores_tools, returns_the_window],
    "2.1": [(("episodic", "semantic", "procedural"), 3), (("semantic",), 1), (("procedural",), 2),
            (("episodic",), 1), ("procedural", 1), [("procedural",), 0]],
    "2.2": ["how do I reconcile invoices?", "how do I check that every bill got paid?", "what about invoices?",
            "", 42],
    "2.3": [0.05, 0.12, 0.6, 0.9, "0.3", 30, 0],
    "2.4": [adds_raw_scores, keeps_only_both, worst_first, without_the_60, ranks_from_zero, best_rank_only,
            one_after_the_other, with_scores, twice],  # test_exercises_long_term.py's, each named there
    "3.1": [KEYWORD_GUESSES, dict.fromkeys(GUESS_SENTENCES, "store"), dict.fromkeys(GUESS_SENTENCES, "refuse"),
            {s: RIGHT_GUESSES[s] for s in GUESS_SENTENCES[:5]},
            {s: ("refused" if v == "refuse" else v) for s, v in RIGHT_GUESSES.items()},
            list(RIGHT_GUESSES.values())],
    "3.2": [normalise_then_prefix, prefix_only, dots_anywhere, returns_a_match],
    "3.3": [keyword_filter, ignores_hidden_text, refuses_every_finding, masks_everything],
    "4.1": ['{"step": "match", "status": "done", "output": "all matched"}',
            '{"step": "match", "status": "running"}',
            '{"step": "fetch_payments", "status": "done", "output": "3 payments"}',
            '{"step": "match", "status": "done", "output": "3 matched, 1 unpaid", "confidence": 1}',
            '{"step": "match", "status": "done"}', ["match", "done", "3 matched, 1 unpaid"]],
    "4.2": [contains_matched, ends_with_matched, accepts_everything, any_match_word],
    "4.3": [{"before:fetch_payments": ("fetch_payments", "pending")},
            {"before:fetch_payments": ("fetch_payments", "pending"), "running:match": ("match", "running")},
            {"before:fetch_payments": ("fetch_payments", "pending"), "writing:fetch_invoices": ...,
             "running:match": ("match", "running")},
            {"before:fetch_payments": "fetch_payments", "writing:fetch_invoices": "fetch_invoices",
             "running:match": "match"},
            ["fetch_payments", "fetch_invoices", "match"]],
    "4.4": [apply_without_a_claim, claim_but_no_worker, never_catches, claims_only, writes_under_its_name],
    "5.1": [prefix_policy, case_blind, open_when_unset, trusts_the_plain_setting, swallows_a_forgery,
            returns_a_number],
    "5.2": ["a", "b", "c", "e", ["d"], ("d",), "f"],
    "5.4": [recall_by_k, precision_not_recall, recall_in_order, recall_past_k],
    "5.3": [{"the write-ahead log"}, {"base backups"}, set(exercise("5.3").solution) | {"the table's indexes"},
            {"the table's heap file", "the table's indexes"}, ["the write-ahead log", "backups"]],
    "6.1": [from_config, user_from_config, lower_cased, no_collection, as_list],  # test_exercises_plug_in.py's
}

CASES = [(i, answer) for i, answers in WRONG.items() for answer in answers]

# The phrase in each wrong answer's feedback that names its mistake, in WRONG's order (chosen by reading every
# message; 6.1's are in test_exercises_plug_in.py). A checker that only said "wrong" would fail here.
MISTAKE_NAMED = {
 "1.1": ["raised IndexError", "stripped every final mark", "raised AssertionError", "trailing period is still there",
         "stripped every final mark", "joined with ', '", "pass your function itself"],
 "1.2": ["more than that", "fewer than that", "fewer than that", "whole number", "whole number", "whole number"],
 "1.3": ["A negative index is not a start", "your window starts at index 14", "your window starts at index 11",
         "starts at index 13 (tool)", "return an index into the messages"],
 "2.1": ["so is something else", "the reconcile habit is not among them", "so is something else",
         "the reconcile habit is not among them", "not the bare string 'procedural'", "k must be at least 1"],
 "2.2": ["avoid 'reconcile' and 'invoice'", "the hashing embedder did not put the habit first",
         "avoid 'reconcile' and 'invoice'", "non-empty string", "non-empty string"],
 "2.3": ["wrong  'what is it?'", "wrong  'what is it?'", "'what happened with Globex?': nothing",
         "'what happened with Globex?': nothing", "got '0.3'", "got 30", "got 0."],
 "2.4": ["you added the raw scores", "you kept only the memories both rankings found", "your list is worst first",
         "you left out the 60", "you counted ranks from 0", "you kept each memory's best rank",
         "you put one ranking after the other", "return the ids only", "an id appears twice"],
 "3.1": ["you said 'store'; the policy says 'skip'", "you said 'store'; the policy says 'skip'",
         "you said 'refuse'; the policy says 'skip'", "Not guessed yet", "the policy's word is 'refuse'",
         "give a dict that maps each"],
 "3.2": ["got through: '/memories/%2e%2e/secrets'", "got through: '/memories/../secrets.txt'",
         "got through: '/memories_backup/x.md'", "is_safe must return True or False"],
 "3.3": ["a keyword such as 'from now on' is not an order", "masking an order leaves the rest of it",
         "should come back as text with the secret masked", "masking an order leaves the rest of it"],
 "4.1": ["the exercise asks you to report the output", "the step is running", "a done step is final",
         "unknown field(s) 'confidence'", "output null for step match", "a proposal is JSON text or a dict"],
 "4.2": ["Check the type first", "refused '3 matched, 1 unpaid (Globex)'", "accepted ''",
         "accepted 'finished matching'"],
 "4.3": ["still open: ['writing:fetch_invoices', 'running:match']", "still open: ['writing:fetch_invoices']",
         "still open: ['writing:fetch_invoices']", "as a pair such as ('match', 'running')",
         "give a dict {crash point: (step, status)}"],
 "4.4": ["the step was written without a claim", "this proposal names no worker", "your function raised LeaseHeld",
         "return the step as apply() wrote it", "apply(..., lease=lease)"],
 "5.1": ["no prefix, no case folding", "no prefix, no case folding", "With no scope set there must be no rows",
         "injected SQL sets them with set_config", "let it propagate", "a policy answers True or False"],
 "5.2": ["SET lasts for the whole session", "false means 'for the session'", "a bearer secret for its whole lifetime",
         "app.tenant_id is a plain setting", "answer with one letter as a string", "got tuple ('d',)", "got 'f'"],
 "5.3": ["you left out ['base backups']", "you left out ['the write-ahead log']", "are new files written with",
         "are new files written with", "['backups'] are not in ERASURE_COPIES"],
 "5.4": ["you divided by k", "that is precision", "compare sets", "rows past the first k"],
}


NAMED_CASES = [(i, answer, phrase) for i, phrases in MISTAKE_NAMED.items()
               for answer, phrase in zip(WRONG[i], phrases, strict=True)]


def _label(answer: object) -> str:
    """A test id that is the same in every process (a set's repr follows the hash seed, so it is sorted first)."""
    if isinstance(answer, (set, frozenset)):
        return ("{" + ", ".join(sorted(map(repr, answer))) + "}")[:40]
    return getattr(answer, "__name__", None) or repr(answer)[:40]


def test_every_exercise_has_at_least_three_wrong_answers() -> None:
    assert sorted(WRONG) == sorted(exercises()), "an exercise without wrong answers here is an untested checker"
    assert all(len(answers) >= 3 for answers in WRONG.values())


@pytest.mark.parametrize(("exercise_id", "answer"), CASES, ids=[f"{i}-{_label(a)}" for i, a in CASES])
def test_a_wrong_answer_is_rejected_with_feedback(exercise_id: str, answer: object,
                                                  capsys: pytest.CaptureFixture[str]) -> None:
    assert grade(exercise_id, answer) is False
    out = capsys.readouterr().out
    assert out.strip(), "a checker always says something"
    assert CHECKER_FAILED not in out, out
    assert "not attempted yet" not in out, out  # an attempt is never mistaken for a stub


def test_every_wrong_answer_has_the_phrase_naming_its_mistake() -> None:
    assert sorted(MISTAKE_NAMED) == sorted(set(WRONG) - {"6.1"})
    assert all(len(MISTAKE_NAMED[i]) == len(WRONG[i]) for i in MISTAKE_NAMED)


@pytest.mark.parametrize(("exercise_id", "answer", "phrase"), NAMED_CASES,
                         ids=[f"{i}-{_label(a)}" for i, a, _ in NAMED_CASES])
def test_a_wrong_answer_is_told_its_mistake(exercise_id: str, answer: object, phrase: str,
                                            capsys: pytest.CaptureFixture[str]) -> None:
    """Class covered: every wrong answer above; the feedback must hold the phrase that names what it got wrong."""
    grade(exercise_id, answer)
    assert phrase in capsys.readouterr().out


@pytest.mark.parametrize("exercise_id", sorted(WRONG))
def test_the_solution_is_accepted(exercise_id: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert grade(exercise_id, exercise(exercise_id).solution) is True, capsys.readouterr().out
    assert CHECKER_FAILED not in capsys.readouterr().out


PLAIN = st.recursive(st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=30),
                     lambda inner: st.lists(inner, max_size=4) | st.tuples(inner, inner)
                     | st.dictionaries(st.text(max_size=10), inner, max_size=4), max_leaves=8)


@pytest.mark.parametrize("exercise_id", [i for i in sorted(WRONG) if i != "4.3"])
@settings(max_examples=40, deadline=None)
@given(answer=PLAIN)
def test_no_plain_value_makes_a_checker_fail(exercise_id: str, answer: object) -> None:
    """Class of input: plain data (None, numbers, text, and lists, tuples and dicts of them), the shapes a
    learner's answer takes when it is not a function. 4.3 is left out: a dict naming crash points starts
    real processes, and its other answers take the same early exits as the cases above."""
    printed = io.StringIO()
    with contextlib.redirect_stdout(printed):
        grade(exercise_id, answer)
    out = printed.getvalue()
    assert out.strip() and CHECKER_FAILED not in out, out
