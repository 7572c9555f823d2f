"""Secrets known by where they stand rather than by their shape (round 5).

Each new author's text showed the same kind of miss: the value is ordinary, the place says it is a
secret. These finders read the place:

- the line after a password word: a question and its answer ("what's the password?" / "it was
  ndd4g2jYwoRI"), or a heading and its value ("password rotated" / "New one: ...");
- an account and its password side by side: "design@acme.example / 4NJz6OSStXEi";
- a table (CSV, TSV, Markdown) whose header names a secret column ("password", "cvc", "pin");
- a text message's one-time code: "451687 is your verification code";
- a session cookie by its name: "JSESSIONID=332A...".

Values must still look chosen or random where the place alone is weak, so that "password reset
done" followed by "Ticket INC0048213" is not refused. Every window is bounded and judged once per
distinct text (policy_scan.first_in_windows), so the cost stays linear.
"""

from __future__ import annotations

import re

from ..scan import Span, _high_entropy, _literal, first_in_windows, has_digit, lower_in_place, positions
from ..wordlist import labels
from .values import ABOUT_PASSWORDS, CJK_CHAR, GLUED, NOT_A_VALUE, PASSWORD_TRIGGERS, STRIP, chosen_value

# ----------------------------------------------------------------------------- the line after a password word

_CANDIDATE = re.compile(r"[^\W\d_][^\s\d]{0,63}\d|\d\S{0,63}[^\W\d_]")  # a letter then a digit, or the reverse
_YEAR_LIKE = re.compile(r"(?:19|20)\d\d")
_FOLLOW = 200  # how far past the word's own line an answer may be (two short lines)
# Words after which a token is a public reference, not an answer: "Ticket: INC0048213", "Request-ID: 7fA9c2Lm0Q".
_REFERENCE_WORDS = frozenset("""id ids ref reference request trace ticket order case booking invoice tracking commit
build version sku serial model part job run incident change pr issue no. nr. number #""".split())


def _line_tokens(line: str) -> list[tuple[int, str]]:
    """(offset, token) for each whitespace-separated token of `line`, trimmed of quotes and brackets."""
    out, offset = [], 0
    for raw in line.split():
        found = line.index(raw, offset)
        offset = found + len(raw)
        token = raw.strip(STRIP)
        if token:
            out.append((found + raw.find(token), token))
    return out


# Asked for by another name, on a line that is a question: "what's the login for the shared drive?" / "> WA0Z...".
_ASKED = ("login", "logon", "creds", "credentials", "code", "pin", "passcode", "combination", "combo", "key", "token")
_NUMERIC_ASKED = frozenset({"code", "pin", "passcode", "combination", "combo"})
_NUMBER_ANSWER = re.compile(r"#?\d{4,8}[#*]?")
_FOLLOW_AT = re.compile("|".join(re.escape(w) for w in sorted(PASSWORD_TRIGGERS + _ASKED, key=len, reverse=True)))


# A setting with a number ("password_min_length=12", "max_age:90"): a policy's knob, not an answer (issue 48).
_SETTING = re.compile(r"[A-Za-z_][\w.-]*[=:]\d{1,6}")


def _answer_in(line: str, numeric: bool = False) -> Span | None:
    """The first strongly chosen token in `line` that is no reference, address, path or placeholder
    (`numeric`: or a line that is only a PIN-like number, give or take a word: "> 4471", "it's 4471")."""
    previous = ""
    tokens = _line_tokens(line)
    if numeric and len(tokens) <= 3:
        for offset, token in tokens:
            if _NUMBER_ANSWER.fullmatch(token) and not _YEAR_LIKE.fullmatch(token):
                return offset, offset + len(token)
    for offset, token in tokens:
        key = previous.rstrip(":=").lower()
        if (chosen_value(token) and key not in _REFERENCE_WORDS and not key.endswith(("id", "-id", "_id"))
                and not CJK_CHAR.search(token) and not _SETTING.fullmatch(token)):
            return offset, offset + len(token)
        previous = token
    return None


def _judge_followup(window: str) -> Span | None:
    """A password word at window[1:] whose own line holds no value, then an answer on one of the next two lines."""
    if GLUED.match(window):
        return None
    low = lower_in_place(window)
    word = _FOLLOW_AT.match(low, 1)
    if word is None or (GLUED.match(window, word.end()) and window[1].isascii()) or word.group() == "pass":
        return None  # 'pass' alone is a boarding pass or a mountain pass more often than a password
    rest = window[word.end():]
    first_line, newline, after = rest.partition("\n")
    if not newline:
        return None
    asked = word.group() in _ASKED
    if asked and "?" not in first_line:
        return None  # a code or key word counts only in a question; its answer follows
    following = first_line.split()
    if following and following[0].lower().strip(STRIP) in ABOUT_PASSWORDS:
        return None  # "password policy" / "- 12 characters": talk about passwords, not one
    if _answer_in(first_line) is not None:
        return None  # a value on the word's own line is password_nearby's to judge
    base = word.end() + len(first_line) + 1
    if not asked and _CANDIDATE.search(after) is None:
        return None  # no token with letters and digits below: nothing to judge token by token
    for line in after.split("\n")[:2]:
        span = _answer_in(line, asked and word.group() in _NUMERIC_ASKED)
        if span is not None:
            return base + span[0], base + span[1]
        base += len(line) + 1
    return None


# The sentence after "my password" (issue 48): "I reset my password this morning. It's Tr0ub4dor&3 now." The
# possessive comes from the word list (words.csv, purpose "mine"), up to two words before the password word.
_MINE = labels("mine")
_MINE_BEFORE = 24
_PASSWORD_THINGS = frozenset("""manager managers policy policies generator hint hints field fields box form page screen
vault app apps list file spreadsheet reset""".split())
_SENTENCE_BREAK = re.compile(r"[.!?。！？](?:[ \t]+|(?=[^\x00-\x7f]))")


def _says_mine(before: str) -> bool:
    before = before.replace("\0", " ")  # the padding of a window at the text's start
    words = before.split()[-3:]
    return any(w.strip(STRIP) in _MINE for w in words) or any(before.endswith(m) for m in _MINE
                                                               if CJK_CHAR.search(m))


def _judge_next_sentence(window: str) -> Span | None:
    """'my password' in a sentence that gives no value, and a value in the one sentence after it."""
    low = lower_in_place(window)
    word = _FOLLOW_AT.match(low, _MINE_BEFORE)
    if word is None or word.group() in _ASKED or (GLUED.match(window, word.end()) and window[_MINE_BEFORE].isascii()):
        return None
    before = low[:_MINE_BEFORE]
    if GLUED.match(window, _MINE_BEFORE - 1) or not _says_mine(before[max(before.rfind("\n"), 0):]):
        return None
    line = window[word.end():].split("\n", 1)[0]
    following = line.split()
    if following and following[0].lower().strip(STRIP) in _PASSWORD_THINGS:
        return None  # "my password manager ..." names a thing, not the password
    cut = _SENTENCE_BREAK.search(line)
    if cut is None or _answer_in(line[:cut.start()]) is not None:
        return None  # no next sentence on this line, or a value in the word's own (password_nearby's to judge)
    after = line[cut.end():]
    end = _SENTENCE_BREAK.search(after)
    sentence = after[:end.start()] if end else after
    span = _answer_in(sentence) if not CJK_CHAR.search(sentence) else _ascii_answer_in(sentence)
    base = word.end() + cut.end()
    return None if span is None else (base + span[0], base + span[1])


_ASCII_RUN = re.compile(r"[!-~]{6,}")


def _ascii_answer_in(sentence: str) -> Span | None:
    """In a sentence written without spaces ("新しいのはTr0ub4dor&3です"), the first run of ASCII that is a value."""
    for run in _ASCII_RUN.finditer(sentence):
        token = run.group().strip(STRIP)
        if chosen_value(token):
            start = run.start() + run.group().find(token)
            return start, start + len(token)
    return None


def find_password_followup(text: str) -> Span | None:
    """'> what's the password they gave you?' then 'it was ndd4g2jYwoRI': an answer on the next lines; or 'my
    password' and the value in the next sentence ('I reset my password. It's Tr0ub4dor&3 now.')."""
    if not has_digit(text):
        return None  # every answer this finder takes has a digit
    if "\n" in text:
        span = first_in_windows(text, positions(text, PASSWORD_TRIGGERS + _ASKED), 1, 100 + _FOLLOW,
                                _judge_followup)
        if span is not None:
            return span
    return first_in_windows(text, positions(text, PASSWORD_TRIGGERS), _MINE_BEFORE, 160, _judge_next_sentence)


# ----------------------------------------------------------------------------- an account and its password

_EMAIL = r"[\w.+-]+@[\w-]+(?:\.[\w-]+)+"
# An e-mail address, a separator (" / ", " | ", ":" or ", "), and a value that looks chosen.
_PAIR = re.compile(rf"(?<![\w.+-])(?P<user>{_EMAIL})(?:[ \t]*[/|][ \t]*|:|,[ \t]*|[ \t]+(?:pw|pwd|pass)[:=]?[ \t]*)"
                   r"(?P<value>[^\s/|,\"'`<>]{8,64})")


def _judge_pair(window: str) -> Span | None:
    for match in _PAIR.finditer(window):
        value = match.group("value").rstrip(".;)")
        if chosen_value(value):
            return match.start("value"), match.start("value") + len(value)
    return None


def find_login_pair(text: str) -> Span | None:
    """An e-mail address and a chosen-looking password side by side: 'design@acme.example / 4NJz6OSStXEi'."""
    if "@" not in text or not has_digit(text):
        return None
    starts = [m.start() for m in re.finditer("@", text)]
    return first_in_windows(text, starts, 64, 100, _judge_pair)


# ----------------------------------------------------------------------------- tables with a secret column

# Round 7: columns of identity and bank numbers, as a spreadsheet of staff or customers names them.
_ID_COLUMNS = """nationalid nationalidnumber idcardnumber passportnumber passportno bankaccount bankcardnumber cpf dni
nif nie codicefiscale steuerid 身份证号 身份证号码 身份证 银行卡号 银行卡 卡号 银行账号 マイナンバー 個人番号 주민등록번호 계좌번호"""
# Header names (lowered, spaces, '_', '-' and '.' removed) whose column holds a secret.
_SECRET_COLUMNS = frozenset("""password passwd pwd pass passcode passphrase pin pincode puk cvv cvc cvv2 csc
securitycode cardnumber card cardno ccnumber ccnum creditcard creditcardnumber pan iban accountnumber acctno
ssn sin nino socialsecuritynumber taxid token accesstoken apikey apitoken secret secretkey clientsecret otp totp
totpsecret 2fasecret mfasecret seed seedphrase mnemonic privatekey wifipassword wifikey psk loginpassword
userpassword motdepasse mdp passwort kennwort contraseña clave senha wachtwoord hasło haslo пароль パスワード
密码 密碼 비밀번호 şifre sifre lösenord salasana heslo jelszó parola""".split()) | frozenset(_ID_COLUMNS.split())
_NUMERIC_COLUMNS = frozenset("""pin pincode puk cvv cvc cvv2 csc securitycode cardnumber card cardno ccnumber
ccnum creditcard creditcardnumber pan iban accountnumber acctno ssn sin nino socialsecuritynumber taxid""".split()
                             ) | frozenset(_ID_COLUMNS.split())
_COLUMN_TRIGGERS = ("pass", "pwd", "pin", "puk", "cvv", "cvc", "csc", "card", "cc", "pan", "iban", "acc", "acct",
                    "ssn", "sin", "nino", "social", "tax", "token", "api", "secret", "client", "otp", "totp", "2fa",
                    "mfa", "seed", "mnemonic", "private", "wifi", "psk", "login", "user", "security", "mot", "mdp",
                    "kennwort", "contraseña", "clave", "senha", "wachtwoord", "has", "пароль", "パスワード", "密码",
                    "密碼", "비밀번호", "şifre", "sifre", "lösenord", "salasana", "heslo", "jelszó", "parola",
                    "national", "idcard", "id card", "passport", "bank", "cpf", "dni", "nif", "nie", "codice", "steuer",
                    "身份证", "银行", "卡号", "マイナンバー", "個人番号", "주민등록번호", "계좌번호")
_DELIMITERS = (",", ";", "\t", "|")
_NOT_FILLED = frozenset("""yes no y n true false set unset none null nil n/a na - -- — ? ok changed expired reset
required optional hidden masked redacted unknown tbd todo empty blank same ✓ ✔ x""".split())
_MASK = re.compile(r"[*•●·#]{3,}|x{3,}", re.I)  # three or more in a row; "xx*" in "Vuwhxx*661" is a value
_ROWS = 6  # data rows read under a header: a table whose first rows are masked is masked


def _cells(line: str, delimiter: str) -> list[tuple[int, str]]:
    """(offset, stripped cell) of each cell of a table line; Markdown's outer pipes make no cells."""
    out, offset = [], 0
    for cell in line.split(delimiter):
        stripped = cell.strip().strip("\"'`")
        out.append((offset + cell.find(stripped) if stripped else offset, stripped))
        offset += len(cell) + 1
    if delimiter == "|" and out and not out[0][1]:
        out = out[1:]
    if delimiter == "|" and out and not out[-1][1]:
        out = out[:-1]
    return out


def _filled(value: str, numeric: bool) -> bool:
    """A cell that holds a value rather than a placeholder, a mask or a yes/no."""
    if len(value) < 3 or value.lower() in _NOT_FILLED or _MASK.search(value) or _literal(value) is None:
        return False
    if NOT_A_VALUE.fullmatch(value) and not numeric:
        return False
    return sum(c.isdigit() for c in value) >= 3 if numeric else True


def _judge_table(window: str) -> Span | None:
    """A header line at the window's first line with a secret column, then a filled cell under it."""
    lines = window.split("\n")
    header = lines[0]
    for delimiter in _DELIMITERS:
        if delimiter not in header:
            continue
        names = _cells(header, delimiter)
        columns = [i for i, (_, name) in enumerate(names)
                   if re.sub(r"[\s_\-.]", "", name.lower()) in _SECRET_COLUMNS]
        if not columns or len(names) < 2:
            continue
        base = len(header) + 1
        for line in lines[1:1 + _ROWS]:
            cells = _cells(line, delimiter)
            if delimiter == "|" and set(line.strip()) <= set("|-: "):
                base += len(line) + 1
                continue  # Markdown's |---|---| line
            if len(cells) == len(names):
                for i in columns:
                    offset, value = cells[i]
                    numeric = re.sub(r"[\s_\-.]", "", names[i][1].lower()) in _NUMERIC_COLUMNS
                    if _filled(value, numeric):
                        return base + offset, base + offset + len(value)
            base += len(line) + 1
    return None


def _judge_table_window(window: str) -> Span | None:
    """The window runs from the trigger's line start (after the last newline before it) to some rows below.

    The trigger's line is a header only if the line above it is not a row of the same table: in
    'field,type' / 'password,string' the word 'password' is data, not a column name.
    """
    newline = window.rfind("\n", 0, _LINE_BEFORE)
    cut = max(newline + 1, len(window) - len(window.lstrip("\0")))
    if newline > 0:
        above = window[window.rfind("\n", 0, newline) + 1:newline].lstrip("\0")
        header = window[cut:window.find("\n", cut) if "\n" in window[cut:] else len(window)]
        if any(d in above and len(_cells(above, d)) == len(_cells(header, d)) for d in _DELIMITERS if d in header):
            return None
    span = _judge_table(window[cut:])
    return None if span is None else (span[0] + cut, span[1] + cut)


_LINE_BEFORE = 160  # how far back the header line may start


def find_table_secret(text: str) -> Span | None:
    """A filled cell under a header that names a secret: 'site,user,password' then 'bank,ana,Rosa!2024'."""
    if "\n" not in text or not any(d in text for d in _DELIMITERS):
        return None
    return first_in_windows(text, positions(text, _COLUMN_TRIGGERS), _LINE_BEFORE, 1200, _judge_table_window)


# ----------------------------------------------------------------------------- one-time codes in notifications

_OWNER = (r"(?:your|votre|ton|ihr|dein|deine|ihre|tu|su|seu|sua|o\s+seu|o\s+teu|a\s+sua|il\s+tuo|il\s+suo|"
          r"twój|twoj|ваш|твой|jouw|uw|din|ditt|senin|kodunuz|anda|mã)")
_ONE_TIME_WORDS = (r"(?:code|otp|pin|passcode|password|codice|código|codigo|kod|код|kode|koodi|kód|cod|código|"
                   r"bestätigungscode|verifizierungscode|sicherheitscode|doğrulama|xác\s+minh)")
# Read from each number in a window: what follows it (a connector, an owner, a code word), or what surrounds it
# ("Use 482913 to verify"). Anchored matches at each number cost far less than a search of the window.
# It starts with a bare digit, so re skips ahead to digits; what stands before is checked behind that digit.
_NUMBER = re.compile(r"(?P<value>\d(?:(?<![\w-]\d)|(?<=g-\d))(?:\d\d[- ]\d{3}|\d{3,7}))(?![\w-])", re.I)
_NOTICE_TAIL = re.compile(rf"[ \t]*(?P<connector>is|est|ist|es|é|è|to|jest|—|–|-|:|là|adalah|este)?[ \t]*"
                          rf"{_OWNER}\b[^\n.]{{0,30}}?{_ONE_TIME_WORDS}", re.I)
_NOTICE_CJK_TAIL = re.compile(r"[^\n\d]{0,8}?(?:验证码|驗證碼|认证码|動態碼|校验码|認証コード|確認コード|認証番号|인증번호|인증 번호)")
# "Use 482913 to verify your account", "Saisissez 482913 pour confirmer": a code handed over with what it does.
_USE_BEFORE = re.compile(r"(?:use|enter|type|utilisez|saisissez|entrez|verwenden\s+sie|geben\s+sie|usa|introduce|"
                         r"ingresa|digite|insira|inserisci|wpisz|użyj|введите|используйте|gebruik|voer)\s+"
                         r"(?:(?:the|this|le|ce|den|diesen|el|este|o|il|questo|het|deze)\s+)?"
                         r"(?:(?:code|código|codice|kod|код|verification\s+code|otp)\s+)?$", re.I)
_USE_AFTER = re.compile(r"\s+(?:to|pour|um|para|per|aby|для|чтобы|om)\s+(?:verify|sign|log|confirm|complete|reset|"
                        r"authenticate|access|finish|vérifier|confirmer|valider|se\s+connecter|bestätigen|"
                        r"verificar|confirmar|iniciar|verificare|confermare|accedere|potwierdzić|zweryfikować|"
                        r"подтвердить|войти|te\s+bevestigen|in\s+te\s+loggen)", re.I)
_USE_TRIGGERS = ("use", "enter", "type", "utilisez", "saisissez", "entrez", "verwenden", "geben", "usa",
                 "introduce", "ingresa", "digite", "insira", "inserisci", "wpisz", "użyj", "введите", "используйте",
                 "gebruik", "voer")
_NOTICE_TRIGGERS = ("code", "otp", "pin", "passcode", "password", "codice", "código", "codigo", "kod", "код", "kode",
                    "koodi", "kód", "cod", "doğrulama", "xác", "验证码", "驗證碼", "认证码", "動態碼", "校验码",
                    "認証コード", "確認コード", "認証番号", "인증번호", "인증 번호")
_YEAR = re.compile(r"(?:19|20)\d\d")
_USE_REACH = 45  # how far before the number "use the verification code" may start


# One pass over the window's numbers in C: only a number that some ending follows comes back to Python.
_NUMBER_THEN = re.compile(rf"{_NUMBER.pattern}(?=(?P<tail>{_NOTICE_TAIL.pattern})|{_NOTICE_CJK_TAIL.pattern}"
                          rf"|(?P<use>{_USE_AFTER.pattern}))", re.I)
_NUMBER_THEN_ASCII = re.compile(rf"{_NUMBER.pattern}(?=(?P<tail>{_NOTICE_TAIL.pattern})|(?P<use>{_USE_AFTER.pattern}))",
                                re.I)  # no CJK code word can follow in a window of ASCII


def _judge_notice(window: str) -> Span | None:
    """Number first, then (a connector and) an owner and a code word; a year is never a code ('in 2024 your PIN')."""
    for number in (_NUMBER_THEN_ASCII if window.isascii() else _NUMBER_THEN).finditer(window):
        value = number.group("value")
        start, end = number.span("value")
        if len(value) == 4 and (_YEAR.fullmatch(value) or (number.group("tail") and not number.group("connector"))):
            continue
        if number.group("use") and not _USE_BEFORE.search(window, max(0, start - _USE_REACH), start):
            continue
        return start, end
    return None


def find_one_time_code(text: str) -> Span | None:
    """A code in a notification, number first: '451687 is your verification code', '123456 是您的验证码'."""
    if not has_digit(text):
        return None
    # The number stands before a code word ("482913 is your code") and after a verb ("Use 482913 to verify"):
    # each window reaches only that way, so it holds one or two numbers however dense the text is.
    return (first_in_windows(text, positions(text, _NOTICE_TRIGGERS), 48, 12, _judge_notice)
            or first_in_windows(text, positions(text, _USE_TRIGGERS), 0, 64, _judge_notice))


# ----------------------------------------------------------------------------- session cookies

_COOKIE_NAMES = ("jsessionid", "phpsessid", "asp.net_sessionid", "aspsessionid", "connect.sid", "laravel_session",
                 "ci_session", "_session_id", "sessionid", "session_id", "session-id", "sessid", "sid", "session",
                 "_gh_sess", "user_session", "auth_session", "auth_token", "remember_token", "remember_me",
                 "__secure-", "__host-", "wordpress_logged_in_", "wordpress_sec_", "_shopify_s", "sess")
_COOKIE = re.compile(r"(?P<name>[a-z0-9_.-]{0,40})[ \t]*[=:][ \t]*[\"']?"
                     r"(?P<value>[A-Za-z0-9%._~+/-]{16,512}={0,2})", re.I)


def _judge_cookie(window: str) -> Span | None:
    if window[0].isalnum() or window[0] in "_.-":
        return None  # inside a longer name: 'my_sessionid_column' is judged from its own start
    match = _COOKIE.match(window, 1)
    if match is None:
        return None
    value = match.group("value")
    digits = sum(c.isdigit() for c in value)
    letters = sum(c.isalpha() for c in value)
    random_looking = _high_entropy(value) or (len(set(value)) >= 10 and digits >= 4 and letters >= 4)
    return match.span("value") if random_looking and "/" not in value[:8] else None


def find_session_cookie(text: str) -> Span | None:
    """A session cookie by its name and a random value: 'JSESSIONID=332A6196...', 'sessionid=k2j...'."""
    if not has_digit(text) or ("=" not in text and ":" not in text):
        return None
    return first_in_windows(text, positions(text, _COOKIE_NAMES), 1, 600, _judge_cookie)


# ----------------------------------------------------------------------------- an account word, then its password

# "set the local admin on PC-FIN-07 to "Letmein489?"", "my laptop login is marmalade-Otter-31": a connector right
# before a value that looks chosen (mixed case with digits, or a symbol), so "login as svc-deploy" passes.
_ACCOUNT_WORDS = ("login", "log-in", "logon", "admin", "administrator", "root", "superuser")
_ACCOUNT = re.compile(r"(?:login|log-in|logon|admin|administrator|root|superuser)(?![\w-])[^\n]{0,40}?"
                      r"(?:\bto|\bis|\bwas|:|=)(?:[ \t]+(?:still|now|just))?[ \t]*(?P<value>\"[^\"\n]{8,64}\"|'[^'\n]{8,64}'|“[^”\n]{8,64}”"
                      r"|[^\s\"'“”‘’`]{8,64})")


def _judge_account(window: str) -> Span | None:
    if GLUED.match(window):
        return None
    match = _ACCOUNT.match(lower_in_place(window), 1)
    if match is None:
        return None
    start, end = match.span("value")
    raw = window[start:end]
    if raw[0] in "\"'“":
        start, end = start + 1, end - 1
    else:
        while end > start and window[end - 1] in ".,;:)!?":
            end -= 1
    value = window[start:end]
    return (start, end) if chosen_value(value) else None


def find_account_password(text: str) -> Span | None:
    """A chosen-looking value given to an account: 'set the local admin on PC-07 to "Letmein489?"'."""
    if not has_digit(text):
        return None
    return first_in_windows(text, positions(text, _ACCOUNT_WORDS), 1, 120, _judge_account)


# ----------------------------------------------------------------------------- passphrases and app passwords

_PHRASE_WORDS = ("password", "passwort", "mot de passe", "app password", "app-specific password", "application password",
                 *labels("passphrase"))  # a passphrase's name in every language of the word list (words.csv)
_PHRASE_AT = re.compile("|".join(re.escape(w) for w in sorted(_PHRASE_WORDS, key=len, reverse=True)))
_LONGEST_PHRASE_WORD = max(map(len, _PHRASE_WORDS))
# Four or more plain words after ':' or 'is': "passphrase: orbit velvet cactus drum 42" (diceware), or an app
# password of four groups of four letters: "abcd-efgh-ijkl-mnop" (Apple), "abcd efgh ijkl mnop" (Google).
_WORDS_AFTER = re.compile(r"[^\n:=：]{0,40}?(?::|：|=|\bis\b|\bist\b|\best\b|\blautet\b|\bes\b|\bè\b|\bé\b|"
                          r"\bit['’]s\b)[ \t]*[\"'“]?"
                          r"(?P<value>[a-z]{3,10}(?P<sep>[ .-])[a-z]{3,10}(?:(?P=sep)[a-z]{3,10}){2,7}"
                          r"(?:(?P=sep)\d{1,4})?)(?![\w-])")
_LETTER_GROUPS = re.compile(r"[^\n]{0,60}?(?<![\w-])(?P<value>[a-z]{4}(?P<sep>[ -])[a-z]{4}(?P=sep)[a-z]{4}"
                            r"(?P=sep)[a-z]{4}|[a-z]{16})(?![\w-])")
_PLAIN = frozenset("""a an the and or but of to in on at by for with from into as is are was were be been must should
can could will would may might not no never always only also very more less least most any all each every some this
that these those it its your my our their his her you we they he she i me us them use used using make made keep kept
store stored stores saved save sent send set reset changed change new old same different long short strong weak
random four five six seven eight nine ten three two one words word characters letters numbers symbols digits
minimum maximum required optional contain contains include includes including least please remember easy hard
good bad simple complex secure safe unique lowercase uppercase case sensitive here there""".split()) | frozenset(
    # the same function words in the other languages a passphrase is named in (words.csv): "nel gestore delle password"
    """de het een van en op voor met zijn staat der die das und im mit von zu den dem ist steht le la les des du dans
    et est un une pour avec sur el los las del en y es una para con il lo gli di della delle nel nella nei per è
    sono""".split())


def _plain_words(value: str, separator: str) -> bool:
    """Four or more words none of which is a function word or talk about passwords ('must be four random words')."""
    words = [w for w in value.split(separator) if not w.isdigit()]
    return len(words) >= 4 and not any(w in _PLAIN or w.endswith(("ed", "ing", "ly")) for w in words)


_CONNECTORS = (":", "：", "=", " is", " es", " lautet", " è", " é", "'s", "’s")


def _judge_phrase(window: str) -> Span | None:
    if GLUED.match(window):
        return None
    word = _PHRASE_AT.match(lower_in_place(window[:_LONGEST_PHRASE_WORD + 1]), 1)
    if word is None:
        return None
    after = word.end()
    if not any(connector in window for connector in _CONNECTORS):
        return None  # every value below follows a colon or 'is' ('ist', 'est', 'lautet', 'è')
    if word.group().startswith(("app", "application")):
        match = _LETTER_GROUPS.match(window, after)
        if match is not None:
            return match.span("value")
    match = _WORDS_AFTER.match(window, after)
    if match is not None and _plain_words(match.group("value"), match.group("sep")):
        return match.span("value")
    return None


def find_passphrase_words(text: str) -> Span | None:
    """A passphrase of plain words ('passphrase: orbit velvet cactus drum 42') or an app password in letters."""
    return first_in_windows(text, positions(text, _PHRASE_WORDS), 1, 200, _judge_phrase)
