//! Dithered float → integer PCM: `sk_pcm_to_<i16|i24|u8>_dither_<f32|f64>` with an
//! `SkDither` stream state (`sk_dither_init`). TPDF dither (±1 LSB triangular, a counter-based
//! hash of the seed and the sample's position in the stream), optional first-order noise
//! shaping. The output depends only on the seed and the samples, not on how the stream is cut
//! into calls nor on the SIMD level.

use super::guard::{alias, check_out_scalar, ffi_boundary, Buf};
use crate::error::{SkError, SkResult};
use crate::kernels::pcm::{first_non_finite, Pcm, PcmFloat, I24};
use crate::kernels::pcm_dither::{dither_encode, DitherState, MAX_DITHER_CHANNELS};
use crate::simd::current;

/// The state of a dithered conversion stream. Set it up with `sk_dither_init`; every dithered
/// conversion advances it. It is plain data: copy it to branch a stream, store it to resume.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct SkDither {
    /// The dither seed (any value).
    pub seed: u64,
    /// Samples converted so far (the dither of sample `i` is a function of `seed` and `i`).
    pub position: u64,
    /// Interleaved channels, 1 to 64.
    pub channels: u32,
    /// 1: first-order noise shaping (error feedback, noise transfer `1 − z⁻¹`); 0: flat TPDF.
    pub shaping: i32,
    /// Noise-shaping error per channel, in LSB (within ±2).
    pub error: [f64; 64],
}

fn state_in(s: &SkDither) -> SkResult<DitherState> {
    let ch = s.channels as usize;
    if ch == 0 || ch > MAX_DITHER_CHANNELS {
        return Err(SkError::BadArgument(format!(
            "state->channels = {ch}; it must be 1 to {MAX_DITHER_CHANNELS} (use sk_dither_init)"
        )));
    }
    if s.shaping != 0 && s.shaping != 1 {
        return Err(SkError::BadArgument(format!(
            "state->shaping = {}; it must be 0 or 1",
            s.shaping
        )));
    }
    if let Some(e) = s.error.iter().find(|e| !(-2.0..=2.0).contains(*e)) {
        return Err(SkError::BadArgument(format!(
            "state->error holds {e}; shaping errors are within ±2 LSB (use sk_dither_init)"
        )));
    }
    Ok(DitherState {
        seed: s.seed,
        position: s.position,
        channels: ch,
        shaping: s.shaping == 1,
        error: s.error,
    })
}

/// Sets up a dither stream: `seed` (any value), `channels` interleaved channels (1 to 64, else
/// `SK_ERR_LENGTH`), `shaping` 0 (flat TPDF) or 1 (first-order noise shaping; else
/// `SK_ERR_BAD_ARGUMENT`); position 0, errors 0.
/// Returns `SK_OK`, `SK_ERR_LENGTH`, `SK_ERR_BAD_ARGUMENT`, `SK_ERR_NULL_POINTER`,
/// `SK_ERR_MISALIGNED` (`state`); on error `*state` is untouched. Thread-safe.
///
/// Real-time safe: yes.
///
/// # Safety
/// `state` writable.
#[no_mangle]
pub unsafe extern "C" fn sk_dither_init(
    state: *mut SkDither,
    seed: u64,
    channels: usize,
    shaping: i32,
) -> i32 {
    ffi_boundary!("sk_dither_init", {
        if channels == 0 || channels > MAX_DITHER_CHANNELS {
            return Err(SkError::Length(format!(
                "channels = {channels}; it must be 1 to {MAX_DITHER_CHANNELS}"
            )));
        }
        if shaping != 0 && shaping != 1 {
            return Err(SkError::BadArgument(format!(
                "shaping = {shaping}; it must be 0 or 1"
            )));
        }
        check_out_scalar("state", state)?;
        // SAFETY: validated.
        unsafe {
            *state = SkDither {
                seed,
                position: 0,
                channels: channels as u32,
                shaping,
                error: [0.0; 64],
            }
        };
        Ok(())
    })
}

/// # Safety
/// `x` readable for `n`, `y` writable for `n` samples, `state` readable and writable.
unsafe fn dither_ffi<T: PcmFloat, S: Pcm>(
    x: *const T,
    y: *mut S,
    n: usize,
    state: *mut SkDither,
) -> SkResult<()> {
    check_out_scalar("state", state)?;
    // SAFETY: validated (non-NULL, aligned); the caller guarantees it is readable.
    let mut st = state_in(unsafe { &*state })?;
    if !n.is_multiple_of(st.channels) {
        return Err(SkError::Length(format!(
            "n = {n} is not a multiple of state->channels = {} (whole interleaved frames)",
            st.channels
        )));
    }
    let xb = Buf::new("x", x, n);
    let yb = Buf::out("y", y, n);
    let sb = Buf::out("state", state, 1);
    xb.check()?;
    yb.check()?;
    alias(&xb, &yb, false)?;
    alias(&xb, &sb, false)?;
    alias(&sb, &yb, false)?;
    // SAFETY: validated; only read.
    let xs = unsafe { xb.slice() };
    if let Some(i) = first_non_finite(current(), xs) {
        return Err(SkError::NonFinite(format!(
            "x[{i}] = {:?} is not finite: NaN and ±inf have no {} code; nothing was written",
            xs[i],
            S::C_NAME
        )));
    }
    // SAFETY: validated, disjoint from x and the state.
    dither_encode(current(), xs, unsafe { yb.slice_mut() }, &mut st);
    // SAFETY: validated, disjoint from x and y.
    unsafe {
        (*state).position = st.position;
        (*state).error = st.error;
    }
    Ok(())
}

/// `y[i] = clamp(round_half_even(x[i] · 2^15 + d[i]))` for `i < n` (float → int16_t), with
/// TPDF dither `d` (±1 LSB, triangular) and, when `state->shaping` is 1, first-order noise
/// shaping (each channel's quantisation error, clamped to ±2 LSB, is subtracted from its next
/// sample). The dithered counterpart of `sk_pcm_to_i16_f32`.
///
/// - `x` holds `state->channels` interleaved channels; `n` counts samples and must be a
///   multiple of `state->channels` (else `SK_ERR_LENGTH`).
/// - The state (`sk_dither_init`) advances by `n`: converting a stream in pieces of any
///   whole-frame sizes gives the output of one call, at every SIMD level.
/// - Saturates at the integer range. NaN or ±inf in `x` is `SK_ERR_NON_FINITE` (the message
///   names the first index); an invalid state (channels not 1 to 64, shaping not 0/1, an error
///   outside ±2) is `SK_ERR_BAD_ARGUMENT`.
/// - Returns `SK_OK`, `SK_ERR_NON_FINITE`, `SK_ERR_BAD_ARGUMENT`, `SK_ERR_NULL_POINTER`,
///   `SK_ERR_MISALIGNED`, `SK_ERR_LENGTH`, `SK_ERR_OVERLAP` (`x`, `y`, `state` share a byte);
///   on error nothing is written and the state is unchanged. Thread-safe for distinct states.
///
/// Real-time safe: yes.
///
/// # Safety
/// `x` readable for `n` samples, `y` writable for `n` int16_t, `state` readable and writable.
#[no_mangle]
pub unsafe extern "C" fn sk_pcm_to_i16_dither_f32(
    x: *const f32,
    y: *mut i16,
    n: usize,
    state: *mut SkDither,
) -> i32 {
    ffi_boundary!("sk_pcm_to_i16_dither_f32", {
        // SAFETY: the caller guarantees `x` readable, `y` writable for `n` samples and `state`
        // readable and writable (the Safety contract above); dither_ffi checks all three and their
        // overlaps before any access.
        unsafe { dither_ffi::<f32, i16>(x, y, n, state) }
    })
}

/// `y[i] = clamp(round_half_even(x[i] · 2^15 + d[i]))` for `i < n` (double → int16_t), with
/// TPDF dither `d` (±1 LSB, triangular) and, when `state->shaping` is 1, first-order noise
/// shaping (each channel's quantisation error, clamped to ±2 LSB, is subtracted from its next
/// sample). The dithered counterpart of `sk_pcm_to_i16_f64`.
///
/// - `x` holds `state->channels` interleaved channels; `n` counts samples and must be a
///   multiple of `state->channels` (else `SK_ERR_LENGTH`).
/// - The state (`sk_dither_init`) advances by `n`: converting a stream in pieces of any
///   whole-frame sizes gives the output of one call, at every SIMD level.
/// - Saturates at the integer range. NaN or ±inf in `x` is `SK_ERR_NON_FINITE` (the message
///   names the first index); an invalid state (channels not 1 to 64, shaping not 0/1, an error
///   outside ±2) is `SK_ERR_BAD_ARGUMENT`.
/// - Returns `SK_OK`, `SK_ERR_NON_FINITE`, `SK_ERR_BAD_ARGUMENT`, `SK_ERR_NULL_POINTER`,
///   `SK_ERR_MISALIGNED`, `SK_ERR_LENGTH`, `SK_ERR_OVERLAP` (`x`, `y`, `state` share a byte);
///   on error nothing is written and the state is unchanged. Thread-safe for distinct states.
///
/// Real-time safe: yes.
///
/// # Safety
/// `x` readable for `n` samples, `y` writable for `n` int16_t, `state` readable and writable.
#[no_mangle]
pub unsafe extern "C" fn sk_pcm_to_i16_dither_f64(
    x: *const f64,
    y: *mut i16,
    n: usize,
    state: *mut SkDither,
) -> i32 {
    ffi_boundary!("sk_pcm_to_i16_dither_f64", {
        // SAFETY: the caller guarantees `x` readable, `y` writable for `n` samples and `state`
        // readable and writable (the Safety contract above); dither_ffi checks all three and their
        // overlaps before any access.
        unsafe { dither_ffi::<f64, i16>(x, y, n, state) }
    })
}

/// `y[i] = clamp(round_half_even(x[i] · 2^23 + d[i]))` for `i < n` (float → 24-bit packed little-endian (`y` holds `3·n` bytes)), with
/// TPDF dither `d` (±1 LSB, triangular) and, when `state->shaping` is 1, first-order noise
/// shaping (each channel's quantisation error, clamped to ±2 LSB, is subtracted from its next
/// sample). The dithered counterpart of `sk_pcm_to_i24_f32`.
///
/// - `x` holds `state->channels` interleaved channels; `n` counts samples and must be a
///   multiple of `state->channels` (else `SK_ERR_LENGTH`).
/// - The state (`sk_dither_init`) advances by `n`: converting a stream in pieces of any
///   whole-frame sizes gives the output of one call, at every SIMD level.
/// - Saturates at the integer range. NaN or ±inf in `x` is `SK_ERR_NON_FINITE` (the message
///   names the first index); an invalid state (channels not 1 to 64, shaping not 0/1, an error
///   outside ±2) is `SK_ERR_BAD_ARGUMENT`.
/// - Returns `SK_OK`, `SK_ERR_NON_FINITE`, `SK_ERR_BAD_ARGUMENT`, `SK_ERR_NULL_POINTER`,
///   `SK_ERR_MISALIGNED`, `SK_ERR_LENGTH`, `SK_ERR_OVERLAP` (`x`, `y`, `state` share a byte);
///   on error nothing is written and the state is unchanged. Thread-safe for distinct states.
///
/// Real-time safe: yes.
///
/// # Safety
/// `x` readable for `n` samples, `y` writable for `3·n` bytes, `state` readable and writable.
#[no_mangle]
pub unsafe extern "C" fn sk_pcm_to_i24_dither_f32(
    x: *const f32,
    y: *mut u8,
    n: usize,
    state: *mut SkDither,
) -> i32 {
    ffi_boundary!("sk_pcm_to_i24_dither_f32", {
        // SAFETY: the caller guarantees `x` readable, `y` writable for `n` samples and `state`
        // readable and writable (the Safety contract above); dither_ffi checks all three and their
        // overlaps before any access.
        unsafe { dither_ffi::<f32, I24>(x, y as *mut I24, n, state) }
    })
}

/// `y[i] = clamp(round_half_even(x[i] · 2^23 + d[i]))` for `i < n` (double → 24-bit packed little-endian (`y` holds `3·n` bytes)), with
/// TPDF dither `d` (±1 LSB, triangular) and, when `state->shaping` is 1, first-order noise
/// shaping (each channel's quantisation error, clamped to ±2 LSB, is subtracted from its next
/// sample). The dithered counterpart of `sk_pcm_to_i24_f64`.
///
/// - `x` holds `state->channels` interleaved channels; `n` counts samples and must be a
///   multiple of `state->channels` (else `SK_ERR_LENGTH`).
/// - The state (`sk_dither_init`) advances by `n`: converting a stream in pieces of any
///   whole-frame sizes gives the output of one call, at every SIMD level.
/// - Saturates at the integer range. NaN or ±inf in `x` is `SK_ERR_NON_FINITE` (the message
///   names the first index); an invalid state (channels not 1 to 64, shaping not 0/1, an error
///   outside ±2) is `SK_ERR_BAD_ARGUMENT`.
/// - Returns `SK_OK`, `SK_ERR_NON_FINITE`, `SK_ERR_BAD_ARGUMENT`, `SK_ERR_NULL_POINTER`,
///   `SK_ERR_MISALIGNED`, `SK_ERR_LENGTH`, `SK_ERR_OVERLAP` (`x`, `y`, `state` share a byte);
///   on error nothing is written and the state is unchanged. Thread-safe for distinct states.
///
/// Real-time safe: yes.
///
/// # Safety
/// `x` readable for `n` samples, `y` writable for `3·n` bytes, `state` readable and writable.
#[no_mangle]
pub unsafe extern "C" fn sk_pcm_to_i24_dither_f64(
    x: *const f64,
    y: *mut u8,
    n: usize,
    state: *mut SkDither,
) -> i32 {
    ffi_boundary!("sk_pcm_to_i24_dither_f64", {
        // SAFETY: the caller guarantees `x` readable, `y` writable for `n` samples and `state`
        // readable and writable (the Safety contract above); dither_ffi checks all three and their
        // overlaps before any access.
        unsafe { dither_ffi::<f64, I24>(x, y as *mut I24, n, state) }
    })
}

/// `y[i] = clamp(round_half_even(x[i] · 2^7 + d[i]))` for `i < n` (float → uint8_t offset binary (+128)), with
/// TPDF dither `d` (±1 LSB, triangular) and, when `state->shaping` is 1, first-order noise
/// shaping (each channel's quantisation error, clamped to ±2 LSB, is subtracted from its next
/// sample). The dithered counterpart of `sk_pcm_to_u8_f32`.
///
/// - `x` holds `state->channels` interleaved channels; `n` counts samples and must be a
///   multiple of `state->channels` (else `SK_ERR_LENGTH`).
/// - The state (`sk_dither_init`) advances by `n`: converting a stream in pieces of any
///   whole-frame sizes gives the output of one call, at every SIMD level.
/// - Saturates at the integer range. NaN or ±inf in `x` is `SK_ERR_NON_FINITE` (the message
///   names the first index); an invalid state (channels not 1 to 64, shaping not 0/1, an error
///   outside ±2) is `SK_ERR_BAD_ARGUMENT`.
/// - Returns `SK_OK`, `SK_ERR_NON_FINITE`, `SK_ERR_BAD_ARGUMENT`, `SK_ERR_NULL_POINTER`,
///   `SK_ERR_MISALIGNED`, `SK_ERR_LENGTH`, `SK_ERR_OVERLAP` (`x`, `y`, `state` share a byte);
///   on error nothing is written and the state is unchanged. Thread-safe for distinct states.
///
/// Real-time safe: yes.
///
/// # Safety
/// `x` readable for `n` samples, `y` writable for `n` bytes, `state` readable and writable.
#[no_mangle]
pub unsafe extern "C" fn sk_pcm_to_u8_dither_f32(
    x: *const f32,
    y: *mut u8,
    n: usize,
    state: *mut SkDither,
) -> i32 {
    ffi_boundary!("sk_pcm_to_u8_dither_f32", {
        // SAFETY: the caller guarantees `x` readable, `y` writable for `n` samples and `state`
        // readable and writable (the Safety contract above); dither_ffi checks all three and their
        // overlaps before any access.
        unsafe { dither_ffi::<f32, u8>(x, y, n, state) }
    })
}

/// `y[i] = clamp(round_half_even(x[i] · 2^7 + d[i]))` for `i < n` (double → uint8_t offset binary (+128)), with
/// TPDF dither `d` (±1 LSB, triangular) and, when `state->shaping` is 1, first-order noise
/// shaping (each channel's quantisation error, clamped to ±2 LSB, is subtracted from its next
/// sample). The dithered counterpart of `sk_pcm_to_u8_f64`.
///
/// - `x` holds `state->channels` interleaved channels; `n` counts samples and must be a
///   multiple of `state->channels` (else `SK_ERR_LENGTH`).
/// - The state (`sk_dither_init`) advances by `n`: converting a stream in pieces of any
///   whole-frame sizes gives the output of one call, at every SIMD level.
/// - Saturates at the integer range. NaN or ±inf in `x` is `SK_ERR_NON_FINITE` (the message
///   names the first index); an invalid state (channels not 1 to 64, shaping not 0/1, an error
///   outside ±2) is `SK_ERR_BAD_ARGUMENT`.
/// - Returns `SK_OK`, `SK_ERR_NON_FINITE`, `SK_ERR_BAD_ARGUMENT`, `SK_ERR_NULL_POINTER`,
///   `SK_ERR_MISALIGNED`, `SK_ERR_LENGTH`, `SK_ERR_OVERLAP` (`x`, `y`, `state` share a byte);
///   on error nothing is written and the state is unchanged. Thread-safe for distinct states.
///
/// Real-time safe: yes.
///
/// # Safety
/// `x` readable for `n` samples, `y` writable for `n` bytes, `state` readable and writable.
#[no_mangle]
pub unsafe extern "C" fn sk_pcm_to_u8_dither_f64(
    x: *const f64,
    y: *mut u8,
    n: usize,
    state: *mut SkDither,
) -> i32 {
    ffi_boundary!("sk_pcm_to_u8_dither_f64", {
        // SAFETY: the caller guarantees `x` readable, `y` writable for `n` samples and `state`
        // readable and writable (the Safety contract above); dither_ffi checks all three and their
        // overlaps before any access.
        unsafe { dither_ffi::<f64, u8>(x, y, n, state) }
    })
}
