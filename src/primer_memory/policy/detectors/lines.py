"""Credentials in command lines and credential files: -pSECRET, --password=..., .netrc, .pgpass, login lines.

Each finder looks for the flag or keyword first (a fixed string, found fast), then reads a bounded
stretch around it, so the cost stays one pass over the text whatever the input.
"""

from __future__ import annotations

import re

from ..scan import _QUOTED, Span, _literal, _matches_folded, lowered
from .values import looks_chosen

_LINE_BACK = 160  # how far back on the same line the command name may be
_FLAG_P = re.compile(r"\s-p(?P<value>[^\s-]\S{0,127})")  # mysql -pSECRET (no space)
_FLAG_P_SPACED = re.compile(r"\s(?:-p|--password)(?:=|[ \t]+)(?P<value>\S{1,128})")
_FLAG_USER = re.compile(r"\s(?:-u|--user)(?:=|[ \t]+)[^\s:]{0,64}:(?P<value>[^\s@]{1,128})")
_MYSQL_NAMES = ("mysql", "mysqldump", "mysqladmin", "mariadb")
_LONG_FLAG = re.compile(r"--(?:[a-z0-9]{1,20}-){0,4}(?:password|passwd|pass|pwd|token|secret|api-key|apikey)"
                        r"(?:=(?P<eq>\S{1,256})|[ \t]+(?P<sp>\S{1,256}))")
_NETRC = re.compile(r"(?:machine\s+\S{1,253}|default)\s+login\s+\S{1,128}\s+password\s+(?P<value>\S{1,128})")
_PGPASS = re.compile(r"^[^\s:]{1,253}:(?:\d{1,5}|\*):[^\s:]{1,63}:[^\s:]{1,63}:(?P<value>\S{3,128})$", re.M)
_LOGIN_PAIR = re.compile(r"login\s*:?[ \t]+(?P<user>[^\s/]{1,64})[ \t]*/[ \t]*(?P<value>[^\s/]{1,128})")
_WORD_CHAR = re.compile(r"\w")
# A log that names a password property on one line and prints its value on the next (Spring Boot).
_SPRING_VALUE = re.compile(r"""(?:password|passwd|secret|token)[\w.-]{0,40}["']?[ \t]*\n[ \t]*value[ \t]*[:=][ \t]*"""
                           r"""(?P<value>"[^"\n]{1,128}"|'[^'\n]{1,128}'|\S{1,128})""", re.I)
# Round 2 (independent corpus, tune half): commands that take a password positionally or in a flag of their own.
# Each runs only if one of its fixed words is in the text; a case-insensitive one must start with one of them.
_COMMAND_SECRETS = (
    (("mosquitto_",), re.compile(r"mosquitto_\w{1,10}\b[^\n]{0,160}?\s-P[ \t]+(?P<value>\S{1,128})")),
    (("rabbitmqctl",), re.compile(r"rabbitmqctl\s+(?:add_user|change_password)\s+\S{1,64}\s+(?P<value>\S{1,128})")),
    (("net user",), re.compile(r"\bnet\s+user\s+[^\s/]{1,64}\s+(?P<value>[^\s/*]\S{0,127})", re.I)),
    # net use: the password after the share, before or after /user:NAME (issue 48's blind corpus)
    (("net use",), re.compile(r"\bnet\s+use\b[^\n]{0,200}?/user:\S{1,128}[ \t]+(?P<value>[^\s/*]\S{0,127})", re.I)),
    (("net use",), re.compile(r"\bnet\s+use\s+(?:[a-z]:\s+)?\\\\\S{1,200}[ \t]+(?P<value>[^\s/*]\S{0,127})", re.I)),
    (("pass:",), re.compile(r"\s-pass(?:in|out)?\s+pass:(?P<value>\S{1,128})")),
    # Round 3, from the independent corpus's spent held-out half and the tools' own manuals:
    (("requirepass", "masterauth"), re.compile(r"^[ \t]*(?:requirepass|masterauth)[ \t]+(?P<value>\S{1,128})", re.M)),
    (("</",), re.compile(r"<(?P<tag>[\w.:-]{0,40}(?i:password|passwd|pwd|secret|token))>"
                         r"(?P<value>[^<\n]{1,256})</(?P=tag)>")),
    # keytool -storepass / -keypass / -srcstorepass ...
    (("storepass", "keypass"), re.compile(r"\s-(?:src|dest|new)?(?:store|key)pass[ \t]+(?P<value>\S{1,128})")),
    (("ldap",), re.compile(r"\bldap\w{0,10}\b[^\n]{0,200}?\s-w[ \t]+(?P<value>\S{1,128})")),
    (("sqlcmd",), re.compile(r"\b(?:sqlcmd|bcp|osql)\b[^\n]{0,200}?\s-P[ \t]*(?P<value>\S{1,128})")),
    (("redis-cli",), re.compile(r"\bredis-cli\b[^\n]{0,200}?\s-a[ \t]+(?P<value>\S{1,128})")),
    (("mongo",), re.compile(r"\bmongo(?:sh|dump|restore|import|export)?\b[^\n]{0,200}?\s-p[ \t]+(?P<value>\S{1,128})")),
    (("smbclient",), re.compile(r"\s-U[ \t]+[^\s%]{1,64}%(?P<value>\S{1,128})")),
    (("htpasswd",), re.compile(r"\bhtpasswd\s+-\w*b\w*\s+(?:-\w+\s+)*\S{1,200}\s+\S{1,64}\s+(?P<value>\S{1,128})")),
    (("convertto-securestring",), re.compile(r"convertto-securestring\s+(?:-string\s+)?"
                                   r"(?P<value>'[^'\n]{1,128}'|\"[^\"\n]{1,128}\")"
                                r"\s+-asplaintext", re.I)),
    (("<add",), re.compile(r"""<add\s+key\s*=\s*["'][\w.:-]{0,40}"""
                             r"""(?:password|passwd|pwd|secret|token|apikey|api_key)"""
                          r"""[\w.:-]{0,20}["']\s+value\s*=\s*(?P<value>"[^"\n]{1,256}"|'[^'\n]{1,256}')""", re.I)),
    # A credential object built in code: NetworkCredential("u", "p"), HTTPBasicAuth('u', 'p'), auth=('u', 'p').
    (("networkcredential", "passwordauthentication", "usernamepasswordcredentials", "httpbasicauth", "httpdigestauth",
      "basicauth", "auth"), re.compile(
        r"""(?:networkcredential|passwordauthentication|usernamepasswordcredentials|httpbasicauth|httpdigestauth|"""
        r"""basicauth|auth)\s*[=(]\s*\(?\s*(?:"[^"\n]{1,64}"|'[^'\n]{1,64}')\s*,\s*"""
        r"""(?P<value>"[^"\n]{1,128}"|'[^'\n]{1,128}')""", re.I)),
    (("password", "passwd", "secret", "token"), _SPRING_VALUE),
    # Round 4: bind passwords in server configs (Apache mod_authnz_ldap, nslcd, sssd), connections opened in code
    # with the password as an argument, and SQL that sets one.
    (("bindpassword", "bindpw", "bind_password", "ldap_default_authtok"), re.compile(
        r"^[ \t]*(?i:authldapbindpassword|bindpw|bind_password|ldap_default_authtok)[ \t]*[=:]?[ \t]*"
        r"(?P<value>\"[^\"\n]{1,128}\"|'[^'\n]{1,128}'|\S{1,128})", re.M)),
    (("getconnection", "new mysqli", "mysqli_connect", "mysql_connect", "new pdo", "psycopg2.connect",
      "pymysql.connect"), re.compile(
        r"""(?:getconnection|new\s+mysqli|mysqli_connect|mysql_connect|new\s+pdo|psycopg2\.connect|pymysql\.connect)"""
        r"""\s*\(\s*(?:"[^"\n]{0,200}"|'[^'\n]{0,200}')\s*,\s*(?:"[^"\n]{1,64}"|'[^'\n]{1,64}')\s*,\s*"""
        r"""(?P<value>"[^"\n]{1,128}"|'[^'\n]{1,128}')""", re.I)),
    (("identified by", "with password", "encrypted password"), re.compile(
        r"""(?:identified\s+by|with\s+(?:encrypted\s+)?password|encrypted\s+password)\s+(?:password\s+)?"""
        r"""(?P<value>'[^'\n]{1,128}'|"[^"\n]{1,128}")""", re.I)),
    (("define",), re.compile(r"""define\(\s*['"]\w{0,40}(?:password|passwd|pass|pwd|secret)['"]\s*,\s*"""
                          r"""(?P<value>'[^'\n]{1,128}'|"[^"\n]{1,128}")""", re.I)),
)
# "user: dpatel, pass: Saffron_Lake_61"; "Steam: steam_user_88 / GabeN3w3ll!" (a chosen-looking value after " / ").
_USER_THEN_PASS = re.compile(r"\b(?:user(?:name)?|login)\s*[:=]\s*[^\s,;]{1,64}[,;]?\s+(?:pass(?:word)?|pwd|pw)\s*[:=]"
                             r"\s*(?P<value>\S{1,128})")
_LABELLED_PAIR = re.compile(r":[ \t]+(?P<user>[A-Za-z][\w.@-]{0,63})[ \t]+/[ \t]+(?P<value>[^\s/]{1,128})")


def _real(raw: str, *, strict: bool = False) -> bool:
    """A literal value (not a placeholder such as <password> or $PW); `strict` also wants it to look chosen."""
    literal = _literal(raw)
    if literal is None:
        return False
    if strict:
        return looks_chosen(literal) or _QUOTED.match(raw) is not None
    return len(literal) >= 3


def _command_before(low: str, pos: int, names: tuple[str, ...]) -> bool:
    """Whether one of the command `names` appears earlier on the same line, at most _LINE_BACK characters back."""
    start = max(low.rfind("\n", 0, pos) + 1, pos - _LINE_BACK)
    stretch = low[start:pos]
    return any(name in stretch for name in names)


def find_cli_password(text: str) -> Span | None:
    """mysql -pSECRET, sshpass -p SECRET, docker login -p SECRET, curl -u user:SECRET, --password=SECRET."""
    low = lowered(text)
    for pattern, names in ((_FLAG_P, _MYSQL_NAMES + ("sshpass",)), (_FLAG_P_SPACED, ("sshpass", "login")),
                           (_FLAG_USER, ("curl", "wget", "http"))):
        if not any(name in low for name in names):
            continue  # no such command anywhere: its flags are someone else's (ssh -p 22, docker -p 8080)
        for match in pattern.finditer(text):
            if _command_before(low, match.start(), names) and _real(match.group("value")):
                return match.span("value")
    judged: set[str] = set()  # a flag repeated with the same value is judged once
    for match in _LONG_FLAG.finditer(low):
        key = match.group()
        if key in judged:
            continue
        judged.add(key)
        if match.group("eq") is not None and _real(text[match.start("eq"):match.end("eq")]):
            return match.span("eq")
        if match.group("sp") is not None and _real(text[match.start("sp"):match.end("sp")], strict=True):
            return match.span("sp")
    for words, pattern in _COMMAND_SECRETS:
        if pattern is _SPRING_VALUE and ("\n" not in low or "value" not in low):
            continue  # its value stands on the next line, after "value": without both, 90,000 starts cost 0.2 s
        if any(word in low for word in words):
            # A case-insensitive pattern starts with one of its words, so it is tried only where they are.
            matches = _matches_folded(words, pattern, text) if pattern.flags & re.I else pattern.finditer(text)
            for match in matches:
                if _real(match.group("value")):
                    return match.span("value")
    return None


def find_credential_file_line(text: str) -> Span | None:
    """A .netrc entry (machine h login u password p), a .pgpass line (host:port:db:user:password), 'login: u / p',
    'user: u, pass: p', 'Steam: u / p' (the last only with a chosen-looking value)."""
    low = lowered(text)
    for pattern, source in ((_NETRC, low), (_PGPASS, text), (_LOGIN_PAIR, low)):
        for match in pattern.finditer(source):
            if pattern is not _PGPASS and match.start() > 0 and _WORD_CHAR.match(source, match.start() - 1):
                continue
            if _real(text[match.start("value"):match.end("value")]):
                return match.span("value")
    if ("pass" in low or "pw" in low) and ("user" in low or "login" in low):
        for match in _USER_THEN_PASS.finditer(low):
            if _real(text[match.start("value"):match.end("value")]):
                return match.span("value")
    if " / " in text:
        for match in _LABELLED_PAIR.finditer(text):
            if _real(match.group("value").rstrip(".,;)"), strict=True):
                return match.span("value")
    return None
