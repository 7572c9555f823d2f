"""Imports every notebook's exercises so that they register themselves."""

from __future__ import annotations

from . import _legacy  # noqa: F401  (each notebook's exercises move into a module of their own)
from . import long_term  # noqa: F401  (notebook 2)
from . import tasks  # noqa: F401  (notebook 4)
from . import beyond  # noqa: F401  (notebook 5)
