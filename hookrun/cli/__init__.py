"""The ``hookrun`` command line.

:mod:`hookrun.cli.main` is the entry point (fast path, typer fallback, the one
error boundary); :mod:`hookrun.cli.app` declares every command for typer; each
command's work lives in one module of :mod:`hookrun.cli.commands`. The rest are
helpers the commands share (payload flags, config files, signals, trace tables).
"""
