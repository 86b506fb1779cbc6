"""Files for the command line: finding audio, reading it in blocks, writing atomically.

Every problem with one input file raises :class:`FileFailure` with a short reason a user can
act on ("unreadable: ...", "zero length", "NaN or infinity in the data at frame N"); problems
with the command itself (an output directory that cannot be written, a directory without
audio) raise :class:`UsageError` before anything is written.
"""

from __future__ import annotations

import importlib
import os
import tempfile
from dataclasses import dataclass
from typing import Any, Callable, Dict, Iterator, List, Optional, Sequence, Tuple

import numpy as np

#: file name endings taken when a directory is given (the formats libsndfile reads)
AUDIO_EXTENSIONS = (".wav", ".flac", ".ogg", ".oga", ".opus", ".mp3", ".aif", ".aiff", ".aifc",
                    ".caf", ".w64", ".rf64", ".au", ".snd")

#: frames read at a time: 64 Ki frames (1.4 s at 48 kHz, 0.5 MB per channel as float64)
BLOCK = 65536

#: libsndfile subtypes written as integer PCM (dithered from float)
_DITHERED = {"PCM_16": "int16", "PCM_24": "int24"}


class FileFailure(Exception):
    """One input file could not be processed; the message is the reason."""


class UsageError(Exception):
    """The command cannot run as given (reported before any file is written)."""


def soundfile() -> Any:
    """The ``soundfile`` module (imported on first use: the package does not depend on it)."""
    try:
        sf = importlib.import_module("soundfile")
    except ImportError as e:  # pragma: no cover - a command-line dependency
        raise UsageError("the sigkern command line needs the 'soundfile' package "
                         "(pip install soundfile)") from e
    return sf


def find_audio(inputs: Sequence[str]) -> List[Tuple[str, Optional[str]]]:
    """The files named on the command line with directories expanded (recursively, audio
    extensions only, sorted), each with the directory it was found under (None for a file
    named directly). A missing path stays in the list (it fails as that file)."""
    files: List[Tuple[str, Optional[str]]] = []
    for item in inputs:
        if os.path.isdir(item):
            found: List[str] = []
            for root, dirs, names in os.walk(item):
                dirs.sort()
                found.extend(os.path.join(root, n) for n in sorted(names)
                             if n.lower().endswith(AUDIO_EXTENSIONS) and not n.startswith("."))
            if not found:
                raise UsageError(f"{item}: no audio files in this directory (looked for "
                                 f"{' '.join(AUDIO_EXTENSIONS)})")
            files.extend((f, item) for f in found)
        else:
            files.append((item, None))
    if not files:
        raise UsageError("no input files")
    return files


def out_paths(outdir: str, files: Sequence[Tuple[str, Optional[str]]],
              ext: Optional[str] = None) -> List[str]:
    """Where the output of each file goes: its path relative to the directory it was found
    under, or its base name, under ``outdir`` (``ext`` replaces the extension).
    :class:`UsageError` when two inputs would write the same file or an input would be
    overwritten."""
    dests: List[str] = []
    seen: Dict[str, str] = {}
    for src, root in files:
        rel = os.path.relpath(src, root) if root else os.path.basename(src)
        if ext is not None:
            rel = os.path.splitext(rel)[0] + ext
        dest = os.path.join(outdir, rel)
        key = os.path.realpath(dest)
        if key in seen:
            raise UsageError(f"{seen[key]} and {src} would both be written to {dest}")
        if os.path.exists(src) and os.path.realpath(src) == key:
            raise UsageError(f"{src}: the output would overwrite the input (choose another -o)")
        seen[key] = src
        dests.append(dest)
    return dests


@dataclass(frozen=True)
class Info:
    """What the header of an audio file says."""

    rate: int
    channels: int
    frames: int
    format: str
    subtype: str

    @property
    def seconds(self) -> float:
        """Duration in seconds."""
        return self.frames / self.rate if self.rate else 0.0


class Reader:
    """An open audio file: its checked header (:attr:`info`) and its samples in blocks
    (:meth:`blocks`). :class:`FileFailure` when it is missing, unreadable or empty."""

    def __init__(self, path: str) -> None:
        sf = soundfile()
        self._sf = sf
        if not os.path.exists(path):
            raise FileFailure("no such file")
        if os.path.isdir(path):
            raise FileFailure("is a directory")
        if os.path.getsize(path) == 0:
            raise FileFailure("zero length (empty file)")
        try:
            self._f = sf.SoundFile(path)
        except sf.LibsndfileError as e:
            raise FileFailure(f"unreadable: {_sf_reason(e)}") from None
        except (OSError, RuntimeError, ValueError) as e:
            raise FileFailure(f"unreadable: {e}") from None
        f = self._f
        i = Info(int(f.samplerate), int(f.channels), int(f.frames), str(f.format), str(f.subtype))
        if i.frames <= 0 or i.channels < 1 or i.rate < 1:
            f.close()
            if i.frames <= 0:
                raise FileFailure("zero length (no audio frames)")
            raise FileFailure(f"unsupported format (rate {i.rate}, {i.channels} channels)")
        self.info = i

    def __enter__(self) -> "Reader":
        return self

    def __exit__(self, *exc: object) -> None:
        self._f.close()

    def blocks(self, dtype: str = "float32", block: int = BLOCK) -> Iterator[np.ndarray]:
        """The file as interleaved ``(frames, channels)`` blocks of ``dtype``, C-contiguous,
        float data checked for NaN and infinity (:class:`FileFailure` naming the first bad
        frame). A block is valid until the next one is asked for (the buffers are reused)."""
        from ..audio import pcm_to_float
        f, pos = self._f, 0
        try:
            codes = _INT_READ.get(f.subtype)
            buf = np.empty((block, f.channels), codes or dtype)
            fbuf = np.empty((block, f.channels), dtype) if codes else buf
            while True:
                x = f.read(block, dtype=codes or dtype, always_2d=True, out=buf)
                if x.shape[0] == 0:
                    break
                if codes:
                    x = fbuf[:x.shape[0]]
                    pcm_to_float(buf[:x.shape[0]], x.dtype, out=x)
                elif not np.isfinite(x).all():
                    bad = int(np.argmin(np.isfinite(x).all(axis=1)))
                    raise FileFailure(f"NaN or infinity in the data at frame {pos + bad}")
                pos += x.shape[0]
                yield x
        except self._sf.LibsndfileError as e:
            raise FileFailure(f"unreadable at frame {pos}: {_sf_reason(e)}") from None
        if pos == 0:
            raise FileFailure("zero length (no audio frames)")


def info(path: str) -> Info:
    """The header of ``path``; :class:`FileFailure` when it is missing, unreadable or empty."""
    with Reader(path) as r:
        return r.info


def _sf_reason(e: Exception) -> str:
    msg = str(getattr(e, "error_string", "") or e)
    return msg.rstrip(".") or type(e).__name__


#: subtypes read as integer codes and converted by :func:`sigkern.pcm_to_float` (several times
#: faster than libsndfile's own float conversion; the same values: ``code / 2**(bits-1)``)
_INT_READ = {"PCM_16": "int16", "PCM_24": "int32", "PCM_32": "int32"}


def blocks(path: str, dtype: str = "float32", block: int = BLOCK) -> Iterator[np.ndarray]:
    """:meth:`Reader.blocks` of ``path``."""
    with Reader(path) as r:
        yield from r.blocks(dtype, block)


def mono(x: np.ndarray) -> np.ndarray:
    """The channel mean of an interleaved block, 1-D, in its dtype (summed in float64 channel
    by channel: numpy's ``mean(axis=1)`` over a few channels is many times slower)."""
    ch = x.shape[1]
    if ch == 1:
        return np.ascontiguousarray(x[:, 0])
    if ch == 2 and x.dtype == np.float32:
        # exact: the float32 sum rounded once and halved equals the float64 mean rounded once
        y: np.ndarray = x[:, 0] + x[:, 1]
        y *= np.float32(0.5)
        return y
    acc = x[:, 0].astype(np.float64)
    for c in range(1, ch):
        acc += x[:, c]
    acc /= ch
    return acc.astype(x.dtype, copy=False)


# ------------------------------------------------------------------------------ output


def prepare_outdir(path: str) -> str:
    """Creates ``path`` if needed and proves it writable (a probe file is created and removed);
    :class:`UsageError` otherwise."""
    try:
        os.makedirs(path, exist_ok=True)
        fd, probe = tempfile.mkstemp(prefix=".sigkern-probe-", dir=path)
        os.close(fd)
        os.unlink(probe)
    except OSError as e:
        raise UsageError(f"cannot write to the output directory {path}: "
                         f"{e.strerror or e}") from None
    return path


def atomic(dest: str, write: Callable[[str], None]) -> None:
    """Calls ``write(tmp)`` with a temporary name in ``dest``'s directory, then renames it to
    ``dest``; on any failure the temporary file is removed and ``dest`` is untouched."""
    d = os.path.dirname(dest) or "."
    os.makedirs(d, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix="." + os.path.basename(dest) + ".", suffix=".part", dir=d)
    os.close(fd)
    try:
        write(tmp)
        os.replace(tmp, dest)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise


def save_npy(dest: str, a: np.ndarray) -> None:
    """``np.save`` to ``dest`` atomically."""
    def write(tmp: str) -> None:
        with open(tmp, "wb") as f:
            np.save(f, a)
    atomic(dest, write)


def output_subtype(fmt: str, subtype: Optional[str], src_subtype: str) -> str:
    """The subtype to write: ``subtype`` if given, else the source's; checked against the
    format (:class:`UsageError`)."""
    sf = soundfile()
    st = (subtype or src_subtype).upper()
    if not sf.check_format(fmt, st):
        raise FileFailure(f"cannot write subtype {st} in format {fmt} "
                          f"(choose one with --subtype: {' '.join(sorted(sf.available_subtypes(fmt)))})")
    return st


class Writer:
    """An audio file written block by block into a temporary file, renamed on :meth:`commit`.
    Integer PCM (16 and 24 bit) is written from float with TPDF dither
    (:class:`sigkern.Ditherer`), other subtypes as float."""

    def __init__(self, dest: str, rate: int, channels: int, fmt: str, subtype: str,
                 dither: bool = True, seed: int = 0) -> None:
        from .. import audio as _audio
        sf = soundfile()
        self.dest = dest
        d = os.path.dirname(dest) or "."
        os.makedirs(d, exist_ok=True)
        fd, self.tmp = tempfile.mkstemp(prefix="." + os.path.basename(dest) + ".", suffix=".part",
                                        dir=d)
        os.close(fd)
        self.frames = 0
        try:
            self._f = sf.SoundFile(self.tmp, "w", samplerate=rate, channels=channels, format=fmt,
                                   subtype=subtype)
        except BaseException:
            os.unlink(self.tmp)
            raise
        self._pcm = _DITHERED.get(subtype) if dither else None
        self._dither = (_audio.Ditherer(channels, seed=seed, format=self._pcm)  # type: ignore[arg-type]
                        if self._pcm else None)
        self._channels = channels

    def write(self, x: np.ndarray) -> None:
        """Appends interleaved float frames ``(n, channels)`` (or ``(n,)`` for one channel)."""
        if x.shape[0] == 0:
            return
        x = np.ascontiguousarray(x)
        if self._dither is not None:
            codes = self._dither.convert(x.reshape(x.shape[0], self._channels))
            if self._pcm == "int24":
                b = codes.reshape(-1, 3).astype(np.int32)
                v = (b[:, 0] | (b[:, 1] << 8) | (b[:, 2] << 16)) << 8  # top 24 bits of int32
                self._f.write(v.reshape(x.shape[0], self._channels))
            else:
                self._f.write(codes)
        else:
            self._f.write(x)
        self.frames += x.shape[0]

    def commit(self) -> None:
        """Closes the file and gives it its name."""
        self._f.close()
        os.replace(self.tmp, self.dest)

    def abort(self) -> None:
        """Closes and removes the temporary file."""
        try:
            self._f.close()
        finally:
            try:
                os.unlink(self.tmp)
            except OSError:
                pass


def as_error(e: BaseException) -> str:
    """A one-line reason for an unexpected exception inside a file's work."""
    from .._errors import NonFiniteError
    if isinstance(e, NonFiniteError):
        return "NaN or infinity in the data"
    if isinstance(e, MemoryError):
        return "out of memory"
    name = type(e).__name__
    return f"{name}: {e}" if str(e) else name

