"""A code word qualified by a reference (a booking, an order, a parcel, a postal code) names a reference, not a
secret (issue 48's false alarms: "codice della prenotazione", "código de seguimiento", "delivery pincode").

Class covered: every reference word of the word list (words.csv, purpose "reference") in its language's frame
around the code word, then a 4-8 digit number: stored. The safety side: the same word naming its own number earlier
in the sentence leaves a PIN after it a secret ("the PIN for reservation 3363706014 is 1346").
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from primer_memory.policy.rules import review
from primer_memory.policy.wordlist import labels

FRAMES = {  # language: sentences with the reference word {ref} qualifying the code word, then the number {n}
    "en": ["{Ref} code: {n}", "Your {ref} pincode {n}", "Code for the {ref}: {n}"],
    "nl": ["Code voor de {ref}: {n}", "{Ref} code {n}"],
    "de": ["Code der {ref}: {n}", "{Ref} Code: {n}"],
    "fr": ["Code de {ref} : {n}", "Le code de la {ref} est {n}"],
    "es": ["Código de {ref}: {n}", "Tu código de {ref} es {n}"],
    "it": ["Codice {ref}: {n}", "Il codice della {ref} è {n}"],
    "pt": ["Código de {ref}: {n}", "O código do {ref} é {n}"],
}


@pytest.mark.parametrize("language", sorted(FRAMES))
@settings(max_examples=25, deadline=None)
@given(data=st.data(), n=st.integers(1000, 99_999_999))
def test_a_code_named_as_a_reference_is_stored(language: str, data: st.DataObject, n: int) -> None:
    ref = data.draw(st.sampled_from([w for w in labels("reference", language) if "cod" not in w]))
    frame = data.draw(st.sampled_from(FRAMES[language]))
    text = frame.format(ref=ref, Ref=ref[0].upper() + ref[1:], n=n)
    assert review(text).verdict == "store", text


@settings(max_examples=40, deadline=None)
@given(ref=st.sampled_from(labels("reference")), own=st.integers(10**8, 10**10), pin=st.integers(1000, 999_999))
def test_a_pin_after_a_reference_with_its_own_number_is_refused(ref: str, own: int, pin: int) -> None:
    text = f"The PIN for {ref} {own} is {pin}."
    assert review(text).verdict == "refuse", text
