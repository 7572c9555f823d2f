"""Sixth write-policy corpus: small organisations and public services, as their staff and customers write.

Register: shops and marketplace sellers, schools, clinics and pharmacies, payroll, accounting, estate agents,
law offices, drivers and call centres: support chats and e-mails, messaging-app exports, DMs, spreadsheets,
transcribed letters and forms, and the logs and admin consoles of small IT setups, in many languages.
Written by an independent author who did not see the detectors, their tests or the other corpora. Every value
is fake, generated from one seeded `random.Random` at import time, with valid check digits where the format
has one. SIXTH_SECRETS must be refused; SIXTH_HARMLESS (near misses in the same registers) must be accepted.
"""

from __future__ import annotations

import base64
import random

from .corpus_values import (B64URL, BASE62, DIGITS, HEX, LOWER, UPPER, b64, chars, codice_fiscale_letter,
                            cpf_complete, fake_aadhaar, fake_card, fake_codice_fiscale, fake_dni, fake_insee, fake_pem,
                            fake_sin, fake_ssn, fake_uk_ni, fake_vendor, iban_complete, luhn_digit, mixed)

R = random.Random(731_2025)

WORDS = ["marmelade", "girasol", "kirschbaum", "pomodoro", "zeytin", "sakura", "ananas", "kasztan", "lavanda",
         "oceano", "hirsch", "mangga", "papillon", "tulipan", "bosforo", "kokos", "furaha", "cerezo", "nadel"]
SEED_WORDS = ("abandon bacon cactus dolphin eager fabric gadget habit ice jacket kangaroo ladder magnet napkin "
              "oak palace quantum rabbit saddle table umbrella vacuum wagon yard zebra acoustic bamboo canvas "
              "desert elbow filter garlic harbor idle jungle kettle lemon marble noble orbit pepper quiz ribbon "
              "salmon tunnel unveil velvet walnut").split()
EN_DIGITS = "zero one two three four five six seven eight nine".split()
ES_DIGITS = "cero uno dos tres cuatro cinco seis siete ocho nueve".split()

def n(k: int) -> str:
    return chars(R, DIGITS, k)

def nz(k: int) -> str:
    return R.choice("123456789") + n(k - 1)

def weighted(digits: str, weights: object) -> int:
    return sum(int(c) * w for c, w in zip(digits, weights))  # type: ignore[call-overload]

def pw() -> str:
    word, other = R.sample(WORDS, 2)
    office = R.choice(["Praxis", "Escola", "Farmacia", "Welcome", "Kedai", "Biuro"]) + R.choice(["2024", "@2025", "1"])
    return R.choice([word + n(R.randint(2, 4)) + R.choice("!#$*%&"), word.capitalize() + other.capitalize() + n(2),
                     mixed(R, BASE62 + "!#%&*@", R.randint(10, 15)), "-".join(R.sample(WORDS, 3)) + "-" + n(2),
                     office + R.choice("!#$")])

def exp() -> str:
    return f"{R.randrange(1, 13):02d}/{R.randrange(26, 31)}"

def uuid() -> str:
    h = chars(R, HEX, 32)
    return f"{h[:8]}-{h[8:12]}-4{h[13:16]}-a{h[17:20]}-{h[20:]}"

IBAN_LEN = {"FR": 27, "DE": 22, "IT": 27, "NL": 18, "PL": 28, "TR": 26}

def iban(cc: str, spaced: bool = True) -> str:
    bban = n(IBAN_LEN[cc] - 4)
    if cc == "NL":
        bban = chars(R, UPPER, 4) + bban[4:]
    elif cc == "IT":  # CIN letter over ABI, CAB and account, with the codice fiscale's odd/even tables
        bban = codice_fiscale_letter(bban[1:]) + bban[1:]
    elif cc == "FR":  # RIB key over bank, branch and account
        bban = bban[:21] + f"{97 - (89 * int(bban[:5]) + 15 * int(bban[5:10]) + 3 * int(bban[10:21])) % 97:02d}"
    elif cc == "TR":
        bban = bban[:5] + "0" + bban[6:]
    value = iban_complete(cc, bban)
    return " ".join(value[i:i + 4] for i in range(0, len(value), 4)) if spaced else value

def tc_kimlik() -> str:
    d = [R.randrange(1, 10)] + [R.randrange(10) for _ in range(8)]
    d.append((sum(d[0:9:2]) * 7 - sum(d[1:8:2])) % 10)
    d.append(sum(d) % 10)
    return "".join(map(str, d))

def pesel() -> str:
    year = R.randrange(1950, 2008)
    body = f"{year % 100:02d}{R.randrange(1, 13) + (20 if year >= 2000 else 0):02d}{R.randrange(1, 29):02d}{n(4)}"
    return mod10(body, [1, 3, 7, 9] * 3)

def cnp() -> str:
    body = (R.choice("1256") + f"{R.randrange(50, 100):02d}{R.randrange(1, 13):02d}{R.randrange(1, 29):02d}"
            + f"{R.randrange(1, 47):02d}" + n(3))
    check = weighted(body, map(int, "279146358279")) % 11
    return body + ("1" if check == 10 else str(check))

def taj() -> str:
    body = nz(8)
    value = body + str(weighted(body, [3, 7] * 4) % 10)
    return f"{value[:3]} {value[3:6]} {value[6:]}"

def afm() -> str:
    body = nz(8)
    return body + str(weighted(body, [256, 128, 64, 32, 16, 8, 4, 2]) % 11 % 10)

def luhn(prefix: str, length: int) -> str:
    body = prefix + n(length - 1 - len(prefix))
    return body + luhn_digit(body)

def mod11(prefix: str, length: int, weights: object) -> str:
    """Digits whose last one is the weighted sum mod 11, redrawn while that is 10 (BSN, TFN, NIP, HU tax ID)."""
    while True:
        body = prefix + n(length - 1 - len(prefix))
        if (check := weighted(body, weights) % 11) < 10:
            return body + str(check)

def mod10(body: str, weights: object) -> str:
    return body + str(-weighted(body, weights) % 10)

def aba() -> str:
    return mod10(R.choice("0123") + n(7), [3, 7, 1] * 3)

def hu_tax() -> str:
    return mod11(f"8{R.randrange(30000, 50000)}", 10, range(1, 10))

def nip() -> str:
    return mod11(nz(1), 10, [6, 5, 7, 2, 3, 4, 5, 6, 7])

def amka() -> str:
    return luhn(f"{R.randrange(1, 29):02d}{R.randrange(1, 13):02d}{R.randrange(50, 100):02d}", 11)

def ipn_ua() -> str:
    body = nz(9)
    return body + str(weighted(body, [-1, 5, 7, 9, 4, 6, 10, 5, 7]) % 11 % 10)

def snils() -> str:
    body = n(9)
    check = weighted(body, range(9, 0, -1)) % 101 % 100
    return f"{body[:3]}-{body[3:6]}-{body[6:]} {check:02d}"

def inn12() -> str:
    d = nz(10)
    d += str(weighted(d, [7, 2, 4, 10, 3, 5, 9, 4, 6, 8]) % 11 % 10)
    return d + str(weighted(d, [3, 7, 2, 4, 10, 3, 5, 9, 4, 6, 8]) % 11 % 10)

def cn_id() -> str:
    body = (R.choice(["110105", "110108", "310104"])
            + f"{R.randrange(1960, 2004)}{R.randrange(1, 13):02d}{R.randrange(1, 29):02d}" + n(3))
    return body + "10X98765432"[weighted(body, [7, 9, 10, 5, 8, 4, 2, 1, 6, 3, 7, 9, 10, 5, 8, 4, 2]) % 11]

def my_number() -> str:
    body = n(11)
    s = sum(int(c) * (i + 2 if i < 6 else i - 4) for i, c in enumerate(reversed(body))) % 11
    value = body + ("0" if s <= 1 else str(11 - s))
    return f"{value[:4]} {value[4:8]} {value[8:]}"

def rrn() -> str:
    body = (f"{R.randrange(60, 100):02d}{R.randrange(1, 13):02d}{R.randrange(1, 29):02d}" + R.choice("12")
            + f"{R.randrange(96):02d}" + n(3))
    return f"{body[:6]}-{body[6:]}{(11 - weighted(body, [2, 3, 4, 5, 6, 7, 8, 9, 2, 3, 4, 5]) % 11) % 10}"

def thai_id() -> str:
    body = R.choice("1358") + n(11)
    v = body + str((11 - weighted(body, range(13, 1, -1)) % 11) % 10)
    return f"{v[0]}-{v[1:5]}-{v[5:10]}-{v[10:12]}-{v[12]}"

def nik() -> str:
    return (R.choice(["317401", "327301", "357801", "517102"]) + f"{R.randrange(1, 29) + R.choice([0, 40]):02d}"
            + f"{R.randrange(1, 13):02d}{R.randrange(70, 100):02d}" + f"{R.randrange(1, 300):04d}")

def kvnr() -> str:
    letter, body = R.choice(UPPER), nz(8)
    total = sum(sum(divmod(int(c) * w, 10)) for c, w in zip(f"{UPPER.index(letter) + 1:02d}" + body, [1, 2] * 5))
    return letter + body + str(total % 10)

def svnr_de() -> str:
    area = R.choice(["12", "13", "15", "23", "24", "28", "38", "40", "65"])
    born = f"{R.randrange(1, 29):02d}{R.randrange(1, 13):02d}{R.randrange(60, 100):02d}"
    letter, serial = R.choice("ABDGHKMSW"), f"{R.randrange(100):02d}"
    digits = area + born + f"{UPPER.index(letter) + 1:02d}" + serial
    total = sum(sum(divmod(int(c) * w, 10)) for c, w in zip(digits, [2, 1, 2, 5, 7, 1, 2, 1, 2, 1, 2, 1]))
    return f"{area} {born} {letter} {serial}{total % 10}"

def steuer_id() -> str:
    distinct = R.sample(DIGITS, 9)
    digits = distinct + [R.choice(distinct)]
    while digits[0] == "0":
        R.shuffle(digits)
    product = 10
    for c in digits:
        product = ((int(c) + product) % 10 or 10) * 2 % 11
    v = "".join(digits) + str((11 - product) % 10)
    return f"{v[:2]} {v[2:5]} {v[5:8]} {v[8:]}"

def naf() -> str:
    prov, body = f"{R.randrange(1, 53):02d}", nz(8)
    return f"{prov}/{body}/{int(prov + body) % 97:02d}"

def clabe() -> str:
    body = R.choice(["002", "012", "014", "072"]) + n(14)
    return body + str(-sum(int(c) * w % 10 for c, w in zip(body, [3, 7, 1] * 6)) % 10)

def mbi() -> str:
    a = "ACDEFGHJKMNPQRTUVWXY"
    v = (nz(1) + R.choice(a) + R.choice(a + DIGITS) + n(1) + R.choice(a) + R.choice(a + DIGITS) + n(1)
         + R.choice(a) + R.choice(a) + n(2))
    return f"{v[:4]}-{v[4:7]}-{v[7:]}"

def mrz_check(s: str) -> str:
    values = {c: i for i, c in enumerate(DIGITS + UPPER)} | {"<": 0}
    return str(sum(values[c] * w for c, w in zip(s, [7, 3, 1] * 15)) % 10)

def mrz_line() -> str:
    doc = R.choice(UPPER) + n(8)
    dob = f"{R.randrange(70, 100):02d}{R.randrange(1, 13):02d}{R.randrange(1, 29):02d}"
    expiry = f"{R.randrange(27, 35):02d}{R.randrange(1, 13):02d}{R.randrange(1, 29):02d}"
    body = doc + mrz_check(doc) + "GHA" + dob + mrz_check(dob) + "M" + expiry + mrz_check(expiry) + "<" * 15
    composite = body[:10] + body[13:20] + body[21:43]
    return body + mrz_check(composite)

def container() -> str:
    values = dict(zip(UPPER, [v for v in range(10, 39) if v % 11]))
    code = R.choice(["MSCU", "TGHU", "CAIU", "MRKU"]) + n(6)
    total = sum((values[c] if c.isalpha() else int(c)) * 2 ** i for i, c in enumerate(code))
    return code + str(total % 11 % 10)

def s10(country: str) -> str:
    body = n(8)
    check = 11 - weighted(body, [8, 6, 4, 2, 3, 5, 9, 7]) % 11
    return R.choice(["RR", "RA", "CP"]) + body + str({10: 0, 11: 5}.get(check, check)) + country

def jp_corporate() -> str:
    base = n(12)
    return str(9 - sum(int(c) * (1 if i % 2 == 0 else 2) for i, c in enumerate(reversed(base))) % 9) + base

def ksiega() -> str:
    court, number = "WA1M", n(8)
    table = "0123456789XABCDEFGHIJKLMNOPRSTUWYZ"
    return f"{court}/{number}/{sum(table.index(c) * w for c, w in zip(court + number, [1, 3, 7] * 4)) % 10}"

def ssh_public() -> str:
    blob = b"\x00\x00\x00\x0bssh-ed25519\x00\x00\x00\x20" + bytes(R.randrange(256) for _ in range(32))
    return "ssh-ed25519 " + base64.b64encode(blob).decode()

def cpf() -> str:
    v = cpf_complete(n(9))
    return f"{v[:3]}.{v[3:6]}.{v[6:9]}-{v[9:]}"

SIXTH_SECRETS: dict[str, list[str]] = {
    "support_chat": [
        f"[14:02] Customer: I can't log in to the shop app. Username dana.k, the password I set was {pw()}\n"
        "[14:03] Agent: Thanks, I'll reset it for you now.",
        f"Cliente: me llegó un SMS con el código {n(6)} pero la web dice que no es válido, ¿qué hago?",
        f"Atendente: Para confirmar, pode me passar o CPF do titular?\nCliente: claro, {cpf()}",
        f"Client : bonjour, ma carte cadeau ne s'active pas. Numéro {n(4)} {n(4)} {n(4)} {n(4)}, code PIN {n(4)}.",
        f"Kunde: Hab jetzt dreimal das Passwort zurückgesetzt, das neue ist {pw()} – geht trotzdem nicht.",
        f"Operatore: mi conferma il codice fiscale?\nCliente: {fake_codice_fiscale(R)}, è intestato a mia madre.",
        f"Müşteri: Kartla ödeme olmuyor. Kart no {fake_card(R)}, son kullanma {exp()}, CVV {n(3)}.",
        f"Pelanggan: kak, kode OTP-nya {n(6)} ya, tolong dibantu aktivasi akun saya 🙏",
        f"お客様：ログインできません。IDはyamada_h、パスワードは{pw()}です。",
        f"고객: 인증번호 {n(6)} 입력했는데 계속 오류가 나요. 확인 부탁드려요.",
        f"العميل: رقم هويتي الوطنية {luhn('1', 10)} وكلمة المرور الجديدة {pw()}",
        f"Khách hàng: em nhận được mã xác thực {n(6)}, chị nhập giúp em với nhé.",
    ],
    "support_email": [
        "Subject: Re: Unable to access billing portal\n\nHi team,\nI've reset it again.\n"
        f"Login: accounts@hollowayprint.co.uk / {pw()}\nPlease check on your side.\nThanks, Priya",
        f"Beste klantenservice,\n\nMijn IBAN voor de terugbetaling is {iban('NL')} t.n.v. J. de Vries.\n\n"
        "Met vriendelijke groet",
        f"Dzień dobry, przesyłam dane do zwrotu: PESEL {pesel()}, nr konta {iban('PL')}.\nPozdrawiam, Anna Nowak",
        f"Bună ziua, vă trimit CNP-ul meu pentru factură: {cnp()}. Mulțumesc frumos!",
        f"Καλησπέρα σας, ο ΑΜΚΑ μου είναι {amka()} για την επιστροφή χρημάτων. Ευχαριστώ.",
        f"שלום, מספר תעודת הזהות שלי הוא {luhn('', 9)}, אשמח שתעדכנו את החשבון.",
        f"Sehr geehrte Damen und Herren,\nanbei meine Steuer-ID {steuer_id()} für die Spendenquittung.\n"
        "Mit freundlichen Grüßen\nK. Brandt",
        f"> Pouvez-vous nous communiquer le code reçu par SMS ?\n{n(6)}\n\nCordialement, Mme Lefèvre",
        f"Hola, les paso los datos para el reembolso: CLABE {clabe()} a nombre de Rosa Medina.",
        f"Please direct deposit my refund: routing {aba()}, checking account {n(10)}. Thanks, Marcus",
        f"Добрий день! Мій РНОКПП {ipn_ua()}, прошу оформити податкову знижку за навчання.",
        f"Habari, nambari yangu ya kitambulisho ni {nz(8)} na KRA PIN A{n(9)}{R.choice(UPPER)}. Tafadhali nisaidie.",
    ],
    "marketplace_seller": [
        f"Seller ops notes: new admin API access token for the inventory sync -> shpat_{chars(R, HEX, 32)}",
        f"Hab die Shop-Schlüssel neu erzeugt:\nConsumer Key ck_{chars(R, HEX, 40)}\n"
        f"Consumer Secret cs_{chars(R, HEX, 40)}",
        f"Producción Mercado Pago – access token: APP_USR-{n(16)}-{n(6)}-{chars(R, HEX, 32)}-{n(9)}",
        f"Chave PIX pra receber dos compradores: meu CPF {cpf()} (conta da loja ainda não saiu)",
        f"सेलर पैनल का लॉगिन: ईमेल rk.traders@gmail.com, पासवर्ड {pw()} — किसी को मत बताना",
        f"Akun toko kita: email ops@batikayu.id, sandi {pw()}. Jangan dishare ke reseller ya.",
        f"รหัสผ่านร้านค้าบนแอปตอนนี้คือ {pw()} นะ เพิ่งเปลี่ยนเมื่อวาน",
        f"店铺子账号：kefu01，密码 {pw()}，明天起小王负责售后。",
        f"Payout bank changed today: sort code {n(2)}-{n(2)}-{n(2)}, account {n(8)}, name Hale & Finch Ltd.",
        f"Integracja z marketplace: client_id {uuid()}, client_secret {chars(R, BASE62, 64)}",
        f"Mật khẩu tài khoản người bán: {pw()} — đừng gửi cho ai nhé, kể cả nhân viên mới.",
        f"Partner key untuk integrasi kedai: {chars(R, HEX, 64)} (simpan elok-elok, jangan post dalam group)",
    ],
    "school_admin": [
        f"Student portal reset for Year 9: username ljohnson27, temporary password {pw()} (change on first login).",
        f"Bonjour, pour l'ENT le mot de passe provisoire de Léa est {pw()}. Merci de le changer rapidement.",
        f"Zahlenschloss vom Spind 214 in der Turnhalle: {n(4)} (für die Vertretungslehrkraft)",
        f"Matrícula 2025/26 – DNI del alumno: {fake_dni(R)}, NIA {n(8)}, curso 3º ESO B.",
        f"Credenziali registro elettronico per i genitori di 2B: utente G{n(7)}, password {pw()}",
        f"学籍番号 S{n(7)} の学生情報：マイナンバー {my_number()}（奨学金申請用）",
        f"학부모님, 알림장 앱 초기 비밀번호는 {n(6)}입니다. 로그인 후 변경해 주세요.",
        f"Wifi-wachtwoord docentenkamer: {pw()} (niet doorgeven aan leerlingen)",
        f"Senha do Wi-Fi da biblioteca, só para funcionários: {pw()}",
        f"FERPA release form — Student ID {n(9)} / SSN {fake_ssn(R)} / DOB 03/14/2004 / signed: K. Ortiz",
        f"Ma'am, ito po yung LRN ng anak ko {n(12)} at password niya sa portal {pw()}. Salamat po!",
        f"Пароль от электронного дневника: {pw()}, логин — СНИЛС ребёнка {snils()}.",
        f"e-Okul veli şifresi: {pw()}, öğrencinin TC kimlik no: {tc_kimlik()}",
    ],
    "clinic_pharmacy": [
        f"Versichertennummer {kvnr()} (AOK), bitte für das E-Rezept in der Praxis hinterlegen.",
        f"Mon numéro de sécu : {fake_insee(R)}, mutuelle MGEN, pour la téléconsultation de jeudi.",
        f"NHS number {mod11(R.choice('46'), 10, range(-10, -1))} for Mrs Okafor — repeat prescription.",
        f"Farmacia: su código de recogida en la taquilla automática es {n(6)}. Válido 48 h.",
        f"मरीज का आधार नंबर {fake_aadhaar(R)}, आयुष्मान कार्ड बनवाने के लिए।",
        f"เลขบัตรประชาชนผู้ป่วย {thai_id()} ใช้สิทธิบัตรทอง",
        f"患者身份证号 {cn_id()}，医保卡密码 {n(6)}，请帮忙办理住院登记。",
        f"환자 주민등록번호 {rrn()}, 처방전 발행 부탁드립니다.",
        f"Patient portal activation code: {mixed(R, UPPER + DIGITS, 10)} (expires in 72h). DOB 11/02/1958.",
        f"رمز التحقق لتطبيق المواعيد: {n(6)} — لا تشاركه مع أحد.",
        f"Kod recepty: {n(4)}, PESEL pacjenta {pesel()} — proszę wydać w aptece na Kopernika.",
        f"New patient intake: Medicare MBI {mbi()}, primary care Dr. Alvarez.",
    ],
    "hr_payroll": [
        f"New hire packet: Jordan Reyes, SSN {fake_ssn(R)}, direct deposit routing {aba()} acct {n(11)}",
        f"P45 received — NI number {fake_uk_ni(R)}, tax code 1257L, start date 3 March.",
        f"RIB pour le virement du salaire : {iban('FR')} (Crédit Agricole, agence de Rodez)",
        f"Neue Mitarbeiterin Jana Schulz: SV-Nummer {svnr_de()}, Steuerklasse 1.",
        f"Alta en la Seguridad Social: NAF {naf()}, contrato indefinido, jornada completa.",
        f"Per il cedolino: codice fiscale {fake_codice_fiscale(R)}, IBAN {iban('IT')}.",
        f"Loonstrook maart – BSN {mod11(nz(1), 9, range(9, 1, -1))}, personeelsnummer 10482, afdeling logistiek.",
        f"Payroll set-up: SIN {fake_sin(R)}, TD1 claim code 1, biweekly.",
        f"TFN declaration received — TFN {mod11('', 9, [1, 4, 3, 7, 5, 8, 6, 9])}, super fund: AustralianSuper.",
        f"Para sa payroll po: SSS {n(2)}-{n(7)}-{n(1)}, TIN {n(3)}-{n(3)}-{n(3)}-000.",
        f"給与振込口座：みなと銀行 本店営業部 普通 {n(7)} 名義 サトウ ハナコ",
        f"Adóazonosító jel: {hu_tax()}, TAJ: {taj()} — új belépő, március 1-től.",
    ],
    "accounting_tax": [
        f"Client file (Greene): EFTPS PIN {n(4)}, IRS online account password {pw()}",
        f"IRS Identity Protection PIN for the 2024 joint return: {n(6)}",
        f"impots.gouv — numéro fiscal {R.choice('0123')}{n(12)}, mot de passe {pw()}",
        f"ELSTER-Zertifikat für Mandant Weber, Passwort zur .pfx-Datei: {pw()}",
        f"Fisconline: prime 4 cifre del PIN {n(4)}, le altre 6 arrivate per posta: {n(6)}",
        f"PAN {chars(R, UPPER, 3)}P{R.choice(UPPER)}{n(4)}{R.choice(UPPER)} और आयकर पोर्टल का पासवर्ड {pw()}",
        f"ИНН физлица {inn12()}, пароль от личного кабинета налогоплательщика {pw()}",
        f"KRA iTax: PIN A{n(9)}{R.choice(UPPER)}, nenosiri {pw()}",
        f"Senha do gov.br do cliente: {pw()} — CPF {cpf()}, declaração do IR até 31/05.",
        f"DigiD van oma: gebruikersnaam oma.bakker1950, wachtwoord {pw()}",
        f"ANAF SPV: utilizator popescu.ion, parola {pw()}",
        f"Електронний ключ ФОП (файл Key-6.dat), пароль до ключа: {pw()}",
    ],
    "real_estate_legal": [
        f"Showing 2pm Sat, 14 Elm St — lockbox on the side gate, code {n(4)}. Alarm disarm {n(4)}.",
        f"Visite de l'appartement : digicode {n(4)}{R.choice('AB')}, puis interphone Martin, 3e étage.",
        f"Llaves en la caja de seguridad del portal, combinación {n(4)}.",
        f"Schlüsseltresor am Zaun, Code {n(4)}; Alarmanlage im Flur, Code {n(4)} und Raute.",
        f"Codice cancello carraio {n(5)}#, la chiave dell'appartamento è nella cassetta.",
        f"Escritura: outorgante Maria Santos, CPF {cpf()}, RG {n(2)}.{n(3)}.{n(3)}-{n(1)}",
        f"Wire instructions for closing on 2291 Oak Ln: ABA {aba()}, account {n(10)}, ref escrow 7713.",
        f"Sleutelkluisje bij de achterdeur, code {n(4)}. Alarm uitzetten met {n(4)}.",
        f"קוד לדלת הכניסה לבניין {n(4)}#, דירה 12, קומה 3.",
        f"Ο κωδικός για την κλειδοθήκη είναι {n(4)}, τα κλειδιά είναι μέσα.",
        f"Client portal credentials for Mr. Haddad (case 2025-CV-0193): haddad.s / {pw()}",
        f"Tapu işlemi için TC kimlik no {tc_kimlik()}, e-Devlet şifresi {pw()}",
    ],
    "logistics_drivers": [
        f"Driver note: back gate code {n(4)}#, leave parcels in the blue locker, locker PIN {n(6)}.",
        f"Packstation 142, Abholcode {n(6)} – kannst du das Paket heute mitnehmen?",
        f"Votre colis est disponible en consigne. Code de retrait : {n(6)}",
        f"Conductor: el código del portón es {n(4)} y la alarma del almacén {n(4)}.",
        f"Kod odbioru z paczkomatu: {n(6)}, numer telefonu 601 *** 482.",
        f"Курьеру: код домофона {n(2)}К{n(4)}, подъезд 3, этаж 5.",
        f"Код для отримання посилки у відділенні: {n(4)}. Не повідомляйте його нікому, крім оператора.",
        f"Kurye notu: apartman kapı şifresi {n(4)}*, daire 7.",
        f"رمز الاستلام للشحنة {n(4)}، لا تعطيه لأحد غير المندوب.",
        f"डिलीवरी ओटीपी {n(4)} है, ड्राइवर आए तो उसे बता देना।",
        f"รหัสเปิดตู้ล็อกเกอร์ {n(6)} นะครับ ตู้อยู่หน้าเซเว่น",
        f"Fuel card PIN for van 12: {n(4)}. Don't write it on the card!",
        f"Mã nhận hàng (OTP) của đơn này là {n(6)}, tài xế hỏi thì đọc cho anh ấy.",
    ],
    "call_centre_notes": [
        "Caller verified via security question (first pet's name): answer given 'Biscuit'. Address updated.",
        f"Cust read out card {fake_card(R)} exp {exp()} for the refund; advised not to share the CVV.",
        f"Nota agente: el cliente dictó su contraseña por teléfono («{pw()}»), se le recomendó cambiarla.",
        f"Anrufer nennt Telefon-Kennwort: {R.choice(WORDS).capitalize()}{n(2)} — verifiziert, Limit erhöht.",
        "Appel 10h12 — la cliente a donné sa réponse secrète : nom de jeune fille de la mère = Dubreuil.",
        f"Nota operatore: PUK della SIM {n(8)}, PIN {n(4)} — cliente bloccato dopo tre tentativi.",
        f"Cliente informou a senha do cartão ({n(4)}) — orientado a trocar no caixa eletrônico.",
        "Güvenlik sorusu — annenizin kızlık soyadı: 'Karaca'. Müşteri doğrulandı.",
        f"Beller gaf telefonisch de pincode van zijn pas: {n(4)}. Pas direct geblokkeerd.",
        f"オペレーターメモ：お客様の暗証番号 {n(4)} を確認。カード再発行手続き済み。",
        f"상담메모: 고객 계좌 비밀번호 {n(4)} 구두로 확인함",
        f"Call transcript: 'yeah my pin is... {', '.join(EN_DIGITS[int(c)] for c in n(4))}, I think'",
        f"Transcripción: «el código que me llegó es {', '.join(ES_DIGITS[int(c)] for c in n(6))}»",
    ],
    "messaging_exports": [
        f"[12/03/2025, 19:44] Mum: wifi password is {pw()}\n[12/03/2025, 19:45] Sam: thx",
        f"[3/12/25, 9:15] Carmen: El PIN de la tarjeta de la empresa es {n(4)}, no lo pierdas 🙏",
        f"Алексей, [05.03.2025 18:22]\nпароль от админки сайта: {pw()}",
        f"张姐 2025-03-05 20:11\n门锁密码 {n(6)}#，周末来喂猫辛苦啦",
        f"2025/03/05(水) 21:03 たかし: 事務所の金庫の番号は {n(2)}-{n(2)}-{n(2)} ね",
        f"10:22 แม่: รหัส ATM ของแม่ {n(4)} ไปกดเงินให้หน่อยนะลูก",
        f"Note to self: backup passphrase for the phone chats: {' '.join(n(5) for _ in range(6))}",
        f"[08:14, 05/03/2025] Joana: A senha do portão é {n(4)} e do alarme {n(4)}",
        f"[5/3/25 10:02 م] أحمد: كلمة سر الواي فاي: {pw()}",
        f"Ось 12 слів від гаманця, збережи десь надійно: {' '.join(R.sample(SEED_WORDS, 12))}",
        f"[05/03/25, 8:01 pm] Ravi: bhai UPI PIN {n(6)} hai, 2000 bhej de mere phone se",
        f"[05/03/2025 07:30] Baba Juma: PIN ya M-Pesa ya duka ni {n(4)}, usimwambie mtu.",
        f"[05/03/25 18:40] Ibu: token listrik {' '.join(n(4) for _ in range(5))} tolong dimasukin ke meteran",
    ],
    "social_dms": [
        f"hey it's me on my alt, main got locked. the backup codes they gave me: {n(4)} {n(4)}, {n(4)} {n(4)}",
        f"porfa no le digas a nadie pero la contraseña de la cuenta de la tienda es {pw()}",
        f"Min, ini kode verifikasi dari WA-ku {n(3)}-{n(3)}, buat apa ya?",
        f"Oi! Te passo o login do Insta da loja: @doce.da.bia / {pw()}",
        f"coucou, voici le code de récupération que j'ai reçu : {n(6)}",
        f"Sis, eto yung OTP ko sa e-wallet: {n(6)}. Ikaw na bahala mag-cash in ha",
        f"Instagram şifrem {pw()}, bu hafta story'leri sen atar mısın?",
        f"Hier der Zugang für den Vereins-Account: tsv_blauweiss / {pw()}",
        f"ciao! il codice a due fattori è {n(6)}, sbrigati che scade",
        f"أرسلت لك رمز التأكيد الذي وصلني {n(6)} فعّل الحساب بسرعة",
        f"Bro, kata laluan akaun TikTok kedai: {pw()}",
        f"Chị ơi mật khẩu fanpage là {pw()} nha, chị đăng bài giùm em",
    ],
    "shared_spreadsheets": [
        f"name,role,email,password\nTom,cashier,tom@cornerdeli.com,{pw()}\nAisha,manager,aisha@cornerdeli.com,{pw()}",
        f"Mitarbeiter;Personalnr.;SV-Nummer;IBAN\nSchulz, Jana;1042;{svnr_de()};{iban('DE')}",
        f"Compte\tIdentifiant\tMot de passe\nEDF\tmartin.famille@orange.fr\t{pw()}\nBox internet\tadmin\t{pw()}",
        f"| Servicio | Usuario | Clave |\n|---|---|---|\n| Banca online | {fake_dni(R)} | {n(6)} |",
        f"Naam | BSN | Geboortedatum\nvan Dijk, P. | {mod11(nz(1), 9, range(9, 1, -1))} | 12-04-1981",
        f"Lp.;Imię i nazwisko;PESEL;Nr konta\n1;Kowalski Jan;{pesel()};{iban('PL', False)}",
        f"Family accounts (DO NOT SHARE)\nStreaming - family.lee@gmail.com / {pw()}\nGarage keypad - {n(4)}\n"
        f"Home alarm - {n(4)}",
        f"Cartões da empresa:\nCompras → {fake_card(R)}  validade {exp()}  CVV {n(3)}",
        f"Foglio 'Accessi': PEC ufficio – info@studiorossi.it – {pw()}; Router – admin – {pw()}",
        f"Név;Adóazonosító;TAJ\nKovács Péter;{hu_tax()};{taj()}",
        f"姓名,身份证号,银行卡号\n李娜,{cn_id()},{luhn('622202', 19)}",
        f"Ad Soyad,TCKN,IBAN\nAyşe Demir,{tc_kimlik()},{iban('TR')}",
    ],
    "printed_forms": [
        f"[Scanned letter, OCR]\nYour new card PIN is:\n{n(4)}\nPlease memorise it and destroy this letter.",
        f"PIN-Brief (abgetippt): Ihre persönliche Geheimzahl lautet {n(4)}. Bitte vernichten Sie dieses Schreiben.",
        f"Courrier reçu : « Votre code confidentiel de carte bancaire : {n(4)} »",
        f"Formulario de solicitud (transcrito): Nombre: Luis Ortega / NIE: {fake_dni(R)} / Fecha nac.: 07/09/1990",
        f"Lettera dell'Agenzia: seconda parte del codice PIN: {n(6)}",
        f"Letter from the tax office (typed up): Your activation code is {chars(R, UPPER + DIGITS, 12)}. "
        "It expires in 28 days.",
        f"（手書きメモの書き起こし）キャッシュカード暗証番号 {n(4)}、ネットバンキング第二暗証 {n(6)}",
        f"[서류 전사] 성명: 김민지 / 주민등록번호: {rrn()} / 주소: 서울시 마포구",
        f"نموذج طلب (منسوخ): الاسم: سارة العتيبي / رقم الهوية: {luhn('1', 10)} / المدينة: الرياض",
        f"Formular transcris – Nume: Ionescu Maria; CNP: {cnp()}; Serie CI: RX {n(6)}",
        f"Έντυπο εγγραφής: ΑΦΜ {afm()}, ΑΜΚΑ {amka()}, ΔΟΥ Αθηνών",
        f"Formulir pendaftaran: Nama: Siti Rahma, NIK: {nik()}, No. KK: {nz(16)}",
        f"Passport copy for the visa file (MRZ):\nP<GHAMENSAH<<DANIEL<KWAME<<<<<<<<<<<<<<<<<<<\n{mrz_line()}",
    ],
    "integration_logs": [
        f"WARN sms-gateway: retry https://sms.textlink.example/send?user=clinicabc&pass={pw()}&to=447700900123",
        f"[POS T-0413] manager override code set to {n(4)}; terminal admin password {n(6)}",
        f'payment gateway config: {{"merchant_id": "MID{n(8)}", "secret_key": "sk_live_{chars(R, HEX, 40)}"}}',
        f"curl -u {fake_vendor(R, 'stripe')}: https://api.stripe.com/v1/refunds -d charge=ch_{chars(R, BASE62, 24)}",
        f"notify.py: POST https://api.telegram.org/bot{fake_vendor(R, 'telegram')}/sendMessage -> 200",
        "invoice link sent to customer: https://shop-invoices.s3.eu-west-1.amazonaws.com/2025/03/INV-"
        f"{n(5)}.pdf?X-Amz-Algorithm=AWS4-HMAC-SHA256&X-Amz-Credential={fake_vendor(R, 'aws')}%2F20250305"
        f"%2Feu-west-1%2Fs3%2Faws4_request&X-Amz-Date=20250305T101422Z&X-Amz-Expires=604800"
        f"&X-Amz-SignedHeaders=host&X-Amz-Signature={chars(R, HEX, 64)}",
        f"mailer: smtp.sendgrid.net:587 user=apikey pass={fake_vendor(R, 'sendgrid')}",
        f"alerts -> https://hooks.slack.com/services/T{chars(R, UPPER + DIGITS, 8)}/B{chars(R, UPPER + DIGITS, 10)}"
        f"/{chars(R, BASE62, 24)}",
        f"2025-03-05 09:14:02 DEBUG request headers: Cookie: session={fake_vendor(R, 'jwt')}",
        f"M-Pesa STK push config: shortcode 174{n(3)}, passkey {chars(R, HEX, 64)}",
        f"twilio: account AC{chars(R, HEX, 32)} auth_token {chars(R, HEX, 32)}",
        f"payment link: https://pay.kedai.example/reset?uid=8841&token={chars(R, B64URL, 43)}",
    ],
    "saas_admin": [
        f"Certificado para factura electrónica (clave privada exportada):\n{fake_pem(R, 'PKCS8')}",
        f"wp-config.php: define( 'DB_PASSWORD', '{pw()}' );",
        f"user_login,user_pass\nadmin,$P$B{chars(R, './' + BASE62, 31)}\neditor,$P$B{chars(R, './' + BASE62, 31)}",
        f"id,email,password_hash\n17,ops@fietsenhandel.nl,$2y$10${chars(R, './' + BASE62, 53)}",
        f"auth_user export: admin | pbkdf2_sha256$600000${chars(R, BASE62, 22)}${b64(R, 32)}",
        f"Backup codes for office@dentalsmile.gr:\n{n(4)} {n(4)}   {n(4)} {n(4)}\n{n(4)} {n(4)}   {n(4)} {n(4)}",
        f"App password for the scanner to send e-mail: {' '.join(chars(R, LOWER, 4) for _ in range(4))}",
        f"sshpass -p '{pw()}' ssh backup@nas.local 'tar czf /volume1/backup/pos.tgz /srv/pos'",
        f"Upload site to printer: ftp://upload:{pw()}@ftp.drukarnia-lux.pl/incoming/",
        f"WHATSAPP_TOKEN=EAAG{chars(R, BASE62, 100)}\n  {chars(R, BASE62, 60)}",
        f"DATABASE_URL=postgres://booking:{pw()}@10.0.0.12:5432/booking",
        f"Wi-Fi QR for staff room: WIFI:T:WPA;S:Clinic-Staff;P:{pw()};;",
        f"chatbot .env: OPENAI_API_KEY={fake_vendor(R, 'openai')}",
    ],
}

SIREN = luhn(nz(1), 9)
SIRET = luhn(SIREN, 14)

SIXTH_HARMLESS: dict[str, list[str]] = {
    "support_replies": [
        "Agent: For your security we will never ask for your password or the code we text you. Anything else?",
        "Cliente: ya cambié la contraseña y ahora sí puedo entrar, ¡muchas gracias!",
        f"Bonjour, votre commande n° {n(9)} a été expédiée. Suivi : {s10('FR')}.",
        "Kundin: Ich habe den Bestätigungscode nicht bekommen, können Sie ihn bitte nochmal schicken?",
        "Atendente: o link de redefinição de senha expira em 30 minutos; se não chegar, confira o spam.",
        f"お問い合わせ番号 {n(8)} について、担当者より折り返しご連絡いたします。",
        "고객님, 비밀번호는 상담원에게 절대 알려주지 마세요. 앱에서 직접 재설정하시면 됩니다.",
        f"شكراً لتواصلك. رقم التذكرة الخاصة بك هو #{n(6)}، وسيتم الرد خلال ٢٤ ساعة.",
        "Khách hàng: mình đổi mật khẩu rồi, giờ đăng nhập được rồi nhé. Cảm ơn shop!",
        "Tisztelt Ügyfelünk! A jelszó-visszaállító e-mailt elküldtük a regisztrált címére.",
    ],
    "orders_and_shipping": [
        f"Order #{n(3)}-{n(7)}-{n(7)} shipped, tracking {s10('GB')}, est. delivery Thu 6 Mar.",
        f"Sendungsnummer {n(12)}, Zustellung voraussichtlich Donnerstag, 06.03., 10–14 Uhr.",
        f"Paczka nr {n(24)} czeka w paczkomacie WAW12M do 08.03, godz. 14:00.",
        f"订单号 {n(18)}，快递单号 SF{n(13)}，预计明天送达。",
        f"เลขพัสดุ TH{n(12)} จัดส่งแล้ว ค่าส่ง 45 บาท",
        f"Container {container()} at Felixstowe berth 7, ETA 14:30, seal intact.",
        f"Sipariş no: {n(9)}, kargo takip kodu {n(12)}, teslimat adresi Kadıköy/İstanbul.",
        f"Produit EAN {mod10(R.choice(['400', '300', '590']) + n(9), [1, 3] * 6)} — lot {n(6)}, DLUO 12/2026.",
        f"Mã vận đơn: GY{chars(R, UPPER + DIGITS, 8)}, COD 350.000đ, giao trước 17h.",
        f"Трек-номер {s10('RU')}, посылка прибыла в сортировочный центр.",
    ],
    "school_public": [
        "CS1020 Data Structures moved to Room B-214, Tuesdays 10:00–11:50; office hours in the library.",
        "Rappel : le code vestimentaire pour la remise des diplômes est « tenue de ville ».",
        "Die Klausur in Mathe (Kurs MA-Q2) findet am 12.03. in Raum 2.117 statt.",
        "La contraseña del Wi-Fi de alumnos está en el tablón de la biblioteca, junto a la fotocopiadora.",
        "履修登録の締切は4月15日です。科目コード LIT201、教室 3-402。",
        "Inschrijving via Studielink; je studentnummer krijg je daarna per mail.",
        "Legitymacje studenckie do odbioru w pokoju 105, pon.–pt. 9:00–13:00.",
        "수강신청은 2월 20일 10시부터입니다. 과목코드 ECON1101, 정원 40명.",
        "Locker keys will be handed out on Monday; lost keys cost £5 to replace.",
        "Ο κωδικός του μαθήματος είναι ΠΛΗ-301, αίθουσα Α2, κάθε Τετάρτη 11:00.",
    ],
    "clinic_public": [
        "Your repeat prescription is ready; please bring photo ID when collecting. Open 8am–8pm.",
        "Termin bei Dr. Schneider am 14.03. um 09:30, Raum 3, bitte Versichertenkarte mitbringen.",
        "Ordonnance : paracétamol 1 g, 3 fois par jour pendant 5 jours. Ne pas dépasser 4 g par 24 h.",
        "Su cita: 12/03 a las 10:40, consulta 7, Centro de Salud Delicias.",
        "คลินิกเปิด 9:00–20:00 น. โทร 02 123 4567 ค่าบริการ 350 บาท",
        "موعدك في العيادة يوم الثلاثاء الساعة ١٠:٣٠ صباحاً، الطابق الثاني غرفة ٢١٤.",
        "התור שלך לבדיקת דם נקבע ליום ראשון ב-08:15 בסניף רמת אביב.",
        "Przypominamy: e-receptę realizuje się kodem z SMS i numerem PESEL — nie podawaj ich przez telefon.",
        "Ricetta dematerializzata: ritira in farmacia con la tessera sanitaria; il promemoria arriva via email.",
    ],
    "business_ids_and_invoices": [
        "Payroll runs on the 25th; payslips are in the HR portal under Documents > Payslips.",
        "Bitte reicht eure Steuer-ID bis Freitag über das HR-Portal ein, nicht per E-Mail.",
        f"Facture n° F-2025-{n(4)} — SIRET {SIRET} — TVA FR{(12 + 3 * (int(SIREN) % 97)) % 97:02d}{SIREN}",
        f"KvK-nummer {n(8)}, btw-id NL{n(9)}B01, betaaltermijn 14 dagen.",
        f"Partita IVA {luhn(n(7) + R.choice(['015', '058', '080']), 11)} (ditta), fattura n. 118/2025.",
        f"NIP firmy {nip()} (sp. z o.o.), REGON {n(9)}, faktura VAT 45/03/2025.",
        f"Company no. {n(8)}, VAT reg GB {n(3)} {n(4)} {n(2)}. Invoice INV-{n(5)} due in 30 days.",
        f"Vergi dairesi: Kadıköy, vergi no {n(10)} (Limited Şirketi). Fatura tarihi 05.03.2025.",
        f"適格請求書発行事業者登録番号 T{jp_corporate()}（株式会社みどり商店）",
        f"Pay to: Hale & Finch Ltd, BIC {chars(R, UPPER, 4)}GB2L — account details on the signed invoice only.",
    ],
    "masked_values": [
        f"Card ending in {n(4)} was charged $48.20 on 03/05.",
        f"Visa •••• •••• •••• {n(4)}, exp **/**",
        f"IBAN: DE** **** **** **** **{n(2)} {n(2)}",
        "Numéro de sécurité sociale : 1 ** ** ** *** *** ** (masqué)",
        f"CPF: ***.{n(3)}.***-**",
        f"SSN: XXX-XX-{n(4)}",
        f"カード番号：**** **** **** {n(4)}（有効期限 **/**）",
        f"身份证号：{R.choice(['110105', '440305'])}********{n(3)}X",
        f"주민등록번호 {R.randrange(60, 100)}{R.randrange(10, 13)}{R.randrange(10, 29)}-*******",
        f"api key: sk_live_…{chars(R, BASE62, 4)} (revealed only once, rotate in dashboard)",
    ],
    "placeholders_and_env": [
        "curl -H 'Authorization: Bearer <YOUR_ACCESS_TOKEN>' https://api.example-shop.com/v1/orders",
        "DATABASE_URL=postgres://${DB_USER}:${DB_PASSWORD}@db:5432/app",
        'api_key = os.environ["SMS_GATEWAY_API_KEY"]  # set in the server\'s .env, never commit it',
        "define( 'DB_PASSWORD', getenv('WP_DB_PASSWORD') );",
        "Webhook signing secret: whsec_xxxxxxxxxxxxxxxxxxxxxxxx (copy yours from the dashboard)",
        "Sustituye TU_CLAVE_API por la clave que aparece en el panel de desarrollador.",
        "WIFI:T:WPA;S:<SSID>;P:<PASSWORD>;;",
        "IBAN: DE00 0000 0000 0000 0000 00 (Beispiel – bitte eigene IBAN eintragen)",
        "smtp:\n  host: smtp.office365.com\n  port: 587\n  user: noreply@bakery.pt\n  password: ${SMTP_PASSWORD}",
        "export PAYSTACK_SECRET_KEY=\"$(cat /run/secrets/paystack_key)\"",
    ],
    "word_senses": [
        "Key account manager for the Leeds region: Sarah Whitfield. Key dates: 3 and 17 April.",
        "Schlüsselübergabe am Freitag um 16 Uhr, bitte beide Wohnungsschlüssel mitbringen.",
        "Il codice della strada vieta di parcheggiare sulle strisce pedonali.",
        "Passe mensal do metrô custa R$ 220; a chave do armário fica com a Rita.",
        "鍵は玄関の植木鉢の下には置かないでください。管理人室で受け取れます。",
        "这个项目的关键是按时交货，请密切关注供应商的进度。",
        "Şifreli mesajlaşma hakkında kısa bir sunum hazırladım, cuma günü paylaşırım.",
        "비밀 산타 이벤트 참가 신청은 금요일까지예요. 선물 예산은 2만 원!",
        "Ufunguo wa chumba cha mikutano uko mapokezi.",
        "कोड ऑफ कंडक्ट सभी कर्मचारियों के लिए अनिवार्य है।",
        "Token listrik bisa dibeli di minimarket terdekat atau lewat aplikasi bank.",
        "PIN badges for the volunteers arrived — 200 pcs, enamel, £0.85 each.",
    ],
    "messaging_harmless": [
        "[12/03/2025, 19:50] Mum: did you change the wifi password? it stopped working on my tablet",
        "Оля, [05.03.2025 18:40]\nпароль поменяла, новый скажу лично 🙂",
        "王老师 2025-03-05 20:30\n家长会改到周四晚上7点，地点3楼会议室。",
        "2025/03/05(水) 21:10 ゆき: 合鍵はお母さんに預けたよ",
        "[3/12/25, 9:20] Carmen: el código del portal está apuntado en el cajón de la entrada",
        f"[오후 3:20] 아빠: 택배 송장번호 {n(12)} 확인해봐",
        "[08:20, 05/03/2025] Joana: a reunião de condomínio é dia 12 às 19h no salão de festas",
        f"[05/03/2025 07:45] Mama Neema: Nimetuma pesa, muamala {chars(R, UPPER + DIGITS, 10)} umekamilika.",
        "[5/3/25 10:10 م] أحمد: الباسورد الجديد مكتوب على ملصق تحت الراوتر.",
        "Нагадую: ніколи не надсилайте нікому свою seed-фразу, навіть «підтримці».",
        "[05/03/25, 8:05 pm] Ravi: UPI ID hai ravi.k@okaxis, 2000 bhej de",
    ],
    "integration_logs_harmless": [
        f"2025-03-05T10:14:22Z webhook order.created id=evt_{chars(R, BASE62, 24)} status=200 latency=184ms",
        f"[POS T-0413] 05/03/2025 14:22 SALE 23.50 EUR CARD ****{n(4)} AUTH {n(6)} APPROVED",
        f"sms-gateway: delivered to +34 6** *** *{n(2)}, message_id={uuid()}, parts=1",
        f"payment_intent pi_{chars(R, BASE62, 24)} succeeded amount=4590 currency=gbp",
        f"sha256sum pos-firmware-4.2.1.bin\n{chars(R, HEX, 64)}  pos-firmware-4.2.1.bin",
        f"Please add my public key to the NAS: {ssh_public()} it@smallclinic",
        "auth: user maria.lopez logged in from 88.12.x.x (2FA via app) — session started 09:02",
        "ERROR smtp: 535 5.7.8 Authentication failed for noreply@bakery-lisboa.pt — check SMTP_PASSWORD in .env",
        f"deploy: commit {chars(R, HEX, 40)} released to booking site by ci",
        "GET /invoice/2025-0311.pdf 403 SignatureDoesNotMatch (link expired, customer asked for a new one)",
    ],
    "security_advice": [
        "Reminder: use a password manager and turn on two-factor authentication for the shop admin.",
        "Ne communiquez jamais votre code confidentiel, même à un conseiller de la banque.",
        "Tipp: Die PIN niemals zusammen mit der Karte im Portemonnaie aufbewahren.",
        "Recuerda: el banco nunca te pedirá la clave por SMS ni por WhatsApp.",
        "Golpe do WhatsApp: nunca repasse o código de seis dígitos que chega por SMS.",
        "Şifrenizi kimseyle paylaşmayın; bankamız sizden asla şifre istemez.",
        "อย่าบอกรหัส OTP กับใครเด็ดขาด แม้จะอ้างว่าเป็นเจ้าหน้าที่ธนาคาร",
        "Jangan kongsi kata laluan atau TAC anda dengan sesiapa.",
        "Nu trimiteți niciodată codul PIN sau parola prin e-mail.",
        "לעולם אל תמסרו את הסיסמה שלכם בטלפון, גם לא לנציג.",
        "Usimpe mtu yeyote PIN yako ya M-Pesa, hata kama anadai ni wakala.",
    ],
    "real_estate_legal_public": [
        "Viewing confirmed: 14 Elm St, Sat 2pm. The agent will meet you at the gate with the keys.",
        "Référence cadastrale : section AB n° 123, Lyon 3e. Surface habitable 64 m².",
        "Aktenzeichen 3 O 214/24, mündliche Verhandlung am 21.03.2025, Saal 112.",
        "Matrícula do imóvel nº 45.812 no 2º Cartório de Registro de Imóveis.",
        "De sleutels liggen vanaf vrijdag bij de makelaar; de code van het kluisje krijg je die dag per sms.",
        "Case No. 2:25-cv-01193, hearing set for April 3 at 9:30 a.m., Courtroom 4B.",
        f"Numer księgi wieczystej {ksiega()}, działka nr 112/4.",
        "Το συμβόλαιο υπογράφεται την Πέμπτη στις 10:00 στο συμβολαιογραφείο.",
    ],
    "driver_notes_harmless": [
        "Driver: gate was open, left parcel with neighbour at no. 12 (signed: R. Patel).",
        "Fahrer: Kunde nicht angetroffen, Benachrichtigungskarte eingeworfen. Neuer Versuch morgen.",
        "السائق: تم التسليم الساعة ٤:١٥ م، الاستلام من حارس العمارة.",
        "Kurye: Apartman kapısının şifresini müşteriden almam lazım, telefonu açmıyor.",
        "Kierowca: kod do bramy z notatki nie działa — proszę o kontakt z klientem.",
        "ड्राइवर: पैकेज गार्ड को दे दिया, ओटीपी ग्राहक ने खुद डाला।",
        "Tài xế: khách hẹn giao sau 18h, thu hộ 250.000đ.",
        "Kurir: paket dititip di pos satpam, foto bukti sudah diunggah.",
    ],
    "spreadsheets_harmless": [
        "name,role,email,extension\nTom,cashier,tom@cornerdeli.com,214\nAisha,manager,aisha@cornerdeli.com,215",
        "Artikel;Menge;Preis\nDruckerpapier A4;10;4,99\nToner 305A;2;59,90",
        "Compte\tIdentifiant\tMot de passe\nEDF\tmartin.famille@orange.fr\t(dans le gestionnaire)",
        "| Servicio | Usuario | Clave |\n|---|---|---|\n| Streaming | compartido | ver gestor de contraseñas |",
        f"Lp.;Nazwa;NIP;Termin płatności\n1;Hurtownia Kowalski sp. z o.o.;{nip()};14 dni",
        "姓名,部门,分机,工位\n李娜,财务,8021,3F-12",
        f"Inventaris: laptop ProBook 450, serienummer 5CD{n(4)}{chars(R, UPPER, 3)}, toegewezen aan P. van Dijk",
        "Kolom 'Wachtwoord' is leeg gelaten: iedereen gebruikt de wachtwoordmanager.",
    ],
}
