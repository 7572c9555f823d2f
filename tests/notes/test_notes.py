"""The path-safe notes tool: every escape refused without side effects, ordinary paths work, writes are atomic."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from primer_memory.notes import tool as notes_module
from primer_memory.notes.tool import (
    ATTACK_PATHS,
    InvalidLine,
    MemoryNotes,
    NoteConflict,
    NoteNotFound,
    NotesError,
    NotesStorageError,
    NoteTooLarge,
    TextNotFound,
    TextNotUnique,
    UnsafePath,
    example_notes,
    parse_path,
)

PAYLOAD_FILE = Path(__file__).with_name("traversal_payloads.txt")


def _load_payloads() -> list[str]:
    """Decode \\xNN, \\uNNNN and \\\\ in the payload file; other characters are literal."""
    lines = PAYLOAD_FILE.read_text(encoding="utf-8").split("\n")
    return [line.encode("ascii", "backslashreplace").decode("unicode_escape")
            for line in lines if line and not line.startswith("#")]


PAYLOADS = _load_payloads()
LEGIT = [
    "/memories", "/memories/", "/memories/progress.md", "/memories/a..b.md", "/memories/.hidden_ok.md",
    "/memories/notes/2026-09.md", "/memories/café.md", "/memories/日本語のメモ.md", "/memories/my notes.md",
    "/memories/a/b/c/d.md", "/memories/x...y", "/memories/v1.2.3", "/memories/projects/",
]


def snapshot(*roots: Path) -> dict[str, tuple[str, str | bytes]]:
    """Every entry under the given folders: files with their bytes, links with their targets, folders."""
    seen: dict[str, tuple[str, str | bytes]] = {}
    for root in roots:
        for folder, dirs, files in os.walk(root):
            for name in dirs + files:
                path = os.path.join(folder, name)
                if os.path.islink(path):
                    seen[path] = ("link", os.readlink(path))
                elif os.path.isdir(path):
                    seen[path] = ("dir", "")
                else:
                    seen[path] = ("file", Path(path).read_bytes())
    return seen


@pytest.fixture
def store(tmp_path: Path) -> MemoryNotes:
    """Alice's example notes plus a link leading out to a decoy folder next to the store."""
    return example_notes(tmp_path / "memories", with_escape_link=True)


def _outside(store: MemoryNotes) -> Path:
    return store.root.parent / f"{store.root.name}-outside"


# --------------------------------------------------------------------------- the payload list


def test_payload_list_is_long_and_distinct() -> None:
    assert len(PAYLOADS) >= 100
    assert len(set(PAYLOADS)) == len(PAYLOADS)


@pytest.mark.parametrize("payload", PAYLOADS, ids=[ascii(p)[1:-1][:60] for p in PAYLOADS])
def test_payload_refused_by_every_command_and_changes_nothing(store: MemoryNotes, payload: str) -> None:
    before = snapshot(store.root.parent)
    calls = [
        lambda: store.view(payload),
        lambda: store.read(payload),
        lambda: store.create(payload, "pwned"),
        lambda: store.str_replace(payload, "a", "b"),
        lambda: store.insert(payload, 0, "pwned"),
        lambda: store.delete(payload),
        lambda: store.rename(payload, "/memories/moved.md"),
        lambda: store.rename("/memories/progress.md", payload),
        lambda: store.locate(payload),
    ]
    for call in calls:
        with pytest.raises(UnsafePath) as caught:
            call()
        message = str(caught.value)
        assert str(store.root) not in message and str(store.root.parent) not in message
        assert message  # says what was wrong
    assert snapshot(store.root.parent) == before


def test_widget_presets_ordinary_first_then_refused(store: MemoryNotes) -> None:
    for _, path in ATTACK_PATHS[:3]:
        assert store.view(path)
    for _, path in ATTACK_PATHS[3:]:
        with pytest.raises(UnsafePath):
            store.view(path)


@pytest.mark.parametrize("path", LEGIT)
def test_legitimate_paths_are_accepted_inside_root(store: MemoryNotes, path: str) -> None:
    located = store.locate(path)
    assert os.path.commonpath([located, store.root]) == str(store.root)


def test_host_path_built_from_the_real_root_is_refused_without_echo(store: MemoryNotes) -> None:
    for path in (str(store.root), str(store.root / "progress.md"), f"{store.root}/../x",
                 f"/memories/..{store.root}"):
        with pytest.raises(UnsafePath) as caught:
            store.view(path)
        assert str(store.root) not in str(caught.value)


def test_long_and_deep_paths_are_refused(store: MemoryNotes) -> None:
    with pytest.raises(UnsafePath, match="longer than 255 bytes"):
        store.create("/memories/" + "a" * 256, "x")
    with pytest.raises(UnsafePath, match="deeper than"):
        store.create("/memories/" + "a/" * 13 + "x.md", "x")
    with pytest.raises(UnsafePath, match="longer than 512 characters"):
        store.view("/memories/" + "a/" * 300)
    with pytest.raises(UnsafePath, match="must be a string"):
        store.view(None)  # type: ignore[arg-type]


def test_specific_messages_say_what_was_wrong() -> None:
    cases = {
        "/memories/../x": "'..' is not allowed",
        "/memories/%2e%2e/x": "percent-encoded",
        "/memories/x\\y": "backslashes",
        "/etc/passwd": "outside /memories",
        "/memories_backup/x": "sibling of /memories",
        "/memories/x\x00": "NUL byte",
        "/memories/\uff0e\uff0e/x": "NFKC",
        "/memories/..\u2215x": "DIVISION SLASH",
        "memories/x": "relative paths",
        "/memories/x\ny": "control",
        "/memories/x:y": "not allowed in a memory name",
    }
    for path, expected in cases.items():
        with pytest.raises(UnsafePath, match=expected):
            parse_path(path)


# --------------------------------------------------------------------------- symbolic links


def test_links_leading_out_are_refused_for_every_command(store: MemoryNotes, tmp_path: Path) -> None:
    outside = _outside(store)
    (store.root / "secret_link.md").symlink_to(outside / "passwd")
    (store.root / "dangling_out.md").symlink_to(tmp_path / "not-yet-there.md")
    (store.root / "alice" / "up").symlink_to("../..", target_is_directory=True)
    before = snapshot(tmp_path)
    for path in ("/memories/shortcut", "/memories/shortcut/passwd", "/memories/shortcut/new.md",
                 "/memories/secret_link.md", "/memories/dangling_out.md", "/memories/alice/up/memories-outside"):
        for call in (lambda: store.view(path), lambda: store.create(path, "pwned"),
                     lambda: store.str_replace(path, "decoy", "pwned"), lambda: store.insert(path, 0, "pwned"),
                     lambda: store.delete(path), lambda: store.rename(path, "/memories/moved"),
                     lambda: store.rename("/memories/progress.md", path)):
            with pytest.raises(UnsafePath, match="symbolic link"):
                call()
    assert snapshot(tmp_path) == before
    assert not (tmp_path / "not-yet-there.md").exists()
    assert "link leading outside: refused" in store.view("/memories")


def test_links_that_stay_inside_are_followed(store: MemoryNotes) -> None:
    (store.root / "alias.md").symlink_to("alice/preferences.md")
    (store.root / "people").symlink_to("alice", target_is_directory=True)
    assert store.read("/memories/alias.md") == store.read("/memories/alice/preferences.md")
    assert "preferences.md" in store.view("/memories/people")
    store.str_replace("/memories/alias.md", "April", "July")  # edits the note the link names
    assert "July" in store.read("/memories/alice/preferences.md")
    assert (store.root / "alias.md").is_symlink()
    store.delete("/memories/people")  # removes the link, not the folder it points to
    assert store.exists("/memories/alice/preferences.md") and not store.exists("/memories/people")


def test_root_given_as_a_link_is_resolved_once(tmp_path: Path) -> None:
    real = tmp_path / "real"
    real.mkdir()
    (tmp_path / "alias").symlink_to(real, target_is_directory=True)
    notes = MemoryNotes(tmp_path / "alias")
    notes.create("/memories/a.md", "hello\n")
    assert (real / "a.md").read_text() == "hello\n"


def test_hard_links_and_special_files_are_not_read(store: MemoryNotes, tmp_path: Path) -> None:
    os.link(_outside(store) / "passwd", store.root / "hard.md")
    with pytest.raises(UnsafePath, match="hard links"):
        store.read("/memories/hard.md")
    os.mkfifo(store.root / "pipe.md")
    with pytest.raises(UnsafePath, match="not a regular file"):
        store.view("/memories/pipe.md")  # must not block waiting for a writer


# --------------------------------------------------------------------------- the six commands


def test_view_lists_folders_and_numbers_lines(store: MemoryNotes) -> None:
    listing = store.view("/memories")
    assert "/memories/alice/preferences.md  73" in listing and "/memories/projects/" in listing
    assert str(store.root) not in listing
    assert store.view("/memories/alice/preferences.md").splitlines() == [
        "/memories/alice/preferences.md (2 lines)",
        "   1\tAlice's fiscal year starts in April.",
        "   2\tAlice approves travel for her team.",
    ]
    store.create("/memories/empty/blank.md", "")
    assert store.view("/memories/empty/blank.md") == "/memories/empty/blank.md (empty)"


def test_create_overwrites_and_makes_folders(store: MemoryNotes) -> None:
    assert store.create("/memories/new/deep/n.md", "one\n") == "created /memories/new/deep/n.md (4 bytes)"
    assert store.create("/memories/new/deep/n.md", "two\n").startswith("overwrote")
    assert store.read("/memories/new/deep/n.md") == "two\n"
    with pytest.raises(NoteConflict, match="is a folder"):
        store.create("/memories/alice", "x")
    with pytest.raises(NoteConflict, match="parent of /memories/progress.md/x.md is a note"):
        store.create("/memories/progress.md/x.md", "x")
    with pytest.raises(UnsafePath, match="memory folder itself"):
        store.create("/memories", "x")


def test_str_replace_needs_exactly_one_occurrence(store: MemoryNotes) -> None:
    store.create("/memories/t.md", "Globex Globex Initech\n")
    before = snapshot(store.root)
    with pytest.raises(TextNotFound, match="does not occur"):
        store.str_replace("/memories/t.md", "Acme", "x")
    with pytest.raises(TextNotUnique, match="occurs 2 times"):
        store.str_replace("/memories/t.md", "Globex", "x")
    with pytest.raises(TextNotFound, match="empty"):
        store.str_replace("/memories/t.md", "", "x")
    assert snapshot(store.root) == before
    store.str_replace("/memories/t.md", "Initech", "Acme")
    assert store.read("/memories/t.md") == "Globex Globex Acme\n"


def test_insert_by_line_number(store: MemoryNotes) -> None:
    store.create("/memories/t.md", "a\nb")
    store.insert("/memories/t.md", 2, "c")
    store.insert("/memories/t.md", 0, "start\n")
    store.insert("/memories/t.md", 1, "x\ny")
    assert store.read("/memories/t.md") == "start\nx\ny\na\nb\nc\n"
    for bad in (-1, 7, True, "1", 1.0):
        with pytest.raises(InvalidLine, match="from 0 to 6"):
            store.insert("/memories/t.md", bad, "z")  # type: ignore[arg-type]


def test_delete_and_rename(store: MemoryNotes) -> None:
    assert store.rename("/memories/alice", "/memories/people/alice") == \
        "renamed /memories/alice to /memories/people/alice"
    assert store.exists("/memories/people/alice/preferences.md")
    with pytest.raises(NoteConflict, match="already exists"):
        store.rename("/memories/progress.md", "/memories/projects/invoices.md")
    with pytest.raises(NoteConflict, match="into itself"):
        store.rename("/memories/people", "/memories/people/inner")
    store.delete("/memories/people")
    assert not store.exists("/memories/people/alice/preferences.md")
    assert store.list_notes() == ["/memories/progress.md", "/memories/projects/invoices.md"]


def test_the_root_cannot_be_deleted_or_renamed(store: MemoryNotes) -> None:
    before = snapshot(store.root.parent)
    for call in (lambda: store.delete("/memories"), lambda: store.delete("/memories/"),
                 lambda: store.rename("/memories", "/memories/x"), lambda: store.rename("/memories/progress.md",
                                                                                        "/memories")):
        with pytest.raises(UnsafePath, match="/memories itself"):
            call()
    assert snapshot(store.root.parent) == before


def test_missing_notes_raise_note_not_found(store: MemoryNotes) -> None:
    for call in (lambda: store.view("/memories/nope.md"), lambda: store.str_replace("/memories/nope.md", "a", "b"),
                 lambda: store.insert("/memories/nope.md", 0, "x"), lambda: store.delete("/memories/nope.md"),
                 lambda: store.rename("/memories/nope.md", "/memories/yes.md")):
        with pytest.raises(NoteNotFound) as caught:
            call()
        assert isinstance(caught.value, KeyError)
        assert str(caught.value).endswith(("list what exists", "/memories/nope.md"))
        assert not str(caught.value).startswith("'")


def test_size_cap(tmp_path: Path) -> None:
    notes = MemoryNotes(tmp_path / "m", max_bytes=20)
    notes.create("/memories/a.md", "0123456789")
    before = snapshot(tmp_path)
    with pytest.raises(NoteTooLarge, match="21 bytes, over the cap of 20"):
        notes.create("/memories/b.md", "x" * 21)
    with pytest.raises(NoteTooLarge):
        notes.str_replace("/memories/a.md", "0", "0" * 20)
    with pytest.raises(NoteTooLarge):
        notes.insert("/memories/a.md", 0, "y" * 15)
    assert snapshot(tmp_path) == before
    (notes.root / "big.md").write_text("z" * 100)  # placed by the host, not through the tool
    with pytest.raises(NoteTooLarge, match="100 bytes"):
        notes.read("/memories/big.md")
    with pytest.raises(ValueError, match="max_bytes"):
        MemoryNotes(tmp_path / "m", max_bytes=0)


def test_repr_hides_the_host_path(store: MemoryNotes) -> None:
    assert repr(store) == "MemoryNotes('/memories', max_bytes=65536)"


# --------------------------------------------------------------------------- atomic writes


@pytest.mark.parametrize("broken", ["replace", "fsync"])
def test_a_failed_write_leaves_the_old_note_and_no_temp_file(store: MemoryNotes, monkeypatch: pytest.MonkeyPatch,
                                                             broken: str) -> None:
    before = snapshot(store.root)

    def fail(*args: object, **kwargs: object) -> None:
        raise PermissionError(13, "Permission denied", str(store.root / "progress.md"))

    monkeypatch.setattr(notes_module.os, broken, fail)
    with pytest.raises(NotesStorageError) as caught:
        store.str_replace("/memories/progress.md", "Globex", "Initech")
    assert str(store.root) not in str(caught.value) and "Permission denied" in str(caught.value)
    with pytest.raises(NotesStorageError):
        store.create("/memories/brand/new/folder/n.md", "text")
    monkeypatch.undo()
    assert snapshot(store.root) == before  # no half note, no temp file, no empty folders


def test_temp_names_are_reserved_and_hidden(store: MemoryNotes) -> None:
    (store.root / ".~tmp-leftover").write_text("x")
    assert ".~tmp" not in store.view("/memories")
    assert all(".~tmp" not in p for p in store.list_notes())
    with pytest.raises(UnsafePath, match="reserved"):
        store.read("/memories/.~tmp-leftover")


def test_every_error_is_a_notes_error() -> None:
    for cls in (UnsafePath, NoteNotFound, NoteTooLarge, NoteConflict, TextNotFound, TextNotUnique, InvalidLine,
                NotesStorageError):
        assert issubclass(cls, NotesError)
    assert issubclass(UnsafePath, ValueError) and issubclass(NoteNotFound, KeyError)


# --------------------------------------------------------------------------- properties

_pieces = st.sampled_from(["..", ".", "/", "\\", "%2e", "%2f", "%25", "%5c", "a", "b.md", "memories", "/memories",
                           "/memories/", "\x00", "\uff0e", "\uff0f", "\u2215", " ", "~", "_backup", "-", "shortcut",
                           "alice", "up", "\u200b", "é", "日"])
_paths = st.lists(_pieces, max_size=10).map("".join)
# Mostly plain names, so many paths are accepted and the link checks on disk get exercised.
_plain = st.sampled_from(["a", "b.md", "alice", "up", "shortcut", "passwd", "projects", "x y", "é.md"])
_names = st.one_of(_plain, _plain, _plain, _pieces, st.text(alphabet="ab.-_ ", min_size=1, max_size=4))
_name_paths = st.lists(_names, max_size=6).map(lambda names: "/memories/" + "/".join(names))


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(path=st.one_of(_name_paths, _paths, _paths.map(lambda p: "/memories/" + p), st.text(max_size=40)))
def test_any_accepted_path_resolves_inside_root(store: MemoryNotes, path: str) -> None:
    """Whatever the text, a path the tool accepts lands inside root, and writing there changes nothing outside."""
    if not (store.root / "alice" / "up").is_symlink():
        (store.root / "alice" / "up").symlink_to("../..", target_is_directory=True)
    outside_before = snapshot(_outside(store))
    try:
        located = store.locate(path)
    except UnsafePath:
        return
    assert os.path.commonpath([located, os.path.realpath(store.root)]) == str(store.root)
    if parse_path(path):
        try:
            store.create(path, "written by the property test")
        except NotesError:
            pass
        assert snapshot(_outside(store)) == outside_before
