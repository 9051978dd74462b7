"""Every public name has a numpydoc docstring (the API reference, ``make docs``, is built
from them). Public means: exported by ``eslabon`` or by a subpackage the reference lists
(``docs/api/subpackages.rst``), and the public methods of those classes.

The rules, checked on the sections numpydoc names (a title underlined with dashes):

- a function has ``Parameters`` (when it takes any), ``Returns`` (or ``Yields``; not
  needed when annotated ``-> None``) and ``Examples``, which ``test_docstring_examples``
  runs;
- a class has ``Parameters`` or ``Attributes`` (an exception or warning needs only text);
- a public method has ``Parameters`` (when it takes any) and ``Returns`` (unless ``-> None``).
"""

from __future__ import annotations

import importlib
import inspect
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
SECTION = re.compile(r"^(\w[\w ]*)\n-{3,}$", re.M)


def _listed_modules() -> list[str]:
    text = (ROOT / "docs" / "api" / "subpackages.rst").read_text(encoding="utf-8")
    return ["eslabon"] + re.findall(r"automodule:: ([\w.]+)", text)


def _public() -> dict[str, object]:
    """Qualified name → object, each object once (under the first module exporting it)."""
    found: dict[str, object] = {}
    ids: set[int] = set()
    for module_name in _listed_modules():
        module = importlib.import_module(module_name)
        for name in module.__all__:
            obj = getattr(module, name)
            if inspect.ismodule(obj) or not callable(obj) or id(obj) in ids:
                continue
            ids.add(id(obj))
            found[f"{module_name}.{name}"] = obj
    return found


def _sections(obj) -> set[str]:
    return set(SECTION.findall(inspect.getdoc(obj) or ""))


def _takes_arguments(fn) -> bool:
    try:
        parameters = inspect.signature(fn).parameters
    except (TypeError, ValueError):
        return True
    return any(p not in ("self", "cls") for p in parameters)


def _returns_none(fn) -> bool:
    try:
        annotation = inspect.signature(fn).return_annotation
    except (TypeError, ValueError):
        return False
    return annotation in (None, "None")


def _lacking_for_callable(fn, *, example: bool) -> list[str]:
    have = _sections(fn)
    need = []
    if _takes_arguments(fn):
        need.append("Parameters")
    if not _returns_none(fn) and "Yields" not in have:
        need.append("Returns")
    if example:
        need.append("Examples")
    return [s for s in need if s not in have]


def _methods(cls) -> dict[str, object]:
    out = {}
    for name, value in vars(cls).items():
        if name.startswith("_"):
            continue
        if isinstance(value, (staticmethod, classmethod)):
            value = value.__func__
        if inspect.isfunction(value):
            out[name] = value
    return out


PUBLIC = _public()


def test_the_public_surface_is_found():
    assert "eslabon.inverse_dynamics" in PUBLIC
    assert "eslabon.spatial.rot_x" in PUBLIC
    assert len(PUBLIC) > 150


@pytest.mark.parametrize("name", sorted(PUBLIC))
def test_numpydoc_sections(name):
    obj = PUBLIC[name]
    doc = inspect.getdoc(obj) or ""
    assert doc.strip(), f"{name}: no docstring"
    lacking: list[str] = []
    if inspect.isclass(obj):
        if not issubclass(obj, BaseException):
            if not {"Parameters", "Attributes"} & _sections(obj):
                lacking.append("Parameters or Attributes")
            for method_name, method in _methods(obj).items():
                if not (inspect.getdoc(method) or "").strip():
                    lacking.append(f"{method_name}: docstring")
                    continue
                gaps = _lacking_for_callable(method, example=False)
                lacking += [f"{method_name}: {s}" for s in gaps]
    else:
        lacking = _lacking_for_callable(obj, example=True)
    assert not lacking, f"{name} lacks numpydoc sections: {', '.join(lacking)}"
