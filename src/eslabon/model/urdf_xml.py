"""Bytes to an element tree for the URDF reader (:mod:`eslabon.model.urdf`): the file size
limit, a leading byte order mark and white space, xacro and internal DTD subsets refused,
and each element's source line kept as its ``_line`` attribute."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from pathlib import Path
from typing import AnyStr, overload
from xml.parsers import expat

MAX_URDF_BYTES = 50 * 2**20
"""Largest URDF file read (50 MiB; robot descriptions with many links are a few MB)."""


@overload
def skip_leading_space(data: str) -> tuple[str, int, int]: ...
@overload
def skip_leading_space(data: bytes) -> tuple[bytes, int, int]: ...


def skip_leading_space(data: AnyStr) -> tuple[AnyStr, int, int]:
    r"""``data`` without a leading byte order mark and white space, and what was skipped.

    The (lines, columns) skipped are returned so that line numbers still count from the
    file's first line. An XML parser refuses anything before ``<?xml ...?>``; URDF files
    often start with an empty line or a byte order mark. The parser's line and column
    numbers are then shifted back by what was skipped.

    Parameters
    ----------
    data : str or bytes
        The document (bytes: UTF-8, whose byte order mark is ``EF BB BF``).

    Returns
    -------
    body : str or bytes
        ``data`` (of the same type) from its first character that is not white space.
    lines : int
        The line breaks skipped (``\r\n``, ``\n`` and ``\r`` each count one).
    columns : int
        The characters skipped on the line where ``body`` starts (a byte order mark not
        counted).

    Examples
    --------
    >>> from eslabon.model.urdf_xml import skip_leading_space
    >>> skip_leading_space("\ufeff\n\n   <robot/>")
    ('<robot/>', 2, 3)
    """
    bom, space = ("\ufeff", " \t\r\n") if isinstance(data, str) else (b"\xef\xbb\xbf", b" \t\r\n")
    body = data[len(bom) :] if data.startswith(bom) else data
    body = body.lstrip(space)
    skipped = data[: len(data) - len(body)]
    text = skipped.decode("utf-8", "replace") if isinstance(skipped, bytes) else skipped
    breaks = text.replace("\r\n", "\n").replace("\r", "\n")
    return body, breaks.count("\n"), len(breaks.rsplit("\n", 1)[-1].lstrip("\ufeff"))


def parse_urdf_xml(data: str | bytes, where: str) -> ET.Element:
    """The element tree of ``data`` (text or bytes), each element with its line.

    Each element carries its source line as ``_line``. Parsed with expat (the XML
    declaration's encoding is honoured for bytes) after :func:`skip_leading_space`; the
    line numbers count from the document's first line.

    Parameters
    ----------
    data : str or bytes
        The URDF document.
    where : str
        What the document is (a file path, ``"URDF text"``), starting every error
        message.

    Returns
    -------
    xml.etree.ElementTree.Element
        The root element, with its children; every element's ``_line`` attribute holds
        its line number as a string.

    Raises
    ------
    ValueError
        Text that is not valid XML (naming the expat error, the line and the column), a
        ``xacro:`` element (the file must be expanded first), or a document type
        declaration with an internal subset (``<!DOCTYPE robot [...]>``: entities,
        attribute defaults).

    Examples
    --------
    >>> from eslabon.model.urdf_xml import parse_urdf_xml
    >>> root = parse_urdf_xml('''<robot name="r">
    ...   <link name="a"/>
    ... </robot>''', "URDF text")
    >>> root.tag, root[0].get("name"), root[0].get("_line")
    ('robot', 'a', '2')
    """
    data, line_offset, column_offset = skip_leading_space(data)
    parser = expat.ParserCreate()
    stack: list[ET.Element] = []
    root: list[ET.Element] = []

    def line() -> int:
        return parser.CurrentLineNumber + line_offset

    def start(tag: str, attrs: dict[str, str]) -> None:
        if tag.startswith("xacro:"):
            raise ValueError(
                f"{where}: <{tag}> at line {line()}: this is a xacro file; "
                "expand it into plain URDF first (xacro FILE > robot.urdf)"
            )
        elem = ET.Element(tag, attrs)
        elem.set("_line", str(line()))
        (stack[-1].append(elem) if stack else root.append(elem))
        stack.append(elem)

    def doctype(
        name: str, system_id: str | None, public_id: str | None, has_internal_subset: bool
    ) -> None:
        if has_internal_subset:
            raise ValueError(
                f"{where}: <!DOCTYPE {name} [...]> at line {line()}: a document "
                "type declaration with an internal subset (entities, attribute "
                "defaults) is not supported in URDF"
            )

    parser.StartElementHandler = start
    parser.EndElementHandler = lambda tag: stack.pop()
    parser.StartDoctypeDeclHandler = doctype
    try:
        parser.Parse(data, True)
    except expat.ExpatError as exc:
        column = exc.offset + 1 + (column_offset if exc.lineno == 1 else 0)
        raise ValueError(
            f"{where}: not valid XML ({expat.ErrorString(exc.code)}: line "
            f"{exc.lineno + line_offset}, column {column})"
        ) from None
    return root[0]


def urdf_source(source: str | Path) -> tuple[str | bytes, str]:
    """(bytes of the file or the text, a name for messages) of a path or URDF text.

    A :class:`pathlib.Path`, or a string whose first character after white space and a
    byte order mark is not ``<``, is a file path; any other string is URDF text.

    Parameters
    ----------
    source : str or pathlib.Path
        A URDF file path, or URDF text.

    Returns
    -------
    data : bytes or str
        The file's bytes (at most :data:`MAX_URDF_BYTES`), or the text itself.
    where : str
        The path as a string, or ``"URDF text"``.

    Raises
    ------
    ValueError
        A path that is not a file, a file larger than :data:`MAX_URDF_BYTES`, or a
        ``source`` that is neither a string nor a path.

    Examples
    --------
    >>> from eslabon.model.urdf_xml import urdf_source
    >>> urdf_source('<robot name="r"/>')
    ('<robot name="r"/>', 'URDF text')
    """
    if isinstance(source, Path) or (
        isinstance(source, str) and not source.lstrip("\ufeff \t\r\n").startswith("<")
    ):
        path = Path(source)
        if not path.is_file():
            raise ValueError(f"path: no such URDF file {str(path)!r}")
        size = path.stat().st_size
        if size > MAX_URDF_BYTES:
            raise ValueError(
                f"{path}: {size} bytes is larger than the {MAX_URDF_BYTES} bytes "
                "a URDF file may have"
            )
        with open(path, "rb") as handle:
            data = handle.read(MAX_URDF_BYTES + 1)
        if len(data) > MAX_URDF_BYTES:
            raise ValueError(f"{path}: larger than the {MAX_URDF_BYTES} bytes a URDF file may have")
        return data, str(path)
    if not isinstance(source, str):
        raise ValueError(f"source: expected a URDF file path or URDF text, got {type(source)}")
    return source, "URDF text"
