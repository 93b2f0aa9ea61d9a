"""``set`` and ``shopt``: the shell's options, by bash's names.

``errexit``, ``nounset`` and ``pipefail`` are attributes of :class:`ShellState` (read on
every command); the others are names in ``ShellState.options``. Options that change
nothing in a non-interactive in-process shell (``monitor``, ``histexpand``, …) are
accepted and listed, so scripts that set them run unchanged.
"""

from __future__ import annotations

from hookrun.records import TYPE_CHECKING

if TYPE_CHECKING:
    from hookrun.dispatch.shell.interp import IO, Interp
    from hookrun.dispatch.shell.state import ShellState

# set -X letter → long name
SET_LETTERS = {
    "e": "errexit",
    "u": "nounset",
    "f": "noglob",
    "x": "xtrace",
    "C": "noclobber",
    "E": "errtrace",
    "v": "verbose",
    "a": "allexport",
    "b": "notify",
    "h": "hashall",
    "m": "monitor",
    "n": "noexec",
    "B": "braceexpand",
    "H": "histexpand",
    "P": "physical",
    "T": "functrace",
    "k": "keyword",
    "t": "onecmd",
    "p": "privileged",
}
SET_LONG = sorted(
    {*SET_LETTERS.values(), "pipefail", "posix", "ignoreeof", "interactive-comments", "vi", "emacs"}
    | {"history", "nolog"}
)
_ATTRS = {"errexit", "nounset", "pipefail"}
_EDITING = {"vi": "emacs", "emacs": "vi"}
# On in a non-interactive bash unless turned off.
SET_DEFAULTS = frozenset({"braceexpand", "hashall", "interactive-comments"})

SHOPT = sorted(
    {
        "autocd", "cdable_vars", "cdspell", "checkhash", "checkjobs", "checkwinsize",
        "cmdhist", "compat31", "compat32", "compat40", "compat41", "compat42", "compat43",
        "compat44", "complete_fullquote", "direxpand", "dirspell", "dotglob", "execfail",
        "expand_aliases", "extdebug", "extglob", "extquote", "failglob", "force_fignore",
        "globasciiranges", "globskipdots", "globstar", "gnu_errfmt", "histappend",
        "histreedit", "histverify", "hostcomplete", "huponexit", "inherit_errexit",
        "interactive_comments", "lastpipe", "lithist", "localvar_inherit",
        "localvar_unset", "login_shell", "mailwarn", "no_empty_cmd_completion",
        "nocaseglob", "nocasematch", "noexpand_translation", "nullglob",
        "patsub_replacement", "progcomp", "progcomp_alias", "promptvars",
        "restricted_shell", "shift_verbose", "sourcepath", "varredir_close", "xpg_echo",
    }
)  # fmt: skip
SHOPT_DEFAULTS = frozenset(
    {
        "checkwinsize", "cmdhist", "complete_fullquote", "extquote", "force_fignore",
        "globasciiranges", "globskipdots", "hostcomplete", "interactive_comments",
        "patsub_replacement", "progcomp", "promptvars", "sourcepath",
    }
)  # fmt: skip


# The letters of `$-`, in bash's order (its flags table), then "c"/"s" for how it started.
_DASH_ORDER = "abefhkmnptuvxBCEHPT"


def option_flags(st: ShellState) -> str:
    """``$-``: the single-letter options that are on, as bash lists them."""
    on = "".join(c for c in _DASH_ORDER if state_is_on(st, SET_LETTERS[c]))
    return on + st.invoked


def is_on(sh: Interp, name: str) -> bool:
    return state_is_on(sh.state, name)


def state_is_on(st: ShellState, name: str) -> bool:
    if name in _ATTRS:
        return bool(getattr(st, name))
    if name in SET_DEFAULTS or name in SHOPT_DEFAULTS:
        return f"no-{name}" not in st.options
    return name in st.options


def set_option(sh: Interp, name: str, on: bool) -> None:
    st = sh.state
    if name in _ATTRS:
        setattr(st, name, on)
    elif name in SET_DEFAULTS or name in SHOPT_DEFAULTS:
        (st.options.discard if on else st.options.add)(f"no-{name}")
    elif on:
        st.options.add(name)
        if name in _EDITING:  # one line-editing mode at a time, as in bash (no effect here)
            st.options.discard(_EDITING[name])
    else:
        st.options.discard(name)


def _out(io: IO, text: str) -> None:
    io.stdout.write(text.encode("utf-8", "surrogateescape"))


def b_set(sh: Interp, argv: list[str], io: IO) -> int:
    from hookrun.dispatch.shell.listing import set_listing  # lazy: only when listing

    st = sh.state
    args = argv[1:]
    if not args:
        _out(io, set_listing(st))
        return 0
    i = 0
    while i < len(args):
        a = args[i]
        if a in ("--", "-"):
            st.params = args[i + 1 :]
            if a == "-":
                for f in ("xtrace", "verbose"):
                    set_option(sh, f, False)
            return 0
        if a in ("-o", "+o"):
            if i + 1 >= len(args):
                for name in SET_LONG:
                    if a == "-o":
                        _out(io, f"{name:<15}\t{'on' if is_on(sh, name) else 'off'}\n")
                    else:
                        _out(io, f"set {'-' if is_on(sh, name) else '+'}o {name}\n")
                return 0
            name = args[i + 1]
            if name not in SET_LONG:
                sh.error(f"set: {name}: invalid option name", io)
                return 2
            set_option(sh, name, a == "-o")
            i += 2
            continue
        if a[:1] in "-+" and len(a) > 1:
            on = a[0] == "-"
            bad = next((f for f in a[1:] if f != "o" and f not in SET_LETTERS), "")
            if bad:  # (bash checks every letter before it sets one: `set -ey` sets no -e)
                return _invalid(sh, io, "set", f"{a[0]}{bad}")
            for flag in a[1:]:
                if flag == "o":
                    if i + 1 >= len(args):
                        break
                    i += 1
                    name = args[i]
                    if name not in SET_LONG:
                        sh.error(f"set: {name}: invalid option name", io)
                        return 2
                    set_option(sh, name, on)
                else:
                    set_option(sh, SET_LETTERS[flag], on)
            i += 1
            continue
        st.params = args[i:]
        return 0
    return 0


def _invalid(sh: Interp, io: IO, name: str, option: str) -> int:
    # (an error path: options stays a light module — expand and shellvars load it alone)
    from hookrun.dispatch.shell.builtins import _invalid as answer

    return answer(sh, io, name, option)


def b_shopt(sh: Interp, argv: list[str], io: IO) -> int:
    args = argv[1:]
    mode = ""
    quiet = set_o = False
    while args and args[0].startswith("-") and len(args[0]) > 1:
        for f in args.pop(0)[1:]:
            if f in "su":
                mode = f
            elif f == "q":
                quiet = True
            elif f == "o":
                set_o = True
            elif f == "p":
                mode = mode or "p"
            else:
                return _invalid(sh, io, "shopt", f"-{f}")
    known = SET_LONG if set_o else SHOPT
    if mode in ("s", "u") and args:
        status = 0
        for name in args:
            if name not in known:
                sh.error(f"shopt: {name}: invalid shell option name", io)
                status = 1
                continue
            set_option(sh, name, mode == "s")
        return status
    names = args or known
    status = 0
    for name in names:
        if name not in known:
            sh.error(f"shopt: {name}: invalid shell option name", io)
            status = 1
            continue
        on = is_on(sh, name)
        if mode in ("s", "u") and on != (mode == "s"):
            continue
        if not on:
            status = status or (1 if args else 0)
        if quiet:
            continue
        if mode == "p" and set_o:
            _out(io, f"set {'-' if on else '+'}o {name}\n")
        elif mode == "p":
            _out(io, f"shopt {'-s' if on else '-u'} {name}\n")
        else:
            _out(io, f"{name:<15}\t{'on' if on else 'off'}\n")
    if args:
        return 0 if all(is_on(sh, n) for n in args if n in known) and status == 0 else 1
    return 0
