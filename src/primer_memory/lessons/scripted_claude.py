"""Claude's Messages API, scripted: the SDK's own client over a mock transport, for notebook 6's tool-runner loop.

The anthropic SDK's `tool_runner` is the loop an application runs: send the conversation, run each `tool_use` block
the model returns with the tool, send the results back, until the model answers in text. Here the model's turns
are canned (`MEMORY_TURNS`) and the HTTP transport answers each request with the next one, so the real loop drives a
real tool offline, with no key and no network. Every request the SDK sent is kept, to show what went back.
"""

from __future__ import annotations

import json
from typing import Any

__all__ = ["MEMORY_TURNS", "ScriptExhausted", "scripted_client"]

MEMORY_TURNS: list[list[dict[str, Any]]] = [
    [{"type": "tool_use", "id": "toolu_01", "name": "memory", "input": {"command": "view", "path": "/memories"}}],
    [{"type": "tool_use", "id": "toolu_02", "name": "memory",
      "input": {"command": "create", "path": "/memories/prefs.md", "file_text": "Alice prefers invoices in euros.\n"}},
     {"type": "tool_use", "id": "toolu_03", "name": "memory",
      "input": {"command": "create", "path": "/memories/vpn.md", "file_text": "VPN password: hunter2\n"}}],
    [{"type": "text", "text": "Noted: invoices in euros. I did not keep the VPN password."}],
]
"""Three assistant turns: look at the folder; write a preference and (as a hostile page might ask) a password;
then answer in text, which ends the loop."""


class ScriptExhausted(RuntimeError):
    """The runner asked for more model turns than the script holds."""


def scripted_client(turns: list[list[dict[str, Any]]], *, model: str = "claude-sonnet-4-5") -> tuple[Any, list[dict]]:
    """An `anthropic.Anthropic` client whose every request is answered with the next of `turns`, and the list of
    the requests it sent (JSON bodies, in order). A turn ending in a `tool_use` block stops for tools; the last
    must be text. Needs the `anthropic` extra (`pip install 'primer-memory[anthropic]'`)."""
    import httpx2 as httpx  # the SDK's own HTTP client, installed with it
    from anthropic import Anthropic

    sent: list[dict] = []

    def reply(request: Any) -> Any:
        sent.append(json.loads(request.content))
        if len(sent) > len(turns):
            raise ScriptExhausted(f"the script holds {len(turns)} model turns and the runner asked for turn "
                                  f"{len(sent)}; end the script with a text turn")
        content = turns[len(sent) - 1]
        stop = "tool_use" if any(block["type"] == "tool_use" for block in content) else "end_turn"
        return httpx.Response(200, json={
            "id": f"msg_{len(sent):02d}", "type": "message", "role": "assistant", "model": model, "content": content,
            "stop_reason": stop, "stop_sequence": None, "usage": {"input_tokens": 0, "output_tokens": 0}})

    client = Anthropic(api_key="offline: nothing is sent", max_retries=0,
                       http_client=httpx.Client(transport=httpx.MockTransport(reply)))
    return client, sent
