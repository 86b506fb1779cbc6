"""Tests of the Python package `sigkern`."""
