//! Filter handles (biquad cascades, FIR filters) and the one-shot `sosfilt`.
//!
//! Handles are opaque pointers (`SkBiquad *`, `SkFir *`) whose values are ids in a registry of
//! live handles (see [`super::handle`]): NULL, a freed handle, a pointer that never was a handle
//! and a handle of the wrong kind are all `SK_ERR_INVALID_HANDLE`, detected without reading the
//! pointer. One handle must not be used from two threads at the same time (the second caller
//! gets `SK_ERR_INVALID_HANDLE` "in use", never a data race); different handles may run in
//! parallel.
//!
//! Sample layouts: *planar* data of `channels` channels keeps channel `c`'s `n` samples at
//! `p[c·stride + t]` (`stride` in elements, `stride >= n` when `channels > 1`; ignored for one
//! channel); *interleaved* data keeps frame `t` at `p[t·channels .. t·channels + channels]`.
//! The output may be exactly the input (same pointer, same stride) for in-place use; any other
//! overlap of the two extents is `SK_ERR_OVERLAP`.

use super::guard::{alias, check_out_scalar, ffi_boundary, interleaved, io, planar, Buf};
use super::handle::{self, handle_kind, Either, Kind};
use crate::error::{SkError, SkResult};
use crate::kernels::alloc::try_copy;
use crate::kernels::filter::arith::SosElem;
use crate::kernels::filter::fir::FirFilter;
use crate::kernels::filter::sos::{self, SosFilter};
use crate::kernels::layout::Layout;
use crate::kernels::{Float, Src};
use crate::simd::current;
use realfft::FftNum;

/// Opaque handle of a biquad cascade (`float` or `double`), made by `sk_biquad_f32_new` or
/// `sk_biquad_f64_new` and released by `sk_biquad_free`.
pub struct SkBiquad {
    _private: [u8; 0],
}

/// Opaque handle of an FIR filter (`float` or `double`), made by `sk_fir_f32_new` or
/// `sk_fir_f64_new` and released by `sk_fir_free`.
pub struct SkFir {
    _private: [u8; 0],
}

handle_kind!(
    /// A `float` biquad cascade behind an `SkBiquad`.
    pub(crate) BiquadF32: SosFilter<f32> as SkBiquad,
    "a float biquad cascade (sk_biquad_f32_new)", exclusive, refuse
);
handle_kind!(
    /// A `double` biquad cascade behind an `SkBiquad`.
    pub(crate) BiquadF64: SosFilter<f64> as SkBiquad,
    "a double biquad cascade (sk_biquad_f64_new)", exclusive, refuse
);
handle_kind!(
    /// A `float` FIR filter behind an `SkFir`.
    pub(crate) FirF32: FirFilter<f32> as SkFir,
    "a float FIR filter (sk_fir_f32_new)", exclusive, refuse
);
handle_kind!(
    /// A `double` FIR filter behind an `SkFir`.
    pub(crate) FirF64: FirFilter<f64> as SkFir,
    "a double FIR filter (sk_fir_f64_new)", exclusive, refuse
);

/// Element types with their biquad and FIR object kinds.
pub(super) trait FilterElem: Float + FftNum + SosElem {
    type Biquad: Kind<Object = SosFilter<Self>, C = SkBiquad>;
    type Fir: Kind<Object = FirFilter<Self>, C = SkFir>;
}

impl FilterElem for f32 {
    type Biquad = BiquadF32;
    type Fir = FirF32;
}

impl FilterElem for f64 {
    type Biquad = BiquadF64;
    type Fir = FirF64;
}

/// What the either-precision calls of a biquad handle accept.
const ANY_BIQUAD: &str = "a biquad cascade (sk_biquad_f32_new or sk_biquad_f64_new)";
/// What the either-precision calls of an FIR handle accept.
const ANY_FIR: &str = "an FIR filter (sk_fir_f32_new or sk_fir_f64_new)";

/// A streaming recursive filter kept behind a handle (a biquad cascade or a transfer-function
/// filter of one precision): what the shared process and state wrappers need.
pub(super) trait StreamHandle<T: SosElem>: Sized {
    /// The handle kind of this filter and precision.
    type Kind: Kind<Object = Self>;
    /// The state's shape, for `SK_ERR_LENGTH` messages.
    const STATE: &'static str;
    /// What `*_info` reports: the size of the filter (sections or order) and the channels.
    fn dims(&self) -> (usize, usize);
    fn reset(&mut self);
    fn channels(&self) -> usize;
    fn state_len(&self) -> usize;
    fn process(&mut self, x: Src<'_, T>, xl: Layout, y: &mut [T], yl: Layout, n: usize);
    fn get_state(&self, zi: &mut [T]);
    fn set_state(&mut self, zi: &[T]);
}

impl<T: FilterElem> StreamHandle<T> for SosFilter<T> {
    type Kind = T::Biquad;
    const STATE: &'static str = "n_sections × channels × 2";
    fn dims(&self) -> (usize, usize) {
        (self.n_sections(), SosFilter::channels(self))
    }
    fn reset(&mut self) {
        SosFilter::reset(self)
    }
    fn channels(&self) -> usize {
        SosFilter::channels(self)
    }
    fn state_len(&self) -> usize {
        SosFilter::state_len(self)
    }
    fn process(&mut self, x: Src<'_, T>, xl: Layout, y: &mut [T], yl: Layout, n: usize) {
        SosFilter::process(self, current(), x, xl, y, yl, n)
    }
    fn get_state(&self, zi: &mut [T]) {
        SosFilter::get_state(self, zi)
    }
    fn set_state(&mut self, zi: &[T]) {
        SosFilter::set_state(self, zi)
    }
}

/// The opaque C type of a stream handle `H`.
pub(super) type CType<T, H> = <<H as StreamHandle<T>>::Kind as Kind>::C;

/// Runs `f` on the handle `h` if it is an `H`.
pub(super) fn with_handle<T: SosElem, H: StreamHandle<T>, R>(
    h: *const CType<T, H>,
    f: impl FnOnce(&mut H) -> SkResult<R>,
) -> SkResult<R> {
    handle::with::<H::Kind, R>("h", h, f)
}

/// `*_reset` of a handle kind of either precision (`what` names the kind).
pub(super) fn handle_reset<H32: StreamHandle<f32>, H64: StreamHandle<f64>>(
    h: *const CType<f32, H32>,
    what: &str,
) -> SkResult<()>
where
    H64::Kind: Kind<C = CType<f32, H32>>,
{
    handle::with_either::<H32::Kind, H64::Kind, _>("h", h, what, |f| {
        match f {
            Either::A(f) => f.reset(),
            Either::B(f) => f.reset(),
        }
        Ok(())
    })
}

/// `*_info` of a handle kind of either precision: writes [`StreamHandle::dims`] to `a` and `b`
/// (named `names` in errors).
///
/// # Safety
/// `a` and `b` writable if non-NULL and aligned.
pub(super) unsafe fn handle_info<H32: StreamHandle<f32>, H64: StreamHandle<f64>>(
    h: *const CType<f32, H32>,
    what: &str,
    names: [&'static str; 2],
    a: *mut usize,
    b: *mut usize,
) -> SkResult<()>
where
    H64::Kind: Kind<C = CType<f32, H32>>,
{
    handle::with_either::<H32::Kind, H64::Kind, _>("h", h, what, |f| {
        let (va, vb) = match f {
            Either::A(f) => f.dims(),
            Either::B(f) => f.dims(),
        };
        check_out_scalar(names[0], a)?;
        check_out_scalar(names[1], b)?;
        // SAFETY: `check_out_scalar` just established `a` and `b` non-NULL and aligned; writable
        // is the caller's `# Safety` obligation.
        unsafe {
            *a = va;
            *b = vb;
        }
        Ok(())
    })
}

/// `*_process` of a handle: planar channels with strides.
///
/// # Safety
/// `x` readable and `y` writable over their planar extents `(channels − 1)·stride + n` for the
/// duration of the call; NULL, alignment, extents and overlap are checked here. `h` is only a
/// registry key.
pub(super) unsafe fn handle_process<T: SosElem, H: StreamHandle<T>>(
    h: *const CType<T, H>,
    x: *const T,
    x_stride: isize,
    y: *mut T,
    y_stride: isize,
    n: usize,
) -> SkResult<()> {
    with_handle::<T, H, _>(h, |f| {
        let ch = f.channels();
        let (xl, xe) = planar("x_stride", x_stride, ch, "n", n)?;
        let (yl, ye) = planar("y_stride", y_stride, ch, "n", n)?;
        let xb = Buf::new("x", x, xe);
        let yb = Buf::out("y", y, ye);
        if xb.is_same(&yb) && xl != yl {
            return Err(SkError::Overlap(
                "x and y are the same buffer but with different strides".into(),
            ));
        }
        // SAFETY: `xb`, `yb` carry the extents `planar` computed from the handle's channel count;
        // the caller guarantees them readable / writable (`# Safety`); `io` checks both and
        // refuses a partial overlap; the slices die with this closure.
        let (src, out) = unsafe { io(xb, yb)? };
        f.process(src, xl, out, yl, n);
        Ok(())
    })
}

fn state_len_check<T: SosElem, H: StreamHandle<T>>(len: usize, need: usize) -> SkResult<()> {
    if len != need {
        return Err(SkError::Length(format!(
            "zi has len = {len} values but the state has {} = {need}",
            H::STATE
        )));
    }
    Ok(())
}

/// `*_get_state` of a handle.
///
/// # Safety
/// `zi` writable for `len` elements for the duration of the call (NULL, alignment and `len`
/// are checked here).
pub(super) unsafe fn handle_get_state<T: SosElem, H: StreamHandle<T>>(
    h: *const CType<T, H>,
    zi: *mut T,
    len: usize,
) -> SkResult<()> {
    with_handle::<T, H, _>(h, |f| {
        state_len_check::<T, H>(len, f.state_len())?;
        let b = Buf::out("zi", zi, len);
        b.check()?;
        // SAFETY: `b.check()` just passed for `len` elements (`len` equal to the state length);
        // writable is the caller's `# Safety` obligation; the filter's own state is not caller
        // memory, so this is the only view of `zi`, and it dies with this closure.
        f.get_state(unsafe { b.slice_mut() });
        Ok(())
    })
}

/// `*_set_state` of a handle: refuses NaN and infinite values.
///
/// # Safety
/// `zi` readable for `len` elements for the duration of the call (NULL, alignment and `len`
/// are checked here).
pub(super) unsafe fn handle_set_state<T: SosElem, H: StreamHandle<T>>(
    h: *const CType<T, H>,
    zi: *const T,
    len: usize,
) -> SkResult<()> {
    with_handle::<T, H, _>(h, |f| {
        state_len_check::<T, H>(len, f.state_len())?;
        let b = Buf::new("zi", zi, len);
        b.check()?;
        // SAFETY: `b.check()` just passed for `len` elements (`len` equal to the state length);
        // readable is the caller's `# Safety` obligation; only read, then copied into the state.
        let z = unsafe { b.slice() };
        finite_state("zi", z)?;
        f.set_state(z);
        Ok(())
    })
}

/// Refuses a NaN or infinite value in an initial state.
pub(super) fn finite_state<T: Float>(name: &str, z: &[T]) -> SkResult<()> {
    if let Some(i) = z.iter().position(|v| !v.is_finite()) {
        return Err(SkError::NonFinite(format!(
            "{name}[{i}] = {:?} is not finite",
            z[i]
        )));
    }
    Ok(())
}

fn with_fir<T: FilterElem, R>(
    h: *const SkFir,
    f: impl FnOnce(&mut FirFilter<T>) -> SkResult<R>,
) -> SkResult<R> {
    handle::with::<T::Fir, R>("h", h, f)
}

/// Creates a biquad cascade and stores its handle in `*out`.
///
/// # Safety
/// `sos` readable for `6·n_sections` doubles; `out` NULL, misaligned (both rejected here) or
/// writable for one pointer.
unsafe fn biquad_new<T: FilterElem>(
    sos: *const f64,
    channels: usize,
    out: *mut *mut SkBiquad,
    n_sections: usize,
) -> SkResult<()> {
    check_out_scalar("out", out)?;
    if n_sections == 0 {
        return Err(SkError::Length(
            "n_sections is 0; a cascade needs at least one section".into(),
        ));
    }
    let len = n_sections
        .checked_mul(6)
        .ok_or_else(|| SkError::Length(format!("n_sections = {n_sections} is too large")))?;
    let b = Buf::new("sos", sos, len);
    b.check()?;
    // SAFETY: `b.check()` just passed for `6·n_sections` doubles (overflow checked above);
    // readable is the caller's `# Safety` obligation; `SosFilter::new` copies the sections.
    let f = SosFilter::<T>::new(unsafe { b.slice() }, channels)?;
    // SAFETY: out validated (non-NULL, aligned).
    unsafe { handle::publish::<T::Biquad>(f, out) }
}

/// Interleaved `*_process` of a biquad handle.
///
/// # Safety
/// `x` readable and `y` writable for `n_frames·channels` elements for the duration of the call;
/// NULL, alignment, overflow and overlap are checked here. `h` is only a registry key.
unsafe fn biquad_process_interleaved<T: FilterElem>(
    h: *mut SkBiquad,
    x: *const T,
    y: *mut T,
    n_frames: usize,
) -> SkResult<()> {
    with_handle::<T, SosFilter<T>, _>(h, |f| {
        let ch = f.channels();
        let (l, len) = interleaved("n_frames", n_frames, ch)?;
        // SAFETY: `interleaved` computed `n_frames·channels` without overflow; the caller
        // guarantees that many elements (`# Safety`); `io` checks both buffers and refuses a
        // partial overlap; the slices die with this closure.
        let (src, out) = unsafe { io(Buf::new("x", x, len), Buf::out("y", y, len))? };
        f.process(current(), src, l, out, l, n_frames);
        Ok(())
    })
}

/// Creates a `float` biquad cascade for `channels` channels from `n_sections` second-order
/// sections and stores its handle in `*out`.
///
/// - `sos`: `n_sections × 6` doubles, row-major, scipy's layout `b0 b1 b2 a0 a1 a2` per
///   section (e.g. `scipy.signal.butter(..., output='sos')`). Each section is divided by its
///   `a0` in double precision, then rounded to `float`.
/// - Refused with `SK_ERR_BAD_ARGUMENT`: a non-finite coefficient, `a0 == 0`, a section with a
///   pole strictly outside the unit circle: with `r = 1 + 1e-9`, the normalised coefficients
///   must meet `|a2| <= r²` and `|a1| <= r + a2/r` (also checked after rounding to float).
///   Poles on the circle (integrators, resonators) are accepted, as in scipy. `n_sections == 0` or `channels == 0` is
///   `SK_ERR_LENGTH`; `out` NULL is `SK_ERR_NULL_POINTER`; no memory for the sections or the
///   state is `SK_ERR_ALLOCATION`.
/// - The state starts at zero. On error `*out` is untouched.
///
/// The filter runs in transposed direct form II (the form of `scipy.signal.sosfilt`); channels
/// run in SIMD lanes. Thread safety: see `sk_biquad_f32_process`.
///
/// Real-time safe: no (allocates).
///
/// # Safety
/// `sos` readable for `6·n_sections` doubles; `out` writable.
#[no_mangle]
pub unsafe extern "C" fn sk_biquad_f32_new(
    sos: *const f64,
    channels: usize,
    out: *mut *mut SkBiquad,
    n_sections: usize,
) -> i32 {
    ffi_boundary!("sk_biquad_f32_new", {
        // SAFETY: this function's `# Safety` contract is `biquad_new`'s (`sos` readable for
        // `6·n_sections` doubles, `out` writable); it checks NULL, alignment and sizes itself.
        unsafe { biquad_new::<f32>(sos, channels, out, n_sections) }
    })
}

/// Creates a `double` biquad cascade. Rules as `sk_biquad_f32_new` (no rounding step).
///
/// Real-time safe: no (allocates).
///
/// # Safety
/// `sos` readable for `6·n_sections` doubles; `out` writable.
#[no_mangle]
pub unsafe extern "C" fn sk_biquad_f64_new(
    sos: *const f64,
    channels: usize,
    out: *mut *mut SkBiquad,
    n_sections: usize,
) -> i32 {
    ffi_boundary!("sk_biquad_f64_new", {
        // SAFETY: this function's `# Safety` contract is `biquad_new`'s (`sos` readable for
        // `6·n_sections` doubles, `out` writable); it checks NULL, alignment and sizes itself.
        unsafe { biquad_new::<f64>(sos, channels, out, n_sections) }
    })
}

/// Frees a biquad handle of either precision. NULL is accepted (no-op, `SK_OK`). A handle that
/// is not live (already freed, never created) or is not a biquad is `SK_ERR_INVALID_HANDLE`,
/// detected without reading it; a handle in use by another thread is `SK_ERR_INVALID_HANDLE`
/// and stays alive.
///
/// Real-time safe: no (allocates).
///
/// # Safety
/// None beyond passing a pointer value; it is never dereferenced.
#[no_mangle]
pub unsafe extern "C" fn sk_biquad_free(h: *mut SkBiquad) -> i32 {
    ffi_boundary!("sk_biquad_free", {
        handle::free_either::<BiquadF32, BiquadF64>("h", h, ANY_BIQUAD)
    })
}

/// Zeroes the state of a biquad handle of either precision.
/// Returns `SK_OK` or `SK_ERR_INVALID_HANDLE`.
///
/// Real-time safe: after creation and sk_biquad_reserve, for blocks of up to max_block frames.
///
/// # Safety
/// None beyond passing a pointer value; it is never dereferenced.
#[no_mangle]
pub unsafe extern "C" fn sk_biquad_reset(h: *mut SkBiquad) -> i32 {
    ffi_boundary!("sk_biquad_reset", {
        handle_reset::<SosFilter<f32>, SosFilter<f64>>(h, ANY_BIQUAD)
    })
}

/// Reports the number of sections and channels of a biquad handle of either precision.
/// Returns `SK_OK`, `SK_ERR_INVALID_HANDLE`, `SK_ERR_NULL_POINTER` (an out-pointer NULL),
/// `SK_ERR_MISALIGNED` (an out-pointer not aligned for `size_t`); on error nothing is written.
///
/// Real-time safe: after creation and sk_biquad_reserve, for blocks of up to max_block frames.
///
/// # Safety
/// `n_sections` and `channels` writable.
#[no_mangle]
pub unsafe extern "C" fn sk_biquad_info(
    h: *mut SkBiquad,
    n_sections: *mut usize,
    channels: *mut usize,
) -> i32 {
    ffi_boundary!("sk_biquad_info", {
        // SAFETY: `handle_info` writes both out-pointers after `check_out_scalar` (NULL,
        // alignment); writable is this function's `# Safety` contract. The handle is only a
        // registry key.
        unsafe {
            handle_info::<SosFilter<f32>, SosFilter<f64>>(
                h,
                ANY_BIQUAD,
                ["n_sections", "channels"],
                n_sections,
                channels,
            )
        }
    })
}

/// Filters `n` samples of every channel of planar `float` data, carrying the state.
///
/// - `x`, `y`: channel `c`'s samples at `x[c·x_stride + t]`, `y[c·y_stride + t]`, `t < n`;
///   strides in elements, `>= n` when the handle has more than one channel (ignored for one).
///   A negative stride or one below `n` is `SK_ERR_BAD_ARGUMENT`.
/// - In place: `y == x` with equal strides. Other overlap of the extents: `SK_ERR_OVERLAP`.
/// - Chunks: calling on consecutive pieces of a signal gives bit-identical output to one call.
/// - Returns `SK_OK`, `SK_ERR_INVALID_HANDLE` (NULL, freed, wrong kind or precision, or in use
///   by another thread), `SK_ERR_NULL_POINTER`, `SK_ERR_MISALIGNED`, `SK_ERR_LENGTH`,
///   `SK_ERR_BAD_ARGUMENT`, `SK_ERR_OVERLAP`; on error neither `y` nor the state changes.
///   NaN/inf samples propagate (and stay in the state until `sk_biquad_reset`).
///
/// Thread safety: one handle must not be used from two threads at the same time (the second
/// call fails with `SK_ERR_INVALID_HANDLE`); different handles may be used in parallel.
///
/// Real-time safe: after creation and sk_biquad_reserve, for blocks of up to max_block frames.
///
/// # Safety
/// `x` readable and `y` writable over their extents `(channels − 1)·stride + n`.
#[no_mangle]
pub unsafe extern "C" fn sk_biquad_f32_process(
    h: *mut SkBiquad,
    x: *const f32,
    x_stride: isize,
    y: *mut f32,
    y_stride: isize,
    n: usize,
) -> i32 {
    ffi_boundary!("sk_biquad_f32_process", {
        // SAFETY: `handle_process` needs `x` readable and `y` writable over their planar extents,
        // this function's `# Safety` contract; it looks `h` up in the registry (never dereferenced)
        // and checks the buffers (`planar`, `io`).
        unsafe { handle_process::<f32, SosFilter<f32>>(h, x, x_stride, y, y_stride, n) }
    })
}

/// `double` version of `sk_biquad_f32_process` (the handle must come from `sk_biquad_f64_new`).
///
/// Real-time safe: after creation and sk_biquad_reserve, for blocks of up to max_block frames.
///
/// # Safety
/// `x` readable and `y` writable over their extents.
#[no_mangle]
pub unsafe extern "C" fn sk_biquad_f64_process(
    h: *mut SkBiquad,
    x: *const f64,
    x_stride: isize,
    y: *mut f64,
    y_stride: isize,
    n: usize,
) -> i32 {
    ffi_boundary!("sk_biquad_f64_process", {
        // SAFETY: `handle_process` needs `x` readable and `y` writable over their planar extents,
        // this function's `# Safety` contract; it looks `h` up in the registry (never dereferenced)
        // and checks the buffers (`planar`, `io`).
        unsafe { handle_process::<f64, SosFilter<f64>>(h, x, x_stride, y, y_stride, n) }
    })
}

/// Filters `n_frames` interleaved `float` frames (`x[t·channels + c]`), carrying the state.
/// `y` may be exactly `x`. Status codes and thread safety as `sk_biquad_f32_process`.
///
/// Real-time safe: after creation and sk_biquad_reserve, for blocks of up to max_block frames.
///
/// # Safety
/// `x` readable and `y` writable for `n_frames·channels` elements.
#[no_mangle]
pub unsafe extern "C" fn sk_biquad_f32_process_interleaved(
    h: *mut SkBiquad,
    x: *const f32,
    y: *mut f32,
    n_frames: usize,
) -> i32 {
    ffi_boundary!("sk_biquad_f32_process_interleaved", {
        // SAFETY: `biquad_process_interleaved` needs `x`, `y` valid for `n_frames·channels`
        // elements, this function's `# Safety` contract; it checks overflow, NULL, alignment and
        // overlap itself.
        unsafe { biquad_process_interleaved::<f32>(h, x, y, n_frames) }
    })
}

/// `double` version of `sk_biquad_f32_process_interleaved`.
///
/// Real-time safe: after creation and sk_biquad_reserve, for blocks of up to max_block frames.
///
/// # Safety
/// `x` readable and `y` writable for `n_frames·channels` elements.
#[no_mangle]
pub unsafe extern "C" fn sk_biquad_f64_process_interleaved(
    h: *mut SkBiquad,
    x: *const f64,
    y: *mut f64,
    n_frames: usize,
) -> i32 {
    ffi_boundary!("sk_biquad_f64_process_interleaved", {
        // SAFETY: `biquad_process_interleaved` needs `x`, `y` valid for `n_frames·channels`
        // elements, this function's `# Safety` contract; it checks overflow, NULL, alignment and
        // overlap itself.
        unsafe { biquad_process_interleaved::<f64>(h, x, y, n_frames) }
    })
}

/// Copies the state of a `float` cascade into `zi`, in scipy's `zi` layout
/// `(n_sections, channels, 2)` (`zi[(s·channels + c)·2 + k]`): the values `scipy.signal.sosfilt`
/// returns as `zf` for the same input. `len` must be `n_sections·channels·2`
/// (else `SK_ERR_LENGTH`). Returns also `SK_ERR_INVALID_HANDLE`, `SK_ERR_NULL_POINTER`,
/// `SK_ERR_MISALIGNED`; on error `zi` is untouched.
///
/// Real-time safe: after creation and sk_biquad_reserve, for blocks of up to max_block frames.
///
/// # Safety
/// `zi` writable for `len` floats.
#[no_mangle]
pub unsafe extern "C" fn sk_biquad_f32_get_state(
    h: *mut SkBiquad,
    zi: *mut f32,
    len: usize,
) -> i32 {
    ffi_boundary!("sk_biquad_f32_get_state", {
        // SAFETY: `handle_get_state` needs `zi` writable for `len` elements, this function's `#
        // Safety` contract; it checks `len` against the state and `zi` with `Buf::check`; `h` is a
        // registry key.
        unsafe { handle_get_state::<f32, SosFilter<f32>>(h, zi, len) }
    })
}

/// `double` version of `sk_biquad_f32_get_state`.
///
/// Real-time safe: after creation and sk_biquad_reserve, for blocks of up to max_block frames.
///
/// # Safety
/// `zi` writable for `len` doubles.
#[no_mangle]
pub unsafe extern "C" fn sk_biquad_f64_get_state(
    h: *mut SkBiquad,
    zi: *mut f64,
    len: usize,
) -> i32 {
    ffi_boundary!("sk_biquad_f64_get_state", {
        // SAFETY: `handle_get_state` needs `zi` writable for `len` elements, this function's `#
        // Safety` contract; it checks `len` against the state and `zi` with `Buf::check`; `h` is a
        // registry key.
        unsafe { handle_get_state::<f64, SosFilter<f64>>(h, zi, len) }
    })
}

/// Loads the state of a `float` cascade from `zi` in scipy's layout `(n_sections, channels, 2)`,
/// e.g. `sosfilt_zi(sos) * x[0]` for one channel. `len` must be `n_sections·channels·2`
/// (`SK_ERR_LENGTH`); a NaN or infinite value is `SK_ERR_NON_FINITE` and the state is unchanged.
/// Returns `SK_OK`, `SK_ERR_INVALID_HANDLE` (NULL/freed/not a float biquad), `SK_ERR_LENGTH`,
/// `SK_ERR_NON_FINITE`, `SK_ERR_NULL_POINTER`, `SK_ERR_MISALIGNED` (`zi`); on error the state is
/// unchanged.
///
/// Real-time safe: after creation and sk_biquad_reserve, for blocks of up to max_block frames.
///
/// # Safety
/// `zi` readable for `len` floats.
#[no_mangle]
pub unsafe extern "C" fn sk_biquad_f32_set_state(
    h: *mut SkBiquad,
    zi: *const f32,
    len: usize,
) -> i32 {
    ffi_boundary!("sk_biquad_f32_set_state", {
        // SAFETY: `handle_set_state` needs `zi` readable for `len` elements, this function's `#
        // Safety` contract; it checks `len` against the state and `zi` with `Buf::check`; `h` is a
        // registry key.
        unsafe { handle_set_state::<f32, SosFilter<f32>>(h, zi, len) }
    })
}

/// `double` version of `sk_biquad_f32_set_state`.
///
/// Real-time safe: after creation and sk_biquad_reserve, for blocks of up to max_block frames.
///
/// # Safety
/// `zi` readable for `len` doubles.
#[no_mangle]
pub unsafe extern "C" fn sk_biquad_f64_set_state(
    h: *mut SkBiquad,
    zi: *const f64,
    len: usize,
) -> i32 {
    ffi_boundary!("sk_biquad_f64_set_state", {
        // SAFETY: `handle_set_state` needs `zi` readable for `len` elements, this function's `#
        // Safety` contract; it checks `len` against the state and `zi` with `Buf::check`; `h` is a
        // registry key.
        unsafe { handle_set_state::<f64, SosFilter<f64>>(h, zi, len) }
    })
}

/// One-shot `sosfilt` through the C arguments.
///
/// # Safety
/// `sos_p` readable for `6·n_sections` doubles; `x` readable and `y` writable over their planar
/// extents; `zi` NULL or readable and `zf` NULL or writable for `2·n_sections·channels`
/// elements; all for the duration of the call. NULL, alignment, extents and overlap are checked
/// here.
#[allow(clippy::too_many_arguments)]
unsafe fn sosfilt_ffi<T: FilterElem>(
    sos_p: *const f64,
    x: *const T,
    x_stride: isize,
    zi: *const T,
    channels: usize,
    y: *mut T,
    y_stride: isize,
    zf: *mut T,
    n_sections: usize,
    n: usize,
) -> SkResult<()> {
    if n_sections == 0 {
        return Err(SkError::Length("n_sections is 0".into()));
    }
    if channels == 0 {
        return Err(SkError::Length("channels is 0".into()));
    }
    let sos_len = n_sections
        .checked_mul(6)
        .ok_or_else(|| SkError::Length("n_sections is too large".into()))?;
    let state_len = n_sections
        .checked_mul(channels)
        .and_then(|v| v.checked_mul(2))
        .ok_or_else(|| SkError::Length("n_sections × channels is too large".into()))?;
    let sb = Buf::new("sos", sos_p, sos_len);
    sb.check()?;
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
    alias(&zib, &yb, false)?;
    alias(&xb, &zfb, false)?;
    alias(&yb, &zfb, false)?;
    // zf may be exactly zi (zi is copied before anything is written); partial overlap is not.
    alias(&zib, &zfb, true)?;
    alias(&sb, &yb, false)?;
    alias(&sb, &zfb, false)?;
    // SAFETY: `sb`, `zib`, `zfb` passed `check()` above (`zi`, `zf` with length 0 when NULL),
    // `io` checks `x`, `y`; the `alias` calls proved `y` and `zf` disjoint from `sos`, the other
    // input and each other, except `zf == zi` exactly (copied by `try_copy` before anything is
    // written) and `y == x` exactly (in place via `io`). The extents are readable / writable per
    // the caller's `# Safety` obligation; no slice outlives the block.
    unsafe {
        let (src, out) = io(xb, yb)?;
        let sos = sb.slice();
        let zi_vals = match zi.is_null() {
            true => None,
            false => Some(try_copy(zib.slice(), "a copy of zi")?),
        };
        if let Some(z) = &zi_vals {
            if let Some(i) = z.iter().position(|v| !v.is_finite()) {
                return Err(SkError::NonFinite(format!(
                    "zi[{i}] = {:?} is not finite",
                    z[i]
                )));
            }
        }
        let zf_out = (!zf.is_null()).then(|| zfb.slice_mut());
        sos::sosfilt(
            current(),
            sos,
            channels,
            zi_vals.as_deref(),
            src,
            xl,
            out,
            yl,
            n,
            zf_out,
        )
    }
}

/// One-shot `scipy.signal.sosfilt(sos, x, axis=-1, zi=zi)` on planar `double` data of
/// `channels` channels (`x[c·x_stride + t]`, `t < n`), without a handle.
///
/// - `sos`: as `sk_biquad_f64_new` (same refusals: `SK_ERR_BAD_ARGUMENT`).
/// - `zi`: initial state in scipy's layout `(n_sections, channels, 2)`, or NULL for zeros.
/// - `zf`: receives the final state in the same layout, or NULL. `zf` may be exactly `zi`.
/// - `y` may be exactly `x` (equal strides). Other overlaps: `SK_ERR_OVERLAP`.
/// - Status codes as `sk_biquad_f64_process`, plus `SK_ERR_LENGTH` for `n_sections == 0` or
///   `channels == 0`, `SK_ERR_NON_FINITE` for a non-finite `zi`, `SK_ERR_ALLOCATION` (out of
///   memory for the sections or the state). On error nothing is written.
///
/// Thread-safe (stateless).
///
/// Real-time safe: no (allocates the sections and the state; many channels of long inputs are split over the worker threads).
///
/// # Safety
/// Every pointer valid for its extent.
#[no_mangle]
pub unsafe extern "C" fn sk_sosfilt_f64(
    sos: *const f64,
    x: *const f64,
    x_stride: isize,
    zi: *const f64,
    channels: usize,
    y: *mut f64,
    y_stride: isize,
    zf: *mut f64,
    n_sections: usize,
    n: usize,
) -> i32 {
    ffi_boundary!("sk_sosfilt_f64", {
        // SAFETY: this function's `# Safety` contract is `sosfilt_ffi`'s (`sos`, `x`, `zi`
        // readable, `y`, `zf` writable for their extents); NULL, alignment, extents and overlap are
        // checked inside.
        unsafe {
            sosfilt_ffi::<f64>(
                sos, x, x_stride, zi, channels, y, y_stride, zf, n_sections, n,
            )
        }
    })
}

/// `float` version of `sk_sosfilt_f64` (coefficients still double, rounded after
/// normalisation; `zi`, `zf` are floats).
///
/// Real-time safe: no (allocates the sections and the state; many channels of long inputs are split over the worker threads).
///
/// # Safety
/// Every pointer valid for its extent.
#[no_mangle]
pub unsafe extern "C" fn sk_sosfilt_f32(
    sos: *const f64,
    x: *const f32,
    x_stride: isize,
    zi: *const f32,
    channels: usize,
    y: *mut f32,
    y_stride: isize,
    zf: *mut f32,
    n_sections: usize,
    n: usize,
) -> i32 {
    ffi_boundary!("sk_sosfilt_f32", {
        // SAFETY: this function's `# Safety` contract is `sosfilt_ffi`'s (`sos`, `x`, `zi`
        // readable, `y`, `zf` writable for their extents); NULL, alignment, extents and overlap are
        // checked inside.
        unsafe {
            sosfilt_ffi::<f32>(
                sos, x, x_stride, zi, channels, y, y_stride, zf, n_sections, n,
            )
        }
    })
}

// ---------------------------------------------------------------------------------------------
// FIR

/// Creates an FIR filter and stores its handle in `*out`.
///
/// # Safety
/// `taps` readable for `n_taps` elements; `out` NULL, misaligned (both rejected here) or
/// writable for one pointer.
unsafe fn fir_new<T: FilterElem>(
    taps: *const T,
    out: *mut *mut SkFir,
    n_taps: usize,
) -> SkResult<()> {
    check_out_scalar("out", out)?;
    let b = Buf::new("taps", taps, n_taps);
    b.check()?;
    // SAFETY: `b.check()` just passed for `n_taps` elements; readable is the caller's `# Safety`
    // obligation; `FirFilter::new` copies the taps.
    let f = FirFilter::<T>::new(unsafe { b.slice() })?;
    // SAFETY: validated.
    unsafe { handle::publish::<T::Fir>(f, out) }
}

/// `*_process` of an FIR handle.
///
/// # Safety
/// `x` readable and `y` writable for `n` elements for the duration of the call; NULL,
/// alignment and overlap are checked here. `h` is only a registry key.
unsafe fn fir_process<T: FilterElem>(
    h: *mut SkFir,
    x: *const T,
    y: *mut T,
    n: usize,
) -> SkResult<()> {
    with_fir::<T, _>(h, |f| {
        // SAFETY: caller guarantees n elements.
        let (src, out) = unsafe { io(Buf::new("x", x, n), Buf::out("y", y, n))? };
        match src {
            Src::Dst => f.process(current(), None, out),
            Src::Slice(s) => f.process(current(), Some(s), out),
        }
    })
}

/// `*_get_state` of an FIR handle.
///
/// # Safety
/// `hist` writable for `len` elements for the duration of the call (NULL, alignment and `len`
/// are checked here).
unsafe fn fir_get_state<T: FilterElem>(h: *mut SkFir, hist: *mut T, len: usize) -> SkResult<()> {
    with_fir::<T, _>(h, |f| {
        if len != f.n_taps() - 1 {
            return Err(SkError::Length(format!(
                "len = {len} but the state holds n_taps − 1 = {} samples",
                f.n_taps() - 1
            )));
        }
        let b = Buf::out("state", hist, len);
        b.check()?;
        // SAFETY: `b.check()` just passed for `len` = `n_taps − 1` elements; writable is the
        // caller's `# Safety` obligation; the history is the filter's own memory, not `hist`.
        unsafe { b.slice_mut() }.copy_from_slice(f.history());
        Ok(())
    })
}

/// `*_set_state` of an FIR handle.
///
/// # Safety
/// `hist` readable for `len` elements for the duration of the call (NULL, alignment and `len`
/// are checked here).
unsafe fn fir_set_state<T: FilterElem>(h: *mut SkFir, hist: *const T, len: usize) -> SkResult<()> {
    with_fir::<T, _>(h, |f| {
        if len != f.n_taps() - 1 {
            return Err(SkError::Length(format!(
                "len = {len} but the state holds n_taps − 1 = {} samples",
                f.n_taps() - 1
            )));
        }
        let b = Buf::new("state", hist, len);
        b.check()?;
        // SAFETY: `b.check()` just passed for `len` = `n_taps − 1` elements; readable is the
        // caller's `# Safety` obligation; only read, then copied into the filter.
        let s = unsafe { b.slice() };
        if let Some(i) = s.iter().position(|v| !v.is_finite()) {
            return Err(SkError::NonFinite(format!(
                "state[{i}] = {:?} is not finite",
                s[i]
            )));
        }
        f.set_history(s);
        Ok(())
    })
}

/// Creates a streaming `float` FIR filter `y[t] = Σ_k taps[k]·x[t−k]` (what
/// `scipy.signal.lfilter(taps, 1, x)` computes), with zero initial history, and stores its
/// handle in `*out`.
///
/// Filters of up to 160 taps run in direct form (SIMD over outputs; chunked calls bit-identical
/// to one call); longer ones use FFT overlap-save (results equal to direct form up to
/// rounding, for any chunk sizes; NaN and infinity reach exactly the outputs they reach in
/// direct form, and finite input never overflows to NaN: blocks holding such values run in
/// direct form). `n_taps == 0` or a `taps` array beyond the address space is `SK_ERR_LENGTH`;
/// a non-finite tap is `SK_ERR_BAD_ARGUMENT`; `out` or `taps` NULL is `SK_ERR_NULL_POINTER`;
/// either misaligned is `SK_ERR_MISALIGNED`; no memory for the taps, the
/// history or the FFT form's plan and buffers is `SK_ERR_ALLOCATION`. On error `*out` is
/// untouched.
///
/// Real-time safe: no (allocates).
///
/// # Safety
/// `taps` readable for `n_taps` floats; `out` writable.
#[no_mangle]
pub unsafe extern "C" fn sk_fir_f32_new(
    taps: *const f32,
    out: *mut *mut SkFir,
    n_taps: usize,
) -> i32 {
    ffi_boundary!("sk_fir_f32_new", {
        // SAFETY: this function's `# Safety` contract is `fir_new`'s (`taps` readable for `n_taps`,
        // `out` writable); it checks NULL, alignment and sizes itself.
        unsafe { fir_new::<f32>(taps, out, n_taps) }
    })
}

/// `double` version of `sk_fir_f32_new`.
///
/// Real-time safe: no (allocates).
///
/// # Safety
/// `taps` readable for `n_taps` doubles; `out` writable.
#[no_mangle]
pub unsafe extern "C" fn sk_fir_f64_new(
    taps: *const f64,
    out: *mut *mut SkFir,
    n_taps: usize,
) -> i32 {
    ffi_boundary!("sk_fir_f64_new", {
        // SAFETY: this function's `# Safety` contract is `fir_new`'s (`taps` readable for `n_taps`,
        // `out` writable); it checks NULL, alignment and sizes itself.
        unsafe { fir_new::<f64>(taps, out, n_taps) }
    })
}

/// Frees an FIR handle of either precision. NULL is accepted. Not a live FIR handle:
/// `SK_ERR_INVALID_HANDLE` (see `sk_biquad_free`).
///
/// Real-time safe: no (allocates).
///
/// # Safety
/// None beyond passing a pointer value; it is never dereferenced.
#[no_mangle]
pub unsafe extern "C" fn sk_fir_free(h: *mut SkFir) -> i32 {
    ffi_boundary!("sk_fir_free", {
        handle::free_either::<FirF32, FirF64>("h", h, ANY_FIR)
    })
}

/// Zeroes the history of an FIR handle of either precision. Returns `SK_OK`, or
/// `SK_ERR_INVALID_HANDLE` for a NULL, freed or non-FIR handle.
///
/// Real-time safe: after creation and sk_fir_reserve, for blocks of up to max_block frames.
///
/// # Safety
/// None beyond passing a pointer value; it is never dereferenced.
#[no_mangle]
pub unsafe extern "C" fn sk_fir_reset(h: *mut SkFir) -> i32 {
    ffi_boundary!("sk_fir_reset", {
        handle::with_either::<FirF32, FirF64, _>("h", h, ANY_FIR, |f| {
            match f {
                Either::A(f) => f.reset(),
                Either::B(f) => f.reset(),
            }
            Ok(())
        })
    })
}

/// Reports the number of taps of an FIR handle and whether it uses the FFT form (1) or the
/// direct form (0). Returns `SK_OK`, `SK_ERR_INVALID_HANDLE` (NULL/freed/not an FIR handle),
/// `SK_ERR_NULL_POINTER` (an out-pointer NULL), `SK_ERR_MISALIGNED` (an out-pointer not aligned
/// for its type); on error nothing is written.
///
/// Real-time safe: after creation and sk_fir_reserve, for blocks of up to max_block frames.
///
/// # Safety
/// `n_taps` and `uses_fft` writable.
#[no_mangle]
pub unsafe extern "C" fn sk_fir_info(h: *mut SkFir, n_taps: *mut usize, uses_fft: *mut i32) -> i32 {
    ffi_boundary!("sk_fir_info", {
        handle::with_either::<FirF32, FirF64, _>("h", h, ANY_FIR, |f| {
            let (k, fft) = match f {
                Either::A(f) => (f.n_taps(), f.uses_fft()),
                Either::B(f) => (f.n_taps(), f.uses_fft()),
            };
            check_out_scalar("n_taps", n_taps)?;
            check_out_scalar("uses_fft", uses_fft)?;
            // SAFETY: `check_out_scalar` just established `n_taps` and `uses_fft` non-NULL and
            // aligned; writable is this function's `# Safety` contract.
            unsafe {
                *n_taps = k;
                *uses_fft = i32::from(fft);
            }
            Ok(())
        })
    })
}

/// Filters `n` `float` samples, carrying the last `n_taps − 1` inputs to the next call.
/// `y` may be exactly `x` (in place); other overlap is `SK_ERR_OVERLAP`. Returns `SK_OK`,
/// `SK_ERR_INVALID_HANDLE`, `SK_ERR_NULL_POINTER`, `SK_ERR_MISALIGNED`, `SK_ERR_LENGTH`,
/// `SK_ERR_OVERLAP`, `SK_ERR_ALLOCATION`; on error `y` and the history are unchanged.
/// Thread safety as `sk_biquad_f32_process`.
///
/// Real-time safe: after creation and sk_fir_reserve, for blocks of up to max_block frames.
///
/// # Safety
/// `x` readable and `y` writable for `n` floats.
#[no_mangle]
pub unsafe extern "C" fn sk_fir_f32_process(
    h: *mut SkFir,
    x: *const f32,
    y: *mut f32,
    n: usize,
) -> i32 {
    ffi_boundary!("sk_fir_f32_process", {
        // SAFETY: `fir_process` needs `x` readable and `y` writable for `n` elements, this
        // function's `# Safety` contract; it checks them with `io`; `h` is only a registry key.
        unsafe { fir_process::<f32>(h, x, y, n) }
    })
}

/// `double` version of `sk_fir_f32_process`.
///
/// Real-time safe: after creation and sk_fir_reserve, for blocks of up to max_block frames.
///
/// # Safety
/// `x` readable and `y` writable for `n` doubles.
#[no_mangle]
pub unsafe extern "C" fn sk_fir_f64_process(
    h: *mut SkFir,
    x: *const f64,
    y: *mut f64,
    n: usize,
) -> i32 {
    ffi_boundary!("sk_fir_f64_process", {
        // SAFETY: `fir_process` needs `x` readable and `y` writable for `n` elements, this
        // function's `# Safety` contract; it checks them with `io`; `h` is only a registry key.
        unsafe { fir_process::<f64>(h, x, y, n) }
    })
}

/// Copies the FIR history (the last `n_taps − 1` inputs, oldest first) into `state`;
/// `len` must be `n_taps − 1` (`SK_ERR_LENGTH`). Returns `SK_OK`, `SK_ERR_INVALID_HANDLE`
/// (NULL/freed/not a float FIR), `SK_ERR_LENGTH`, `SK_ERR_NULL_POINTER`, `SK_ERR_MISALIGNED`
/// (`state`); on error nothing is written.
///
/// Real-time safe: after creation and sk_fir_reserve, for blocks of up to max_block frames.
///
/// # Safety
/// `state` writable for `len` floats.
#[no_mangle]
pub unsafe extern "C" fn sk_fir_f32_get_state(h: *mut SkFir, state: *mut f32, len: usize) -> i32 {
    ffi_boundary!("sk_fir_f32_get_state", {
        // SAFETY: `fir_get_state` needs `state` writable for `len` elements, this function's `#
        // Safety` contract; it checks `len` and the buffer itself; `h` is only a registry key.
        unsafe { fir_get_state::<f32>(h, state, len) }
    })
}

/// `double` version of `sk_fir_f32_get_state`.
///
/// Real-time safe: after creation and sk_fir_reserve, for blocks of up to max_block frames.
///
/// # Safety
/// `state` writable for `len` doubles.
#[no_mangle]
pub unsafe extern "C" fn sk_fir_f64_get_state(h: *mut SkFir, state: *mut f64, len: usize) -> i32 {
    ffi_boundary!("sk_fir_f64_get_state", {
        // SAFETY: `fir_get_state` needs `state` writable for `len` elements, this function's `#
        // Safety` contract; it checks `len` and the buffer itself; `h` is only a registry key.
        unsafe { fir_get_state::<f64>(h, state, len) }
    })
}

/// Loads the FIR history (the last `n_taps − 1` inputs, oldest first); `len` must be
/// `n_taps − 1` (`SK_ERR_LENGTH`); non-finite values are `SK_ERR_NON_FINITE`. Returns `SK_OK`,
/// `SK_ERR_INVALID_HANDLE` (NULL/freed/not a float FIR), `SK_ERR_LENGTH`, `SK_ERR_NON_FINITE`,
/// `SK_ERR_NULL_POINTER`, `SK_ERR_MISALIGNED` (`state`); on error the history is unchanged.
///
/// Real-time safe: after creation and sk_fir_reserve, for blocks of up to max_block frames.
///
/// # Safety
/// `state` readable for `len` floats.
#[no_mangle]
pub unsafe extern "C" fn sk_fir_f32_set_state(h: *mut SkFir, state: *const f32, len: usize) -> i32 {
    ffi_boundary!("sk_fir_f32_set_state", {
        // SAFETY: `fir_set_state` needs `state` readable for `len` elements, this function's `#
        // Safety` contract; it checks `len` and the buffer itself; `h` is only a registry key.
        unsafe { fir_set_state::<f32>(h, state, len) }
    })
}

/// `double` version of `sk_fir_f32_set_state`.
///
/// Real-time safe: after creation and sk_fir_reserve, for blocks of up to max_block frames.
///
/// # Safety
/// `state` readable for `len` doubles.
#[no_mangle]
pub unsafe extern "C" fn sk_fir_f64_set_state(h: *mut SkFir, state: *const f64, len: usize) -> i32 {
    ffi_boundary!("sk_fir_f64_set_state", {
        // SAFETY: `fir_set_state` needs `state` readable for `len` elements, this function's `#
        // Safety` contract; it checks `len` and the buffer itself; `h` is only a registry key.
        unsafe { fir_set_state::<f64>(h, state, len) }
    })
}

/// Makes a biquad handle of either precision real-time safe: every later call of the handle
/// stays on the calling thread (a cascade of 16 or more channels with a planar output and a
/// long block is otherwise split over the library's worker threads). `sk_biquad_*_process*`
/// allocate no memory and make no system call at any block length, with or without this call;
/// `max_block` is accepted for symmetry with the other handle kinds' `_reserve` calls. Results
/// never depend on this call; the setting cannot be undone.
///
/// Returns `SK_OK` or `SK_ERR_INVALID_HANDLE`.
///
/// Real-time safe: yes (it allocates nothing), but meant to be called once after creation.
///
/// # Safety
/// None beyond passing a pointer value.
#[no_mangle]
pub unsafe extern "C" fn sk_biquad_reserve(h: *mut SkBiquad, max_block: usize) -> i32 {
    ffi_boundary!("sk_biquad_reserve", {
        let _ = max_block;
        handle::with_either::<BiquadF32, BiquadF64, _>("h", h, ANY_BIQUAD, |f| {
            match f {
                Either::A(f) => f.set_serial(),
                Either::B(f) => f.set_serial(),
            }
            Ok(())
        })
    })
}

/// Makes an FIR handle of either precision real-time safe for blocks of up to `max_block`
/// samples: reserves its working buffer (history plus block), so that
/// `sk_fir_*_process` with `n <= max_block` allocates no memory and makes no system call (both
/// forms run on the calling thread always). Larger blocks still work and give the same results;
/// they may allocate. Results never depend on this call. May be called again.
///
/// Returns `SK_OK`, `SK_ERR_INVALID_HANDLE`, `SK_ERR_ALLOCATION` (the handle then works as
/// before, without the guarantee).
///
/// Real-time safe: no (it allocates; call it after creation, before the audio thread starts).
///
/// # Safety
/// None beyond passing a pointer value.
#[no_mangle]
pub unsafe extern "C" fn sk_fir_reserve(h: *mut SkFir, max_block: usize) -> i32 {
    ffi_boundary!("sk_fir_reserve", {
        handle::with_either::<FirF32, FirF64, _>("h", h, ANY_FIR, |f| match f {
            Either::A(f) => f.reserve(max_block),
            Either::B(f) => f.reserve(max_block),
        })
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::error::*;
    use std::ptr::{null, null_mut};

    #[test]
    fn biquad_handle_lifecycle() {
        let sos = [0.5, 0.25, 0.0, 1.0, -0.5, 0.1];
        let mut h: *mut SkBiquad = null_mut();
        assert_eq!(
            // SAFETY: `sos` holds 6 doubles (one section) and `h` is a writable handle slot.
            unsafe { sk_biquad_f64_new(sos.as_ptr(), 2, &mut h, 1) },
            SK_OK
        );
        let x = [1.0, 0.0, 0.0, 2.0, 0.0, 0.0];
        let mut y = [9.0; 6];
        assert_eq!(
            // SAFETY: `x`, `y` hold 6 doubles, the extent (2 − 1)·3 + 3 of 2 channels of 3 frames.
            unsafe { sk_biquad_f64_process(h, x.as_ptr(), 3, y.as_mut_ptr(), 3, 3) },
            SK_OK
        );
        assert_eq!(y[0], 0.5);
        assert_eq!(y[3], 1.0);
        let mut y32 = [0f32; 6];
        let x32 = [0f32; 6];
        assert_eq!(
            // SAFETY: `x32`, `y32` hold 6 floats, the extent of 2 channels of 3 frames (refused
            // anyway: the handle is a double cascade).
            unsafe { sk_biquad_f32_process(h, x32.as_ptr(), 3, y32.as_mut_ptr(), 3, 3) },
            SK_ERR_INVALID_HANDLE
        );
        assert_eq!(
            // SAFETY: handles are registry keys, never dereferenced; any value may be passed.
            unsafe { sk_fir_free(h as *mut SkFir) },
            SK_ERR_INVALID_HANDLE
        );
        // SAFETY: handles are registry keys, never dereferenced; freed or NULL ones are refused.
        assert_eq!(unsafe { sk_biquad_free(h) }, SK_OK);
        // SAFETY: handles are registry keys, never dereferenced; freed or NULL ones are refused.
        assert_eq!(unsafe { sk_biquad_free(h) }, SK_ERR_INVALID_HANDLE);
        // SAFETY: handles are registry keys, never dereferenced; a freed one is refused.
        assert_eq!(unsafe { sk_biquad_reset(h) }, SK_ERR_INVALID_HANDLE);
        // SAFETY: NULL is accepted as a no-op.
        assert_eq!(unsafe { sk_biquad_free(null_mut()) }, SK_OK);
        assert_eq!(
            // SAFETY: a NULL `sos` is refused before any read; `h` is a writable handle slot.
            unsafe { sk_biquad_f64_new(null(), 1, &mut h, 1) },
            SK_ERR_NULL_POINTER
        );
    }
}
