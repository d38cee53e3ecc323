"""Imported first by the class server's Voilà process (:mod:`typhoon_edu.server.voila_app`) and by the lessons'
JupyterLab (:mod:`typhoon_edu.server.lab_app`): what they can start without.

jupyter_server's event logger imports jsonschema, and jsonschema, when the package ``rfc3987_syntax`` is
installed (jupyter_events asks for it), compiles that package's IRI grammar with lark at import to check
the ``iri`` and ``iri-reference`` formats. That took about 70 % of the server's start-up CPU
(py-spy, 4 Dec 2026: 7.4 of 10.3 s on a slow day), and no schema of jupyter_server, jupyter_events or
Voilà uses those formats. So the server process marks the package as absent before anything imports
jsonschema; jsonschema guards that import and simply does not register the two checkers. Nothing
else is changed. It applies to whichever process imports this module before jsonschema: those two,
and a test process that imports :mod:`~typhoon_edu.server.voila_app` (harmless there too, for the same
reason); the pages' kernels and the ``typhoon-edu`` command never import it.

In a fresh interpreter (``tests/test_serve.py`` checks it in a subprocess, where nothing came before)::

    >>> import subprocess, sys
    >>> code = "import typhoon_edu.server.lean_start, jsonschema; print(sorted(set(jsonschema.FormatChecker().checkers) & {'iri', 'email'}))"
    >>> subprocess.run([sys.executable, "-c", code], capture_output=True, text=True).stdout.strip()
    "['email']"
"""

from __future__ import annotations

import sys

#: Packages the server process starts without (``None`` in ``sys.modules`` makes ``import`` raise ImportError).
SKIPPED = ("rfc3987_syntax",)

for _name in SKIPPED:
    sys.modules.setdefault(_name, None)  # type: ignore[assignment]
