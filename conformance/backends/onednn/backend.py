"""The ``onednn`` backend: runs onednn-domain cases as single-op oneDNN Graph graphs through the ctypes binding,
with the op's builder from ``builders.BUILDERS``.

Known hazard: several invalid or edge attribute sets (kernel 0, a window entirely in padding, a kernel larger
than the padded input, a kernel list shorter than the spatial rank) make oneDNN 3.2 throw an uncaught C++
exception inside the C API, which aborts the whole process. That cannot be caught in-process; the harness runs
native backends in worker processes instead (see docs/backends-onednn.md).
"""

from __future__ import annotations

import dataclasses
from pathlib import Path
from typing import Any

import numpy as np

from conformance import ops
from conformance.backends.base import Backend, NotInstalled, Support, Unsupported
from conformance.backends.discovery import presence
from conformance.backends.export import copy_standalone, write_runner
from conformance.backends.models import whole
from conformance.backends.models.shapes import output_dtypes, output_ranks
from conformance.backends.onednn import _lib, _wheels, builders
from conformance.backends.onednn import graph_api as g
from conformance.backends.onednn.single_op import GraphOp, LibraryUnsupported, run_op
from conformance.model import CaseInstance

HERE = Path(__file__).parent
#: The binding an exported reproduction gets, verbatim (relative imports only, never the harness).
BINDING = ("_lib.py", "_wheels.py", "graph_api.py", "single_op.py")


class OneDnnBackend(Backend):
    """oneDNN Graph API (CPU engine) via ctypes over libdnnl.so.3: the library found first."""

    name = "onednn"
    isolate = True  # aborts the process on some invalid attributes: run in a worker under --isolation=auto
    #: oneDNN's dispatcher cap, read when the library loads: checked faithful for oneDNN 3.2 (docs/isa.md)
    isa_cap_env = "ONEDNN_MAX_CPU_ISA"
    description = ("oneDNN Graph C API (CPU) via ctypes; library from $CONFORMANCE_ONEDNN_LIB or the installed "
                   "oneDNN wheel (onednn-cpu-gomp 2023.2: oneDNN 3.2)")
    #: The wheel whose libdnnl.so.3 this backend runs (None: the library found first, _lib.locate).
    distribution: str | None = None
    #: a non-success dnnl_status_t of the graph API
    rejection_types = (g.DnnlError,)

    @classmethod
    def check_installed(cls) -> None:
        """libdnnl.so.3 is found (``_lib.locate``: the path it would load, found without loading it: the process
        that lists backends must not hold a libdnnl of its own, one per process). An install that is there but
        unusable (both wheels' copies in one environment) raises its own OSError: it is not "not installed"."""
        try:
            _lib.locate(cls.distribution)
        except _lib.LibraryNotFound as exc:
            raise NotInstalled(f"{exc}; the extra: {presence.extra(cls.name)}") from None

    def __init__(self) -> None:
        self.check_installed()
        self._engine: g.Engine | None = None

    def _bind(self) -> None:
        # one libdnnl.so.3 per process: refused if this process already loaded another one (_lib.configure)
        _lib.configure(self.distribution)

    def version(self) -> str:
        self._bind()
        return g.version()

    def isa_level(self) -> str:
        """oneDNN's own effective ISA (dnnl_get_effective_cpu_isa): the machine's level, or the cap in force."""
        self._bind()
        return _lib.isa_name(_lib.effective_isa())

    def supports(self, case: CaseInstance) -> Support:
        if whole.is_model(case):
            return whole.no_onnx(self.name, "oneDNN Graph partitions from the case's op")
        if case.domain != builders.DOMAIN:
            return Support.no(f"onednn runs only the onednn domain, not {case.domain}")
        spec = builders.BUILDERS.get(case.op)
        if spec is None:
            return Support.no(f"no oneDNN Graph builder for {case.domain}::{case.op} "
                              f"(builders: {', '.join(builders.BUILDERS)})")
        self._bind()
        # the op's type constraint, as its schema declares it (reference/schema.py ONEDNN_TYPES)
        allowed = ops.entry(case.domain, case.op).schema.supported_dtypes(case.version)
        for dtype in case.input_dtypes:
            if dtype not in allowed:
                return Support.no(f"dtype {dtype} not in oneDNN Graph {case.op}'s {'/'.join(allowed)}")
            reason = _lib.dtype_unsupported(dtype)
            if reason:
                return Support.no(reason)
        return Support.yes()

    def run(self, case: CaseInstance, inputs: list[np.ndarray]) -> list[np.ndarray]:
        spec = builders.BUILDERS.get(case.op) if case.domain == builders.DOMAIN else None
        if spec is None:
            raise Unsupported(self.supports(case).reason)
        self._bind()
        if self._engine is None:
            self._engine = g.Engine()  # reused across cases (saves ~0.3 ms of the ~4 ms a small case takes)
        try:
            return run_op(spec, list(inputs), dict(case.attributes), engine=self._engine,
                          outputs=_outputs(case, spec, inputs))
        except LibraryUnsupported as exc:
            raise Unsupported(str(exc)) from None

    def capabilities(self) -> dict[str, list[str]]:
        return {builders.DOMAIN: builders.capabilities()}

    def export(self, case: CaseInstance, inputs: list[np.ndarray], folder: Path) -> dict[str, Any]:
        """The binding as the package ``onednn_binding/`` and run_onednn.py, which runs the op's builder on it."""
        spec = builders.BUILDERS.get(case.op) if case.domain == builders.DOMAIN else None
        if spec is None:
            raise Unsupported(self.supports(case).reason)
        package = folder / "onednn_binding"
        package.mkdir(exist_ok=True)
        (package / "__init__.py").write_text('"""The harness\'s oneDNN Graph ctypes binding, copied verbatim."""\n',
                                             encoding="utf-8")
        for name in BINDING:
            copy_standalone(HERE / name, package / name)
        config = {"binding": package.name, "op": dataclasses.asdict(spec), "attributes": dict(case.attributes),
                  "distribution": self.distribution, "outputs": _outputs(case, spec, inputs)}
        files = [f"{package.name}/{n}" for n in ("__init__.py", *BINDING)]
        return {"runner": "run_onednn.py", "files": [*files, *write_runner(HERE / "run_onednn.py", folder,
                                                                           "run_onednn", config)],
                "format": "onednn-graph", "folder": package.name,
                "library": (f"libdnnl.so.3 of the {self.distribution} wheel" if self.distribution else
                            "libdnnl.so.3 from $CONFORMANCE_ONEDNN_LIB or the installed oneDNN wheel")}


def _outputs(case: CaseInstance, spec: GraphOp, inputs: list[np.ndarray]) -> list[tuple[str, int | None]]:
    """Each of the op's outputs as (dtype name, rank) from its schema and the reference, not from input 0."""
    return list(zip(output_dtypes(case, spec.outputs), output_ranks(case, spec.outputs, inputs)))


class OneDnnCurrentBackend(OneDnnBackend):
    """The current oneDNN release from PyPI (``onednn`` 2026.x: oneDNN 3.13), beside the 2023 wheel's column.

    Its libdnnl.so.3 lands where the 2023 wheel puts its own (``<prefix>/lib``), so the two live in separate
    environments (tox envs suite-onednn and suite-onednn-current) and their results meet in ``conformance report``.
    """

    name = "onednn-current"
    description = ("oneDNN Graph C API (CPU) via ctypes; the current release from PyPI (`onednn` wheel, TBB + SYCL "
                   "runtimes preloaded from the environment)")
    distribution = "onednn"

    @classmethod
    def check_installed(cls) -> None:
        if _wheels.own_file(cls.distribution or "", "libdnnl.so.3") is None:
            raise NotInstalled(f"the {cls.distribution!r} wheel is not installed (pip install "
                               "'op-conformance[onednn-current]', in an environment without onednn-cpu-gomp)")
        super().check_installed()  # and its library is usable as this environment's only copy (_lib.locate)
