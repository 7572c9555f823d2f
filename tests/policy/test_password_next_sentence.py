"""A password given in the sentence after "my password" (issue 48): "I reset my password. It's Tr0ub4dor&3 now.",
"私のパスワードを変えました。新しいのはTr0ub4dor&3です。"

Class covered: each first-person possessive of the word list (words.csv, purpose "mine") in its language, that
language's password word in a sentence that gives no value, then a generated chosen value (letters, digits and a
symbol) in the next sentence. The false-alarm class: the same first sentences, then a sentence whose token with
letters and digits is a reference (an order, a ticket, a version) or a phone number.
"""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from primer_memory.policy.rules import review
from primer_memory.policy.wordlist import labels

FIRST = {  # language: a sentence about one's password that gives no value ({mine}: the possessive)
    "en": "I reset {mine} password this morning.",
    "de": "{Mine} Passwort ist abgelaufen.",
    "fr": "J'ai changé {mine} mot de passe hier.",
    "es": "Cambié {mine} contraseña ayer.",
    "it": "Ho cambiato {mine} password ieri.",
    "nl": "{Mine} wachtwoord is verlopen.",
    "pt": "Mudei {mine} senha ontem.",
    "ja": "{mine}パスワードを変えました。",
}
NEXT = {  # language: the next sentence, which gives the value {v}
    "en": "It's {v} now.", "de": "Das neue: {v}", "fr": "Le nouveau : {v}", "es": "La nueva: {v}",
    "it": "La nuova: {v}", "nl": "Het nieuwe: {v}", "pt": "A nova: {v}", "ja": "新しいのは{v}です。",
}
NOT_A_VALUE = ["Order A1B2C3D4 shipped.", "Ticket INC0048213 is closed.", "Version 2.4.1 fixed it.",
               "Then I called Bob at 555-0199."]


def _chosen(rng: random.Random) -> str:
    word = "".join(rng.choice("bcdfgklmnprstvz") + rng.choice("aeiou") for _ in range(3))
    return word.capitalize() + rng.choice("#!&$%") + str(rng.randint(10, 9999))


@pytest.mark.parametrize("language", sorted(FIRST))
@settings(max_examples=10, deadline=None)
@given(data=st.data(), seed=st.integers(0, 2**32 - 1))
def test_the_value_in_the_sentence_after_my_password_is_refused(language: str, data: st.DataObject,
                                                                  seed: int) -> None:
    mine = data.draw(st.sampled_from(labels("mine", language)))
    first = FIRST[language].format(mine=mine, Mine=mine[0].upper() + mine[1:])
    value = _chosen(random.Random(seed))
    text = f"{first}{'' if language == 'ja' else ' '}{NEXT[language].format(v=value)}"
    assert review(text).verdict == "refuse", text


@pytest.mark.parametrize("language", sorted(FIRST))
@pytest.mark.parametrize("following", NOT_A_VALUE)
def test_a_reference_in_the_next_sentence_is_stored(language: str, following: str) -> None:
    mine = labels("mine", language)[0]
    first = FIRST[language].format(mine=mine, Mine=mine[0].upper() + mine[1:])
    text = f"{first}{'' if language == 'ja' else ' '}{following}"
    assert review(text).verdict == "store", text
