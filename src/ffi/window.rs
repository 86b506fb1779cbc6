//! Windows equal to `scipy.signal.get_window`.

use super::guard::{ffi_boundary, Buf};
use crate::error::SkResult;
use crate::kernels::alloc::try_vec;
use crate::kernels::spectral::window::Window;
use crate::kernels::spectral::window_more::AnyWindow;
use crate::kernels::Float;

/// Window kind: rectangular (`boxcar`, all ones; `param` ignored).
pub const SK_WINDOW_RECT: i32 = 0;
/// Window kind: Hann (`param` ignored).
pub const SK_WINDOW_HANN: i32 = 1;
/// Window kind: Hamming, 0.54 − 0.46·cos (`param` ignored).
pub const SK_WINDOW_HAMMING: i32 = 2;
/// Window kind: Blackman (`param` ignored).
pub const SK_WINDOW_BLACKMAN: i32 = 3;
/// Window kind: 4-term Blackman-Harris (`param` ignored).
pub const SK_WINDOW_BLACKMAN_HARRIS: i32 = 4;
/// Window kind: flat top (`param` ignored).
pub const SK_WINDOW_FLATTOP: i32 = 5;
/// Window kind: Kaiser, `param` = beta (finite, |beta| ≤ 700).
pub const SK_WINDOW_KAISER: i32 = 6;
/// Window kind: Tukey, `param` = alpha (finite; ≤ 0 gives ones, ≥ 1 gives Hann).
pub const SK_WINDOW_TUKEY: i32 = 7;

pub(crate) fn parse_window(kind: i32, param: f64) -> SkResult<AnyWindow> {
    let w = match kind {
        SK_WINDOW_RECT => Window::Rect,
        SK_WINDOW_HANN => Window::Hann,
        SK_WINDOW_HAMMING => Window::Hamming,
        SK_WINDOW_BLACKMAN => Window::Blackman,
        SK_WINDOW_BLACKMAN_HARRIS => Window::BlackmanHarris,
        SK_WINDOW_FLATTOP => Window::Flattop,
        SK_WINDOW_KAISER => Window::Kaiser(param),
        SK_WINDOW_TUKEY => Window::Tukey(param),
        _ => return super::window_more::parse_more(kind, &[param], true),
    };
    w.check()?;
    Ok(AnyWindow::Basic(w))
}

unsafe fn window_ffi<T: Float>(
    kind: i32,
    param: f64,
    periodic: i32,
    w: *mut T,
    n: usize,
) -> SkResult<()> {
    let win = parse_window(kind, param)?;
    let wb = Buf::out("w", w, n);
    wb.check()?;
    // computed in double: a temporary for float output (allocated before anything is written)
    let mut tmp = try_vec(n, 0.0f64, "the double-precision window")?;
    win.fill(periodic != 0, &mut tmp)?;
    // SAFETY: validated.
    for (o, v) in unsafe { wb.slice_mut() }.iter_mut().zip(&tmp) {
        *o = T::from_f64(*v);
    }
    Ok(())
}

/// Fills `w[0..n]` with a window equal to `scipy.signal.get_window(name, n, fftbins=periodic)`
/// (float64, within 1e-12): `periodic ≠ 0` is the DFT-even window for spectral analysis
/// (`sym=False`, get_window's default), `periodic = 0` the symmetric one. `n ≤ 1` gives ones.
///
/// Arguments: `kind` an `SK_WINDOW_*` constant; `param` the window's one parameter (Kaiser's
/// beta, Tukey's alpha, chebwin's `at`, dpss's `NW`, general_hamming's alpha,
/// kaiser_bessel_derived's beta, gaussian's std; must be finite for those; ignored by windows
/// without a parameter). Windows with several parameters (exponential, general_cosine,
/// general_gaussian, taylor) are `SK_ERR_BAD_ARGUMENT` here: use `sk_window_params_f64`, which
/// also lists each window's rules; `w` 8-byte aligned, NULL only if n = 0.
/// Returns `SK_OK`, `SK_ERR_BAD_ARGUMENT` (unknown kind, non-finite or out-of-range param),
/// `SK_ERR_NULL_POINTER`, `SK_ERR_MISALIGNED`, `SK_ERR_LENGTH`, `SK_ERR_ALLOCATION` (no memory
/// for the n-point double-precision temporary); on error `w` is untouched.
/// Thread-safe (stateless).
///
/// # Safety
/// `w` writable for n doubles.
#[no_mangle]
pub unsafe extern "C" fn sk_window_f64(
    kind: i32,
    param: f64,
    periodic: i32,
    w: *mut f64,
    n: usize,
) -> i32 {
    ffi_boundary!("sk_window_f64", {
        unsafe { window_ffi(kind, param, periodic, w, n) }
    })
}

/// The window of `sk_window_f64` computed in double and rounded to float. Rules as
/// `sk_window_f64` (4-byte alignment).
///
/// # Safety
/// `w` writable for n floats.
#[no_mangle]
pub unsafe extern "C" fn sk_window_f32(
    kind: i32,
    param: f64,
    periodic: i32,
    w: *mut f32,
    n: usize,
) -> i32 {
    ffi_boundary!("sk_window_f32", {
        unsafe { window_ffi(kind, param, periodic, w, n) }
    })
}
