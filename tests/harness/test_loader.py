"""The case loader: schema errors name file, line and case id; other cases and files still load."""

from __future__ import annotations

from dataclasses import replace

import pytest

from conformance.suite.expand import expand, inputs_of
from conformance.suite.loader import CaseFileError, load_text

GOOD = """\
op: AveragePool
domain: ai.onnx
versions: [19, 22]
cases:
  - id: a
    attributes: {kernel_shape: [2]}
    dtypes: [float32, float16, bfloat16]
    inputs:
      x: {shape: [1, 1, 4], random: {seed: 3}}
  - id: b
    attributes: {kernel_shape: [2]}
    inputs:
      x: {shape: [1, 1, 4], dtype: float32, data: [1, 2, 3, 4]}
"""


def test_good_file_expands_versions_and_dtypes():
    loaded = load_text(GOOD, "good.yaml")
    assert not loaded.errors
    ids = [i.id for c in loaded.cases for i in expand(c)]
    assert ids[:3] == [
        "ai.onnx/AveragePool-19/a[float32]",
        "ai.onnx/AveragePool-19/a[float16]",
        "ai.onnx/AveragePool-19/a[bfloat16]",
    ]
    assert len(ids) == 2 * 3 + 2
    assert loaded.cases[1].line == 10


def test_yaml_syntax_error_names_file_and_line():
    text = GOOD.replace("kernel_shape: [2]}", "kernel_shape: [2}", 1)
    with pytest.raises(CaseFileError) as info:
        load_text(text, "broken.yaml")
    assert info.value.file == "broken.yaml"
    assert info.value.line == 6
    assert "YAML syntax error" in str(info.value)
    assert str(info.value).startswith("broken.yaml:6:")


@pytest.mark.parametrize(
    ("snippet", "message"),
    [
        ("    atributes: {kernel_shape: [2]}", "unknown key(s): atributes"),
        ("    expect: maybe", "expect must be 'error'"),
        ("    dtypes: [float8]", "dtypes: 'float8' is not one of"),
        ("    source: hearsay", "source 'hearsay' is not one of"),
    ],
)
def test_bad_case_is_reported_alone_with_its_line_and_id(snippet, message):
    text = GOOD.replace("  - id: b\n", f"  - id: b\n{snippet}\n")
    loaded = load_text(text, "f.yaml")
    assert [c.id for c in loaded.cases] == ["a"]
    (error,) = loaded.errors
    assert error.case_id == "b" and error.line == 10
    assert message in str(error)
    assert str(error).startswith("f.yaml:10: case 'b':")


def test_duplicate_ids_and_bad_top_level():
    loaded = load_text(GOOD.replace("id: b", "id: a"), "f.yaml")
    assert "duplicate id (first at line 5)" in str(loaded.errors[0])
    with pytest.raises(CaseFileError, match="unknown domain|is not one of"):
        load_text(GOOD.replace("ai.onnx", "ai.tflite"), "f.yaml")
    with pytest.raises(CaseFileError, match="missing 'versions'"):
        load_text(GOOD.replace("versions: [19, 22]\n", ""), "f.yaml")


def test_data_size_must_match_shape():
    loaded = load_text(GOOD.replace("data: [1, 2, 3, 4]", "data: [1, 2, 3]"), "f.yaml")
    (error,) = loaded.errors  # found at collection, not charged to a backend at run time
    assert "3 values given for shape" in str(error)
    (instance, *_) = expand(loaded.cases[0])
    with pytest.raises(ValueError, match="3 values given for shape"):
        inputs_of(replace(instance, inputs=(replace(instance.inputs[0], data=[1, 2, 3], shape=(1, 1, 2, 2)),)))


def test_safe_load_refuses_python_tags():
    with pytest.raises(CaseFileError, match="YAML syntax error"):
        load_text("!!python/object/apply:os.system ['true']\n", "evil.yaml")


def test_ir_xml_fills_attributes_and_shapes():
    text = """\
op: AvgPool
domain: openvino
version: 1
cases:
  - id: ex
    source: spec-example
    ir_xml: |
      <layer ... type="AvgPool" ... >
      <data auto_pad="explicit" exclude-pad="true" kernel="5,5" pads_begin="1,1" pads_end="1,1" strides="3,3"
            bogus="1"/>
      <input><port id="0"><dim>1</dim><dim>3</dim><dim>32</dim><dim>32</dim></port></input>
      <output><port id="1"><dim>1</dim><dim>3</dim><dim>10</dim><dim>10</dim></port></output>
      </layer>
"""
    (case,) = load_text(text, "x.yaml").cases
    assert case.attributes["kernel"] == [5, 5] and case.attributes["exclude-pad"] is True
    assert "bogus" not in case.attributes and case.spec_example.unknown_attributes == ("bogus",)
    assert case.inputs[0].shape == (1, 3, 32, 32) and case.inputs[0].random is not None
    assert case.spec_example.output_dims == ((1, 3, 10, 10),)


def test_explicit_data_format_is_not_overridden_by_the_layout_matrix():
    text = """\
op: AvgPool
domain: onednn
version: 1
defaults: {layouts: [NXC, NCX]}
cases:
  - id: expanded
    attributes: {kernel: [2, 2]}
    inputs: {x: {shape: [1, 2, 4, 4], random: {seed: 1}}}
  - id: fixed
    expect: error
    attributes: {kernel: [2, 2], data_format: NHWC}
    inputs: {x: {shape: [1, 4, 4, 2], random: {seed: 1}}}
"""
    expanded, fixed = load_text(text, "x.yaml").cases
    assert [i.attributes["data_format"] for i in expand(expanded)] == ["NXC", "NCX"]
    assert [i.input_shapes[0] for i in expand(expanded)] == [(1, 4, 4, 2), (1, 2, 4, 4)]
    (only,) = expand(fixed)
    assert only.attributes["data_format"] == "NHWC" and only.id.endswith("fixed[float32]")


MALFORMED = """\
op: ReLU
domain: openvino
version: 1
cases:
  - id: ex
    source: spec-example
    ir_xml: |
      <layer … type="ReLU"…>
          <data mode="a", other=0>
          <input>
              <port id="0"><dim>2</dim><dim>3</xdim></port>
              <port id="1"/>  < -- a broken comment -->
              </port>
          <output>
              <port id="2"><dim>2</dim><dim>3</dim></port>
          </output>
      </layer>
"""


def test_a_malformed_published_example_is_read_and_every_defect_named():
    """A published <layer> that is not well-formed XML runs as printed: read leniently, every repair a defect."""
    (case,) = load_text(MALFORMED, "x.yaml").cases
    example = case.spec_example
    assert example.input_dims == ((2, 3), ()) and example.output_dims == ((2, 3),)
    assert example.data == {"mode": "a", "other": "0"}  # verbatim strings, for the IR writer
    defects = "\n".join(example.defects)
    for said in ("elides with '…'", "separates attributes with ','", "other=0 is not quoted",
                 "<data> is not closed before <input>", "</xdim> closes no open <xdim>",
                 "stray text", "is self-closed and later closed by </port>", "<input> is not closed before <output>"):
        assert said in defects, said
    assert len(example.defects) == len(set(example.defects))


def test_a_well_formed_example_has_no_defects_and_garbage_is_still_refused():
    from conformance.suite.irxml import IrXmlError, parse_layer

    assert parse_layer('<layer type="ReLU"><data/></layer>').defects == ()
    with pytest.raises(IrXmlError, match="not well-formed"):
        parse_layer("no element at all")


def test_the_reference_column_reports_each_defect_as_an_erratum():
    from conformance.pipeline.reference_column import spec_claims
    from conformance.suite.expand import expand

    (case,) = load_text(MALFORMED, "x.yaml").cases
    instance = expand(case)[0]

    class Prediction:
        example_error = None
        example_shapes = [(2, 3)]

    errata = spec_claims(instance, Prediction())
    assert sum("the example as published is malformed" in e for e in errata) == len(case.spec_example.defects) >= 8


def test_a_literal_the_page_states_wins_over_its_examples_port_dims():
    """A well-formed example whose port dims contradict the value the page states for that input (a literal): the
    value runs, the dims are the example's erratum; a shape alone that contradicts them is the case's mistake."""
    def case(body: str) -> str:
        return (
            "op: ReLU\ndomain: openvino\nversion: 1\ncases:\n  - id: ex\n    source: spec-example\n"
            f"    inputs: {{x: {body}}}\n    ir_xml: |\n      <layer type=\"ReLU\"><input><port id=\"0\"><dim>1</dim>"
            "</port></input><output><port id=\"1\"><dim>1</dim></port></output></layer>\n")

    (ok,) = load_text(case("{shape: [2], data: [1.0, -1.0]}"), "x.yaml").cases
    assert ok.inputs[0].shape == (2,)
    assert any("port 0 (x) has dims [1], the value the example states has shape [2]" in d
               for d in ok.spec_example.defects)
    loaded = load_text(case("{shape: [2], random: {seed: 1}}"), "x.yaml")
    assert not loaded.cases and "contradicts the ir_xml port dims [1]" in str(loaded.errors)
