"""Imports every notebook's exercises so that they register themselves."""

from __future__ import annotations

from . import short_term  # noqa: F401  (notebook 1)
from . import long_term  # noqa: F401  (notebook 2)
from . import safety  # noqa: F401  (notebook 3)
from . import tasks  # noqa: F401  (notebook 4)
from . import beyond  # noqa: F401  (notebook 5)
