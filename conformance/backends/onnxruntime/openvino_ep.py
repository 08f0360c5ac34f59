"""onnxruntime-openvino: the onnxruntime backend on the OpenVINO execution provider, and only on it.

PyPI's ``onnxruntime-openvino`` is onnxruntime built with OpenVINO's execution provider and its own copy of the
OpenVINO libraries. It installs the module ``onnxruntime``, as the ``onnxruntime`` wheel does, so the two cannot
share an environment: this backend runs in its own (tox env suite-onnxruntime-openvino) and its results join the
others in ``conformance report`` (docs/backends.md).

onnxruntime assigns a node the provider does not claim to its CPU execution provider, silently (per node;
``session.get_providers()`` lists the CPU EP either way). The column would then show onnxruntime's CPU kernels
under OpenVINO's name, so every session disables that fallback (``session.disable_cpu_ep_fallback``): a node
OpenVINO does not take makes session creation fail, recorded as ``unsupported`` with onnxruntime's message.
"""

from __future__ import annotations

import re

from conformance.backends.discovery import presence
from conformance.backends.onnxruntime.backend import OnnxRuntimeBackend
from conformance.backends.onnxruntime.run_onnxruntime import NO_CPU_FALLBACK
from conformance.backends.openvino.runtime import no_kernel_caches

PROVIDER = "OpenVINOExecutionProvider"
DISTRIBUTION = "onnxruntime-openvino"


class OnnxRuntimeOpenVinoBackend(OnnxRuntimeBackend):
    name = "onnxruntime-openvino"
    isolate = True  # OpenVINO's plugins are native code that can abort on malformed models (docs/isolation.md)
    description = ("onnxruntime-openvino InferenceSession on the OpenVINOExecutionProvider alone (CPU EP fallback "
                   "disabled; --backend=onnxruntime-openvino:DEVICE, default CPU)")

    @classmethod
    def check_installed(cls) -> None:
        # the wheel installs the module onnxruntime, with the provider's library beside its own (capi/)
        presence.require("onnxruntime", f"{presence.extra('onnxruntime-openvino')} in an environment without "
                         "onnxruntime", extensions=("capi/onnxruntime_pybind11_state",),
                         libraries=("capi/libonnxruntime_providers_openvino.so",))

    def __init__(self, device: str | None = None):
        self.check_installed()
        import onnxruntime

        if PROVIDER not in onnxruntime.get_available_providers():
            raise ImportError(f"this onnxruntime {onnxruntime.__version__} has no {PROVIDER} (pip install "
                              "'op-conformance[onnxruntime-openvino]' in an environment without onnxruntime)")
        # the OpenVINO it bundles embeds oneDNN, whose process-wide primitive cache would hand a case an earlier
        # case's kernel (backends/openvino/runtime.py): off before the provider's first compile
        no_kernel_caches()
        super().__init__(PROVIDER)
        self.name = "onnxruntime-openvino"  # one column whatever the device: the version string names it
        self.device = device or "CPU"
        self.provider_options = {"device_type": self.device}
        self.session_config = dict(NO_CPU_FALLBACK)

    def version(self) -> str:
        import onnxruntime

        openvino = openvino_version() or "version unknown"
        return f"{onnxruntime.__version__} (OpenVINO {openvino}, {self.device})"

    def runtime_capabilities(self) -> dict[str, list[str]]:
        return {**super().runtime_capabilities(), "device": [self.device]}


def openvino_version() -> str:
    """The OpenVINO release bundled in the wheel, from its library's file name (``libopenvino.so.2025.4.1``)."""
    from importlib import metadata

    try:
        files = metadata.distribution(DISTRIBUTION).files or ()
    except metadata.PackageNotFoundError:
        return ""
    versions = [m.group(1) for f in files if (m := re.fullmatch(r"libopenvino\.so\.(\d+\.\d+\.\d+)", f.name))]
    return versions[0] if versions else ""
