"""OpenVINO builders of the sequence-processing family: ScaledDotProductAttention-13 (every input a Parameter), the CTC
ops (the integer inputs Constants), and the recurrent cells and sequences (RNNCell-3, GRUCell-3, LSTMCell-1,
RNNSequence-5, GRUSequence-5, LSTMSequence-5): X and the states Parameters, the weights W, R, B and sequence_lengths
Constants (a model's weights are constants, and the plugin's recurrent nodes read them so). LSTMSequence-1 has no
factory (the Python API creates LSTMSequence at opset5 only; NodeFactory("opset1") refuses it): both columns are
unsupported. LSTMSequence-5's page is linked first from opset7's listing (opset5's and opset6's link
LSTMSequence-1's page), whose node the runtime versions opset5: the openvino column is unsupported, the IR column
writes the layer at opset7.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from conformance import ops
from conformance.backends.base import Unsupported
from conformance.backends.openvino.families._inputs import GivenInputs, schema_dtypes
from conformance.backends.openvino.opset import OpsetBuilder
from conformance.model import CaseInstance


def _list(value: Any, kind: type) -> list[Any]:
    if isinstance(value, str):
        return [kind(v.strip()) for v in value.split(",") if v.strip()]
    if isinstance(value, int | float):
        return [kind(value)]
    return [kind(v) for v in value]


def _keywords(case: CaseInstance) -> dict[str, Any]:
    """The case's attributes as the factories take them (clip: 0 is the API's 'no clipping', the text's infinity)."""
    schema = ops.entry(case.domain, case.op).schema
    unknown = sorted(set(case.attributes) - schema.attribute_names(case.version))
    if unknown:
        raise Unsupported(f"the opset API has no {case.op}-{case.version} attribute(s) {unknown}")
    a = case.attributes
    if "hidden_size" not in a:
        raise Unsupported(f"the opset API's {case.op} factory requires hidden_size: a node without it cannot be built")
    found: dict[str, Any] = {"hidden_size": int(a["hidden_size"][0] if isinstance(a["hidden_size"], list)
                                                else a["hidden_size"])}
    for name, kind in (("activations", str), ("activations_alpha", float), ("activations_beta", float)):
        if name in a:
            found[name] = _list(a[name], kind)
    if "clip" in a:
        found["clip"] = float(a["clip"])
    if "direction" in a:
        found["direction"] = str(a["direction"])
    if "linear_before_reset" in a:
        value = a["linear_before_reset"]
        value = value[0] if isinstance(value, list) else value
        found["linear_before_reset"] = value in (True, 1) or str(value).lower() in ("true", "1")
    return found


def _cell(op: str, factory: str, version: int, weights: int) -> OpsetBuilder:
    """X and the states Parameters, W, R (and B) Constants; a missing B (optional on GRUCell and LSTMCell) is built
    as the zeros the text assumes (the factories take B)."""

    def build(opset: Any, inputs: list[Any], case: CaseInstance) -> Any:
        keywords = _keywords(case)
        if op == "RNNCell":
            # the opset listing pages put RNNCell-3 in opset3 first; the runtime builds RNNCell v0 (version_id opset1)
            raise Unsupported("the opset listing pages put RNNCell-3 in opset3; the runtime's RNNCell node says opset1 "
                              "(RNNCell v0): no node of this version can be built (the IR reader's neither)")
        if len(inputs) == weights + 2:
            w = inputs[weights]
            rows = int(w.get_output_partial_shape(0)[0].get_length())
            rows += keywords["hidden_size"] if keywords.get("linear_before_reset") else 0
            dtype = w.get_output_element_type(0).to_dtype()
            inputs = [*inputs, opset.constant(np.zeros(rows, dtype=dtype))]
        return getattr(opset, factory)(*inputs, **keywords)

    return GivenInputs(opsets={version: f"openvino.opset{version}"}, build=build, dtypes_at=schema_dtypes(op),
                       dtype_note="takes floating-point data", constant_ports=(weights, weights + 1, weights + 2))


def _sequence(op: str, factory: str, lengths: int, opset: int = 5) -> OpsetBuilder:
    """X and the states Parameters, sequence_lengths, W, R, B Constants; built from ``opset``, the first whose listing
    page links the op's -5 page."""

    def build(module: Any, inputs: list[Any], case: CaseInstance) -> Any:
        keywords = _keywords(case)
        if "direction" not in keywords:
            raise Unsupported(f"the opset API's {factory} requires direction: a node without it cannot be built")
        node = getattr(module, factory)(*inputs, **keywords)
        if node.get_type_info().version_id != f"opset{opset}":  # the IR path writes version="opset7", which reads
            raise Unsupported(f"the opset listing pages link {op}-5's page first from opset{opset} (opset5 and opset6 "
                              f"link LSTMSequence-1's); the runtime's node says {node.get_type_info().version_id}")
        return node

    return GivenInputs(opsets={5: f"openvino.opset{opset}"}, build=build, dtypes_at=schema_dtypes(op),
                       dtype_note="takes floating-point data",
                       constant_ports=(lengths, lengths + 1, lengths + 2, lengths + 3))



#: openvino-domain op -> its builder
BUILDERS: dict[str, OpsetBuilder] = {
    "RNNCell": _cell("RNNCell", "rnn_cell", 3, 2),
    "GRUCell": _cell("GRUCell", "gru_cell", 3, 2),
    "LSTMCell": _cell("LSTMCell", "lstm_cell", 1, 3),
    "RNNSequence": _sequence("RNNSequence", "rnn_sequence", 2),
    "GRUSequence": _sequence("GRUSequence", "gru_sequence", 2),
    "LSTMSequence": _sequence("LSTMSequence", "lstm_sequence", 3, opset=7),
}


def _attention(opset: Any, inputs: list[Any], case: CaseInstance) -> Any:
    schema = ops.entry(case.domain, case.op).schema
    unknown = sorted(set(case.attributes) - schema.attribute_names(case.version))
    if unknown:
        raise Unsupported(f"the opset API has no {case.op}-{case.version} attribute(s) {unknown}")
    if "causal" not in case.attributes:
        raise Unsupported("the opset API's scaled_dot_product_attention takes causal as a keyword with a default: a "
                          "node without it cannot be told from causal=false")
    mask = inputs[3] if len(inputs) > 3 else None
    scale = inputs[4] if len(inputs) > 4 else None
    return opset.scaled_dot_product_attention(inputs[0], inputs[1], inputs[2], mask, scale,
                                              causal=bool(case.attributes["causal"]))


BUILDERS["ScaledDotProductAttention"] = GivenInputs(
    opsets={13: "openvino.opset13"}, build=_attention, dtypes_at=schema_dtypes("ScaledDotProductAttention"),
    dtype_note="takes floating-point data")


def _checked(case: CaseInstance) -> dict[str, Any]:
    schema = ops.entry(case.domain, case.op).schema
    unknown = sorted(set(case.attributes) - schema.attribute_names(case.version))
    if unknown:
        raise Unsupported(f"the opset API has no {case.op}-{case.version} attribute(s) {unknown}")
    return case.attributes


def _greedy(opset: Any, inputs: list[Any], case: CaseInstance) -> Any:
    a = _checked(case)
    return opset.ctc_greedy_decoder(inputs[0], inputs[1], bool(a.get("ctc_merge_repeated", True)))


def _greedy_seq_len(opset: Any, inputs: list[Any], case: CaseInstance) -> Any:
    a = _checked(case)
    return opset.ctc_greedy_decoder_seq_len(inputs[0], inputs[1], inputs[2] if len(inputs) > 2 else None,
                                            bool(a.get("merge_repeated", True)),
                                            str(a.get("classes_index_type", "i32")),
                                            str(a.get("sequence_length_type", "i32")))


def _ctc_loss(opset: Any, inputs: list[Any], case: CaseInstance) -> Any:
    a = _checked(case)
    return opset.ctc_loss(inputs[0], inputs[1], inputs[2], inputs[3], inputs[4] if len(inputs) > 4 else None,
                          bool(a.get("preprocess_collapse_repeated", False)), bool(a.get("ctc_merge_repeated", True)),
                          bool(a.get("unique", False)))


# the CTC ops: the data a Parameter, the integer inputs (lengths, labels, blank index) Constants
BUILDERS["CTCGreedyDecoder"] = GivenInputs(opsets={1: "openvino.opset1"}, build=_greedy,
                                           dtypes_at=schema_dtypes("CTCGreedyDecoder"),
                                           dtype_note="takes floating-point data")
BUILDERS["CTCGreedyDecoderSeqLen"] = GivenInputs(
    opsets={6: "openvino.opset6"}, build=_greedy_seq_len, dtypes_at=schema_dtypes("CTCGreedyDecoderSeqLen"),
    dtype_note="takes floating-point data", constant_ports=(1, 2))
BUILDERS["CTCLoss"] = GivenInputs(opsets={4: "openvino.opset4"}, build=_ctc_loss, dtypes_at=schema_dtypes("CTCLoss"),
                                  dtype_note="takes floating-point data", constant_ports=(1, 2, 3, 4))
