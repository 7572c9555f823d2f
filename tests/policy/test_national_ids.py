"""National identifiers as data (issue 48): the family finder reads national_ids.toml, one table per format.

The formats' behaviour is tested where it always was (test_detect_ids_world.py: valid numbers in sentences, wrong
check digits, impossible dates, names required, printed forms; test_identifier_properties.py). Here: the data holds
what the finder needs, and a malformed file is a named error that says what to fix.
"""

from __future__ import annotations

import pytest

from primer_memory.policy.detectors.national import NationalIdsError, national_ids, parse
from primer_memory.policy.rules import review

ALONE = {  # formats with a form that counts with no name near it, and what makes that form rare by chance
    "be_national_number": "YY.MM.DD-XXX.CC printed, a date and a mod 97 check",
    "no_fodselsnummer": "a date and two check digits", "fi_hetu": "a date, a century sign and a mod 31 character",
    "ch_ahv": "756.XXXX.XXXX.XX printed, an EAN-13 check", "cn_resident_id": "18 characters, a date and a check",
    "kr_rrn": "YYMMDD-SNNNNNC dashed, a date and a check", "mx_curp": "letters, a date, a state code and a check",
    "ar_cuit": "XX-XXXXXXXX-X dashed with a type prefix and a check", "za_id": "13 digits, a date and a Luhn digit",
    "cl_rut": "XX.XXX.XXX-C dotted and a check", "th_national_id": "1-2345-67890-12-1 grouped and a check",
    "sg_nric": "a letter, seven digits and a check letter",
    "es_dni": "eight digits (a NIE: X, Y or Z and seven) and a mod 23 check letter",
    "it_codice_fiscale": "16 characters in a fixed letter-digit layout and a check letter",
    "in_aadhaar": "4-4-4 grouped, no leading 0 or 1, and a Verhoeff digit", "br_cpf": "000.000.000-00 printed, two checks",
    "fr_insee": "sex, year, month and department in a fixed layout, and a mod 97 key",
    "uk_nino": "two letters HMRC issues, six digits and A-D: a rare layout, though with no check",
}

_GOOD = """[xx_id]
description = "an id"
example = "ID 12345678"
checks = ["nl_bsn"]
[[xx_id.forms]]
pattern = '[0-9]{9}'
names = ["id"]
"""


@pytest.mark.parametrize("name", sorted(national_ids()))
def test_each_format_refuses_its_own_example(name: str) -> None:
    assert review(national_ids()[name].example).detector == name


def test_every_format_says_why_and_a_form_with_no_names_has_a_distinctive_shape() -> None:
    for fmt in national_ids().values():
        assert fmt.why, fmt.name
        for form in fmt.forms:
            assert form.shapes, f"{fmt.name}: every form tests its shape first (the cheap test)"
            if form.names is None:  # counts alone: a printed layout, a date with a check, or two check digits
                assert fmt.name in ALONE, f"{fmt.name} counts without a name: say why in ALONE and its `why`"


@pytest.mark.parametrize(("text", "says"), [
    (_GOOD.replace('example = "ID 12345678"\n', ""), "needs description, example, checks and forms"),
    (_GOOD.replace("checks = [\"nl_bsn\"]", "checks = [\"nl_bsnn\"]"), "'nl_bsnn', which checksums.py does not know"),
    (_GOOD.replace("names =", "nmes ="), "needs a pattern and may have names"),
    (_GOOD.replace("[0-9]{9}", "(?P<a>[0-9]{9})(?P<a>)"), "does not compile"),
    (_GOOD.replace('checks = ["nl_bsn"]\n', 'checks = ["nl_bsn"]\ncolour = "red"\n'), "it has checks, colour"),
])
def test_a_malformed_table_is_a_named_error_that_says_what_to_fix(text: str, says: str) -> None:
    with pytest.raises(NationalIdsError, match=says.replace("(", r"\(").replace(")", r"\)")):
        parse(text)


def test_a_good_table_parses_into_a_finder() -> None:
    [fmt] = parse(_GOOD).values()
    assert fmt.find("My id 111222333") == (6, 15) and fmt.find("111222333") is None
