"""Effects with ``librosa.effects``' names and signatures: :func:`time_stretch` and
:func:`pitch_shift` (phase vocoder, C: ``sk_time_stretch_*``)."""

from __future__ import annotations

from ._stretch import pitch_shift, time_stretch
from ._stretch_stream import TimeStretchStream
from ._trim import split, trim

__all__ = ["time_stretch", "pitch_shift", "trim", "split", "TimeStretchStream"]
