"""Every SIMD level this CPU supports runs its own FFT passes (AVX-512 float and double, AVX2
float and double, SSE2 float and double) or the FFT crate's: in a subprocess with
SIGKERN_SIMD=<level> (support/simd_levels.py), `fft_checks` checks float32 and float64 rfft,
irfft, round trips of every power of two 16 ... 65536 (plus 480 and 960) through the sigkern
package, at several offsets of input and output within a 4 KiB page, and a float32 STFT and a
(16, n) batch, each against numpy in float64; the package reports the level asked for."""

import math

import numpy as np
import pytest

import sigkern
from simd_levels import ORDER, require, run_body

#: relative max error (over the largest bin / sample) allowed per log2(n)
TOL = {np.float32: 2e-7, np.float64: 5e-16}
LENGTHS = [1 << k for k in range(4, 17)] + [480, 960]
#: (input offset, output offset) in elements: 4 KiB page positions and odd (unaligned) ones
OFFSETS = [(0, 0), (1, 3), (256, 0), (0, 128), (511, 255), (7, 1)]


def placed(a, off):
    """A copy of `a` starting `off` elements into a bigger buffer (with its own page offset)."""
    buf = np.zeros(a.size + off + 64, a.dtype)
    v = buf[off:off + a.size]
    v[...] = a
    return v


def check(got, want, n, dt, what):
    big = max(float(np.max(np.abs(want))), 1e-300)
    err = float(np.max(np.abs(got.astype(np.complex128) - want))) / big
    lim = TOL[dt] * max(math.log2(n), 1.0) * 4
    assert err <= lim, f"{what} n={n} {np.dtype(dt).name}: {err:.3e} > {lim:.3e}"


def fft_checks(ffi, lib):
    """The body run at each level; any failure raises (the child's stderr has the message)."""
    rng = np.random.default_rng(5)
    for dt, ct in [(np.float32, np.complex64), (np.float64, np.complex128)]:
        for n in LENGTHS:
            x = rng.standard_normal(n).astype(dt)
            want = np.fft.rfft(x.astype(np.float64))
            for xo, yo in OFFSETS:
                xv = placed(x, xo)
                yv = placed(np.zeros(n // 2 + 1, ct), yo)
                got = sigkern.rfft(xv, out=yv)
                assert got is yv or np.shares_memory(got, yv)
                check(yv, want, n, dt, f"rfft offsets {xo}/{yo}")
                back = placed(np.zeros(n, dt), xo)
                sigkern.irfft(placed(yv, yo), n, out=back)
                check(back, x.astype(np.float64), n, dt, f"round trip offsets {xo}/{yo}")
            z = (rng.standard_normal(n // 2 + 1) + 1j * rng.standard_normal(n // 2 + 1)).astype(ct)
            z[0] = z[0].real
            z[-1] = z[-1].real
            check(sigkern.irfft(z, n), np.fft.irfft(z.astype(np.complex128), n), n, dt, "irfft")
            rows = rng.standard_normal((16, n)).astype(dt)
            check(sigkern.rfft(rows), np.fft.rfft(rows.astype(np.float64)), n, dt, "batch")
        sig = rng.standard_normal(16000).astype(dt)
        for n_fft in (256, 512, 1024, 2048):
            w = np.hanning(n_fft + 1)[:-1]
            got = sigkern.stft(sig, n_fft, hop_length=n_fft // 4, window=w.astype(dt))
            pad = np.pad(sig.astype(np.float64), n_fft // 2, mode="reflect")
            idx = np.arange(got.shape[-1])[:, None] * (n_fft // 4) + np.arange(n_fft)
            want = np.fft.rfft(pad[idx] * w, axis=-1).T
            check(got, want, n_fft, dt, "stft")
    return {"package_level": np.array(sigkern.simd_level())}


@pytest.mark.parametrize("level", ORDER)
def test_fft_at_every_simd_level_matches_numpy(level, lib_path, tmp_path):
    require(level)
    got = run_body(fft_checks, level, lib_path, tmp_path)
    assert str(got["package_level"]) == level
    assert str(got["level"]) == level
