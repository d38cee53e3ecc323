"""The class-play server: ``typhoon-edu serve`` (Voilà as a child process), its Host check and
process-tree handling, and the guards in front of Voilà and jupyter_server.

Nothing here runs inside a page's kernel; the pages themselves are :mod:`typhoon_edu.ui.classplay`.
"""
