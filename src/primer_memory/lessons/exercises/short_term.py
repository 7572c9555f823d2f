"""Notebook 1's exercises: write a summarizer, and predict what a smaller keep_last does.

Each checker prints feedback and returns True only for a right answer; the
shared `check()` turns stubs and crashes into "not attempted yet" or a hint.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from ..examples import invoice_chat, tool_chat
from ...short_term.memory import Message, ShortTermMemory, first_sentences
from ._core import Exercise, register

__all__ = ["CASES", "LAST_SENTENCES_MESSAGES", "budget_report", "check_last_sentences", "check_keep_last_prediction", "check_safe_start"]

Summarize = Callable[[Sequence[Message]], str]
CASES = [(exchanges, budget, keep) for exchanges in (3, 6, 20) for budget in (60, 110, 300) for keep in (2, 4)]
LAST_SENTENCES_MESSAGES: tuple[tuple[str, str, str], ...] = (
    # (role, content, its last sentence): the first two exchanges, then the shapes a quick answer gets wrong
    ("user", "Question 1 is about invoices. Please include the vendor name and amount.",
     "Please include the vendor name and amount"),
    ("assistant", "Answer 1 lists the invoice. It shows vendor, amount and due date.",
     "It shows vendor, amount and due date"),
    ("user", "Question 2 is about invoices. Please include the vendor name and amount.",
     "Please include the vendor name and amount"),
    ("assistant", "Answer 2 lists the invoice. It shows vendor, amount and due date.",
     "It shows vendor, amount and due date"),
    ("user", "Globex sent a reminder. The invoice is overdue. Please pay it today.", "Please pay it today"),
    ("assistant", "I found the Globex invoice. Should I pay it now?", "Should I pay it now?"),
    ("user", "Yes, pay it.", "Yes, pay it"),
    ("assistant", "Paid it. The total was 12.50 EUR.", "The total was 12.50 EUR"),
    ("user", "...thanks.", "...thanks"),
)
"""What 1.1's checker sends: three sentences, a question (its '?' stays), a single sentence, an amount with a
decimal point, and a reply that opens with dots (only the trailing period goes)."""
SENTENCE_MISTAKES: tuple[tuple[str, Summarize], ...] = (
    ("you split on '.' alone, so '12.50 EUR' is cut at its decimal point. A sentence ends with a period and a space: "
     "split on '. '.", lambda ms: "; ".join(m["content"].rstrip(".").split(".")[-1].strip() for m in ms)),
    ("you stripped periods from both ends (strip('.')), so '...thanks' lost its opening dots. Only the trailing "
     "period goes: rstrip('.').", lambda ms: "; ".join(m["content"].strip(".").split(". ")[-1] for m in ms)),
    ("the trailing period is still there. Strip it before splitting (rstrip('.')), or each last sentence ends "
     "with one.", lambda ms: "; ".join(m["content"].split(". ")[-1] for m in ms)),
    ("you stripped every final mark, so the question lost its '?'. Strip only a period: rstrip('.').",
     lambda ms: "; ".join(m["content"].rstrip(".?!").split(". ")[-1] for m in ms)),
    ("you joined with ', '. The pieces are joined with '; ' (a semicolon and a space).",
     lambda ms: ", ".join(m["content"].rstrip(".").split(". ")[-1] for m in ms)),
    ("you kept the first sentence of each message, not the last: take the piece at [-1].",
     lambda ms: "; ".join(m["content"].rstrip(".").split(". ")[0] for m in ms)),
)
"""What a quick answer to 1.1 gets wrong, and the summary each mistake writes."""
LAST_SENTENCES_EXPECTED = "; ".join(last for _, _, last in LAST_SENTENCES_MESSAGES)


def _folded(summarize: Summarize, exchanges: int, budget: int, keep: int) -> tuple[int, int]:
    """(tokens sent, older messages kept in the summary) for the invoice chat under these settings."""
    memory = ShortTermMemory(budget, keep_last=keep, summarize=summarize)
    memory.extend(invoice_chat(exchanges))
    window = memory.window()
    return window.tokens, window.summarized


def budget_report(summarize: Summarize) -> bool:
    """Run a summarizer on 18 chats and budgets; say whether the budget held and how much history it keeps."""
    over, kept, default_kept = 0, 0, 0
    for exchanges, budget, keep in CASES:
        sent, folded = _folded(summarize, exchanges, budget, keep)
        over += sent > budget
        kept += folded
        default_kept += _folded(first_sentences, exchanges, budget, keep)[1]
    if over:
        print(f"The budget was broken in {over} cases: please report this as a bug in ShortTermMemory.")
        return False
    print(f"The budget held in all {len(CASES)} cases, and it always will: the fold drops old messages")
    print("until the summary fits, whatever the summarizer writes. That is the point of doing it in code.")
    print(f"Older messages your summaries kept, over all cases: {kept} (first_sentences keeps {default_kept}).")
    if kept < default_kept:
        print("Yours keeps fewer: its pieces are longer, so fewer fit in the room left.")
    elif kept > default_kept:
        print("Yours keeps more: shorter pieces, more history. Is each piece still useful?")
    return True


def check_last_sentences(summarize: object) -> bool:
    """Exercise 1.1: the last sentence of each message, trailing period stripped, joined with '; '."""
    if not callable(summarize):
        print(f"Not yet: pass your function itself (no parentheses), not a {type(summarize).__name__}.")
        return False
    messages: list[Message] = [{"role": r, "content": t} for r, t, _ in LAST_SENTENCES_MESSAGES]
    try:
        got = summarize([dict(m) for m in messages])
    except NotImplementedError:
        raise  # a stub: check() says "not attempted yet"
    except Exception as error:  # the learner's function broke: say on what, not only how
        print(f"Not yet: your function raised {type(error).__name__}: {error}")
        print("The checker's messages include one of three sentences, one ending in '?' and one single sentence:")
        for m in messages:
            print(f"   {m['content']!r}")
        return False
    if not isinstance(got, str):
        print(f"Not yet: a summarizer returns one string; yours returned a {type(got).__name__}: {got!r:.80}")
        return False
    if got == LAST_SENTENCES_EXPECTED:
        print("Right: the last sentence of each message, trailing period stripped (a question keeps its '?'), "
              "joined with '; '.")
        return budget_report(summarize)
    for mistake, wrong in SENTENCE_MISTAKES:
        if got == wrong([dict(m) for m in messages]):
            print(f"Not yet: {mistake}")
            return False
    print(f"Not yet. On these {len(messages)} messages we expected:")
    print(f"   {LAST_SENTENCES_EXPECTED}")
    print("and your summarizer returned:")
    print(f"   {got!r:.400}")
    for m, (_, _, last) in zip(messages, LAST_SENTENCES_MESSAGES):
        try:
            alone = summarize([dict(m)])
        except Exception as error:
            alone = f"(raised {type(error).__name__})"
        if alone != last:
            print(f"The first message that differs: {m['content']!r}")
            print(f"   its last sentence is {last!r}; yours gives {alone!r:.120}")
            break
    return False


def last_sentences(messages):  # type: ignore[no-untyped-def]
    """The last sentence of each message, trailing period stripped, joined with "; "."""
    return "; ".join(m["content"].rstrip(".").split(". ")[-1] for m in messages)


def _stub_last_sentences(messages):  # type: ignore[no-untyped-def]
    """The last sentence of each message, trailing period stripped, joined with "; "."""
    ...


KEEP_LAST_ANSWER = 1


def check_keep_last_prediction(gone: object) -> bool:
    """Exercise 1.2: with keep_last=2 (budget 110, six exchanges), how many messages are gone entirely?"""
    if isinstance(gone, bool) or not isinstance(gone, int):
        print(f"Not yet: answer with a whole number of messages, such as 3; got {gone!r:.60}.")
        return False
    memory = ShortTermMemory(110, keep_last=2)
    memory.extend(invoice_chat(6))
    window = memory.window()
    if gone == window.dropped == KEEP_LAST_ANSWER:
        print("Right: only question 1 is gone. Exchange 6 costs 35 tokens, leaving 75 for the summary;")
        print("all ten older first sentences would cost 80, so only the oldest one drops out.")
        print("A smaller keep_last leaves more room, and first sentences are cheaper than whole messages.")
        return True
    direction = "fewer" if gone > window.dropped else "more"
    print(f"Not yet: {gone} is not it; {direction} than that. Work out the room first: budget minus what the last")
    print("two messages cost; then how much the summary of all ten older messages would cost.")
    return False


register(Exercise(
    id="1.1",
    title="your own summarizer: last sentences",
    checker=check_last_sentences,
    hints=(
        "Split each message's content on '. ' and keep the last piece; strip a trailing '.' first (only a "
        "'.': a question keeps its '?'), or the last piece ends with one.",
        "A generator inside '; '.join(...) does it in one line: one piece per message m, from m['content'].",
    ),
    solution=last_sentences,
    stub=_stub_last_sentences,
    notes=("The budget holds whatever the summarizer returns: ShortTermMemory measures the summary and drops "
           "the oldest folded messages until it fits.",),
))

register(Exercise(
    id="1.2",
    title="predict what keep_last=2 does",
    checker=check_keep_last_prediction,
    hints=(
        "The room for the summary is 110 minus the cost of the last two messages (18 + 17).",
        "Each older message adds its first sentence plus '; ' to the summary; the ten first sentences, with the "
        "'Earlier in this conversation: ' prefix, come to 318 characters. How many tokens is that, and how many "
        "characters does dropping question 1 save?",
    ),
    solution=KEEP_LAST_ANSWER,
    stub=None,
    notes=("Check it: ShortTermMemory(110, keep_last=2) with invoice_chat(6), then .window().dropped.",),
))


def safe_start(messages, n):  # type: ignore[no-untyped-def]
    """Where a window of about the last n messages may start: never on a tool result, so move back to its call."""
    start = max(0, len(messages) - n)
    while start > 0 and messages[start]["role"] == "tool":
        start -= 1
    return start


def _stub_safe_start(messages, n):  # type: ignore[no-untyped-def]
    """Where a window of about the last n messages may start: never on a tool result."""
    ...


def check_safe_start(safe: object) -> bool:
    """Exercise 1.3: a trim that keeps about the last n messages and never cuts a tool call from its results.

    It tries every n from 1 to a few more than there are messages: asking for more than the chat holds
    must start at 0, not at a negative index (which Python would read as "count from the end").
    """
    if not callable(safe):
        print(f"Not yet: pass your function itself (no parentheses), not a {type(safe).__name__}.")
        return False
    chat = tool_chat(3)
    roles = [m["role"] for m in chat]
    for n in range(1, len(chat) + 4):
        want = safe_start(chat, n)
        try:
            got = safe([dict(m) for m in chat], n)
        except NotImplementedError:
            raise  # a stub: check() says "not attempted yet"
        except Exception as error:  # the learner's function broke: say for which n
            print(f"Not yet: for n={n} your function raised {type(error).__name__}: {error}")
            if n > len(chat):
                print(f"n={n} asks for more than the {len(chat)} messages there are: the window is all of them.")
            return False
        if isinstance(got, bool) or not isinstance(got, int):
            print(f"Not yet: return an index into the messages (an int); for n={n} yours returned {got!r:.60}.")
            return False
        if got < 0:
            print(f"Not yet: for n={n} (the chat has {len(chat)} messages) yours returned {got}. A negative index is "
                  f"not a start: messages[{got}:] keeps only the last {-got}. Never go below 0.")
            return False
        if got != want:
            opening = roles[got] if got < len(roles) else "nothing"
            print(f"Not yet: for n={n} your window starts at index {got} ({opening}); the roles are {roles}.")
            if got > want and got < len(roles) and roles[got] != "tool" and roles[got - 1] == "tool":
                print("You stepped forward past the results, which drops the call and the results the answer "
                      "was based on. Step back to the call instead.")
            else:
                print(f"It should start at {want}: as late as keeps n messages, moved back past tool results to "
                      "their call.")
            return False
    print("Right: no window opens on a tool result, so no call loses a result and no result loses its call, and a "
          "window asked for more messages than there are starts at 0.")
    print("ShortTermMemory does the same with units: a call and its results are kept or folded together.")
    return True


register(Exercise(
    id="1.3",
    title="trim without breaking the chat API",
    checker=check_safe_start,
    hints=(
        "Start at len(messages) - n, but never below 0 (n may be larger than the chat). If that message is a "
        "tool result, its call is earlier: step back.",
        "Two cases to guard: an n larger than the chat (a negative index counts from the end in Python, so "
        "clamp at 0), and a start that lands on a tool result (walk back one message at a time while the "
        "message there is a tool result, but never past 0).",
    ),
    solution=safe_start,
    stub=_stub_safe_start,
    notes=("Stepping back keeps a few more messages than n, and keeps the call with the results the answer was "
           "based on. Stepping forward past the results would also give a request the API accepts, but it drops "
           "that whole unit, so this exercise (and its checker) asks for stepping back, as ShortTermMemory does.",),
))
