"""The embedding API: build a :class:`Runner` once, call it for every event.

    from hookrun import Runner
    runner = Runner.discover(cwd=".")
    result = runner.run("PreToolUse", {"tool_name": "bash", "tool_input": {"command": "ls"}})
    result.decision, result.reason, result.updated_input, result.to_dict()

Everything that does not depend on the event is done once: hooks grouped by event,
dedupe keys computed and the host environment captured at construction; each builtin
looked up and its options validated the first time it is selected. A call only
selects, runs and aggregates.
"""

from __future__ import annotations

import _signal  # type: ignore[import-not-found]  # C, already loaded by hookrun/__init__
import _thread
import os
from collections.abc import Callable, Hashable, Iterable, Mapping, Sequence

from hookrun.config.spec import Config, HookSpec
from hookrun.dispatch.cancel import CancelToken, finished, linked
from hookrun.records import TYPE_CHECKING
from hookrun.runner import PayloadError
from hookrun.runner.aggregate import aggregate
from hookrun.runner.execute import HookExecutor, PreparedHook, prepare_hook
from hookrun.runner.matching import dedupe_key, select_indices
from hookrun.runner.payload import EventInput, prepare
from hookrun.runner.result import HookResult, RunResult

if TYPE_CHECKING:
    from typing import Any

__all__ = ["HookResult", "Runner", "RunResult"]


class _EventHooks:
    """One event's hooks, in config order, with what each call needs precomputed.

    A builtin is looked up and its options bound the first time it is selected, then
    kept: a config naming ten policies costs nothing for an event that runs none of
    them (loading a policy imports pydantic and its module).
    """

    __slots__ = ("_lock", "_prepared", "specs", "keys")

    def __init__(self, specs: Sequence[HookSpec]) -> None:
        self.specs = tuple(specs)
        self.keys: tuple[Hashable, ...] = tuple(dedupe_key(s) for s in self.specs)
        self._prepared: list[PreparedHook | None] = [
            prepare_hook(s) if s.builtin is None else None for s in self.specs
        ]
        self._lock = _thread.allocate_lock()  # threading.Lock, without importing threading

    def prepared(self, index: int) -> PreparedHook:
        hook = self._prepared[index]
        if hook is None:
            with self._lock:  # bound once even when two threads select it at once
                hook = self._prepared[index]
                if hook is None:
                    hook = self._prepared[index] = prepare_hook(self.specs[index])
        return hook


class _NotedSigint:
    """Python's SIGINT handler, plus a note that the run saw the signal.

    Installed by :meth:`Runner.run` on the main thread, only over Python's own handler
    (``default_int_handler``), for the length of the run. On Ctrl-C it cancels the run's
    token (from a raw thread: the main thread may hold a lock the cancel takes, see
    ``hookrun.cli.signals``) and then raises KeyboardInterrupt, as Python's handler does.
    Why: CPython runs a handler between any two bytecodes, also inside a weakref
    callback (importlib's module locks have one, fired as an import ends), a
    ``__del__`` or a GC callback, whose exceptions it can only report ("Exception
    ignored in ... KeyboardInterrupt"). The KeyboardInterrupt is then lost and the
    run would wait for its hooks; with the token cancelled the hooks end, and
    ``run`` raises the KeyboardInterrupt itself.
    """

    __slots__ = ("owner", "tokens", "seen")

    def __init__(self) -> None:
        self.owner = _thread.get_ident()
        self.tokens: list[CancelToken] = []  # one per run nested on the main thread
        self.seen = False

    @classmethod
    def enter(cls) -> _NotedSigint | None:
        """Note SIGINT for a run, or None where that is not ours to do: not the main
        thread, or a host with a SIGINT handler of its own (``hookrun run`` routes
        signals to its token itself, hookrun/cli/signals.py)."""
        current = _signal.getsignal(_signal.SIGINT)
        if isinstance(current, _NotedSigint):
            if current.owner != _thread.get_ident():
                return None  # another thread's run while the main thread runs one
            if not current.tokens:  # left behind by a Ctrl-C as it was installed
                current.seen = False
            return current  # else a run nested in a run of the main thread
        if current is not _signal.default_int_handler:
            return None
        noted = cls()
        try:
            _signal.signal(_signal.SIGINT, noted)
        except ValueError:  # not the main thread: Python takes handlers only there
            return None
        return noted

    def leave(self) -> None:
        """Python's handler back, once the outermost run is over (unless the host
        has put one of its own in place meanwhile)."""
        if not self.tokens and _signal.getsignal(_signal.SIGINT) is self:
            _signal.signal(_signal.SIGINT, _signal.default_int_handler)

    def __call__(self, signum: int, frame: object) -> None:
        self.seen = True
        for token in tuple(self.tokens):
            _thread.start_new_thread(token.cancel, ())
        _signal.default_int_handler(signum, frame)


def _normalizer() -> Callable[[str], str]:
    from hookrun.config import normalize_event

    return normalize_event


class Runner:
    """Runs the hooks of a :class:`~hookrun.config.spec.Config` for one event at a time.

    Thread-safe: one runner may serve concurrent calls (each has its own payload,
    environment and results).
    """

    def __init__(
        self,
        config: Config,
        *,
        cwd: str | os.PathLike[str] = ".",
        project_dir: str | os.PathLike[str] | None = None,
        env: Mapping[str, str] | None = None,
        max_output: int = 1 << 20,
        state_dir: str | os.PathLike[str] | None = None,
        refuse_processes: str | None = None,
    ) -> None:
        """``state_dir`` stands in for ``<project_dir>/.hookrun/state``, where policies keep
        what they remember (lockout registry, ask counters): `hookrun test` and `replay`
        give a scratch copy so that trying a config changes nothing.
        ``refuse_processes``: start no process at all (each external command of a
        hook fails with exit 126 and this text) — `hookrun replay`."""
        self.config = config
        self.cwd = os.path.abspath(cwd)
        if project_dir is None:
            from hookrun.config import find_project_root

            project_dir = find_project_root(self.cwd)
        self.project_dir = os.path.abspath(project_dir)
        self.max_output = max_output
        self._normalize = _normalizer()
        grouped: dict[str, list[HookSpec]] = {}
        for event, specs in config.hooks.items():
            # The config package already uses canonical names; a hand-built Config may not.
            grouped.setdefault(self._normalize(event), []).extend(specs)
        self._events = {event: _EventHooks(specs) for event, specs in grouped.items()}
        self._executor = HookExecutor(
            host_env=os.environ if env is None else env,
            max_output=max_output,
            state_dir=None if state_dir is None else os.path.abspath(state_dir),
            refuse_processes=refuse_processes,
        )

    # -- construction from files ------------------------------------------------------

    @classmethod
    def from_paths(
        cls,
        paths: Sequence[str | os.PathLike[str]],
        *,
        cwd: str | os.PathLike[str] = ".",
        project_dir: str | os.PathLike[str] | None = None,
        env: Mapping[str, str] | None = None,
    ) -> Runner:
        """Load the given config files (in order; lists concatenate). Raises ConfigError."""
        from hookrun.config import load

        return cls(load(paths, cwd=cwd), cwd=cwd, project_dir=project_dir, env=env)

    @classmethod
    def discover(
        cls,
        cwd: str | os.PathLike[str] = ".",
        project_dir: str | os.PathLike[str] | None = None,
        *,
        env: Mapping[str, str] | None = None,
    ) -> Runner:
        """The user's config then the project's, as ``hookrun run`` without ``--config``."""
        from hookrun.config import discover

        return cls.from_paths(discover(cwd), cwd=cwd, project_dir=project_dir, env=env)

    # -- per event ----------------------------------------------------------------------

    def _prepare(self, event: str, payload: Mapping[str, Any] | None) -> EventInput:
        if not isinstance(event, str) or not event.strip():
            raise PayloadError(
                f"event name {event!r} is empty or not a string: name an event such as PreToolUse"
            )
        return prepare(self._normalize(event), payload, cwd=self.cwd, project_dir=self.project_dir)

    def _chosen(self, inp: EventInput) -> tuple[_EventHooks | None, list[int]]:
        hooks = self._events.get(inp.event)
        if hooks is None:
            return None, []
        chosen = select_indices(
            hooks.specs,
            event=inp.event,
            payload=inp.payload,
            tool_name=inp.tool_name,
            is_sub_agent=inp.is_sub_agent,
            keys=hooks.keys,
            unreadable=inp.unreadable,
        )
        return hooks, chosen

    def select(self, event: str, payload: Mapping[str, Any] | None = None) -> list[HookSpec]:
        """The hooks ``run`` would run for this event, in config order (``hookrun list``).

        Raises :class:`~hookrun.runner.PayloadError` like ``run``.
        """
        hooks, chosen = self._chosen(self._prepare(event, payload))
        return [hooks.specs[i] for i in chosen] if hooks is not None else []

    def run(
        self,
        event: str,
        payload: Mapping[str, Any] | None = None,
        *,
        cancel: CancelToken | None = None,
    ) -> RunResult:
        """Run the event's matching hooks at once and aggregate their answers.

        ``event`` may be any spelling of a known event (``pre_tool_use``) or a custom
        name. Cancelling ``cancel`` from another thread ends every hook's process tree
        and returns a result with ``cancelled`` set (exit code 130). Raises
        :class:`~hookrun.runner.PayloadError` for a payload that cannot be run;
        a hook failing never raises.

        Called on the main thread while Python's own SIGINT handler is in place, a
        Ctrl-C always ends the run with KeyboardInterrupt once every hook's process
        tree is ended, even when CPython swallowed the exception (see
        :class:`_NotedSigint`); that handler is back in place when ``run`` returns.
        """
        noted = _NotedSigint.enter()
        if noted is None:
            return self._run(self._prepare(event, payload), cancel)
        try:
            with linked(cancel) as token:  # never cancel the caller's token
                noted.tokens.append(token)
                try:
                    if noted.seen:  # swallowed before the token could be cancelled
                        raise KeyboardInterrupt
                    result = self._run(self._prepare(event, payload), token)
                finally:
                    noted.tokens.remove(token)
        finally:
            noted.leave()
        if noted.seen:  # a Ctrl-C whose KeyboardInterrupt never reached this frame
            raise KeyboardInterrupt
        return result

    def _run(self, inp: EventInput, cancel: CancelToken | None) -> RunResult:
        group, chosen = self._chosen(inp)
        hooks = [group.prepared(i) for i in chosen] if group is not None else []
        results = self._executor.run_all(hooks, inp, cancel) if hooks else []
        agg = aggregate([r.answer for r in results], inp.tool_input)
        files = resolve_context_files(agg.context_files, cwd=inp.cwd, project_dir=inp.project_dir)
        result = RunResult(
            event=inp.event,
            decision=agg.decision,
            halt=agg.halt,
            reason=agg.reason,
            context=agg.context,
            context_files=files,
            updated_input=agg.updated_input,
            updated_prompt=agg.updated_prompt,
            updated_output=agg.updated_output,
            system_message=agg.system_message,
            hooks=tuple(results),
            cancelled=cancel is not None and cancel.cancelled,
            tool_name=inp.tool_name,
        )
        if self.config.audit_log:
            from hookrun.runner import audit  # only configs with a trail pay for it

            # The config package makes the path absolute; a hand-built Config may not.
            path = os.path.join(self.cwd, self.config.audit_log)
            problem = audit.write(
                path,
                result,
                session_id=inp.session_id,
                tool_name=inp.tool_name,
                payload=inp.payload if self.config.audit_payload else None,
            )
            if problem is not None:
                result = result._replace(audit_error=problem)
        return result

    async def arun(
        self,
        event: str,
        payload: Mapping[str, Any] | None = None,
        *,
        cancel: CancelToken | None = None,
    ) -> RunResult:
        """``run`` for asyncio. Cancelling the awaiting task cancels the hooks (their
        process trees are ended), waits for them to be gone, and re-raises."""
        import asyncio  # only embedders that await pay for asyncio

        inp = self._prepare(event, payload)  # a PayloadError is raised here, not in a thread
        # A token of this call's own, linked to the caller's: cancelling the task must
        # not set a token the caller may share with other runs.
        with linked(cancel) as token:
            future = asyncio.get_running_loop().run_in_executor(None, self._run, inp, token)
            return await finished(future, token)

    def close(self) -> None:
        """Let the worker threads go (optional: they are daemons)."""
        self._executor.close()

    def __enter__(self) -> Runner:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


# -- context files --------------------------------------------------------------
#
# ``context_files`` a hook named → the ones worth telling the agent about. Here, not in
# a module of its own: every run reads them, and a module costs ~0.35M instructions of
# start-up (issue 8).


def _inside(path: str, root: str) -> bool:
    try:
        return os.path.commonpath([path, root]) == root
    except ValueError:  # pragma: win32 no cover — different drives
        return False


def resolve_context_files(paths: Iterable[str], *, cwd: str, project_dir: str) -> tuple[str, ...]:
    """Existing files inside ``project_dir``, in order, each once.

    Resolved against the event's cwd, confined to the project dir (a hook must not be
    able to point the agent at ``~/.ssh/id_rsa``; symlinks are followed before the
    check for the same reason), missing files dropped, duplicates removed.

    Shown relative to ``cwd`` when under it (what the agent's own tools expect),
    absolute otherwise.
    """
    root = os.path.realpath(project_dir)
    seen: set[str] = set()
    out: list[str] = []
    for path in paths:
        full = os.path.normpath(os.path.join(cwd, os.path.expanduser(path)))
        real = os.path.realpath(full)
        if real in seen or not _inside(real, root) or not os.path.exists(real):
            continue
        seen.add(real)
        out.append(os.path.relpath(full, cwd) if _inside(full, cwd) else full)
    return tuple(out)
