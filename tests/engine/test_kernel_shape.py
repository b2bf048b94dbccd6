"""How kernels call each other, checked on the source (issue #29 point 5: the compile time).

numba compiles a kernel once for every distinct type of its arguments, and a constant
passed at a call site is typed as its literal value: ``log_event(st, events, E_MELD, ...)``
and ``log_event(st, events, E_LAYOFF, ...)`` were two compiles of ``log_event``, and
``seat_arrangement(..., True)`` and ``(..., False)`` two compiles of the meld search under
it. Measured on 2026-12-05, 227 of 1,498 compiles (60 s of a 229 s cold compile) were such
copies. A constant passed to a kernel is therefore wrapped, ``np.int64(E_MELD)`` or
``np.bool_(True)``: the value still folds in LLVM, but the kernel compiles once per spec.
"""

from __future__ import annotations

import ast
from pathlib import Path

import sim.engine

ENGINE = Path(sim.engine.__file__).parent
DECORATORS = {"kernel", "allocating"}


def _trees() -> dict[Path, ast.Module]:
    return {path: ast.parse(path.read_text()) for path in sorted(ENGINE.glob("*.py"))}


def _kernel_names(trees: dict[Path, ast.Module]) -> set[str]:
    names = set()
    for tree in trees.values():
        for node in tree.body:
            if isinstance(node, ast.FunctionDef) and any(
                isinstance(d, ast.Name) and d.id in DECORATORS for d in node.decorator_list
            ):
                names.add(node.name)
    return names


def _literal(arg: ast.expr) -> bool:
    """A constant as numba would type it: a literal, its negation, or a module constant."""
    if isinstance(arg, ast.Constant):
        return True
    if isinstance(arg, ast.UnaryOp) and isinstance(arg.operand, ast.Constant):
        return True
    return isinstance(arg, ast.Name) and arg.id.isupper()


def _literal_names(function: ast.FunctionDef) -> set[str]:
    """Names the function sets to a constant somewhere (``count = 0``): numba types such a
    variable as the literal first, so a kernel it is passed to compiles twice."""
    names = set()
    for node in ast.walk(function):
        if isinstance(node, ast.Assign) and _literal(node.value):
            names |= {t.id for t in node.targets if isinstance(t, ast.Name)}
    return names


def literal_arguments() -> list[str]:
    """Every call from engine code to a kernel that passes a constant as it is, or a
    variable set to one."""
    trees = _trees()
    kernels = _kernel_names(trees)
    found = []
    for path, tree in trees.items():
        for function in ast.walk(tree):
            if not isinstance(function, ast.FunctionDef):
                continue
            constants = _literal_names(function)
            for node in ast.walk(function):
                if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Name)):
                    continue
                if node.func.id not in kernels:
                    continue
                for arg in node.args:
                    if _literal(arg) or (isinstance(arg, ast.Name) and arg.id in constants):
                        where = f"{path.name}:{node.lineno}"
                        found.append(f"{where} {node.func.id}(.. {ast.unparse(arg)} ..)")
    return sorted(set(found))


def test_the_finder_sees_kernels_and_constants():
    trees = _trees()
    kernels = _kernel_names(trees)
    assert {"play_games", "play_turns", "log_event", "best_arrangement"} <= kernels
    call = ast.parse("log_event(st, events, E_MELD, seat, -1, np.int64(0))").body[0].value
    assert [_literal(a) for a in call.args] == [False, False, True, False, True, False]
    function = ast.parse("def f():\n    count = 0\n    n = np.int64(0)\n    m = count\n").body[0]
    assert _literal_names(function) == {"count"}


def test_no_kernel_is_passed_a_bare_constant():
    found = literal_arguments()
    assert not found, "wrap these in np.int64(...) or np.bool_(...):\n" + "\n".join(found)
