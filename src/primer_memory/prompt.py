"""Assembling what the model sees on one call.

Every call is rebuilt from the application's stores: the system prompt with
the summary of older turns, the current task step and recalled memories, then
the recent messages word for word. The extra context goes into the system
message, so user and assistant turns still alternate.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from .chat import message_tokens
from .short_term import Message, estimate_tokens

__all__ = ["build_prompt", "render_prompt", "prompt_tokens"]


def _memory_text(item: object) -> str:
    """A recalled memory given as text or as any object with a `content` attribute."""
    return item if isinstance(item, str) else str(getattr(item, "content", item))


def build_prompt(
    system: str,
    summary: str = "",
    messages: Sequence[Message] = (),
    *,
    recalled: Iterable[object] = (),
    task_step: str | None = None,
) -> list[Message]:
    """The message list for one model call: one system message, then the recent turns."""
    parts = [system.strip()]
    if summary:
        parts.append(summary)
    if task_step:
        parts.append(f"Current task step: {task_step}")
    memories = [_memory_text(r) for r in recalled]
    if memories:
        parts.append("Recalled memories:\n" + "\n".join(f"- {m}" for m in memories))
    return [{"role": "system", "content": "\n\n".join(parts)}, *[dict(m) for m in messages]]  # type: ignore[list-item]


def prompt_tokens(prompt: Sequence[Message]) -> int:
    """Estimated tokens of every message in a prompt."""
    return sum(message_tokens(m) for m in prompt)


def render_prompt(prompt: Sequence[Message]) -> str:
    """A plain-text view of a prompt, one block per message, for reading in a notebook."""
    blocks = [f"[{m['role']}] ({estimate_tokens(m['content'])} tokens)\n{m['content']}" for m in prompt]
    return "\n\n".join(blocks)
