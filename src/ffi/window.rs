//! Windows equal to `scipy.signal.get_window`: `sk_window_*` (a window kind with at most one
//! parameter) and `sk_window_params_*`, which takes a window's parameters as an array (for
//! windows with none, one, or several parameters, e.g. `('general_gaussian', p, sig)` or
//! `('general_cosine', a)`).

use super::guard::{alias, ffi_boundary, Buf};
use crate::error::{SkError, SkResult};
use crate::kernels::alloc::try_vec;
use crate::kernels::spectral::window::Window;
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

/// Window kind: Bartlett–Hann (`barthann`; no parameter).
pub const SK_WINDOW_BARTHANN: i32 = 8;
/// Window kind: Bartlett (`bartlett`; no parameter).
pub const SK_WINDOW_BARTLETT: i32 = 9;
/// Window kind: Bohman (`bohman`; no parameter).
pub const SK_WINDOW_BOHMAN: i32 = 10;
/// Window kind: Dolph–Chebyshev (`chebwin`; parameter `at`, sidelobe attenuation in dB).
pub const SK_WINDOW_CHEBWIN: i32 = 11;
/// Window kind: cosine (`cosine`; no parameter).
pub const SK_WINDOW_COSINE: i32 = 12;
/// Window kind: the first DPSS / Slepian window (`dpss`; parameter `NW`, `0 < NW < M/2`;
/// scipy's default `norm='approximate'`).
pub const SK_WINDOW_DPSS: i32 = 13;
/// Window kind: exponential / Poisson (`exponential`, `poisson`; parameters `center` (NaN for
/// None, the default; must be None for a symmetric window) and `tau` (default 1)).
pub const SK_WINDOW_EXPONENTIAL: i32 = 14;
/// Window kind: generalised cosine (`general_cosine`; parameters: the coefficients `a`).
pub const SK_WINDOW_GENERAL_COSINE: i32 = 15;
/// Window kind: generalised Hamming (`general_hamming`; parameter `alpha`).
pub const SK_WINDOW_GENERAL_HAMMING: i32 = 16;
/// Window kind: Kaiser–Bessel derived (`kaiser_bessel_derived`, `kbd`; parameter `beta`);
/// symmetric and even lengths only, as scipy.
pub const SK_WINDOW_KAISER_BESSEL_DERIVED: i32 = 17;
/// Window kind: Lanczos / sinc (`lanczos`, `sinc`; no parameter).
pub const SK_WINDOW_LANCZOS: i32 = 18;
/// Window kind: Nuttall's minimum 4-term Blackman–Harris (`nuttall`; no parameter).
pub const SK_WINDOW_NUTTALL: i32 = 19;
/// Window kind: Parzen (`parzen`; no parameter).
pub const SK_WINDOW_PARZEN: i32 = 20;
/// Window kind: Taylor (`taylor`; parameters `nbar` (integer >= 1, default 4), `sll` (dB,
/// default 30), `norm` (non-zero = True, the default)).
pub const SK_WINDOW_TAYLOR: i32 = 21;
/// Window kind: triangular (`triang`; no parameter).
pub const SK_WINDOW_TRIANG: i32 = 22;
/// Window kind: Gaussian (`gaussian`; parameter `std`).
pub const SK_WINDOW_GAUSSIAN: i32 = 23;
/// Window kind: generalised Gaussian (`general_gaussian`; parameters `p`, `sig`).
pub const SK_WINDOW_GENERAL_GAUSSIAN: i32 = 24;

/// Parses a window kind of `sk_window_*` with its one parameter.
pub(crate) fn parse_window(kind: i32, param: f64) -> SkResult<Window> {
    let w = match kind {
        SK_WINDOW_RECT => Window::Rect,
        SK_WINDOW_HANN => Window::Hann,
        SK_WINDOW_HAMMING => Window::Hamming,
        SK_WINDOW_BLACKMAN => Window::Blackman,
        SK_WINDOW_BLACKMAN_HARRIS => Window::BlackmanHarris,
        SK_WINDOW_FLATTOP => Window::Flattop,
        SK_WINDOW_KAISER => Window::Kaiser(param),
        SK_WINDOW_TUKEY => Window::Tukey(param),
        _ => return parse_more(kind, &[param], true),
    };
    w.check(true, 0)?;
    Ok(w)
}

/// Parses a window kind after `SK_WINDOW_TUKEY` with its parameters. `legacy`: the call came
/// through `sk_window_*` with one `param` (then kinds with other than one parameter ignore it or
/// are refused).
fn parse_more(kind: i32, params: &[f64], legacy: bool) -> SkResult<Window> {
    let np = params.len();
    let name = match kind {
        SK_WINDOW_BARTHANN => "barthann",
        SK_WINDOW_BARTLETT => "bartlett",
        SK_WINDOW_BOHMAN => "bohman",
        SK_WINDOW_CHEBWIN => "chebwin",
        SK_WINDOW_COSINE => "cosine",
        SK_WINDOW_DPSS => "dpss",
        SK_WINDOW_EXPONENTIAL => "exponential",
        SK_WINDOW_GENERAL_COSINE => "general_cosine",
        SK_WINDOW_GENERAL_HAMMING => "general_hamming",
        SK_WINDOW_KAISER_BESSEL_DERIVED => "kaiser_bessel_derived",
        SK_WINDOW_LANCZOS => "lanczos",
        SK_WINDOW_NUTTALL => "nuttall",
        SK_WINDOW_PARZEN => "parzen",
        SK_WINDOW_TAYLOR => "taylor",
        SK_WINDOW_TRIANG => "triang",
        SK_WINDOW_GAUSSIAN => "gaussian",
        SK_WINDOW_GENERAL_GAUSSIAN => "general_gaussian",
        _ => {
            return Err(SkError::BadArgument(format!(
                "kind = {kind} is not an SK_WINDOW_* constant (0..=24)"
            )))
        }
    };
    let count = |lo: usize, hi: usize| -> SkResult<()> {
        if np < lo || np > hi {
            let want = if lo == hi {
                format!("{lo}")
            } else {
                format!("{lo} to {hi}")
            };
            return Err(SkError::BadArgument(format!(
                "{name} takes {want} parameter(s), got n_params = {np}"
            )));
        }
        Ok(())
    };
    if legacy
        && matches!(
            kind,
            SK_WINDOW_EXPONENTIAL
                | SK_WINDOW_GENERAL_COSINE
                | SK_WINDOW_TAYLOR
                | SK_WINDOW_GENERAL_GAUSSIAN
        )
    {
        return Err(SkError::BadArgument(format!(
            "{name} has several parameters; use sk_window_params_f64/f32"
        )));
    }
    let no_param = |w: Window| -> SkResult<Window> {
        if !legacy {
            count(0, 0)?;
        }
        Ok(w)
    };
    let win = match kind {
        SK_WINDOW_BARTHANN => no_param(Window::Barthann)?,
        SK_WINDOW_BARTLETT => no_param(Window::Bartlett)?,
        SK_WINDOW_BOHMAN => no_param(Window::Bohman)?,
        SK_WINDOW_COSINE => no_param(Window::Cosine)?,
        SK_WINDOW_LANCZOS => no_param(Window::Lanczos)?,
        SK_WINDOW_NUTTALL => no_param(Window::Nuttall)?,
        SK_WINDOW_PARZEN => no_param(Window::Parzen)?,
        SK_WINDOW_TRIANG => no_param(Window::Triang)?,
        SK_WINDOW_CHEBWIN => {
            count(1, 1)?;
            Window::Chebwin(params[0])
        }
        SK_WINDOW_DPSS => {
            count(1, 1)?;
            Window::Dpss(params[0])
        }
        SK_WINDOW_GENERAL_HAMMING => {
            count(1, 1)?;
            Window::GeneralHamming(params[0])
        }
        SK_WINDOW_KAISER_BESSEL_DERIVED => {
            count(1, 1)?;
            Window::KaiserBesselDerived(params[0])
        }
        SK_WINDOW_GAUSSIAN => {
            count(1, 1)?;
            Window::Gaussian(params[0])
        }
        SK_WINDOW_EXPONENTIAL => {
            count(0, 2)?;
            let center = params.first().copied().filter(|c| !c.is_nan());
            Window::Exponential {
                center,
                tau: params.get(1).copied().unwrap_or(1.0),
            }
        }
        SK_WINDOW_GENERAL_COSINE => {
            count(1, usize::MAX)?;
            Window::GeneralCosine(params.to_vec())
        }
        SK_WINDOW_TAYLOR => {
            count(0, 3)?;
            let nbar = params.first().copied().unwrap_or(4.0);
            if !(nbar.is_finite() && nbar.fract() == 0.0 && (1.0..=1000.0).contains(&nbar)) {
                return Err(SkError::BadArgument(format!(
                    "taylor nbar = {nbar} must be an integer from 1 to 1000"
                )));
            }
            Window::Taylor {
                nbar: nbar as usize,
                sll: params.get(1).copied().unwrap_or(30.0),
                norm: params.get(2).is_none_or(|v| *v != 0.0),
            }
        }
        SK_WINDOW_GENERAL_GAUSSIAN => {
            count(2, 2)?;
            Window::GeneralGaussian {
                p: params[0],
                sig: params[1],
            }
        }
        _ => unreachable!("kind checked above"),
    };
    // parameter rules that do not depend on the length (length rules are checked on fill)
    win.check(true, 0).or_else(|e| {
        // the symmetric-only rules (kbd, exponential's center) depend on `periodic`
        if matches!(
            win,
            Window::KaiserBesselDerived(_) | Window::Exponential { .. }
        ) {
            win.check(false, 0).map_err(|_| e)
        } else {
            Err(e)
        }
    })?;
    Ok(win)
}

/// Parses any kind for `sk_window_params_*`.
pub(crate) fn parse_any(kind: i32, params: &[f64]) -> SkResult<Window> {
    match kind {
        0..=5 => {
            if !params.is_empty() {
                return Err(SkError::BadArgument(format!(
                    "window kind {kind} takes no parameter, got n_params = {}",
                    params.len()
                )));
            }
            parse_window(kind, 0.0)
        }
        SK_WINDOW_KAISER => {
            if params.len() != 1 {
                return Err(SkError::BadArgument(format!(
                    "kaiser takes 1 parameter (beta), got n_params = {}",
                    params.len()
                )));
            }
            parse_window(kind, params[0])
        }
        SK_WINDOW_TUKEY => {
            if params.len() > 1 {
                return Err(SkError::BadArgument(format!(
                    "tukey takes 0 or 1 parameter (alpha, default 0.5), got n_params = {}",
                    params.len()
                )));
            }
            let w = Window::Tukey(params.first().copied().unwrap_or(0.5));
            w.check(true, 0)?;
            Ok(w)
        }
        _ => parse_more(kind, params, false),
    }
}

/// # Safety
/// `w` writable for `n` elements of `T` and not accessed elsewhere during the call.
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
/// Real-time safe: no (computes the window in an allocated double-precision temporary).
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
        // SAFETY: the caller's contract makes `w` writable for `n` doubles (window_ffi's
        // `# Safety`); window_ffi runs `Buf::check` on it (NULL only if n = 0, aligned, no
        // overflow or wrap) before it makes the output slice, once the window is computed.
        unsafe { window_ffi(kind, param, periodic, w, n) }
    })
}

/// The window of `sk_window_f64` computed in double and rounded to float. Rules as
/// `sk_window_f64` (4-byte alignment).
///
/// Real-time safe: no (computes the window in an allocated double-precision temporary).
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
        // SAFETY: the caller's contract makes `w` writable for `n` floats (window_ffi's
        // `# Safety`); window_ffi runs `Buf::check` on it (NULL only if n = 0, aligned, no
        // overflow or wrap) before it makes the output slice, once the window is computed.
        unsafe { window_ffi(kind, param, periodic, w, n) }
    })
}

/// # Safety
/// `params` readable for `n_params` doubles and `w` writable for `n` elements of `T`, neither
/// written elsewhere during the call.
unsafe fn window_params_ffi<T: Float>(
    kind: i32,
    params: *const f64,
    periodic: i32,
    w: *mut T,
    n_params: usize,
    n: usize,
) -> SkResult<()> {
    let pb = Buf::new("params", params, n_params);
    pb.check()?;
    let wb = Buf::out("w", w, n);
    wb.check()?;
    alias(&pb, &wb, false)?;
    // SAFETY: validated.
    let win = parse_any(kind, unsafe { pb.slice() })?;
    let mut tmp = Vec::new();
    tmp.try_reserve_exact(n)
        .map_err(|_| SkError::Allocation(format!("cannot allocate {n} doubles")))?;
    tmp.resize(n, 0.0f64);
    win.fill(periodic != 0, &mut tmp)?;
    // SAFETY: validated.
    for (o, v) in unsafe { wb.slice_mut() }.iter_mut().zip(&tmp) {
        *o = T::from_f64(*v);
    }
    Ok(())
}

/// Fills `w[0..n]` with `scipy.signal.get_window((name, *params), n, fftbins=periodic)` in
/// double precision: every window `get_window` accepts, with scipy's parameters in scipy's
/// order and scipy's defaults when fewer are given.
///
/// - `kind`: an `SK_WINDOW_*` constant (0–24); `params`: `n_params` doubles (NULL if 0):
///   none for rect, hann, hamming, blackman, blackmanharris, flattop, barthann, bartlett,
///   bohman, cosine, lanczos, nuttall, parzen, triang; `beta` for kaiser and
///   kaiser_bessel_derived; `alpha` (optional, default 0.5) for tukey; `at` for chebwin; `NW`
///   for dpss; `alpha` for general_hamming; `std` for gaussian; `p, sig` for general_gaussian;
///   the coefficients `a` (at least one) for general_cosine; `center` (NaN = None) and `tau`
///   (both optional) for exponential; `nbar` (integer), `sll`, `norm` (all optional) for
///   taylor.
/// - `periodic ≠ 0`: the DFT-even window (`sym=False`, get_window's default); 0: symmetric.
///   `n <= 1` gives ones (kaiser_bessel_derived: `n = 0` writes nothing).
/// - Accuracy: closed forms within 1e-12 of scipy; chebwin and dpss (different DFT and
///   eigensolver algorithms) within 1e-10 of the peak.
/// - Returns `SK_OK`; `SK_ERR_BAD_ARGUMENT` for an unknown kind, a wrong number of parameters,
///   a parameter out of range (non-finite; kaiser/kbd |beta| > 700; dpss `NW <= 0` or
///   `NW >= n/2`; taylor `nbar` not an integer in 1..=1000; general_cosine without
///   coefficients), a periodic kaiser_bessel_derived or an odd `n` for it, an exponential with
///   a `center` when symmetric; `SK_ERR_NULL_POINTER`, `SK_ERR_MISALIGNED`, `SK_ERR_LENGTH`,
///   `SK_ERR_OVERLAP` (`w` overlaps `params`), `SK_ERR_ALLOCATION`. On error `w` is untouched.
///
/// Thread-safe (stateless).
///
/// Real-time safe: no (computes the window in an allocated double-precision temporary).
///
/// # Safety
/// `params` readable for `n_params` doubles; `w` writable for `n` doubles.
#[no_mangle]
pub unsafe extern "C" fn sk_window_params_f64(
    kind: i32,
    params: *const f64,
    periodic: i32,
    w: *mut f64,
    n_params: usize,
    n: usize,
) -> i32 {
    ffi_boundary!("sk_window_params_f64", {
        // SAFETY: the caller's contract makes `params` readable for `n_params` doubles and `w`
        // writable for `n` doubles (window_params_ffi's `# Safety`); window_params_ffi runs
        // `Buf::check` on both and `alias` (`SK_ERR_OVERLAP` unless disjoint) before any access.
        unsafe { window_params_ffi(kind, params, periodic, w, n_params, n) }
    })
}

/// The window of `sk_window_params_f64` computed in double and rounded to float. Same rules and
/// status codes (`w` 4-byte aligned).
///
/// Real-time safe: no (computes the window in an allocated double-precision temporary).
///
/// # Safety
/// `params` readable for `n_params` doubles; `w` writable for `n` floats.
#[no_mangle]
pub unsafe extern "C" fn sk_window_params_f32(
    kind: i32,
    params: *const f64,
    periodic: i32,
    w: *mut f32,
    n_params: usize,
    n: usize,
) -> i32 {
    ffi_boundary!("sk_window_params_f32", {
        // SAFETY: the caller's contract makes `params` readable for `n_params` doubles and `w`
        // writable for `n` floats (window_params_ffi's `# Safety`); window_params_ffi runs
        // `Buf::check` on both and `alias` (`SK_ERR_OVERLAP` unless disjoint) before any access.
        unsafe { window_params_ffi(kind, params, periodic, w, n_params, n) }
    })
}
