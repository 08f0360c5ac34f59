"""What a CI job needs around a run, in Python so that it is tested and a vendor's repository copies no script:
the baseline from the previous successful run (``baseline``), stale expectations over the merged shards
(``stale``), the job summary (``summary``). ``conformance ci`` (``cli``) runs them; the reusable action calls it."""
