"""Short-term memory against hostile helpers and text: a misbehaving token counter or summarizer, a bad hand-off
size, lone surrogates. Each is refused with a named error, and the memory stays exactly as it was."""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from primer_memory import InvalidBudget, InvalidMessage, PerMessageSummarizer, ShortTermMemory, tool_call
from primer_memory.lessons.examples import invoice_chat
from primer_memory.short_term.memory import InvalidSummary, InvalidTokenCount
from primer_memory.short_term.summarizers import RollingSummarizer
from primer_memory.short_term.tokens import estimate_tokens

# What a counter may wrongly give back (or raise): none of these is a whole number of tokens, 0 or more.
BAD_COUNTS: list[Any] = [None, "7", -1, -10_000, 2.5, float("nan"), float("inf"), True, False, [], b"1", 3 + 0j,
                         ZeroDivisionError("boom"), KeyError("boom"), RecursionError("deep")]


def _counter(bad: Any, trigger: str = "BOOM") -> Any:
    """chars / 4, except for texts holding `trigger`, where it gives `bad` (or raises it)."""

    def count(text: str) -> Any:
        if trigger not in text:
            return estimate_tokens(text)
        if isinstance(bad, BaseException):
            raise bad
        return bad

    return count


def _worked(**kw: Any) -> ShortTermMemory:
    memory = ShortTermMemory(110, 4, **kw)
    memory.extend(invoice_chat(6))
    return memory


def _state(memory: ShortTermMemory) -> tuple[Any, ...]:
    window = memory.window()
    return (memory.messages, memory.context(), memory.tokens(), memory.sent_tokens(), len(memory), memory.system,
            memory.handoff_note, (window.summarized, window.dropped, window.truncated, window.held_back))


def _sendable(memory: ShortTermMemory) -> None:
    """What context() returns can be put in a JSON request body (UTF-8), and stays within the budget."""
    summary, messages = memory.context()
    json.dumps({"system": summary, "messages": messages}, ensure_ascii=False).encode("utf-8")
    assert memory.sent_tokens() <= memory.budget_tokens


# --------------------------------------------------------------------------- token counters


@given(bad=st.sampled_from(BAD_COUNTS), how=st.sampled_from(["add", "extend", "add_message", "tool_call"]))
def test_a_misbehaving_counter_is_refused_by_name_and_changes_nothing(bad: Any, how: str) -> None:
    memory = _worked(count_tokens=_counter(bad))
    before = _state(memory)
    with pytest.raises(InvalidTokenCount, match="count_tokens"):
        if how == "add":
            memory.add("user", "BOOM is here" + "x" * 4000)
        elif how == "extend":  # the bad turn comes last: the good ones before it must not be added either
            memory.extend([("user", "fine"), ("assistant", "also fine"), ("user", "BOOM")])
        elif how == "add_message":
            memory.add_message({"role": "user", "content": "BOOM"})
        else:
            memory.add("assistant", "", tool_calls=[tool_call("c1", "lookup", {"q": "BOOM"})])
    assert _state(memory) == before
    memory.add("user", "Question 7 is about invoices. Please include the vendor name and amount.")
    _sendable(memory)
    assert len(memory) == 13


def test_invalid_token_count_is_an_invalid_budget_and_names_the_counter_value() -> None:
    assert issubclass(InvalidTokenCount, InvalidBudget) and issubclass(InvalidTokenCount, TypeError)
    memory = ShortTermMemory(110, count_tokens=_counter(-10_000))
    with pytest.raises(InvalidTokenCount, match="-10000"):
        memory.add("user", "BOOM")
    with pytest.raises(InvalidTokenCount, match="ZeroDivisionError") as caught:
        ShortTermMemory(110, count_tokens=_counter(ZeroDivisionError("x"))).add("user", "BOOM")
    assert isinstance(caught.value.__cause__, ZeroDivisionError)  # the counter's own error stays visible


def test_a_counter_that_fails_on_the_summary_is_refused_in_context() -> None:
    """The counter also measures the summary; a negative count there would let a huge summary through."""
    memory = _worked(count_tokens=_counter(-50, trigger="Earlier in this conversation"))
    before = memory.messages
    with pytest.raises(InvalidTokenCount):
        memory.context()
    assert memory.messages == before


def test_whole_numbers_of_other_integer_types_are_counts() -> None:
    class Count(int):
        pass

    memory = ShortTermMemory(110, count_tokens=lambda text: Count(len(text)))
    memory.add("user", "hello")
    assert memory.tokens() == 5 and type(memory.tokens()) is int


def test_the_given_counter_is_kept_as_given() -> None:
    def count(text: str) -> int:
        return len(text)

    memory = ShortTermMemory(110, count_tokens=count)
    assert memory.count_tokens is count and memory.copy().count_tokens is count
    assert ShortTermMemory(110).count_tokens is estimate_tokens


@given(counts=st.lists(st.integers(0, 60), min_size=1, max_size=40), budget=st.integers(1, 200))
def test_any_honest_counter_keeps_the_budget(counts: list[int], budget: int) -> None:
    """Whatever whole numbers >= 0 a counter gives, what is sent is within the budget by that counter."""
    table: dict[str, int] = {}

    def count(text: str) -> int:
        return table.setdefault(text, counts[len(table) % len(counts)]) if text else 0

    memory = ShortTermMemory(budget, 3, count_tokens=count)
    memory.extend(invoice_chat(8))
    assert memory.sent_tokens() <= budget


# --------------------------------------------------------------------------- summarizers


@pytest.mark.parametrize("bad", [None, 42, b"bytes", ["a list"], "half \ud800 char"])
def test_a_summarizer_that_returns_no_text_is_refused_by_name(bad: Any) -> None:
    memory = _worked(summarize=lambda messages: bad)
    before = memory.messages
    with pytest.raises(InvalidSummary, match="summar"):
        memory.context()
    assert memory.messages == before
    with pytest.raises(InvalidSummary):
        memory.sent_tokens()


@pytest.mark.parametrize("bad", [None, 42, "half \udcff char"])
def test_a_per_message_summarizer_with_a_bad_piece_is_refused_and_caches_nothing(bad: Any) -> None:
    def piece(message: dict) -> Any:
        return bad if message["content"].startswith("Answer 2") else message["content"][:10]

    memory = _worked(summarize=PerMessageSummarizer(piece))
    with pytest.raises(InvalidSummary, match="piece"):
        memory.context()
    assert len(memory._pieces) == 3  # the pieces before the bad one, all text
    with pytest.raises(InvalidSummary):  # the bad piece was not cached as if it were text
        memory.context()


class _Broken(RollingSummarizer):
    def __init__(self, out: Any) -> None:
        super().__init__()
        self.out = out

    def fold(self, summary: str, new: list, max_tokens: int) -> Any:
        return self.out


@pytest.mark.parametrize("bad", [None, 7, "half \ud800"])
def test_a_rolling_summarizer_that_returns_no_text_is_refused_and_keeps_its_place(bad: Any) -> None:
    memory = _worked(summarize=_Broken(bad))
    before = memory.messages
    with pytest.raises(InvalidSummary):
        memory.context()
    assert memory.messages == before
    assert memory._rolled_upto == 0 and memory._rolling == ""  # nothing counted as folded
    memory.summarize.out = "Questions 1 to 4 about invoices"
    summary, _ = memory.context()
    assert summary == "Earlier in this conversation: Questions 1 to 4 about invoices"


# --------------------------------------------------------------------------- hand-off


@pytest.mark.parametrize("bad", ["ten", 2.5, True, -5, 0, [10], 111])
def test_handoff_refuses_a_note_size_that_cannot_work(bad: Any) -> None:
    memory = _worked()
    memory.add("user", "Our fiscal year starts in April.")
    before = _state(memory)
    with pytest.raises(InvalidBudget, match="max_note_tokens"):
        memory.handoff(max_note_tokens=bad)
    assert _state(memory) == before


def test_handoff_note_within_the_budget_keeps_the_budget() -> None:
    memory = ShortTermMemory(40, 2)
    memory.extend([("user", f"Our vendor number {i} is Globex branch {i} in Lyon.") for i in range(12)])
    memory.handoff(max_note_tokens=40)
    memory.add("user", "Where were we? " * 3)
    _sendable(memory)


@settings(max_examples=300)
@given(budget=st.integers(8, 200), keep=st.integers(1, 5), before=st.integers(0, 10), after=st.integers(0, 12),
       extra=st.text(alphabet="ab. ", max_size=30), smaller=st.integers(1, 200))
def test_after_a_handoff_the_budget_still_holds(budget: int, keep: int, before: int, after: int, extra: str,
                                                smaller: int) -> None:
    """The note and the summary are joined by a line break, which can cost a token more than the two apart."""
    memory = ShortTermMemory(budget, keep)
    memory.extend([("user", f"Our vendor {i} is Globex{extra}. ok") for i in range(before)])
    memory.handoff()
    memory.extend(invoice_chat(after))
    memory.add("user", extra)
    _sendable(memory)
    _sendable(memory.copy(budget_tokens=smaller))  # a what-if under a smaller budget cuts the note to fit


# --------------------------------------------------------------------------- text that cannot be sent


SURROGATE_TURNS: list[Any] = [
    ("add", ("user", "half a character: \ud800")),
    ("add", ("assistant", "\udfff")),
    ("add", ("system", "You are \ud83d helpful")),
    ("add_message", {"role": "user", "content": "x\udcffy"}),
    ("add_message", {"role": "system", "content": "\ud800"}),
    ("add_message", {"role": "assistant", "content": "", "tool_calls": [tool_call("c\ud800", "f", {})]}),
    ("add_message", {"role": "assistant", "content": "", "tool_calls": [tool_call("c1", "f\ud800", {})]}),
    ("add_message", {"role": "assistant", "content": "",
                     "tool_calls": [{"id": "c1", "function": {"name": "f", "arguments": "{\"q\": \"\ud800\"}"}}]}),
    ("extend", [("user", "fine"), ("assistant", "ok"), ("user", "late \ud800")]),
    ("extend", [("system", "\ud800"), ("user", "fine")]),
]


@pytest.mark.parametrize("how, turn", SURROGATE_TURNS)
def test_lone_surrogates_are_refused_before_anything_is_added(how: str, turn: Any) -> None:
    memory = _worked(system="You are a careful bookkeeper.")
    before = _state(memory)
    with pytest.raises(InvalidMessage, match="surrogate"):
        if how == "add":
            memory.add(*turn)
        else:
            getattr(memory, how)(turn)
    assert _state(memory) == before


def test_a_tool_result_id_with_a_surrogate_is_refused() -> None:
    memory = ShortTermMemory(200)
    memory.add("assistant", "", tool_calls=[tool_call("c1", "f", {})])
    with pytest.raises(InvalidMessage, match="surrogate"):
        memory.add("tool", "42", tool_call_id="c1\ud800")
    memory.add("tool", "42", tool_call_id="c1")
    assert len(memory) == 2


def test_a_system_prompt_with_a_surrogate_is_refused() -> None:
    with pytest.raises(InvalidMessage, match="surrogate"):
        ShortTermMemory(110, system="\ud800")


_any_text = st.text(alphabet=st.characters(min_codepoint=0, max_codepoint=0xE000), max_size=30)


@given(texts=st.lists(_any_text, min_size=1, max_size=6))
def test_whatever_text_is_added_context_can_be_encoded(texts: list[str]) -> None:
    """Each add either succeeds, and what is sent encodes as UTF-8, or is refused with nothing changed."""
    memory = ShortTermMemory(40, 2)
    for i, piece in enumerate(texts):
        before = _state(memory)
        try:
            memory.add("user" if i % 2 == 0 else "assistant", piece)
        except InvalidMessage:
            assert _state(memory) == before
            with pytest.raises(UnicodeEncodeError):
                piece.encode("utf-8")
        _sendable(memory)
