"""dynamics/api.pyi keeps step with dynamics/api.py: the same public names, and each
function the same parameters (names, kinds, defaults) as the Python function behind it.
The types themselves are checked by mypy on tests/typing_api.py."""

import ast
import inspect
from pathlib import Path

from eslabon.dynamics import api

SOURCE = Path(api.__file__)
STUB = SOURCE.with_suffix(".pyi")


def _public(tree):
    """{name: node} of the top-level public functions and constants of a module."""
    out = {}
    for node in tree.body:
        if isinstance(node, ast.FunctionDef):
            out[node.name] = node
        elif isinstance(node, (ast.Assign, ast.AnnAssign)):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            out.update({t.id: node for t in targets if isinstance(t, ast.Name)})
    return {k: v for k, v in out.items() if not k.startswith("_")}


def _stub_parameters(fn):
    """[(name, kind, default)] of a stub function (default ``...`` when none is given)."""
    a, empty = fn.args, inspect.Parameter.empty
    positional = a.posonlyargs + a.args
    defaults = [empty] * (len(positional) - len(a.defaults)) + [
        ast.literal_eval(d) for d in a.defaults
    ]
    out = [
        (
            p.arg,
            inspect.Parameter.POSITIONAL_ONLY
            if p in a.posonlyargs
            else inspect.Parameter.POSITIONAL_OR_KEYWORD,
            d,
        )
        for p, d in zip(positional, defaults, strict=True)
    ]
    out += [
        (p.arg, inspect.Parameter.KEYWORD_ONLY, empty if d is None else ast.literal_eval(d))
        for p, d in zip(a.kwonlyargs, a.kw_defaults, strict=True)
    ]
    return out


def test_stub_has_the_public_names_of_api():
    source = _public(ast.parse(SOURCE.read_text(encoding="utf-8")))
    stub = _public(ast.parse(STUB.read_text(encoding="utf-8")))
    assert sorted(stub) == sorted(source)


def test_stub_parameters_match_the_functions():
    stub = _public(ast.parse(STUB.read_text(encoding="utf-8")))
    for name, node in stub.items():
        if not isinstance(node, ast.FunctionDef):
            continue
        f = getattr(api, name)
        general = getattr(getattr(f, "__self__", None), "general", f)  # fastcall builtin
        real = [(p.name, p.kind, p.default) for p in inspect.signature(general).parameters.values()]
        assert _stub_parameters(node) == real, name
