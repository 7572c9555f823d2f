"""Credentials named in the word list's languages (issue 48): a verification code, a passphrase, an API, private or
licence key, recovery words and a security answer, each named in English, Dutch, German, French, Spanish, Italian
or Japanese.

The names are the series' one word list (policy/words.csv, the label purposes), which the detectors and the
registry both read, so the class is every label of a purpose in a language, not a list of sentences: hypothesis
draws the label, and a value of the purpose's kind is generated. The false-alarm class is the same labels followed
by a value that is not one: a mask, a placeholder, or where to find it, in the label's own language.
"""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from primer_memory.policy.detectors.context import _PLAIN
from primer_memory.policy.detectors.nearby import _QUESTION_WORDS
from primer_memory.policy.detectors.values import DESCRIPTIVE
from primer_memory.policy.registry import load_conditions
from primer_memory.policy.rules import review
from primer_memory.policy.wordlist import LABELS, labels

LANGUAGES = ("en", "nl", "de", "fr", "es", "it", "ja")
NAMES = ("passphrase", "verification_code", "key_name", "recovery_words", "secret_answer")  # a credential's names
_CONSONANTS, _VOWELS = "bcdfgklmnprstvz", "aeiou"


def _word(rng: random.Random) -> str:
    """A made-up plain word of two or three syllables; one that is a function word or talk about passwords in the
    detector's list ("some", "case") is drawn again, since a value holding one is prose by the class's definition."""
    while (word := "".join(rng.choice(_CONSONANTS) + rng.choice(_VOWELS) for _ in range(rng.randint(2, 3)))) in _PLAIN:
        pass
    return word


def _answer(rng: random.Random) -> str:
    """A made-up answer; one that is a question word or a description ('Como', 'When') is drawn again: the answer
    judge reads those as the question going on, by design."""
    while (word := _word(rng)) in _QUESTION_WORDS or word in DESCRIPTIVE:
        pass
    return word.capitalize()


def _key(rng: random.Random) -> str:
    alphabet = "ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz"
    return ("".join(rng.choice(alphabet) for _ in range(rng.randint(24, 40))) + str(rng.randint(10, 99))
            + rng.choice(alphabet))


VALUES = {  # purpose: a value of its kind
    "verification_code": lambda rng: f"{rng.randint(100000, 999999)}",
    "passphrase": lambda rng: " ".join(_word(rng) for _ in range(rng.randint(4, 6))),
    "key_name": _key,
    "recovery_words": lambda rng: " ".join(_word(rng) for _ in range(12)),
    "secret_answer": lambda rng: _answer(rng),
}
NOT_VALUES = {  # language: values that are not secrets after the label
    "en": ["********", "<redacted>", "see the vault", "in the password manager"],
    "nl": ["********", "<redacted>", "zie de kluis", "staat in de wachtwoordmanager"],
    "de": ["********", "<redacted>", "siehe Tresor", "steht im Passwortmanager"],
    "fr": ["********", "<redacted>", "voir le coffre", "dans le gestionnaire de mots de passe"],
    "es": ["********", "<redacted>", "ver la bóveda", "en el gestor de contraseñas"],
    "it": ["********", "<redacted>", "vedi la cassaforte", "nel gestore delle password"],
    "ja": ["********", "<redacted>", "金庫を参照", "パスワードマネージャーにあります"],
}


def _labelled(label: str, language: str, value: str) -> str:
    return f"{label[0].upper()}{label[1:]}{'：' if language == 'ja' else ': '}{value}"


@pytest.mark.parametrize("purpose", NAMES)
@pytest.mark.parametrize("language", LANGUAGES)
@settings(max_examples=8, deadline=None)
@given(data=st.data(), seed=st.integers(0, 2**32 - 1))
def test_a_credential_named_in_each_language_is_refused(purpose: str, language: str, data: st.DataObject,
                                                        seed: int) -> None:
    """Class covered: every label of the purpose in the language (drawn), then ': ' (Japanese '：') and a generated
    value of the purpose's kind."""
    label = data.draw(st.sampled_from(labels(purpose, language)))
    text = _labelled(label, language, VALUES[purpose](random.Random(seed)))
    assert review(text).verdict == "refuse", text


@pytest.mark.parametrize("purpose", NAMES)
@pytest.mark.parametrize("language", LANGUAGES)
def test_a_label_followed_by_no_secret_is_stored(purpose: str, language: str) -> None:
    """False-alarm class: every label of the purpose in the language, then a mask, a placeholder or where the
    secret is kept, in that language."""
    refused = [text for label in labels(purpose, language) for value in NOT_VALUES[language]
               if review(text := _labelled(label, language, value)).verdict == "refuse"]
    assert refused == []


def test_every_language_names_every_purpose_and_the_registry_expands_the_same_words() -> None:
    """Each purpose has words in every language above; a registry row's {purpose} is exactly those words (the
    trigger test, test_registry_triggers.py, holds each row to the lists its detector reads)."""
    assert set(NAMES) <= set(LABELS)
    assert all(labels(purpose, language) for purpose in NAMES for language in LANGUAGES)
    rows = {name: c.keywords for name, c in load_conditions().items()}
    assert set(labels("verification_code")) <= set(rows["code_nearby"])
    assert set(labels("secret_answer")) <= set(rows["security_answer"])


def test_an_unknown_purpose_is_a_named_error_in_the_registry_and_the_word_list() -> None:
    from primer_memory.policy.registry import RegistryError
    from primer_memory.policy.wordlist import WordsError
    with pytest.raises(RegistryError, match="in braces is one of password, passphrase"):
        load_conditions("detector,keywords,needs,note\ncode_nearby,{pass_phrase}|pin,,a note\n")
    with pytest.raises(WordsError, match="not a label purpose"):
        labels("standing")
