"""What a case instance should produce: the reference's outputs (our oracle), computed once per instance, and the
evidence its outputs are judged by (compare/evidence.py: each output's error model from the op registry, K, p, the
unspecified masks, the magnitude and the taps).

The magnitude (the same op applied to |x| in float64) feeds the error bound; the unspecified masks say where the
spec leaves the value undefined.
"""

from __future__ import annotations

from collections import OrderedDict
from dataclasses import dataclass, field

import numpy as np

import conformance_reference as reference
from conformance import model_oracle, ops
from conformance.compare.evidence import Evidence, OutputRule
from conformance.compare.models import model as error_model
from conformance.dtypes import floating, np_dtype
from conformance.model import CaseInstance
from conformance.suite import guards
from conformance.suite.expand import expected_of, inputs_of
from conformance.suite.tensors import Draws, materialize


@dataclass
class Oracle:
    instance: CaseInstance
    inputs: list[np.ndarray]
    outputs: list[np.ndarray] | None = None  # None when the reference rejects the case or does not know the op
    unspecified: list[np.ndarray | None] = field(default_factory=list)
    rejection: str = ""  # the reference's SpecViolation message
    unknown: str = ""  # the reference does not implement this op/version
    _magnitude: list[np.ndarray] | None = None
    _window: int | None = None  # every backend of the instance asks for it: computed once
    _taps: tuple | None = None
    _evidence: dict[int, Evidence] = field(default_factory=dict)
    _exact: list[np.ndarray] | None = None
    _descriptions: dict[str, object] = field(default_factory=dict)  # tie groups, readings: asked once
    _whole: model_oracle.WholeModel | None = None
    #: the windows its owner keeps by geometry (Oracles): the dtype expansions of a case share theirs
    _windows: OrderedDict[tuple, int] | None = None

    @property
    def literal(self) -> list[np.ndarray | None]:
        return expected_of(self.instance)

    def expected(self) -> list[np.ndarray] | None:
        """Reference outputs, else the case's literal outputs when the reference does not know the op."""
        if self.outputs is not None:
            return self.outputs
        literal = self.literal
        if self.unknown and literal and all(v is not None for v in literal):
            return literal  # type: ignore[return-value]
        return None

    def whole(self) -> model_oracle.WholeModel:
        """A whole-model case's output rules and evaluator outputs, asked of model_oracle.py once."""
        if self._whole is None:
            self._whole = model_oracle.whole_model(self.instance, self.inputs, self.expected() or [])
        return self._whole

    def magnitude(self) -> list[np.ndarray] | None:
        if self.instance.model is not None:
            if self._magnitude is None:
                self._magnitude = model_oracle.magnitude(self.instance, self.inputs, self.expected() or [],
                                                         self.whole().judged)
            return self._magnitude
        if self.outputs is None:
            return None
        if self._magnitude is None:
            inst = self.instance
            self._magnitude = reference.magnitude(inst.domain, inst.op, inst.version, self.inputs, inst.attributes)
        return self._magnitude

    def evidence(self, count: int) -> Evidence:
        """How the first ``count`` outputs are judged (the same object for every backend of the instance)."""
        found = self._evidence.get(count)
        if found is None:
            found = self._evidence[count] = self._make_evidence(count)
        return found

    def _make_evidence(self, count: int) -> Evidence:
        inst = self.instance
        if inst.model is None:  # an op of the registry; a whole model is judged by its op's family, below
            rules = self._registry_rules(count)
            return Evidence(dtype=inst.dtype, tolerance=inst.case.tolerance, outputs=rules,
                            inputs_finite=self.inputs_finite(), magnitude=self.magnitude, taps=self.taps,
                            domain=inst.domain, op=inst.op, version=inst.version, attributes=inst.attributes,
                            inputs=tuple(self.inputs), exact=self.exact, tie_groups=self.tie_groups,
                            readings=self.readings)
        # last: model_oracle.py names the outputs' dtypes, and nothing of this file is asked after it
        return Evidence(dtype=inst.dtype, tolerance=inst.case.tolerance,
                        outputs=self.whole().rules[:count],
                        inputs_finite=self.inputs_finite(), magnitude=self.magnitude, taps=lambda: None,
                        domain=inst.domain, op=inst.op, version=inst.version, attributes=inst.attributes,
                        inputs=tuple(self.inputs))

    def _registry_rules(self, count: int) -> tuple[OutputRule, ...]:
        """Each output's rule from the op's registry entry (averaging for an op it does not know: a literal-only
        case of an op without a reference)."""
        inst = self.instance
        entry = ops.find(inst.domain, inst.op)
        ports = [entry.error_model(i) if entry is not None else None for i in range(count)]
        models = [port.error_model if port is not None else "average" for port in ports]
        # an integer output of a value model with a bound (a MatMul of int8) has no rounding to bound: exact, as a
        # whole model's integer outputs are (model_oracle.py)
        kinds = [np_dtype(entry.output_dtype(i, inst.dtype, inst.attributes)).kind if entry is not None
                 else "f" for i in range(count)]
        models = [("exact" if kind in "iub" and port is not None and port.custom is None
                   and error_model(model).values and error_model(model).bound is not None else model)
                  for model, kind, port in zip(models, kinds, ports)]
        names = inst.output_names or [f"output{i}" for i in range(count)]
        masks = self.unspecified or [None] * count
        traits = [error_model(name) for name in models]
        return tuple(OutputRule(
            name=names[i], label=port.name if port is not None else "output", error_model=model,
            window=self.window() if traits[i].window else 1, p=_exponent(inst, entry, traits[i].exponent),
            of_values=port.of_values if port is not None else 0, unspecified=masks[i] if i < len(masks) else None,
            custom=port.custom if port is not None else None, roundings=port.roundings if port is not None else 0,
            ulps=port.ulps if port is not None else 0.0,
        ) for i, (port, model) in enumerate(zip(ports, models)))

    def exact(self) -> list[np.ndarray]:
        """The reference on the inputs with integers as Python ints: every output exact (Fractions for a mean;
        an empty window's left unspecified by the reference), for an error model that needs the exact value."""
        if self._exact is None:
            inst = self.instance
            exact = [x.astype(object) if x.dtype.kind in "iu" else x for x in self.inputs]
            self._exact = list(reference.evaluate(inst.domain, inst.op, inst.version, exact,
                                                  dict(inst.attributes or {})).outputs)
        return self._exact

    def tie_groups(self) -> object | None:
        """For an op whose output moves with the choice among equal maxima (a max pool's gradient), the groups of
        elements that choice moves values between and the total each keeps (the reference's description); None
        when the reference describes none for the op."""
        return self._described("tie_groups")

    def readings(self) -> dict[str, list[np.ndarray]] | None:
        """For an op whose text defines its value in several ways (Gelu-2's erf form or its tanh approximation),
        every reading's outputs by name; None when the reference gives the op one reading."""
        found = self._described("readings")
        return {name: result.outputs for name, result in found.items()} if found else None

    def _described(self, member: str) -> object | None:
        """The reference's optional description ``member`` of this instance (contract.py), computed once; None
        when the op's module does not offer it."""
        if member not in self._descriptions:
            inst = self.instance
            try:
                self._descriptions[member] = getattr(reference, member)(
                    inst.domain, inst.op, inst.version, list(self.inputs), dict(inst.attributes or {}))
            except reference.UnknownOp:
                self._descriptions[member] = None
        return self._descriptions[member]

    def taps(self) -> tuple[np.ndarray, np.ndarray] | None:
        """Per output element, the tap indices of its window (the op's index convention, -1 for padding) and the
        values there; None when the reference has no window description for the op (index outputs only)."""
        if self._taps is None:
            self._taps = (self._window_taps(),)
        return self._taps[0]

    def _window_taps(self) -> tuple[np.ndarray, np.ndarray] | None:
        inst = self.instance
        try:
            given = {i: x for i, x in enumerate(self.inputs) if i and x.dtype.kind in "iu"}
            indices, positions = reference.window_taps(inst.domain, inst.op, inst.version, self.inputs[0].shape,
                                                       inst.attributes, given)
        except (LookupError, ValueError):
            return None
        flat = self.inputs[0].reshape(-1)
        values = np.where(positions >= 0, flat[np.clip(positions, 0, None)], np.zeros((), flat.dtype))
        return indices, values

    def inputs_finite(self) -> bool:
        return all(not floating(x.dtype) or bool(np.isfinite(x).all()) for x in self.inputs)

    def window(self) -> int:
        if self._window is None:
            if self._windows is None:
                self._window = _window_elements(self.instance, self.inputs)
                return self._window
            inst = self.instance
            values = tuple((i, x.dtype.str, x.tobytes()) for i, x in enumerate(self.inputs) if x.dtype.kind in "iu")
            # the dtype expansions of a case share their geometry: one window computation serves them all
            key = (inst.domain, inst.op, inst.version, tuple(x.shape for x in self.inputs),
                   repr(sorted(inst.attributes.items())), values)
            self._window = self._windows.get(key)
            if self._window is None:
                self._window = self._windows[key] = _window_elements(inst, self.inputs)
                while len(self._windows) > _WINDOW_CACHE_SIZE:
                    self._windows.popitem(last=False)
        return self._window


def _exponent(inst: CaseInstance, entry: ops.OpEntry | None, attribute: str | None) -> float:
    """The exponent of an output's bound (a p-norm's p): the instance's value of the attribute the error model
    names, else the schema's default (1 where there is none, or the model names no attribute)."""
    if attribute is None:
        return 1.0
    value = inst.attributes.get(attribute)
    if value is None and entry is not None:
        value = next((a.default for a in entry.attributes if a.name == attribute), None)
    try:
        return float(value) if value is not None else 1.0
    except (TypeError, ValueError):
        return 1.0


_WINDOW_CACHE_SIZE = 256


def _window_elements(inst: CaseInstance, inputs: list[np.ndarray]) -> int:
    values = {i: x for i, x in enumerate(inputs) if x.dtype.kind in "iu"}
    try:
        return reference.window_elements(inst.domain, inst.op, inst.version, [x.shape for x in inputs],
                                         inst.attributes, values)
    except (LookupError, ValueError):
        return 1


class Oracles:
    """The oracles of a run and what they share (the windows by geometry, the random draws): an oracle is computed
    once per instance and asked by every column of it. Owned by whoever runs cases, for as long as it does: the
    plugin, one per process (plugin/item.py ``oracles``); ``conformance fuzz``, one per fuzz run. An oracle is a
    function of its instance: what is kept saves time and changes no record."""

    #: a batch (plugin/batching.py) computes the oracles of its items before they run, and the other columns of
    #: those instances run in between: room for a few batches' worth, of the largest batch asked room for (reserve)
    BATCHES_KEPT = 5

    def __init__(self) -> None:
        self.size = self.BATCHES_KEPT * 32
        self._kept: OrderedDict[str, Oracle] = OrderedDict()
        self.windows: OrderedDict[tuple, int] = OrderedDict()
        self.draws = Draws()

    def reserve(self, batch: int) -> None:
        """Keep room for the oracles of a few batches of ``batch`` instances (the batcher's size for a backend: 96
        for OpenVINO): an oracle computed for a batch is still here when its item runs, instead of computed again."""
        self.size = max(self.size, self.BATCHES_KEPT * batch)

    def get(self, instance: CaseInstance) -> Oracle:
        kept = self._kept.get(instance.id)
        if kept is not None and kept.instance is instance:
            self._kept.move_to_end(instance.id)
            return kept
        oracle = _evaluated(instance, self)
        self._kept[instance.id] = oracle
        while len(self._kept) > self.size:
            self._kept.popitem(last=False)
        return oracle


def oracle_for(instance: CaseInstance, oracles: Oracles | None = None) -> Oracle:
    """The oracle of ``instance``: ``oracles``' (kept there), else computed for this call alone."""
    return (oracles or Oracles()).get(instance)


def _evaluated(instance: CaseInstance, owner: Oracles) -> Oracle:
    oracle = Oracle(instance, inputs_of(instance, owner.draws), _windows=owner.windows)
    if instance.model is not None:  # a whole model (an onnx backend test): its stored outputs are the oracle
        oracle.unknown = "a whole-model case: the onnx backend test's stored outputs are its oracle"
        return oracle
    try:
        result = reference.evaluate(
            instance.domain, instance.op, instance.version, oracle.inputs, instance.attributes
        )
        # the reference computes every output of the op; the instance may ask for the leading ones only
        count = len(instance.outputs) or len(result.outputs)
        if count > len(result.outputs):
            raise reference.SpecViolation(f"{instance.op}-{instance.version} has {len(result.outputs)} output(s); "
                                          f"the case asks for {count} ({', '.join(instance.output_names)})")
        oracle.outputs, oracle.unspecified = list(result.outputs[:count]), list(result.unspecified[:count])
    except reference.UnknownOp as exc:
        oracle.unknown = str(exc)
    except reference.SpecViolation as exc:
        oracle.rejection = str(exc)
    return oracle


@dataclass(frozen=True)
class Prediction:
    """What an instance should produce, in one value made before any backend runs: the runner asks the oracle for
    it once, every column is judged against it (verdict.judge), and nobody asks the oracle again."""

    inputs: list[np.ndarray]  # the instance's inputs (a backend gets copies)
    expected: list[np.ndarray] | None  # Oracle.expected(): the reference's outputs, else the case's literal ones
    reference: list[np.ndarray] | None  # the reference's own outputs; None when it rejects the case or lacks the op
    unspecified: list[np.ndarray | None]  # per reference output, where the spec leaves the value undefined
    literal: list[np.ndarray | None]  # the case's own expected outputs (None where it gives none)
    evidence: Evidence | None  # how the expected outputs are judged; None when there are none
    rejection: str  # the reference's SpecViolation message
    unknown: str  # the reference does not implement this op/version
    missing: str  # why a positive case cannot be judged (no reference outputs, no literal ones); "" when it can
    # a spec example's output shapes by the reference's shape inference (its claims are held against them), or
    # what that inference raised: the reference column's record says so, no other column's
    example_shapes: list[tuple[int, ...]] | None = None
    example_error: Exception | None = None
    # a whole-model case: the model's outputs by onnx's evaluator (the reference column holds the stored ones
    # against them), or why the evaluator could not run it
    evaluated: list[np.ndarray] | None = None
    evaluation_error: str = ""


def predict(instance: CaseInstance, oracles: Oracles | None = None) -> Prediction:
    """The oracle's whole answer for ``instance`` (computed once per instance by ``oracles``, see ``Oracles``)."""
    oracle = oracle_for(instance, oracles)
    expected = oracle.expected()
    missing = "" if instance.expect_error or expected is not None else (
        oracle.rejection and f"the reference rejects this case: {oracle.rejection}"
        or f"no oracle: {oracle.unknown} and the case gives no literal outputs")
    shapes, error = None, None
    if instance.case.spec_example is not None and oracle.outputs is not None:
        # the values of every input but float data: a shape can depend on a float one (Interpolate's scales), and on
        # string data (StringTensorUnpack's byte count)
        values = {i: x for i, x in enumerate(oracle.inputs) if x.dtype.kind in "iubO" or i > 0}
        try:
            shapes = output_shapes(instance, [x.shape for x in oracle.inputs], values)
        except Exception as exc:  # the reference column's record names it as it did when it asked itself
            error = exc
    # the evidence before the whole model's evaluation: a whole model's rules and evaluation come in one answer
    # of model_oracle.py, computed by the evidence and kept
    evidence = oracle.evidence(len(expected)) if expected is not None else None
    whole = oracle.whole() if instance.model is not None else None
    evaluated, evaluation_error = (whole.evaluated, whole.evaluation_error) if whole is not None else (None, "")
    return Prediction(inputs=oracle.inputs, expected=expected, reference=oracle.outputs,
                      evaluated=evaluated, evaluation_error=evaluation_error,
                      unspecified=oracle.unspecified, literal=oracle.literal, evidence=evidence,
                      rejection=oracle.rejection, unknown=oracle.unknown, missing=missing,
                      example_shapes=shapes, example_error=error)


def output_shapes(instance: CaseInstance, shapes: list[tuple[int, ...]],
                  values: dict[int, np.ndarray]) -> list[tuple[int, ...]]:
    """The output shapes the op's semantics give ``instance`` on inputs of ``shapes`` (the integer inputs' values
    in ``values``): the reference's shape inference, asked through here by whatever builds a model or checks a
    claim (backends/models/shapes.py, openvino/ir.py, reference_column.py). Raises what the reference raises (an
    ``UnknownOp``, a ``SpecViolation``)."""
    return reference.output_shapes(instance.domain, instance.op, instance.version, shapes, instance.attributes,
                                   values)


# The window geometry the specs share, for a backend that maps a case onto its runtime's own window arguments
# (backends/torch/geometry.py): the same formulas as the oracle's, so both pad and count windows alike.
def same_pads(size: int, extent: int, stride: int, upper: bool) -> tuple[int, int, int]:
    """SAME_UPPER (``upper``) / SAME_LOWER padding of one axis: (pad_begin, pad_end, output count) for a window
    spanning ``extent`` input elements, dilation included."""
    return reference.same_pads(size, extent, stride, upper)


def axis_output_count(size: int, extent: int, stride: int, pad_begin: int, pad_end: int, rounding: str) -> int:
    """The spec's output count on one axis of a valid geometry; ``rounding`` floor, ceil (every window kept) or
    ceil_drop (a last window starting in the right padding dropped: ONNX 22, torch)."""
    return reference.axis_output_count(size, extent, stride, pad_begin, pad_end, rounding)


def check_reference_accepts(instance: CaseInstance, limit: int | None = None) -> None:
    """A positive case instance whose attributes or shapes the reference rejects (shape inference alone, about
    20 µs) is a wrong case, not a backend failure: without this check every backend's record said "error" for it.
    A case that means the rejection says ``expect: error``. Ops the reference does not know are left to run time.
    The sizes the instance derives from its attributes (its outputs, its input padded by ``pads``) are held to the
    per-tensor ``limit`` too (guards.check_derived), a negative case's padded input included. Collection asks it of
    every instance (plugin/tree.py); it is here, with the oracle, so that the harness asks the reference in one
    place."""
    # integer inputs are parameters of the geometry (AdaptiveAvgPool's output size): their values are needed
    values = {i: materialize(spec, instance.dtype) for i, spec in enumerate(instance.inputs)
              if np_dtype(spec.dtype or instance.dtype).kind in "iu"}
    shapes = [values[i].shape if spec.shape is None and i in values else spec.shape
              for i, spec in enumerate(instance.inputs)]
    if any(shape is None for shape in shapes):
        return  # a float input given by data alone: its shape is known once materialized, at run time
    where = f"{instance.id}: "
    try:
        guards.check_derived(shapes, None, instance.attributes, limit)
    except ValueError as exc:
        raise ValueError(where + str(exc)) from None
    if instance.expect_error:
        return
    try:
        outputs = reference.output_shapes(instance.domain, instance.op, instance.version, shapes,
                                          instance.attributes, values)
    except reference.SpecViolation as exc:
        raise ValueError(f"the reference rejects this positive case ({instance.id}): {exc} — a case that tests the "
                         "rejection says expect: error") from None
    except (reference.UnknownOp, LookupError, TypeError, ValueError):
        return  # not the reference's rejection: run time reports whatever it is
    try:
        guards.check_derived(shapes, list(outputs), instance.attributes, limit)
    except ValueError as exc:
        raise ValueError(where + str(exc)) from None
