"""Filter demo with CFFI + numpy: design an order-8 Butterworth low-pass with sigkern, filter a
noisy tone (16 channels, float32) in chunks through a biquad handle, show how much noise was
removed, check the result against scipy, and time it against scipy.signal.sosfilt.

Run: .venv/bin/python examples/python/filter_demo.py [path/to/libsigkern.so]
Exits 1 if a check fails.
"""

import os
import pathlib
import sys
import time

import numpy as np
import scipy.signal as ss
from cffi import FFI

ROOT = pathlib.Path(__file__).resolve().parents[2]


def _default_library() -> str:
    release = ROOT / "target" / "release"
    names = {"win32": "sigkern.dll", "cygwin": "sigkern.dll", "darwin": "libsigkern.dylib"}
    return str(release / names.get(sys.platform, "libsigkern.so"))


LIB_PATH = sys.argv[1] if len(sys.argv) > 1 else os.environ.get("SIGKERN_LIB") or _default_library()
ffi = FFI()
ffi.cdef((ROOT / "include" / "sigkern_cdef.h").read_text())
sk = ffi.dlopen(LIB_PATH)

failures = []


def check(label, ok):
    print(f"check {label}: {'ok' if ok else 'FAILED'}")
    if not ok:
        failures.append(label)


def last_error():
    n = sk.sk_last_error_message(ffi.NULL, 0)
    buf = ffi.new("char[]", n + 1)
    sk.sk_last_error_message(buf, n + 1)
    return ffi.string(buf).decode()


RATE, N, CH = 48000.0, 48000 * 10, 16

# 1. design
n_sec = sk.sk_butter_sections(8, sk.SK_BAND_LOWPASS)
sos = np.zeros((n_sec, 6))
assert sk.sk_butter_sos(8, sk.SK_BAND_LOWPASS, 1000.0, 0.0, RATE, ffi.from_buffer("double[]", sos), ffi.NULL, sos.size) == 0
print(f"designed an order-8 Butterworth low-pass at 1 kHz ({n_sec} sections)")
check("design equals scipy.signal.butter(8, 1000, fs=48000, output='sos')",
      np.abs(sos - ss.butter(8, 1000.0, fs=RATE, output="sos")).max() <= 1e-12)

# 2. a noisy tone per channel (different frequencies and noise), float32, planar (CH, N)
rng = np.random.default_rng(0)
t = np.arange(N) / RATE
freqs = np.linspace(200.0, 600.0, CH)
tone = np.sin(2 * np.pi * freqs[:, None] * t).astype(np.float32)
noisy = (tone + 0.5 * rng.uniform(-1, 1, (CH, N))).astype(np.float32)

# 3. filter in chunks through a handle (zero-copy: CFFI pointers into the numpy arrays)
out = ffi.new("SkBiquad **")
assert sk.sk_biquad_f32_new(ffi.from_buffer("double[]", sos), CH, out, n_sec) == 0
h = out[0]
y = np.empty_like(noisy)
pos, chunk = 0, 4800
t0 = time.perf_counter()
while pos < N:
    m = min(chunk, N - pos)
    xp = ffi.cast("float *", noisy[:, pos:].ctypes.data)
    yp = ffi.cast("float *", y[:, pos:].ctypes.data)
    assert sk.sk_biquad_f32_process(h, xp, N, yp, N, m) == 0  # row stride N, m samples per row
    pos += m
t_chunks = time.perf_counter() - t0
print(f"filtered {CH} channels x {N} samples in {N // chunk} chunks of {chunk}: {t_chunks * 1e3:.1f} ms")

# 4. noise removed: filter the clean tones the same way and compare the residuals
clean = np.empty_like(tone)
assert sk.sk_sosfilt_f32(ffi.from_buffer("double[]", sos), ffi.from_buffer("float[]", tone), N, ffi.NULL, CH,
                         ffi.from_buffer("float[]", clean), N, ffi.NULL, n_sec, N) == 0
skip = int(RATE // 10)
noise_in = np.sqrt(np.mean((noisy - tone)[:, skip:].astype(np.float64) ** 2))
noise_out = np.sqrt(np.mean((y - clean)[:, skip:].astype(np.float64) ** 2))
print(f"noise RMS {noise_in:.4f} -> {noise_out:.4f}: {20 * np.log10(noise_in / noise_out):.1f} dB removed")
check("noise cut by at least 10 dB", 20 * np.log10(noise_in / noise_out) >= 10)
check("tones kept within 1 % RMS",
      abs(np.sqrt(np.mean(clean[:, skip:] ** 2)) / np.sqrt(np.mean(tone[:, skip:] ** 2)) - 1) < 0.01)

# 5. against scipy (float64 reference) and timing
t0 = time.perf_counter()
ref = ss.sosfilt(sos, noisy, axis=-1)
t_scipy = time.perf_counter() - t0


def l1(s, n=1 << 15):
    imp = np.zeros(n)
    imp[0] = 1.0
    return float(np.abs(ss.sosfilt(s, imp)).sum()) if len(s) else 1.0


def f32_bound(s, peak_x):
    """The float accuracy bound of docs/filters.md."""
    norm = s / s[:, 3:4]
    arith = sum(l1(s[:i]) * np.abs(norm[i]).sum() * l1(s[i:]) for i in range(len(s)))
    sens = sum((abs(r[4]) + abs(r[5])) * l1(np.array([[1, 0, 0, 1, r[4], r[5]]])) for r in norm)
    return 2.0**-24 * peak_x * (4 * arith + 2 * sens * l1(s))


err = np.abs(y - ref).max()
bound = f32_bound(sos, float(np.abs(noisy).max()))
print(f"max |sigkern float32 - scipy float64| = {err:.2e} (peak {np.abs(ref).max():.2f}; derived bound {bound:.2e})")
check("float32 result within the derived bound", err <= bound)
sk.sk_biquad_reset(h)
yp, xp = ffi.from_buffer("float[]", y), ffi.from_buffer("float[]", noisy)
best = min(
    (lambda s: (sk.sk_biquad_f32_process(h, xp, N, yp, N, N), time.perf_counter() - s)[1])(time.perf_counter())
    for _ in range(3)
)
print(f"one call, all {CH} channels: sigkern {best * 1e3:.1f} ms, scipy.signal.sosfilt {t_scipy * 1e3:.1f} ms "
      f"({t_scipy / best:.1f}x)")

# 6. misuse is reported, not crashed on
check("freeing the handle", sk.sk_biquad_free(h) == 0)
check("using it afterwards is SK_ERR_INVALID_HANDLE",
      sk.sk_biquad_f32_process(h, xp, N, yp, N, N) == sk.SK_ERR_INVALID_HANDLE)
print("   ", last_error())

print("all checks passed" if not failures else f"FAILED: {failures}")
sys.exit(1 if failures else 0)
