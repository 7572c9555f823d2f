"""Properties of every identifier detector that asks python-stdnum, over values stdnum itself makes valid.

For each format: a valid number in context is found and its span is the whole number, separators included
(what redact() masks is what stdnum's compact() reads); a one-character change that stdnum rejects is not
found; a valid number inside a longer run of digits, bare or in groups, is not found.
"""

from __future__ import annotations

import random
import re
from collections.abc import Callable

from hypothesis import assume, given, settings
from hypothesis import strategies as st
from id_values import UPPER
from test_detect_ids_world import CASES, FINDERS

from primer_memory.policy.checksums import compact, complete, valid
from primer_memory.policy.detectors.national import national_ids
from primer_memory.policy.detectors.card_windows import card_issued
from primer_memory.policy.detectors.numbers import _find_card, _find_iban
from primer_memory.policy.rules import redact

DIGITS = "0123456789"


def _valid(kind: str, body: str, alphabet: str = DIGITS, width: int = 1) -> str | None:
    return complete(kind, body, alphabet, width)


# name -> (the kind stdnum judges, what the detector accepts besides). Formats of test_detect_ids_world's CASES.
KINDS: dict[str, str] = {
    "nl_bsn": "nl_bsn", "be_national_number": "be_nn", "de_steuer_id": "de_idnr", "se_personnummer": "se_personnummer",
    "no_fodselsnummer": "no_fodselsnummer", "fi_hetu": "fi_hetu", "pl_pesel": "pl_pesel", "pt_nif": "pt_nif",
    "ch_ahv": "ch_ssn", "ie_ppsn": "ie_pps", "ro_cnp": "ro_cnp", "cn_resident_id": "cn_ric", "kr_rrn": "kr_rrn",
    "jp_my_number": "jp_in", "mx_curp": "mx_curp", "ar_cuit": "ar_cuit", "za_id": "za_idnr", "au_tfn": "au_tfn",
    "au_medicare": "au_medicare", "tr_kimlik": "tr_tckimlik", "il_teudat_zehut": "il_idnr", "cl_rut": "cl_rut",
    "gb_nhs_number": "gb_nhs", "ca_health_number": "ca_bc_phn", "sg_nric": "sg_nric",
}
ALSO: dict[str, Callable[[str], bool]] = {  # a second reading the same detector accepts
    "be_national_number": lambda v: valid("be_bis", v),
    "se_personnummer": lambda v: valid("se_coordination", v),
    "ca_health_number": lambda v: valid("luhn", re.sub(r"\D", "", v)),  # Ontario's OHIP number, by "health number"
}


def _accepted(name: str, value: str) -> bool:
    return valid(KINDS[name], value) or (name in ALSO and ALSO[name](value))


def _text(name: str, value: str) -> str:
    return f"For the form: {CASES[name].label} {value} (please keep it)."


@settings(max_examples=60, deadline=None)
@given(name=st.sampled_from(sorted(KINDS)), rng=st.randoms(use_true_random=False))
def test_a_valid_number_in_context_is_found_whole(name: str, rng: random.Random) -> None:
    """Class: every stdnum-judged national, tax and health format, printed as its generator prints it."""
    value = CASES[name].maker(rng)
    assert _accepted(name, value)
    text = _text(name, value)
    span = FINDERS[name](text)
    assert span is not None, text
    assert text[span[0]:span[1]] == value, text  # the whole identifier with its separators
    assert compact(KINDS[name], text[span[0]:span[1]]) == compact(KINDS[name], value)
    assert value not in redact(text)


@settings(max_examples=120, deadline=None)
@given(name=st.sampled_from(sorted(KINDS)), rng=st.randoms(use_true_random=False), where=st.integers(0, 50),
       shift=st.integers(1, 9))
def test_a_one_character_change_stdnum_rejects_is_not_found(name: str, rng: random.Random, where: int,
                                                            shift: int) -> None:
    """Class: each format's valid value with one digit changed, wherever it stands (check digit, date, body)."""
    value = CASES[name].maker(rng)
    places = [i for i, c in enumerate(value) if c.isdigit()]
    i = places[where % len(places)]
    changed = value[:i] + str((int(value[i]) + shift) % 10) + value[i + 1:]
    assume(not _accepted(name, changed))
    assert FINDERS[name](_text(name, changed)) is None


@settings(max_examples=80, deadline=None)
@given(name=st.sampled_from(sorted(KINDS)), rng=st.randoms(use_true_random=False),
       before=st.text(DIGITS, max_size=4), after=st.text(DIGITS, max_size=4), grouped=st.booleans())
def test_a_valid_number_inside_a_longer_digit_run_is_not_found(name: str, rng: random.Random, before: str,
                                                               after: str, grouped: bool) -> None:
    """Class: a valid value glued into a longer run of digits (bare), or with more digit groups around it."""
    value = CASES[name].maker(rng)
    assume(before or after)
    if grouped:  # a value printed in space-separated groups, with one more group before or after it
        assume(" " in value)
        # as for bare digits below: an extra group that makes a longer valid number (a Medicare IRN) is not extra
        assume(not any(_accepted(name, longer.strip()) for longer in (f"{value} {after}", f"{before} {value}",
                                                                      f"{before} {value} {after}")))
        text = f"{CASES[name].label} {before} {value} {after}".replace("  ", " ")
    else:
        bare = re.sub(r"[ .\-/]", "", value)
        assume(bare[:1].isdigit() and bare[-1:].isdigit())  # glued digits would only make a letter-led id a word
        assume(not _accepted(name, before + bare + after))  # a longer number that is itself one (a Medicare IRN)
        text = f"{CASES[name].label} {before}{bare}{after}"
    assert FINDERS[name](text) is None, text


# ------------------------------------------------------------------ the formats of national_ids.toml and numbers.py


@st.composite
def _ids_values(draw: st.DrawFn) -> tuple[Callable[[str], object], str, str, str]:
    """(finder, kind, name, value) for the formats detectors/ids.py and numbers.py judge by stdnum."""
    choice = draw(st.sampled_from(["dni", "aadhaar", "aadhaar_bare", "cpf", "sin", "card", "iban"]))
    digits = lambda n: draw(st.text(DIGITS, min_size=n, max_size=n))
    if choice == "dni":
        value = _valid("es_dni", str(draw(st.integers(10**7, 10**8 - 1))), UPPER)
        return national_ids()["es_dni"].find, "es_dni", "DNI", value or ""
    if choice.startswith("aadhaar"):
        n = _valid("in_aadhaar", draw(st.sampled_from("23456789")) + digits(10)) or ""
        return national_ids()["in_aadhaar"].find, "in_aadhaar", "Aadhaar", n if choice.endswith("bare") else f"{n[:4]} {n[4:8]} {n[8:]}"
    if choice == "cpf":
        n = _valid("br_cpf", digits(9), width=2) or ""
        return national_ids()["br_cpf"].find, "br_cpf", "CPF", f"{n[:3]}.{n[3:6]}.{n[6:9]}-{n[9:]}"
    if choice == "sin":
        n = _valid("ca_sin", draw(st.sampled_from("1234567")) + digits(7)) or ""
        return national_ids()["ca_sin"].find, "ca_sin", "SIN", f"{n[:3]} {n[3:6]} {n[6:]}"
    if choice == "card":
        n = _valid("luhn", "4" + digits(14)) or ""
        return _find_card, "luhn", "card", n
    country, length = draw(st.sampled_from([("DE", 22), ("FR", 27), ("NL", 18), ("BE", 16), ("AT", 20)]))
    from stdnum import iban

    bban = digits(length - 4)
    return _find_iban, "iban", "IBAN", country + iban.calc_check_digits(country + "00" + bban) + bban


@settings(max_examples=120, deadline=None)
@given(case=_ids_values(), where=st.integers(0, 40), shift=st.integers(1, 9), glue=st.text(DIGITS, min_size=1,
                                                                                             max_size=4))
def test_cards_ibans_and_the_first_ids_obey_the_same_three_properties(
        case: tuple[Callable[[str], object], str, str, str], where: int, shift: int, glue: str) -> None:
    """Class: DNI, Aadhaar (grouped and bare), CPF, SIN, card numbers and IBANs: found whole when valid, not
    after a one-digit change stdnum rejects, not as part of a longer digit run (a 16-digit reference holds no
    12-digit Aadhaar)."""
    find, kind, name, value = case
    assume(value and valid(kind, value))
    text = f"my {name} is {value} thanks"
    span = find(text)
    assert span is not None and text[span[0]:span[1]] == value, text
    places = [i for i, c in enumerate(value) if c.isdigit()]
    i = places[where % len(places)]
    changed = value[:i] + str((int(value[i]) + shift) % 10) + value[i + 1:]
    if not valid(kind, changed):
        assert find(f"my {name} is {changed} thanks") is None
    bare = value.replace(" ", "").replace(".", "").replace("-", "")
    for glued in (glue + bare, bare + glue):
        if bare[0].isdigit() and not (kind == "luhn" and valid("luhn", glued) and card_issued(glued)):
            assert find(f"my {name} is {glued} thanks") is None  # (a longer number that is itself a card is one)
    if " " in value and kind != "luhn":  # a card inside a run of groups is the card detector's design: windows
        assert find(f"my {name} is {glue.ljust(4, '1')} {value} thanks") is None
        assert find(f"my {name} is {value} {glue.ljust(4, '1')} thanks") is None


# ------------------------------------------------------------------ driving licences next to their name (no check)

_LICENCE_NAMES = ["driver license", "driver's licence", "driving licence", "Führerschein Nr.", "DL#", "rijbewijs"]


@settings(max_examples=80, deadline=None)
@given(name=st.sampled_from(_LICENCE_NAMES), letter=st.sampled_from(UPPER),
       groups=st.lists(st.text(DIGITS, min_size=2, max_size=4), min_size=2, max_size=4))
def test_a_licence_in_dashed_groups_is_found_whole_next_to_its_name(name: str, letter: str, groups: list[str]) -> None:
    """Class: letter-led licence numbers printed in dashed groups (Florida, Illinois, Wisconsin, Maryland forms)."""
    from primer_memory.policy.detectors.documents import find_driving_licence

    value = letter + "-".join(groups)
    assume(sum(c.isdigit() for c in value) >= 6 and len(set(value) - {"-"}) > 2)  # not a placeholder like A00-00-00
    text = f"Scan of my {name} {value} attached."
    span = find_driving_licence(text)
    assert span is not None and text[span[0]:span[1]] == value, text
    assert find_driving_licence(f"Scan of my card {value} attached.") is None  # not without its name


def test_dates_and_phone_numbers_next_to_a_licence_name_are_not_licences() -> None:
    from primer_memory.policy.detectors.documents import find_driving_licence

    for text in ("driver license expires 2027-03-15", "driver licence office: 555-123-4567", "DL renewal 12-31-2026",
                 "driving licence category B and BE", "UK driving licence MORGA 657054 SM9IJ"):
        found = find_driving_licence(text)
        assert (found is not None) == text.startswith("UK"), text


def test_a_sixteen_digit_booking_reference_is_not_a_twelve_digit_aadhaar() -> None:
    """Issue 22's example: three groups of a longer run of groups are no Aadhaar (main read one in each of these)."""
    for body in ("82345678901", "92345678901"):
        aadhaar = complete("in_aadhaar", body)
        assert aadhaar is not None
        grouped = f"{aadhaar[:4]} {aadhaar[4:8]} {aadhaar[8:]}"
        assert review_detector(f"Aadhaar {grouped}") == "in_aadhaar"
        assert review_detector(f"Booking reference {grouped} 4567") is None


def review_detector(text: str) -> str | None:
    from primer_memory.policy.rules import review

    return review(text).detector


@settings(max_examples=60, deadline=None)
@given(body=st.text(DIGITS, min_size=9, max_size=9), version=st.sampled_from(["", "-AB", " XY"]),
       shift=st.integers(1, 9))
def test_an_ontario_health_number_is_found_by_name_while_luhn_holds(body: str, version: str, shift: int) -> None:
    """Class: OHIP numbers (10 digits, stdnum.luhn, an optional version code) after their name."""
    from primer_memory.policy.detectors.national import national_ids
    find_ca_health_number = national_ids()["ca_health_number"].find

    number = complete("luhn", body)
    assert number is not None
    assume(number[0] != "9" or not valid("ca_bc_phn", number))
    value = f"{number[:4]}-{number[4:7]}-{number[7:]}{version.replace(' ', '-')}"
    text = f"Ontario health card {value}, please keep it"
    span = find_ca_health_number(text)
    assert span is not None and text[span[0]:span[1]] == value, text
    wrong = number[:-1] + str((int(number[-1]) + shift) % 10)
    assume(not valid("ca_bc_phn", wrong))
    assert find_ca_health_number(f"OHIP {wrong}") is None
    assert find_ca_health_number(f"Order {number}") is None
