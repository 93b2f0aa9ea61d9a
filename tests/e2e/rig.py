"""One host, one world, one fake model: hookrun wired into the host as a user would wire it.

``Rig.play(hooks, script, prompt)`` writes ``hooks`` as a hookrun config (hookrun's own
flat dialect), wires ``hookrun run EVENT … --config THAT`` into the host's own config for
each of those events, starts the fake model with ``script``, runs the host once, and
hands back the run and the model (whose recorded requests say what the model saw).
"""

from __future__ import annotations

import json
import shlex
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

from tests.e2e.driver import Driver, Run, hookrun_command
from tests.e2e.fakemodel import Dialect, FakeModel, Script

if TYPE_CHECKING:
    from tests.e2e.conftest import World

Hook = dict[str, Any]
# A hook that answers nothing: the positive control runs the same host, wired the same
# way, with this in place of the hook under test.
PASS: Hook = {"name": "pass-through", "command": "exit 0"}


class Rig:
    def __init__(
        self,
        driver: Driver,
        exe: Path,
        hookrun: Path,
        world: World,
        start_model: Callable[[Dialect, Script], FakeModel] | None = None,
    ) -> None:
        """``start_model`` starts a fake model that someone else stops (a fixture's
        ExitStack); without it, each play stops its model when the host is done."""
        self.driver = driver
        self.exe = exe
        self.hookrun = hookrun
        self.world = world
        self.start_model = start_model

    def answer(self, name: str, envelope: Mapping[str, Any]) -> str:
        """A hook command that prints ``envelope`` (written to a file, so no quoting games)."""
        path = self.world.root / "answers" / f"{name}.json"
        self.world.write_json(path, envelope)
        return f"cat {shlex.quote(str(path))}"

    def play(
        self,
        hooks: Mapping[str, Sequence[Hook]],
        script: Script,
        prompt: str,
        *,
        timeout: float = 120,
        host_hook_timeout: int = 30,
        config_top: Mapping[str, Any] | None = None,
        args: Sequence[str] = (),
    ) -> tuple[Run, FakeModel]:
        config = self.world.write_json(
            self.world.root / "hookrun.json",
            {"version": 1, **(config_top or {}), "hooks": {k: list(v) for k, v in hooks.items()}},
        )
        wired = {
            event: [
                hookrun_command(self.hookrun, self.driver.event(event), config, self.driver.name)
            ]
            for event in hooks
        }
        self.driver.wire(self.world, wired, timeout=host_hook_timeout)
        return self.run_raw(script, prompt, timeout=timeout, args=args)

    def run_raw(
        self, script: Script, prompt: str, *, timeout: float = 120, args: Sequence[str] = ()
    ) -> tuple[Run, FakeModel]:
        """Run the host as wired now (by :meth:`play`, or by hand) against ``script``."""
        if self.start_model is not None:
            model = self.start_model(self.driver.dialect, script)
            run = self.driver.run(self.exe, self.world, model.url, prompt, timeout, args)
        else:
            with FakeModel(self.driver.dialect, script) as model:
                run = self.driver.run(self.exe, self.world, model.url, prompt, timeout, args)
        if run.code == -1:
            pytest.fail(f"{self.driver.name} hung: {run.describe()}", pytrace=False)
        return run, model

    def dump(self, run: Run, model: FakeModel) -> str:
        """Everything a failing assertion needs to be understood."""
        talks = [
            {k: v for k, v in body.items() if k in {"messages", "input", "contents"}}
            for body in model.turns()
        ]
        shown = json.dumps(talks, indent=1, ensure_ascii=False)[-6000:]
        paths = [f"{r.method} {r.path}" for r in model.requests]
        return (
            f"{self.driver.name}: {run.describe()}\n--- requests: {paths}\n"
            f"--- conversations the model was sent (tail)\n{shown}"
        )
