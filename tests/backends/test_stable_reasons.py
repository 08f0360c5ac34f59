"""A runtime's refusal is recorded in its own words, without what depends on the process that said it: machine
addresses (a panic's backtrace moves with ASLR) and the numbers OpenVINO gives the nodes it names by a process-wide
counter. Two whole runs in other orders gave the same item reasons that differed only there."""

from __future__ import annotations

from conformance.backends import answers
from conformance.backends.base import Crashed


class Runtime:
    rejection_types = (RuntimeError,)


def test_a_numbered_node_and_an_address_read_the_same_from_any_process():
    first = RuntimeError("Reorder node with name 'Convert_77862_i32_u1' failed; data_BinaryConvolution_1742971 "
                         "at 0x5635030a5081")
    later = RuntimeError("Reorder node with name 'Convert_12_i32_u1' failed; data_BinaryConvolution_3325100 "
                         "at 0x55f45e339081")
    a, b = (answers.refused(Runtime(), exc, False) for exc in (first, later))
    assert a == b == {"status": "error",
                      "reason": "rejected: RuntimeError: Reorder node with name 'Convert_<n>_i32_u1' failed; "
                                "data_BinaryConvolution_<n> at 0x<address>"}
    crash = answers.refused(Runtime(), Crashed("worker died: signal SIGABRT (-6)\n  33:     0x55f45e339081 - _start"),
                            False)
    assert crash == {"status": "crash", "reason": "worker died: signal SIGABRT (-6)\n  33:     0x<address> - _start"}


def test_what_describes_the_case_stays():
    """Shapes, sizes, attribute values and lower-case names keep their numbers."""
    text = "shape [1, 4096] of data_2 does not match kernel 3x3, axis_1 out of range 0x10"
    assert answers.stable(text) == text
