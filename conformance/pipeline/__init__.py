"""The pipeline: one case instance on one backend column, from the oracle's prediction to its frozen record.

``runner`` drives it (the oracle's prediction, the column's answer, the verdict, the expectation's outcome);
``verdict`` judges an answer and builds the record; ``reference_column`` is the ``reference`` column (the reference
against what a case claims). The oracle (``conformance/oracle.py``, ``model_oracle.py``) stays on the floor below:
the backends ask it too (output shapes), and a package above them must not hold what they import. Features of the
pytest plugin call ``runner``; backends, the reference and the reports know nothing of this package.
"""
