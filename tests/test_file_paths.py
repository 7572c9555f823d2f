"""The shared path checks: every bad value or place gets the caller's error, naming the path as given."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from primer_memory.file_paths import check_file_place, check_path_value


class Refused(ValueError):
    pass


@pytest.mark.parametrize("value", [3, 1.5, None, b"memory.db", ["memory.db"], "", "  ", "a\0b.db", "x" * 256,
                                   "d/" * 2100 + "t.db", "al\ud800ice.db"])
def test_bad_path_values_are_refused_with_the_callers_error(value: object) -> None:
    with pytest.raises(Refused):
        check_path_value(value, Refused)


@settings(max_examples=200, deadline=None)
@given(st.text(st.characters(blacklist_categories=("Cs", "Cc")), min_size=1, max_size=60)
       .filter(lambda s: s.strip() and "/" not in s))
def test_any_short_text_name_is_accepted_and_returned_as_given(name: str) -> None:
    """Class of input: any short name without a slash. SQLite's own names (':memory:' and 'file:' URIs) are the
    documented exception, refused by name (the parametrised test below); hypothesis found ':memory:' here."""
    if name == ":memory:" or name.startswith("file:"):
        with pytest.raises(Refused):
            check_path_value(name, Refused)
        return
    assert check_path_value(name, Refused) == name
    path = Path("notes") / name  # pathlib itself drops a "." part: the Path as given is what comes back
    assert check_path_value(path, Refused) == os.fspath(path)


def test_places_are_refused_by_the_path_as_given_and_nothing_is_created(tmp_path: Path,
                                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "folder").mkdir()
    (tmp_path / "file.db").write_bytes(b"")
    os.symlink("gone.db", tmp_path / "dangling.db")
    before = sorted(p.name for p in tmp_path.iterdir())
    for given in ("folder", "folder/", "missing/x.db", "dangling.db", "/dev/null"):
        with pytest.raises(Refused) as refused:
            check_file_place(given, Refused)
        assert repr(given) in str(refused.value) and str(tmp_path) not in str(refused.value)
    assert check_file_place("file.db", Refused) is True
    assert check_file_place("new.db", Refused) is False
    assert sorted(p.name for p in tmp_path.iterdir()) == before


def test_a_read_only_file_is_refused_even_for_root(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "ro.db").write_bytes(b"")
    os.chmod(tmp_path / "ro.db", 0o444)
    with pytest.raises(Refused, match="read-only"):
        check_file_place("ro.db", Refused)
    assert check_file_place("ro.db", Refused, writable=False) is True


@pytest.mark.parametrize("value", [":memory:", "file:memory.db?mode=memory"])
def test_sqlite_names_for_no_file_are_refused(value: str) -> None:
    with pytest.raises(Refused, match="not a file name"):
        check_path_value(value, Refused)


def test_a_path_like_that_gives_no_text_is_refused() -> None:
    class Odd:
        def __fspath__(self) -> object:
            return 5

    with pytest.raises(Refused):
        check_path_value(Odd(), Refused)
