"""Round-6 detectors: spoken digits, identity documents (MRZ, ICAO check digits), BitLocker keys, health ids,
DSNs, and the widened code, seed and bank finders.

Every shape here was written for the test from the published formats (ICAO 9303, CMS's MBI layout,
Banxico's CLABE, Microsoft's BitLocker key), not taken from a corpus; each positive has near misses.
"""

from __future__ import annotations

import random
import string

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from primer_memory.policy.checksums import complete
from primer_memory.policy.detectors.codes import aba_valid, clabe_valid
from primer_memory.policy.detectors.documents import icao_digit
from primer_memory.policy.rules import DETECTORS, review

BY_NAME = {d.name: d for d in DETECTORS}

# ICAO 9303 part 4's specimen (TD3) and part 5's (TD1): the published examples whose check digits hold.
TD3 = "P<UTOERIKSSON<<ANNA<MARIA<<<<<<<<<<<<<<<<<<<\nL898902C36UTO7408122F1204159ZE184226B<<<<<10"
TD1 = "I<UTOD231458907<<<<<<<<<<<<<<<\n7408122F1204159UTO<<<<<<<<<<<6\nERIKSSON<<ANNA<MARIA<<<<<<<<<<"


def _bitlocker(rng: random.Random) -> str:
    return "-".join(f"{11 * rng.randrange(1, 65_536):06d}" for _ in range(8))


def _clabe(body: str) -> str:
    """A CLABE by the own check (python-stdnum has none)."""
    number = complete("mx_clabe", body)
    assert number is not None
    return number


FIRES = {
    "spoken_digits": ["note my gym locker code is four one one nine", "the alarm code is nine nine zero two then hash",
                      "mi pin es cuatro siete dos uno", "le code pin de ma carte c'est deux huit sept zéro",
                      "Geheimzahl der EC Karte drei eins vier eins"],
    "mrz": [TD3, TD1],
    "document_number": [f"Reisepass {n}{icao_digit(n)}" for n in ("C01X00T47", "L898902C3")],
    "bitlocker_key": [f"key for the NUC: {_bitlocker(random.Random(3))}"],
    "medicare_mbi": ["her MBI card says 1EG4-TE5-MK73", "Medicare no. 1EG4TE5MK73"],
    "insurance_member_id": ["Aetna card: Member ID W123456789, group 0042", "Krankenkasse TK, Versicherten-Nr A123456780"],
    "dsn_credentials": ['dsn := "app:Blue42sky@tcp(db:3306)/orders"'],
    "ae_emirates_id": ["Emirates ID 784-1990-1234567-6"],
    "password_assignment": ['psk="quiet-river-lamp"'],
    "recovery_secret": ["backup codes: K7PQX 2MZRT HB4WN Q9LDC", "Recovery codes\nPrint and store them.\n1a2b3 4c5d6 7e8f9",
                        "Enter this key in the authenticator app:\nmzxw 6ytb oi2d enfz",
                        "seed sheet\n1. lunar 2. pepper 3. ribbon\n4. cactus 5. velvet 6. orbit\n7. meadow 8. fiddle 9. tiger"
                        "\n10. copper 11. lantern 12. galaxy"],
    "bank_account": [f"CLABE {_clabe('00201007777777777')}", "cheque ⑆021000021⑆ 123456789⑈ 0101"],
    "code_nearby": ["PIN kartu debit saya 482913"],
    "password_phrase": ["senha do cartão 482913", "safe combination is R12 L4 R30"],
}

HARMLESS = [
    "Error code four oh four again", "The PIN is four digits long.", "the code has one or two bugs",
    "The gate code changes every two weeks.", "P<<<<<<<<<<<<< is how the scanner pads the line",
    "The identity card number has 9 characters and a check digit.", "Passport photo booth 1234567890",
    "000000-000000-000000-000000-000000-000000-000000-000000", "123456-234567-345678-456789-567890-678901-789012-890123",
    "Order ABC-123-4567 shipped", "Order 1EG4 shipped", "Gym member ID: 88412345 for the front desk",
    "Library member number 12345678", 'dsn := "app:${DB_PASS}@tcp(db:3306)/orders"', "Emirates ID 784-1990-1234567-1",
    "backup codes are stored in the vault", "Product codes: ABCDE FGHIJ KLMNO",
    "My wallet has cards, some cash and a photo of the kids from our trip.",
    "Ledger: 12 entries reconciled for March", f"CLABE {_clabe('00201007777777777')[:-1]}9"
    if _clabe("00201007777777777")[-1] != "9" else "CLABE 002010077777777770",
    "PIN pad model 4471 is back", "PIN changed in 2019", "password for user 100234 was reset",
    "The combination of one two three factors matters.", "Medicare covers people over 65.",
    # YAML tags that fetch the value from elsewhere (added after the fifth held-out measurement showed one):
    "wifi:\n  ssid: !secret home_ssid\n  password: !secret home_wifi_key", "db_password: !vault |",
]


@pytest.mark.parametrize(("name", "text"), [(n, t) for n, ts in FIRES.items() for t in ts])
def test_round_6_detector_finds_its_shape(name: str, text: str) -> None:
    assert BY_NAME[name].find(text) is not None, text
    assert review(text).verdict == "refuse"


@pytest.mark.parametrize("text", HARMLESS)
def test_round_6_near_misses_are_stored(text: str) -> None:
    decision = review(text)
    assert decision.verdict != "refuse", (text, decision.detector)


def test_the_checks_agree_with_their_published_examples() -> None:
    assert (icao_digit("L898902C3"), icao_digit("740812"), icao_digit("120415")) == ("6", "2", "9")
    assert clabe_valid("002010077777777771") and not clabe_valid("002010077777777772")
    assert aba_valid("021000021")


_NEW = ("spoken_digits", "mrz", "document_number", "bitlocker_key", "medicare_mbi", "insurance_member_id",
        "dsn_credentials", "ae_emirates_id")


@settings(max_examples=200, deadline=None)
@given(st.text(alphabet=string.printable + "<⑆⑈äé", max_size=400))
def test_round_6_finders_return_a_span_inside_the_text(text: str) -> None:
    for name in _NEW:
        span = BY_NAME[name].find(text)
        assert span is None or 0 <= span[0] < span[1] <= len(text)


_SPOKEN = {"en": "zero one two three four five six seven eight nine".split(),
           "fr": "zéro un deux trois quatre cinq six sept huit neuf".split(),
           "de": "null eins zwei drei vier fünf sechs sieben acht neun".split(),
           "es": "cero uno dos tres cuatro cinco seis siete ocho nueve".split()}
_LEADS = {"en": "remember the door code is", "fr": "le code de la porte c'est", "de": "der PIN ist",
          "es": "mi código es"}


@settings(max_examples=200, deadline=None)
@given(st.sampled_from(sorted(_SPOKEN)), st.lists(st.integers(0, 9), min_size=3, max_size=9))
def test_digits_read_out_after_a_code_word_are_found(language: str, digits: list[int]) -> None:
    spoken = " ".join(_SPOKEN[language][d] for d in digits)
    text = f"{_LEADS[language]} {spoken}"
    span = BY_NAME["spoken_digits"].find(text)
    assert span is not None and text[span[1]:] == "", text
    assert text[span[0]:span[1]] in spoken


@settings(max_examples=100, deadline=None)
@given(st.sampled_from(["four", "six", "eight"]), st.sampled_from(["digits", "characters", "numbers"]))
def test_a_spoken_length_is_not_a_code(number: str, unit: str) -> None:
    assert BY_NAME["spoken_digits"].find(f"the PIN is {number} {unit} long") is None


@settings(max_examples=200, deadline=None)
@given(st.integers(0, 10**6), st.integers(0, 7), st.integers(1, 10))
def test_a_bitlocker_key_is_found_only_while_every_group_checks(seed: int, group: int, shift: int) -> None:
    key = _bitlocker(random.Random(seed))
    assert BY_NAME["bitlocker_key"].find(key) == (0, len(key))
    groups = key.split("-")
    groups[group] = f"{(int(groups[group]) + shift) % 1_000_000:06d}"  # shift < 11: no longer a multiple of 11
    assert BY_NAME["bitlocker_key"].find("-".join(groups)) is None


@settings(max_examples=200, deadline=None)
@given(st.integers(0, 9))
def test_an_mrz_line_with_a_wrong_check_digit_is_not_a_document(digit: int) -> None:
    first, second = TD3.split("\n")
    assert BY_NAME["mrz"].find(TD3) is not None
    broken = second[:9] + str(digit) + second[10:]
    assert (BY_NAME["mrz"].find(f"{first}\n{broken}") is None) == (str(digit) != second[9])


@settings(max_examples=200, deadline=None)
@given(st.text(alphabet=string.digits, min_size=17, max_size=17), st.integers(1, 9))
def test_a_clabe_is_found_only_with_its_check_digit(body: str, wrong: int) -> None:
    good = _clabe(body)
    assert BY_NAME["bank_account"].find(f"CLABE: {good}") is not None
    bad = good[:-1] + str((int(good[-1]) + wrong) % 10)
    assert BY_NAME["bank_account"].find(f"CLABE: {bad}") is None


@settings(max_examples=200, deadline=None)
@given(st.integers(1950, 2010), st.text(alphabet=string.digits, min_size=7, max_size=7), st.integers(1, 9))
def test_an_emirates_id_is_found_only_while_luhn_holds(year: int, serial: str, wrong: int) -> None:
    from primer_memory.policy.checksums import luhn_valid as luhn_ok

    body = f"784{year}{serial}"
    check = next(str(d) for d in range(10) if luhn_ok(body + str(d)))
    good = f"784-{year}-{serial}-{check}"
    assert BY_NAME["ae_emirates_id"].find(f"Emirates ID {good}") is not None
    bad = good[:-1] + str((int(check) + wrong) % 10)
    assert BY_NAME["ae_emirates_id"].find(f"Emirates ID {bad}") is None
