"""Bodies spelled from the schema's formula for ops ONNX gives no function (ops/bodies.py, ops/recurrent.py),
walked by the ``propagate`` family: for each, a float32 computation (onnx's evaluator in float32) passes against the
value computed in float64, and a relative 5e-4 change of one element fails."""

from __future__ import annotations

import numpy as np
import onnx
import pytest
from onnx import helper
from whole_model import both, judge, node_case, planted_fails

from conformance.ops import bodies

RNG = np.random.default_rng(46)
TRAINING = "ai.onnx.preview.training"


X = RNG.standard_normal((2, 3, 4, 5)).astype(np.float32)
C3 = RNG.uniform(0.5, 1.5, 3).astype(np.float32)


@pytest.mark.parametrize("training", [0, 1])
def test_batch_normalization(training: int) -> None:
    inputs = {"x": X, "s": C3, "b": RNG.standard_normal(3).astype(np.float32),
              "mean": RNG.standard_normal(3).astype(np.float32), "var": C3 + 0.5}
    outputs = ["y", "rm", "rv"] if training else ["y"]
    case, runtime = both("BatchNormalization", inputs, outputs, 15, training_mode=training, epsilon=1e-3)
    judged = judge(case, *runtime)
    assert judged["status"] == "pass", judged["reason"]
    assert "(2*e(y) + 1ulp)" in judged["tolerance"]
    planted_fails(case, runtime)


def test_instance_normalization_and_lrn() -> None:
    inputs = {"x": X, "s": C3, "b": RNG.standard_normal(3).astype(np.float32)}
    case, runtime = both("InstanceNormalization", inputs, ["y"], 22, epsilon=1e-3)
    assert judge(case, *runtime)["status"] == "pass"
    planted_fails(case, runtime)
    case, runtime = both("LRN", {"x": X}, ["y"], 13, size=3, alpha=2e-4, beta=0.75, bias=2.0)
    assert judge(case, *runtime)["status"] == "pass"
    planted_fails(case, runtime)


def test_log_softmax_before_opset_13_rows_of_the_flattened_input() -> None:
    case, runtime = both("LogSoftmax", {"x": X}, ["y"], 11, axis=2)
    assert judge(case, *runtime)["status"] == "pass"
    planted_fails(case, runtime)


OPTIMIZERS = [("Momentum", {"alpha": 0.9, "beta": 0.1, "mode": "nesterov", "norm_coefficient": 0.01}),
              ("Adagrad", {"decay_factor": 0.1, "epsilon": 1e-5, "norm_coefficient": 0.01}),
              ("Adam", {"alpha": 0.9, "beta": 0.8, "epsilon": 1e-6, "norm_coefficient": 0.01})]


@pytest.mark.parametrize("op, extra", OPTIMIZERS)
def test_optimizers(op: str, extra: dict) -> None:
    x, g = RNG.standard_normal(6).astype(np.float32), RNG.standard_normal(6).astype(np.float32)
    state = {"v": RNG.standard_normal(6).astype(np.float32), "h": RNG.uniform(0.1, 1, 6).astype(np.float32)}
    inputs = {"r": np.array(0.1, np.float32), "t": np.array(3, np.int64), "x": x, "g": g}
    inputs.update({"Momentum": {"v": state["v"]}, "Adagrad": {"h": state["h"]}, "Adam": state}[op])
    outputs = {"Momentum": ["x_new", "v_new"], "Adagrad": ["x_new", "h_new"], "Adam": ["x_new", "v_new", "h_new"]}[op]
    case, runtime = both(op, inputs, outputs, 1, domain=TRAINING, **extra)
    assert judge(case, *runtime)["status"] == "pass"
    planted_fails(case, runtime)


@pytest.mark.parametrize("op, gates", [("RNN", 1), ("GRU", 3), ("LSTM", 4)])
@pytest.mark.parametrize("direction", ["forward", "bidirectional"])
def test_recurrent_nets_unrolled(op: str, gates: int, direction: str) -> None:
    dirs, hidden, size, steps, batch = (2 if direction == "bidirectional" else 1), 4, 3, 5, 2
    inputs = {"x": RNG.standard_normal((steps, batch, size)).astype(np.float32),
              "w": (RNG.standard_normal((dirs, gates * hidden, size)) / 2).astype(np.float32),
              "r": (RNG.standard_normal((dirs, gates * hidden, hidden)) / 2).astype(np.float32),
              "b": RNG.standard_normal((dirs, 2 * gates * hidden)).astype(np.float32)}
    case, runtime = both(op, inputs, ["y", "y_h"], 22, hidden_size=hidden, direction=direction)
    judged = judge(case, *runtime)
    assert judged["status"] == "pass", judged["reason"]
    assert "fallback" not in judged["tolerance"]
    planted_fails(case, runtime)


def test_past_a_shorter_sequence_the_output_is_exact_zero() -> None:
    """sequence_lens: a batch entry's outputs past its length are 0, no rounding reaches them (onnx's evaluator
    ignores sequence_lens, so the walk is asked directly)."""
    from conformance.ops import propagate

    feeds = {"x": RNG.standard_normal((5, 2, 3)).astype(np.float32),
             "w": RNG.standard_normal((1, 12, 3)).astype(np.float32),
             "r": RNG.standard_normal((1, 12, 4)).astype(np.float32),
             "b": RNG.standard_normal((1, 24)).astype(np.float32), "lengths": np.array([5, 3], np.int32)}
    node = helper.make_node("GRU", list(feeds), ["y", "y_h"], hidden_size=4)
    model = helper.make_model(helper.make_graph(
        [node], "g", [helper.make_tensor_value_info(n, 0, None) for n in feeds],
        [helper.make_tensor_value_info(n, 0, None) for n in ("y", "y_h")]), opset_imports=[helper.make_opsetid("", 22)])
    y = propagate.errors(model, feeds)[0]
    assert (y[3:, 0, 1] == 0).all() and (y[:3, 0, 1] > 0).all() and (y[:, 0, 0] > 0).all()


def test_a_body_not_spelled_says_so() -> None:
    """An activation the recurrent body does not spell (Elu) stops the walk: the fallback is stated."""
    inputs = {"x": RNG.standard_normal((3, 1, 2)).astype(np.float32),
              "w": RNG.standard_normal((1, 4, 2)).astype(np.float32),
              "r": RNG.standard_normal((1, 4, 4)).astype(np.float32)}
    y = np.zeros((3, 1, 1, 4), np.float32)
    case = node_case("RNN", inputs, {"y": y}, opset=22, hidden_size=4, activations=["Elu"])
    assert "fallback: cannot propagate" in judge(case, y)["tolerance"]
    node = helper.make_node("RNN", ["x", "w", "r"], ["y"], hidden_size=4, activations=["Elu"])
    assert bodies.spelled(node, list(inputs.values()), {"": 22}, iter(range(9))) is None
    assert onnx.defs.has("RNN")
