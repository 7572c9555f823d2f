"""Round-7 detectors: the last-resort loose finder, Thai and Hungarian identifiers, WooCommerce keys, keys printed
with a space, identity columns in a spreadsheet, and wider security answers and spoken codes.

Every text here was written for the test, from the published formats (the Thai and Hungarian check-digit rules,
WooCommerce's REST key layout) or from the shape of a phrasing, not copied from a corpus; each positive has near
misses, and the loose finder, which asks least of the phrasing, has the most.
"""

from __future__ import annotations

import random
import string

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from primer_memory.policy.checksums import complete
from primer_memory.policy.rules import DETECTORS, findings, review

BY_NAME = {d.name: d for d in DETECTORS}


def _thai(body12: str) -> str:
    """A Thai id stdnum.th.pin takes: the body and the check digit that completes it."""
    number = complete("th_pin", body12)
    assert number is not None
    return number


def _taj(body8: str) -> str:
    """A TAJ number by the own check (python-stdnum has none)."""
    number = complete("hu_taj", body8)
    assert number is not None
    return number


def _grouped_thai(n: str) -> str:
    return f"{n[0]}-{n[1:5]}-{n[5:10]}-{n[10:12]}-{n[12]}"


FIRES = {
    "loose_credential": ["alarm keypad, code 8351 then OK", "Fahrradschloss Kombination 4092, steht im Keller",
                         "mã khóa tủ 90817 nhé", "la combinación del candado 7731", "kod do szafki 55190",
                         "Zahlenschloss am Tor 7290", "nenosiri ya wifi ni Kahawa7788"],
    "th_national_id": [_grouped_thai(_thai("110170023070")), f"เลขประจำตัวประชาชน {_thai('310050012345')}"],
    "hu_taj_or_tax_id": [f"TAJ szám: {_taj('04711223')}", "adóazonosító jel 8353813831"],
    "vendor_token": ["consumer key ck_" + "0a1b2c3d4e" * 4, "cs_" + "9f8e7d6c5b" * 4],
    "secret_assignment": ["INFO client_secret 7fQz2LmW9xKp4RtV8bNc", "partner key for the shop API: 3f9a1c7e5b2d4f6a8c0e"
                          "1b3d5f7a9c2e4f6b8d0a"],
    "table_secret": ["name;national id;city\nLea Roth;756.1234.5678.97;Bern", "姓名,身份证号\n王芳,11010519900307123X"],
    "security_answer": ["verified the caller (first pet): answer given 'Pickles'.", "kızlık soyadı: 'Demirtaş'",
                        "nom de jeune fille de la mère : Lefebvre"],
    "spoken_digits": ["so the pin is... seven, one, one, four, I believe", "combination is four, four, two, nine, then"],
    "password_nearby": ["كلمة سر الراوتر: Nakheel2026"],
}

HARMLESS = [
    # loose: the value is something else, or the sentence is about codes, not one
    "Code postal 75011, Paris", "Budget code CC-4410 for the offsite", "Ο κωδικός του μαθήματος είναι ΦΥΣ-210",
    "The PIN is 4 digits long", "PIN badges arrived, 300 pcs at 0.85 each", "access code for room 2114 is on the board",
    "I reset the password for JSmith2024 yesterday.", "the code review for v2.14 is done", "password policy v3.2 applies",
    "login as svc-Backup02 with your own key", "密码必须包含字母和数字，长度不少于8位。",
    "code of conduct section 4.2", "combination of 3 factors in 2024", "la combinación ganadora fue 2-1",
    "course code MATH-1010 starts Monday", "PIN reset ticket 48213 closed", "order code 88213 shipped",
    # identifiers with a wrong check digit or no name
    _grouped_thai(_thai("110170023070")[:-1] + str((int(_thai("110170023070")[-1]) + 1) % 10)),
    f"TAJ szám: {_taj('04711223')[:-1]}{(int(_taj('04711223')[-1]) + 1) % 10}", "invoice 8353813831 paid",
    # keys: placeholders, ids and words
    "consumer key ck_<your key here>", "cs_ is the prefix of a consumer secret", "INFO client_secret rotated today",
    "partner key: see the vault", "request_id 7fQz2LmW9xKp4RtV8bNc",
    # tables: an id column left empty or masked
    "name;national id;city\nLea Roth;***;Bern", "姓名,身份证号\n王芳,已提交",
    # answers and spoken numbers that are no secret
    "security question: answer given? not yet", "maiden name is optional on the form",
    "the pin is... I forget, honestly", "the combination of two, three people works",
]


@pytest.mark.parametrize(("name", "text"), [(n, t) for n, ts in FIRES.items() for t in ts])
def test_round_7_detector_finds_its_shape(name: str, text: str) -> None:
    assert BY_NAME[name].find(text) is not None, text
    assert review(text).verdict == "refuse"


@pytest.mark.parametrize("text", HARMLESS)
def test_round_7_near_misses_are_stored(text: str) -> None:
    decision = review(text)
    assert decision.verdict != "refuse", (text, decision.detector)


def test_the_loose_finder_is_reported_only_where_nothing_else_found_the_value() -> None:
    """It is a last resort: on 'password is hunter2' the phrase detector names the finding, once."""
    assert [f.detector for f in findings("my VPN password is hunter2")] == ["password_phrase"]
    assert [f.detector for f in findings("Zahlenschloss am Tor 7290")] == ["loose_credential"]


@settings(max_examples=200, deadline=None)
@given(st.text(alphabet=string.printable + "äéκωδικόςรหัส密码", max_size=400))
def test_round_7_finders_return_a_span_inside_the_text(text: str) -> None:
    for name in ("loose_credential", "th_national_id", "hu_taj_or_tax_id", "security_answer", "spoken_digits"):
        span = BY_NAME[name].find(text)
        assert span is None or 0 <= span[0] < span[1] <= len(text)


@settings(max_examples=200, deadline=None)
@given(st.integers(10**11, 8 * 10**11 - 1), st.integers(1, 9))
def test_a_thai_id_is_found_only_while_its_check_digit_holds(body: int, shift: int) -> None:
    number = _thai(str(body))
    assert BY_NAME["th_national_id"].find(_grouped_thai(number)) is not None
    wrong = number[:-1] + str((int(number[-1]) + shift) % 10)
    assert BY_NAME["th_national_id"].find(_grouped_thai(wrong)) is None


@settings(max_examples=200, deadline=None)
@given(st.integers(0, 10**8 - 1), st.integers(1, 9))
def test_a_taj_number_is_found_only_while_its_check_digit_holds(body: int, shift: int) -> None:
    number = _taj(f"{body:08d}")
    assert BY_NAME["hu_taj_or_tax_id"].find(f"TAJ {number}") is not None
    wrong = number[:-1] + str((int(number[-1]) + shift) % 10)
    assert BY_NAME["hu_taj_or_tax_id"].find(f"TAJ {wrong}") is None


@settings(max_examples=200, deadline=None)
@given(st.sampled_from(["code", "PIN", "combinación", "Kombination", "lockbox", "kod"]),
       st.integers(1000, 999_999).filter(lambda n: not 1900 <= n <= 2099))
def test_a_number_right_after_a_code_word_is_found(word: str, number: int) -> None:
    text = f"{word} {number}"
    span = BY_NAME["loose_credential"].find(text)
    assert span is not None and text[span[0]:span[1]] == str(number)


@settings(max_examples=200, deadline=None)
@given(st.sampled_from(["order", "ticket", "room", "invoice", "version"]), st.integers(1000, 999_999))
def test_a_number_that_names_something_else_is_not_taken(label: str, number: int) -> None:
    assert BY_NAME["loose_credential"].find(f"the code for {label} {number} is on the wiki") is None


def test_random_prose_with_a_code_word_but_no_value_is_stored() -> None:
    rng = random.Random(7)
    words = "the a code pin password our new team meets every week to review policy and notes".split()
    for _ in range(300):
        text = " ".join(rng.choice(words) for _ in range(12))
        assert BY_NAME["loose_credential"].find(text) is None, text
