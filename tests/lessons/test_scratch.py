"""Scratch folders of the panels and notebook 6 are removed even when their kernel is killed outright."""

from __future__ import annotations

import shutil
import signal
import subprocess
import sys
from pathlib import Path

from primer_memory.lessons.scratch import reap_scratch, scratch_folder

MAKE_AND_WAIT = ("import sys, time; from primer_memory.lessons.scratch import scratch_folder; "
                 "print(scratch_folder('killed'), flush=True); time.sleep(60)")


def test_a_folder_whose_owner_was_killed_is_removed_by_the_next_one_and_a_live_ones_is_kept() -> None:
    child = subprocess.Popen([sys.executable, "-c", MAKE_AND_WAIT], stdout=subprocess.PIPE, text=True)
    try:
        theirs = Path(child.stdout.readline().strip())  # type: ignore[union-attr]
        (theirs / "tasks.db").write_text("x")
        mine = scratch_folder("alive")
        assert theirs.is_dir() and mine.is_dir()  # its owner still runs: kept
        child.send_signal(signal.SIGKILL)
        child.wait(timeout=30)
        assert theirs in reap_scratch() and not theirs.exists()
        assert mine.is_dir()  # ours: this process is alive
    finally:
        child.kill()
        child.wait(timeout=30)


def test_a_process_removes_its_own_folders_when_it_exits() -> None:
    code = "from primer_memory.lessons.scratch import scratch_folder; print(scratch_folder('exits'))"
    made = Path(subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout.strip())
    assert made.name.startswith("exits-") and not made.exists()


def test_the_last_folder_takes_the_parent_with_it() -> None:
    """The system temporary directory is left as it was found: PARENT goes once its last folder does."""
    from helpers import run_in_empty_tmp

    code = "from primer_memory.lessons.scratch import scratch_folder; print(scratch_folder('exits'))"
    run_in_empty_tmp([sys.executable, "-c", code])


def test_fresh_path_never_hands_out_a_used_name_and_remakes_a_removed_folder(tmp_path: Path) -> None:
    """Class covered: files and folders, with and without a suffix, the folder removed between calls."""
    from primer_memory.lessons.scratch import fresh_path

    folder = tmp_path / "work"
    first = fresh_path(folder, "tasks.db")
    assert first == folder / "tasks.db" and folder.is_dir()
    first.write_text("x")
    assert fresh_path(folder, "tasks.db") == folder / "tasks-2.db"
    (folder / "notes").mkdir()
    assert fresh_path(folder, "notes") == folder / "notes-2"
    shutil.rmtree(folder)
    assert fresh_path(folder, "tasks.db") == folder / "tasks.db" and folder.is_dir()
