"""Vendors' API tokens known by a fixed prefix (one row a format, vendor_tokens.csv), and vendor keys known otherwise.

The formats come from vendors' documentation and from what public secret-scanning rule sets (gitleaks,
GitHub secret scanning) describe; formats the registry already covers (GitHub, GitLab PATs, Slack bot
tokens, Stripe, npm, PyPI, Hugging Face, SendGrid...) are not repeated here. Publishable keys (pk_live_,
Mapbox pk.eyJ, Razorpay and Square application ids, New Relic browser keys) are public and left out.

Searching ninety prefixes one by one would cost ninety passes over the text. Instead the prefixes that
end in '_', '-' or '.' ('dckr_pat_', 'pul-', 'hvs.') are searched in the reversed text, where each group
starts with its separator and the rest of each prefix is a branch of one trie: one pass per separator.
The dozen others ('AKID', 'EAA', 'oy2') are one str.find each. Only the rows whose prefix occurs are then
matched in full, with a pattern that checks the token starts there and that its random part looks random.
"""

from __future__ import annotations

import csv
import functools
import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from importlib.resources import files

from .hashes import find_password_hash, find_private_key_file, find_wallet_key, find_wireguard_key
from .urls import find_otpauth_secret, find_signed_url, find_webhook_url
from ..scan import Span, _first_match_of, first_accepted, lowered
from .token_scan import first_of, random_enough

# A token cannot start right after one of these characters: it would be the middle of a longer token.
_BLOCK = r"A-Za-z0-9_.$~+\-"


@dataclass(frozen=True)
class TokenFormat:
    """One vendor's token: its fixed prefix, a regex for the rest, and what may not follow it."""

    vendor: str
    prefix: str
    rest: str
    end: str = r"A-Za-z0-9_\-"
    mixed: bool = True  # the random part mixes letters and digits
    group: str = ""  # what kind of service (vendor_tokens.csv groups its rows)

    @functools.cached_property
    def pattern(self) -> re.Pattern[str]:
        """The whole token; the lookbehind after the literal keeps re's fast skip to the prefix."""
        p = re.escape(self.prefix)
        return re.compile(f"{p}(?<![{_BLOCK}]{p}){self.rest}(?![{self.end}])")

    @functools.cached_property
    def after_start(self) -> re.Pattern[str]:
        """The token (group 1) after a character that cannot precede one; searched in ' ' + text."""
        return re.compile(f"[^{_BLOCK}]({re.escape(self.prefix)}{self.rest})(?![{self.end}])")

    def accepts(self, token: str) -> bool:
        return random_enough(token[len(self.prefix):], self.mixed)


@functools.cache
def _load_formats() -> tuple[TokenFormat, ...]:
    """The rows of vendor_tokens.csv, in order (the file says what each column is)."""
    text = files(__package__).joinpath("vendor_tokens.csv").read_text(encoding="utf-8")
    rows = csv.DictReader(line for line in text.splitlines() if not line.startswith("#"))
    return tuple(TokenFormat(r["vendor"], r["prefix"], r["rest"], r["end"] or TokenFormat.end, r["mixed"] == "yes",
                             r["group"]) for r in rows)


TOKEN_FORMATS: tuple[TokenFormat, ...] = _load_formats()


# --------------------------------------------------------------------------- which prefixes occur


def _trie(words: Iterable[str]) -> str:
    """A regex matching exactly one of `words`, factored by leading character so re tries few branches."""
    words = set(words)
    branches: dict[str, list[str]] = {}
    for word in words:
        if word:
            branches.setdefault(word[0], []).append(word[1:])
    parts = [re.escape(char) + _trie(rest) for char, rest in sorted(branches.items())]
    if not parts:
        return ""
    body = parts[0] if len(parts) == 1 else "(?:" + "|".join(parts) + ")"
    return f"(?:{body})?" if "" in words else body


def _overlaps_itself(word: str) -> bool:
    """'AAAA' does (it starts with what it ends with), so a run of A holds it at every position."""
    return any(word[:k] == word[-k:] for k in range(1, len(word)))


@functools.lru_cache(maxsize=512)
def _reversed_scan(separator: str, prefixes: frozenset[str]) -> re.Pattern[str]:
    """In the reversed text: the separator, a cheap check of the next character, then a trie of the rest."""
    heads = "".join(sorted({re.escape(p[-2]) for p in prefixes}))
    return re.compile(f"{re.escape(separator)}(?=[{heads}])" + _trie(p[::-1][1:] for p in prefixes))


_BY_SEPARATOR: dict[str, tuple[TokenFormat, ...]] = {
    sep: tuple(f for f in TOKEN_FORMATS if f.prefix.endswith(sep)) for sep in "_-."
}
_OTHERS = tuple(f for f in TOKEN_FORMATS if f.prefix[-1] not in "_-.")


def _piece_without_a(prefix: str) -> str:
    """The longest piece of `prefix` without 'A': str.find crawls through runs of A (base64 of zero bytes)
    looking for a word that holds an A, but skips them fast for one that does not."""
    return max(prefix.replace("A", " ").split(), key=len, default=prefix)


_GATES = tuple((_piece_without_a(f.prefix), f) for f in _OTHERS)


def _cut_runs(text: str, separator: str) -> str:
    """`text`, with runs of three separators cut out where its start is dense in them ('-----BEGIN').

    No prefix holds two separators in a row, so the cut keeps every prefix (bar one whose token goes on
    with two more separators) while the search stops at far fewer characters.
    """
    sample = text[:1 << 16]
    if sample.count(separator) * 8 > len(sample):
        return text.replace(separator * 3, "")
    return text


def _formats_seen(text: str) -> list[TokenFormat]:
    """Formats whose prefix occurs in `text` (anywhere: the full pattern checks where a token starts).

    Prefixes ending in '_', '-' or '.' are searched in the reversed text, where they start with that
    separator and the rest of each is a branch of one trie, so a pass finds any of them; a prefix found
    is dropped from the trie, so each costs one stop. The dozen others are each one str.find.
    """
    seen = [f for gate, f in _GATES if gate in text and f.prefix in text]
    reversed_text = ""
    for separator, formats in _BY_SEPARATOR.items():
        if separator not in text:
            continue
        cut = _cut_runs(text, separator)
        if cut is text:
            reversed_text = reversed_text or text[::-1]
            target = reversed_text
        else:
            target = cut[::-1]
        remaining = frozenset(f.prefix for f in formats)
        pos = 0
        while remaining and (match := _reversed_scan(separator, remaining).search(target, pos)) is not None:
            prefix = match.group()[::-1]
            seen.extend(f for f in formats if f.prefix == prefix)
            remaining -= {prefix}
            pos = match.start() + 1
    return seen


def _first_token(fmt: TokenFormat, text: str) -> re.Match[str] | None:
    """The first token of `fmt` in `text` that the format accepts, each distinct candidate judged once."""
    if not _overlaps_itself(fmt.prefix):
        return first_accepted(fmt.pattern, text, fmt.accepts)
    # 'AAAA...' would match at every character of a run of A: look for a token start first.
    for candidate in dict.fromkeys(fmt.after_start.findall(" " + text)):
        if fmt.accepts(candidate):
            return _first_match_of(fmt.pattern, text, candidate)
    return None


def find_vendor_token(text: str) -> Span | None:
    """The first token of a format in TOKEN_FORMATS whose random part looks machine-made."""
    best: Span | None = None
    for fmt in _formats_seen(text):
        match = _first_token(fmt, text)
        if match is not None and (best is None or match.start() < best[0]):
            best = match.span()
    return best


# --------------------------------------------------------------------------- keys known by an inner mark

# Keys with no fixed start but a fixed piece inside: each regex starts at that piece (fast to find) and
# looks back with fixed-width lookbehinds; group 1 (inside the lookbehind) is the part before the piece.
def _marked(mark: str, before: str, width: int, boundary: str, after: str) -> tuple[str, re.Pattern[str]]:
    m = re.escape(mark)
    return mark, re.compile(f"{m}(?<=({before}){m})(?<![{boundary}].{{{width}}}{m})({after})(?![{boundary}])")


_MARKED: tuple[tuple[str, re.Pattern[str]], ...] = (
    # Terraform Cloud / Enterprise: 14 characters, '.atlasv1.', 60-70 more
    _marked(".atlasv1.", "[A-Za-z0-9]{14}", 14, r"A-Za-z0-9_.\-", "[A-Za-z0-9_=-]{60,70}"),
    # Azure AD (Entra ID) client secret: three characters and a digit, 'Q~', then 31-34 more
    _marked("Q~", r"[A-Za-z0-9_~.]{3}\d", 4, r"A-Za-z0-9_~.\-", "[A-Za-z0-9_~.-]{31,34}"),
    # Firebase Cloud Messaging legacy server key: 'AAAA' and 7, ':APA91b', 134 more
    _marked(":APA91b", "AAAA[A-Za-z0-9_-]{7}", 11, r"A-Za-z0-9_\-", "[A-Za-z0-9_-]{134}"),
    # Mailchimp API key: 32 hex, '-us', the data centre's number
    _marked("-us", "[0-9a-f]{32}", 32, r"A-Za-z0-9_\-", r"\d{1,2}"),
    # MaxMind license key: 6, '_', 29, '_mmk'
    _marked("_mmk", "[A-Za-z0-9]{6}_[A-Za-z0-9]{29}", 36, r"A-Za-z0-9_\-", ""),
)


def find_marked_key(text: str) -> Span | None:
    """A Terraform Cloud token, Azure AD client secret, FCM server key, Mailchimp or MaxMind license key."""
    best: Span | None = None
    for mark, pattern in _MARKED:
        if mark not in text:
            continue
        for head, tail in dict.fromkeys(pattern.findall(text)):
            if random_enough(head + tail, mixed=True):
                pos = text.find(head + mark + tail)
                while pos != -1 and pattern.match(text, pos + len(head)) is None:
                    pos = text.find(head + mark + tail, pos + 1)
                if pos != -1 and (best is None or pos < best[0]):
                    best = (pos, pos + len(head) + len(mark) + len(tail))
                break
    return best


# --------------------------------------------------------------------------- vendor secrets given by name

# Between a name and its value: quotes, '=', ':', '=>' or spaces (a config line, a header, JSON, YAML).
# One bounded class, none of whose characters can start a value, so a failed value costs few steps.
_SEP = r"""["' \t:=>]{1,8}"""
_HEX32 = r"[0-9a-f]{32}(?![0-9a-z])"
_UUID_V = r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}(?![0-9a-z])"


def _label(name: str, value: str) -> re.Pattern[str]:
    return re.compile(f"({name}{_SEP}(?P<secret>{value}))")


# (a fixed piece of the name, the name from that piece on and its value; all matched in lower case)
_LABELLED: tuple[tuple[str, re.Pattern[str], bool], ...] = (
    # AWS secret access key: 40 base64 characters under aws_secret_access_key, SecretAccessKey...
    ("secret", _label(r"secret[_-]?(?:access[_-]?key|key(?:(?<=aws_secret_key)|(?<=aws-secret-key)|(?<=awssecretkey)))",
                      r"[a-z0-9/+]{40}(?![a-z0-9/+=])"), True),
    ("session", _label(r"session[_-]?token", r"[a-z0-9/+]{100,2000}={0,2}(?![a-z0-9/+=])"), True),
    ("x-amz-security-token", _label("x-amz-security-token", r"[a-z0-9/+]{100,2000}={0,2}(?![a-z0-9/+=])"), True),
    # Datadog API (32 hex) and application (40 hex) keys
    ("dd", _label(r"dd[_-]?(?:api|app|application)[_-]?key", r"[0-9a-f]{32}(?:[0-9a-f]{8})?(?![0-9a-z])"), False),
    ("datadog", _label(r"datadog[_-]?(?:api|app|application)?[_-]?key", r"[0-9a-f]{32}(?:[0-9a-f]{8})?(?![0-9a-z])"),
     False),
    # Okta API token in its own authorization scheme, or under its name
    ("ssws", _label("ssws", r"00[a-z0-9_-]{40}(?![a-z0-9_-])"), True),
    ("okta", _label(r"okta[_-]?(?:api[_-]?)?token", r"00[a-z0-9_-]{40}(?![a-z0-9_-])"), True),
    # Postmark server/account tokens and Heroku's API key: UUIDs, secret only by their name
    ("postmark", _label(r"postmark[_-]?(?:server|account|api)?[_-]?(?:token|key)", _UUID_V), False),
    ("heroku", _label(r"heroku[_-]?api[_-]?key", _UUID_V), False),
    ("twilio", _label(r"twilio[_-]?auth[_-]?token", _HEX32), False),
    # Cloudflare global API key (37 hex)
    ("cloudflare", _label(r"cloudflare[_-]?(?:global[_-]?)?api[_-]?key", r"[0-9a-f]{37}(?![0-9a-z])"), False),
    ("x-auth-key", _label("x-auth-key", r"[0-9a-f]{37}(?![0-9a-z])"), False),
    ("_gitlab_session=", _label("_gitlab_session", _HEX32), False),
    ("ocp-apim-subscription-key", _label("ocp-apim-subscription-key", _HEX32), False),
    ("algolia", _label(r"algolia[_-]?(?:admin|write)[_-]?(?:api[_-]?)?key", _HEX32), False),
)


def find_labelled_secret(text: str) -> Span | None:
    """A vendor secret with no prefix of its own (AWS secret key, Datadog, Okta...) given under its vendor's name."""
    match = first_of(_LABELLED, lowered(text))
    return None if match is None else match.span("secret")


# --------------------------------------------------------------------------- the detectors of this module and its siblings

TokenDetector = tuple[str, str, Callable[[str], Span | None], str]  # (name, description, finder, example)


TOKEN_DETECTORS: tuple[TokenDetector, ...] = (
    ("vendor_token", "a service's API token (known prefix)", find_vendor_token,
     "dckr_pat_..., shpat_..., hvs...., GOCSPX-..., AKID..."),
    ("marked_key", "a service's key known by a mark inside it (Terraform, Azure AD, FCM, Mailchimp)", find_marked_key,
     "<14>.atlasv1.<60+>, <3>8Q~<31+>, <32 hex>-us21"),
    ("labelled_secret", "a vendor secret given under its vendor's name (AWS secret key, Datadog, Okta...)",
     find_labelled_secret, "aws_secret_access_key = <40 characters>, DD_API_KEY=<32 hex>"),
    ("webhook_url", "a chat or automation webhook URL (Teams, Google Chat, Zapier, IFTTT)", find_webhook_url,
     "https://<tenant>.webhook.office.com/webhookb2/<id>@<id>/IncomingWebhook/<32 hex>/<id>"),
    ("signed_url", "a pre-signed URL's signature (S3, GCS, CloudFront)", find_signed_url,
     "...?X-Amz-Credential=...&X-Amz-Signature=<64 hex>"),
    ("otpauth_secret", "a one-time-password seed (an otpauth:// URI)", find_otpauth_secret,
     "otpauth://totp/Issuer:user?secret=<base32>"),
    ("password_hash", "a password hash (crypt, bcrypt, argon2, NTLM...)", find_password_hash,
     "$2b$12$<53 characters>, user:500:<LM hash>:<NT hash>:::"),
    ("wireguard_private_key", "a WireGuard private or preshared key", find_wireguard_key,
     "PrivateKey = <43 base64 characters>="),
    ("wallet_private_key", "a cryptocurrency private key (WIF, xprv, nsec, labelled hex)", find_wallet_key,
     "K/L + 51 base58 (checksum valid), xprv..., nsec1..., private_key=0x<64 hex>"),
    ("private_key_file", "a private key file not in PEM form (SSH2, JWK, minisign)", find_private_key_file,
     "---- BEGIN SSH2 ENCRYPTED PRIVATE KEY ----, {\"kty\": ..., \"d\": ...}"),
)
