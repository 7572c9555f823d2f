"""The notes tool against hostile input: a bad root, text that has no UTF-8 form, notes and names on disk that
are not UTF-8. Each is refused with a named error whose message shows paths only as the caller gave them, and
no byte on disk (ours or not) changes."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from primer_memory.notes.tool import (
    InvalidText,
    MemoryNotes,
    NoteNotText,
    NotesError,
    NotesSetupError,
    TextNotFound,
    TextNotUnique,
    example_notes,
)


def snapshot(root: Path) -> dict[bytes, tuple[str, bytes]]:
    """Every entry under `root` (names as bytes, so undecodable names are seen too), with bytes or link target."""
    seen: dict[bytes, tuple[str, bytes]] = {}
    for folder, dirs, files in os.walk(os.fsencode(root)):
        for name in dirs + files:
            path = os.path.join(folder, name)
            if os.path.islink(path):
                seen[path] = ("link", os.readlink(path))
            elif os.path.isdir(path):
                seen[path] = ("dir", b"")
            else:
                seen[path] = ("file", Path(os.fsdecode(path)).read_bytes())
    return seen


@pytest.fixture
def store(tmp_path: Path) -> MemoryNotes:
    return example_notes(tmp_path / "memories")


# --------------------------------------------------------------------------- the root


ROOTS_BAD_VALUE = [("me\x00m", "NUL"), (5, "int"), (None, "NoneType"), (b"mem", "bytes"), (["mem"], "list"),
                   (1.5, "float"), ("", "empty"), ("   ", "empty"), ("m" * 300, "too long"),
                   ("d/" * 2100 + "m", "too long"), ("half\ud800", "surrogate")]


@pytest.mark.parametrize("root, said", ROOTS_BAD_VALUE)
def test_a_root_that_is_no_path_is_refused_by_name(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, root: object,
                                                   said: str) -> None:
    monkeypatch.chdir(tmp_path)
    with pytest.raises(NotesSetupError, match=said):
        MemoryNotes(root)  # type: ignore[arg-type]
    assert os.listdir(tmp_path) == []


def _refused_root(tmp_path: Path, given: str) -> str:
    before = snapshot(tmp_path)
    with pytest.raises(NotesSetupError) as caught:
        MemoryNotes(given)
    message = str(caught.value)
    assert repr(given) in message, message
    assert str(tmp_path) not in message and os.path.realpath(tmp_path) not in message
    assert snapshot(tmp_path) == before
    return message


def test_a_root_that_is_a_file_is_refused(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    Path("afile").write_text("x\n")
    assert "not a folder" in _refused_root(tmp_path, "afile")
    os.symlink("afile", "link-to-file")
    assert "not a folder" in _refused_root(tmp_path, "link-to-file")
    assert "not a folder" in _refused_root(tmp_path, "afile/mem")  # a parent that is a file


def test_a_root_that_is_a_dangling_link_is_refused_not_created_through(tmp_path: Path,
                                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    os.mkdir("outside")
    os.symlink("outside/none", "mem")
    assert "does not exist" in _refused_root(tmp_path, "mem")
    assert not os.path.exists("outside/none")


def test_a_root_that_cannot_be_created_is_refused_without_the_host_path(tmp_path: Path,
                                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    """A read-only parent (simulated: the tests may run as root, which ignores permissions)."""
    monkeypatch.chdir(tmp_path)
    os.mkdir("ro")
    real_mkdir = os.mkdir

    def refuse(path: object, *args: object, **kwargs: object) -> None:
        if os.fspath(path).startswith("ro"):  # type: ignore[call-overload]
            raise PermissionError(13, "Permission denied", os.path.abspath(os.fspath(path)))  # type: ignore
        real_mkdir(path, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(os, "mkdir", refuse)
    message = _refused_root(tmp_path, "ro/mem")
    assert "Permission denied" in message


def test_a_failed_root_creation_removes_the_folders_it_made(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    real_mkdir = os.mkdir

    def refuse_deepest(path: object, *args: object, **kwargs: object) -> None:
        if os.fspath(path).endswith("c"):  # type: ignore[call-overload]
            raise OSError(28, "No space left on device")
        real_mkdir(path, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(os, "mkdir", refuse_deepest)
    assert "No space left" in _refused_root(tmp_path, "a/b/c")
    assert os.listdir(tmp_path) == []


def test_good_roots_still_work(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    assert MemoryNotes("new/deep/mem").list_notes() == []
    assert MemoryNotes(Path("new/deep/mem/")).root == Path(os.path.realpath("new/deep/mem"))
    os.symlink("new", "alias")
    MemoryNotes("alias/deep/mem").create("/memories/a.md", "a")
    assert Path("new/deep/mem/a.md").read_text() == "a"
    assert MemoryNotes("a/../b").root == Path(os.path.realpath("b"))


def test_a_bad_max_bytes_is_a_setup_error(tmp_path: Path) -> None:
    for bad in (0, -1, 1.5, True, "10", None):
        with pytest.raises(NotesSetupError, match="max_bytes"):
            MemoryNotes(tmp_path / "m", max_bytes=bad)  # type: ignore[arg-type]


# --------------------------------------------------------------------------- text with no UTF-8 form


SURROGATE_CALLS = [
    ("create new", lambda n: n.create("/memories/new.md", "half \ud800 char")),
    ("overwrite", lambda n: n.create("/memories/progress.md", "half \ud800 char")),
    ("str_replace new", lambda n: n.str_replace("/memories/progress.md", "Globex", "Glo\udcffbex")),
    ("str_replace old", lambda n: n.str_replace("/memories/progress.md", "Glo\udcffbex", "Globex")),
    ("insert", lambda n: n.insert("/memories/progress.md", 1, "\ud800")),
]


@pytest.mark.parametrize("what, call", SURROGATE_CALLS, ids=[w for w, _ in SURROGATE_CALLS])
def test_lone_surrogates_are_refused_and_nothing_is_written(store: MemoryNotes, tmp_path: Path, what: str,
                                                            call: object) -> None:
    before = snapshot(tmp_path)
    with pytest.raises(InvalidText, match="surrogate"):
        call(store)  # type: ignore[operator]
    assert snapshot(tmp_path) == before


@pytest.mark.parametrize("call", [lambda n: n.create("/memories/a.md", None), lambda n: n.create("/memories/a.md", b"x"),
                                  lambda n: n.str_replace("/memories/progress.md", None, "x"),
                                  lambda n: n.str_replace("/memories/progress.md", "Globex", 5),
                                  lambda n: n.insert("/memories/progress.md", 1, None)])
def test_text_that_is_not_a_string_is_an_invalid_text(store: MemoryNotes, tmp_path: Path, call: object) -> None:
    before = snapshot(tmp_path)
    with pytest.raises(InvalidText) as caught:
        call(store)  # type: ignore[operator]
    assert isinstance(caught.value, TypeError) and isinstance(caught.value, NotesError)  # as before, and named
    assert snapshot(tmp_path) == before


# --------------------------------------------------------------------------- notes that are not UTF-8


@pytest.mark.parametrize("data", [b"caf\xe9 costs 3 EUR\n", b"\xff\xfe3\x00", b"3 \xed\xa0\x80", b"3 \xc0\xaf"])
def test_a_note_that_is_not_utf8_is_not_edited(store: MemoryNotes, tmp_path: Path, data: bytes) -> None:
    (store.root / "latin.md").write_bytes(data)
    before = snapshot(tmp_path)
    with pytest.raises(NoteNotText, match="/memories/latin.md") as caught:
        store.str_replace("/memories/latin.md", "3", "4")
    assert "create" in str(caught.value) and str(tmp_path) not in str(caught.value)
    with pytest.raises(NoteNotText):
        store.insert("/memories/latin.md", 0, "more")
    assert snapshot(tmp_path) == before
    assert "/memories/latin.md" in store.view("/memories/latin.md")  # reading still works, shown with U+FFFD
    store.create("/memories/latin.md", "café costs 4 EUR\n")  # replacing it whole is the way out
    assert (store.root / "latin.md").read_bytes() == "café costs 4 EUR\n".encode()


_note_text = st.text(alphabet=st.sampled_from(list("ab\n é€😀\r\t")), max_size=40)


@st.composite
def _text_and_span(draw: st.DrawFn) -> tuple[str, int, int]:
    """A non-empty note and a span inside it (drawn within the text, so few draws are thrown away)."""
    text = draw(_note_text.filter(bool))
    start = draw(st.integers(0, len(text) - 1))
    return text, start, draw(st.integers(1, 6))


@settings(max_examples=100, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(case=_text_and_span(), new=_note_text)
def test_str_replace_changes_only_the_edited_span(store: MemoryNotes, case: tuple[str, int, int], new: str) -> None:
    """Class of input: any note text (surrogate-free Unicode, CR, tabs, emoji) and any span of it that occurs once."""
    text, start, length = case
    old = text[start:start + length]
    assume(text.count(old) == 1)
    store.create("/memories/p.md", text)
    others = {k: v for k, v in snapshot(store.root).items() if not k.endswith(b"/p.md")}
    store.str_replace("/memories/p.md", old, new)
    i = text.index(old)
    expected = text[:i].encode() + new.encode() + text[i + len(old):].encode()
    assert (store.root / "p.md").read_bytes() == expected
    assert {k: v for k, v in snapshot(store.root).items() if not k.endswith(b"/p.md")} == others


@settings(max_examples=100, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(text=_note_text, line=st.integers(0, 12), new=_note_text)
def test_insert_changes_only_the_line_boundary_it_writes_at(store: MemoryNotes, text: str, line: int,
                                                            new: str) -> None:
    store.create("/memories/p.md", text)
    data = text.encode()
    lines = data.split(b"\n")
    count = len(lines) - 1 if data.endswith(b"\n") or not data else len(lines)
    assume(line <= count)
    store.insert("/memories/p.md", line, new)
    insert = new.encode() + (b"" if new.endswith("\n") else b"\n")
    body = data if not data or data.endswith(b"\n") else data + b"\n"  # the last line gets its newline
    at = 0
    for _ in range(line):
        at = body.index(b"\n", at) + 1
    assert (store.root / "p.md").read_bytes() == body[:at] + insert + body[at:]


@settings(max_examples=100, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.binary(max_size=30), old=st.sampled_from(["a", "3", "\n", "é"]))
def test_any_bytes_on_disk_are_edited_exactly_or_refused_unchanged(store: MemoryNotes, data: bytes,
                                                                   old: str) -> None:
    (store.root / "raw.md").write_bytes(data)
    try:
        store.str_replace("/memories/raw.md", old, "NEW")
    except NoteNotText:
        assert (store.root / "raw.md").read_bytes() == data
        with pytest.raises(UnicodeDecodeError):
            data.decode("utf-8")
    except (TextNotFound, TextNotUnique):
        assert (store.root / "raw.md").read_bytes() == data
    else:
        assert (store.root / "raw.md").read_bytes() == data.replace(old.encode(), b"NEW", 1)


# --------------------------------------------------------------------------- names on disk that are not UTF-8


def test_names_that_are_not_utf8_never_reach_a_listing(store: MemoryNotes, tmp_path: Path) -> None:
    root = os.fsencode(store.root)
    os.close(os.open(os.path.join(root, b"\xff.md"), os.O_CREAT | os.O_WRONLY, 0o644))
    os.mkdir(os.path.join(root, b"dir\xfe"))
    Path(os.fsdecode(os.path.join(root, b"dir\xfe", b"inside.md"))).write_text("x")
    before = snapshot(tmp_path)
    listing, notes = store.view("/memories"), store.list_notes()
    json.dumps({"listing": listing, "notes": notes}, ensure_ascii=False).encode("utf-8")
    assert "\udcff" not in listing and "inside.md" not in listing
    assert notes == ["/memories/alice/preferences.md", "/memories/progress.md", "/memories/projects/invoices.md"]
    assert "2 names hidden" in listing  # said, not silently dropped
    assert snapshot(tmp_path) == before


def test_a_folder_holding_only_undecodable_names_is_not_shown_as_empty(tmp_path: Path) -> None:
    notes = MemoryNotes(tmp_path / "m")
    os.close(os.open(os.path.join(os.fsencode(notes.root), b"\xff"), os.O_CREAT | os.O_WRONLY, 0o644))
    listing = notes.view("/memories")
    assert "(empty)" not in listing and "1 name hidden" in listing
    assert notes.list_notes() == []
