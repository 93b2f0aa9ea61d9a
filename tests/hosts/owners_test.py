"""The hosts' static tables agree with the host modules they stand in for.

``hookrun.hosts.MODULES`` and ``hookrun.hosts.OWNERS`` are written out so that a
``hookrun run`` loads only the module of the host that called (issue 8). Here they
are derived from every module, so a host module's change that the tables miss fails.
"""

from __future__ import annotations

import importlib

from hookrun import hosts
from hookrun.hosts import detect


def _every_host() -> dict[str, hosts.Host]:
    return {
        name: importlib.import_module(f"hookrun.hosts.{module}").HOST
        for name, module in hosts.MODULES.items()
    }


def test_each_host_name_loads_the_module_whose_host_has_that_name() -> None:
    assert {name: host.name for name, host in _every_host().items()} == {
        name: name for name in hosts.MODULES
    }
    assert (*hosts.MODULES, "auto") == hosts.NAMES
    assert _every_host() == hosts.HOSTS


def test_owners_lists_every_event_name_of_every_host_module() -> None:
    derived: dict[str, set[str]] = {}
    for host in _every_host().values():
        if host.name == "hookrun":  # the neutral shape accepts others' names, owns none
            continue
        for event in host.events:
            derived.setdefault(event, set()).add(host.name)
    assert {event: set(names) for event, names in hosts.OWNERS.items()} == derived


def test_unmapped_is_every_host_event_name_with_no_canonical_event() -> None:
    derived = {
        event
        for host in _every_host().values()
        for event, canonical in host.events.items()
        if not canonical
    }
    assert derived == hosts.UNMAPPED


def test_names_only_one_host_uses_are_what_detection_decides_by() -> None:
    # The table detection used to compute from the modules, now read from OWNERS.
    by_modules: dict[str, set[str]] = {}
    for host in _every_host().values():
        if host.name != "hookrun":
            for event in host.events:
                by_modules.setdefault(event, set()).add(host.name)
    unique = {event: names.pop() for event, names in by_modules.items() if len(names) == 1}
    assert unique == detect._UNIQUE
    for event, host in unique.items():
        assert detect.detect(event, {}, {}).host == host


def test_the_neutral_shape_knows_every_hosts_tool_names_later_hosts_winning() -> None:
    from hookrun.hosts import claude, codex, copilot, crush, cursor, gemini, neutral

    merged = {**crush.TOOLS, **copilot.TOOLS, **cursor.TOOLS, **gemini.TOOLS}
    merged.update({**codex.TOOLS, **claude.TOOLS})
    assert dict(neutral.TOOLS) == merged
    assert list(neutral.TOOLS) == list(merged)


def test_the_neutral_shape_reads_every_host_only_spelling_of_a_canonical_event() -> None:
    from hookrun.hosts import copilot, cursor, gemini, neutral

    derived = {
        name: canonical
        for table in (cursor.EVENTS, copilot.EVENTS, gemini.EVENTS)
        for name, canonical in table.items()
        if canonical and name != canonical
    }
    assert dict(neutral.EVENTS) == derived
