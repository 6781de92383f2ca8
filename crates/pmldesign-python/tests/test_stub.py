"""The type stub of the native module (``_native.pyi``, which mypy --strict and
users' type checkers read) is checked against the module the wheel holds: the
same names, for every function the same parameters, in order, as the
signature pyo3 generates from the Rust functions, and (stub_check.py) the
stub's types at every call the tests make."""

from __future__ import annotations

import ast
import inspect
import pathlib
import sys
import types

import pytest

import pmldesign._native as native

STUB = pathlib.Path(__file__).resolve().parents[1] / "python" / "pmldesign" / "_native.pyi"


def stub() -> ast.Module:
    return ast.parse(STUB.read_text())


def test_the_stub_names_what_the_module_holds():
    tree = stub()
    declared = set()
    for node in tree.body:
        typing_only = any(getattr(d, "id", None) == "type_check_only" for d in getattr(node, "decorator_list", []))
        if isinstance(node, (ast.FunctionDef, ast.ClassDef)) and not typing_only:
            declared.add(node.name)
        elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
            declared.add(node.target.id)
    public = {name for name in dir(native) if not name.startswith("_")}
    assert public - declared == set(), "in the module, not in the stub"
    assert {n for n in declared if not n[0] == "_"} - public == set(), "in the stub, not in the module"
    listed = next(n for n in tree.body if isinstance(n, ast.Assign) and n.targets[0].id == "__all__")
    assert set(ast.literal_eval(listed.value)) == public


def test_every_function_has_the_stubs_parameters():
    for node in stub().body:
        if not isinstance(node, ast.FunctionDef):
            continue
        args = node.args
        stubbed = [a.arg for a in args.posonlyargs + args.args + args.kwonlyargs]
        actual = list(inspect.signature(getattr(native, node.name)).parameters)
        assert stubbed == actual, f"{node.name}: the stub has {stubbed}, the module {actual}"


def test_every_call_into_the_module_is_checked_against_the_stubs_types():
    """conftest.py wraps every function of the stub (stub_check.py): a call whose
    arguments or return value are not of the stub's types fails the test that made it."""
    pytest.importorskip("typeguard")
    import stub_check

    declared = [node.name for node in stub().body if isinstance(node, ast.FunctionDef)]
    assert [n for n in declared if not getattr(getattr(native, n), "stub_checked", False)] == []
    for module in [m for name, m in sys.modules.items() if name.split(".")[0] == "pmldesign"]:
        for name, value in vars(module).items():
            unchecked = isinstance(value, types.BuiltinFunctionType) and value.__module__ == native.__name__
            assert not unchecked, f"{module.__name__}.{name} is a native function the check does not see"

    assert stub_check.take() == []
    assert native.names_fit(("a", "b"), 2)  # the module takes any sequence; the stub says List[str]
    assert native.bin_text([0.0, 1.0]) == "0,1"
    with pytest.raises(native.PmlError):
        native.bin_text([1.0, 0.0])  # refused by the module: not reported
    fake = stub_check.wrap("bin_text", lambda edges: len(edges))
    assert fake([0.0, 1.0]) == 2
    found = stub_check.take()
    assert len(found) == 2, found
    assert "names_fit()" in found[0] and "argument 'names': tuple is not a list; the stub says List[str]" in found[0]
    assert "test_stub.py:" in found[0]
    assert "bin_text()" in found[1] and "return value: int is not an instance of str; the stub says str" in found[1]
