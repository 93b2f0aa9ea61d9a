"""OpenTelemetry for hookrun runs: whether it is on, and where it sends.

Telemetry is optional (``pip install hookrun[otel]``) and off unless the standard
``OTEL_*`` variables or the config's ``telemetry`` key turn it on. This module decides
that from plain data and imports nothing beyond the standard library: ``hookrun run``
calls :func:`settings` on every event, and with telemetry off nothing of
OpenTelemetry may load (a test pins the import set). The export itself lives in
:mod:`hookrun.telemetry.otlp`, imported only when :func:`settings` returned one.

Why a config key as well as ``OTEL_*``: some hosts (Claude Code) strip ``OTEL_*``
from the environment of the hooks they start, so a team that wants every agent's
decisions in its collector needs a way that survives the host.
"""

from __future__ import annotations

from collections.abc import Mapping

from hookrun.records import TYPE_CHECKING, NamedTuple

if TYPE_CHECKING:
    from typing import Any

# How long the export may wait for the collector. Issue 13's promise is that a collector
# that is down or never answers adds at most 100 ms until hookrun exits; the wait is
# 80 ms so that building the request and ending the process fit in the rest
# (bench/telemetry_bench.py measures the whole difference).
DEFAULT_TIMEOUT_MS = 80
# OTLP/HTTP's default port on this machine, the spec's default endpoint.
DEFAULT_ENDPOINT = "http://localhost:4318"
_TRUE = frozenset({"true", "1", "yes", "on"})


class TelemetrySettings(NamedTuple):
    """Where one run's spans and log records go; None for a signal that is off."""

    traces_endpoint: str | None
    logs_endpoint: str | None
    headers: Mapping[str, str]
    service_name: str
    resource_attributes: Mapping[str, str]
    timeout_ms: int
    warnings: tuple[str, ...] = ()

    @classmethod
    def create(
        cls, env: Mapping[str, str], key: Mapping[str, Any] | bool | None
    ) -> TelemetrySettings | None:
        """The settings for ``env`` and the config's ``telemetry`` value, or None when off.

        ``telemetry: false`` turns it off whatever the environment says;
        ``telemetry: true`` or an object turns it on, with the object's fields
        taking precedence over ``OTEL_*`` and those over the defaults.
        Without the key, it is on when an ``OTEL_EXPORTER_OTLP_*ENDPOINT`` is set.
        ``OTEL_SDK_DISABLED=true`` turns it off unless the config key turns it on.
        """
        if key is False:
            return None
        obj: Mapping[str, Any] = key if isinstance(key, Mapping) else {}
        by_env = any(
            env.get(name)
            for name in (
                "OTEL_EXPORTER_OTLP_ENDPOINT",
                "OTEL_EXPORTER_OTLP_TRACES_ENDPOINT",
                "OTEL_EXPORTER_OTLP_LOGS_ENDPOINT",
            )
        )
        if key is None and (not by_env or env.get("OTEL_SDK_DISABLED", "").lower() in _TRUE):
            return None
        warnings: list[str] = []
        protocol = env.get("OTEL_EXPORTER_OTLP_PROTOCOL", "http/protobuf")
        if protocol not in ("http/protobuf", ""):
            warnings.append(
                f"OTEL_EXPORTER_OTLP_PROTOCOL={protocol!r} is not supported; "
                "hookrun exports over http/protobuf"
            )
        base = str(
            obj.get("endpoint") or env.get("OTEL_EXPORTER_OTLP_ENDPOINT") or DEFAULT_ENDPOINT
        )
        traces = _signal_endpoint(obj, env, base, "traces")
        logs = _signal_endpoint(obj, env, base, "logs")
        headers = dict(parse_headers(env.get("OTEL_EXPORTER_OTLP_HEADERS", "")))
        headers.update({str(k): str(v) for k, v in (obj.get("headers") or {}).items()})
        resource = dict(parse_headers(env.get("OTEL_RESOURCE_ATTRIBUTES", "")))
        resource.update({str(k): str(v) for k, v in (obj.get("resource_attributes") or {}).items()})
        service = str(
            obj.get("service_name")
            or env.get("OTEL_SERVICE_NAME")
            or resource.get("service.name")
            or "hookrun"
        )
        timeout = obj.get("timeout_ms", DEFAULT_TIMEOUT_MS)
        return cls(
            traces_endpoint=traces,
            logs_endpoint=logs,
            headers=headers,
            service_name=service,
            resource_attributes=resource,
            timeout_ms=int(timeout)
            if isinstance(timeout, int) and timeout > 0
            else DEFAULT_TIMEOUT_MS,
            warnings=tuple(warnings),
        )


def _signal_endpoint(
    obj: Mapping[str, Any], env: Mapping[str, str], base: str, signal: str
) -> str | None:
    """The URL one signal is posted to, or None when that signal is turned off.

    As the OTLP exporter spec says: a signal-specific variable is used as is; the
    general endpoint gets ``/v1/<signal>`` appended.
    """
    if env.get(f"OTEL_{signal.upper()}_EXPORTER", "otlp").strip().lower() == "none":
        return None
    if obj.get(signal) is False:
        return None
    specific = env.get(f"OTEL_EXPORTER_OTLP_{signal.upper()}_ENDPOINT")
    if specific and not obj.get("endpoint"):
        return specific
    return base.rstrip("/") + f"/v1/{signal}"


def parse_headers(text: str) -> list[tuple[str, str]]:
    """``k1=v1,k2=v2`` as in ``OTEL_EXPORTER_OTLP_HEADERS`` (URL-encoded); bad pairs dropped."""
    if not text:
        return []
    # Only here: urllib.parse is not otherwise imported by a `hookrun run` (start-up).
    from urllib.parse import unquote

    pairs: list[tuple[str, str]] = []
    for item in text.split(","):
        key, sep, value = item.partition("=")
        if sep and key.strip():
            pairs.append((unquote(key.strip()), unquote(value.strip())))
    return pairs
