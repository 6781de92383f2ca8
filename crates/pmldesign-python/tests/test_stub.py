"""The type stub of the native module (``_native.pyi``, which mypy --strict and
users' type checkers read) is checked against the module the wheel holds: the
same names, and for every function the same parameters, in order, as the
signature pyo3 generates from the Rust functions."""

from __future__ import annotations

import ast
import inspect
import pathlib

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
