"""CancelToken and Guard: one-shot cancellation, callbacks, deadlines, and early wake-up."""

from __future__ import annotations

import threading
import time

import pytest

from hookrun.dispatch.cancel import CancelToken, Guard, Interrupted


def test_a_second_cancel_runs_no_callback_again() -> None:
    token, calls = CancelToken(), []
    token.add_callback(lambda: calls.append("x"))
    token.cancel()
    token.cancel()
    assert (token.cancelled, calls) == (True, ["x"])


def test_a_callback_added_after_cancel_runs_at_once_and_its_remover_is_harmless() -> None:
    token, calls = CancelToken(), []
    token.cancel()
    remove = token.add_callback(lambda: calls.append("late"))
    remove()
    assert calls == ["late"]


def test_a_removed_callback_never_runs_and_removing_twice_is_harmless() -> None:
    token, calls = CancelToken(), []
    remove = token.add_callback(lambda: calls.append("x"))
    remove()
    remove()
    token.cancel()
    assert calls == []


@pytest.mark.parametrize(("cancel_first", "expected"), [(True, True), (False, False)])
def test_wait_returns_whether_the_token_was_cancelled(cancel_first: bool, expected: bool) -> None:
    token = CancelToken()
    if cancel_first:
        token.cancel()
    assert token.wait(0.01) is expected


def test_wait_wakes_when_another_thread_cancels() -> None:
    token = CancelToken()
    threading.Timer(0.05, token.cancel).start()
    started = time.monotonic()
    assert token.wait(30) is True
    assert time.monotonic() - started < 10  # generous: the timeout alone would take 30 s


@pytest.mark.parametrize(
    ("timeout", "cancel", "reason"),
    [
        (None, False, None),
        (None, True, "cancelled"),
        (0.0, False, "timeout"),
        (0.0, True, "cancelled"),
    ],
)
def test_stop_reason_prefers_cancellation_to_the_deadline(
    timeout: float | None, cancel: bool, reason: str | None
) -> None:
    token = CancelToken()
    if cancel:
        token.cancel()
    guard = Guard(timeout, token)
    assert guard.stop_reason() == reason
    if reason is None:
        guard.check()
    else:
        with pytest.raises(Interrupted) as raised:
            guard.check()
        assert raised.value.reason == reason


def test_the_stop_reason_is_sticky_once_seen() -> None:
    token = CancelToken()
    guard = Guard(0.0, token)
    assert guard.stop_reason() == "timeout"
    token.cancel()
    assert guard.stop_reason() == "timeout"


@pytest.mark.parametrize(("timeout", "remaining"), [(None, None), (0.0, 0.0), (-5.0, 0.0)])
def test_remaining_is_none_without_a_deadline_and_never_negative(
    timeout: float | None, remaining: float | None
) -> None:
    assert Guard(timeout).remaining() == remaining


def test_sleep_without_a_token_sleeps_but_not_past_the_deadline() -> None:
    started = time.monotonic()
    Guard(0.05).sleep(30)
    Guard().sleep(0.01)
    assert time.monotonic() - started < 10  # generous: the unclipped sleep would take 30 s


def test_sleep_with_a_token_wakes_early_on_cancellation() -> None:
    token = CancelToken()
    threading.Timer(0.05, token.cancel).start()
    started = time.monotonic()
    Guard(None, token).sleep(30)
    assert time.monotonic() - started < 10  # generous: the sleep alone would take 30 s


@pytest.mark.parametrize("timeout", [None, 0.0, -1.0, 0.05, 5.0])
@pytest.mark.parametrize("cancel", ["never", "before", "while waiting"])
def test_wait_answers_as_threading_event_wait_does(timeout: float | None, cancel: str) -> None:
    """The oracle is threading.Event, which CancelToken stands in for (it is built on
    _thread locks so that a run starting no thread imports no threading)."""
    if timeout is None and cancel == "never":
        pytest.skip("would wait for ever, both ways")
    answers = []
    for make, setter in ((CancelToken, "cancel"), (threading.Event, "set")):
        flag = make()
        if cancel == "before":
            getattr(flag, setter)()
        elif cancel == "while waiting":
            threading.Timer(0.3, getattr(flag, setter)).start()
        answers.append(flag.wait(timeout))
    assert answers[0] == answers[1]


def test_every_waiter_wakes_on_one_cancel() -> None:
    token = CancelToken()
    woken: list[bool] = []
    waiters = [threading.Thread(target=lambda: woken.append(token.wait(30))) for _ in range(5)]
    for waiter in waiters:
        waiter.start()
    time.sleep(0.05)
    token.cancel()
    for waiter in waiters:
        waiter.join(10)
    assert woken == [True] * 5
