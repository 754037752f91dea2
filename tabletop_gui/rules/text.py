"""Text from untrusted files, made safe to show in a message.

A name read from a file may hold characters that change how a line looks without being
seen: a right-to-left override (U+202E) turns the rest of a message around, a line or
paragraph separator (U+2028, U+2029) or a newline splits it, control characters move the
cursor. ``printable`` shows every character that Python does not count as printable
(controls, format characters, separators other than the space, unassigned and private
code points) as its escape, ``\\u202e``, the way ``repr`` would.
"""

from __future__ import annotations


def _escape(ch: str) -> str:
    code = ord(ch)
    if code < 0x100:
        return f"\\x{code:02x}"
    if code < 0x10000:
        return f"\\u{code:04x}"
    return f"\\U{code:08x}"


def printable(text: str) -> str:
    """``text`` with every unprintable character written as its escape (one line)."""
    if text.isprintable():
        return text
    return "".join(ch if ch.isprintable() else _escape(ch) for ch in text)
