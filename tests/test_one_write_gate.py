"""One write gate, checked on the code's structure: no path around it exists in src/primer_memory.

A guarantee built at one entry protects that entry only (STYLE.md, "One gate per guarantee"). These tests read
every module of the package with `ast` (functions and methods included, lessons too) and fail when:
- anything but long-term memory's write path builds a `NewRecord` or calls a store's `write` (a backend write
  that skips the gate);
- anything but `MemoryNotes`' write path writes a file in the notes package, or a function outside it writes a
  file under a notes folder it located (`.root`, `.locate(`); and the notes' write path runs the gate first;
- a call to `remember`, `remember_many`, `MemoryNotes(...)` or `LongTermStore(...)` leaves its provenance to a
  default: inside the package nobody speaks for the user by omission (only the lesson's own calls, outside the
  package, keep `remember`'s documented default).
Each rule is also run on a small piece of code that breaks it, so a rule that can no longer fail fails here.
"""

from __future__ import annotations

import ast

from code_structure import PACKAGE, functions as _functions, modules as _modules, own_nodes as _own_nodes
from code_structure import called as _called

WRITE_PATH = "long_term/writing.py"  # the memory's one write path (WritePath._write)
STORAGE = "long_term/storage/"  # the backends themselves, which define write() and NewRecord
NOTES = "notes/tool.py"
NOTE_WRITERS = {"MemoryNotes._write", "MemoryNotes.rename", "MemoryNotes._make_parents", "example_notes"}
NAMED_PROVENANCE = {"remember", "remember_many", "MemoryNotes", "LongTermStore"}
OS_WRITES = {"replace", "rename", "link", "symlink", "mkstemp", "copy", "copyfile", "copy2", "copytree", "move"}
"""Called on os, tempfile or shutil (on a str, `replace` is no file write)."""
PATH_WRITES = {"write_text", "write_bytes", "symlink_to", "hardlink_to", "touch"}
"""pathlib's writes, whatever they are called on."""


def _receiver(call: ast.Call) -> str:
    return ast.unparse(call.func.value) if isinstance(call.func, ast.Attribute) else ""


def store_writes(module: str, tree: ast.AST) -> list[str]:
    """Backend writes outside the write path: `<store>.write(...)` calls and `NewRecord` built anywhere else."""
    if module == WRITE_PATH or module.startswith(STORAGE):
        return []
    found = []
    for name, scope in _functions(tree):
        for node in _own_nodes(scope):
            if isinstance(node, ast.Call) and _called(node) == "write" and "store" in _receiver(node).lower():
                found.append(f"{module}:{node.lineno} {name}: {ast.unparse(node.func)}(...)")
            if isinstance(node, ast.Name) and node.id == "NewRecord":
                found.append(f"{module}:{node.lineno} {name}: NewRecord")
    return found


def note_writes(module: str, tree: ast.AST) -> list[str]:
    """File writes in the notes package outside its write path, and writes under a notes folder from elsewhere."""
    found = []
    for name, scope in _functions(tree):
        nodes = list(_own_nodes(scope))
        writes = [n for n in nodes if isinstance(n, ast.Call) and _file_write(n)]
        if module.startswith("notes/"):
            if name not in NOTE_WRITERS:
                found += [f"{module}:{n.lineno} {name}: {ast.unparse(n.func)}(...)" for n in writes]
            continue
        locates = any(isinstance(n, ast.Attribute) and n.attr in ("root", "locate", "_root") for n in nodes)
        if locates and writes:
            found += [f"{module}:{n.lineno} {name}: {ast.unparse(n.func)}(...) beside a notes path" for n in writes]
    return found


def _file_write(call: ast.Call) -> bool:
    """Whether a call writes a file: os/tempfile/shutil writes, pathlib's writes, or open/fdopen for writing."""
    name = _called(call)
    if name in OS_WRITES:
        return _receiver(call) in ("os", "tempfile", "shutil")
    if name in PATH_WRITES:
        return True
    if name not in ("open", "fdopen"):
        return False
    modes = [a for a in call.args[1:2]] + [k.value for k in call.keywords if k.arg == "mode"]
    return any(isinstance(m, ast.Constant) and isinstance(m.value, str) and set(m.value) & set("wax+") for m in modes)


def gate_first(tree: ast.AST) -> list[str]:
    """Each of the notes' writers that writes a note (or moves one) calls self._gate before it touches the disk."""
    missing = []
    for name, scope in _functions(tree):
        if name in ("MemoryNotes._write", "MemoryNotes.rename"):
            calls = [n for n in _own_nodes(scope) if isinstance(n, ast.Call)]
            gate = [n.lineno for n in calls if _called(n) == "_gate"]
            disk = [n.lineno for n in calls if _file_write(n) or _called(n) == "_make_parents"]
            if not gate or (disk and min(disk) < min(gate)):
                missing.append(name)
    return missing


def default_provenance(module: str, tree: ast.AST) -> list[str]:
    """Calls that leave provenance to a default (no `provenance=` keyword; `**kwargs` does not count)."""
    found = []
    for name, scope in _functions(tree):
        for node in _own_nodes(scope):
            if isinstance(node, ast.Call) and _called(node) in NAMED_PROVENANCE:
                if not any(k.arg == "provenance" for k in node.keywords):
                    found.append(f"{module}:{node.lineno} {name}: {ast.unparse(node)[:90]}")
    return found


# --------------------------------------------------------------------------- the package


def test_only_the_write_path_writes_to_a_memory_store() -> None:
    found = [hit for module, tree in _modules() for hit in store_writes(module, tree)]
    assert found == [], "write through LongTermMemory (remember / remember_many), which runs the gate"


def test_only_the_notes_write_path_writes_note_files_and_it_runs_the_gate_first() -> None:
    found = [hit for module, tree in _modules() for hit in note_writes(module, tree)]
    assert found == [], "write notes through MemoryNotes (create / str_replace / insert / rename)"
    notes = ast.parse((PACKAGE / NOTES).read_text(encoding="utf-8"))
    assert gate_first(notes) == []


def test_no_call_in_the_package_leaves_provenance_to_a_default() -> None:
    found = [hit for module, tree in _modules() for hit in default_provenance(module, tree)]
    assert found == [], "say who the text comes from: provenance='user' | 'assistant' | 'tool' | 'import'"


def test_the_write_path_and_the_notes_both_call_the_one_decision() -> None:
    for module in (WRITE_PATH, NOTES):
        tree = ast.parse((PACKAGE / module).read_text(encoding="utf-8"))
        assert any(isinstance(n, ast.Call) and _called(n) == "decide" for n in ast.walk(tree)), module


# --------------------------------------------------------------------------- each rule can still fail


def test_the_rules_catch_code_that_goes_around_the_gate() -> None:
    bypass = ast.parse("def load(store, rows, vectors):\n"
                       "    store.write(scope, [NewRecord('semantic', t, None, 's', 5) for t in rows], vectors)\n")
    assert len(store_writes("lessons/loader.py", bypass)) == 2
    sneaky = ast.parse("def plant(notes, text):\n    (notes.root / 'a.md').write_text(text)\n")
    assert note_writes("lessons/plant.py", sneaky) != []
    inside = ast.parse("class MemoryNotes:\n    def append(self, t, data):\n        open(t.real, 'ab').write(data)\n")
    assert note_writes("notes/tool.py", inside) != []
    ungated = ast.parse("class MemoryNotes:\n    def _write(self, target, data):\n"
                        "        os.replace(tmp, target.real)\n        self._gate(data, target)\n")
    assert gate_first(ungated) == ["MemoryNotes._write"]
    trusting = ast.parse("def seed(memory, scope, notes_root):\n"
                         "    memory.remember(scope, 'semantic', 'x')\n"
                         "    memory.remember_many(scope, [], **options)\n"
                         "    MemoryNotes(notes_root)\n    LongTermStore(memory)\n")
    assert len(default_provenance("lessons/seed.py", trusting)) == 4
