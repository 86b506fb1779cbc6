"""Exact handle kinds: every handle-taking function × every kind of handle it does not accept.

The functions are found in include/sigkern_cdef.h (every `int32_t sk_…(…)` with a parameter of
an opaque handle type `struct SkX *`), so a new function is covered as soon as it is in the header.
A kind is an opaque C type and an element type (`float` / `double`; meters and dynamics
processors have one kind each). A function accepts the kinds of its handle parameter's C type:
of its own element type when its name has `f32` / `f64`, of either otherwise.

For every function and every kind it does not accept, the call gets a live handle of that kind
(cast to the parameter's type; every other argument valid: canary-filled aligned buffers, sizes
16, strides 16) and must return SK_ERR_INVALID_HANDLE with a message naming what the handle is,
write no byte of any buffer, and leave the handle alive (its own free then returns SK_OK).
"""

from __future__ import annotations

import re

import pytest

from sk_header import INCLUDE

SK_OK = 0
SK_ERR_INVALID_HANDLE = -7
SIZE = 16
BUF_BYTES = 1 << 14
CANARY = 0xA5

CDEF = (INCLUDE / "sigkern_cdef.h").read_text()
OPAQUE = set(re.findall(r"typedef struct (Sk\w+) \1;", CDEF))

#: kind → (C type, what the message says the handle is)
KINDS = {
    "fft_f32": ("SkFftPlan", "a float FFT plan"),
    "fft_f64": ("SkFftPlan", "a double FFT plan"),
    "biquad_f32": ("SkBiquad", "a float biquad cascade"),
    "biquad_f64": ("SkBiquad", "a double biquad cascade"),
    "fir_f32": ("SkFir", "a float FIR filter"),
    "fir_f64": ("SkFir", "a double FIR filter"),
    "lfilter_f32": ("SkLfilter", "a float transfer-function filter"),
    "lfilter_f64": ("SkLfilter", "a double transfer-function filter"),
    "mel_f32": ("SkMelPlan", "a float mel plan"),
    "mel_f64": ("SkMelPlan", "a double mel plan"),
    "stream_f32": ("SkStftStream", "a float STFT stream"),
    "stream_f64": ("SkStftStream", "a double STFT stream"),
    "resampler_f32": ("SkResampler", "a float resampler"),
    "resampler_f64": ("SkResampler", "a double resampler"),
    "meter": ("SkMeter", "a loudness meter"),
    "dynamics": ("SkDynamics", "a dynamics processor"),
    "kaldi_online_f32": ("SkKaldiOnline", "a float Kaldi feature stream"),
    "kaldi_online_f64": ("SkKaldiOnline", "a double Kaldi feature stream"),
    "cmn_stream_f32": ("SkSlidingCmnStream", "a float sliding-window CMN stream"),
    "cmn_stream_f64": ("SkSlidingCmnStream", "a double sliding-window CMN stream"),
    "stretch": ("SkStretchStream", "a streaming time-stretch"),
    "yin_stream_f32": ("SkYinStream", "a float YIN stream"),
    "yin_stream_f64": ("SkYinStream", "a double YIN stream"),
}

FREE = {"SkFftPlan": "sk_fft_plan_free", "SkBiquad": "sk_biquad_free", "SkFir": "sk_fir_free",
        "SkLfilter": "sk_lfilter_free", "SkMelPlan": "sk_mel_plan_free",
        "SkStftStream": "sk_stft_stream_free", "SkResampler": "sk_resampler_free",
        "SkMeter": "sk_meter_free", "SkDynamics": "sk_dynamics_free",
        "SkKaldiOnline": "sk_kaldi_online_free", "SkSlidingCmnStream": "sk_sliding_cmn_stream_free",
        "SkStretchStream": "sk_stretch_stream_free",
        "SkYinStream": "sk_yin_stream_free"}


def elem_of(name: str) -> str | None:
    return "f32" if "f32" in name else "f64" if "f64" in name else None


def handle_type(ctype: str) -> str | None:
    """The opaque handle type a parameter of C type `ctype` takes, if it is a handle."""
    m = re.fullmatch(r"(?:const )?struct (Sk\w+) \*", ctype)
    return m.group(1) if m and m.group(1) in OPAQUE else None


def handle_functions() -> list[tuple[str, list[tuple[str, str]]]]:
    """(name, [(ctype, pname)]) of every status-returning function with a handle parameter."""
    out = []
    for m in re.finditer(r"^int32_t (\w+)\(([^)]*)\);", CDEF, re.M):
        params = []
        for a in m.group(2).split(","):
            a = a.strip()
            if not a or a == "void":
                continue
            pm = re.fullmatch(r"(.*?)(\w+)", a)
            params.append((pm.group(1).strip(), pm.group(2)))
        if any(handle_type(t) for t, _ in params):
            out.append((m.group(1), params))
    return out


FUNCS = handle_functions()


def accepts(func: str, ctype: str, kind: str) -> bool:
    kc, _ = KINDS[kind]
    ke = elem_of(kind)
    fe = elem_of(func)
    return kc == ctype and (ke is None or fe is None or ke == fe)


def make(ffi, lib, kind):
    """A live handle of `kind` and what keeps its arguments alive."""
    ctype, _ = KINDS[kind]
    e = elem_of(kind) or "f64"
    t = "double" if e == "f64" else "float"
    out = ffi.new(f"struct {ctype} **")
    keep = []
    if ctype == "SkFftPlan":
        rc = getattr(lib, f"sk_fft_plan_{e}_new")(0, SIZE, out)
    elif ctype == "SkBiquad":
        sos = ffi.new("double[]", [1.0, 0.5, 0.25, 1.0, -0.5, 0.25])
        keep.append(sos)
        rc = getattr(lib, f"sk_biquad_{e}_new")(sos, 1, out, 1)
    elif ctype == "SkFir":
        taps = ffi.new(f"{t}[]", [0.25] * 4)
        keep.append(taps)
        rc = getattr(lib, f"sk_fir_{e}_new")(taps, out, 4)
    elif ctype == "SkLfilter":
        b = ffi.new("double[]", [0.5, 0.5])
        a = ffi.new("double[]", [1.0, -0.5])
        keep += [b, a]
        rc = getattr(lib, f"sk_lfilter_{e}_new")(b, a, 1, out, 2, 2)
    elif ctype == "SkMelPlan":
        rc = getattr(lib, f"sk_mel_plan_{e}_new")(16000.0, SIZE, 4, SIZE, 1, 0.0, 1, 0, 2.0, 4,
                                                   0.0, 0.0, 0, 1, out)
    elif ctype == "SkStftStream":
        w = ffi.new(f"{t}[]", [1.0] * SIZE)
        keep.append(w)
        rc = getattr(lib, f"sk_stft_stream_{e}_new")(w, SIZE, 4, SIZE, 1, 0, 1, 0, out)
    elif ctype == "SkResampler":
        rc = getattr(lib, f"sk_resampler_{e}_new")(48000.0, 44100.0, 1, lib.SK_RESAMPLE_LOW, out)
    elif ctype == "SkMeter":
        rc = lib.sk_meter_new(ffi.NULL, 48000.0, 0, out, 1)
    elif ctype == "SkKaldiOnline":
        o = ffi.new("SkKaldiOptions *")
        assert lib.sk_kaldi_options_init(o) == SK_OK
        keep.append(o)
        rc = getattr(lib, f"sk_kaldi_online_{e}_new")(lib.SK_KALDI_FBANK, o, out)
    elif ctype == "SkSlidingCmnStream":
        rc = getattr(lib, f"sk_sliding_cmn_stream_{e}_new")(4, 8, 2, 0, 1, out)
    elif ctype == "SkStretchStream":
        w = ffi.new("double[]", [1.0] * SIZE)
        keep.append(w)
        rc = lib.sk_stretch_stream_new(w, SIZE, 4, SIZE, 1, 0, 1.0, 0.5, 2.0, 64, out)
    elif ctype == "SkYinStream":
        rc = getattr(lib, f"sk_yin_stream_{e}_new")(16000.0, 1000.0, 4000.0, SIZE, 4, 0.1, 1, 0, out)
    else:
        rc = lib.sk_compressor_new(48000.0, -20.0, 4.0, 0.0, 1.0, 100.0, 0.0, 0, 0, out, 1)
    assert rc == SK_OK, (kind, rc)
    return out[0], keep


def args_for(ffi, params, hpos_value):
    """Valid arguments apart from the handles: canary-filled aligned buffers, sizes and strides
    16, reals 1.0, ints 0. Returns (args, buffers)."""
    args, bufs = [], []
    for ctype, _ in params:
        t = ctype.replace("const ", "").strip()
        if handle_type(ctype):
            args.append(hpos_value(handle_type(ctype)))
        elif t.endswith("*"):
            b = ffi.new("char[]", BUF_BYTES + 64)
            ffi.memmove(b, bytes([CANARY]) * (BUF_BYTES + 64), BUF_BYTES + 64)
            bufs.append(b)
            off = (-int(ffi.cast("uintptr_t", b))) % 64
            p = ffi.cast("char *", b) + off
            if t.endswith("**") or t.endswith("* *") or t.endswith("*const *"):
                # an array of pointers: each into the same canary buffer's second half
                arr = ffi.new("char *[]", SIZE)
                for k in range(SIZE):
                    arr[k] = p + BUF_BYTES // 2
                bufs.append(arr)
                args.append(ffi.cast(ctype, arr))
            else:
                args.append(ffi.cast(ctype, p))
        elif t in ("size_t", "ptrdiff_t"):
            args.append(SIZE)
        elif t in ("float", "double"):
            args.append(1.0)
        else:
            args.append(0)
    return args, bufs


def test_every_handle_function_is_found():
    names = {n for n, _ in FUNCS}
    # one of each family, and every free
    for n in ("sk_rfft_f32", "sk_biquad_f32_process", "sk_fir_reset", "sk_lfilter_info",
              "sk_melspec_f64", "sk_stft_stream_f32_push", "sk_resampler_f64_process",
              "sk_meter_stats", "sk_dynamics_process_f32", *FREE.values()):
        assert n in names, n
    kinds_of_params = {handle_type(t) for _, ps in FUNCS for t, _ in ps} - {None}
    assert kinds_of_params <= {c for c, _ in KINDS.values()}, kinds_of_params


@pytest.mark.parametrize("func,params", FUNCS, ids=[n for n, _ in FUNCS])
def test_wrong_kind_is_refused_and_changes_nothing(sk, ffi, last_error, func, params):
    handle_types = [handle_type(t) for t, _ in params if handle_type(t)]
    assert len(handle_types) == 1, (func, handle_types)
    ctype = handle_types[0]
    tried = 0
    for kind in KINDS:
        if accepts(func, ctype, kind):
            continue
        h, keep = make(ffi, sk, kind)
        args, bufs = args_for(ffi, params, lambda c: ffi.cast(f"struct {c} *", h))
        before = [bytes(ffi.buffer(b)) for b in bufs if ffi.typeof(b).item.cname == "char"]
        rc = getattr(sk, func)(*args)
        msg = last_error()
        after = [bytes(ffi.buffer(b)) for b in bufs if ffi.typeof(b).item.cname == "char"]
        assert rc == SK_ERR_INVALID_HANDLE, (func, kind, rc, msg)
        assert msg.startswith(func + ": ") and f"is {KINDS[kind][1]}" in msg, (func, kind, msg)
        assert before == after, (func, kind, "a buffer was written")
        # still alive: its own free succeeds once
        own_free = getattr(sk, FREE[KINDS[kind][0]])
        assert own_free(h) == SK_OK, (func, kind, "the handle was freed by the wrong call")
        assert own_free(h) == SK_ERR_INVALID_HANDLE
        tried += 1
        del keep
    assert tried >= len(KINDS) - 2
