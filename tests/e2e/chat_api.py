"""OpenAI Chat Completions as Copilot CLI calls it (``COPILOT_PROVIDER_BASE_URL``).

Copilot CLI 1.0 posts to ``{base}/chat/completions`` with ``stream: true`` and
``stream_options``; the answer is server-sent events (one delta chunk, one finish
chunk with usage, then ``[DONE]``), or one JSON object when ``stream`` is off. Tool
results come back as ``role: "tool"`` messages; context a hook adds may arrive as an
extra ``role: "user"`` message, so tests search :meth:`FakeModel.seen_text` for it.
"""

from __future__ import annotations

import json

from tests.e2e.fakemodel import JSON, Reply, Request, Step, ToolCall, text_of


class ChatCompletions:
    """Serves ``POST …/chat/completions``; everything else gets a 404."""

    def serves(self, request: Request) -> bool:
        path = request.path.split("?", 1)[0]
        return request.method == "POST" and path.rstrip("/").endswith("/chat/completions")

    def first_user_text(self, body: JSON) -> str:
        """The user messages before the model's first answer: a hook's session-start
        context arrives there as a user message of its own, ahead of the prompt."""
        texts = []
        for message in body.get("messages") or ():
            if not isinstance(message, dict) or message.get("role") == "assistant":
                break
            if message.get("role") == "user":
                texts.append(text_of(message.get("content")))
        return "\n".join(texts)

    def tool_results(self, body: JSON) -> list[str]:
        return [
            text_of(m.get("content"))
            for m in body.get("messages") or ()
            if isinstance(m, dict) and m.get("role") == "tool"
        ]

    def reply(self, step: Step, body: JSON, index: int) -> Reply:
        if isinstance(step, ToolCall) and body.get("tools"):
            call: JSON = {
                "id": f"call_fake{index:04d}",
                "type": "function",
                "function": {"name": step.name, "arguments": json.dumps(step.input)},
            }
            message: JSON = {"role": "assistant", "content": None, "tool_calls": [call]}
            finish = "tool_calls"
        else:
            text = step.text if not isinstance(step, ToolCall) else "ok"
            message = {"role": "assistant", "content": text}
            finish = "stop"
        usage = {"prompt_tokens": 10, "completion_tokens": 5, "total_tokens": 15}
        head = {"id": f"chatcmpl-fake{index:04d}", "created": 0, "model": body.get("model", "fake")}
        if not body.get("stream"):
            whole = head | {
                "object": "chat.completion",
                "choices": [{"index": 0, "message": message, "finish_reason": finish}],
                "usage": usage,
            }
            return Reply(200, "application/json", json.dumps(whole).encode())
        delta = dict(message)
        if "tool_calls" in delta:
            delta["tool_calls"] = [dict(delta["tool_calls"][0], index=0)]
        chunks = [
            head
            | {
                "object": "chat.completion.chunk",
                "choices": [{"index": 0, "delta": delta, "finish_reason": None}],
            },
            head
            | {
                "object": "chat.completion.chunk",
                "choices": [{"index": 0, "delta": {}, "finish_reason": finish}],
                "usage": usage,
            },
        ]
        events = "".join(f"data: {json.dumps(c)}\n\n" for c in chunks) + "data: [DONE]\n\n"
        return Reply(200, "text/event-stream", events.encode())
