"""The `tabletop-gui` command line (docs/cli.md).

`tabletop-gui [FILE]` opens the GUI; the sub-commands run the same engine without a
screen and never import Qt. Exit status: 0 done, 2 input refused (one line per problem
on stderr, nothing on stdout), 1 a fault of the program.
"""

from __future__ import annotations

import argparse
import importlib
import sys
from collections.abc import Sequence
from typing import NoReturn

from tabletop_gui.commands import InputRefused
from tabletop_gui.rules.text import printable

SUBCOMMANDS = ("validate", "inspect", "attack", "move", "rulesets", "ruling", "import")
MODULES = {"import": "importing"}  # "import" cannot name a module


class _Parser(argparse.ArgumentParser):
    """Usage mistakes (a missing --attacker, a --seed that is not a number) are one line on
    stderr with exit status 2, like every other refused input (no usage block)."""

    def error(self, message: str) -> NoReturn:
        self.exit(2, f"{self.prog}: {message} (see {self.prog} --help)\n")


def build_parser() -> argparse.ArgumentParser:
    p = _Parser(
        prog="tabletop-gui",
        description="Geometry, line of sight, cover and exact attack odds for tabletop "
        "wargames. Without a sub-command: open the GUI on FILE or on the demo battlefield.",
    )
    sub = p.add_subparsers(dest="command", metavar="COMMAND")

    v = sub.add_parser("validate", help="check a scenario file")
    v.add_argument("file")

    i = sub.add_parser("inspect", help="geometry between every pair of opposing models")
    i.add_argument("file")
    i.add_argument("--json", action="store_true")

    a = sub.add_parser("attack", help="target check, modifiers, odds and a roll")
    a.add_argument("file")
    a.add_argument("--attacker", required=True)
    a.add_argument("--target", required=True)
    a.add_argument("--weapon")
    a.add_argument("--offhand")
    a.add_argument("--set", dest="sets", action="append", default=[], nargs="+",
                   metavar="KEY=VALUE")
    a.add_argument("--dice")
    a.add_argument("--seed", type=int)
    a.add_argument("--json", action="store_true")

    m = sub.add_parser("move", help="Attacks of Opportunity along a path (grid rulesets)")
    m.add_argument("file")
    m.add_argument("--fighter", required=True)
    m.add_argument("--path", required=True, help="X,Y;X,Y;... space centres in inches")
    m.add_argument("--json", action="store_true")

    r = sub.add_parser("rulesets", help="the rulesets and what they read")
    r.add_argument("--json", action="store_true")

    u = sub.add_parser("ruling", help="one pair explained, for settling an argument")
    u.add_argument("file")
    u.add_argument("--attacker", required=True)
    u.add_argument("--target", required=True)
    u.add_argument("--weapon")
    u.add_argument("--set", dest="sets", action="append", default=[], nargs="+",
                   metavar="KEY=VALUE")
    u.add_argument("--out", metavar="PATH", help="a picture (.png, .svg), a one-page .pdf "
                   "or Markdown (.md, with a .png beside it)")
    u.add_argument("--json", action="store_true")

    from tabletop_gui.commands.importing import add_arguments  # lazy: the importers load

    add_arguments(sub.add_parser("import", help="rosters, maps and table positions into a "
                                 "scenario"))
    return p


def _gui_parser() -> argparse.ArgumentParser:
    p = _Parser(
        prog="tabletop-gui",
        usage="tabletop-gui [FILE] | tabletop-gui {" + ",".join(SUBCOMMANDS) + "} ...",
        description="Open the battlefield FILE (or the built-in demo) in the GUI. "
        "Sub-commands: " + ", ".join(SUBCOMMANDS) + " (see `tabletop-gui COMMAND --help`).",
    )
    p.add_argument("file", nargs="?")
    p.add_argument("--ruleset", help="demo battlefield of this ruleset (default warcry)")
    return p


def main(argv: Sequence[str] | None = None) -> int:
    args_list = list(sys.argv[1:] if argv is None else argv)
    if not args_list or args_list[0] not in SUBCOMMANDS:
        return _open_window(_gui_parser().parse_args(args_list))

    _tolerant_streams()
    args = build_parser().parse_args(args_list)
    name = MODULES.get(args.command, args.command)
    module = importlib.import_module(f"tabletop_gui.commands.{name}")
    try:
        return int(module.run(args))
    except InputRefused as e:
        for line in e.lines:
            print(printable(line), file=sys.stderr)
        return 2
    except BrokenPipeError:
        return 0


def _open_window(args: argparse.Namespace) -> int:
    """The GUI, once the arguments and the machine are known to be fit for it: every
    refusal is one line and exit status 2, before Qt is loaded (Qt would abort)."""
    from tabletop_gui.platform_check import startup_problem  # lazy: the window path only
    from tabletop_gui.rules.registry import RULESET_IDS  # lazy: the window path only

    if args.ruleset is not None and args.ruleset not in RULESET_IDS:
        print(f"tabletop-gui: unknown ruleset {args.ruleset!r} (--ruleset; known: "
              f"{', '.join(RULESET_IDS)})", file=sys.stderr)
        return 2
    problem = startup_problem()
    if problem is not None:
        print(f"tabletop-gui: {problem}", file=sys.stderr)
        return 2
    from tabletop_gui.app import run_app  # lazy: Qt loads with the window

    return run_app(args.file, args.ruleset)


def _tolerant_streams() -> None:
    """Text that the terminal's encoding cannot write (a file name with undecodable
    bytes, an ASCII-only locale) is written as backslash escapes instead of ending the
    command with a UnicodeEncodeError; the loader already refuses such text in files."""
    for stream in (sys.stdout, sys.stderr):
        reconfigure = getattr(stream, "reconfigure", None)
        if reconfigure is not None:
            try:
                reconfigure(errors="backslashreplace")
            except (OSError, ValueError):  # a stream that cannot change: left as it is
                pass


if __name__ == "__main__":
    raise SystemExit(main())
