"""Short-term memory for an agent loop: tool calls and results, a system message apart, start_on, hand-off.

The chat-API invariants are checked as properties over generated conversations:
a request the memory builds must be one a chat API accepts, and within budget.
"""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from primer_memory import (
    InvalidMessage,
    LongTermMemory,
    Scope,
    ShortTermMemory,
    StandInModelSummarizer,
    first_sentences,
    tool_call,
)
from primer_memory.short_term.chat import message_tokens
from primer_memory.short_term.tokens import estimate_tokens
from primer_memory.lessons.examples import invoice_chat, tool_chat, tool_turn
from primer_memory.short_term.folding import TRUNCATION_MARKER

from helpers import assert_accepted_by_a_chat_api

text = st.text(alphabet=st.characters(codec="utf-8", exclude_categories=("Cs",)), max_size=200)


@st.composite
def units(draw: st.DrawFn, index: int) -> list[dict]:
    kind = draw(st.sampled_from(["user", "assistant", "tools"]))
    if kind != "tools":
        return [{"role": kind, "content": draw(text)}]
    n = draw(st.integers(1, 3))
    ids = [f"c{index}_{k}" for k in range(n)]
    call = {"role": "assistant", "content": draw(st.sampled_from(["", "Let me check."])),
            "tool_calls": [tool_call(i, draw(st.sampled_from(["get_invoice", "f"])), {"q": draw(text)[:20]})
                           for i in ids]}
    order = draw(st.permutations(ids))
    return [call] + [{"role": "tool", "tool_call_id": i, "content": draw(text)} for i in order]


@st.composite
def conversations(draw: st.DrawFn) -> tuple[list[dict], list[dict]]:
    """Complete units, then maybe a tool call still waiting for some of its results."""
    count = draw(st.integers(0, 14))
    messages = [m for i in range(count) for m in draw(units(i))]
    pending: list[dict] = []
    if draw(st.booleans()):
        unit = draw(units(99).filter(lambda u: len(u) > 1))
        pending = unit[: draw(st.integers(1, len(unit) - 1))]
    return messages, pending


summarizers = st.sampled_from(["first_sentences", "plain", "stand-in"])


def make(budget: int, keep: int, name: str, start_on: str | None) -> ShortTermMemory:
    summarize = {"first_sentences": first_sentences, "plain": lambda ms: first_sentences(ms),
                 "stand-in": StandInModelSummarizer()}[name]
    return ShortTermMemory(budget, keep_last=keep, summarize=summarize, start_on=start_on)


@given(conversations(), st.integers(1, 400), st.integers(1, 10), summarizers, st.sampled_from([None, "user"]))
@settings(max_examples=150, suppress_health_check=[HealthCheck.too_slow])
def test_every_window_is_a_valid_request_within_budget(conv, budget, keep, name, start_on) -> None:  # type: ignore[no-untyped-def]
    complete, pending = conv
    memory = make(budget, keep, name, start_on)
    memory.extend(complete + pending)
    window = memory.window()
    sent = window.messages
    assert window.tokens <= budget
    assert_accepted_by_a_chat_api(sent, start_on)
    assert window.held_back == len(pending)
    history = memory.messages[: len(complete)]
    assert window.summarized + window.dropped + len(sent) == len(history)
    tail = history[len(history) - len(sent):] if sent else []
    if window.truncated:  # the newest unit, cut but whole: same messages, same ids, shorter texts
        assert [(m["role"], m.get("tool_call_id"), m.get("tool_calls")) for m in sent] == \
               [(m["role"], m.get("tool_call_id"), m.get("tool_calls")) for m in tail]
        for got, full in zip(sent, tail):
            cut = got["content"]
            assert cut == full["content"] or cut.endswith(TRUNCATION_MARKER) or TRUNCATION_MARKER.strip().startswith(cut)
    else:
        assert sent == tail  # a suffix of the history, starting on a unit boundary
        if sent:
            assert sent[0]["role"] != "tool"


@given(conversations(), st.integers(1, 300), st.integers(1, 8))
@settings(max_examples=60)
def test_incremental_windows_match_a_fresh_memory(conv, budget, keep) -> None:  # type: ignore[no-untyped-def]
    complete, _ = conv
    memory = ShortTermMemory(budget, keep_last=keep)
    for m in complete:
        memory.add_message(m)
        memory.context()
    fresh = ShortTermMemory(budget, keep_last=keep)
    fresh.extend(complete)
    assert memory.context() == fresh.context()


def test_plain_chats_are_unchanged_by_start_on_when_they_start_with_the_user() -> None:
    plain = ShortTermMemory(110, keep_last=4)
    strict = ShortTermMemory(110, keep_last=4, start_on="user")
    plain.extend(invoice_chat(6))
    strict.extend(invoice_chat(6))
    assert plain.context() == strict.context() and plain.sent_tokens() == 106


def test_a_naive_trim_of_the_agent_chat_breaks_the_api_rule_and_the_memory_does_not() -> None:
    chat = tool_chat(3)
    naive = chat[-3:]  # "keep the last three messages"
    assert naive[0]["role"] == "tool"  # a result whose call was cut away: a chat API rejects this
    memory = ShortTermMemory(200, keep_last=3)
    memory.extend(chat)
    sent = memory.context()[1]  # the unit holding the third-last message is kept whole
    assert_accepted_by_a_chat_api(sent, None)
    assert sent[0]["role"] == "assistant" and "tool_calls" in sent[0] and len(sent) == 4


def test_system_message_is_kept_apart() -> None:
    memory = ShortTermMemory(110, system="You are terse.")
    memory.add("system", "You are a helpful accounts-payable assistant.")
    memory.extend(invoice_chat(6))
    assert memory.system == "You are a helpful accounts-payable assistant."
    assert all(m["role"] != "system" for m in memory.messages) and memory.tokens() == 210


@pytest.mark.parametrize(("messages", "words"), [
    ([{"role": "tool", "tool_call_id": "x", "content": "42"}], "must follow the assistant turn"),
    ([{"role": "assistant", "content": "", "tool_calls": [tool_call("a", "f", {})]},
      {"role": "user", "content": "hi"}], "have no result yet"),
    ([{"role": "assistant", "content": "", "tool_calls": [tool_call("a", "f", {})]},
      {"role": "tool", "tool_call_id": "b", "content": "?"}], "results expected now"),
    ([{"role": "user", "content": "hi", "tool_calls": [tool_call("a", "f", {})]}], "only an assistant"),
    ([{"role": "assistant", "content": "", "tool_calls": [{"id": "a"}]}], "each tool call needs"),
    ([{"role": "assistant", "content": "", "tool_calls": [tool_call("a", "f", {}), tool_call("a", "g", {})]}],
     "share the id"),
    ([{"role": "user", "content": "hi", "extra": 1}], "unknown message fields"),
])
def test_bad_tool_sequences_are_refused_and_nothing_changes(messages: list[dict], words: str) -> None:
    memory = ShortTermMemory(200)
    memory.extend(tool_chat(1))
    before = (memory.messages, memory.context())
    with pytest.raises(InvalidMessage, match=words):
        memory.extend(messages)
    assert (memory.messages, memory.context()) == before


def test_a_tool_call_waiting_for_results_is_held_back_until_they_arrive() -> None:
    memory = ShortTermMemory(500)
    turn = tool_turn(1)
    memory.extend(turn[:3])  # the call and one of its two results
    window = memory.window()
    assert window.held_back == 2 and [m["role"] for m in window.messages] == ["user"]
    memory.add_message(turn[3])
    assert memory.window().held_back == 0 and len(memory.context()[1]) == 4


def test_an_oversized_tool_unit_is_cut_with_markers_never_split() -> None:
    memory = ShortTermMemory(60, keep_last=4)
    memory.add("user", "Fetch the ledger.")
    memory.add("assistant", "", tool_calls=[tool_call("c1", "get_ledger", {}), tool_call("c2", "get_notes", {})])
    memory.add("tool", "L" * 2000, tool_call_id="c1")
    memory.add("tool", "short", tool_call_id="c2")
    window = memory.window()
    assert window.truncated and window.tokens <= 60
    assert [m["role"] for m in window.messages] == ["assistant", "tool", "tool"]
    assert window.messages[1]["content"].endswith(TRUNCATION_MARKER) and window.messages[2]["content"] == "short"


def test_a_tool_unit_whose_call_alone_breaks_the_budget_is_summarized_not_sent() -> None:
    memory = ShortTermMemory(10, keep_last=4)
    memory.add("assistant", "", tool_calls=[tool_call("c1", "a_very_long_tool_name_indeed", {"x": "y" * 80})])
    memory.add("tool", "ok", tool_call_id="c1")
    window = memory.window()
    assert window.messages == [] and window.tokens <= 10


# --------------------------------------------------------------------------- the rolling summary


def test_rolling_summarizer_is_called_at_most_once_per_fold() -> None:
    summarizer = StandInModelSummarizer()
    memory = ShortTermMemory(600, keep_last=6, summarize=summarizer, start_on="user")
    calls = []
    for i in range(1, 41):
        before = summarizer.calls
        memory.extend(tool_turn(i))
        window = memory.window()
        calls.append(summarizer.calls - before)
        assert window.tokens <= 600
    assert max(calls) == 1 and sum(calls) < 40
    folded = memory.window().summarized
    assert folded > 5 * summarizer.calls  # many messages per call, never one call per dropped message
    assert memory.window().summary and summarizer.calls == sum(calls)  # asking again costs nothing


class Greedy(StandInModelSummarizer):
    """A summarizer that ignores max_tokens: the memory must re-summarize, then cut visibly."""

    def fold(self, summary, new, max_tokens):  # type: ignore[no-untyped-def]
        return "; ".join(x for x in [summary, *(m["content"] for m in new)] if x)


def test_a_summary_that_outgrows_its_room_is_resummarized_then_cut_with_a_marker() -> None:
    summarizer = Greedy()
    memory = ShortTermMemory(120, keep_last=2, summarize=summarizer)
    memory.extend(invoice_chat(10))
    window = memory.window()
    assert summarizer.calls == 2 and window.tokens <= 120
    assert window.summary.endswith(TRUNCATION_MARKER)


def test_the_stand_in_keeps_more_facts_than_first_sentences_and_pays_for_it() -> None:
    from primer_memory.lessons.examples import TOOL_CHAT_FACTS

    def known(memory: ShortTermMemory) -> int:
        summary, sent = memory.context()
        parts = summary.split("; ") + [m["content"] for m in sent]
        return sum(any(i in p and a in p for p in parts) for i, a in TOOL_CHAT_FACTS(40))

    extractive = ShortTermMemory(600, keep_last=6, start_on="user")
    stand_in = StandInModelSummarizer()
    rolling = ShortTermMemory(600, keep_last=6, summarize=stand_in, start_on="user")
    for i in range(1, 41):
        for memory in (extractive, rolling):
            memory.extend(tool_turn(i))
            memory.context()
    assert known(rolling) > known(extractive) and stand_in.bill.calls > 0 and stand_in.bill.tokens > 0


# --------------------------------------------------------------------------- the hand-off


def test_handoff_writes_a_note_starts_fresh_and_promotes_through_the_policy() -> None:
    memory = ShortTermMemory(600, keep_last=6)
    memory.extend(tool_chat(12))
    long_term, alice = LongTermMemory(), Scope("acme", "alice")
    handoff = memory.handoff(long_term, alice)
    assert handoff.facts == ["Our fiscal year starts in April", "Always pay Globex invoices in euros",
                             "Alice approves payments above 5,000 EUR"]
    # the turn is refused whole (issue 41): its question is not kept as a sentence that passes alone
    assert [s for s, _ in handoff.refused] == ["My VPN password is hunter2, by the way. Has invoice INV-1007 been paid?"]
    assert "hunter2" not in handoff.note and "Thanks" not in handoff.note
    assert len(memory) == 0 and memory.context() == (handoff.note, [])
    assert memory.count_tokens(handoff.note) <= 600 // 4
    assert all(r.stored for r in handoff.promoted)
    contents = [r["content"] for r in long_term.export(alice)]
    assert "Our fiscal year starts in April" in contents and not any("hunter2" in c for c in contents)
    memory.extend(tool_turn(13))
    summary, sent = memory.context()
    assert summary.startswith(handoff.note) and memory.sent_tokens() <= 600
    again = memory.handoff()
    assert again.facts[:3] == handoff.facts  # earlier facts carry over


@given(conversations(), st.integers(1, 300), st.integers(1, 8), st.integers(1, 300), st.integers(1, 8))
@settings(max_examples=40)
def test_copy_under_other_settings_equals_a_fresh_memory(conv, b1, k1, b2, k2) -> None:  # type: ignore[no-untyped-def]
    complete, pending = conv
    memory = ShortTermMemory(b1, keep_last=k1)
    memory.extend(complete + pending)
    memory.context()
    fresh = ShortTermMemory(b2, keep_last=k2)
    fresh.extend(complete + pending)
    copy = memory.copy(b2, k2)
    assert copy.window() == fresh.window() and copy.messages == memory.messages
    copy.add("user", "only in the copy") if not pending else None
    assert len(memory) == len(complete) + len(pending)


def test_add_with_tool_keywords_and_prompt_counts_the_calls() -> None:
    from primer_memory import build_prompt, prompt_tokens

    memory = ShortTermMemory(500)
    memory.add("user", "Has invoice INV-1001 been paid?")
    memory.add("assistant", "", tool_calls=[tool_call("c1", "get_payment", {"invoice": "INV-1001"})])
    memory.add("tool", '{"paid_on": "2026-09-02"}', tool_call_id="c1")
    summary, sent = memory.context()
    assert [m["role"] for m in sent] == ["user", "assistant", "tool"] and sent[2]["tool_call_id"] == "c1"
    prompt = build_prompt("You reconcile invoices.", summary, sent)
    assert prompt_tokens(prompt) > sum(len(m["content"]) // 4 for m in prompt)  # the call's name and arguments too
    # the memory counts each turn as the prompt sends it (the tool result quoted as data): its count is the prompt's
    assert prompt_tokens(prompt) == estimate_tokens(prompt[0]["content"]) + sum(message_tokens(m) for m in sent)
    assert memory.sent_tokens() == sum(message_tokens(m) for m in sent)
