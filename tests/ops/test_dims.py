"""Coverage dimensions read what the op's schema declares: the rank as its axes name it, for a pool (N, C and
spatial axes) and for an op without batch and channel axes alike."""

from __future__ import annotations

from types import SimpleNamespace

from conformance.ops import dims
from conformance_reference.schema import Axes, pooled


def _instance(shape):
    return SimpleNamespace(inputs=[object()], input_shapes=[tuple(shape)])


def test_a_pool_names_its_spatial_rank():
    axes = pooled()
    assert axes.ranks == (3, 4, 5) and axes.labels == ("1-D", "2-D", "3-D")
    assert pooled(2).labels == ("2-D",)
    reader = dims.rank(axes)
    assert reader(_instance((1, 3, 8, 8))) == "2-D"
    assert reader(_instance((1, 3))) is None  # no spatial axis: no value


def test_an_op_without_batch_and_channels_names_its_rank_itself():
    axes = Axes(ranks=(0, 1, 2, 4))
    assert axes.labels == ("rank 0", "rank 1", "rank 2", "rank 4")
    reader = dims.rank(axes)
    assert reader(_instance(())) == "rank 0" and reader(_instance((5, 6))) == "rank 2"
    assert Axes().labels == ()  # any rank: coverage asks for none
    assert reader(SimpleNamespace(inputs=[], input_shapes=[])) is None
