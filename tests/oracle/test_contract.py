"""The op contract (reference/contract.py): every shipped module implements it, and a module that breaks it is
refused at discovery naming the member."""

from __future__ import annotations

import types

import numpy as np
import pytest

import conformance_reference as reference
from conformance_reference import contract
from conformance_reference._errors import UnknownOp
from conformance_reference.schema import Port, Schema


def _module(**members) -> types.ModuleType:
    module = types.ModuleType("conformance_reference.demo_op")
    schema = Schema("demo", "Demo", (1, 3), inputs=(Port("X"),), outputs=(Port("Y"),), types=((0, ("float32",)),))

    def output_shapes(since, input_shapes, attributes, input_values=None):
        return [input_shapes[0]]

    def evaluate(since, inputs, attributes):
        return [inputs[0] * 2], [None]

    base = {"SCHEMA": schema, "VERSIONS": schema.versions, "output_shapes": output_shapes, "evaluate": evaluate}
    for name, value in {**base, **members}.items():
        if value is None:
            continue
        if callable(value) and not isinstance(value, type):
            value.__module__ = module.__name__
        setattr(module, name, value)
    return module


def test_every_shipped_module_is_bound_to_the_contract():
    names = reference.op_modules()
    assert names, "no reference module found"
    for (domain, op), name in names.items():
        bound = reference._family(domain, op)
        assert isinstance(bound, contract.Op) and bound.module == name
        for member in contract.MEMBERS:
            assert callable(getattr(bound, member)), f"{name}: {member}"


def test_defaults_fill_every_optional_member():
    op = contract.bind(_module())
    assert op.offers == frozenset()
    assert op.window_elements(1, [(2, 3)], {}) == 1
    x = np.array([-1.5, 2.0], dtype=np.float32)
    # the default magnitude is the op on |x| in float64: 2|x|, not |2x| of the float32 result
    (mag,) = op.magnitude(1, [x], {})
    assert mag.dtype == np.float64 and mag.tolist() == [3.0, 4.0]
    for member in ("readings", "window_indices", "window_taps", "tie_groups"):
        with pytest.raises(UnknownOp):
            getattr(op, member)(1, [x], {})


def test_window_taps_without_input_values_is_called_the_one_way():
    seen = []

    def window_taps(since, shape, attributes):
        seen.append((since, shape))
        return np.zeros(1), np.zeros(1)

    op = contract.bind(_module(window_taps=window_taps))
    op.window_taps(3, (1, 1, 4), {}, None)
    assert seen == [(3, (1, 1, 4))] and op.offers == {"window_taps"}


@pytest.mark.parametrize(("members", "message"), [
    ({"evaluate": None}, "the required member evaluate() is missing"),
    ({"output_shapes": None}, "the required member output_shapes() is missing"),
    ({"window_elements": 3}, "window_elements must be a function"),
    ({"evaluate": lambda since, inputs: None}, "evaluate() must take 3 positional arguments (it takes 2)"),
    ({"window_element": lambda since, shapes, attributes: 1}, "window_element is not a member of the op "
                                                                "contract: did you mean window_elements?"),
    ({"VERSIONS": (1,)}, "VERSIONS (1,) differs from SCHEMA.versions (1, 3)"),
    ({"SCHEMA": {"op": "Demo"}}, "SCHEMA must be a reference.schema.Schema"),
])
def test_a_module_that_breaks_the_contract_is_refused_naming_the_member(members, message):
    with pytest.raises(contract.ContractError) as refused:
        contract.bind(_module(**members))
    assert str(refused.value).startswith("reference/demo_op.py: ")
    assert message in str(refused.value)


def test_an_imported_helper_is_no_misspelt_member():
    from conformance_reference._windows import max_window_elements

    module = _module()
    module.max_window_elements = max_window_elements  # imported, not the module's own: not a typo of a member
    assert contract.bind(module).offers == frozenset()
