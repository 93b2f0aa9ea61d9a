"""Any input at all ends in a status and a message: never a Python traceback."""

from __future__ import annotations

import tempfile

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from hookrun.dispatch.cancel import Interrupted
from tests.dispatch.shell.shellrun import make_shell

TOKENS = [
    "echo",
    "printf",
    "read",
    "test",
    "[",
    "]",
    "[[",
    "]]",
    "case",
    "esac",
    "in",
    "if",
    "then",
    "fi",
    "else",
    "for",
    "do",
    "done",
    "while",
    "{",
    "}",
    "(",
    ")",
    "((",
    "))",
    "$((",
    "$(",
    "`",
    "'",
    '"',
    "$'",
    "${",
    "}",
    ":-",
    "#",
    "%",
    "/",
    "\\",
    "|",
    "||",
    "&&",
    "&",
    ";",
    ";;",
    "\n",
    " ",
    "<",
    ">",
    ">>",
    "2>&1",
    "<<",
    "EOF",
    "<<<",
    "$x",
    "$@",
    "$?",
    "*",
    "?",
    "=",
    "x=",
    "local",
    "set",
    "-e",
    "-u",
    "shift",
    "exit",
    "return",
    "break",
    "cd",
    "export",
    "eval",
    "trap",
    "%d",
    "%s",
    "%*d",
    "%q",
    "-n",
    "-z",
    "-eq",
    "!",
    "~",
    "a",
    "1",
    "0",
]

script = st.lists(st.sampled_from(TOKENS) | st.text(max_size=4), max_size=25).map("".join)


@settings(
    max_examples=200,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
)
@given(source=script)
def test_any_source_gives_a_status_not_a_traceback(source: str) -> None:
    # An empty PATH: no external command runs and there is no sh to fall back to.
    with tempfile.TemporaryDirectory() as cwd:
        shell, out, err, procs = make_shell(cwd=cwd, env={"PATH": ""}, timeout=0.3)
        try:
            code = shell.run_script(source)
        except Interrupted:
            return  # an endless loop met its deadline: that is the contract
        finally:
            procs.end_all()
            out.finish(5)  # a background job's capture pipes, left open otherwise
            err.finish(5)
        assert 0 <= code <= 255
        assert b"internal error" not in err.data, (source, err.data)
        assert b"Traceback" not in err.data
