"""sigkern's Python test suite (see conftest.py for the layout)."""
