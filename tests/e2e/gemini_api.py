"""The Gemini API as Gemini CLI calls it (``generateContent`` / ``streamGenerateContent``).

Gemini CLI 0.61 with ``GOOGLE_GEMINI_BASE_URL`` posts the agent loop to
``/v1beta/models/{model}:streamGenerateContent?alt=sse`` (with ``tools``) and side
requests to ``:generateContent`` — the model router's complexity classifier among them,
which asks for JSON through ``generationConfig.responseJsonSchema`` and retries for a
minute when the answer does not parse. A side request gets the smallest instance of its
schema, never a step of the script; ``countTokens`` gets a count.
"""

from __future__ import annotations

import json
from typing import Any

from tests.e2e.fakemodel import JSON, Reply, Request, Step, ToolCall, text_of


def schema_instance(schema: JSON) -> Any:
    """The smallest value of a JSON schema as Gemini spells it (upper-case type names)."""
    if schema.get("enum"):
        return schema["enum"][0]
    kind = str(schema.get("type", "")).upper()
    if kind == "OBJECT":
        props = schema.get("properties") or {}
        return {key: schema_instance(sub) for key, sub in props.items() if isinstance(sub, dict)}
    if kind in ("INTEGER", "NUMBER"):
        return 1
    if kind == "BOOLEAN":
        return False
    if kind == "ARRAY":
        return []
    return "ok"


def _parts(content: Any) -> list[JSON]:
    if not isinstance(content, dict):
        return []
    return [p for p in content.get("parts") or () if isinstance(p, dict)]


class GeminiGenerateContent:
    """Serves every ``…/models/{model}:(stream)GenerateContent`` and ``:countTokens``."""

    def serves(self, request: Request) -> bool:
        path = request.path.split("?", 1)[0]
        return request.method == "POST" and path.endswith(
            (":generateContent", ":streamGenerateContent", ":countTokens")
        )

    def first_user_text(self, body: JSON) -> str:
        """The user's text before the model's first turn (Gemini CLI sends its session
        context and the prompt as separate user contents). A side request (no ``tools``:
        the router's classifier, a next-speaker check) belongs to no conversation: it
        quotes the prompt, but it is not a turn of the agent, and must not count as one."""
        if not body.get("tools"):
            return ""
        texts = []
        for content in body.get("contents") or ():
            if not isinstance(content, dict) or content.get("role") == "model":
                break
            texts.extend(str(p["text"]) for p in _parts(content) if "text" in p)
        return "\n".join(texts)

    def tool_results(self, body: JSON) -> list[str]:
        """Each ``functionResponse`` the model was sent: its ``output`` or ``error`` text."""
        return [
            text_of(p["functionResponse"].get("response")) or _error_of(p["functionResponse"])
            for content in body.get("contents") or ()
            for p in _parts(content)
            if isinstance(p.get("functionResponse"), dict)
        ]

    def reply(self, step: Step, body: JSON, index: int) -> Reply:
        if "contents" not in body:  # countTokens
            return Reply(200, "application/json", b'{"totalTokens": 10}')
        generation = body.get("generationConfig")
        schema = generation.get("responseJsonSchema") if isinstance(generation, dict) else None
        if isinstance(schema, dict):
            # Structured side requests (router, next-speaker and loop checks) go through
            # the SDK's non-streaming generateContent: a JSON answer, never a script step.
            return Reply(
                200,
                "application/json",
                json.dumps(
                    _response({"text": json.dumps(schema_instance(schema))}, index)
                ).encode(),
            )
        if not body.get("tools"):
            part: JSON = {"text": "ok"}  # a side request without tools: never a tool call
        elif isinstance(step, ToolCall):
            part = {"functionCall": {"name": step.name, "args": step.input}}
        else:
            part = {"text": step.text}
        # The agent loop always streams: one server-sent event holding the whole answer.
        return Reply(
            200, "text/event-stream", f"data: {json.dumps(_response(part, index))}\r\n\r\n".encode()
        )


def _response(part: JSON, index: int) -> JSON:
    return {
        "candidates": [
            {"content": {"role": "model", "parts": [part]}, "finishReason": "STOP", "index": 0}
        ],
        "usageMetadata": {"promptTokenCount": 10, "candidatesTokenCount": 5, "totalTokenCount": 15},
        "responseId": f"fake{index:04d}",
    }


def _error_of(response: JSON) -> str:
    inner = response.get("response")
    if isinstance(inner, dict) and "error" in inner:
        return text_of(inner["error"]) or json.dumps(inner["error"])
    return ""
