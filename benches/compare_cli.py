"""The `sigkern` command line over a corpus of 25 files vs the Python code people write today.

Discovered by benches/compare.py (`--only cli`); `run(ctx)` adds these rows:

  loudness over a folder         `sigkern loudness DIR -j 1` (integrated, LRA, true and sample
                                 peak)  vs  ffmpeg-normalize's measurement pass (its probe and
                                 first `loudnorm` pass per file: integrated, LRA, true peak; one
                                 ffmpeg process per file, as the tool runs it), and vs
                                 soundfile.read + pyloudnorm integrated loudness in a loop
                                 (informational: pyloudnorm computes neither LRA nor true peak,
                                 which are over half of sigkern's work per file); decode
                                 included in all, one process each
  features --kind whisper        `sigkern features DIR --kind whisper --lufs -23 -j 1`  vs the
                                 status-quo pipeline: soundfile.read, mono, soxr HQ to 16 kHz,
                                 pyloudnorm to -23 LUFS, Whisper's log-mel in torch (one
                                 thread), np.save; decode and writing included in both
  features --jobs 2 vs --jobs 1  the same command with two worker processes, over a larger
                                 corpus (24 files of 40 s: the 25 short files are about 0.15 s
                                 of work, where starting the worker processes is most of the
                                 difference); scaling: on a machine whose two cores are busy
                                 with other work it cannot reach 2x, and `-j 1` already runs
                                 the library's long calls on both cores

The command runs in-process (`sigkern.cli.main`), so interpreter start-up is in neither side.
Each time is the best of three interleaved runs. The one-process rows are repeated with the
process's CPU time (informational, "cpu" in the name): on a machine shared with other work the
wall time of a run of a second mostly measures waiting for a core.
"""

import io
import os
import shutil
import tempfile
import time

SECTION = "cli"
FILES = 25
SECONDS = 6.0


def _corpus(np, sf, d, files=FILES, seconds=SECONDS):
    rng = np.random.default_rng(48)
    for k in range(files):
        rate = (48000, 44100)[k % 2]
        n = int(seconds * rate)
        t = np.arange(n) / rate
        x = 0.1 * rng.standard_normal((n, 2)) + 0.2 * np.sin(2 * np.pi * (110 + 20 * k) * t)[:, None]
        x *= 10 ** (rng.uniform(-12, 0) / 20)
        sf.write(os.path.join(d, f"utt{k:02d}.wav"), x, rate, subtype="PCM_16")


def _best(fns, rounds=3, prep=None):
    """Best wall and best process CPU seconds of each of fns, timed in turn; `prep[i]` (if
    given) runs untimed before each run of `fns[i]`."""
    t = [float("inf")] * len(fns)
    c = [float("inf")] * len(fns)
    for _ in range(rounds):
        for i, f in enumerate(fns):
            if prep is not None:
                prep[i]()
            t0, c0 = time.perf_counter(), time.process_time()
            f()
            t[i] = min(t[i], time.perf_counter() - t0)
            c[i] = min(c[i], time.process_time() - c0)
    return t, c


def _ffmpeg_normalize_pass(paths):
    """ffmpeg-normalize's measurement pass over `paths` (EBU R128, its defaults: the probe and
    the first `loudnorm` pass, which measures integrated loudness, LRA, true peak and the gating
    threshold: what `sigkern loudness` reports), with the ffmpeg binary of imageio-ffmpeg; None
    if either is missing."""
    try:
        import imageio_ffmpeg
        from ffmpeg_normalize import FFmpegNormalize
        from ffmpeg_normalize._media_file import MediaFile
    except ImportError:
        return None
    os.environ.setdefault("FFMPEG_PATH", imageio_ffmpeg.get_ffmpeg_exe())

    def run():
        ffn = FFmpegNormalize(normalization_type="ebu", progress=False)
        for p in paths:
            m = MediaFile(ffn, p, os.devnull)
            m._first_pass()  # the pass `ffmpeg-normalize` runs before it writes anything
            stats = [s.loudness_statistics["ebu_pass1"] for s in m.streams["audio"].values()]
            assert stats and stats[0]["input_i"] is not None, p

    return run


def run(ctx):
    if not ctx.selected(SECTION):
        return
    try:
        import pyloudnorm
        import soundfile as sf
        import soxr
        import torch
        import librosa
    except ImportError as e:
        print(f"compare_cli: {e.name} not installed; skipped")
        return
    from sigkern.cli import main

    np = ctx.np
    work = tempfile.mkdtemp(prefix="sigkern-bench-cli-")
    try:
        corpus = os.path.join(work, "corpus")
        os.mkdir(corpus)
        _corpus(np, sf, corpus)
        paths = sorted(os.path.join(corpus, f) for f in os.listdir(corpus))
        audio_s = FILES * SECONDS

        def cli(*args):
            rc = main([*args, "-q"], out=io.StringIO(), err=io.StringIO())
            assert rc == 0, args

        # ---- loudness over a folder
        def pyloudnorm_loop():
            for p in paths:
                x, rate = sf.read(p, dtype="float64")
                pyloudnorm.Meter(rate).integrated_loudness(x)

        if ctx.selected(SECTION, "loudness over a folder"):
            (ts, tr, t2), (cs, cr, _) = _best([lambda: cli("loudness", corpus, "-j", "1"),
                                               pyloudnorm_loop,
                                               lambda: cli("loudness", corpus, "-j", "2")])
            name = f"loudness over a folder ({FILES} files, {audio_s:.0f} s)"
            ctx.row(SECTION, name, ts, tr, "soundfile + pyloudnorm loop", None)
            ctx.row(SECTION, name + ", cpu", cs, cr, "soundfile + pyloudnorm loop", None)
            ctx.row(SECTION, name + ", -j 2", t2, tr, "soundfile + pyloudnorm loop", None)
            ffn = _ffmpeg_normalize_pass(paths)
            if ffn is None:
                print("compare_cli: ffmpeg-normalize or imageio-ffmpeg not installed; row skipped")
            else:
                # one round of the reference (about 0.7 s a file), best of three of sigkern
                tf = _best([ffn], rounds=1)[0][0]
                ctx.row(SECTION, name + ", vs ffmpeg-normalize", ts, tf,
                        "ffmpeg-normalize measurement pass", 10.0)

        # ---- features, Whisper log-mel
        window = torch.hann_window(400)
        mel = torch.from_numpy(librosa.filters.mel(sr=16000, n_fft=400, n_mels=80))
        out_ref = os.path.join(work, "ref")
        os.mkdir(out_ref)

        def status_quo():
            with torch.inference_mode():
                for p in paths:
                    x, rate = sf.read(p, dtype="float32")
                    x = x.mean(axis=1)
                    y = soxr.resample(x, rate, 16000, quality="HQ")
                    meter = pyloudnorm.Meter(16000)
                    y = pyloudnorm.normalize.loudness(y, meter.integrated_loudness(y), -23.0)
                    a = torch.from_numpy(np.ascontiguousarray(y, dtype=np.float32))
                    stft = torch.stft(a, 400, 160, window=window, return_complex=True)
                    spec = mel @ (stft[..., :-1].abs() ** 2)
                    log = torch.clamp(spec, min=1e-10).log10()
                    log = (torch.maximum(log, log.max() - 8.0) + 4.0) / 4.0
                    np.save(os.path.join(out_ref, os.path.basename(p) + ".npy"), log.numpy())

        out_sk = os.path.join(work, "feat")

        def features(jobs):
            return lambda: cli("features", corpus, "-o", out_sk, "--kind", "whisper", "--lufs",
                               "-23", "--overwrite", "-j", str(jobs))

        threads = torch.get_num_threads()
        torch.set_num_threads(1)
        try:
            status_quo()
            features(1)()
            a = np.load(os.path.join(out_sk, "utt00.npy"))
            b = np.load(os.path.join(out_ref, "utt00.wav.npy"))
            assert a.shape == b.shape and np.abs(a - b).max() < 0.05, np.abs(a - b).max()
            if ctx.selected(SECTION, "features --kind whisper"):
                # both sides write into an empty folder: replacing last round's files would time
                # the file system freeing them (an unlink of a written file takes milliseconds
                # here), which differs between sigkern's atomic rename and np.save's overwrite
                def fresh(d):
                    def clear():
                        shutil.rmtree(d, ignore_errors=True)
                        os.mkdir(d)
                        os.sync()
                    return clear

                (ts, tr), (cs, cr) = _best([features(1), status_quo],
                                           prep=[fresh(out_sk), fresh(out_ref)])
                name = f"features --kind whisper --lufs -23 ({FILES} files)"
                ctx.row(SECTION, name, ts, tr, "soundfile+soxr+pyloudnorm+torch", 3.0)
                ctx.row(SECTION, name + ", cpu", cs, cr, "soundfile+soxr+pyloudnorm+torch", None)
            if ctx.selected(SECTION, "features --jobs 2"):
                big = os.path.join(work, "big")
                os.mkdir(big)
                _corpus(np, sf, big, files=24, seconds=40.0)

                def big_features(jobs):
                    return lambda: cli("features", big, "-o", out_sk, "--kind", "whisper",
                                       "--lufs", "-23", "--overwrite", "-j", str(jobs))

                (t1, t2), _ = _best([big_features(1), big_features(2)])
                ctx.row(SECTION, "features --jobs 2 vs --jobs 1 (scaling, 24 x 40 s)", t2, t1,
                        "sigkern features --jobs 1", 1.8)
        finally:
            torch.set_num_threads(threads)
    finally:
        shutil.rmtree(work, ignore_errors=True)
