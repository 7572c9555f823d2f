"""Shared pieces of the panels: the one escaping helper, the named VBox, the preset-plus-text-box shape, a messages
table."""

from __future__ import annotations

import functools
import html
from collections.abc import Callable
from typing import Any

from ...short_term.memory import Message, estimate_tokens


def visible(text: object, *, lines: bool = False, lookalikes: bool = False) -> str:
    """`text` with every character a reader cannot see written as an escape (\\x00, \\u202e, \\u200b): controls,
    direction overrides, zero-width marks and spaces other than ' '. A right-to-left override shown raw would
    reorder what the panel prints, so a panel shows what the text holds instead. `lines` keeps newlines and
    tabs (for a <pre> block); `lookalikes` also escapes characters that Unicode folds into others (a fullwidth
    dot), which the notes panel needs for paths."""
    import unicodedata

    out = []
    for ch in str(text):
        plain = ch.isprintable() or (lines and ch in "\n\t")
        if plain and lookalikes and ch not in "\n\t":
            plain = unicodedata.normalize("NFKC", ch) == ch
        out.append(ch if plain else ch.encode("unicode_escape").decode("ascii"))
    return "".join(out)


def shown(text: object, *, lines: bool = False, lookalikes: bool = False, quote: bool = True) -> str:
    """`text` as HTML for a panel: `visible` first, then HTML-escaped. Every panel shows data through this one
    function, so no panel can forget one of the two steps."""
    return html.escape(visible(text, lines=lines, lookalikes=lookalikes), quote=quote)


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
        f"<tr><td><b>{shown(m['role'])}</b></td><td>{estimate_tokens(m['content'])}</td>"
        f"<td>{shown(m['content'])}</td></tr>"
        for m in messages
    )
    return f"<table class='pm-messages'><tr><th>role</th><th>tokens</th><th>text</th></tr>{rows}</table>"

