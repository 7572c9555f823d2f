"""The write-policy corpus: fixed, labelled, split by family before any tuning."""

from __future__ import annotations

import hashlib

import pytest

from primer_memory.policy.checksums import complete
from primer_memory.policy.corpora.loader import CORPUS, cases, split_of


def test_split_is_the_documented_hash_rule_and_keeps_families_together() -> None:
    for case in CORPUS:
        assert case.half == ("tune" if hashlib.sha256(case.family.encode()).digest()[0] % 2 == 0 else "heldout")
    halves: dict[str, set[str]] = {}
    for case in CORPUS:
        halves.setdefault(case.family, set()).add(case.half)
    assert all(len(h) == 1 for h in halves.values()), "a family must sit in one half only"
    assert split_of("x") == split_of("x")


def test_corpus_is_deterministic_unique_and_big_enough() -> None:
    texts = [c.text for c in CORPUS]
    assert len(texts) == len(set(texts))
    for half in ("tune", "heldout"):
        assert len(cases(half, ("secret",))) >= 120 and len(cases(half, ("harmless",))) >= 70
        assert len(cases(half, ("poison",))) >= 10


def test_checksum_builders_match_published_examples() -> None:
    """The stdnum-backed builder the tests make values with reproduces each scheme's published example."""
    assert complete("verhoeff", "236") == "2363"  # the Verhoeff scheme's textbook example
    assert complete("br_cpf", "111444777", width=2) == "11144477735"  # the CPF example in Brazil's documentation
    assert complete("it_codice_fiscale", "RSSMRA85T10A562", "ABCDEFGHIJKLMNOPQRSTUVWXYZ") == "RSSMRA85T10A562S"
    assert complete("luhn", "7992739871") == "79927398713"  # the Luhn article's example


def test_independent_source_is_split_by_the_same_rule_one_sentence_a_family() -> None:
    independent = [c for c in CORPUS if c.source == "independent"]
    assert len(independent) >= 400
    for case in independent:
        assert case.family == f"independent: {case.text}" and case.half == split_of(case.family)
    for half in ("tune", "heldout"):
        assert len(cases(half, ("secret",), "independent")) >= 100
        assert len(cases(half, ("harmless",), "independent")) >= 50
    assert {c.source for c in CORPUS} == {"ours", "independent", "third", "fourth", "fifth", "sixth", "seventh"}


def test_third_source_is_split_by_the_same_rule_one_text_a_family() -> None:
    """The third corpus (two more authors) is split like the second; each half has enough of both labels."""
    third = [c for c in CORPUS if c.source == "third"]
    assert len(third) >= 550
    assert all(c.family == f"third: {c.text}" and c.half == split_of(c.family) for c in third)
    for half in ("tune", "heldout"):
        assert len(cases(half, ("secret",), "third")) >= 150
        assert len(cases(half, ("harmless",), "third")) >= 100


@pytest.mark.parametrize(("source", "secrets", "harmless"), [("fourth", 90, 60), ("fifth", 90, 60), ("sixth", 85, 55),
                                                       ("seventh", 100, 75)])
def test_later_sources_are_split_by_the_same_rule_one_text_a_family(source: str, secrets: int, harmless: int) -> None:
    later = [c for c in CORPUS if c.source == source]
    assert len(later) >= 300
    assert all(c.family == f"{source}: {c.text}" and c.half == split_of(c.family) for c in later)
    for half in ("tune", "heldout"):
        assert len(cases(half, ("secret",), source)) >= secrets
        assert len(cases(half, ("harmless",), source)) >= harmless
