"""The reliability suite (issue 5 item 1): real processes and files, run by pytest.

``HOOKRUN_RELIABILITY_SCALE`` multiplies its counts (default 1.0 = the issue's numbers:
1,000 leak runs, 100 orphan runs, 50/20 concurrent processes, a 500 MB stream; hypothesis
examples 100 in-process / 30 per-subprocess). At 1.0 the whole suite takes about 1.5 min on
2 idle cores and 2.5 min on 2 busy ones (load 6); the biggest parts are the leaks (~20 s),
the orphans (~15 s) and the CLI fuzzing (~15 s). ``pytest -s`` prints the measured figures
(peak RSS, durations, fd/thread/child growth).
"""
