"""Short-term memory: the lesson's numbers, the budget guarantee, and bad input."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from primer_memory import (
    ContextWindow,
    InvalidBudget,
    InvalidMessage,
    PerMessageSummarizer,
    ShortTermMemory,
    context_reference,
    estimate_tokens,
    first_sentence,
    first_sentences,
    token_curve,
)
from primer_memory.lessons.examples import invoice_chat, invoice_exchange
from primer_memory.short_term.memory import SUMMARY_PREFIX, TRUNCATION_MARKER


def test_estimate_tokens_is_chars_over_four_rounded_up() -> None:
    assert estimate_tokens("") == 0
    assert estimate_tokens("a") == 1
    assert estimate_tokens("abcd") == 1
    assert estimate_tokens("abcde") == 2


def test_invoice_messages_cost_18_and_17_tokens() -> None:
    (_, q), (_, a) = invoice_exchange(1)
    assert (estimate_tokens(q), estimate_tokens(a)) == (18, 17)
    assert sum(estimate_tokens(t) for _, t in invoice_chat(6)) == 210


def test_first_sentences_matches_the_lesson() -> None:
    assert first_sentence("Answer 3 lists the invoice. It shows vendor.") == "Answer 3 lists the invoice"
    assert first_sentence("Only one sentence.") == "Only one sentence"
    messages = [{"role": r, "content": t} for r, t in invoice_chat(1)]
    assert first_sentences(messages) == "Question 1 is about invoices; Answer 1 lists the invoice"


def test_worked_example_budget_110_keep_last_4() -> None:
    memory = ShortTermMemory(110, keep_last=4)
    memory.extend(invoice_chat(6))
    summary, messages = memory.context()
    assert summary == (
        "Earlier in this conversation: Question 3 is about invoices; Answer 3 lists the invoice; "
        "Question 4 is about invoices; Answer 4 lists the invoice"
    )
    assert estimate_tokens(summary) == 36
    assert [m["content"].split(" is ")[0].split(" lists")[0] for m in messages] == [
        "Question 5", "Answer 5", "Question 6", "Answer 6"]
    assert memory.sent_tokens() == 106 and memory.tokens() == 210
    window = memory.window()
    assert (window.summarized, window.dropped, window.truncated) == (4, 4, False)


def test_all_eight_older_sentences_would_cost_65() -> None:
    older = [{"role": r, "content": t} for r, t in invoice_chat(4)]
    assert estimate_tokens(SUMMARY_PREFIX + first_sentences(older)) == 65


def test_under_budget_sends_everything_without_summary() -> None:
    memory = ShortTermMemory(210, keep_last=4)
    memory.extend(invoice_chat(6))
    summary, messages = memory.context()
    assert summary == "" and len(messages) == 12 and memory.sent_tokens() == memory.tokens() == 210


def test_figure_numbers_from_the_lesson() -> None:
    whole, managed = token_curve((invoice_exchange(i) for i in range(1, 41)), 300, keep_last=6)
    assert whole[0] == 35 and whole[-1] == 1431
    assert all(b - a >= 35 for a, b in zip(whole, whole[1:]))  # climbs without end
    first_over = next(t for t, w in enumerate(whole, 1) if w > 300)
    assert first_over == 9
    assert managed[:8] == whole[:8] and managed[8] < managed[7]  # drops at turn 9
    assert all(m <= 300 for m in managed)
    assert all(290 <= m <= 300 for m in managed[16:])  # flat just under 300 from about turn 17
    assert managed[22:] == [295] * 18  # holds 295 from turn 23 on


def test_context_returns_copies() -> None:
    memory = ShortTermMemory(500)
    memory.add("user", "hello there")
    _, messages = memory.context()
    messages[0]["content"] = "tampered"
    memory.messages[0]["content"] = "tampered too"
    assert memory.context()[1][0]["content"] == "hello there"


# --------------------------------------------------------------------------- the guarantee

turns = st.lists(
    st.tuples(st.sampled_from(["user", "assistant"]), st.text(max_size=400)),
    max_size=40,
)


@given(turns, st.integers(1, 400), st.integers(1, 10))
def test_tokens_sent_never_exceed_budget(chat: list[tuple[str, str]], budget: int, keep_last: int) -> None:
    memory = ShortTermMemory(budget, keep_last=keep_last)
    memory.extend(chat)
    window = memory.window()
    assert window.tokens <= budget
    assert memory.sent_tokens() == window.tokens
    assert memory.tokens() == sum(estimate_tokens(t) for _, t in chat)


@given(turns, st.integers(1, 400), st.integers(1, 10))
def test_fast_path_equals_the_lesson_algorithm(chat: list[tuple[str, str]], budget: int, keep_last: int) -> None:
    memory = ShortTermMemory(budget, keep_last=keep_last)
    memory.extend(chat)
    # the same summarizer as a plain function forces the lesson-literal path
    slow = ShortTermMemory(budget, keep_last=keep_last, summarize=lambda ms: first_sentences(ms))
    slow.extend(chat)
    expected = context_reference(memory.messages, budget, keep_last)
    assert memory.context() == expected
    assert slow.context() == expected


@given(turns, st.integers(1, 300), st.integers(1, 8))
def test_incremental_context_matches_fresh(chat: list[tuple[str, str]], budget: int, keep_last: int) -> None:
    """Calling context() between adds (pieces cached lazily) gives what a fresh memory gives."""
    memory = ShortTermMemory(budget, keep_last=keep_last)
    for role, text in chat:
        memory.add(role, text)
        fresh = ShortTermMemory(budget, keep_last=keep_last)
        fresh.extend([(m["role"], m["content"]) for m in memory.messages])
        assert memory.context() == fresh.context()


@given(turns, st.integers(1, 300), st.integers(1, 8))
def test_sent_messages_are_the_newest_in_order(chat: list[tuple[str, str]], budget: int, keep_last: int) -> None:
    memory = ShortTermMemory(budget, keep_last=keep_last)
    memory.extend(chat)
    window = memory.window()
    everything = memory.messages
    sent = window.messages
    if window.truncated:
        assert len(sent) == 1 and sent[0]["role"] == everything[-1]["role"]
        assert sent[0]["content"].endswith(TRUNCATION_MARKER) or len(sent[0]["content"]) <= len(TRUNCATION_MARKER)
    else:
        assert sent == everything[len(everything) - len(sent):]
        assert len(sent) <= max(keep_last, len(everything))


def test_one_huge_message_is_truncated_with_a_marker() -> None:
    memory = ShortTermMemory(100, keep_last=4)
    memory.add("user", "x" * 20_000)  # a pasted 5,000-token document
    window = memory.window()
    assert window.truncated and window.tokens <= 100
    assert window.messages[0]["content"].endswith(TRUNCATION_MARKER)


def test_recent_messages_that_overflow_lose_their_oldest() -> None:
    memory = ShortTermMemory(100, keep_last=4)
    memory.extend([("user", "a" * 160), ("assistant", "b" * 160), ("user", "c" * 160)])  # 40 tokens each
    window = memory.window()
    assert [m["content"][0] for m in window.messages] == ["b", "c"]
    assert window.tokens <= 100 and not window.truncated


def test_custom_summarizer_is_used() -> None:
    last = PerMessageSummarizer(lambda m: m["content"].rstrip(".").split(". ")[-1], " | ", name="last_sentences")
    memory = ShortTermMemory(110, keep_last=4, summarize=last)
    memory.extend(invoice_chat(6))
    summary = memory.context()[0]
    assert summary.startswith(SUMMARY_PREFIX) and "It shows vendor, amount and due date" in summary
    assert memory.sent_tokens() <= 110


# --------------------------------------------------------------------------- bad input


@pytest.mark.parametrize("budget", [0, -5, 1.5, "100", True, None])
def test_bad_budget_is_refused(budget: object) -> None:
    with pytest.raises(InvalidBudget, match="budget_tokens"):
        ShortTermMemory(budget)  # type: ignore[arg-type]


@pytest.mark.parametrize("keep_last", [0, -1, 2.0, None])
def test_bad_keep_last_is_refused(keep_last: object) -> None:
    with pytest.raises(InvalidBudget, match="keep_last"):
        ShortTermMemory(100, keep_last=keep_last)  # type: ignore[arg-type]


def test_invalid_budget_is_a_value_error() -> None:
    assert issubclass(InvalidBudget, ValueError) and issubclass(InvalidMessage, ValueError)


@pytest.mark.parametrize(("role", "text", "words"), [
    ("bot", "hi", "role"),
    ("tool", "hi", "tool_call_id"),
    ("user", 42, "text must be a string"),
    ("user", None, "text must be a string"),
    ("user", b"bytes", "text must be a string"),
])
def test_bad_message_is_refused_and_nothing_changes(role: object, text: object, words: str) -> None:
    memory = ShortTermMemory(110, keep_last=4)
    memory.extend(invoice_chat(6))
    before = (memory.messages, memory.context(), memory.history_tokens())
    with pytest.raises(InvalidMessage, match=words):
        memory.add(role, text)  # type: ignore[arg-type]
    assert (memory.messages, memory.context(), memory.history_tokens()) == before


def test_extend_checks_every_turn_before_adding_any() -> None:
    memory = ShortTermMemory(110)
    memory.add("user", "first")
    with pytest.raises(InvalidMessage):
        memory.extend([("user", "fine"), ("robot", "not fine")])
    assert len(memory) == 1


@pytest.mark.parametrize("turns", [None, 42, "user: hi", {"role": "user", "content": "hi"}, [("user",)],
                                   [("user", "hi", "extra")], ["hi"], [None], [{"role": "user"}]])
def test_extend_refuses_what_is_not_a_list_of_turns(turns: object) -> None:
    memory = ShortTermMemory(110)
    memory.add("user", "first")
    with pytest.raises(InvalidMessage, match="turn|message"):
        memory.extend(turns)  # type: ignore[arg-type]
    assert memory.messages == [{"role": "user", "content": "first"}]


def test_summarize_must_be_callable() -> None:
    with pytest.raises(TypeError, match="summarize"):
        ShortTermMemory(100, summarize="first")  # type: ignore[arg-type]


def test_context_window_tokens() -> None:
    window = ContextWindow("abcd", [{"role": "user", "content": "abcde"}], 0, 0, False)
    assert window.tokens == 3
