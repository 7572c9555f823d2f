"""Bank details and the one identifier that the national-id data (national_ids.toml) cannot hold.

Every national identifier of a fixed layout is a table of national_ids.toml, read by national.py's one finder.
What stays here is code of another shape: bank details count as a pair (a UK sort code or an Australian BSB with an
account number beside it), and the UAE Emirates ID is read over the raw text with its Luhn check. `WORLD_ID_DETECTORS`
lists the data's detectors and these, in the order the registry has always had them.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from ..checksums import valid
from ..scan import Span
from .id_scan import digits_of, folded_view, has_digits, has_shape
from .national import detectors as national_detectors

# Bank details: a sort code (or BSB) after its name, an account number within a clause before or after it.
_UK_CODE = rb"sort[ -]?codes?[^0-9]{0,25}+(?P<code>[0-9]{2}(?P<sep>[- ]?)[0-9]{2}(?P=sep)[0-9]{2})(?![0-9])"
_UK_ACCOUNT = rb"(?P<account>[0-9]{8}|[0-9]{4} [0-9]{4})(?![0-9])"
_AU_CODE = rb"bsb(?<![a-z]bsb)(?![a-z])[^0-9]{0,25}+(?P<code>[0-9]{3}[- ]?[0-9]{3})(?![0-9])"
_AU_ACCOUNT = rb"(?P<account>[0-9]{6,10}|[0-9]{4} [0-9]{4})(?![0-9])"


def _pair_finder(name: bytes, code: bytes, account: bytes, accounts: tuple[bytes, ...]) -> Callable[[str], Span | None]:
    """A finder of `code` (after its name) with `account` on either side, searched in the lower-case view.

    Between them 1-40 characters but no digit: two numbers side by side, not two somewhere in a list.
    """
    after = re.compile(code + rb"[^0-9]{1,40}+" + account)
    before = re.compile(b" " + account + rb"[^0-9]{1,40}?" + code)

    def find(text: str) -> Span | None:
        if not has_digits(text) or name not in folded_view(text) or not has_shape(text, *accounts):
            return None
        matches = [m for m in (after.search(folded_view(text)), before.search(folded_view(text))) if m is not None]
        spans = [(min(m.start("code"), m.start("account")) - 1, max(m.end("code"), m.end("account")) - 1)
                 for m in matches]
        return min(spans, default=None)

    return find


find_uk_sort_code_account = _pair_finder(b"sort", _UK_CODE, _UK_ACCOUNT, (b"00000000", b"0000 0000"))
find_uk_sort_code_account.__doc__ = "UK bank details: a sort code NN-NN-NN after 'sort code' with an 8-digit account."
find_au_bsb_account = _pair_finder(b"bsb", _AU_CODE, _AU_ACCOUNT, (b"000000", b"0000 0000"))
find_au_bsb_account.__doc__ = "Australian bank details: a BSB NNN-NNN after 'BSB' with a 6-10 digit account."

# Round 6 (from the ICP's published layout): 784, the birth year, seven digits and a Luhn check digit.
_AE_EMIRATES_ID = re.compile(r"(?<![\d-])784[- ]?(?:19|20)\d\d[- ]?\d{7}[- ]?\d(?![\d-])")


def find_ae_emirates_id(text: str) -> Span | None:
    """A UAE Emirates ID: 784-YYYY-NNNNNNN-C, the whole Luhn-valid."""
    if "784" not in text:
        return None
    for match in _AE_EMIRATES_ID.finditer(text):
        if valid("luhn", digits_of(match.group())):
            return match.span()
    return None


_OWN: tuple[tuple[str, str, Callable[[str], Span | None], str], ...] = (
    ("uk_sort_code_account", "UK bank details (a sort code with its account number)", find_uk_sort_code_account,
     "sort code 12-34-56, account 12345678"),
    ("au_bsb_account", "Australian bank details (a BSB with its account number)", find_au_bsb_account,
     "BSB 062-000 account 12345678"),
    ("ae_emirates_id", "a UAE Emirates ID (Luhn valid)", find_ae_emirates_id, "784-1990-1234567-6"),
)


def _in_order() -> tuple[tuple[str, str, Callable[[str], Span | None], str], ...]:
    """The data's detectors with this module's after the Chilean RUT, where the registry has always had them."""
    data = national_detectors()
    cut = [name for name, *_ in data].index("cl_rut") + 1
    return data[:cut] + _OWN + data[cut:]


WORLD_ID_DETECTORS: tuple[tuple[str, str, Callable[[str], Span | None], str], ...] = _in_order()
