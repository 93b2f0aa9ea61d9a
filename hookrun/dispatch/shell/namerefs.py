"""Namerefs (``declare -n``/``local -n``): a variable that names another, as in bash.

A nameref's value is kept in ``ShellState.refs`` (not ``vars``), with "n" among its
``attrs``; reading, assigning, ``+=``, array elements and ``unset`` go through it to the
variable it names, which may be an element (``declare -n r='a[2]'``). Loaded with the
first nameref a script makes: most hooks never make one.
"""

from __future__ import annotations

from hookrun.dispatch.shell.builtins import unset_element
from hookrun.dispatch.shell.state import NotAssigned, ShellError, ShellState, is_name

# bash's NAMEREF_MAX: how many namerefs a chain may pass through.
_MAX = 8


def split(target: str) -> tuple[str, str | None]:
    """``a[k]`` → ``("a", "k")``; ``x`` → ``("x", None)``."""
    if target.endswith("]") and "[" in target:
        base, _, key = target[:-1].partition("[")
        return base, key
    return target, None


def deref(st: ShellState, name: str) -> str | None:
    """What the nameref ``name`` finally names; None when the chain comes back on
    itself (bash's "circular name reference")."""
    refs = st.refs
    seen = {name}
    for _ in range(_MAX):
        target = refs.get(name)
        if target is None:
            return name
        base = split(target)[0]
        if base in seen:
            return None
        seen.add(base)
        if base not in refs or base != target:
            return target
        name = target
    return None


def circular(name: str) -> ShellError:
    return NotAssigned(f"warning: {name}: circular name reference", 1)


def valid_target(target: str) -> bool:
    base, key = split(target)
    return is_name(base) and (key is None or key != "")


def set_through(st: ShellState, name: str, value: str) -> None:
    """``name=value`` where ``name`` is a nameref."""
    if name not in st.refs:  # no value yet: this is the name it refers to
        if not valid_target(value):
            raise ShellError(f"`{value}': not a valid identifier", 1)
        st.refs[name] = value
        st.declared.discard(name)
        return
    target = deref(st, name)
    if target is None:
        raise circular(name)
    base, key = split(target)
    if key is None:
        st.set_var(base, value)
    else:
        key = expanded_key(st, base, key)
        st.set_element(base, key, value, lambda k: index(st, k))


def expanded_key(st: ShellState, base: str, key: str) -> str:
    """A target's subscript holding `$` or a backquote, expanded each time the nameref is
    used, as bash does (`declare -n r='a[$(echo 2) + 1]'`, `'m[$k]'`)."""
    if ("$" in key or "`" in key) and st.subscripts is not None:
        expand = st.subscripts()
        if expand is not None:
            return str(expand(base, key))
    return key


def index(st: ShellState, key: str) -> int:
    if key.isdigit():
        return int(key)
    from hookrun.dispatch.shell.shellvars import integer

    return integer(st, key)


def get_through(st: ShellState, name: str) -> str | None:
    """``$name`` where ``name`` is a nameref (None: unset, or a circular chain)."""
    target = deref(st, name)
    if target is None:
        return None
    base, key = split(target)
    if key is None:
        return st.get_var(base)
    key = expanded_key(st, base, key)
    arr = st.arrays.get(base)
    if arr is None:
        return st.get_var(base) if key in ("0", "@", "*") else None
    if arr.assoc:
        return arr.items.get(key)
    if key in ("@", "*"):
        return " ".join(arr.values())
    k = index(st, key)
    if k < 0:
        k += max(arr.items, default=-1) + 1
    return arr.items.get(k)


def unset_through(st: ShellState, name: str) -> None:
    """``unset name`` where ``name`` is a nameref: what it names is unset."""
    target = deref(st, name)
    if target is None:
        raise circular(name)
    base, key = split(target)
    if key is None:
        st.unset_var(base, ref=True)
        return
    # (through a nameref bash says nothing of a scalar given another subscript)
    unset_element(st, base, expanded_key(st, base, key), lambda k: index(st, k))


def resolve(st: ShellState, name: str) -> str:
    """The variable an operation on ``name`` acts on: through a nameref's chain, itself
    otherwise (a circular chain raises)."""
    if name not in st.refs:
        return name
    target = deref(st, name)
    if target is None:
        raise circular(name)
    return target


def make_ref(st: ShellState, name: str, value: str | None) -> str | None:
    """``declare -n name[=value]``: an error message, or None once ``name`` is a
    nameref (an existing scalar's value becomes the name it refers to)."""
    if name in st.arrays:
        return f"{name}: reference variable cannot be an array"
    if value is None:
        value = st.refs.get(name, st.vars.get(name))
    if value is not None:
        if not valid_target(value) or value in ("@", "*"):
            return f"`{value}': invalid variable name for name reference"
        if split(value)[0] == name:
            return f"{name}: nameref variable self references not allowed"
        st.vars.pop(name, None)
        st.refs[name] = value
        st.declared.discard(name)
    else:
        st.declared.add(name)
    attrs = st.attrs.get(name, "")
    if "n" not in attrs:
        st.attrs[name] = attrs + "n"
    return None


def drop_ref(st: ShellState, name: str) -> None:
    """``declare +n name``: a plain variable again, whose value is the name it held."""
    target = st.refs.pop(name, None)
    if target is not None:
        st.vars[name] = target
    attrs = st.attrs.get(name, "").replace("n", "")
    if attrs:
        st.attrs[name] = attrs
    else:
        st.attrs.pop(name, None)
