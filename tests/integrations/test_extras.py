"""The adapters are optional: importing the package imports no framework, and a missing one is a named error."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

SRC = Path(__file__).resolve().parents[2] / "src"


def _python(code: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120,
                          env={"PYTHONPATH": str(SRC), "PATH": "/usr/bin:/bin"})


def test_importing_the_integrations_package_imports_no_framework() -> None:
    done = _python("import sys, primer_memory, primer_memory.integrations as i; "
                   "print(sorted(m for m in ('langgraph', 'langchain_core', 'anthropic') if m in sys.modules)); "
                   "print(sorted(i.__all__))")
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines()[0] == "[]"


def test_a_missing_framework_raises_a_named_error_with_the_install_hint() -> None:
    for module, name, extra in [("langgraph", "SQLiteCheckpointSaver", "[langgraph]"),
                                ("langgraph", "LongTermStore", "[langgraph]"),
                                ("anthropic", "NotesMemoryTool", "[anthropic]")]:
        done = _python(f"import sys; sys.modules[{module!r}] = None\n"  # as if the package were not installed
                       "from primer_memory.integrations import IntegrationUnavailable\n"
                       "try:\n"
                       f"    from primer_memory.integrations import {name}\n"
                       "except IntegrationUnavailable as error:\n"
                       "    print('named:', error)\n")
        assert done.returncode == 0, done.stderr
        assert done.stdout.startswith("named:") and f"pip install -e '.{extra}'" in done.stdout, done.stdout


def test_every_public_name_resolves() -> None:
    import primer_memory.integrations as integrations

    for name in integrations.__all__:
        assert getattr(integrations, name) is not None
