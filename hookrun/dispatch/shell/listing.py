"""How bash prints variables back as shell code: ``set``, ``declare -p``, ``export -p``.

Scripts read these listings back (``eval "$(declare -p x)"``) and tests compare them
byte for byte, so the quoting is bash's own: ``set`` quotes a value only when it holds a
character the shell would treat specially (``sh_contains_shell_metas``), with ``$'…'``
for control characters; ``declare -p`` always double-quotes, escaping ``\\ " $ ```.
"""

from __future__ import annotations

from hookrun.dispatch.shell.expand import quote_ansi_c
from hookrun.dispatch.shell.state import Array, ShellState, is_name

# bash's sh_contains_shell_metas: blanks, quotes, operators, reserved-word and glob
# characters, expansions; `~` only where tilde expansion applies and `#` at the start.
_METAS = frozenset(" \t\n'\"\\|&;()<>!{}*[?]^$`")
# The order bash's make_attribute_string writes attribute letters in.
_ATTR_ORDER = "aAinrtxclu"


def has_metas(text: str) -> bool:
    for k, c in enumerate(text):
        if c in _METAS:
            return True
        if c == "~" and (k == 0 or text[k - 1] in "=:"):
            return True
        if c == "#" and k == 0:
            return True
    return False


def set_quote(value: str) -> str:
    """A value as ``set`` prints it: bare when it can be, else '…' or $'…'."""
    if any(ord(c) < 32 or ord(c) == 127 for c in value):
        return quote_ansi_c(value)
    if has_metas(value):
        return "'" + value.replace("'", "'\\''") + "'"
    return value


def double_quote(value: str) -> str:
    """A value as ``declare -p`` prints it: "…", or $'…' with a control character."""
    if any(ord(c) < 32 or ord(c) == 127 for c in value):
        return quote_ansi_c(value)
    out = value.replace("\\", "\\\\").replace('"', '\\"').replace("$", "\\$").replace("`", "\\`")
    return f'"{out}"'


def array_literal(arr: Array) -> str:
    """``([0]="a" [1]="b")``; associative keys are quoted only when they need it."""
    items = []
    for key, value in arr.ordered():
        k = str(key)
        if arr.assoc and has_metas(k):
            k = double_quote(k)
        items.append(f"[{k}]={double_quote(value)}")
    # bash leaves a space before the ")" of a non-empty associative array.
    tail = " " if arr.assoc and items else ""
    return f"({' '.join(items)}{tail})"


def attributes(st: ShellState, name: str) -> str:
    """The attribute letters ``declare -p`` shows for ``name``, in bash's order."""
    have = set(st.attrs.get(name, ""))
    arr = st.arrays.get(name)
    if arr is not None:
        have.add("A" if arr.assoc else "a")
    if name in st.readonly:
        have.add("r")
    if name in st.exported:
        have.add("x")
    return "".join(c for c in _ATTR_ORDER if c in have)


def is_declared(st: ShellState, name: str) -> bool:
    return name in st.vars or name in st.arrays or name in st.declared or name in st.refs


def declare_line(st: ShellState, name: str) -> str:
    """``declare -p NAME``'s line (the name must be declared)."""
    flags = attributes(st, name)
    shown = f"-{flags}" if flags else "--"
    arr = st.arrays.get(name)
    if arr is not None:
        if arr.bare and not arr.items:
            return f"declare {shown} {name}\n"
        return f"declare {shown} {name}={array_literal(arr)}\n"
    value = st.vars.get(name)
    if value is None:
        value = st.refs.get(name)
    if value is None:
        return f"declare {shown} {name}\n"
    return f"declare {shown} {name}={double_quote(value)}\n"


def set_listing(st: ShellState) -> str:
    """``set`` with no arguments: every variable with a value, sorted by name."""
    lines = []
    for name in sorted({*st.vars, *st.arrays, *st.refs}):
        arr = st.arrays.get(name)
        if arr is not None:
            if not (arr.bare and not arr.items):
                lines.append(f"{name}={array_literal(arr)}\n")
        else:
            lines.append(
                f"{name}={set_quote(st.vars[name] if name in st.vars else st.refs[name])}\n"
            )
    return "".join(lines)


def whole_transform(
    st: ShellState, name: str, key_all: bool, values: list[str], letter: str
) -> list[str]:
    """``${x@A}``, ``${x@K}``, ``${x@k}`` as bash 5.2 makes them (subst.c
    ``parameter_list_transform``/``string_transform``).

    ``key_all``: the expansion names every element (``${a[@]@A}``). ``values`` are the
    expansion's values (one for a scalar or an element). An array's ``@A`` is its
    ``declare -p`` line as three words (``declare``, ``-a``, ``a=(…)``); ``@K`` is one
    word, ``key "value"`` pairs (an associative array's with a blank after each);
    ``@k`` the keys and values as words of their own; the positional parameters'
    ``@A`` is ``set -- '…' …``."""
    from hookrun.dispatch.shell.expand import shell_quote

    if name in ("@", "*"):
        quoted = [shell_quote(v) for v in values]
        return ["set", "--", *quoted] if letter == "A" else quoted
    arr = st.arrays.get(name)
    if key_all and arr is not None:
        if letter == "A":
            return ["declare", f"-{attributes(st, name)}", f"{name}={array_literal(arr)}"]
        if letter == "k":  # (keys and values as they are)
            return [word for key, value in arr.ordered() for word in (str(key), value)]
        pairs = []
        for key, value in arr.ordered():
            k = str(key)
            if arr.assoc and has_metas(k):
                k = double_quote(k)
            pairs.append((k, value))
        if not pairs:
            return []
        if arr.assoc:  # (bash leaves a blank after each pair here)
            return ["".join(f"{k} {double_quote(v)} " for k, v in pairs)]
        return [" ".join(f"{k} {double_quote(v)}" for k, v in pairs)]
    if letter != "A":
        return [shell_quote(v) for v in values]
    if not is_name(name):  # (`${1@A}`: bash makes nothing of a positional parameter)
        return [""]
    flags = attributes(st, name)
    return [
        f"declare -{flags} {name}={shell_quote(v)}" if flags else f"{name}={shell_quote(v)}"
        for v in values
    ]
