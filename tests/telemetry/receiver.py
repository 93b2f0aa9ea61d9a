"""A local OTLP/HTTP receiver for the tests: decodes what it is sent with the official protos."""

from __future__ import annotations

import socket
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

from opentelemetry.proto.collector.logs.v1.logs_service_pb2 import ExportLogsServiceRequest
from opentelemetry.proto.collector.trace.v1.trace_service_pb2 import ExportTraceServiceRequest
from opentelemetry.proto.common.v1.common_pb2 import AnyValue, KeyValue


class Received:
    """Everything the receiver got, decoded."""

    def __init__(self) -> None:
        self.traces: list[ExportTraceServiceRequest] = []
        self.logs: list[ExportLogsServiceRequest] = []
        self.headers: list[dict[str, str]] = []
        self.lock = threading.Lock()

    def spans(self) -> list[Any]:
        with self.lock:
            return [
                span
                for request in self.traces
                for resource_spans in request.resource_spans
                for scope_spans in resource_spans.scope_spans
                for span in scope_spans.spans
            ]

    def log_records(self) -> list[Any]:
        with self.lock:
            return [
                record
                for request in self.logs
                for resource_logs in request.resource_logs
                for scope_logs in resource_logs.scope_logs
                for record in scope_logs.log_records
            ]

    def resources(self) -> list[dict[str, Any]]:
        with self.lock:
            return [
                attributes(rs.resource.attributes) for r in self.traces for rs in r.resource_spans
            ]


def value(v: AnyValue) -> Any:
    kind = v.WhichOneof("value")
    return None if kind is None else getattr(v, kind)


def attributes(kvs: Any) -> dict[str, Any]:
    return {kv.key: value(kv.value) for kv in kvs if isinstance(kv, KeyValue)}


@contextmanager
def otlp_receiver() -> Iterator[tuple[str, Received]]:
    """An OTLP/HTTP receiver on 127.0.0.1; yields its base URL and what it receives."""
    got = Received()

    class Handler(BaseHTTPRequestHandler):
        def do_POST(self) -> None:  # noqa: N802 - http.server's name
            body = self.rfile.read(int(self.headers.get("Content-Length", "0")))
            with got.lock:
                got.headers.append({k.lower(): v for k, v in self.headers.items()})
                if self.path == "/v1/traces":
                    got.traces.append(ExportTraceServiceRequest.FromString(body))
                elif self.path == "/v1/logs":
                    got.logs.append(ExportLogsServiceRequest.FromString(body))
                else:
                    self.send_response(404)
                    self.end_headers()
                    return
            self.send_response(200)
            self.send_header("Content-Type", "application/x-protobuf")
            self.send_header("Content-Length", "0")
            self.end_headers()

        def log_message(self, *args: Any) -> None:
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}", got
    finally:
        server.shutdown()
        server.server_close()


@contextmanager
def silent_collector() -> Iterator[str]:
    """A collector that accepts connections and never answers; yields its base URL."""
    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    sock.listen(16)
    held: list[socket.socket] = []
    stop = threading.Event()

    def accept() -> None:
        sock.settimeout(0.05)
        while not stop.is_set():
            try:
                conn, _ = sock.accept()
                held.append(conn)  # keep it open, say nothing
            except OSError:
                continue

    thread = threading.Thread(target=accept, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{sock.getsockname()[1]}"
    finally:
        stop.set()
        thread.join(1)
        for conn in held:
            conn.close()
        sock.close()


def closed_port() -> str:
    """The URL of a port nothing listens on (connection refused)."""
    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    port = sock.getsockname()[1]
    sock.close()
    return f"http://127.0.0.1:{port}"
