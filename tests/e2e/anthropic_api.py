"""The Anthropic Messages API as Claude Code calls it (``POST /v1/messages``, streamed SSE)."""

from __future__ import annotations

import json
from typing import Any

from tests.e2e.fakemodel import JSON, Reply, Request, Step, ToolCall, iter_blocks, sse, text_of


class AnthropicMessages:
    """Serves ``/v1/messages``; ``count_tokens`` and everything else get a 404."""

    def serves(self, request: Request) -> bool:
        path = request.path.split("?", 1)[0]
        return request.method == "POST" and path.rstrip("/").endswith("/v1/messages")

    def first_user_text(self, body: JSON) -> str:
        for message in body.get("messages") or ():
            if isinstance(message, dict) and message.get("role") == "user":
                return text_of(message.get("content"))
        return ""

    def tool_results(self, body: JSON) -> list[str]:
        return [
            text_of(block.get("content"))
            for block in iter_blocks(body.get("messages"))
            if block.get("type") == "tool_result"
        ]

    def reply(self, step: Step, body: JSON, index: int) -> Reply:
        if isinstance(step, ToolCall):
            block: JSON = {
                "type": "tool_use",
                "id": f"toolu_fake{index:04d}",
                "name": step.name,
                "input": step.input,
            }
            stop = "tool_use"
        else:
            block = {"type": "text", "text": step.text}
            stop = "end_turn"
        message: JSON = {
            "id": f"msg_fake{index:04d}",
            "type": "message",
            "role": "assistant",
            "model": body.get("model", "claude-fake"),
            "content": [block],
            "stop_reason": stop,
            "stop_sequence": None,
            "usage": {"input_tokens": 10, "output_tokens": 10},
        }
        if not body.get("stream"):
            return Reply(200, "application/json", json.dumps(message).encode())
        return Reply(200, "text/event-stream", sse(_stream(message, block)))


def _stream(message: JSON, block: JSON) -> list[tuple[str | None, JSON]]:
    """The event sequence of one streamed message holding one content block."""
    start: JSON = {**message, "content": [], "stop_reason": None}
    if block["type"] == "tool_use":
        empty: JSON = {**block, "input": {}}
        delta: JSON = {"type": "input_json_delta", "partial_json": json.dumps(block["input"])}
    else:
        empty = {"type": "text", "text": ""}
        delta = {"type": "text_delta", "text": block["text"]}
    opened: JSON = {"type": "content_block_start", "index": 0, "content_block": empty}
    events: list[tuple[str | None, Any]] = [
        ("message_start", {"type": "message_start", "message": start}),
        ("content_block_start", opened),
        ("content_block_delta", {"type": "content_block_delta", "index": 0, "delta": delta}),
        ("content_block_stop", {"type": "content_block_stop", "index": 0}),
        (
            "message_delta",
            {
                "type": "message_delta",
                "delta": {"stop_reason": message["stop_reason"], "stop_sequence": None},
                "usage": {"output_tokens": 10},
            },
        ),
        ("message_stop", {"type": "message_stop"}),
    ]
    return events
