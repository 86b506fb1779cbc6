"""sigkern demo: the library from C, from PyTorch through ctypes, from numpy through CFFI, and
through the Python package (`import sigkern`).

Run it with `make demo` (that builds the library and the C examples first; this script builds
nothing). `examples/demo.py NAME...` runs only the sections whose title contains one of the
words; `--list` lists them.

The audio is a built-in synthetic clip: 10 s at 48 kHz of four tones, a little noise and a
quiet section (-60 dB from 6.0 s to 7.5 s), as float32.

Sections are plain functions registered with @section("title"), each taking the shared Demo
object (clip, CFFI lib, timing, tables, checks). To add one (filters, FFT, ...), write

    @section("FFT: ...")
    def fft_demo(d):
        d.compare_table([Row(...), ...])   # sigkern vs numpy, timed and verified
        d.check("what", ok)                # any other verification

A section fails if any check fails or it raises; the script then exits 1. Timings are shown,
never asserted (shared machines are noisy; compare the ratio column).
"""

from __future__ import annotations

import ctypes
import math
import os
import pathlib
import subprocess
import sys
import time
import traceback
from dataclasses import dataclass
from typing import Callable, Optional

import numpy as np

ROOT = pathlib.Path(__file__).resolve().parent.parent
LIB_PATH = pathlib.Path(os.environ.get("SIGKERN_LIB") or ROOT / "target" / "release" / "libsigkern.so")
C_EXAMPLES = ROOT / "build" / "c"
RATE = 48000
F32_EPS = float(np.finfo(np.float32).eps)
F64_EPS = float(np.finfo(np.float64).eps)


def make_clip(seconds: float = 10.0, rate: int = RATE) -> np.ndarray:
    """Four tones + Gaussian noise, with a quiet section at -60 dB from 6.0 s to 7.5 s."""
    t = np.arange(int(seconds * rate)) / rate
    x = (
        0.30 * np.sin(2 * np.pi * 220.0 * t)
        + 0.20 * np.sin(2 * np.pi * 440.0 * t + 0.5)
        + 0.10 * np.sin(2 * np.pi * 1000.0 * t + 1.0)
        + 0.05 * np.sin(2 * np.pi * 3520.0 * t)
        + 0.02 * np.random.default_rng(2026).standard_normal(t.size)
    )
    x[int(6.0 * rate) : int(7.5 * rate)] *= 1e-3
    return np.ascontiguousarray(x, dtype=np.float32)


# ------------------------------------------------------------------------------- framework


SECTIONS: list[tuple[str, Callable[["Demo"], None]]] = []


def section(title: str):
    """Registers a demo section; sections run in the order they are defined."""

    def register(fn):
        SECTIONS.append((title, fn))
        return fn

    return register


def table(headers: list[str], rows: list[list[str]], right: set[int] = frozenset()) -> None:
    """Prints rows as an aligned text table; columns in `right` are right-aligned."""
    widths = [max(len(str(c)) for c in col) for col in zip(headers, *rows)]

    def line(cells):
        out = []
        for i, (c, w) in enumerate(zip(cells, widths)):
            out.append(f"{c:>{w}}" if i in right else f"{c:<{w}}")
        return "  " + "  ".join(out).rstrip()

    print(line(headers))
    print("  " + "  ".join("-" * w for w in widths))
    for r in rows:
        print(line(r))


def fmt_time(seconds: float) -> str:
    if seconds < 1e-3:
        return f"{seconds * 1e6:.1f} us"
    return f"{seconds * 1e3:.2f} ms"


@dataclass
class Row:
    """One sigkern-vs-numpy comparison: both functions do the same work on preallocated data.

    verify() runs once, after one call of each, and returns (ok, detail): what was compared and
    how close it came. sigkern() must raise on a non-zero status (use Demo.sk).
    """

    op: str
    what: str
    sigkern: Callable[[], object]
    numpy: Callable[[], object]
    numpy_label: str
    verify: Callable[[], tuple[bool, str]]


class Demo:
    def __init__(self, clip: np.ndarray):
        from cffi import FFI

        self.clip = clip
        self.n = clip.size
        self.ffi = FFI()
        # the declarations are the generated header's, verbatim
        self.ffi.cdef((ROOT / "include" / "sigkern_cdef.h").read_text())
        self.lib = self.ffi.dlopen(str(LIB_PATH))
        self.failures: list[str] = []

    # -- results -----------------------------------------------------------------------------
    def check(self, label: str, ok: bool) -> bool:
        if not ok:
            self.failures.append(label)
            print(f"  CHECK FAILED: {label}")
        return ok

    def last_error(self) -> str:
        n = self.lib.sk_last_error_message(self.ffi.NULL, 0)
        buf = self.ffi.new("char[]", n + 1)
        self.lib.sk_last_error_message(buf, n + 1)
        return self.ffi.string(buf).decode()

    def sk(self, rc: int) -> None:
        """Raises with the status name and the library's message unless rc is SK_OK."""
        if rc != 0:
            name = self.ffi.string(self.lib.sk_status_name(rc)).decode()
            raise RuntimeError(f"{name}: {self.last_error()}")

    def buf(self, arr: np.ndarray):
        """A zero-copy CFFI pointer to a float32/float64 numpy array."""
        ctype = {np.float32: "float[]", np.float64: "double[]"}[arr.dtype.type]
        return self.ffi.from_buffer(ctype, arr)

    # -- timing ------------------------------------------------------------------------------
    @staticmethod
    def timeit(fn: Callable[[], object], min_time: float = 0.02) -> float:
        """Best seconds per call: calls per repeat grown until a repeat takes min_time."""
        fn()
        number = 1
        while True:
            t0 = time.perf_counter()
            for _ in range(number):
                fn()
            t = time.perf_counter() - t0
            if t >= min_time:
                return t / number
            number *= 2 if t > min_time / 10 else 10

    def compare_table(self, rows: list[Row], rounds: int = 3) -> None:
        """Verifies each row, then times sigkern and numpy interleaved (best of `rounds`).

        sigkern kernels are single-threaded, so numpy's BLAS is limited to one thread too (a
        multi-threaded BLAS on a small, shared machine mostly measures contention)."""
        from threadpoolctl import threadpool_limits

        with threadpool_limits(limits=1):
            self._compare_table(rows, rounds)

    def _compare_table(self, rows: list[Row], rounds: int) -> None:
        out = []
        for r in rows:
            try:
                r.sigkern()
                r.numpy()
                ok, detail = r.verify()
            except Exception as e:  # a failing status or a broken reference
                ok, detail = False, f"{type(e).__name__}: {e}"
            self.check(f"{r.op}: {detail}", ok)
            ts = tn = math.inf
            if ok:
                for _ in range(rounds):
                    ts = min(ts, self.timeit(r.sigkern))
                    tn = min(tn, self.timeit(r.numpy))
            ratio = f"{tn / ts:.2f}x" if ok else "-"
            out.append(
                [r.op, r.what, fmt_time(ts) if ok else "-", fmt_time(tn) if ok else "-",
                 ratio, r.numpy_label, ("ok " if ok else "FAIL ") + detail]
            )
        table(["op", "what", "sigkern", "numpy", "speed-up", "numpy code", "check"], out,
              right={2, 3, 4})
        print("  speed-up = numpy time / sigkern time (> 1: sigkern is faster); best of "
              f"{rounds} interleaved runs,\n  one thread each (BLAS limited to 1), "
              f"{self.n} samples per call")


# ---------------------------------------------------------------------------------- sections


@section("C examples (examples/c/*.c, built by make and linked against libsigkern.so)")
def c_examples(d: Demo) -> None:
    bins = sorted(C_EXAMPLES.glob("*-shared"))
    if not d.check(f"C example binaries exist in {C_EXAMPLES} (run `make demo`)", bool(bins)):
        return
    for b in bins:
        print(f"$ {b.relative_to(ROOT)}")
        p = subprocess.run([str(b)], capture_output=True, text=True, timeout=120)
        for line in (p.stdout + p.stderr).rstrip().splitlines():
            print(f"  | {line}")
        d.check(f"{b.name} exit status {p.returncode}", p.returncode == 0)
        print()


@section("PyTorch + ctypes: tensor.data_ptr() straight into C (the seed-000 way)")
def torch_ctypes(d: Demo) -> None:
    import torch

    lib = ctypes.CDLL(str(LIB_PATH))
    f32p = ctypes.POINTER(ctypes.c_float)

    def ptr(t: torch.Tensor):
        assert t.is_contiguous() and t.dtype == torch.float32 and t.device.type == "cpu"
        return ctypes.cast(t.data_ptr(), f32p)

    # exactly the seed's declaration: void process_data(float *data_ptr, int size)
    lib.process_data.argtypes = [f32p, ctypes.c_int]
    lib.process_data.restype = None

    tensor = torch.from_numpy(d.clip.copy())  # shares memory with a copy of the clip
    original = tensor.clone()
    lib.process_data(ptr(tensor), tensor.numel())
    peak_before = float(original.abs().max())
    expected = original / original.abs().max()
    rows = [["process_data(t, n)", "peak-normalise in place",
             f"peak {peak_before:.6f} -> {float(tensor.abs().max()):.6f}",
             "t / t.abs().max()", "equal" if torch.equal(tensor, expected) else "DIFFERS"]]
    d.check("process_data == t / t.abs().max() and peak 1.0",
            torch.equal(tensor, expected) and float(tensor.abs().max()) == 1.0)

    # the sk_* kernels through the same mechanism, with their int32 status
    for name, args in {
        "sk_scale_f32": [f32p, ctypes.c_float, f32p, ctypes.c_size_t],
        "sk_clip_f32": [f32p, ctypes.c_float, ctypes.c_float, f32p, ctypes.c_size_t],
        "sk_rms_f32": [f32p, f32p, ctypes.c_size_t],
        "sk_dot_f32": [f32p, f32p, f32p, ctypes.c_size_t],
    }.items():
        getattr(lib, name).argtypes = args
        getattr(lib, name).restype = ctypes.c_int32
    x = torch.from_numpy(d.clip)  # read-only use
    n = x.numel()
    y = torch.empty_like(x)
    out = ctypes.c_float()

    rc = lib.sk_scale_f32(ptr(x), 0.5, ptr(y), n)
    ok = rc == 0 and torch.equal(y, x * 0.5)
    d.check("sk_scale_f32 == x * 0.5", ok)
    rows.append(["sk_scale_f32(x, 0.5, y, n)", "-6 dB gain", f"y[1] = {float(y[1]):.6f}",
                 "x * 0.5", "equal" if ok else "DIFFERS"])

    rc = lib.sk_clip_f32(ptr(x), -0.25, 0.25, ptr(y), n)
    ok = rc == 0 and torch.equal(y, x.clamp(-0.25, 0.25))
    d.check("sk_clip_f32 == x.clamp(-0.25, 0.25)", ok)
    rows.append(["sk_clip_f32(x, -.25, .25, y, n)", "hard clip",
                 f"{int((y.abs() == 0.25).sum())} samples clipped", "x.clamp(-0.25, 0.25)",
                 "equal" if ok else "DIFFERS"])

    rc = lib.sk_rms_f32(ptr(x), ctypes.byref(out), n)
    ref = math.sqrt(float(x.double().square().mean()))
    ok = rc == 0 and abs(out.value - ref) <= F32_EPS * ref
    d.check("sk_rms_f32 vs float64 torch within 1 float32 eps (relative)", ok)
    rows.append(["sk_rms_f32(x, &out, n)", "RMS level",
                 f"{out.value:.7f} ({20 * math.log10(out.value):.2f} dBFS)",
                 "x.double().square().mean().sqrt()", f"rel err {abs(out.value - ref) / ref:.1e}"])

    rc = lib.sk_dot_f32(ptr(x), ptr(tensor), ctypes.byref(out), n)
    ref = float(torch.dot(x.double(), tensor.double()))
    tol = 15 * F32_EPS * float((x.double() * tensor.double()).abs().sum())
    ok = rc == 0 and abs(out.value - ref) <= tol
    d.check("sk_dot_f32 vs float64 torch.dot within 15 eps * sum|a*b|", ok)
    rows.append(["sk_dot_f32(x, t, &out, n)", "clip . normalised clip", f"{out.value:.3f}",
                 "torch.dot in float64", f"abs err {abs(out.value - ref):.1e} (tol {tol:.1e})"])

    # a refused call: with a status-returning declaration the error is visible to Python
    lib.process_data.restype = ctypes.c_int32
    bad = torch.tensor([0.5, float("nan"), 2.0])
    before = bad.clone()
    rc = lib.process_data(ptr(bad), 3)
    msg = ctypes.create_string_buffer(lib.sk_last_error_message(None, 0) + 1)
    lib.sk_last_error_message(msg, len(msg))
    ok = rc == -6 and torch.equal(bad.isnan(), before.isnan()) and bad[0] == 0.5 and bad[2] == 2.0
    d.check("process_data on a NaN tensor -> SK_ERR_NON_FINITE, tensor untouched", ok)
    rows.append(["process_data([.5, nan, 2], 3)", "bad input", f"status {rc}", "-",
                 msg.value.decode()])
    table(["call", "what", "result", "torch reference", "check"], rows)


@section("numpy + CFFI: ffi.from_buffer('float[]', arr) into the kernels, timed against numpy")
def numpy_cffi(d: Demo) -> None:
    x = d.clip
    n = x.size
    rate = RATE
    t = np.arange(n) / rate
    bed = np.ascontiguousarray(0.2 * np.sin(2 * np.pi * 110.0 * t), dtype=np.float32)
    env = np.ascontiguousarray(0.6 + 0.4 * np.cos(2 * np.pi * 0.5 * t), dtype=np.float32)
    y, yn = np.empty_like(x), np.empty_like(x)
    px, pbed, penv, py = d.buf(x), d.buf(bed), d.buf(env), d.buf(y)
    out = d.ffi.new("float *")
    lib, sk = d.lib, d.sk
    x64 = x.astype(np.float64)
    bed64 = bed.astype(np.float64)
    px64, pbed64 = d.buf(x64), d.buf(bed64)
    out64 = d.ffi.new("double *")

    def same(label="bit-identical to numpy"):
        return lambda: (np.array_equal(y, yn), label)

    def near(got, ref, tol, unit=""):
        err = abs(float(got) - float(ref))
        return err <= tol, f"|err| {err:.1e} <= {tol:.1e}{unit}"

    # axpy accumulates: each call starts from the bed again (copy included on both sides)
    def sk_axpy():
        np.copyto(y, bed)
        sk(lib.sk_axpy_f32(penv, 0.5, py, n))

    def np_axpy():
        np.copyto(yn, bed)
        yn.__iadd__(0.5 * env)

    # process_data normalises in place: work on a fresh copy each call, on both sides
    def sk_norm():
        np.copyto(y, x)
        sk(lib.process_data(py, n))

    def np_norm():
        np.copyto(yn, x)
        yn.__itruediv__(np.abs(yn).max())

    sum_abs = float(np.abs(x64).sum())
    rows = [
        Row("gain", "y = 0.5 x", lambda: sk(lib.sk_scale_f32(px, 0.5, py, n)),
            lambda: np.multiply(x, np.float32(0.5), out=yn), "np.multiply(x, .5, out=y)",
            same()),
        Row("clip", "y = clip(x, -.25, .25)",
            lambda: sk(lib.sk_clip_f32(px, -0.25, 0.25, py, n)),
            lambda: np.clip(x, np.float32(-0.25), np.float32(0.25), out=yn),
            "np.clip(x, lo, hi, out=y)", same()),
        Row("mix", "y = x + bed", lambda: sk(lib.sk_add_f32(px, pbed, py, n)),
            lambda: np.add(x, bed, out=yn), "np.add(x, bed, out=y)", same()),
        Row("duck", "y = x * envelope", lambda: sk(lib.sk_mul_f32(px, penv, py, n)),
            lambda: np.multiply(x, env, out=yn), "np.multiply(x, env, out=y)", same()),
        Row("axpy", "y = bed; y += .5 env", sk_axpy, np_axpy, "y[:] = bed; y += .5 * env",
            same()),
        Row("abs", "y = |x|", lambda: sk(lib.sk_abs_f32(px, py, n)),
            lambda: np.abs(x, out=yn), "np.abs(x, out=y)", same()),
        Row("normalise", "seed process_data", sk_norm, np_norm, "y[:] = x; y /= abs(y).max()",
            same()),
        Row("copy", "y = x", lambda: sk(lib.sk_copy_f32(px, py, n)),
            lambda: np.copyto(yn, x), "np.copyto(y, x)", same()),
        Row("peak", "max |x|", lambda: sk(lib.sk_peak_f32(px, out, n)),
            lambda: np.abs(x).max(), "np.abs(x).max()",
            lambda: (out[0] == np.abs(x).max(), f"equal: {out[0]:.7f}")),
        Row("rms", "sqrt(mean(x^2))", lambda: sk(lib.sk_rms_f32(px, out, n)),
            lambda: np.sqrt(np.mean(x * x)), "np.sqrt(np.mean(x * x))",
            lambda: near(out[0], math.sqrt(math.fsum(x64 * x64) / n),
                         F32_EPS * math.sqrt(math.fsum(x64 * x64) / n), " (fsum ref)")),
        Row("sum", "sum x", lambda: sk(lib.sk_sum_f32(px, out, n)), lambda: x.sum(), "x.sum()",
            lambda: near(out[0], math.fsum(x64), 14 * F32_EPS * sum_abs, " (fsum ref)")),
        Row("min", "min x", lambda: sk(lib.sk_min_f32(px, out, n)), lambda: x.min(),
            "x.min()", lambda: (out[0] == x.min(), f"equal: {out[0]:.7f}")),
        Row("max", "max x", lambda: sk(lib.sk_max_f32(px, out, n)), lambda: x.max(),
            "x.max()", lambda: (out[0] == x.max(), f"equal: {out[0]:.7f}")),
        Row("dot", "x . bed", lambda: sk(lib.sk_dot_f32(px, pbed, out, n)),
            lambda: np.dot(x, bed), "np.dot(x, bed) (BLAS)",
            lambda: near(out[0], math.fsum(x64 * bed64),
                         15 * F32_EPS * float(np.abs(x64 * bed64).sum()), " (fsum ref)")),
        Row("sum f64", "sum x (double)", lambda: sk(lib.sk_sum_f64(px64, out64, n)),
            lambda: x64.sum(), "x64.sum()",
            lambda: near(out64[0], math.fsum(x64),
                         (15 + math.log2(n / 512)) * F64_EPS * sum_abs, " (fsum ref)")),
        Row("dot f64", "x . bed (double)", lambda: sk(lib.sk_dot_f64(px64, pbed64, out64, n)),
            lambda: np.dot(x64, bed64), "np.dot(x64, bed64) (BLAS)",
            lambda: near(out64[0], math.fsum(x64 * bed64),
                         (16 + math.log2(n / 512)) * F64_EPS * float(np.abs(x64 * bed64).sum()),
                         " (fsum ref)")),
    ]
    d.compare_table(rows)

    # the contract from Python: a wrong call is refused with a reason, and y is not touched
    y.fill(7.0)
    rc = lib.sk_add_f32(px, pbed, d.ffi.from_buffer("float[]", y[1:]), n - 1)  # fine
    rc_bad = lib.sk_add_f32(d.buf(y[:-1]), pbed, d.ffi.from_buffer("float[]", y[1:]), n - 1)
    print(f"\n  sk_add_f32(y[:-1], bed, y[1:], n-1) -> "
          f"{d.ffi.string(lib.sk_status_name(rc_bad)).decode()}: {d.last_error()}")
    d.check("partial overlap refused with SK_ERR_OVERLAP", rc == 0 and rc_bad == -4)


# ------------------------------------------------------------------------------------- main


@section("The Python package: `import sigkern` on the clip, timed against numpy/scipy/torch/librosa")
def package(d: Demo) -> None:
    import librosa
    import scipy.signal as ss
    import torch

    import sigkern

    clip = d.clip
    n = clip.size

    def rel(a, b) -> float:
        """max |a - b| / max |b|, in double precision (real or complex)."""
        a = np.asarray(a).astype(np.result_type(np.asarray(a).dtype, np.float64))
        b = np.asarray(b).astype(np.result_type(np.asarray(b).dtype, np.float64))
        return float(np.abs(a - b).max() / max(np.abs(b).max(), 1e-300))

    # PCM: float32 -> int16 -> float32, as a WAV reader/writer would
    pcm = sigkern.float_to_pcm(clip, "int16")
    pcm_ref = np.clip(np.rint(clip * 32768.0), -32768, 32767).astype(np.int16)
    back = np.empty_like(clip)
    # stereo (2, n) planar from the clip, and the same as interleaved frames
    stereo = np.stack([clip, 0.5 * clip])
    inter = np.empty((n, 2), np.float32)
    # an order-8 Butterworth low-pass at 1 kHz, streamed in 512-frame blocks through a Biquad
    sos = sigkern.butter(8, 1000.0, "low", fs=RATE, output="sos")
    filt = sigkern.Biquad(sos, channels=2, dtype=np.float32)
    y_sk = np.empty_like(stereo)
    y_sp = np.empty_like(stereo)
    zi0 = np.zeros((sos.shape[0], 2, 2))

    def sk_blocks():
        filt.reset()
        for i in range(0, n, 512):
            filt.process(stereo[:, i:i + 512], out=y_sk[:, i:i + 512])

    def scipy_blocks():
        zi = zi0
        for i in range(0, n, 512):
            y_sp[:, i:i + 512], zi = ss.sosfilt(sos, stereo[:, i:i + 512], zi=zi)

    window = sigkern.get_window("hann", 1024, dtype=np.float32)
    twin = torch.from_numpy(window)
    tclip = torch.from_numpy(clip)
    rows = [
        Row("float_to_pcm", "float32 -> int16 (round half even, saturate)",
            lambda: sigkern.float_to_pcm(clip, "int16", out=pcm),
            lambda: np.clip(np.rint(clip * 32768.0), -32768, 32767).astype(np.int16),
            "np.clip(np.rint(x*32768), ..).astype(int16)",
            lambda: (np.array_equal(pcm, pcm_ref), "equal to numpy")),
        Row("pcm_to_float", "int16 -> float32 (x / 32768)",
            lambda: sigkern.pcm_to_float(pcm, out=back), lambda: pcm.astype(np.float32) / 32768,
            "pcm.astype(np.float32) / 32768",
            lambda: (np.array_equal(back, pcm.astype(np.float32) / 32768), "equal to numpy")),
        Row("interleave", "(2, n) planar -> (n, 2) frames",
            lambda: sigkern.interleave(stereo, out=inter), lambda: stereo.T.copy(), "stereo.T.copy()",
            lambda: (np.array_equal(inter, stereo.T), "equal to numpy")),
        Row("Biquad", "order-8 low-pass, stereo, 512-frame blocks", sk_blocks, scipy_blocks,
            "sosfilt(sos, block, zi=zi) per block",
            lambda: (rel(y_sk, y_sp) < 1e-4, f"max rel. diff to scipy {rel(y_sk, y_sp):.1e}")),
        Row("rms", "per channel of (2, n)", lambda: sigkern.rms(stereo, axis=-1),
            lambda: np.sqrt(np.mean(stereo * stereo, axis=-1)), "np.sqrt(np.mean(x*x, axis=-1))",
            lambda: (rel(sigkern.rms(stereo, axis=-1), np.sqrt(np.mean(stereo.astype(np.float64) ** 2, axis=-1)))
                     < 1e-6, "matches float64 numpy")),
        Row("stft", "n_fft 1024, hop 256, Hann, centered",
            lambda: sigkern.stft(clip, 1024, 256, window=window),
            lambda: torch.stft(tclip, 1024, 256, window=twin, return_complex=True), "torch.stft(...)",
            lambda: (rel(sigkern.stft(clip, 1024, 256, window=window),
                         torch.stft(tclip.double(), 1024, 256, window=twin.double(),
                                    return_complex=True).numpy()) < 1e-5, "matches torch.stft in float64")),
        Row("log-mel", "128 mels, n_fft 2048, hop 512, power_to_db(ref=np.max)",
            lambda: sigkern.power_to_db(sigkern.melspectrogram(y=clip, sr=RATE), ref=np.max),
            lambda: librosa.power_to_db(librosa.feature.melspectrogram(y=clip, sr=RATE), ref=np.max),
            "librosa.power_to_db(librosa.feature.melspectrogram(..))",
            lambda: (float(np.abs(sigkern.power_to_db(sigkern.melspectrogram(y=clip, sr=RATE), ref=np.max)
                                  - librosa.power_to_db(librosa.feature.melspectrogram(
                                      y=clip.astype(np.float64), sr=RATE), ref=np.max)).max()) < 1e-3,
                     "within 0.001 dB of librosa in float64")),
    ]
    d.compare_table(rows)
    filt.close()

    # the contract from Python: refused before C with a fix, or a typed library error
    for what, fn in (
        ("float16 input", lambda: sigkern.rms(clip.astype(np.float16))),
        ("a closed filter", lambda: filt.process(stereo[:, :64])),
        ("clip bounds the wrong way round", lambda: sigkern.clip(clip, 1.0, -1.0)),
    ):
        try:
            fn()
            d.check(f"{what} refused", False)
        except (TypeError, ValueError) as e:
            print(f"  {what}: {type(e).__name__}: {e}")


@section("Filters and spectra from Python: examples/python/filter_demo.py, logmel_png.py")
def area_examples(d: Demo) -> None:
    png = ROOT / "build" / "logmel.png"
    png.parent.mkdir(exist_ok=True)
    runs = [
        [sys.executable, str(ROOT / "examples/python/filter_demo.py"), str(LIB_PATH)],
        [sys.executable, str(ROOT / "examples/python/logmel_png.py"), str(png)],
    ]
    for cmd in runs:
        print(f"$ {pathlib.Path(cmd[1]).relative_to(ROOT)} {' '.join(cmd[2:])}")
        env = dict(os.environ, SIGKERN_LIB=str(LIB_PATH))
        p = subprocess.run(cmd, capture_output=True, text=True, timeout=300, env=env)
        for line in (p.stdout + p.stderr).rstrip().splitlines():
            print(f"  | {line}")
        d.check(f"{pathlib.Path(cmd[1]).name} exit status {p.returncode}", p.returncode == 0)
        print()
    d.check(f"log-mel spectrogram image written to {png.relative_to(ROOT)}", png.exists())


@section("The command line: sigkern info, loudness, normalize, resample, features on a file set")
def command_line(d: Demo) -> None:
    import json
    import shutil

    import soundfile as sf

    import sigkern

    work = ROOT / "build" / "cli-demo"
    shutil.rmtree(work, ignore_errors=True)
    corpus = work / "corpus"
    corpus.mkdir(parents=True)
    # six short clips of the demo signal at other rates, channel counts, levels and formats
    specs = [("podcast_48k_stereo.wav", 48000, 2, "PCM_16", 0.8),
             ("interview_44k_mono.flac", 44100, 1, "PCM_24", 0.3),
             ("jingle_32k_stereo.wav", 32000, 2, "FLOAT", 1.6),
             ("speech_16k_mono.flac", 16000, 1, "PCM_16", 0.5),
             ("ad_22k_mono.wav", 22050, 1, "PCM_24", 1.0),
             ("intro_48k_stereo.flac", 48000, 2, "PCM_24", 0.15)]
    for name, rate, ch, sub, level in specs:
        x = sigkern.resample(d.clip[: 4 * RATE], RATE, rate) * level
        y = np.stack([x, np.roll(x, 37)], axis=1)[:, :ch] if ch == 2 else x
        sf.write(str(corpus / name), y, rate, subtype=sub)

    def run(*args: str, show: bool = True) -> str:
        """`python -m sigkern ARGS` in build/cli-demo (so that paths stay short)."""
        if show:
            print(f"$ sigkern {' '.join(args)}")
        t0 = time.perf_counter()
        p = subprocess.run([sys.executable, "-m", "sigkern", *args], capture_output=True,
                           text=True, timeout=300, env=dict(os.environ, CI="1"), cwd=work)
        if show:
            for line in (p.stdout + p.stderr).rstrip().splitlines():
                print(f"  | {line}")
            print(f"  ({time.perf_counter() - t0:.2f} s with interpreter start-up)\n")
        d.check(f"sigkern {args[0]} exit status {p.returncode}", p.returncode == 0)
        return p.stdout

    run("info", "corpus", "-j", "2")
    run("loudness", "--album", "corpus", "-j", "2")
    run("normalize", "corpus", "-o", "normalized", "--lufs", "-16", "--true-peak", "-1", "-j", "2")
    run("loudness", "normalized", "-j", "2")
    rows = json.loads(run("loudness", "--json", "normalized", "-q", show=False) or "[]")
    d.check("every normalised file at -16 LUFS (±0.5 LU where the limiter held the peaks) "
            "and at or below -1 dBTP",
            len(rows) == len(specs) and all(abs(r["integrated"] + 16) < 0.5 and
                                            r["true_peak"] <= -0.99 for r in rows))
    run("resample", "corpus", "-o", "16k", "--rate", "16000", "--channels", "mono", "-j", "2")
    run("features", "corpus", "-o", "features", "--kind", "whisper", "-j", "2")
    index = json.loads((work / "features" / "index.json").read_text())
    first = index["files"][0]
    a = np.load(work / "features" / first["features"])
    print(f"  {work.relative_to(ROOT)}/features/index.json lists {len(index['files'])} files; "
          f"{first['features']}: {a.dtype} {a.shape}")
    d.check("one Whisper log-mel .npy per file, listed in index.json",
            len(index["files"]) == len(specs) and a.shape[0] == 80)
    print("\n(run again: nothing to do, every file is already done)")
    run("features", "corpus", "-o", "features", "--kind", "whisper", "-j", "2", "-q")


def main(argv: list[str]) -> int:
    if "--list" in argv:
        for title, _ in SECTIONS:
            print(title)
        return 0
    if not LIB_PATH.exists():
        print(f"{LIB_PATH} not found: run `make demo` (it builds the library first)")
        return 1
    clip = make_clip()
    d = Demo(clip)
    version = d.ffi.string(d.lib.sk_version()).decode()
    simd = d.ffi.string(d.lib.sk_simd_level()).decode()
    print(f"sigkern {version}  SIMD level {simd}  library {LIB_PATH}")
    quiet = np.abs(clip[int(6.0 * RATE) : int(7.5 * RATE)]).max()
    print(f"clip: {clip.size} float32 samples = {clip.size / RATE:.0f} s at {RATE} Hz; tones "
          f"220/440/1000/3520 Hz + noise; peak {np.abs(clip).max():.3f}, quiet 6.0-7.5 s "
          f"(peak {quiet:.4f})")

    chosen = [(t, f) for t, f in SECTIONS if not argv or any(a.lower() in t.lower() for a in argv)]
    for title, fn in chosen:
        print(f"\n=== {title}\n")
        before = len(d.failures)
        try:
            fn(d)
        except Exception:
            traceback.print_exc()
            d.failures.append(f"section '{title}' raised")
        if len(d.failures) > before:
            print(f"  section had {len(d.failures) - before} failed check(s)")

    print()
    if d.failures:
        print(f"demo: {len(d.failures)} check(s) FAILED:")
        for f in d.failures:
            print(f"  - {f}")
        return 1
    print(f"demo: all checks passed ({len(chosen)} sections)")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
