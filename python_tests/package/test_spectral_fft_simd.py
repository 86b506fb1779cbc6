"""Every SIMD level this CPU supports runs its own FFT passes (AVX-512 float and double, AVX2
float and double, SSE2 float and double) or the FFT crate's: in a subprocess with
SIGKERN_SIMD=<level>, fft_simd_worker.py checks float32 and float64 rfft, irfft, round trips, a
batch and the STFT of every power of two 16 ... 65536 (and 480, 960) against numpy in float64,
at several page offsets of input and output (see the worker for lengths, offsets and
tolerances)."""

import os
import pathlib
import subprocess
import sys

import pytest

from test_simd import ORDER, supported_levels

HERE = pathlib.Path(__file__).resolve().parent


@pytest.mark.parametrize("level", ORDER)
def test_fft_at_every_simd_level_matches_numpy(level):
    if level not in supported_levels():
        pytest.skip(f"this CPU does not support {level}")
    env = dict(os.environ, SIGKERN_SIMD=level)
    proc = subprocess.run([sys.executable, str(HERE / "fft_simd_worker.py")], env=env,
                          capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.split() == [level]
