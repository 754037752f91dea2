"""The text drawn on the pages of a PDF written by Qt's QPdfWriter, for the tests.

Qt compresses its streams (Flate) and draws text as glyph codes (``<0001> Tj``) in the
font's own numbering, with a ToUnicode map per font. This reads both: every text-showing
operator of every content stream, decoded with the map of the font selected by the last
``Tf``. Spaces are not drawn as glyphs (the pen moves), so words come out joined: compare
with the spaces removed.
"""

from __future__ import annotations

import re
import zlib

_OBJ = re.compile(rb"(\d+) 0 obj(.*?)endobj", re.S)
_STREAM = re.compile(rb"stream\r?\n(.*?)\r?\nendstream", re.S)


def _stream(body: bytes) -> bytes:
    m = _STREAM.search(body)
    if m is None:
        return b""
    data = m.group(1)
    return zlib.decompress(data) if b"/FlateDecode" in body else data


def _cmap(data: bytes) -> dict[int, str]:
    out: dict[int, str] = {}
    for block in re.findall(rb"beginbfchar(.*?)endbfchar", data, re.S):
        for src, dst in re.findall(rb"<([0-9A-Fa-f]+)>\s*<([0-9A-Fa-f]+)>", block):
            out[int(src, 16)] = bytes.fromhex(dst.decode()).decode("utf-16-be")
    for block in re.findall(rb"beginbfrange(.*?)endbfrange", data, re.S):
        for lo, hi, rest in re.findall(
                rb"<([0-9A-Fa-f]+)>\s*<([0-9A-Fa-f]+)>\s*(\[[^\]]*\]|<[0-9A-Fa-f]+>)", block):
            a, b = int(lo, 16), int(hi, 16)
            if rest.startswith(b"["):
                for n, dst in enumerate(re.findall(rb"<([0-9A-Fa-f]+)>", rest)):
                    out[a + n] = bytes.fromhex(dst.decode()).decode("utf-16-be")
            else:
                start = int(rest.strip(b"<>"), 16)
                for n in range(b - a + 1):
                    out[a + n] = chr(start + n)
    return out


def pdf_text(data: bytes) -> str:
    objects = {int(n): body for n, body in _OBJ.findall(data)}
    fonts: dict[bytes, dict[int, str]] = {}
    for body in objects.values():  # resource names: /F17 17 0 R in a /Font dictionary
        for name, ref in re.findall(rb"/(F\d+)\s+(\d+) 0 R", body):
            font = objects.get(int(ref), b"")
            m = re.search(rb"/ToUnicode (\d+) 0 R", font)
            if m is None:  # a Type0 font: the map sits on the font itself too
                continue
            fonts[name] = _cmap(_stream(objects.get(int(m.group(1)), b"")))
    text: list[str] = []
    for body in objects.values():
        content = _stream(body)
        if b"BT" not in content:
            continue
        current: dict[int, str] = {}
        for font, glyphs in re.findall(rb"/(F\d+) [\d.]+ Tf|<([0-9A-Fa-f]+)> Tj", content):
            if font:
                current = fonts.get(font, {})
                continue
            hexes = glyphs.decode()
            for k in range(0, len(hexes), 4):
                text.append(current.get(int(hexes[k:k + 4], 16), ""))
    return "".join(text)
