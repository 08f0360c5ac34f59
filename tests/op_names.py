"""Registered op names in Python code (string constants outside docstrings, identifiers), for the tests that keep
the harness core and the backends' shared files free of operator names (ops are data).

A name counts where it stands as a word: ``Exp`` in ``"Exp"`` or ``ExpNode``... never inside another word
(``expect_error``, ``TimeoutExpired``, ``export``); the snake-case spelling of a name of several words
(``avg_pool``) likewise (``add``, ``log`` are ordinary words)."""

from __future__ import annotations

import ast
import re
from collections.abc import Iterable
from pathlib import Path

#: ops whose names are also the words every model is made of (OpenVINO's Parameter-1, Constant-1, Result-1): the
#: harness's model assembly (the IR writer's Parameter and Result layers, ``ast.Constant``, ``ResultRecord``) uses
#: them for every op, so they name no operator in the core and are not looked for
GRAPH_WORDS = frozenset({"Parameter", "Constant", "Result"})


def pattern(names: Iterable[str], snake_case: bool = True) -> re.Pattern:
    """Every name as the specs spell it (not inside a longer word: no letter before, no lower-case letter after)
    and, with ``snake_case``, as a runtime's Python API does (``avg_pool``: no letter or digit on either side)."""
    names = set(names) - GRAPH_WORDS
    camel = [rf"(?<![A-Za-z]){re.escape(n)}(?![a-z])" for n in sorted(names, key=len, reverse=True)]
    # a one-word name's snake case (add, log, sign) is an ordinary word: only the names of several words count
    snake = {re.sub(r"(?<!^)(?<![A-Z])(?=[A-Z])", "_", n).lower() for n in names} if snake_case else set()
    snake = {s for s in snake if "_" in s}
    snake_parts = [rf"(?<![A-Za-z0-9]){re.escape(s)}(?![A-Za-z0-9])" for s in sorted(snake, key=len, reverse=True)]
    return re.compile("|".join(camel + snake_parts))


def _docstrings(tree: ast.AST) -> set[int]:
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef) and node.body:
            first = node.body[0]
            if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant):
                found.add(id(first.value))
    return found


def in_code(path: Path, names: re.Pattern) -> set[str]:
    """The op names ``names`` finds in ``path``'s string constants (not docstrings, not help texts giving an
    "e.g."), names, attributes, and function and class names."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    docs = _docstrings(tree)
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in docs:
            if names.search(node.value) and "e.g." not in node.value:
                found.add(node.value[:40])
        elif isinstance(node, ast.Name) and names.search(node.id):
            found.add(node.id)
        elif isinstance(node, ast.Attribute) and names.search(node.attr):
            found.add(node.attr)
        elif isinstance(node, ast.FunctionDef | ast.ClassDef) and names.search(node.name):
            found.add(node.name)
    return found
