//! Filter design: RBJ cookbook biquads, Butterworth sections, windowed-sinc FIR taps. All in
//! double precision, written into caller arrays; stateless and thread-safe.

use super::guard::{check_capacity, check_out_scalar, ffi_boundary, Buf};
use super::window::{SK_WINDOW_BLACKMAN, SK_WINDOW_HAMMING, SK_WINDOW_HANN, SK_WINDOW_KAISER};
use crate::error::{SkError, SkResult};
use crate::kernels::filter::design::{
    butter_sections, butter_sos, firwin, iir_roots, iir_zpk, rbj, zpk2sos_pairs, Band, BesselNorm,
    FirBand, Pairing, Proto, Rbj, Window, BESSEL_MAX_ORDER, BUTTER_MAX_ORDER, IIR_MAX_ORDER,
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

/// IIR prototype: Butterworth (`sk_iir_zpk`, `sk_iir_sos`).
pub const SK_IIR_BUTTER: i32 = 0;
/// IIR prototype: Chebyshev type I (`ripple` = pass-band ripple in dB).
pub const SK_IIR_CHEBY1: i32 = 1;
/// IIR prototype: Chebyshev type II (`ripple` = stop-band attenuation in dB).
pub const SK_IIR_CHEBY2: i32 = 2;

/// IIR prototype: elliptic (Cauer; `rp` pass-band ripple, `rs` stop-band attenuation, dB;
/// `sk_iirfilter_zpk`, `sk_iirfilter_sos`).
pub const SK_IIR_ELLIP: i32 = 3;
/// IIR prototype: Bessel–Thomson, phase-normalised (scipy's `norm='phase'`).
pub const SK_IIR_BESSEL_PHASE: i32 = 4;
/// IIR prototype: Bessel–Thomson, delay-normalised (scipy's `norm='delay'`).
pub const SK_IIR_BESSEL_DELAY: i32 = 5;
/// IIR prototype: Bessel–Thomson, magnitude-normalised (scipy's `norm='mag'`).
pub const SK_IIR_BESSEL_MAG: i32 = 6;

/// Every prototype, with both ripple parameters (`sk_iirfilter_*`).
fn proto_all(kind: i32, rp: f64, rs: f64) -> SkResult<Proto> {
    Ok(match kind {
        SK_IIR_BUTTER => Proto::Butter,
        SK_IIR_CHEBY1 => Proto::Cheby1(rp),
        SK_IIR_CHEBY2 => Proto::Cheby2(rs),
        SK_IIR_ELLIP => Proto::Ellip(rp, rs),
        SK_IIR_BESSEL_PHASE => Proto::Bessel(BesselNorm::Phase),
        SK_IIR_BESSEL_DELAY => Proto::Bessel(BesselNorm::Delay),
        SK_IIR_BESSEL_MAG => Proto::Bessel(BesselNorm::Mag),
        _ => {
            return Err(SkError::BadArgument(format!(
                "kind = {kind} is not an SK_IIR_* constant (0..=6)"
            )))
        }
    })
}

fn proto(kind: i32, ripple: f64) -> SkResult<Proto> {
    Ok(match kind {
        SK_IIR_BUTTER => Proto::Butter,
        SK_IIR_CHEBY1 => Proto::Cheby1(ripple),
        SK_IIR_CHEBY2 => Proto::Cheby2(ripple),
        _ => {
            return Err(SkError::BadArgument(format!(
                "kind = {kind} is not an SK_IIR_* constant (0..=2)"
            )))
        }
    })
}

fn analog_flag(analog: i32) -> SkResult<bool> {
    match analog {
        0 => Ok(false),
        1 => Ok(true),
        _ => Err(SkError::BadArgument(format!(
            "analog = {analog} must be 0 (digital) or 1 (analog)"
        ))),
    }
}

/// Writes sections into a caller's array of `sos_len` doubles (validated before anything is
/// written).
///
/// # Safety
/// `sos` writable for `sos_len` doubles, `n_sections` NULL or writable.
unsafe fn write_sos(
    s: &[[f64; 6]],
    sos: *mut f64,
    n_sections: *mut usize,
    sos_len: usize,
) -> SkResult<()> {
    check_capacity("sos", sos, sos_len)?;
    let b = Buf::out("sos", sos, sos_len);
    if !n_sections.is_null() {
        check_out_scalar("n_sections", n_sections)?;
    }
    if sos_len < 6 * s.len() {
        return Err(SkError::BufferTooSmall(format!(
            "sos_len = {sos_len} but this filter has {} sections: {} doubles needed",
            s.len(),
            6 * s.len()
        )));
    }
    // SAFETY: validated above; the caller's contract.
    let out = unsafe { b.slice_mut() };
    for (dst, sec) in out.chunks_exact_mut(6).zip(s) {
        dst.copy_from_slice(sec);
    }
    if !n_sections.is_null() {
        // SAFETY: validated.
        unsafe { *n_sections = s.len() };
    }
    Ok(())
}

/// Number of poles of an order-`order` IIR design of band type `band_type` (`order` for
/// low/high-pass, `2·order` for band-pass/stop): the capacity, in complex values, that each of
/// `sk_iir_zpk`'s root arrays needs (zeros never outnumber poles). 0 for an invalid band or an
/// order above 84 (the highest Bessel order; the other kinds stop at 64).
///
/// Real-time safe: yes.
#[no_mangle]
pub extern "C" fn sk_iir_roots(order: u32, band_type: i32) -> usize {
    ffi_boundary!("sk_iir_roots", on_error = |_| 0, {
        Ok(match band(band_type) {
            Ok(b) if order as usize <= IIR_MAX_ORDER.max(BESSEL_MAX_ORDER) => {
                iir_roots(order as usize, b)
            }
            _ => 0,
        })
    })
}

/// Designs an IIR filter as zeros, poles and gain, equal (to about 1e-12 relative) to
/// `scipy.signal.iirfilter(order, Wn, rp, rs, btype, analog, ftype, output='zpk')` — i.e.
/// `butter`, `cheby1(order, ripple, Wn, ...)`, `cheby2(order, ripple, Wn, ...)` — with
/// `Wn = w1` (`SK_BAND_LOWPASS`/`_HIGHPASS`; `w2` ignored) or `[w1, w2]` (band-pass/stop): the
/// analog prototype, scipy's frequency transform, and for a digital design the pre-warp and the
/// bilinear transform (scipy's `bilinear_zpk`, `fs = 2`), root for root in scipy's order.
///
/// - `kind`: `SK_IIR_BUTTER`, `SK_IIR_CHEBY1` (`ripple` = pass-band ripple, dB),
///   `SK_IIR_CHEBY2` (`ripple` = stop-band attenuation, dB); `ripple` finite ≥ 0 (ignored for
///   Butterworth). `order` 0..=64 (0: no roots, scipy's gain).
/// - `analog` 0: digital, edges normalised to the Nyquist frequency (scipy's `Wn` without `fs`;
///   pass `2·f/fs` for frequencies in Hz), normal numbers strictly between 0 and 1; `analog` 1:
///   edges in rad/s, positive normal numbers. `w1 < w2` for bands.
/// - `z`, `p`: room for `cap` complex values each (interleaved `re, im`); `sk_iir_roots` gives
///   the count needed. `nz`, `np_` receive the numbers of zeros and poles, `k` the gain.
/// - Returns `SK_OK`; `SK_ERR_BAD_ARGUMENT` (a parameter out of range, or a design whose roots
///   or gain are not finite); `SK_ERR_BUFFER_TOO_SMALL` (`cap` too small; the message states
///   the size); `SK_ERR_NULL_POINTER`, `SK_ERR_MISALIGNED`, `SK_ERR_LENGTH`. On error nothing is
///   written. Thread-safe.
///
/// Real-time safe: no (allocates the design before copying it out).
///
/// # Safety
/// `z` and `p` writable for `2·cap` doubles, `nz`, `np_`, `k` writable.
#[no_mangle]
#[allow(clippy::too_many_arguments)]
pub unsafe extern "C" fn sk_iir_zpk(
    kind: i32,
    order: u32,
    ripple: f64,
    band_type: i32,
    w1: f64,
    w2: f64,
    analog: i32,
    z: *mut f64,
    p: *mut f64,
    cap: usize,
    nz: *mut usize,
    np_: *mut usize,
    k: *mut f64,
) -> i32 {
    ffi_boundary!("sk_iir_zpk", {
        let pr = proto(kind, ripple)?;
        // SAFETY: the caller's contract, forwarded.
        unsafe { zpk_out(pr, order, band_type, w1, w2, analog, z, p, cap, nz, np_, k) }
    })
}

/// The design of `sk_iir_zpk` / `sk_iirfilter_zpk` written out (validated before writing).
///
/// # Safety
/// As `sk_iir_zpk`.
#[allow(clippy::too_many_arguments)]
unsafe fn zpk_out(
    pr: Proto,
    order: u32,
    band_type: i32,
    w1: f64,
    w2: f64,
    analog: i32,
    z: *mut f64,
    p: *mut f64,
    cap: usize,
    nz: *mut usize,
    np_: *mut usize,
    k: *mut f64,
) -> SkResult<()> {
    let bt = band(band_type)?;
    let an = analog_flag(analog)?;
    let doubles = cap
        .checked_mul(2)
        .ok_or_else(|| SkError::Length(format!("cap = {cap} complex values overflow size_t")))?;
    check_capacity("z", z, doubles)?;
    check_capacity("p", p, doubles)?;
    let zb = Buf::out("z", z, doubles);
    let pb = Buf::out("p", p, doubles);
    if zb.overlaps(&pb) {
        return Err(SkError::Overlap("z and p overlap".into()));
    }
    check_out_scalar("nz", nz)?;
    check_out_scalar("np_", np_)?;
    check_out_scalar("k", k)?;
    let d = iir_zpk(order as usize, pr, bt, w1, w2, an)?;
    if cap < d.p.len() || cap < d.z.len() {
        return Err(SkError::BufferTooSmall(format!(
            "cap = {cap} but this design has {} zeros and {} poles",
            d.z.len(),
            d.p.len()
        )));
    }
    // SAFETY: validated above (distinct arrays of 2·cap doubles, writable scalars).
    unsafe {
        for (dst, r) in zb.slice_mut().chunks_exact_mut(2).zip(&d.z) {
            dst.copy_from_slice(r);
        }
        for (dst, r) in pb.slice_mut().chunks_exact_mut(2).zip(&d.p) {
            dst.copy_from_slice(r);
        }
        *nz = d.z.len();
        *np_ = d.p.len();
        *k = d.k;
    }
    Ok(())
}

/// The design of `sk_iir_sos` / `sk_iirfilter_sos` paired and written out.
///
/// # Safety
/// As `sk_iir_sos`.
#[allow(clippy::too_many_arguments)]
unsafe fn sos_out(
    pr: Proto,
    order: u32,
    band_type: i32,
    w1: f64,
    w2: f64,
    analog: i32,
    sos: *mut f64,
    n_sections: *mut usize,
    sos_len: usize,
) -> SkResult<()> {
    let bt = band(band_type)?;
    let an = analog_flag(analog)?;
    check_capacity("sos", sos, sos_len)?;
    if !n_sections.is_null() {
        check_out_scalar("n_sections", n_sections)?;
    }
    let d = iir_zpk(order as usize, pr, bt, w1, w2, an)?;
    let pairing = if an {
        Pairing::Minimal
    } else {
        Pairing::Nearest
    };
    let s = zpk2sos_pairs(&d.z, &d.p, d.k, pairing, an)?;
    // SAFETY: the caller's contract; write_sos checks before writing.
    unsafe { write_sos(&s, sos, n_sections, sos_len) }
}

/// Designs an IIR filter as second-order sections, equal (to about 1e-12 relative) to
/// `scipy.signal.iirfilter(..., output='sos')`: the zeros, poles and gain of `sk_iir_zpk`
/// (same parameters) paired by scipy's `zpk2sos` (`pairing='nearest'` for digital designs,
/// `'minimal'` for analog ones, whose sections are polynomials in s and may be of first order),
/// gain in the first section. `sos` receives `n_sections` rows `b0 b1 b2 a0 a1 a2`; it needs
/// `6·⌈sk_iir_roots(order, band_type)/2⌉` doubles (one section for order 0), `n_sections` (may
/// be NULL) the number written. Where two poles are equally far from the unit circle (the
/// imaginary axis for analog designs) scipy's choice depends on the last bit of each, and
/// sections may come in another order than scipy's, as documented for `sk_butter_sos`.
///
/// - Returns `SK_OK`; `SK_ERR_BAD_ARGUMENT` (as `sk_iir_zpk`); `SK_ERR_BUFFER_TOO_SMALL`;
///   `SK_ERR_NULL_POINTER`, `SK_ERR_MISALIGNED`, `SK_ERR_LENGTH`. On error nothing is written.
///   Thread-safe.
///
/// Real-time safe: no (allocates the design before copying it out).
///
/// # Safety
/// `sos` writable for `sos_len` doubles; `n_sections` NULL or writable.
#[no_mangle]
#[allow(clippy::too_many_arguments)]
pub unsafe extern "C" fn sk_iir_sos(
    kind: i32,
    order: u32,
    ripple: f64,
    band_type: i32,
    w1: f64,
    w2: f64,
    analog: i32,
    sos: *mut f64,
    n_sections: *mut usize,
    sos_len: usize,
) -> i32 {
    ffi_boundary!("sk_iir_sos", {
        let pr = proto(kind, ripple)?;
        // SAFETY: the caller's contract, forwarded.
        unsafe {
            sos_out(
                pr, order, band_type, w1, w2, analog, sos, n_sections, sos_len,
            )
        }
    })
}

/// Designs any of scipy's IIR filters as zeros, poles and gain, equal (to about 1e-12
/// relative) to `scipy.signal.iirfilter(order, Wn, rp, rs, btype, analog, ftype,
/// output='zpk')`: `sk_iir_zpk` with both ripple parameters and every prototype.
///
/// - `kind`: `SK_IIR_BUTTER`, `SK_IIR_CHEBY1` (uses `rp`), `SK_IIR_CHEBY2` (uses `rs`),
///   `SK_IIR_ELLIP` (uses both: scipy's `ellipap`, Landen transformation and Jacobian elliptic
///   functions as scipy computes them), `SK_IIR_BESSEL_PHASE`, `SK_IIR_BESSEL_DELAY`,
///   `SK_IIR_BESSEL_MAG` (scipy's `besselap` with `norm` 'phase', 'delay', 'mag': its
///   starting points, Aberth iteration and Newton polishing; the poles agree with scipy's to
///   about 1e-14 relative, not bit for bit). `rp`, `rs` in dB, finite ≥ 0 (ignored where
///   unused); an elliptic design of order ≥ 2 needs both > 0 and not so far apart that the
///   selectivity underflows (scipy's "Cannot design a filter with given rp and rs"), order 1
///   needs `rp` > 0. `order` 0..=64 (0..=84 for Bessel designs, scipy's own limit: its
///   `besselap` fails to find the zeros above 84).
/// - Every other parameter, the outputs and the errors as `sk_iir_zpk`.
///
/// Real-time safe: no (allocates the design before copying it out).
///
/// # Safety
/// `z` and `p` writable for `2·cap` doubles, `nz`, `np_`, `k` writable.
#[no_mangle]
#[allow(clippy::too_many_arguments)]
pub unsafe extern "C" fn sk_iirfilter_zpk(
    kind: i32,
    order: u32,
    rp: f64,
    rs: f64,
    band_type: i32,
    w1: f64,
    w2: f64,
    analog: i32,
    z: *mut f64,
    p: *mut f64,
    cap: usize,
    nz: *mut usize,
    np_: *mut usize,
    k: *mut f64,
) -> i32 {
    ffi_boundary!("sk_iirfilter_zpk", {
        let pr = proto_all(kind, rp, rs)?;
        // SAFETY: the caller's contract, forwarded.
        unsafe { zpk_out(pr, order, band_type, w1, w2, analog, z, p, cap, nz, np_, k) }
    })
}

/// Designs any of scipy's IIR filters as second-order sections, equal (to about 1e-12
/// relative) to `scipy.signal.iirfilter(..., output='sos')`: the design of `sk_iirfilter_zpk`
/// (same parameters) paired as in `sk_iir_sos` (`'nearest'` digital, `'minimal'` analog; ties
/// between equally placed poles as documented there). `sos` needs
/// `6·⌈sk_iir_roots(order, band_type)/2⌉` doubles (one section for order 0).
///
/// - Returns `SK_OK`; `SK_ERR_BAD_ARGUMENT` (as `sk_iirfilter_zpk`); `SK_ERR_BUFFER_TOO_SMALL`;
///   `SK_ERR_NULL_POINTER`, `SK_ERR_MISALIGNED`, `SK_ERR_LENGTH`. On error nothing is written.
///   Thread-safe.
///
/// Real-time safe: no (allocates the design before copying it out).
///
/// # Safety
/// `sos` writable for `sos_len` doubles; `n_sections` NULL or writable.
#[no_mangle]
#[allow(clippy::too_many_arguments)]
pub unsafe extern "C" fn sk_iirfilter_sos(
    kind: i32,
    order: u32,
    rp: f64,
    rs: f64,
    band_type: i32,
    w1: f64,
    w2: f64,
    analog: i32,
    sos: *mut f64,
    n_sections: *mut usize,
    sos_len: usize,
) -> i32 {
    ffi_boundary!("sk_iirfilter_sos", {
        let pr = proto_all(kind, rp, rs)?;
        // SAFETY: the caller's contract, forwarded.
        unsafe {
            sos_out(
                pr, order, band_type, w1, w2, analog, sos, n_sections, sos_len,
            )
        }
    })
}

/// zpk2sos pairing: scipy's `'nearest'` (the digital default).
pub const SK_PAIRING_NEAREST: i32 = 0;
/// zpk2sos pairing: scipy's `'keep_odd'`.
pub const SK_PAIRING_KEEP_ODD: i32 = 1;
/// zpk2sos pairing: scipy's `'minimal'` (the only one for analog filters).
pub const SK_PAIRING_MINIMAL: i32 = 2;

/// Second-order sections of a filter given by zeros, poles and gain, equal to
/// `scipy.signal.zpk2sos(z, p, k, pairing, analog=analog)`: complex roots paired with their
/// conjugates, each pole pair (the one nearest the unit circle — for analog filters the
/// imaginary axis — placed last) with its nearest zeros, gain in the first section. `pairing`:
/// `SK_PAIRING_NEAREST` (pads to an even count), `SK_PAIRING_KEEP_ODD` (an odd real pole keeps
/// its own section), `SK_PAIRING_MINIMAL` (no padding, first-order sections, `nz ≤ np_`; the
/// only one allowed with `analog` 1). `z` (`nz` roots) and `p` (`np_` roots) are complex,
/// interleaved `re, im`; complex roots must come in conjugate pairs (equal within
/// 100·DBL_EPSILON relative, as scipy's `_cplxreal`). `⌈max(nz, np_)/2⌉` sections
/// (`⌈np_/2⌉` for minimal); no roots at all: one section holding `k`. Ties between equally
/// placed poles are resolved as in `sk_iir_sos`.
///
/// - `sos` room for `sos_len` doubles (6 per section); `n_sections` (may be NULL) receives the
///   count written.
/// - Returns `SK_OK`; `SK_ERR_BAD_ARGUMENT` (a non-finite root or gain, a complex root without
///   its conjugate, more zeros than poles for minimal, an unknown pairing, analog with another
///   pairing than minimal, `analog` not 0/1, a configuration where scipy's pairing runs out of
///   real zeros — scipy fails there too);
///   `SK_ERR_BUFFER_TOO_SMALL`; `SK_ERR_NULL_POINTER`, `SK_ERR_MISALIGNED`, `SK_ERR_LENGTH`,
///   `SK_ERR_OVERLAP` (`sos` overlapping `z` or `p`), `SK_ERR_ALLOCATION`. On error nothing is
///   written. Thread-safe.
///
/// Real-time safe: no (allocates the sorted roots and the sections).
///
/// # Safety
/// `z` readable for `2·nz` doubles, `p` for `2·np_`, `sos` writable for `sos_len`,
/// `n_sections` NULL or writable.
#[no_mangle]
#[allow(clippy::too_many_arguments)]
pub unsafe extern "C" fn sk_zpk2sos(
    z: *const f64,
    nz: usize,
    p: *const f64,
    np_: usize,
    k: f64,
    pairing: i32,
    analog: i32,
    sos: *mut f64,
    n_sections: *mut usize,
    sos_len: usize,
) -> i32 {
    ffi_boundary!("sk_zpk2sos", {
        let an = analog_flag(analog)?;
        let pr = match pairing {
            SK_PAIRING_NEAREST => Pairing::Nearest,
            SK_PAIRING_KEEP_ODD => Pairing::KeepOdd,
            SK_PAIRING_MINIMAL => Pairing::Minimal,
            _ => {
                return Err(SkError::BadArgument(format!(
                    "pairing = {pairing} is not an SK_PAIRING_* constant (0..=2)"
                )))
            }
        };
        let len = |name: &str, n: usize| {
            n.checked_mul(2).ok_or_else(|| {
                SkError::Length(format!("{name} = {n} complex values overflow size_t"))
            })
        };
        let zb = Buf::new("z", z, len("nz", nz)?);
        zb.check()?;
        let pb = Buf::new("p", p, len("np_", np_)?);
        pb.check()?;
        check_capacity("sos", sos, sos_len)?;
        let ob = Buf::out("sos", sos, sos_len);
        if ob.overlaps(&zb) || ob.overlaps(&pb) {
            return Err(SkError::Overlap("sos overlaps z or p".into()));
        }
        // SAFETY: checked for 2·nz and 2·np_ doubles; [f64; 2] has f64's alignment, no padding.
        let (zs, ps) = unsafe {
            (
                std::slice::from_raw_parts(zb.slice().as_ptr().cast::<[f64; 2]>(), nz),
                std::slice::from_raw_parts(pb.slice().as_ptr().cast::<[f64; 2]>(), np_),
            )
        };
        let s = zpk2sos_pairs(zs, ps, k, pr, an)?;
        // SAFETY: the caller's contract; write_sos checks before writing.
        unsafe { write_sos(&s, sos, n_sections, sos_len) }
    })
}
