//! PCM conversion: `sk_pcm_from_<fmt>_<f32|f64>` (integer codes → float),
//! `sk_pcm_to_<fmt>_<f32|f64>` (float → integer codes), `sk_convert_f32_to_f64` /
//! `sk_convert_f64_to_f32`, and their `_strided_` variants. Formats: `i16` (`int16_t`),
//! `i32` (`int32_t`), `i24` (24-bit packed little-endian, 3 bytes a sample, as in WAV files;
//! passed as `uint8_t *` holding `3·n` bytes, strides counted in samples), `u8` (offset binary).
//!
//! Convention: integer → float divides by 2^(bits−1) (so −32768 → −1.0 exactly); float →
//! integer multiplies by 2^(bits−1), clamps to the integer range and rounds half to even.
//! NaN or ±inf input to a float → integer conversion is `SK_ERR_NON_FINITE` with nothing
//! written: the input is scanned first (a vectorised pass), then converted.
//! Source and destination are different types, so no conversion works in place: any shared byte
//! between their address spans is `SK_ERR_OVERLAP`.

use super::guard::ffi_boundary;
use super::guard::{alias_strided, SBuf};
use crate::error::{SkError, SkResult};
use crate::kernels::pcm::{
    cast_strided, decode_strided, encode_strided, first_non_finite_strided, CastTo, Pcm, PcmFloat,
    I24,
};
use crate::simd::current;

/// # Safety
/// Pointers valid for their strided extents.
unsafe fn decode_ffi<S: Pcm, T: PcmFloat>(x: SBuf<S>, y: SBuf<T>) -> SkResult<()> {
    x.check()?;
    y.check()?;
    alias_strided(&x, &y, false)?;
    // SAFETY: validated, disjoint spans.
    unsafe { decode_strided(current(), x.view(), &mut y.view_mut()) };
    Ok(())
}

/// # Safety
/// Pointers valid for their strided extents.
unsafe fn encode_ffi<T: PcmFloat, S: Pcm>(x: SBuf<T>, y: SBuf<S>) -> SkResult<()> {
    x.check()?;
    y.check()?;
    alias_strided(&x, &y, false)?;
    // SAFETY: validated; only read.
    let xv = unsafe { x.view() };
    if let Some(i) = first_non_finite_strided(current(), xv) {
        return Err(SkError::NonFinite(format!(
            "x[{i}] = {:?} is not finite: NaN and ±inf have no {} code; nothing was written",
            xv.get(i),
            S::C_NAME
        )));
    }
    // SAFETY: validated, disjoint from x.
    unsafe { encode_strided(current(), xv, &mut y.view_mut()) };
    Ok(())
}

/// # Safety
/// Pointers valid for their strided extents.
unsafe fn cast_ffi<A: CastTo>(x: SBuf<A>, y: SBuf<A::Out>) -> SkResult<()> {
    x.check()?;
    y.check()?;
    alias_strided(&x, &y, false)?;
    // SAFETY: validated, disjoint spans.
    unsafe { cast_strided(current(), x.view(), &mut y.view_mut()) };
    Ok(())
}

/// `y[i] = x[i] / 2^15` for `i < n` (int16_t codes → float): -32768 → -1.0, 32767 → 32767/32768.
///
/// Arguments: pointers may be NULL only when `n == 0`; `y` 4-byte aligned.
/// Returns `SK_OK`, `SK_ERR_NULL_POINTER`, `SK_ERR_MISALIGNED`, `SK_ERR_LENGTH`,
/// `SK_ERR_OVERLAP` (`x` and `y` share a byte); on error nothing is written. Thread-safe.
///
/// Real-time safe: yes.
///
/// # Safety
/// `x` readable and `y` writable at their (strided) positions. Each strided buffer's whole address
/// span (first to last position, elements between included) must be valid memory that no other
/// thread writes during the call; only the positions themselves are read or written.
#[no_mangle]
pub unsafe extern "C" fn sk_pcm_from_i16_f32(x: *const i16, y: *mut f32, n: usize) -> i32 {
    ffi_boundary!("sk_pcm_from_i16_f32", {
        // SAFETY: the caller guarantees `x` readable and `y` writable over their (strided) spans
        // (the Safety contract above); decode_ffi checks both SBufs (NULL, alignment, extent) and
        // that the spans are disjoint before building views.
        unsafe { decode_ffi::<i16, f32>(SBuf::new("x", x, 1, n), SBuf::out("y", y, 1, n)) }
    })
}

/// `y[i] = x[i] / 2^31` for `i < n` (int32_t codes → float): INT32_MIN → -1.0; into float the
/// result is correctly rounded.
///
/// Arguments: pointers may be NULL only when `n == 0`; `y` 4-byte aligned.
/// Returns `SK_OK`, `SK_ERR_NULL_POINTER`, `SK_ERR_MISALIGNED`, `SK_ERR_LENGTH`,
/// `SK_ERR_OVERLAP` (`x` and `y` share a byte); on error nothing is written. Thread-safe.
///
/// Real-time safe: yes.
///
/// # Safety
/// `x` readable and `y` writable at their (strided) positions. Each strided buffer's whole address
/// span (first to last position, elements between included) must be valid memory that no other
/// thread writes during the call; only the positions themselves are read or written.
#[no_mangle]
pub unsafe extern "C" fn sk_pcm_from_i32_f32(x: *const i32, y: *mut f32, n: usize) -> i32 {
    ffi_boundary!("sk_pcm_from_i32_f32", {
        // SAFETY: the caller guarantees `x` readable and `y` writable over their (strided) spans
        // (the Safety contract above); decode_ffi checks both SBufs (NULL, alignment, extent) and
        // that the spans are disjoint before building views.
        unsafe { decode_ffi::<i32, f32>(SBuf::new("x", x, 1, n), SBuf::out("y", y, 1, n)) }
    })
}

/// `y[i] = x[i] / 2^23` for `i < n` (uint8_t codes → float): bytes `x[3i..3i+3]` little-endian,
/// sign-extended; -8388608 → -1.0.
///
/// `x` holds `3·n` bytes (any alignment).
/// Arguments: pointers may be NULL only when `n == 0`; `y` 4-byte aligned.
/// Returns `SK_OK`, `SK_ERR_NULL_POINTER`, `SK_ERR_MISALIGNED`, `SK_ERR_LENGTH`,
/// `SK_ERR_OVERLAP` (`x` and `y` share a byte); on error nothing is written. Thread-safe.
///
/// Real-time safe: yes.
///
/// # Safety
/// `x` readable and `y` writable at their (strided) positions. Each strided buffer's whole address
/// span (first to last position, elements between included) must be valid memory that no other
/// thread writes during the call; only the positions themselves are read or written.
#[no_mangle]
pub unsafe extern "C" fn sk_pcm_from_i24_f32(x: *const u8, y: *mut f32, n: usize) -> i32 {
    ffi_boundary!("sk_pcm_from_i24_f32", {
        // SAFETY: the caller guarantees `x` readable and `y` writable over their (strided) spans
        // (the Safety contract above); decode_ffi checks both SBufs (NULL, alignment, extent) and
        // that the spans are disjoint before building views.
        unsafe {
            decode_ffi::<I24, f32>(
                SBuf::new("x", x as *const I24, 1, n),
                SBuf::out("y", y, 1, n),
            )
        }
    })
}

/// `y[i] = x[i] / 2^7` for `i < n` (uint8_t codes → float): offset binary: code c means c − 128; 0
/// → -1.0, 128 → 0.
///
/// Arguments: pointers may be NULL only when `n == 0`; `y` 4-byte aligned.
/// Returns `SK_OK`, `SK_ERR_NULL_POINTER`, `SK_ERR_MISALIGNED`, `SK_ERR_LENGTH`,
/// `SK_ERR_OVERLAP` (`x` and `y` share a byte); on error nothing is written. Thread-safe.
///
/// Real-time safe: yes.
///
/// # Safety
/// `x` readable and `y` writable at their (strided) positions. Each strided buffer's whole address
/// span (first to last position, elements between included) must be valid memory that no other
/// thread writes during the call; only the positions themselves are read or written.
#[no_mangle]
pub unsafe extern "C" fn sk_pcm_from_u8_f32(x: *const u8, y: *mut f32, n: usize) -> i32 {
    ffi_boundary!("sk_pcm_from_u8_f32", {
        // SAFETY: the caller guarantees `x` readable and `y` writable over their (strided) spans
        // (the Safety contract above); decode_ffi checks both SBufs (NULL, alignment, extent) and
        // that the spans are disjoint before building views.
        unsafe { decode_ffi::<u8, f32>(SBuf::new("x", x, 1, n), SBuf::out("y", y, 1, n)) }
    })
}

/// `y[i] = clamp(round_half_even(x[i] · 2^15))` for `i < n` (float → int16_t).
///
/// Saturates: 1.0 and above give the largest code, -1.0 and below the smallest. NaN or ±inf
/// anywhere in `x` is `SK_ERR_NON_FINITE` (message names the first index) with nothing
/// written: the input is scanned before the first write.
/// Arguments: pointers may be NULL only when `n == 0`; `x` 4-byte aligned.
/// Returns `SK_OK`, `SK_ERR_NON_FINITE`, `SK_ERR_NULL_POINTER`, `SK_ERR_MISALIGNED`,
/// `SK_ERR_LENGTH`, `SK_ERR_OVERLAP`; on error nothing is written. Thread-safe.
///
/// Real-time safe: yes.
///
/// # Safety
/// `x` readable and `y` writable at their (strided) positions. Each strided buffer's whole address
/// span (first to last position, elements between included) must be valid memory that no other
/// thread writes during the call; only the positions themselves are read or written.
#[no_mangle]
pub unsafe extern "C" fn sk_pcm_to_i16_f32(x: *const f32, y: *mut i16, n: usize) -> i32 {
    ffi_boundary!("sk_pcm_to_i16_f32", {
        // SAFETY: the caller guarantees `x` readable and `y` writable over their (strided) spans
        // (the Safety contract above); encode_ffi checks both SBufs (NULL, alignment, extent) and
        // that the spans are disjoint before building views.
        unsafe { encode_ffi::<f32, i16>(SBuf::new("x", x, 1, n), SBuf::out("y", y, 1, n)) }
    })
}

/// `y[i] = clamp(round_half_even(x[i] · 2^31))` for `i < n` (float → int32_t).
///
/// Saturates: 1.0 and above give the largest code, -1.0 and below the smallest. NaN or ±inf
/// anywhere in `x` is `SK_ERR_NON_FINITE` (message names the first index) with nothing
/// written: the input is scanned before the first write.
/// Arguments: pointers may be NULL only when `n == 0`; `x` 4-byte aligned.
/// Returns `SK_OK`, `SK_ERR_NON_FINITE`, `SK_ERR_NULL_POINTER`, `SK_ERR_MISALIGNED`,
/// `SK_ERR_LENGTH`, `SK_ERR_OVERLAP`; on error nothing is written. Thread-safe.
///
/// Real-time safe: yes.
///
/// # Safety
/// `x` readable and `y` writable at their (strided) positions. Each strided buffer's whole address
/// span (first to last position, elements between included) must be valid memory that no other
/// thread writes during the call; only the positions themselves are read or written.
#[no_mangle]
pub unsafe extern "C" fn sk_pcm_to_i32_f32(x: *const f32, y: *mut i32, n: usize) -> i32 {
    ffi_boundary!("sk_pcm_to_i32_f32", {
        // SAFETY: the caller guarantees `x` readable and `y` writable over their (strided) spans
        // (the Safety contract above); encode_ffi checks both SBufs (NULL, alignment, extent) and
        // that the spans are disjoint before building views.
        unsafe { encode_ffi::<f32, i32>(SBuf::new("x", x, 1, n), SBuf::out("y", y, 1, n)) }
    })
}

/// `y[i] = clamp(round_half_even(x[i] · 2^23))` for `i < n` (float → uint8_t 24-bit packed).
///
/// Saturates: 1.0 and above give the largest code, -1.0 and below the smallest. NaN or ±inf
/// anywhere in `x` is `SK_ERR_NON_FINITE` (message names the first index) with nothing
/// written: the input is scanned before the first write.
/// `y` receives `3·n` bytes (any alignment).
/// Arguments: pointers may be NULL only when `n == 0`; `x` 4-byte aligned.
/// Returns `SK_OK`, `SK_ERR_NON_FINITE`, `SK_ERR_NULL_POINTER`, `SK_ERR_MISALIGNED`,
/// `SK_ERR_LENGTH`, `SK_ERR_OVERLAP`; on error nothing is written. Thread-safe.
///
/// Real-time safe: yes.
///
/// # Safety
/// `x` readable and `y` writable at their (strided) positions. Each strided buffer's whole address
/// span (first to last position, elements between included) must be valid memory that no other
/// thread writes during the call; only the positions themselves are read or written.
#[no_mangle]
pub unsafe extern "C" fn sk_pcm_to_i24_f32(x: *const f32, y: *mut u8, n: usize) -> i32 {
    ffi_boundary!("sk_pcm_to_i24_f32", {
        // SAFETY: the caller guarantees `x` readable and `y` writable over their (strided) spans
        // (the Safety contract above); encode_ffi checks both SBufs (NULL, alignment, extent) and
        // that the spans are disjoint before building views.
        unsafe {
            encode_ffi::<f32, I24>(SBuf::new("x", x, 1, n), SBuf::out("y", y as *mut I24, 1, n))
        }
    })
}

/// `y[i] = clamp(round_half_even(x[i] · 2^7))` for `i < n` (float → uint8_t offset binary (+128)).
///
/// Saturates: 1.0 and above give the largest code, -1.0 and below the smallest. NaN or ±inf
/// anywhere in `x` is `SK_ERR_NON_FINITE` (message names the first index) with nothing
/// written: the input is scanned before the first write.
/// Arguments: pointers may be NULL only when `n == 0`; `x` 4-byte aligned.
/// Returns `SK_OK`, `SK_ERR_NON_FINITE`, `SK_ERR_NULL_POINTER`, `SK_ERR_MISALIGNED`,
/// `SK_ERR_LENGTH`, `SK_ERR_OVERLAP`; on error nothing is written. Thread-safe.
///
/// Real-time safe: yes.
///
/// # Safety
/// `x` readable and `y` writable at their (strided) positions. Each strided buffer's whole address
/// span (first to last position, elements between included) must be valid memory that no other
/// thread writes during the call; only the positions themselves are read or written.
#[no_mangle]
pub unsafe extern "C" fn sk_pcm_to_u8_f32(x: *const f32, y: *mut u8, n: usize) -> i32 {
    ffi_boundary!("sk_pcm_to_u8_f32", {
        // SAFETY: the caller guarantees `x` readable and `y` writable over their (strided) spans
        // (the Safety contract above); encode_ffi checks both SBufs (NULL, alignment, extent) and
        // that the spans are disjoint before building views.
        unsafe { encode_ffi::<f32, u8>(SBuf::new("x", x, 1, n), SBuf::out("y", y, 1, n)) }
    })
}

/// `y[i] = x[i] / 2^15` for `i < n` (int16_t codes → double): -32768 → -1.0, 32767 → 32767/32768.
///
/// Arguments: pointers may be NULL only when `n == 0`; `y` 8-byte aligned.
/// Returns `SK_OK`, `SK_ERR_NULL_POINTER`, `SK_ERR_MISALIGNED`, `SK_ERR_LENGTH`,
/// `SK_ERR_OVERLAP` (`x` and `y` share a byte); on error nothing is written. Thread-safe.
///
/// Real-time safe: yes.
///
/// # Safety
/// `x` readable and `y` writable at their (strided) positions. Each strided buffer's whole address
/// span (first to last position, elements between included) must be valid memory that no other
/// thread writes during the call; only the positions themselves are read or written.
#[no_mangle]
pub unsafe extern "C" fn sk_pcm_from_i16_f64(x: *const i16, y: *mut f64, n: usize) -> i32 {
    ffi_boundary!("sk_pcm_from_i16_f64", {
        // SAFETY: the caller guarantees `x` readable and `y` writable over their (strided) spans
        // (the Safety contract above); decode_ffi checks both SBufs (NULL, alignment, extent) and
        // that the spans are disjoint before building views.
        unsafe { decode_ffi::<i16, f64>(SBuf::new("x", x, 1, n), SBuf::out("y", y, 1, n)) }
    })
}

/// `y[i] = x[i] / 2^31` for `i < n` (int32_t codes → double): INT32_MIN → -1.0; into float the
/// result is correctly rounded.
///
/// Arguments: pointers may be NULL only when `n == 0`; `y` 8-byte aligned.
/// Returns `SK_OK`, `SK_ERR_NULL_POINTER`, `SK_ERR_MISALIGNED`, `SK_ERR_LENGTH`,
/// `SK_ERR_OVERLAP` (`x` and `y` share a byte); on error nothing is written. Thread-safe.
///
/// Real-time safe: yes.
///
/// # Safety
/// `x` readable and `y` writable at their (strided) positions. Each strided buffer's whole address
/// span (first to last position, elements between included) must be valid memory that no other
/// thread writes during the call; only the positions themselves are read or written.
#[no_mangle]
pub unsafe extern "C" fn sk_pcm_from_i32_f64(x: *const i32, y: *mut f64, n: usize) -> i32 {
    ffi_boundary!("sk_pcm_from_i32_f64", {
        // SAFETY: the caller guarantees `x` readable and `y` writable over their (strided) spans
        // (the Safety contract above); decode_ffi checks both SBufs (NULL, alignment, extent) and
        // that the spans are disjoint before building views.
        unsafe { decode_ffi::<i32, f64>(SBuf::new("x", x, 1, n), SBuf::out("y", y, 1, n)) }
    })
}

/// `y[i] = x[i] / 2^23` for `i < n` (uint8_t codes → double): bytes `x[3i..3i+3]` little-endian,
/// sign-extended; -8388608 → -1.0.
///
/// `x` holds `3·n` bytes (any alignment).
/// Arguments: pointers may be NULL only when `n == 0`; `y` 8-byte aligned.
/// Returns `SK_OK`, `SK_ERR_NULL_POINTER`, `SK_ERR_MISALIGNED`, `SK_ERR_LENGTH`,
/// `SK_ERR_OVERLAP` (`x` and `y` share a byte); on error nothing is written. Thread-safe.
///
/// Real-time safe: yes.
///
/// # Safety
/// `x` readable and `y` writable at their (strided) positions. Each strided buffer's whole address
/// span (first to last position, elements between included) must be valid memory that no other
/// thread writes during the call; only the positions themselves are read or written.
#[no_mangle]
pub unsafe extern "C" fn sk_pcm_from_i24_f64(x: *const u8, y: *mut f64, n: usize) -> i32 {
    ffi_boundary!("sk_pcm_from_i24_f64", {
        // SAFETY: the caller guarantees `x` readable and `y` writable over their (strided) spans
        // (the Safety contract above); decode_ffi checks both SBufs (NULL, alignment, extent) and
        // that the spans are disjoint before building views.
        unsafe {
            decode_ffi::<I24, f64>(
                SBuf::new("x", x as *const I24, 1, n),
                SBuf::out("y", y, 1, n),
            )
        }
    })
}

/// `y[i] = x[i] / 2^7` for `i < n` (uint8_t codes → double): offset binary: code c means c − 128; 0
/// → -1.0, 128 → 0.
///
/// Arguments: pointers may be NULL only when `n == 0`; `y` 8-byte aligned.
/// Returns `SK_OK`, `SK_ERR_NULL_POINTER`, `SK_ERR_MISALIGNED`, `SK_ERR_LENGTH`,
/// `SK_ERR_OVERLAP` (`x` and `y` share a byte); on error nothing is written. Thread-safe.
///
/// Real-time safe: yes.
///
/// # Safety
/// `x` readable and `y` writable at their (strided) positions. Each strided buffer's whole address
/// span (first to last position, elements between included) must be valid memory that no other
/// thread writes during the call; only the positions themselves are read or written.
#[no_mangle]
pub unsafe extern "C" fn sk_pcm_from_u8_f64(x: *const u8, y: *mut f64, n: usize) -> i32 {
    ffi_boundary!("sk_pcm_from_u8_f64", {
        // SAFETY: the caller guarantees `x` readable and `y` writable over their (strided) spans
        // (the Safety contract above); decode_ffi checks both SBufs (NULL, alignment, extent) and
        // that the spans are disjoint before building views.
        unsafe { decode_ffi::<u8, f64>(SBuf::new("x", x, 1, n), SBuf::out("y", y, 1, n)) }
    })
}

/// `y[i] = clamp(round_half_even(x[i] · 2^15))` for `i < n` (double → int16_t).
///
/// Saturates: 1.0 and above give the largest code, -1.0 and below the smallest. NaN or ±inf
/// anywhere in `x` is `SK_ERR_NON_FINITE` (message names the first index) with nothing
/// written: the input is scanned before the first write.
/// Arguments: pointers may be NULL only when `n == 0`; `x` 8-byte aligned.
/// Returns `SK_OK`, `SK_ERR_NON_FINITE`, `SK_ERR_NULL_POINTER`, `SK_ERR_MISALIGNED`,
/// `SK_ERR_LENGTH`, `SK_ERR_OVERLAP`; on error nothing is written. Thread-safe.
///
/// Real-time safe: yes.
///
/// # Safety
/// `x` readable and `y` writable at their (strided) positions. Each strided buffer's whole address
/// span (first to last position, elements between included) must be valid memory that no other
/// thread writes during the call; only the positions themselves are read or written.
#[no_mangle]
pub unsafe extern "C" fn sk_pcm_to_i16_f64(x: *const f64, y: *mut i16, n: usize) -> i32 {
    ffi_boundary!("sk_pcm_to_i16_f64", {
        // SAFETY: the caller guarantees `x` readable and `y` writable over their (strided) spans
        // (the Safety contract above); encode_ffi checks both SBufs (NULL, alignment, extent) and
        // that the spans are disjoint before building views.
        unsafe { encode_ffi::<f64, i16>(SBuf::new("x", x, 1, n), SBuf::out("y", y, 1, n)) }
    })
}

/// `y[i] = clamp(round_half_even(x[i] · 2^31))` for `i < n` (double → int32_t).
///
/// Saturates: 1.0 and above give the largest code, -1.0 and below the smallest. NaN or ±inf
/// anywhere in `x` is `SK_ERR_NON_FINITE` (message names the first index) with nothing
/// written: the input is scanned before the first write.
/// Arguments: pointers may be NULL only when `n == 0`; `x` 8-byte aligned.
/// Returns `SK_OK`, `SK_ERR_NON_FINITE`, `SK_ERR_NULL_POINTER`, `SK_ERR_MISALIGNED`,
/// `SK_ERR_LENGTH`, `SK_ERR_OVERLAP`; on error nothing is written. Thread-safe.
///
/// Real-time safe: yes.
///
/// # Safety
/// `x` readable and `y` writable at their (strided) positions. Each strided buffer's whole address
/// span (first to last position, elements between included) must be valid memory that no other
/// thread writes during the call; only the positions themselves are read or written.
#[no_mangle]
pub unsafe extern "C" fn sk_pcm_to_i32_f64(x: *const f64, y: *mut i32, n: usize) -> i32 {
    ffi_boundary!("sk_pcm_to_i32_f64", {
        // SAFETY: the caller guarantees `x` readable and `y` writable over their (strided) spans
        // (the Safety contract above); encode_ffi checks both SBufs (NULL, alignment, extent) and
        // that the spans are disjoint before building views.
        unsafe { encode_ffi::<f64, i32>(SBuf::new("x", x, 1, n), SBuf::out("y", y, 1, n)) }
    })
}

/// `y[i] = clamp(round_half_even(x[i] · 2^23))` for `i < n` (double → uint8_t 24-bit packed).
///
/// Saturates: 1.0 and above give the largest code, -1.0 and below the smallest. NaN or ±inf
/// anywhere in `x` is `SK_ERR_NON_FINITE` (message names the first index) with nothing
/// written: the input is scanned before the first write.
/// `y` receives `3·n` bytes (any alignment).
/// Arguments: pointers may be NULL only when `n == 0`; `x` 8-byte aligned.
/// Returns `SK_OK`, `SK_ERR_NON_FINITE`, `SK_ERR_NULL_POINTER`, `SK_ERR_MISALIGNED`,
/// `SK_ERR_LENGTH`, `SK_ERR_OVERLAP`; on error nothing is written. Thread-safe.
///
/// Real-time safe: yes.
///
/// # Safety
/// `x` readable and `y` writable at their (strided) positions. Each strided buffer's whole address
/// span (first to last position, elements between included) must be valid memory that no other
/// thread writes during the call; only the positions themselves are read or written.
#[no_mangle]
pub unsafe extern "C" fn sk_pcm_to_i24_f64(x: *const f64, y: *mut u8, n: usize) -> i32 {
    ffi_boundary!("sk_pcm_to_i24_f64", {
        // SAFETY: the caller guarantees `x` readable and `y` writable over their (strided) spans
        // (the Safety contract above); encode_ffi checks both SBufs (NULL, alignment, extent) and
        // that the spans are disjoint before building views.
        unsafe {
            encode_ffi::<f64, I24>(SBuf::new("x", x, 1, n), SBuf::out("y", y as *mut I24, 1, n))
        }
    })
}

/// `y[i] = clamp(round_half_even(x[i] · 2^7))` for `i < n` (double → uint8_t offset binary (+128)).
///
/// Saturates: 1.0 and above give the largest code, -1.0 and below the smallest. NaN or ±inf
/// anywhere in `x` is `SK_ERR_NON_FINITE` (message names the first index) with nothing
/// written: the input is scanned before the first write.
/// Arguments: pointers may be NULL only when `n == 0`; `x` 8-byte aligned.
/// Returns `SK_OK`, `SK_ERR_NON_FINITE`, `SK_ERR_NULL_POINTER`, `SK_ERR_MISALIGNED`,
/// `SK_ERR_LENGTH`, `SK_ERR_OVERLAP`; on error nothing is written. Thread-safe.
///
/// Real-time safe: yes.
///
/// # Safety
/// `x` readable and `y` writable at their (strided) positions. Each strided buffer's whole address
/// span (first to last position, elements between included) must be valid memory that no other
/// thread writes during the call; only the positions themselves are read or written.
#[no_mangle]
pub unsafe extern "C" fn sk_pcm_to_u8_f64(x: *const f64, y: *mut u8, n: usize) -> i32 {
    ffi_boundary!("sk_pcm_to_u8_f64", {
        // SAFETY: the caller guarantees `x` readable and `y` writable over their (strided) spans
        // (the Safety contract above); encode_ffi checks both SBufs (NULL, alignment, extent) and
        // that the spans are disjoint before building views.
        unsafe { encode_ffi::<f64, u8>(SBuf::new("x", x, 1, n), SBuf::out("y", y, 1, n)) }
    })
}

/// `y[i] = (double)x[i]` for `i < n` (exact; NaN and ±inf carried over).
///
/// Arguments: pointers may be NULL only when `n == 0`; `x` 4-byte, `y` 8-byte aligned.
/// Returns `SK_OK`, `SK_ERR_NULL_POINTER`, `SK_ERR_MISALIGNED`, `SK_ERR_LENGTH`,
/// `SK_ERR_OVERLAP` (any shared byte); on error nothing is written. Thread-safe.
///
/// Real-time safe: yes.
///
/// # Safety
/// `x` readable and `y` writable at their (strided) positions. Each strided buffer's whole address
/// span (first to last position, elements between included) must be valid memory that no other
/// thread writes during the call; only the positions themselves are read or written.
#[no_mangle]
pub unsafe extern "C" fn sk_convert_f32_to_f64(x: *const f32, y: *mut f64, n: usize) -> i32 {
    ffi_boundary!("sk_convert_f32_to_f64", {
        // SAFETY: the caller guarantees `x` readable and `y` writable over their (strided) spans
        // (the Safety contract above); cast_ffi checks both SBufs (NULL, alignment, extent) and
        // that the spans are disjoint before building views.
        unsafe { cast_ffi::<f32>(SBuf::new("x", x, 1, n), SBuf::out("y", y, 1, n)) }
    })
}

/// `y[i] = (float)x[i]` for `i < n`: rounded to nearest even; beyond FLT_MAX gives ±inf (as
/// C and numpy's `astype(np.float32)`); NaN stays NaN. Rules as `sk_convert_f32_to_f64`.
///
/// Real-time safe: yes.
///
/// # Safety
/// `x` readable and `y` writable at their (strided) positions. Each strided buffer's whole address
/// span (first to last position, elements between included) must be valid memory that no other
/// thread writes during the call; only the positions themselves are read or written.
#[no_mangle]
pub unsafe extern "C" fn sk_convert_f64_to_f32(x: *const f64, y: *mut f32, n: usize) -> i32 {
    ffi_boundary!("sk_convert_f64_to_f32", {
        // SAFETY: the caller guarantees `x` readable and `y` writable over their (strided) spans
        // (the Safety contract above); cast_ffi checks both SBufs (NULL, alignment, extent) and
        // that the spans are disjoint before building views.
        unsafe { cast_ffi::<f64>(SBuf::new("x", x, 1, n), SBuf::out("y", y, 1, n)) }
    })
}

/// Strided `sk_pcm_from_i16_f32`: `y[i·y_stride] = x[i·x_stride] / 2^15`, strides in
/// elements, negative allowed; `y_stride == 0` is `SK_ERR_BAD_ARGUMENT`; any
/// overlap of the two address spans is `SK_ERR_OVERLAP`. Other rules as the contiguous function.
///
/// Real-time safe: yes.
///
/// # Safety
/// `x` readable and `y` writable at their (strided) positions. Each strided buffer's whole address
/// span (first to last position, elements between included) must be valid memory that no other
/// thread writes during the call; only the positions themselves are read or written.
#[no_mangle]
pub unsafe extern "C" fn sk_pcm_from_i16_strided_f32(
    x: *const i16,
    x_stride: isize,
    y: *mut f32,
    y_stride: isize,
    n: usize,
) -> i32 {
    ffi_boundary!("sk_pcm_from_i16_strided_f32", {
        // SAFETY: the caller guarantees `x` readable and `y` writable over their (strided) spans
        // (the Safety contract above); decode_ffi checks both SBufs (NULL, alignment, extent) and
        // that the spans are disjoint before building views.
        unsafe {
            decode_ffi::<i16, f32>(
                SBuf::new("x", x, x_stride, n),
                SBuf::out("y", y, y_stride, n),
            )
        }
    })
}

/// Strided `sk_pcm_from_i32_f32`: `y[i·y_stride] = x[i·x_stride] / 2^31`, strides in
/// elements, negative allowed; `y_stride == 0` is `SK_ERR_BAD_ARGUMENT`; any
/// overlap of the two address spans is `SK_ERR_OVERLAP`. Other rules as the contiguous function.
///
/// Real-time safe: yes.
///
/// # Safety
/// `x` readable and `y` writable at their (strided) positions. Each strided buffer's whole address
/// span (first to last position, elements between included) must be valid memory that no other
/// thread writes during the call; only the positions themselves are read or written.
#[no_mangle]
pub unsafe extern "C" fn sk_pcm_from_i32_strided_f32(
    x: *const i32,
    x_stride: isize,
    y: *mut f32,
    y_stride: isize,
    n: usize,
) -> i32 {
    ffi_boundary!("sk_pcm_from_i32_strided_f32", {
        // SAFETY: the caller guarantees `x` readable and `y` writable over their (strided) spans
        // (the Safety contract above); decode_ffi checks both SBufs (NULL, alignment, extent) and
        // that the spans are disjoint before building views.
        unsafe {
            decode_ffi::<i32, f32>(
                SBuf::new("x", x, x_stride, n),
                SBuf::out("y", y, y_stride, n),
            )
        }
    })
}

/// Strided `sk_pcm_from_i24_f32`: `y[i·y_stride] = x[i·x_stride] / 2^23`, strides in
/// samples (3-byte units), negative allowed; `y_stride == 0` is `SK_ERR_BAD_ARGUMENT`; any
/// overlap of the two address spans is `SK_ERR_OVERLAP`. Other rules as the contiguous function.
///
/// Real-time safe: yes.
///
/// # Safety
/// `x` readable and `y` writable at their (strided) positions. Each strided buffer's whole address
/// span (first to last position, elements between included) must be valid memory that no other
/// thread writes during the call; only the positions themselves are read or written.
#[no_mangle]
pub unsafe extern "C" fn sk_pcm_from_i24_strided_f32(
    x: *const u8,
    x_stride: isize,
    y: *mut f32,
    y_stride: isize,
    n: usize,
) -> i32 {
    ffi_boundary!("sk_pcm_from_i24_strided_f32", {
        // SAFETY: the caller guarantees `x` readable and `y` writable over their (strided) spans
        // (the Safety contract above); decode_ffi checks both SBufs (NULL, alignment, extent) and
        // that the spans are disjoint before building views.
        unsafe {
            decode_ffi::<I24, f32>(
                SBuf::new("x", x as *const I24, x_stride, n),
                SBuf::out("y", y, y_stride, n),
            )
        }
    })
}

/// Strided `sk_pcm_from_u8_f32`: `y[i·y_stride] = x[i·x_stride] / 2^7`, strides in
/// elements, negative allowed; `y_stride == 0` is `SK_ERR_BAD_ARGUMENT`; any
/// overlap of the two address spans is `SK_ERR_OVERLAP`. Other rules as the contiguous function.
///
/// Real-time safe: yes.
///
/// # Safety
/// `x` readable and `y` writable at their (strided) positions. Each strided buffer's whole address
/// span (first to last position, elements between included) must be valid memory that no other
/// thread writes during the call; only the positions themselves are read or written.
#[no_mangle]
pub unsafe extern "C" fn sk_pcm_from_u8_strided_f32(
    x: *const u8,
    x_stride: isize,
    y: *mut f32,
    y_stride: isize,
    n: usize,
) -> i32 {
    ffi_boundary!("sk_pcm_from_u8_strided_f32", {
        // SAFETY: the caller guarantees `x` readable and `y` writable over their (strided) spans
        // (the Safety contract above); decode_ffi checks both SBufs (NULL, alignment, extent) and
        // that the spans are disjoint before building views.
        unsafe {
            decode_ffi::<u8, f32>(
                SBuf::new("x", x, x_stride, n),
                SBuf::out("y", y, y_stride, n),
            )
        }
    })
}

/// Strided `sk_pcm_to_i16_f32`: `y[i·y_stride] = code(x[i·x_stride])`, strides in
/// elements, negative allowed; `y_stride == 0` is `SK_ERR_BAD_ARGUMENT`; any
/// overlap of the two address spans is `SK_ERR_OVERLAP`; NaN/±inf is `SK_ERR_NON_FINITE` with
/// nothing written. Other rules as the contiguous function.
///
/// Real-time safe: yes.
///
/// # Safety
/// `x` readable and `y` writable at their (strided) positions. Each strided buffer's whole address
/// span (first to last position, elements between included) must be valid memory that no other
/// thread writes during the call; only the positions themselves are read or written.
#[no_mangle]
pub unsafe extern "C" fn sk_pcm_to_i16_strided_f32(
    x: *const f32,
    x_stride: isize,
    y: *mut i16,
    y_stride: isize,
    n: usize,
) -> i32 {
    ffi_boundary!("sk_pcm_to_i16_strided_f32", {
        // SAFETY: the caller guarantees `x` readable and `y` writable over their (strided) spans
        // (the Safety contract above); encode_ffi checks both SBufs (NULL, alignment, extent) and
        // that the spans are disjoint before building views.
        unsafe {
            encode_ffi::<f32, i16>(
                SBuf::new("x", x, x_stride, n),
                SBuf::out("y", y, y_stride, n),
            )
        }
    })
}

/// Strided `sk_pcm_to_i32_f32`: `y[i·y_stride] = code(x[i·x_stride])`, strides in
/// elements, negative allowed; `y_stride == 0` is `SK_ERR_BAD_ARGUMENT`; any
/// overlap of the two address spans is `SK_ERR_OVERLAP`; NaN/±inf is `SK_ERR_NON_FINITE` with
/// nothing written. Other rules as the contiguous function.
///
/// Real-time safe: yes.
///
/// # Safety
/// `x` readable and `y` writable at their (strided) positions. Each strided buffer's whole address
/// span (first to last position, elements between included) must be valid memory that no other
/// thread writes during the call; only the positions themselves are read or written.
#[no_mangle]
pub unsafe extern "C" fn sk_pcm_to_i32_strided_f32(
    x: *const f32,
    x_stride: isize,
    y: *mut i32,
    y_stride: isize,
    n: usize,
) -> i32 {
    ffi_boundary!("sk_pcm_to_i32_strided_f32", {
        // SAFETY: the caller guarantees `x` readable and `y` writable over their (strided) spans
        // (the Safety contract above); encode_ffi checks both SBufs (NULL, alignment, extent) and
        // that the spans are disjoint before building views.
        unsafe {
            encode_ffi::<f32, i32>(
                SBuf::new("x", x, x_stride, n),
                SBuf::out("y", y, y_stride, n),
            )
        }
    })
}

/// Strided `sk_pcm_to_i24_f32`: `y[i·y_stride] = code(x[i·x_stride])`, strides in
/// samples (3-byte units) for y, negative allowed; `y_stride == 0` is `SK_ERR_BAD_ARGUMENT`; any
/// overlap of the two address spans is `SK_ERR_OVERLAP`; NaN/±inf is `SK_ERR_NON_FINITE` with
/// nothing written. Other rules as the contiguous function.
///
/// Real-time safe: yes.
///
/// # Safety
/// `x` readable and `y` writable at their (strided) positions. Each strided buffer's whole address
/// span (first to last position, elements between included) must be valid memory that no other
/// thread writes during the call; only the positions themselves are read or written.
#[no_mangle]
pub unsafe extern "C" fn sk_pcm_to_i24_strided_f32(
    x: *const f32,
    x_stride: isize,
    y: *mut u8,
    y_stride: isize,
    n: usize,
) -> i32 {
    ffi_boundary!("sk_pcm_to_i24_strided_f32", {
        // SAFETY: the caller guarantees `x` readable and `y` writable over their (strided) spans
        // (the Safety contract above); encode_ffi checks both SBufs (NULL, alignment, extent) and
        // that the spans are disjoint before building views.
        unsafe {
            encode_ffi::<f32, I24>(
                SBuf::new("x", x, x_stride, n),
                SBuf::out("y", y as *mut I24, y_stride, n),
            )
        }
    })
}

/// Strided `sk_pcm_to_u8_f32`: `y[i·y_stride] = code(x[i·x_stride])`, strides in
/// elements, negative allowed; `y_stride == 0` is `SK_ERR_BAD_ARGUMENT`; any
/// overlap of the two address spans is `SK_ERR_OVERLAP`; NaN/±inf is `SK_ERR_NON_FINITE` with
/// nothing written. Other rules as the contiguous function.
///
/// Real-time safe: yes.
///
/// # Safety
/// `x` readable and `y` writable at their (strided) positions. Each strided buffer's whole address
/// span (first to last position, elements between included) must be valid memory that no other
/// thread writes during the call; only the positions themselves are read or written.
#[no_mangle]
pub unsafe extern "C" fn sk_pcm_to_u8_strided_f32(
    x: *const f32,
    x_stride: isize,
    y: *mut u8,
    y_stride: isize,
    n: usize,
) -> i32 {
    ffi_boundary!("sk_pcm_to_u8_strided_f32", {
        // SAFETY: the caller guarantees `x` readable and `y` writable over their (strided) spans
        // (the Safety contract above); encode_ffi checks both SBufs (NULL, alignment, extent) and
        // that the spans are disjoint before building views.
        unsafe {
            encode_ffi::<f32, u8>(
                SBuf::new("x", x, x_stride, n),
                SBuf::out("y", y, y_stride, n),
            )
        }
    })
}

/// Strided `sk_pcm_from_i16_f64`: `y[i·y_stride] = x[i·x_stride] / 2^15`, strides in
/// elements, negative allowed; `y_stride == 0` is `SK_ERR_BAD_ARGUMENT`; any
/// overlap of the two address spans is `SK_ERR_OVERLAP`. Other rules as the contiguous function.
///
/// Real-time safe: yes.
///
/// # Safety
/// `x` readable and `y` writable at their (strided) positions. Each strided buffer's whole address
/// span (first to last position, elements between included) must be valid memory that no other
/// thread writes during the call; only the positions themselves are read or written.
#[no_mangle]
pub unsafe extern "C" fn sk_pcm_from_i16_strided_f64(
    x: *const i16,
    x_stride: isize,
    y: *mut f64,
    y_stride: isize,
    n: usize,
) -> i32 {
    ffi_boundary!("sk_pcm_from_i16_strided_f64", {
        // SAFETY: the caller guarantees `x` readable and `y` writable over their (strided) spans
        // (the Safety contract above); decode_ffi checks both SBufs (NULL, alignment, extent) and
        // that the spans are disjoint before building views.
        unsafe {
            decode_ffi::<i16, f64>(
                SBuf::new("x", x, x_stride, n),
                SBuf::out("y", y, y_stride, n),
            )
        }
    })
}

/// Strided `sk_pcm_from_i32_f64`: `y[i·y_stride] = x[i·x_stride] / 2^31`, strides in
/// elements, negative allowed; `y_stride == 0` is `SK_ERR_BAD_ARGUMENT`; any
/// overlap of the two address spans is `SK_ERR_OVERLAP`. Other rules as the contiguous function.
///
/// Real-time safe: yes.
///
/// # Safety
/// `x` readable and `y` writable at their (strided) positions. Each strided buffer's whole address
/// span (first to last position, elements between included) must be valid memory that no other
/// thread writes during the call; only the positions themselves are read or written.
#[no_mangle]
pub unsafe extern "C" fn sk_pcm_from_i32_strided_f64(
    x: *const i32,
    x_stride: isize,
    y: *mut f64,
    y_stride: isize,
    n: usize,
) -> i32 {
    ffi_boundary!("sk_pcm_from_i32_strided_f64", {
        // SAFETY: the caller guarantees `x` readable and `y` writable over their (strided) spans
        // (the Safety contract above); decode_ffi checks both SBufs (NULL, alignment, extent) and
        // that the spans are disjoint before building views.
        unsafe {
            decode_ffi::<i32, f64>(
                SBuf::new("x", x, x_stride, n),
                SBuf::out("y", y, y_stride, n),
            )
        }
    })
}

/// Strided `sk_pcm_from_i24_f64`: `y[i·y_stride] = x[i·x_stride] / 2^23`, strides in
/// samples (3-byte units), negative allowed; `y_stride == 0` is `SK_ERR_BAD_ARGUMENT`; any
/// overlap of the two address spans is `SK_ERR_OVERLAP`. Other rules as the contiguous function.
///
/// Real-time safe: yes.
///
/// # Safety
/// `x` readable and `y` writable at their (strided) positions. Each strided buffer's whole address
/// span (first to last position, elements between included) must be valid memory that no other
/// thread writes during the call; only the positions themselves are read or written.
#[no_mangle]
pub unsafe extern "C" fn sk_pcm_from_i24_strided_f64(
    x: *const u8,
    x_stride: isize,
    y: *mut f64,
    y_stride: isize,
    n: usize,
) -> i32 {
    ffi_boundary!("sk_pcm_from_i24_strided_f64", {
        // SAFETY: the caller guarantees `x` readable and `y` writable over their (strided) spans
        // (the Safety contract above); decode_ffi checks both SBufs (NULL, alignment, extent) and
        // that the spans are disjoint before building views.
        unsafe {
            decode_ffi::<I24, f64>(
                SBuf::new("x", x as *const I24, x_stride, n),
                SBuf::out("y", y, y_stride, n),
            )
        }
    })
}

/// Strided `sk_pcm_from_u8_f64`: `y[i·y_stride] = x[i·x_stride] / 2^7`, strides in
/// elements, negative allowed; `y_stride == 0` is `SK_ERR_BAD_ARGUMENT`; any
/// overlap of the two address spans is `SK_ERR_OVERLAP`. Other rules as the contiguous function.
///
/// Real-time safe: yes.
///
/// # Safety
/// `x` readable and `y` writable at their (strided) positions. Each strided buffer's whole address
/// span (first to last position, elements between included) must be valid memory that no other
/// thread writes during the call; only the positions themselves are read or written.
#[no_mangle]
pub unsafe extern "C" fn sk_pcm_from_u8_strided_f64(
    x: *const u8,
    x_stride: isize,
    y: *mut f64,
    y_stride: isize,
    n: usize,
) -> i32 {
    ffi_boundary!("sk_pcm_from_u8_strided_f64", {
        // SAFETY: the caller guarantees `x` readable and `y` writable over their (strided) spans
        // (the Safety contract above); decode_ffi checks both SBufs (NULL, alignment, extent) and
        // that the spans are disjoint before building views.
        unsafe {
            decode_ffi::<u8, f64>(
                SBuf::new("x", x, x_stride, n),
                SBuf::out("y", y, y_stride, n),
            )
        }
    })
}

/// Strided `sk_pcm_to_i16_f64`: `y[i·y_stride] = code(x[i·x_stride])`, strides in
/// elements, negative allowed; `y_stride == 0` is `SK_ERR_BAD_ARGUMENT`; any
/// overlap of the two address spans is `SK_ERR_OVERLAP`; NaN/±inf is `SK_ERR_NON_FINITE` with
/// nothing written. Other rules as the contiguous function.
///
/// Real-time safe: yes.
///
/// # Safety
/// `x` readable and `y` writable at their (strided) positions. Each strided buffer's whole address
/// span (first to last position, elements between included) must be valid memory that no other
/// thread writes during the call; only the positions themselves are read or written.
#[no_mangle]
pub unsafe extern "C" fn sk_pcm_to_i16_strided_f64(
    x: *const f64,
    x_stride: isize,
    y: *mut i16,
    y_stride: isize,
    n: usize,
) -> i32 {
    ffi_boundary!("sk_pcm_to_i16_strided_f64", {
        // SAFETY: the caller guarantees `x` readable and `y` writable over their (strided) spans
        // (the Safety contract above); encode_ffi checks both SBufs (NULL, alignment, extent) and
        // that the spans are disjoint before building views.
        unsafe {
            encode_ffi::<f64, i16>(
                SBuf::new("x", x, x_stride, n),
                SBuf::out("y", y, y_stride, n),
            )
        }
    })
}

/// Strided `sk_pcm_to_i32_f64`: `y[i·y_stride] = code(x[i·x_stride])`, strides in
/// elements, negative allowed; `y_stride == 0` is `SK_ERR_BAD_ARGUMENT`; any
/// overlap of the two address spans is `SK_ERR_OVERLAP`; NaN/±inf is `SK_ERR_NON_FINITE` with
/// nothing written. Other rules as the contiguous function.
///
/// Real-time safe: yes.
///
/// # Safety
/// `x` readable and `y` writable at their (strided) positions. Each strided buffer's whole address
/// span (first to last position, elements between included) must be valid memory that no other
/// thread writes during the call; only the positions themselves are read or written.
#[no_mangle]
pub unsafe extern "C" fn sk_pcm_to_i32_strided_f64(
    x: *const f64,
    x_stride: isize,
    y: *mut i32,
    y_stride: isize,
    n: usize,
) -> i32 {
    ffi_boundary!("sk_pcm_to_i32_strided_f64", {
        // SAFETY: the caller guarantees `x` readable and `y` writable over their (strided) spans
        // (the Safety contract above); encode_ffi checks both SBufs (NULL, alignment, extent) and
        // that the spans are disjoint before building views.
        unsafe {
            encode_ffi::<f64, i32>(
                SBuf::new("x", x, x_stride, n),
                SBuf::out("y", y, y_stride, n),
            )
        }
    })
}

/// Strided `sk_pcm_to_i24_f64`: `y[i·y_stride] = code(x[i·x_stride])`, strides in
/// samples (3-byte units) for y, negative allowed; `y_stride == 0` is `SK_ERR_BAD_ARGUMENT`; any
/// overlap of the two address spans is `SK_ERR_OVERLAP`; NaN/±inf is `SK_ERR_NON_FINITE` with
/// nothing written. Other rules as the contiguous function.
///
/// Real-time safe: yes.
///
/// # Safety
/// `x` readable and `y` writable at their (strided) positions. Each strided buffer's whole address
/// span (first to last position, elements between included) must be valid memory that no other
/// thread writes during the call; only the positions themselves are read or written.
#[no_mangle]
pub unsafe extern "C" fn sk_pcm_to_i24_strided_f64(
    x: *const f64,
    x_stride: isize,
    y: *mut u8,
    y_stride: isize,
    n: usize,
) -> i32 {
    ffi_boundary!("sk_pcm_to_i24_strided_f64", {
        // SAFETY: the caller guarantees `x` readable and `y` writable over their (strided) spans
        // (the Safety contract above); encode_ffi checks both SBufs (NULL, alignment, extent) and
        // that the spans are disjoint before building views.
        unsafe {
            encode_ffi::<f64, I24>(
                SBuf::new("x", x, x_stride, n),
                SBuf::out("y", y as *mut I24, y_stride, n),
            )
        }
    })
}

/// Strided `sk_pcm_to_u8_f64`: `y[i·y_stride] = code(x[i·x_stride])`, strides in
/// elements, negative allowed; `y_stride == 0` is `SK_ERR_BAD_ARGUMENT`; any
/// overlap of the two address spans is `SK_ERR_OVERLAP`; NaN/±inf is `SK_ERR_NON_FINITE` with
/// nothing written. Other rules as the contiguous function.
///
/// Real-time safe: yes.
///
/// # Safety
/// `x` readable and `y` writable at their (strided) positions. Each strided buffer's whole address
/// span (first to last position, elements between included) must be valid memory that no other
/// thread writes during the call; only the positions themselves are read or written.
#[no_mangle]
pub unsafe extern "C" fn sk_pcm_to_u8_strided_f64(
    x: *const f64,
    x_stride: isize,
    y: *mut u8,
    y_stride: isize,
    n: usize,
) -> i32 {
    ffi_boundary!("sk_pcm_to_u8_strided_f64", {
        // SAFETY: the caller guarantees `x` readable and `y` writable over their (strided) spans
        // (the Safety contract above); encode_ffi checks both SBufs (NULL, alignment, extent) and
        // that the spans are disjoint before building views.
        unsafe {
            encode_ffi::<f64, u8>(
                SBuf::new("x", x, x_stride, n),
                SBuf::out("y", y, y_stride, n),
            )
        }
    })
}

/// Strided `sk_convert_f32_to_f64`: `y[i·y_stride] = x[i·x_stride]`, strides in elements,
/// negative allowed; `y_stride == 0` is `SK_ERR_BAD_ARGUMENT`; any overlap of the two address
/// spans is `SK_ERR_OVERLAP`. Other rules as the contiguous function.
///
/// Real-time safe: yes.
///
/// # Safety
/// `x` readable and `y` writable at their (strided) positions. Each strided buffer's whole address
/// span (first to last position, elements between included) must be valid memory that no other
/// thread writes during the call; only the positions themselves are read or written.
#[no_mangle]
pub unsafe extern "C" fn sk_convert_strided_f32_to_f64(
    x: *const f32,
    x_stride: isize,
    y: *mut f64,
    y_stride: isize,
    n: usize,
) -> i32 {
    ffi_boundary!("sk_convert_strided_f32_to_f64", {
        // SAFETY: the caller guarantees `x` readable and `y` writable over their (strided) spans
        // (the Safety contract above); cast_ffi checks both SBufs (NULL, alignment, extent) and
        // that the spans are disjoint before building views.
        unsafe {
            cast_ffi::<f32>(
                SBuf::new("x", x, x_stride, n),
                SBuf::out("y", y, y_stride, n),
            )
        }
    })
}

/// Strided `sk_convert_f64_to_f32`: `y[i·y_stride] = x[i·x_stride]`, strides in elements,
/// negative allowed; `y_stride == 0` is `SK_ERR_BAD_ARGUMENT`; any overlap of the two address
/// spans is `SK_ERR_OVERLAP`. Other rules as the contiguous function.
///
/// Real-time safe: yes.
///
/// # Safety
/// `x` readable and `y` writable at their (strided) positions. Each strided buffer's whole address
/// span (first to last position, elements between included) must be valid memory that no other
/// thread writes during the call; only the positions themselves are read or written.
#[no_mangle]
pub unsafe extern "C" fn sk_convert_strided_f64_to_f32(
    x: *const f64,
    x_stride: isize,
    y: *mut f32,
    y_stride: isize,
    n: usize,
) -> i32 {
    ffi_boundary!("sk_convert_strided_f64_to_f32", {
        // SAFETY: the caller guarantees `x` readable and `y` writable over their (strided) spans
        // (the Safety contract above); cast_ffi checks both SBufs (NULL, alignment, extent) and
        // that the spans are disjoint before building views.
        unsafe {
            cast_ffi::<f64>(
                SBuf::new("x", x, x_stride, n),
                SBuf::out("y", y, y_stride, n),
            )
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::error::*;

    #[test]
    fn non_finite_is_refused_before_any_write() {
        let x = [0.5f32, -0.25, 1.0, f32::NAN];
        let mut y = [7i16; 4];
        // SAFETY: `x` holds 4 floats and `y` 4 int16_t, the count passed.
        unsafe {
            assert_eq!(
                sk_pcm_to_i16_f32(x.as_ptr(), y.as_mut_ptr(), 4),
                SK_ERR_NON_FINITE
            );
        }
        assert_eq!(y, [7; 4]);
        // SAFETY: `x` holds 4 floats and `y` 4 int16_t; 3 are converted.
        unsafe {
            assert_eq!(sk_pcm_to_i16_f32(x.as_ptr(), y.as_mut_ptr(), 3), SK_OK);
        }
        assert_eq!(&y[..3], &[16384, -8192, 32767]);
        let mut b = [0u8; 6];
        // SAFETY: `x + 1` with stride −1 reads x[1], x[0]; `b` holds the 2 × 3 bytes written.
        unsafe {
            assert_eq!(
                sk_pcm_to_i24_strided_f32(x.as_ptr().add(1), -1, b.as_mut_ptr(), 1, 2),
                SK_OK
            );
        }
        assert_eq!(b, [0x00, 0x00, 0xe0, 0x00, 0x00, 0x40]);
        let mut f = [0.0f64; 2];
        // SAFETY: `b` holds 2 × 3 bytes and `f` 2 doubles, the count passed.
        unsafe {
            assert_eq!(sk_pcm_from_i24_f64(b.as_ptr(), f.as_mut_ptr(), 2), SK_OK);
        }
        assert_eq!(f, [-0.25, 0.5]);
    }
}
