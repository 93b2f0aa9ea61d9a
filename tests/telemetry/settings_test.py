"""When telemetry is on and where it sends: OTEL_* variables and the config key."""

from __future__ import annotations

from typing import Any

import pytest

from hookrun.telemetry import DEFAULT_TIMEOUT_MS, TelemetrySettings, parse_headers

URL = "http://collector:4318"


@pytest.mark.parametrize(
    ("env", "key"),
    [
        ({}, None),  # nothing says so
        ({"OTEL_SERVICE_NAME": "x"}, None),  # a name alone is no endpoint
        ({"OTEL_EXPORTER_OTLP_ENDPOINT": URL, "OTEL_SDK_DISABLED": "true"}, None),
        ({"OTEL_EXPORTER_OTLP_ENDPOINT": URL}, False),  # the config turns it off
    ],
)
def test_telemetry_is_off_unless_an_endpoint_or_the_config_turns_it_on(
    env: dict[str, str], key: Any
) -> None:
    assert TelemetrySettings.create(env, key) is None


def test_the_general_endpoint_gets_the_signal_path_appended() -> None:
    got = TelemetrySettings.create({"OTEL_EXPORTER_OTLP_ENDPOINT": URL + "/"}, None)
    assert got is not None
    assert (got.traces_endpoint, got.logs_endpoint) == (URL + "/v1/traces", URL + "/v1/logs")
    assert got.service_name == "hookrun"
    assert got.timeout_ms == DEFAULT_TIMEOUT_MS


def test_a_signal_specific_endpoint_is_used_as_is_and_a_signal_can_be_turned_off() -> None:
    env = {
        "OTEL_EXPORTER_OTLP_TRACES_ENDPOINT": "http://t:1/custom",
        "OTEL_LOGS_EXPORTER": "none",
    }
    got = TelemetrySettings.create(env, None)
    assert got is not None
    assert (got.traces_endpoint, got.logs_endpoint) == ("http://t:1/custom", None)


def test_the_config_key_turns_it_on_without_any_otel_variable() -> None:
    # Claude Code strips OTEL_* from a hook's environment: the config key must be enough.
    got = TelemetrySettings.create(
        {},
        {
            "endpoint": URL,
            "headers": {"authorization": "Bearer t"},
            "service_name": "agents",
            "resource_attributes": {"team": "infra"},
            "timeout_ms": 250,
        },
    )
    assert got is not None
    assert got.traces_endpoint == URL + "/v1/traces"
    assert dict(got.headers) == {"authorization": "Bearer t"}
    assert got.service_name == "agents"
    assert dict(got.resource_attributes) == {"team": "infra"}
    assert got.timeout_ms == 250


def test_true_uses_the_otel_variables_and_else_the_default_endpoint() -> None:
    got = TelemetrySettings.create({}, True)
    assert got is not None and got.traces_endpoint == "http://localhost:4318/v1/traces"
    env = {
        "OTEL_EXPORTER_OTLP_ENDPOINT": URL,
        "OTEL_EXPORTER_OTLP_HEADERS": "api-key=a%20b,bad,x=1",
        "OTEL_RESOURCE_ATTRIBUTES": "service.name=from-attrs,deployment.environment=ci",
        "OTEL_SDK_DISABLED": "true",  # the config key wins over this
    }
    got = TelemetrySettings.create(env, True)
    assert got is not None
    assert dict(got.headers) == {"api-key": "a b", "x": "1"}
    assert got.service_name == "from-attrs"
    assert got.resource_attributes["deployment.environment"] == "ci"


def test_the_config_values_win_over_the_environment() -> None:
    env = {"OTEL_EXPORTER_OTLP_ENDPOINT": "http://env:1", "OTEL_SERVICE_NAME": "env"}
    got = TelemetrySettings.create(env, {"endpoint": URL, "service_name": "cfg"})
    assert got is not None
    assert got.traces_endpoint == URL + "/v1/traces"
    assert got.service_name == "cfg"


def test_an_unsupported_protocol_is_reported_and_http_protobuf_used() -> None:
    env = {"OTEL_EXPORTER_OTLP_ENDPOINT": URL, "OTEL_EXPORTER_OTLP_PROTOCOL": "grpc"}
    got = TelemetrySettings.create(env, None)
    assert got is not None
    assert got.traces_endpoint == URL + "/v1/traces"
    assert "grpc" in got.warnings[0]


def test_otel_header_lists_are_url_decoded_and_malformed_pairs_dropped() -> None:
    assert parse_headers("a=1, b = x%3Dy ,,=z,c") == [("a", "1"), ("b", "x=y")]
