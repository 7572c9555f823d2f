"""A labelled corpus for the write policy: fake secrets that must be refused, harmless sentences that must not.

Every secret here is FAKE. Token-shaped values are generated from a fixed seed by the
`fake_*` builders below (so no live-looking key sits in the source for a scanner to flag,
and hypothesis reuses the same builders); documented test values (the 4111 1111 1111 1111
test card, the GB82 WEST... IBAN from the ISO examples) are literal and refused, standing in for real ones;
AWS's documented example keys (AKIA...EXAMPLE) are harmless since issue 48 (policy/public.py).

Borderline calls are written down in each case's `note`, so a reader can disagree with
a decision instead of discovering it.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass

from fake_values import BASE62, B64URL, DIGITS, HEX, LOWER, UPPER, chars, fake_iban, mixed
from fake_values import b64url_json as b64url
from primer_memory.policy.checksums import complete


def luhn_complete(prefix_and_body: str) -> str:
    """Append the Luhn check digit stdnum.luhn takes."""
    value = complete("luhn", prefix_and_body)
    assert value is not None  # one of ten digits always completes a Luhn number
    return value


@dataclass(frozen=True)
class Case:
    """One labelled sentence: the verdict the policy must give and, for refusals, which detector."""

    text: str
    verdict: str  # "refuse", "store" or "skip"
    detector: str | None = None
    note: str = ""


# --------------------------------------------------------------------------- fake value builders










def group4(value: str) -> str:
    return " ".join(value[i:i + 4] for i in range(0, len(value), 4))




def fake_aws(rng: random.Random) -> str:
    return rng.choice(["AKIA", "ASIA"]) + mixed(rng, UPPER + "234567", 16)


def fake_github(rng: random.Random) -> str:
    kind = rng.choice(["ghp", "gho", "ghu", "ghs", "ghr", "pat"])
    if kind == "pat":
        return "github_pat_" + chars(rng, BASE62, 22) + "_" + chars(rng, BASE62, 59)
    return f"{kind}_" + chars(rng, BASE62, 36)


def fake_gitlab(rng: random.Random) -> str:
    return rng.choice(["glpat", "gldt", "glrt", "glptt"]) + "-" + chars(rng, BASE62 + "-_", 20)


def fake_slack(rng: random.Random) -> str:
    kind = rng.choice(["xoxb", "xoxp", "xapp", "hook"])
    if kind == "xoxb":
        return f"xoxb-{chars(rng, DIGITS, 12)}-{chars(rng, DIGITS, 13)}-{chars(rng, BASE62, 24)}"
    if kind == "xoxp":
        return f"xoxp-{chars(rng, DIGITS, 12)}-{chars(rng, DIGITS, 12)}-{chars(rng, DIGITS, 13)}-{chars(rng, HEX, 32)}"
    if kind == "xapp":
        return f"xapp-1-A{chars(rng, UPPER + DIGITS, 10)}-{chars(rng, DIGITS, 13)}-{chars(rng, HEX, 64)}"
    return (f"https://hooks.slack.com/services/T{chars(rng, UPPER + DIGITS, 8)}/"
            f"B{chars(rng, UPPER + DIGITS, 8)}/{chars(rng, BASE62, 24)}")


def fake_stripe(rng: random.Random) -> str:
    kind = rng.choice(["sk_live_", "sk_test_", "rk_live_", "rk_test_", "whsec_"])
    return kind + chars(rng, BASE62, 32 if kind == "whsec_" else 24)


def fake_google(rng: random.Random) -> str:
    return "AIza" + chars(rng, B64URL, 35)


def fake_sk(rng: random.Random) -> str:
    kind = rng.choice(["legacy", "proj", "ant"])
    if kind == "legacy":
        return "sk-" + mixed(rng, BASE62, 48)
    if kind == "proj":
        return "sk-proj-" + mixed(rng, BASE62, 40) + "_" + chars(rng, B64URL, 60)
    return "sk-ant-api03-" + mixed(rng, BASE62, 40) + "-" + chars(rng, B64URL, 53) + "AA"


def fake_package(rng: random.Random) -> str:
    if rng.random() < 0.5:
        return "npm_" + chars(rng, BASE62, 36)
    return "pypi-AgEIcHlwaS5vcmc" + chars(rng, B64URL, 60)


def fake_huggingface(rng: random.Random) -> str:
    return "hf_" + chars(rng, UPPER + LOWER, 34)


def fake_sendgrid(rng: random.Random) -> str:
    return "SG." + chars(rng, B64URL, 22) + "." + chars(rng, B64URL, 43)


def fake_jwt(rng: random.Random) -> str:
    header = b64url({"alg": rng.choice(["HS256", "RS256", "ES256"]), "typ": "JWT"})
    payload = b64url({"sub": chars(rng, DIGITS, 8), "name": rng.choice(["Alice", "Bob", "Carol"]),
                      "iat": 1700000000 + rng.randrange(10**6)})
    return f"{header}.{payload}.{chars(rng, B64URL, 43)}"


def fake_card(rng: random.Random) -> str:
    prefix, length = rng.choice([("4", 16), ("51", 16), ("55", 16), ("2221", 16), ("34", 15), ("37", 15),
                                 ("6011", 16), ("65", 16), ("3530", 16), ("36", 14), ("62", 16)])
    number = luhn_complete(prefix + chars(rng, DIGITS, length - len(prefix) - 1))
    return rng.choice([number, group4(number), "-".join(group4(number).split())])


def fake_ssn(rng: random.Random) -> str:
    area = rng.choice([a for a in range(1, 900) if a != 666])
    return f"{area:03d}-{rng.randrange(1, 100):02d}-{rng.randrange(1, 10000):04d}"




def fake_password(rng: random.Random) -> str:
    """A password a person might pick: a word, digits and maybe a symbol."""
    word = rng.choice(["hunter", "Summer", "dragon", "Tr0ub4dor", "monkey", "Sunshine", "letmein", "Qwerty"])
    return word + chars(rng, DIGITS, rng.randint(1, 4)) + rng.choice(["", "!", "#", "&", "$"])


def fake_secret(rng: random.Random) -> str:
    return mixed(rng, BASE62, rng.choice([24, 32, 40]))


# Builders by detector: each returns a sentence with a fresh fake secret, and the secret itself.
Builder = Callable[[random.Random], tuple[str, str]]


def _wrap(template: str, make: Callable[[random.Random], str]) -> Builder:
    def build(rng: random.Random) -> tuple[str, str]:
        secret = make(rng)
        return template.format(secret), secret
    return build


GENERATORS: dict[str, Builder] = {
    "aws_access_key_id": _wrap("the deploy user's key id is {}", fake_aws),
    "github_token": _wrap("use {} for the CI checkout", fake_github),
    "gitlab_token": _wrap("GitLab token for the mirror: {}", fake_gitlab),
    "slack_token": _wrap("the bot posts with {}", fake_slack),
    "stripe_key": _wrap("Stripe: {}", fake_stripe),
    "google_api_key": _wrap("maps key {} (restricted to our domain)", fake_google),
    "sk_api_key": _wrap("OPENAI_API_KEY {}", fake_sk),
    "package_registry_token": _wrap("publish with {}", fake_package),
    "huggingface_token": _wrap("download the weights with {}", fake_huggingface),
    "sendgrid_key": _wrap("mail goes out via {}", fake_sendgrid),
    "jwt": _wrap("session cookie: {}", fake_jwt),
    "card_number": _wrap("Alice's corporate card is {}, expires 09/29", fake_card),
    "us_ssn": _wrap("Bob's SSN is {} per the HR form", fake_ssn),
    "iban": _wrap("pay the refund to {}", fake_iban),
    "password_phrase": _wrap("my laptop password is {}", fake_password),
    "password_assignment": _wrap("DB_PASSWORD={}", fake_password),
    "secret_assignment": _wrap("client_secret={}", fake_secret),
    "url_credentials": lambda rng: (lambda pw: (f"postgres://app:{pw}@db.internal:5432/invoices", pw))(
        fake_password(rng)),
}


# --------------------------------------------------------------------------- positives: must be refused

_rng = random.Random(20260918)


def _gen(detector: str, n: int, note: str = "") -> list[Case]:
    return [Case(GENERATORS[detector](_rng)[0], "refuse", detector, note) for _ in range(n)]


_PEM_BODY = "MIIEowIBAAKCAQEA" + "".join(random.Random(7).choice(BASE62) for _ in range(48))

POSITIVES: list[Case] = [
    # The lesson's example.
    Case("my VPN password is hunter2", "refuse", "password_phrase", "the lesson's example"),
    # Cloud keys: generated ids, and a secret key under its name (AWS's documented examples are harmless below).
    Case("AKIAUITM3KJG7ONJ6NBE is the key id in the runbook", "refuse", "aws_access_key_id", "a key with no keyword"),
    *_gen("aws_access_key_id", 2),
    Case("aws_secret_access_key = 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", "refuse", "secret_assignment",
         "the secret half of an AWS key has no prefix; the key-like name and its randomness give it away"),
    # Code hosts.
    *_gen("github_token", 4),
    *_gen("gitlab_token", 2),
    # Chat and payments.
    *_gen("slack_token", 4),
    *_gen("stripe_key", 3),
    # Other API keys.
    *_gen("google_api_key", 2),
    *_gen("sk_api_key", 3),
    *_gen("package_registry_token", 2),
    *_gen("huggingface_token", 1),
    *_gen("sendgrid_key", 1),
    *_gen("jwt", 2),
    # Private keys: a header alone is enough to refuse; a truncated paste is still a leak.
    Case(f"-----BEGIN RSA PRIVATE KEY-----\n{_PEM_BODY}\n-----END RSA PRIVATE KEY-----", "refuse",
         "private_key_block"),
    Case(f"deploy key:\n-----BEGIN OPENSSH PRIVATE KEY-----\n{_PEM_BODY}", "refuse", "private_key_block",
         "truncated paste"),
    Case("-----BEGIN EC PRIVATE KEY-----", "refuse", "private_key_block", "header only"),
    Case("-----BEGIN ENCRYPTED PRIVATE KEY-----\nMIIFHDBOBgkqhkiG9w0BBQ0wQTApBgkqhkiG9w0BBQwwHAQI", "refuse",
         "private_key_block", "encrypted keys are refused too: the passphrase may be weak"),
    Case("-----BEGIN PGP PRIVATE KEY BLOCK-----\nlQOYBF", "refuse", "private_key_block"),
    # Passwords in URLs.
    Case("mysql://root:toor@10.0.0.5/shop", "refuse", "url_credentials"),
    Case("the queue is amqp://guest:Gu3st!pw@rabbit:5672/", "refuse", "url_credentials"),
    Case("clone from https://alice:ghs_notreal@git.example.com/acme/ledger.git", "refuse", "url_credentials",
         "the password part is short and fake; the URL form alone is enough"),
    Case("mongodb+srv://svc:Zx9!pQ2@cluster0.example.net/test", "refuse", "url_credentials"),
    *_gen("url_credentials", 1),
    # Password phrases, the way people type them.
    Case("Password: Tr0ub4dor&3", "refuse", "password_phrase"),
    Case("the wifi password is 'correct horse battery staple'", "refuse", "password_phrase",
         "quoted passphrase of plain words: quotes mark it as a value"),
    Case("PIN: 4821", "refuse", "password_phrase"),
    Case("the passcode for the server room door is 7731", "refuse", "password_phrase"),
    Case("her bank PIN is 0914, she asked me to remember it", "refuse", "password_phrase"),
    Case("The PIN code of the office printer is 4417.", "refuse", "password_phrase",
         "a shared device PIN is still a credential (compare the harmless 'is on the wiki')"),
    Case("my password was changed to Summer2026!", "refuse", "password_phrase"),
    Case("passphrase = purple-monkey-dishwasher-42", "refuse", "password_phrase"),
    Case("The password for the staging database is swordfish.", "refuse", "password_phrase",
         "a plain word that is not a description is taken as the password"),
    *_gen("password_phrase", 2),
    # Password assignments in config and code.
    Case('{"user": "svc-ledger", "password": "pa55w0rd"}', "refuse", "password_assignment"),
    Case("PGPASSWORD=s3cret psql -h db -U app", "refuse", "password_assignment"),
    Case("redis_pass='Xk2#9vLq'", "refuse", "password_assignment"),
    *_gen("password_assignment", 1),
    # Generic high-entropy secrets under key-like names.
    Case("Authorization: Bearer 9f8e7d6c5b4a39281706f5e4d3c2b1a0", "refuse", "secret_assignment"),
    Case("DefaultEndpointsProtocol=https;AccountName=acmeinvoices;AccountKey=Zm9vYmFyYmF6cXV4MTIzNDU2Nzg5MA==",
         "refuse", "secret_assignment", "an Azure storage connection string"),
    Case("SECRET_KEY = 'django-insecure-7x#k!m2$q9w@z4l^e8r%t1y&u6i*o3p'", "refuse", "secret_assignment"),
    Case('"api_key": "4f3c2b1a0e9d8c7b6a5f4e3d2c1b0a99"', "refuse", "secret_assignment"),
    *_gen("secret_assignment", 1),
    # Payment cards: documented test numbers and generated Luhn-valid ones.
    Case("card 4111 1111 1111 1111, exp 12/30", "refuse", "card_number", "the classic Visa test number"),
    Case("charge 5555-5555-5555-4444 for the hotel", "refuse", "card_number"),
    Case("Amex 378282246310005 on file", "refuse", "card_number"),
    Case("her JCB is 3530111333300000", "refuse", "card_number"),
    *_gen("card_number", 3),
    # US Social Security numbers.
    Case("SSN 078-05-1120", "refuse", "us_ssn", "the famous Woolworth wallet number"),
    Case("social security number: 219099999", "refuse", "us_ssn", "no dashes, but named as an SSN"),
    *_gen("us_ssn", 2),
    # IBANs with a valid checksum.
    Case("IBAN GB82 WEST 1234 5698 7654 32", "refuse", "iban", "the ISO 13616 example"),
    Case("send it to DE89370400440532013000 by Friday", "refuse", "iban"),
    Case("FR14 2004 1010 0505 0001 3M02 606", "refuse", "iban"),
    Case("Globex banks at NL91ABNA0417164300", "refuse", "iban"),
    *_gen("iban", 3),
]


# --------------------------------------------------------------------------- harmless: must be stored

HARMLESS: list[Case] = [
    # The lesson's examples.
    Case("Alice approves travel for her team.", "store", note="the lesson's example"),
    # Issue 48: a vendor's documented example is public by construction (policy/public.py).
    Case("AKIAIOSFODNN7EXAMPLE is the key id in AWS's docs", "store", note="AWS's own documentation example"),
    Case("aws_secret_access_key = wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY", "store",
         note="the secret half of AWS's documented example"),
    Case("The token budget is 300.", "store", note="'token' as in tokens of text"),
    Case("The secret santa draw is on Friday.", "store"),
    # Pointers to where a credential lives are worth remembering; the credential itself is not.
    Case("The PIN code of the office printer is on the wiki.", "store",
         note="borderline: says where the PIN is, not what it is, so it is stored"),
    Case("The password is stored in the team vault.", "store"),
    Case("The Wi-Fi password is posted at the front desk.", "store"),
    Case("The VPN password is rotated every 90 days.", "store"),
    Case("The password for the finance share is in 1Password.", "store"),
    Case("Your PIN is never sent by email.", "store", note="a PIN is digits; 'never' is not one"),
    Case("The PIN is four digits long.", "store", note="describes the length, not the value"),
    Case("Password: at least 12 characters with one digit.", "store"),
    Case("The password is case-sensitive.", "store"),
    Case("The passcode is changed every quarter.", "store"),
    Case("The password is required for the VPN only.", "store"),
    Case("The pin is loose on the left hinge of the gate.", "store",
         note="'pin' the object: a PIN value must be digits"),
    Case("The password policy requires 12 characters.", "store"),
    Case("Her password expired last week, so IT reset it.", "store"),
    Case("Reset your password at the self-service portal.", "store"),
    Case("Passwords are never shared over chat.", "store"),
    Case("password_min_length=12 in the identity config.", "store", note="the key is about length"),
    Case("forgot_password=true enables the reset link.", "store", note="a boolean is a setting, not a password"),
    Case("The password field must not be empty.", "store"),
    Case("Set DB_PASSWORD=${DB_PASSWORD} in the compose file.", "store",
         note="borderline: an environment reference, not a value; stored"),
    Case("postgres://app:${DB_PASSWORD}@db:5432/invoices is the connection template.", "store",
         note="borderline: a template with a placeholder for the password; stored"),
    Case("Connect with postgres://app:<password>@db:5432/invoices.", "store", note="placeholder"),
    Case("password: ******** is what the log shows.", "store", note="a mask, not a value"),
    # Tokens of text, tokens of auth, key as a word.
    Case("max_tokens=300 keeps answers short.", "store"),
    Case("token_budget: 300", "store"),
    Case("Tokens are estimated as characters divided by four.", "store"),
    Case("The token expires after one hour.", "store"),
    Case("Rotate the GitHub token every 30 days.", "store"),
    Case("Use a bearer token in the Authorization header.", "store"),
    Case("The API key for the weather service is kept in the vault.", "store"),
    Case("Our key account manager at Globex is Bob.", "store"),
    Case("sort_key: created_at_2024_desc", "store", note="digits and words, but an identifier made of words"),
    Case("The private key ceremony is scheduled for March.", "store"),
    Case("client_secret rotation happens every year in January.", "store"),
    Case("auth: required for every endpoint", "store"),
    Case("AKIA is the prefix of long-term AWS access key ids.", "store"),
    Case("Stripe secret keys start with sk_live_ and must never be logged.", "store"),
    Case("Our package is on PyPI as sk-learn-extras-for-invoices.", "store", note="'sk-' followed by words"),
    Case("The JWT expiry is 15 minutes.", "store"),
    Case("BEGIN with the summary, then list the details.", "store"),
    Case("Clone the repo from ssh://git@github.com/acme/ledger.git", "store", note="a user name, no password"),
    Case("The docs are at https://docs.example.com/auth#password-reset", "store"),
    Case("The secret to clean books is matching each payment to an invoice.", "store"),
    Case("The secret ingredient in Carol's chili is cardamom.", "store"),
    Case("The secret_santa_budget=25 EUR this year.", "store"),
    Case("Keep secrets out of the memory store.", "store"),
    # Numbers that are not card numbers, SSNs or IBANs.
    Case("Card ending in 1111 was charged twice.", "store"),
    Case("Invoice INV-2024-0042 totals 1,250.00 EUR.", "store"),
    Case("The tracking number is 1Z999AA10123456784.", "store"),
    Case("ISBN 978-0-13-468599-1 is the accounting textbook.", "store"),
    Case("The meeting ID is 845 2931 0047.", "store"),
    Case("Call the help desk at +44 20 7946 0958.", "store"),
    Case("Order 4111111111111112 failed the checksum.", "store", note="fails Luhn: not a card number"),
    Case("Order number 1234567890123456 shipped today.", "store", note="16 digits, no issuer prefix and no Luhn"),
    Case("The GB IBAN format has 22 characters, DE has 22 too.", "store"),
    Case("GB00 WEST 1234 5698 7654 32 is the example with broken check digits.", "store",
         note="mod-97 fails, so this is not a usable account number"),
    Case("Her employee number is 12345678.", "store"),
    Case("The release is version 2.3.1 from 2026-09-18.", "store"),
    Case("Bob's extension is 555-0142.", "store"),
    Case("The SSN field is masked in every export.", "store"),
    # Code that passes a password around without containing one.
    Case("password = os.environ['DB_PASSWORD']", "store", note="reads the secret from the environment"),
    Case("self.password = password", "store", note="a variable, not a literal"),
    Case('"password": bcrypt(password_hash),', "store", note="a call, not a literal"),
    Case("The first login failed because the password was wrong.", "store"),
    # Ordinary facts the assistant should keep.
    Case("Alice's fiscal year starts in April.", "store"),
    Case("On 2026-09-18 Alice rejected the vendor Globex over late invoices.", "store"),
    Case("To reconcile invoices, match each vendor invoice to its payment, then list mismatches.", "store"),
    Case("Globex prefers invoices in euros.", "store"),
]


# --------------------------------------------------------------------------- small talk

SMALL_TALK: list[Case] = [
    Case("thanks, great!", "skip", "small_talk", "the lesson's example"),
    Case("Thank you so much!", "skip", "small_talk"),
    Case("ok", "skip", "small_talk"),
    Case("cool, sounds good", "skip", "small_talk"),
    Case("Hi there!", "skip", "small_talk"),
    Case("bye, have a nice weekend", "skip", "small_talk"),
    Case("got it, thanks", "skip", "small_talk"),
    Case("perfect 👍", "skip", "small_talk"),
    Case("haha nice", "skip", "small_talk"),
    Case("Thanks again, you're a lifesaver", "store", None,
         "borderline: 'lifesaver' is not in the pleasantry list, so this is stored; a false keep costs little"),
    Case("", "skip", "small_talk", "empty"),
    Case("   ", "skip", "small_talk", "whitespace"),
    Case("!!!", "skip", "small_talk", "punctuation only"),
    # Real facts that happen to start with a pleasantry are kept.
    Case("Thanks! Our fiscal year starts in April.", "store"),
    Case("thanks, the vendor is Globex", "store"),
    Case("OK so Alice approves travel for her team.", "store"),
    Case("Great, Carol prefers invoices in euros.", "store"),
    Case("thanks, my VPN password is hunter2", "refuse", "password_phrase", "a secret inside small talk is refused"),
]


ALL_CASES: list[Case] = POSITIVES + HARMLESS + SMALL_TALK


# --------------------------------------------------------------------------- the baseline it improves on

# One keyword regex, the design the policy replaces: refuse whenever a credential word appears.
KEYWORD_BASELINE = r"\b(?:password|passcode|pin|token|secret|api[ _-]?key|private key|ssn|iban)\b"
