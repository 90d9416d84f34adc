"""The root of the ``ginrummy`` command line (Typer): the group, lazily imported commands,
one-line errors, and the helpers every command shares (``fail``, ``bad_input``, options, JSON
input and output).

Each command lives in its own module of :mod:`ginrummy.cli` and is registered there
(:mod:`ginrummy.cli.__init__`): ``analyze`` and ``score`` eagerly, the others *lazily*: their module
is imported only when the command runs (or its own ``--help`` is asked for), so ``ginrummy
--help`` never imports FastAPI, uvicorn or any other heavy dependency. To add one::

    # src/ginrummy/cli/serve.py
    \"\"\"Run the web game.\"\"\"      # its first line is the short help in `ginrummy --help`
    import typer
    app = typer.Typer()             # or a plain function, or a Click/Typer command

    @app.command()
    def serve(port: int = 8000) -> None: ...

    # src/ginrummy/cli/__init__.py
    lazy_command("serve", "ginrummy.cli.serve:app")

Errors: bad input is reported as ONE line ``error: ...`` on stderr with exit status 2; usage
errors (unknown option, ...) likewise. A bug prints one line ``error: internal error: ...`` with
status 1 (``GINRUMMY_DEBUG=1`` shows the traceback). There is never a traceback otherwise.
"""

from __future__ import annotations

import ast
import errno
import importlib
import importlib.util
import json
import os
import sys
from collections.abc import Iterator, Sequence
from contextlib import contextmanager, suppress
from dataclasses import dataclass
from typing import Annotated, Any, NoReturn

import typer
from typer.core import TyperCommand, TyperGroup

from .. import __version__
from ..errors import GinRummyError
from ..rules import PRESETS

__all__ = ["app", "main", "lazy_command", "LazyCommand", "fail", "bad_input", "RulesOpt",
           "JsonOpt"]


def _click_class(base: type, name: str) -> Any:
    """A Click class found by name in ``base``'s MRO: Typer may use Click or a vendored copy."""
    for c in base.__mro__:
        if c.__name__ == name:
            return c
    raise RuntimeError(f"no {name} in {base}")  # pragma: no cover


_ClickException = _click_class(typer.BadParameter, "ClickException")
_UsageError = _click_class(typer.BadParameter, "UsageError")
_ClickCommand = _click_class(TyperCommand, "Command")

EXIT_BAD_INPUT = 2


# ---------------------------------------------------------------------------------------------
# errors


def _one_line(msg: str) -> str:
    return " ".join(part.strip() for part in str(msg).splitlines() if part.strip())


def _print_error(msg: str) -> None:
    typer.echo(f"error: {_one_line(msg)}", err=True)


def fail(msg: str, code: int = EXIT_BAD_INPUT) -> NoReturn:
    """Print ``error: msg`` (one line) on stderr and exit with ``code`` (2: bad input)."""
    _print_error(msg)
    raise typer.Exit(code)


@contextmanager
def bad_input() -> Iterator[None]:
    """Turn an engine or input error raised inside the block into ``fail(message)``."""
    try:
        yield
    except GinRummyError as e:
        fail(str(e))


# ---------------------------------------------------------------------------------------------
# lazily imported commands


@dataclass(frozen=True)
class LazyCommand:
    """A command whose module is imported only when it runs.

    ``target`` is ``"module:attribute"``; the attribute is a ``typer.Typer`` (one command or a
    group of subcommands), a Click command, or a plain function (made a command by Typer).
    ``help`` is the one-line help in ``ginrummy --help``; by default the first line of the
    module's docstring, read without importing the module.
    """

    name: str
    target: str
    help: str | None = None

    @property
    def module(self) -> str:
        return self.target.partition(":")[0]

    def available(self) -> bool:
        """Whether the module exists (found without importing it)."""
        try:
            return importlib.util.find_spec(self.module) is not None
        except (ImportError, ValueError):
            return False

    def short_help(self) -> str:
        if self.help is not None:
            return self.help
        try:
            spec = importlib.util.find_spec(self.module)
            if spec is None or spec.origin is None:
                return ""
            with open(spec.origin, encoding="utf-8") as f:
                doc = ast.get_docstring(ast.parse(f.read())) or ""
        except (OSError, SyntaxError, ImportError, ValueError):
            return ""
        return doc.strip().split("\n\n")[0].replace("\n", " ")

    def load(self) -> Any:
        """Import the module and return the Click command to run."""
        mod_name, _, attr = self.target.partition(":")
        obj = getattr(importlib.import_module(mod_name), attr or "app")
        if isinstance(obj, typer.Typer):
            return typer.main.get_command(obj)
        if isinstance(obj, _ClickCommand):
            return obj
        if callable(obj):
            t = typer.Typer(add_completion=False)
            t.command(name=self.name)(obj)
            return typer.main.get_command(t)
        raise TypeError(f"{self.target} is not a command")


_LAZY: dict[str, LazyCommand] = {}


def lazy_command(name: str, target: str, help: str | None = None) -> None:
    """Register the command ``name`` implemented at ``target`` (``"module:attribute"``).

    The command is listed by ``ginrummy --help`` only once its module exists, and the module is
    imported only when the command is run (or its own ``--help`` is shown).
    """
    _LAZY[name] = LazyCommand(name, target, help)


class _Group(TyperGroup):
    """The root group: eager commands, lazy commands, and one-line errors."""

    _listing = False

    def list_commands(self, ctx: Any) -> list[str]:
        names = list(super().list_commands(ctx))
        names += [n for n, lz in _LAZY.items() if n not in names and lz.available()]
        return names

    def get_command(self, ctx: Any, cmd_name: str) -> Any:
        cmd = super().get_command(ctx, cmd_name)
        lz = _LAZY.get(cmd_name)
        if cmd is not None or lz is None or not lz.available():
            return cmd
        if self._listing:  # the help listing needs only the name and the short help
            return TyperCommand(cmd_name, help=lz.short_help(), short_help=lz.short_help())
        try:
            cmd = lz.load()
        except Exception as e:  # an unavailable command is not a crash of the whole tool
            if os.environ.get("GINRUMMY_DEBUG"):
                raise
            fail(f"the {cmd_name!r} command is unavailable: {type(e).__name__}: {e}", 1)
        self.commands[cmd_name] = cmd
        return cmd

    def format_help(self, ctx: Any, formatter: Any) -> None:
        self._listing = True
        try:
            super().format_help(ctx, formatter)
        finally:
            self._listing = False

    def main(self, args: Sequence[str] | None = None, prog_name: str | None = None,
             complete_var: str | None = None, standalone_mode: bool = True,
             windows_expand_args: bool = True, **extra: Any) -> Any:
        kw = dict(args=args, prog_name=prog_name, complete_var=complete_var,
                  windows_expand_args=windows_expand_args, **extra)
        if not standalone_mode:
            return super().main(standalone_mode=False, **kw)
        try:
            rv = super().main(standalone_mode=False, **kw)
            # commands signal their status by raising typer.Exit, which arrives here as an int
            code = rv if isinstance(rv, int) and not isinstance(rv, bool) else 0
        except _UsageError as e:
            code = _usage_error(e)
        except _ClickException as e:
            _print_error(e.format_message())
            code = getattr(e, "exit_code", 1)
        except typer.Abort:
            typer.echo("Aborted!", err=True)
            code = 1
        except GinRummyError as e:  # a safety net: commands should use bad_input()
            _print_error(str(e))
            code = EXIT_BAD_INPUT
        except OSError as e:
            if e.errno != errno.EPIPE:
                code = _internal_error(e)
            else:  # the reader went away (`ginrummy analyze - | head -1`): stop quietly
                with suppress(OSError):
                    sys.stdout = open(os.devnull, "w")  # noqa: SIM115
                code = 1
        except Exception as e:
            code = _internal_error(e)
        sys.exit(code)


def _usage_error(e: Any) -> int:
    msg = _one_line(e.format_message())
    ctx = getattr(e, "ctx", None)
    if type(e).__name__ == "NoArgsIsHelpError":  # the help is the message (or already shown)
        if msg:
            typer.echo(e.format_message())
        return EXIT_BAD_INPUT
    if ctx is not None:
        msg += f" (see '{ctx.command_path} --help')"
    _print_error(msg)
    return int(getattr(e, "exit_code", EXIT_BAD_INPUT))


def _internal_error(e: BaseException) -> int:
    if os.environ.get("GINRUMMY_DEBUG"):
        raise e
    _print_error(f"internal error: {type(e).__name__}: {e} (set GINRUMMY_DEBUG=1 for the "
                 "traceback)")
    return 1


# ---------------------------------------------------------------------------------------------
# the app

app = typer.Typer(
    name="ginrummy",
    cls=_Group,
    help="Exact Gin Rummy tools: hand analysis, showdown scoring and more.\n\n"
         "Cards are rank + suit: 7H, 7h, 10H, TH, 7♥ (A 2..9 T/10 J Q K; S H D C).\n"
         "Bad input exits with status 2 and one line 'error: ...' on stderr.",
    add_completion=False,
    pretty_exceptions_enable=False,
    context_settings={"help_option_names": ["-h", "--help"]},
)


def _version(value: bool) -> None:
    if value:
        typer.echo(f"ginrummy {__version__}")
        raise typer.Exit(0)


@app.callback(invoke_without_command=True)
def _root(
    ctx: typer.Context,
    version: Annotated[bool, typer.Option("--version", is_eager=True, callback=_version,
                                          help="Print the version and exit.")] = False,
) -> None:
    if ctx.invoked_subcommand is None:  # plain `ginrummy`: show the help
        text = ctx.get_help()  # Rich help prints itself and returns ""
        if text:
            typer.echo(text)
        raise typer.Exit(0)


_PRESET_NAMES = ", ".join(PRESETS)

RulesOpt = Annotated[
    str | None,
    typer.Option("--rules", "-r", metavar="PRESET", show_default=False,
                 help=f"Rules preset: {_PRESET_NAMES}. Default: standard."),
]
JsonOpt = Annotated[bool, typer.Option("--json", help="Print JSON instead of a readable summary.")]


def _console() -> Any:
    from rich.console import Console

    return Console(highlight=False)


def _print_json(obj: object) -> None:
    typer.echo(json.dumps(obj))


def _read_json(source: str) -> object:
    """The JSON value in the file ``source`` (``-`` = stdin); one-line errors."""
    if source == "-":
        name = "stdin"
        raw = typer.get_binary_stream("stdin").read()
    else:
        name = repr(source)
        try:
            with open(source, "rb") as f:
                raw = f.read()
        except OSError as e:
            fail(f"cannot read {source!r}: {e.strerror or e}")
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError:
        fail(f"{name} is not UTF-8 text")
    try:
        return json.loads(text)
    except json.JSONDecodeError as e:
        fail(f"malformed JSON in {name}: {e.msg} (line {e.lineno}, column {e.colno})")
    except RecursionError:
        fail(f"malformed JSON in {name}: nested too deeply")


def main(argv: Sequence[str] | None = None) -> None:
    """The ``ginrummy`` script."""
    typer.main.get_command(app).main(args=argv, prog_name="ginrummy")


