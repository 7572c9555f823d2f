"""positions(): the shared per-text word index finds exactly what a plain search finds.

Class of input: any short or long text (any Unicode, including characters that change length
when lowered) and any lists of words, asked in any order and interleaved between texts, so the
index is rebuilt, reused and extended with new words in every combination.
"""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from primer_memory.policy.scan import lowered, positions


def _reference(text: str, words: tuple[str, ...]) -> list[int]:
    low = lowered(text)
    found = set()
    for word in words:
        start = low.find(word)
        while start != -1:
            found.add(start)
            start = low.find(word, start + 1)
    return sorted(found)


alphabet = st.sampled_from("abcpinwordsæß İ-_ 12\u0130")
words = st.lists(st.text(alphabet, min_size=1, max_size=6), min_size=1, max_size=8).map(tuple)
texts = st.one_of(st.text(alphabet, max_size=60), st.text(max_size=40),
                  st.text(alphabet, min_size=1, max_size=20).map(lambda s: s * 80))  # the long-text path too


@given(st.lists(st.tuples(texts, words), min_size=1, max_size=6))
def test_positions_equal_a_plain_search_in_any_order_of_calls(calls: list[tuple[str, tuple[str, ...]]]) -> None:
    for text, ws in calls + calls[::-1]:
        assert positions(text, ws) == _reference(text, ws)
