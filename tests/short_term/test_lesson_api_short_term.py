"""The lesson's short-term calls, typed exactly as LESSON.md's API section lists them, return what it shows."""

from __future__ import annotations

from primer_memory import ShortTermMemory, first_sentences
from primer_memory.lessons.examples import invoice_chat


def test_the_lesson_walkthrough_for_short_term_memory() -> None:
    memory = ShortTermMemory(110, keep_last=4, summarize=first_sentences)
    for role, text in invoice_chat(6):
        memory.add(role, text)
    assert memory.messages[0] == {
        "role": "user", "content": "Question 1 is about invoices. Please include the vendor name and amount."}
    assert all(set(m) == {"role", "content"} for m in memory.messages) and len(memory.messages) == 12
    assert memory.tokens() == 210  # the whole history, not the 106 sent
    summary, messages = memory.context()
    assert summary == (
        "Earlier in this conversation: Question 3 is about invoices; Answer 3 lists the invoice; "
        "Question 4 is about invoices; Answer 4 lists the invoice"
    )
    assert [m["content"] for m in messages] == [text for _, text in invoice_chat(6)[-4:]]
    assert memory.sent_tokens() == 106


def test_positional_budget_and_defaults() -> None:
    memory = ShortTermMemory(110)
    assert memory.keep_last == 4 and memory.summarize is first_sentences
    assert first_sentences([{"role": "user", "content": "One. Two."}]) == "One"
