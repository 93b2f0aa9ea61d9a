"""The one error the runner raises at its caller: a payload it cannot run."""

from __future__ import annotations


class PayloadError(ValueError):
    """The event payload is not a JSON object, or one of its fields has the wrong type.

    ``str()`` is a complete message for a person: which field, what was expected,
    what came instead. The CLI prints it as is and exits 1.
    """
