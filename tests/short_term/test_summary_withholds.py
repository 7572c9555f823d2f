"""The summary of older turns withholds what the write policy refuses, judged whole and across joined turns.

A summary outlives the turns it folds, as a hand-off note and long-term memory do, so it is built from the same
judgement (`short_term.withheld`): a turn refused whole is summarized as a marker, never as sentences that pass
alone, and every turn of a secret split over two or three neighbouring turns is withheld with it. Both summary
modes are covered: the lesson's extractive one and the rolling (model-written) one.
"""

from __future__ import annotations


from hypothesis import given, settings
from hypothesis import strategies as st

from primer_memory import ShortTermMemory, context_reference, first_sentences
from primer_memory.short_term.summarizers import StandInModelSummarizer
from primer_memory.short_term.withheld import WITHHELD

from helpers import card_runs_in, refused_cards

FILLER = [  # short first sentences (what the extractive summary keeps), long tails (what makes the chat overflow)
    ("user", "Alice's fiscal year starts in April. She said so at the kickoff meeting last week, twice."),
    ("assistant", "Noted. I will keep April in mind for every report we prepare together from now on."),
    ("user", "Globex bills on Mondays. Their invoices always arrive early in the morning, before nine."),
    ("assistant", "Thanks. Mondays for Globex it is, and I will watch for the early invoices too.")]


def _summary(turns: list[tuple[str, str]], rolling: bool = False, budget: int = 70, keep_last: int = 1) -> str:
    memory = ShortTermMemory(budget, keep_last, StandInModelSummarizer() if rolling else first_sentences)
    memory.extend([*turns, *FILLER])  # the filler pushes the turns under test out of the recent window
    return memory.context()[0]


def test_a_turn_refused_whole_is_summarized_as_the_marker_not_as_sentences_that_pass() -> None:
    for turn, piece in (("Routing number 021000021. Account number 482316903.", "021000021"),
                        ("Here is my PIN for the debit card. 4827.", "4827")):
        for rolling in (False, True):
            summary = _summary([("user", turn)], rolling)
            assert piece not in summary, (turn, rolling, summary)
    assert WITHHELD in _summary([("user", "Here is my PIN for the debit card. 4827.")])


def test_a_card_number_over_two_turns_reaches_neither_summary() -> None:
    for rolling in (False, True):
        summary = _summary([("user", "51814192"), ("user", "76682798")], rolling)
        assert "51814192" not in summary and "76682798" not in summary, (rolling, summary)


def test_the_rolling_summary_keeps_no_card_or_cvv_after_the_turn_leaves_the_window() -> None:
    memory = ShortTermMemory(80, 1, StandInModelSummarizer())
    memory.add("user", "Pay Globex with card 5181 4192 7668 2798, CVV 713.")
    for role, text in FILLER * 3:  # one fold a turn, each call folding into the summary the last one left
        memory.add(role, text)
        summary = memory.context()[0]
        assert "2798" not in summary and "713" not in summary, summary


def test_a_secret_whose_last_piece_arrives_later_is_withdrawn_from_the_extractive_summary() -> None:
    """The first half folds while it is harmless; once the second half is typed, the window withholds both."""
    memory = ShortTermMemory(50, 1)
    memory.extend([("user", "5181 4192"), ("assistant", "Go on. I am listening, and I will wait for the rest."),
                   ("assistant", "Still here. Take your time with the second half of the number."),
                   ("assistant", "Whenever you are ready. I keep the first half in mind until the second comes.")])
    assert "4192" in memory.context()[0]  # alone, half a number is nothing to refuse
    memory.extend([("user", "7668 2798"), ("assistant", "Got it. Thanks, I have both halves now.")])
    summary = memory.context()[0]  # the user's next turn: the two halves are neighbours among the user's turns
    assert WITHHELD in summary and "4192" not in summary and "2798" not in summary, summary


CARDS = refused_cards()


def _pieces(card: str, grouped: bool, cuts: list[int]) -> list[str]:
    text = " ".join(card[i:i + 4] for i in range(0, 16, 4)) if grouped else card
    points = sorted({c for c in cuts if 0 < c < len(text)})
    return [p for p in (text[a:b] for a, b in zip([0, *points], [*points, len(text)])) if p.strip()]


@given(card=CARDS, grouped=st.booleans(), cuts=st.lists(st.integers(1, 18), min_size=1, max_size=2, unique=True),
       reply=st.booleans(), rolling=st.booleans(), budget=st.integers(20, 160), keep_last=st.integers(1, 4))
@settings(max_examples=60, deadline=None)
def test_a_card_split_at_any_point_over_two_or_three_turns_never_reaches_the_summary(
        card: str, grouped: bool, cuts: list[int], reply: bool, rolling: bool, budget: int, keep_last: int) -> None:
    """Property over Luhn-valid card numbers (Visa and Mastercard prefixes) the policy refuses whole, written plain
    or in groups of four, cut at one or two random points into two or three user turns, with or without an
    assistant reply between them, under any budget and keep_last, in either summary mode: no run of four or more
    of its digits is in the summary once the chat has moved on."""
    pieces = _pieces(card, grouped, cuts)
    turns: list[tuple[str, str]] = []
    for piece in pieces:
        turns.append(("user", piece))
        if reply:
            turns.append(("assistant", "ok"))
    summary = _summary(turns, rolling, budget, keep_last)
    assert card_runs_in([summary], card) == [], (pieces, summary)


TURNS = st.lists(st.one_of(st.sampled_from(FILLER), st.sampled_from([
    ("user", "51814192"), ("user", "76682798"), ("user", "Here is my PIN for the debit card. 4827."),
    ("user", "My PIN is"), ("user", "4827"), ("assistant", "ok"),
    ("user", "Routing number 021000021. Account number 482316903.")])), max_size=14)


@given(chat=TURNS, budget=st.integers(10, 200), keep_last=st.integers(1, 5))
@settings(max_examples=80, deadline=None)
def test_judging_only_the_turns_shown_gives_what_judging_the_whole_chat_gives(
        chat: list[tuple[str, str]], budget: int, keep_last: int) -> None:
    """Property over chats mixing facts, replies, and secrets whole and in pieces: the memory judges lazily only the
    turns its summary would show, called after every turn or once at the end, and still sends exactly what the
    lesson's rule gives when the whole chat is judged first (`context_reference`)."""
    memory = ShortTermMemory(budget, keep_last)
    for role, text in chat:
        memory.add(role, text)
        memory.context()
    once = ShortTermMemory(budget, keep_last)
    once.extend(chat)
    expected = context_reference(once.messages, budget, keep_last)
    assert memory.context() == expected and once.context() == expected


def test_the_turns_beside_a_turn_refused_whole_are_not_withheld_with_it() -> None:
    """Run together, a PIN runs on into the next turn ("4827.Please"): that is still one turn's secret, so the
    reply and the user's next turn, harmless alone and with each other, are kept."""
    from primer_memory.short_term.withheld import held_back

    chat = [{"role": "user", "content": "Here is my PIN for the debit card. 4827."},
            {"role": "assistant", "content": "Please never send a PIN in a chat. I have not kept it."},
            {"role": "user", "content": "Understood. Let us look at the Initech invoices next."}]
    assert list(held_back(chat)) == [0]
