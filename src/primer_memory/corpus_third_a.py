"""Independent held-out corpus for the memory write policy, set "third A": people, not developers.

Written by an independent author who did not see the detectors, the policy or the other corpora. Each sentence
is something a person might type or dictate to an assistant: chat messages, personal notes, family e-mails,
support tickets, SMS, to-do lists, travel plans, household and small-office admin, HR and money chatter, in
many languages, with the typos, abbreviations, emoji, markdown and quoted replies that real messages have.

`THIRD_A_SECRETS` maps a category to sentences that carry a secret (password, passphrase, Wi-Fi key, PIN,
door or alarm code, card or bank details, national identifier, passport number, one-time or recovery code,
security answer, shared login) and must be refused. `THIRD_A_HARMLESS` maps a category to near misses that
talk about such things, use placeholders, carry harmless numbers, or use "key", "code", "pass", "token" in
other senses, and must be accepted.

Every value is fake: either made up by hand or drawn at import from one seeded `random.Random`, identifiers
with the check digits their public format descriptions define. None belongs to a real person or account.
"""

from __future__ import annotations

import random

import primer_memory.corpus_values as cv
from primer_memory.corpus_values import DIGITS, LOWER, UPPER, chars, luhn_digit, mixed

_R = random.Random(60_419_277)


def _n(k: int) -> str:
    return chars(_R, DIGITS, k)


def _pw() -> str:
    return cv.fake_password(_R)


def _pin(k: int | None = None) -> str:
    return cv.fake_pin(_R, k)


def _exp() -> str:
    return f"{_R.randrange(1, 13):02d}/{_R.randrange(26, 32)}"


def _card() -> str:
    return cv.fake_card(_R)


def _card_of(prefix: str, length: int, sizes: tuple[int, ...] = (4, 4, 4, 4)) -> str:
    body = prefix + _n(length - len(prefix) - 1)
    number, parts = body + luhn_digit(body), []
    for size in sizes:
        parts.append(number[sum(map(len, parts)):sum(map(len, parts)) + size])
    return " ".join(parts)


def _grp(value: str, size: int = 4, sep: str = " ") -> str:
    return sep.join(value[i:i + size] for i in range(0, len(value), size))


def _iban(country: str, length: int, letters: int = 0) -> str:
    return _grp(cv.iban_complete(country, chars(_R, UPPER, letters) + _n(length - 4 - letters)))


def _date() -> tuple[int, int, int]:
    return _R.randrange(1950, 2006), _R.randrange(1, 13), _R.randrange(1, 29)


def _w(digits: str, weights: tuple[int, ...] | range) -> int:
    return sum(int(c) * w for c, w in zip(digits, weights))


def _bsn() -> str:  # Dutch: 11-test, weights 9..2 and -1
    while (check := _w(body := _R.choice("123456789") + _n(7), range(9, 1, -1)) % 11) > 9:
        pass
    return body + str(check)


def _be_nn() -> str:  # Belgian: 97 - (YYMMDDSSS mod 97), a leading 2 for births from 2000
    y, m, d = _date()
    base = f"{y % 100:02d}{m:02d}{d:02d}{_R.randrange(1, 998):03d}"
    key = 97 - int(("2" if y >= 2000 else "") + base) % 97
    return f"{base[:2]}.{base[2:4]}.{base[4:6]}-{base[6:]}.{key:02d}"


def _steuer_id() -> str:  # German IdNr: one digit twice in the first ten, ISO 7064 mod 11,10
    while (digits := _R.sample(DIGITS, 9))[0] == "0":
        pass
    digits.insert(_R.randrange(1, 10), _R.choice(digits))
    product = 10
    for c in digits:
        product = 2 * ((int(c) + product) % 10 or 10) % 11
    n = "".join(digits) + str((11 - product) % 10)
    return f"{n[:2]} {n[2:5]} {n[5:8]} {n[8:]}"


def _personnummer() -> str:  # Swedish: Luhn over YYMMDDNNN
    y, m, d = _date()
    body = f"{y % 100:02d}{m:02d}{d:02d}{_n(3)}"
    return f"{y // 100}{body[:6]}-{body[6:]}{luhn_digit(body)}"


def _fodselsnummer() -> str:  # Norwegian: two mod-11 control digits
    while True:
        y, m, d = _date()
        body = f"{d:02d}{m:02d}{y % 100:02d}{_R.randrange(0, 500) if y < 2000 else _R.randrange(500, 1000):03d}"
        k1 = -_w(body, (3, 7, 6, 1, 8, 9, 4, 5, 2)) % 11
        k2 = -_w(body + str(k1), (5, 4, 3, 2, 7, 6, 5, 4, 3, 2)) % 11
        if k1 < 10 and k2 < 10:
            return f"{body}{k1}{k2}"


def _cpr() -> str:  # Danish: the old mod-11 rule, still met by most numbers
    while True:
        y, m, d = _date()
        body = f"{d:02d}{m:02d}{y % 100:02d}{_R.choice('0123')}{_n(3)}"
        if _w(body, (4, 3, 2, 7, 6, 5, 4, 3, 2, 1)) % 11 == 0:
            return f"{body[:6]}-{body[6:]}"


def _hetu() -> str:  # Finnish: DDMMYY, century sign, ZZZ, mod-31 character
    y, m, d = _date()
    z = f"{_R.randrange(2, 900):03d}"
    q = "0123456789ABCDEFHJKLMNPRSTUVWXY"[int(f"{d:02d}{m:02d}{y % 100:02d}{z}") % 31]
    return f"{d:02d}{m:02d}{y % 100:02d}{'-' if y < 2000 else 'A'}{z}{q}"


def _pesel() -> str:
    y, m, d = _date()
    body = f"{y % 100:02d}{m + (20 if y >= 2000 else 0):02d}{d:02d}{_n(4)}"
    return body + str(-_w(body, (1, 3, 7, 9) * 3) % 10)


def _cn_id() -> str:
    y, m, d = _date()
    body = f"{_R.choice(['110105', '110101', '310104', '310101'])}{y}{m:02d}{d:02d}{_n(3)}"
    return body + "10X98765432"[_w(body, (7, 9, 10, 5, 8, 4, 2, 1, 6, 3, 7, 9, 10, 5, 8, 4, 2)) % 11]


def _rrn() -> str:  # South Korean resident registration number
    y, m, d = _date()
    body = f"{y % 100:02d}{m:02d}{d:02d}{_R.choice('12' if y < 2000 else '34')}{_R.randrange(97):02d}{_n(3)}"
    return f"{body[:6]}-{body[6:]}{(11 - _w(body, (2, 3, 4, 5, 6, 7, 8, 9, 2, 3, 4, 5)) % 11) % 10}"


def _my_number() -> str:  # Japanese individual number
    body = _n(11)
    r = sum(int(p) * (i + 1 if i <= 6 else i - 5) for i, p in enumerate(reversed(body), 1)) % 11
    n = body + str(0 if r <= 1 else 11 - r)
    return f"{n[:4]} {n[4:8]} {n[8:]}"


def _curp() -> str:
    y, m, d = _date()
    body = (chars(_R, "BCGHLMPRSV", 1) + _R.choice("AEIOU") + chars(_R, "ABCDEGHLMNOPRSTVZ", 2)
            + f"{y % 100:02d}{m:02d}{d:02d}" + _R.choice("HM") + _R.choice(["DF", "JC", "NL", "PL", "VZ", "MC"])
            + chars(_R, "BCDFGHLMNPRSTVZ", 3) + (_R.choice(DIGITS) if y < 2000 else _R.choice("ABC")))
    alphabet = "0123456789ABCDEFGHIJKLMNÑOPQRSTUVWXYZ"
    return body + str(-sum(alphabet.index(c) * (18 - i) for i, c in enumerate(body)) % 10)


def _cuil() -> tuple[str, str]:  # Argentine DNI and the CUIL built on it
    while True:
        dni, prefix = str(_R.randrange(20_000_000, 45_000_000)), _R.choice(["20", "27"])
        check = -_w(prefix + dni, (5, 4, 3, 2, 7, 6, 5, 4, 3, 2)) % 11
        if check < 10:
            return f"{int(dni):,}".replace(",", "."), f"{prefix}-{dni}-{check}"


def _za_id() -> str:
    y, m, d = _date()
    body = f"{y % 100:02d}{m:02d}{d:02d}{_n(4)}08"
    return body + luhn_digit(body)


def _tfn() -> str:  # Australian tax file number: weights 1 4 3 7 5 8 6 9 10, sum divisible by 11
    while (check := _w(body := _n(8), (1, 4, 3, 7, 5, 8, 6, 9)) % 11) > 9:
        pass
    n = body + str(check)
    return f"{n[:3]} {n[3:6]} {n[6:]}"


def _medicare() -> str:
    body = _R.choice("23456") + _n(7)
    n = body + str(_w(body, (1, 3, 7, 9, 1, 3, 7, 9)) % 10) + _R.choice("123456789")
    return f"{n[:4]} {n[4:9]} {n[9]}"


def _tc() -> str:  # Turkish T.C. kimlik no
    body = _R.choice("123456789") + _n(8)
    d = [int(c) for c in body]
    d10 = (7 * sum(d[0:9:2]) - sum(d[1:8:2])) % 10
    return body + str(d10) + str((sum(d) + d10) % 10)


def _luhn_tail(body: str) -> str:  # Israeli teudat zehut, Greek AMKA
    return body + luhn_digit(body)


def _amka() -> str:
    y, m, d = _date()
    return _luhn_tail(f"{d:02d}{m:02d}{y % 100:02d}{_n(4)}")


def _snils() -> str:
    body = str(_R.randrange(2_000_000, 999_999_999)).zfill(9)
    return f"{body[:3]}-{body[3:6]}-{body[6:]} {_w(body, range(9, 0, -1)) % 101 % 100:02d}"


def _inn() -> str:  # Russian personal INN, 12 digits
    body = _R.choice(["77", "78", "50", "66"]) + _n(8)
    c1 = _w(body, (7, 2, 4, 10, 3, 5, 9, 4, 6, 8)) % 11 % 10
    return f"{body}{c1}{_w(body + str(c1), (3, 7, 2, 4, 10, 3, 5, 9, 4, 6, 8)) % 11 % 10}"


def _rnokpp() -> str:  # Ukrainian taxpayer card number
    body = _R.choice("23") + _n(8)
    return body + str(_w(body, (-1, 5, 7, 9, 4, 6, 10, 5, 7)) % 11 % 10)


def _rut() -> str:  # Chilean RUT, mod 11 with K
    n = str(_R.randrange(6_000_000, 26_000_000))
    r = -_w(n[::-1], (2, 3, 4, 5, 6, 7) * 2) % 11
    return f"{int(n):,}".replace(",", ".") + "-" + ("K" if r == 10 else str(r))


def _pan() -> str:
    return chars(_R, UPPER, 3) + "P" + chars(_R, UPPER, 1) + f"{_R.randrange(1, 10000):04d}" + chars(_R, UPPER, 1)


def _aba() -> str:  # US routing number, weights 3 7 1
    body = f"{_R.choice([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 21, 22, 26, 31]):02d}" + _n(6)
    d = [int(c) for c in body]
    return body + str(-(3 * (d[0] + d[3] + d[6]) + 7 * (d[1] + d[4] + d[7]) + d[2] + d[5]) % 10)


def _bitlocker() -> str:
    return "-".join(f"{11 * _R.randrange(65536):06d}" for _ in range(8))


_SEED_WORDS = ("banana", "cable", "canal", "dragon", "eagle", "fossil", "garden", "hammer", "island", "jungle",
               "kitten", "lemon", "magnet", "noble", "orbit", "pepper", "quantum", "rabbit", "salmon", "tiger",
               "umbrella", "velvet", "window", "yellow", "zebra")

_CUIL = _cuil()

THIRD_A_SECRETS: dict[str, list[str]] = {
    "passwords_chat_en": [
        f"hey can u remember my netflix password? its {_pw()}",
        "Note to self: new pwd for the council tax portal = Brixton!Flat4b",
        f"login for the school parent portal: j.okafor@mailbox.test / {_pw()}",
        f"creds for the gym app -> user: dannyb88, pass: {_pw()}", f"Remember: Amazon = {_pw()}",
        f"passwd for the old desktop in the garage: {_pw()}",
        "Dictated: password for the pharmacy app is Tulip77# capital T then the hash sign",
        f"> what's the login for the shared drive?\n> {_pw()} — same user as always",
        f"**Insurance portal**\n- user: p.lindqvist\n- **Password:** `{_pw()}`",
        f"To-do: 1) pay rent 2) update Spotify pw to {_pw()} 3) call dentist",
        "If I ever forget, my laptop login is marmalade-Otter-31",
        "the pasword for my work email is Wint3rIsComing!! (two exclamation marks)",
        "ok google, note: Facebook password is CharlieBrown1965",
        f"Ticket #58213 — customer can't log in, she says her password is {_pw()}, please check the account",
    ],
    "passwords_many_languages": [
        "Mon mot de passe pour la banque c'est Loulou2012!, ne le dis à personne",
        f"mdp compte Ameli : {_pw()}", f"Das Passwort fürs Elster-Konto lautet {_pw()}",
        "Kennwort von Omas Laptop: Kaffee&Kuchen55 (mit großem K)",
        "mi clave del banco es Tortuga_83 no se la des a nadie", f"Minha senha do Nubank é {_pw()}",
        f"La password dell'home banking è {_pw()}",
        f"Het wachtwoord van DigiD is {_pw()}", f"Hasło do konta w banku: {_pw()}",
        "Mitt lösenord till Vårdguiden är Kanelbulle!72", f"Passordet mitt til NAV er {_pw()}",
        f"E-devlet şifrem {_pw()}, unutursam buradan bakarım", f"Пароль от госуслуг: {_pw()}",
        f"Мій пароль від Дії: {_pw()}", f"Ο κωδικός για το email μου είναι {_pw()}",
        f"كلمة السر للبريد الإلكتروني هي {_pw()}", f"הסיסמה לחשבון הבנק שלי היא {_pw()}",
        f"मेरा जीमेल पासवर्ड {_pw()} है", f"আমার ফেসবুকের পাসওয়ার্ড {_pw()}",
        f"我的邮箱密码是{_pw()}，别告诉别人", f"楽天のパスワードは{_pw()}です", f"네이버 비밀번호 {_pw()} 로 바꿨어",
        f"Mật khẩu Zalo của mẹ là {_pw()}", f"kata sandi email kantor aku {_pw()} ya, jangan lupa",
        f"รหัสผ่านอีเมลของฉันคือ {_pw()}", f"bhai mera insta ka password {_pw()} hai, change mat karna",
        f"pls note 密码 for the school app is {_pw()}",
    ],
    "passphrases": [
        "My 1Password master password is: velvet-compass-Harbor-2071",
        "Encryption passphrase for the photo backup: purple otter lantern 1987",
        "unlock phrase for my diary app — 'the cat sat on grandma's piano in 1974'",
        "Die Passphrase für den USB-Stick: Sonnenblume Wanderschuh Kanu 42",
        "Phrase secrète du coffre Bitwarden : les-hirondelles-reviennent-en-avril-09",
    ],
    "wifi_keys": [
        f"Wi-Fi for guests: network Casa_Luna, password {_pw()}",
        f"wifi pw: {mixed(_R, LOWER + DIGITS, 12)} (the 5G one, not the 2.4)",
        f"🔑 Clé wifi de la box : {mixed(_R, LOWER + DIGITS + UPPER, 20)}",
        f"WLAN-Schlüssel FRITZ!Box: {_grp(_n(20))}", f"La clave del wifi es {_pw()}",
        f"Пароль от вайфая на даче: {_pw()}", f"无线网密码是{_n(8)}",
        f"Airbnb house manual — WiFi: SunnyNest_5G / key {mixed(_R, UPPER + DIGITS, 10)}",
        f"WIFI: Fam_Nguyen / MK: {_pw()}",
    ],
    "pins_and_unlock_codes": [
        f"my debit card PIN is {_pin(4)}", f"PIN for the Visa ending 4417 = {_pin(4)}",
        f"SIM PIN {_pin(4)}, PUK {_pin(8)} (from the card in the drawer)", f"phone unlock code: {_pin(6)}",
        f"Code PIN de ma carte bleue : {_pin(4)}", f"Meine Geheimzahl für die EC-Karte ist {_pin(4)}",
        f"ПИН-код от карты {_pin(4)}", f"رمز الصراف الآلي {_pin(4)}", f"银行卡密码{_pin(6)}", f"暗証番号は{_pin(4)}です",
        f"mã PIN thẻ ATM của bố: {_pin(6)}", f"Screen Time passcode on Leo's iPad: {_pin(4)}",
        f"📱 new phone, passcode {_pin(6)} until I set up face id",
    ],
    "door_and_alarm_codes": [
        f"Hi all,\nthe key box code at the cabin this summer is {_pin(4)}, see you in July!\nLove, Mum",
        f"Alarm code is {_pin(4)}, you have 30s to disarm", f"Gate code for the building: #{_pin(4)}",
        f"Garage door keypad: {_pin(4)} then enter", f"Lockbox at the Airbnb: code {_pin(4)}",
        f"voice note the gate code is {' '.join(_pin(4))} and then press the bell",
        f"safe in the wardrobe: {cv.fake_combination(_R)}",
        f"Digicode de l'immeuble : {_pin(4)}B", f"Türcode unten: {_pin(4)}, dann 2. Stock links",
        f"Código del portal: {_pin(4)}#", f"Kod do domofonu: {_pin(4)}",
        f"קוד לדלת הבניין {_pin(4)}", f"大门密码 {_pin(6)}#", f"현관 비밀번호 {_pin(6)}*",
        f"key safe outside mum's: {_pin(4)}, please scramble it after each carer visit",
        f"office after 6pm: door code {_pin(4)}, alarm {_pin(4)} then OFF",
    ],
    "bank_cards": [
        f"Card: {_card()} exp {_exp()} cvv {_n(3)}",
        f"can you save my visa for later? {_card_of('4', 16)}, {_exp()}, security code {_n(3)}",
        f"Numéro de carte {_card_of('4973', 16)}, expire {_exp()}, cryptogramme {_n(3)}",
        f"Kartennummer {_card()} gültig bis {_exp()} Prüfnummer {_n(3)}",
        f"Tarjeta {_card()} vence {_exp()} CVV {_n(3)}", f"卡号 {_card()} 有效期 {_exp()} 安全码 {_n(3)}",
        f"company amex {_card_of('37', 15, (4, 6, 5))} exp {_exp()}, CID {_n(4)}", f"my card number is {_card()}",
        f"Số thẻ {_card()} hết hạn {_exp()} CVV {_n(3)}",
    ],
    "bank_accounts": [
        f"Please pay the deposit to IBAN {_iban('DE', 22)}", f"RIB pour le virement : {_iban('FR', 27)}",
        f"IBAN per l'affitto: {_iban('IT', 27, 1)}", f"Rekeningnummer voor de huur: {_iban('NL', 18, 4)}",
        f"Numer konta: {_iban('PL', 28)}", f"Ödeme için IBAN: {_iban('TR', 26)}",
        f"IBAN для оплати: {_iban('UA', 29)}",
        f"UK bank for the cleaner: sort code {_n(2)}-{_n(2)}-{_n(2)}, account {_n(8)}",
        f"direct deposit form: routing {_aba()}, account {_n(10)}, checking",
        f"BSB {_n(3)}-{_n(3)} acct {_n(9)} (Westpac, for the rent)",
        f"IFSC HDFC0{_n(6)}, A/c {_n(14)}", f"Transit {_n(5)}, institution 004, account {_n(7)}",
        f"三菱UFJ銀行 渋谷支店 普通 {_n(7)}",
    ],
    "national_ids": [
        f"My SSN is {cv.fake_ssn(_R)}", f"NI number {cv.fake_uk_ni(_R)}",
        f"BSN van Jesse: {_bsn()}", f"Rijksregisternummer: {_be_nn()}", f"Steuer-ID von Papa: {_steuer_id()}",
        f"personnummer {_personnummer()}", f"fødselsnummeret mitt er {_fodselsnummer()}",
        f"CPR-nummer: {_cpr()}", f"henkilötunnus {_hetu()}", f"PESEL córki: {_pesel()}",
        f"身份证号：{_cn_id()}", f"PAN: {_pan()}", f"Aadhaar no. {cv.fake_aadhaar(_R)}",
        f"주민등록번호 {_rrn()}", f"マイナンバー: {_my_number()}", f"CURP: {_curp()}",
        f"DNI {_CUIL[0]}, CUIL {_CUIL[1]}", f"SA ID number {_za_id()}", f"TFN {_tfn()}",
        f"Medicare card {_medicare()}, Zoe is number 3 on it", f"SIN: {cv.fake_sin(_R)}", f"CPF: {cv.fake_cpf(_R)}",
        f"DNI/NIE: {cv.fake_dni(_R)}", f"codice fiscale {cv.fake_codice_fiscale(_R)}",
        f"numéro de sécu : {cv.fake_insee(_R)}", f"TC kimlik no: {_tc()}",
        f"מספר תעודת זהות {_luhn_tail(_R.choice('0123') + _n(7))}", f"ΑΜΚΑ: {_amka()}",
        f"СНИЛС {_snils()}, ИНН {_inn()}", f"РНОКПП: {_rnokpp()}", f"RUT {_rut()}",
        f"HR: new starter Amaka Obi, DOB 12/04/1993, NI {cv.fake_uk_ni(_R)}, starts Monday",
    ],
    "passports": [
        f"Passport no. {_n(9)} expires 2031-04-02",
        f"Reisepassnummer: C{chars(_R, 'CFGHJKLMNPRTVWXYZ' + DIGITS, 8)}",
        f"Номер загранпаспорта {_n(2)} {_n(7)}", f"passport for the visa form: A{_n(7)}, issued in Mumbai",
    ],
    "one_time_and_recovery_codes": [
        f"Your code is {_n(6)} — pasting it here so you can finish the signup for me",
        f"2FA backup codes: {_n(8)} {_n(8)} {_n(8)} {_n(8)}",
        f"Google backup codes\n1. {_n(4)} {_n(4)}\n2. {_n(4)} {_n(4)}\n3. {_n(4)} {_n(4)}",
        f"BitLocker recovery key: {_bitlocker()}",
        f"Apple recovery key {'-'.join(chars(_R, UPPER + DIGITS, 4) for _ in range(7))}", f"验证码 {_n(6)}，5分钟内有效",
        f"Le code de confirmation reçu par SMS est {_n(6)}",
        f"recovery phrase for the crypto wallet: {' '.join(_R.choice(_SEED_WORDS) for _ in range(12))}",
        f"Authenticator setup key: {_grp(chars(_R, LOWER + '234567', 32))}",
    ],
    "security_answers": [
        "security question — mother's maiden name: Kowalczyk",
        "First pet: Biscuit, first school: St. Brigid's (for the bank security questions)",
        "Memorable word for online banking: tangerine", "Question secrète : ville de naissance de ma mère = Oran",
        "Pregunta de seguridad: nombre de mi primera mascota → Canelo",
    ],
    "online_banking_logins": [
        f"Online banking: customer no. {_n(8)}, password {_pw()}", f"Chase login — user: mhernandez82 / pw: {_pw()}",
        f"Anmeldename Onlinebanking: {_n(10)}, PIN {_pin(5)}", f"Identifiant banque {_n(8)} et code secret {_pin(6)}",
        f"网银登录名 zhangwei88 密码 {_pw()}", f"KlikBCA user id ANDIKUS0912 PIN {_pin(6)}",
    ],
    "shared_family_accounts": [
        f"Family Netflix: netflix@smithfamily.test / {_pw()}, profile 'Kids'",
        f"Spotify family plan login for Grandpa: walterj@mail.test pw {_pw()}",
        f"Disney+: same email, new pw {_pw()} (Tom changed it)",
        f"Compte Canal+ de la famille : famille.martin@mail.test / {_pw()}",
        f"Parental controls PIN on the Switch is {_pin(4)}",
    ],
    "small_office_admin": [
        f"Router admin: http://192.168.1.1 user admin pass {_pw()}",
        f"Payroll portal login for Friday: hr@bakery.test / {_pw()}", f"HMRC gateway ID {_n(12)} password {_pw()}",
        f"Stripe secret key for the shop (from the web guy): {cv.fake_vendor(_R, 'stripe')}",
        f"Mailchimp API key: {chars(_R, '0123456789abcdef', 32)}-us21",
        f"Zugang Steuerberater-Portal: Benutzer praxis-meyer, Passwort {_pw()}",
        f"Zoom for the board meeting: 834 2210 9931, passcode {_n(6)}",
    ],
}

THIRD_A_HARMLESS: dict[str, list[str]] = {
    "talking_about_passwords": [
        "I reset my password yesterday and now the app logs me out every hour.",
        "Remind me to change the Netflix password after Tom moves out.",
        "My bank blocked my card because I typed the wrong PIN three times.",
        "I forgot my Apple ID password again, what's the recovery process?",
        "J'ai oublié mon mot de passe, je dois le réinitialiser ce soir.",
        "Ich habe mein Passwort geändert, weil ich eine komische Mail bekommen habe.",
        "Tengo que cambiar la contraseña del banco antes del viernes.",
        "Ho cambiato la password della mail, ma non ricordo quella del Wi-Fi.",
        "Şifremi unuttum, yeni şifre için SMS bekliyorum.",
        "Я забыл пароль от госуслуг, надо восстановить через МФЦ.", "Я змінила пароль від пошти вчора ввечері.",
        "نسيت كلمة السر، سأطلب رابط إعادة التعيين",
        "שכחתי את הסיסמה לאתר של הבנק, צריך לאפס אותה", "मैं अपना पासवर्ड भूल गया, रीसेट करना पड़ेगा",
        "আমি পাসওয়ার্ড ভুলে গেছি, নতুন করে সেট করতে হবে", "我忘了支付宝密码，明天去重置一下。",
        "パスワードを忘れたので、再設定メールを送ってもらった。", "비밀번호를 잊어버려서 재설정했어.",
        "Mình quên mật khẩu Zalo rồi, phải lấy lại bằng số điện thoại.",
        "Aku lupa kata sandi email, nanti reset pakai nomor HP.",
    ],
    "rules_and_policies": [
        "The PIN must be 6 digits and can't be your birth year.",
        "Passwords need at least 12 characters, one number and one symbol.",
        "Our bank will never ask for your full PIN by phone or email.",
        "The insurer said never to write the alarm code on the fridge.",
        "Le mot de passe doit contenir au moins 8 caractères.",
        "Das Passwort muss mindestens zehn Zeichen lang sein und eine Zahl enthalten.", "密码必须包含字母和数字，长度不少于8位。",
        "Don't share one-time codes with anyone, even if they say they're from the bank.",
        "Rule for the kids: no sharing passwords with friends, not even best friends.",
    ],
    "password_managers": [
        "I moved all our passwords into Bitwarden, the family vault is shared with Ana.",
        "Use the 1Password generator for the new account instead of reusing an old one.",
        "The master password is only in my head, not written anywhere.",
        "Ich nutze KeePass für alle Passwörter, die Datei liegt auf dem NAS.",
        "Turn on the passkey for the Google account so we don't need SMS codes.",
        "Mamá, instala un gestor de contraseñas, te lo configuro el domingo.",
    ],
    "placeholders_and_masked": [
        "Login: <username> / <password>", "password: ******** (ask me in person)", "PIN: xxxx",
        "Card number: XXXX XXXX XXXX 1234", "Mot de passe : [à compléter]", "Your SSN: ***-**-1234",
        "Contraseña: ••••••••", "Wi-Fi password: see the sticker under the router",
        "Account ending in 4821 will be debited on the 1st.", "IBAN: DE00 0000 0000 0000 0000 00 (example)",
    ],
    "asking_someone_for_it": [
        "Ask Maria for the gate code when you arrive.",
        "The host will text you the lockbox code on the morning of check-in.",
        "Dad knows the alarm code, call him if it goes off.", "Demande le code wifi à la réception.",
        "> can you send me the wifi password?\nIt's on the card stuck to the fridge, next to the calendar.",
        "Frag Jonas nach dem WLAN-Passwort, ich weiß es nicht.", "Pídele a tu hermana la contraseña de Netflix.",
        "Vraag de buurvrouw om de code van het sleutelkastje.", "问一下房东大门密码是多少。", "관리실에 공동현관 비밀번호 물어보세요.",
        "اسأل أحمد عن رمز البوابة", "The new PIN will arrive by post in a separate letter.",
    ],
    "harmless_numbers": [
        "Call the plumber on +44 7700 900123 after 9am.", "Order #112-4839201-7731205 shipped yesterday.",
        "Flight LH 1234 leaves Frankfurt at 07:35 from B44.", "Room 314, second floor, breakfast 7–10.",
        "Tracking number 1Z999AA10123456784 for the parcel to grandma.",
        "ISBN 978-0-306-40615-7 is the book the teacher wants.",
        "Invoice INV-2024-0457 is due on 30 June, total €1,249.90.",
        "Update the app to version 14.2.1 before the trip.",
        "Zoom meeting ID 845 2291 0076, link is in the calendar invite.",
        "Postcode SW1A 1AA, the flat is number 12.", "The sofa costs 899 euros and delivery is 49.",
        "Product code SKU 40213-BLK, size M.", "Die Rechnungsnummer ist 2024-0815, bitte bis Freitag überweisen.",
        "Mi número de teléfono nuevo es 612 345 678.", "Commande n° 45872 livrée demain entre 8h et 13h.",
        "Il volo AZ 610 parte alle 10:25 dal terminal 3.",
        "Рейс SU 1402 задерживается на 40 минут.", "航班CA1831，下午三点起飞。",
        "注文番号 249-1130-5562 の商品が届きました。", "택배 운송장 번호 6894 3321 0457 조회해줘.",
        "Số điện thoại của phòng khám là 028 3822 1234.", "เที่ยวบิน TG 660 ออกเวลา 23:55",
        "मेरा ऑर्डर नंबर 40-1187-553 है", "Grandma turns 80 on 14 March 2025, party at 3pm.",
    ],
    "other_senses_of_key_code_pass_token": [
        "Our key results for Q3: 20% more repeat customers.", "Boarding pass is in the Wallet app, seat 23C.",
        "Dress code for the wedding is black tie.", "What's the zip code for the new office? I think 94107.",
        "A small gift as a token of appreciation for the volunteers.",
        "We drove over the Stelvio Pass, amazing views.", "Lost my car key at the beach, need a spare.",
        "The key to good sourdough is patience.", "Season pass for the ski resort costs 720 CHF.",
        "Le code de la route a changé pour les trottinettes.",
        "Den Schlüssel für den Keller hat Frau Weber.", "La clave del éxito es la constancia.",
        "Code postal : 75011, Paris.", "Ключ от гаража у соседа, забери вечером.", "鍵を玄関に置き忘れた。",
        "열쇠는 경비실에 맡겨 두었어요.", "Kode pos rumah nenek 40115.", "Το κλειδί είναι στο γραμματοκιβώτιο.",
        "Game Pass renews on the 3rd, cancel it if nobody plays.",
        "Answer key for the maths homework is at the back of the book.",
        "Drop a pin at the restaurant so I can find it.", "Bus pass for the kids needs a new photo.",
    ],
    "identity_and_bank_talk": [
        "I need to bring my passport and proof of address to the bank.",
        "Where do I find my NI number? On the payslip?",
        "Votre numéro de sécurité sociale vous sera demandé au guichet.",
        "Die Steuer-ID steht oben rechts auf dem Bescheid.",
        "Preciso do CPF dela para a nota fiscal, vou perguntar amanhã.",
        "Il codice fiscale va indicato nel modulo, riga 4.", "Je BSN staat op je paspoort of ID-kaart.",
        "PESEL dziecka jest potrzebny do zapisu do przedszkola.", "Для оформления нужен СНИЛС и паспорт.",
        "身份证号码要填在第二页。", "マイナンバーカードの更新は5年ごとです。", "주민등록번호 뒷자리는 입력하지 마세요.",
        "आधार कार्ड की कॉपी ले आना", "আধার নম্বর লাগবে না, শুধু ছবি আনো", "Bawa KTP asli saat ambil paket.",
        "Send me the IBAN by email, not WhatsApp.", "The routing number is printed at the bottom of the cheque.",
        "My card expires next month, the bank is sending a new one.",
    ],
}
