"""Chat messages as chat APIs send them: roles, tool calls and their results, grouped into units.

An assistant turn that calls tools and the `tool` messages that answer it
form one *unit*: a chat API rejects a request where a tool result has lost its
call, or a call has lost a result, so short-term memory keeps or folds a unit
whole, never a part of it.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any, TypedDict

from ..policy.boundary import render_arguments, render_result
from .errors import InvalidMessage
from .tokens import TokenCounter, estimate_tokens

__all__ = ["CHAT_ROLES", "ROLES", "InvalidMessage", "Message", "ToolCall", "as_sent", "check_message", "check_text",
           "message_tokens", "sent_tokens", "tool_call", "unit_starts"]

ROLES: tuple[str, ...] = ("user", "assistant")
"""The lesson's roles: what `add(role, text)` takes for plain chat."""
CHAT_ROLES: tuple[str, ...] = ("user", "assistant", "tool")
"""Roles kept in the history; a `system` message is kept apart from it."""


class ToolCall(TypedDict):
    """One tool call inside an assistant message, in the OpenAI chat shape."""

    id: str
    type: str
    function: dict[str, str]  # {"name": ..., "arguments": JSON text}


class _MessageBase(TypedDict):
    role: str
    content: str


class Message(_MessageBase, total=False):
    """One chat turn, in the shape chat APIs expect: role and content, plus tool fields when used."""

    tool_calls: list[ToolCall]
    tool_call_id: str


def check_text(text: str, what: str = "text") -> str:
    """`text` if it has a UTF-8 form; a lone surrogate cannot go into a request body, so it is refused on arrival."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError as error:
        raise InvalidMessage(f"{what} holds a lone surrogate (half of a character, U+{ord(text[error.start]):04X} at "
                             f"position {error.start}), which has no UTF-8 form and cannot be sent to a model; send "
                             "valid Unicode") from None
    return text


def tool_call(call_id: str, name: str, arguments: Mapping[str, Any] | str) -> ToolCall:
    """A tool call in the chat-API shape; `arguments` is a dict (stored as JSON text) or JSON text."""
    text = arguments if isinstance(arguments, str) else json.dumps(dict(arguments), sort_keys=True)
    return {"id": call_id, "type": "function", "function": {"name": name, "arguments": text}}


def _check_calls(calls: object) -> list[ToolCall]:
    if not isinstance(calls, list) or not calls:
        raise InvalidMessage(f"tool_calls must be a non-empty list of calls, got {calls!r:.60}")
    checked: list[ToolCall] = []
    seen: set[str] = set()
    for call in calls:
        function = call.get("function") if isinstance(call, Mapping) else None
        if not (isinstance(call, Mapping) and isinstance(call.get("id"), str) and call["id"]
                and isinstance(function, Mapping) and isinstance(function.get("name"), str) and function["name"]
                and isinstance(function.get("arguments", ""), str)):
            raise InvalidMessage("each tool call needs an 'id' and a 'function' with a 'name' and JSON 'arguments' "
                                 f"text, like tool_call('call_1', 'lookup_invoice', {{'id': 'INV-1'}}); got {call!r:.80}")
        if call["id"] in seen:
            raise InvalidMessage(f"two tool calls share the id {call['id']!r}; each call needs its own id")
        seen.add(call["id"])
        check_text(call["id"], "a tool call id")
        check_text(function["name"], "a tool name")
        check_text(function.get("arguments", ""), "tool call arguments")
        checked.append({"id": call["id"], "type": "function",
                        "function": {"name": function["name"], "arguments": function.get("arguments", "")}})
    return checked


def check_message(message: object) -> Message:
    """A clean copy of one history message, or InvalidMessage saying what is wrong (system is not allowed here)."""
    if not isinstance(message, Mapping):
        raise InvalidMessage(f"a message is a dict with 'role' and 'content', got {type(message).__name__}")
    role, text = message.get("role"), message.get("content")
    if text is None and message.get("tool_calls"):
        text = ""  # chat APIs allow an assistant tool call without text
    elif "content" not in message:
        raise InvalidMessage(f"a message needs its text under 'content' (and a 'role'), got {dict(message)!r:.80}")
    if role not in CHAT_ROLES:
        raise InvalidMessage(f"role must be one of {', '.join(map(repr, CHAT_ROLES))} (a system message is set "
                             f"apart with add('system', text)); got {role!r}")
    if not isinstance(text, str):
        raise InvalidMessage(f"text must be a string, got {type(text).__name__}")
    check_text(text)
    extra = set(message) - {"role", "content", "tool_calls", "tool_call_id"}
    if extra:
        raise InvalidMessage(f"unknown message fields {sorted(extra)}; allowed: role, content, tool_calls, tool_call_id")
    clean: Message = {"role": role, "content": text}
    if message.get("tool_calls") is not None:
        if role != "assistant":
            raise InvalidMessage(f"only an assistant message can carry tool_calls, not a {role!r} message")
        clean["tool_calls"] = _check_calls(message["tool_calls"])
    if role == "tool":
        call_id = message.get("tool_call_id")
        if not isinstance(call_id, str) or not call_id:
            raise InvalidMessage("a tool message needs the tool_call_id of the call it answers")
        clean["tool_call_id"] = check_text(call_id, "tool_call_id")
    elif message.get("tool_call_id") is not None:
        raise InvalidMessage(f"only a tool message carries a tool_call_id, not a {role!r} message")
    return clean


def as_sent(message: Message) -> Message:
    """One turn as the model receives it. The user's and the assistant's text go word for word (they are the
    conversation); a tool's result is quoted as data by the one renderer (`policy.boundary`), since a web page or
    an API reply is nobody's instruction; a tool call's arguments stay JSON, written back on one escaped line."""
    sent: Message = {"role": message["role"], "content": message["content"]}
    if message["role"] == "tool":
        sent["content"] = render_result(message["content"])
    if "tool_calls" in message:
        sent["tool_calls"] = [{"id": c["id"], "type": c["type"],
                               "function": {"name": c["function"]["name"],
                                            "arguments": render_arguments(c["function"]["arguments"])}}
                              for c in message["tool_calls"]]
    if "tool_call_id" in message:
        sent["tool_call_id"] = message["tool_call_id"]
    return sent


def sent_tokens(message: Message, count: TokenCounter = estimate_tokens) -> int:
    """Tokens of a message exactly as it is written: its text plus each tool call's name and arguments."""
    cost = count(message["content"])
    for call in message.get("tool_calls", ()):
        cost += count(call["function"]["name"]) + count(call["function"]["arguments"])
    return cost


def message_tokens(message: Message, count: TokenCounter = estimate_tokens) -> int:
    """Tokens of one message as the model receives it (`as_sent`): the budget bounds what is sent, quotes and all.
    A user or assistant turn without tool calls costs its text alone."""
    if message["role"] != "tool" and "tool_calls" not in message:
        return count(message["content"])
    return sent_tokens(as_sent(message), count)


def unit_starts(messages: Sequence[Message]) -> list[int]:
    """Index of the first message of each unit: a tool message belongs to the unit of the call before it."""
    return [i for i, m in enumerate(messages) if m["role"] != "tool"]
