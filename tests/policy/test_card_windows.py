"""Card windows in a run of digit groups: the numpy path for long runs finds exactly what the plain loop finds."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

import fake_values as v
from primer_memory.policy.detectors.card_windows import _windows_numpy, _windows_python, card_windows

# Groups a card is printed with, plus lengths that break layouts; real card numbers split into groups.
_GROUP = st.one_of(st.from_regex(r"[0-9]{1,7}", fullmatch=True),
                   st.sampled_from(["4111", "1111", "5500", "0000", "3782", "822463", "10005", "4242"]))


def _card_groups(seed: int) -> list[str]:
    digits = v.fake_card(random.Random(seed)).replace(" ", "").replace("-", "")
    return [digits[i:i + 4] for i in range(0, len(digits), 4)]


@settings(max_examples=300, deadline=None)
@given(st.lists(st.one_of(_GROUP.map(lambda g: [g]), st.integers(0, 10_000).map(_card_groups)), min_size=1,
                max_size=40))
def test_numpy_path_equals_python_path(parts: list[list[str]]) -> None:
    run = " ".join(g for part in parts for g in part)
    assert _windows_numpy(run) == list(_windows_python(run))


def test_a_card_deep_in_a_long_run_is_found_and_glued_ends_are_not() -> None:
    run = " ".join(["0000"] * 500 + ["4111", "1111", "1111", "1111"] + ["0000"] * 500)
    assert [run[s:e] for s, e in card_windows(run)] == ["4111 1111 1111 1111"]
    edge = " ".join(["4111", "1111", "1111", "1111"] + ["0000"] * 100)
    assert card_windows(edge) and not card_windows(edge, glued_start=True)
    assert card_windows(" ".join(["4111", "1111", "1111", "1112"] + ["0000"] * 100)) == []  # Luhn fails
