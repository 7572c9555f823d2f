"""Fourth write-policy corpus: the workplace, mixed.

Texts as they reach an assistant at work: helpdesk tickets, chat exports, e-mail threads, hand-over notes,
forms, spreadsheets pasted as text, OCR of sticky notes and letters, voice-memo transcripts, config and logs,
in many languages. `FOURTH_SECRETS` holds texts that carry a secret and must be refused; `FOURTH_HARMLESS`
holds near misses in the same registers that must be accepted.

Written by an independent author who did not see the detectors, their tests or the other corpora; only the
value helpers of `corpus_values` were used. Every value is fake: generated from one seeded `random.Random`
at import time, with valid check digits where the format has one (Luhn, mod 97, mod 11, Verhoeff, ...).
"""

from __future__ import annotations

import base64
import json
import random

from primer_memory.corpus_values import (
    B64URL, BASE62, DIGITS, HEX, LOWER, UPPER, b64, chars, cpf_complete, fake_aadhaar, fake_card,
    fake_codice_fiscale, fake_dni, fake_iban, fake_insee, fake_passport, fake_pem, fake_putty, fake_sin,
    fake_ssn, fake_uk_ni, fake_vendor, iban_complete, luhn_digit, mixed,
)

R = random.Random(20250417)
B32 = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567"
CRYPT = "./" + DIGITS + UPPER + LOWER


def pw() -> str:
    """A password someone at work would set or be handed."""
    word = R.choice(["Winter", "Acme", "Welcome", "Lisboa", "Kaffee", "Monday", "printer", "Falcon", "Orchid",
                     "Bienvenue", "Primavera", "zaq1", "Letmein", "Octopus", "Tulpe", "Maple", "Sakura"])
    return R.choice([word + chars(R, DIGITS, R.randint(2, 4)) + R.choice(["!", "#", "$", "?", "*", ""]),
                     mixed(R, BASE62 + "!#%&*@", R.randint(10, 16)),
                     f"{word}-{R.choice(['blue', 'Tiger', 'river', 'Nord'])}-{chars(R, DIGITS, 2)}",
                     mixed(R, BASE62, R.randint(12, 20))])


def pin(n: int = 4) -> str:
    return chars(R, DIGITS, n)


def v(kind: str) -> str:
    return fake_vendor(R, kind)


def hx(n: int) -> str:
    return chars(R, HEX, n)


def exp() -> str:
    return f"{R.randrange(1, 13):02d}/{R.randrange(26, 32)}"


def card(prefix: str = "", length: int = 16, sep: str = " ") -> str:
    if not prefix:
        return fake_card(R)
    body = prefix + chars(R, DIGITS, length - len(prefix) - 1)
    n = body + luhn_digit(body)
    if length == 15:
        return f"{n[:4]}{sep}{n[4:10]}{sep}{n[10:]}"
    return sep.join(n[i:i + 4] for i in range(0, length, 4))


def iban(country: str = "", length: int = 0, grouped: bool = True) -> str:
    if not country:
        return fake_iban(R)
    if country == "BE":
        first = chars(R, DIGITS, 10)
        bban = first + f"{int(first) % 97 or 97:02d}"
    else:
        bban = chars(R, DIGITS, length - 4)
    n = iban_complete(country, bban)
    return " ".join(n[i:i + 4] for i in range(0, len(n), 4)) if grouped else n


def bank(kind: str) -> str:
    if kind == "aba":
        d = [int(c) for c in R.choice(["021", "026", "031", "011", "061", "071", "122", "111", "091"]) + pin(5)]
        total = 3 * (d[0] + d[3] + d[6]) + 7 * (d[1] + d[4] + d[7]) + (d[2] + d[5])
        return "".join(map(str, d)) + str(-total % 10)
    body = R.choice(["002", "012", "014", "021", "072"]) + pin(3) + pin(11)  # Mexican CLABE
    return body + str(-sum(int(c) * w % 10 for c, w in zip(body, [3, 7, 1] * 6)) % 10)


def nid(kind: str) -> str:
    """National identity numbers with their published check digits."""
    y, m, d = R.randrange(58, 100), R.randrange(1, 13), R.randrange(1, 29)
    ymd, dmy = f"{y:02d}{m:02d}{d:02d}", f"{d:02d}{m:02d}{y:02d}"
    if kind == "bsn":  # NL, 11-proef
        while True:
            b = str(R.randrange(10**7, 10**8))
            last = sum(int(c) * w for c, w in zip(b, range(9, 1, -1))) % 11
            if last < 10:
                return b + str(last)
    if kind == "pesel":
        b = ymd + pin(4)
        return b + str(-sum(int(c) * w for c, w in zip(b, [1, 3, 7, 9] * 3)) % 10)
    if kind == "cn":
        b = R.choice(["110105", "310104", "440305", "510107", "330106"]) + "19" + ymd + pin(3)
        w = [7, 9, 10, 5, 8, 4, 2, 1, 6, 3, 7, 9, 10, 5, 8, 4, 2]
        return b + "10X98765432"[sum(int(c) * x for c, x in zip(b, w)) % 11]
    if kind == "se":
        b = ymd + pin(3)
        return f"{b[:6]}-{b[6:]}{luhn_digit(b)}"
    if kind == "no":
        while True:
            b = dmy + f"{R.randrange(500):03d}"
            k1 = -sum(int(c) * w for c, w in zip(b, [3, 7, 6, 1, 8, 9, 4, 5, 2])) % 11
            k2 = -sum(int(c) * w for c, w in zip(b + str(k1), [5, 4, 3, 2, 7, 6, 5, 4, 3, 2])) % 11
            if k1 < 10 and k2 < 10:
                return f"{b}{k1}{k2}"
    if kind == "fi":
        n = R.randrange(2, 900)
        return f"{dmy}-{n:03d}" + "0123456789ABCDEFHJKLMNPRSTUVWXY"[int(f"{dmy}{n:03d}") % 31]
    if kind == "tr":
        t = [R.randrange(1, 10)] + [R.randrange(10) for _ in range(8)]
        d10 = (sum(t[0:9:2]) * 7 - sum(t[1:8:2])) % 10
        return "".join(map(str, t + [d10, (sum(t) + d10) % 10]))
    if kind == "kr":
        b = ymd + R.choice("12") + pin(5)
        c = (11 - sum(int(x) * w for x, w in zip(b, [2, 3, 4, 5, 6, 7, 8, 9, 2, 3, 4, 5])) % 11) % 10
        return f"{b[:6]}-{b[6:]}{c}"
    if kind == "jp":  # My Number
        b = pin(11)
        r = sum(int(b[11 - n]) * (n + 1 if n <= 6 else n - 5) for n in range(1, 12)) % 11
        n12 = b + str(0 if r <= 1 else 11 - r)
        return f"{n12[:4]} {n12[4:8]} {n12[8:]}"
    if kind in ("il", "za"):
        b = pin(8) if kind == "il" else ymd + pin(4) + "08"
        return b + luhn_digit(b)
    if kind == "sg":
        prefix, digits = R.choice("ST"), pin(7)
        s = sum(int(c) * w for c, w in zip(digits, [2, 7, 6, 5, 4, 3, 2])) + (4 if prefix == "T" else 0)
        return prefix + digits + "JZIHGFEDCBA"[s % 11]
    if kind == "be":
        b = ymd + f"{R.randrange(1, 998):03d}"
        return f"{b[:2]}.{b[2:4]}.{b[4:6]}-{b[6:]}.{97 - int(b) % 97:02d}"
    if kind == "au":  # TFN
        while True:
            b = str(R.randrange(10**8, 10**9))
            if sum(int(c) * w for c, w in zip(b, [1, 4, 3, 7, 5, 8, 6, 9, 10])) % 11 == 0:
                return f"{b[:3]} {b[3:6]} {b[6:]}"
    if kind == "cl":  # RUT
        n = R.randrange(5_000_000, 25_000_000)
        s = 11 - sum(int(c) * w for c, w in zip(reversed(str(n)), [2, 3, 4, 5, 6, 7] * 2)) % 11
        return f"{n:,}".replace(",", ".") + "-" + {11: "0", 10: "K"}.get(s, str(s))
    if kind == "br":
        n = cpf_complete(pin(9))
        return f"{n[:3]}.{n[3:6]}.{n[6:9]}-{n[9:]}"
    if kind == "in_pan":
        return chars(R, UPPER, 3) + "P" + chars(R, UPPER, 1) + pin(4) + chars(R, UPPER, 1)
    raise KeyError(kind)


def bitlocker() -> str:
    return "-".join(f"{R.randrange(65536) * 11:06d}" for _ in range(8))


def pgp_private() -> str:
    body = "\n".join(chars(R, BASE62 + "+/", 64) for _ in range(4))
    return (f"-----BEGIN PGP PRIVATE KEY BLOCK-----\n\n{body}\n={chars(R, BASE62, 4)}\n"
            "-----END PGP PRIVATE KEY BLOCK-----")


def gcp_json() -> str:
    return json.dumps({"type": "service_account", "project_id": "acme-hr-exports", "private_key_id": hx(40),
                       "private_key": fake_pem(R, "PKCS8") + "\n",
                       "client_email": "exporter@acme-hr-exports.iam.gserviceaccount.com"}, indent=1)


def ed25519_pub() -> str:
    blob = b"\x00\x00\x00\x0bssh-ed25519\x00\x00\x00\x20" + bytes(R.randrange(256) for _ in range(32))
    return "ssh-ed25519 " + base64.b64encode(blob).decode()


def certificate() -> str:
    body = "\n".join(chars(R, BASE62 + "+/", 64) for _ in range(5))
    return f"-----BEGIN CERTIFICATE-----\nMIID{chars(R, BASE62, 60)}\n{body}\n-----END CERTIFICATE-----"


def uuid4() -> str:
    h = hx(32)
    return f"{h[:8]}-{h[8:12]}-4{h[13:16]}-{R.choice('89ab')}{h[17:20]}-{h[20:]}"


# --------------------------------------------------------------------------- texts that carry a secret

FOURTH_SECRETS: dict[str, list[str]] = {
    "helpdesk_tickets": [
        f"INC-204871 | Requester: M. Okafor | Laptop locked after the update. Reset done, temp password is {pw()} "
        "— user must change it at first login.",
        f"Hi Jana, your AD account is unlocked again. Temporary password: {pw()}\nPlease change it within 24h.\n– IT",
        f"Ticket #55102 closed\nResolution: reset VPN creds for rkumar\nnew pw →  {pw()}",
        f"[SD-3391] comment by tdurand: set the local admin on PC-FIN-07 to \"{pw()}\" until Intune picks it up",
        f"Re: can't log into the payroll portal\n> what's the password they gave you?\n"
        f"it was {pw()} but it says expired",
        f"Printer admin page (HP M480, 3rd floor) → login admin / {pw()} . Don't change it, vendor needs it.",
        f"Remote session for the CFO laptop: TeamViewer ID 1 482 903 115, password {mixed(R, LOWER + DIGITS, 6)}",
        f"Kiosk PC in the lobby auto-logs in as 'lobbykiosk', pwd={pw()} if it ever asks.",
        f"Service account svc_backup was rotated today. New one: {mixed(R, BASE62, 22)}!",
        f"Ticket 88213: Passwort für den Scanner-Benutzer scan2mail zurückgesetzt → {pw()}",
        f"Bonjour, le mot de passe provisoire de votre session Windows est : {pw()}. Merci de le modifier.",
    ],
    "chat_exports": [
        f"[09:14] @dmitri.v: anyone have the staging db pw?\n[09:15] @lena.h: {pw()}\n[09:15] @dmitri.v: ty 🙏",
        f"Alex Chen  10:42 AM\nwifi in the new office is ACME-5G, pass {pw()}\nPriya R  10:43 AM\n👍",
        f"[14/03/2025 16:02] Müller, Stefan: Der Tresor-Code ist jetzt {pin(6)}\n"
        "[14/03/2025 16:03] Weber, Anna: danke!",
        f"<sam> the jenkins api token for the deploy user is 11{hx(32)}\n<ops-bot> sam: message logged",
        f"2025-02-03 18:22 yuki.t: 共有フォルダのパスワードは {pw()} です\n2025-02-03 18:23 ken.s: 了解です",
        f"15:01 ‹maria› PIN of the company phone on my desk: {pin()}\n15:02 ‹joão› obrigado!",
        f"#ops 02:13 oncall-bob: pasting the root pw for db-3 so I don't lose it: {pw()}\n"
        "02:14 oncall-bob: will delete",
        f"DM @kofi → @ines: the Figma login is design@acme.example / {pw()}",
        f"[오후 3:12] 박지훈: 회의실 TV 관리자 비밀번호 {pw()} 입니다\n[오후 3:13] 이수진: 감사합니다~",
        f"[11:07] Иван Петров: пароль от роутера в переговорке — {pw()}\n[11:08] Ольга К.: спасибо)",
        f"[١٠:٢٠] سارة: كلمة المرور الجديدة لحساب البريد المشترك هي {pw()}",
    ],
    "email_threads": [
        f"From: Karen Holt\nTo: IT Service Desk\nSubject: RE: access for new intern\n\nHi,\nsame as last time "
        f"please: user intern01, password {pw()}\nThanks,\nKaren\n\n> On Mon, IT wrote:\n> Who is his manager?",
        f"Thanks, forwarding to Sam.\n\n-----Original Message-----\nFrom: noreply@vendorportal.example\n"
        f"Your account has been created.\nUsername: acme_purchasing\nPassword: {pw()}\n",
        "Hallo Herr Schmidt,\nanbei die Zugangsdaten für das Lieferantenportal:\n"
        f"Benutzer: 40021877\nKennwort: {pw()}\n"
        "Mit freundlichen Grüßen\nEinkauf",
        f"Hola equipo, la contraseña del Excel de nóminas es «{pw()}». No la reenviéis, por favor.",
        f"Ciao, ti giro le credenziali del gestionale: utente m.rossi — password: {pw()}\nCiao, Luca\n--\n"
        "Luca Bianchi | Amministrazione | +39 02 1234 5678",
        f"Oi Carla, segue o holerite em anexo. A senha do PDF é {pin(6)}.\nAbs, RH",
        f"Beste collega's, het wachtwoord voor de gedeelde mailbox info@ is gewijzigd naar {pw()}.\nGroet, Sanne",
        f"お疲れ様です。先ほどのファイルのパスワードをお送りします。\nパスワード：{pw()}\nよろしくお願いいたします。",
        f"王经理您好，\nVPN账号：zhangwei\n密码：{pw()}\n请妥善保管，谢谢！",
    ],
    "multilingual_passwords": [
        f"Dzień dobry, hasło do systemu kadrowego: {pw()} (proszę zmienić po pierwszym logowaniu).",
        f"Hej! Lösenordet till kundportalen är {pw()} – mvh Erik",
        f"Merhaba, VPN şifreniz: {pw()}\nİyi çalışmalar.",
        f"नमस्ते, आपका अस्थायी पासवर्ड {pw()} है। कृपया लॉगिन के बाद इसे बदलें।",
        f"Καλημέρα, ο κωδικός πρόσβασης για το portal είναι {pw()}",
        f"היי, הסיסמה לחשבון המשותף היא {pw()}",
        f"Chào anh, mật khẩu wifi văn phòng là {pw()} nhé.",
        f"รหัสผ่านอีเมลชั่วคราวของคุณคือ {pw()}",
        f"Добрий день! Ваш тимчасовий пароль: {pw()}",
        f"Halo, kata sandi akun admin toko online: {pw()}",
        f"(übersetzt aus dem Portugiesischen) Das Passwort für das gemeinsame Laufwerk ist {pw()}, bitte ändern.",
        f"Le code wifi c’est {pw()} !",
    ],
    "dev_config_pastes": [
        f"DB_HOST=10.2.0.14\nDB_USER=app\nDB_PASSWORD={pw()}\nREDIS_URL=redis://cache:6379/0",
        f"export AWS_ACCESS_KEY_ID={v('aws')}\nexport AWS_SECRET_ACCESS_KEY={chars(R, BASE62 + '+/', 40)}",
        f"services:\n  db:\n    image: postgres:16\n    environment:\n      - POSTGRES_PASSWORD={pw()}\n"
        "      - POSTGRES_DB=orders",
        "apiVersion: v1\nkind: Secret\nmetadata:\n  name: smtp-creds\ntype: Opaque\ndata:\n  username: YWxlcnRz\n"
        f"  password: {base64.b64encode(pw().encode()).decode()}",
        f"docker login registry.acme.example -u deploy -p {mixed(R, BASE62, 24)}",
        f"curl -u admin:{pw()} https://jira.acme.example/rest/api/2/myself",
        f"spring.datasource.url=jdbc:postgresql://pg01:5432/crm\nspring.datasource.username=crm\n"
        f"spring.datasource.password={pw()}",
        f"SECRET_KEY = '{chars(R, LOWER + DIGITS + '!@#%^&*(-_=+)', 50)}'\nDEBUG = False",
        f"# ~/.npmrc\n//registry.npmjs.org/:_authToken={v('npm')}",
        f"[pypi]\n  username = __token__\n  password = pypi-AgEIcHlwaS5vcmc{chars(R, B64URL, 120)}",
        f"git remote set-url origin https://{v('github')}@github.com/acme/infra.git",
        f"machine api.heroku.com\n  login ops@acme.example\n  password {uuid4()}",
        "smtp:\n  host: smtp.gmail.com\n  user: alerts@acme.example\n"
        f"  pass: \"{' '.join(chars(R, LOWER, 4) for _ in range(4))}\"",
        f"2025-03-02T11:20:01Z INFO login attempt user=fin_ops password={pw()} ip=10.0.4.21 result=ok",
        f"$cred = New-Object PSCredential('ACME\\svc_sql', (ConvertTo-SecureString '{pw()}' -AsPlainText -Force))",
        f"sshpass -p '{pw()}' ssh root@10.0.8.3 'systemctl restart nginx'",
    ],
    "api_tokens": [
        f"Here's the Stripe key for the webhook test: {v('stripe')}",
        f"GitLab PAT for the CI runner (expires in 90d): {v('gitlab')}",
        f"[12:01] devon: SLACK_BOT_TOKEN={v('slack')}\n[12:02] devon: oops wrong channel",
        f"OpenAI key for the hackathon: {v('openai')} (budget capped at $50)",
        f"HF token so you can pull the gated model: {v('huggingface')}",
        f"Alerts go to https://hooks.slack.com/services/T{chars(R, UPPER + DIGITS, 8)}/B{chars(R, UPPER + DIGITS, 10)}/"
        f"{chars(R, BASE62, 24)}",
        f"Webhook для дискорда: {v('discord_webhook')}",
        f"bot token от BotFather: {v('telegram')}",
        f"SENDGRID_API_KEY={v('sendgrid')}",
        f"Twilio → Account SID AC{hx(32)}, auth token {hx(32)}",
        f"curl -H 'Authorization: Bearer {v('jwt')}' https://api.acme.example/v2/invoices",
        f"Databricks PAT (workspace prod): {v('databricks')}",
        f"Postman export:\n{{\"key\": \"x-api-key\", \"value\": \"{mixed(R, BASE62, 40)}\", \"type\": \"text\"}}",
        f"Shopify admin token for the sync app: shpat_{hx(32)}",
        f"DD_API_KEY={hx(32)}\nDD_SITE=datadoghq.eu",
        f"Jira API token for the reporting script: ATATT3xFfGF0{chars(R, B64URL, 170)}={chars(R, HEX.upper(), 8)}",
        f"Notion integration secret: ntn_{chars(R, BASE62, 46)}",
        f"Azure SAS for the upload container: https://acmefiles.blob.core.windows.net/uploads?sv=2022-11-02&ss=b&srt=co"
        f"&sp=rwl&se=2025-12-31T23:59:59Z&sig={v('azure_sas')}",
    ],
    "private_keys": [
        f"Key for the sftp drop, paste into ~/.ssh/vendor_rsa:\n{fake_pem(R, 'RSA')}",
        f"[16:40] ravi: here's the deploy key\n{fake_pem(R, 'OPENSSH')}",
        f"service account json for the HR export job:\n{gcp_json()}",
        f"Attached the .ppk for the jump host, content below in case the attachment is stripped:\n{fake_putty(R)}",
        f"[Interface]\nPrivateKey = {b64(R, 32)}\nAddress = 10.8.0.5/32\nDNS = 10.8.0.1\n\n[Peer]\n"
        f"PublicKey = {b64(R, 32)}\nEndpoint = vpn.acme.example:51820",
        f"age key for decrypting the backups: {v('age')}",
        f"Wallet for the promo campaign – private key 0x{hx(64)} (only 0.2 ETH on it)",
        f"Release signing key (export):\n{pgp_private()}",
        f"The passphrase for the code-signing key is \"{pw()} {pw()}\"",
    ],
    "connection_strings": [
        f"DATABASE_URL=postgres://orders_rw:{pw()}@db-prod.internal:5432/orders?sslmode=require",
        f"mongodb+srv://analytics:{mixed(R, BASE62, 16)}@cluster0.x7kq2.mongodb.net/?retryWrites=true&w=majority",
        f"Server=tcp:acme-sql.database.windows.net,1433;Database=hr;User ID=hradmin;Password={pw()};Encrypt=True;",
        f"DefaultEndpointsProtocol=https;AccountName=acmefiles;AccountKey={v('azure_key')};"
        "EndpointSuffix=core.windows.net",
        f"redis://:{mixed(R, BASE62, 24)}@redis-prod.acme.internal:6379/2",
        f"CELERY_BROKER_URL = 'amqp://celery:{pw()}@rabbit:5672/%2f'",
        f"files are on ftp://acme_upload:{pw()}@files.vendor.example/incoming/",
        f"Endpoint=sb://acme-bus.servicebus.windows.net/;SharedAccessKeyName=RootManageSharedAccessKey;"
        f"SharedAccessKey={b64(R, 32)}",
        f"pip install --index-url https://ci:{mixed(R, BASE62, 20)}@nexus.acme.example/repository/pypi/simple acme-sdk",
        f"ldapsearch -x -D 'cn=admin,dc=acme,dc=example' -w '{pw()}' -H ldap://dc01 '(uid=jdoe)'",
        f"Caused by: java.sql.SQLException: Access denied for 'billing'@'10.0.3.7' (url=mysql://billing:{pw()}@db5/bill)",
    ],
    "password_hashes": [
        f"users.csv\nid,email,password_hash\n17,j.doe@acme.example,$2b$12${chars(R, CRYPT, 53)}\n"
        f"18,a.li@acme.example,$2b$12${chars(R, CRYPT, 53)}",
        f"root:$6${chars(R, CRYPT, 16)}${chars(R, CRYPT, 86)}:19800:0:99999:7:::",
        f"Pentest finding 4.2 – dumped from DC01:\nAdministrator:500:aad3b435b51404eeaad3b435b51404ee:{hx(32)}:::",
        f"$argon2id$v=19$m=65536,t=3,p=4${b64(R, 16).rstrip('=')}${b64(R, 32).rstrip('=')}",
        f"mysql> select user, authentication_string from mysql.user;\n| app  | *{hx(40).upper()} |",
        f"htpasswd for the staging basic auth:\nqa:$apr1${chars(R, CRYPT, 8)}${chars(R, CRYPT, 22)}",
        f"pbkdf2_sha256$600000${chars(R, BASE62, 22)}${b64(R, 32)}",
        f"userPassword: {{SSHA}}{b64(R, 24)}",
        f"enable secret 5 $1${chars(R, CRYPT, 4)}${chars(R, CRYPT, 22)}",
    ],
    "sessions_and_otp": [
        f"Cookie: sessionid={chars(R, LOWER + DIGITS, 32)}; csrftoken={chars(R, BASE62, 64)}",
        f"repro: open /admin with JSESSIONID={hx(32).upper()} and you'll see the bug",
        f"Fwd: SMS from ACME Bank: {pin(6)} is your verification code. Do not share it.",
        "GitHub recovery codes (keep safe!)\n" + "\n".join(f"{hx(5)}-{hx(5)}" for _ in range(8)),
        f"otpauth://totp/ACME:social@acme.example?secret={chars(R, B32, 32)}&issuer=ACME",
        "2FA secret for the shared X account: " + " ".join(chars(R, B32.lower(), 4) for _ in range(8)),
        f"BitLocker recovery key for LT-00931:\n{bitlocker()}",
        "app-specific password for Outlook on the Mac: " + "-".join(chars(R, LOWER, 4) for _ in range(4)),
        f"Okta bypass code for Tom (valid 1h): {pin(8)}",
        "Google backup codes:\n" + "\n".join(f"{pin(4)} {pin(4)}" for _ in range(5)),
        f"magic link from the login mail: https://app.acme.example/auth/magic?token={chars(R, B64URL, 43)}",
        f"Your one-time code is {pin(6)} — give it to me so I can log in for you",
    ],
    "cards": [
        f"Corporate card for the offsite: {card('4')} exp {exp()} CVV {pin(3)}",
        f"date,merchant,card,exp,cvc\n2025-03-01,Lufthansa,{card('51', sep='')},{exp()},{pin(3)}",
        f"Amex for the AWS bill → {card('37', 15)}, CID {pin(4)}, exp {exp()}",
        f"Hotel guarantee form\nName on card: R. Svensson\nNumber: {card('4')}\nValid thru: {exp()}\n"
        f"Security code: {pin(3)}",
        f"Kreditkarte: {card('55', sep='-')}, gültig bis {exp()}, Prüfziffer {pin(3)}",
        f"Numéro de carte : {card('4')} – date d’expiration {exp()} – cryptogramme {pin(3)}",
        f"カード番号 {card('35')} 有効期限 {exp()} セキュリティコード {pin(3)}",
        f"can you charge the renewal to the usual card, {card()}?",
        f"Photo of card (OCR):\nVISA  Business\n{card('4')}\nVALID THRU {exp()}\nJ0HN M DOE",
        f"卡号：{card('62')}，有效期{exp()}，CVV：{pin(3)}",
        f"номер карты {card('2221')}, срок {exp()}, CVC {pin(3)}",
        f"Virtual card for the Figma subscription\n  number  {card('4', sep='')}\n  expiry  {exp()}\n  cvc  {pin(3)}",
    ],
    "bank_payroll": [
        f"Please update my payroll bank details: IBAN {iban('DE', 22)}, BIC COBADEFFXXX. Thanks!",
        f"New starter bank info\nSort code: {pin(2)}-{pin(2)}-{pin(2)}\nAccount number: {pin(8)}\nName: Amara Osei",
        f"Direct deposit form\nRouting number: {bank('aba')}\nAccount number: {pin(10)}\nType: Checking",
        f"Wire instructions (vendor changed banks!)\nBeneficiary: Nordlicht Logistik GmbH\nIBAN: {iban()}\n"
        "SWIFT: DEUTDEFFXXX\nRef: INV-2025-0417",
        f"BSB {pin(3)}-{pin(3)}  Acc {pin(8)}  — for Chloe's reimbursement",
        f"Bank: HDFC Bank, IFSC HDFC000{pin(4)}, A/c no. {pin(14)} (salary account)",
        f"振込先：みずほ銀行 渋谷支店 普通 {pin(7)} カ）アクメジャパン",
        f"CLABE interbancaria para el pago: {bank('clabe')}",
        f"Transit {pin(5)} / Institution 003 / Account {pin(7)} — void cheque attached",
        f"Proszę o przelew na konto {iban('PL', 28)}",
        f"IBAN voor de terugbetaling: {iban('BE', 16)}",
        f"name\tiban\tamount\nL. Meier\t{iban('CH', 21, False)}\t4'250.00\nP. Frei\t{iban('CH', 21, False)}\t3'980.50",
        f"Banco 341 · Agência {pin(4)} · Conta corrente {pin(5)}-{pin(1)} (para o reembolso)",
    ],
    "national_ids": [
        f"HR onboarding form\nFull name: Marcus Lee\nDOB: 1988-04-12\nSSN: {fake_ssn(R)}",
        f"SIN for the T4: {fake_sin(R)}",
        f"NI number for payroll: {fake_uk_ni(R)}",
        f"N° de sécurité sociale : {fake_insee(R)}",
        f"DNI/NIE del nuevo empleado: {fake_dni(R)}",
        f"Codice fiscale del consulente: {fake_codice_fiscale(R)}",
        f"Aadhaar for the PF form: {fake_aadhaar(R)}",
        f"PAN: {nid('in_pan')} (needed for TDS)",
        f"CPF do fornecedor pessoa física: {nid('br')}",
        f"BSN nieuwe medewerker: {nid('bsn')}",
        f"PESEL: {nid('pesel')}",
        f"身份证号：{nid('cn')}",
        f"personnummer {nid('se')} för lönesystemet",
        f"fødselsnummer: {nid('no')}",
        f"henkilötunnus {nid('fi')}",
        f"TC Kimlik No: {nid('tr')}",
        f"주민등록번호: {nid('kr')}",
        f"マイナンバー：{nid('jp')}",
        f"מספר ת.ז. {nid('il')}",
        f"SA ID number: {nid('za')}",
        f"NRIC {nid('sg')} – for the building pass",
        f"Rijksregisternummer: {nid('be')}",
        f"TFN {nid('au')} (new hire, Sydney)",
        f"RUT del proveedor: {nid('cl')}",
        f"Travel booking: Ms Ingrid Berg, DOB 03 MAR 1990, passport no. {fake_passport(R)}, exp 2031",
        f"employee,ssn,start\nR. Diaz,{fake_ssn(R)},2025-04-01\nK. Ito,{fake_ssn(R)},2025-04-07",
    ],
    "facilities_codes": [
        f"Alarm code for the Lyon office: {pin()} — disarm before 7:30!",
        f"Door keypad for the server room changed to {pin()}#",
        f"Locker 114 combo {R.randrange(1, 40)}-{R.randrange(1, 40)}-{R.randrange(1, 40)}",
        f"Staff Wi-Fi\nSSID: ACME-Staff\nWPA2: {pw()}",
        f"Schlüsseltresor am Hintereingang: {pin()}",
        f"The safe in the finance room opens with {R.randrange(10, 99)}-{R.randrange(10, 99)}-{R.randrange(10, 99)}.",
        f"garage gate code is {pin()}* (press star at the end)",
        f"Follow-me printing: your release PIN is {pin()}",
        f"Code de la porte : {pin(2)}B{pin(2)}",
        f"codice allarme magazzino: {pin()}, poi tasto OFF",
        f"ロッカーの暗証番号は {pin()} です",
        f"Voicemail PIN for the sales hotline: {pin(6)}",
    ],
    "security_answers": [
        "Security question for the bank portal: mother's maiden name → Kowalczyk",
        "Q: name of your first pet\nA: Pickles",
        "Secret question for the vendor portal: city you were born in — answer: Tarnów",
        "Sicherheitsfrage: Name des ersten Haustiers – Antwort: Flocke",
        "pregunta de seguridad: ¿nombre de tu primera escuela? respuesta: Colegio San Ignacio",
        "Verbal password for the bank's phone line is 'blue heron'.",
        "Telephone banking memorable word: marmalade",
        "如果客服问安全问题：我最喜欢的老师是 李老师",
    ],
    "ocr_and_voice": [
        f"Sticky note (photo, OCR):\nVPN\nuser: p.nowak\npw: {pw()}\n(dont tell Marek)",
        f"WHITEB0ARD - sprint l4\n* demo Fri\n* test acct: qa_user / {pw()}\n* fix l0gin bug",
        f"[scan] Ihre persönliche Geheimzahl (PIN) für die Firmenkreditkarte lautet:\n{' '.join(pin())}",
        "voice memo: reminder to self, the new password for the expense tool is capital S sunshine two zero two "
        "five exclamation mark, so Sunshine2025!",
        "voice memo 08:12 — uh the alarm code at the warehouse is now one nine seven three, tell Dave",
        f"OCR of router sticker:\nSSID: FRITZ!Box 7590 KL\nWLAN-Netzwerkschlüssel: {pin(4)} {pin(4)} {pin(4)} {pin(4)}",
        f"Sticker under the laptop: 'admin pw {pw()}'",
        f"Transcript (Teams call): ... so the login is finance-team and the password is {pw()} ... ok got it",
        f"[OCR] Y0ur new PIN is: {pin()}\nKeep this letter in a safe place.",
    ],
    "handover_and_notes": [
        f"Handover before my holiday 🌴\n- backups run at 02:00\n- NAS login: admin / {pw()}\n- alarm code {pin()}",
        f"Offboarding checklist – J. Park\n[x] disable AD\n[x] shared mailbox password changed to {pw()}\n"
        "[ ] collect badge",
        f"Post-mortem INC-7721: root cause — the password {pw()} was committed in config.yaml and reused on prod.",
        f"Meeting notes 12/03\n- contractor onboarding\n- shared staging creds (stage_admin / {pw()})\n- next sync Thu",
        f"Onboarding: first login with your employee number and the initial password {pw()}",
        f"Reminder for Monday: Wi-Fi 'Guest-Event' pw {pw()} for the workshop attendees",
        f"Handover (FR→EN): \"Le compte admin du CRM : admin@acme / {pw()}\" = the CRM admin account",
    ],
}


# --------------------------------------------------------------------------- near misses that must be accepted

FOURTH_HARMLESS: dict[str, list[str]] = {
    "policy_and_advice": [
        "Reminder: IT will never ask for your password by email or chat. If someone does, report it to security@.",
        "Password policy v3: minimum 14 characters, no reuse of the last 10, MFA required for VPN and webmail.",
        "How do I reset my password? → Self-service portal, click 'Forgot password', approve in the authenticator app.",
        "Please don't paste API keys in Slack. Put them in the vault and share the path instead.",
        "Bitte Passwörter niemals per E-Mail versenden – nutzen Sie den Passwortmanager.",
        "Rappel : le code PIN de votre carte ne doit jamais être communiqué, même au support.",
        "パスワードは定期的に変更し、他人と共有しないでください。",
        "Para cambiar la contraseña, pulsa Ctrl+Alt+Supr y elige «Cambiar una contraseña».",
        "请勿在群聊中发送密码或验证码。",
        "يرجى عدم مشاركة كلمة المرور مع أي شخص، حتى مع فريق الدعم.",
        "비밀번호를 잊으셨나요? 셀프 서비스 포털에서 재설정하세요.",
        "Пароль должен содержать не менее 12 символов, включая цифру и спецсимвол.",
        "Post-mortem INC-7730: root cause was an expired TLS certificate. No credentials were exposed.",
        "The nightly rotation job failed, so the DB password was NOT rotated. Ticket opened, retry tonight.",
        "Never read a one-time code out loud to anyone who calls you, even if they say they're from the bank.",
    ],
    "placeholders_and_masked": [
        "# .env.example\nDB_PASSWORD=\nAPI_KEY=<your-key-here>\nREDIS_URL=redis://localhost:6379/0",
        "db:\n  user: app\n  password: ${DB_PASSWORD}",
        "curl -H 'Authorization: Bearer <token>' https://api.acme.example/v2/invoices",
        "Refund issued to the card ending in 4417 (**** **** **** 4417).",
        "IBAN: DE** **** **** **** **12 34 (masked in the HR portal)",
        "password: ******** (see 1Password → 'Staging DB')",
        "token: REDACTED\nuser: svc-deploy\nscope: read:packages",
        "env:\n  AWS_SECRET_ACCESS_KEY: ${{ secrets.AWS_SECRET_ACCESS_KEY }}",
        "stripe.api_key = os.environ['STRIPE_KEY']",
        "DATABASE_URL=postgres://orders_rw:****@db-prod.internal:5432/orders",
        "password: {{ .Values.db.password }}",
        "API key: sk_live_••••••••••••••••3f2a (last 4 shown in the dashboard)",
        "パスワード：＊＊＊＊＊＊（別途お知らせします）",
        "Kennwort: wird separat per SMS zugeschickt.",
        "Contraseña: xxxxxxxx — pídesela a Marta por teléfono.",
    ],
    "work_ids_and_numbers": [
        "INC0048213 escalated to L2, ETA 15:00 CET.",
        "PO 4500128833 approved; invoice INV-2025-00417 total €12,480.00, due in 30 days.",
        "Tracking: 1Z 999 AA1 01 2345 6784 (UPS) — arrives Thursday.",
        "Call me on +44 20 7946 0958 or ext. 4412.",
        "Order #112-4829301-2288410 has been refunded.",
        "Room B2.14, capacity 12, booked 10:00–11:30.",
        f"Our VAT ID DE{pin(9)} is printed on every invoice.",
        "BIC of our bank for the invoice template: COBADEFFXXX",
        "Flight LH 1234 departs 07:45 from FRA, gate A22.",
        f"Asset tag LT-00931 (ThinkPad T14, S/N PF{chars(R, UPPER + DIGITS, 6)}) assigned to J. Smith.",
        "Employee ID 004217 – put it in the subject line of the expense claim.",
        "Q1 revenue 48 213 907 SEK, up 4.2% y/y.",
        "print server 10.14.2.33, MAC 3C:52:82:1A:9F:0E, VLAN 40",
        "Appointment reference APT-55821, Tuesday 14:30.",
    ],
    "dev_identifiers": [
        f"Deployed commit {hx(40)} to prod at 14:02 UTC.",
        f"Request id {uuid4()} returned 502, retry succeeded.",
        f"image: registry.acme.example/api@sha256:{hx(64)}",
        f"sha256sum release-2.4.1.tar.gz\n{hx(64)}  release-2.4.1.tar.gz",
        f"Please add my public key to the bastion:\n{ed25519_pub()} alice@laptop",
        f"The new intermediate cert for the load balancer:\n{certificate()}",
        f"Host key fingerprint SHA256:{b64(R, 32).rstrip('=')} — verify before accepting.",
        "Bumped lodash 4.17.21 → 4.17.22 and node 20.11.1 → 20.12.2.",
        f"trace_id={hx(32)} span_id={hx(16)} status=ERROR",
        f"version https://git-lfs.github.com/spec/v1\noid sha256:{hx(64)}\nsize 184302",
        f"age recipient (public) for the backup encryption: age1{chars(R, 'qpzry9x8gf2tvdw0s3jn54khce6mua7l', 58)}",
        f"Role ARN: arn:aws:iam::{pin(12)}:role/ReadOnlyAuditors",
        f"Build 2025.03.14-rc2 ({hx(7)}) passed 1,284 tests.",
        f"kubectl get pods -n payments → api-7d9f8b6c5-{chars(R, LOWER + DIGITS, 5)} CrashLoopBackOff",
        f".icon {{ background: url(data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAABAAAAAQ{chars(R, BASE62, 40)}); }}",
        f"-----BEGIN PUBLIC KEY-----\nMFkwEwYHKoZIzj0CAQYIKoZIzj0DAQcDQgAE{chars(R, BASE62 + '+/', 28)}\n"
        f"{chars(R, BASE62 + '+/', 56)}==\n-----END PUBLIC KEY-----",
    ],
    "other_senses": [
        "The tokenizer splits that sentence into 7 tokens; the model's context limit is 128k tokens.",
        "Bus tokens for the offsite are at reception — two per person.",
        "Key results for Q3: KR1 churn < 3%, KR2 NPS > 45.",
        "Area code 0161 is Manchester, not Liverpool.",
        "Your boarding pass is in the Wallet app; the gate closes 20 min before departure.",
        "Pass rate on the compliance training this quarter: 87%.",
        "Can someone pin the on-call schedule in the channel? 📌",
        "Die Schlüsselübergabe für das neue Büro ist am Freitag um 9 Uhr.",
        "The Kafka producer uses the wrong partition key, so one customer's orders land on different partitions.",
        "Code freeze starts Monday 18:00; only hotfixes after that.",
        "Passkeys are now supported for SSO — enrol under Settings › Security.",
        "Le code postal du nouveau bureau est 69003.",
        "La clave del éxito del trimestre fue el equipo de ventas.",
        "Il codice del corso di formazione è SIC-204 (sicurezza generale).",
        "キーボードの「Enter」キーが壊れています。交換をお願いします。",
        "Secret Santa draw on Friday! 🎅 Budget €20.",
        "HS code 8471.30 for the laptops on the customs invoice.",
        "Error code 0x80070005 when installing KB5034441.",
        "Exit code 137 means the pod was OOM-killed.",
        "A senha do atendimento na recepção é chamada pelo painel — aguarde o seu número.",
    ],
    "meetings_and_calendar": [
        "Zoom: Meeting ID 845 1290 3345 — passcode is in the calendar invite.",
        "Teams meeting ID: 289 554 102 771",
        "Standup moved to 09:15 CET, 15 min max.",
        "Agenda: 1) Q2 numbers 2) hiring 3) office move (keys handed out 1 June).",
        "Webex meeting number 2640 118 7734 — the host admits you from the lobby.",
        "Besprechung verschoben auf Do., 14:00–15:00, Raum Alster.",
        "Réunion mensuelle : mardi 10h, salle Garonne, ordre du jour en pièce jointe.",
        "会议改到周三下午三点，地点：5楼大会议室。",
        "Offsite 12–14 June, Lisbon. Hotel confirmation numbers will come from travel@.",
    ],
    "facilities_and_hr": [
        "Badges for new starters are printed on Tuesdays; bring photo ID to reception.",
        "Lost your locker key? Facilities keeps a spare — open a ticket (FAC-2291 as an example).",
        "The alarm arms automatically at 20:00; if you stay late, call security on ext. 5555.",
        "Guest Wi-Fi 'ACME-Visitors' has no password — just accept the terms on the captive portal.",
        "The door code changes every month. Ask reception; it is never posted in Slack.",
        "Parking spot P-17 is reserved for the auditors this week.",
        "Der Zugangscode für den Serverraum wird nur persönlich vom Facility-Team ausgegeben.",
        "De kluis in de kantine is defect; de monteur komt donderdag.",
        "Nowe karty dostępu będą gotowe w piątek.",
        "Payroll runs on the 25th. Changes to bank details must go through the HR portal, never by email.",
        "Nuevo horario de verano: de 8:00 a 15:00 a partir del 1 de julio.",
    ],
    "finance_harmless": [
        "Stripe test card 4242 4242 4242 4242 with any future date works in the sandbox only.",
        "Refund of €49.99 issued to the card ending 8812.",
        "Invoice INV-88213: net 30, pay by bank transfer, details are on the PDF.",
        "Exchange rate used: 1 EUR = 1.0842 USD (ECB, 14 Mar).",
        "Budget code CC-4410 for the offsite, please.",
        "Never change supplier bank details on the strength of an email alone — call them on a known number.",
        "経費精算の締め切りは毎月25日です。",
        "GL account 6420 (Travel) — a ledger code, not a bank account.",
        "Expense report EXP-20931 approved by M. Lee, paid out next payroll.",
        "Kostenstelle 4711, Auftrag 800231, Betrag 1.249,00 € netto.",
        "Счёт № 512 от 03.04.2025 на сумму 84 300 ₽ оплачен.",
    ],
    "chat_harmless": [
        "[10:02] anna: did anyone rotate the prod db password?\n[10:03] raj: yes, new one is in vault under prod/db\n"
        "[10:03] anna: 👍",
        "[14:11] @leo: what's the wifi pw?\n[14:12] @mia: it's on the card at reception, not posting it here 🙂",
        "09:58 From Sam: can you share your screen?\n09:58 From Kim: one sec, my session token expired, re-logging",
        "#incident-2291 02:14 pagerduty: 🔥 API p99 > 2s\n02:20 bob: rolled back to v1.42.3\n02:31 bob: resolved",
        "[오후 2:01] 김민수: 비밀번호 초기화 요청 티켓 올렸어요\n[오후 2:02] 최유나: 네 확인할게요",
        "2025-02-03 18:30 yuki.t: パスワードは後で電話で伝えます\n2025-02-03 18:31 ken.s: 了解",
        "[11:15] Иван: а где взять пароль от стенда?\n[11:16] Ольга: в Vault, путь secret/stand/qa",
        "<jo> who has the key for the supply cupboard?\n<max> physical key is with Brenda",
        "[16:20] Lucía: ¿alguien sabe el PIN de la impresora?\n[16:21] Pablo: pregúntale a recepción, no lo pongo aquí",
        "Tom 4:55 PM: PSA the SSO token lifetime is now 8h instead of 12h",
        "[12:40] Marie : le mot de passe expire dans 5 jours, c'est normal ?\n[12:41] IT : oui, changez-le avant.",
    ],
    "logs_and_config_harmless": [
        "2025-03-02T11:20:01Z WARN auth failed user=fin_ops reason=invalid_password ip=10.0.4.21",
        "db:\n  host: db-prod\n  user: app\n  password_file: /run/secrets/db_password",
        "ssh -i ~/.ssh/id_ed25519 deploy@10.0.8.3",
        "HTTP/1.1 401 Unauthorized\nWWW-Authenticate: Bearer realm=\"api\", error=\"invalid_token\"",
        "vault kv get -field=password secret/payments/db",
        "Set-Cookie flags: HttpOnly; Secure; SameSite=Lax — all fine per the pentest report.",
        "kubectl create secret generic smtp-creds --from-env-file=.env.smtp   # file not in git",
        "[auth] 2025-04-01 08:00:12 token refresh ok (expires_in=3600)",
        "git commit -m 'remove hard-coded password, read from env instead'",
        "ERROR 1045 (28000): Access denied for user 'report'@'10.0.3.7' (using password: YES)",
    ],
    "ocr_and_transcripts_harmless": [
        "WHITEB0ARD - SPRlNT 15 G0ALS\n- finish l0gin page\n- fix passw0rd reset email template\n- demo Fri",
        "voice memo: remind me to ask IT why my password expired again, and book the train to Leeds",
        "Sticky note (OCR):\nCall Jen re Q3 deck\nBuy toner\nPassword manager training Thu 2pm",
        "[scan] Dear customer, your new card and its PIN will arrive in two separate letters for your security.",
        "(translated from German) Please lock your screen when you leave your desk.",
        "Transcript: ... okay so I'll send you the password over Signal, not here, yeah? ... great, bye",
        "[OCR] Rechnung Nr. 2025-0312 · Kundennummer 100482 · Fälligkeit 30.04.2025",
        "Photo of whiteboard: Q2 OKRs → onboarding NPS 60, ticket backlog < 50, MTTR < 4h",
        "Voicemail transcript: Hi, this is Dana from the dentist, calling to confirm Tuesday at 3. Thanks!",
        "OCR (Arabic letter): نرجو تحديث بيانات الاتصال الخاصة بكم قبل نهاية الشهر.",
    ],
}
