"""The misuse matrix, generated from the header: every exported function that returns a status
gets every misuse class that applies to its parameters, each call in a forked child.

Classes: a NULL pointer; a pointer misaligned by one byte and by half an element; an output
starting one element into an input; sizes 0, 2^62 and SIZE_MAX; strides 0, PTRDIFF_MIN and
PTRDIFF_MAX; NaN, ±inf and denormal scalars; out-of-range enum values; NULL, freed, wrong-kind and
random handles; a capacity one short of the baseline's.

Two rules on sizes beyond the address space: a capacity argument (`y_len`, `capacity`, `n_out`,
`zi_len`, `w_len`, `sos_len`, a get_state's `len`) of 2^62 or SIZE_MAX is SK_ERR_LENGTH whenever
the baseline call succeeds (never SK_OK, never taken as "room enough"); and a size query
(`sk_*_size`, `sk_*_len`, `sk_*_frames`) that succeeds stores no count larger than the floats a
buffer can hold (PTRDIFF_MAX / 4), whatever its inputs.

For every call: the child must not crash; the status must be one the function's doc comment in
include/sigkern.h lists (directly or through the functions it refers to, e.g. "rules as
`sk_add_f32`"; SK_ERR_INTERNAL is never acceptable); on an error the message must start with the
function's name and no byte of any buffer may change (canary-filled).

Functions are found by parsing include/sigkern_cdef.h, so a new function is covered as soon as it
is in the header. Set SIGKERN_MISUSE_FILTER=substring to run a subset.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import types

import pytest

from sk_header import INCLUDE, NAME_OF, SK_ERR_INTERNAL, STATUS, SUPPORT

SIZE_MAX = 2**64 - 1
PTRDIFF_MAX = 2**63 - 1
PTRDIFF_MIN = -(2**63)
BUF_BYTES = 1 << 14  # every buffer; baseline sizes keep every access inside it
CANARY = 0xA5
BASE_SIZE = 16

ELEM = {"float": 4, "double": 8, "uint8_t": 1, "int16_t": 2, "int32_t": 4, "size_t": 8, "char": 1}
HUGE_SIZES = (1 << 62, SIZE_MAX)
#: Size parameters that give the room of an output buffer (a call may use less of it).
CAPACITY_NAMES = {"y_len", "capacity", "n_out", "zi_len", "w_len", "sos_len"}
#: Size queries: their size_t outputs are counts of elements or frames of a buffer.
SIZE_QUERY = re.compile(r"_(size|len|frames)$")
MAX_FLOATS = PTRDIFF_MAX // 4


# ------------------------------------------------------------------ the header, parsed

#: Opaque handle types (`typedef struct SkX SkX;`); structs with a body are plain data.
OPAQUE = set(re.findall(r"typedef struct (Sk\w+) \1;", (INCLUDE / "sigkern_cdef.h").read_text()))


class Param:
    def __init__(self, ctype: str, name: str):
        self.ctype, self.name = ctype, name
        t = ctype.replace("const ", "").strip()
        self.handle = None
        m = re.fullmatch(r"struct (Sk\w+) \*(\*?)", t)
        if m and m.group(1) not in OPAQUE and not m.group(2):
            # a plain struct passed by pointer: data, checked like any other pointer
            self.kind = "ptr"
            self.elem = f"struct {m.group(1)}"
            self.const = ctype.startswith("const")
        elif m:
            self.kind = "handle_out" if m.group(2) else "handle"
            self.handle = m.group(1)
        elif t.endswith("*const *") or t.endswith("* *") or t.endswith("**"):
            self.kind = "ptr_array"
            self.elem = t.split()[0]
        elif t.endswith("*"):
            self.kind = "ptr"
            self.elem = t[:-1].strip()
            self.const = ctype.startswith("const")
        elif t == "size_t":
            self.kind = "size"
        elif t == "ptrdiff_t":
            self.kind = "stride"
        elif t in ("float", "double"):
            self.kind = "real"
        elif t in ("int32_t", "int", "uint32_t", "uint64_t"):
            self.kind = "int"
        else:
            raise ValueError(f"unknown parameter type {ctype!r}")


def parse_cdef() -> dict[str, list[Param]]:
    funcs = {}
    for m in re.finditer(r"^int32_t (\w+)\(([^)]*)\);", (INCLUDE / "sigkern_cdef.h").read_text(),
                         re.M):
        name, args = m.group(1), m.group(2).strip()
        params = []
        if args and args != "void":
            for a in args.split(","):
                a = a.strip()
                pm = re.fullmatch(r"(.*?)(\w+)", a)
                params.append(Param(pm.group(1).strip(), pm.group(2)))
        funcs[name] = params
    return funcs


def parse_docs() -> dict[str, str]:
    text = (INCLUDE / "sigkern.h").read_text()
    docs = {}
    for m in re.finditer(r"/\*\*((?:(?!\*/).)*)\*/\s*\n\s*[^;/]*?\b(\w+)\(", text, re.S):
        docs[m.group(2)] = m.group(1)
    return docs


def documented_codes(name: str, docs: dict[str, str]) -> set[int]:
    """Codes listed in the doc comment, plus those of the functions it refers to, and theirs
    (chains of "rules as `sk_add_f32`", "as the `f32` function", up to four links)."""
    seen, frontier, codes = {name}, [name], set()
    for _ in range(5):
        nxt = []
        for f in frontier:
            doc = docs.get(f, "")
            codes |= {STATUS[c] for c in re.findall(r"\bSK_(?:OK|ERR_[A-Z_]+)\b", doc) if c in STATUS}
            refs = set(re.findall(r"`(sk_\w+)", doc))
            if re.search(r"`f32` (function|variant|version)|the f32 function", doc):
                refs.add(f.replace("f64", "f32"))
            for r in refs:
                r = r.rstrip("_")
                if r in docs and r not in seen:
                    seen.add(r)
                    nxt.append(r)
        frontier = nxt
    codes.add(0)
    return codes


# ------------------------------------------------------------------ calls in a child

class Call:
    """One call: the library, its buffers (bytearrays, canary-filled) and the argument list."""

    def __init__(self, ffi, lib, name, params):
        self.ffi, self.lib, self.name, self.params = ffi, lib, name, params
        self.bufs = []      # cffi char[] buffers whose bytes are compared after an error
        self.keep = []

    def buffer(self):
        """A canary-filled buffer and the offset of a 64-byte aligned point in its middle, so
        that baseline calls with negative strides stay inside it too."""
        b = self.ffi.new("char[]", BUF_BYTES + 128)
        self.ffi.memmove(b, bytes([CANARY]) * (BUF_BYTES + 128), BUF_BYTES + 128)
        self.bufs.append(b)
        addr = int(self.ffi.cast("uintptr_t", b)) + BUF_BYTES // 2
        return b, BUF_BYTES // 2 + (-addr) % 64

    def data_ptr(self, ctype_elem, offset_bytes=0):
        b, off = self.buffer()
        p = self.ffi.cast("char *", b) + off + offset_bytes
        return self.ffi.cast(ctype_elem + " *", p)

    def snapshot(self):
        return [bytes(self.ffi.buffer(b)) for b in self.bufs]


def make_handle(ffi, lib, handle_type, name, dtype, freed=False):
    """A handle of `handle_type` (sized like the baseline call); None if it cannot be made."""
    t = "double" if dtype == "f64" else "float"
    sfx = "f64" if dtype == "f64" else "f32"
    keep = []

    def arr(vals):
        a = ffi.new(f"{t}[]", vals)
        keep.append(a)
        return a

    out = ffi.new(f"struct {handle_type} **")
    if handle_type == "SkFftPlan":
        kind = 0 if "rfft" in name or name == "sk_fft_plan_info" else 1
        rc = getattr(lib, f"sk_fft_plan_{sfx}_new")(kind, BASE_SIZE, out)
    elif handle_type == "SkBiquad":
        sos = ffi.new("double[]", [1.0, 0.5, 0.25, 1.0, -0.5, 0.25])
        keep.append(sos)
        rc = getattr(lib, f"sk_biquad_{sfx}_new")(sos, 1, out, 1)
    elif handle_type == "SkFir":
        rc = getattr(lib, f"sk_fir_{sfx}_new")(arr([0.25] * 4), out, 4)
    elif handle_type == "SkMelPlan":
        rc = getattr(lib, f"sk_mel_plan_{sfx}_new")(16000.0, BASE_SIZE, 4, BASE_SIZE, 1, 0.0, 1, 0,
                                                    2.0, 4, 0.0, 0.0, 0, 1, out)
    elif handle_type == "SkStftStream":
        rc = getattr(lib, f"sk_stft_stream_{sfx}_new")(arr([1.0] * BASE_SIZE), BASE_SIZE, 4,
                                                       BASE_SIZE, 1, 0, 1, 0, out)
    elif handle_type == "SkLfilter":
        b = ffi.new("double[]", [0.5, 0.5])
        a = ffi.new("double[]", [1.0, -0.5])
        keep += [b, a]
        rc = getattr(lib, f"sk_lfilter_{sfx}_new")(b, a, 1, out, 2, 2)
    elif handle_type == "SkMeter":
        w = ffi.new("double[]", [1.0])
        keep.append(w)
        rc = lib.sk_meter_new(w, 48000.0, 1, out, 1)
    elif handle_type == "SkDynamics":
        rc = lib.sk_compressor_new(48000.0, -20.0, 4.0, 0.0, 1.0, 100.0, 0.0, 0, 0, out, 1)
    elif handle_type == "SkResampler":
        rc = getattr(lib, f"sk_resampler_{sfx}_new")(48000.0, 44100.0, 1, lib.SK_RESAMPLE_HIGH, out)
    elif handle_type == "SkStretchStream":
        w = ffi.new("double[]", [1.0] * BASE_SIZE)
        keep.append(w)
        rc = lib.sk_stretch_stream_new(w, BASE_SIZE, 4, BASE_SIZE, 1, 0, 1.0, 0.5, 2.0, 64, out)
    elif handle_type == "SkKaldiOnline":
        opts = ffi.new("struct SkKaldiOptions *")
        keep.append(opts)
        lib.sk_kaldi_options_init(opts)
        rc = getattr(lib, f"sk_kaldi_online_{sfx}_new")(lib.SK_KALDI_FBANK, opts, out)
    elif handle_type == "SkSlidingCmnStream":
        rc = getattr(lib, f"sk_sliding_cmn_stream_{sfx}_new")(1, 8, 2, 0, 1, out)
    elif handle_type == "SkYinStream":
        rc = getattr(lib, f"sk_yin_stream_{sfx}_new")(16000.0, 1000.0, 4000.0, BASE_SIZE, 4, 0.1, 1,
                                                      0, out)
    else:
        return None
    if rc != 0:
        return None
    h = out[0]
    if freed:
        free = {"SkFftPlan": "sk_fft_plan_free", "SkBiquad": "sk_biquad_free", "SkFir": "sk_fir_free",
                "SkMelPlan": "sk_mel_plan_free", "SkStftStream": "sk_stft_stream_free",
                "SkLfilter": "sk_lfilter_free", "SkMeter": "sk_meter_free",
                "SkResampler": "sk_resampler_free", "SkDynamics": "sk_dynamics_free",
                "SkKaldiOnline": "sk_kaldi_online_free",
                "SkSlidingCmnStream": "sk_sliding_cmn_stream_free",
                "SkStretchStream": "sk_stretch_stream_free",
                "SkYinStream": "sk_yin_stream_free"}[handle_type]
        getattr(lib, free)(h)
    return h


OTHER_HANDLE = {"SkFftPlan": "SkBiquad", "SkBiquad": "SkFir", "SkFir": "SkMelPlan",
                "SkMelPlan": "SkStftStream", "SkStftStream": "SkLfilter", "SkLfilter": "SkMeter",
                "SkMeter": "SkResampler", "SkResampler": "SkDynamics", "SkDynamics": "SkKaldiOnline",
                "SkKaldiOnline": "SkSlidingCmnStream", "SkSlidingCmnStream": "SkStretchStream",
                "SkStretchStream": "SkYinStream",
                "SkYinStream": "SkFftPlan"}

#: baseline sizes other than BASE_SIZE, for functions whose buffers hold the product of three
#: sizes (BASE_SIZE for each, or BASE_SIZE − 1 for one of them, would make the call itself reach
#: past the test buffers)
_SMALL_BLOCK = {"channels": 2, "frames": 4, "feats": 4}
BASE_SIZES = {"sk_cmvn_": _SMALL_BLOCK, "sk_sliding_cmn_": _SMALL_BLOCK}


def base_size(name: str, param: str) -> int:
    for prefix, sizes in BASE_SIZES.items():
        if name.startswith(prefix) and param in sizes:
            return sizes[param]
    return BASE_SIZE


def baseline_args(call: Call, overrides: dict):
    """The argument list: a canary-filled aligned buffer per pointer, BASE_SIZE per size, stride
    1, 1.0 per real, 0 per int, a fresh valid handle per handle; `overrides[i]` replaces
    argument i (a callable gets the Call)."""
    ffi, lib, name = call.ffi, call.lib, call.name
    dtype = "f64" if "f64" in name else "f32"
    args = []
    for i, p in enumerate(call.params):
        if i in overrides:
            v = overrides[i]
            args.append(v(call) if isinstance(v, types.FunctionType) else v)
            continue
        if p.kind == "ptr":
            args.append(call.data_ptr(p.elem))
        elif p.kind == "ptr_array":
            arr = ffi.new(f"{p.elem} *[]", BASE_SIZE)
            for k in range(BASE_SIZE):
                arr[k] = call.data_ptr(p.elem)
            call.keep.append(arr)
            args.append(arr)
        elif p.kind == "handle_out":
            b, off = call.buffer()
            args.append(ffi.cast(f"struct {p.handle} **", ffi.cast("char *", b) + off))
        elif p.kind == "handle":
            h = make_handle(ffi, lib, p.handle, name, dtype)
            args.append(h if h is not None else ffi.NULL)
        elif p.kind == "size":
            args.append(base_size(name, p.name))
        elif p.kind == "stride":
            args.append(1)
        elif p.kind == "real":
            args.append(1.0)
        else:
            args.append(0)
    return args


def misuse_cases(name, params):
    """(label, overrides) for every misuse class that applies to the parameters."""
    cases = [("baseline", {})]
    ins = [i for i, p in enumerate(params) if p.kind == "ptr" and p.const]
    for i, p in enumerate(params):
        tag = f"{p.name}"
        if p.kind == "ptr":
            cases.append((f"{tag}=NULL", {i: lambda c, p=p: c.ffi.NULL}))
            size = ELEM.get(p.elem, 1)
            if size > 1:
                cases.append((f"{tag} misaligned by 1",
                              {i: lambda c, p=p: c.data_ptr(p.elem, 1)}))
                if size > 2:
                    cases.append((f"{tag} misaligned by half",
                                  {i: lambda c, p=p, s=size: c.data_ptr(p.elem, s // 2)}))
            if not p.const:
                for j in ins:
                    q = params[j]
                    if q.elem == p.elem:
                        # output one element into input j: both share one buffer
                        cases.append((f"{tag} one element into {q.name}",
                                      {"shared": (j, i)}))
        elif p.kind == "ptr_array":
            cases.append((f"{tag}=NULL", {i: lambda c: c.ffi.NULL}))
        elif p.kind == "handle_out":
            cases.append((f"{tag}=NULL", {i: lambda c: c.ffi.NULL}))
            cases.append((f"{tag} misaligned", {i: lambda c, p=p: c.ffi.cast(
                f"struct {p.handle} **", c.ffi.cast("char *", c.data_ptr("char")) + 3)}))
        elif p.kind == "handle":
            cases.append((f"{tag}=NULL", {i: lambda c: c.ffi.NULL}))
            cases.append((f"{tag} random", {i: lambda c, p=p: c.ffi.cast(
                f"struct {p.handle} *", 0x5EED_1234_5670)}))
            cases.append((f"{tag} freed", {i: lambda c, p=p: make_handle(
                c.ffi, c.lib, p.handle, c.name, "f64" if "f64" in c.name else "f32", freed=True)
                or c.ffi.NULL}))
            cases.append((f"{tag} wrong kind", {i: lambda c, p=p: c.ffi.cast(
                f"struct {p.handle} *", make_handle(c.ffi, c.lib, OTHER_HANDLE[p.handle], c.name,
                                                    "f64" if "f64" in c.name else "f32")
                or c.ffi.NULL)}))
        elif p.kind == "size":
            for v in (0, 1 << 62, SIZE_MAX, BASE_SIZE - 1):
                cases.append((f"{tag}={v}", {i: v}))
        elif p.kind == "stride":
            for v in (0, PTRDIFF_MIN, PTRDIFF_MAX, -1):
                cases.append((f"{tag}={v}", {i: v}))
        elif p.kind == "real":
            for v in (float("nan"), float("inf"), float("-inf"), 5e-324, -1.0, 0.0):
                cases.append((f"{tag}={v}", {i: v}))
        elif p.kind == "int":
            for v in (-1, 99, -(2**31)):
                if p.ctype == "uint32_t" and v < 0:
                    v = 2**32 - 1
                if p.ctype == "uint64_t" and v < 0:
                    v = 2**64 - 1
                cases.append((f"{tag}={v}", {i: v}))
    return cases


def run_in_child(ffi, lib, name, params, overrides):
    """Forks; the child makes the call and reports (status, message, buffers unchanged)."""
    r, w = os.pipe()
    pid = os.fork()
    if pid == 0:  # child
        try:
            os.close(r)
            call = Call(ffi, lib, name, params)
            shared = overrides.pop("shared", None)
            if shared is not None:
                j, i = shared
                elem = params[j].elem
                base = call.data_ptr(elem)
                overrides[j] = base
                overrides[i] = ffi.cast(params[i].ctype, base + 1)
            args = baseline_args(call, overrides)
            before = call.snapshot()
            status = getattr(lib, name)(*args)
            msg = ""
            if status != 0:
                n = lib.sk_last_error_message(ffi.NULL, 0)
                b = ffi.new("char[]", n + 1)
                lib.sk_last_error_message(b, n + 1)
                msg = ffi.string(b).decode("utf-8", "replace")
            after = call.snapshot()
            changed = [k for k, (x, y) in enumerate(zip(before, after)) if x != y]
            # the counts a successful call stored through its size_t outputs
            sizes = [int(args[k][0]) for k, p in enumerate(params)
                     if status == 0 and p.kind == "ptr" and p.elem == "size_t" and not p.const
                     and args[k] != ffi.NULL]
            os.write(w, json.dumps({"status": status, "msg": msg, "changed": changed,
                                    "sizes": sizes}).encode())
        except BaseException as e:  # noqa: BLE001 - reported to the parent
            os.write(w, json.dumps({"error": repr(e)}).encode())
        finally:
            os._exit(0)
    os.close(w)
    data = b""
    while True:
        chunk = os.read(r, 65536)
        if not chunk:
            break
        data += chunk
    os.close(r)
    _, st = os.waitpid(pid, 0)
    if os.WIFSIGNALED(st):
        return {"signal": os.WTERMSIG(st)}
    return json.loads(data or b'{"error": "no report"}')


FUNCS = parse_cdef()
DOCS = parse_docs()
FILTER = os.environ.get("SIGKERN_MISUSE_FILTER", "")
NAMES = sorted(n for n in FUNCS if FILTER in n)


def serve(cdef_path: str, lib_path: str) -> None:
    """The fork server: a small process holding only CFFI and the library (forking it is much
    cheaper than forking the test runner). Reads "name index" lines, runs each case in a forked
    child, answers one JSON line per case."""
    from cffi import FFI

    ffi = FFI()
    ffi.cdef(open(cdef_path).read())
    lib = ffi.dlopen(lib_path)
    out = os.fdopen(1, "w", buffering=1)
    for line in sys.stdin:
        name, idx = line.split()
        params = FUNCS[name]
        _, overrides = misuse_cases(name, params)[int(idx)]
        out.write(json.dumps(run_in_child(ffi, lib, name, params, dict(overrides))) + "\n")


@pytest.fixture(scope="module")
def server(lib_path):
    here = os.path.dirname(os.path.abspath(__file__))
    code = (f"import sys; sys.path[:0] = [{here!r}, {str(SUPPORT)!r}]; import test_misuse_matrix as m; "
            f"m.serve({str(INCLUDE / 'sigkern_cdef.h')!r}, {str(lib_path)!r})")
    proc = subprocess.Popen([sys.executable, "-c", code], stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, text=True, bufsize=1)

    def ask(name, idx):
        proc.stdin.write(f"{name} {idx}\n")
        proc.stdin.flush()
        line = proc.stdout.readline()
        if not line:
            raise RuntimeError(f"the fork server died (exit {proc.wait()})")
        return json.loads(line)

    yield ask
    proc.stdin.close()
    proc.wait(timeout=30)


def test_every_function_has_a_doc_comment():
    missing = [n for n in FUNCS if n not in DOCS]
    assert not missing, missing


def is_capacity(params, i) -> bool:
    """Whether size parameter i gives the room of an output buffer."""
    p = params[i]
    if p.kind != "size":
        return False
    if p.name in CAPACITY_NAMES:
        return True
    # sk_*_get_state(h, zi, len): the room of the state output
    return p.name == "len" and any(q.kind == "ptr" and not q.const for q in params)


def huge_capacity(params, overrides) -> bool:
    return (len(overrides) == 1 and all(isinstance(k, int) for k in overrides)
            and all(v in HUGE_SIZES and is_capacity(params, k) for k, v in overrides.items()))


@pytest.mark.parametrize("name", NAMES)
def test_misuse(server, name):
    params = FUNCS[name]
    allowed = documented_codes(name, DOCS)
    problems = []
    baseline_ok = None
    for idx, (label, overrides) in enumerate(misuse_cases(name, params)):
        res = server(name, idx)
        where = f"{name}({label})"
        if idx == 0:
            baseline_ok = res.get("status") == 0
        if "status" in res and huge_capacity(params, overrides):
            st = res["status"]
            if st == 0 or (baseline_ok and st != STATUS["SK_ERR_LENGTH"]):
                problems.append(f"{where}: a capacity beyond the address space returned "
                                f"{NAME_OF.get(st, st)}, not SK_ERR_LENGTH ({res['msg']})")
        if SIZE_QUERY.search(name) and res.get("status") == 0:
            big = [v for v in res.get("sizes", []) if v > MAX_FLOATS]
            if big:
                problems.append(f"{where}: stored the count {big[0]}, more than a buffer can "
                                "hold, instead of SK_ERR_LENGTH")
        if "signal" in res:
            problems.append(f"{where}: child killed by signal {res['signal']}")
            continue
        if "error" in res:
            problems.append(f"{where}: harness error {res['error']}")
            continue
        st = res["status"]
        if st == SK_ERR_INTERNAL or st not in allowed:
            problems.append(f"{where}: returned {NAME_OF.get(st, st)}, which its doc comment does "
                            f"not list ({res['msg']})")
        if st != 0:
            if not res["msg"].startswith(name + ": "):
                problems.append(f"{where}: message does not name the function: {res['msg']!r}")
            if res["changed"]:
                problems.append(f"{where}: returned {NAME_OF.get(st, st)} but changed buffer(s) "
                                f"{res['changed']}")
    assert not problems, "\n".join(problems)
