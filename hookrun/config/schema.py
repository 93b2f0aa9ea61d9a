"""The JSON Schema of the hookrun config dialect (`hookrun schema`)."""

from __future__ import annotations

from typing import Any


def json_schema() -> dict[str, Any]:
    """JSON Schema (draft 2020-12) of a hookrun config file, built from the pydantic models.

    Unknown keys are allowed by the schema because hookrun only warns about them (and
    a Crush or Claude Code file carries its own other settings).
    """
    from hookrun.config.models import ConfigFile

    schema = ConfigFile.model_json_schema(by_alias=True)
    schema["$schema"] = "https://json-schema.org/draft/2020-12/schema"
    schema["title"] = "hookrun config"
    schema["properties"]["$schema"] = {"type": "string", "description": "This schema's URL."}
    return schema
