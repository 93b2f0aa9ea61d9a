"""One command string → one finished process result, the same way on every OS.

``dispatch`` knows nothing about events or envelopes. Entry points:
:func:`run` (blocking, cancellable from another thread) and :func:`arun`
(asyncio; cancelling the task ends the whole process tree).
"""
