"""scipy.signal's own tests (the installed scipy's test files, unedited) of decimate,
resample_poly, upfirdn, lfilter, lfilter_zi, sosfilt, filtfilt, sosfiltfilt, firwin and
get_window, with those functions swapped for sigkern's (see conftest.py)."""

import scipy.signal
import scipy.signal.windows
from scipy.signal.tests.test_fir_filter_design import TestFirwin, TestFirWinMore  # noqa: F401
from scipy.signal.tests.test_signaltools import (  # noqa: F401
    TestDecimate,
    TestFiltFilt,
    TestLFilterZI,
    TestLinearFilterComplex64,
    TestLinearFilterComplex128,
    TestLinearFilterFloat32,
    TestLinearFilterFloat64,
    TestResample,
    TestSOSFilt,
    TestSOSFiltFilt,
    test_lfilter_bad_object,
    test_lfilter_notimplemented_input,
)
from scipy.signal.tests.test_upfirdn import TestUpfirdn, test_output_len_long_input  # noqa: F401
from scipy.signal.tests.test_windows import TestGetWindow  # noqa: F401

TARGETS = (scipy.signal, scipy.signal.windows)

#: test class (or module-level test function) → the names swapped for sigkern's
SWAP = {
    "TestDecimate": ("decimate",),
    "TestResample": ("resample_poly",),
    "TestUpfirdn": ("upfirdn",),
    "test_output_len_long_input": ("upfirdn",),
    "TestLinearFilterFloat32": ("lfilter",),
    "TestLinearFilterFloat64": ("lfilter",),
    "TestLinearFilterComplex64": ("lfilter",),
    "TestLinearFilterComplex128": ("lfilter",),
    "test_lfilter_bad_object": ("lfilter",),
    "test_lfilter_notimplemented_input": ("lfilter",),
    "TestLFilterZI": ("lfilter_zi",),
    "TestSOSFilt": ("sosfilt",),
    "TestFiltFilt": ("filtfilt",),
    "TestSOSFiltFilt": ("sosfiltfilt",),
    "TestFirwin": ("firwin",),
    "TestFirWinMore": ("firwin",),
    "TestGetWindow": ("get_window",),
}


#: classes that also test other functions: only their tests whose source names a swapped
#: function are collected
BY_SOURCE = {"TestResample"}
