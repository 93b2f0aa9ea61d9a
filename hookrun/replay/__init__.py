"""``hookrun replay``: re-decide past events with a changed config, changing nothing.

:mod:`.sources` turns a record of the past (hookrun's own audit log with payloads, a
Claude Code session transcript) into events with what was decided then;
:mod:`.compare` says what a new decision changes. The command
(:mod:`hookrun.cli.commands.replay`) runs each event through the real runner with
policy state on a scratch copy, no audit log and no process started.
"""
