"""Third independent write-policy corpus, part B: what developers and operators paste into an agent.

Written by an independent author who never saw the detectors, their tests or the other corpora. The texts are
shell history, config files, connection strings, code, logs, HTTP traffic, keys, hashes and vendor tokens as
engineers really paste them, plus harmless near misses of the same shapes (env lookups, vault references,
placeholders, public keys, digests, ids, talk about secrets). Every value is fake: it is drawn at import time
from one seeded `random.Random`, in a fixed order, so the corpus is the same on every run.
"""

from __future__ import annotations

import base64
import hashlib
import json
import random
import zlib
from itertools import pairwise
from urllib.parse import quote

from primer_memory import corpus_values as cv

BASE62, DIGITS, HEX, LOWER, UPPER = cv.BASE62, cv.DIGITS, cv.HEX, cv.LOWER, cv.UPPER
b64url_json = cv.b64url_json

R = random.Random(4_815_162_342)
B64 = BASE62 + "+/"
URL = BASE62 + "-_"
B32 = UPPER + "234567"
B58 = "123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz"
GH62 = DIGITS + UPPER + LOWER
CRYPT = "./" + DIGITS + UPPER + LOWER
LA = LOWER + DIGITS
BECH = "qpzry9x8gf2tvdw0s3jn54khce6mua7l"
WORDS = ["Winter", "Falcon", "orange", "Kestrel", "Pa55word", "deploy", "Zebra", "Marzipan", "Vinter", "Sakura",
         "Oktober", "granite", "Welcome", "Backup", "Juniper", "Tomcat"]
BIP39 = ["apple", "armor", "blanket", "cabin", "canal", "clever", "copper", "crane", "dinosaur", "eagle", "elbow",
         "fatal", "fiscal", "galaxy", "garden", "glimpse", "harvest", "hockey", "island", "jungle", "kitten",
         "ladder", "lemon", "magnet", "marble", "napkin", "ocean", "orbit", "pepper", "pioneer", "quantum", "rabbit",
         "river", "saddle", "salmon", "timber", "tornado", "umbrella", "velvet", "violin", "walnut", "wisdom"]


def c(alphabet: str, n: int) -> str:
    return cv.chars(R, alphabet, n)


def h(n: int) -> str:
    return cv.chars(R, HEX, n)


def uid() -> str:
    return f"{h(8)}-{h(4)}-4{h(3)}-{R.choice('89ab')}{h(3)}-{h(12)}"


def rb64(nbytes: int) -> str:
    return base64.b64encode(R.randbytes(nbytes)).decode()


def enc(text: str) -> str:
    return base64.b64encode(text.encode()).decode()


def pw() -> str:
    """A password as people set them on servers: a word with digits and a symbol, or a generated string."""
    if R.random() < 0.4:
        return R.choice(WORDS) + c(DIGITS, R.randint(2, 4)) + R.choice("!#%*@.")
    return cv.mixed(R, BASE62 + "!#%^*-_=", R.randint(14, 22))


def upw() -> str:
    """A password that can sit in a URL without escaping."""
    return cv.mixed(R, BASE62 + "-_.~", R.randint(14, 24))


def akia() -> str:
    return "AKIA" + c(UPPER + "234567", 16)


def ghtok(prefix: str) -> str:
    """GitHub's documented shape: prefix, 30 random base62 characters, then their CRC32 in 6 base62 digits."""
    body, tail = c(BASE62, 30), ""
    n = zlib.crc32(body.encode())
    for _ in range(6):
        n, r = divmod(n, 62)
        tail = GH62[r] + tail
    return prefix + body + tail


def jwt(payload: dict[str, object], alg: str = "HS256", sig: int = 43) -> str:
    return f"{b64url_json({'alg': alg, 'typ': 'JWT'})}.{b64url_json(payload)}.{c(URL, sig)}"


def pem(label: str, head: str, lines: int, width: int = 64) -> str:
    body = head + c(B64, width * lines + R.randint(8, width - 8) - len(head))
    rows = "\n".join(body[i:i + width] for i in range(0, len(body), width))
    return f"-----BEGIN {label}-----\n{rows}\n-----END {label}-----"


def card(prefix: str, length: int) -> str:
    body = prefix + c(DIGITS, length - len(prefix) - 1)
    return body + cv.luhn_digit(body)


def grp(number: str, *cuts: int) -> str:
    """The number split with spaces at the given offsets, as it is printed on the card."""
    bounds = (0, *cuts, len(number))
    return " ".join(number[i:j] for i, j in pairwise(bounds))


def wif() -> str:
    """A compressed-key Bitcoin WIF with a real base58check checksum."""
    payload = b"\x80" + R.randbytes(32) + b"\x01"
    data = payload + hashlib.sha256(hashlib.sha256(payload).digest()).digest()[:4]
    n, out = int.from_bytes(data, "big"), ""
    while n:
        n, r = divmod(n, 58)
        out = B58[r] + out
    return out


RSA = "MIIEpAIBAAKCAQEA"
PKCS8 = "MIIEvgIBADANBgkqhkiG9w0BAQEFAASCBKgwggSkAgEAAoIBAQ"
OSSH = "b3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQAAAAAAAAABAAAAMwAAAAtzc2gtZW"

THIRD_B_SECRETS: dict[str, list[str]] = {
    "shell_history": [
        f"curl -u 'admin:{pw()}' https://jenkins.acme-internal.io/job/deploy-api/lastBuild/api/json?pretty=true",
        (f'curl -sS -H "Authorization: Bearer {ghtok("ghp_")}" https://api.github.com/repos/acme/infra/actions/runs'
        " | jq .total_count"),
        f"mysql -h db-prod-2.acme.lan -u billing -p'{pw()}' billing -e 'SELECT COUNT(*) FROM invoices;'",
        f"PGPASSWORD='{pw()}' psql -h 10.20.3.14 -U analytics -d warehouse -c '\\dt public.*'",
        f'mongosh "mongodb://root:{upw()}@mongo-0.mongo.db.svc.cluster.local:27017/admin?authSource=admin"',
        f"redis-cli -h cache-prod.acme.lan -p 6380 --tls -a '{pw()}' --no-auth-warning INFO keyspace",
        (f"sqlcmd -S tcp:sql-rpt01.corp.acme.local,1433 -U sa -P '{pw()}' -d master -Q \"SELECT name FROM"
        " sys.databases\""),
        ('ldapsearch -x -H ldaps://dc01.corp.acme.com -D "CN=svc-ldap,OU=Service Accounts,DC=corp,DC=acme,DC=com" '
        f"-w '{pw()}' -b \"DC=corp,DC=acme,DC=com\" \"(sAMAccountName=jdoe)\" memberOf"),
        f"smbclient //fs01.corp.acme.com/finance -U 'CORP\\backup-svc%{pw()}' -c 'recurse; ls'",
        (f"for h in web1 web2 web3; do sshpass -p '{pw()}' ssh -o StrictHostKeyChecking=no deploy@$h "
        "'sudo systemctl restart api'; done"),
        f"sudo htpasswd -b -c /etc/nginx/.htpasswd grafana '{pw()}'",
        (f"keytool -importkeystore -srckeystore tomcat.p12 -srcstoretype PKCS12 -srcstorepass '{pw()}' "
        f"-destkeystore tomcat.jks -deststorepass '{pw()}'"),
        f"openssl pkcs12 -export -in api.crt -inkey api.key -certfile chain.pem -out api.pfx -passout pass:{upw()}",
        (f"kubectl -n payments create secret generic stripe-creds --from-literal=api-key=sk_live_{c(BASE62, 99)} "
        f"--from-literal=webhook-secret=whsec_{c(BASE62, 32)}"),
        (f"export AWS_ACCESS_KEY_ID={akia()}\nexport AWS_SECRET_ACCESS_KEY={c(B64, 40)}\n"
        "aws s3 sync s3://acme-backups/pg/ ./restore/ --region eu-west-1"),
        f"git clone https://oauth2:glpat-{c(URL, 20)}@gitlab.acme.io/platform/terraform-modules.git",
    ],
    "dotfiles": [
        (f"# ~/.npmrc\nregistry=https://registry.npmjs.org/\n//registry.npmjs.org/:_authToken=npm_{c(BASE62, 36)}\n"
        f"@acme:registry=https://npm.pkg.github.com\n//npm.pkg.github.com/:_authToken={ghtok('ghp_')}"),
        ("[distutils]\nindex-servers =\n    pypi\n\n[pypi]\nusername = __token__\n"
        f"password = pypi-AgEIcHlwaS5vcmc{c(URL, 150)}"),
        ("# /etc/pip.conf on the build agents\n[global]\n"
        f"index-url = https://ci-reader:{upw()}@nexus.acme.io/repository/pypi-all/simple\ntimeout = 60"),
        (f"$ cat ~/.git-credentials\nhttps://jdoe:{ghtok('ghp_')}@github.com\n"
        f"https://jdoe:ATBB{c(BASE62, 32)}{h(8).upper()}@bitbucket.org"),
        (f"machine api.heroku.com\n  login ops@acme.io\n  password HRKU-AA{c(URL, 58)}\n"
        f"machine ftp.partner-edi.net\n  login acme_upload\n  password {pw()}"),
        (f"# hostname:port:database:username:password\ndb-primary.acme.lan:5432:*:replicator:{pw()}\n"
        f"*:5432:reporting:looker:{pw()}"),
        (f"[default]\naws_access_key_id = {akia()}\naws_secret_access_key = {c(B64, 40)}\n\n[prod-admin]\n"
        f"aws_access_key_id = ASIA{c(UPPER + '234567', 16)}\naws_secret_access_key = {c(B64, 40)}\n"
        f"aws_session_token = IQoJb3JpZ2luX2VjE{c(B64, 300)}"),
        "apiVersion: v1\nkind: Config\nclusters:\n- cluster:\n    server: https://10.0.0.10:6443\n  name: prod\n"
        "contexts:\n- context: {cluster: prod, user: ci}\n  name: prod\nusers:\n- name: ci\n  user:\n    token: "
        + jwt({"iss": "kubernetes/serviceaccount", "kubernetes.io/serviceaccount/namespace": "ci",
               "sub": "system:serviceaccount:ci:deployer"}, "RS256", 342),
        "users:\n- name: kubernetes-admin\n  user:\n    client-certificate-data: "
        + enc(pem("CERTIFICATE", "MIIDITCCAgmgAwIBAgII", 6)) + "\n    client-key-data: "
        + enc(pem("RSA PRIVATE KEY", RSA, 8)),
        (f'{{\n  "auths": {{\n    "ghcr.io": {{"auth": "{enc("jdoe:" + ghtok("ghp_"))}"}},\n'
        f'    "https://index.docker.io/v1/": {{"auth": "{enc("acmeci:dckr_pat_" + c(URL, 27))}"}}\n  }}\n}}'),
        (f"# ~/.config/gh/hosts.yml\ngithub.com:\n    user: jdoe\n    oauth_token: {ghtok('gho_')}\n"
        "    git_protocol: https"),
        ("<servers>\n  <server>\n    <id>nexus-releases</id>\n    <username>deployer</username>\n"
        f"    <password>{pw()}</password>\n  </server>\n</servers>"),
    ],
    "app_config": [
        (f"APP_ENV=production\nAPP_KEY=base64:{rb64(32)}\nDB_HOST=10.0.4.12\nDB_USERNAME=forge\nDB_PASSWORD={pw()}\n"
        f"MAIL_MAILER=smtp\nMAIL_PASSWORD=SG.{c(URL, 22)}.{c(URL, 43)}"),
        f'database:\n  host: pg.internal\n  port: 5432\n  user: orders_svc\n  password: "{pw()}"\n  pool_size: 20',
        (f'[server]\nport = 8080\n\n[smtp]\nhost = "smtp.mailgun.org"\nuser = "postmaster@mg.acme.io"\n'
        f'password = "key-{h(32)}"'),
        (f"[security]\nadmin_user = admin\nadmin_password = {pw()}\nsecret_key = {c(BASE62, 20)}\n\n"
        "[server]\nroot_url = https://grafana.acme.io/"),
        (f'{{\n  "port": 3000,\n  "jwtSecret": "{c(BASE62, 48)}",\n  "db": {{"host": "mysql", "user": "api", '
        f'"password": "{pw()}"}}\n}}'),
        ("spring.datasource.url=jdbc:postgresql://pg-main:5432/ledger\nspring.datasource.username=ledger\n"
        f"spring.datasource.password={pw()}\nspring.jpa.hibernate.ddl-auto=validate"),
        ("location /upstream-api/ {\n    proxy_pass https://partner.example.net/;\n"
        f'    proxy_set_header Authorization "Basic {enc("acme:" + pw())}";\n}}'),
        ('<Location "/intranet">\n  AuthType Basic\n  AuthBasicProvider ldap\n'
        '  AuthLDAPURL "ldaps://dc01.corp.acme.com/DC=corp,DC=acme,DC=com?sAMAccountName"\n'
        f'  AuthLDAPBindDN "svc-apache@corp.acme.com"\n  AuthLDAPBindPassword "{pw()}"\n</Location>'),
        (f"define( 'DB_NAME', 'wp_shop' );\ndefine( 'DB_USER', 'wp_shop' );\ndefine( 'DB_PASSWORD', '{pw()}' );\n"
        f"define( 'AUTH_KEY', '{c(BASE62 + '!@#%^&*()-_[]<>~+=,.;:/?|', 64)}' );"),
        ('<connectionStrings>\n  <add name="Default" providerName="System.Data.SqlClient"\n'
        f'       connectionString="Server=sql02;Database=Erp;User Id=erp_web;Password={pw()};" />\n'
        "</connectionStrings>"),
        (f'"ConnectionStrings": {{\n  "Redis": "acme.redis.cache.windows.net:6380,password={rb64(32)},ssl=True",\n'
        f'  "Db": "Host=pg;Database=shop;Username=shop;Password={pw()}"\n}},\n"Jwt": {{ "Key": "{c(BASE62, 64)}" }}'),
        ("spring:\n  security:\n    oauth2:\n      client:\n        registration:\n          google:\n"
        f"            client-id: {c(DIGITS, 12)}-{c(LA, 32)}.apps.googleusercontent.com\n"
        f"            client-secret: GOCSPX-{c(URL, 28)}"),
        (f"SECRET_KEY = '{c(BASE62 + '!@#%^&*(-_=+)', 50)}'\nDEBUG = False\nDATABASES = {{'default': {{\n"
        f"    'ENGINE': 'django.db.backends.postgresql', 'NAME': 'cms', 'USER': 'cms', 'PASSWORD': '{pw()}'}}}}"),
    ],
    "infra_as_code": [
        (f'provider "aws" {{\n  region     = "eu-west-1"\n  access_key = "{akia()}"\n'
        f'  secret_key = "{c(B64, 40)}"\n}}'),
        f'db_master_password   = "{pw()}"\ncloudflare_api_token = "{c(URL, 40)}"\ninstance_type        = "t3.large"',
        (f"# group_vars/db.yml\nmysql_root_password: {pw()}\nmysql_replication_user: repl\n"
        f"mysql_replication_password: {pw()}\nansible_become_pass: {pw()}"),
        ("apiVersion: v1\nkind: Secret\nmetadata:\n  name: orders-db\n  namespace: orders\ntype: Opaque\ndata:\n"
        f"  username: {enc('orders_app')}\n  password: {enc(pw())}\n  host: {enc('pg-orders.acme.lan')}"),
        ("services:\n  db:\n    image: postgres:16\n    environment:\n      POSTGRES_USER: app\n"
        f"      POSTGRES_PASSWORD: {pw()}\n  minio:\n    image: minio/minio\n    environment:\n"
        f"      MINIO_ROOT_USER: admin\n      MINIO_ROOT_PASSWORD: {upw()}"),
        ("jobs:\n  sonar:\n    runs-on: ubuntu-latest\n    env:\n"
        f"      SONAR_TOKEN: squ_{h(40)}\n      SONAR_HOST_URL: https://sonar.acme.io\n"
        "    steps:\n      - uses: actions/checkout@v4"),
        ("release:\n  stage: deploy\n  script:\n"
        f'    - \'curl --header "PRIVATE-TOKEN: glpat-{c(URL, 20)}" --upload-file dist/app.tgz '
        '"$CI_API_V4_URL/projects/42/packages/generic/app/1.0/app.tgz"\''),
        (f"FROM node:20-alpine\nARG NPM_TOKEN=npm_{c(BASE62, 36)}\n"
        'RUN echo "//registry.npmjs.org/:_authToken=${NPM_TOKEN}" > .npmrc && npm ci'),
        ("  ReportingDB:\n    Type: AWS::RDS::DBInstance\n    Properties:\n      Engine: postgres\n"
        f"      MasterUsername: reporting\n      MasterUserPassword: '{pw()}'"),
    ],
    "connection_strings": [
        f"jdbc:mysql://db.acme.lan:3306/shop?user=shop&password={upw()}&useSSL=true&serverTimezone=UTC",
        f"jdbc:oracle:thin:scott/{upw()}@//ora-prod.acme.lan:1521/ORCLPDB1",
        ("Driver={ODBC Driver 18 for SQL Server};Server=tcp:acme-sql.database.windows.net,1433;"
        f"Database=finance;Uid=fin_reader;Pwd={{{pw()}}};Encrypt=yes;"),
        f"Data Source=10.1.8.20,1433;Initial Catalog=Warehouse;User ID=etl;Password={pw()};TrustServerCertificate=True",
        f"SQLALCHEMY_DATABASE_URI = 'postgresql+psycopg2://airflow:{upw()}@pg.airflow.svc:5432/airflow'",
        f"CELERY_BROKER_URL=amqps://celery:{upw()}@rabbit.acme.io:5671/tasks",
        f"mosquitto_pub -L mqtt://iot-gw:{upw()}@broker.acme.io:1883/plant/line3/temp -m 21.4",
        f"EMAIL_URL=smtp+tls://apikey:SG.{c(URL, 22)}.{c(URL, 43)}@smtp.sendgrid.net:587",
        f"ftp://upload:{upw()}@ftp.partner-edi.net/incoming/orders_20240502.csv",
        f"MONGO_URL=mongodb+srv://app:{upw()}@cluster0.ab1cd.mongodb.net/prod?retryWrites=true&w=majority",
        f"REDIS_URL=rediss://default:{upw()}@redis-14532.c55.eu-central-1-1.ec2.cloud.redislabs.com:14532",
        f"DefaultEndpointsProtocol=https;AccountName=acmelogs;AccountKey={rb64(64)};EndpointSuffix=core.windows.net",
        ("sasl.mechanism=PLAIN\nsecurity.protocol=SASL_SSL\nsasl.jaas.config=org.apache.kafka.common.security.plain."
        f'PlainLoginModule required username="{c(UPPER + DIGITS, 16)}" password="{c(B64, 64)}";'),
        (f"# /etc/nslcd.conf\nuri ldaps://ldap.acme.org\nbase dc=acme,dc=org\nbinddn cn=nslcd,ou=svc,dc=acme,dc=org\n"
        f"bindpw {pw()}"),
    ],
    "code_snippets": [
        (f"s3 = boto3.client(\n    's3',\n    aws_access_key_id='{akia()}',\n"
        f"    aws_secret_access_key='{c(B64, 40)}',\n)"),
        f"const stripe = require('stripe')('sk_live_{c(BASE62, 99)}');",
        (f'db, err := sql.Open("postgres", "host=pg.acme.lan user=inventory password={upw()} dbname=inv'
        ' sslmode=disable")'),
        f'Connection conn = DriverManager.getConnection("jdbc:mysql://db:3306/hr", "hr_app", "{pw()}");',
        ('var smtp = new SmtpClient("smtp.office365.com", 587) {\n    EnableSsl = true,\n'
        f'    Credentials = new NetworkCredential("noreply@acme.com", "{pw()}")\n}};'),
        (f'client = Octokit::Client.new(access_token: "{ghtok("ghp_")}")\n'
        f'client.repos("acme").each {{ |r| puts r.name }}'),
        f'$mysqli = new mysqli("localhost", "wp", "{pw()}", "wordpress");',
        (f'let resp = client.get("https://api.acme.io/v2/orders")\n    .bearer_auth("{c(URL, 48)}")\n'
        '    .send().await?;'),
        f'private const val OPENAI_API_KEY = "sk-{c(BASE62, 20)}T3BlbkFJ{c(BASE62, 20)}"',
        (f"$secure = ConvertTo-SecureString '{pw()}' -AsPlainText -Force\n"
        "$cred = New-Object System.Management.Automation.PSCredential('CORP\\svc-deploy', $secure)"),
        f"CREATE USER 'app'@'%' IDENTIFIED BY '{pw()}';\nGRANT ALL PRIVILEGES ON shop.* TO 'app'@'%';",
        (f"r = requests.get('https://jira.acme.io/rest/api/2/myself', auth=('jdoe@acme.io', 'ATATT3xFfGF0"
        f"{c(URL, 170)}={h(8).upper()}'))"),
        "export const supabaseAdmin = createClient(\n  'https://xyzcompany.supabase.co',\n  '"
        + jwt({"iss": "supabase", "ref": c(LOWER, 20), "role": "service_role", "iat": 1714000000}) + "'\n)",
    ],
    "logs_and_traces": [
        ("2024-05-02T11:03:17.442Z DEBUG urllib3 send: b'GET /v1/charges?limit=3 HTTP/1.1\\r\\nHost: api.stripe.com"
        f"\\r\\nAuthorization: Bearer rk_live_{c(BASE62, 99)}\\r\\n'"),
        ('Traceback (most recent call last):\n  File "/app/db.py", line 14, in connect\n'
        '    conn = psycopg2.connect(dsn)\n'
        f"psycopg2.OperationalError: connection to server failed\n    dsn = 'postgresql://app:{upw()}@10.4.2.9/app'"),
        ("***************************\nAPPLICATION FAILED TO START\n***************************\n"
        "Failed to bind properties under 'spring.datasource.password' to java.lang.String:\n"
        f'    Property: spring.datasource.password\n    Value: "{pw()}"\n    Origin: System Environment Property'),
        (f'10.0.3.7 - - [02/May/2024:09:14:55 +0000] "GET /api/export.csv?access_token={c(URL, 40)} HTTP/1.1" 200 '
        '48213 "-" "python-requests/2.31.0"'),
        (f"+ docker login -u acmeci -p dckr_pat_{c(URL, 27)} registry-1.docker.io\n"
        "WARNING! Using --password via the CLI is insecure. Use --password-stdin.\nLogin Succeeded"),
        ("send: b'POST /oauth2/token HTTP/1.1\\r\\nContent-Type: application/x-www-form-urlencoded\\r\\n\\r\\n"
        f"grant_type=client_credentials&client_id=reporting-svc&client_secret={c(URL, 40)}'"),
        (f"    Environment:\n      DATABASE_URL:  postgres://billing:{upw()}@pg-billing:5432/billing\n"
        "      LOG_LEVEL:     info"),
        ('  # aws_db_instance.reporting will be created\n  + resource "aws_db_instance" "reporting" {\n'
        f'      + password = "{pw()}"\n      + username = "reporting"'),
    ],
    "http_traffic": [
        ("POST /v1/messages HTTP/1.1\nHost: api.anthropic.com\n"
        f"x-api-key: sk-ant-api03-{c(URL, 93)}AA\nanthropic-version: 2023-06-01\ncontent-type: application/json"),
        f"GET /api/v4/health HTTP/1.1\nHost: registry.acme.io\nAuthorization: Basic {enc('svc-monitor:' + pw())}",
        f"Cookie: sessionid={c(LA, 32)}; csrftoken={c(BASE62, 32)}; django_language=de",
        (f"HTTP/1.1 302 Found\nLocation: /dashboard\nSet-Cookie: _gitlab_session={h(32)}; path=/; secure; HttpOnly\n"
        f"Set-Cookie: remember_user_token={c(URL, 120)}; expires=Fri, 31 May 2024 10:00:00 GMT; secure"),
        (f'{{"access_token": "{c(URL, 96)}", "token_type": "Bearer", "expires_in": 3599,\n'
        f' "refresh_token": "1//{c(URL, 100)}", "scope": "https://www.googleapis.com/auth/drive.readonly"}}'),
        (f'curl -X POST "https://api.datadoghq.eu/api/v1/events" -H "DD-API-KEY: {h(32)}" '
        f'-H "DD-APPLICATION-KEY: {h(40)}" -d @event.json'),
        f"CONNECT api.openai.com:443 HTTP/1.1\nProxy-Authorization: Basic {enc('jdoe:' + pw())}",
        (f'{{"name": "Authorization", "value": "SSWS 00{c(URL, 40)}"}},\n{{"name": "Accept", "value": '
        '"application/json"}'),
    ],
    "webhooks_and_signed_urls": [
        (f"SLACK_WEBHOOK=https://hooks.slack.com/services/T0{c(UPPER + DIGITS, 8)}/B0{c(UPPER + DIGITS, 9)}/"
        f"{c(BASE62, 24)}"),
        f"https://discord.com/api/webhooks/{R.randrange(10**17, 10**19)}/{c(URL, 68)}",
        f"https://acme.webhook.office.com/webhookb2/{uid()}@{uid()}/IncomingWebhook/{h(32)}/{uid()}/V2{c(URL, 43)}",
        (f"https://acme-exports.s3.eu-west-1.amazonaws.com/reports/q1.csv?X-Amz-Algorithm=AWS4-HMAC-SHA256"
        f"&X-Amz-Credential={akia()}%2F20240502%2Feu-west-1%2Fs3%2Faws4_request&X-Amz-Date=20240502T101500Z"
        f"&X-Amz-Expires=604800&X-Amz-SignedHeaders=host&X-Amz-Signature={h(64)}"),
        ("https://storage.googleapis.com/acme-ml/datasets/train-00001.tfrecord?X-Goog-Algorithm=GOOG4-RSA-SHA256"
        "&X-Goog-Credential=signer%40acme-ml.iam.gserviceaccount.com%2F20240502%2Fauto%2Fstorage%2Fgoog4_request"
        f"&X-Goog-Date=20240502T101500Z&X-Goog-Expires=3600&X-Goog-SignedHeaders=host&X-Goog-Signature={h(512)}"),
        ("https://acmebackups.blob.core.windows.net/sql/prod-full.bak?sp=r&st=2024-05-02T09:00:00Z"
        f"&se=2024-05-09T17:00:00Z&spr=https&sv=2022-11-02&sr=b&sig={quote(rb64(32), safe='')}"),
        (f"curl 'https://api.telegram.org/bot{R.randrange(10**9, 10**10)}:AA{c(URL, 33)}/sendMessage"
        "?chat_id=-1001234567890&text=deploy%20done'"),
        f"STRIPE_WEBHOOK_SECRET=whsec_{c(BASE62, 32)}\nGITHUB_WEBHOOK_SECRET={h(40)}",
    ],
    "password_hashes": [
        ("INSERT INTO users (id, email, password_hash) VALUES\n"
        f"(1042, 'm.keller@acme.io', '$2b$12${c(CRYPT, 53)}');"),
        f"grafana:$apr1${c(CRYPT, 8)}${c(CRYPT, 22)}\nkibana:{{SHA}}{rb64(20)}",
        f"root:$6${c(CRYPT, 16)}${c(CRYPT, 86)}:19842:0:99999:7:::",
        (f"Administrator:500:aad3b435b51404eeaad3b435b51404ee:{h(32)}:::\n"
        f"svc_sql:1107:aad3b435b51404eeaad3b435b51404ee:{h(32)}:::"),
        f">>> User.objects.get(username='admin').password\n'pbkdf2_sha256$720000${c(BASE62, 22)}${rb64(32)}'",
        f"ADMIN_TOKEN='$argon2id$v=19$m=65540,t=3,p=4${rb64(32).rstrip('=')}${rb64(32).rstrip('=')}'",
        (f"postgres=# SELECT rolname, rolpassword FROM pg_authid WHERE rolname = 'app';\n"
        f" app | SCRAM-SHA-256$4096:{rb64(16)}${rb64(32)}:{rb64(32)}"),
        f"dn: uid=jdoe,ou=people,dc=acme,dc=org\nobjectClass: inetOrgPerson\nuserPassword: {{SSHA}}{rb64(24)}",
    ],
    "private_keys": [
        pem("RSA PRIVATE KEY", RSA, 10),
        pem("EC PRIVATE KEY", "MHcCAQEEI", 3),
        "$ cat /etc/ssl/private/api.acme.io.key\n" + pem("PRIVATE KEY", PKCS8, 12),
        pem("OPENSSH PRIVATE KEY", OSSH, 5, 70),
        "-----BEGIN PGP PRIVATE KEY BLOCK-----\n\n" + "\n".join(c(B64, 64) for _ in range(8))
        + f"\n={c(B64, 4)}\n-----END PGP PRIVATE KEY BLOCK-----",
        (f"[Interface]\nPrivateKey = {rb64(32)}\nAddress = 10.8.0.2/24\nDNS = 10.8.0.1\n\n[Peer]\n"
        f"PublicKey = {rb64(32)}\nEndpoint = vpn.acme.io:51820\nAllowedIPs = 10.0.0.0/8"),
        (f"# created: 2024-05-02T10:11:12+02:00\n# public key: age1{c(BECH, 58)}\n"
        f"AGE-SECRET-KEY-1{c(BECH.upper(), 58)}"),
        (f"PuTTY-User-Key-File-3: ssh-ed25519\nEncryption: none\nComment: ops@jumpbox\nPublic-Lines: 2\n"
        f"AAAAC3NzaC1lZDI1NTE5AAAAI{c(B64, 39)}\n{c(B64, 20)}\nPrivate-Lines: 1\nAAAAI{c(B64, 39)}\n"
        f"Private-MAC: {h(64)}"),
        "-----BEGIN RSA PRIVATE KEY-----\nProc-Type: 4,ENCRYPTED\nDEK-Info: AES-256-CBC,"
        + h(32).upper() + "\n\n" + "\n".join(c(B64, 64) for _ in range(6))
        + "\n-----END RSA PRIVATE KEY-----\n(passphrase is " + pw() + ")",
        json.dumps({"type": "service_account", "project_id": "acme-ledger", "private_key_id": h(40),
                    "private_key": pem("PRIVATE KEY", PKCS8, 4) + "\n",
                    "client_email": "etl@acme-ledger.iam.gserviceaccount.com", "client_id": c(DIGITS, 21)},
                   indent=2),
    ],
    "tokens_cloud_devops": [
        f"export GH_TOKEN=github_pat_{c(BASE62, 22)}_{c(BASE62, 59)}",
        (f"gitlab-runner register --non-interactive --url https://gitlab.acme.io --token glrt-{c(URL, 20)} "
        "--executor docker"),
        f"doctl auth init -t dop_v1_{h(64)}",
        f"sudo tailscale up --authkey=tskey-auth-k{c(BASE62, 11)}CNTRL-{c(BASE62, 33)} --advertise-tags=tag:ci",
        f'{{"credentials": {{"app.terraform.io": {{"token": "{c(BASE62, 14)}.atlasv1.{c(BASE62, 67)}"}}}}}}',
        f"DOPPLER_TOKEN=dp.st.prd.{c(BASE62, 43)}\nPULUMI_ACCESS_TOKEN=pul-{h(40)}",
        f'FLY_API_TOKEN="FlyV1 fm2_{c(B64, 180)}"',
        (f"AZURE_DEVOPS_EXT_PAT={c(LOWER + '234567', 52)}\n"
        "az devops configure --defaults organization=https://dev.azure.com/acme"),
        f"ALIBABA_CLOUD_ACCESS_KEY_ID=LTAI{c(BASE62, 20)}\nALIBABA_CLOUD_ACCESS_KEY_SECRET={c(BASE62, 30)}",
        f"TENCENTCLOUD_SECRET_ID=AKID{c(BASE62, 32)}\nTENCENTCLOUD_SECRET_KEY={c(BASE62, 32)}",
        f"kubeadm join 10.0.0.10:6443 --token {c(LA, 6)}.{c(LA, 16)} --discovery-token-ca-cert-hash sha256:{h(64)}",
    ],
    "tokens_payments_messaging": [
        f"SQUARE_ACCESS_TOKEN=EAAA{c(URL, 60)}\nSQUARE_ENVIRONMENT=production",
        f'gateway = braintree.BraintreeGateway(access_token="access_token$production${c(LA, 16)}${h(32)}")',
        f"SHOPIFY_ADMIN_TOKEN=shpat_{h(32)}\nSHOPIFY_API_SECRET=shpss_{h(32)}",
        f"PAYPAL_CLIENT_ID=A{c(URL, 79)}\nPAYPAL_CLIENT_SECRET=E{c(URL, 79)}",
        f"RAZORPAY_KEY_ID=rzp_live_{c(BASE62, 14)}\nRAZORPAY_KEY_SECRET={c(BASE62, 24)}",
        f"TWILIO_ACCOUNT_SID=AC{h(32)}\nTWILIO_AUTH_TOKEN={h(32)}",
        f'curl -X POST https://fcm.googleapis.com/fcm/send -H "Authorization: key=AAAA{c(URL, 7)}:APA91b{c(URL, 134)}"',
        (f"SLACK_BOT_TOKEN=xoxb-{c(DIGITS, 12)}-{c(DIGITS, 13)}-{c(BASE62, 24)}\n"
        f"SLACK_APP_TOKEN=xapp-1-A0{c(UPPER + DIGITS, 9)}-{c(DIGITS, 13)}-{h(64)}"),
    ],
    "tokens_ai_data_observability": [
        f'client = OpenAI(api_key="sk-proj-{c(URL, 156)}")',
        f"GROQ_API_KEY=gsk_{c(BASE62, 52)}\nREPLICATE_API_TOKEN=r8_{c(BASE62, 37)}",
        f"huggingface-cli login --token hf_{c(UPPER + LOWER, 34)}",
        f"genai.configure(api_key='AIza{c(URL, 35)}')\nmodel = genai.GenerativeModel('gemini-1.5-pro')",
        f"LANGCHAIN_API_KEY=lsv2_pt_{h(32)}_{h(10)}\nLANGFUSE_SECRET_KEY=sk-lf-{uid()}",
        f"NEW_RELIC_API_KEY=NRAK-{c(UPPER + DIGITS, 27)}\nNEW_RELIC_LICENSE_KEY={h(36)}NRAL",
        (f"SENTRY_AUTH_TOKEN=sntrys_{b64url_json({'iat': 1714640000.1, 'url': 'https://sentry.io', 'org': 'acme'})}"
        f"_{c(B64, 43)}"),
        f"GRAFANA_SA_TOKEN=glsa_{c(BASE62, 32)}_{h(8)}",
        f"curl -H 'Authorization: ApiKey {enc(c(URL, 20) + ':' + c(URL, 22))}' https://es.acme.io:9200/_cat/indices",
        f"DATABRICKS_HOST=https://adb-{c(DIGITS, 16)}.4.azuredatabricks.net\nDATABRICKS_TOKEN=dapi{h(32)}",
    ],
    "otp_and_wallets": [
        f"otpauth://totp/ACME%20AWS:ops@acme.io?secret={c(B32, 32)}&issuer=ACME%20AWS&algorithm=SHA1&digits=6",
        f"Shared root account MFA seed (for the break-glass runbook): {c(B32, 16)}",
        "GitHub recovery codes for the acme-bot account:\n" + "\n".join(f"{h(5)}-{h(5)}" for _ in range(6)),
        "wallet backup, do not lose: " + " ".join(R.choice(BIP39) for _ in range(12)),
        f"networks: {{\n  mainnet: {{ url: process.env.RPC_URL, accounts: ['0x{h(64)}'] }}\n}}",
        f"bitcoin-cli importprivkey {wif()} \"cold-2024\" false",
        "$ cat ~/.config/solana/id.json\n" + json.dumps([R.randrange(256) for _ in range(64)], separators=(",", ":")),
    ],
    "personal_data_in_ops": [
        (f"2024-05-02 14:22:09 WARN PaymentService charge failed pan={card('4', 16)} exp=09/27 cvc={c(DIGITS, 3)} "
        "amount=129.00 EUR"),
        ("-- copied from prod to reproduce OPS-3321, delete after\nINSERT INTO customers (id, name, ssn, dob) VALUES "
        f"(88213, 'Dana Whitfield', '{cv.fake_ssn(R)}', '1984-03-17');"),
        f"id;nome;cpf;cidade\n3391;Marina Costa;{cv.fake_cpf(R)};Campinas\n3392;João Pereira;{cv.fake_cpf(R)};Recife",
        f'{{"employee_id": "E-1182", "name": "Owen Hartley", "ni_number": "{cv.fake_uk_ni(R)}", "payroll": "monthly"}}',
        f"DEBUG kyc.verify payload={{'name': 'Priya Raman', 'aadhaar': '{cv.fake_aadhaar(R)}', 'consent': True}}",
        f"Zendesk #48112: please update the payroll record, SIN {cv.fake_sin(R)}, employee Luc Tremblay",
        f"finance asked to retry invoice INV-2291 with card {grp(card('37', 15), 4, 10)} exp 11/26 CID {c(DIGITS, 4)}",
        f"UPDATE patients SET nir = '{cv.fake_insee(R)}' WHERE id = 5521;  -- correction demandée par le support",
    ],
    "prose_commits_tickets": [
        (f"commit {h(40)}\nAuthor: Tom Reyes <tom@acme.io>\n\n    fix(ci): use the new registry password\n\n"
        f"    old one expired; the new one is {pw()} until we move it into Vault"),
        f"OPS-2291 Staging DB is back. Creds for QA: user qa_readonly / pass {pw()} (host pg-stg.acme.lan)",
        f"Testing notes: I used my personal token {ghtok('ghp_')} against the API locally, will revoke after merge.",
        (f"Postmortem INC-7741: {akia()} / {c(B64, 40)} was committed in config/aws.yml at 09:12 and used "
        "from an unknown IP at 09:31."),
        f"# TODO: Passwort für den SFTP-Export später in Vault verschieben\nSFTP_USER = 'export'\nSFTP_PASS = '{pw()}'",
        f"Salut, le mot de passe root du serveur de recette est {pw()} (à changer après la démo).",
        f"Ojo: el token del bot de Slack para pruebas es xoxb-{c(DIGITS, 12)}-{c(DIGITS, 13)}-{c(BASE62, 24)}",
        f"本番DBのパスワードは {pw()} です。共有後に変更してください。",
        f"Pessoal, a senha do usuário deploy no Jenkins agora é {pw()}",
        f"Hasło do panelu admina na stagingu: {pw()} (login: admin)",
        f"# 阿里云 AccessKey，临时用一下\nALIYUN_AK = 'LTAI{c(BASE62, 20)}'\nALIYUN_SK = '{c(BASE62, 30)}'",
        f'// пароль от боевой базы, не коммитить!\nconst DB_PASS = "{pw()}";',
    ],
}

THIRD_B_HARMLESS: dict[str, list[str]] = {
    "shell_without_secrets": [
        'curl -sS -H "Authorization: Bearer $GITHUB_TOKEN" https://api.github.com/user | jq .login',
        "mysql -h db-prod-2.acme.lan -u billing -p billing   # prompts for the password",
        'PGPASSWORD="$(vault kv get -field=password secret/warehouse/analytics)" psql -h 10.20.3.14 -U analytics',
        "docker login ghcr.io -u jdoe --password-stdin < ~/.config/ghcr-token",
        ("kubectl -n orders create secret generic orders-db --from-env-file=./orders.env --dry-run=client -o yaml \\\n"
        "  | kubeseal -o yaml > sealed-orders-db.yaml"),
        "export SSHPASS=$(pass show infra/deploy) && sshpass -e ssh deploy@web1 uptime",
        'REDISCLI_AUTH="$(cat /run/secrets/redis_password)" redis-cli -h cache-prod.acme.lan --tls PING',
        "sudo htpasswd -B /etc/nginx/.htpasswd grafana   # asks for the new password twice",
        "keytool -list -v -keystore truststore.jks -storepass:env TRUSTSTORE_PASSWORD | grep -A2 Alias",
        'openssl req -new -newkey rsa:3072 -nodes -keyout api.key -out api.csr -subj "/CN=api.acme.io/O=ACME"',
        ('ldapsearch -x -W -H ldaps://dc01.corp.acme.com -D "cn=jdoe,ou=people,dc=acme,dc=org" -b "dc=acme,dc=org"'
        ' uid=jdoe'),
        "smbclient //fs01.corp.acme.com/finance -A ~/.smbcredentials -c 'ls'",
        'echo "$CR_PAT" | helm registry login ghcr.io --username jdoe --password-stdin',
        'ssh-keygen -t ed25519 -a 100 -C "jdoe@laptop" -f ~/.ssh/id_ed25519_acme',
    ],
    "config_placeholders": [
        "DB_HOST=localhost\nDB_USER=app\nDB_PASSWORD=\nSTRIPE_SECRET_KEY=sk_test_replace_me\nSENTRY_DSN=",
        "database:\n  host: ${DB_HOST}\n  user: ${DB_USER}\n  password: ${DB_PASSWORD}\n  pool_size: 20",
        ("spring:\n  datasource:\n    url: jdbc:postgresql://pg-main:5432/ledger\n"
        "    username: ${SPRING_DATASOURCE_USERNAME}\n    password: ${SPRING_DATASOURCE_PASSWORD}"),
        'SECRET_KEY = os.environ["DJANGO_SECRET_KEY"]\nDATABASES = {"default": env.db("DATABASE_URL")}',
        ('{\n  "KeyVault": { "VaultUri": "https://acme-prod-kv.vault.azure.net/" },\n'
        '  "ConnectionStrings": { "Db": "" }\n}'),
        '<add name="Default" connectionString="Server=sql02;Database=Erp;Integrated Security=SSPI;" />',
        'location /admin/ {\n    auth_basic "Restricted";\n    auth_basic_user_file /etc/nginx/.htpasswd;\n}',
        "//registry.npmjs.org/:_authToken=${NPM_TOKEN}\n@acme:registry=https://npm.pkg.github.com",
        "[pypi]\nusername = __token__\npassword = <your PyPI API token, starting with pypi->",
        ("[profile prod-readonly]\nsso_start_url = https://acme.awsapps.com/start\nsso_region = eu-west-1\n"
        "sso_account_id = 123456789012\nsso_role_name = ReadOnly\nregion = eu-west-1"),
        ("users:\n- name: eks-prod\n  user:\n    exec:\n      apiVersion: client.authentication.k8s.io/v1beta1\n"
        "      command: aws\n      args: [eks, get-token, --cluster-name, prod]"),
        ("Host bastion\n  HostName 203.0.113.10\n  User jdoe\n  IdentityFile ~/.ssh/id_ed25519_acme\n"
        "Host 10.0.*\n  ProxyJump bastion"),
        "define( 'DB_PASSWORD', getenv('WORDPRESS_DB_PASSWORD') );",
        '"passwordPolicy": "length(14) and upperCase(1) and digits(1) and notUsername and passwordHistory(24)"',
        "[security]\nadmin_user = admin\nadmin_password = $__file{/run/secrets/grafana_admin_password}",
        "machine api.example.com\n  login YOUR_USERNAME\n  password YOUR_API_TOKEN",
    ],
    "infra_references": [
        ('data "aws_secretsmanager_secret_version" "db" {\n  secret_id = "prod/orders/db"\n}\n'
        "password = jsondecode(data.aws_secretsmanager_secret_version.db.secret_string)[\"password\"]"),
        'mysql_root_password: "{{ vault_mysql_root_password }}"\nansible_become_pass: "{{ vault_become_pass }}"',
        ("env:\n  - name: DB_PASSWORD\n    valueFrom:\n      secretKeyRef:\n        name: orders-db\n"
        "        key: password"),
        ("apiVersion: external-secrets.io/v1beta1\nkind: ExternalSecret\nmetadata:\n  name: orders-db\nspec:\n"
        "  secretStoreRef: {name: vault-backend, kind: ClusterSecretStore}\n"
        "  data:\n  - secretKey: password\n    remoteRef: {key: secret/orders/db, property: password}"),
        ("services:\n  db:\n    image: postgres:16\n    environment:\n      POSTGRES_PASSWORD_FILE: /run/secrets/pg\n"
        "    secrets: [pg]\nsecrets:\n  pg:\n    file: ./secrets/pg_password.txt"),
        ("permissions:\n  id-token: write\nsteps:\n  - run: npm publish\n    env:\n"
        "      NODE_AUTH_TOKEN: ${{ secrets.NPM_TOKEN }}"),
        'docker login -u "$CI_REGISTRY_USER" -p "$CI_REGISTRY_PASSWORD" "$CI_REGISTRY"',
        ("withCredentials([usernamePassword(credentialsId: 'nexus-deployer',\n"
        "                 usernameVariable: 'NEXUS_USER', passwordVariable: 'NEXUS_PASS')]) {\n"
        "    sh 'mvn -s settings.xml deploy'\n}"),
        "MasterUserPassword: '{{resolve:secretsmanager:prod/reporting/db:SecretString:password}}'",
        ("postgresql:\n  auth:\n    existingSecret: keycloak-pg\n    secretKeys:\n"
        "      adminPasswordKey: postgres-password"),
    ],
    "connections_without_secrets": [
        "jdbc:postgresql://pg.acme.lan:5432/orders?ssl=true&sslmode=verify-full",
        "Server=sql01;Database=ERP;Integrated Security=SSPI;TrustServerCertificate=True",
        'DATABASE_URL = f"postgresql+psycopg2://{user}:{password}@{host}:5432/{db}"',
        "mongodb+srv://app:<db_password>@cluster0.ab1cd.mongodb.net/?retryWrites=true&w=majority",
        "REDIS_URL=redis://localhost:6379/0",
        "EMAIL_URL=smtp://mailhog:1025  # local dev only, no auth",
        "ldaps://ldap.acme.org:636/ou=people,dc=acme,dc=org?uid?sub?(objectClass=inetOrgPerson)",
        "AzureWebJobsStorage=UseDevelopmentStorage=true",
        ("jdbc:sqlserver://acme-sql.database.windows.net:1433;database=finance;"
        "authentication=ActiveDirectoryManagedIdentity"),
        "AMQP_URL=amqp://rabbitmq.internal:5672/%2F  # user and password come from AMQP_USER / AMQP_PASSWORD",
    ],
    "code_env_lookups": [
        'api_key = os.environ["OPENAI_API_KEY"]\nclient = OpenAI(api_key=api_key)',
        's3 = boto3.Session(profile_name="prod-readonly").client("s3")',
        'dsn := os.Getenv("DATABASE_URL")\nif dsn == "" {\n    log.Fatal("DATABASE_URL is not set")\n}',
        'String password = Optional.ofNullable(System.getenv("DB_PASSWORD")).orElseThrow();',
        'var key = builder.Configuration["Stripe:SecretKey"];  // dotnet user-secrets in dev, Key Vault in prod',
        "require('dotenv').config();\nconst stripe = require('stripe')(process.env.STRIPE_SECRET_KEY);",
        'let token = std::env::var("GITHUB_TOKEN").expect("GITHUB_TOKEN must be set");',
        "$cred = Get-Secret -Name DeployCredential -Vault AcmeKeePass",
        "Stripe.api_key = Rails.application.credentials.dig(:stripe, :secret_key)",
        'variable "db_password" {\n  type      = string\n  sensitive = true\n}',
    ],
    "public_keys_and_certs": [
        f"ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAI{c(B64, 43)} jdoe@laptop",
        f'command="/usr/local/bin/backup-only",no-pty ssh-rsa AAAAB3NzaC1yc2EAAAADAQABAAABgQ{c(B64, 512)}= backup@nas',
        pem("PUBLIC KEY", "MIIBIjANBgkqhkiG9w0BAQEFAAOCAQ8AMIIBCgKCAQEA", 6),
        "# intermediate CA for *.acme.io\n" + pem("CERTIFICATE", "MIIFBjCCAu6gAwIBAgIR", 12),
        "-----BEGIN PGP PUBLIC KEY BLOCK-----\n\nmQINBGY" + c(B64, 57) + "\n" + "\n".join(c(B64, 64) for _ in range(5))
        + f"\n={c(B64, 4)}\n-----END PGP PUBLIC KEY BLOCK-----",
        (f"github.com ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAI{c(B64, 43)}\n|1|{rb64(20)}|{rb64(20)} ecdsa-sha2-nistp256 "
        f"AAAAE2VjZHNhLXNoYTItbmlzdHAyNTYAAAAIbmlzdHAyNTYAAABBB{c(B64, 88)}="),
        (f"pub   ed25519 2024-01-15 [SC] [expires: 2026-01-14]\n      {h(40).upper()}\n"
        "uid           [ultimate] Jane Doe <jane@acme.io>\nsub   cv25519 2024-01-15 [E]"),
        f"$ ssh-keygen -lf ~/.ssh/id_ed25519_acme.pub\n256 SHA256:{c(B64, 43)} jdoe@laptop (ED25519)",
        f"[Peer]\n# laptop-jdoe\nPublicKey = {rb64(32)}\nAllowedIPs = 10.8.0.7/32\nPersistentKeepalive = 25",
        (f'{{"keys": [{{"kty": "RSA", "use": "sig", "alg": "RS256", "kid": "{h(16)}", '
        f'"n": "{c(URL, 342)}", "e": "AQAB"}}]}}'),
        (f"Serial Number: {':'.join(h(2) for _ in range(16))}\nIssuer: C=US, O=Let's Encrypt, CN=R11\n"
        f"Subject: CN=api.acme.io\nSHA256 Fingerprint={':'.join(h(2).upper() for _ in range(32))}"),
    ],
    "ids_hashes_digests": [
        (f"$ git log --oneline -3\n{h(7)} fix(api): handle empty cart\n{h(7)} chore: bump pgx to 5.6.0\n"
        f"{h(7)} Merge pull request #412 from acme/export-csv"),
        f"image: ghcr.io/acme/orders-api@sha256:{h(64)}",
        f"{h(64)}  acme-cli_2.4.1_linux_amd64.tar.gz\n{h(64)}  acme-cli_2.4.1_darwin_arm64.tar.gz",
        f"INSERT INTO tenants (id, slug) VALUES ('{uid()}', 'globex'), ('{uid()}', 'initech');",
        f"traceparent: 00-{h(32)}-{h(16)}-01\nX-Request-Id: {uid()}",
        f"2024-05-02 03:00:11   48213912 raw/events/dt=2024-05-01/part-00000-{uid()}-c000.snappy.parquet",
        f"key_id = \"arn:aws:kms:eu-west-1:123456789012:key/{uid()}\"",
        f'"node_modules/lodash": {{"version": "4.17.21", "integrity": "sha512-{rb64(64)}"}}',
        f"github.com/jackc/pgx/v5 v5.6.0 h1:{rb64(32)}\ngithub.com/jackc/pgx/v5 v5.6.0/go.mod h1:{rb64(32)}",
        f"requests==2.31.0 \\\n    --hash=sha256:{h(64)} \\\n    --hash=sha256:{h(64)}",
        (f'provider "registry.terraform.io/hashicorp/aws" {{\n  version = "5.49.0"\n  hashes = [\n'
        f'    "h1:{rb64(32)}",\n    "zh:{h(64)}",\n  ]\n}}'),
        f"refund created: re_{c(BASE62, 24)} for charge ch_{c(BASE62, 24)} (customer cus_{c(BASE62, 14)})",
        ("// publishable key, designed to ship in the browser bundle\n"
        f"const stripe = Stripe('pk_live_{c(BASE62, 24)}');"),
        f"x-amz-request-id: {c(UPPER + DIGITS, 16)}\nx-amz-id-2: {rb64(56)}",
        f"version https://git-lfs.github.com/spec/v1\noid sha256:{h(64)}\nsize 104857600",
    ],
    "masked_and_documented": [
        "2024-05-02 09:14:55 DEBUG http.client header: Authorization: Bearer [REDACTED]",
        "Found key in config/app.yml: sk_live_************************4f2a (masked by the pre-commit hook)",
        'ConnectionString: "Server=sql02;Database=Erp;User Id=erp_web;Password=********;"',
        ("From the AWS docs: aws_access_key_id = AKIAIOSFODNN7EXAMPLE, "
        "aws_secret_access_key = wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY (example values, not real)."),
        ("The sample token from the jwt.io debugger, for the workshop slides: eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9."
        "eyJzdWIiOiIxMjM0NTY3ODkwIiwibmFtZSI6IkpvaG4gRG9lIiwiaWF0IjoxNTE2MjM5MDIyfQ."
        "SflKxwRJSMeKKF2QT4fwpMeJf36POk6yJV_adQssw5c"),
        "Use Stripe's test card 4242 4242 4242 4242 with any future expiry and any CVC in test mode.",
        "export GITHUB_TOKEN=ghp_xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx  # replace with your own token",
        "README: set DATABASE_URL=postgres://user:password@localhost:5432/dbname before running migrations.",
        "The default admin password is changeme; the installer forces you to change it on first login.",
        "$ kubectl -n orders get secret orders-db\nNAME        TYPE     DATA   AGE\norders-db   Opaque   3      41d",
        f'{{"RuleID": "generic-api-key", "File": "deploy/values.yaml", "Secret": "REDACTED", "Commit": "{h(40)}"}}',
        "SLACK_BOT_TOKEN=xoxb-your-bot-token\nSLACK_SIGNING_SECRET=your-signing-secret",
    ],
    "talk_about_secrets": [
        ("Rotated the Stripe restricted key this morning; the old one is revoked in the dashboard and the new one "
        "lives in Vault at secret/payments/stripe."),
        ("INC-7741 follow-up: the leaked token was revoked 14 minutes after the push; we enabled push protection "
        "and secret scanning on all repos."),
        "How do I stop psql asking for a password? Put the entry in ~/.pgpass and chmod 0600 it.",
        "Review: please don't log the full Authorization header, mask everything after the first 4 characters.",
        "Runbook: to rotate the CI service account token, delete the token Secret and let the controller recreate it.",
        ("The JWT signing secret must be at least 256 bits; generate it with `openssl rand -base64 32` and store it "
        "in the secret manager, never in the repo."),
        "Bitte Passwörter nicht ins Ticket schreiben, sondern über 1Password teilen.",
        "La clé API a été révoquée ; la nouvelle se trouve dans le coffre Vault de l'équipe.",
        "Rotamos las credenciales de la base de datos cada 90 días con una Lambda de Secrets Manager.",
        "APIキーは環境変数から読み込むように修正しました。コードには含めていません。",
        "密钥已轮换，旧的 AccessKey 已禁用，新的存放在 KMS 里。",
        "Add gitleaks to pre-commit so nobody commits an API key again (OPS-3012).",
        "Password policy: at least 14 characters, no reuse of the last 24, lockout after 10 failed attempts.",
    ],
    "other_meanings": [
        "Prompt used 18,432 tokens and the completion 912; the model's context window is 200k tokens.",
        "tokenize: NAME 'def' / NAME 'main' / OP '(' / OP ')' / OP ':' / NEWLINE / INDENT",
        "for key, value in sorted(settings.items()):\n    print(f\"{key:>24} = {value}\")",
        ("ALTER TABLE order_items ADD PRIMARY KEY (order_id, line_no);\n"
        "ALTER TABLE order_items ADD FOREIGN KEY (order_id) REFERENCES orders(id);"),
        ("$ kubectl describe secret tls-wildcard\nType:  kubernetes.io/tls\n\nData\n====\n"
        "tls.crt:  3960 bytes\ntls.key:  1675 bytes"),
        "gcloud services enable secretmanager.googleapis.com --project acme-ledger",
        "The rate limiter is a token bucket: 100 tokens, refilled at 10 tokens per second per API key.",
        "{% csrf_token %} must be inside every POST form, otherwise Django answers 403.",
        '<input type="password" name="password" autocomplete="current-password" minlength="14" required>',
        "jdoe@bastion: Permission denied (publickey,keyboard-interactive).",
        "json.decoder.JSONDecodeError: Unexpected token '}' at line 3 column 14 (char 41)",
    ],
}
