"""A scripted model server on 127.0.0.1 that real agent hosts talk to instead of a model.

A test scripts a conversation as steps — call this tool with this input, then answer this
text — and the server plays it to the host, in the wire format of that host's model API
(one :class:`Dialect` per API). Which step a request gets is read from the request itself,
not from a counter: the number of tool results the host sends back is how far the
conversation got. So the extra requests a host makes on the side (a title, a quota probe)
cannot shift the script, and a sub-agent's conversation, which starts from its own prompt,
follows its own script (scripts are keyed by a marker in the conversation's first user
message).

Every request is recorded (path, headers, JSON body) so a test can check what the model
was shown: the tool result after a redaction, the context a hook added.
"""

from __future__ import annotations

import json
import threading
from collections.abc import Callable, Iterator, Mapping, Sequence
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any, NamedTuple, Protocol

JSON = dict[str, Any]


class ToolCall(NamedTuple):
    """The model asks to run ``name`` with ``input``.

    ``input`` may be a function of the tool results so far (oldest first), for a call
    that names what an earlier call returned (an agent id). ``name`` may be
    ``namespace.name`` where the API groups tools (Codex's ``multi_agent_v1``).
    """

    name: str
    input: JSON | Callable[[list[str]], JSON]


class Text(NamedTuple):
    """The model answers ``text`` and ends its turn."""

    text: str


Step = ToolCall | Text
# Marker in the first user message → the steps of that conversation. The key "" is the
# fallback for any conversation no other marker names.
Script = Mapping[str, Sequence[Step]]


class Request(NamedTuple):
    method: str
    path: str
    headers: dict[str, str]
    body: Any  # the parsed JSON body, or the raw text when it is not JSON


class Reply(NamedTuple):
    status: int
    content_type: str
    body: bytes


class Dialect(Protocol):
    """One model API: how to read a conversation from a request and how to answer it."""

    def serves(self, request: Request) -> bool:
        """This request asks the model for a turn (other requests get a 404)."""

    def first_user_text(self, body: JSON) -> str:
        """The text of the conversation's first user message (where markers are looked up)."""

    def tool_results(self, body: JSON) -> list[str]:
        """The tool results the host sent back so far, as the model sees them, in order."""

    def reply(self, step: Step, body: JSON, index: int) -> Reply:
        """The host's wire answer for ``step`` (``index`` makes ids unique)."""


def sse(events: Sequence[tuple[str | None, JSON]]) -> bytes:
    """Server-sent events: ``event: NAME`` (when named) and ``data: JSON`` per event."""
    out = []
    for name, data in events:
        head = f"event: {name}\n" if name else ""
        out.append(f"{head}data: {json.dumps(data)}\n\n")
    return "".join(out).encode()


def text_of(content: Any) -> str:
    """The text inside a message's content, whatever its API nests it in."""
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        return "\n".join(text_of(part) for part in content)
    if isinstance(content, Mapping):
        for key in ("text", "content", "output"):
            if key in content:
                return text_of(content[key])
    return ""


class FakeModel:
    """The server: start with ``with FakeModel(dialect, script) as model: model.url``."""

    def __init__(self, dialect: Dialect, script: Script) -> None:
        self.dialect = dialect
        self.script = script
        self.requests: list[Request] = []
        self._lock = threading.Lock()
        self._server = ThreadingHTTPServer(("127.0.0.1", 0), _handler_for(self))
        self._server.daemon_threads = True
        self._thread = threading.Thread(target=self._server.serve_forever, daemon=True)

    @property
    def url(self) -> str:
        host, port = self._server.server_address[:2]
        return f"http://{host!s}:{port}"

    def __enter__(self) -> FakeModel:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._server.shutdown()
        self._server.server_close()
        self._thread.join(timeout=10)

    # -- what the tests read -------------------------------------------------------

    def turns(self) -> list[JSON]:
        """The bodies of the requests that asked the model for a turn, in order."""
        with self._lock:
            return [
                r.body for r in self.requests if isinstance(r.body, dict) and self.dialect.serves(r)
            ]

    def conversation(self, marker: str) -> list[JSON]:
        """The turn requests of the conversation whose first user message holds ``marker``."""
        return [b for b in self.turns() if marker in self.dialect.first_user_text(b)]

    def tool_results(self, marker: str = "") -> list[str]:
        """Every tool result the model was shown in the conversation(s) holding ``marker``."""
        seen: list[str] = []
        for body in self.conversation(marker):
            for result in self.dialect.tool_results(body):
                if result not in seen:
                    seen.append(result)
        return seen

    def seen_text(self, marker: str = "") -> str:
        """Everything the model was sent in the conversation(s) holding ``marker``."""
        return "\n".join(json.dumps(b, ensure_ascii=False) for b in self.conversation(marker))

    # -- serving -------------------------------------------------------------------

    def _steps_for(self, body: JSON) -> Sequence[Step]:
        first = self.dialect.first_user_text(body)
        # The longest marker found wins, so "SUB-X" is not taken for "X".
        found = [m for m in self.script if m and m in first]
        if found:
            return self.script[max(found, key=len)]
        return self.script.get("", (Text("ok"),))

    def answer(self, request: Request) -> Reply:
        with self._lock:
            self.requests.append(request)
            index = len(self.requests)
        if not (isinstance(request.body, dict) and self.dialect.serves(request)):
            return Reply(404, "application/json", b'{"error": "not scripted"}')
        steps = self._steps_for(request.body)
        results = self.dialect.tool_results(request.body)
        step = steps[len(results)] if len(results) < len(steps) else Text("done")
        if isinstance(step, ToolCall) and callable(step.input):
            step = ToolCall(step.name, step.input(results))
        return self.dialect.reply(step, request.body, index)


def _handler_for(model: FakeModel) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def _serve(self) -> None:
            length = int(self.headers.get("Content-Length") or 0)
            raw = self.rfile.read(length).decode("utf-8", "replace") if length else ""
            try:
                body: Any = json.loads(raw) if raw else None
            except ValueError:
                body = raw
            request = Request(self.command, self.path, dict(self.headers.items()), body)
            reply = model.answer(request)
            self.send_response(reply.status)
            self.send_header("Content-Type", reply.content_type)
            self.send_header("Content-Length", str(len(reply.body)))
            self.end_headers()
            self.wfile.write(reply.body)

        do_GET = do_POST = do_PUT = _serve

        def log_message(self, format: str, *args: Any) -> None:
            pass  # the recorded requests are the log

    return Handler


def iter_blocks(messages: Any) -> Iterator[JSON]:
    """The content blocks of a list of chat messages (string contents yield nothing)."""
    for message in messages if isinstance(messages, list) else ():
        content = message.get("content") if isinstance(message, Mapping) else None
        if isinstance(content, list):
            yield from (b for b in content if isinstance(b, dict))
