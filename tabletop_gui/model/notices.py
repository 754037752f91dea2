"""Problems found while the program works, to be told to the user: what is wrong and
where (``message``, a sentence a player understands), and what a developer needs to fix
it (``detail``, e.g. a traceback). The window shows them (``ui.errors``)."""

from __future__ import annotations

import traceback
from dataclasses import dataclass


@dataclass(frozen=True)
class Notice:
    message: str
    detail: str = ""


def exception_text(exc: BaseException) -> str:
    """``Kind: message`` of an exception, for a sentence shown to the user."""
    text = str(exc)
    return f"{type(exc).__name__}: {text}" if text else type(exc).__name__


def traceback_text(exc: BaseException) -> str:
    return "".join(traceback.format_exception(type(exc), exc, exc.__traceback__))
