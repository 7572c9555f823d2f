"""The detector families: every detector of the registry is in exactly one family, and no family names a detector
the registry does not have."""

from __future__ import annotations

from collections import Counter

import pytest

from primer_memory.policy.detectors.families import FAMILIES, family_of
from primer_memory.policy.rules import DETECTORS


def test_each_detector_is_in_exactly_one_family() -> None:
    listed = Counter(name for family in FAMILIES for name in family.detectors)
    assert [n for n, c in listed.items() if c > 1] == []
    assert set(listed) == {d.name for d in DETECTORS}


def test_a_detector_without_a_family_is_named() -> None:
    with pytest.raises(KeyError, match="'new_detector' belongs to no family"):
        family_of("new_detector")
    assert family_of("iban").name == "payment and bank numbers"


def test_the_national_family_names_the_number_of_countries_it_covers() -> None:
    """Issue 50: the table said 'about thirty countries' while the detectors covered 39."""
    import re

    from primer_memory.policy.detectors.families import FAMILIES

    family = next(f for f in FAMILIES if f.name == "national identity numbers")
    countries = {name.split("_")[0] for name in family.detectors if len(name.split("_")[0]) == 2}
    stated = re.search(r"of (\d+) countries", family.looks_for)
    assert stated is not None and int(stated.group(1)) == len(countries)
