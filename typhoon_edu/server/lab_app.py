"""JupyterLab for ``typhoon-edu lessons``: ``python -m typhoon_edu.server.lab_app`` is ``python -m jupyterlab``
started the way the class server is, without the IRI grammar it never uses (:mod:`.lean_start`).

That cut the imports of JupyterLab and jupyter_server from about 4.9 to 1.8 CPU-seconds on a busy day
(``/usr/bin/time python -c "import [typhoon_edu.server.lean_start,] jupyterlab.labapp, jupyter_server.serverapp"``),
which a student's laptop pays each time the lessons open. Everything else is JupyterLab's own ``main``,
with the arguments :func:`typhoon_edu.lessons_cmd.build_lab_command` gives.

This module is also a server extension of that JupyterLab only (``build_lab_command`` enables it with
``--ServerApp.jpserver_extensions``; nothing is written to the person's Jupyter settings): it turns off
JupyterLab 4's announcements plugin, ``@jupyterlab/apputils-extension:announcements``, in the page it
serves. ``--LabApp.news_url=None`` only empties the news feed: that plugin still asks "Would you like to get
notified about official Jupyter news?" whenever the person's ``fetchNews`` setting is still ``"none"``, and
answering writes that setting into their own JupyterLab settings.

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
from collections.abc import Callable
from typing import Any

#: The JupyterLab plugin that asks about Jupyter news and checks for updates (JupyterLab 4).
ANNOUNCEMENTS = "@jupyterlab/apputils-extension:announcements"
#: The plugins this JupyterLab never loads.
DISABLED_PLUGINS = (ANNOUNCEMENTS,)

PageConfigHook = Callable[[Any, dict[str, Any]], dict[str, Any]]


def without_plugins(page_config: dict[str, Any], plugins: tuple[str, ...] = DISABLED_PLUGINS) -> dict[str, Any]:
    """``page_config`` (JupyterLab's page configuration) with ``plugins`` added to its disabled extensions.

    >>> without_plugins({"disabledExtensions": ["other:plugin"]})["disabledExtensions"]
    ['other:plugin', '@jupyterlab/apputils-extension:announcements']
    >>> without_plugins({})["disabledExtensions"]
    ['@jupyterlab/apputils-extension:announcements']
    >>> without_plugins({"disabledExtensions": {"a": True}})["disabledExtensions"]
    ['a', '@jupyterlab/apputils-extension:announcements']
    """
    disabled = page_config.get("disabledExtensions") or []
    if isinstance(disabled, dict):  # jupyterlab_server keeps them as {name: True} until it sends the page
        disabled = [name for name, on in disabled.items() if on]
    page_config["disabledExtensions"] = [*disabled, *(p for p in plugins if p not in disabled)]
    return page_config


def page_config_hook(previous: PageConfigHook | None = None) -> PageConfigHook:
    """The ``page_config_hook`` jupyterlab_server calls for each page: ``previous`` (if any), then
    :func:`without_plugins`."""

    def hook(handler: Any, page_config: dict[str, Any]) -> dict[str, Any]:
        if previous is not None:
            page_config = previous(handler, page_config)
        return without_plugins(page_config)

    return hook


def _jupyter_server_extension_points() -> list[dict[str, str]]:
    return [{"module": "typhoon_edu.server.lab_app"}]


def _load_jupyter_server_extension(serverapp: Any) -> None:
    settings = serverapp.web_app.settings
    settings["page_config_hook"] = page_config_hook(settings.get("page_config_hook"))


def main() -> int:
    """JupyterLab's ``main`` with this command line."""
    from jupyterlab.labapp import main as lab_main

    return lab_main()  # type: ignore[no-any-return]


if __name__ == "__main__":
    sys.exit(main())
