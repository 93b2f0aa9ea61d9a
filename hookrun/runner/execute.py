"""Running an event's selected hooks at once and gathering their results by position.

Each hook runs on its own thread (one in the calling thread), so the wall time of an
event is that of its slowest hook, not the sum. Results land in a list indexed by
config position — never by completion order — which is what makes aggregation
deterministic.

Command hooks go through ``hookrun.dispatch.run``, which enforces their timeout and
ends their process tree on cancellation, so they are always waited for. Built-in
policies run in-process and cannot be killed: when one overruns its timeout, or the
run is cancelled, the gatherer stops waiting for it and records that instead.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable, Mapping, Sequence

from hookrun import exitcodes, fields, startup_gc
from hookrun.config.spec import HookSpec
from hookrun.dispatch import trivial
from hookrun.dispatch.cancel import CancelToken, linked, wait_bound
from hookrun.records import TYPE_CHECKING, NamedTuple
from hookrun.runner.envelope import HookAnswer, failed, interpret, parse_envelope
from hookrun.runner.payload import EventInput
from hookrun.runner.result import HookResult

if TYPE_CHECKING:
    from typing import Any

    from hookrun.dispatch.result import Completed
    from hookrun.hooks.base import Policy
    from hookrun.runner.workers import WorkerPool

# Exit code recorded for a built-in that overran its timeout (coreutils `timeout`'s).
# Exit code recorded for a built-in that raised, or could not be set up.
# After an interrupt, how long the cleanup waits for the hooks' trees to end. A
# tree ends in well under a second (SIGTERM, then SIGKILL after the 0.5 s grace);
# the bound is for a worker that can never report: one blocked on an import lock
# the interrupted thread left held (importlib's module locks are Python code, so a
# KeyboardInterrupt can land inside them). Such a worker has not spawned anything
# yet and, its token being cancelled, never will.
ABORT_WAIT = 3.0

DispatchFn = Callable[..., "Completed"]


class PreparedHook(NamedTuple):
    """A hook as the runner holds it once first selected: for a builtin, the policy
    already looked up and its options already validated (once, not per call)."""

    spec: HookSpec
    policy: Policy[Any] | None = None
    options: Any = None
    setup_error: str | None = None  # unknown builtin / invalid options: reported per run

    @property
    def route(self) -> str:
        return f"builtin:{self.spec.builtin}" if self.spec.builtin is not None else "command"


def prepare_hook(spec: HookSpec) -> PreparedHook:
    """Look up and bind a builtin's policy. Never raises: a problem becomes that hook's
    error at each run, where ``on_error`` decides what it means (a broken guard set to
    fail closed keeps denying rather than vanishing)."""
    if spec.builtin is None:
        return PreparedHook(spec)
    from hookrun.hooks import registry

    try:
        policy = registry.get(spec.builtin)
    except KeyError:
        known = ", ".join(registry.names())
        return PreparedHook(spec, setup_error=f'unknown builtin "{spec.builtin}" (known: {known})')
    except Exception as exc:  # noqa: BLE001 — a broken policy module is that hook's error
        return PreparedHook(
            spec,
            setup_error=f'builtin "{spec.builtin}" failed to load: {type(exc).__name__}: {exc}',
        )
    try:
        options = policy.bind(spec.options)
    except Exception as exc:  # noqa: BLE001 — pydantic.ValidationError, kept lazy
        return PreparedHook(
            spec,
            policy=policy,
            setup_error=f'builtin "{spec.builtin}": invalid options: {_option_errors(exc)}',
        )
    return PreparedHook(spec, policy=policy, options=options)


def _option_errors(exc: Exception) -> str:
    """``with.word: Input should be a valid string; …`` from a pydantic ValidationError
    (duck-typed, so pydantic is not imported here), else the exception's text."""
    errors = getattr(exc, "errors", None)
    if callable(errors):
        try:
            parts = [
                ".".join(["with", *(str(p) for p in err.get("loc", ()))]) + f": {err.get('msg')}"
                for err in errors()
            ]
        except Exception:  # noqa: BLE001 — fall back to the plain text below
            parts = []
        if parts:
            return "; ".join(parts)
    return " ".join(str(exc).split())


def _ms(seconds: float) -> float:
    return round(seconds * 1000.0, 1)


def _load_dispatch() -> DispatchFn:
    from hookrun.dispatch import run

    return run


class HookExecutor:
    """Runs prepared hooks for one event at a time; owned by a Runner, reused."""

    def __init__(
        self,
        *,
        host_env: Mapping[str, str],
        max_output: int,
        dispatch: DispatchFn | None = None,
        state_dir: str | None = None,
        refuse_processes: str | None = None,
    ) -> None:
        self._host_env = dict(host_env)
        # Passed to dispatch only when set, so a test's own dispatch function need
        # not know the keyword.
        self._dispatch_extra = (
            {} if refuse_processes is None else {"refuse_processes": refuse_processes}
        )
        self._max_output = max_output
        self._dispatch = dispatch
        # A trivial command (hookrun.dispatch.trivial: echo of literal words, exit N) is
        # answered from its text only with the real dispatch: a test's own sees every call.
        self._answer_trivial = dispatch is None
        self._state_dir = state_dir
        self._pool: WorkerPool | None = None  # made for the first hook a worker runs

    def close(self) -> None:
        if self._pool is not None:
            self._pool.close()

    def _workers(self) -> WorkerPool:
        if self._pool is None:
            # Here, not at the top: a run whose hooks are all answered from their text
            # (hookrun.dispatch.trivial) starts no thread and imports no threading.
            from hookrun.runner.workers import WorkerPool

            self._pool = WorkerPool()
        return self._pool

    # -- one hook ---------------------------------------------------------------------

    def _run_command(
        self, hook: PreparedHook, inp: EventInput, env: Mapping[str, str], token: CancelToken | None
    ) -> HookResult:
        spec = hook.spec
        assert spec.command is not None
        if self._dispatch is None:
            self._dispatch = _load_dispatch()
        started = time.monotonic()
        try:
            # `shell` only when set: a dispatch wrapper written before the bash stand-in
            # existed keeps working for every hook that does not ask for it.
            extra = {"shell": spec.shell} if spec.shell != "auto" else {}
            done = self._dispatch(
                spec.command,
                cwd=inp.cwd,
                env=env,
                stdin=inp.data,
                timeout=spec.timeout,
                cancel=token,
                max_output=self._max_output,
                **self._dispatch_extra,
                **extra,
            )
        except Exception as exc:  # noqa: BLE001 — dispatch must not raise; if it does, one hook fails
            answer = failed(
                spec.name, spec.on_error, f"dispatch error: {type(exc).__name__}: {exc}"
            )
            return HookResult(
                name=spec.name,
                source=spec.source,
                route="error",
                exit_code=exitcodes.ERROR,
                duration_ms=_ms(time.monotonic() - started),
                answer=answer,
            )
        return _command_result(spec, inp, done)

    def _trivial_results(
        self, hooks: Sequence[PreparedHook], inp: EventInput, token: CancelToken | None
    ) -> dict[int, HookResult]:
        """By position, the results of the hooks whose command is trivial: known from the
        text, so they load no shell and start no thread (issue 8)."""
        if not self._answer_trivial or (token is not None and token.cancelled):
            return {}
        found: dict[int, HookResult] = {}
        for index, hook in enumerate(hooks):
            if hook.spec.command is not None:
                done = trivial.run(hook.spec.command, max_output=self._max_output)
                if done is not None:
                    found[index] = _command_result(hook.spec, inp, done)
        return found

    def _run_builtin(
        self, hook: PreparedHook, inp: EventInput, env: Mapping[str, str]
    ) -> HookResult:
        spec = hook.spec
        started = time.monotonic()
        exit_code = exitcodes.ERROR
        if hook.setup_error is not None or hook.policy is None:
            answer = failed(spec.name, spec.on_error, hook.setup_error or "builtin not loaded")
        else:
            from hookrun.hooks.base import PolicyContext

            ctx = PolicyContext(
                cwd=inp.cwd,
                project_dir=inp.project_dir,
                state_dir=self._state_dir or os.path.join(inp.project_dir, ".hookrun", "state"),
                env=dict(env),
            )
            try:
                # A copy per policy: parallel hooks must not see each other's changes,
                # and a policy may hand the payload to json.dumps (a proxy would fail).
                verdict = hook.policy.decide(dict(inp.payload), hook.options, ctx)
            except fields.Unreadable as exc:  # a field it must judge has the wrong type
                answer = failed(spec.name, spec.on_error, f"builtin {spec.builtin}: {exc}")
            except Exception as exc:  # noqa: BLE001 — a policy bug is that hook's error
                problem = f"builtin {spec.builtin} raised {type(exc).__name__}: {exc}"
                answer = failed(spec.name, spec.on_error, problem)
            else:
                exit_code = verdict.exit_code
                answer = parse_envelope(verdict.to_envelope())
                if answer.error is not None:
                    answer = failed(spec.name, spec.on_error, answer.error)
        return HookResult(
            name=spec.name,
            source=spec.source,
            route=hook.route,
            exit_code=exit_code,
            duration_ms=_ms(time.monotonic() - started),
            answer=answer,
        )

    # -- all hooks of one event --------------------------------------------------------

    def run_all(
        self, hooks: Sequence[PreparedHook], inp: EventInput, token: CancelToken | None
    ) -> list[HookResult]:
        """Run every hook at once; results in the order of ``hooks``.

        The hooks get a token of their own, linked to the caller's: if the calling
        thread is interrupted (Ctrl-C in an embedding host raises KeyboardInterrupt
        here), every hook's process tree is ended before the exception goes on — the
        caller's token, which may be shared, is never set by the runner.
        """
        known = self._trivial_results(hooks, inp, token)
        if len(known) == len(hooks):  # nothing left to run: no token, no threads
            return [known[index] for index in range(len(hooks))]
        commands = [
            h.spec.command
            for i, h in enumerate(hooks)
            if h.spec.command is not None and i not in known
        ]
        if commands:
            # In this thread, before any worker starts: an interrupt landing in an
            # import would leave that module's lock held, and a worker importing it
            # would wait forever (dispatch.api.prepare_imports).
            if self._dispatch is None:
                self._dispatch = _load_dispatch()
            from hookrun.dispatch.api import prepare_imports

            prepare_imports(commands)
        # The hooks start: the command's start-up pause of the garbage collector ends
        # here (hookrun.startup_gc; nothing in an embedding host's process).
        startup_gc.resume()
        with linked(token) as own:
            base_env = {**self._host_env, **inp.env}
            gather = _Gather(len(hooks))
            inline_task: Callable[[], None] | None = None
            inline_index = -1
            started = time.monotonic()
            deadlines: dict[int, float] = {}
            try:
                for index, hook in enumerate(hooks):
                    if index in known:
                        gather.put(index, known[index])
                        continue
                    env = {**base_env, **hook.spec.env} if hook.spec.env else base_env
                    if hook.spec.builtin is not None:
                        deadlines[index] = started + hook.spec.timeout
                        task = _bind(gather, index, self._run_builtin, hook, inp, env)
                    else:
                        task = _bind(gather, index, self._run_command, hook, inp, env, own)
                        if inline_task is None:
                            inline_task = task  # one command runs in the calling thread
                            inline_index = index
                            continue
                    self._workers().submit(task)
                if inline_task is not None:
                    inline_task()
                return gather.wait(hooks, deadlines, started, own)
            except BaseException:
                # Interrupted (KeyboardInterrupt) anywhere above, even half-way through
                # starting the hooks. The cleanup runs on a thread of its own: a second
                # Ctrl-C cannot cut it short there and strand a tree (see _shielded).
                _shielded(lambda: _abort(own, gather, hooks, deadlines, started, inline_index))
                raise


def _abort(
    own: CancelToken,
    gather: _Gather,
    hooks: Sequence[PreparedHook],
    deadlines: Mapping[int, float],
    started: float,
    inline_index: int,
) -> None:
    """End an interrupted run: cancel every hook, record the one the interrupted thread
    ran and those no worker has begun (they never will: ``_bind``), then wait until
    every hook a worker runs is gone — its dispatch ends its tree on the token."""
    own.cancel()
    gather.give_up_unstarted(hooks, started, inline_index)
    # The trees are gone when this returns (but see ABORT_WAIT).
    gather.wait(hooks, deadlines, started, own, limit=time.monotonic() + ABORT_WAIT)


def _shielded(cleanup: Callable[[], None]) -> None:
    """Run ``cleanup`` to the end on a thread of its own, whatever signals arrive.

    Python raises KeyboardInterrupt only in the main thread, between any two
    bytecodes: a cleanup run there can itself be cut short by a second Ctrl-C,
    half-way through cancelling (a token runs its callbacks once), and leave
    trees running. The caller's wait for the thread is what a signal interrupts;
    it simply waits again. The cleanup is bounded (grace + reap, about 1.5 s).
    """
    import threading  # only to end an interrupted run (see HookExecutor._workers)

    done = threading.Event()

    def body() -> None:
        try:
            cleanup()
        finally:
            done.set()

    try:
        threading.Thread(target=body, name="hookrun-abort", daemon=True).start()
    except KeyboardInterrupt:
        # Cut short while starting: the thread may or may not run. The cleanup is
        # idempotent and thread-safe, so run it here too rather than guess.
        cleanup()
        return
    while not done.is_set():
        try:
            done.wait()
        except KeyboardInterrupt:
            continue  # the first interrupt is already on its way up


def _bind(
    gather: _Gather, index: int, fn: Callable[..., HookResult], *args: Any
) -> Callable[[], None]:
    def task() -> None:
        if not gather.begin(index):
            return  # the run was interrupted before this hook started: it never will
        try:
            result = fn(*args)
        except Exception as exc:  # noqa: BLE001 — last line of defence: one hook, one error
            hook: PreparedHook = args[0]
            result = HookResult(
                name=hook.spec.name,
                source=hook.spec.source,
                route=hook.route,
                exit_code=exitcodes.ERROR,
                duration_ms=0.0,
                answer=failed(
                    hook.spec.name,
                    hook.spec.on_error,
                    f"internal error: {type(exc).__name__}: {exc}",
                ),
            )
        gather.put(index, result)

    return task


class _Gather:
    """Results by config position; the first value put at a position wins."""

    def __init__(self, size: int) -> None:
        self._results: list[HookResult | None] = [None] * size
        # Positions whose task began (True) or was given up before it could (False).
        # What is left is derived from the results, never counted separately: a
        # KeyboardInterrupt between two updates must not leave them disagreeing.
        self._begun: list[bool | None] = [None] * size
        import threading  # only when a hook runs on a worker (see HookExecutor._workers)

        self._cond = threading.Condition()

    @property
    def _pending(self) -> int:
        return self._results.count(None)

    def begin(self, index: int) -> bool:
        """Claim ``index`` for the task about to run it; False if it was given up."""
        with self._cond:
            if self._begun[index] is None:
                self._begun[index] = True
            return self._begun[index] is True

    def put(self, index: int, result: HookResult) -> None:
        with self._cond:
            if self._results[index] is None:
                self._results[index] = result
                self._cond.notify_all()

    def _wake(self) -> None:
        with self._cond:
            self._cond.notify_all()

    def give_up_unstarted(
        self, hooks: Sequence[PreparedHook], started: float, inline_index: int
    ) -> None:
        """Record as cancelled ``inline_index`` (run by the interrupted thread, it will
        not report) and every position no task has begun: the interrupt may have
        landed before its task was handed to a worker."""
        with self._cond:
            for index, hook in enumerate(hooks):
                if self._results[index] is not None:
                    continue
                if index == inline_index or self._begun[index] is None:
                    self._begun[index] = self._begun[index] or False
                    self._abandon(index, hook, started, timed_out=False)
            self._cond.notify_all()

    def _abandon(self, index: int, hook: PreparedHook, started: float, *, timed_out: bool) -> None:
        spec = hook.spec
        if timed_out:
            answer = failed(spec.name, spec.on_error, f"timed out after {spec.timeout:g}s")
            code = exitcodes.TIMEOUT
        else:
            answer, code = HookAnswer(error="cancelled"), exitcodes.CANCELLED
        self._results[index] = HookResult(
            name=spec.name,
            source=spec.source,
            route=hook.route,
            exit_code=code,
            duration_ms=_ms(time.monotonic() - started),
            answer=answer,
            timed_out=timed_out,
            cancelled=not timed_out,
        )

    def wait(
        self,
        hooks: Sequence[PreparedHook],
        deadlines: Mapping[int, float],
        started: float,
        token: CancelToken | None,
        *,
        limit: float | None = None,
    ) -> list[HookResult]:
        """Wait for every command hook; stop waiting for a built-in past its deadline or
        once the run is cancelled (commands end themselves then: dispatch has the token).
        At ``limit`` (``time.monotonic()``), stop waiting for anything: what has not
        reported is recorded as cancelled."""
        remove = token.add_callback(self._wake) if token is not None else None
        try:
            with self._cond:
                while self._pending:
                    now = time.monotonic()
                    cancelled = token is not None and token.cancelled
                    next_deadline = limit
                    for index, deadline in deadlines.items():
                        if self._results[index] is not None:
                            continue
                        if cancelled or now >= deadline:
                            self._abandon(index, hooks[index], started, timed_out=not cancelled)
                        elif next_deadline is None or deadline < next_deadline:
                            next_deadline = deadline
                    if limit is not None and now >= limit:
                        for index, result in enumerate(self._results):
                            if result is None:
                                self._abandon(index, hooks[index], started, timed_out=False)
                    if not self._pending:
                        break
                    # On the main thread a signal's handler must get its turn.
                    self._cond.wait(
                        wait_bound(None if next_deadline is None else next_deadline - now)
                    )
        finally:
            if remove is not None:
                remove()
        return [result for result in self._results if result is not None]


def _command_result(spec: HookSpec, inp: EventInput, done: Completed) -> HookResult:
    """A command hook's result from what its command did."""
    answer = interpret(
        event=inp.event,
        name=spec.name,
        on_error=spec.on_error,
        exit_code=done.exit_code,
        stdout=done.stdout,
        stderr=done.stderr,
        timeout=spec.timeout,
        timed_out=done.timed_out,
        cancelled=done.cancelled,
        error=done.error,
        truncated=done.truncated,
    )
    return HookResult(
        name=spec.name,
        source=spec.source,
        route=done.route,
        exit_code=done.exit_code,
        duration_ms=_ms(done.duration),
        answer=answer,
        timed_out=done.timed_out,
        cancelled=done.cancelled,
    )
