"""The rules of task state, with no storage: statuses, transitions, what a proposal may hold.

Everything here is plain Python, so a learner can read the rules in one place
and every backend (SQLite, PostgreSQL) enforces the same ones. The store in
`store.py` calls these checks inside its write transaction.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any

__all__ = [
    "STATUSES", "TRANSITIONS", "PROPOSAL_FIELDS", "MAX_PROPOSAL_CHARS", "MAX_NAME_CHARS", "MAX_DEPTH", "MAX_STEPS",
    "MAX_INT_DIGITS", "BUILTIN_VALIDATORS", "ClockError", "Event",
    "InvalidTask", "InvalidUpdate", "Lease", "LeaseError", "LeaseExpired", "LeaseHeld", "Step", "StoreBusy",
    "StoreDamaged", "TaskFileError", "UnknownTask", "count_text", "short_text", "events_table", "steps_table",
    "transition_problem",
]

STATUSES: tuple[str, ...] = ("pending", "running", "done", "failed")
TRANSITIONS: dict[str, tuple[str, ...]] = {
    "pending": ("running", "done", "failed"),
    "running": ("done", "failed"),
    "failed": ("running",),
    "done": (),
}
PROPOSAL_FIELDS: tuple[str, ...] = ("step", "status", "output")
REQUIRED_FIELDS: tuple[str, ...] = ("step", "status")
PROPOSABLE: tuple[str, ...] = ("running", "done", "failed")  # every status but pending, which create_task sets
MAX_PROPOSAL_CHARS = 10_000  # one cap for a proposal, whether it arrives as JSON text or as a dict
MAX_NAME_CHARS = 200  # task ids, step names and worker ids
MAX_GOAL_CHARS = 2_000
MAX_DEPTH = 32  # how deeply an output may nest lists and objects
MAX_STEPS = 1_000  # steps in one task: generous for a job an agent runs step by step, and a bound on one insert
MAX_INT_DIGITS = 1_000  # digits of one whole number in an output (Python refuses to write more than 4,300)
MAX_LISTED = 20  # names listed in one message (the steps of a task), then "..."
EXAMPLE = '{"step": "fetch_invoices", "status": "done", "output": "4 invoices"}'

Validator = Callable[[Any], "bool | str | None"]
Hook = Callable[[str, str, "str | None", "str | None"], None]


class InvalidUpdate(ValueError):
    """A proposal the code refused; the message says what was wrong and what is allowed.

    `seq` is the number of the event that records the refusal in the task's log (None when nothing was logged).
    """

    def __init__(self, reason: str, *, task_id: str | None = None, step: str | None = None,
                 status: str | None = None, seq: int | None = None):
        super().__init__(reason)
        self.reason = reason
        self.task_id = task_id
        self.step = step
        self.status = status
        self.seq = seq


class TaskIdNotText(InvalidUpdate, TypeError):
    """A task id that is not a string (an int, None, bytes): refused before the store is read."""


class LeaseError(InvalidUpdate):
    """A proposal, heartbeat or claim that the step's lease does not allow."""


class LeaseHeld(LeaseError):
    """Another worker holds a live lease on the step: only that worker may update it until the lease expires."""


class LeaseExpired(LeaseError):
    """The lease on the step ran out: whoever wants the step (its old holder included) must claim it again."""


class InvalidTask(ValueError):
    """A task definition that cannot be created (bad id, no steps, duplicate names, unknown validator...)."""


class UnknownTask(LookupError):
    """Asked for the steps of a task that is not in the store."""

    def __str__(self) -> str:  # LookupError would print the repr of the message
        return str(self.args[0]) if self.args else ""


class TaskFileError(ValueError):
    """The path cannot hold a task store (a folder, missing, read-only, not SQLite, another program's file),
    or the store's settings (timeout, clock, hook) cannot be used."""


class StoreBusy(TaskFileError):
    """Another program held the file's write lock for longer than the store waits (its `timeout`); nothing changed."""


class StoreDamaged(TaskFileError):
    """The file holds pages or rows this code cannot read (a damaged page, an output edited by hand)."""


class ClockError(LeaseError):
    """The store's clock gave a reading that is not a finite number of seconds; nothing was written."""


# --------------------------------------------------------------------------- built-in output checks


def short_text(output: Any) -> str | None:
    """A finished step's output must be a short text a person can read: non-empty, at most 200 characters."""
    if not isinstance(output, str) or not output.strip():
        return "expected a non-empty text such as 'all matched'"
    if len(output) > 200:
        return f"expected at most 200 characters, got {len(output)}"
    return None


_COUNT = re.compile(r"^\d+ \S.*$")


def count_text(output: Any) -> str | None:
    """A fetch step's output must say how many things it fetched: a whole number then a noun, like '4 invoices'."""
    problem = short_text(output)
    if problem is None and not _COUNT.match(output):
        problem = "expected a whole number then what was counted, like '4 invoices'"
    return problem


BUILTIN_VALIDATORS: dict[str, Validator] = {"text": short_text, "count": count_text}


# --------------------------------------------------------------------------- values handed back


@dataclass(frozen=True)
class Step:
    """One step of a task as the database has it, with its lease (who runs it, until when) if claimed."""

    task_id: str
    position: int
    name: str
    status: str
    output: Any
    attempts: int
    validator: str | None = None
    lease_owner: str | None = None
    lease_expires: float | None = None
    retry_at: float | None = None  # after a failure: no claim before this (the backoff)
    deadline: float | None = None  # the running attempt's start-to-close bound: its lease never outlives it
    gave_up: str | None = None  # why the step stopped retrying (None while it may still run)


@dataclass(frozen=True)
class Event:
    """One proposal or claim in a task's log: what was asked, by whom, and whether and why it was written."""

    task_id: str
    seq: int
    step: str | None
    status: str | None
    output: Any
    accepted: bool
    reason: str
    proposal: str
    worker: str | None = None


@dataclass(frozen=True)
class Lease:
    """A worker's claim on the current step of a task, valid until `expires` (seconds on the store's clock)."""

    task_id: str
    step: str
    worker: str
    expires: float
    attempts: int
    taken_over: bool = False  # True when the step was running under a lease that had expired (or none)


# --------------------------------------------------------------------------- checking what arrives

_SURROGATE = re.compile(r"[\ud800-\udfff]")


def _quote(value: Any) -> str:
    """A value as it would appear in JSON, for messages (strings keep their quotes, long ones are cut)."""
    if isinstance(value, str) and len(value) > 200:
        value = value[:200]
    try:
        text = json.dumps(value, ensure_ascii=False)
    except (TypeError, ValueError, RecursionError):
        text = f"a {type(value).__name__}"
    text = _SURROGATE.sub("\ufffd", text)
    return text if len(text) <= 80 else text[:77] + "..."


def safe_text(text: str) -> str:
    """The text with lone surrogates written as \\udXXX and NUL as \\x00, so every backend can store it."""
    if _SURROGATE.search(text):
        text = text.encode("utf-8", "backslashreplace").decode("utf-8")
    return text.replace("\x00", "\\x00")


def _bad_text(value: str) -> str | None:
    """Why a text cannot be stored (None when it can): half a character, or a NUL that PostgreSQL refuses."""
    if _SURROGATE.search(value):
        return "holds a lone surrogate (half of a character), which cannot be stored as text; send valid Unicode"
    if "\x00" in value:
        return "holds a NUL character (\\x00), which a database text column cannot store; remove it"
    return None


def check_name(value: Any, what: str, error: type[Exception], limit: int = MAX_NAME_CHARS) -> str:
    """A task id, step name, goal or worker id: a non-empty string of encodable text, not too long."""
    if not isinstance(value, str) or not value.strip():
        raise error(f"{what} must be a non-empty string, got {_quote(value)}")
    if len(value) > limit:
        raise error(f"{what} is {len(value)} characters; at most {limit} are allowed")
    problem = _bad_text(value)
    if problem:
        raise error(f"{what} {_quote(value)} {problem}")
    return value


def check_value(value: Any, what: str = "output") -> None:
    """Refuse an output that is not plain JSON data, nests deeper than MAX_DEPTH, is too big, or holds bad text.

    Walks the value without recursion and stops as soon as it is over the cap, so a
    10,000-deep or 50 MB output is refused quickly and with a reason.
    """
    budget = MAX_PROPOSAL_CHARS
    stack: list[tuple[Any, int]] = [(value, 1)]
    while stack:
        item, depth = stack.pop()
        if depth > MAX_DEPTH:
            raise InvalidUpdate(f"the {what} nests lists or objects more than {MAX_DEPTH} deep; send flat data")
        if isinstance(item, str):
            budget -= len(item) + 2
            if budget < 0:
                break
            problem = _bad_text(item)
            if problem:
                raise InvalidUpdate(f"the {what} {problem}")
        elif item is None or isinstance(item, bool):
            budget -= 5
        elif isinstance(item, int):
            budget -= _int_digits(item, what) + 1
        elif isinstance(item, float):
            if item != item or item in (float("inf"), float("-inf")):
                raise InvalidUpdate(f"the {what} holds {item!r}, which JSON cannot store; use a finite number")
            budget -= 5
        elif isinstance(item, (list, tuple)):
            budget -= 2 + len(item)
            stack.extend((x, depth + 1) for x in item[: budget + 1])
        elif isinstance(item, dict):
            budget -= 2 + len(item)
            for key, x in list(item.items())[: budget + 1]:
                if not isinstance(key, str):
                    raise InvalidUpdate(f"the {what} has a key {_quote(key)} that is not text; JSON keys are text")
                stack.append((key, depth + 1))
                stack.append((x, depth + 1))
        else:
            raise InvalidUpdate(f"the {what} holds a {type(item).__name__}, which cannot be stored as JSON; "
                                "use text, a number, a list or an object")
        if budget < 0:
            break
    if budget < 0:
        raise InvalidUpdate(f"the {what} is longer than {MAX_PROPOSAL_CHARS} characters as JSON; at most "
                            f"{MAX_PROPOSAL_CHARS} are accepted, whether it arrives as text or as a dict")


def _int_digits(number: int, what: str) -> int:
    """How many digits a whole number has, or InvalidUpdate when it has more than MAX_INT_DIGITS."""
    digits = len(str(abs(number))) if number.bit_length() <= MAX_INT_DIGITS * 10 // 3 + 4 else MAX_INT_DIGITS + 1
    if digits > MAX_INT_DIGITS:  # checked on the bit length first: str() of a 5,000-digit number raises
        raise InvalidUpdate(f"the {what} holds a whole number of more than {MAX_INT_DIGITS:,} digits; "
                            "send a number that long as text")
    return digits


def _no_duplicate_keys(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    seen: dict[str, Any] = {}
    for key, value in pairs:
        if key in seen:
            raise InvalidUpdate(f"field {key!r} is given twice; give each of {', '.join(PROPOSAL_FIELDS)} at most once")
        seen[key] = value
    return seen


def raw_text(proposal: Any) -> str:
    """The proposal as it arrived, for the event log: cut to the cap, lone surrogates escaped."""
    if isinstance(proposal, str):
        text = proposal[: MAX_PROPOSAL_CHARS + 1]
    else:
        try:
            check_value(proposal, "proposal")
            text = json.dumps(proposal, sort_keys=True, ensure_ascii=False)
        except (InvalidUpdate, TypeError, ValueError, RecursionError):
            text = f"(a {type(proposal).__name__} that cannot be shown as JSON)"
    text = text if len(text) <= MAX_PROPOSAL_CHARS else text[:MAX_PROPOSAL_CHARS] + "..."
    return safe_text(text)


def parse(proposal: Any) -> dict[str, Any]:
    """The proposal as a dict with exactly the allowed fields, or InvalidUpdate saying what is wrong."""
    if isinstance(proposal, str):
        if len(proposal) > MAX_PROPOSAL_CHARS:
            raise InvalidUpdate(f"the proposal is {len(proposal)} characters; "
                                f"at most {MAX_PROPOSAL_CHARS} are accepted")
        try:
            proposal = json.loads(proposal, object_pairs_hook=_no_duplicate_keys)
        except InvalidUpdate:  # a field given twice: a ValueError too, but already says what is wrong
            raise
        except json.JSONDecodeError as error:
            raise InvalidUpdate(
                f"the proposal is not valid JSON ({error.msg} at line {error.lineno} column {error.colno}); "
                f"send one object like {EXAMPLE}"
            ) from None
        except RecursionError:
            raise InvalidUpdate(f"the proposal is nested too deeply to read; send one flat object like {EXAMPLE}"
                                ) from None
        except ValueError:  # Python will not read a whole number of more than 4,300 digits
            raise InvalidUpdate(f"the proposal holds a whole number of more than {MAX_INT_DIGITS:,} digits; "
                                "send a number that long as text") from None
    if not isinstance(proposal, dict):
        kind = {list: "a list", str: "a string", type(None): "null", bool: "true/false", int: "a number",
                float: "a number"}.get(type(proposal), type(proposal).__name__)
        raise InvalidUpdate(f"a proposal must be a JSON object, got {kind}; send one object like {EXAMPLE}")
    unknown = sorted(set(proposal) - set(PROPOSAL_FIELDS), key=str)
    if unknown:
        names = ", ".join(_quote(k) if not isinstance(k, str) else repr(safe_text(k)) for k in unknown)
        raise InvalidUpdate(f"unknown field(s) {names}; the allowed fields are {', '.join(PROPOSAL_FIELDS)}")
    missing = [f for f in REQUIRED_FIELDS if f not in proposal]
    if missing:
        raise InvalidUpdate(f"missing field(s) {', '.join(map(repr, missing))}; step and status are required, "
                            f"output is optional")
    for field in REQUIRED_FIELDS:
        if not isinstance(proposal[field], str):
            raise InvalidUpdate(f"field {field!r} must be a string, got {_quote(proposal[field])}")
    check_value(proposal, "proposal")  # one cap, one depth limit, valid text: for dicts and JSON text alike
    if proposal["status"] not in STATUSES:
        raise InvalidUpdate(f"status {_quote(proposal['status'])} is not a status; a proposal may set "
                            f"{', '.join(PROPOSABLE)} (pending is where every step starts: only create_task sets it)")
    return proposal


def peek(proposal: Any) -> tuple[str | None, str | None]:
    """The step and status a refused proposal named, when it named them as short strings (for the log)."""
    fields: Any = proposal
    if isinstance(proposal, str):
        if len(proposal) > MAX_PROPOSAL_CHARS:
            return None, None
        try:
            fields = json.loads(proposal)
        except (ValueError, RecursionError):  # not JSON, or a number too long to read
            return None, None
    if not isinstance(fields, dict):
        return None, None

    def ok(value: Any) -> str | None:
        return safe_text(value[:MAX_NAME_CHARS]) if isinstance(value, str) else None

    return ok(fields.get("step")), ok(fields.get("status"))


def transition_problem(name: str, current: str, target: str, output: Any) -> str | None:
    """Why `current -> target` is not allowed for step `name` (None when it is), naming what is allowed instead."""
    allowed = TRANSITIONS[current]
    if target in allowed:
        return None
    proposable = ", ".join(allowed)
    if target == "pending":
        why = "nobody may propose pending: it is where every step starts, and only create_task sets it"
    elif current == target:
        why = f"step {name} is already {target}"
    elif current == "failed":
        why = f"step {name} failed (output {_quote(output)}); to retry it, propose running first"
    else:
        why = f"{current} -> {target} is not a transition"
    return f"{why}; from {current} a proposal may set {proposable}"


def encode_output(output: Any) -> tuple[str | None, str | None]:
    """(stored text, kind): a text output is stored as itself (so SQL can match it), anything else as JSON."""
    if output is None:
        return None, None
    if isinstance(output, str):
        return output, "text"
    return json.dumps(output, ensure_ascii=False, allow_nan=False), "json"


def decode_output(text: str | None, kind: str | None, where: str = "an output") -> Any:
    """The output as it was proposed, from its stored text and kind; StoreDamaged when it is not JSON any more."""
    if text is None:
        return None
    if kind == "text":
        return text
    try:
        return json.loads(text)
    except (ValueError, TypeError, RecursionError) as error:  # edited by hand, or a damaged row
        detail = error.msg if isinstance(error, json.JSONDecodeError) else type(error).__name__
        raise StoreDamaged(f"{where} is stored as JSON but is not valid JSON ({detail})") from None


def list_names(names: Iterable[str]) -> str:
    """Names for a message, at most MAX_LISTED of them, then '...'."""
    shown = list(names)
    return ", ".join(shown[:MAX_LISTED]) + (f", ... ({len(shown)} in all)" if len(shown) > MAX_LISTED else "")


def step_spec(item: Any) -> tuple[Any, Any]:
    """A step given as a name or a (name, check) pair."""
    if isinstance(item, str):
        return item, None
    if isinstance(item, (tuple, list)) and len(item) == 2:
        return item[0], item[1]
    raise InvalidTask(f"a step is a name or a (name, validator) pair, got {_quote(item)}")


# --------------------------------------------------------------------------- plain-text tables


def _cell(value: Any) -> str:
    if value is None:
        return ""
    return value if isinstance(value, str) else json.dumps(value, ensure_ascii=False)


def _table(headers: Sequence[str], rows: Iterable[Sequence[str]]) -> str:
    rows = [list(r) for r in rows]
    widths = [max([len(h)] + [len(r[i]) for r in rows]) for i, h in enumerate(headers)]
    lines = ["  ".join(h.ljust(w) for h, w in zip(headers, widths)).rstrip(),
             "  ".join("-" * w for w in widths)]
    lines += ["  ".join(c.ljust(w) for c, w in zip(r, widths)).rstrip() for r in rows]
    return "\n".join(lines)


def steps_table(steps: Sequence[Step] | Sequence[tuple[str, str, Any]]) -> str:
    """The steps as a plain-text table, for printing: rich `Step`s or the (name, status, output) tuples."""
    rich = [s if isinstance(s, Step) else Step("", i, s[0], s[1], s[2], -1) for i, s in enumerate(steps, 1)]
    if all(s.attempts >= 0 for s in rich):
        return _table(("#", "step", "status", "output", "attempts"),
                      ((str(s.position), s.name, s.status, _cell(s.output), str(s.attempts)) for s in rich))
    return _table(("#", "step", "status", "output"),
                  ((str(s.position), s.name, s.status, _cell(s.output)) for s in rich))


def events_table(events: Sequence[Event], *, width: int = 90, output_width: int = 36) -> str:
    """The event log as a plain-text table; reasons longer than `width` and outputs longer than
    `output_width` characters are cut (events() has them in full)."""
    def cut(text: str, limit: int) -> str:
        return text if len(text) <= limit else text[: limit - 3] + "..."

    return _table(("seq", "step", "status", "output", "written", "reason"),
                  ((str(e.seq), e.step or "", e.status or "", cut(_cell(e.output), output_width),
                    "yes" if e.accepted else "no", cut(e.reason, width)) for e in events))
