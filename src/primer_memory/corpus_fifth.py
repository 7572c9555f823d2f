"""Fifth write-policy corpus: what reaches a personal AI assistant and its tools.

Register: things a user asks an assistant to remember, voice-assistant transcripts (numbers spoken as words),
OCR of screenshots and cards, forwarded SMS and e-mail, password-manager and browser exports, smart-home and
router setup, travel, government, health, school, banking, crypto, gaming and family logins, notes kept for
elderly relatives, and the tool outputs the agent reads itself (API JSON, env dumps, stack traces, CI logs,
docker/kubectl output, HTTP requests) and code snippets, in about twenty languages. Written by an independent
author who did not see the detectors, their tests or the other corpora. Every value is fake, generated from one
seeded `random.Random` at import time (so every import gives the same corpus), with a valid check digit where
the format has one (Luhn, IBAN mod-97, RIB key, mod-11 schemes, Verhoeff, ICAO 7-3-1, BIP39, Base58Check).
FIFTH_SECRETS (category -> texts) must be refused; FIFTH_HARMLESS (category -> near misses) must be accepted.
"""

from __future__ import annotations

import base64
import functools
import hashlib
import json
import random

from .corpus_values import (BASE62, B64URL, DIGITS, HEX, LOWER, UPPER, b64, chars, cpf_complete, fake_aadhaar,
                            fake_card, fake_codice_fiscale, fake_dni, fake_insee, fake_passport, fake_pem, fake_sin,
                            fake_ssn, fake_uk_ni, fake_vendor, iban_complete, luhn_digit, mixed)

R = random.Random(5_0417_2911)

# --------------------------------------------------------------------------- small value helpers
def d(n: int) -> str: return chars(R, DIGITS, n)
def h(n: int) -> str: return chars(R, HEX, n)
def a(n: int) -> str: return chars(R, BASE62, n)
def grp(s: str, n: int = 4, sep: str = " ") -> str: return sep.join(s[i:i + n] for i in range(0, len(s), n))

_WORDS = ("harbor lantern velvet copper meadow falcon orbit pepper quartz ripple saddle thistle tundra walnut "
          "ember juniper marble nectar pebble raven cobalt glacier maple biscuit canyon hollow").split()
_BASES = ("Sunflower Bruxelles Kochtopf manzana Gatito Tulpen Krakow Matrioszka Istanbul sakura Leopardo "
          "Jasmine Pingwin Cioccolata Fjord Bambus Moscato Olympia Hanuman Tiramisu").split()
FIRST = "anna marco lena tomasz yuki carlos fatima olga priya jonas sofia ahmet minh chloe".split()
LAST = "kowalski rossi meyer tanaka garcia haddad ivanova sharma berg novak yilmaz nguyen dubois".split()
PETS = "Biscuit Pumpkin Rocky Luna Mochi Bella Oscar Pepper".split()
BASE32 = UPPER + "234567"

def pw() -> str:  # a password a person might choose, in one of a handful of shapes
    return R.choice([lambda: R.choice(_BASES) + d(R.randint(2, 4)) + R.choice("!?#$*."),
                     lambda: mixed(R, BASE62 + "!#%&*@", R.randint(10, 16)),
                     lambda: R.choice(_BASES).lower().replace("a", "@").replace("o", "0").replace("e", "3") + d(2),
                     lambda: R.choice(_WORDS).title() + R.choice(_WORDS).title() + d(2) + "!",
                     lambda: chars(R, LOWER, 3) + d(3) + R.choice(_BASES) + R.choice("#&%")])()
def pp(n: int = 4, sep: str = "-") -> str: return sep.join(R.sample(_WORDS, n))
def wifi() -> str:
    return R.choice([lambda: pp(3, "-"), lambda: chars(R, LOWER + DIGITS, R.randint(9, 12)),
                     lambda: grp(chars(R, LOWER + DIGITS, 12), 4, "-"), pw])()
def user() -> str: return R.choice(FIRST) + R.choice([".", "_", ""]) + R.choice(LAST) + d(2)
def mail() -> str:
    domain = R.choice(["gmail.com", "outlook.com", "web.de", "yahoo.fr", "proton.me", "naver.com", "icloud.com"])
    return f"{R.choice(FIRST)}.{R.choice(LAST)}{d(2)}@{domain}"
def exp() -> str: return f"{R.randrange(1, 13):02d}/{R.randrange(26, 31)}"
def card(prefix: str | None = None, length: int = 16) -> str:  # Luhn-valid, no separators
    if prefix is None:
        return fake_card(R).replace(" ", "").replace("-", "")
    body = prefix + d(length - len(prefix) - 1)
    return body + luhn_digit(body)

_SAY = {"en": "zero one two three four five six seven eight nine", "de": "null eins zwei drei vier fünf sechs "
        "sieben acht neun", "es": "cero uno dos tres cuatro cinco seis siete ocho nueve", "fr": "zéro un deux "
        "trois quatre cinq six sept huit neuf", "it": "zero uno due tre quattro cinque sei sette otto nove"}
_ONES = ("zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen "
         "sixteen seventeen eighteen nineteen").split()

def say(digits: str, lang: str = "en") -> str:
    """Digits as a speech-to-text transcript writes them: one word each, 'oh' for some English zeros."""
    words = _SAY[lang].split()
    return " ".join("oh" if c == "0" and lang == "en" and R.random() < 0.4 else words[int(c)]
                    for c in digits if c.isdigit())
def num_en(n: int) -> str:
    tens = ["", "", "twenty", "thirty", "forty", "fifty"]
    return _ONES[n] if n < 20 else tens[n // 10] + ("" if n % 10 == 0 else " " + _ONES[n % 10])
def spell(s: str) -> str: return " ".join(c.lower() if c.isalpha() else _ONES[int(c)] for c in s if c.isalnum())
def js(obj: object, indent: int | None = None) -> str: return json.dumps(obj, indent=indent, ensure_ascii=False)
def basic(u: str, p: str) -> str: return base64.b64encode(f"{u}:{p}".encode()).decode()
def b64s(s: str) -> str: return base64.b64encode(s.encode()).decode()
def uuid4() -> str: return f"{h(8)}-{h(4)}-4{h(3)}-{R.choice('89ab')}{h(3)}-{h(12)}"
def ssh_pub() -> str:
    blob = b"\x00\x00\x00\x0bssh-ed25519\x00\x00\x00\x20" + bytes(R.randrange(256) for _ in range(32))
    return "ssh-ed25519 " + base64.b64encode(blob).decode()
def bcrypt_hash() -> str: return "$2b$12$" + chars(R, "./" + UPPER + LOWER + DIGITS, 53)

# --------------------------------------------------------------------------- identifiers with check digits
def weighted(body: str, weights: list[int]) -> int: return sum(int(c) * w for c, w in zip(body, weights))
def dob6() -> str: return f"{R.randrange(60, 100):02d}{R.randrange(1, 13):02d}{R.randrange(1, 29):02d}"
def bsn() -> str:  # Dutch BSN, the 11-test
    while (c := weighted(body := str(R.randrange(1, 10)) + d(7), list(range(9, 1, -1))) % 11) == 10:
        pass
    return body + str(c)
def pesel() -> str:
    y, m = R.randrange(1950, 2010), R.randrange(1, 13)
    body = f"{y % 100:02d}{m + (20 if y >= 2000 else 0):02d}{R.randrange(1, 29):02d}" + d(4)
    return body + str(-weighted(body, [1, 3, 7, 9, 1, 3, 7, 9, 1, 3]) % 10)
def steuer_id() -> str:  # German tax ID: one digit twice, one missing, ISO 7064 MOD 11,10
    ds = [0]
    while ds[0] == 0:
        ds = R.sample(range(10), 9)
        ds.append(R.choice(ds))
        R.shuffle(ds)
    prod = functools.reduce(lambda p, x: ((x + p) % 10 or 10) * 2 % 11, ds, 10)
    n = "".join(map(str, ds)) + str((11 - prod) % 10)
    return f"{n[:2]} {n[2:5]} {n[5:8]} {n[8:]}"
def tckn() -> str:  # Turkish identity number
    ds = [R.randrange(1, 10)] + [R.randrange(10) for _ in range(8)]
    ds.append((sum(ds[0:9:2]) * 7 - sum(ds[1:8:2])) % 10)
    return "".join(map(str, ds)) + str(sum(ds) % 10)
def cn_id() -> str:  # PRC resident identity card, ISO 7064 MOD 11-2
    body = (R.choice(["110105", "310104", "110101", "310101", "110102"]) + str(R.randrange(1960, 2005))
            + f"{R.randrange(1, 13):02d}{R.randrange(1, 29):02d}" + d(3))
    return body + "10X98765432"[weighted(body, [7, 9, 10, 5, 8, 4, 2, 1, 6, 3, 7, 9, 10, 5, 8, 4, 2]) % 11]
def rrn() -> str:  # Korean resident registration number
    body = dob6() + R.choice("12") + d(5)
    n = body + str((11 - weighted(body, [2, 3, 4, 5, 6, 7, 8, 9, 2, 3, 4, 5]) % 11) % 10)
    return f"{n[:6]}-{n[6:]}"
def my_number() -> str:  # Japanese individual number
    body = d(11)
    r = sum(int(c) * (i + 1 if i <= 6 else i - 5) for i, c in enumerate(reversed(body), 1)) % 11
    return grp(body + str(0 if r <= 1 else 11 - r))
def personnummer() -> str:  # Swedish, Luhn over the nine digits
    body = f"{R.randrange(100):02d}{R.randrange(1, 13):02d}{R.randrange(1, 29):02d}" + d(3)
    return f"{body[:6]}-{body[6:]}{luhn_digit(body)}"
def rodne_cislo() -> str:  # Czech birth number, divisible by 11
    while True:
        nine = f"{R.randrange(60, 100):02d}{R.randrange(1, 13) + R.choice([0, 50]):02d}{R.randrange(1, 29):02d}{d(3)}"
        if (c := -int(nine) * 10 % 11) < 10:
            return f"{nine[:6]}/{nine[6:]}{c}"
def snils() -> str:
    body = str(R.randrange(2_000_000, 999_999_999)).zfill(9)
    s = weighted(body, list(range(9, 0, -1)))
    c = s if s < 100 else 0 if s < 102 else s % 101 % 100
    return f"{body[:3]}-{body[3:6]}-{body[6:]} {c:02d}"
def rnokpp() -> str:  # Ukrainian taxpayer number
    body = str(R.randrange(2, 5)) + d(8)
    return body + str(weighted(body, [-1, 5, 7, 9, 4, 6, 10, 5, 7]) % 11 % 10)
def nif_pt() -> str:
    body = R.choice("12") + d(7)
    c = 11 - weighted(body, list(range(9, 1, -1))) % 11
    return body + str(0 if c >= 10 else c)
def nhs() -> str:
    while (c := 11 - weighted(body := R.choice("467") + d(8), list(range(10, 1, -1))) % 11) == 10:
        pass
    n = body + str(c % 11)
    return f"{n[:3]} {n[3:6]} {n[6:]}"
def kvnr() -> str:  # German health-insurance number: letter, 8 digits, check
    letter, body = R.choice(UPPER), d(8)
    seq = f"{UPPER.index(letter) + 1:02d}" + body
    total = sum(p - 9 if p > 9 else p for p in (int(c) * (1 + i % 2) for i, c in enumerate(seq)))
    return letter + body + str(total % 10)
def au_medicare() -> str:
    body = R.choice("23456") + d(7)
    n = body + str(weighted(body, [1, 3, 7, 9, 1, 3, 7, 9]) % 10) + R.choice("123")
    return f"{n[:4]} {n[4:9]} {n[9]}"
def tfn() -> str:  # Australian tax file number
    while (c := weighted(body := d(8), [1, 4, 3, 7, 5, 8, 6, 9]) % 11) == 10:
        pass
    return grp(body + str(c), 3)
def mbi() -> str:  # US Medicare beneficiary identifier (a fixed pattern, no check digit)
    al = "ACDEFGHJKMNPQRTUVWXY"
    s = "".join(R.choice({"C": "123456789", "A": al, "N": DIGITS, "X": al + DIGITS}[k]) for k in "CAXNAXNAANN")
    return f"{s[:4]}-{s[4:7]}-{s[7:]}"
def emirates_id() -> str:
    body = "784" + str(R.randrange(1970, 2005)) + d(7)
    return f"{body[:3]}-{body[3:7]}-{body[7:]}-{luhn_digit(body)}"
def saudi_id() -> str:
    body = R.choice("12") + d(8)
    return body + luhn_digit(body)
def aba() -> str:  # US routing number, 3-7-1 weights
    body = f"{R.choice(list(range(1, 13)) + list(range(21, 33))):02d}" + d(6)
    return body + str(-weighted(body, [3, 7, 1, 3, 7, 1, 3, 7]) % 10)
def clabe() -> str:  # Mexican CLABE, 3-7-1 weights mod 10
    body = R.choice(["002", "012", "014", "021", "072"]) + d(14)
    return body + str(-sum(int(c) * w % 10 for c, w in zip(body, [3, 7, 1] * 6)) % 10)
def rib() -> tuple[str, str, str, str]:  # French bank details with their RIB key
    bank, branch, acct = d(5), d(5), d(11)
    return bank, branch, acct, f"{97 - (89 * int(bank) + 15 * int(branch) + 3 * int(acct)) % 97:02d}"
def ib(cc: str, spaced: bool = True) -> str:
    n = {"DE": 22, "NL": 18, "PL": 28, "AT": 20, "CH": 21, "SE": 24, "GB": 22}[cc] - 4
    iban = iban_complete(cc, chars(R, UPPER, 4) + d(n - 4) if cc in ("GB", "NL") else d(n))
    return grp(iban) if spaced else iban
def cpf() -> str:
    n = cpf_complete(d(9))
    return f"{n[:3]}.{n[3:6]}.{n[6:9]}-{n[9:]}"
def bitlocker() -> str:  # eight six-digit blocks, each divisible by 11
    return "-".join(f"{11 * R.randrange(65536):06d}" for _ in range(8))
def isbn13() -> str:
    body = "978" + d(9)
    n = body + str(-sum(int(c) * (1 + 2 * (i % 2)) for i, c in enumerate(body)) % 10)
    return f"{n[:3]}-{n[3]}-{n[4:8]}-{n[8:12]}-{n[12]}"
def mrz_digit(s: str) -> str:  # ICAO 9303, weights 7-3-1
    vals = (int(c) if c.isdigit() else 0 if c == "<" else ord(c) - 55 for c in s)
    return str(sum(v * (7, 3, 1)[i % 3] for i, v in enumerate(vals)) % 10)
def passport_mrz() -> str:
    country, name = R.choice([("NLD", "VAN<DIJK<<SANNE<MARIE"), ("CAN", "TREMBLAY<<LUC<ANDRE"),
                              ("ITA", "ESPOSITO<<GIULIA")])
    num, born, until = chars(R, UPPER, 2) + d(7), dob6(), f"{R.randrange(27, 34)}{dob6()[2:]}"
    parts = [num + mrz_digit(num), born + mrz_digit(born), until + mrz_digit(until), "<" * 14 + "0"]
    line2 = parts[0] + country + parts[1] + R.choice("MF") + parts[2] + parts[3] + mrz_digit("".join(parts))
    return f"P<{country}{name}".ljust(44, "<") + "\n" + line2
def de_ausweis() -> str:
    num = R.choice("CFGHJKLMNPRTVWXYZ") + chars(R, "CFGHJKLMNPRTVWXYZ0123456789", 8)
    return num + mrz_digit(num)

# every eighth word of the BIP39 English list, so the word at position k has BIP39 index 8k
_BIP = ("abandon absurd acoustic adapt advice agree alcohol alpha amount animal anxiety arch army artist asthma "
        "audit avoid baby bamboo basic beef bench bid blade blossom boil borrow brand bright brown bulk business "
        "cactus canal capital cart catch celery champion check chimney cinnamon claw climb clown code come "
        "congress copy country craft credit cross crush current damage day decorate deliver deposit despair dial "
        "dignity disease divorce donate dragon drink dune eagle ecology either elite empower energy enrich equal "
        "escape evoke excuse exotic extra faith fantasy favorite fence figure finish fix flip foam force foster "
        "fringe fun gallery gas genre ginger glide goat govern gravity grow gym harbor head help hire home host "
        "humor hybrid illegal improve indoor inject insect invite jacket job jungle key kitchen lab laptop lawn "
        "lecture length library link loan lottery lunar maid mandate marine math meat mention metal minimum mix "
        "monitor mosquito much must narrow neglect never noodle novel object october old only orchard other own "
        "pair parade patient pear perfect piano pink plastic poem pool poverty present prison project public "
        "puppy pyramid quote rain rare reason reduce relax render require retreat ribbon ring roast rose rug safe "
        "sample scale scissors search seek series shallow ship shove siege simple skate slam slot snack sock "
        "someone source speed spirit spread staff steak stock strike submit suit sure swallow swing tackle task "
        "tenant theme three tilt toast tomato topic toward train trend trouble tube twelve ugly unfair unlock "
        "upper useless valve velvet vessel village vital voyage warfare way weekend wheel wild winter wonder wrap "
        "yellow").split()

def seed(n: int = 12) -> str:
    """A BIP39 mnemonic whose last word carries a valid checksum."""
    ent_bits = n * 11 * 32 // 33
    while True:
        idx = [R.randrange(256) for _ in range(n)]
        bits = "".join(f"{8 * i:011b}" for i in idx)
        ent = int(bits[:ent_bits], 2).to_bytes(ent_bits // 8, "big")
        if bits[ent_bits:] == f"{hashlib.sha256(ent).digest()[0]:08b}"[:n * 11 - ent_bits]:
            return " ".join(_BIP[i] for i in idx)
def wif() -> str:  # compressed mainnet WIF, Base58Check (always 52 characters, starting K or L)
    raw = b"\x80" + bytes(R.randrange(256) for _ in range(32)) + b"\x01"
    n = int.from_bytes(raw + hashlib.sha256(hashlib.sha256(raw).digest()).digest()[:4], "big")
    alphabet = "123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz"
    return "".join(alphabet[n // 58 ** i % 58] for i in range(51, -1, -1))

# --------------------------------------------------------------------------- secrets
_combo = [R.randrange(1, 40) for _ in range(6)]
_fr_bank, _fr_branch, _fr_acct, _fr_key = rib()
_seed_a = seed(12).split()

FIFTH_SECRETS: dict[str, list[str]] = {
    "remember_requests": [
        f"Remember that my Netflix password is {pw()} - I keep forgetting it.",
        f"note for later: gym locker combination {_combo[0]}-{_combo[1]}-{_combo[2]}",
        f"Remember for the bank website: first pet = {R.choice(PETS)}, street I grew up on = Linden Lane",
        f"Keep this safe for me: the BitLocker recovery key for my work laptop is {bitlocker()}",
        f"For future reference the alarm code at Mum's is {d(4)} and the duress code is {d(4)}.",
        f"Remember my passport number for flight bookings: {fake_passport(R)} (expires 14 Apr 2031).",
        f"Please remember my SSN, {fake_ssn(R)}, so you can fill in the tax forms next time.",
        f'remember my bitwarden master password, it\'s "{pp(5)}"',
        "Save these Google backup codes somewhere:\n" + "\n".join(f"{d(4)} {d(4)}" for _ in range(5)),
        f"Note: Venmo login is {mail()} and the password is {pw()}",
        f"If the bank asks for my memorable word it's '{R.choice(['marmalade', 'lighthouse', 'peppermint'])}'.",
    ],
    "voice_transcripts": [
        f"hey assistant remember my debit card pin is {say(d(4))}",
        f"ok note the door code for the new flat is {say(d(4))} then the star key",
        f"alexa save my card number {say(card())} expiry {say(exp())} security code {say(d(3))}",
        f"remember my social is {say(fake_ssn(R))}",
        f"siri the guest wifi password is capital m maple underscore {say(d(4))} all one word",
        f"um the password is uh falcon with a capital f and then {say(d(3))} and an exclamation mark",
        f"take a note the lock box combination is {num_en(_combo[3])} {num_en(_combo[4])} {num_en(_combo[5])}",
        f"recuerda que el pin de la tarjeta es {say(d(4), 'es')}", f"merk dir bitte meine geheimzahl {say(d(4), 'de')}",
        f"note que le digicode de l'immeuble c'est {say(d(4), 'fr')} et ensuite la lettre b",
        f"my national insurance number is {spell(fake_uk_ni(R))}",
        f"read back my savings account number its {say(d(8))} sort code {say(d(6))}",
    ],
    "ocr_screenshots": [
        "PASSPORT  PASSEPORT  PASPOORT\nType P   Surname / Nom\n" + passport_mrz(),
        f"Your verification code is\n{' '.join(d(6))}\nThis code expires in 10 minutes",
        f"VISA\n{grp(card('4'))}\nVALID\nTHRU {exp()}\nJ0HN  MlLLER",
        "Recovery codes\nKeep these in a safe place.\n"
        + "\n".join(f"{h(5)}-{h(5)}    {h(5)}-{h(5)}" for _ in range(4)),
        f"W I F I : Kowalski_2G\nP A S S : {wifi()}\n(router in hallway)",
        f"BUNDESREPUBLIK DEUTSCHLAND\nPERSONALAUSWEIS\nIDENTITY CARD  {de_ausweis()}\nName  MÜLLER",
        f"Can't scan the QR code?\nEnter this key in your authenticator app:\n{grp(chars(R, BASE32, 32).lower())}",
        f"Secret key    {fake_vendor(R, 'stripe')}    Roll key...\nCreated Jan 9   Last used 2 hours ago",
        f"Kontoinhaber: Lena Meyer\nIBAN  {ib('DE')}\nBIC  COBADEFFXXX",
        f"भारत सरकार\nGOVERNMENT OF INDIA\nPriya Sharma\nDOB: 12/03/1988\n{fake_aadhaar(R)}\nमेरा आधार, मेरी पहचान",
        f"FRITZ!Box 7590 XQ\nWLAN-Netzwerk (SSID): FRITZ!Box 7590 KL\nWLAN-Netzwerkschlüssel: {grp(d(20))}",
    ],
    "forwarded_notifications": [
        f"FW: Your Amazon OTP is {d(6)}. Do not share it with anyone.", f"G-{d(6)} is your Google verification code.",
        f"[Web발신]\n[카카오] 인증번호 [{d(6)}]를 입력해주세요. 타인 노출 금지", f"【支付宝】验证码{d(6)}，您正在登录支付宝，切勿告知他人。",
        f"WhatsApp code {d(3)}-{d(3)}\nDon't share this code with others",
        f"СберБанк: Код подтверждения: {d(5)}. Никому не сообщайте его.",
        f"Subject: Your HR portal account\n\nHello Jonas,\nyour temporary password is: {pw()}\n"
        "You will be asked to change it at first login.",
        f"Fwd: Microsoft account security code\nPlease use the following security code for an*****@outlook.com: {d(7)}",
        f"Password reset requested. Use this link within 30 minutes: https://account.lumenmart.com/reset?token={a(43)}",
        f"Doğrulama kodunuz: {d(6)}. Bu kodu kimseyle paylaşmayınız. B002",
        f"Welcome to the Contoso VPN. Username: {user()} / Initial password: {pw()} / Server: vpn.contoso-group.net",
        f"Booking.com: the PIN for reservation {d(10)} is {d(4)} - you need it to change or cancel.",
    ],
    "password_exports": [
        f"name,url,username,password,note\nnetflix.com,https://www.netflix.com/login,{mail()},{pw()},\n"
        f"ikea.com,https://www.ikea.com/profile/login,{mail()},{pw()},",
        js({"type": 1, "name": "Amazon", "login": {"username": mail(), "password": pw(),
                                                   "totp": chars(R, BASE32, 32)}}, 2),
        f'<Entry><String><Key>Title</Key><Value>Sparkasse</Value></String><String><Key>Password</Key>'
        f'<Value ProtectInMemory="True">{pw()}</Value></String></Entry>',
        f"url,username,password,totp,extra,name,grouping,fav\nhttps://github.com/login,{user()},{pw()},,,GitHub,Dev,0",
        f"Title,URL,Username,Password,Notes,OTPAuth\nDropbox,https://www.dropbox.com,{mail()},{pw()},,",
        f"otpauth://totp/GitHub:{user()}?secret={chars(R, BASE32, 32)}&issuer=GitHub",
        f"machine api.heroku.com\n  login {mail()}\n  password {uuid4()}",
        f"| site | user | pass |\n|---|---|---|\n| ebay | {user()} | {pw()} |\n| zalando | {mail()} | {pw()} |",
        "name_on_card,card_number,expiration_month,expiration_year\n"
        f"Sofia Rossi,{card()},{R.randrange(1, 13)},20{R.randrange(26, 31)}",
    ],
    "smart_home_router": [
        f"Router setup done. SSID: Haddad-Home | WPA2 key: {wifi()} | admin: admin / {pw()}",
        f'network={{\n    ssid="NguyenFamily"\n    psk="{wifi()}"\n    key_mgmt=WPA-PSK\n}}',
        f"# secrets.yaml\nwifi_ssid: Villa Rossi\nwifi_password: {wifi()}\nmqtt_password: {pw()}",
        f'api:\n  encryption:\n    key: "{b64(R, 32)}"\nota:\n  - platform: esphome\n    password: "{h(32)}"',
        f"Hue bridge paired - keep this API username for the scripts: {a(40)}",
        f"Ring keypad: master code {d(4)}, guest code for the cleaner {d(4)} (Tuesdays only)",
        f"QR on the fridge magnet decodes to WIFI:T:WPA;S:Berg_Guest;P:{wifi()};;",
        js([{"name": "Desk lamp", "id": "bf" + h(20), "key": chars(R, BASE62 + "!#$^*", 16), "ver": "3.3"}], 2),
        f"Nuki keypad code for the dog sitter: {d(6)} - valid until Sunday",
        js({"platform": "RingPlatform", "email": mail(), "password": pw(), "refreshToken": a(120)}, 2),
        f"homeassistant:$7$101${b64(R, 12)}${b64(R, 64)}",
    ],
    "national_ids_europe": [
        f"Mijn BSN is {bsn()}, nodig voor de huurtoeslag-aanvraag.",
        f"Für die Steuererklärung: meine Steuer-ID ist {steuer_id()}",
        f"Mój PESEL: {pesel()} – wpisz go do formularza w przychodni.",
        f"TC kimlik numaram {tckn()}, otel rezervasyonu için lazım.",
        f"Mitt personnummer är {personnummer()}, behövs för vårdcentralen.",
        f"Rodné číslo syna je {rodne_cislo()}, potřebuju ho do přihlášky do školy.",
        f"СНИЛС мамы: {snils()}, нужен для записи к врачу.", f"Мій РНОКПП (ІПН): {rnokpp()} - для договору оренди.",
        f"Mi DNI es {fake_dni(R)}, apúntalo para el check-in del hotel.",
        f"Il mio codice fiscale è {fake_codice_fiscale(R)}, serve per la ricetta.",
        f"Mon numéro de sécurité sociale : {fake_insee(R)}",
        f"My NI number is {fake_uk_ni(R)} - HMRC wants it for the self-assessment form.",
        f"O meu NIF é {nif_pt()}, põe na fatura por favor.",
    ],
    "national_ids_world": [
        f"Form W-4 draft\nName: Carlos Garcia\nSSN: {fake_ssn(R)}\nFiling status: single",
        f"My SIN for the payroll form: {fake_sin(R)}", f"Meu CPF é {cpf()}, usa no cadastro da farmácia.",
        f"मेरा आधार नंबर {fake_aadhaar(R)} है, गैस कनेक्शन के फॉर्म में भर देना।",
        f"PAN for the ITR: {chars(R, UPPER, 3)}P{R.choice(UPPER)}{d(4)}{R.choice(UPPER)}", f"我的身份证号是{cn_id()}，订火车票要用。",
        f"주민등록번호 {rrn()} 로 본인인증 해줘", f"マイナンバーは {my_number()} です。確定申告で使います。",
        f"رقم الهوية الإماراتية الخاص بي: {emirates_id()}", f"رقم الهوية الوطنية لوالدي {saudi_id()} للتسجيل في أبشر",
        f"NIK saya {R.choice(['3174', '3273', '3578'])}{d(2)}{R.randrange(1, 29) + 40:02d}{R.randrange(1, 13):02d}"
        f"{R.randrange(70, 100)}{d(4)}, buat daftar BPJS ya",
        f"Số CCCD của mình là 0{R.randrange(1, 97):02d}{R.choice('01')}{R.randrange(70, 100)}{d(6)}",
        f"TFN for the super fund: {tfn()}",
        f"DL# {R.choice(UPPER)}{d(7)} (California), passport {d(9)} - for the rental car form",
    ],
    "health_school_portals": [
        f"Dad's NHS number is {nhs()} - the surgery asked for it on the phone.",
        f"Krankenversichertennummer von Lena: {kvnr()}",
        f"Insurance card - Member ID: {R.choice('XWZ')}{chars(R, UPPER, 2)}{d(9)}  Group: 0{d(5)}  BCBS",
        f"Mom's new Medicare number is {mbi()}, the old card can be shredded.",
        f"MyChart login for Dad: username {user()}, password {pw()}",
        f"PowerSchool parent portal - Access ID: {chars(R, UPPER + DIGITS, 6)}  Access Password: {chars(R, LOWER, 8)}",
        f"School lunch account PIN for Emma: {d(5)}", f"Mon numéro de carte Vitale, pour la mutuelle : {fake_insee(R)}",
        f"Medicare card: {au_medicare()}  (Chloe Dubois)",
        f"University SSO: {user()}@stud.uni-heidelberg.de / {pw()} - needed for Moodle",
    ],
    "banking_payments": [
        f"Use this card for the subscription: {fake_card(R)} exp {exp()} CVV {d(3)}",
        f"Save my IBAN for the landlord form: {ib('DE')}",
        f"Direct deposit: routing {aba()} account {d(10)} (checking)",
        f"My Monzo details for the refund: sort code {d(2)}-{d(2)}-{d(2)}, account {d(8)}",
        f"Online-Banking Sparkasse: Anmeldename {user()} PIN {d(5)}",
        f"Amex {grp(card('37', 15))} - CID {d(4)} on the front", f"My UPI PIN for PhonePe is {d(6)}, don't tell anyone",
        f"Te paso mi CLABE para la transferencia: {clabe()} (BBVA)", f"三菱UFJ銀行 渋谷支店 普通 {d(7)} 暗証番号 {d(4)}",
        f"Cheque scan, MICR line: ⑆{aba()}⑆ {d(10)}⑈ {d(4)}",
        js({"account": {"owner": "Anna Berg", "iban": ib("SE", False), "bic": "ESSESESS", "currency": "SEK"}}),
        f"RIB : banque {_fr_bank} guichet {_fr_branch} compte {_fr_acct} clé {_fr_key}\nIBAN "
        + grp(iban_complete("FR", _fr_bank + _fr_branch + _fr_acct + _fr_key)),
    ],
    "crypto_wallets": [
        f"MetaMask recovery phrase (keep offline!): {seed(12)}",
        "Ledger backup sheet\n" + "\n".join("   ".join(f"{3 * r + c + 1:>2}. {w}" for c, w in enumerate(row))
                                             for r, row in enumerate(zip(*[iter(seed(24).split())] * 3))),
        f"WIF for the paper wallet: {wif()}", f"Exported private key from MetaMask: 0x{h(64)}",
        f"Ledger PIN is {d(8)} and the passphrase (25th word) is {R.choice(_WORDS)}{d(2)}",
        f"binance:\n  api_key: {a(64)}\n  api_secret: {a(64)}",
        f"words 1-6: {' '.join(_seed_a[:6])}\nwords 7-12: {' '.join(_seed_a[6:])}",
        f"solana id.json: {js([R.randrange(256) for _ in range(64)])}", f"Сид-фраза от кошелька Trust: {seed(12)}",
        f"Geth keystore UTC--2024-02-11T09-12-44Z password: {pp(4, ' ')}",
    ],
    "gaming_streaming_family": [
        "Steam Guard backup codes: " + " ".join(f"R{chars(R, UPPER + DIGITS, 4)}" for _ in range(5)),
        f"PSN: {mail()} pw {pw()} - for the kids' PS5",
        f"Grandad's Disney+ login: {mail()} / {pw()} (don't change it, he wrote it down)",
        f"Nintendo Switch parental controls PIN: {d(4)}",
        f"Twitch stream key (OBS > Settings > Stream): live_{d(9)}_{a(30)}",
        f"bot token for our server's music bot: {fake_vendor(R, 'discord')}",
        f"enable-rcon=true\nrcon.port=25575\nrcon.password={pw()}\nserver-port=25565",
        f"Family plan: the Spotify password is the dog's name plus our house number - {R.choice(PETS)}{d(2)}",
        ".ROBLOSECURITY=_|WARNING:-DO-NOT-SHARE-THIS.--Sharing-this-will-allow-someone-to-log-in-as-you-and-to-"
        f"steal-your-ROBUX-and-items.|_{h(64).upper()}{h(64).upper()}",
        f"Le mot de passe Canal+ a changé : {pw()} — Maman",
    ],
    "elderly_relatives_notes": [
        f"Grandma's notebook, page 3:\nBANK card - pin {d(4)}\nonline - user {user()} pass {pw()}",
        f"Dad says the safe combination is R{R.randrange(1, 99)} L{R.randrange(1, 99)} R{R.randrange(1, 99)}",
        f"Mum's email password is her maiden name and birth year: Kowalska{R.randrange(1940, 1960)}",
        f"Pension portal for Auntie Jo: memorable word 'buttercup', password {pw()}",
        f"Uncle Ray's phone: unlock pattern is an L (1-4-7-8-9), SIM PIN {d(4)}",
        f"Oma hat die Geheimzahl für die EC-Karte auf einen Zettel geschrieben: {d(4)}. Bitte merken.",
        f"Apunta lo de la abuela: clave del banco {d(6)}, tarjeta {fake_card(R)} vence {exp()}",
        f"Nonno mi ha detto che il PIN del bancomat è {d(5)}, me lo segno qui",
        f"Dad's PUK code for the old Nokia: {d(8)}",
    ],
    "api_responses_env": [
        js({"access_token": "ya29." + chars(R, B64URL, 150), "expires_in": 3599, "scope":
            "https://www.googleapis.com/auth/calendar", "token_type": "Bearer",
            "refresh_token": "1//0" + chars(R, B64URL, 99)}, 2),
        f"$ env | sort\nAWS_ACCESS_KEY_ID={fake_vendor(R, 'aws')}\nAWS_DEFAULT_REGION=eu-central-1\n"
        f"AWS_SECRET_ACCESS_KEY={chars(R, BASE62 + '+/', 40)}\nHOME=/home/agent",
        f"$ printenv | grep -i token\nGITHUB_TOKEN={fake_vendor(R, 'github')}\nNPM_TOKEN={fake_vendor(R, 'npm')}",
        'Traceback (most recent call last):\n  File "sync.py", line 14, in <module>\n    conn = psycopg2.connect('
        f'"postgresql://ledger:{pw()}@db.internal:5432/ledger")\npsycopg2.OperationalError: timeout expired',
        f"openai.AuthenticationError: Error code: 401 - Incorrect API key provided: {fake_vendor(R, 'openai')}.",
        js({"ok": True, "app_id": "A0" + chars(R, UPPER + DIGITS, 9), "access_token": fake_vendor(R, "slack"),
            "team": {"name": "Dubois Family"}}),
        f"=== shop-api Config Vars\nDATABASE_URL: postgres://u{h(12)}:p{h(40)}@ec2-3-91-12-7.compute-1.amazonaws.com"
        f":5432/d{h(12)}\nNODE_ENV:     production",
        f"TWILIO_ACCOUNT_SID=AC{h(32)}\nTWILIO_AUTH_TOKEN={h(32)}",
        f"===== Data =====\nKey         Value\n---         -----\nusername    svc-backup\npassword    {pw()}",
        f"> Ready! You are using Stripe API Version [2024-04-10]. Your webhook signing secret is whsec_{a(32)} "
        "(^C to quit)",
        f"send: b'GET /v1/me HTTP/1.1\\r\\nHost: api.bookly.io\\r\\nAuthorization: Bearer {fake_vendor(R, 'jwt')}'",
        js({"connectionString": "DefaultEndpointsProtocol=https;AccountName=photosbackup;AccountKey="
            + fake_vendor(R, "azure_key") + ";EndpointSuffix=core.windows.net"}),
    ],
    "infra_ci_http": [
        js({"Config": {"Env": ["POSTGRES_USER=app", f"POSTGRES_PASSWORD={pw()}", "PGDATA=/var/lib/postgresql/data"],
                       "Image": "postgres:16"}}, 2),
        f"apiVersion: v1\nkind: Secret\nmetadata:\n  name: smtp\ndata:\n  password: {b64s(pw())}\n  user: "
        f"{b64s('mailer')}",
        f"+ curl -sf -H 'Authorization: token {fake_vendor(R, 'github')}' https://api.github.com/repos/acme/app",
        f"GET /account HTTP/1.1\nHost: shop.lumenmart.com\nCookie: sessionid={h(32)}; csrftoken={a(32)}",
        f"$ curl -u backup:{pw()} https://nas.local:5001/webapi/entry.cgi",
        f"Authorization: Basic {basic('admin', pw())}",
        f"$ docker login registry.gitlab.com -u ci-bot -p {fake_vendor(R, 'gitlab')}",
        f"$ mysql -h 10.0.3.12 -u root -p{pw()} shop < dump.sql",
        f"$ git remote -v\norigin  https://oauth2:{fake_vendor(R, 'gitlab')}@gitlab.com/ivanova/thesis.git (fetch)",
        js({"type": "aws_db_instance", "instances": [{"attributes": {"username": "admin", "password": pw()}}]}, 2),
        js({"auths": {"ghcr.io": {"auth": basic("berg", fake_vendor(R, "github"))}}}, 2),
        "$ cat ~/.ssh/id_ed25519\n" + fake_pem(R, "OPENSSH"),
        "download ready: https://tax-docs-2024.s3.eu-west-1.amazonaws.com/return.pdf?X-Amz-Algorithm=AWS4-HMAC-SHA256"
        f"&X-Amz-Credential={fake_vendor(R, 'aws')}%2F20240502%2Feu-west-1%2Fs3%2Faws4_request&X-Amz-Date="
        f"20240502T101500Z&X-Amz-Expires=3600&X-Amz-SignedHeaders=host&X-Amz-Signature={h(64)}",
    ],
    "code_snippets": [
        f'client = OpenAI(api_key="{fake_vendor(R, "openai")}")',
        f"const stripe = require('stripe')('{fake_vendor(R, 'stripe')}');",
        f'db, err := sql.Open("mysql", "root:{pw()}@tcp(127.0.0.1:3306)/shop")',
        f'props.put("mail.smtp.user", "alerts@dubois.fr");\nprops.put("mail.smtp.password", "{pw()}");',
        f'var cs = "Server=sql01;Database=Payroll;User Id=sa;Password={pw()};TrustServerCertificate=True";',
        f"define( 'DB_NAME', 'wp_blog' );\ndefine( 'DB_USER', 'wp' );\ndefine( 'DB_PASSWORD', '{pw()}' );",
        f'GMSServices.provideAPIKey("{fake_vendor(R, "google")}")',
        f"export HF_TOKEN={fake_vendor(R, 'huggingface')}\npython train.py --push-to-hub",
        f"CREATE USER reporting WITH PASSWORD '{pw()}';\nGRANT SELECT ON ALL TABLES IN SCHEMA public TO reporting;",
        f'$pw = ConvertTo-SecureString "{pw()}" -AsPlainText -Force',
        f"FROM node:20-alpine\nENV SENDGRID_API_KEY={fake_vendor(R, 'sendgrid')}\nCMD [\"node\", \"mailer.js\"]",
        f'USERS = {{"admin": "{bcrypt_hash()}", "anna": "{bcrypt_hash()}"}}',
        f"# .env\nDATABASE_URL=postgres://app:{pw()}@localhost:5432/app\nMAILGUN_API_KEY={fake_vendor(R, 'mailgun')}",
    ],
    "multilingual_logins": [
        f"Chéri, le code de la porte d'entrée c'est {d(4)}B et le mot de passe de la box {wifi()}",
        f"Kannst du dir merken: das WLAN-Passwort in der Ferienwohnung ist {wifi()}",
        f"Apunta: la contraseña del correo del trabajo es {pw()}",
        f"Anota aí: senha do app do banco {d(6)} e a do cartão {d(4)}",
        f"Ricordati che la password dello SPID è {pw()}", f"Onthoud even: de pincode van mijn bankpas is {d(4)}",
        f"Zapamiętaj: hasło do bankowości to {pw()}, a kod do domofonu {d(4)}#", f"Запомни: пароль от Госуслуг {pw()}",
        f"Запам'ятай код від сейфа в офісі: {d(6)}", f"e-Devlet şifrem {pw()}, unutursam bana hatırlat",
        f"覚えておいて：Amazonのパスワードは {pw()} です", f"帮我记一下，微信支付密码是{d(6)}",
        f"기억해줘: 현관 비밀번호는 {d(6)}* 이고 공동인증서 비밀번호는 {pw()}", f"تذكر أن كلمة مرور بريدي الإلكتروني هي {pw()}",
        f"याद रखना, नेटबैंकिंग का पासवर्ड {pw()} है",
        f"Kom ihåg: portkoden är {d(4)} och lösenordet till wifi är {wifi()}",
        f"Tolong ingat ya, PIN ATM BCA saya {d(6)}", f"Nhớ giúp mình mật khẩu Zalo: {pw()}",
    ],
}

# --------------------------------------------------------------------------- harmless near misses
FIFTH_HARMLESS: dict[str, list[str]] = {
    "remember_no_secret": [
        "Remember that I changed my Netflix password yesterday, so don't suggest the old login flow.",
        "Remember my dentist appointment is on Tuesday 14 May at 14:30, room 2.07.",
        "Note for later: the spare key is with Mrs. Okafor at number 12, not under the mat any more.",
        "Save this: the office guest Wi-Fi is called Acme-Guest and the password is on the whiteboard in reception.",
        "Remember that I use Bitwarden, not 1Password, and that two-factor is on with an authenticator app.",
        "Remember the gym changes its door code on the first of every month, so ask at the front desk.",
        "Remember that my passport expires in March 2027 and I need to renew it before the Japan trip.",
        "Don't save my bike lock code anywhere, I'll keep it in my head.",
    ],
    "voice_everyday": [
        "hey google set a timer for twenty five minutes", "remind me to call the pharmacy at nine thirty tomorrow",
        "alexa add two kilos of flour and six eggs to the shopping list",
        "navigate to twenty two baker street and avoid tolls", "remind me that my work password expires on friday",
        "ok google when does the number forty two bus come",
        "call pizza roma on oh two oh seven nine four six oh one two three",
        "hey siri my flight is l h four oh two what time does it land",
    ],
    "ocr_harmless": [
        "REWE Markt GmbH\nBIO BANANEN        1,29\nMILCH 3,5%         1,19\nSUMME EUR          2,48\n"
        "Kartenzahlung VISA ************4821\nBeleg-Nr. 4417",
        "BOARDING PASS\nNAME  SMITH/JANE MS\nFLIGHT KL 1002   SEAT 14C\nGATE D7   BOARDING 07:35\nBOOKING REF Q7XK2M",
        "Sign in\nEmail   jane.smith@outlook.com\nPassword   ••••••••••\n[ ] Remember me     Forgot password?",
        f"DHL Paket\nSendungsnummer: {d(20)}\nAn: Packstation 118, 80331 München",
        "Linie 142   Hauptbahnhof → Flughafen\n06:12  06:32  06:52  07:12  07:32",
        "Two-factor authentication: ON\nBackup codes: 8 remaining (View)\nLast sign-in: 2 hours ago, Chrome on macOS",
        "Incorrect PIN. 2 attempts remaining.\n[ Try again ]   [ Forgot PIN ]",
        f"Lektüre für Klasse 8\nISBN {isbn13()}\nReclam XL   6,80 €",
        "Q4. 3 847 + 2 196 = ____\nQ5. 6 x 7 = ____\nQ6. Round 4 562 to the nearest hundred.",
    ],
    "notifications_harmless": [
        f"Your parcel 1Z{chars(R, UPPER + DIGITS, 6)}03{d(8)} is out for delivery and will arrive 10:00-14:00.",
        "Your verification code has expired. Please request a new one in the app.",
        "We will never ask for your PIN, password or one-time code by phone, SMS or e-mail.",
        "Your password was changed on 12 March at 10:41. If this wasn't you, contact us straight away.",
        f"Order #{d(3)}-{d(7)}-{d(7)} has shipped! Track it in Your Orders.",
        "Appointment confirmed: Dr. Meyer, Thu 14.05 at 09:15, Room 3.12. Please bring your insurance card.",
        "New sign-in to your account from Chrome on Windows near Lyon, France. If this was you, ignore this e-mail.",
        f"Ваш заказ №{d(8)} передан в службу доставки. Ожидайте SMS курьера.",
        "Your 6-digit code was sent to +49 ••• •••• 73. Didn't get it? Resend in 0:45.",
    ],
    "masked_placeholders": [
        "Card •••• •••• •••• 4821, expires 09/27 - set as default payment method.",
        "db:\n  user: app\n  password: ********\n  host: localhost", "OPENAI_API_KEY=<your-api-key-here>",
        "token: ${GITHUB_TOKEN}", "SSN on file: XXX-XX-6789 (last four only)",
        'curl -H "Authorization: Bearer $ACCESS_TOKEN" https://api.bookly.io/v1/me',
        "DATABASE_URL=postgres://USER:PASSWORD@HOST:5432/DBNAME   # template line from the README",
        '{"user": "jsmith", "password": "[REDACTED]", "otp": null}',
        "The old key sk_live_••••••••••••3f9a was rolled on 3 March; nothing to do on your side.",
        "IBAN: DE•• •••• •••• •••• ••47 12 (shown masked in the app)",
    ],
    "smart_home_harmless": [
        "The router admin page is at http://192.168.178.1 - log in with the password printed on the bottom.",
        "Hue bridge updated to firmware 1.65.1965111030. 23 lights in 4 rooms.",
        "SSID Nowak_Home_5G, channel 36, 80 MHz, WPA3-Personal enabled.",
        "Zigbee network on channel 15, PAN ID 0x1A62, 31 devices paired.",
        "wifi:\n  ssid: !secret wifi_ssid\n  password: !secret wifi_password",
        "The smart lock battery is at 18%; the keypad should keep working for about two weeks.",
        "Press the WPS button on the router, then the pairing button on the repeater within two minutes.",
        "MQTT broker: mqtt://homeassistant.local:1883, topic home/livingroom/temperature, QoS 1",
        "The HomeKit setup code is on the sticker under the plug, so keep the box.",
    ],
    "travel_harmless": [
        "Flight BA 287 departs 11:05 from Terminal 5; the gate opens at 10:15.",
        f"Booking reference {chars(R, UPPER + DIGITS, 6)}, seat 23A, one checked bag of 23 kg.",
        f"Hotel confirmation {d(4)}.{d(3)}.{d(3)} - check-in from 15:00, breakfast 7-10.",
        "ICE 597, Wagen 12, Platz 45 (Fenster), Abfahrt 08:34 von Gleis 7",
        "Your passport must be valid for at least six months after you enter Thailand.",
        "Boarding pass added to Wallet - boarding group 3, gate B44.",
        "Le vol AF 1234 est retardé de 40 minutes, nouvelle heure de départ 13h15.",
        "Left the suitcase in locker 214 at the station, paid for 24 hours.",
    ],
    "portals_advice": [
        "You can find your NHS number on any letter from the NHS or in the NHS App.",
        "Bitte bringen Sie Ihre Versichertenkarte und einen Lichtbildausweis mit.",
        "The tax office will never ask for your PIN or password by e-mail.",
        "School portal passwords must be at least 12 characters and include a number.",
        "Parent-teacher meeting: Wed 18:00, room 204, Mrs. Lindqvist (maths).",
        "Pour réinitialiser votre mot de passe Ameli, cliquez sur « Mot de passe oublié » et suivez le lien.",
        "Prescription ready for collection: ibuprofen 400 mg, 20 tablets. Open Mon-Fri 8:00-18:30.",
        "Logga in med BankID eller Freja eID, du behöver inget separat lösenord.",
    ],
    "banking_harmless": [
        "Paid €250.00 to the landlord from the account ending 0451.",
        "Commerzbank's BIC is COBADEFFXXX - it's the same for every branch.",
        f"Our credit union's routing number, as listed on its website, is {aba()}.",
        "Statement: balance $1,284.17, minimum payment $35.00 due on the 5th.",
        "Interest on the savings account goes up to 3.1% AER from June.",
        "UK sort codes are six digits written as three pairs, like NN-NN-NN.",
        "The PIN pad at the till was broken so I paid contactless.",
        "Card replaced - the new one arrives in 5-7 working days and your PIN stays the same.",
    ],
    "crypto_harmless": [
        f"Send the USDC to my public address 0x{h(40)} on Base.",
        f"Transaction hash: 0x{h(64)} - 12 confirmations, gas used 21000",
        "Never type your seed phrase into a website; the wallet will never ask for it.",
        "I wrote the 24 words on the steel plate and put it in the safe deposit box.",
        "BTC is at 64,210 USD and ETH at 3,412 USD; gas is around 21 gwei.",
        f"Donations welcome: bc1q{chars(R, '023456789acdefghjklmnpqrstuvwxyz', 38)}",
        "My ENS name is anna-rossi.eth, use that instead of the long address.",
    ],
    "tool_outputs_harmless": [
        js({"id": uuid4(), "status": "succeeded", "created_at": "2024-05-02T10:15:00Z", "items": 3}, 2),
        "$ env | sort\nHOME=/home/agent\nLANG=en_US.UTF-8\nNODE_ENV=production\nPATH=/usr/local/bin:/usr/bin:/bin\n"
        "SHELL=/bin/bash\nTZ=Europe/Berlin",
        "Run npm publish --access public\n  env:\n    NODE_AUTH_TOKEN: ***\n+ my-lib@2.4.1",
        "GET /api/health HTTP/1.1\nHost: status.lumenmart.com\nAccept: application/json\nUser-Agent: curl/8.5.0",
        "Traceback (most recent call last):\n  File \"billing.py\", line 8, in <module>\n"
        "    key = os.environ[\"STRIPE_API_KEY\"]\nKeyError: 'STRIPE_API_KEY'",
        'HTTP/1.1 401 Unauthorized\n{"error": "invalid_token", "error_description": "The access token expired"}',
        '  + resource "aws_db_instance" "main" {\n      + username = "admin"\n      + password = (sensitive value)',
        "NAME          TYPE                DATA   AGE\nsmtp          Opaque              2      41d\nregistry-cred "
        "kubernetes.io/dockerconfigjson   1      12d",
        f"$ cat ~/.ssh/id_ed25519.pub\n{ssh_pub()} anna@laptop",
        f"$ git log --oneline -3\n{h(7)} Fix token counting in the summariser\n{h(7)} Bump version to 2.4.1\n"
        f"{h(7)} Add password strength meter",
        f"{h(64)}  release-2.4.1-linux-amd64.tar.gz",
    ],
    "code_env": [
        'api_key = os.environ["OPENAI_API_KEY"]\nclient = OpenAI(api_key=api_key)',
        "const stripe = require('stripe')(process.env.STRIPE_SECRET_KEY);",
        'dsn := os.Getenv("DATABASE_URL")\ndb, err := sql.Open("postgres", dsn)',
        'password = getpass.getpass("Password: ")', "    env:\n      NODE_AUTH_TOKEN: ${{ secrets.NPM_TOKEN }}",
        'secret = boto3.client("secretsmanager").get_secret_value(SecretId="prod/db")["SecretString"]',
        'PASSWORD_RE = re.compile(r"^(?=.*[a-z])(?=.*[A-Z])(?=.*\\d).{12,}$")',
        "define( 'DB_PASSWORD', getenv( 'WORDPRESS_DB_PASSWORD' ) );",
        "env:\n  - name: DB_PASSWORD\n    valueFrom:\n      secretKeyRef:\n        name: db\n        key: password",
        "if not bcrypt.checkpw(password.encode(), user.password_hash):\n    raise AuthError()",
    ],
    "other_senses": [
        "Q3 key results: cut onboarding time to 2 days and ship the new search.",
        "Our token budget is 8,000 tokens per request, so trim the context.",
        "He knocked down the last bowling pin and finished on 212.",
        "Dress code for Friday: smart casual, no trainers.",
        "Print your boarding pass at the kiosk if the app doesn't work.",
        "See the pin diagram on page 12 of the datasheet: pin 1 is VCC, pin 8 is GND.",
        "The song is in the key of D minor; capo on the 3rd fret.", "You need a pass mark of 60% on the theory test.",
        "The secret ingredient is a pinch of cinnamon in the chili.",
        "Keynote starts at 9:00 in Hall A; then the panel on access tokens for LLM agents.",
    ],
    "multilingual_harmless": [
        "J'ai changé mon mot de passe hier, tout fonctionne de nouveau.",
        "Das Passwort muss mindestens 12 Zeichen lang sein und eine Zahl enthalten.",
        "No compartas tu PIN con nadie, ni siquiera con el banco.", f"O código de rastreio do seu pedido é BR{d(9)}BR.",
        "La password del Wi-Fi è scritta dietro il router, in cucina.",
        "Kod do domofonu zmienia się co miesiąc, zapytaj administratora.",
        "Код домофона спросите у консьержа на первом этаже.",
        "Пароль від Wi-Fi на стійці реєстрації, запитайте адміністратора.",
        f"Şifrenizi kimseyle paylaşmayın. Kargo takip no: {d(12)}", "パスワードを忘れた場合は、ログイン画面の「パスワードをお忘れですか」から再設定してください。",
        "验证码已过期，请重新获取。", "비밀번호는 3개월마다 변경하는 것이 좋습니다.",
        "لا تشارك رمز التحقق مع أي شخص، حتى موظفي البنك.", "Glömt lösenordet? Klicka på länken för att återställa det.",
        "Jangan berikan kode OTP kepada siapa pun.", "Mật khẩu của bạn đã được thay đổi thành công.",
    ],
    "everyday_numbers": [
        "Recipe: 250 g flour, 2 eggs, 300 ml milk, a pinch of salt; bake at 180 °C for 25 minutes.",
        "Room 1412 on the 14th floor, checkout at 11.", "Final score 3-1, attendance 41,287.",
        "My sister's flight lands at 17:40 at Terminal 2.", "The 7 bus stops at Oak Street every 12 minutes.",
        "Distance 12.4 km, time 1:04:32, average pace 5:12/km.",
        "Call the plumbers Hendricks & Sons on 020 7946 0321, open 8 to 6.", "The venue's postcode is SW1A 1AA.",
        "Born 1952, married 1976, three kids, seven grandchildren - notes for Grandma's birthday toast.",
    ],
}
