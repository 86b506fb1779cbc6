"""Out of memory is a status, never an abort: every family that allocates memory sized by the
caller runs in a child process whose address space is capped (RLIMIT_AS) a little above what it
already uses. The call must return SK_OK or SK_ERR_ALLOCATION (with a message naming the
function and nothing written), and the process must survive.

Threads never cost correctness: with SIGKERN_THREADS=16 under the same cap, worker threads that
cannot be started run their share on the calling thread, so the result is complete and correct.
"""

import json
import os
import subprocess
import sys
import textwrap

import pytest

from sk_header import INCLUDE, SK_ERR_ALLOCATION, SK_OK, library_path

# Runs in the child: loads the library, prepares the buffers, then caps the address space at
# the current size plus BUDGET bytes and runs the case body, which sets `status` (and may set
# `check`, a callable returning a string describing a wrong result, or "").
PRELUDE = r"""
import json, resource, sys
import numpy as np
from cffi import FFI
ffi = FFI()
ffi.cdef(open(sys.argv[1]).read())
lib = ffi.dlopen(sys.argv[2])
BUDGET = int(sys.argv[3])

def P(t, a):
    return ffi.from_buffer(t + "[]", a)

def cap():
    vm = next(int(l.split()[1]) for l in open("/proc/self/status") if l.startswith("VmSize:"))
    limit = vm * 1024 + BUDGET
    resource.setrlimit(resource.RLIMIT_AS, (limit, resource.getrlimit(resource.RLIMIT_AS)[1]))

def message():
    n = lib.sk_last_error_message(ffi.NULL, 0)
    b = ffi.new("char[]", n + 1)
    lib.sk_last_error_message(b, n + 1)
    return ffi.string(b).decode()

outputs = []     # arrays that must be unchanged after an error
check = None
"""

EPILOGUE = r"""
hard = resource.getrlimit(resource.RLIMIT_AS)[1]
resource.setrlimit(resource.RLIMIT_AS, (hard, hard))   # checks below may allocate
untouched = all(np.array_equal(a, b, equal_nan=True) for a, b in outputs)
wrong = check() if (check is not None and status == 0) else ""
print(json.dumps({"status": status, "message": message() if status else "",
                  "untouched": bool(untouched), "wrong": wrong}))
"""

MB = 1 << 20

# name -> (function named in the message, expected statuses, budget, body)
CASES = {
    "window_f64": ("sk_window_f64", {SK_ERR_ALLOCATION}, 64 * MB, """
        w = np.full(1 << 25, 7.0); outputs.append((w, w.copy()))
        cap(); status = lib.sk_window_f64(1, 0.0, 1, P("double", w), w.size)
    """),
    "window_f32": ("sk_window_f32", {SK_ERR_ALLOCATION}, 64 * MB, """
        w = np.full(1 << 25, 7.0, np.float32); outputs.append((w, w.copy()))
        cap(); status = lib.sk_window_f32(1, 0.0, 1, P("float", w), w.size)
    """),
    "fft_plan": ("sk_fft_plan_f64_new", {SK_ERR_ALLOCATION}, 64 * MB, """
        p = ffi.new("struct SkFftPlan **")
        cap(); status = lib.sk_fft_plan_f64_new(1, 1 << 26, p)
        assert status != 0 or p[0] != ffi.NULL
        if status: assert p[0] == ffi.NULL
    """),
    "rfft_rows": ("sk_rfft_f64", {SK_OK, SK_ERR_ALLOCATION}, 8 * MB, """
        p = ffi.new("struct SkFftPlan **")
        assert lib.sk_fft_plan_f64_new(0, 1 << 20, p) == 0
        x = np.random.default_rng(1).standard_normal(1 << 20)
        y = np.full(2 * ((1 << 19) + 1), 5.0); outputs.append((y, y.copy()))
        cap(); status = lib.sk_rfft_f64(p[0], P("double", x), 0, P("double", y), x.size)
        def check():
            want = np.fft.rfft(x)
            got = y[0::2] + 1j * y[1::2]
            return "" if np.allclose(got, want, atol=1e-6 * abs(want).max()) else "rfft differs"
    """),
    "mel_plan": ("sk_mel_plan_f64_new", {SK_ERR_ALLOCATION}, 64 * MB, """
        p = ffi.new("struct SkMelPlan **")
        cap()
        status = lib.sk_mel_plan_f64_new(48000.0, 1 << 20, 512, 1 << 20, 1, 0.0, 1, 1, 2.0, 128,
                                         0.0, 0.0, 0, 1, p)
        if status: assert p[0] == ffi.NULL
    """),
    "mel_filterbank": ("sk_mel_filterbank_f64", {SK_ERR_ALLOCATION}, 64 * MB, """
        n_fft, n_mels = 1 << 20, 32
        w = np.full(n_mels * (n_fft // 2 + 1), 3.0); outputs.append((w, w.copy()))
        cap()
        status = lib.sk_mel_filterbank_f64(48000.0, n_fft, n_mels, 0.0, 0.0, 0, 1, P("double", w),
                                           w.size)
    """),
    "convolve_fft": ("sk_convolve_f64", {SK_ERR_ALLOCATION}, 64 * MB, """
        a = np.ones(1 << 22); b = np.ones(1 << 22)
        y = np.full(a.size + b.size - 1, 9.0); outputs.append((y, y.copy()))
        cap()
        status = lib.sk_convolve_f64(P("double", a), P("double", b), 0, 2, P("double", y), a.size,
                                     b.size, y.size)
    """),
    "convolve_direct_many_threads": ("sk_convolve_f32", {SK_OK}, 16 * MB, """
        rng = np.random.default_rng(2)
        a = rng.standard_normal(65536).astype(np.float32)
        b = rng.standard_normal(4096).astype(np.float32)
        y = np.full(a.size, 9.0, np.float32)
        start = (b.size - 1) // 2
        want = np.convolve(a.astype(np.float64), b.astype(np.float64))[start:start + a.size]
        cap()
        status = lib.sk_convolve_f32(P("float", a), P("float", b), 1, 1, P("float", y), a.size,
                                     b.size, y.size)
        def check():
            err = np.abs(y - want).max() / np.abs(want).max()
            return "" if err < 1e-5 else f"relative error {err}"
    """),
    "stft_many_threads": ("sk_stft_f32", {SK_OK, SK_ERR_ALLOCATION}, 24 * MB, """
        n, n_fft, hop = 1 << 16, 512, 1
        x = np.random.default_rng(3).standard_normal(n).astype(np.float32)
        win = np.hanning(n_fft + 1)[:-1].astype(np.float32)
        frames = 1 + (n + 2 * (n_fft // 2) - n_fft) // hop
        y = np.full(2 * frames * (n_fft // 2 + 1), 4.0, np.float32); outputs.append((y, y.copy()))
        cap()
        status = lib.sk_stft_f32(P("float", x), P("float", win), n_fft, hop, n_fft, 1, 0, 1, 0,
                                 P("float", y), y.size, n)
        def check():
            xp = np.pad(x.astype(np.float64), n_fft // 2)
            got = (y[0::2] + 1j * y[1::2]).reshape(frames, -1)
            for t in (0, 1, frames // 3, frames - 1):
                want = np.fft.rfft(xp[t * hop:t * hop + n_fft] * win)
                if not np.allclose(got[t], want, atol=1e-3):
                    return f"frame {t} differs"
            return ""
    """),
    "fir_new": ("sk_fir_f64_new", {SK_ERR_ALLOCATION}, 64 * MB, """
        taps = np.full(1 << 20, 1e-6)
        out = ffi.new("struct SkFir **")
        cap(); status = lib.sk_fir_f64_new(P("double", taps), out, taps.size)
        if status: assert out[0] == ffi.NULL
    """),
    "firwin": ("sk_firwin", {SK_ERR_ALLOCATION}, 64 * MB, """
        t = np.full((1 << 25) + 1, 2.0); outputs.append((t, t.copy()))
        cap(); status = lib.sk_firwin(0, 2, 0.0, 1000.0, 0.0, 48000.0, P("double", t), t.size)
    """),
    "biquad_channels": ("sk_biquad_f64_new", {SK_ERR_ALLOCATION}, 16 * MB, """
        sos = np.array([1.0, 0.0, 0.0, 1.0, -0.5, 0.0])
        out = ffi.new("struct SkBiquad **")
        cap(); status = lib.sk_biquad_f64_new(P("double", sos), 1 << 28, out, 1)
        if status: assert out[0] == ffi.NULL
    """),
    "stft_stream_push": ("sk_stft_stream_f64_push", {SK_OK, SK_ERR_ALLOCATION}, 16 * MB, """
        win = np.hanning(65)[:-1]
        s = ffi.new("struct SkStftStream **")
        assert lib.sk_stft_stream_f64_new(P("double", win), 64, 16, 64, 1, 0, 1, 0, s) == 0
        x = np.zeros(1 << 22)
        nf = ffi.new("size_t *")
        assert lib.sk_stft_stream_push_frames(s[0], nf, x.size) == 0
        y = np.full(2 * nf[0] * 33, 6.0); outputs.append((y, y.copy()))
        got = ffi.new("size_t *", 12345)
        cap()
        status = lib.sk_stft_stream_f64_push(s[0], P("double", x), P("double", y), y.size, got,
                                             x.size)
        if status: assert got[0] == 12345
    """),
}


def run_case(body: str, budget: int, threads: int = 16):
    script = PRELUDE + textwrap.dedent(body) + EPILOGUE
    env = dict(os.environ, SIGKERN_THREADS=str(threads), RUST_MIN_STACK=str(64 << 10),
               OPENBLAS_NUM_THREADS="1", OMP_NUM_THREADS="1")
    proc = subprocess.run(
        [sys.executable, "-c", script, str(INCLUDE / "sigkern_cdef.h"), str(library_path()),
         str(budget)],
        capture_output=True, text=True, timeout=300, env=env)
    return proc


@pytest.mark.parametrize("case", sorted(CASES))
def test_out_of_memory_is_a_status(case):
    func, allowed, budget, body = CASES[case]
    proc = run_case(body, budget)
    assert proc.returncode == 0, (
        f"{case}: child died with {proc.returncode}\nstdout: {proc.stdout}\nstderr: {proc.stderr}")
    r = json.loads(proc.stdout.strip().splitlines()[-1])
    assert r["status"] in allowed, (case, r)
    if r["status"] == SK_ERR_ALLOCATION:
        assert r["message"].startswith(func + ": "), r
        assert "memory" in r["message"], r
        assert r["untouched"], f"{case}: output written on SK_ERR_ALLOCATION"
    assert r["wrong"] == "", (case, r)
    # a caught error prints nothing to the host's stderr
    assert proc.stderr == "", proc.stderr
