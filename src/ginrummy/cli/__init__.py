"""The ``ginrummy`` command line (Typer), one module per command.

- :mod:`~ginrummy.cli.app`: the root command, lazily imported commands, one-line errors and the
  input/output helpers every command shares (``fail``, ``bad_input``, reading JSON).
- :mod:`~ginrummy.cli.common`: cards, rules and readable output shared by ``analyze`` and
  ``score``.
- one module per command: ``analyze``, ``score``, ``sheet``, ``verify``, ``tournament``,
  ``serve``. ``analyze`` and ``score`` are registered when this package is imported; the others
  are imported only when they run (``ginrummy --help`` never imports FastAPI or uvicorn).

The script's entry point is :func:`main` (``ginrummy = "ginrummy.cli:main"``); ``python -m
ginrummy.cli`` runs it too.
"""

from __future__ import annotations

from .app import _LAZY, EXIT_BAD_INPUT, LazyCommand, app, bad_input, fail, lazy_command, main

__all__ = ["app", "main", "lazy_command", "LazyCommand", "fail", "bad_input", "EXIT_BAD_INPUT",
           "_LAZY"]
