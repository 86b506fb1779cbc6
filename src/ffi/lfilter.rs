//! General IIR filters in transfer-function form: the one-shot `sk_lfilter_*`, the streaming
//! `SkLfilter` handle, the steady-state initial conditions `sk_lfilter_zi_*` and
//! `sk_sosfilt_zi_*`, and zero-phase filtering `sk_filtfilt_*` / `sk_sosfiltfilt_*`. Layouts, in-place rules and handle rules as in [`super::filter`].

use super::filter::{
    finite_state, handle_get_state, handle_info, handle_process, handle_reset, handle_set_state,
    StreamHandle,
};
use super::guard::{alias, check_out_scalar, ffi_boundary, io, planar, Buf};
use super::handle::{self, handle_kind, Either, Kind};
use crate::error::{SkError, SkResult};
use crate::kernels::filter::arith::SosElem;
use crate::kernels::filter::filtfilt::{self, edge_for, Pad};
use crate::kernels::filter::lfilter::{self, LFilter};
use crate::kernels::filter::sos::SosFilter;
use crate::kernels::layout::Layout;
use crate::kernels::{Float, Src};
use crate::simd::current;

/// Opaque handle of a transfer-function (`b`, `a`) filter (`float` or `double`), made by
/// `sk_lfilter_f32_new` or `sk_lfilter_f64_new` and released by `sk_lfilter_free`.
pub struct SkLfilter {
    _private: [u8; 0],
}

handle_kind!(
    /// A `float` transfer-function filter behind an `SkLfilter`.
    pub(crate) LfilterF32: LFilter<f32> as SkLfilter,
    "a float transfer-function filter (sk_lfilter_f32_new)", exclusive, refuse
);
handle_kind!(
    /// A `double` transfer-function filter behind an `SkLfilter`.
    pub(crate) LfilterF64: LFilter<f64> as SkLfilter,
    "a double transfer-function filter (sk_lfilter_f64_new)", exclusive, refuse
);

/// What the either-precision calls of a transfer-function filter handle accept.
const ANY_LFILTER: &str = "a transfer-function filter (sk_lfilter_f32_new or sk_lfilter_f64_new)";

/// Element types with their transfer-function filter kinds.
pub(super) trait LfElem: Float + SosElem {
    type Kind: Kind<Object = LFilter<Self>, C = SkLfilter>;
}

impl LfElem for f32 {
    type Kind = LfilterF32;
}

impl LfElem for f64 {
    type Kind = LfilterF64;
}

impl<T: LfElem> StreamHandle<T> for LFilter<T> {
    type Kind = T::Kind;
    const STATE: &'static str = "channels × order";
    fn dims(&self) -> (usize, usize) {
        (self.order(), LFilter::channels(self))
    }
    fn reset(&mut self) {
        LFilter::reset(self)
    }
    fn channels(&self) -> usize {
        LFilter::channels(self)
    }
    fn state_len(&self) -> usize {
        LFilter::state_len(self)
    }
    fn process(&mut self, x: Src<'_, T>, xl: Layout, y: &mut [T], yl: Layout, n: usize) {
        LFilter::process(self, current(), x, xl, y, yl, n)
    }
    fn get_state(&self, zi: &mut [T]) {
        LFilter::get_state(self, zi)
    }
    fn set_state(&mut self, zi: &[T]) {
        LFilter::set_state(self, zi)
    }
}

/// Validates and reads the coefficient arrays `b` (`nb`) and `a` (`na`).
///
/// # Safety
/// Both readable for their lengths.
pub(super) unsafe fn coefficients<'a>(
    b: *const f64,
    nb: usize,
    a: *const f64,
    na: usize,
) -> SkResult<(&'a [f64], &'a [f64])> {
    if nb == 0 {
        return Err(SkError::Length(
            "nb is 0; b needs at least one coefficient".into(),
        ));
    }
    if na == 0 {
        return Err(SkError::Length(
            "na is 0; a needs at least one coefficient".into(),
        ));
    }
    let bb = Buf::new("b", b, nb);
    let ab = Buf::new("a", a, na);
    bb.check()?;
    ab.check()?;
    // SAFETY: `bb.check()` and `ab.check()` just passed (non-NULL as `nb`, `na` ≥ 1, aligned, in
    // range); readable for the lifetime the caller picks is its `# Safety` obligation; both
    // slices are only read.
    Ok(unsafe { (bb.slice(), ab.slice()) })
}

/// One-shot transfer-function filtering through the C arguments.
///
/// # Safety
/// `b`, `a` readable for `nb`, `na` doubles; `x` readable and `y` writable over their planar
/// extents; `zi` NULL or readable and `zf` NULL or writable for `order·channels` elements; all
/// for the duration of the call. NULL, alignment, extents and overlap are checked here.
#[allow(clippy::too_many_arguments)]
unsafe fn lfilter_ffi<T: LfElem>(
    b: *const f64,
    nb: usize,
    a: *const f64,
    na: usize,
    x: *const T,
    x_stride: isize,
    zi: *const T,
    channels: usize,
    y: *mut T,
    y_stride: isize,
    zf: *mut T,
    n: usize,
) -> SkResult<()> {
    // SAFETY: `coefficients` needs `b`, `a` readable for `nb`, `na` doubles: the caller's
    // `# Safety` obligation; it checks NULL, alignment and size itself (`Buf::check`).
    let (bs, as_) = unsafe { coefficients(b, nb, a, na)? };
    if channels == 0 {
        return Err(SkError::Length(
            "channels is 0; a filter needs at least one channel".into(),
        ));
    }
    let order = nb.max(na) - 1;
    let state_len = order
        .checked_mul(channels)
        .ok_or_else(|| SkError::Length("order × channels is too large".into()))?;
    let (xl, xe) = planar("x_stride", x_stride, channels, "n", n)?;
    let (yl, ye) = planar("y_stride", y_stride, channels, "n", n)?;
    let xb = Buf::new("x", x, xe);
    let yb = Buf::out("y", y, ye);
    if xb.is_same(&yb) && xl != yl {
        return Err(SkError::Overlap(
            "x and y are the same buffer but with different strides".into(),
        ));
    }
    let zib = Buf::new("zi", zi, if zi.is_null() { 0 } else { state_len });
    let zfb = Buf::out("zf", zf, if zf.is_null() { 0 } else { state_len });
    zib.check()?;
    zfb.check()?;
    let bb = Buf::new("b", b, nb);
    let ab = Buf::new("a", a, na);
    for out in [&yb, &zfb] {
        alias(&bb, out, false)?;
        alias(&ab, out, false)?;
    }
    alias(&zib, &yb, false)?;
    alias(&xb, &zfb, false)?;
    alias(&yb, &zfb, false)?;
    // zf may be exactly zi (zi is copied before anything is written); partial overlap is not.
    alias(&zib, &zfb, true)?;
    // Build the filter (all coefficient checks) before touching any output.
    let mut f = LFilter::<T>::new(bs, as_, channels)?;
    // SAFETY: `zib`, `zfb` passed `check()` above for `order·channels` elements (0 when NULL),
    // `io` checks `x`, `y`; the `alias` calls above proved `y` and `zf` disjoint from `b`, `a`,
    // the other input and each other, except `zf == zi` exactly (read by `set_state` before
    // `get_state` writes) and `y == x` exactly (handled by `io` as in place). The extents are
    // readable / writable per the caller's `# Safety` obligation; no slice outlives the block.
    unsafe {
        if !zi.is_null() {
            let z = zib.slice();
            finite_state("zi", z)?;
            f.set_state(z);
        }
        let (src, out) = io(xb, yb)?;
        f.process(current(), src, xl, out, yl, n);
        if !zf.is_null() {
            f.get_state(zfb.slice_mut());
        }
    }
    Ok(())
}

/// One-shot `scipy.signal.lfilter(b, a, x, axis=-1, zi=zi)` on planar `double` data of
/// `channels` channels (`x[c·x_stride + t]`, `t < n`): a general IIR filter in transfer-function
/// form, run in scipy's transposed direct form II (the output substituted into the state
/// updates, as in the SOS cascade, for a shorter dependency chain).
///
/// - `b` (`nb >= 1` doubles), `a` (`na >= 1` doubles): divided by `a[0]` in double precision;
///   the shorter is padded with zeros, so the order is `K = max(nb, na) − 1`. A non-finite
///   coefficient, `a[0] == 0` or a normalisation that overflows is `SK_ERR_BAD_ARGUMENT`.
///   No stability check: like scipy, marginal and unstable filters run (their output grows).
/// - `zi`: initial state in scipy's layout `(channels, K)` (`zi[c·K + k]`), or NULL for zeros;
///   a non-finite value is `SK_ERR_NON_FINITE`. `zf`: receives the final state in the same
///   layout, or NULL; `zf` may be exactly `zi`.
/// - Strides in elements, `>= n` when `channels > 1` (ignored for one channel); a negative
///   stride or one below `n` is `SK_ERR_BAD_ARGUMENT`.
/// - `y` may be exactly `x` (equal strides). Any other overlap between an output (`y`, `zf`) and
///   an input or the other output is `SK_ERR_OVERLAP`.
/// - Arithmetic: a multiply then an add at the scalar and SSE2/NEON levels, fused multiply-adds
///   at AVX2 and AVX-512: within rounding of scipy (1e-10 of the peak for stable filters up to
///   order 12 in the tests).
/// - Returns `SK_OK`, `SK_ERR_NULL_POINTER`, `SK_ERR_MISALIGNED`, `SK_ERR_LENGTH` (`nb`, `na` or
///   `channels` is 0, or an extent overflows), `SK_ERR_BAD_ARGUMENT`, `SK_ERR_NON_FINITE`,
///   `SK_ERR_OVERLAP`, `SK_ERR_ALLOCATION`. On error nothing is written. NaN/inf samples
///   propagate.
///
/// Thread-safe (stateless).
///
/// Real-time safe: no (allocates the coefficients and the state; many channels of long inputs are split over the worker threads).
///
/// # Safety
/// Every pointer valid for its extent.
#[no_mangle]
pub unsafe extern "C" fn sk_lfilter_f64(
    b: *const f64,
    a: *const f64,
    x: *const f64,
    x_stride: isize,
    zi: *const f64,
    channels: usize,
    y: *mut f64,
    y_stride: isize,
    zf: *mut f64,
    nb: usize,
    na: usize,
    n: usize,
) -> i32 {
    ffi_boundary!("sk_lfilter_f64", {
        // SAFETY: this function's `# Safety` contract is `lfilter_ffi`'s (`b`, `a`, `x`, `zi`
        // readable, `y`, `zf` writable for their extents); NULL, alignment, extents and overlap are
        // checked inside.
        unsafe { lfilter_ffi::<f64>(b, nb, a, na, x, x_stride, zi, channels, y, y_stride, zf, n) }
    })
}

/// `float` version of `sk_lfilter_f64`: coefficients are still doubles (normalised in double,
/// then rounded to float; a coefficient out of float's range is `SK_ERR_BAD_ARGUMENT`); `x`, `y`,
/// `zi`, `zf` are floats. Same status codes.
///
/// Real-time safe: no (allocates the coefficients and the state; many channels of long inputs are split over the worker threads).
///
/// # Safety
/// Every pointer valid for its extent.
#[no_mangle]
pub unsafe extern "C" fn sk_lfilter_f32(
    b: *const f64,
    a: *const f64,
    x: *const f32,
    x_stride: isize,
    zi: *const f32,
    channels: usize,
    y: *mut f32,
    y_stride: isize,
    zf: *mut f32,
    nb: usize,
    na: usize,
    n: usize,
) -> i32 {
    ffi_boundary!("sk_lfilter_f32", {
        // SAFETY: this function's `# Safety` contract is `lfilter_ffi`'s (`b`, `a`, `x`, `zi`
        // readable, `y`, `zf` writable for their extents); NULL, alignment, extents and overlap are
        // checked inside.
        unsafe { lfilter_ffi::<f32>(b, nb, a, na, x, x_stride, zi, channels, y, y_stride, zf, n) }
    })
}

// ---------------------------------------------------------------------------------------------
// handle

/// Creates a streaming transfer-function filter and stores its handle in `*out`.
///
/// # Safety
/// `b`, `a` readable for `nb`, `na` doubles; `out` NULL, misaligned (both rejected here) or
/// writable for one pointer.
unsafe fn lfilter_new<T: LfElem>(
    b: *const f64,
    nb: usize,
    a: *const f64,
    na: usize,
    channels: usize,
    out: *mut *mut SkLfilter,
) -> SkResult<()> {
    check_out_scalar("out", out)?;
    // SAFETY: `coefficients` needs `b`, `a` readable for `nb`, `na` doubles: the caller's
    // `# Safety` obligation; it checks NULL, alignment and size itself (`Buf::check`).
    let (bs, as_) = unsafe { coefficients(b, nb, a, na)? };
    let f = LFilter::<T>::new(bs, as_, channels)?;
    // SAFETY: out validated (non-NULL, aligned).
    unsafe { handle::publish::<T::Kind>(f, out) }
}

/// Creates a `float` transfer-function filter for `channels` channels and stores its handle in
/// `*out`: the streaming form of `sk_lfilter_f32` (same coefficient rules, same arithmetic; the
/// state starts at zero).
///
/// Returns `SK_OK`, `SK_ERR_NULL_POINTER` (`out`, or `b`/`a` NULL with a non-zero length),
/// `SK_ERR_MISALIGNED`, `SK_ERR_LENGTH` (`nb`, `na` or `channels` is 0),
/// `SK_ERR_BAD_ARGUMENT` (a non-finite coefficient, `a[0] == 0`, a normalisation that overflows
/// or leaves float's range), `SK_ERR_ALLOCATION`. On error `*out` is untouched. Thread-safe;
/// the handle itself must not be used from two threads at once (see `sk_lfilter_f32_process`).
///
/// Real-time safe: no (allocates).
///
/// # Safety
/// `b` readable for `nb` doubles, `a` for `na`; `out` writable.
#[no_mangle]
pub unsafe extern "C" fn sk_lfilter_f32_new(
    b: *const f64,
    a: *const f64,
    channels: usize,
    out: *mut *mut SkLfilter,
    nb: usize,
    na: usize,
) -> i32 {
    ffi_boundary!("sk_lfilter_f32_new", {
        // SAFETY: this function's `# Safety` contract is `lfilter_new`'s (`b`, `a` readable for
        // `nb`, `na` doubles, `out` writable); it checks NULL, alignment and sizes itself.
        unsafe { lfilter_new::<f32>(b, nb, a, na, channels, out) }
    })
}

/// Creates a `double` transfer-function filter. Rules and status codes as
/// `sk_lfilter_f32_new` (no rounding step).
///
/// Real-time safe: no (allocates).
///
/// # Safety
/// `b` readable for `nb` doubles, `a` for `na`; `out` writable.
#[no_mangle]
pub unsafe extern "C" fn sk_lfilter_f64_new(
    b: *const f64,
    a: *const f64,
    channels: usize,
    out: *mut *mut SkLfilter,
    nb: usize,
    na: usize,
) -> i32 {
    ffi_boundary!("sk_lfilter_f64_new", {
        // SAFETY: this function's `# Safety` contract is `lfilter_new`'s (`b`, `a` readable for
        // `nb`, `na` doubles, `out` writable); it checks NULL, alignment and sizes itself.
        unsafe { lfilter_new::<f64>(b, nb, a, na, channels, out) }
    })
}

/// Frees a transfer-function filter handle of either precision. NULL is accepted (no-op,
/// `SK_OK`). A handle that is not live, is another kind of handle, or is in use by another
/// thread is `SK_ERR_INVALID_HANDLE` (the handle then stays alive).
///
/// Real-time safe: no (allocates).
///
/// # Safety
/// None beyond passing a pointer value; it is never dereferenced.
#[no_mangle]
pub unsafe extern "C" fn sk_lfilter_free(h: *mut SkLfilter) -> i32 {
    ffi_boundary!("sk_lfilter_free", {
        handle::free_either::<LfilterF32, LfilterF64>("h", h, ANY_LFILTER)
    })
}

/// Zeroes the state of a transfer-function filter of either precision.
/// Returns `SK_OK` or `SK_ERR_INVALID_HANDLE`.
///
/// Real-time safe: after creation and sk_lfilter_reserve, for blocks of up to max_block frames.
///
/// # Safety
/// None beyond passing a pointer value; it is never dereferenced.
#[no_mangle]
pub unsafe extern "C" fn sk_lfilter_reset(h: *mut SkLfilter) -> i32 {
    ffi_boundary!("sk_lfilter_reset", {
        handle_reset::<LFilter<f32>, LFilter<f64>>(h, ANY_LFILTER)
    })
}

/// Reports the order `K` (state values per channel) and the channel count of a
/// transfer-function filter of either precision. Returns `SK_OK`, `SK_ERR_INVALID_HANDLE`,
/// `SK_ERR_NULL_POINTER` / `SK_ERR_MISALIGNED` (an out-pointer); on error nothing is written.
///
/// Real-time safe: after creation and sk_lfilter_reserve, for blocks of up to max_block frames.
///
/// # Safety
/// `order` and `channels` writable.
#[no_mangle]
pub unsafe extern "C" fn sk_lfilter_info(
    h: *mut SkLfilter,
    order: *mut usize,
    channels: *mut usize,
) -> i32 {
    ffi_boundary!("sk_lfilter_info", {
        // SAFETY: `handle_info` writes `order` and `channels` after `check_out_scalar` (NULL,
        // alignment); writable is this function's `# Safety` contract. The handle is only a
        // registry key.
        unsafe {
            handle_info::<LFilter<f32>, LFilter<f64>>(
                h,
                ANY_LFILTER,
                ["order", "channels"],
                order,
                channels,
            )
        }
    })
}

/// Filters `n` samples of every channel of planar `float` data through a transfer-function
/// filter, carrying the state: calling on consecutive pieces of a signal is bit-identical to
/// one call.
///
/// - `x`, `y`: channel `c`'s samples at `x[c·x_stride + t]`, `y[c·y_stride + t]`, `t < n`;
///   strides in elements, `>= n` when the handle has more than one channel (ignored for one);
///   a negative stride or one below `n` is `SK_ERR_BAD_ARGUMENT`.
/// - In place: `y == x` with equal strides. Other overlap: `SK_ERR_OVERLAP`.
/// - Returns `SK_OK`, `SK_ERR_INVALID_HANDLE` (NULL, freed, wrong kind or precision, or in use
///   by another thread), `SK_ERR_NULL_POINTER`, `SK_ERR_MISALIGNED`, `SK_ERR_LENGTH`,
///   `SK_ERR_BAD_ARGUMENT`, `SK_ERR_OVERLAP`; on error neither `y` nor the state changes.
///   NaN/inf samples propagate (and stay in the state until `sk_lfilter_reset`).
///
/// Thread safety: one handle must not be used from two threads at the same time (the second
/// call fails with `SK_ERR_INVALID_HANDLE`); different handles may be used in parallel.
///
/// Real-time safe: after creation and sk_lfilter_reserve, for blocks of up to max_block frames.
///
/// # Safety
/// `x` readable and `y` writable over their extents `(channels − 1)·stride + n`.
#[no_mangle]
pub unsafe extern "C" fn sk_lfilter_f32_process(
    h: *mut SkLfilter,
    x: *const f32,
    x_stride: isize,
    y: *mut f32,
    y_stride: isize,
    n: usize,
) -> i32 {
    ffi_boundary!("sk_lfilter_f32_process", {
        // SAFETY: `handle_process` needs `x` readable and `y` writable over their planar extents,
        // this function's `# Safety` contract; it looks `h` up in the registry (never dereferenced)
        // and checks the buffers (`planar`, `io`).
        unsafe { handle_process::<f32, LFilter<f32>>(h, x, x_stride, y, y_stride, n) }
    })
}

/// `double` version of `sk_lfilter_f32_process` (the handle must come from
/// `sk_lfilter_f64_new`). Same rules and status codes.
///
/// Real-time safe: after creation and sk_lfilter_reserve, for blocks of up to max_block frames.
///
/// # Safety
/// `x` readable and `y` writable over their extents.
#[no_mangle]
pub unsafe extern "C" fn sk_lfilter_f64_process(
    h: *mut SkLfilter,
    x: *const f64,
    x_stride: isize,
    y: *mut f64,
    y_stride: isize,
    n: usize,
) -> i32 {
    ffi_boundary!("sk_lfilter_f64_process", {
        // SAFETY: `handle_process` needs `x` readable and `y` writable over their planar extents,
        // this function's `# Safety` contract; it looks `h` up in the registry (never dereferenced)
        // and checks the buffers (`planar`, `io`).
        unsafe { handle_process::<f64, LFilter<f64>>(h, x, x_stride, y, y_stride, n) }
    })
}

/// Copies the state of a `float` transfer-function filter into `zi`, in scipy's layout
/// `(channels, order)` (`zi[c·order + k]`): the `zf` that `scipy.signal.lfilter` returns for the
/// same input. `len` must be `channels·order` (else `SK_ERR_LENGTH`). Returns also
/// `SK_ERR_INVALID_HANDLE`, `SK_ERR_NULL_POINTER`, `SK_ERR_MISALIGNED`; on error `zi` is
/// untouched. Thread safety as `sk_lfilter_f32_process`.
///
/// Real-time safe: after creation and sk_lfilter_reserve, for blocks of up to max_block frames.
///
/// # Safety
/// `zi` writable for `len` floats.
#[no_mangle]
pub unsafe extern "C" fn sk_lfilter_f32_get_state(
    h: *mut SkLfilter,
    zi: *mut f32,
    len: usize,
) -> i32 {
    ffi_boundary!("sk_lfilter_f32_get_state", {
        // SAFETY: `handle_get_state` needs `zi` writable for `len` elements, this function's `#
        // Safety` contract; it checks `len` against the state and `zi` with `Buf::check`; `h` is a
        // registry key.
        unsafe { handle_get_state::<f32, LFilter<f32>>(h, zi, len) }
    })
}

/// `double` version of `sk_lfilter_f32_get_state`.
///
/// Real-time safe: after creation and sk_lfilter_reserve, for blocks of up to max_block frames.
///
/// # Safety
/// `zi` writable for `len` doubles.
#[no_mangle]
pub unsafe extern "C" fn sk_lfilter_f64_get_state(
    h: *mut SkLfilter,
    zi: *mut f64,
    len: usize,
) -> i32 {
    ffi_boundary!("sk_lfilter_f64_get_state", {
        // SAFETY: `handle_get_state` needs `zi` writable for `len` elements, this function's `#
        // Safety` contract; it checks `len` against the state and `zi` with `Buf::check`; `h` is a
        // registry key.
        unsafe { handle_get_state::<f64, LFilter<f64>>(h, zi, len) }
    })
}

/// Loads the state of a `float` transfer-function filter from `zi` in scipy's layout
/// `(channels, order)`, e.g. `lfilter_zi(b, a) * x[c, 0]` per channel. `len` must be
/// `channels·order` (`SK_ERR_LENGTH`); a NaN or infinite value is `SK_ERR_NON_FINITE`. Returns
/// also `SK_ERR_INVALID_HANDLE`, `SK_ERR_NULL_POINTER`, `SK_ERR_MISALIGNED`; on error the state
/// is unchanged. Thread safety as `sk_lfilter_f32_process`.
///
/// Real-time safe: after creation and sk_lfilter_reserve, for blocks of up to max_block frames.
///
/// # Safety
/// `zi` readable for `len` floats.
#[no_mangle]
pub unsafe extern "C" fn sk_lfilter_f32_set_state(
    h: *mut SkLfilter,
    zi: *const f32,
    len: usize,
) -> i32 {
    ffi_boundary!("sk_lfilter_f32_set_state", {
        // SAFETY: `handle_set_state` needs `zi` readable for `len` elements, this function's `#
        // Safety` contract; it checks `len` against the state and `zi` with `Buf::check`; `h` is a
        // registry key.
        unsafe { handle_set_state::<f32, LFilter<f32>>(h, zi, len) }
    })
}

/// `double` version of `sk_lfilter_f32_set_state`.
///
/// Real-time safe: after creation and sk_lfilter_reserve, for blocks of up to max_block frames.
///
/// # Safety
/// `zi` readable for `len` doubles.
#[no_mangle]
pub unsafe extern "C" fn sk_lfilter_f64_set_state(
    h: *mut SkLfilter,
    zi: *const f64,
    len: usize,
) -> i32 {
    ffi_boundary!("sk_lfilter_f64_set_state", {
        // SAFETY: `handle_set_state` needs `zi` readable for `len` elements, this function's `#
        // Safety` contract; it checks `len` against the state and `zi` with `Buf::check`; `h` is a
        // registry key.
        unsafe { handle_set_state::<f64, LFilter<f64>>(h, zi, len) }
    })
}

// ---------------------------------------------------------------------------------------------
// steady-state initial conditions

/// Writes `vals` (computed in double) into the caller's `zi` of `zi_len` elements of `T`.
///
/// # Safety
/// `zi` writable for `zi_len` elements.
unsafe fn write_zi<T: Float>(vals: &[f64], zi: *mut T, zi_len: usize) -> SkResult<()> {
    let out = Buf::out("zi", zi, zi_len);
    out.check()?;
    if zi_len < vals.len() {
        return Err(SkError::BufferTooSmall(format!(
            "zi_len = {zi_len} but the result has {} values",
            vals.len()
        )));
    }
    let conv: Vec<T> = vals.iter().map(|&v| T::from_f64(v)).collect();
    finite_state("zi (rounded)", &conv).map_err(|e| SkError::BadArgument(e.to_string()))?;
    // SAFETY: `out.check()` passed for `zi_len` elements at the top; writable is the caller's
    // `# Safety` obligation, and no other view of `zi` exists in this function (callers only
    // hold disjoint coefficient slices, per their `alias` checks).
    let dst = unsafe { out.slice_mut() };
    dst[..vals.len()].copy_from_slice(&conv);
    Ok(())
}

/// `lfilter_zi` through the C arguments.
///
/// # Safety
/// `b`, `a` readable for `nb`, `na` doubles and `zi` writable for `zi_len` elements for the
/// duration of the call; NULL, alignment, sizes and overlap are checked here.
unsafe fn lfilter_zi_ffi<T: Float>(
    b: *const f64,
    nb: usize,
    a: *const f64,
    na: usize,
    zi: *mut T,
    zi_len: usize,
) -> SkResult<()> {
    // SAFETY: `coefficients` needs `b`, `a` readable for `nb`, `na` doubles: the caller's
    // `# Safety` obligation; it checks NULL, alignment and size itself (`Buf::check`).
    let (bs, as_) = unsafe { coefficients(b, nb, a, na)? };
    let zb = Buf::out("zi", zi, zi_len);
    zb.check()?;
    alias(&Buf::new("b", b, nb), &zb, false)?;
    alias(&Buf::new("a", a, na), &zb, false)?;
    let vals = lfilter::lfilter_zi(bs, as_)?;
    // SAFETY: `write_zi` needs `zi` writable for `zi_len` elements, the caller's `# Safety`
    // obligation; it checks the buffer itself, and `alias` above proved `zi` disjoint from the
    // coefficients still borrowed.
    unsafe { write_zi(&vals, zi, zi_len) }
}

/// `scipy.signal.lfilter_zi(b, a)`: the initial state (`K = max(nb, na) − 1` values) for which
/// `lfilter` of a unit step starts in steady state; multiply by `x[c, 0]` for channel `c`
/// (scipy's `filtfilt` does this). Computed in double by solving scipy's `K × K` system
/// `(I − companion(a)ᵀ)·zi = b[1:] − a[1:]·b[0]` (Gaussian elimination with partial pivoting).
///
/// - `b`, `a` as `sk_lfilter_f64`; `a[0]` must be non-zero (scipy strips leading zeros of `a`;
///   here that is `SK_ERR_BAD_ARGUMENT`).
/// - `zi`: room for `zi_len >= K` doubles (`SK_ERR_BUFFER_TOO_SMALL` otherwise); the first `K`
///   are written (none for `K = 0`).
/// - A filter without a steady state (a pole at z = 1, `sum(a) == 0`: scipy raises a singular
///   matrix error) is `SK_ERR_BAD_ARGUMENT`.
/// - Returns `SK_OK`, `SK_ERR_NULL_POINTER`, `SK_ERR_MISALIGNED`, `SK_ERR_LENGTH` (`nb` or `na`
///   is 0), `SK_ERR_BAD_ARGUMENT`, `SK_ERR_BUFFER_TOO_SMALL`, `SK_ERR_OVERLAP` (`zi` overlaps
///   `b` or `a`). On error nothing is written. Thread-safe.
///
/// Real-time safe: no (allocates its working memory).
///
/// # Safety
/// `b` readable for `nb`, `a` for `na` doubles; `zi` writable for `zi_len`.
#[no_mangle]
pub unsafe extern "C" fn sk_lfilter_zi_f64(
    b: *const f64,
    a: *const f64,
    zi: *mut f64,
    nb: usize,
    na: usize,
    zi_len: usize,
) -> i32 {
    ffi_boundary!("sk_lfilter_zi_f64", {
        // SAFETY: this function's `# Safety` contract is `lfilter_zi_ffi`'s (`b`, `a` readable,
        // `zi` writable for `zi_len`); NULL, alignment, sizes and overlap are checked inside.
        unsafe { lfilter_zi_ffi::<f64>(b, nb, a, na, zi, zi_len) }
    })
}

/// `float` output of `sk_lfilter_zi_f64` (computed in double, rounded). Same rules; a value
/// beyond float's range is `SK_ERR_BAD_ARGUMENT`.
///
/// Real-time safe: no (allocates its working memory).
///
/// # Safety
/// `b` readable for `nb`, `a` for `na` doubles; `zi` writable for `zi_len` floats.
#[no_mangle]
pub unsafe extern "C" fn sk_lfilter_zi_f32(
    b: *const f64,
    a: *const f64,
    zi: *mut f32,
    nb: usize,
    na: usize,
    zi_len: usize,
) -> i32 {
    ffi_boundary!("sk_lfilter_zi_f32", {
        // SAFETY: this function's `# Safety` contract is `lfilter_zi_ffi`'s (`b`, `a` readable,
        // `zi` writable for `zi_len`); NULL, alignment, sizes and overlap are checked inside.
        unsafe { lfilter_zi_ffi::<f32>(b, nb, a, na, zi, zi_len) }
    })
}

/// `sosfilt_zi` through the C arguments.
///
/// # Safety
/// `sos` readable for `6·n_sections` doubles and `zi` writable for `zi_len` elements for the
/// duration of the call; NULL, alignment, sizes and overlap are checked here.
unsafe fn sosfilt_zi_ffi<T: Float>(
    sos: *const f64,
    n_sections: usize,
    zi: *mut T,
    zi_len: usize,
) -> SkResult<()> {
    if n_sections == 0 {
        return Err(SkError::Length(
            "n_sections is 0; a cascade needs at least one section".into(),
        ));
    }
    let len = n_sections
        .checked_mul(6)
        .ok_or_else(|| SkError::Length(format!("n_sections = {n_sections} is too large")))?;
    let sb = Buf::new("sos", sos, len);
    sb.check()?;
    let zb = Buf::out("zi", zi, zi_len);
    zb.check()?;
    alias(&sb, &zb, false)?;
    // SAFETY: `sb.check()` passed for `6·n_sections` doubles (overflow checked above), `alias`
    // proved it disjoint from `zi` (written below), readable is the caller's `# Safety`
    // obligation; the slice dies with this call.
    let s = unsafe { sb.slice() };
    if let Some(k) = s.iter().position(|v| !v.is_finite()) {
        return Err(SkError::BadArgument(format!(
            "sos[{}][{}] = {} is not finite",
            k / 6,
            k % 6,
            s[k]
        )));
    }
    let vals = lfilter::sosfilt_zi(s)?;
    // SAFETY: `write_zi` needs `zi` writable for `zi_len` elements, the caller's `# Safety`
    // obligation; it checks the buffer itself, and `alias` above proved `zi` disjoint from the
    // coefficients still borrowed.
    unsafe { write_zi(&vals, zi, zi_len) }
}

/// `scipy.signal.sosfilt_zi(sos)`: the initial state `(n_sections, 2)` (`zi[s·2 + k]`) for which
/// `sosfilt` of a unit step starts in steady state; each section's `lfilter_zi` scaled by the
/// DC gain of the sections before it. For `channels` channels load `zi[s, c, k] = zi[s, k] ·
/// x[c, 0]` (scipy's layout for `sk_sosfilt_*` and `sk_biquad_*_set_state`).
///
/// - `sos`: `n_sections × 6` doubles (`b0 b1 b2 a0 a1 a2`); `n_sections == 0` is
///   `SK_ERR_LENGTH`; a non-finite coefficient, `a0 == 0`, or a section without a steady state
///   (a pole at z = 1) is `SK_ERR_BAD_ARGUMENT`. No stability check (as scipy).
/// - `zi`: room for `zi_len >= 2·n_sections` doubles, else `SK_ERR_BUFFER_TOO_SMALL`.
/// - Returns `SK_OK`, `SK_ERR_NULL_POINTER`, `SK_ERR_MISALIGNED`, `SK_ERR_LENGTH`,
///   `SK_ERR_BAD_ARGUMENT`, `SK_ERR_BUFFER_TOO_SMALL`, `SK_ERR_OVERLAP` (`zi` overlaps `sos`).
///   On error nothing is written. Thread-safe.
///
/// Real-time safe: no (allocates its working memory).
///
/// # Safety
/// `sos` readable for `6·n_sections` doubles; `zi` writable for `zi_len`.
#[no_mangle]
pub unsafe extern "C" fn sk_sosfilt_zi_f64(
    sos: *const f64,
    zi: *mut f64,
    n_sections: usize,
    zi_len: usize,
) -> i32 {
    ffi_boundary!("sk_sosfilt_zi_f64", {
        // SAFETY: this function's `# Safety` contract is `sosfilt_zi_ffi`'s (`sos` readable for
        // `6·n_sections`, `zi` writable for `zi_len`); NULL, alignment, sizes and overlap are
        // checked inside.
        unsafe { sosfilt_zi_ffi::<f64>(sos, n_sections, zi, zi_len) }
    })
}

/// `float` output of `sk_sosfilt_zi_f64` (computed in double, rounded). Same rules; a value
/// beyond float's range is `SK_ERR_BAD_ARGUMENT`.
///
/// Real-time safe: no (allocates its working memory).
///
/// # Safety
/// `sos` readable for `6·n_sections` doubles; `zi` writable for `zi_len` floats.
#[no_mangle]
pub unsafe extern "C" fn sk_sosfilt_zi_f32(
    sos: *const f64,
    zi: *mut f32,
    n_sections: usize,
    zi_len: usize,
) -> i32 {
    ffi_boundary!("sk_sosfilt_zi_f32", {
        // SAFETY: this function's `# Safety` contract is `sosfilt_zi_ffi`'s (`sos` readable for
        // `6·n_sections`, `zi` writable for `zi_len`); NULL, alignment, sizes and overlap are
        // checked inside.
        unsafe { sosfilt_zi_ffi::<f32>(sos, n_sections, zi, zi_len) }
    })
}

// ---------------------------------------------------------------------------------------------
// zero-phase filtering

/// `padtype='odd'` (scipy's default): `2·x[0] − x[edge..1]` before, `2·x[n−1] − x[n−2..]` after.
pub const SK_PADTYPE_ODD: i32 = 0;
/// `padtype='even'`: the mirror image (without the end sample) at both ends.
pub const SK_PADTYPE_EVEN: i32 = 1;
/// `padtype='constant'`: the end samples repeated.
pub const SK_PADTYPE_CONSTANT: i32 = 2;
/// `padtype=None`: no extension (the pad length is 0 whatever `padlen` says).
pub const SK_PADTYPE_NONE: i32 = 3;

fn pad_of(padtype: i32) -> SkResult<Pad> {
    Ok(match padtype {
        SK_PADTYPE_ODD => Pad::Odd,
        SK_PADTYPE_EVEN => Pad::Even,
        SK_PADTYPE_CONSTANT => Pad::Constant,
        SK_PADTYPE_NONE => Pad::None,
        other => {
            return Err(SkError::BadArgument(format!(
                "padtype = {other} is not one of SK_PADTYPE_ODD (0), SK_PADTYPE_EVEN (1), \
                 SK_PADTYPE_CONSTANT (2), SK_PADTYPE_NONE (3)"
            )))
        }
    })
}

/// Validated planar input/output for a zero-phase call.
///
/// # Safety
/// `x` readable and `y` writable over their planar extents `(channels − 1)·stride + n`, for the
/// lifetime `'a` the caller picks; NULL, alignment, extents and overlap are checked here.
#[allow(clippy::type_complexity)]
unsafe fn zero_phase_io<'a, T>(
    x: *const T,
    x_stride: isize,
    y: *mut T,
    y_stride: isize,
    channels: usize,
    n: usize,
    coeffs: &[Buf<f64>],
) -> SkResult<(Src<'a, T>, Layout, &'a mut [T], Layout)> {
    if channels == 0 {
        return Err(SkError::Length(
            "channels is 0; a filter needs at least one channel".into(),
        ));
    }
    let (xl, xe) = planar("x_stride", x_stride, channels, "n", n)?;
    let (yl, ye) = planar("y_stride", y_stride, channels, "n", n)?;
    let xb = Buf::new("x", x, xe);
    let yb = Buf::out("y", y, ye);
    if xb.is_same(&yb) && xl != yl {
        return Err(SkError::Overlap(
            "x and y are the same buffer but with different strides".into(),
        ));
    }
    xb.check()?;
    yb.check()?;
    for c in coeffs {
        alias(c, &yb, false)?;
    }
    // SAFETY: `xb`, `yb` carry the extents `planar` computed and passed `check()`; the caller
    // guarantees them readable / writable (`# Safety`); `io` refuses a partial overlap, and the
    // `alias` loop above proved `y` disjoint from every coefficient array.
    let (src, out) = unsafe { io(xb, yb)? };
    Ok((src, xl, out, yl))
}

/// Zero-phase transfer-function filtering through the C arguments.
///
/// # Safety
/// `b`, `a` readable for `nb`, `na` doubles; `x` readable and `y` writable over their planar
/// extents, for the duration of the call; NULL, alignment, extents and overlap are checked here.
#[allow(clippy::too_many_arguments)]
unsafe fn filtfilt_ffi<T: LfElem>(
    b: *const f64,
    a: *const f64,
    x: *const T,
    x_stride: isize,
    padtype: i32,
    padlen: isize,
    channels: usize,
    y: *mut T,
    y_stride: isize,
    nb: usize,
    na: usize,
    n: usize,
) -> SkResult<()> {
    // SAFETY: `coefficients` needs `b`, `a` readable for `nb`, `na` doubles: the caller's
    // `# Safety` obligation; it checks NULL, alignment and size itself (`Buf::check`).
    let (bs, as_) = unsafe { coefficients(b, nb, a, na)? };
    let pad = pad_of(padtype)?;
    // validates the coefficients (and their range in T) before anything else
    LFilter::<T>::new(bs, as_, 1)?;
    let zi = lfilter::lfilter_zi(bs, as_)?;
    let edge = edge_for(pad, usize::try_from(padlen).ok(), nb.max(na), n)?;
    let coeffs = [Buf::new("b", b, nb), Buf::new("a", a, na)];
    // SAFETY: `zero_phase_io` needs `x`, `y` valid over their planar extents, the caller's
    // `# Safety` obligation; it checks them and proves `y` disjoint from the coefficient arrays
    // still borrowed here; the slices die with this call.
    let (src, xl, out, yl) =
        unsafe { zero_phase_io(x, x_stride, y, y_stride, channels, n, &coeffs)? };
    filtfilt::filtfilt::<T, _>(
        current(),
        |m| LFilter::<T>::new(bs, as_, m),
        &zi,
        pad,
        edge,
        channels,
        src,
        xl,
        out,
        yl,
        n,
    )
}

/// Zero-phase second-order-section filtering through the C arguments.
///
/// # Safety
/// `sos` readable for `6·n_sections` doubles; `x` readable and `y` writable over their planar
/// extents, for the duration of the call; NULL, alignment, extents and overlap are checked here.
#[allow(clippy::too_many_arguments)]
unsafe fn sosfiltfilt_ffi<T: LfElem>(
    sos: *const f64,
    x: *const T,
    x_stride: isize,
    padtype: i32,
    padlen: isize,
    channels: usize,
    y: *mut T,
    y_stride: isize,
    n_sections: usize,
    n: usize,
) -> SkResult<()> {
    if n_sections == 0 {
        return Err(SkError::Length(
            "n_sections is 0; a cascade needs at least one section".into(),
        ));
    }
    let len = n_sections
        .checked_mul(6)
        .ok_or_else(|| SkError::Length(format!("n_sections = {n_sections} is too large")))?;
    let sb = Buf::new("sos", sos, len);
    sb.check()?;
    // SAFETY: `sb.check()` just passed for `6·n_sections` doubles (overflow checked above);
    // readable is the caller's `# Safety` obligation; `zero_phase_io` below proves `y` disjoint
    // from it (`sb` is in its `coeffs`) before any output slice exists.
    let s = unsafe { sb.slice() };
    let pad = pad_of(padtype)?;
    SosFilter::<T>::new(s, 1)?;
    let zi = lfilter::sosfilt_zi(s)?;
    let edge = edge_for(pad, usize::try_from(padlen).ok(), filtfilt::sos_ntaps(s), n)?;
    // SAFETY: `zero_phase_io` needs `x`, `y` valid over their planar extents, the caller's
    // `# Safety` obligation; it checks them and proves `y` disjoint from the coefficient arrays
    // still borrowed here; the slices die with this call.
    let (src, xl, out, yl) =
        unsafe { zero_phase_io(x, x_stride, y, y_stride, channels, n, &[sb])? };
    filtfilt::filtfilt::<T, _>(
        current(),
        |m| SosFilter::<T>::new(s, m),
        &zi,
        pad,
        edge,
        channels,
        src,
        xl,
        out,
        yl,
        n,
    )
}

/// Zero-phase filtering, `scipy.signal.filtfilt(b, a, x, axis=-1, padtype, padlen)` with
/// `method='pad'`, on planar `double` data of `channels` channels (`x[c·x_stride + t]`,
/// `t < n`): each channel is extended by `edge` samples at both ends, filtered forward from the
/// steady state `lfilter_zi(b, a)·ext[0]`, filtered backward from `lfilter_zi(b, a)·fwd[last]`,
/// and the middle `n` samples are written to `y`. Same steps as scipy; within about 1e-10 of
/// scipy's result for well-conditioned filters.
///
/// - `b` (`nb >= 1`), `a` (`na >= 1`): as `sk_lfilter_f64`. A filter without a steady state (a
///   pole at z = 1, `sum(a) == 0`; scipy raises) is `SK_ERR_BAD_ARGUMENT`.
/// - `padtype`: `SK_PADTYPE_ODD` (scipy's default), `SK_PADTYPE_EVEN`, `SK_PADTYPE_CONSTANT` or
///   `SK_PADTYPE_NONE`; anything else is `SK_ERR_BAD_ARGUMENT`. `padlen`: the pad length `edge`, or
///   negative for scipy's default `3·max(nb, na)`; ignored (0) for `SK_PADTYPE_NONE`. `n` must be
///   greater than `edge` (scipy's rule), else `SK_ERR_LENGTH`.
/// - Strides as `sk_lfilter_f64`. `y` may be exactly `x` (equal strides); other overlap with
///   `x`, `b` or `a` is `SK_ERR_OVERLAP`.
/// - Returns `SK_OK`, `SK_ERR_NULL_POINTER`, `SK_ERR_MISALIGNED`, `SK_ERR_LENGTH`,
///   `SK_ERR_BAD_ARGUMENT`, `SK_ERR_OVERLAP`, `SK_ERR_ALLOCATION` (scratch of about
///   `channels·(2048 + 4·edge)` values). On error nothing is written.
///
/// Thread-safe (stateless). Large inputs use several threads (`SIGKERN_THREADS`).
///
/// Real-time safe: no (allocates its working memory; long inputs may be split over the worker threads).
///
/// # Safety
/// Every pointer valid for its extent.
#[no_mangle]
pub unsafe extern "C" fn sk_filtfilt_f64(
    b: *const f64,
    a: *const f64,
    x: *const f64,
    x_stride: isize,
    padtype: i32,
    padlen: isize,
    channels: usize,
    y: *mut f64,
    y_stride: isize,
    nb: usize,
    na: usize,
    n: usize,
) -> i32 {
    ffi_boundary!("sk_filtfilt_f64", {
        // SAFETY: this function's `# Safety` contract is `filtfilt_ffi`'s (`b`, `a`, `x` readable,
        // `y` writable over its planar extent); NULL, alignment, extents and overlap are checked
        // inside.
        unsafe {
            filtfilt_ffi::<f64>(
                b, a, x, x_stride, padtype, padlen, channels, y, y_stride, nb, na, n,
            )
        }
    })
}

/// `float` version of `sk_filtfilt_f64` (coefficients and steady state computed in double,
/// then rounded; samples are floats). Same rules and status codes.
///
/// Real-time safe: no (allocates its working memory; long inputs may be split over the worker threads).
///
/// # Safety
/// Every pointer valid for its extent.
#[no_mangle]
pub unsafe extern "C" fn sk_filtfilt_f32(
    b: *const f64,
    a: *const f64,
    x: *const f32,
    x_stride: isize,
    padtype: i32,
    padlen: isize,
    channels: usize,
    y: *mut f32,
    y_stride: isize,
    nb: usize,
    na: usize,
    n: usize,
) -> i32 {
    ffi_boundary!("sk_filtfilt_f32", {
        // SAFETY: this function's `# Safety` contract is `filtfilt_ffi`'s (`b`, `a`, `x` readable,
        // `y` writable over its planar extent); NULL, alignment, extents and overlap are checked
        // inside.
        unsafe {
            filtfilt_ffi::<f32>(
                b, a, x, x_stride, padtype, padlen, channels, y, y_stride, nb, na, n,
            )
        }
    })
}

/// Zero-phase filtering with second-order sections,
/// `scipy.signal.sosfiltfilt(sos, x, axis=-1, padtype, padlen)`, on planar `double` data:
/// extension, forward pass from `sosfilt_zi(sos)·ext[0]`, backward pass from
/// `sosfilt_zi(sos)·fwd[last]`, middle `n` samples to `y`, as scipy does.
///
/// - `sos`: `n_sections × 6` doubles with the refusals of `sk_biquad_f64_new`
///   (`SK_ERR_BAD_ARGUMENT`: non-finite, `a0 == 0`, a pole outside the unit circle), and a
///   section without a steady state (a pole at z = 1; scipy raises) is `SK_ERR_BAD_ARGUMENT`.
///   `n_sections == 0` is `SK_ERR_LENGTH`. Sections are divided by their `a0` (scipy requires
///   `a0 == 1`).
/// - `padtype`, `padlen` as `sk_filtfilt_f64`; the default pad length is scipy's `3·ntaps` with
///   `ntaps = 2·n_sections + 1 − min(#sections with b2 == 0, #sections with a2 == 0)`.
///   `n <= edge` is `SK_ERR_LENGTH`.
/// - Strides and aliasing as `sk_filtfilt_f64` (`y` may be exactly `x`; other overlap with `x`
///   or `sos` is `SK_ERR_OVERLAP`).
/// - Returns `SK_OK`, `SK_ERR_NULL_POINTER`, `SK_ERR_MISALIGNED`, `SK_ERR_LENGTH`,
///   `SK_ERR_BAD_ARGUMENT`, `SK_ERR_OVERLAP`, `SK_ERR_ALLOCATION`. On error nothing is written.
///
/// Thread-safe (stateless). Large inputs use several threads (`SIGKERN_THREADS`).
///
/// Real-time safe: no (allocates its working memory; long inputs may be split over the worker threads).
///
/// # Safety
/// Every pointer valid for its extent.
#[no_mangle]
pub unsafe extern "C" fn sk_sosfiltfilt_f64(
    sos: *const f64,
    x: *const f64,
    x_stride: isize,
    padtype: i32,
    padlen: isize,
    channels: usize,
    y: *mut f64,
    y_stride: isize,
    n_sections: usize,
    n: usize,
) -> i32 {
    ffi_boundary!("sk_sosfiltfilt_f64", {
        // SAFETY: this function's `# Safety` contract is `sosfiltfilt_ffi`'s (`sos`, `x` readable,
        // `y` writable over its planar extent); NULL, alignment, extents and overlap are checked
        // inside.
        unsafe {
            sosfiltfilt_ffi::<f64>(
                sos, x, x_stride, padtype, padlen, channels, y, y_stride, n_sections, n,
            )
        }
    })
}

/// `float` version of `sk_sosfiltfilt_f64` (coefficients and steady state computed in double,
/// then rounded, with the float stability check of `sk_biquad_f32_new`). Same rules and status
/// codes.
///
/// Real-time safe: no (allocates its working memory; long inputs may be split over the worker threads).
///
/// # Safety
/// Every pointer valid for its extent.
#[no_mangle]
pub unsafe extern "C" fn sk_sosfiltfilt_f32(
    sos: *const f64,
    x: *const f32,
    x_stride: isize,
    padtype: i32,
    padlen: isize,
    channels: usize,
    y: *mut f32,
    y_stride: isize,
    n_sections: usize,
    n: usize,
) -> i32 {
    ffi_boundary!("sk_sosfiltfilt_f32", {
        // SAFETY: this function's `# Safety` contract is `sosfiltfilt_ffi`'s (`sos`, `x` readable,
        // `y` writable over its planar extent); NULL, alignment, extents and overlap are checked
        // inside.
        unsafe {
            sosfiltfilt_ffi::<f32>(
                sos, x, x_stride, padtype, padlen, channels, y, y_stride, n_sections, n,
            )
        }
    })
}

/// Makes a transfer-function filter of either precision real-time safe: every later call of
/// the handle stays on the calling thread (16 or more channels with a planar output and a long
/// block are otherwise split over the library's worker threads). `sk_lfilter_*_process`
/// allocates no memory and makes no system call at any block length, with or without this
/// call; `max_block` is accepted for symmetry with the other handle kinds' `_reserve` calls.
/// Results never depend on this call; the setting cannot be undone.
///
/// Returns `SK_OK` or `SK_ERR_INVALID_HANDLE`.
///
/// Real-time safe: yes (it allocates nothing), but meant to be called once after creation.
///
/// # Safety
/// None beyond passing a pointer value.
#[no_mangle]
pub unsafe extern "C" fn sk_lfilter_reserve(h: *mut SkLfilter, max_block: usize) -> i32 {
    ffi_boundary!("sk_lfilter_reserve", {
        let _ = max_block;
        handle::with_either::<LfilterF32, LfilterF64, _>("h", h, ANY_LFILTER, |f| {
            match f {
                Either::A(f) => f.set_serial(),
                Either::B(f) => f.set_serial(),
            }
            Ok(())
        })
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::error::{SK_ERR_INVALID_HANDLE, SK_OK};
    use crate::ffi::filter::{sk_biquad_free, sk_fir_free, SkBiquad, SkFir};
    use std::ptr::null_mut;

    /// Every free checks the exact kind: an lfilter handle is not an FIR handle (it used to be
    /// freed by `sk_fir_free`).
    #[test]
    fn frees_check_the_exact_kind() {
        let (b, a) = ([0.5f64, 0.5], [1.0f64, -0.5]);
        let mut lf: *mut SkLfilter = null_mut();
        // SAFETY: `b` and `a` hold 2 doubles each and `lf` is a valid out-parameter.
        let rc = unsafe { sk_lfilter_f32_new(b.as_ptr(), a.as_ptr(), 1, &mut lf, 2, 2) };
        assert_eq!(rc, SK_OK);
        // SAFETY: a handle value is a token the registry looks up; it is never dereferenced,
        // so passing one of another kind is defined behaviour (and refused).
        let rc = unsafe { sk_fir_free(lf as *mut SkFir) };
        assert_eq!(rc, SK_ERR_INVALID_HANDLE);
        let msg = crate::ffi::guard::with_last_error(|m| m.to_string());
        assert!(
            msg.contains("is a float transfer-function filter (sk_lfilter_f32_new), not an FIR"),
            "{msg}"
        );
        // SAFETY: as above, a token of another kind.
        let rc = unsafe { sk_biquad_free(lf as *mut SkBiquad) };
        assert_eq!(rc, SK_ERR_INVALID_HANDLE);
        // SAFETY: `lf` is a live lfilter handle made above.
        assert_eq!(unsafe { sk_lfilter_free(lf) }, SK_OK);
        // SAFETY: a freed token is looked up, not dereferenced (double free is refused).
        assert_eq!(unsafe { sk_lfilter_free(lf) }, SK_ERR_INVALID_HANDLE);
    }
}
