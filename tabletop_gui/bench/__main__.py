"""``python -m tabletop_gui.bench [--json | --markdown] [--quick] [--case NAME ...]``.

The cases and their targets are described in docs/benchmark.md; ``--markdown`` prints
the README's table.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from datetime import UTC, datetime

from tabletop_gui.bench import markdown
from tabletop_gui.bench.registry import load_cases
from tabletop_gui.bench.runner import Timing, machine, run_case


def main(argv: Sequence[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m tabletop_gui.bench",
                                description="Time the hot paths against same-run references.")
    out = p.add_mutually_exclusive_group()
    out.add_argument("--json", action="store_true", help="one JSON object on stdout")
    out.add_argument("--markdown", action="store_true",
                     help="the README's table: machine, date, targets met or missed")
    p.add_argument("--quick", action="store_true", help="fewer repetitions (under a minute)")
    p.add_argument("--case", action="append", default=[], metavar="NAME",
                   help="only these cases (repeatable)")
    args = p.parse_args(argv)
    cases = load_cases()
    if args.case:
        unknown = set(args.case) - {c.name for c in cases}
        if unknown:
            print(f"unknown case(s): {', '.join(sorted(unknown))} "
                  f"(known: {', '.join(c.name for c in cases)})", file=sys.stderr)
            return 2
        cases = [c for c in cases if c.name in args.case]
    timings: list[Timing] = []
    for case in cases:
        t = run_case(case, args.quick)
        timings.append(t)
        if args.markdown:  # progress beside the report, which comes at the end
            print(_line(t), file=sys.stderr, flush=True)
        elif not args.json:
            print(_line(t), flush=True)
    if args.json:
        print(json.dumps({"machine": machine(),
                          "cases": {t.name: t.to_json() for t in timings}}))
    elif args.markdown:
        print(markdown.render(timings, machine=machine(), when=datetime.now(UTC),
                              quick=args.quick, all_cases=not args.case))
    else:
        print(f"machine: {machine()}")
    disagree = [t.name for t in timings if t.agrees is False]
    if disagree:
        print(f"results differ from the reference: {', '.join(disagree)}", file=sys.stderr)
        return 1
    return 0


def _line(t: Timing) -> str:
    j = t.to_json()
    text = (f"{t.name:<16} median {j['median_ms']:>10.3f} ms  "
            f"(min {j['min_ms']:.3f}, max {j['max_ms']:.3f}, {j['runs']} runs)")
    extra = ", ".join(f"{k} {v}" for k, v in t.details)
    if extra:
        text += f"  ({extra})"
    if "reference_median_ms" in j:
        text += (f"  reference {j['reference_median_ms']:.1f} ms, x{j['speedup']}, "
                 f"{'agrees' if t.agrees else 'DIFFERS'}")
    return text


if __name__ == "__main__":
    raise SystemExit(main())
