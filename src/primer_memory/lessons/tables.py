"""A table the notebooks print: Markdown in JupyterLab, aligned text anywhere else."""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["Table"]


@dataclass(frozen=True)
class Table:
    """Rows under a header, shown as a Markdown table in a notebook and as aligned text elsewhere."""

    header: tuple[str, ...]
    rows: tuple[tuple[str, ...], ...]

    def _repr_markdown_(self) -> str:
        def line(cells: tuple[str, ...]) -> str:
            return "| " + " | ".join(c.replace("|", "\\|") for c in cells) + " |"

        return "\n".join([line(self.header), "|" + "---|" * len(self.header), *map(line, self.rows)])

    def __repr__(self) -> str:
        return "\n".join(" | ".join(cells) for cells in (self.header, *self.rows))
