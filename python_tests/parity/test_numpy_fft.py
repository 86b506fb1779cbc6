"""numpy.fft's own tests (the installed numpy's test file, unedited) of rfft, irfft, fft and
ifft, with those functions swapped for sigkern's (see conftest.py)."""

import numpy.fft
from numpy.fft.tests.test_pocketfft import (  # noqa: F401
    TestFFT1D,
    test_fft_with_integer_or_bool_input,
    test_fft_with_order,
    test_irfft_with_n_1_regression,
    test_irfft_with_n_large_regression,
)

TARGETS = (numpy.fft,)
_FFT = ("rfft", "irfft", "fft", "ifft")
SWAP = {
    "TestFFT1D": _FFT,
    "test_fft_with_integer_or_bool_input": _FFT,
    "test_fft_with_order": _FFT,
    "test_irfft_with_n_1_regression": _FFT,
    "test_irfft_with_n_large_regression": _FFT,
}
#: TestFFT1D also tests fftn, hfft, ...: only its tests that name a swapped function run
BY_SOURCE = {"TestFFT1D"}
