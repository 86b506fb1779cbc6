"""The work on one file for each subcommand: plain functions of ``(path, opts)`` returning a
dict, so that a process pool, Ray or Dask can run them (they pickle by name).

:func:`run` wraps any of them: a failure becomes ``{"path", "ok": False, "error": reason}``
instead of an exception, so one bad file never stops a run.
"""

from __future__ import annotations

import math
import os
import time
from typing import Any, Callable, Dict, List, Optional

import numpy as np

from . import _album
from ._io import BLOCK, FileFailure, Reader, Writer, as_error, blocks, info, mono, \
    output_subtype, save_npy

Result = Dict[str, Any]
Opts = Dict[str, Any]


def run(task: str, path: str, dest: Optional[str], opts: Opts) -> Result:
    """``TASKS[task](path, dest, opts)`` (``dest``: the output file, or None) with its failure caught: the result always has ``path``,
    ``ok`` and ``seconds`` (of audio), and ``error`` when ``ok`` is false."""
    t0 = time.perf_counter()
    try:
        res = TASKS[task](path, dest, opts)
        res.update(path=path, ok=True)
    except FileFailure as e:
        res = {"path": path, "ok": False, "error": str(e)}
    except Exception as e:  # any other failure of this file: reported with its reason
        res = {"path": path, "ok": False, "error": as_error(e)}
    res.setdefault("seconds", 0.0)
    res["wall"] = time.perf_counter() - t0
    return res


# ------------------------------------------------------------------------------ measure


def _meter(rate: int, channels: int) -> Any:
    from ..loudness import Meter
    try:
        return Meter(rate, channels=channels)
    except (ValueError, TypeError) as e:
        raise FileFailure(f"unsupported format: {e}") from None


def measure(path: str, dest: Optional[str], opts: Opts) -> Result:
    """Header values and the EBU R 128 measurement of one file, streamed in blocks; with
    ``opts["album"]`` also the block energies for the album values."""
    with Reader(path) as rd:
        return _measure(rd, opts)


def _measure(rd: Reader, opts: Opts) -> Result:
    i = rd.info
    m = _meter(i.rate, i.channels)
    blk = _album.Blocks(i.rate, i.channels) if opts.get("album") else None
    n = 0
    with m:
        for x in rd.blocks("float32"):
            m.add_interleaved(x)
            if blk is not None:
                blk.add(x)
            n += x.shape[0]
        s = m.stats()
    res: Result = {
        "rate": i.rate, "channels": i.channels, "frames": n, "seconds": n / i.rate,
        "format": i.format, "subtype": i.subtype,
        "integrated": s.integrated, "loudness_range": s.loudness_range,
        "true_peak": s.true_peak, "sample_peak": s.sample_peak,
        "max_momentary": s.max_momentary, "max_short_term": s.max_short_term,
    }
    if blk is not None:
        res["blocks"] = blk.energies()
    return res


# ---------------------------------------------------------------------------- normalize


def normalize(path: str, dest: Optional[str], opts: Opts) -> Result:
    """Two passes: measure (unless the album gain is given), then scale (and limit) into the
    output file ``dest``. ``opts``: lufs, true_peak, mode ("limit" or "gain"), subtype,
    gain_db (album: one gain for every file; else None)."""
    i = info(path)
    target, ceiling = float(opts["lufs"]), float(opts["true_peak"])
    if opts.get("gain_db") is not None:
        gain_db, m = float(opts["gain_db"]), opts["measured"][path]
        integrated, tp = m["integrated"], m["true_peak"]
    else:
        m = measure(path, None, {})
        integrated, tp = m["integrated"], m["true_peak"]
        if not math.isfinite(integrated):
            raise FileFailure("silent (integrated loudness -inf): nothing to normalise")
        gain_db = target - integrated
    limit = False
    if math.isfinite(tp) and tp + gain_db > ceiling:
        if opts["mode"] == "gain":
            gain_db = ceiling - tp
        else:
            limit = True
    g = 10.0 ** (gain_db / 20.0)
    assert dest is not None
    st = output_subtype(i.format, opts.get("subtype"), i.subtype)
    w = Writer(dest, i.rate, i.channels, i.format, st, seed=0)
    try:
        lim = None
        if limit:
            from ..dynamics import Limiter
            lim = Limiter(i.rate, ceiling_db=ceiling, channels=i.channels)
            skip = lim.latency
        for x in blocks(path, "float64"):
            x *= g
            if lim is not None:
                x = np.asarray(lim.process_interleaved(x))
                if skip:
                    k = min(skip, x.shape[0])
                    x, skip = x[k:], skip - k
            w.write(x)
        if lim is not None:
            tail = np.asarray(lim.process_interleaved(np.zeros((lim.latency, i.channels))))
            w.write(tail[skip:])
            lim.close()
        w.commit()
    except BaseException:
        w.abort()
        raise
    return {"rate": i.rate, "channels": i.channels, "seconds": i.frames / i.rate,
            "integrated": integrated, "true_peak": tp, "gain_db": gain_db, "limited": limit,
            "output": dest, "subtype": st}


# ----------------------------------------------------------------------------- resample


def _resampled(path: str, rate: int, quality: str, to_mono: bool, dtype: str,
               emit: Callable[[np.ndarray], None]) -> Dict[str, Any]:
    """Streams ``path`` through :class:`sigkern.Resampler` (mixed to mono first if asked) and
    calls ``emit`` with each interleaved output block ``(m, channels)``; the output equals
    :func:`sigkern.resample` of the whole signal (the stream's delay is dropped and its tail
    flushed and cut to ``resample_size``)."""
    with Reader(path) as rd:
        return _resampled_from(rd, rate, quality, to_mono, dtype, emit)


def _resampled_from(rd: Reader, rate: int, quality: str, to_mono: bool, dtype: str,
                    emit: Callable[[np.ndarray], None]) -> Dict[str, Any]:
    from ..resample import Resampler, resample_size
    i = rd.info
    ch = 1 if to_mono else i.channels
    n = 0
    if rate == i.rate:
        for x in rd.blocks(dtype):
            emit(mono(x)[:, None] if to_mono else x)
            n += x.shape[0]
        return {"in_rate": i.rate, "rate": rate, "channels": ch, "frames_in": n, "frames": n,
                "seconds": n / i.rate, "format": i.format, "subtype": i.subtype}
    try:
        r = Resampler(i.rate, rate, channels=ch, quality=quality,  # type: ignore[arg-type]
                      dtype=np.dtype(dtype))
    except (ValueError, TypeError) as e:
        raise FileFailure(f"cannot resample {i.rate} Hz to {rate} Hz: {e}") from None
    skip = r.latency
    written = 0
    with r:
        def push(y: np.ndarray, limit: Optional[int] = None) -> None:
            nonlocal skip, written
            if skip:
                k = min(skip, y.shape[0])
                y, skip = y[k:], skip - k
            if limit is not None:
                y = y[:max(limit - written, 0)]
            if y.shape[0]:
                emit(y)
                written += y.shape[0]
        for x in rd.blocks(dtype):
            n += x.shape[0]
            push(np.asarray(r.process_interleaved(mono(x)[:, None] if to_mono else x)))
        push(np.asarray(r.flush_interleaved()), resample_size(n, i.rate, rate))
    return {"in_rate": i.rate, "rate": rate, "channels": ch, "frames_in": n, "frames": written,
            "seconds": n / i.rate, "format": i.format, "subtype": i.subtype}


def resample(path: str, dest: Optional[str], opts: Opts) -> Result:
    """One file to ``opts["rate"]`` (``quality``, ``mono``, ``subtype``) into ``dest``,
    written block by block into a temporary file renamed at the end."""
    assert dest is not None
    with Reader(path) as rd:
        i = rd.info
        st = output_subtype(i.format, opts.get("subtype"), i.subtype)
        rate = int(opts["rate"])
        ch = 1 if opts.get("mono") else i.channels
        w = Writer(dest, rate, ch, i.format, st, seed=0)
        try:
            res = _resampled_from(rd, rate, opts.get("quality", "high"), bool(opts.get("mono")),
                                  "float64" if st in ("DOUBLE", "PCM_32") else "float32",
                                  w.write)
            w.commit()
        except BaseException:
            w.abort()
            raise
    res.update(output=dest, subtype=st)
    return res


# ----------------------------------------------------------------------------- features

#: what ``--kind`` computes (all on the mono signal at ``--rate``)
KINDS = {
    "whisper": "Whisper's log-mel (sigkern.log_mel_spectrogram: 25 ms Hann, 10 ms hop, n_mels "
               "Slaney mels, log10, 8-decade floor, (l + 4) / 4), shape (n_mels, frames)",
    "logmel": "librosa's power_to_db(melspectrogram) with a 25 ms window and 10 ms hop "
              "(sigkern.MelSpectrogram.log_mel, top_db 80), shape (n_mels, frames)",
    "fbank": "Kaldi fbank (sigkern.kaldi.fbank, n_mels bins, 25 ms / 10 ms povey frames), "
             "shape (frames, n_mels)",
    "mfcc": "Kaldi MFCC (sigkern.kaldi.mfcc, 13 coefficients from n_mels bins), "
            "shape (frames, 13)",
}


def compute_features(y: np.ndarray, rate: int, kind: str, n_mels: int) -> np.ndarray:
    """The features of a mono float32 signal (see :data:`KINDS`)."""
    win, hop = int(round(0.025 * rate)), int(round(0.010 * rate))
    if kind == "whisper":
        from ..spectral import log_mel_spectrogram
        if y.size < 2 * hop:
            raise FileFailure(f"too short for {kind} features ({y.size} samples at {rate} Hz)")
        return np.asarray(log_mel_spectrogram(y, sr=rate, n_fft=win, hop_length=hop, n_mels=n_mels))
    if kind == "logmel":
        from ..spectral import MelSpectrogram
        with MelSpectrogram(sr=rate, n_fft=win, hop_length=hop, n_mels=n_mels) as plan:
            return np.asarray(plan.log_mel(y))
    from .. import kaldi
    if y.size < win:
        raise FileFailure(f"too short for {kind} features ({y.size} samples at {rate} Hz, a "
                          f"frame is {win})")
    if kind == "fbank":
        return np.asarray(kaldi.fbank(y, num_mel_bins=n_mels, sample_frequency=rate))
    if kind == "mfcc":
        return np.asarray(kaldi.mfcc(y, num_mel_bins=n_mels, sample_frequency=rate))
    raise FileFailure(f"unknown feature kind {kind!r}")


def features(path: str, dest: Optional[str], opts: Opts) -> Result:
    """Decode, mix to mono, resample to ``opts["rate"]``, optionally bring to ``opts["lufs"]``
    (gain only), compute ``opts["kind"]`` features and save them as the ``.npy`` file
    ``dest`` (atomically). A file whose ``.npy`` already exists is skipped (``skipped``: True)."""
    assert dest is not None
    rate, kind = int(opts["rate"]), str(opts["kind"])
    if os.path.exists(dest) and not opts.get("overwrite"):
        i = info(path)
        from ..resample import resample_size
        shape = list(np.load(dest, mmap_mode="r").shape)
        return {"skipped": True, "features": dest, "rate": rate, "source_rate": i.rate,
                "samples": resample_size(i.frames, i.rate, rate) if rate != i.rate else i.frames,
                "seconds": i.seconds, "shape": shape}
    parts: List[np.ndarray] = []
    res = _resampled(path, rate, opts.get("quality", "high"), True, "float32",
                     lambda b: parts.append(b[:, 0].copy()))
    y = np.concatenate(parts) if parts else np.zeros(0, np.float32)
    gain_db = 0.0
    if opts.get("lufs") is not None:
        from ..loudness import integrated_loudness
        lu = integrated_loudness(y, rate) if y.size else -math.inf
        if math.isfinite(lu):
            gain_db = float(opts["lufs"]) - lu
            y *= np.float32(10.0 ** (gain_db / 20.0))
    f = compute_features(y, rate, kind, int(opts.get("n_mels", 80)))
    save_npy(dest, f.astype(np.float32, copy=False))
    return {"skipped": False, "features": dest, "rate": rate, "source_rate": res["in_rate"],
            "samples": int(y.size), "seconds": res["seconds"], "shape": list(f.shape),
            "gain_db": gain_db}


TASKS: Dict[str, Callable[[str, Optional[str], Opts], Result]] = {
    "info": measure, "loudness": measure, "normalize": normalize, "resample": resample,
    "features": features,
}

__all__ = ["run", "TASKS", "KINDS", "BLOCK"]
