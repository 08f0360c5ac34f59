"""The torch mapping's window geometry: what torch.nn.functional can express exactly, and the reasons it gives
where it cannot (no torch needed)."""

from __future__ import annotations

import pytest

from conformance import ops
from conformance.backends.base import Unsupported
from conformance.backends.torch import builders
from conformance.backends.torch.geometry import Window, map_window, resolve_auto_pad, spec_outputs, torch_outputs


def window(k, s, p, rounding="floor", d=1):
    return Window([k], [s], [d], [p], [p], rounding)


@pytest.mark.parametrize(("size", "k", "s", "p"), [(5, 3, 3, 1), (2, 1, 2, 0), (6, 3, 2, 0), (7, 2, 3, 1)])
def test_torchs_ceil_is_the_spec_rule_that_drops_a_window_starting_in_the_right_padding(size, k, s, p):
    assert torch_outputs(size, k, s, 1, p, True) == spec_outputs(size, k, s, 1, p, p, "ceil_drop")
    assert torch_outputs(size, k, s, 1, p, False) == spec_outputs(size, k, s, 1, p, p, "floor")


def test_a_ceil_rule_that_keeps_the_window_is_refused_only_where_the_drop_fires():
    # L=5, k=3, s=3, pads 1/1: ceil keeps a third window starting in the right padding, torch drops it
    with pytest.raises(Unsupported, match="ceil rounding gives 3 windows, torch's ceil_mode=True 2"):
        map_window([5], window(3, 3, 1, "ceil"), average=False)
    assert map_window([5], window(3, 3, 1, "ceil_drop"), average=False).ceil_mode
    assert map_window([6], window(3, 2, 1, "ceil"), average=False).ceil_mode  # no window starts in padding


@pytest.mark.parametrize(("spatial", "win", "average", "match"), [
    ([6], Window([3], [1], [1], [0], [1]), True, "asymmetric pads 0/1"),
    ([6], window(3, 1, 0, d=2), True, "no dilation"),
    ([6], window(2, 1, 2), False, "exceeds half the kernel"),
    ([6], Window([3, 3], [1], [1], [0], [0]), False, "kernel has 2 values for 1 spatial axes"),
    ([2, 2, 2, 2], Window([1] * 4, [1] * 4, [1] * 4, [0] * 4, [0] * 4), False, "1 to 3 spatial axes"),
])
def test_what_torch_cannot_express_is_unsupported_with_the_reason(spatial, win, average, match):
    with pytest.raises(Unsupported, match=match):
        map_window(spatial, win, average)


def test_the_ceil_overhang_with_padding_counted_depends_on_the_specs_divisor():
    # L=4, k=3, s=2, ceil: the second window reaches past the input (no padding): torch divides by the part inside
    win = window(3, 2, 0, "ceil")
    assert map_window([4], win, average=True, divisor="clamped", count_pad=True).overhang
    with pytest.raises(Unsupported, match="full kernel"):
        map_window([4], win, average=True, divisor="full", count_pad=True)
    assert map_window([4], win, average=True, divisor="full", count_pad=False).ceil_mode


def test_same_pads_put_the_odd_element_where_the_spec_says():
    assert resolve_auto_pad([5], [4], [1], [1], "same_upper", [], []) == ([1], [2])
    assert resolve_auto_pad([5], [4], [1], [1], "same_lower", [], []) == ([2], [1])
    assert resolve_auto_pad([5], [4], [1], [1], "valid", [9], [9]) == ([0], [0])


def test_every_builder_is_a_registry_op_and_capabilities_come_from_the_registry():
    for domain, op in builders.BUILDERS:
        assert ops.find(domain, op) is not None, f"torch builder for {domain}::{op} has no registry entry"
    listed = builders.capabilities()
    for entry in ops.entries():
        line = f"{entry.op}-{'/'.join(map(str, entry.versions))}"
        assert (line in listed.get(entry.domain, [])) == (entry.key in builders.BUILDERS)


def test_same_pads_of_an_invalid_stride_are_zeros_for_torch_to_refuse():
    # no SAME pads exist for a zero stride: the geometry must not divide by it, torch's own check rejects the call
    assert resolve_auto_pad([5], [2], [0], [1], "same_lower", [], []) == ([0], [0])
    assert resolve_auto_pad([5], [2], [2], [1], "same_lower", [], []) == ([1], [0])


def test_every_schemas_auto_pad_spellings_name_a_padding_mode():
    """The torch mapping reads auto_pad from the schema of each op it builds (the windowed pools): every allowed
    spelling names one of the four modes, the default is explicit padding, a spelling another spec uses is not this
    one's. (Ops torch does not build may spell fewer: ExtractImagePatches' required auto_pad has no explicit.)"""
    from conformance import ops
    from conformance_reference.schema import auto_pad_mode

    found = 0
    for domain, op, version in ops.spec_versions():
        if (domain, op) not in builders.BUILDERS:
            continue
        attribute = ops.entry(domain, op).schema.attribute("auto_pad", version)
        if attribute is None:
            continue
        found += 1
        modes = [auto_pad_mode(attribute, value) for value in attribute.values]
        assert sorted(modes) == ["explicit", "same_lower", "same_upper", "valid"]
        assert auto_pad_mode(attribute, attribute.default) == "explicit"
        assert auto_pad_mode(attribute, "SAME") is None
    assert found
