"""Token counters: the lesson's characters / 4, a real BPE tokenizer, and the budget under any counter."""

from __future__ import annotations

import subprocess
import sys

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from primer_memory import ShortTermMemory, StandInModelSummarizer, bpe_tokens, estimate_tokens, first_sentences
from primer_memory.lessons.examples import invoice_chat
from primer_memory.short_term.folding import SUMMARY_PREFIX
from primer_memory.short_term.tokens import TOKEN_SAMPLES, token_table
from helpers import assert_accepted_by_a_chat_api
from test_chat_memory import conversations


def test_bpe_counts_known_cl100k_values() -> None:
    assert bpe_tokens("") == 0 and bpe_tokens("hello world") == 2
    assert bpe_tokens("Question 1 is about invoices. Please include the vendor name and amount.") == 15


def test_the_bpe_counter_is_not_additive() -> None:
    """Why a fold must measure the summary itself: the count of a join is not the sum of its pieces."""
    pieces = ["Question 3 is about invoices", "Answer 3 lists the invoice"]
    assert bpe_tokens("; ".join(pieces)) != sum(map(bpe_tokens, pieces)) + bpe_tokens("; ")


def test_token_table_rows() -> None:
    rows = {r.kind: r for r in token_table()}
    assert set(rows) == set(TOKEN_SAMPLES)
    assert rows["English prose"].estimate == 18 and rows["English prose"].bpe == 15
    assert rows["Chinese (CJK)"].bpe > 2 * rows["Chinese (CJK)"].estimate  # characters / 4 undercounts CJK
    assert all(r.characters == len(r.text) for r in rows.values())


def test_the_tokenizer_is_imported_lazily() -> None:
    code = "import sys, primer_memory; print('tiktoken' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"


def test_default_counter_keeps_the_lesson_numbers() -> None:
    memory = ShortTermMemory(110, keep_last=4, count_tokens=estimate_tokens)
    memory.extend(invoice_chat(6))
    assert (memory.tokens(), memory.sent_tokens()) == (210, 106)


def test_a_bpe_budget_is_measured_in_bpe_tokens() -> None:
    memory = ShortTermMemory(110, keep_last=4, count_tokens=bpe_tokens)
    memory.extend(invoice_chat(6))
    summary, sent = memory.context()
    assert memory.tokens() == sum(bpe_tokens(t) for _, t in invoice_chat(6))
    assert bpe_tokens(summary) + sum(bpe_tokens(m["content"]) for m in sent) == memory.sent_tokens() <= 110
    assert summary.startswith(SUMMARY_PREFIX)


@given(conversations(), st.integers(1, 300), st.integers(1, 8), st.sampled_from(["first", "plain", "stand-in"]),
       st.sampled_from([None, "user"]))
@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
def test_budget_holds_with_a_real_bpe_counter(conv, budget, keep, name, start_on) -> None:  # type: ignore[no-untyped-def]
    complete, pending = conv
    summarize = {"first": first_sentences, "plain": lambda ms: first_sentences(ms),
                 "stand-in": StandInModelSummarizer(count=bpe_tokens)}[name]
    memory = ShortTermMemory(budget, keep_last=keep, summarize=summarize, count_tokens=bpe_tokens, start_on=start_on)
    memory.extend(complete + pending)
    window = memory.window()
    assert window.tokens <= budget
    assert_accepted_by_a_chat_api(window.messages, start_on)


def non_additive(text: str) -> int:
    """A made-up counter that charges extra for every '; ' (a join costs more than its pieces)."""
    return estimate_tokens(text) + 3 * text.count("; ") + (1 if len(text) % 7 == 3 else 0)


@given(conversations(), st.integers(1, 300), st.integers(1, 8))
@settings(max_examples=60, deadline=None)
def test_budget_holds_with_a_non_additive_non_monotone_counter(conv, budget, keep) -> None:  # type: ignore[no-untyped-def]
    complete, _ = conv
    memory = ShortTermMemory(budget, keep_last=keep, count_tokens=non_additive)
    memory.extend(complete)
    assert memory.window().tokens <= budget
