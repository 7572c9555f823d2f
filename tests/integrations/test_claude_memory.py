"""Claude's memory tool on MemoryNotes: the SDK's command types in, the documented answers out, nothing unsafe.

Payloads are built from the SDK's own types (`BetaToolUseBlock` and its input dict, parsed by
the SDK into `BetaMemoryTool20250818*Command`), and one test runs the SDK's tool runner end
to end against a scripted transport, offline. Every path rule of notebook 3 must hold
through the tool, and the write policy must keep secrets out of notes.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

if not os.environ.get("CI"):  # CI installs every extra (make test): there a missing one fails
    pytest.importorskip("anthropic.lib.tools", reason="the [anthropic] extra is not installed")

from anthropic.lib.tools import BetaAbstractMemoryTool, ToolError  # noqa: E402
from anthropic.types.beta import BetaToolUseBlock  # noqa: E402

from primer_memory import MemoryNotes, review  # noqa: E402
from primer_memory.integrations import MemoryToolError, NotesMemoryTool, PathRefused, SecretRefused  # noqa: E402

HEADER = "Here're the files and directories up to 2 levels deep in /memories, excluding hidden items and node_modules:"


def _payloads() -> list[str]:
    """notebook 3's traversal payloads (tests/**/traversal_payloads.txt), decoded as its tests decode them."""
    found = next(Path(__file__).resolve().parents[1].rglob("traversal_payloads.txt"))
    lines = found.read_text(encoding="utf-8").split("\n")
    return [line.encode("ascii", "backslashreplace").decode("unicode_escape")
            for line in lines if line and not line.startswith("#")]


PAYLOADS = _payloads()


@pytest.fixture
def tool(tmp_path: Path) -> NotesMemoryTool:
    return NotesMemoryTool(MemoryNotes(tmp_path / "notes"))


def call(tool: NotesMemoryTool, **payload: object) -> str:
    """What the runner does with a tool_use block: hand its input to the tool."""
    block = BetaToolUseBlock(type="tool_use", id="toolu_01", name="memory", input=payload)
    return tool.call(block.input)


def snapshot(*roots: Path) -> dict[str, object]:
    seen: dict[str, object] = {}
    for root in roots:
        for folder, dirs, files in os.walk(root):
            for name in dirs + files:
                path = os.path.join(folder, name)
                seen[path] = os.readlink(path) if os.path.islink(path) else (
                    None if os.path.isdir(path) else Path(path).read_bytes())
    return seen


def test_it_is_the_sdks_memory_tool() -> None:
    assert issubclass(NotesMemoryTool, BetaAbstractMemoryTool) and issubclass(MemoryToolError, ToolError)


def test_the_six_commands_answer_as_the_documentation_describes(tool: NotesMemoryTool) -> None:
    assert call(tool, command="view", path="/memories") == HEADER + "\n0B\t/memories"
    text = "Reconciling September invoices.\nNext: Globex.\n"
    assert call(tool, command="create", path="/memories/progress.md", file_text=text) == \
        "File created successfully at: /memories/progress.md"
    call(tool, command="create", path="/memories/alice/preferences.md", file_text="Fiscal year: April\n")
    assert call(tool, command="view", path="/memories") == "\n".join([
        HEADER, "65B\t/memories", "19B\t/memories/alice/", "19B\t/memories/alice/preferences.md",
        "46B\t/memories/progress.md"])
    assert call(tool, command="view", path="/memories/progress.md") == (
        "Here's the content of /memories/progress.md with line numbers:\n"
        "     1\tReconciling September invoices.\n     2\tNext: Globex.")
    assert call(tool, command="str_replace", path="/memories/progress.md", old_str="Globex", new_str="Initech") == (
        "The memory file has been edited. Here is the snippet showing the change (with line numbers):\n"
        "     1\tReconciling September invoices.\n     2\tNext: Initech.")
    assert call(tool, command="insert", path="/memories/progress.md", insert_line=1,
                insert_text="Matched 3 of 4.\n") == "The file /memories/progress.md has been edited."
    assert tool.notes.read("/memories/progress.md") == "Reconciling September invoices.\nMatched 3 of 4.\nNext: Initech.\n"
    assert call(tool, command="rename", old_path="/memories/alice/preferences.md",
                new_path="/memories/alice/prefs.md") == \
        "Successfully renamed /memories/alice/preferences.md to /memories/alice/prefs.md"
    assert call(tool, command="delete", path="/memories/alice") == "Successfully deleted /memories/alice"
    assert tool.notes.list_notes() == ["/memories/progress.md"]


def test_view_range_shows_the_lines_asked_for_numbered_as_in_the_file(tool: NotesMemoryTool) -> None:
    call(tool, command="create", path="/memories/n.md", file_text="".join(f"line {i}\n" for i in range(1, 13)))
    shown = call(tool, command="view", path="/memories/n.md", view_range=[10, 11])
    assert shown.splitlines()[1:] == ["    10\tline 10", "    11\tline 11"]
    assert call(tool, command="view", path="/memories/n.md", view_range=[12, -1]).splitlines()[1:] == [
        "    12\tline 12"]
    for bad in ([0, 2], [13, -1], [5, 3], [1], [1, 2, 3]):
        with pytest.raises(MemoryToolError, match="view_range"):
            call(tool, command="view", path="/memories/n.md", view_range=bad)


def test_documented_errors(tool: NotesMemoryTool) -> None:
    call(tool, command="create", path="/memories/a.md", file_text="one two two\n")
    cases = [
        ({"command": "view", "path": "/memories/none.md"},
         "The path /memories/none.md does not exist. Please provide a valid path."),
        ({"command": "create", "path": "/memories/a.md", "file_text": "x"}, "Error: File /memories/a.md already exists"),
        ({"command": "str_replace", "path": "/memories/none.md", "old_str": "a", "new_str": "b"},
         "Error: The path /memories/none.md does not exist. Please provide a valid path."),
        ({"command": "str_replace", "path": "/memories/a.md", "old_str": "three", "new_str": "b"},
         "No replacement was performed, old_str `three` did not appear verbatim in /memories/a.md."),
        ({"command": "str_replace", "path": "/memories/a.md", "old_str": "two", "new_str": "b"},
         "No replacement was performed. Multiple occurrences of old_str `two` in lines: 1. Please ensure it is unique"),
        ({"command": "insert", "path": "/memories/none.md", "insert_line": 0, "insert_text": "x"},
         "Error: The path /memories/none.md does not exist"),
        ({"command": "insert", "path": "/memories/a.md", "insert_line": 5, "insert_text": "x"},
         "Error: Invalid `insert_line` parameter: 5. It should be within the range of lines of the file: [0, 1]"),
        ({"command": "delete", "path": "/memories/none.md"}, "Error: The path /memories/none.md does not exist"),
        ({"command": "rename", "old_path": "/memories/none.md", "new_path": "/memories/b.md"},
         "Error: The path /memories/none.md does not exist"),
    ]
    call(tool, command="create", path="/memories/b.md", file_text="b\n")
    cases.append(({"command": "rename", "old_path": "/memories/a.md", "new_path": "/memories/b.md"},
                  "Error: The destination /memories/b.md already exists"))
    for payload, message in cases:
        with pytest.raises(MemoryToolError) as error:
            call(tool, **payload)
        assert error.value.content == message, payload
    assert tool.notes.read("/memories/a.md") == "one two two\n"


@pytest.mark.parametrize("payload", PAYLOADS)
def test_every_traversal_payload_is_refused_by_every_command(tool: NotesMemoryTool, tmp_path: Path,
                                                             payload: str) -> None:
    call(tool, command="create", path="/memories/keep.md", file_text="keep\n")
    (tmp_path / "secrets.txt").write_text("outside\n")
    before = snapshot(tmp_path)
    attempts = [
        {"command": "view", "path": payload},
        {"command": "create", "path": payload, "file_text": "planted"},
        {"command": "str_replace", "path": payload, "old_str": "outside", "new_str": "x"},
        {"command": "insert", "path": payload, "insert_line": 0, "insert_text": "x"},
        {"command": "delete", "path": payload},
        {"command": "rename", "old_path": "/memories/keep.md", "new_path": payload},
        {"command": "rename", "old_path": payload, "new_path": "/memories/stolen.md"},
    ]
    for attempt in attempts:
        with pytest.raises(PathRefused):
            call(tool, **attempt)
    assert snapshot(tmp_path) == before


def test_links_that_lead_outside_are_neither_followed_nor_listed(tool: NotesMemoryTool, tmp_path: Path) -> None:
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "passwd").write_text("decoy\n")
    (tool.notes.root / "shortcut").symlink_to(outside, target_is_directory=True)
    (tool.notes.root / "direct.md").symlink_to(outside / "passwd")
    before = snapshot(tmp_path)
    for attempt in [{"command": "view", "path": "/memories/shortcut/passwd"},
                    {"command": "view", "path": "/memories/direct.md"},
                    {"command": "create", "path": "/memories/shortcut/new.md", "file_text": "x"},
                    {"command": "str_replace", "path": "/memories/direct.md", "old_str": "decoy", "new_str": "x"},
                    {"command": "insert", "path": "/memories/shortcut/passwd", "insert_line": 0, "insert_text": "x"},
                    {"command": "rename", "old_path": "/memories/shortcut/passwd", "new_path": "/memories/p.md"}]:
        with pytest.raises(PathRefused):
            call(tool, **attempt)
    assert call(tool, command="view", path="/memories") == HEADER + "\n0B\t/memories"
    assert snapshot(tmp_path) == before


def test_the_memories_root_itself_cannot_be_deleted_renamed_or_overwritten(tool: NotesMemoryTool) -> None:
    for attempt in [{"command": "delete", "path": "/memories"}, {"command": "delete", "path": "/memories/"},
                    {"command": "create", "path": "/memories", "file_text": "x"},
                    {"command": "rename", "old_path": "/memories", "new_path": "/memories/x"}]:
        with pytest.raises(PathRefused):
            call(tool, **attempt)
    assert tool.notes.root.is_dir()


SECRETS = ["my VPN password is hunter2", "api key: sk-ant-api03-abcdefghijklmnopqrstuvwxyz0123456789",
           "password = correct-horse-battery"]


@pytest.mark.parametrize("secret", SECRETS)
def test_the_write_policy_refuses_a_secret_in_any_write(tool: NotesMemoryTool, secret: str) -> None:
    call(tool, command="create", path="/memories/n.md", file_text="VPN: see the vault\n")
    for attempt in [{"command": "create", "path": "/memories/s.md", "file_text": f"note: {secret}\n"},
                    {"command": "str_replace", "path": "/memories/n.md", "old_str": "see the vault", "new_str": secret},
                    {"command": "insert", "path": "/memories/n.md", "insert_line": 1, "insert_text": secret}]:
        with pytest.raises(SecretRefused, match="refused"):
            call(tool, **attempt)
    assert tool.notes.list_notes() == ["/memories/n.md"] and tool.notes.read("/memories/n.md") == "VPN: see the vault\n"


def test_a_secret_assembled_across_two_edits_is_refused(tool: NotesMemoryTool) -> None:
    call(tool, command="create", path="/memories/n.md", file_text="my VPN password is\n")
    with pytest.raises(SecretRefused):  # each piece alone passes the policy; the note they make does not
        call(tool, command="str_replace", path="/memories/n.md", old_str="is\n", new_str="is hunter2\n")
    assert tool.notes.read("/memories/n.md") == "my VPN password is\n"


@settings(max_examples=60)
@given(text=st.one_of(st.text(max_size=60), st.sampled_from(SECRETS).map(lambda s: f"remember: {s}")))
def test_a_note_is_written_exactly_when_the_policy_does_not_refuse_it(tmp_path_factory: pytest.TempPathFactory,
                                                                     text: str) -> None:
    """Any text (unicode, control characters, secrets among prose): create stores it iff review does not refuse."""
    tool = NotesMemoryTool(MemoryNotes(tmp_path_factory.mktemp("n") / "notes"))
    refused = review(text).verdict == "refuse"
    try:
        call(tool, command="create", path="/memories/n.md", file_text=text)
    except SecretRefused:
        assert refused
        assert tool.notes.list_notes() == []
    except MemoryToolError:  # text the notes tool cannot store (a lone surrogate): refused by it, not the policy
        assert tool.notes.list_notes() == []
    else:
        assert not refused and tool.notes.read("/memories/n.md") == text


def test_the_sdks_tool_runner_drives_it_offline(tool: NotesMemoryTool) -> None:
    """The real runner: scripted model turns over a mock transport; results go back as tool_result blocks."""
    import httpx2 as httpx  # the anthropic SDK's own HTTP client (a dependency of the SDK)
    from anthropic import Anthropic
    from anthropic.types.beta import BetaMessage, BetaTextBlock, BetaUsage

    turns = [
        [BetaToolUseBlock(type="tool_use", id="toolu_01", name="memory", input={"command": "view", "path": "/memories"})],
        [BetaToolUseBlock(type="tool_use", id="toolu_02", name="memory", input={
            "command": "create", "path": "/memories/prefs.md", "file_text": "Alice prefers invoices in euros.\n"}),
         BetaToolUseBlock(type="tool_use", id="toolu_03", name="memory",
                          input={"command": "view", "path": "/memories/../../etc/passwd"})],
        [BetaTextBlock(type="text", text="Noted.")],
    ]
    requests: list[dict] = []

    def reply(request: object) -> object:
        requests.append(json.loads(request.content))
        content = turns[len(requests) - 1]
        message = BetaMessage(id=f"msg_{len(requests)}", type="message", role="assistant", model="claude-sonnet-4-5",
                              content=content, stop_sequence=None, usage=BetaUsage(input_tokens=1, output_tokens=1),
                              stop_reason="tool_use" if content[0].type == "tool_use" else "end_turn")
        return httpx.Response(200, json=message.model_dump(mode="json"))

    client = Anthropic(api_key="offline", max_retries=0, http_client=httpx.Client(transport=httpx.MockTransport(reply)))
    final = client.beta.messages.tool_runner(model="claude-sonnet-4-5", max_tokens=256, tools=[tool], messages=[
        {"role": "user", "content": "Remember that I prefer euros."}]).until_done()
    assert final.content[0].text == "Noted." and requests[0]["tools"] == [{"type": "memory_20250818", "name": "memory"}]
    results = [block for r in requests[1:] for block in r["messages"][-1]["content"]]
    assert results[0] == {"type": "tool_result", "tool_use_id": "toolu_01", "content": HEADER + "\n0B\t/memories"}
    assert results[1]["content"] == "File created successfully at: /memories/prefs.md" and "is_error" not in results[1]
    assert results[2]["is_error"] is True and "'..' is not allowed" in results[2]["content"]
    assert tool.notes.read("/memories/prefs.md") == "Alice prefers invoices in euros.\n"


def test_a_note_with_another_hard_link_is_refused(tool: NotesMemoryTool, tmp_path: Path) -> None:
    """A hard link can make a note's bytes live outside the folder: notebook 3 refuses it, so does the tool."""
    outside = tmp_path / "outside.txt"
    outside.write_text("host file\n")
    os.link(outside, tool.notes.root / "linked.md")
    for attempt in [{"command": "view", "path": "/memories/linked.md"},
                    {"command": "str_replace", "path": "/memories/linked.md", "old_str": "host", "new_str": "x"},
                    {"command": "insert", "path": "/memories/linked.md", "insert_line": 0, "insert_text": "x"}]:
        with pytest.raises(PathRefused):
            call(tool, **attempt)
    assert outside.read_text() == "host file\n"


def test_clear_all_memory_empties_the_folder_and_keeps_it(tool: NotesMemoryTool) -> None:
    call(tool, command="create", path="/memories/a/b.md", file_text="b\n")
    call(tool, command="create", path="/memories/c.md", file_text="c\n")
    assert tool.clear_all_memory() == "All memory cleared"
    assert tool.notes.list_notes() == [] and tool.notes.root.is_dir()


def test_the_async_twin_runs_the_same_commands(tmp_path: Path) -> None:
    import asyncio

    from anthropic.lib.tools import BetaAsyncAbstractMemoryTool

    from primer_memory.integrations import AsyncNotesMemoryTool

    tool = AsyncNotesMemoryTool(MemoryNotes(tmp_path / "notes"))
    assert isinstance(tool, BetaAsyncAbstractMemoryTool)

    async def session() -> list[str]:
        said = [await tool.call({"command": "create", "path": "/memories/a.md", "file_text": "Alice: euros\n"}),
                await tool.call({"command": "view", "path": "/memories/a.md"})]
        for attempt in ({"command": "view", "path": "/memories/../x"},
                        {"command": "create", "path": "/memories/b.md", "file_text": "my VPN password is hunter2"}):
            try:
                await tool.call(attempt)
            except MemoryToolError as error:
                said.append(type(error).__name__)
        return said

    assert asyncio.run(session()) == ["File created successfully at: /memories/a.md",
                                      "Here's the content of /memories/a.md with line numbers:\n     1\tAlice: euros",
                                      "PathRefused", "SecretRefused"]
