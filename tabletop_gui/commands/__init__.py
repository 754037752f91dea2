"""The sub-commands of `tabletop-gui` (one module each, ``cli.main`` runs them), and the
refusal they share."""

from __future__ import annotations

from collections.abc import Sequence


class InputRefused(Exception):
    """Input the program refuses; each line is printed on stderr and the exit status is 2."""

    def __init__(self, lines: Sequence[str]) -> None:
        super().__init__("\n".join(lines))
        self.lines = list(lines)
