"""Values that are public by their format, hidden from every detector before it reads a text (issue 48).

A wallet address is published to be paid; a DKIM record's `p=` is a public key in DNS; a minisign public key is
printed in every README that verifies a release; an OAuth `state` or PKCE `code_challenge` travels in the browser's
address bar; AWS ends every example key of its documentation with EXAMPLE, and a few vendors' documented example
values (public_values.csv) are copied by the thousand; a PEM block whose body is `...` is a placeholder, not a
key. Each is high-entropy, so detectors that judge randomness took them for secrets.

`masked(text)` replaces each such value with '*' of the same length (offsets stay, and '*' is what every detector
reads as a placeholder), so a real secret beside a public value is still found. rules.detector_view() is the one
place that calls it: every path to a detector reads the view (tests/policy/test_public_values.py holds the code
to that). A format is listed here only where the format itself says the value is public; never by a word nearby.
"""

from __future__ import annotations

import csv
import functools
import re
from importlib.resources import files

from . import masking

__all__ = ["PUBLIC_FORMATS", "examples", "masked", "public_spans"]

# Bitcoin addresses: base58check (1..., 3...) or bech32 (bc1...), judged by stdnum.bitcoin's checksums.
_BITCOIN = re.compile(r"(?<![A-Za-z0-9])(?:[13][1-9A-HJ-NP-Za-km-z]{25,34}|bc1[02-9ac-hj-np-z]{11,71})"
                      r"(?![A-Za-z0-9])")
# An Ethereum address: 0x and 40 hex (a private key is 64).
_ETHEREUM = re.compile(r"(?<![A-Za-z0-9])0x[0-9a-fA-F]{40}(?![0-9a-zA-Z])")
# A DKIM record's public key: p= after v=DKIM1, its base64 perhaps split into quoted strings ("..." "...").
_DKIM = re.compile(r"v=DKIM1\b[^\n]{0,200}?\bp=(?P<value>[A-Za-z0-9+/=]+(?:\"\s*\"[A-Za-z0-9+/=]+)*)")
# A minisign public key: the base64 line under minisign's "untrusted comment: minisign public key <key id>", and that
# comment line (a 16-hex key id may pass an IBAN's mod 97 by chance: "BE128D0E02EC3EAC").
_MINISIGN = re.compile(r"untrusted comment:[^\n]{0,40}public key[^\n]*\n(?P<value>RW[A-Za-z0-9+/]{40,}={0,2})")
# OAuth: the state and PKCE challenge a browser carries in the address bar (the code and the verifier are secret).
_OAUTH = re.compile(r"[?&#](?:state|code_challenge)=(?P<value>[^&#\s\"'<>]+)")
# AWS's documentation ends every example access key id and secret access key with EXAMPLE / EXAMPLEKEY.
_AWS_EXAMPLE = re.compile(r"(?<![A-Za-z0-9])(?:(?:AKIA|ASIA)[A-Z0-9]{9}EXAMPLE|[A-Za-z0-9/+]{30}EXAMPLEKEY)"
                          r"(?![A-Za-z0-9/+])")
# A PEM private key block whose body is a placeholder: dots, an ellipsis, <...>, [...], xxx, "redacted", "snip".
_PEM_PLACEHOLDER = re.compile(r"-----BEGIN [A-Z0-9 ]{0,30}PRIVATE KEY-----(?:\s|\.{2,}|…|<[^>\n]{0,40}>|"
                              r"\[[^\]\n]{0,40}\]|[xX]{3,}|\(?(?:redacted|snip|snipped|omitted)\)?)*"
                              r"-----END [A-Z0-9 ]{0,30}PRIVATE KEY-----", re.I)

PUBLIC_FORMATS = {
    "bitcoin address": "a base58check or bech32 address whose checksum stdnum.bitcoin accepts",
    "ethereum address": "0x and 40 hex digits",
    "dkim public key": "the p= of a v=DKIM1 record",
    "minisign public key": "the line under 'untrusted comment: ... public key'",
    "oauth state": "state= or code_challenge= in a URL",
    "aws example key": "an AWS key ending in EXAMPLE or EXAMPLEKEY, as its documentation writes every example",
    "pem placeholder": "a private key block whose body is only a placeholder",
    "documented example": "a value a vendor's documentation shows (public_values.csv)",
}
"""Each public format and what makes a value one (the test lists an instance of each)."""


@functools.cache
def examples() -> tuple[str, ...]:
    """The vendors' documented example values of public_values.csv."""
    text = files(__package__).joinpath("public_values.csv").read_text(encoding="utf-8")
    return tuple(row["value"] for row in csv.DictReader(line for line in text.splitlines()
                                                        if line and not line.startswith("#")))


def _bitcoin_valid(value: str) -> bool:
    from stdnum import bitcoin

    return bitcoin.is_valid(value)


def public_spans(text: str) -> list[tuple[int, int, str]]:
    """(start, end, format) of every public value in `text`, each format searched only when its cheap sign is in it."""
    found: list[tuple[int, int, str]] = []
    for match in _BITCOIN.finditer(text):
        if _bitcoin_valid(match.group()):
            found.append((*match.span(), "bitcoin address"))
    if "0x" in text:
        found += [(*m.span(), "ethereum address") for m in _ETHEREUM.finditer(text)]
    if "DKIM1" in text:
        found += [(*m.span("value"), "dkim public key") for m in _DKIM.finditer(text)]
    if "untrusted comment:" in text:
        found += [(*m.span(), "minisign public key") for m in _MINISIGN.finditer(text)]  # its key id too
    if "state=" in text or "code_challenge=" in text:
        found += [(*m.span("value"), "oauth state") for m in _OAUTH.finditer(text)]
    if "EXAMPLE" in text:
        found += [(*m.span(), "aws example key") for m in _AWS_EXAMPLE.finditer(text)]
    if "-----BEGIN" in text:
        found += [(*m.span(), "pem placeholder") for m in _PEM_PLACEHOLDER.finditer(text)]
    for value in examples():
        start = text.find(value)
        while start != -1:
            found.append((start, start + len(value), "documented example"))
            start = text.find(value, start + 1)
    return found


def masked(text: str) -> str:
    """`text` with every public value replaced by '*' of its length: what the detectors read (masking.masked, the
    one pass redact() also masks its findings with)."""
    spans = public_spans(text)
    return masking.masked(text, spans) if spans else text
