"""The ``lakestruct`` command line.

Exit status: 0 on success, 1 when an input is malformed or unreadable (the error,
with its offset, field path and rule, goes to stderr) or an output cannot be written,
2 on bad usage, 130 when interrupted (Ctrl-C). ``-`` as a FILE argument is standard input.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

from .. import __version__, twins
from ..errors import LakestructError, UsageError
from . import deletes, delta, demo, explain, gen, iceberg, inventory, paimon, parquet, puffin, scan, validate

__all__ = ["main"]


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> None:  # type: ignore[override]
        self.print_usage(sys.stderr)
        self.exit(2, f"{self.prog}: error: {message}\n")


def build_parser() -> argparse.ArgumentParser:
    p = _Parser(prog="lakestruct", description="Read, check and write the binary files of a data lake.")
    built = ", ".join(f"{name}: {kind}" for name, kind in twins().items())
    p.add_argument("--version", action="version", version=f"lakestruct {__version__} ({built})")
    sub = p.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)
    sub.required = True
    parquet.register(sub)
    puffin.register(sub)
    deletes.register(sub)
    paimon.register(sub)
    iceberg.register(sub)
    delta.register(sub)
    scan.register(sub)
    explain.register(sub)
    validate.register(sub)
    inventory.register(sub)
    demo.register(sub)
    gen.register(sub)
    return p


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        rc: int = args.func(args)
        return rc
    except UsageError as e:  # arguments that name nothing in the file (a column, a row group)
        print(f"lakestruct: error: {e}", file=sys.stderr)
        return 2
    except LakestructError as e:
        print(f"lakestruct: error: {e}", file=sys.stderr)
        return 1
    except BrokenPipeError:  # `lakestruct ... | head`
        return 0
    except KeyboardInterrupt:  # Ctrl-C: no traceback, the shell's convention for SIGINT
        print("lakestruct: interrupted", file=sys.stderr)
        return 130
    except OSError as e:  # the operating system refused (an unwritable or full output folder, ...)
        print(f"lakestruct: error: {e}", file=sys.stderr)
        return 1


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
