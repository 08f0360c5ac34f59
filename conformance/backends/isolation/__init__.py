"""Process isolation of a backend (docs/isolation.md): ``IsolatedBackend`` in the parent (isolated_backend.py), one
worker process seen from the parent (worker_process.py) and from inside (worker_main.py: its main loop and the wire
protocol), the fork server that forks workers (fork_server.py in the parent, fork_server_main.py in the server),
the spare worker started ahead (spare.py) and a worker's memory limit (memory.py)."""
