"""The hand-off judges whole turns and joined windows of neighbouring turns (issue 41, step 1).

A turn the policy refuses whole is never split into sentences that pass alone, and a secret typed in two or three
pieces, one a turn, is read across the pieces (joined as lines, as one line, and run together, over the whole chat
and over the user's turns alone), so no piece reaches the note or long-term memory.
"""

from __future__ import annotations


from hypothesis import example, given, settings
from hypothesis import strategies as st

from primer_memory import LongTermMemory, Scope
from primer_memory.short_term.handoff import held_back, write_handoff
from primer_memory.short_term.tokens import estimate_tokens

from helpers import card_runs_in, refused_cards

ALICE = Scope("acme", "alice")
FACT = "Alice's fiscal year starts in April."


def _user(*texts: str) -> list[dict[str, str]]:
    return [{"role": "user", "content": t} for t in texts]


def _handoff(chat: list[dict[str, str]]) -> tuple[str, list[str]]:
    memory = LongTermMemory()
    handoff = write_handoff(chat, "", 120, estimate_tokens, long_term=memory, scope=ALICE)
    return handoff.note, [r["content"] for r in memory.export(ALICE)]


def test_a_turn_refused_whole_gives_no_sentence_that_passes_alone() -> None:
    for turn, piece in (("Routing number 021000021. Account number 482316903.", "021000021"),
                        ("Here is my PIN for the debit card. 4827.", "4827")):
        note, stored = _handoff(_user(FACT, turn))
        assert piece not in note and not any(piece in s for s in stored), turn
        assert stored == ["Alice's fiscal year starts in April"]  # the fact beside it still goes through


def test_a_card_number_over_two_turns_reaches_neither_the_note_nor_memory() -> None:
    note, stored = _handoff(_user(FACT, "51814192", "76682798"))
    assert "51814192" not in note and "76682798" not in note
    assert stored == ["Alice's fiscal year starts in April"]


def test_a_reply_between_the_pieces_does_not_hide_them() -> None:
    chat = [*_user(FACT, "5181 4192"), {"role": "assistant", "content": "ok"}, *_user("7668 2798")]
    assert sorted(held_back(chat)) == [1, 3]  # the two pieces; the fact and the reply are not held back


CARDS = refused_cards()


def test_the_oracle_reads_runs_as_numbers_are_written() -> None:
    """card_runs_in, the check below: grouped and split runs count, digits far apart in the text do not."""
    card = "4748546222845548"
    assert "5548" in card_runs_in(["paid with 4748 5462 2284 5548"], card)
    assert "4748" in card_runs_in(["first 4; 748 then"], card)  # two pieces put side by side
    assert card_runs_in(["Hand-off note: April; 548. Where we were: 548"], card) == []  # "548548" is not written
    assert card_runs_in(["548", "548"], card) == []  # two records are two texts


@given(card=CARDS, grouped=st.booleans(), cuts=st.lists(st.integers(1, 18), min_size=1, max_size=2, unique=True),
       reply=st.booleans())
@settings(max_examples=60, deadline=None)
# Drawn once: the last piece, '548', stands in the note twice and in memory; three digits, no run of four.
@example(card="4748546222845548", grouped=True, cuts=[1, 16], reply=False)
def test_a_card_split_at_any_point_over_two_or_three_turns_never_reaches_the_note_or_memory(
        card: str, grouped: bool, cuts: list[int], reply: bool) -> None:
    """Property over Luhn-valid card numbers (Visa and Mastercard prefixes) the policy refuses whole, written plain
    or in groups of four,
    cut at one or two random points into two or three turns, with or without an assistant reply between them:
    no run of four or more of its digits is in the note or in long-term memory."""
    text = " ".join(card[i:i + 4] for i in range(0, 16, 4)) if grouped else card
    points = sorted({c for c in cuts if 0 < c < len(text)})
    pieces = [p for p in (text[a:b] for a, b in zip([0, *points], [*points, len(text)])) if p.strip()]
    if len(pieces) < 2:
        return
    chat = _user(FACT)
    for piece in pieces:
        chat += _user(piece)
        if reply:
            chat.append({"role": "assistant", "content": "ok"})
    note, stored = _handoff(chat)
    assert card_runs_in([note, *stored], card) == [], (pieces, note, stored)
