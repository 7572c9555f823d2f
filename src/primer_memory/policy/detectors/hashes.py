"""Stored secrets that are not API tokens: password hashes and private key material.

A password hash is not the password, but it is all an attacker needs to start guessing offline, so
memory refuses it like a key. The formats are the modular crypt strings ($2b$, $6$, $argon2id$...),
framework and directory encodings (Django, Werkzeug, LDAP {SSHA}), and dump lines (pwdump, NetNTLMv2);
/etc/shadow and htpasswd lines are caught by the crypt string they hold. Private keys here are those
detect_formats' PEM detector does not cover (it already handles PGP, ENCRYPTED, DSA, OpenSSH and PuTTY
blocks): WireGuard keys, SSH2 and JWK key files,
minisign/signify secret keys, and wallet keys whose checksum (base58check, bech32) proves the format.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Callable

from .token_scan import first_of, random_enough
from ..scan import Span, first_accepted, lowered, match_of

_CRYPT_CHARS = "./A-Za-z0-9"
_C = f"[{_CRYPT_CHARS}]"
_END = f"(?![{_CRYPT_CHARS}$])"

# Modular crypt format: '$id$' then fields. bcrypt, the commonest, is led by the literal '$2' so re skips
# to it; the rest share one regex led by '$'.
_BCRYPT = re.compile(rf"\$2[abxy]?\$\d\d\${_C}{{53}}{_END}")
_MODULAR_CRYPT = re.compile(
    r"\$(?=[156789agpsy])(?:"
    rf"(?:1|apr1)\${_C}{{1,8}}\${_C}{{22}}"  # md5-crypt, Apache apr1 (htpasswd)
    rf"|5\$(?:rounds=\d{{1,9}}\$)?{_C}{{1,16}}\${_C}{{43}}"  # sha256-crypt
    rf"|6\$(?:rounds=\d{{1,9}}\$)?{_C}{{1,16}}\${_C}{{86}}"  # sha512-crypt (/etc/shadow)
    rf"|g?y\${_C}{{1,32}}\${_C}{{1,86}}\${_C}{{43}}"  # yescrypt, gost-yescrypt
    rf"|7\${_C}{{11,64}}\${_C}{{43}}"  # scrypt ($7$)
    rf"|[89]\${_C}{{14}}\${_C}{{43}}"  # Cisco type 8 (PBKDF2) and 9 (scrypt)
    r"|argon2(?:id|i|d)\$(?:v=\d{1,3}\$)?m=\d{1,9},t=\d{1,9},p=\d{1,3}\$[A-Za-z0-9+/]{8,88}\$[A-Za-z0-9+/]{16,128}"
    r"|scrypt\$ln=\d{1,2},r=\d{1,3},p=\d{1,3}\$[A-Za-z0-9+/.]{8,88}\$[A-Za-z0-9+/.]{16,128}"  # passlib
    rf"|pbkdf2(?:-sha1|-sha256|-sha512)?\$\d{{1,7}}\${_C}{{4,88}}\${_C}{{16,128}}"  # passlib
    rf"){_END}"
)
_OTHER_HASHES: tuple[tuple[str, re.Pattern[str]], ...] = (
    # Django: algorithm$iterations$salt$hash
    ("pbkdf2", re.compile(r"pbkdf2_sha(?:1|256)\$\d{1,7}\$[A-Za-z0-9+/=._-]{1,64}\$[A-Za-z0-9+/]{24,90}={0,2}"
                          r"(?![A-Za-z0-9+/=])")),
    ("scrypt", re.compile(r"scrypt\$\d{2,8}\$[A-Za-z0-9]{1,64}\$\d{1,3}\$\d{1,3}\$[A-Za-z0-9+/]{40,128}={0,2}"
                          r"(?![A-Za-z0-9+/=])")),
    # Werkzeug (Flask): method:parameters$salt$hex
    ("pbkdf2", re.compile(r"pbkdf2:sha(?:1|256|512):\d{1,7}\$[A-Za-z0-9]{1,64}\$[0-9a-f]{40,128}(?![0-9a-z])")),
    ("scrypt", re.compile(r"scrypt:\d{1,8}:\d{1,3}:\d{1,3}\$[A-Za-z0-9]{1,64}\$[0-9a-f]{64,256}(?![0-9a-z])")),
    # LDAP userPassword and htpasswd {SHA}: a scheme in braces, then base64
    ("{", re.compile(r"\{(?:S?SHA(?:256|384|512)?|S?MD5|PBKDF2[-A-Z0-9]{0,12})\}[A-Za-z0-9+/.$]{20,200}={0,2}"
                     r"(?![A-Za-z0-9+/=])")),
    # PostgreSQL SCRAM verifier
    ("SCRAM-SHA-256$", re.compile(r"SCRAM-SHA-256\$\d{1,7}:[A-Za-z0-9+/]{16,64}={0,2}\$[A-Za-z0-9+/]{43}=:"
                                  r"[A-Za-z0-9+/]{43}=")),
    # MySQL mysql_native_password: '*' and 40 upper-case hex
    ("*", re.compile(r"\*(?<![A-Za-z0-9*]\*)[0-9A-F]{40}(?![0-9A-Za-z])")),
)
# Dump lines. pwdump 'user:RID:LM:NT:::' is found from its closing ':::' (the hashes in a lookbehind),
# NetNTLMv2 'user::DOMAIN:challenge:proof:blob' from its '::'; the user name is then read backwards.
_PWDUMP = re.compile(r":::(?<=:([0-9a-fA-F]{32}):([0-9a-fA-F]{32}):::)")
_NETNTLMV2 = re.compile(r"::[^\s:]{1,64}:[0-9a-fA-F]{16}:[0-9a-fA-F]{32}:[0-9a-fA-F]{40,4000}(?![0-9a-zA-Z])")
_LINE_START = re.compile(r"[^\s:'\"`(),;=]{1,64}(?::\d{1,10})?$")


def _hash_like(found: str) -> bool:
    """The random fields of a hash look random; '$2b$12$' + 53 x's is a placeholder."""
    fields = [f for f in re.split(r"[$:{}*]", found) if len(f) >= 13]
    return bool(fields) and random_enough(max(fields, key=len), mixed=False)


def _netntlm(found: str) -> bool:
    return random_enough(found.split(":")[4], mixed=False)


def _first_in(pattern: re.Pattern[str], text: str, accept: Callable[[str], bool], lead: str) -> re.Match[str] | None:
    """The first accepted match, searched in `text` with its runs of four `lead` characters cut out when dense.

    No hash format holds more than three in a row, so the cut keeps every hash while a text made of the
    lead character ('::::', '$$$$') no longer stops the search at each one; matches are then found again
    in the text as it is.
    """
    for found in dict.fromkeys(pattern.findall(_cut(text, lead))):
        if accept(found):
            match = match_of(pattern, text, found)  # None if the cut joined pieces into a match the text lacks
            if match is not None:
                return match
    return None


def _pwdump_line(text: str) -> Span | None:
    """The first 'user:RID:LM:NT:::' line whose NT hash looks random, found from its ':::' (cut when dense)."""
    for lm, nt in dict.fromkeys(_PWDUMP.findall(_cut(text, ":"))):
        if random_enough(nt, mixed=False):
            line = f":{lm}:{nt}:::"
            start = text.find(line)
            return start, start + len(line)
    return None


def _cut(text: str, lead: str) -> str:
    """`text` with runs of four `lead` characters cut out, when its start is dense in them (no format has four)."""
    sample = text[:1 << 16]
    return text.replace(lead * 4, "") if sample.count(lead) * 8 > len(sample) else text


def find_password_hash(text: str) -> Span | None:
    """A password hash: crypt ($2b$, $6$, $y$...), argon2, scrypt, PBKDF2, LDAP {SSHA}, pwdump or NetNTLMv2 lines."""
    found: list[Span] = []
    rules: list[tuple[re.Pattern[str], str, Callable[[str], bool]]] = []
    if "$" in text:
        rules += [(_BCRYPT, "$", _hash_like), (_MODULAR_CRYPT, "$", _hash_like)]
    present = {piece for piece in {piece for piece, _ in _OTHER_HASHES} if piece in text}
    rules += [(pattern, piece[0], _hash_like) for piece, pattern in _OTHER_HASHES if piece in present]
    if "::" in text:
        rules.append((_NETNTLMV2, ":", _netntlm))
    for pattern, lead, accept in rules:
        match = _first_in(pattern, text, accept, lead)
        if match is not None:
            found.append(match.span())
    if ":::" in text and (line := _pwdump_line(text)) is not None:
        found.append(line)
    if not found:
        return None
    start, end = min(found)
    if text[start] == ":":  # a dump line starts with the user name (and RID) before its colon
        user = _LINE_START.search(text, max(0, start - 80), start)
        start = user.start() if user else start
    return start, end


# --------------------------------------------------------------------------- private key material

_WIREGUARD = re.compile(r"((?:private|preshared)key[ \t]{0,8}=[ \t]{0,8}(?P<secret>[a-z0-9+/]{42}[aeimquycgkosw048]=))"
                        r"(?![a-z0-9+/=])")


def find_wireguard_key(text: str) -> Span | None:
    """A WireGuard PrivateKey or PresharedKey line: 32 bytes in base64 (43 characters and '=')."""
    match = first_of((("privatekey", _WIREGUARD, True), ("presharedkey", _WIREGUARD, True)), lowered(text))
    return None if match is None else match.span("secret")


_B58 = "123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz"
_B58_CLASS = "1-9A-HJ-NP-Za-km-z"
_WIFS = tuple(re.compile(f"{lead}(?<![{_B58_CLASS}]{lead})[{_B58_CLASS}]{{50,51}}(?![{_B58_CLASS}])") for lead in "5KL")
_EXTENDED = re.compile(f"prv(?<=([xyztuvYZUV])prv)(?<![{_B58_CLASS}].prv)([{_B58_CLASS}]{{107}})(?![{_B58_CLASS}])")
_BECH32 = "qpzry9x8gf2tvdw0s3jn54khce6mua7l"
_NSEC = re.compile(f"nsec1(?<![a-z0-9]nsec1)[{_BECH32}]{{58}}(?![a-z0-9])")
_ETH_LABELLED = re.compile(r"(priv(?:ate)?[ _-]?key[\"' \t:=>is]{1,12}"
                           r"(?:0x)?(?P<secret>[0-9a-f]{64}))(?![0-9a-z])")
# Hardhat and Foundry configs list the deployer's raw key: accounts: ['0x<64 hex>'] (round 3, third corpus tune half).
_ETH_ACCOUNTS = re.compile(r"(accounts[\"' \t]*[:=][ \t]*\[[ \t]*[\"'](?:0x)?(?P<secret>[0-9a-f]{64})[\"'])")


def _base58check(value: str) -> bytes | None:
    """The payload of a base58check string, or None if its 4-byte double-SHA256 checksum is wrong."""
    number = 0
    for char in value:
        number = number * 58 + _B58.index(char)
    raw = number.to_bytes((number.bit_length() + 7) // 8, "big")
    raw = b"\0" * (len(value) - len(value.lstrip("1"))) + raw
    payload, check = raw[:-4], raw[-4:]
    return payload if len(raw) > 4 and hashlib.sha256(hashlib.sha256(payload).digest()).digest()[:4] == check else None


def _wif(value: str) -> bool:
    payload = _base58check(value)
    return payload is not None and payload[:1] == b"\x80" and (
        len(payload) == 33 or (len(payload) == 34 and payload[-1] == 1))


def _extended_key(value: str) -> bool:
    payload = _base58check(value)
    return payload is not None and len(payload) == 78 and payload[45] == 0  # private: key data starts with 0x00


def _bech32_valid(value: str) -> bool:
    """BIP-173 checksum over the human-readable part and the data."""
    hrp, data = value[:value.rindex("1")], [_BECH32.index(c) for c in value[value.rindex("1") + 1:]]
    generator = (0x3B6A57B2, 0x26508E6D, 0x1EA119FA, 0x3D4233DD, 0x2A1462B3)
    checksum = 1
    for v in [ord(c) >> 5 for c in hrp] + [0] + [ord(c) & 31 for c in hrp] + data:
        top, checksum = checksum >> 25, (checksum & 0x1FFFFFF) << 5 ^ v
        for i in range(5):
            checksum ^= generator[i] if (top >> i) & 1 else 0
    return checksum == 1


def find_wallet_key(text: str) -> Span | None:
    """A cryptocurrency private key: Bitcoin WIF or xprv (checksum valid), Nostr nsec, or labelled 0x + 64 hex.

    Only mainnet WIF keys (5, K, L) are looked for: testnet ones hold nothing, and leaving out '9' and 'c'
    keeps a text of hex digits from stopping the search at every fifth character.
    """
    best: Span | None = None
    rules = [(lead, pattern, _wif) for lead, pattern in zip("5KL", _WIFS)] + [("nsec1", _NSEC, _bech32_valid)]
    for piece, pattern, valid in rules:
        if piece in text:
            match = first_accepted(pattern, text, valid)
            if match is not None and (best is None or match.start() < best[0]):
                best = match.span()
    if "prv" in text:  # xprv, tprv...: the version letter sits in the lookbehind, group 1
        for version, body in dict.fromkeys(_EXTENDED.findall(text)):
            if _extended_key(version + "prv" + body):
                start = text.find(version + "prv" + body)
                if best is None or start < best[0]:
                    best = (start, start + 111)
                break
    low = lowered(text)
    if "priv" in low or "accounts" in low:
        match = first_of((("priv", _ETH_LABELLED, False), ("accounts", _ETH_ACCOUNTS, False)), low)
        if match is not None and (best is None or match.start("secret") < best[0]):
            best = match.span("secret")
    return best


_SSH2 = re.compile(r"---- BEGIN SSH2 (?:ENCRYPTED )?PRIVATE KEY ----(?:.{0,8000}?---- END SSH2 (?:ENCRYPTED )?"
                   r"PRIVATE KEY ----)?", re.DOTALL)
_JWK_PRIVATE = re.compile(r"(\"(?:d|k)\"[ \t]*:[ \t]*\"(?P<secret>[A-Za-z0-9_-]{20,2048})\")")
_SIGNIFY = re.compile(r"untrusted comment: [^\n]{0,80}secret key[ \t]*\r?\n[ \t]*[A-Za-z0-9+/]{40,400}={0,2}")


def find_private_key_file(text: str) -> Span | None:
    """A private key in a form other than PEM: an SSH2 (ssh.com) key, a JWK with its private part, a minisign key."""
    best: Span | None = None
    if "---- BEGIN SSH2 " in text:
        match = _SSH2.search(text)
        best = match.span() if match else None
    if '"kty"' in text:
        match = first_of((('"', _JWK_PRIVATE, False),), text)
        if match is not None and (best is None or match.start() < best[0]):
            best = match.span("secret")
    if "secret key" in text and "untrusted comment: " in text:
        match = _SIGNIFY.search(text)
        if match is not None and (best is None or match.start() < best[0]):
            best = match.span()
    return best
