"""Round-3 detectors: secrets near the word that names them, commands and configs, recovery keys, byte arrays.

Every shape here was written for the test (none is a corpus sentence); each positive has near misses
that use the same words without a secret.
"""

from __future__ import annotations

import base64
import random
import string

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from primer_memory.policy.rules import DETECTORS, review
from primer_memory.policy.scan import first_in_windows

BY_NAME = {d.name: d for d in DETECTORS}

FIRES = {
    "password_nearby": ["the pw's Harbor!882 since Monday", "temp password issued Quill-73xd-Ra, change it",
                        "passwd for the router in the attic: Attic-R0uter-9",
                        "Password's still Lamp55!Desk for reception",
                        "creds are mlee:Orchard2023!", "pword: 9ijn8uhb!Qa",
                        "la contraseña nueva del portal: Tapas&Vino12", "can you keep my wifi password? its Tx7pQ9wLm",
                        "Mật khẩu email là hoa1234!", "spotify pw dario99"],
    "code_nearby": ["Gate code: #5521", "Der PIN meiner Kreditkarte ist 8841.", "ПИН-код карты: 1937",
                    "Side door: 4410", "The bike lock is set to 519.", "passcode 771203 until Friday",
                    "银行卡密码 662810", "Türcode hinten: 1188, dann rechts", "verification code 552901",
                    "Lockbox by the garage: code 4410", "safe in the study: 4 12 38",
                    "Le code de confirmation reçu par SMS est 552901", "CVV 123", "clave 4821"],
    "entry_code": ["Buzz 4C then enter 7734 at the lobby panel.", "to unlock my tablet type 180922"],
    "cli_password": ["requirepass Rd-Auth-2290", "keytool -list -keystore a.jks -storepass Ks-Pass-11",
                     "ldapwhoami -x -D cn=ro -w Ro-Bind-55", "sqlcmd -S db -U sa -P Sa-Pass-404",
                     "redis-cli -h c1 -a Cache-Pw-77 ping", "mongosh db -u app -p Mongo-Pw-12",
                     "smbclient //nas/docs -U bob%Nas-Pw-31", "htpasswd -b -c .htpasswd ops Ops-Pw-88",
                     "$c = ConvertTo-SecureString 'Pw-For-Ps-1' -AsPlainText -Force",
                     '<add key="MailPassword" value="Mail-Pw-71" />',
                     'new NetworkCredential("svc@corp.example", "Net-Cred-42")',
                     "Property: app.mail.password\n    Value: \"Mail*Pw*90\"", "<password>Xml-Pass-99</password>",
                     '  AuthLDAPBindPassword "Ldap-Bind-77x"', "bindpw S3cure-Bind",
                     'c = DriverManager.getConnection("jdbc:postgresql://db/x", "app", "Jdbc-Pw-55");',
                     "$db = new mysqli('localhost', 'shop', 'Shop-Pw-21', 'shop');",
                     "CREATE USER 'rep'@'%' IDENTIFIED BY 'Repl-Pw-9';", "ALTER ROLE app WITH PASSWORD 'Role-Pw-3';"],
    "recovery_secret": ["BitLocker recovery key: 000000-111111-222222-333333-444444-555555-666666-777777",
                        "Apple recovery key: 4K7D-99XQ-BZ2M-L0P3-QQ7R-88TT-1ZZA",
                        "wallet backup: apple river stone cloud maple tiger ocean violet candle mirror frost pilot",
                        "Backup codes\n1. 1234 5678\n2. 2345 6789", "recovery codes: 11aa2 22bb3 33cc4",
                        "MFA seed for the shared admin account (break-glass): JBSWY3DPEHPK3PXP"],
    "bank_account": ["for the deposit: ABA 021000021 / acct # 55123490", "みずほ銀行 新宿支店 普通 1234567",
                     "Kontonummer 1234 5678 90 bei der Sparkasse", "Chase checking account number 4402019983",
                     "Bank: HDFC, IFSC HDFC0001234, a/c 50100234567890"],
    "password_phrase": ["mot de passe : 482913", "Kennwort ist 55812093"],
    "wifi_key": ["Guest WiFi: HarborCafe / key Hc7Q2mZx9", "WIFI: Casa_Lopez / MK: sol2025$"],
    "security_answer": ["security question, first school: Ridgeview", "mother's maiden name: Okonkwo",
                        "memorable word: lantern", "Pregunta de seguridad: ciudad natal → Rosario"],
    # Round 4 (after the third held-out half was spent), shapes of my own:
    "encoded_private_key": ["client-key-data: "
                            + base64.b64encode(b"-----BEGIN EC PRIVATE KEY-----\nMHcCAQEEI").decode()],
    "url_credentials": ["SQLALCHEMY_URL = 'mysql+pymysql://svc:Svc-Pw-11@db/app'"],
    "byte_array_key": ["[" + ",".join(str((i * 97 + 13) % 256) for i in range(64)) + "]"],
}

HARMLESS = [
    "Boarding pass for flight LH2041 is in my inbox.", "The password must be at least 12 characters long.",
    "I reset the password for JSmith2024 yesterday.", "Password hashing uses Argon2id with 64MiB memory.",
    "Reset your password at https://acct.example.com/Reset?id=Ab12Cd34",
    "The team keeps shared credentials in the 1Password vault.", "Connect with postgres://app:<password>@db:5432/x.",
    "export SSHPASS=$(pass show infra/deploy) && sshpass -e ssh deploy@web1 uptime",
    '<input type="password" name="password" autocomplete="current-password" minlength="14" required>',
    "Gate B12 closes at 10:40.", "The alarm is set to 0630 on weekdays.", "PIN must have 6 digits.",
    "The error code is 4021.", "Office zip code is 94107.", "The combination of factors in 2024 was unusual.",
    "The garage door is 2400 mm wide.", "The door code changes every 90 days.", "Ask Maria for the gate code.",
    "Promo code: SPRING2026", "Lockers 1200-1250 are reserved.", "Gate 42: boarding at 1915.",
    "WiFi 6E router / model RT-AX86U", "Wi-Fi password is on the router sticker.",
    "Security question: What was your first pet's name?", "Security question: Disabled for SSO users.",
    "Mother's maiden name is a weak secret.", "BitLocker recovery key is stored in Entra ID.",
    "machine api.example.com login YOUR_USERNAME password YOUR_API_TOKEN",
    "export GITHUB_TOKEN=ghp_xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx  # replace with your own",
    "SLACK_BOT_TOKEN=xoxb-your-bot-token", "password: ${{ secrets.DB_PASSWORD }}",
    "PublicKey = Sxr4o2L4uweEDTB/7k20aa4olasAnepYIPFF76K/GOs=",
    "x-amz-id-2: Kq9cWry6RaUDPM3ZDASuP5oL7fcfO7g46FpmKny2Wf5B5ODsLfnbrMDUnwqXVtk2bpn1txvw=",
    "[" + ",".join(["7"] * 64) + "]", "[" + ",".join(str(i * 10) for i in range(32)) + "]",
    "account number 55667788 for the electricity bill", "Your account number is 4471 and the order ships Monday.",
    "The bank branch opens at 0900; account numbers have 10 digits.", "mot de passe de 12 caractères minimum",
    "CVV is the 3-digit code on the back.", "Password: 12 characters, one symbol.",
    "Boarding pass LH2041A for Friday.", "The password manager Bitwarden2 sync is slow.", "pw: see the vault",
    "The security question is optional.", "Memorable word: see the letter from the bank.",
    "DATABASE_URL = f\"postgresql+psycopg2://{user}:{password}@{host}:5432/{db}\"",
    "密码必须包含字母和数字，长度不少于8位。", "admin_password = $__file{/run/secrets/admin_password}",
    '"integrity": "sha512-' + "Ab1Cd2Ef3Gh4" * 7 + 'Ab==",', "Stripe('pk_live_ClzqNZw6AnLg8nfSVFi7ZZvU3x')",
    "Your booking confirmation code is 448812.",
    # Written before the round-3 held-out measurement, to probe the new detectors from the harmless side:
    'export DB_PASSWORD="${DB_PASSWORD}"',
    'kubectl create secret generic db --from-literal=password="$PW"',
    'sha256: 3a7bd3e2360a3d29eea436fcfb7e44c735d117c42d1c1835420b6b9942dd4f1b',
    'docker pull nginx@sha256:0d17b565c37bcbd895e9d92315a05c1c3c9a29f762b011a10c54a66cd53c9b31',
    'commit 9fceb02d0ae598e95dc970b74767f19372d61af8',
    'trace_id=4bf92f3577b34da6a3ce929d0e0e4736 span_id=00f067aa0ba902b7',
    'The API key rotation is every 90 days.',
    'Use bcrypt ($2b$) with cost 12 for password hashes.',
    'PIN pad model X200 is on backorder.',
    'Pin 4 of the GPIO header is ground.',
    'The alarm panel firmware is 4.2.1.',
    'A BSN is a 9-digit number.',
    'personnummer format is YYMMDD-XXXX',
    'Order 240115-0042 shipped on Monday.',
    'Invoice 881231-1234 is overdue.',
    'The password reset token expires in 15 minutes.',
    'Set PASSWORD_MIN_LENGTH=14 in settings.py',
    'Passcode length: 6 digits.',
    'Door 4 code review at 14:00.',
    'Security code (CVV) is the 3 digits on the back.',
    'Verification code sent to +1 415 555 0132.',
    'The gate is 1200 m from the station.',
    'Wi-Fi: CafeNet (open network, no key)',
    'AWS_SECRET_ACCESS_KEY is read from the environment.',
    'Bearer tokens expire after 3600 seconds.',
    'aws s3 presign s3://bucket/key --expires-in 600',
    'Call 0800 123 4567 for the PIN reset line.',
    'The CPR number in Denmark has 10 digits.',
    'ISBN 978-3-16-148410-0',
    'Flight LH 2041 departs from gate B42 at 0915.',
    'PESEL has 11 digits including a check digit.',
    'The Teams webhook is configured in the channel settings.',
    'The Slack webhook URL lives in Vault at secret/slack.',
    'uuid: 123e4567-e89b-12d3-a456-426614174000',
    'Tracking 1Z999AA10123456784 arrives Friday.',
    'Meeting ID 845 2291 7743 (no passcode needed)',
    'Our Medicare claims go through the portal.',
    'Steuernummer 21/815/08150 (company)',
    'The deploy key fingerprint is SHA256:nThbg6kXUpJWGl7E1IGOCspRomTxdCARLviKw6E5SY8.',
    'wg genkey | tee privatekey | wg pubkey > publickey',
]


@pytest.mark.parametrize(("name", "text"), [(n, t) for n, ts in FIRES.items() for t in ts])
def test_round_3_detector_finds_its_shape(name: str, text: str) -> None:
    assert BY_NAME[name].find(text) is not None, text
    assert review(text).verdict == "refuse"


@pytest.mark.parametrize("text", HARMLESS)
def test_near_misses_are_stored(text: str) -> None:
    decision = review(text)
    assert decision.verdict != "refuse", (text, decision.detector)


_ROUND_3 = ("password_nearby", "code_nearby", "wifi_key", "security_answer", "byte_array_key")


@settings(max_examples=200, deadline=None)
@given(st.text(alphabet=string.printable + "äöüßéèçñ密码パスワード", max_size=400))
def test_round_3_finders_return_a_span_inside_the_text(text: str) -> None:
    for name in _ROUND_3:
        span = BY_NAME[name].find(text)
        assert span is None or 0 <= span[0] < span[1] <= len(text)


_WORDS = ["the", "my", "office", "new", "router", "for", "and", "we", "changed", "it", "today", "yes"]


@settings(max_examples=200, deadline=None)
@given(st.lists(st.sampled_from(_WORDS), max_size=6), st.lists(st.sampled_from(_WORDS), max_size=6),
       st.integers(0, 10**6), st.sampled_from(["password", "pw", "passwd", "mot de passe", "Passwort", "creds"]))
def test_a_chosen_password_after_its_word_is_refused(before: list[str], after: list[str], seed: int, word: str) -> None:
    rng = random.Random(seed)
    value = (rng.choice(string.ascii_uppercase) + "".join(rng.choice(string.ascii_lowercase) for _ in range(5))
             + rng.choice("!#$%&*") + str(rng.randrange(10, 1000)))
    text = " ".join([*before, word, "now:", value, *after])
    span = BY_NAME["password_nearby"].find(text)
    assert span is not None and text[span[0]:span[1]] == value, text


@settings(max_examples=200, deadline=None)
@given(st.lists(st.integers(0, 60), max_size=40), st.text(alphabet="ab x", max_size=60),
       st.integers(0, 5), st.integers(1, 20))
def test_first_in_windows_is_the_plain_loop(starts: list[int], text: str, before: int, after: int) -> None:
    """The deduplicating window scan returns what judging every window in order would."""
    starts = sorted({s for s in starts if s < len(text)})

    def judge(window: str) -> tuple[int, int] | None:
        at = window.find("ab")
        return (at, at + 2) if at != -1 else None

    def plain() -> tuple[int, int] | None:
        for p in starts:
            window = ("\0" * before + text)[p:p + before + after]
            span = judge(window)
            if span is not None:
                return span[0] + p - before, span[1] + p - before
        return None

    assert first_in_windows(text, starts, before, after, judge) == plain()


ADVERSARIAL = ["pw x " * 20_000, "door: 1234 " * 9_000, "pin ist 12 " * 9_000, "<password>a" * 9_000,
               "wifi / key " * 9_000, "security question: " * 5_000, "[1,2,3," * 20_000, "passcode " * 10_000,
               "ldap x -w " * 10_000, "recovery key: 1234-" * 5_000]


@pytest.mark.parametrize("text", ADVERSARIAL, ids=[t[:12] for t in ADVERSARIAL])
def test_round_3_finders_handle_long_adversarial_runs(text: str) -> None:
    for name in (*_ROUND_3, "cli_password", "entry_code", "recovery_secret", "bank_account"):
        span = BY_NAME[name].find(text)
        assert span is None or 0 <= span[0] < span[1] <= len(text)


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet="pasword in:PASS密码 ", max_size=200),
       st.lists(st.sampled_from(["pass", "password", "pw", "in", "密码", "word", "a", "s:p"]), min_size=1, max_size=5))
def test_short_and_long_text_positions_agree(text: str, words: list[str]) -> None:
    """positions() reads short text with one regex and long text with str.find per word: same starts either way."""
    from primer_memory.policy.scan import _positions_by_find, positions

    assert positions(text, tuple(words)) == _positions_by_find(text, tuple(words))
