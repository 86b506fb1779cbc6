"""Reviewed expected failures of the parity suite: test id (relative to python_tests/parity/;
a trailing ``*`` matches every id with that prefix) → why it fails. Every entry is a documented
difference of sigkern (docs/python.md, "scipy and numpy names"), never a bug left open."""

_F32 = ("a float32 signal keeps float32 through sosfilt (sigkern's rule: the signal's precision; "
        "scipy promotes to the float64 of the sections)")
_INT = ("all-integer b, a and x: scipy refuses the int64 result type (NotImplementedError); "
        "sigkern reads integer input as float64, numpy's promotion")
_BITS = ("demands bit equality with scipy's own rounding; sigkern agrees to about 1e-15 "
         "relative")

EXPECTED_FAILURES: dict[str, str] = {
    # lfilter
    "test_scipy_signal.py::TestLinearFilterFloat32::test_invalid_params[numpy]": _INT,
    "test_scipy_signal.py::TestLinearFilterFloat64::test_invalid_params[numpy]": _INT,
    "test_scipy_signal.py::TestLinearFilterComplex64::test_invalid_params[numpy]": _INT,
    "test_scipy_signal.py::TestLinearFilterComplex128::test_invalid_params[numpy]": _INT,
    "test_scipy_signal.py::test_lfilter_notimplemented_input[numpy]": _INT,
    # sosfilt
    "test_scipy_signal.py::TestSOSFilt::test_initial_conditions[numpy-float32]": _F32,
    "test_scipy_signal.py::TestSOSFilt::test_initial_conditions[numpy-complex64]": _F32,
    "test_scipy_signal.py::TestSOSFilt::test_initial_conditions_3d_axis1[numpy-float32]": _F32,
    "test_scipy_signal.py::TestSOSFilt::test_initial_conditions_3d_axis1[numpy-complex64]": _F32,
    "test_scipy_signal.py::TestSOSFilt::test_sosfilt_zi[numpy-float32]": _F32 + " (zf to 1e-13)",
    "test_scipy_signal.py::TestSOSFilt::test_sosfilt_zi[numpy-complex64]": _F32 + " (zf to 1e-13)",
    "test_scipy_signal.py::TestSOSFilt::test_sosfilt_zi_2[numpy-float32]": _F32 + " (zf to 1e-13)",
    "test_scipy_signal.py::TestSOSFilt::test_sosfilt_zi_2[numpy-complex64]": _F32 + " (zf to 1e-13)",
    # sosfiltfilt
    "test_scipy_signal.py::TestSOSFiltFilt::test_basic[numpy]": (
        "sections with poles outside the unit circle (tf2zpk([1, 2, 3], [1, 2, 3])) are refused "
        "(BadArgumentError); scipy runs the unstable filter"),
    # decimate
    "test_scipy_signal.py::TestDecimate::test_complex_iir_dlti[numpy]": (
        "a complex denominator (dlti with unpaired complex poles) is refused with "
        "NotImplementedError; complex signals and complex numerators are computed"),
    "test_scipy_signal.py::TestDecimate::test_complex_fir_dlti[numpy]": _BITS,
    # get_window
    "test_scipy_signal.py::TestGetWindow::test_dpss[numpy]": _BITS,
    "test_scipy_signal.py::TestGetWindow::test_kaiser_float[numpy]": _BITS,
    "test_scipy_signal.py::TestGetWindow::test_invalid_inputs[numpy]": (
        "matches eight scipy error messages word for word; sigkern raises the same exception "
        "types with its own words"),
    "test_scipy_signal.py::TestGetWindow::test_general_cosine[numpy]": (
        "scipy refuses a list of general_cosine coefficients (only an array); sigkern accepts "
        "both"),
    # numpy.fft
    "test_numpy_fft.py::TestFFT1D::test_identity_long_short[longdouble]": (
        "extended precision is computed and returned in double precision"),
    "test_numpy_fft.py::TestFFT1D::test_identity_long_short_reversed[longdouble]": (
        "extended precision is computed and returned in double precision"),
    "test_numpy_fft.py::TestFFT1D::test_fft_bad_out": (
        "out= of a wrong shape and dtype: sigkern checks the dtype first (TypeError) where "
        "numpy checks the shape first (ValueError)"),
}
