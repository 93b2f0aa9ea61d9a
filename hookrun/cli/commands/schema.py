"""``hookrun schema``: the JSON Schema of the config file."""

from __future__ import annotations

import json
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from hookrun.cli.commands.run import Streams


def schema_command(streams: Streams) -> int:
    from hookrun.config import json_schema

    streams.stdout.write(json.dumps(json_schema(), indent=2) + "\n")
    return 0
