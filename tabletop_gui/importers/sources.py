"""Reading untrusted import files within the limits of scenario files.

- Files over 16 MiB are refused before they are parsed (``MAX_BYTES``, as scenario files).
- JSON goes through the scenario decoder: strict UTF-8, no duplicate-key surprises, at
  most 32 levels of nesting.
- XML is parsed by ``defusedxml`` with DTDs forbidden (so no entity expansion and no
  external entities), at most 32 levels of elements; the tree keeps each element's line.
- A zip (``.rosz``) may hold at most ``MAX_ZIP_MEMBERS`` members; the one ``.ros`` in it
  is read only up to 16 MiB, whatever its header claims.

Every refusal is an ``ImportRefused`` whose lines read ``FILE: place: message``.
"""

from __future__ import annotations

import io
import zipfile
import zlib
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from defusedxml import DefusedXmlException
from defusedxml.ElementTree import DefusedXMLParser, ParseError

from tabletop_gui.scenario.load import MAX_BYTES, MAX_DEPTH, ScenarioError, decode

MAX_ZIP_MEMBERS = 16


class ImportRefused(Exception):
    """Input the importer refuses; ``lines`` are located one-line messages."""

    def __init__(self, lines: Iterable[str]) -> None:
        self.lines = list(lines)
        super().__init__("\n".join(self.lines))


def located(source: str, place: str, message: str) -> str:
    return f"{source}: {place}: {message}" if place else f"{source}: {message}"


def refuse(source: str, message: str, place: str = "") -> ImportRefused:
    return ImportRefused([located(source, place, message)])


def read_file(path: str | Path) -> bytes:
    """The file's bytes, refused when unreadable or larger than the scenario limit."""
    source = str(path)
    try:
        with Path(path).open("rb") as f:
            data = f.read(MAX_BYTES + 1)
    except OSError as e:
        raise refuse(source, f"cannot read the file: {e.strerror or type(e).__name__}"
                     ) from None
    check_size(data, source)
    return data


def check_size(data: bytes, source: str) -> None:
    if len(data) > MAX_BYTES:
        raise refuse(source, f"the file is larger than {MAX_BYTES // (1024 * 1024)} MiB")


def decode_json(data: bytes, source: str) -> Any:
    """Strict JSON within the scenario limits (size, nesting)."""
    try:
        return decode(data, source)
    except ScenarioError as e:
        raise ImportRefused([located(source, p.path, p.message) for p in e.problems]
                            ) from None


# -- XML ------------------------------------------------------------------------------

@dataclass
class XmlElement:
    """An element of a parsed XML file: tag (``{namespace}name``), attributes, text,
    children and the line it starts on."""

    tag: str
    attrib: dict[str, str]
    line: int
    children: list[XmlElement] = field(default_factory=list)
    text: str = ""

    @property
    def local(self) -> str:
        return self.tag.rpartition("}")[2]

    @property
    def namespace(self) -> str:
        return self.tag[1:].partition("}")[0] if self.tag.startswith("{") else ""


class _TooDeep(Exception):
    def __init__(self, line: int) -> None:
        self.line = line


class _Builder:
    """The parser's target: builds XmlElements, refusing nesting beyond MAX_DEPTH."""

    def __init__(self) -> None:
        self.stack: list[XmlElement] = []
        self.root: XmlElement | None = None
        self.expat: Any = None
        self._text: list[list[str]] = []

    def start(self, tag: str, attrib: dict[str, str]) -> None:
        line = int(self.expat.CurrentLineNumber) if self.expat is not None else 0
        if len(self.stack) >= MAX_DEPTH:
            raise _TooDeep(line)
        element = XmlElement(tag, dict(attrib), line)
        if self.stack:
            self.stack[-1].children.append(element)
        else:
            self.root = element
        self.stack.append(element)
        self._text.append([])

    def end(self, tag: str) -> None:
        element = self.stack.pop()
        element.text = "".join(self._text.pop())

    def data(self, text: str) -> None:
        if self._text:
            self._text[-1].append(text)

    def close(self) -> XmlElement | None:
        return self.root


def parse_xml(data: bytes, source: str) -> XmlElement:
    """The element tree of untrusted XML: no DTD (hence no entities), bounded depth."""
    check_size(data, source)
    builder = _Builder()
    parser = DefusedXMLParser(target=builder, forbid_dtd=True, forbid_entities=True,
                              forbid_external=True)
    builder.expat = parser.parser
    try:
        parser.feed(data)
        root = parser.close()
    except DefusedXmlException as e:
        raise refuse(source, f"refused: the XML declares {_what(e)} (document type "
                     "definitions and entities are not accepted in import files)",
                     f"line {parser.parser.CurrentLineNumber}") from None
    except _TooDeep as e:
        raise refuse(source, f"nested too deeply (at most {MAX_DEPTH} levels)",
                     f"line {e.line}") from None
    except ParseError as e:
        line, column = getattr(e, "position", (0, 0))
        raise refuse(source, f"not well-formed XML: {_reason(e)}",
                     f"line {line}, column {column + 1}") from None
    except (ValueError, UnicodeError) as e:
        raise refuse(source, f"not readable XML: {e}") from None
    except LookupError as e:  # an encoding the declaration names that Python lacks
        raise refuse(source, f"not readable XML: the declared encoding is not known ({e})",
                     "line 1") from None
    if not isinstance(root, XmlElement):
        raise refuse(source, "not readable XML: no root element")
    return root


def _what(e: Exception) -> str:
    name = type(e).__name__
    return {"DTDForbidden": "a document type (DTD)",
            "EntitiesForbidden": "an entity",
            "ExternalReferenceForbidden": "an external reference"}.get(name, name)


def _reason(e: Exception) -> str:
    text = str(e)
    return text.split(":")[0] if ":" in text else text


# -- zip ------------------------------------------------------------------------------

def read_zip_member(data: bytes, source: str, suffix: str) -> tuple[str, bytes]:
    """The one member whose name ends with ``suffix`` (``.ros``), read within the limits."""
    try:
        archive = zipfile.ZipFile(io.BytesIO(data))
        members = archive.infolist()
    except (zipfile.BadZipFile, OSError, ValueError, EOFError) as e:
        raise refuse(source, f"not a readable zip archive: {e}") from None
    if len(members) > MAX_ZIP_MEMBERS:
        raise refuse(source, f"the zip archive holds {len(members)} members (at most "
                     f"{MAX_ZIP_MEMBERS}; a .rosz holds one .ros)")
    wanted = [m for m in members if m.filename.lower().endswith(suffix) and not m.is_dir()]
    if len(wanted) != 1:
        names = ", ".join(m.filename for m in members[:5]) or "nothing"
        raise refuse(source, f"the zip archive must hold exactly one {suffix} file, it holds "
                     f"{len(wanted)} ({names})")
    member = wanted[0]
    where = f"member {member.filename}"
    if member.file_size > MAX_BYTES:
        raise refuse(source, f"unpacks to {member.file_size} bytes (at most "
                     f"{MAX_BYTES // (1024 * 1024)} MiB)", where)
    try:
        with archive.open(member) as f:
            content = f.read(MAX_BYTES + 1)
    except (zipfile.BadZipFile, zlib.error, OSError, EOFError, NotImplementedError,
            RuntimeError, ValueError) as e:
        raise refuse(source, f"cannot be unpacked: {e}", where) from None
    if len(content) > MAX_BYTES:
        raise refuse(source, f"unpacks to more than {MAX_BYTES // (1024 * 1024)} MiB", where)
    return member.filename, content
