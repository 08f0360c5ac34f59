"""Fake backends for the isolation tests: each fails in one way a native runtime can. Imported by the worker
through the ``module:Class`` spec form, so they must stay importable from the test's sys.path."""

from __future__ import annotations

import ctypes
import os
import subprocess
import sys
import time

import numpy as np

import conformance_reference as reference
from conformance.backends.base import Answer, Backend, Unsupported


class CorrectBackend(Backend):
    name = "fake-correct"
    isolate = True

    def version(self) -> str:
        return f"1.0 pid {os.getpid()}"

    def run(self, case, inputs: list[np.ndarray]) -> list[np.ndarray]:
        fault = case.attributes.get("fault")  # lets one test mix faulting and valid cases on one backend
        if fault == "abort":
            os.abort()
        if fault == "segv":
            ctypes.string_at(0)
        if fault == "exit":
            os._exit(3)
        if fault == "hang":
            time.sleep(3600)
        return list(reference.evaluate(case.domain, case.op, case.version, inputs, case.attributes).outputs)


class AbortingBackend(CorrectBackend):
    name = "fake-abort"

    def run(self, case, inputs):
        print("about to abort", file=sys.stderr, flush=True)
        os.abort()


class SegfaultingBackend(CorrectBackend):
    name = "fake-segv"

    def run(self, case, inputs):
        ctypes.string_at(0)
        return []


class HangingBackend(CorrectBackend):
    name = "fake-hang"

    def run(self, case, inputs):
        time.sleep(3600)
        return []


class RaisingBackend(CorrectBackend):
    name = "fake-raise"
    rejection_types = (ValueError,)  # its runtime's validation error: a rejection (docs/backends.md)

    def run(self, case, inputs):
        raise ValueError(f"bad attributes {dict(case.attributes)}")


class CustomError(Exception):
    pass


class CustomRaisingBackend(CorrectBackend):
    name = "fake-custom"

    def run(self, case, inputs):
        raise CustomError("the runtime says no")


class UnsupportedBackend(CorrectBackend):
    name = "fake-unsupported"

    def run(self, case, inputs):
        raise Unsupported("no AveragePool here")


class NotImplementedBackend(CorrectBackend):
    name = "fake-notimpl"

    def run(self, case, inputs):
        raise NotImplementedError("later")


class ExitingBackend(CorrectBackend):
    name = "fake-exit"

    def run(self, case, inputs):
        os._exit(3)


class ForkingHangBackend(CorrectBackend):
    """Hangs after starting a child that also sleeps: a timeout must kill both."""

    name = "fake-fork-hang"

    def run(self, case, inputs):
        import subprocess

        child = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(3600)"])
        with open(os.environ["FAKE_CHILD_PID_FILE"], "w") as f:
            f.write(str(child.pid))
        time.sleep(3600)
        return []


class ChattyBackend(CorrectBackend):
    """Writes far more than a pipe buffer to fds 1 and 2 on every case: must not block the worker."""

    name = "fake-chatty"

    def run(self, case, inputs):
        os.write(1, b"x" * 200_000)
        os.write(2, b"y" * 200_000)
        return super().run(case, inputs)


class UnpicklableBackend(CorrectBackend):
    name = "fake-unpicklable"

    def run(self, case, inputs):
        # an object array, which could not be pickled back to the parent: refused where it is answered
        # (answers.outputs), isolated or not, before anything tries to send it
        return [np.array([lambda: 0], dtype=object)]


class BrokenConstructorBackend(CorrectBackend):
    name = "fake-broken-init"

    def __init__(self) -> None:
        raise OSError("libfake.so: cannot open shared object file")


class InnerCrashBackend(CorrectBackend):
    """Isolates something of its own and reports its crash: the kind survives, this worker stays."""

    name = "fake-inner-crash"

    def run(self, case, inputs):
        from conformance.backends.base import Crashed

        raise Crashed("helper died: signal SIGBUS (-7)")


class ProtocolOnlyBackend:
    """A plugin implementing only BackendProtocol (no Backend base): the optional members take their defaults."""

    name = "fake-protocol-only"

    def version(self) -> str:
        return "0"

    def supports(self, case):
        from conformance.backends.base import Support

        return Support.yes()

    def run(self, case, inputs: list[np.ndarray]) -> list[np.ndarray]:
        return list(reference.evaluate(case.domain, case.op, case.version, inputs, case.attributes).outputs)


class CappedBackend(CorrectBackend):
    """Says which cap its worker's environment held when it was constructed (an ISA column's cap, docs/isa.md)."""

    name = "fake-capped"
    isa_cap_env = "FAKE_MAX_CPU_ISA"

    def __init__(self) -> None:
        self.cap = os.environ.get(self.isa_cap_env, "")  # read at construction, as a runtime reads it at load

    def isa_level(self) -> str:
        return self.cap.lower() or "native"


class NoneSupportBackend(CorrectBackend):
    """The one-line slip of issue 23: ``supports()`` computes the answer and forgets to return it."""

    name = "fake-none-support"

    def supports(self, case):
        super().supports(case)


class StringSupportBackend(CorrectBackend):
    """``"no"`` is truthy: a bool() coercion would run the case."""

    name = "fake-string-support"

    def supports(self, case):
        return "no"


class FalseSupportBackend(CorrectBackend):
    name = "fake-false-support"

    def supports(self, case):
        return False


class IntVersionBackend(CorrectBackend):
    name = "fake-int-version"

    def version(self):
        return 3


class BareArrayBackend(CorrectBackend):
    """Returns the output array itself instead of a list of outputs."""

    name = "fake-bare-array"

    def run(self, case, inputs):
        return super().run(case, inputs)[0]


class ListOutputBackend(CorrectBackend):
    """Returns nested Python lists instead of arrays."""

    name = "fake-list-output"

    def run(self, case, inputs):
        return [out.tolist() for out in super().run(case, inputs)]


class BadCapabilitiesBackend(CorrectBackend):
    name = "fake-bad-capabilities"

    def capabilities(self):
        return ["AveragePool"]


class LeakingBackend(CorrectBackend):
    """Keeps what every case allocates (a plugin's leak): its worker grows by 64 MiB per case."""

    name = "fake-leak"
    kept: list = []

    def run(self, case, inputs):
        self.kept.append(np.ones(64 << 20, dtype=np.uint8))  # touched: resident, not only reserved
        return super().run(case, inputs)


class HoggingBackend(CorrectBackend):
    """Allocates without end inside one case (a runaway kernel): the limit must stop it mid-case."""

    name = "fake-hog"

    def run(self, case, inputs):
        hoard = []
        while True:
            hoard.append(np.ones(16 << 20, dtype=np.uint8))
            time.sleep(0.01)


#: A helper process that allocates 16 MiB (touched) every 10 ms up to 1 GiB, then exits: without the limit counting
#: it, the case passes after ~0.7 s; with it, the worker's process group is killed long before the cap.
CHILD_HOG = "import time\nhoard = []\nfor _ in range(64):\n    hoard.append(b'x' * (16 << 20))\n    time.sleep(0.01)\n"


class ChildHoggingBackend(CorrectBackend):
    """Computes in a child process that keeps allocating (a plugin's helper process): its memory is the worker's."""

    name = "fake-child-hog"

    def run(self, case, inputs):
        subprocess.run([sys.executable, "-c", CHILD_HOG], check=True)
        return super().run(case, inputs)


class ConstantBackend(CorrectBackend):
    """Returns 12345.0 everywhere under an infinite tolerance_scale: a pass would mean the scale was believed."""

    name = "fake-constant"
    tolerance_scale = float("inf")

    def run(self, case, inputs):
        return [np.full_like(out, 12345.0) for out in super().run(case, inputs)]


class HugeScaleBackend(ConstantBackend):
    tolerance_scale = 1e30


class StringScaleBackend(ConstantBackend):
    tolerance_scale = "1e300"


class BoolScaleBackend(ConstantBackend):
    tolerance_scale = True


class NanScaleBackend(ConstantBackend):
    tolerance_scale = float("nan")


class SmallScaleBackend(ConstantBackend):
    tolerance_scale = 0.5


class ScaledBackend(CorrectBackend):
    """A valid scale (within docs/tolerance.md's range): its records are judged as before."""

    name = "fake-scaled"
    tolerance_scale = 2


class MaskedBackend(CorrectBackend):
    name = "fake-masked"

    def run(self, case, inputs):
        return [np.ma.masked_array(out, mask=np.ones(out.shape, bool)) for out in super().run(case, inputs)]


class ComplexBackend(CorrectBackend):
    name = "fake-complex"

    def run(self, case, inputs):
        return [out.astype(np.complex64) for out in super().run(case, inputs)]


class PlainSubclass(np.ndarray):
    """An ndarray subclass adding nothing that matters: converted to the plain array over the same data."""


class SubclassBackend(CorrectBackend):
    name = "fake-subclass"

    def run(self, case, inputs):
        return [out.view(PlainSubclass) for out in super().run(case, inputs)]


class ObjectLoweringBackend(CorrectBackend):
    name = "fake-object-lowering"

    def run(self, case, inputs):
        return Answer(super().run(case, inputs), lowering={"not": "text"})


class LongLoweringBackend(CorrectBackend):
    name = "fake-long-lowering"

    def run(self, case, inputs):
        return Answer(super().run(case, inputs), lowering="lowered " * 100_000)


class ObjectXmlBackend(CorrectBackend):
    name = "fake-object-xml"

    def run(self, case, inputs):
        return Answer(super().run(case, inputs), ir=b"<net/>")


class TypeErrorBackend(CorrectBackend):
    """An adapter bug raising a builtin exception type: rebuilt as that type in the parent."""

    name = "fake-type-error"

    def run(self, case, inputs):
        raise TypeError("adapter bug: wrong argument")


class RaisingScaleBackend(CorrectBackend):
    name = "fake-raising-scale"

    @property
    def tolerance_scale(self):
        raise RuntimeError("no scale today")


class OddLevelBackend(CorrectBackend):
    """An ISA level and a version no record should carry whole: a level of no ISA's shape, a 10,000-char version."""

    name = "fake-odd-level"

    def isa_level(self):
        return "avx2\nforged: yes"

    def version(self):
        return "1.0 pid " + "9" * 10_000


class PrecisionBackend(CorrectBackend):
    """Reports the inference precision it runs at (OpenVINO's columns do)."""

    def precision(self) -> str:
        return "bf16"

