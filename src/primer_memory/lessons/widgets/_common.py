"""Shared pieces of the panels: the named VBox, the preset-plus-text-box shape, a messages table."""

from __future__ import annotations

import functools
import html
from collections.abc import Callable
from typing import Any

from ...short_term.memory import Message, estimate_tokens


@functools.cache
def _panel_class() -> type:
    """A VBox whose plain-text form is short and stable (nbval compares it), named by the panel."""
    import ipywidgets as w

    class Panel(w.VBox):
        def __init__(self, name: str, children: list[Any], **kwargs: Any):
            super().__init__(children=children, **kwargs)
            self._panel_name = name
            self.add_class("pm-panel")

        def __repr__(self) -> str:
            return f"{self._panel_name}()"

    return Panel


def _preset_text_panel(name: str, options: list[tuple[str, str]], value: str, *, label: str, key: str,
                       css: tuple[str, str], render: Callable[[str], str], width: str = "720px") -> Any:
    """A preset dropdown that fills a text box, and an HTML view of `render(text)` (the policy and notes panels).

    CSS classes: pm-<css[0]>-preset, pm-<css[0]>-<css[1]> on the box, pm-<css[0]>-text on the view.
    """
    import ipywidgets as w

    values = [v for _, v in options]
    preset = w.Dropdown(options=options, value=value if value in values else values[0], description="preset",
                        layout=w.Layout(width="620px"))
    box = w.Text(value=value, description=label, continuous_update=False, layout=w.Layout(width=width))
    preset.add_class(f"pm-{css[0]}-preset")
    box.add_class(f"pm-{css[0]}-{css[1]}")
    out = w.HTML()
    out.add_class(f"pm-{css[0]}-text")

    def refresh(_change: object = None) -> None:
        out.value = render(box.value)

    def choose(_change: object = None) -> None:
        if preset.value:  # an empty preset means "type your own"
            box.value = preset.value

    preset.observe(choose, names="value")
    box.observe(refresh, names="value")
    refresh()
    panel = _panel_class()(name, [preset, box, out])
    panel.controls = {"preset": preset, key: box}
    panel.text = out
    return panel


def _messages_html(messages: list[Message]) -> str:
    rows = "".join(
        f"<tr><td><b>{html.escape(m['role'])}</b></td><td>{estimate_tokens(m['content'])}</td>"
        f"<td>{html.escape(m['content'])}</td></tr>"
        for m in messages
    )
    return f"<table class='pm-messages'><tr><th>role</th><th>tokens</th><th>text</th></tr>{rows}</table>"

