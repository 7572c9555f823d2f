"""National identifiers as data (issue 48): the family finder reads national_ids.toml, one table per format.

The formats' behaviour is tested where it always was (test_detect_ids_world.py: valid numbers in sentences, wrong
check digits, impossible dates, names required, printed forms; test_identifier_properties.py). Here: the data holds
what the finder needs, and a malformed file is a named error that says what to fix.
"""

from __future__ import annotations

import pytest

from primer_memory.policy.detectors.national import NationalIdsError, national_ids, parse
from primer_memory.policy.rules import review

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
            if form.names is None:  # counts alone: a fixed layout with separators, or two check digits
                assert fmt.name in ("be_national_number", "no_fodselsnummer", "fi_hetu", "ch_ahv"), fmt.name


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
