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
from importlib.resources import files

from ..checksums import valid
from ..scan import Span
from .id_scan import END, Names, first_valid

__all__ = ["Form", "NationalId", "NationalIdsError", "detectors", "national_ids", "parse"]


@dataclass(frozen=True)
class Form:
    """One way a number is written: its pattern, the names it needs near (None: none), its shape pieces."""

    pattern: re.Pattern[bytes]
    names: Names | None
    shapes: tuple[bytes, ...]


@dataclass(frozen=True)
class NationalId:
    """One format: a detector's name, description and example, its stdnum kinds and forms (national_ids.toml)."""

    name: str
    description: str
    example: str
    checks: tuple[str, ...]
    forms: tuple[Form, ...]
    why: str = ""
    requires: str = ""
    upper: bool = False

    def accept(self, value: str) -> bool:
        """Whether a stdnum kind of the format takes `value`."""
        value = value.upper() if self.upper else value
        return any(valid(kind, value) for kind in self.checks)

    def find(self, text: str) -> Span | None:
        """The first number of a form, valid, with a name near it where the form needs one."""
        if self.requires and self.requires not in text:
            return None
        for form in self.forms:
            span = first_valid(form.pattern, text, self.accept, form.names, form.shapes)
            if span is not None:
                return span
        return None


def _form(table: dict[str, object]) -> Form:
    pattern = re.compile(b" (" + str(table["pattern"]).encode() + b")" + END)
    words = tuple(table.get("names", ()))  # type: ignore[arg-type]
    cased = tuple(table.get("cased", ()))  # type: ignore[arg-type]
    names = Names(*words, cased=cased) if words or cased else None
    return Form(pattern, names, tuple(s.encode() for s in table.get("shapes", ())))  # type: ignore[union-attr]


class NationalIdsError(ValueError):
    """national_ids.toml is malformed: a missing or unknown key, an unknown check, a pattern that does not compile."""


_KEYS = {"description", "example", "checks", "forms", "why", "requires", "upper"}
_FORM_KEYS = {"pattern", "names", "cased", "shapes"}


def parse(text: str) -> dict[str, NationalId]:
    """The formats of a national_ids.toml text by detector name, each checked (NationalIdsError says what is wrong)."""
    from ..checksums import OWN_VALIDATORS, STDNUM

    found = {}
    for name, table in tomllib.loads(text).items():
        keys = set(table)
        if not {"description", "example", "checks", "forms"} <= keys or not keys <= _KEYS:
            raise NationalIdsError(f"[{name}] needs description, example, checks and forms, and may have why, requires "
                                   f"and upper; it has {', '.join(sorted(keys))}")
        unknown = [k for k in table["checks"] if k not in STDNUM and k not in OWN_VALIDATORS]
        if unknown:
            raise NationalIdsError(f"[{name}] checks with {unknown[0]!r}, which checksums.py does not know; add it to "
                                   "STDNUM (a python-stdnum module) or OWN_VALIDATORS")
        for form in table["forms"]:
            if "pattern" not in form or not set(form) <= _FORM_KEYS:
                raise NationalIdsError(f"a form of [{name}] needs a pattern and may have names, cased and shapes; it "
                                       f"has {', '.join(sorted(form))}")
        try:
            forms = tuple(_form(f) for f in table["forms"])
        except re.error as error:
            raise NationalIdsError(f"a pattern of [{name}] does not compile: {error}") from None
        found[name] = NationalId(name, table["description"], table["example"], tuple(table["checks"]), forms,
                                 table.get("why", ""), table.get("requires", ""), table.get("upper", False))
    return found


@functools.cache
def national_ids() -> dict[str, NationalId]:
    """Every format of national_ids.toml by detector name, in the file's order."""
    return parse(files(__package__).joinpath("national_ids.toml").read_text(encoding="utf-8"))


def detectors() -> tuple[tuple[str, str, Callable[[str], Span | None], str], ...]:
    """(name, description, finder, example) for each format, as rules.DETECTORS takes them."""
    return tuple((n.name, n.description, n.find, n.example) for n in national_ids().values())
