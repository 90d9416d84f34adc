"""The ``ginrummy`` command line (Typer), one module per command.

- :mod:`~ginrummy.cli.app`: the root command, lazily imported commands, one-line errors and the
  input/output helpers every command shares (``fail``, ``bad_input``, reading JSON).
- :mod:`~ginrummy.cli.common`: the input error, rules, card checking and readable output shared by
  ``analyze`` and ``score``.
- one module per command: :mod:`~ginrummy.cli.analyze`, :mod:`~ginrummy.cli.score`,
  :mod:`~ginrummy.cli.sheet`, :mod:`~ginrummy.cli.verify`, :mod:`~ginrummy.cli.tournament`,
  :mod:`~ginrummy.cli.serve`, :mod:`~ginrummy.cli.review` (its English words in
  :mod:`~ginrummy.cli.review_words`). ``analyze`` and ``score`` are registered when this
  package is imported; the others are imported only when they run, so ``ginrummy --help``
  never imports FastAPI or uvicorn.

The script's entry point is :func:`main` (``ginrummy = "ginrummy.cli:main"``); ``python -m
ginrummy.cli`` runs it too.
"""

from __future__ import annotations

from . import analyze, score  # noqa: F401  (registers the two eager commands on the app)
from .app import _LAZY, EXIT_BAD_INPUT, LazyCommand, app, bad_input, fail, lazy_command, main

__all__ = ["app", "main", "lazy_command", "LazyCommand", "fail", "bad_input", "EXIT_BAD_INPUT",
           "_LAZY"]

# Commands implemented in their own modules (imported only when run); each is listed by
# `ginrummy --help` once its module exists.
lazy_command("serve", "ginrummy.cli.serve:app")
lazy_command("tournament", "ginrummy.cli.tournament:app")
lazy_command("verify", "ginrummy.cli.verify:app")
lazy_command("sheet", "ginrummy.cli.sheet:app")
lazy_command("review", "ginrummy.cli.review:app")
