"""The ``sigkern`` command line (``sigkern COMMAND ...`` or ``python -m sigkern``): loudness
reports, loudness normalisation, resampling and speech features for audio files and corpora.

Commands: ``info``, ``loudness``, ``normalize``, ``resample``, ``features``; ``sigkern
COMMAND --help`` and docs/cli.md describe them. Audio is read and written through the
``soundfile`` package (libsndfile) in blocks; outputs appear atomically (a temporary file
renamed when complete). :func:`main` runs it from Python.
"""

from __future__ import annotations

from ._main import main

__all__ = ["main"]
