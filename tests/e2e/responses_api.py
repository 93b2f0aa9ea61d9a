"""The OpenAI Responses API as Codex CLI calls it (``POST …/responses``, streamed SSE).

Codex is pointed at it by a custom model provider (``wire_api = "responses"``) in
``$CODEX_HOME/config.toml``. A tool call is a ``function_call`` output item whose
``arguments`` is a JSON string (and whose ``namespace`` names the tool group, for
``ToolCall("multi_agent_v1.spawn_agent", …)``); the host sends the result back as a
``function_call_output`` input item.
"""

from __future__ import annotations

import json

from tests.e2e.fakemodel import JSON, Reply, Request, Step, ToolCall, sse, text_of

_RESULT_TYPES = {"function_call_output", "custom_tool_call_output", "local_shell_call_output"}


class OpenAIResponses:
    def serves(self, request: Request) -> bool:
        path = request.path.split("?", 1)[0]
        return request.method == "POST" and path.rstrip("/").endswith("/responses")

    def first_user_text(self, body: JSON) -> str:
        for item in body.get("input") or ():
            if isinstance(item, dict) and item.get("role") == "user":
                text = text_of(item.get("content"))
                # Codex sends its environment context (and AGENTS.md) as user
                # messages before the prompt; the prompt is the first one that is
                # neither.
                if not text.lstrip().startswith(("<environment_context>", "<user_instructions>")):
                    return text
        return ""

    def tool_results(self, body: JSON) -> list[str]:
        return [
            text_of(item.get("output"))
            for item in body.get("input") or ()
            if isinstance(item, dict) and item.get("type") in _RESULT_TYPES
        ]

    def reply(self, step: Step, body: JSON, index: int) -> Reply:
        response_id = f"resp_fake{index:04d}"
        if isinstance(step, ToolCall):
            namespace, _, name = step.name.rpartition(".")
            item: JSON = {
                "type": "function_call",
                "id": f"fc_fake{index:04d}",
                "call_id": f"call_fake{index:04d}",
                "name": name,
                **({"namespace": namespace} if namespace else {}),
                "arguments": json.dumps(step.input),
            }
        else:
            item = {
                "type": "message",
                "id": f"msg_fake{index:04d}",
                "role": "assistant",
                "status": "completed",
                "content": [{"type": "output_text", "text": step.text, "annotations": []}],
            }
        usage = {
            "input_tokens": 10,
            "input_tokens_details": {"cached_tokens": 0},
            "output_tokens": 10,
            "output_tokens_details": {"reasoning_tokens": 0},
            "total_tokens": 20,
        }
        events: list[tuple[str | None, JSON]] = [
            ("response.created", {"type": "response.created", "response": {"id": response_id}}),
            (
                "response.output_item.added",
                {"type": "response.output_item.added", "output_index": 0, "item": item},
            ),
            (
                "response.output_item.done",
                {"type": "response.output_item.done", "output_index": 0, "item": item},
            ),
            (
                "response.completed",
                {
                    "type": "response.completed",
                    "response": {"id": response_id, "status": "completed", "usage": usage},
                },
            ),
        ]
        return Reply(200, "text/event-stream", sse(events))
