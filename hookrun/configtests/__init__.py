"""``hookrun test``: declarative tests of a hook config, run through the real runner.

A test file (``.hookrun/tests/*.yaml``, ``*.yml`` or ``*.json``) holds cases — an
event, a payload (or the ``tool`` / ``input`` / ``prompt`` shorthand) and the expected
outcome. :mod:`.cases` reads them, :mod:`.expect` compares an outcome with what a case
expects, :mod:`.junit` writes the JUnit XML report CI systems read.
"""
