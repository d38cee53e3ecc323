"""JupyterLab for ``typhoon-edu lessons``: ``python -m typhoon_edu.server.lab_app`` is ``python -m jupyterlab``
started the way the class server is, without the IRI grammar it never uses (:mod:`.lean_start`).

That cut the imports of JupyterLab and jupyter_server from about 4.9 to 1.8 CPU-seconds on a busy day
(``/usr/bin/time python -c "import [typhoon_edu.server.lean_start,] jupyterlab.labapp, jupyter_server.serverapp"``),
which a student's laptop pays each time the lessons open. Everything else is JupyterLab's own ``main``,
with the arguments :func:`typhoon_edu.lessons_cmd.build_lab_command` gives.

>>> import subprocess, sys
>>> done = subprocess.run([sys.executable, "-m", "typhoon_edu.server.lab_app", "--version"],
...                       capture_output=True, text=True, timeout=120)
>>> import jupyterlab; done.returncode, done.stdout.strip() == jupyterlab.__version__
(0, True)
"""

from __future__ import annotations

from . import lean_start  # noqa: F401 - before JupyterLab imports jupyter_server and jsonschema

# isort: split
import sys

from jupyterlab.labapp import main

if __name__ == "__main__":
    sys.exit(main())
