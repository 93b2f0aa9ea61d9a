from __future__ import annotations

import threading
import time

from hookrun.dispatch.watchdog import Watchdog


def test_alarms_fire_in_deadline_order_not_scheduling_order() -> None:
    dog = Watchdog()
    fired: list[str] = []
    done = threading.Event()
    now = time.monotonic()

    def late() -> None:
        fired.append("late")
        done.set()

    dog.schedule(now + 0.3, late)
    dog.schedule(now + 0.1, lambda: fired.append("early"))
    assert done.wait(5)
    assert fired == ["early", "late"]


def test_an_earlier_alarm_scheduled_later_wakes_the_sleeping_thread() -> None:
    dog = Watchdog()
    done = threading.Event()
    now = time.monotonic()
    dog.schedule(now + 60, lambda: None)
    time.sleep(0.05)  # the thread now sleeps towards +60 s
    dog.schedule(time.monotonic() + 0.05, done.set)
    assert done.wait(2)


def test_a_cancelled_alarm_never_fires() -> None:
    dog = Watchdog()
    fired: list[str] = []
    done = threading.Event()
    now = time.monotonic()
    cancel = dog.schedule(now + 0.05, lambda: fired.append("cancelled"))
    dog.schedule(now + 0.15, done.set)
    cancel()
    assert done.wait(5)
    assert fired == []


def test_a_failing_action_does_not_stop_later_alarms() -> None:
    dog = Watchdog()
    done = threading.Event()

    def boom() -> None:
        raise RuntimeError("bad action")

    now = time.monotonic()
    dog.schedule(now + 0.01, boom)
    dog.schedule(now + 0.05, done.set)
    assert done.wait(5)


def test_cancelled_alarms_do_not_pile_up_in_a_long_lived_host() -> None:
    dog = Watchdog()
    far = time.monotonic() + 3600
    for _ in range(10_000):
        dog.schedule(far, lambda: None)()
    assert dog.pending() == 0
    assert len(dog._heap) < 200
