"""sigkern: fast, safe audio and signal kernels for numpy arrays and PyTorch tensors.

The package calls the bundled ``libsigkern`` (a Rust library with a plain C ABI) zero-copy:
float32/float64 numpy arrays and CPU torch tensors go in, the same kind comes out, and every
function takes ``out=`` where it has an output. The last axis is time; leading axes are
channels or batch.

    >>> import numpy as np, sigkern
    >>> x = np.random.default_rng(0).standard_normal(48000).astype(np.float32)
    >>> y = sigkern.scale(x, 0.5)
    >>> level, top = sigkern.rms(y), sigkern.peak(y)

Families (one module each, as in the C library): :mod:`sigkern.core` (elementwise arithmetic,
reductions), :mod:`sigkern.audio` (PCM, channel layout, gain, dB), :mod:`sigkern.filters`
(SOS/biquad, FIR, filter design), :mod:`sigkern.spectral` (FFT, windows, STFT, mel,
convolution), :mod:`sigkern.loudness` (BS.1770 / EBU R 128 meter, normalisation), :mod:`sigkern.dynamics`
(compressor, limiter, gate, envelope follower), :mod:`sigkern.resample`
(streaming and one-shot sample-rate conversion, ``resample_poly``), :mod:`sigkern.analysis`
(``scipy.signal``'s spectral estimation and analytic signal), :mod:`sigkern.kaldi`
(Kaldi spectrogram, fbank and MFCC as ``torchaudio.compliance.kaldi``; its names stay in their
module: ``sigkern.kaldi.fbank``), :mod:`sigkern.effects` (``librosa.effects``' time_stretch and
pitch_shift; its names stay in their module), :mod:`sigkern.feature` (``librosa.feature``'s
names: frame-wise descriptors, ``mfcc``, ``delta``; they stay in their module),
:mod:`sigkern.onset` (librosa's onset envelope and detection), :mod:`sigkern.pitch`
(``sigkern.yin``). Errors
raise :class:`SigkernError` subclasses; wrong types and dtypes raise ``TypeError``, wrong
shapes ``ValueError``, before any C call.

Raw access: :data:`ffi` and :data:`lib` (the compiled CFFI module over the header, every
``sk_*`` function), :func:`library_path` and :func:`include_dir` for ctypes and C users.
"""

from __future__ import annotations

from . import analysis
from . import audio
from . import core
from . import dynamics
from . import effects
from . import feature
from . import filters
from . import kaldi
from . import loudness
from . import onset
from . import pitch
from . import spectral
from . import resample as _resample  # the name `resample` is the function
from ._errors import *  # noqa: F401,F403
from ._errors import __all__ as _errors_all
from ._lib import cfunc, ffi, include_dir, lib, library_path
from .analysis import *  # noqa: F401,F403
from .audio import *  # noqa: F401,F403
from .core import *  # noqa: F401,F403
from .dynamics import *  # noqa: F401,F403
from .filters import *  # noqa: F401,F403
from .loudness import *  # noqa: F401,F403
from .pitch import *  # noqa: F401,F403
from .spectral import *  # noqa: F401,F403
from .resample import *  # noqa: F401,F403

__all__ = (
    ["ffi", "lib", "library_path", "include_dir", "version", "simd_level", "__version__"]
    + list(_errors_all)
    + list(core.__all__)
    + list(audio.__all__)
    + list(filters.__all__)
    + list(loudness.__all__)
    + list(dynamics.__all__)
    + list(spectral.__all__)
    + list(_resample.__all__)
    + list(analysis.__all__)
    + list(pitch.__all__)
)

_sk_version = cfunc("sk_version")
_sk_simd_level = cfunc("sk_simd_level")


def version() -> str:
    """The library version (``sk_version()``), equal to ``__version__``.

    Returns
    -------
    str
        ``"MAJOR.MINOR.PATCH"``.
    """
    ret: str = ffi.string(_sk_version()).decode()
    return ret


def simd_level() -> str:
    """The SIMD level the kernels use (``sk_simd_level()``; the environment variable
    ``SIGKERN_SIMD``, read once at the first call, may force a lower one).

    Returns
    -------
    str
        ``"avx512"``, ``"avx2"``, ``"sse2"``, ``"neon"`` or ``"scalar"``.
    """
    ret: str = ffi.string(_sk_simd_level()).decode()
    return ret


__version__ = version()
