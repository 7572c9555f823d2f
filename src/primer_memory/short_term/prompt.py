"""Assembling what the model sees on one call.

Every call is rebuilt from the application's stores: the system prompt with
the summary of older turns, the current task step and recalled memories, then
the recent messages: the user's and the assistant's words as written, each
tool result quoted as data, each tool call's arguments re-written as JSON. The extra context goes into the system
message, so user and assistant turns still alternate. None of it is the
application's own text, so all of it crosses one boundary (`policy.boundary`):
quoted as data in one block, where no value can add a line, a role or a header.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from ..policy.boundary import DATA_HEADER, Item, render_item, render_result, render_system, render_view
from .chat import as_sent, sent_tokens
from .memory import Message, estimate_tokens

__all__ = ["MEMORY_HEADER", "build_prompt", "memory_item", "prompt_items", "quoted_result", "render_memory",
           "render_prompt", "prompt_tokens"]

MEMORY_HEADER = DATA_HEADER
"""The line above the quoted data (memories, summary, task step): it says they are data, never instructions."""


def _field(item: object, name: str) -> str | None:
    """A field of a MemoryRecord, or of the record inside a ScoredMemory; None for plain text or a missing field."""
    value = getattr(item, name, None)
    if value is None:
        value = getattr(getattr(item, "record", None), name, None)
    return None if value is None else str(value)


def memory_item(item: object) -> Item:
    """One recalled memory (a record, a scored record, or plain text) as the fields the boundary quotes."""
    text = item if isinstance(item, str) else str(getattr(item, "content", item))
    fields: dict[str, str | None] = {"type": "memory"}
    if not isinstance(item, str):
        for name in ("kind", "key", "source", "provenance"):
            fields[name] = _field(item, name)
    fields["text"] = text
    return fields


def render_memory(item: object) -> str:
    """One recalled memory as one line of the data block: its kind, key, source and text, each quoted."""
    return render_item(memory_item(item))


def prompt_items(summary: str = "", *, recalled: Iterable[object] = (), task_step: str | None = None) -> list[Item]:
    """Everything untrusted one call carries in its system message, in the order it is shown."""
    items: list[Item] = []
    if summary:
        items.append({"type": "summary", "text": summary})
    if task_step:
        items.append({"type": "task step", "text": task_step})
    items += [memory_item(r) for r in recalled]
    return items


def build_prompt(
    system: str,
    summary: str = "",
    messages: Sequence[Message] = (),
    *,
    recalled: Iterable[object] = (),
    task_step: str | None = None,
) -> list[Message]:
    """The message list for one model call: one system message, then the recent turns as sent (`chat.as_sent`:
    the user's and the assistant's words as written, tool results quoted as data, tool-call arguments re-written).

    The system message is the application's `system` text, then the summary, the task step and the recalled
    memories quoted as data by the one renderer (`policy.boundary.render_system`).
    """
    content = render_system(system.strip(), prompt_items(summary, recalled=recalled, task_step=task_step))
    return [{"role": "system", "content": content}, *[as_sent(m) for m in messages]]


def quoted_result(call_id: str, text: str, kind: str = "tool result") -> Message:
    """A tool message carrying `text` back to the model as quoted data: a tool's output, a step's output, or the
    reason a proposal was refused (whose message repeats what the model proposed)."""
    return {"role": "tool", "tool_call_id": call_id, "content": render_result(text, kind)}


def prompt_tokens(prompt: Sequence[Message]) -> int:
    """Estimated tokens of every message in a prompt `build_prompt` made (already rendered: counted as written)."""
    return sum(sent_tokens(m) for m in prompt)


def render_prompt(prompt: Sequence[Message]) -> str:
    """A plain-text view of a prompt for reading in a notebook: a header per message, its text behind a gutter,
    so no message can fake the header of another (`policy.boundary.parse_view` reads it back)."""
    return render_view(prompt, estimate_tokens)
