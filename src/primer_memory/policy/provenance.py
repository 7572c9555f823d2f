"""Trust by provenance: where a memory came from decides what it may become, as browsers separate origins.

A memory is said by the user, inferred by the assistant, read from a tool or a web page, or imported. Only the
user gives the agent standing instructions, so text from anywhere else never becomes one: a procedural memory (a
how-to the agent will follow), or text the instruction or redirect checks flag, is refused unless the user said
it. From the user, a memory that would send data or money somewhere (CC or forward to an address, change a payee,
open a link) is not stored silently either: it is held (`confirm`) until the application has asked the user,
because that is also the sentence an attacker plants. `admit` applies this over any write policy's decision and
can only refuse or hold more, never store more.
"""

from __future__ import annotations

import re
from collections.abc import Mapping

from .poisoning import find_hidden_text, find_instruction
from .decision import PolicyDecision
from .instructions import find_order
from .normalise import first_found
from .redirects import addresses, find_redirect_class
from .scan import Span

__all__ = ["PROVENANCES", "TRUST", "admit", "find_redirect", "is_provenance", "outranks"]

PROVENANCES: tuple[str, ...] = ("user", "assistant", "tool", "import")
"""Where a memory came from: the user said it, the assistant inferred it, a tool or web page returned it, an import."""

def is_provenance(value: object) -> bool:
    """Whether `value` names a provenance: one of PROVENANCES, as a plain str (a subclass could compare equal and
    behave otherwise later)."""
    return type(value) is str and value in PROVENANCES


TRUST: dict[str, int] = {"user": 3, "assistant": 2, "tool": 1, "import": 1}
"""How far each provenance is trusted: the user above the assistant above tools and imports (which rank alike)."""


def outranks(held: str, incoming: str) -> bool:
    """Whether a record from `held` is more trusted than a write from `incoming`, which then may not supersede it."""
    return TRUST.get(held, 0) > TRUST.get(incoming, 0)

_CONFIRM = ("held for confirmation: it would send data or money somewhere (an address, a link or a payee); ask the "
            "user, then confirm() or reject() it (detector: redirect)")
_SOURCE = {"assistant": "the assistant", "tool": "a tool source", "import": "an import"}
_ELSEWHERE = ("refused: {what} from {provenance}; only the user gives the agent instructions, so text "
              "from the assistant, tools, web pages or imports is kept as facts only (detector: {detector})")
_FIELD = ("refused: the memory's {field} reads like an instruction or hides text; it is shown to the model beside "
          "the memory, so it follows the same rule as the content (detector: {detector})")

# Verbs that move data or money (imperative or standing), in the languages the policy reads.
_VERB = re.compile(
    r"\b(?:send|sends|sent|cc|bcc|copy|forward|forwards|route|routes|redirect|redirects|transfer|wire|pay|remit"
    r"|deliver|share|upload|submit|open|visit|click|go(?:es)?\s+to|reply\s+to|e-?mail\s+(?:\S+\s+){0,4}?to"
    r"|envoie[rz]?|envoyer|transf[eé]re[rz]?|transmet(?:tre|tez)|virement|verse[rz]?|payer|payez|copie"
    r"|sende[nt]?|schick(?:e|en|t)?|weiterleiten|leite\w*\s+weiter|überweis\w*|zahl(?:e|en|t)"
    r"|env[ií]a(?:r|le|lo)?|reenv[ií]a\w*|transfier\w*|pag(?:a|ar|ue)|manda(?:r)?|inoltra\w*|invia\w*|bonific\w*"
    r"|encaminh\w*|transfer[ei]\w*|stuur|doorsturen|overmaken|betaal|skicka|vidarebefordra|wyślij|przelej"
    r"|отправ\w*|перешл\w*|переведи\w*)\b|发送|转发|抄送|汇款|付款给|送信|転送|振り込",
    re.I,
)
# A change of where money goes needs no address: "update Globex's bank details", "new payee for ...".
_PAYEE = re.compile(
    r"\b(?:change|update|switch|replace|set|use)\b[^.\n]{0,40}?\b(?:payee|beneficiary|bank\s+details|bank\s+account"
    r"|account\s+number|remittance|payment\s+details|sort\s+code|routing\s+number)\b"
    r"|\b(?:new|updated|different)\s+(?:payee|beneficiary|bank\s+details|bank\s+account|account\s+number"
    r"|payment\s+details|remittance\s+address)\b",
    re.I,
)
_NEGATED = re.compile(r"\b(?:never|don't|do\s+not|not|nie|nicht|jamais|nunca|mai)\b[^.\n]{0,20}$", re.I)


def find_redirect(text: str) -> Span | None:
    """A verb that moves data or money near an address, link or account it names; or a change of payee. Read as
    written, then normalised (normalise.py), as the instruction check is."""
    return first_found(_redirect, text)


def _redirect(text: str) -> Span | None:
    """The redirect check as written: the phrases below, then the class (redirects.py)."""
    return _listed(text) or find_redirect_class(text)


def _listed(text: str) -> Span | None:
    payee = _PAYEE.search(text)
    if payee is not None and not _NEGATED.search(text[max(0, payee.start() - 30): payee.start() + 1]):
        return payee.span()
    for start, end in addresses(text):  # where data or money could go (redirects.py: addresses, links, IBANs)
        if _VERB.search(text[max(0, start - 80): end + 40]):
            return start, end
    return None


def _poisoned(text: str) -> str | None:
    """The name of the check that flags `text` as an instruction or hidden text, or None."""
    if find_hidden_text(text) is not None:
        return "hidden_text"
    if find_instruction(text) is not None:
        return "prompt_injection"
    return None


def admit(decision: PolicyDecision, kind: str, content: str, provenance: str, *, source: str = "",
          key: str | None = None, fields: Mapping[str, str | None] | None = None) -> PolicyDecision:
    """The provenance rule over a write policy's decision: it refuses or holds more, never stores more.

    `fields` are further texts stored with the memory (namespace labels, a note's path): like the source and the
    key, none may read like an instruction or hide text.
    """
    if decision.verdict in ("skip", "refuse"):
        return decision
    for field, value in (("source", source), ("key", key), *(fields or {}).items()):
        flagged = _poisoned(value) if value else None
        if flagged is not None:
            return PolicyDecision("refuse", _FIELD.format(field=field, detector=flagged), flagged)
    if provenance != "user":
        if kind == "procedural":
            what, detector = "a procedural memory (a how-to the agent would follow)", "procedural_from_" + provenance
        else:
            detector = (_poisoned(content) or ("instruction" if find_order(content) is not None else "")
                        or ("redirect" if find_redirect(content) is not None else ""))
            what = "an instruction, hidden text or a redirect"
        if detector:
            return PolicyDecision("refuse", _ELSEWHERE.format(what=what, provenance=_SOURCE[provenance],
                                                              detector=detector),
                                  detector)
        return decision
    if decision.verdict == "store" and find_redirect(content) is not None:
        return PolicyDecision("confirm", _CONFIRM, "redirect")
    return decision
