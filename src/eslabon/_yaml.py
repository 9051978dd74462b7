"""The one YAML reader and writer of every eslabon YAML file (model files, mobile
manipulators, sweep specs).

Reading is strict, so that a file means one thing and a hostile file cannot exhaust the
machine:

- **YAML 1.2 core schema** for plain scalars: ``1e3`` and ``1.0e3`` are numbers (PyYAML's
  default YAML 1.1 rules read them as strings), ``010`` is ten (not octal eight), ``1:30``
  is a string (not sexagesimal 90), and only ``true``/``false`` are booleans (``yes``,
  ``no``, ``on``, ``off`` are strings). Dates stay strings. ``0o17`` and ``0x1f`` are
  octal and hexadecimal integers. Python tags (``!!python/...``) are refused, as by
  ``yaml.safe_load``.
- **Duplicate keys** in any mapping are refused (YAML forbids them; PyYAML would keep
  the last one silently). A merge key ``<<`` may be overridden by the mapping's own keys.
- **Size**: a file larger than :data:`MAX_YAML_BYTES` is refused before it is read.
- **Anchors and aliases** are allowed, but the document they expand to may hold at most
  :data:`MAX_ALIAS_EXPANSION` more nodes than the file itself writes, and may nest at most
  :data:`MAX_DEPTH` collections deep (aliases included); a recursive alias is refused. A
  "billion laughs" file is refused in milliseconds.

Every refusal is a ``ValueError`` naming the file, the line and the column.

Writing (:func:`dump_yaml`) quotes every string that a YAML 1.1 or 1.2 reader would take
for something else, so a name like ``1e3`` or ``yes`` reads back as the same string here
and elsewhere.
"""

from __future__ import annotations

import re
from pathlib import Path

import yaml
from yaml.constructor import ConstructorError
from yaml.nodes import MappingNode, ScalarNode, SequenceNode

MAX_YAML_BYTES = 10 * 2**20
"""Largest YAML file read (10 MiB; a 1000-body model file is about 1 MiB)."""
MAX_ALIAS_EXPANSION = 100_000
"""Most nodes that aliases may add to a document beyond the ones written in the file."""
MAX_DEPTH = 64
"""Deepest nesting of sequences and mappings (an eslabon file needs about 6)."""

_INT = "tag:yaml.org,2002:int"
_MERGE = "tag:yaml.org,2002:merge"
# The YAML 1.2 core schema's plain-scalar rules (YAML 1.2.2, section 10.3.2), in the order
# they are tried; the first character narrows the candidates as PyYAML's resolver expects.
_CORE_SCHEMA = [
    ("tag:yaml.org,2002:null", r"^(?:~|null|Null|NULL|)$", ["~", "n", "N", ""]),
    ("tag:yaml.org,2002:bool", r"^(?:true|True|TRUE|false|False|FALSE)$", list("tTfF")),
    (_INT, r"^(?:[-+]?[0-9]+|0o[0-7]+|0x[0-9a-fA-F]+)$", list("-+0123456789")),
    (
        "tag:yaml.org,2002:float",
        r"^(?:[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)(?:[eE][-+]?[0-9]+)?"
        r"|[-+]?\.(?:inf|Inf|INF)|\.(?:nan|NaN|NAN))$",
        list("-+.0123456789"),
    ),
    (_MERGE, r"^(?:<<)$", ["<"]),
]


_INT_TEXT = re.compile(r"^[-+]?(?:[0-9]+|0o[0-7]+|0x[0-9a-fA-F]+)$")


def _construct_int(loader, node):
    """An integer by the core schema: decimal (leading zeros allowed), 0o octal, 0x hex.
    Anything else tagged !!int (an empty value, 0b101, a lone sign) is refused."""
    text = loader.construct_scalar(node)
    if not isinstance(text, str) or not _INT_TEXT.match(text):
        raise ConstructorError(
            None,
            None,
            f"expected an integer (decimal, 0o octal or 0x hexadecimal), got {text!r}",
            node.start_mark,
        )
    sign, body = (-1, text[1:]) if text[0] == "-" else (1, text.lstrip("+"))
    base = {"0o": 8, "0x": 16}.get(body[:2], 10)
    try:
        return sign * int(body[2:] if base != 10 else body, base)
    except ValueError:  # more digits than Python converts (sys.int_info)
        raise ConstructorError(
            None, None, f"an integer of {len(body)} digits is too long", node.start_mark
        ) from None


class StrictLoader(yaml.SafeLoader):
    """PyYAML's safe loader with the YAML 1.2 core schema, no duplicate keys, and limits
    on alias expansion and nesting (see the module docstring)."""

    yaml_implicit_resolvers: dict = {}

    def compose_node(self, parent, index):
        self._depth = getattr(self, "_depth", 0) + 1
        if self._depth > MAX_DEPTH:
            raise ConstructorError(
                None, None, f"nested deeper than {MAX_DEPTH} levels", self.peek_event().start_mark
            )
        try:
            return super().compose_node(parent, index)
        finally:
            self._depth -= 1

    def get_single_node(self):
        node = super().get_single_node()
        if node is not None:
            _check_expansion(node)
        return node

    def construct_mapping(self, node, deep=False):
        if isinstance(node, MappingNode):
            first_line = {}
            for key_node, _ in node.value:
                if key_node.tag == _MERGE or not isinstance(key_node, ScalarNode):
                    continue
                key = self.construct_object(key_node)
                if key in first_line:
                    raise ConstructorError(
                        None,
                        None,
                        f"duplicate key {key!r} (first given at line "
                        f"{first_line[key]}); a key may appear once in a mapping",
                        key_node.start_mark,
                    )
                first_line[key] = key_node.start_mark.line + 1
        return super().construct_mapping(node, deep=deep)


for _tag, _pattern, _first in _CORE_SCHEMA:
    StrictLoader.add_implicit_resolver(_tag, re.compile(_pattern), _first)
StrictLoader.add_constructor(_INT, _construct_int)


class StrictDumper(yaml.SafeDumper):
    """PyYAML's safe dumper that also quotes the strings the YAML 1.2 core schema would
    read as something else (its YAML 1.1 rules stay, so other readers agree too)."""


for _tag, _pattern, _first in _CORE_SCHEMA:
    StrictDumper.add_implicit_resolver(_tag, re.compile(_pattern), _first)


def _children(node):
    if isinstance(node, SequenceNode):
        return node.value
    if isinstance(node, MappingNode):
        return [n for pair in node.value for n in pair]
    return []


def _check_expansion(root):
    """Refuse a node graph whose aliases expand past the budget, nest too deep or loop.

    Composed aliases are shared node objects, so the expanded size and depth are counted
    once per distinct node (post-order, no recursion)."""
    size, depth, distinct = {}, {}, 0
    on_path = set()
    stack = [(root, False)]
    while stack:
        node, children_done = stack.pop()
        key = id(node)
        if children_done:
            on_path.discard(key)
            kids = _children(node)
            size[key] = 1 + sum(size[id(k)] for k in kids)
            depth[key] = 1 + max((depth[id(k)] for k in kids), default=0)
            if depth[key] > MAX_DEPTH:
                raise ConstructorError(
                    None,
                    None,
                    f"nested deeper than {MAX_DEPTH} levels (through aliases)",
                    node.start_mark,
                )
            if size[key] > distinct + MAX_ALIAS_EXPANSION:
                raise ConstructorError(
                    None,
                    None,
                    f"aliases expand the document past {MAX_ALIAS_EXPANSION} extra nodes",
                    node.start_mark,
                )
            continue
        if key in size:
            continue
        if key in on_path:
            raise ConstructorError(
                None,
                None,
                "an alias refers to a node that contains it (a recursive structure)",
                node.start_mark,
            )
        on_path.add(key)
        distinct += 1
        stack.append((node, True))
        stack.extend((k, False) for k in _children(node) if id(k) not in size)


def read_yaml(path, *, max_bytes: int = MAX_YAML_BYTES):
    """The data of the YAML file ``path``, read strictly (see the module docstring).

    Raises ValueError naming the file (and the line and column of a bad node) when the
    file is too large, not valid YAML, or breaks one of the rules above."""
    path = Path(path)
    size = path.stat().st_size
    if size > max_bytes:
        raise ValueError(
            f"{path}: {size} bytes is larger than the {max_bytes} bytes a YAML file may have"
        )
    with open(path, "rb") as handle:
        raw = handle.read(max_bytes + 1)
    if len(raw) > max_bytes:  # grew after stat()
        raise ValueError(f"{path}: larger than the {max_bytes} bytes a YAML file may have")
    try:
        return yaml.load(raw, Loader=StrictLoader)
    except yaml.YAMLError as exc:
        raise ValueError(f"{path}: not valid YAML ({_describe(exc)})") from None
    except (IndexError, KeyError, AttributeError, TypeError, ValueError, OverflowError) as exc:
        # PyYAML's own constructors fail this way on some malformed tagged values
        # (an empty !!float, !!bool maybe)
        raise ValueError(
            f"{path}: not valid YAML (a value it cannot read: {type(exc).__name__}: {exc})"
        ) from None


def _describe(exc: yaml.YAMLError) -> str:
    """One line: where and what, from a PyYAML error."""
    mark = getattr(exc, "problem_mark", None)
    problem = getattr(exc, "problem", None)
    if problem is None:  # e.g. a reader (encoding) error
        return " ".join(str(exc).split())
    context = getattr(exc, "context", None)
    if context:  # e.g. "while parsing a block mapping" + "expected <block end>"
        what = f"{context}{',' if problem.startswith('but') else ':'} {problem}"
    else:
        what = problem
    where = f"line {mark.line + 1}, column {mark.column + 1}: " if mark is not None else ""
    return where + " ".join(what.split())


def dump_yaml(data) -> str:
    """YAML text for plain data (dicts, lists, str, int, float, bool), keys in order."""
    return yaml.dump(data, Dumper=StrictDumper, sort_keys=False)


def check_plain_tree(data, where: str = "") -> None:
    """Refuse a mapping key that is not a string and a value left empty (null), naming
    its place (``bodies[2].mass``): in an eslabon file a key given must have a value."""
    stack = [(data, where)]
    while stack:
        value, at = stack.pop()
        if isinstance(value, dict):
            for key, item in value.items():
                if not isinstance(key, str):
                    raise ValueError(f"{at or 'top level'}: key {key!r}: expected a string key")
                stack.append((item, f"{at}.{key}" if at else key))
        elif isinstance(value, list):
            stack.extend((item, f"{at}[{i}]") for i, item in enumerate(value))
        elif value is None:
            raise ValueError(
                f"{at or 'top level'}: expected a value, got null (an empty "
                "value: give one, or leave an optional key out)"
            )
