"""Size computations that overflow are SK_ERR_LENGTH (never a wrapped SK_OK), no reachable
panic, caught panics print nothing, and filter designs check their parameters and results."""

import math
import os
import subprocess
import sys

import numpy as np
import pytest

from sk_header import (
    INCLUDE, SK_ERR_ALLOCATION, SK_ERR_BAD_ARGUMENT, SK_ERR_LENGTH, SK_OK, library_path,
)
from sk_util import SIZE_MAX, last_error

TINY = 5e-324  # the smallest subnormal


def size_out(ffi):
    return ffi.new("size_t *", 777)


# ------------------------------------------------------------------ checked size arithmetic

def test_convolve_len_overflow_is_a_length_error(sk, ffi):
    n = size_out(ffi)
    assert sk.sk_convolve_len(0, n, SIZE_MAX, 16) == SK_ERR_LENGTH
    assert n[0] == 777
    msg = last_error(ffi, sk)
    assert msg.startswith("sk_convolve_len: ") and "overflow" in msg and "length" in msg, msg
    # the largest full length a float buffer can hold is still answered; one more is refused
    # (a length that fits in size_t but in no buffer is no answer either)
    top = (2**63 - 1) // 4
    assert sk.sk_convolve_len(0, n, top, 1) == SK_OK and n[0] == top
    assert sk.sk_convolve_len(0, n, top - 15, 16) == SK_OK and n[0] == top
    assert sk.sk_convolve_len(0, n, SIZE_MAX - 15, 16) == SK_ERR_LENGTH and n[0] == top
    assert "more than the address space can hold" in last_error(ffi, sk)
    # same/valid never grow beyond an input
    assert sk.sk_convolve_len(1, n, top, 16) == SK_OK and n[0] == top
    assert sk.sk_convolve_len(2, n, top, 16) == SK_OK and n[0] == top - 15


def test_istft_len_overflow_is_a_length_error(sk, ffi):
    n = size_out(ffi)
    assert sk.sk_istft_len(64, 16, 64, 1, 1 << 62, n) == SK_ERR_LENGTH
    assert n[0] == 777
    msg = last_error(ffi, sk)
    assert msg.startswith("sk_istft_len: ") and "overflow" in msg, msg
    assert sk.sk_istft_len(64, 16, 64, 1, 1000, n) == SK_OK
    assert n[0] == 64 + 16 * 999 - 64


def test_stft_frames_of_a_huge_signal_blame_the_length(sk, ffi):
    f = size_out(ffi)
    assert sk.sk_stft_frames(64, 16, 64, 1, 0, f, SIZE_MAX) == SK_ERR_LENGTH
    assert f[0] == 777
    msg = last_error(ffi, sk)
    assert msg.startswith("sk_stft_frames: ") and "n = 18446744073709551615" in msg, msg
    # without centre padding nothing is added, but the frames of SIZE_MAX samples (33 complex
    # floats each) fit in no buffer: refused too, as every count beyond the address space
    assert sk.sk_stft_frames(64, 16, 64, 0, 0, f, SIZE_MAX) == SK_ERR_LENGTH and f[0] == 777
    assert "more than the address space can hold" in last_error(ffi, sk)
    assert sk.sk_stft_frames(64, 16, 64, 0, 0, f, 1 << 40) == SK_OK
    assert f[0] == 1 + ((1 << 40) - 64) // 16


def test_stream_push_frames_overflow_is_a_length_error(sk, ffi):
    win = np.hanning(65)[:-1]
    s = ffi.new("struct SkStftStream **")
    assert sk.sk_stft_stream_f64_new(ffi.from_buffer("double[]", win), 64, 16, 64, 1, 0, 1, 0,
                                     s) == SK_OK
    try:
        f = size_out(ffi)
        assert sk.sk_stft_stream_push_frames(s[0], f, SIZE_MAX) == SK_ERR_LENGTH
        assert f[0] == 777
        assert "overflow" in last_error(ffi, sk)
        assert sk.sk_stft_stream_push_frames(s[0], f, 1000) == SK_OK
        assert f[0] == 1 + (1000 + 32 - 64) // 16
    finally:
        sk.sk_stft_stream_free(s[0])


# ------------------------------------------------------------------ no reachable panic

def test_window_of_impossible_size_is_not_a_panic(sk, ffi):
    # a pointer that is valid for the checks (aligned, no wrap); nothing may be written to it
    fake = ffi.cast("float *", 1 << 20)
    rc = sk.sk_window_f32(1, 0.0, 1, fake, (1 << 60) + 1)
    assert rc == SK_ERR_ALLOCATION, rc
    msg = last_error(ffi, sk)
    assert msg.startswith("sk_window_f32: ") and "panic" not in msg, msg


PANIC_CHILD = r"""
import sys
from cffi import FFI
ffi = FFI()
ffi.cdef(open(sys.argv[1]).read())
lib = ffi.dlopen(sys.argv[2])
fake = ffi.cast("float *", 1 << 20)
for _ in range(3):
    rc = lib.sk_window_f32(1, 0.0, 1, fake, (1 << 60) + 1)
    assert rc in (-8, -9), rc
print("ok")
"""


def test_errors_print_nothing_to_the_hosts_stderr():
    p = subprocess.run([sys.executable, "-c", PANIC_CHILD, str(INCLUDE / "sigkern_cdef.h"),
                        str(library_path())], capture_output=True, text=True, timeout=120)
    assert p.returncode == 0, p.stderr
    assert p.stdout.strip() == "ok"
    assert p.stderr == ""


COMPRESS16 = r"""
import hashlib
import numpy as np

def compress16(ffi, lib):
    # a 16-channel compressor over one second, as the sha256 of its output
    x = (np.random.default_rng(5).standard_normal((16, 48000)) * 0.3).astype(np.float32)
    y = np.empty_like(x)
    h = ffi.new("SkDynamics **")
    assert lib.sk_compressor_new(48000.0, -20.0, 4.0, 0.0, 1.0, 100.0, 0.0, 0, 0, h, 16) == 0
    P = lambda a: ffi.from_buffer("float[]", a)
    assert lib.sk_dynamics_process_f32(h[0], P(x), 48000, ffi.NULL, 0, P(y), 48000, 48000) == 0
    assert lib.sk_dynamics_free(h[0]) == 0
    return hashlib.sha256(y.tobytes()).hexdigest()
"""

STACK_CHILD = COMPRESS16 + r"""
import sys
from cffi import FFI
ffi = FFI()
ffi.cdef(open(sys.argv[1]).read())
print(compress16(ffi, ffi.dlopen(sys.argv[2])))
"""


def test_worker_threads_do_not_take_their_stack_size_from_the_host(sk, ffi):
    # std's default stack for new threads reads RUST_MIN_STACK: a host that sets it small
    # must not make a kernel on a library worker overflow its stack (a 16-channel compressor
    # split over two threads crashed with 64 KiB). Same bytes as in this process.
    env = dict(os.environ, RUST_MIN_STACK="16384", SIGKERN_THREADS="2")
    p = subprocess.run([sys.executable, "-c", STACK_CHILD, str(INCLUDE / "sigkern_cdef.h"),
                        str(library_path())], capture_output=True, text=True, timeout=120,
                       env=env)
    assert p.returncode == 0, (p.returncode, p.stderr)
    ns = {}
    exec(COMPRESS16, ns)
    assert p.stdout.strip() == ns["compress16"](ffi, sk)


# ------------------------------------------------------------------ filter design ranges

def sos_buf(ffi, n=6):
    a = np.full(n, 123.0)
    return a, ffi.from_buffer("double[]", a)


@pytest.mark.parametrize("fs,f0,q", [
    (48000.0, 1000.0, TINY), (48000.0, 1000.0, 1e-310), (48000.0, 1000.0, 1e-300),
    (48000.0, TINY, 0.7), (TINY, TINY / 4, 0.7), (48000.0, 1000.0, math.inf),
    (48000.0, 1000.0, -1.0), (math.inf, 1000.0, 0.7), (48000.0, 1e-12, 0.7),
])
def test_rbj_refuses_extreme_parameters_and_non_finite_designs(sk, ffi, fs, f0, q):
    for kind in range(8):
        a, p = sos_buf(ffi)
        rc = sk.sk_rbj_biquad(kind, fs, f0, q, 3.0, p)
        if rc == SK_OK:
            # whatever is accepted is finite and accepted by the biquad
            assert np.isfinite(a).all(), (kind, a)
            h = ffi.new("struct SkBiquad **")
            assert sk.sk_biquad_f64_new(p, 1, h, 1) == SK_OK, last_error(ffi, sk)
            sk.sk_biquad_free(h[0])
        else:
            assert rc == SK_ERR_BAD_ARGUMENT, (kind, rc)
            assert (a == 123.0).all()
            assert last_error(ffi, sk).startswith("sk_rbj_biquad: ")
    # the q = 5e-324 case of the report is refused for every kind
    a, p = sos_buf(ffi)
    if q == TINY:
        assert sk.sk_rbj_biquad(0, fs, f0, q, 0.0, p) == SK_ERR_BAD_ARGUMENT
        assert "q" in last_error(ffi, sk)


@pytest.mark.parametrize("f1,fs", [(1e-10, 48000.0), (1000.0, 1e300), (1e-5, 1.0)])
def test_butter_never_returns_a_design_the_biquad_refuses(sk, ffi, f1, fs):
    for band in range(4):
        for order in (1, 2, 4, 8, 16):
            n = ffi.new("size_t *", 0)
            a, p = sos_buf(ffi, 6 * 16)
            f2 = min(2 * f1, fs / 2 * 0.999)
            rc = sk.sk_butter_sos(order, band, f1, f2, fs, p, n, a.size)
            if rc == SK_OK:
                assert np.isfinite(a[:6 * n[0]]).all()
                h = ffi.new("struct SkBiquad **")
                rc2 = sk.sk_biquad_f64_new(p, 1, h, n[0])
                assert rc2 == SK_OK, (band, order, last_error(ffi, sk))
                sk.sk_biquad_free(h[0])
            else:
                assert rc == SK_ERR_BAD_ARGUMENT, rc
                assert (a == 123.0).all() and n[0] == 0
                msg = last_error(ffi, sk)
                assert msg.startswith("sk_butter_sos: ") and "design" in msg, msg


def test_butter_designs_are_ones_the_biquad_accepts(sk, ffi):
    """A cutoff of 1e-10·fs (or fs = 1e300) rounds both poles onto z = 1: a marginally stable
    section, which sk_biquad_f64_new accepts (poles on the unit circle are allowed, as in
    scipy), so the design is returned, finite, and the biquad takes it."""
    for args in ((2, 0, 1e-10, 0.0, 48000.0), (2, 0, 1000.0, 0.0, 1e300)):
        a, p = sos_buf(ffi, 6)
        assert sk.sk_butter_sos(*args, p, ffi.NULL, 6) == 0
        assert np.isfinite(a).all() and a[3] == 1.0
        h = ffi.new("SkBiquad **")
        assert sk.sk_biquad_f64_new(p, 1, h, 1) == 0
        assert sk.sk_biquad_free(h[0]) == 0


def test_butter_sections_agrees_with_butter_sos_on_valid_orders(sk):
    assert sk.sk_butter_sections(64, 0) == 32
    assert sk.sk_butter_sections(65, 0) == 0
    assert sk.sk_butter_sections(65, 2) == 0
    assert sk.sk_butter_sections(2**32 - 1, 0) == 0


def test_firwin_refuses_a_subnormal_cutoff(sk, ffi):
    t = np.full(31, 9.0)
    rc = sk.sk_firwin(0, 2, 0.0, TINY, 0.0, 48000.0, ffi.from_buffer("double[]", t), t.size)
    assert rc == SK_ERR_BAD_ARGUMENT
    assert (t == 9.0).all()
    assert last_error(ffi, sk).startswith("sk_firwin: f1 = ")


def test_mel_filterbank_with_a_tiny_rate_is_refused(sk, ffi):
    w = np.full(4 * 33, 9.0)
    rc = sk.sk_mel_filterbank_f64(5e-300, 64, 4, 0.0, 0.0, 1, 1, ffi.from_buffer("double[]", w),
                                  w.size)
    assert rc == SK_ERR_BAD_ARGUMENT, rc
    assert (w == 9.0).all()
    assert last_error(ffi, sk).startswith("sk_mel_filterbank_f64: ")
    # an ordinary rate still works
    assert sk.sk_mel_filterbank_f64(16000.0, 64, 4, 0.0, 0.0, 0, 1,
                                    ffi.from_buffer("double[]", w), w.size) == SK_OK
    assert np.isfinite(w).all()
