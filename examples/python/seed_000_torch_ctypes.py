"""Seed 000: calling a C function on a PyTorch tensor's memory with ctypes (verbatim).

The code between the two "seed" markers is the book section's snippet exactly as printed, with
one change: the library path `'./mylib.so'` is `LIB_PATH`, which is argv[1], else $SIGKERN_LIB,
else target/release/libsigkern.{so,dylib} / sigkern.dll of this repository. sigkern exports
`process_data(float *data, int size)`, which peak-normalises the buffer in place (max |x|
becomes exactly 1.0). The seed declares it `void` (restype None); sigkern's version returns an
int32 status, which a `void` declaration simply ignores.

Run: .venv/bin/python examples/python/seed_000_torch_ctypes.py [path/to/libsigkern.so]
The lines after the snippet check that the tensor really was normalised in place.
"""

import os
import pathlib
import sys


def _default_library() -> str:
    release = pathlib.Path(__file__).resolve().parents[2] / "target" / "release"
    names = {"win32": "sigkern.dll", "cygwin": "sigkern.dll", "darwin": "libsigkern.dylib"}
    return str(release / names.get(sys.platform, "libsigkern.so"))


LIB_PATH = sys.argv[1] if len(sys.argv) > 1 else os.environ.get("SIGKERN_LIB") or _default_library()

import torch  # noqa: E402

torch.manual_seed(0)  # so that the check below can regenerate the snippet's random tensor

# ---------------------------------------------------------------- seed snippet (verbatim) ----
import torch
import ctypes

# 假设 'mylib.so' 或 'mylib.dll' 包含一个函数：
# void process_data(float* data_ptr, int size);

# 加载共享库
try:
    # 根据需要调整路径/名称
    lib = ctypes.CDLL(LIB_PATH)
except OSError as e:
    print(f"加载共享库错误: {e}")
    # 适当处理错误，例如在 Windows 上尝试 .dll 等。
    exit()

# 定义函数签名
try:
    process_data_func = lib.process_data
    process_data_func.argtypes = [ctypes.POINTER(ctypes.c_float), ctypes.c_int]
    process_data_func.restype = None # void 返回类型
except AttributeError as e:
    print(f"查找函数或设置签名错误: {e}")
    # 处理错误：库中可能不存在该函数
    exit()

# 创建一个 PyTorch 张量
tensor = torch.randn(100, dtype=torch.float32)

# --- 重要部分：确保张量数据布局兼容 ---
# 许多 C 函数期望连续的 C 风格数组。
if not tensor.is_contiguous():
    tensor = tensor.contiguous()

# 获取数据指针（作为 void 指针，然后进行类型转换）
data_ptr_void = tensor.data_ptr()
# 将 void 指针转换为 C 函数期望的特定类型
data_ptr_c = ctypes.cast(data_ptr_void, ctypes.POINTER(ctypes.c_float))

# 调用 C 函数
size = tensor.numel()
try:
    process_data_func(data_ptr_c, ctypes.c_int(size))
    print("成功调用 C 函数。")
    # 'tensor' 的数据可能被 C 函数原地修改
    # print(tensor)
except Exception as e:
    print(f"C 函数执行错误: {e}")
# ------------------------------------------------------------------------ end of seed snippet ----

# Check (not part of the seed): the tensor was peak-normalised in place.
torch.manual_seed(0)
original = torch.randn(100, dtype=torch.float32)
expected = original / original.abs().max()
ok = torch.equal(tensor, expected) and float(tensor.abs().max()) == 1.0
print(f"max|tensor| = {float(tensor.abs().max())!r}")
print(f"tensor == original / max|original|: {torch.equal(tensor, expected)}")

# The contiguity branch of the snippet, exercised: a transposed (non-contiguous) tensor is made
# contiguous (a copy) and that copy is normalised in place.
tensor = torch.randn(20, 10, dtype=torch.float32).T
assert not tensor.is_contiguous()
if not tensor.is_contiguous():
    tensor = tensor.contiguous()
before = tensor.clone()
process_data_func(ctypes.cast(tensor.data_ptr(), ctypes.POINTER(ctypes.c_float)), ctypes.c_int(tensor.numel()))
ok = ok and torch.equal(tensor, before / before.abs().max())
print(f"non-contiguous tensor, made contiguous: max|tensor| = {float(tensor.abs().max())!r}")
print("SEED 000 OK" if ok else "SEED 000 FAILED")
sys.exit(0 if ok else 1)
