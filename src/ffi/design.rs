//! Filter design: RBJ cookbook biquads, Butterworth sections, windowed-sinc FIR taps. All in
//! double precision, written into caller arrays; stateless and thread-safe.

use super::guard::{check_capacity, check_out_scalar, ffi_boundary, Buf};
use super::window::{SK_WINDOW_BLACKMAN, SK_WINDOW_HAMMING, SK_WINDOW_HANN, SK_WINDOW_KAISER};
use crate::error::{SkError, SkResult};
use crate::kernels::filter::design::{
    butter_sections, butter_sos, firwin, rbj, Band, FirBand, Rbj, Window, BUTTER_MAX_ORDER,
};

/// RBJ low-pass (`sk_rbj_biquad` kind).
pub const SK_RBJ_LOWPASS: i32 = 0;
/// RBJ high-pass.
pub const SK_RBJ_HIGHPASS: i32 = 1;
/// RBJ band-pass, 0 dB peak gain.
pub const SK_RBJ_BANDPASS: i32 = 2;
/// RBJ notch.
pub const SK_RBJ_NOTCH: i32 = 3;
/// RBJ all-pass.
pub const SK_RBJ_ALLPASS: i32 = 4;
/// RBJ peaking EQ.
pub const SK_RBJ_PEAKING: i32 = 5;
/// RBJ low shelf.
pub const SK_RBJ_LOWSHELF: i32 = 6;
/// RBJ high shelf.
pub const SK_RBJ_HIGHSHELF: i32 = 7;

/// Band type: low-pass (`sk_butter_sos`, `sk_firwin`).
pub const SK_BAND_LOWPASS: i32 = 0;
/// Band type: high-pass.
pub const SK_BAND_HIGHPASS: i32 = 1;
/// Band type: band-pass (between f1 and f2).
pub const SK_BAND_BANDPASS: i32 = 2;
/// Band type: band-stop (between f1 and f2).
pub const SK_BAND_BANDSTOP: i32 = 3;

fn rbj_kind(kind: i32) -> SkResult<Rbj> {
    Ok(match kind {
        SK_RBJ_LOWPASS => Rbj::Lowpass,
        SK_RBJ_HIGHPASS => Rbj::Highpass,
        SK_RBJ_BANDPASS => Rbj::Bandpass,
        SK_RBJ_NOTCH => Rbj::Notch,
        SK_RBJ_ALLPASS => Rbj::Allpass,
        SK_RBJ_PEAKING => Rbj::Peaking,
        SK_RBJ_LOWSHELF => Rbj::LowShelf,
        SK_RBJ_HIGHSHELF => Rbj::HighShelf,
        _ => {
            return Err(SkError::BadArgument(format!(
                "kind = {kind} is not an SK_RBJ_* constant (0..=7)"
            )))
        }
    })
}

fn band(b: i32) -> SkResult<Band> {
    Ok(match b {
        SK_BAND_LOWPASS => Band::Lowpass,
        SK_BAND_HIGHPASS => Band::Highpass,
        SK_BAND_BANDPASS => Band::Bandpass,
        SK_BAND_BANDSTOP => Band::Bandstop,
        _ => {
            return Err(SkError::BadArgument(format!(
                "band = {b} is not an SK_BAND_* constant (0..=3)"
            )))
        }
    })
}

/// Designs one RBJ "Audio EQ Cookbook" biquad and writes it to `sos[0..6]` as
/// `b0 b1 b2 a0 a1 a2` normalised so `a0 == 1` (ready for `sk_biquad_*_new` or scipy).
///
/// - `kind`: `SK_RBJ_LOWPASS`, `_HIGHPASS`, `_BANDPASS` (0 dB peak), `_NOTCH`, `_ALLPASS`,
///   `_PEAKING`, `_LOWSHELF`, `_HIGHSHELF`; `fs` sample rate (a positive normal number), `f0`
///   centre/corner frequency in the same unit (a normal number strictly between 0 and `fs/2`),
///   `q` quality factor (a positive normal number; for shelves the cookbook's Q form), `gain_db`
///   for peaking and shelves (finite, |gain| ≤ 600; ignored by the others but still checked).
/// - Parameters inside these ranges can still be too extreme for double precision (e.g.
///   `q = 1e-300`): a design with a non-finite coefficient, or with poles that round onto the
///   unit circle (a section `sk_biquad_f64_new` would refuse), is `SK_ERR_BAD_ARGUMENT` with a
///   message saying so.
/// - Returns `SK_OK`; `SK_ERR_BAD_ARGUMENT` for an unknown kind, a parameter out of range or an
///   unusable design; `SK_ERR_NULL_POINTER`/`SK_ERR_MISALIGNED` for `sos`. On error `sos` is
///   untouched.
///
/// Thread-safe.
///
/// Real-time safe: yes.
///
/// # Safety
/// `sos` writable for 6 doubles.
#[no_mangle]
pub unsafe extern "C" fn sk_rbj_biquad(
    kind: i32,
    fs: f64,
    f0: f64,
    q: f64,
    gain_db: f64,
    sos: *mut f64,
) -> i32 {
    ffi_boundary!("sk_rbj_biquad", {
        let b = Buf::out("sos", sos, 6);
        b.check()?;
        let s = rbj(rbj_kind(kind)?, fs, f0, q, gain_db)?;
        // SAFETY: validated.
        unsafe { b.slice_mut() }.copy_from_slice(&s);
        Ok(())
    })
}

/// Number of sections of an order-`order` Butterworth filter of band type `band`:
/// `(order + 1) / 2` for low/high-pass, `order` for band-pass/stop, 1 for order 0 (the identity
/// section); 0 for an invalid band or an order `sk_butter_sos` refuses (above 64).
///
/// Real-time safe: yes.
#[no_mangle]
pub extern "C" fn sk_butter_sections(order: u32, band_type: i32) -> usize {
    ffi_boundary!("sk_butter_sections", on_error = |_| 0, {
        Ok(match band(band_type) {
            Ok(b) if order as usize <= BUTTER_MAX_ORDER => butter_sections(order as usize, b),
            _ => 0,
        })
    })
}

/// Designs an order-`order` Butterworth filter as second-order sections, equal (to about
/// 1e-12 relative) to `scipy.signal.butter(order, Wn, btype, fs=fs, output='sos')` with
/// `Wn = f1` for `SK_BAND_LOWPASS`/`SK_BAND_HIGHPASS` (then `f2` is ignored) or `Wn = [f1, f2]`
/// for `SK_BAND_BANDPASS`/`SK_BAND_BANDSTOP`: same poles and zeros, same pairing and order of
/// sections (scipy's `zpk2sos`, `pairing='nearest'`), gain in the first section. One exception:
/// when two pole pairs are equally far from the unit circle (band-pass/stop bands symmetric
/// about fs/4), scipy's choice between them depends on rounding in the last bit, and sections
/// of equal pole radius may come in another order than scipy's; the cascade and its response
/// are the same.
///
/// - `order` 0..=64; order 0 is scipy's identity section `[1, 0, 0, 1, 0, 0]` (the frequencies
///   are still checked); `fs` a positive normal number; frequencies normal numbers strictly
///   between 0 and `fs/2`, `f1 < f2` for bands. A design whose coefficients are not finite or
///   whose sections `sk_biquad_f64_new` would refuse (poles rounded outside the unit circle) is
///   `SK_ERR_BAD_ARGUMENT`, with a message saying why.
/// - `sos`: room for `sos_len` doubles; needs `6·sk_butter_sections(order, band)`, else
///   `SK_ERR_BUFFER_TOO_SMALL` (the message states the size). `n_sections` (may be NULL)
///   receives the number of sections written.
/// - Returns `SK_OK`, `SK_ERR_BAD_ARGUMENT`, `SK_ERR_BUFFER_TOO_SMALL`, `SK_ERR_NULL_POINTER`,
///   `SK_ERR_MISALIGNED`, `SK_ERR_LENGTH` (`sos_len` beyond the address space); on error nothing
///   is written. Thread-safe.
///
/// Real-time safe: no (allocates the designed sections before copying them out).
///
/// # Safety
/// `sos` writable for `sos_len` doubles; `n_sections` NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn sk_butter_sos(
    order: u32,
    band_type: i32,
    f1: f64,
    f2: f64,
    fs: f64,
    sos: *mut f64,
    n_sections: *mut usize,
    sos_len: usize,
) -> i32 {
    ffi_boundary!("sk_butter_sos", {
        let bt = band(band_type)?;
        check_capacity("sos", sos, sos_len)?;
        let b = Buf::out("sos", sos, sos_len);
        if !n_sections.is_null() {
            check_out_scalar("n_sections", n_sections)?;
        }
        let s = butter_sos(order as usize, bt, f1, f2, fs)?;
        if sos_len < 6 * s.len() {
            return Err(SkError::BufferTooSmall(format!(
                "sos_len = {sos_len} but this filter has {} sections: {} doubles needed",
                s.len(),
                6 * s.len()
            )));
        }
        // SAFETY: validated.
        let out = unsafe { b.slice_mut() };
        for (dst, sec) in out.chunks_exact_mut(6).zip(&s) {
            dst.copy_from_slice(sec);
        }
        if !n_sections.is_null() {
            // SAFETY: validated.
            unsafe { *n_sections = s.len() };
        }
        Ok(())
    })
}

/// Designs a linear-phase windowed-sinc FIR filter of `n_taps` taps into `taps`, equal (to
/// about 1e-14) to `scipy.signal.firwin(n_taps, cutoff, window=w, pass_zero=btype, fs=fs)`
/// with `cutoff = f1` (low/high-pass; `f2` ignored) or `[f1, f2]` (band-pass/stop), scaled to
/// unit gain at DC, Nyquist or the band centre as scipy does.
///
/// - `band_type`: `SK_BAND_*`; high-pass and band-stop need an odd `n_taps`.
/// - `window`: `SK_WINDOW_HAMMING`, `_HANN`, `_BLACKMAN`, `_KAISER` (then `beta`, 0..=700, is
///   the Kaiser parameter; otherwise ignored).
/// - Returns `SK_OK`, `SK_ERR_LENGTH` (`n_taps == 0`), `SK_ERR_BAD_ARGUMENT` (a parameter out
///   of range, or taps that are not finite), `SK_ERR_NULL_POINTER`, `SK_ERR_MISALIGNED`,
///   `SK_ERR_ALLOCATION` (out of memory for the design's temporaries); on error `taps` is
///   untouched. Thread-safe.
///
/// Real-time safe: no (allocates the designed taps before copying them out).
///
/// # Safety
/// `taps` writable for `n_taps` doubles.
#[no_mangle]
pub unsafe extern "C" fn sk_firwin(
    band_type: i32,
    window: i32,
    beta: f64,
    f1: f64,
    f2: f64,
    fs: f64,
    taps: *mut f64,
    n_taps: usize,
) -> i32 {
    ffi_boundary!("sk_firwin", {
        let fb = match band(band_type)? {
            Band::Lowpass => FirBand::Lowpass,
            Band::Highpass => FirBand::Highpass,
            Band::Bandpass => FirBand::Bandpass,
            Band::Bandstop => FirBand::Bandstop,
        };
        let w = match window {
            SK_WINDOW_HAMMING => Window::Hamming,
            SK_WINDOW_HANN => Window::Hann,
            SK_WINDOW_BLACKMAN => Window::Blackman,
            SK_WINDOW_KAISER => Window::Kaiser(beta),
            _ => {
                return Err(SkError::BadArgument(format!(
                    "window = {window} is not one of SK_WINDOW_HAMMING, SK_WINDOW_HANN, \
                     SK_WINDOW_BLACKMAN, SK_WINDOW_KAISER"
                )))
            }
        };
        let b = Buf::out("taps", taps, n_taps);
        b.check()?;
        let h = firwin(n_taps, fb, w, f1, f2, fs)?;
        // SAFETY: validated.
        unsafe { b.slice_mut() }.copy_from_slice(&h);
        Ok(())
    })
}
