"""Spectral benchmarks (issue 5): real FFT vs pyFFTW and numpy, STFT vs torch.stft, log-mel vs
librosa, long convolution vs scipy.signal.oaconvolve. Plans, windows, outputs and CFFI pointers
are prepared outside the timed lambdas; pyFFTW is planned with FFTW_MEASURE outside timing and
timed through `FFTW.execute()` (its fastest call path).

Single real FFTs are timed three ways against `execute()`: the C call through this script's
`ffi.dlopen` handle (ABI mode, the seed documents' path), the same C call through the package's
compiled CFFI module (`sigkern.lib`, the binding `import sigkern` gives; the f64 row carries the
target), and `FftPlan.rfft(x, out=y)` with every check of a package call. pyFFTW runs on its
own 64-byte aligned arrays; the package C call is also timed on aligned copies (an informational
row: numpy's arrays are often 16 or 32 bytes off a cache line, which costs the AVX-512 passes)."""


def run(ctx):
    np, ffi, lib = ctx.np, ctx.ffi, ctx.lib

    def dp(a):
        return ffi.from_buffer("double[]" if a.dtype in (np.float64, np.complex128) else "float[]", a)

    rng = np.random.default_rng(0)

    # ---- real FFT -------------------------------------------------------------------------
    if ctx.selected("fft"):
        import pyfftw
        import sigkern

        sffi, slib = sigkern.ffi, sigkern.lib

        for n in (64, 256, 1024, 4096, 65536):
            for dt, cdt, new, rfft, tag in (
                (np.float64, np.complex128, lib.sk_fft_plan_f64_new, lib.sk_rfft_f64, "f64"),
                (np.float32, np.complex64, lib.sk_fft_plan_f32_new, lib.sk_rfft_f32, "f32"),
            ):
                pp = ffi.new("SkFftPlan **")
                ctx.check(new(lib.SK_FFT_REAL, n, pp), "plan")
                plan = ffi.gc(pp[0], lib.sk_fft_plan_free)
                x = rng.standard_normal(n).astype(dt)
                y = np.zeros(n // 2 + 1, cdt)
                xp, yp = dp(x), dp(y)
                ctx.check(rfft(plan, xp, 0, yp, n), "rfft")
                assert np.allclose(y, np.fft.rfft(x.astype(np.float64)), atol=1e-3 * np.sqrt(n))
                a = pyfftw.empty_aligned(n, dt)
                b = pyfftw.empty_aligned(n // 2 + 1, cdt)
                fw = pyfftw.FFTW(a, b, flags=("FFTW_MEASURE",), threads=1)
                a[:] = x
                t_sk = ctx.timeit(lambda: rfft(plan, xp, 0, yp, n))
                t_fw = ctx.timeit(fw.execute)
                ctx.row("fft", f"rfft {tag} n={n} ffi.dlopen", t_sk, t_fw, "pyFFTW execute", None)
                # Through the package (its compiled CFFI module, the binding `import sigkern`
                # users get): the C call with pointers made once, as execute() runs a plan on
                # fixed buffers; and FftPlan.rfft(x, out=y), every check of a call included.
                pk = sigkern.FftPlan(n, "real", dt)
                rt = "double[]" if tag == "f64" else "float[]"
                sx, sy = sffi.from_buffer(rt, x), sffi.from_buffer(rt, y)
                prfft = getattr(slib, f"sk_rfft_{tag}")
                t_pk = ctx.timeit(lambda: prfft(pk._h, sx, 0, sy, n))
                t_fw = ctx.timeit(fw.execute)
                # (the double rows from 4096 points carry the target; below, the call itself is
                # a large part of the time: about 0.2 µs through CFFI against 0.05 µs for
                # execute(), 15 % of pyFFTW's whole 0.95 µs call at 1024 points; the transforms
                # alone are compared from C by `make compare-fftw`)
                ctx.row("fft", f"rfft {tag} n={n} package C call", t_pk, t_fw, "pyFFTW execute",
                        1.0 if tag == "f64" and n >= 4096 else None)
                # the same call on 64-byte aligned copies, as pyFFTW's own arrays are (numpy's
                # are often 16 or 32 bytes off a cache line)
                xa, ya = pyfftw.empty_aligned(n, dt), pyfftw.empty_aligned(n // 2 + 1, cdt)
                xa[:] = x
                sxa, sya = sffi.from_buffer(rt, xa), sffi.from_buffer(rt, ya)
                ctx.check(prfft(pk._h, sxa, 0, sya, n), "rfft")
                assert np.array_equal(ya, y), "aligned copies give another result"
                t_pa = ctx.timeit(lambda: prfft(pk._h, sxa, 0, sya, n))
                t_fw = ctx.timeit(fw.execute)
                ctx.row("fft", f"rfft {tag} n={n} package C call, aligned buffers", t_pa, t_fw,
                        "pyFFTW execute", None)
                assert np.array_equal(pk.rfft(x), y)
                t_pm = ctx.timeit(lambda: pk.rfft(x, out=y))
                t_fw = ctx.timeit(fw.execute)
                ctx.row("fft", f"FftPlan.rfft(x, out=y) {tag} n={n}", t_pm, t_fw, "pyFFTW execute", None)
                pk.close()
                out = np.zeros(n // 2 + 1, np.complex128 if tag == "f64" else np.complex64)
                t_np = ctx.timeit(lambda: np.fft.rfft(x, out=out))
                ctx.row("fft", f"rfft {tag} n={n}", t_sk, t_np, "numpy.fft.rfft", 1.5 if tag == "f64" else None)
        # one call over a (64, n) batch against pyFFTW's batched plan over the same axis
        for rows, n in ((64, 1024),):
            pp = ffi.new("SkFftPlan **")
            ctx.check(lib.sk_fft_plan_f64_new(lib.SK_FFT_REAL, n, pp), "plan")
            plan = ffi.gc(pp[0], lib.sk_fft_plan_free)
            h = n // 2 + 1
            xb = rng.standard_normal((rows, n))
            yb = np.zeros((rows, h), np.complex128)
            xp, yp = dp(xb), dp(yb)
            ctx.check(lib.sk_rfft_batch_f64(plan, xp, n, 0, yp, h, rows, n), "rfft batch")
            assert np.allclose(yb, np.fft.rfft(xb), atol=1e-9 * np.sqrt(n))
            a = pyfftw.empty_aligned((rows, n), np.float64)
            b = pyfftw.empty_aligned((rows, h), np.complex128)
            fw = pyfftw.FFTW(a, b, axes=(-1,), flags=("FFTW_MEASURE",), threads=1)
            a[:] = xb
            t_sk = ctx.timeit(lambda: lib.sk_rfft_batch_f64(plan, xp, n, 0, yp, h, rows, n))
            t_fw = ctx.timeit(fw.execute)
            ctx.row("fft", f"rfft batch f64 ({rows}, {n})", t_sk, t_fw, "pyFFTW batched execute", 1.5)
        for n in (1024, 4096):
            pp = ffi.new("SkFftPlan **")
            ctx.check(lib.sk_fft_plan_f64_new(lib.SK_FFT_COMPLEX, n, pp), "plan")
            plan = ffi.gc(pp[0], lib.sk_fft_plan_free)
            z = rng.standard_normal(n) + 1j * rng.standard_normal(n)
            o = np.zeros(n, complex)
            zp, op = dp(z), dp(o)
            t_sk = ctx.timeit(lambda: lib.sk_fft_f64(plan, zp, 0, op, n))
            t_np = ctx.timeit(lambda: np.fft.fft(z, out=o))
            ctx.row("fft", f"complex fft f64 n={n}", t_sk, t_np, "numpy.fft.fft", None)

    # ---- STFT / ISTFT ---------------------------------------------------------------------
    sr, n_fft, hop = 48000, 1024, 256
    clip = rng.standard_normal(10 * sr)
    if ctx.selected("stft"):
        import torch

        frames = ffi.new("size_t *")
        ctx.check(lib.sk_stft_frames(n_fft, hop, n_fft, 1, lib.SK_PAD_REFLECT, frames, clip.size), "frames")
        nfr = frames[0]
        for dt, cdt, fn, tag in ((np.float64, np.complex128, lib.sk_stft_f64, "f64"),
                                 (np.float32, np.complex64, lib.sk_stft_f32, "f32")):
            x = clip.astype(dt)
            w = (0.5 - 0.5 * np.cos(2 * np.pi * np.arange(n_fft) / n_fft)).astype(dt)
            y = np.zeros((nfr, n_fft // 2 + 1), cdt)
            xp, wp, yp = dp(x), dp(w), dp(y)
            xt, wt = torch.from_numpy(x), torch.from_numpy(w)

            def sk_call():
                return fn(xp, wp, n_fft, hop, n_fft, 1, lib.SK_PAD_REFLECT, 1, 0, yp, y.size, x.size)

            ctx.check(sk_call(), "stft")
            t_sk = ctx.timeit(sk_call, min_time=0.5)
            t_t = ctx.timeit(lambda: torch.stft(xt, n_fft, hop, window=wt, center=True, pad_mode="reflect",
                                                return_complex=True), min_time=0.5)
            ctx.row("stft", f"stft {tag} 10 s 48k nfft1024 hop256", t_sk, t_t, f"torch.stft ({torch.get_num_threads()} thr)",
                    2.0)
            if tag == "f64":
                spec = torch.stft(xt, n_fft, hop, window=wt, center=True, return_complex=True)
                sp = np.ascontiguousarray(spec.numpy().T)
                out = np.zeros(x.size)
                spp, opp = dp(sp), dp(out)
                t_sk = ctx.timeit(lambda: lib.sk_istft_f64(spp, wp, nfr, n_fft, hop, n_fft, 1, 1, 0, opp, x.size),
                                  min_time=0.5)
                t_t = ctx.timeit(lambda: torch.istft(spec, n_fft, hop, window=wt, center=True, length=x.size),
                                 min_time=0.5)
                ctx.row("stft", "istft f64 10 s 48k nfft1024 hop256", t_sk, t_t, "torch.istft", None)

    # ---- log-mel --------------------------------------------------------------------------
    if ctx.selected("mel"):
        import librosa

        for dt, new, fn, tag in ((np.float64, lib.sk_mel_plan_f64_new, lib.sk_logmel_f64, "f64"),
                                 (np.float32, lib.sk_mel_plan_f32_new, lib.sk_logmel_f32, "f32")):
            x = clip.astype(dt)
            pp = ffi.new("SkMelPlan **")
            ctx.check(new(sr, n_fft, hop, n_fft, lib.SK_WINDOW_HANN, 0.0, 1, lib.SK_PAD_CONSTANT, 2.0, 128,
                          0.0, 0.0, 0, lib.SK_MEL_NORM_SLANEY, pp), "mel plan")
            plan = ffi.gc(pp[0], lib.sk_mel_plan_free)
            frames = ffi.new("size_t *")
            ctx.check(lib.sk_mel_frames(plan, frames, x.size), "frames")
            y = np.zeros((128, frames[0]), dt)
            xp, yp = dp(x), dp(y)

            def sk_call():
                return fn(plan, xp, 1.0, 1e-10, 80.0, yp, y.size, x.size)

            ctx.check(sk_call(), "logmel")

            def ref():
                return librosa.power_to_db(librosa.feature.melspectrogram(y=x, sr=sr, n_fft=n_fft, hop_length=hop,
                                                                          n_mels=128))

            t_sk = ctx.timeit(sk_call, min_time=0.5)
            t_l = ctx.timeit(ref, min_time=0.5)
            ctx.row("mel", f"log-mel {tag} 128 mels 10 s 48k", t_sk, t_l, "librosa", 3.0 if tag == "f64" else None)

    # ---- convolution ----------------------------------------------------------------------
    if ctx.selected("conv"):
        import scipy.signal as ss

        h64 = rng.standard_normal(1023)
        for dt, fn, tag in ((np.float64, lib.sk_convolve_f64, "f64"), (np.float32, lib.sk_convolve_f32, "f32")):
            x = clip[:480000].astype(dt)
            h = h64.astype(dt)
            y = np.zeros(x.size + h.size - 1, dt)
            xp, hp, yp = dp(x), dp(h), dp(y)

            def sk_call():
                return fn(xp, hp, lib.SK_CONV_FULL, lib.SK_CONV_AUTO, yp, x.size, h.size, y.size)

            ctx.check(sk_call(), "convolve")
            t_sk = ctx.timeit(sk_call, min_time=0.5)
            t_oa = ctx.timeit(lambda: ss.oaconvolve(x, h), min_time=0.5)
            ctx.row("conv", f"convolve {tag} 480000 x 1023 full", t_sk, t_oa, "scipy oaconvolve",
                    1.0 if tag == "f64" else None)
            if tag == "f64":
                t_fc = ctx.timeit(lambda: ss.fftconvolve(x, h), min_time=0.5)
                ctx.row("conv", f"convolve {tag} 480000 x 1023 full", t_sk, t_fc, "scipy fftconvolve", None)
        a = rng.standard_normal(48000)
        b = rng.standard_normal(31)
        y = np.zeros(a.size + b.size - 1)
        ap, bp, yp = dp(a), dp(b), dp(y)
        t_sk = ctx.timeit(lambda: lib.sk_correlate_f64(ap, bp, 0, 0, yp, a.size, b.size, y.size))
        t_r = ctx.timeit(lambda: ss.correlate(a, b))
        ctx.row("conv", "correlate f64 48000 x 31 (direct)", t_sk, t_r, "scipy correlate", None)
