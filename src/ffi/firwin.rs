//! `sk_firwin_bands`: scipy's `firwin` with every option (any number of cutoffs, `pass_zero` as
//! a bool or a band name, `scale`, any window of `sk_window_params_f64`).

use super::guard::{alias, ffi_boundary, Buf};
use super::window::parse_any;
use crate::error::{SkError, SkResult};
use crate::kernels::filter::firwin::{firwin_bands, PassZero};

/// `pass_zero=False`: the first cutoff starts a pass band (DC is stopped).
pub const SK_PASS_ZERO_FALSE: i32 = 0;
/// `pass_zero=True`: DC is in the first pass band.
pub const SK_PASS_ZERO_TRUE: i32 = 1;
/// `pass_zero='lowpass'`: True, and exactly one cutoff.
pub const SK_PASS_ZERO_LOWPASS: i32 = 2;
/// `pass_zero='highpass'`: False, and exactly one cutoff.
pub const SK_PASS_ZERO_HIGHPASS: i32 = 3;
/// `pass_zero='bandpass'`: False, and more than one cutoff.
pub const SK_PASS_ZERO_BANDPASS: i32 = 4;
/// `pass_zero='bandstop'`: True, and more than one cutoff.
pub const SK_PASS_ZERO_BANDSTOP: i32 = 5;

#[allow(clippy::too_many_arguments)]
unsafe fn firwin_bands_ffi(
    cutoff: *const f64,
    window_kind: i32,
    window_params: *const f64,
    pass_zero: i32,
    scale: i32,
    fs: f64,
    h: *mut f64,
    n_cutoff: usize,
    n_params: usize,
    n_taps: usize,
) -> SkResult<()> {
    let pz = match pass_zero {
        SK_PASS_ZERO_FALSE => PassZero::Bool(false),
        SK_PASS_ZERO_TRUE => PassZero::Bool(true),
        SK_PASS_ZERO_LOWPASS => PassZero::Lowpass,
        SK_PASS_ZERO_HIGHPASS => PassZero::Highpass,
        SK_PASS_ZERO_BANDPASS => PassZero::Bandpass,
        SK_PASS_ZERO_BANDSTOP => PassZero::Bandstop,
        other => {
            return Err(SkError::BadArgument(format!(
                "pass_zero = {other} is not an SK_PASS_ZERO_* constant (0..=5)"
            )))
        }
    };
    if n_taps == 0 {
        return Err(SkError::Length("n_taps is 0".into()));
    }
    let cb = Buf::new("cutoff", cutoff, n_cutoff);
    let pb = Buf::new("window_params", window_params, n_params);
    let hb = Buf::out("h", h, n_taps);
    cb.check()?;
    pb.check()?;
    hb.check()?;
    alias(&cb, &hb, false)?;
    alias(&pb, &hb, false)?;
    // SAFETY: validated.
    let (c, p) = unsafe { (cb.slice(), pb.slice()) };
    let win = parse_any(window_kind, p)?;
    let mut w = vec![0.0; n_taps];
    win.fill(false, &mut w)?;
    let taps = firwin_bands(n_taps, c, pz, scale != 0, fs, &w)?;
    // SAFETY: validated.
    unsafe { hb.slice_mut() }.copy_from_slice(&taps);
    Ok(())
}

/// Windowed-sinc FIR taps equal (to about 1e-14) to `scipy.signal.firwin(n_taps, cutoff,
/// window=<window>, pass_zero=pass_zero, scale=scale, fs=fs)`, with every option of scipy's
/// except `width` (use a Kaiser window with `kaiserord`'s beta instead).
///
/// - `cutoff`: `n_cutoff >= 1` frequencies in the units of `fs`, strictly increasing, each
///   strictly between 0 and `fs/2`. Bands alternate pass/stop from DC: with
///   `pass_zero` true the first band `[0, cutoff[0]]` passes.
/// - `window_kind`, `window_params` (`n_params` doubles, NULL if 0): any window of
///   `sk_window_params_f64` (symmetric form, as firwin uses), e.g. `SK_WINDOW_HAMMING`
///   (scipy's default) with no parameters, `SK_WINDOW_KAISER` with `beta`.
/// - `pass_zero`: `SK_PASS_ZERO_FALSE`/`TRUE`, or the band names `SK_PASS_ZERO_LOWPASS`,
///   `_HIGHPASS` (exactly one cutoff), `_BANDPASS`, `_BANDSTOP` (more than one cutoff).
/// - `scale ≠ 0`: scale so the response is 1 at DC (first band passes DC), at Nyquist (first
///   band ends there) or at the centre of the first pass band; `scale = 0`: unscaled.
/// - A filter that passes Nyquist needs an odd `n_taps`.
/// - `h`: `n_taps` doubles (`n_taps == 0` is `SK_ERR_LENGTH`).
/// - Returns `SK_OK`; `SK_ERR_BAD_ARGUMENT` (an unknown `pass_zero` or window, a bad window
///   parameter, a cutoff out of range or not increasing, a band-name count rule, an even
///   `n_taps` passing Nyquist, `fs` not finite and positive, a zero response at the scaling
///   frequency); `SK_ERR_LENGTH` (`n_taps` or `n_cutoff` is 0); `SK_ERR_NULL_POINTER`,
///   `SK_ERR_MISALIGNED`, `SK_ERR_OVERLAP` (`h` overlaps `cutoff` or `window_params`). On
///   error `h` is untouched. Thread-safe.
///
/// Real-time safe: no (allocates its working memory).
///
/// # Safety
/// `cutoff` readable for `n_cutoff` doubles, `window_params` for `n_params`, `h` writable for
/// `n_taps`.
#[no_mangle]
pub unsafe extern "C" fn sk_firwin_bands(
    cutoff: *const f64,
    window_kind: i32,
    window_params: *const f64,
    pass_zero: i32,
    scale: i32,
    fs: f64,
    h: *mut f64,
    n_cutoff: usize,
    n_params: usize,
    n_taps: usize,
) -> i32 {
    ffi_boundary!("sk_firwin_bands", {
        // SAFETY: the caller guarantees `cutoff`, `window_params` readable and `h` writable for
        // their lengths (the Safety contract above); firwin_bands_ffi checks every Buf before
        // reading or writing.
        unsafe {
            firwin_bands_ffi(
                cutoff,
                window_kind,
                window_params,
                pass_zero,
                scale,
                fs,
                h,
                n_cutoff,
                n_params,
                n_taps,
            )
        }
    })
}
