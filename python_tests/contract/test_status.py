"""Status API: sk_status_name for every code, sk_last_error_message (truncation, length query,
per-thread messages, not cleared by success)."""

import threading

import numpy as np

from sk_header import INCLUDE

STATUS = {
    0: "SK_OK", -1: "SK_ERR_NULL_POINTER", -2: "SK_ERR_LENGTH", -3: "SK_ERR_MISALIGNED",
    -4: "SK_ERR_OVERLAP", -5: "SK_ERR_BAD_ARGUMENT", -6: "SK_ERR_NON_FINITE",
    -7: "SK_ERR_INVALID_HANDLE", -8: "SK_ERR_ALLOCATION", -9: "SK_ERR_INTERNAL",
    -10: "SK_ERR_BUFFER_TOO_SMALL",
}


def test_status_names_match_the_header_constants(sk, ffi):
    for code, name in STATUS.items():
        assert getattr(sk, name) == code  # the #define in the cdef header
        assert ffi.string(sk.sk_status_name(code)).decode() == name
    for code in (1, 2, -11, -12, 100, -100, 2**31 - 1, -(2**31)):
        assert ffi.string(sk.sk_status_name(code)) == b"SK_UNKNOWN_STATUS"


def test_every_header_status_constant_is_named(sk, ffi):
    import re

    header = (INCLUDE / "sigkern.h").read_text()
    defined = dict((name, int(v)) for name, v in re.findall(r"#define (SK_(?:OK|ERR_\w+)) (-?\d+)", header))
    for code, name in STATUS.items():  # the stable codes never change (new ones may be added)
        assert defined[name] == code
    for name, code in defined.items():
        assert ffi.string(sk.sk_status_name(code)).decode() == name


def _canary_buf(ffi, size):
    buf = ffi.new("char[]", size)
    ffi.memmove(buf, b"\xa5" * size, size)
    return buf


def _fail_add_null(sk, ffi, n=16):
    x = np.ones(n, np.float32)
    y = np.zeros(n, np.float32)
    st = sk.sk_add_f32(ffi.from_buffer("float[]", x), ffi.NULL, ffi.from_buffer("float[]", y), n)
    assert st == sk.SK_ERR_NULL_POINTER
    return "sk_add_f32: argument b is NULL but n = %d" % n


def test_last_error_message_copy_and_truncation(sk, ffi):
    msg = _fail_add_null(sk, ffi).encode()
    L = len(msg)
    # NULL / cap 0: only the length
    assert sk.sk_last_error_message(ffi.NULL, 0) == L
    assert sk.sk_last_error_message(ffi.NULL, 100) == L
    canary = b"\xa5"
    buf = _canary_buf(ffi, L + 8)
    assert sk.sk_last_error_message(buf, 0) == L
    assert ffi.buffer(buf)[:] == canary * (L + 8)  # nothing written with cap 0
    for cap in (1, 2, 5, 17, L - 1, L, L + 1, L + 8):
        buf = _canary_buf(ffi, L + 8)
        assert sk.sk_last_error_message(buf, cap) == L
        raw = ffi.buffer(buf)[:]
        k = min(cap - 1, L)
        assert raw[:k] == msg[:k], cap
        assert raw[k:k + 1] == b"\0", cap  # always NUL-terminated
        assert raw[k + 1:cap] == canary * max(0, cap - k - 1)
        assert raw[cap:] == canary * (L + 8 - cap), f"wrote past cap={cap}"


def test_success_does_not_clear_the_message(sk, ffi, last_error):
    want = _fail_add_null(sk, ffi, 5)
    x = np.ones(3, np.float32)
    assert sk.sk_abs_f32(ffi.from_buffer("float[]", x), ffi.from_buffer("float[]", x), 3) == sk.SK_OK
    assert last_error() == want


def test_messages_are_per_thread(sk, ffi, last_error):
    """Two threads fail differently, both before either reads; each sees its own message. A
    thread that never failed sees an empty message."""
    barrier = threading.Barrier(2)
    seen = {}

    def worker(kind):
        if kind == "null":
            want = _fail_add_null(sk, ffi, 7)
        else:
            x = np.ones(4, np.float64)
            assert sk.sk_clip_f64(ffi.from_buffer("double[]", x), 2.0, 1.0,
                                  ffi.from_buffer("double[]", x), 4) == sk.SK_ERR_BAD_ARGUMENT
            want = "sk_clip_f64: lo = 2.0 is greater than hi = 1.0"
        barrier.wait()
        for _ in range(200):
            got = last_error()
            if got != want:
                seen[kind] = got
                return
        seen[kind] = want

    threads = [threading.Thread(target=worker, args=(k,)) for k in ("null", "clip")]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert seen == {"null": "sk_add_f32: argument b is NULL but n = 7",
                    "clip": "sk_clip_f64: lo = 2.0 is greater than hi = 1.0"}

    fresh = {}
    t = threading.Thread(target=lambda: fresh.setdefault("len", sk.sk_last_error_message(ffi.NULL, 0)))
    t.start()
    t.join()
    assert fresh["len"] == 0
