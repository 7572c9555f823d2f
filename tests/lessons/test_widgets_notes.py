"""The notes tool's path box, driven in Python without a browser."""

from __future__ import annotations

from pathlib import Path

import pytest

from primer_memory.notes.tool import ATTACK_PATHS, MemoryNotes, example_notes
from primer_memory.lessons.widgets import notes_panel, notes_path_view


@pytest.fixture
def store(tmp_path: Path) -> MemoryNotes:
    return example_notes(tmp_path / "memories", with_escape_link=True)


def test_view_of_the_root_lists_it(store: MemoryNotes) -> None:
    view = notes_path_view("/memories", store)
    assert view.accepted and view.kind == "folder"
    assert "/memories/alice/preferences.md" in view.text
    page = view.html()
    assert "ACCEPTED" in page and "<pre>" in page and str(store.root) not in page


def test_view_of_a_note_shows_numbered_lines(store: MemoryNotes) -> None:
    view = notes_path_view("/memories/alice/preferences.md", store)
    assert view.kind == "note" and "1\tAlice&#x27;s fiscal year" in view.html()


def test_a_missing_note_is_accepted_but_empty(store: MemoryNotes) -> None:
    view = notes_path_view("/memories/nope.md", store)
    assert view.accepted and view.kind == "missing" and view.error == "NoteNotFound"
    assert "no note at /memories/nope.md" in view.html()


@pytest.mark.parametrize("label,path", ATTACK_PATHS[3:])
def test_every_preset_attack_is_refused_with_its_message(store: MemoryNotes, label: str, path: str) -> None:
    view = notes_path_view(path, store)
    assert not view.accepted and view.error == "UnsafePath", label
    page = view.html()
    assert "REFUSED" in page and str(store.root) not in page and "decoy" not in page


def test_invisible_and_lookalike_characters_are_shown_as_escapes(store: MemoryNotes) -> None:
    assert "\\x00" in notes_path_view("/memories/notes.md\x00.png", store).html()
    page = notes_path_view("/memories/\uff0e\uff0e\uff0fsecrets.txt", store).html()
    assert "\\uff0e\\uff0e\\uff0f" in page


def test_panel_follows_the_path_box_and_presets(store: MemoryNotes) -> None:
    pytest.importorskip("ipywidgets")
    panel = notes_panel(store)
    assert repr(panel) == "NotesPanel()"
    assert "ACCEPTED" in panel.text.value
    panel.controls["path"].value = "/memories/../secrets.txt"
    assert "REFUSED" in panel.text.value and "&#x27;..&#x27; is not allowed" in panel.text.value
    panel.controls["preset"].value = "/memories/shortcut/passwd"
    assert panel.controls["path"].value == "/memories/shortcut/passwd"
    assert "symbolic link" in panel.text.value and "decoy" not in panel.text.value
    panel.controls["path"].value = "/memories/progress.md"
    assert "Reconciling September invoices" in panel.text.value


def test_panel_without_a_store_builds_the_example_in_a_temporary_folder() -> None:
    pytest.importorskip("ipywidgets")
    panel = notes_panel()
    assert "/memories/progress.md" in panel.text.value
    assert "pm-notes-path" in panel.controls["path"]._dom_classes
    assert "pm-notes-preset" in panel.controls["preset"]._dom_classes
    assert "pm-notes-text" in panel.text._dom_classes
    panel.controls["path"].value = "/memories/shortcut/passwd"
    assert "REFUSED" in panel.text.value
