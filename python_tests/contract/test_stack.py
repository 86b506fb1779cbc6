"""The heavy kernels of every family run on a thread with a small stack.

The library keeps its working space on the heap (or in the handle), so a host thread with
64 KiB of stack (musl's default for new threads is 128 KiB; Python's smallest is 32 KiB) can
call any of them. A stack overflow kills the process, so the calls run in a child process, on
one thread (SIGKERN_THREADS=1: all the work on the small stack), and must give the bytes the
same calls give here. Not run against the debug library, whose frames are several times
larger.
"""

import hashlib
import os
import subprocess
import sys

import numpy as np

STACK_KIB = 64

STEPS = r'''
import hashlib
import numpy as np
import sigkern as sk

R = 48000

def steps():
    rng = np.random.default_rng(1)
    x16 = (rng.standard_normal((16, R)) * 0.3).astype(np.float32)
    x2 = np.ascontiguousarray(x16[:2])
    sos = sk.butter(8, 1000, fs=R, output="sos")
    return [
        ("compressor", lambda: sk.Compressor(R, -20, 4, channels=16).process(x16)),
        ("gate", lambda: sk.NoiseGate(R, -30, 4, channels=16).process(x16)),
        ("limiter", lambda: sk.Limiter(R, -1.0, channels=16).process(x16)),
        ("envelope", lambda: sk.EnvelopeFollower(R, channels=16).process(x16)),
        ("loudness", lambda: sk.loudness_stats(x16[:8].astype(np.float64), R)),
        ("true peak", lambda: sk.true_peak(x2, R)),
        ("resample", lambda: sk.resample(x16, R, 44100)),
        ("resample_poly", lambda: sk.resample_poly(x16, 160, 147, axis=-1)),
        ("sosfilt", lambda: sk.sosfilt(sos, x16)),
        ("lfilter", lambda: sk.lfilter([1, 0.5, 0.25], [1, -0.5, 0.1], x16)),
        ("filtfilt", lambda: sk.filtfilt([1, 0.5], [1, -0.5], x16)),
        ("stft", lambda: sk.stft(x16[0], 1024, 256)),
        ("log-mel", lambda: sk.log_mel_spectrogram(x16[:4], R)),
        ("rfft rows", lambda: sk.rfft(x16.reshape(-1, 1024))),
        ("fft", lambda: sk.fft(x16[0].astype(np.complex64))),
        ("rfft f64 8192", lambda: sk.rfft(x16[0, :8192].astype(np.float64))),
        ("convolve", lambda: sk.convolve(x16[0], x16[1][:4096])),
        ("rms rows", lambda: sk.rms(x16, axis=1)),
        ("dither", lambda: sk.float_to_pcm_dither(x2, "int16")),
    ]

def digest(v):
    h = hashlib.sha256()
    def feed(v):
        if isinstance(v, np.ndarray):
            h.update(str(v.dtype).encode() + str(v.shape).encode() + v.tobytes())
        elif isinstance(v, (tuple, list)):  # LoudnessStats is a named tuple
            for e in v:
                feed(e)
        elif isinstance(v, (int, float, np.floating, np.integer)):
            h.update(np.float64(v).tobytes())
        else:
            raise TypeError(f"no digest for {type(v).__name__}")
    feed(v)
    return h.hexdigest()
'''

CHILD = STEPS + r'''
import sys, threading
out = []
def work():
    for name, f in steps():
        out.append(f"{name} {digest(f())}")
threading.stack_size(int(sys.argv[1]) * 1024)
t = threading.Thread(target=work)
t.start()
t.join()
print("\n".join(out))
'''


def test_every_family_runs_on_a_64_kib_thread():
    env = dict(os.environ, SIGKERN_THREADS="1")
    p = subprocess.run([sys.executable, "-c", CHILD, str(STACK_KIB)], capture_output=True,
                       text=True, timeout=600, env=env)
    assert p.returncode == 0, (p.returncode, p.stderr[-2000:])
    ns = {}
    exec(STEPS, ns)
    want = [f"{name} {ns['digest'](f())}" for name, f in ns["steps"]()]
    got = p.stdout.strip().splitlines()
    assert got == want
    assert len(got) == 19 and len({line.split()[-1] for line in got}) == 19
