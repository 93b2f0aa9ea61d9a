"""``trap`` and the signal names (loaded on the first ``trap`` or ``kill``,
``builtins._lazy``): a hook that sets no trap does not unmarshal them at start-up.
"""

from __future__ import annotations

from hookrun.dispatch.shell.builtins import _USAGE, _err, _letters, _out
from hookrun.records import TYPE_CHECKING

if TYPE_CHECKING:
    from hookrun.dispatch.shell.interp import IO, Interp


# Linux signal numbers 1–31, in order (trap accepts names and numbers).
_SIGNALS = [
    *[
        "HUP",
        "INT",
        "QUIT",
        "ILL",
        "TRAP",
        "ABRT",
        "BUS",
        "FPE",
        "KILL",
        "USR1",
        "SEGV",
        "USR2",
        "PIPE",
        "ALRM",
        "TERM",
        "STKFLT",
    ],
    *[
        "CHLD",
        "CONT",
        "STOP",
        "TSTP",
        "TTIN",
        "TTOU",
        "URG",
        "XCPU",
        "XFSZ",
        "VTALRM",
        "PROF",
        "WINCH",
        "IO",
        "PWR",
        "SYS",
    ],
]


# Linux's real-time signals, 34…64, by bash's names for them.
_REALTIME = {
    34: "RTMIN",
    **{k: f"RTMIN+{k - 34}" for k in range(35, 50)},
    **{k: f"RTMAX-{64 - k}" for k in range(50, 64)},
    64: "RTMAX",
}


_REALTIME_NUMBERS = {name: k for k, name in _REALTIME.items()}


def _signal_name(spec: str) -> str | None:
    s = spec.upper().strip(" \t\n")
    if s in ("0", "EXIT"):
        return "EXIT"
    if s in ("ERR", "DEBUG", "RETURN"):
        return s
    if s.isdigit():  # (a number with SIG before it is no signal to bash: `SIG2`)
        k = int(s)
        if k == 0:
            return "EXIT"
        return _SIGNALS[k - 1] if 1 <= k <= len(_SIGNALS) else _REALTIME.get(k)
    if s.startswith("SIG"):
        s = s[3:]
    return s if s in _SIGNALS or s in _REALTIME_NUMBERS else None


def _trap_order(name: str) -> int:
    """bash lists traps by signal number: EXIT (0), the signals, then DEBUG, ERR, RETURN."""
    if name == "EXIT":
        return 0
    if name in _SIGNALS:
        return _SIGNALS.index(name) + 1
    if name in _REALTIME_NUMBERS:
        return _REALTIME_NUMBERS[name]
    return 100 + ("DEBUG", "ERR", "RETURN").index(name)


def b_trap(sh: Interp, argv: list[str], io: IO) -> int:
    args = argv[1:]
    letters = _letters(sh, io, "trap", args, "lp")  # (bash's getopt: `--` ends them)
    if letters is None:
        return 2
    if "l" in letters:
        _out(io, signal_table())
        return 0
    if not args or "p" in letters:
        # A subshell lists the traps it inherited (not run there) until it sets its own.
        traps = {**sh.inherited_traps, **sh.traps}
        if not args:
            for name in sorted(traps, key=_trap_order):
                _out(io, _trap_line(name, traps[name]))
            return 0
        status = 0
        for spec in args:  # (in the order asked, as bash lists them)
            sig = _signal_name(spec)
            if sig is None:
                _err(sh, io, "trap", f"{spec}: invalid signal specification")
                status = 1
            elif sig in traps:
                _out(io, _trap_line(sig, traps[sig]))
        return status
    action = args[0]
    signals = args[1:]
    # As bash: a signal's number first resets the signals given (" 42 " is an action);
    # a lone signal (not "-") resets it; a lone anything else is a usage error.
    if action.isdigit() and _signal_name(action) is not None:
        action, signals = "-", args
    elif not signals:
        if action in ("", "-") or _signal_name(action) is None:
            sh.error_plain(f"trap: usage: {_USAGE['trap']}", io)
            return 2
        action, signals = "-", args
    status = 0
    for spec in signals:
        sig = _signal_name(spec)
        if sig is None:
            _err(sh, io, "trap", f"{spec}: invalid signal specification")
            status = 1
            continue
        sh.inherited_traps.pop(sig, None)
        if action == "-":
            sh.traps.pop(sig, None)
        else:
            # A signal's trap runs when the kill builtin sends that signal to this shell
            # (hookrun.dispatch.shell.signals); a real signal goes to hookrun, not here.
            sh.traps[sig] = action
    return status


def signal_table() -> str:
    """bash's ``trap -l`` / ``kill -l``: every signal numbered, five a line."""
    numbered = [*enumerate(_SIGNALS, 1), *sorted(_REALTIME.items())]
    cells = [
        f"{k:2d}) SIG{name}" + ("\n" if column % 5 == 0 else "\t")
        for column, (k, name) in enumerate(numbered, 1)
    ]
    return "".join(cells) + ("\n" if len(numbered) % 5 else "")


def _trap_line(name: str, action: str) -> str:
    shown = name if name in ("EXIT", "ERR", "DEBUG", "RETURN") else "SIG" + name
    return f"trap -- {_shell_quote(action)} {shown}\n"


def _shell_quote(text: str) -> str:
    """bash's trap listing quotes every action (``'true'``, ``''``)."""
    return "'" + text.replace("'", "'\\''") + "'"
