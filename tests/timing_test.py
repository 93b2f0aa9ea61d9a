"""tests/timing.py: when the tight bound of ``soon_after`` applies."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from tests import timing

PSI = (
    "some avg10={} avg60=1.00 avg300=0.50 total=123456\n"
    "full avg10=0.00 avg60=0.00 avg300=0.00 total=0\n"
)


def test_cpu_pressure_reads_psi_some_avg10(tmp_path: Path) -> None:
    psi = tmp_path / "cpu"
    psi.write_text(PSI.format("12.34"))
    assert timing.cpu_pressure(str(psi)) == 12.34
    assert timing.cpu_pressure(str(tmp_path / "none")) is None
    psi.write_text("some total=1\n")
    assert timing.cpu_pressure(str(psi)) is None


@pytest.mark.parametrize(
    ("load", "pressure", "idle"),
    [
        (0.0, "0.00", True),
        (0.0, None, True),  # no PSI (macOS, Windows, older kernels): the load average
        (0.0, "40.00", False),  # a burst the 1-minute load average has not caught up with
        (64.0, "0.00", False),
    ],
)
def test_idle_needs_a_low_load_average_and_low_cpu_pressure(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, load: float, pressure: str | None, idle: bool
) -> None:
    psi = tmp_path / "cpu"
    if pressure is not None:
        psi.write_text(PSI.format(pressure))
    monkeypatch.setattr(timing, "PRESSURE", str(psi))
    monkeypatch.setattr(os, "getloadavg", lambda: (load, load, load), raising=False)
    assert timing.idle() is idle


def test_soon_after_holds_the_generous_bound_always(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(timing, "idle", lambda: False)
    timing.soon_after(5.0, 1.0, idle_bound=2.0)  # loaded: only "not the hook's hang"
    with pytest.raises(AssertionError, match="not ended by the deadline"):
        timing.soon_after(1.0 + 1 + timing.SLACK + 0.1, 1.0, idle_bound=2.0)
    monkeypatch.setattr(timing, "idle", lambda: True)
    with pytest.raises(AssertionError, match="idle machine"):
        timing.soon_after(5.0, 1.0, idle_bound=2.0)
