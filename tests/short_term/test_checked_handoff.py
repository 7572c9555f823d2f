"""Hand-off and summaries from checked text only: the note passes the policy whole, a summary keeps its budget."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from primer_memory import ShortTermMemory, estimate_tokens
from primer_memory.policy.rules import review
from primer_memory.short_term.summarizers import RollingSummarizer


def test_the_last_line_of_a_handoff_never_quotes_a_refused_secret() -> None:
    memory = ShortTermMemory(200)
    memory.add("user", "Our fiscal year starts in April.")
    memory.add("user", "My PIN is 4821. What should we do next?")
    assert review("My PIN is 4821").verdict == "refuse"
    handoff = memory.handoff()
    # the turn is refused whole, so no sentence of it is quoted, not even the harmless question (issue 41)
    assert "4821" not in handoff.note and "What should we do next" not in handoff.note
    assert handoff.note == "Hand-off note: Our fiscal year starts in April"


def test_a_password_split_over_two_turns_is_judged_whole_and_never_promoted() -> None:
    from primer_memory import LongTermMemory, Scope

    memory = ShortTermMemory(200)
    memory.add("user", "Our fiscal year starts in April.")
    memory.add("user", "My VPN password starts with Tr0ub.")
    memory.add("user", "The rest of it is 4dor&3xq.")
    assert review("My VPN password starts with Tr0ub.").stored and review("The rest of it is 4dor&3xq.").stored
    long_term, alice = LongTermMemory(), Scope("acme", "alice")
    handoff = memory.handoff(long_term, alice)
    assert handoff.facts == ["Our fiscal year starts in April"]
    assert "Tr0ub" not in handoff.note and "4dor" not in handoff.note
    assert not any("Tr0ub" in r["content"] or "4dor" in r["content"] for r in long_term.export(alice))
    assert len(handoff.refused) == 2


chats = st.lists(st.tuples(st.sampled_from(["user", "assistant"]), st.sampled_from([
    "Our fiscal year starts in April.", "My VPN password is hunter2.", "My PIN is 4821.", "What next?",
    "My VPN password starts with Tr0ub.", "The rest of it is 4dor&3xq.", "card 4111 1111", "1111 1111",
    "Thanks!", "Alice approves payments above 5,000 EUR.", "The code is", "5978 for the lockbox.",
])), max_size=8)


@settings(max_examples=60, deadline=None)
@given(chats)
def test_a_handoff_note_always_passes_the_policy(chat: list[tuple[str, str]]) -> None:
    """Chats mixing facts, whole secrets and secrets split across turns: the note as written is never refused."""
    memory = ShortTermMemory(300)
    memory.extend(chat)
    note = memory.handoff().note
    assert review(note).verdict != "refuse"


class Greedy(RollingSummarizer):
    """A model that ignores max_tokens: it keeps everything and pads."""

    def __init__(self) -> None:
        super().__init__()
        self.fed_back: list[str] = []  # the kept summary given back with newly folded messages

    def fold(self, summary: str, new: list, max_tokens: int) -> str:
        if new:
            self.fed_back.append(summary)
        return (summary + " " + " ".join(m["content"] for m in new) + " padding" * 20).strip()


def test_a_summary_is_cut_to_its_budget_before_it_is_kept_and_nothing_new_calls_nothing() -> None:
    greedy = Greedy()
    memory = ShortTermMemory(40, keep_last=2, summarize=greedy)
    for i in range(12):
        memory.add("user" if i % 2 == 0 else "assistant", f"Message {i} is here.")
    memory.context()
    calls, read = greedy.calls, greedy.input_tokens
    for _ in range(3):
        memory.context()
    assert (greedy.calls, greedy.input_tokens) == (calls, read)  # nothing new: no call, no bill
    assert memory.sent_tokens() <= 40
    memory.add("user", "Message 12 is here.")
    memory.add("assistant", "Message 13 is here.")
    memory.context()
    assert len(greedy.fed_back) >= 2 and all(estimate_tokens(s) <= 40 for s in greedy.fed_back)  # kept cut to fit


def test_sent_tokens_counts_what_is_sent_with_a_per_message_overhead() -> None:
    def overhead(text: str) -> int:
        return -(-len(text) // 4) + 4

    memory = ShortTermMemory(5, keep_last=1, count_tokens=overhead)
    memory.add("user", "a")
    summary, messages = memory.context()
    assert summary == "" and memory.sent_tokens() == sum(overhead(m["content"]) for m in messages) == 5
