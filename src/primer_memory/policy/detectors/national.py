"""National identifiers as data: one family finder, and one table per format in national_ids.toml (issue 48).

Every format is the same machinery with different data: a pattern over id_scan's view of the text, the names one
of which must stand near the number (a bare run of digits with one check digit passes by chance one time in ten or
eleven), the shape pieces tested first, and the python-stdnum kinds that judge a candidate (checksums.valid: its
check and the birth date it encodes). A format whose written shape is distinctive (Belgian YY.MM.DD-XXX.CC,
Finnish HETU, Swiss 756.XXXX.XXXX.XX) has a form with no names. Adding a format is a table in the data file.
"""

from __future__ import annotations

import functools
import re
import tomllib
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any
from importlib.resources import files

from ..checksums import valid
from ..scan import Span
from .id_scan import END, Names, digits_of, first_valid

__all__ = ["Form", "NationalId", "NationalIdsError", "detectors", "national_ids", "parse"]


@dataclass(frozen=True)
class Form:
    """One way a number is written: its pattern, the names it needs near (None: none), its shape pieces, and how
    a candidate is judged: the stdnum kinds, on the digits only (`digits`, perhaps only the `first` few), never
    all zeros (`nonzero`) or one digit repeated (`varied`), upper-cased (`upper`)."""

    pattern: re.Pattern[bytes]
    names: Names | None
    shapes: tuple[bytes, ...]
    checks: tuple[str, ...]
    digits: bool = False
    first: int = 0
    nonzero: bool = False
    upper: bool = False
    varied: bool = False

    def accept(self, value: str) -> bool:
        """Whether a stdnum kind of the form takes `value`."""
        if self.digits:
            value = digits_of(value)[:self.first or None]
        if self.nonzero and not any(c in "123456789" for c in value):
            return False
        if self.varied and len(set(digits_of(value))) < 2:
            return False
        value = value.upper() if self.upper else value
        return any(valid(kind, value) for kind in self.checks)


@dataclass(frozen=True)
class NationalId:
    """One format: a detector's name, description and example, its stdnum kinds and forms (national_ids.toml)."""

    name: str
    description: str
    example: str
    forms: tuple[Form, ...]
    why: str = ""
    requires: str = ""

    def find(self, text: str) -> Span | None:
        """The first number of a form, valid, with a name near it where the form needs one."""
        if self.requires and self.requires not in text:
            return None
        for form in self.forms:
            span = first_valid(form.pattern, text, form.accept, form.names, form.shapes)
            if span is not None:
                return span
        return None


def _form(table: dict[str, Any], checks: tuple[str, ...], upper: bool) -> Form:
    pattern = re.compile(b" (" + str(table["pattern"]).encode() + b")" + END)
    words, cased = tuple(table.get("names", ())), tuple(table.get("cased", ()))
    names = Names(*words, cased=cased) if words or cased else None
    return Form(pattern, names, tuple(s.encode() for s in table.get("shapes", ())), checks,
                table.get("digits", False), table.get("first", 0), table.get("nonzero", False), upper,
                table.get("varied", False))


class NationalIdsError(ValueError):
    """national_ids.toml is malformed: a missing or unknown key, an unknown check, a pattern that does not compile."""


_KEYS = {"description", "example", "checks", "forms", "why", "requires", "upper"}
_FORM_KEYS = {"pattern", "names", "cased", "shapes", "checks", "digits", "first", "nonzero", "varied"}


def parse(text: str) -> dict[str, NationalId]:
    """The formats of a national_ids.toml text by detector name, each checked (NationalIdsError says what is wrong)."""
    from ..checksums import OWN_VALIDATORS, STDNUM

    found = {}
    for name, table in tomllib.loads(text).items():
        keys = set(table)
        if not {"description", "example", "forms"} <= keys or not keys <= _KEYS:
            raise NationalIdsError(f"[{name}] needs description, example, checks and forms, and may have why, requires "
                                   f"and upper; it has {', '.join(sorted(keys))}")
        forms = []
        for form in table["forms"]:
            if "pattern" not in form or not set(form) <= _FORM_KEYS:
                raise NationalIdsError(f"a form of [{name}] needs a pattern and may have names, cased, shapes, checks, "
                                       f"digits, first, nonzero and varied; it has {', '.join(sorted(form))}")
            checks = tuple(form.get("checks", table.get("checks", ())))
            unknown = [k for k in checks if k not in STDNUM and k not in OWN_VALIDATORS] or ([] if checks else [""])
            if unknown:
                raise NationalIdsError(f"[{name}] checks with {unknown[0]!r}, which checksums.py does not know; add it "
                                       "to STDNUM (a python-stdnum module) or OWN_VALIDATORS")
            try:
                forms.append(_form(form, checks, table.get("upper", False)))
            except re.error as error:
                raise NationalIdsError(f"a pattern of [{name}] does not compile: {error}") from None
        found[name] = NationalId(name, table["description"], table["example"], tuple(forms), table.get("why", ""),
                                 table.get("requires", ""))
    return found


@functools.cache
def national_ids() -> dict[str, NationalId]:
    """Every format of national_ids.toml by detector name, in the file's order."""
    return parse(files(__package__).joinpath("national_ids.toml").read_text(encoding="utf-8"))


def detectors() -> tuple[tuple[str, str, Callable[[str], Span | None], str], ...]:
    """(name, description, finder, example) for each format, as rules.DETECTORS takes them."""
    return tuple((n.name, n.description, n.find, n.example) for n in national_ids().values())
