"""Nesting depth of case files: a literal nested hundreds of levels deep costs its case only (issue 23 #6).

Two limits meet such a literal. Python's recursion (the loader's tree walk, the data checks, NumPy) fails a few
hundred levels down with a RecursionError that lost the whole file; libyaml's parser refuses 1,000 levels with a
syntax error that lost the whole file too. So the node tree is measured before anything is built, and a case deeper
than ``MAX_DEPTH`` is taken out of the document with an error at its line; a document libyaml refuses is parsed
again with the case holding the refused line blanked out (line numbers of the other cases stay the same).
"""

from __future__ import annotations

import re

import yaml

#: Far deeper than any case needs (a rank-8 tensor literal is 8 levels inside about 5 of case structure).
MAX_DEPTH = 64
#: What libyaml says when it refuses a document for its depth.
LIBYAML_DEPTH = "nesting depth"

Dropped = tuple[int, "str | None", str]  # (line, case id or None, message)


def node_depth(node: yaml.Node, limit: int = MAX_DEPTH) -> tuple[int, int]:
    """(depth, line of the first node deeper than ``limit`` or 0), without recursion; stops past the limit.

    A node shared through aliases is walked again only when reached deeper than before, so an alias bomb costs
    at most ``limit`` visits per node (``guards.check_expansion`` runs after this, on a tree known to be shallow).
    """
    stack = [(node, 1)]
    deepest = 0
    seen: dict[int, int] = {}
    while stack:
        item, level = stack.pop()
        if seen.get(id(item), 0) >= level:
            continue
        seen[id(item)] = level
        deepest = max(deepest, level)
        if level > limit:
            return deepest, item.start_mark.line + 1
        if isinstance(item, yaml.SequenceNode):
            stack.extend((child, level + 1) for child in item.value)
        elif isinstance(item, yaml.MappingNode):
            stack.extend((child, level + 1) for pair in item.value for child in pair)
    return deepest, 0


def _case_id(case: yaml.Node) -> str | None:
    if isinstance(case, yaml.MappingNode):
        for key, value in case.value:
            if isinstance(key, yaml.ScalarNode) and key.value == "id" and isinstance(value, yaml.ScalarNode):
                return str(value.value)
    return None


def prune_deep_cases(root: yaml.Node) -> list[Dropped]:
    """Take every case nested deeper than ``MAX_DEPTH`` out of the document's ``cases`` list; ValueError naming
    the line when something outside a case is that deep (the whole file is then unusable)."""
    _, line = node_depth(root)
    if not line:
        return []
    dropped: list[Dropped] = []
    cases = None
    if isinstance(root, yaml.MappingNode):
        cases = next((v for k, v in root.value if isinstance(k, yaml.ScalarNode) and k.value == "cases"
                      and isinstance(v, yaml.SequenceNode)), None)
    if cases is not None:
        kept = []
        for case in cases.value:
            _, deep = node_depth(case, MAX_DEPTH - 2)  # the case sits two levels down (mapping, cases list)
            if deep:
                dropped.append((case.start_mark.line + 1, _case_id(case),
                                f"nested deeper than {MAX_DEPTH} levels (at line {deep}): refused"))
            else:
                kept.append(case)
        cases.value = kept
    _, line = node_depth(root)
    if line:
        raise ValueError(f"nested deeper than {MAX_DEPTH} levels at line {line}: refused")
    return dropped


_ITEM = re.compile(r"^(\s*)- ")
_ID = re.compile(r"^\s*(?:- )?id:\s*['\"]?([A-Za-z0-9_.-]+)")


def _indent(text: str) -> int:
    return len(text) - len(text.lstrip())


def blank_case(text: str, line: int) -> tuple[str, Dropped] | None:
    """``text`` with the case holding ``line`` (1-based) replaced by blank lines, and what was dropped; None when
    ``line`` is not inside an item of a top-level ``cases:`` list (block style)."""
    lines = text.split("\n")
    top = next((i for i, t in enumerate(lines) if t.rstrip() == "cases:"), None)
    if top is None or not top < line - 1 < len(lines):
        return None
    first = next((i for i in range(top + 1, len(lines)) if _ITEM.match(lines[i])), None)
    if first is None:
        return None
    indent = _indent(lines[first])
    starts = [i for i in range(first, len(lines)) if _ITEM.match(lines[i]) and _indent(lines[i]) == indent]
    start = max((i for i in starts if i <= line - 1), default=None)
    if start is None:
        return None
    # the case ends where a line as little indented as its "- " begins (the next case, or the next top-level key)
    end = next((i for i in range(start + 1, len(lines)) if lines[i].strip()
                and not lines[i].lstrip().startswith("#") and _indent(lines[i]) <= indent), len(lines))
    case_id = next((m.group(1) for t in lines[start:end] if (m := _ID.match(t))), None)
    blanked = lines[:start] + [""] * (end - start) + lines[end:]
    if len(starts) == 1:
        blanked[top] = "cases: []"  # it was the only case: the list stays a list
    return "\n".join(blanked), (start + 1, case_id, f"nested deeper than the YAML parser allows (at line {line}): "
                                                    "refused")
