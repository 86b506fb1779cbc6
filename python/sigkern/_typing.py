"""The types of the public signatures, defined once for every module.

Arrays: :data:`ArrayLike` is what a function reads (a numpy array, anything ``np.asarray``
takes, or a torch tensor), :data:`Array` an output the caller passes (``out=``), and
:data:`FloatArray` / :data:`ComplexArray` / :data:`IntArray` what a function returns (a numpy
array, or a tensor when the input was a tensor). The array aliases exist for the type checker
only: neither numpy.typing nor torch is imported at run time (sigkern imports torch never, and
sees a tensor only when the caller passes one); modules import them under
``typing.TYPE_CHECKING`` and every module has ``from __future__ import annotations``, so the
annotations are never evaluated.

The option strings (``norm=``, ``mode=``, ``quality=``, ...) are ``Literal`` types, defined at
run time too (``typing.get_args(Norm)`` lists the accepted values).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Literal, Optional, Tuple, Union

__all__ = [
    "Norm",
    "ConvMode",
    "PadMode",
    "PcmFormat",
    "Quality",
    "Detector",
    "FiltfiltPad",
    "Btype",
    "FilterOutput",
    "IirOutput",
    "IirFtype",
    "BesselNorm",
    "RbjKind",
    "MelNorm",
    "ConvMethod",
    "WindowSpec",
    "Phase",
]

#: ``norm=`` of the FFTs (numpy.fft's; None is ``"backward"``)
Norm = Optional[Literal["backward", "ortho", "forward"]]
#: ``mode=`` of convolve/correlate (scipy.signal's)
ConvMode = Literal["full", "same", "valid"]
#: ``pad_mode=`` of stft (torch.stft's)
PadMode = Literal["reflect", "constant"]
#: integer PCM formats (``"i16"`` ... are aliases)
PcmFormat = Literal["int16", "int24", "int32", "uint8", "i16", "i24", "i32", "u8"]
#: resampler quality presets (soxr's names and their short forms)
Quality = Literal["quick", "qq", "low", "lq", "medium", "mq", "high", "hq", "very_high", "vhq"]
#: detector of the dynamics processors
Detector = Literal["peak", "rms"]
#: ``padtype=`` of filtfilt/sosfiltfilt (scipy's; None: no padding)
FiltfiltPad = Optional[Literal["odd", "even", "constant"]]
#: ``btype=`` of butter
Btype = Literal[
    "lowpass", "low", "lp", "l", "highpass", "high", "hp", "h", "bandpass", "band", "pass", "bp",
    "bandstop", "stop", "bands", "bs",
]
#: ``output=`` of butter
FilterOutput = Literal["ba", "sos"]
#: ``output=`` of the IIR designs (butter, cheby1, cheby2)
IirOutput = Literal["ba", "zpk", "sos"]
#: ``ftype=`` of iirfilter (scipy's names)
IirFtype = Literal[
    "butter", "butterworth", "cheby1", "chebyshev1", "chebyshevi", "cheby2", "chebyshev2",
    "chebyshevii", "ellip", "elliptic", "cauer", "bessel", "bessel_phase", "bessel_delay",
    "bessel_mag",
]
#: ``norm=`` of bessel
BesselNorm = Literal["phase", "delay", "mag"]
#: RBJ cookbook biquad kinds
RbjKind = Literal[
    "lowpass", "highpass", "bandpass", "notch", "allpass", "peaking", "lowshelf", "highshelf"
]
#: mel filter normalisation
MelNorm = Optional[Literal["slaney"]]
#: a window given by name: ``"hann"``, ``("kaiser", 8.6)``, or a Kaiser beta (get_window's)
WindowSpec = Union[str, Tuple[str, float], float]
#: ``phase=`` of Resampler
Phase = Literal["linear", "minimum"]
#: ``method=`` of convolve/correlate (scipy.signal's)
ConvMethod = Literal["auto", "direct", "fft"]

if TYPE_CHECKING:
    from typing import Any

    import numpy as np
    import numpy.typing as npt
    import torch

    #: what a function reads: a numpy array, anything ``np.asarray`` takes, or a torch tensor
    ArrayLike = Union[npt.ArrayLike, torch.Tensor]
    #: an array the caller provides to be written (``out=``): a numpy array or a torch tensor
    Array = Union[npt.NDArray[Any], torch.Tensor]
    #: a real float32/float64 result: a numpy array, or a tensor for tensor input
    FloatArray = Union[npt.NDArray[np.floating[Any]], torch.Tensor]
    #: a complex64/complex128 result: a numpy array, or a tensor for tensor input
    ComplexArray = Union[npt.NDArray[np.complexfloating[Any, Any]], torch.Tensor]
    #: a float64 numpy array (results that are always numpy float64)
    F64Array = npt.NDArray[np.float64]
    #: an integer numpy array (PCM codes)
    IntNDArray = npt.NDArray[np.integer[Any]]
    #: an integer (PCM) result
    IntArray = Union[npt.NDArray[np.integer[Any]], torch.Tensor]
    #: a window: a name/tuple/beta as :data:`WindowSpec`, or the values (stft/istft)
    WindowLike = Union[WindowSpec, npt.ArrayLike, torch.Tensor]
    #: a ``dtype=`` argument: a numpy dtype (or its name) or a torch dtype
    DTypeLike = Union[npt.DTypeLike, torch.dtype]
