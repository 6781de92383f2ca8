"""Every call into the native module during the tests is held to the type stub
(``python/pmldesign/_native.pyi``, which mypy and users' type checkers read): each
argument and the return value must have the stub's annotated type, checked by
typeguard. A call off the stub is recorded with its function, parameter, types and
call site, and ``conftest.py`` fails the test that made it.

Arguments the module refused (the call raised) are not reported: the stub and the
module agree that they are wrong. The first item of a collection is checked, not
every item, and ``npt.ArrayLike`` by a quick rule of its own (typeguard's check of that
union of protocols takes milliseconds a call and refuses tuples), so the check adds
well under a second to the suite."""

from __future__ import annotations

import ast
import collections.abc
import functools
import importlib
import inspect
import pathlib
import sys
import threading
import types
import typing
from typing import Any, Callable, Dict, List, Optional, Tuple

import numpy as np
import numpy.typing as npt
from typeguard import CollectionCheckStrategy, TypeCheckError, check_type, checker_lookup_functions

import pmldesign
import pmldesign._native as native

STUB = pathlib.Path(__file__).resolve().parents[1] / "python" / "pmldesign" / "_native.pyi"

_found: List[str] = []
_lock = threading.Lock()


class ArrayLike:
    """Stands for ``npt.ArrayLike`` in the evaluated annotations: a scalar, a string,
    bytes, anything with ``__array__`` (NumPy arrays and scalars, pandas and Arrow
    columns), or a sequence whose first item, to any depth, is one of these."""


_SCALARS = (bool, int, float, complex, str, bytes, np.generic)


def _array_like(value: Any, depth: int = 0) -> bool:
    if isinstance(value, _SCALARS) or hasattr(value, "__array__"):
        return True
    if isinstance(value, collections.abc.Sequence) and depth < 32:
        return len(value) == 0 or _array_like(value[0], depth + 1)
    return False


def _check_array_like(value: Any, origin_type: Any, args: Tuple[Any, ...], memo: Any) -> None:
    if not _array_like(value):
        raise TypeCheckError("is not array-like")


def _check_ndarray(value: Any, origin_type: Any, args: Tuple[Any, ...], memo: Any) -> None:
    """An ``npt.NDArray[T]``: a NumPy array whose dtype is T or a subtype of it
    (typeguard checks the class only)."""
    if not isinstance(value, np.ndarray):
        raise TypeCheckError("is not a NumPy array")
    dtype_args = typing.get_args(args[1]) if len(args) == 2 else ()
    if dtype_args and dtype_args[0] is not Any:
        scalar = typing.get_origin(dtype_args[0]) or dtype_args[0]
        if not issubclass(value.dtype.type, scalar):
            raise TypeCheckError(f"has dtype {value.dtype}, not {scalar.__name__}")


def _lookup(origin: Any, args: Tuple[Any, ...], extras: Tuple[Any, ...]) -> Optional[Callable[..., None]]:
    if origin is ArrayLike:
        return _check_array_like
    if origin is np.ndarray and args:
        return _check_ndarray
    return None


class _NumpyTyping(types.ModuleType):
    """``numpy.typing`` with ``ArrayLike`` swapped for the quick rule above."""

    ArrayLike = ArrayLike

    def __getattr__(self, name: str) -> Any:
        return getattr(npt, name)


def _namespace(tree: ast.Module) -> Dict[str, Any]:
    """The names the stub's annotations use: its imports (``numpy.typing`` with the
    quick ``ArrayLike``) and its classes (exceptions, TypedDicts), run."""
    # typing.type_check_only exists for type checkers only: at run time it is the class.
    namespace: Dict[str, Any] = {"type_check_only": lambda cls: cls}
    for node in tree.body:
        if isinstance(node, ast.Import):
            for alias in node.names:
                if alias.asname:
                    namespace[alias.asname] = importlib.import_module(alias.name)
                else:
                    top = alias.name.split(".")[0]
                    importlib.import_module(alias.name)
                    namespace[top] = importlib.import_module(top)
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            module = importlib.import_module(node.module)
            for alias in node.names:
                if hasattr(module, alias.name):
                    namespace[alias.asname or alias.name] = getattr(module, alias.name)
        elif isinstance(node, ast.ClassDef):
            exec(compile(ast.Module(body=[node], type_ignores=[]), str(STUB), "exec", dont_inherit=True), namespace)
    for name, value in list(namespace.items()):
        if value is npt:
            namespace[name] = _NumpyTyping("numpy.typing")
    return namespace


class Stubbed(typing.NamedTuple):
    """One function of the stub: its signature, annotations evaluated, and each
    annotation as the stub writes it (``return`` for the return value's)."""

    signature: inspect.Signature
    written: Dict[str, str]


def _stubbed(node: ast.FunctionDef, namespace: Dict[str, Any]) -> Stubbed:
    written: Dict[str, str] = {}

    def evaluate(name: str, annotation: Optional[ast.expr]) -> Any:
        if annotation is None:
            written[name] = "Any"
            return Any
        written[name] = ast.unparse(annotation)
        return eval(compile(ast.Expression(annotation), str(STUB), "eval", dont_inherit=True), namespace)

    P = inspect.Parameter
    a = node.args
    positional = a.posonlyargs + a.args
    defaults: List[Optional[ast.expr]] = [None] * (len(positional) - len(a.defaults)) + list(a.defaults)
    params = []
    for i, (arg, default) in enumerate(zip(positional, defaults)):
        kind = P.POSITIONAL_ONLY if i < len(a.posonlyargs) else P.POSITIONAL_OR_KEYWORD
        params.append(P(arg.arg, kind, default=P.empty if default is None else ...,
                        annotation=evaluate(arg.arg, arg.annotation)))
    if a.vararg:
        params.append(P(a.vararg.arg, P.VAR_POSITIONAL, annotation=evaluate(a.vararg.arg, a.vararg.annotation)))
    for arg, kw_default in zip(a.kwonlyargs, a.kw_defaults):
        params.append(P(arg.arg, P.KEYWORD_ONLY, default=P.empty if kw_default is None else ...,
                        annotation=evaluate(arg.arg, arg.annotation)))
    if a.kwarg:
        params.append(P(a.kwarg.arg, P.VAR_KEYWORD, annotation=evaluate(a.kwarg.arg, a.kwarg.annotation)))
    returns = evaluate("return", node.returns)
    return Stubbed(inspect.Signature(params, return_annotation=returns), written)


@functools.cache
def stubbed() -> Dict[str, Stubbed]:
    """Every function of the stub, by name."""
    tree = ast.parse(STUB.read_text())
    namespace = _namespace(tree)
    return {node.name: _stubbed(node, namespace) for node in tree.body if isinstance(node, ast.FunctionDef)}


def _mismatch(value: Any, annotation: Any) -> Optional[str]:
    """Why `value` is not of the annotated type (on one line), or None."""
    try:
        check_type(value, annotation, collection_check_strategy=CollectionCheckStrategy.FIRST_ITEM)
    except TypeCheckError as e:
        return " ".join(str(e).split())
    return None


def _record(message: str) -> None:
    with _lock:
        _found.append(message)


def wrap(name: str, function: Callable[..., Any]) -> Callable[..., Any]:
    """`function` (the native `name`) checked against the stub at each call."""
    signature, written = stubbed()[name]

    @functools.wraps(function)
    def checked(*args: Any, **kwargs: Any) -> Any:
        result = function(*args, **kwargs)
        problems = []
        try:
            bound = signature.bind(*args, **kwargs)
        except TypeError as e:
            problems.append(f"the arguments do not fit the stub's parameters: {e}")
        else:
            for param, value in bound.arguments.items():
                why = _mismatch(value, signature.parameters[param].annotation)
                if why:
                    problems.append(f"argument {param!r}: {why}; the stub says {written[param]}")
        why = _mismatch(result, signature.return_annotation)
        if why:
            problems.append(f"return value: {why}; the stub says {written['return']}")
        if problems:
            caller = sys._getframe(1)
            where = f"{caller.f_code.co_filename}:{caller.f_lineno}"
            for problem in problems:
                _record(f"pmldesign._native.{name}() called at {where}: {problem}")
        return result

    checked.stub_checked = True  # type: ignore[attr-defined]
    return checked


def install() -> None:
    """Wraps every function of the stub in the native module, and wherever a module of
    the package bound one by name at import (``from ._native import f``)."""
    if _lookup not in checker_lookup_functions:
        checker_lookup_functions.insert(0, _lookup)
    wrapped = {}
    for name in stubbed():
        function = getattr(native, name)
        if not getattr(function, "stub_checked", False):
            setattr(native, name, wrap(name, function))
            wrapped[id(function)] = (function, getattr(native, name))
    for module_name, module in list(sys.modules.items()):
        if module_name.split(".")[0] != pmldesign.__name__ or module is native:
            continue
        for attribute, value in list(vars(module).items()):
            original, checked = wrapped.get(id(value), (None, None))
            if original is value:
                setattr(module, attribute, checked)


def take() -> List[str]:
    """The calls off the stub recorded since the last call, forgotten."""
    with _lock:
        found = list(_found)
        _found.clear()
    return found
