"""Runner scripts of the ONNX backends: what an exported reproduction runs (``Backend.export`` copies them verbatim
as ``run_<backend>.py`` next to the model, with their settings in ``run_<backend>.json``).

Each is also the code its backend runs with (session options, how "not implemented" is recognized), so a
reproduction runs the runtime the way the harness did, from one copy. They import nothing of the harness.
"""
