"""Parse a YAML document safely, with the line of every mapping (case files and expectations files).

The safe constructor only (no Python tags), libyaml's parser when PyYAML has it, expansion and depth limits
(suite/guards.py, suite/depth.py), and the scalars every corpus repeats memoized: tag resolution and construction
were most of collection time. A document parsed before is read back from the user cache (yaml_cache.py), whose key
includes this file's code.
"""

from __future__ import annotations

from typing import Any

import yaml

from conformance.suite import depth, guards
from conformance.suite.casefile import CaseFileError

# libyaml's parser when PyYAML has it: parsing is most of collection time for big case files (same safe
# constructor either way: no Python tags)
_SafeBase = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


class _LineLoader(_SafeBase):
    """SafeLoader that remembers the line of every mapping it builds (by object id)."""

    def __init__(self, stream: str):
        super().__init__(stream)
        self.lines: dict[int, int] = {}
        self.dropped: list[depth.Dropped] = []

    def construct_mapping(self, node: yaml.MappingNode, deep: bool = False) -> dict:
        mapping = super().construct_mapping(node, deep=True)
        self.lines[id(mapping)] = node.start_mark.line + 1
        return mapping


    # Scalars repeat a lot across a corpus (keys, small ints, dtype names); their tag resolution (regexes) and
    # construction are pure functions of (value, implicit) and (tag, value) for a SafeLoader without path
    # resolvers, and were most of collection time. Memoized per process; only immutable results are shared.
    def resolve(self, kind, value, implicit):
        if kind is not yaml.ScalarNode:
            return super().resolve(kind, value, implicit)
        key = (value, implicit)
        tag = _TAGS.get(key)
        if tag is None:
            tag = super().resolve(kind, value, implicit)
            _remember(_TAGS, key, tag)
        return tag

    def construct_object(self, node: yaml.Node, deep: bool = False) -> Any:
        if node.__class__ is not yaml.ScalarNode:
            return super().construct_object(node, deep)
        key = (node.tag, node.value)
        value = _SCALARS.get(key, _MISSING)
        if value is _MISSING:
            value = super().construct_object(node, deep)
            if type(value) in _IMMUTABLE:
                _remember(_SCALARS, key, value)
        return value


    def fast_data(self) -> Any:
        """``get_single_data()`` with one Python pass over the node tree instead of PyYAML's generic constructor.

        Plain sequences, mappings and aliases are built here; scalars go through the (memoized) SafeConstructor;
        anything else (merge keys, !!set/!!omap/!!pairs, recursive aliases, unhashable keys) falls back to the
        generic constructor, so the result (and any error) is the same as before.
        """
        node = self.get_single_node()
        if node is None:
            return None
        # before any recursive walk: a case nested hundreds deep is taken out, an error of its own
        self.dropped = depth.prune_deep_cases(node)
        guards.check_expansion(node)  # before anything is built: an alias bomb never reaches memory
        try:
            return self._build(node, {}, set())
        except _Fallback:
            self.lines.clear()
            return self.construct_document(node)

    def _build(self, node: yaml.Node, done: dict[int, Any], building: set[int]) -> Any:
        cls = node.__class__
        if cls is yaml.ScalarNode:
            return self._scalar(node)
        ident = id(node)
        if ident in done:
            if ident in building:
                raise _Fallback  # a recursive alias: PyYAML's own error
            return done[ident]
        building.add(ident)
        scalar, build = yaml.ScalarNode, self._build
        if cls is yaml.SequenceNode and node.tag == _SEQ:
            out: Any = []
            done[ident] = out
            # scalars inline (most nodes are scalars): one Python call fewer per element
            out.extend(self._scalar(c) if c.__class__ is scalar else build(c, done, building) for c in node.value)
        elif cls is yaml.MappingNode and node.tag == _MAP:
            out = {}
            done[ident] = out
            for key_node, value in node.value:
                if key_node.tag in _SPECIAL_KEYS or key_node.__class__ is not scalar:
                    raise _Fallback
                out[self._scalar(key_node)] = (
                    self._scalar(value) if value.__class__ is scalar else build(value, done, building)
                )
            self.lines[id(out)] = node.start_mark.line + 1
        else:
            raise _Fallback
        building.discard(ident)
        return out


    def _scalar(self, node: yaml.ScalarNode) -> Any:
        value = _SCALARS.get((node.tag, node.value), _MISSING)
        return self.construct_object(node) if value is _MISSING else value


class _Fallback(Exception):
    pass


_SEQ, _MAP = "tag:yaml.org,2002:seq", "tag:yaml.org,2002:map"
_SPECIAL_KEYS = {"tag:yaml.org,2002:merge", "tag:yaml.org,2002:value"}
_TAGS: dict[tuple, str] = {}
_SCALARS: dict[tuple, Any] = {}
_MISSING = object()
_IMMUTABLE = (int, float, str, bool, type(None))
_MEMO_LIMIT = 200_000


def _remember(memo: dict, key: tuple, value: Any) -> None:
    if len(memo) >= _MEMO_LIMIT:  # a pathological corpus of unique scalars must not grow memory without bound
        memo.clear()
    memo[key] = value


_LineLoader.add_constructor(yaml.resolver.BaseResolver.DEFAULT_MAPPING_TAG, _LineLoader.construct_mapping)


def parse_yaml(text: str, file: str, dropped: list[depth.Dropped] | None = None) -> tuple[Any, dict[int, int]]:
    """The document and the line of each mapping; with a ``dropped`` list (case files), cases nested too deeply
    are left out and listed there instead of failing the whole file. A document parsed before is read back from
    the user cache (yaml_cache.py): the same objects, at a fiftieth of the cost."""
    from conformance.suite import yaml_cache

    return yaml_cache.parsed(text, file, dropped, _parse)


def _parse(text: str, file: str, dropped: list[depth.Dropped] | None) -> tuple[Any, dict[int, int]]:
    loader = _LineLoader(text)
    try:
        data = loader.fast_data()
        if dropped is not None:
            dropped += loader.dropped
        elif loader.dropped:
            line, _, message = loader.dropped[0]
            raise CaseFileError(file, line, None, message)
        return data, loader.lines
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None) or getattr(exc, "context_mark", None)
        line = mark.line + 1 if mark is not None else 0
        problem = getattr(exc, "problem", None) or str(exc)
        retry = depth.blank_case(text, line) if dropped is not None and depth.LIBYAML_DEPTH in problem else None
        if retry is not None:  # libyaml refused one case's depth: the file's other cases still load
            dropped.append(retry[1])
            return _parse(retry[0], file, dropped)
        raise CaseFileError(file, line, None, f"YAML syntax error: {problem}") from None
    except ValueError as exc:  # a guard
        raise CaseFileError(file, 1, None, str(exc)) from None
    finally:
        loader.dispose()
