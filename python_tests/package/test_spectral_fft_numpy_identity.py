"""float64 rfft/irfft give numpy's results bit for bit at every length below 64 and every length
that is not a power of two (powers of two from 64 up run on realfft, a different algorithm: they
are checked against numpy's error instead, in test_spectral_fft_accuracy.py).

Those float64 real transforms run numpy's algorithm: pocketfft's real passes (rfftp), or, for
the lengths where pocketfft's cost rule picks it, its complex Bluestein transform of the full
length (fftblue with its cfftp inner passes), with pocketfft's twiddle tables computed as
pocketfft computes them, the same operations in the same order (no FMA) and the same
normalisation (a multiplication by 1/n after the backward transform). The outputs are then
numpy's exactly: compared with ``np.array_equal`` at every length 1..600 and at larger lengths
covering every radix and Bluestein, single transforms and batches (numpy runs a batch through
its vectorised loop, which does the same arithmetic lane by lane). This is numpy 2's pocketfft
(the C++ one); numpy 1.x ran the older C pocketfft, whose twiddles are computed differently, so
the module is skipped there.
"""

import numpy as np
import pytest

import sigkern

pytestmark = pytest.mark.skipif(int(np.__version__.split(".")[0]) < 2,
                                reason="bit identity is with numpy 2's C++ pocketfft")

LARGE = [647, 727, 1000, 1009, 2310, 4099, 5000, 8191, 44100, 65537, 99991, 196608]


def _pow2(n):
    return n >= 64 and n & (n - 1) == 0


def _data(n, seed):
    rng = np.random.default_rng(seed)
    h = n // 2 + 1
    r = rng.standard_normal(n)
    x = rng.standard_normal(h) + 1j * rng.standard_normal(h)
    return r, x


@pytest.mark.parametrize("lo", range(1, 601, 50))
def test_small_lengths_bit_identical(lo):
    for n in range(lo, lo + 50):
        if _pow2(n):
            continue
        r, x = _data(n, n)
        assert np.array_equal(sigkern.rfft(r), np.fft.rfft(r)), n
        assert np.array_equal(sigkern.irfft(x, n), np.fft.irfft(x, n)), n


@pytest.mark.parametrize("n", LARGE)
def test_large_lengths_bit_identical(n):
    r, x = _data(n, n)
    assert np.array_equal(sigkern.rfft(r), np.fft.rfft(r))
    assert np.array_equal(sigkern.irfft(x, n), np.fft.irfft(x, n))


@pytest.mark.parametrize("n", [8, 12, 27, 32, 54, 480, 1009, 4099])
def test_batches_and_norms_bit_identical(n):
    rng = np.random.default_rng(n)
    h = n // 2 + 1
    r = rng.standard_normal((7, n))
    x = rng.standard_normal((7, h)) + 1j * rng.standard_normal((7, h))
    for norm in (None, "ortho", "forward"):
        assert np.array_equal(sigkern.rfft(r, norm=norm), np.fft.rfft(r, norm=norm)), norm
        assert np.array_equal(sigkern.irfft(x, n, norm=norm), np.fft.irfft(x, n, norm=norm)), norm
