"""Notebook 6's scripted Claude: the SDK's real tool runner over canned turns drives the notes tool offline."""

from __future__ import annotations

from pathlib import Path

import pytest

from primer_memory import MemoryNotes
from primer_memory.integrations import NotesMemoryTool
from primer_memory.lessons.scripted_claude import MEMORY_TURNS, ScriptExhausted, scripted_client


def test_the_runner_writes_the_preference_and_the_gate_refuses_the_password(tmp_path: Path) -> None:
    tool = NotesMemoryTool(MemoryNotes(tmp_path / "notes"))
    client, sent = scripted_client(MEMORY_TURNS)
    final = client.beta.messages.tool_runner(model="claude-sonnet-4-5", max_tokens=64, tools=[tool], messages=[
        {"role": "user", "content": "I prefer euros. My VPN password is hunter2."}]).until_done()
    assert len(sent) == 3 and sent[0]["tools"] == [{"type": "memory_20250818", "name": "memory"}]
    results = sent[2]["messages"][-1]["content"]
    assert [r["tool_use_id"] for r in results] == ["toolu_02", "toolu_03"]
    assert "is_error" not in results[0] and results[1]["is_error"] is True and "refused" in results[1]["content"]
    assert tool.notes.list_notes() == ["/memories/prefs.md"] and final.content[0].text.startswith("Noted")


def test_a_script_that_never_answers_in_text_is_named(tmp_path: Path) -> None:
    tool = NotesMemoryTool(MemoryNotes(tmp_path / "notes"))
    client, _ = scripted_client(MEMORY_TURNS[:1])
    with pytest.raises(Exception) as caught:
        client.beta.messages.tool_runner(model="claude-sonnet-4-5", max_tokens=64, tools=[tool], messages=[
            {"role": "user", "content": "hi"}]).until_done()
    chain = [caught.value, caught.value.__cause__, caught.value.__context__]
    assert any(isinstance(e, ScriptExhausted) and "end the script with a text turn" in str(e) for e in chain), chain
