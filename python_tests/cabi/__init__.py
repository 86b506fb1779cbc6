"""Tests of the C ABI through cffi and ctypes, one file per family (test_<family>_*.py)."""
