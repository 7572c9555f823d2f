"""Interactive panels for the notebooks, one module per notebook.

Each panel is a thin ipywidgets shell around a pure function (`*_view`) that
takes plain values and returns what the panel shows, so tests drive the logic
without a browser. ipywidgets is imported inside the panel functions only.
"""

from __future__ import annotations

from .budget import BudgetView, budget_view, budget_panel
from .recall import RecallView, recall_view, recall_panel
from .safety import AttackView, attack_view, attack_panel, PolicyView, policy_view, policy_panel, NotesPathView, notes_path_view, notes_panel
from .tasks import CrashView, crash_decision, crash_view, crash_panel, resume_note, steps_html
from .workers import WorkersView, workers_view, workers_panel

__all__ = ["BudgetView", "budget_view", "budget_panel", "RecallView", "recall_view", "recall_panel", "AttackView", "attack_view", "attack_panel", "PolicyView", "policy_view", "policy_panel", "NotesPathView", "notes_path_view", "notes_panel", "CrashView", "crash_decision", "crash_view", "crash_panel", "resume_note", "steps_html", "WorkersView", "workers_view", "workers_panel"]
