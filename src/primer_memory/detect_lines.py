"""Credentials in command lines and credential files: -pSECRET, --password=..., .netrc, .pgpass, login lines."""

from __future__ import annotations

import re

from .detect_phrases import looks_chosen
from .policy_scan import _QUOTED, Span, _literal

_MYSQL = re.compile(r"\b(?:mysql|mysqldump|mysqladmin|mariadb|mariadb-dump)\b[^\n]{0,160}?\s-p(?P<value>[^\s-]\S*)")
_SSHPASS = re.compile(r"\bsshpass\s+-p\s*(?P<value>\S+)")
_LOGIN_CMD = re.compile(r"\blogin\b[^\n]{0,160}?\s(?:-p|--password)(?:=|\s+)(?P<value>\S+)")
_CURL_USER = re.compile(r"\b(?:curl|wget|http)\b[^\n]{0,160}?\s(?:-u|--user)(?:=|\s+)[^\s:]*:(?P<value>[^\s@]+)")
_LONG_FLAG = re.compile(r"--(?:[a-z0-9]+-)*(?:password|passwd|pass|pwd|token|secret|api-key|apikey)"
                        r"(?:=(?P<eq>\S+)|[ \t]+(?P<sp>\S+))", re.I)
_NETRC = re.compile(r"\b(?:machine\s+\S+|default)\s+login\s+\S+\s+password\s+(?P<value>\S+)")
_PGPASS = re.compile(r"^[^\s:]+:(?:\d+|\*):[^\s:]+:[^\s:]+:(?P<value>\S+)$", re.M)
_LOGIN_PAIR = re.compile(r"\blogin\s*:?[ \t]+(?P<user>[^\s/]{1,64})[ \t]*/[ \t]*(?P<value>[^\s/]+)", re.I)


def _real(raw: str, *, strict: bool) -> bool:
    """A literal value (not a placeholder such as <password> or $PW); `strict` also wants it to look chosen."""
    literal = _literal(raw)
    if literal is None:
        return False
    return looks_chosen(literal) or _QUOTED.match(raw) is not None if strict else len(literal) >= 3


def find_cli_password(text: str) -> Span | None:
    """mysql -pSECRET, sshpass -p SECRET, docker login -p SECRET, curl -u user:SECRET, --password=SECRET."""
    for pattern in (_MYSQL, _SSHPASS, _LOGIN_CMD, _CURL_USER):
        for match in pattern.finditer(text):
            if _real(match.group("value"), strict=False):
                return match.span("value")
    for match in _LONG_FLAG.finditer(text):
        if match.group("eq") is not None and _real(match.group("eq"), strict=False):
            return match.span("eq")
        if match.group("sp") is not None and _real(match.group("sp"), strict=True):
            return match.span("sp")
    return None


def find_credential_file_line(text: str) -> Span | None:
    """A .netrc entry (machine h login u password p), a .pgpass line (host:port:db:user:password), 'login: u / p'."""
    for pattern in (_NETRC, _PGPASS, _LOGIN_PAIR):
        for match in pattern.finditer(text):
            if _real(match.group("value"), strict=False):
                return match.span("value")
    return None
