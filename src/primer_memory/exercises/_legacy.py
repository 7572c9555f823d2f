"""Checkers for the notebooks' exercises: they print feedback and never raise.

A learner's attempt may be wrong in any way (it may even crash), so each
checker catches everything and says what it saw, in words.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from ..examples import invoice_chat
from ..short_term import Message, ShortTermMemory, first_sentences

__all__ = ["check_summarizer", "check_last_sentence_summarizer", "check_policy_guesses", "check_path_guard"]

Summarize = Callable[[Sequence[Message]], str]
CASES = [(exchanges, budget, keep) for exchanges in (3, 6, 20) for budget in (60, 110, 300) for keep in (2, 4)]


def _run(summarize: Summarize, exchanges: int, budget: int, keep: int):  # -> ContextWindow
    memory = ShortTermMemory(budget, keep_last=keep, summarize=summarize)
    memory.extend(invoice_chat(exchanges))
    return memory.window()


def check_summarizer(summarize: Summarize) -> None:
    """Run a summarizer on 18 chats and budgets; report the budget and how much history it keeps."""
    try:
        sample = summarize([{"role": "user", "content": "Hello there. How are you?"}])
    except Exception as error:  # a learner's function may fail in any way: report it, don't raise
        print(f"Not yet: calling your summarizer on one message raised {error!r}")
        return
    if not isinstance(sample, str):
        print(f"Not yet: a summarizer must return a string, yours returned {type(sample).__name__}")
        return
    over, kept, default_kept = [], 0, 0
    for exchanges, budget, keep in CASES:
        try:
            window = _run(summarize, exchanges, budget, keep)
        except Exception as error:
            print(f"Not yet: with {exchanges} exchanges and budget {budget} your summarizer raised {error!r}")
            return
        if window.tokens > budget:
            over.append((exchanges, budget, window.tokens))
        kept += window.summarized
        default_kept += _run(first_sentences, exchanges, budget, keep).summarized
    if over:
        print(f"The budget was broken in {len(over)} cases, e.g. {over[0]}: please report this as a bug!")
        return
    print(f"The budget held in all {len(CASES)} cases -- it always will: the fold drops old messages")
    print("until the summary fits, whatever the summarizer writes. That is the point of doing it in code.")
    print(f"Older messages your summaries kept, over all cases: {kept} (first_sentences keeps {default_kept}).")
    if kept < default_kept:
        print("Yours keeps fewer: its pieces are longer, so fewer fit in the room left.")
    elif kept > default_kept:
        print("Yours keeps more: shorter pieces, more history -- but is each piece still useful?")


def check_last_sentence_summarizer(summarize: Summarize) -> None:
    """The exercise: keep only the last sentence of each message, joined with '; '."""
    messages: list[Message] = [{"role": r, "content": t} for r, t in invoice_chat(2)]
    expected = ("Please include the vendor name and amount; It shows vendor, amount and due date; "
                "Please include the vendor name and amount; It shows vendor, amount and due date")
    try:
        got = summarize(messages)
    except Exception as error:
        print(f"Not yet: your summarizer raised {error!r}")
        return
    if got == expected:
        print("Right: the last sentence of each message, trailing period stripped, joined with '; '.")
        check_summarizer(summarize)
        return
    print("Not yet. For the first two exchanges we expected:")
    print("  ", expected)
    print("and your summarizer returned:")
    print("  ", got)


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
