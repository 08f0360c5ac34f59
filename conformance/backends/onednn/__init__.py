"""oneDNN Graph backend: a ctypes binding (``graph_api``) and the ``OneDnnBackend`` plugin (``backend``).

Nothing here loads libdnnl at import time.
"""
