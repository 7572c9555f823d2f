"""Detectors for credentials stated in words or assigned in config: passwords, PINs, key=value secrets."""

from __future__ import annotations

import base64
import binascii
import re

from .phrases import _value_is_secret
from ..wordlist import labels
from ..scan import (_AFTER_UNICODE_WORD, _TRAILING, Span, _entropy, _high_entropy, _is_variable, _key_before,
                          _literal, _matches_folded, has_long_token, lowered, next_word)
from .values import looks_chosen



# Found by the word at the key's end, then the whole key is read backwards and checked: fast to scan for.
_PASSWORD_ASSIGNMENT = re.compile(
    r"""(?:password|passwd|passphrase|pass|pwd|pw|psk)["']?[ \t]*(?P<op>=|:)[ \t]*
        (?P<value>"[^"\n]{0,256}"|'[^'\n]{0,256}'|[^\s,;&"']+)""",
    re.I | re.X,
)
_PASSWORD_ASSIGNMENT_TRIGGER = ("pass", "pw", "psk")  # psk: a Wi-Fi key (wpa_supplicant, hostapd's wpa_psk)
_PASSWORD_KEY = re.compile(r"(?:[A-Za-z0-9]+[_.-])*(?:[A-Za-z0-9]*(?:password|passwd|passphrase)|pass|pwd|pw|psk)", re.I)

def _find_password_assignment(text: str) -> Span | None:
    """Config and code: DB_PASSWORD=..., "password": "...", PGPASSWORD: ... (templates like ${X} pass)."""
    if "=" not in text and ":" not in text:
        return None
    for match in _matches_folded(_PASSWORD_ASSIGNMENT_TRIGGER, _PASSWORD_ASSIGNMENT, text):
        key = _key_before(text, match, _PASSWORD_KEY)
        if key is None:
            continue  # "bypass=", "compass:" end in 'pass' but are not password keys
        value = match.group("value")
        if _is_variable(value.rstrip(_TRAILING), key):
            continue
        if match.group("op") == "=":  # code and .env files: anything but a placeholder is a value
            if _literal(value) is not None:
                return match.span("value")
            continue
        if key.lower() in {"pass", "pwd", "pw"}:  # "single pass: 3 iterations" is prose: only a chosen-looking value
            if looks_chosen(_literal(value.rstrip(_TRAILING)) or ""):
                return match.span("value")
            continue
        if _value_is_secret(value, next_word(text, match.end())):  # "password: at least 12 characters" is prose
            return match.span("value")
    return None


_KEY_NAME = (r"(?:[A-Za-z0-9]+[_.-])*(?:secret|token|(?:api|access|secret|private|signing|encryption|master|"
             r"account|auth|app|client|session)[_-]?key|apikey|client[_-]?secret|auth|credentials?)")
_KEY_NAME_RE = re.compile(_KEY_NAME, re.I)
_SECRET_VALUE = r"""(?P<value>"[^"\n]{16,512}"|'[^'\n]{16,512}'|[^\s"'`,;]{16,512})"""
_SECRET_ASSIGNMENT = re.compile(r"""(?:secret|token|key|auth|credentials?)["']?[ \t]*[:=][ \t]*""" + _SECRET_VALUE,
                                re.I)
_AUTH_SCHEME = re.compile(r"(?:bearer|token|basic)[ \t]+" + _SECRET_VALUE, re.I)
_SECRET_TRIGGER = ("secret", "token", "key", "auth", "credential")
# Round 2: "this API key, keep it safe: <random>": the name, a few words, a colon, then a random value.
_NAMED_LATER = re.compile(r"(?:api[ _-]?key|access[ _-]?key|private[ _-]?key|secret(?:[ _-]?key)?|token|"
                          # round 7: the keys a shop or a licence gives ("Partner key untuk integrasi kedai: ...")
                          r"(?:partner|merchant|licen[cs]e|integration)[ _-]?key)\b[^:\n]{0,40}"
                          r"(?::|\s(?:is|was|ist|est|es|é|è)\s)[ \t]*"
                          + _SECRET_VALUE, re.I)
_NAMED_LATER_TRIGGER = ("api", "access", "private", "secret", "token", "partner", "merchant", "licen", "integration")
# The same in the word list's other languages ("API-Schlüssel: ...", "clé privée : ...", "ライセンスキー：..."): the key's
# name from words.csv (purpose "key_name"), a few words, then a colon or that language's "is".
_KEY_NAMES = labels("key_name")
_NAMED_ELSEWHERE = re.compile("(?:" + "|".join(map(re.escape, _KEY_NAMES)) + r")[^:：\n]{0,40}?"
                              r"(?:[:：]|\s(?:is|ist|lautet|est|es|é|è|är)\s|は)[ \t]*" + _SECRET_VALUE, re.I)
# Round 7: a key-like identifier, then a space, then the value, as logs print them ("auth_token 29ba...").
_SPACED = re.compile(r"(?<=[a-z0-9][_-])(?:token|secret|key)[ \t]+" + _SECRET_VALUE, re.I)
_SPACED_TRIGGER = ("token", "secret", "key")
# Issue 48: a long hex value under any key's name ("webhook signing secret 9f2c...", "HMAC key for the API: 4f1c..."),
# with or without a connector: 32+ hex digits, letters and digits mixed, and no word between saying it is public.
_HEX_NAMED = re.compile(r"(?:secret|key)\b(?P<between>[^\n:=]{0,40}?)(?:\s*[:=]\s*|\s+(?:is|was)\s+|\s+)[\"']?"
                        r"(?P<value>[0-9a-fA-F]{32,128})(?![0-9A-Za-z])", re.I)
_HEX_TRIGGER = ("secret", "key")
_PUBLIC_HEX = re.compile(r"\b(?:public|pub|id|fingerprint|hash|digest|checksum|commit|sha\d*|md5|uuid|version|build|"
                         r"rotation|thumbprint|serial)\b", re.I)


def _hex_named(text: str, match: re.Match[str]) -> bool:
    """32+ hex digits, six letters and six digits at least, with no word saying public before the name or between."""
    value = match.group("value")
    word_before = text[max(0, match.start() - 12):match.start()].split()[-1:]
    return (sum(c.isdigit() for c in value) >= 6 and sum(c.isalpha() for c in value) >= 6
            and _PUBLIC_HEX.search(" ".join(word_before)) is None and _PUBLIC_HEX.search(match.group("between")) is None)


_AUTH_TRIGGER = ("bearer", "token", "basic")

def _find_secret_assignment(text: str) -> Span | None:
    """A random-looking value given to a key-like name: client_secret=..., "api_key": "...", Bearer ..."""
    if not has_long_token(text):
        return None  # every value below is 16+ characters without a space
    if "=" in text or ":" in text:
        for match in _matches_folded(_SECRET_TRIGGER, _SECRET_ASSIGNMENT, text):
            if _key_before(text, match, _KEY_NAME_RE) is not None and _high_entropy(match.group("value")):
                return match.span("value")
    for match in _matches_folded(_SPACED_TRIGGER, _SPACED, text):
        if _high_entropy(match.group("value")):
            return match.span("value")
    for match in _matches_folded(_AUTH_TRIGGER, _AUTH_SCHEME, text, _AFTER_UNICODE_WORD):
        if _high_entropy(match.group("value")):
            return match.span("value")
    for triggers, pattern in ((_NAMED_LATER_TRIGGER, _NAMED_LATER), (_KEY_NAMES, _NAMED_ELSEWHERE)):
        for match in _matches_folded(triggers, pattern, text, _AFTER_UNICODE_WORD):
            if _high_entropy(match.group("value")) and not _PUBLIC_HEX.search(text[match.start():match.start("value")]):
                return match.span("value")  # unless a word between says it is public ("secret santa list hash: ...")
    for match in _matches_folded(_HEX_TRIGGER, _HEX_NAMED, text):
        if _hex_named(text, match):
            return match.span("value")
    return None


# Round 2: a long random token standing on its own is a key whatever its vendor ("keep it safe: CEoD...Lq6W").
_LONE_RUN = re.compile(r"[A-Za-z0-9_+/=-]{32,}+")
_PUBLIC_KEY_HEAD = ("AAAAB3NzaC1", "AAAAC3NzaC1", "AAAAE2VjZHNh",  # ssh-rsa / ssh-ed25519 / ecdsa public keys
                    "pk_live_", "pk_test_", "sb_publishable_")  # publishable keys, made to ship in a web page
_URL_OR_DATA = re.compile(r"[/:.@]$|base64,$")
_LONE_MAX = 512  # longer runs are blobs (base64 files, hashes of hashes), not one key
_DIGITS_GONE = str.maketrans("", "", "0123456789")


def _random_enough(run: str) -> bool:
    """Upper, lower and 2+ digits, 4+ bits per character, and not made of words (see _high_entropy)."""
    core = run.strip("=")
    return (32 <= len(core) <= _LONE_MAX and not core.startswith(_PUBLIC_KEY_HEAD) and core.lower() != core
            and core.upper() != core and len(core) - len(core.translate(_DIGITS_GONE)) >= 2
            and _entropy(core) >= 4.0 and _high_entropy(core))


def _in_public_block(text: str, pos: int) -> bool:
    """Inside a PEM public key or certificate: base64 that is meant to be shared."""
    begin = text.rfind("-----BEGIN ", max(0, pos - 8192), pos)
    if begin == -1 or text.find("-----END ", begin, pos) != -1:
        return False
    header = text[begin:begin + 48]
    return "PUBLIC KEY" in header or "CERTIFICATE" in header


_LABEL = re.compile(r"""([\w.-]{1,40})["']?\s*[:=]\s*["']?\s*$""")
# Labels of values that are long and random but public: keys meant to be shared, ids, digests (round 3).
_PUBLIC_LABEL = re.compile(r"public|pubkey|^pub$|^(?:n|e|x|y|kid|modulus|exponent)$|request|trace|span|correlation"
                           r"|checksum|digest|hash|^sha|^md5|etag|fingerprint|thumbprint|(?:^|[_.-])id(?:[_.-]\d+)?$"
                           r"|^id$|nonce|integrity")
_SECRET_LABEL = re.compile(r"secret|password|passwd|token|private|credential|auth")


def _public_label(text: str, pos: int) -> bool:
    """Whether the key name right before `pos` on its line says the value is public: 'PublicKey =', '"n":',
    'x-amz-id-2:', 'sha256:'. A name that also says secret ('secret_id', 'private_key_hash') is not public."""
    line = text[max(text.rfind("\n", 0, pos) + 1, pos - 64):pos].lower()
    label = _LABEL.search(line)
    name = label.group(1) if label else line.rsplit(None, 1)[-1] if line.strip() else ""
    return bool(_PUBLIC_LABEL.search(name)) and not _SECRET_LABEL.search(name)


# A transaction's signature or hash on a public ledger is published by the chain itself (round 8).
_LEDGER_LABEL = re.compile(r"\b(?:tx|txn|transaction)[ _-]?(?:signature|sig|hash|id)\W{0,3}$", re.I)


def find_lone_token(text: str) -> Span | None:
    """A 32-512 character random token not inside a URL, a data: URI, an SSH public key or a PEM public block."""
    if not has_long_token(text):
        return None  # no 16 characters in a row without a space, quote, comma or semicolon: no 32 either
    for run in dict.fromkeys(_LONE_RUN.findall(text)):
        if not _random_enough(run):
            continue
        pos = text.find(run)
        while pos != -1:
            before = text[max(0, pos - 7):pos]
            glued = pos > 0 and (text[pos - 1].isalnum() or text[pos - 1] in "_+/=-")
            if (not glued and not _URL_OR_DATA.search(before) and not _in_public_block(text, pos)
                    and not _public_label(text, pos) and not _LEDGER_LABEL.search(text, max(0, pos - 40), pos)):
                return pos, pos + len(run)
            pos = text.find(run, pos + 1)
    return None



# A key stored as a JSON array of its bytes (a Solana keypair file is 64 of them), round 3.
_BYTE_ARRAY = re.compile(r"\[\s*(?:\d{1,3}\s*,\s*){31}(?:(?:\d{1,3}\s*,\s*){32})?\d{1,3}\s*\]")


def _key_bytes(match: re.Match[str]) -> bool:
    values = [int(v) for v in match.group()[1:-1].split(",")]
    return all(v <= 255 for v in values) and len(set(values)) >= len(values) // 2


def find_byte_array_key(text: str) -> Span | None:
    """32 or 64 random bytes written as a JSON array: the raw secret key of a keypair file."""
    if "[" not in text or text.count(",") < 31:
        return None
    for match in _BYTE_ARRAY.finditer(text):
        if _key_bytes(match):
            return match.span()
    return None


# A PEM private key inside base64, as kubeconfig's client-key-data and Kubernetes Secrets hold it (round 4):
# base64 of "-----BEGIN" always starts with these 14 characters, and the decoded header names the key.
_PEM_IN_BASE64 = "LS0tLS1CRUdJTi"
_B64_RUN = re.compile(r"[A-Za-z0-9+/]+={0,2}")


def find_encoded_private_key(text: str) -> Span | None:
    """A base64-encoded PEM block whose header says PRIVATE KEY (a certificate's says CERTIFICATE)."""
    pos = text.find(_PEM_IN_BASE64)
    while pos != -1:
        run = _B64_RUN.match(text, pos)  # always a match: the text at pos is base64
        assert run is not None
        head = run.group()[:88]
        try:
            decoded = base64.b64decode(head[:len(head) // 4 * 4], validate=True)
        except (binascii.Error, ValueError):
            decoded = b""
        if b"PRIVATE KEY" in decoded:
            return run.span()
        pos = text.find(_PEM_IN_BASE64, pos + 1)
    return None


# A password stored base64-encoded under a name that says so, "password_b64: Z2F0dG8wIQ==" (round 8): encoding is
# not encryption, anyone can decode it. The name is found in the lowered text (re.IGNORECASE would scan a megabyte
# position by position, ~150 ms); the value is read from the text itself, where its case matters.
_ENCODED_PASSWORD = re.compile(r"(?:password|passwd|passphrase|pwd|pass|secret|token)[_.-]?(?:b64|base64)[\"']?"
                               r"[ \t]*[:=][ \t]*[\"']?(?P<value>[a-z0-9+/]{4,256}={0,2})(?![a-z0-9+/=])")


def find_encoded_password(text: str) -> Span | None:
    """A base64 value under a password or secret name ending in b64/base64 that decodes to readable text."""
    low = lowered(text)
    if "b64" not in low and "base64" not in low:
        return None
    # Each distinct value is decoded once: a megabyte of one repeated value costs one decoding.
    spans = {}
    for match in _ENCODED_PASSWORD.finditer(low):
        spans.setdefault(text[match.start("value"):match.end("value")], match.span("value"))
    return next((span for value, span in spans.items() if _decodes_to_text(value)), None)


def _decodes_to_text(value: str) -> bool:
    try:
        decoded = base64.b64decode(value + "=" * (-len(value) % 4), validate=True).decode()
    except (binascii.Error, ValueError):
        return False
    return decoded.isprintable() and bool(decoded.strip()) and _literal(decoded) is not None
