"""Notebook 5: the locked-cabinet panel. Pick a caller and an attack, drop the WHERE clause, watch RLS hold."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ._common import _panel_class, shown

__all__ = ["RlsView", "rls_view", "rls_panel"]


@dataclass(frozen=True)
class RlsView:
    """What one buggy query returns to one caller with row-level security, and what it would return without."""

    caller: str  # the caller's scope as tenant/user
    sql: str
    with_rls: list[tuple[str, str]]  # (owner scope, content)
    without_rls: list[tuple[str, str]]

    @property
    def leaks(self) -> list[str]:
        """Other users' memories the application received (RLS on): always empty unless the lock is broken."""
        return [content for owner, content in self.with_rls if owner != self.caller]

    @property
    def would_leak(self) -> list[str]:
        """Other users' memories the same SQL returns when nothing enforces the scope."""
        return [content for owner, content in self.without_rls if owner != self.caller]

    def verdicts(self) -> tuple[str, str]:
        """One sentence per column, each true for the rows shown."""
        locked = (f"RLS held: the application received {len(self.with_rls)} row(s), none of another user's."
                  if not self.leaks
                  else f"LEAK: {len(self.leaks)} row(s) of other users reached the application. This is a bug.")
        if self.would_leak:
            unlocked = f"Without the lock this SQL returns {len(self.would_leak)} row(s) of other users."
        else:
            unlocked = "Without the lock this SQL returns no other user's rows for this caller."
        return locked, unlocked

    def html(self) -> str:
        """The SQL, then two columns: what the application receives, and what the same SQL gives without RLS."""

        def column(title: str, rows: list[tuple[str, str]], verdict: str) -> str:
            items = "".join(
                f"<li style='color:{'#c0392b' if owner != self.caller else 'inherit'}'>"
                f"{'from ' + shown(owner) + ': ' if owner != self.caller else ''}{shown(text)}</li>"
                for owner, text in rows) or "<li><i>(no rows)</i></li>"
            return f"<div style='flex:1;min-width:280px'><b>{title}</b><ul>{items}</ul><p>{verdict}</p></div>"

        locked, unlocked = self.verdicts()
        return (f"<div class='pm-rls-view'><p>Caller <code>{shown(self.caller)}</code>; the application runs:"
                f"</p><pre>{shown(self.sql, lines=True)}</pre><div style='display:flex;gap:16px'>"
                f"{column('The application receives (role primer_app, RLS on)', self.with_rls, shown(locked))}"
                f"{column('The same SQL without the lock (RLS bypassed)', self.without_rls, shown(unlocked))}"
                f"</div></div>")


def rls_view(world: Any, caller: str, attack: str, forgot_where: bool) -> RlsView:
    """Run one preset attack as one preset caller (names from rls_demo.CALLERS and ATTACKS)."""
    from ..rls_demo import CALLERS, run_attack

    if caller not in CALLERS:
        raise KeyError(f"unknown caller {caller!r}; choose one of {sorted(CALLERS)}")
    run = run_attack(world, CALLERS[caller], attack, forgot_where)
    return RlsView(str(run.caller), run.sql, [(str(s), c) for s, c in run.with_rls],
                   [(str(s), c) for s, c in run.without_rls])


def rls_panel(world: Any = None) -> Any:
    """Dropdowns for the caller and the attack, a 'forgot its WHERE clause' box, and what comes back."""
    import ipywidgets as w

    from ..rls_demo import ATTACKS, CALLERS, rls_world

    world = rls_world() if world is None else world
    caller = w.Dropdown(options=list(CALLERS), value="carol (globex)", description="caller",
                        layout=w.Layout(width="420px"))
    attack = w.Dropdown(options=list(ATTACKS), value=next(iter(ATTACKS)), description="attack",
                        layout=w.Layout(width="520px"))
    forgot = w.Checkbox(value=False, description="the application forgot its WHERE clause", indent=False)
    caller.add_class("pm-rls-caller")
    attack.add_class("pm-rls-attack")
    forgot.add_class("pm-rls-forgot")
    out = w.HTML()
    out.add_class("pm-rls-text")

    def refresh(_change: object = None) -> None:
        out.value = rls_view(world, caller.value, attack.value, forgot.value).html()

    for control in (caller, attack, forgot):
        control.observe(refresh, names="value")
    refresh()
    panel = _panel_class()("RlsPanel", [caller, attack, forgot, out])
    panel.controls = {"caller": caller, "attack": attack, "forgot": forgot}
    panel.text = out
    panel.world = world
    return panel
