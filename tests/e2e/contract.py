"""A host's own hook contract, pinned by running it with a plain hook (no hookrun in the loop).

Each :class:`Contract` is one answer a hook gives on one event — stdout, stderr, exit
code — and what the real host then does: whether the tool ran (or a rewritten command
ran instead), how many times the model was asked (1 = the turn ended after the tool
call), what the model was and was not shown. These are the facts hookrun's host modules
are built on (FINDINGS-hosts.md); when a pinned host version is bumped and one fails, the
host changed its contract and hookrun/hosts/ must follow.
"""

from __future__ import annotations

import json
import shlex
from typing import Any, NamedTuple

from tests.e2e.fakemodel import Script, Text
from tests.e2e.rig import Rig

MARK = "E2E-CONTRACT-2W5"
OUTPUT = "RAW-OUTPUT-8K3"  # printed by the tool, never written whole in its command
STDERR = "STDERR-REASON-4P7"
REWRITE = "@REWRITE@"  # in a contract's stdout: the command that leaves the rewrite mark


class Contract(NamedTuple):
    event: str
    stdout: str | dict[str, Any]
    exit: int = 0
    ran: bool = True  # the original command's side effect happened
    rewritten: bool = False  # the rewritten command's side effect happened
    turns: int = 2  # model requests in the conversation (1: the turn ended at the tool)
    sees: tuple[str, ...] = ()  # in what the model was sent after the prompt
    hides: tuple[str, ...] = ()  # never in what the model was sent


class Outcome(NamedTuple):
    ran: bool
    rewritten: bool
    turns: int
    seen: str  # every request of the conversation, as JSON text
    why: str


def play(rig: Rig, contract: Contract) -> Outcome:
    """Wire a hook answering ``contract``'s way on its event, run the host once."""
    world = rig.world
    ran, rewritten = world.project / "ran-original", world.project / "ran-rewritten"
    rewrite = f"touch {shlex.quote(str(rewritten))}"
    answer = contract.stdout
    text = answer if isinstance(answer, str) else json.dumps(answer)
    answer_file = world.write_text(world.root / "answer.txt", text.replace(REWRITE, rewrite))
    hook = world.write_text(
        world.root / "hook.sh",
        "#!/bin/sh\ncat >/dev/null\n"
        f"cat {shlex.quote(str(answer_file))}\n"
        f"echo {STDERR} >&2\n"
        f"exit {contract.exit}\n",
    )
    hook.chmod(0o755)
    rig.driver.wire(world, {contract.event: [shlex.quote(str(hook))]})
    command = f"touch {shlex.quote(str(ran))}; printf 'RAW-%s\\n' OUTPUT-8K3"
    script: Script = {MARK: [rig.driver.shell(command), Text("the end")]}
    run, model = rig.run_raw(script, f"{MARK} run the command")
    return Outcome(
        ran.exists(),
        rewritten.exists(),
        len(model.conversation(MARK)),
        model.seen_text(MARK).split(MARK, 1)[-1],
        rig.dump(run, model),
    )


def check(contract: Contract, outcome: Outcome) -> None:
    assert outcome.ran is contract.ran, f"ran={outcome.ran}\n{outcome.why}"
    assert outcome.rewritten is contract.rewritten, f"rewritten={outcome.rewritten}\n{outcome.why}"
    assert outcome.turns == contract.turns, f"turns={outcome.turns}\n{outcome.why}"
    for text in contract.sees:
        assert text in outcome.seen, f"the model did not see {text!r}\n{outcome.why}"
    for text in contract.hides:
        assert text not in outcome.seen, f"the model saw {text!r}\n{outcome.why}"
