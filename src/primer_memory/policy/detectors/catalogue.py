"""Identifiers judged by python-stdnum's catalogue: one finder per kind (bank accounts, tax ids, personal ids,
health ids), not one detector per format (issue 48).

A candidate is found by its shape: groups of digits and letters, each holding a digit, joined by single spaces,
dots, dashes, slashes or line breaks (a number wrapped over two lines is read whole). It counts only near a label
of its kind, the kind's registry keywords (detectors/registry.csv: the same multilingual word data the registry
selects by, read from there, never a second list). It is then judged by the stdnum formats of that kind in
`catalogue.csv`, narrowed to the countries the text names when it names any: checking every format that fits a
shape would accept almost any nine to twelve digits by chance. A format with no check digit counts only when the
text names its country or the format itself. A few formats stdnum lacks are rows too: a check of our own
(`own:`, from checksums.py, which says why for each) or, with no check at all, the layout alone (`shape:`).
"""

from __future__ import annotations

import csv
import functools
import importlib
import re
from collections.abc import Callable
from dataclasses import dataclass
from importlib.resources import files

from ..checksums import valid
from ..registry import Condition, load_conditions
from ..scan import Span, first_in_windows, lowered, positions
from .id_scan import digits_of

__all__ = ["CatalogueFormat", "formats", "find_bank_account_by_catalogue", "find_health_id_by_catalogue",
           "find_personal_id_by_catalogue", "find_tax_id_by_catalogue"]

_GROUP = r"[A-Za-z0-9]*\d[A-Za-z0-9]*"
_SEPARATOR = re.compile(r"[ .\-/\n]")
_CANDIDATE = re.compile(rf"(?<![A-Za-z0-9]){_GROUP}(?:{_SEPARATOR.pattern}{_GROUP}){{0,7}}(?![A-Za-z0-9])")
_REACH = 80  # characters after a label where its number may stand ("Kontonummer (Sparkonto): ...")


@dataclass(frozen=True)
class CatalogueFormat:
    """One stdnum format of a kind: where it is used, whether it has a check, and the words that name it."""

    kind: str
    country: str
    format: str
    checked: bool
    names: tuple[str, ...]
    public: tuple[str, ...] = ()

    @functools.cached_property
    def is_valid(self) -> Callable[[str], bool]:
        how, _, what = self.format.partition(":")
        if how == "iban":
            from stdnum import iban

            return lambda value: digits_of(value).isdigit() and iban.is_valid(_iban_of(what, value))
        if how == "own":  # a check python-stdnum lacks, kept with the others in checksums.OWN_CHECKS
            return lambda value: valid(what, value)
        if how == "shape":  # no check digit at all: the layout as written, which `checked: no` keeps behind a name
            layout = re.compile(what)
            return lambda value: layout.fullmatch(value) is not None
        module = importlib.import_module(f"stdnum.{self.format}")
        return module.is_valid


def _iban_of(country: str, value: str) -> str:
    """A BBAN written with its two IBAN check digits in front (Poland's NRB) as the IBAN it is."""
    digits = re.sub(r"\D", "", value)
    return f"{country}{digits}"


@functools.cache
def formats() -> tuple[CatalogueFormat, ...]:
    """The rows of catalogue.csv."""
    text = files(__package__).joinpath("catalogue.csv").read_text(encoding="utf-8")
    rows = list(csv.DictReader(line for line in text.splitlines() if not line.startswith("#")))
    return tuple(CatalogueFormat(r["kind"], r["country"], r["format"], r["checked"] == "yes",
                                 tuple(r["names"].split("|")), tuple(w for w in r["public"].split("|") if w))
                 for r in rows)


@functools.cache
def _conditions() -> dict[str, Condition]:
    return load_conditions()  # the registry read once for the four kinds, not once a kind


def _labels(detector: str) -> tuple[str, ...]:
    """The kind's labels: its registry keywords (one word list for selection and for judging)."""
    return _conditions()[detector].keywords


@functools.cache
def _of_kind(kind: str) -> tuple[CatalogueFormat, ...]:
    return tuple(f for f in formats() if f.kind == kind)


def _judge(named: tuple[CatalogueFormat, ...]) -> Callable[[str], Span | None]:
    def judge(window: str) -> Span | None:
        low = window.lower()
        for match in _CANDIDATE.finditer(window):
            found = _valid_run(match.group(), named)
            if found is None:
                continue
            (start, end), accepting = found
            # public only when every accepting format says so by a word in the window (a company's Steuernummer)
            if not all(f.public and any(w in low for w in f.public) for f in accepting):
                return match.start() + start, match.start() + end
        return None
    return judge


def _valid_run(candidate: str, named: tuple[CatalogueFormat, ...]) -> tuple[Span, list[CatalogueFormat]] | None:
    """The longest run of whole groups of `candidate`, from its first group or to its last, that a format judges
    valid (a date or an amount may stand next to the number in the same run), and the formats that accept it."""
    separators = list(_SEPARATOR.finditer(candidate))
    cuts = [0] + [m.end() for m in separators]
    ends = [m.start() for m in separators] + [len(candidate)]
    # from the first group (the number follows its label), or to the last: at most 16 runs, longest first
    runs = sorted({(0, e) for e in ends} | {(s, len(candidate)) for s in cuts}, key=lambda r: r[0] - r[1])
    for start, end in runs:
        value = candidate[start:end].replace("\n", " ")
        accepting = [f for f in named if f.is_valid(value)]
        if accepting:
            return (start, end), accepting
    return None


def _finder(kind: str, detector: str) -> Callable[[str], Span | None]:
    def find(text: str) -> Span | None:
        low = lowered(text)
        mine = _of_kind(kind)
        said = [f for f in mine if any(name in low for name in f.names)]
        named = tuple(said) if said else tuple(f for f in mine if f.checked)
        if not named:
            return None
        return first_in_windows(text, positions(text, _labels(detector)), 0, _REACH, _judge(named))
    find.__name__ = f"find_{kind}_by_catalogue"
    find.__doc__ = f"A {kind.replace('_', ' ')} near its label, valid under a stdnum format of its kind (catalogue.csv)."
    return find


find_bank_account_by_catalogue = _finder("bank_account", "catalogue_bank_account")
find_tax_id_by_catalogue = _finder("tax_id", "catalogue_tax_id")
find_personal_id_by_catalogue = _finder("personal_id", "catalogue_personal_id")
find_health_id_by_catalogue = _finder("health_id", "catalogue_health_id")
