"""A second labelled corpus for the write policy, written without sight of the detectors.

The sentences below were written as an independent test set: someone who had not read the
policy or its detectors wrote down how people actually put secrets into chat messages, notes,
tickets, config snippets, shell history and emails, and, next to them, near misses that talk
about secrets, use the same words in other senses, or carry numbers that are not secrets.

`FRESH_SECRETS` maps a category to sentences a memory store should refuse; `FRESH_HARMLESS`
maps a category to sentences it should accept. Every value is fake. Values whose format has a
checksum come from `corpus_values` (or are computed here the way the format's public
description says); the rest were made up by hand or drawn from a seeded `random.Random`, in a
fixed order at import time, so the corpus is the same on every run.
"""

from __future__ import annotations

import base64
import json
import random

from . import corpus_values as v

_rng = random.Random(0x5EC2E7F)


def _c(alphabet: str, n: int) -> str:
    return v.chars(_rng, alphabet, n)


def _t(kind: str) -> str:
    return v.fake_vendor(_rng, kind)


def _card() -> tuple[str, str, str]:
    """A Luhn-valid card number with an expiry and a three-digit security code."""
    return v.fake_card(_rng), f"{_rng.randrange(1, 13):02d}/{_rng.randrange(26, 32)}", _c(v.DIGITS, 3)


def _iban(country: str, length: int, letters: int = 0) -> str:
    return v.iban_complete(country, _c(v.UPPER, letters) + _c(v.DIGITS, length - 4 - letters))


def _aba() -> str:
    """A US routing number: prefix 01-12 or 21-32, weights 3-7-1 summing to a multiple of 10."""
    body = f"{_rng.choice([*range(1, 13), *range(21, 33)]):02d}" + _c(v.DIGITS, 6)
    d = [int(x) for x in body]
    return body + str(-(3 * (d[0] + d[3] + d[6]) + 7 * (d[1] + d[4] + d[7]) + d[2] + d[5]) % 10)


def _bsn() -> str:
    """A Dutch BSN passing the eleven test."""
    while True:
        body = _rng.choice("123456789") + _c(v.DIGITS, 7)
        last = sum(int(x) * w for x, w in zip(body, range(9, 1, -1), strict=True)) % 11
        if last < 10:
            return body + str(last)


def _gcp_key() -> str:
    project = _rng.choice(["harbor-analytics", "quarry-billing"])
    return json.dumps({"type": "service_account", "project_id": project, "private_key_id": _c(v.HEX, 40),
                       "private_key": v.fake_pem(_rng, "PKCS8") + "\n",
                       "client_email": f"loader@{project}.iam.gserviceaccount.com"})


_SEED_WORDS = ("orbit", "velvet", "cactus", "drum", "harbor", "ribbon", "glimpse", "tunnel", "oyster", "canyon",
               "pepper", "silent", "maple", "lunar", "frost", "wagon", "elbow", "timber", "quarry", "noble")

_PW_EN = (
    "My email password is Marigold#2291, please remember it for next time.", "pw: tr4ctor-Beam-88",
    "btw the pw's Kestrel!447 now, I changed it this morning", "Login for the staging admin panel: admin / Wl9v#qTz2m",
    "user: dpatel, pass: Saffron_Lake_61", "creds are jmorris:BlueHeron2024!",
    "The new password for the shared streaming account is 'popcorn-Tuesday-19'.",
    "Remember that I set the router admin password to Zq8!rUe4Lp.", "pwd = Gh7$kk2Lw9 (for the lab machine)",
    "passwd for root on the NAS: n4s-R00t-vault",
    "Ticket #4821: user locked out, temp password issued Temp-84xk-Qa, they must change it at next logon.",
    "Hi Sam, as discussed your initial password is Welcome!Oct93 - please change it on first login.",
    "I always forget my laptop passphrase, so here it is: orbit velvet cactus drum 42",
    "My bank login is ana.rivera and the password is Lisbon*Sunset*07.", "pword: 1qaz2wsx!Ed",
    "Password for the VPN -> Vq3#mZ8e!rT1", "The passphrase for my GPG key is 'seven purple tractors dance at noon'.",
    "login: bob / hunter2",
    "Credentials - username: svc_backup, password: XkP4-9wqL-77ab", "Account: finance-reports | Password: Rpt!2023$Q4",
    "New master password for Bitwarden: Glacier.Tundra.Fjord.1987",
    "I changed the password to sn0wb0ard3r and it works now.",
    "The Jira service account password got reset to Jira-Svc-77Mx, update the integration before Friday.",
    "Password's still Pa55w0rd!Office for the front desk PC.", "sudo password on the build box is b0x-build-Ltq",
    "Your SFTP account is ready. Host: sftp.example.org, user: acme_upload, password: Upl0ad#Acme#55",
    "Old password was Autumn2022, the new one is Winter2023!",
    "The PDF is locked with 1984Q7zz, my birth year followed by Q7zz.",
    "remember the pass for the school portal: Rocket_Man_3",
    f"If the encrypted backup asks, the password is {v.mixed(_rng, v.BASE62 + '!%&', 16)}",
    "Note to self - Steam: steam_user_88 / GabeN3w3ll!",
    f"Here's the password you asked for: {v.mixed(_rng, v.BASE62 + '#$*', 12)}. Delete this message after.",
    "Please store: Dropbox -> lucia.m@example.com, pwd Dr0pB0x_Luc1a",
)

_PW_OTHER = (
    "Mon mot de passe Gmail est Chaton#2019.", "mdp : Soleil-Levant-77",
    "identifiant : mlefevre / mot de passe : Rue-Verte-12",
    "Pour info, le mot de passe du compte Ameli c'est Brioche_Lune4, ne le perds pas.",
    "Mein Passwort für das Online-Banking lautet Kaffeetasse!48.", "Kennwort: Bergsee_2021",
    "Zugangsdaten: Benutzer hkoch, Passwort Ostsee#33",
    "Mi contraseña del correo es Girasol_2020.", "usuario: jgarcia contraseña: Toro!Bravo7",
    "La clave del wifi de casa es MangoLoco88", "Te paso la contraseña nueva del servidor: Paella&Sol45",
    "A minha senha do banco é Caju#1987.", "senha: Saudade-Praia-3", "Login rsilva, senha Tijolo2022, não compartilhe.",
    "La mia password della posta è Gelato!Fragola9.", "credenziali: utente mrossi, password Pizza4Stagioni!",
    "La parola d'ordine per l'area riservata è Vesuvio_88",
    "Mijn wachtwoord voor de webshop is Tulpen!Veld42.", "wachtwoord: Stroopwafel_19",
    "Moje hasło do banku to Pierogi#2018.", "hasło: Kasztan_Wawel7", "Login: akowalska, hasło: MorzeBaltyk!3",
    "Мой пароль от почты — Medved2020!", "пароль: Zima_Snezhok42", "Логин ivanov, пароль Kreml#77Rus",
    "私のメールのパスワードは sakura2024! です。", "パスワード：Fuji-san_88", "Wi-Fiのパスワードは tanuki7788 だよ",
    "我的邮箱密码是 Panda#8866。", "密码：longmen2021", "账号 wangwei 密码 Xiao!Long99",
    "Mitt lösenord till banken är Kanelbulle#7.",
    "E-posta şifrem Lale!2019.", "Kullanıcı adı: ayilmaz, şifre: Bogazici_55",
    "내 이메일 비밀번호는 Kimchi#2020 이야.",
    "Heslo k e-mailu je Knedlik_42.", "Min adgangskode til netbanken er Smørrebrød#5.",
    "Ο κωδικός πρόσβασης του λογαριασμού είναι Akropoli!21.", "كلمة المرور الخاصة بي هي Sahara#2022",
    "मेरा पासवर्ड Chai@Masala9 है", "Salasana on Sauna-Lumi-88.", "הסיסמה שלי היא Shalom!4455",
)

_URLS = (
    "postgres://app_user:Pg!s3cret-91@db.internal:5432/orders",
    "The cache is at redis://:R3dis-Cache-pw@cache-01.internal:6379/0",
    "mongodb+srv://reporting:Mongo4Rpt77@cluster0.ab1cd.mongodb.net/analytics?retryWrites=true",
    "Broker URL for celery: amqp://worker:Rabb1tHole22@mq.internal:5672/prod",
    "Nightly dumps go to ftp://backup:ftpPass-2211@files.example.net/nightly/",
    "git remote set-url origin https://deploy:Dpl0y-Pw-88@git.example.com/team/repo.git",
    "mysql://root:toor-Maria-55@10.0.4.12:3306/shop",
    "SMTP relay: smtp://alerts%40example.com:Mail-Al3rt@smtp.example.com:587",
    "Server=sql01;Database=Payroll;User Id=payroll_app;Password=Pay$roll2024;",
    "Data Source=tcp:crm.database.windows.net,1433;Initial Catalog=crm;User ID=crmadmin;Pwd=Cr1mAdm1n!;",
    "jdbc:postgresql://db.example.com:5432/ledger?user=ledger&password=L3dg3r-pw",
    "jdbc:oracle:thin:scott/Tiger-0ra9@//ora.example.com:1521/ORCL",
    "Host=pg.internal;Username=etl;Password=Etl_2023_x;Database=warehouse",
    "sftp://ops:0psSftp1@sftp.example.org:22/uploads",
    "Metrics endpoint with basic auth: https://prom:Pr0m-Scrape!@metrics.example.com/federate",
    "DATABASE_URL=postgresql://web:W3b-Db-Pass@localhost/site",
    "The app connects with mssql://sa:SqlServer2019x@winsql:1433/master, can you check why it times out?",
    f"git clone https://x-access-token:{_t('github')}@github.com/acme/infra.git",
    "socks5://proxyuser:Pr0xy-77@proxy.example.com:1080", "CouchDB UI: http://admin:c0uch-Adm1n@127.0.0.1:5984/_utils",
    "Cluster is up at https://elastic:E1astic-Ch4nge@es.example.com:9200, kibana next.",
    "index-url = https://reader:Art1fact-R34d@artifactory.example.com/api/pypi/simple",
    "Driver={ODBC Driver 18 for SQL Server};Server=tcp:erp01;UID=erp;PWD={Erp#Odbc2024};",
    "rtsp://admin:Cam3ra-Yard@192.168.1.64:554/Streaming/Channels/101",
    "spring.datasource.url=jdbc:mysql://db:3306/app?user=app&password=Spr1ng-Db",
)

_CONFIG = (
    "DB_PASSWORD=kQ9!vT2#pL", f"export API_KEY={_c(v.HEX, 32)}", "database:\n  user: app\n  password: Yaml-Pa55-01",
    '{"username": "svc-reporting", "password": "J50n-Pw-2024"}', f'"client_secret": "{_c(v.BASE62, 32)}"',
    "[smtp]\nuser = mailer\npassword = M4iler!Smtp",
    "docker run -d -e POSTGRES_PASSWORD=Dock3r-Pg-1 -p 5432:5432 postgres:16",
    "docker login -u ciuser -p Dkr-Hub-5521 registry.example.com",
    "kubectl create secret generic db-creds --from-literal=password=K8s-Db-Secret9",
    "apiVersion: v1\nkind: Secret\nmetadata:\n  name: app\ndata:\n  password: "
    + base64.b64encode(b"Kub3-Secret-Pw!").decode(),
    "mysql -u root -pR00tMysql! -h db1 shop", "PGPASSWORD=Pgp4ss-Env psql -h db.internal -U report -d sales",
    "curl -u admin:Curl-Adm1n-9 https://jenkins.example.com/api/json", "sshpass -p 'Ssh!Pass-42' ssh deploy@10.1.2.3",
    "rabbitmqctl add_user monitor M0nitor-Rmq", "net user backupsvc Bkp-Svc-2024! /add",
    "machine api.example.com login deploy password N3trc-Depl0y", "db.internal:5432:billing:billing_ro:Pgp4ss-Bill1ng",
    f"Add this to .htpasswd: admin:$apr1${_c(v.BASE62, 8)}${_c(v.BASE62 + './', 22)}",
    "define('DB_PASSWORD', 'Wp-Db-P4ss!');", "requirepass R3qu1re-P4ss-x",
    "mosquitto_pub -h broker -u sensor -P Mqtt-S3ns0r -t temp -m 21",
    "openssl pkcs12 -export -in cert.pem -inkey key.pem -out bundle.p12 -passout pass:0penSSL-Exp0rt",
    "keytool -list -keystore app.jks -storepass Keyst0re-Pw", f"SECRET_KEY = '{_c(v.BASE62 + '!@#%^&*(-_=+)', 50)}'",
    "$cred = ConvertTo-SecureString 'Ps-Cr3d-88!' -AsPlainText -Force",
    'db_admin_password = "Tf-Vars-Pw-61"', f'In appsettings.json I have "JwtSecret": "{_c(v.BASE62, 32)}"',
    "sudo mount -t cifs //nas/media /mnt/media -o username=media,password=Cifs-M3dia",
    "heroku config:set SESSION_SECRET=s3ss10n-Sekr3t-Heroku",
    "ldapsearch -x -H ldap://ldap.example.org -D 'cn=admin,dc=example,dc=org' -w Ld4p-B1nd-pw",
    "mysqldump --user=backup --password=Dump-2024-pw shop > shop.sql",
    '<add key="SmtpPassword" value="W3b-C0nfig-Smtp" />',
)

_aws = [(_t("aws"), _c(v.BASE62 + "+/", 40)) for _ in range(3)]
_gh_pat = "github_pat_" + _c(v.BASE62, 22) + "_" + _c(v.BASE62, 59)
_xoxp = f"xoxp-{_c(v.DIGITS, 12)}-{_c(v.DIGITS, 12)}-{_c(v.DIGITS, 13)}-{_c(v.HEX, 32)}"
_slack_hook = f"https://hooks.slack.com/services/T{_c(v.UPPER + v.DIGITS, 8)}/B{_c(v.UPPER + v.DIGITS, 10)}/" + _c(
    v.BASE62, 24)
_telegram = _t("telegram")

_VENDOR = (
    f"AWS keys for the backup user: access key {_aws[0][0]}, secret {_aws[0][1]}.",
    f"export AWS_ACCESS_KEY_ID={_aws[1][0]}\nexport AWS_SECRET_ACCESS_KEY={_aws[1][1]}",
    f"[default]\naws_access_key_id = {_aws[2][0]}\naws_secret_access_key = {_aws[2][1]}",
    f"rotate this one, it was in a public gist: {_t('aws')}",
    f"here's the token for CI: {_t('github')}", f"GH_TOKEN={_gh_pat}",
    "Fine-grained PAT for the release bot (expires in 90 days): github_pat_" + _c(v.BASE62, 22) + "_"
    + _c(v.BASE62, 59),
    f"glpat for the runner registration: {_t('gitlab')}",
    f"git push https://oauth2:{_t('gitlab')}@gitlab.example.com/grp/proj.git main",
    f"Bot token for the standup bot: {_t('slack')}", f"My user token (xoxp) in case the bot breaks: {_xoxp}",
    f"Post the alerts to {_slack_hook}", f"Someone committed {_t('stripe')} to the repo, revoke it please.",
    f"STRIPE_SECRET_KEY={_t('stripe')}", f"Stripe webhook signing secret is whsec_{_c(v.BASE62, 32)}",
    f"Maps API key for the store locator: {_t('google')}",
    f"append ?key={_t('google')} to the geocoding URL and it works",
    f"OPENAI_API_KEY={_t('openai')}", f"Try my old key if the project one fails: sk-{_c(v.BASE62, 48)}",
    f"Use this Claude key for the eval run: sk-ant-api03-{_c(v.B64URL, 93)}AA",
    f"DefaultEndpointsProtocol=https;AccountName=acmelogs;AccountKey={_t('azure_key')};EndpointSuffix=core.windows.net",
    ("SAS link for the auditors: https://acmelogs.blob.core.windows.net/exports/q3.csv?sv=2022-11-02&ss=b&srt=o&sp=r"
     f"&se=2025-01-01T00:00:00Z&sig={_t('azure_sas')}"),
    f"Service principal client secret: {_c(v.BASE62, 3)}8Q~{_c(v.B64URL, 34)}",
    f"Twilio account AC{_c(v.HEX, 32)} with auth token {_c(v.HEX, 32)}",
    f"Twilio API key {_t('twilio')}, secret {_c(v.BASE62, 32)}", f"DISCORD_TOKEN={_t('discord')}",
    f"Discord webhook for #deploys: {_t('discord_webhook')}", f"Telegram bot token from BotFather: {_telegram}",
    f"curl https://api.telegram.org/bot{_t('telegram')}/sendMessage -d chat_id=42 -d text=hi",
    f"do token {_t('digitalocean')} (read/write)", f"Mailgun private key: {_t('mailgun')}",
    f"Databricks PAT for the notebook job: {_t('databricks')}",
    f"age identity for decrypting the backups: {_t('age')}", f"SENDGRID_API_KEY='{_t('sendgrid')}'",
    f"huggingface-cli login --token {_t('huggingface')}",
    f"//registry.npmjs.org/:_authToken={_t('npm')}", f"Authorization: Bearer {_t('jwt')}",
    f"I copied my session JWT from devtools, it's {_t('jwt')}",
    f"[pypi]\nusername = __token__\npassword = pypi-AgEIcHlwaS5vcmc{_c(v.B64URL, 70)}",
    f"Shopify admin API access token: shpat_{_c(v.HEX, 32)}",
    f"The partner gave us this API key, keep it safe: {_c(v.BASE62, 40)}",
)

_KEYS = (
    f"Here's the deploy key, add it to the server:\n{v.fake_pem(_rng, 'RSA')}", v.fake_pem(_rng, "EC"),
    f"id_ed25519 contents:\n{v.fake_pem(_rng, 'OPENSSH')}", f"key.pem for the TLS cert:\n{v.fake_pem(_rng, 'PKCS8')}",
    f"PuTTY key for the jump host:\n{v.fake_putty(_rng)}", f"Service account JSON: {_gcp_key()}",
    "-----BEGIN ENCRYPTED PRIVATE KEY-----\n" + "\n".join(_c(v.BASE62 + "+/", 64) for _ in range(4))
    + "\n-----END ENCRYPTED PRIVATE KEY-----\nits passphrase is Tls-Key-Phrase",
    "-----BEGIN PGP PRIVATE KEY BLOCK-----\n\n" + "\n".join(_c(v.BASE62 + "+/", 64) for _ in range(4))
    + "\n-----END PGP PRIVATE KEY BLOCK-----",
    f"[Interface]\nPrivateKey = {v.b64(_rng, 32)}\nAddress = 10.8.0.2/24",
    "My wallet recovery phrase is: " + " ".join(_rng.choice(_SEED_WORDS) for _ in range(12)),
)

_IDS = (
    f"My SSN is {v.fake_ssn(_rng)}.", f"SSN: {v.fake_ssn(_rng)}",
    f"Social security number for the W-4: {v.fake_ssn(_rng)}", f"ssn {v.fake_ssn(_rng).replace('-', '')}",
    f"Her social is {v.fake_ssn(_rng)}, needed for the lease application.",
    f"My National Insurance number is {v.fake_uk_ni(_rng)}.", f"NI no. {v.fake_uk_ni(_rng)}",
    f"NINO: {v.fake_uk_ni(_rng)} (for the payroll form)",
    f"my SIN is {v.fake_sin(_rng)}", f"Numéro d'assurance sociale : {v.fake_sin(_rng)}",
    f"Social Insurance Number {v.fake_sin(_rng)}, for the CRA",
    f"Mi DNI/NIE es {v.fake_dni(_rng)}.", f"Documento de identidad: {v.fake_dni(_rng)}",
    f"Número de documento: {v.fake_dni(_rng)} (para la reserva)",
    f"Il mio codice fiscale è {v.fake_codice_fiscale(_rng)}.", f"CF: {v.fake_codice_fiscale(_rng)}",
    f"codice fiscale del titolare {v.fake_codice_fiscale(_rng)}",
    f"My Aadhaar number is {v.fake_aadhaar(_rng)}.", f"आधार संख्या: {v.fake_aadhaar(_rng)}",
    f"Meu CPF é {v.fake_cpf(_rng)}.", f"CPF: {v.fake_cpf(_rng)}", f"cpf do cliente {v.fake_cpf(_rng)} pra nota fiscal",
    f"Mon numéro de sécu est {v.fake_insee(_rng)}.", f"N° de sécurité sociale : {v.fake_insee(_rng)}",
    f"My passport number is {v.fake_passport(_rng)}, it expires in 2031.", f"Passport no. {v.fake_passport(_rng)}",
    f"Reisepassnummer: {v.fake_passport(_rng)}", f"Mijn BSN is {_bsn()}.",
)

_cards = [_card() for _ in range(12)]
_BANK = (
    "Card: {} exp {} CVV {}".format(*_cards[0]), "Here's my credit card: {}, expires {}, code {}.".format(*_cards[1]),
    "Pay the invoice with {} {} {}".format(*_cards[2]), f"card number {_cards[3][0]}, cvc {_cards[3][2]}",
    "Numéro de carte : {}, date d'expiration {}, cryptogramme {}".format(*_cards[4]),
    "Kreditkarte {}, gültig bis {}, Prüfziffer {}".format(*_cards[5]),
    "Tarjeta {} caduca {} CVV {}".format(*_cards[6]), f"Use the company card {_cards[7][0]} for the flights",
    f"cc on file: {_cards[8][0]} / {_cards[8][1]}", "{} | {} | {} | J SMITH".format(*_cards[9]),
    "卡号 {} 有效期 {} 安全码 {}".format(*_cards[10]), f"Charge it to {_cards[11][0]}, the billing zip is 94107.",
    f"My IBAN is {v.fake_iban(_rng)}.", f"IBAN: {v.fake_iban(_rng)} BIC: ABCDDEFFXXX",
    f"Please wire the deposit to {v.fake_iban(_rng)} (account holder: M. Keller).",
    f"Mon RIB : {_iban('FR', 27)}", f"Rekeningnummer {_iban('NL', 18, 4)}", f"Bankverbindung: {_iban('DE', 22)}",
    f"Numer konta: {_iban('PL', 28)}",
    f"Routing {_aba()}, account {_c(v.DIGITS, 10)}, checking.",
    f"For direct deposit: ABA {_aba()} / acct # {_c(v.DIGITS, 9)}",
    f"ACH details - routing number {_aba()}, account number {_c(v.DIGITS, 12)}",
    f"Sort code {_c(v.DIGITS, 2)}-{_c(v.DIGITS, 2)}-{_c(v.DIGITS, 2)}, account number {_c(v.DIGITS, 8)}",
    f"My BSB is {_c(v.DIGITS, 3)}-{_c(v.DIGITS, 3)} and the account is {_c(v.DIGITS, 9)}",
    f"From the void cheque: transit {_c(v.DIGITS, 5)}, institution 0{_c(v.DIGITS, 2)}, account {_c(v.DIGITS, 7)}",
)

_PINS = (
    "My ATM PIN is 4821.", "PIN for the debit card: 0736", "SIM PIN 1357, PUK 48213960",
    "The PUK code for my phone is 80671245.", "iPad passcode: 739104",
    "Voicemail PIN is 9182, in case you need to check my messages.",
    "My 2FA backup codes: 4829-1734, 9921-0083, 3310-5527, 7716-4402",
    "GitHub recovery codes: " + ", ".join(f"{_c(v.HEX, 5)}-{_c(v.HEX, 5)}" for _ in range(3)),
    "The garage keypad code is 3190.", "Gate code: #7245", "The alarm disarm code is 6028.",
    "The safe combination is 32-14-51.", "My gym locker combination is left 12, right 40, left 7.",
    "Screen Time passcode on the kids' iPad is 6143",
    "Door code for the Airbnb: 1964, then press the lock button.", "Mon code de carte bleue est 5207.",
    "Der PIN meiner EC-Karte ist 7305.", "El código de la alarma es 1379.", "Il codice del portone è 3914B.",
    "O código do cadeado é 0-4-7.", "Kod do domofonu: 1290", "ПИН-код карты: 5832",
    "キャッシュカードの暗証番号は 3390 です。", "我的银行卡密码是 624815。",
    "De deurcode van de fietsenstalling is 7741.",
    "Koden till porten är 4530.", "Apartmanın kapı şifresi 2019*",
    "BitLocker recovery key: " + "-".join(f"{11 * _rng.randrange(65536):06d}" for _ in range(8)),
    "Google Authenticator setup key: " + " ".join(_c("ABCDEFGHIJKLMNOPQRSTUVWXYZ234567", 4) for _ in range(4)),
    "Apple account recovery key: " + "-".join(_c(v.UPPER + v.DIGITS, 4) for _ in range(7)),
)

_CONTEXT = (
    "the code to get in the building is 4471#", "alarm disarm: 9032", "Front door: 8817, back gate: 2204*",
    "For the storage unit at StoreMore, punch 55190 at the keypad.", "The lockbox on the porch opens with 3-8-1-6.",
    "Wifi for guests: network CafeLuna, key 7hJk29pQx", "To get into my phone swipe up and type 903127.",
    "Key safe by the back door: 0417", "Buzz 2B then enter 6530 at the lobby panel.",
    "The office printer's admin panel opens with 11839 since we changed it from the default.",
    "Luggage lock is set to 472.",
)

FRESH_SECRETS: dict[str, tuple[str, ...]] = {
    "password, English": _PW_EN,
    "password, other languages": _PW_OTHER,
    "credentials in URLs and connection strings": _URLS,
    "credentials in config, env and command lines": _CONFIG,
    "vendor tokens and API keys": _VENDOR,
    "private keys and key files": _KEYS,
    "national identifiers": _IDS,
    "cards and bank accounts": _BANK,
    "PINs, passcodes and recovery codes": _PINS,
    "secrets labelled only by context": _CONTEXT,
}

_uuid = f"{_c(v.HEX, 8)}-{_c(v.HEX, 4)}-4{_c(v.HEX, 3)}-{_rng.choice('89ab')}{_c(v.HEX, 3)}-{_c(v.HEX, 12)}"

FRESH_HARMLESS: dict[str, tuple[str, ...]] = {
    "talk about passwords and secrets": (
        "Passwords must be at least 12 characters long and include a number.",
        "I reset my password yesterday and now the phone app keeps asking me to log in again.",
        "The team keeps shared credentials in the 1Password vault called 'Ops Shared'.",
        "Ask IT for the wifi password when you arrive; it's not written anywhere.", "password: ********",
        "Replace <your password here> with your own before running the script.",
        "The password reset link in the email expires after 24 hours.",
        "Never tell anyone your PIN; the bank will never ask for it by phone.",
        "We rotate the database credentials every 90 days through Vault.",
        "The 'Forgot password?' link is broken on the mobile login page.",
        "Use a passphrase of four or more random words rather than a single word with digits.",
        "GitHub flagged a leaked token in our repo last week; it has been revoked and replaced.",
        "Two-factor authentication is now mandatory for all admin accounts.",
        "The recovery codes are printed and kept in the office safe, not in email.",
        "The door code changes every Monday and the front desk announces it in person.",
        "My password manager generates 24-character passwords for every new site.",
        "She forgot her PIN and had to order a new card.",
        "Don't paste secrets into the chat; use the secrets manager.",
        "The AWS access keys for the build user were rotated on Monday.",
        "Login failed three times, so the account is locked for 15 minutes.",
        "Mot de passe oublié ? Il suffit de cliquer sur le lien envoyé par e-mail.",
        "Das Passwort muss mindestens zwölf Zeichen lang sein.", "La contraseña caducó, tengo que cambiarla mañana.",
        "パスワードを忘れたので、昨日再設定しました。", "密码必须包含大写字母、小写字母和数字。",
        "Ik moet mijn wachtwoord elke drie maanden wijzigen.",
        "A senha do Wi-Fi está num papel atrás do roteador, pergunte ao porteiro.",
        "The SSO migration means nobody needs a separate Jira password any more.",
        "Remind me to update my password on the tax portal before April.",
        "Password hints are disabled on the new login page.",
        "The installer refuses to finish until the default admin password has been changed.",
        "Our policy bans storing passwords in spreadsheets.",
        "The PIN pad at checkout is broken, so only contactless works today.",
        "Il PIN della carta nuova va cambiato al primo prelievo allo sportello.",
        "Hasło do konta wygasło, muszę je zmienić w poniedziałek.",
    ),
    "secret words in other senses": (
        "We're limited to 8,000 tokens per request, so summarize long threads first.",
        "The tokenizer splits 'unbelievable' into three tokens.",
        "Key results for Q3: cut churn to 4% and ship the mobile app.", "The keynote starts at 9:30 in Hall B.",
        "Secret Santa budget is 25 euros this year; names are drawn on Friday.",
        "Pin the release notes message in #general.", "Pin numpy to 1.26 in requirements until the build is fixed.",
        "The printer asks for a PIN code to release jobs; set yours at the kiosk.",
        "user_id is the primary key and team_id is a foreign key to teams.",
        "The environment variable is called OPENAI_API_KEY; the value comes from the secrets manager.",
        "My keyboard's spacebar sticks, order a new one.", "The key to the bike shed is with the caretaker.",
        "The piece is in the key of D minor.", "Book a passport photo appointment for Friday at 10.",
        "There's a secret passage behind the bookshelf in the escape room.",
        "Her secret ingredient for the curry is a spoon of peanut butter.", "The gift token is valid until December.",
        "Access tokens expire after one hour and refresh tokens after 30 days.",
        "The pin on the map marks the hotel.", "Bowling: she knocked down all ten pins in the last frame.",
        "Our CI signs release artifacts with a key that never leaves the HSM.",
        "Use the 'key' prop when rendering lists in React.",
        "The hotel uses key cards; the front desk can reissue them.",
        "Token Ring networks were replaced by Ethernet in the 90s.",
        "The passkey rollout starts next quarter, replacing SMS codes.",
        "Le mot clé pour la recherche est 'mémoire'.", "Der Schlüssel liegt beim Hausmeister.",
        "La clave del éxito es la constancia.", "秘密のレシピはおばあちゃんから教わった。",
        "The secret to good bread is a long cold proof.",
        "The credentials committee meets on Thursday to review the new nurses' licences.",
    ),
    "numbers that are not secrets": (
        "Invoice INV-2024-0815 is due on 30 September.", "Order #112-5839201-4471823 arrives Thursday.",
        "Call the dentist at +1 415 555 0134 to reschedule.", "The meeting moved to 14 March 2025 at 15:00.",
        "The total came to $1,249.99 including tax.", "Tracking number 1Z999AA10123456784.",
        "ISBN 978-0-13-468599-1 is the edition we use in class.", "We upgraded to Python 3.11.4 and Postgres 16.2.",
        "The job started at 2024-03-15T09:30:00Z and took 42 minutes.", "Office zip code is 94107.",
        "The workshop is in room 4.12 on the fourth floor.", "Flight LH 2031 leaves Munich at 07:25 from gate G24.",
        f"Public dataset record id {_uuid}.", f"The fix landed in commit {_c(v.HEX, 40)}.",
        "Brand colour is #1E90FF; accent is #FF7F50.", "The NAS is at 192.168.1.20 on port 5000.",
        "Error 0x80070005 means access denied.", "Postgres listens on port 5432, Redis on 6379.",
        "Bus 73 leaves at 07:42 from stop 3.", "Le devis s'élève à 4 312,50 € TTC.",
        "Die Lieferung mit der Sendungsnummer 00340434161094042557 kommt morgen.",
        "Claim reference CLM-88213 for the insurance.", "Meter reading on 1 June: 045213 kWh.",
        "The Eiffel Tower is at 48.8584, 2.2945.", "Build 20240315.3 failed on the arm64 runner.",
        "The conference dial-in number is +44 20 7946 0958.", "Her apartment is number 1204 in building C.",
        "Population of the city was 8,336,817 in the last census.", "Ticket SUP-4471 is about the login page layout.",
        "Table 12 for four people at 20:00.", "The parcel weighs 2.4 kg and measures 40x30x15 cm.",
        "Release v2.8.0 was tagged on 2 May.", "会议室在 3 楼 305 室。",
        "Train ICE 578 to Hamburg, coach 7, seat 65.",
    ),
    "ordinary facts to remember": (
        "I prefer meetings after 10am and no calls on Fridays.", "The quarterly report is due on 15 October.",
        "My manager is Priya Raman; she's based in the London office.",
        "The Berlin office is at Friedrichstraße 68, 10117 Berlin.", "I'm vegetarian but eat fish occasionally.",
        "Notes from standup: Ana is blocked on the migration, Tom is reviewing the API PR.",
        "My daughter's school pick-up is at 15:30 on weekdays.",
        "Use metric units and British spelling in my documents.", "Je préfère qu'on me réponde en français.",
        "Mein Zahnarzttermin ist am Dienstag um 8 Uhr.", "Prefiero los vuelos por la mañana y asiento de pasillo.",
        "Eu moro em Lisboa desde 2019.", "La riunione con il cliente è stata spostata a giovedì.",
        "Ik werk op maandag en woensdag thuis.", "Spotkanie zespołu jest w każdy czwartek o 10:00.",
        "Я предпочитаю короткие ответы без лишних деталей.", "毎週金曜日にジムに行きます。", "我喜欢喝绿茶，不喝咖啡。",
        "Jag är allergisk mot nötter.", "Toplantı notlarını pazartesiye kadar gönder.", "저는 매운 음식을 좋아해요.",
        "The project codename is Bluebird; it launches in Q2.", "My cat is called Miso and she's 4 years old.",
        "Send the weekly summary to the whole team every Friday afternoon.",
        "The client prefers PDFs over Word documents.", "Our fiscal year starts on 1 April.",
        "I use VS Code with the Vim extension.", "The offsite is in Lisbon from 3 to 5 June.",
        "Budget approved: 12,000 euros for the new laptops.", "My timezone is Europe/Madrid.",
        "Her preferred name is Sam, pronouns they/them.",
    ),
    "code and config without secrets": (
        "postgres://app_user@db.internal:5432/orders", "password_min_length = 12",
        "Pass the secret with --password-file /run/secrets/db instead of a flag.", "DB_PASSWORD=${DB_PASSWORD}",
        "password: ${{ secrets.DB_PASSWORD }}", "valueFrom:\n  secretKeyRef:\n    name: db-creds\n    key: password",
        "Server=sql01;Database=Payroll;Integrated Security=true;",
        "ssh -i ~/.ssh/id_ed25519 deploy@bastion.example.com",
        "mysql -u root -p shop   # prompts for the password",
        "curl -u admin https://jenkins.example.com/api/json prompts for the password interactively.",
        "cat token.txt | docker login --username ci --password-stdin registry.example.com",
        "read -s -p 'Password: ' PASSWORD", "password = getpass.getpass('Password: ')",
        "if len(password) < 12: raise ValueError('password too short')", "redis://cache-01.internal:6379/0",
        "git clone https://alice@github.com/acme/infra.git",
        "jdbc:postgresql://db.example.com:5432/ledger?ssl=true&sslmode=verify-full",
        "api_key = os.environ['STRIPE_API_KEY']",
        f"Add my public key to the server: ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAI{_c(v.BASE62 + '+/', 43)} alice@laptop",
        "AUTH_PASSWORD_VALIDATORS = [{'NAME': 'django.contrib.auth.password_validation.MinimumLengthValidator'}]",
        "export API_KEY=<your-api-key>", "token: YOUR_TOKEN_HERE", "PGPASSFILE=/home/app/.pgpass",
        "auth:\n  method: oidc\n  client_id: dashboard-web\n  client_secret_file: /etc/dashboard/secret",
        "aws configure --profile backup  # asks for the keys interactively",
        "CREATE TABLE users (id serial PRIMARY KEY, email text UNIQUE, password_hash text NOT NULL);",
        "ALTER ROLE report VALID UNTIL '2025-12-31';", "ENV PIP_INDEX_URL=https://pypi.org/simple",
        "sshpass -f ~/.ssh/pass.txt ssh deploy@10.1.2.3",
        "hashed = bcrypt.hashpw(password.encode(), bcrypt.gensalt(rounds=12))",
        "-----BEGIN PUBLIC KEY-----\n" + "\n".join(_c(v.BASE62 + "+/", 64) for _ in range(3))
        + "\n-----END PUBLIC KEY-----",
        "spring.datasource.password=${SPRING_DATASOURCE_PASSWORD}",
        "The webhook URL is https://hooks.example.com/ingest; the signing secret is read from the environment.",
    ),
}
