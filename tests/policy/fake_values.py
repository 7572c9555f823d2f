"""Fake secret values for the policy tests, each built from its format's public description.

Every value is generated from a seeded `random.Random`, so nothing live-looking sits in the
source and a rerun gives the same corpus. Check characters come from python-stdnum (through
`checksums.complete`, or stdnum's own calc_check_digits for an IBAN's middle), so a valid value
here is valid for the detector that asks stdnum, and an invalid one is a real near miss.
"""

from __future__ import annotations

import base64
import json
import random
import string
from urllib.parse import quote

from collections.abc import Callable

from stdnum import iban as stdnum_iban

from primer_memory.policy.checksums import complete

UPPER = string.ascii_uppercase
LOWER = string.ascii_lowercase
DIGITS = string.digits
BASE62 = UPPER + LOWER + DIGITS
B64URL = BASE62 + "-_"
HEX = "0123456789abcdef"
BECH32 = "QPZRY9X8GF2TVDW0S3JN54KHCE6MUA7L"


def chars(rng: random.Random, alphabet: str, n: int) -> str:
    return "".join(rng.choice(alphabet) for _ in range(n))


def mixed(rng: random.Random, alphabet: str, n: int) -> str:
    """n random characters with at least one letter and one digit, as real keys of that length have."""
    while True:
        value = chars(rng, alphabet, n)
        if any(c.isdigit() for c in value) and any(c.isalpha() for c in value):
            return value


def b64(rng: random.Random, nbytes: int) -> str:
    return base64.b64encode(bytes(rng.randrange(256) for _ in range(nbytes))).decode()


def b64url_json(data: dict[str, object]) -> str:
    return base64.urlsafe_b64encode(json.dumps(data, separators=(",", ":")).encode()).rstrip(b"=").decode()


# --------------------------------------------------------------------------- national identifiers


def completed(rng: random.Random, kind: str, body: Callable[[], str], alphabet: str = DIGITS, width: int = 1) -> str:
    """A body from `body()` completed by python-stdnum to a valid `kind`; a body no ending makes valid is redrawn."""
    while (value := complete(kind, body(), alphabet, width)) is None:
        pass
    return value


def fake_dni(rng: random.Random) -> str:
    if rng.random() < 0.3:  # NIE for foreigners: X/Y/Z stand for 0/1/2
        return completed(rng, "es_nie", lambda: rng.choice("XYZ") + chars(rng, DIGITS, 7), UPPER)
    return completed(rng, "es_dni", lambda: f"{rng.randrange(10**7, 10**8)}", UPPER)


def fake_codice_fiscale(rng: random.Random) -> str:
    return completed(rng, "it_codice_fiscale", lambda: (
        chars(rng, "BCDFGHLMNPRSTVZ", 6) + f"{rng.randrange(40, 100):02d}" + rng.choice("ABCDEHLMPRST")
        + f"{rng.choice([rng.randrange(1, 32), rng.randrange(41, 72)]):02d}" + rng.choice("ABCDEFGHLMZ")
        + chars(rng, DIGITS, 3)), UPPER)


def fake_aadhaar(rng: random.Random) -> str:
    number = completed(rng, "in_aadhaar", lambda: rng.choice("23456789") + chars(rng, DIGITS, 10))
    return " ".join(number[i:i + 4] for i in range(0, 12, 4)) if rng.random() < 0.7 else number


def fake_cpf(rng: random.Random) -> str:
    n = completed(rng, "br_cpf", lambda: chars(rng, DIGITS, 9), width=2)
    return f"{n[:3]}.{n[3:6]}.{n[6:9]}-{n[9:]}" if rng.random() < 0.7 else n


def fake_sin(rng: random.Random) -> str:
    n = completed(rng, "ca_sin", lambda: rng.choice("1234567") + chars(rng, DIGITS, 7))
    return rng.choice([f"{n[:3]}-{n[3:6]}-{n[6:]}", f"{n[:3]} {n[3:6]} {n[6:]}"])


def fake_insee(rng: random.Random) -> str:
    """French NIR: sex, year, month, department, commune, order, then the two-digit key stdnum computes."""
    sex, year, month = rng.choice("12"), f"{rng.randrange(100):02d}", f"{rng.randrange(1, 13):02d}"
    dept, commune = f"{rng.randrange(1, 96):02d}", f"{rng.randrange(1, 1000):03d}"
    order = f"{rng.randrange(1, 1000):03d}"
    n = complete("fr_nir", sex + year + month + dept + commune + order, width=2)
    assert n is not None  # every 13-digit body has exactly one key
    return rng.choice([f"{sex} {year} {month} {dept} {commune} {order} {n[13:]}", n])


def fake_uk_ni(rng: random.Random) -> str:
    first = rng.choice("ABCEGHJKLMNOPRSTWXYZ")
    second = rng.choice("ABCEGHJKLMNPRSTWXYZ")
    while first + second in {"BG", "GB", "NK", "KN", "TN", "NT", "ZZ"}:
        second = rng.choice("ABCEGHJKLMNPRSTWXYZ")
    digits = chars(rng, DIGITS, 6)
    suffix = rng.choice("ABCD")
    if rng.random() < 0.5:
        return f"{first}{second} {digits[:2]} {digits[2:4]} {digits[4:]} {suffix}"
    return f"{first}{second}{digits}{suffix}"


def fake_passport(rng: random.Random) -> str:
    return rng.choice([chars(rng, DIGITS, 9), rng.choice(UPPER) + chars(rng, DIGITS, 8),
                       chars(rng, UPPER, 2) + chars(rng, DIGITS, 7), mixed(rng, UPPER + DIGITS, 9)])


def fake_ssn(rng: random.Random) -> str:
    area = rng.choice([a for a in range(1, 900) if a != 666])
    return f"{area:03d}-{rng.randrange(1, 100):02d}-{rng.randrange(1, 10000):04d}"


def fake_card(rng: random.Random) -> str:
    prefix, length = rng.choice([("4", 16), ("51", 16), ("55", 16), ("2221", 16), ("34", 15), ("37", 15),
                                 ("6011", 16), ("65", 16), ("3530", 16), ("36", 14), ("62", 16)])
    number = completed(rng, "luhn", lambda: prefix + chars(rng, DIGITS, length - len(prefix) - 1))
    grouped = " ".join(number[i:i + 4] for i in range(0, len(number), 4))
    return rng.choice([number, grouped, grouped.replace(" ", "-")])


def fake_iban(rng: random.Random) -> str:
    country, length = rng.choice([("DE", 22), ("FR", 27), ("NL", 18), ("ES", 24), ("IT", 27), ("GB", 22),
                                  ("CH", 21), ("AT", 20), ("BE", 16), ("PL", 28), ("SE", 24), ("NO", 15)])
    bban = chars(rng, DIGITS, length - 4)
    if country in {"GB", "NL"}:
        bban = chars(rng, UPPER, 4) + bban[4:]
    iban = country + stdnum_iban.calc_check_digits(country + "00" + bban) + bban
    return " ".join(iban[i:i + 4] for i in range(0, len(iban), 4)) if rng.random() < 0.5 else iban


# --------------------------------------------------------------------------- vendor tokens


def fake_vendor(rng: random.Random, kind: str) -> str:
    """One fake token of a vendor's documented shape."""
    makers = {
        "aws": lambda: rng.choice(["AKIA", "ASIA"]) + mixed(rng, UPPER + "234567", 16),
        "github": lambda: rng.choice(["ghp_", "gho_", "ghs_"]) + chars(rng, BASE62, 36),
        "gitlab": lambda: "glpat-" + chars(rng, B64URL, 20),
        "slack": lambda: f"xoxb-{chars(rng, DIGITS, 12)}-{chars(rng, DIGITS, 13)}-{chars(rng, BASE62, 24)}",
        "stripe": lambda: rng.choice(["sk_live_", "rk_live_"]) + chars(rng, BASE62, 24),
        "google": lambda: "AIza" + chars(rng, B64URL, 35),
        "openai": lambda: "sk-proj-" + mixed(rng, BASE62, 40),
        "azure_key": lambda: b64(rng, 64),
        "azure_sas": lambda: quote(b64(rng, 32), safe=""),
        "twilio": lambda: "SK" + chars(rng, HEX, 32),
        "discord": lambda: (base64.b64encode(str(rng.randrange(10**17, 10**18)).encode()).decode().rstrip("=")
                            + "." + chars(rng, B64URL, 6) + "." + chars(rng, B64URL, 38)),
        "discord_webhook": lambda: (f"https://{rng.choice(['discord.com', 'discordapp.com'])}/api/webhooks/"
                                    f"{rng.randrange(10**17, 10**19)}/{chars(rng, B64URL, 68)}"),
        "telegram": lambda: f"{rng.randrange(10**7, 10**10)}:AA{chars(rng, B64URL, 33)}",
        "digitalocean": lambda: rng.choice(["dop_v1_", "doo_v1_", "dor_v1_"]) + chars(rng, HEX, 64),
        "mailgun": lambda: rng.choice([f"key-{chars(rng, HEX, 32)}",
                                       f"{chars(rng, HEX, 32)}-{chars(rng, HEX, 8)}-{chars(rng, HEX, 8)}"]),
        "databricks": lambda: "dapi" + chars(rng, HEX, 32) + rng.choice(["", "-2", "-3"]),
        "age": lambda: "AGE-SECRET-KEY-1" + chars(rng, BECH32, 58),
        "sendgrid": lambda: "SG." + chars(rng, B64URL, 22) + "." + chars(rng, B64URL, 43),
        "huggingface": lambda: "hf_" + chars(rng, UPPER + LOWER, 34),
        "npm": lambda: "npm_" + chars(rng, BASE62, 36),
        "jwt": lambda: (b64url_json({"alg": "HS256", "typ": "JWT"}) + "."
                        + b64url_json({"sub": chars(rng, DIGITS, 8), "iat": 1700000000 + rng.randrange(10**6)})
                        + "." + chars(rng, B64URL, 43)),
    }
    return makers[kind]()


def fake_pem(rng: random.Random, kind: str = "RSA") -> str:
    label = {"RSA": "RSA PRIVATE KEY", "EC": "EC PRIVATE KEY", "PKCS8": "PRIVATE KEY",
             "OPENSSH": "OPENSSH PRIVATE KEY"}[kind]
    body = "\n".join(chars(rng, BASE62 + "+/", 64) for _ in range(rng.randint(3, 6)))
    return f"-----BEGIN {label}-----\n{body}\n-----END {label}-----"


def fake_putty(rng: random.Random) -> str:
    version = rng.choice(["2", "3"])
    algo = rng.choice(["ssh-rsa", "ssh-ed25519"])
    return (f"PuTTY-User-Key-File-{version}: {algo}\nEncryption: none\nComment: deploy@build\nPublic-Lines: 2\n"
            f"{chars(rng, BASE62 + '+/', 64)}\n{chars(rng, BASE62 + '+/', 40)}\nPrivate-Lines: 1\n"
            f"{chars(rng, BASE62 + '+/', 44)}\nPrivate-MAC: {chars(rng, HEX, 64)}")


def fake_gcp_json(rng: random.Random) -> str:
    project = rng.choice(["acme-ledger", "globex-billing", "initech-prod"])
    data: dict[str, str] = {"type": "service_account", "project_id": project,
                            "private_key_id": chars(rng, HEX, 40)}
    if rng.random() < 0.5:
        data["client_email"] = f"etl@{project}.iam.gserviceaccount.com"
    return json.dumps(data)


# --------------------------------------------------------------------------- things people choose


def fake_password(rng: random.Random) -> str:
    """A password a person might pick: a word with digits or a symbol, or a random string."""
    word = rng.choice(["hunter", "Summer", "dragon", "Tr0ub4dor", "monkey", "Sunshine", "letmein", "Qwerty",
                       "Bonjour", "Sommer", "verano", "gatto", "zomer", "kwiatek", "tigre", "Kaffee"])
    return rng.choice([word + chars(rng, DIGITS, rng.randint(1, 4)) + rng.choice(["", "!", "#", "&", "$"]),
                       mixed(rng, BASE62 + "!#%&*", rng.randint(8, 14))])


def fake_pin(rng: random.Random, n: int | None = None) -> str:
    return chars(rng, DIGITS, n or rng.choice([4, 4, 6]))


def fake_combination(rng: random.Random) -> str:
    a, b, c = (rng.randrange(1, 60) for _ in range(3))
    return rng.choice([f"{a}-{b}-{c}", f"{a} {b} {c}", f"left {a}, right {b}, left {c}"])
