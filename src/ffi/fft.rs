//! FFT plans: `SkFftPlan` handles, real and complex transforms, single and batched.
//!
//! Conventions (every function here):
//! - Complex data is interleaved re/im (`re0, im0, re1, im1, …`) in a `float *` / `double *`: the
//!   memory of numpy `complex64`/`complex128` arrays and torch complex tensors.
//! - `norm` is `SK_NORM_BACKWARD` (numpy's default: forward unscaled, inverse × 1/n),
//!   `SK_NORM_ORTHO` (both × 1/√n) or `SK_NORM_FORWARD` (forward × 1/n, inverse unscaled).
//! - A plan is made for one kind (`SK_FFT_REAL` or `SK_FFT_COMPLEX`), one length `n ≥ 1` and one
//!   element type; `n` is passed again to every call and must equal the plan's.
//! - Thread safety: a plan is immutable; any number of threads may execute one plan at the same
//!   time on different buffers. Scratch memory is per thread (a thread-local workspace reused by
//!   later calls on that thread), never stored in the plan.

use super::guard::{alias, check_out_scalar, ffi_boundary, Alias, Buf};
use super::handle::{self, handle_kind, Either, Kind};
use super::spec::SpecFloat;
use crate::error::{SkError, SkResult};
use crate::kernels::spectral::batch;
use crate::kernels::spectral::fft::{FftKind, FftPlan, Norm};
use crate::kernels::spectral::Complex;

/// Plan kind: real transforms (`sk_rfft_*`, `sk_irfft_*`), n reals ↔ n/2+1 complex bins.
pub const SK_FFT_REAL: i32 = 0;
/// Plan kind: complex transforms (`sk_fft_*`, `sk_ifft_*`), n complex ↔ n complex.
pub const SK_FFT_COMPLEX: i32 = 1;
/// numpy `norm="backward"`: forward unscaled, inverse scaled by 1/n.
pub const SK_NORM_BACKWARD: i32 = 0;
/// numpy `norm="ortho"`: both directions scaled by 1/sqrt(n).
pub const SK_NORM_ORTHO: i32 = 1;
/// numpy `norm="forward"`: forward scaled by 1/n, inverse unscaled.
pub const SK_NORM_FORWARD: i32 = 2;

/// An FFT plan (opaque; create with `sk_fft_plan_f32_new`/`sk_fft_plan_f64_new`, free with
/// `sk_fft_plan_free`).
pub struct SkFftPlan {
    _opaque: [u8; 0],
}

handle_kind!(
    /// A `float` FFT plan behind an `SkFftPlan` (immutable: any number of calls at once).
    pub(crate) FftF32: FftPlan<f32> as SkFftPlan, "a float FFT plan", shared, defer
);
handle_kind!(
    /// A `double` FFT plan behind an `SkFftPlan`.
    pub(crate) FftF64: FftPlan<f64> as SkFftPlan, "a double FFT plan", shared, defer
);

/// What the either-precision calls of an FFT plan accept.
const ANY_PLAN: &str = "an FFT plan";

/// Element types with their FFT plan kinds.
pub(crate) trait FftElem: SpecFloat {
    type Plan: Kind<Object = FftPlan<Self>, C = SkFftPlan>;
}

impl FftElem for f32 {
    type Plan = FftF32;
}

impl FftElem for f64 {
    type Plan = FftF64;
}

pub(crate) fn parse_norm(norm: i32) -> SkResult<Norm> {
    match norm {
        SK_NORM_BACKWARD => Ok(Norm::Backward),
        SK_NORM_ORTHO => Ok(Norm::Ortho),
        SK_NORM_FORWARD => Ok(Norm::Forward),
        _ => Err(SkError::BadArgument(format!(
            "norm = {norm} is not SK_NORM_BACKWARD (0), SK_NORM_ORTHO (1) or SK_NORM_FORWARD (2)"
        ))),
    }
}

fn parse_kind(kind: i32) -> SkResult<FftKind> {
    match kind {
        SK_FFT_REAL => Ok(FftKind::Real),
        SK_FFT_COMPLEX => Ok(FftKind::Complex),
        _ => Err(SkError::BadArgument(format!(
            "kind = {kind} is not SK_FFT_REAL (0) or SK_FFT_COMPLEX (1)"
        ))),
    }
}

unsafe fn plan_new<T: FftElem>(kind: i32, n: usize, plan: *mut *mut SkFftPlan) -> SkResult<()> {
    check_out_scalar("plan", plan)?;
    let kind = parse_kind(kind)?;
    let p = FftPlan::<T>::new(kind, n)?;
    // SAFETY: checked above.
    unsafe { handle::publish::<T::Plan>(p, plan) }
}

/// Creates a float FFT plan of `kind` (`SK_FFT_REAL` or `SK_FFT_COMPLEX`) for length `n ≥ 1`
/// (any n: primes, 1 and 2 included) and stores it in `*plan`.
///
/// Returns `SK_OK`; `SK_ERR_LENGTH` (n = 0 or n > 2^28); `SK_ERR_BAD_ARGUMENT` (unknown kind);
/// `SK_ERR_NULL_POINTER`/`SK_ERR_MISALIGNED` (`plan`); `SK_ERR_ALLOCATION` (out of memory: a
/// plan needs about 4·n complex values free while it is made). On error `*plan` is untouched.
/// Free with `sk_fft_plan_free`. Thread-safe.
///
/// Real-time safe: no (allocates).
///
/// # Safety
/// `plan` must be writable.
#[no_mangle]
pub unsafe extern "C" fn sk_fft_plan_f32_new(
    kind: i32,
    n: usize,
    plan: *mut *mut SkFftPlan,
) -> i32 {
    ffi_boundary!("sk_fft_plan_f32_new", {
        // SAFETY: `plan_new` needs `plan` writable when non-NULL and aligned, this function's
        // `# Safety` contract; it checks NULL and alignment itself (`check_out_scalar`).
        unsafe { plan_new::<f32>(kind, n, plan) }
    })
}

/// Creates a double FFT plan. Rules as `sk_fft_plan_f32_new`.
///
/// Real-time safe: no (allocates).
///
/// # Safety
/// `plan` must be writable.
#[no_mangle]
pub unsafe extern "C" fn sk_fft_plan_f64_new(
    kind: i32,
    n: usize,
    plan: *mut *mut SkFftPlan,
) -> i32 {
    ffi_boundary!("sk_fft_plan_f64_new", {
        // SAFETY: `plan_new` needs `plan` writable when non-NULL and aligned, this function's
        // `# Safety` contract; it checks NULL and alignment itself (`check_out_scalar`).
        unsafe { plan_new::<f64>(kind, n, plan) }
    })
}

/// Frees an FFT plan (float or double). `NULL` is a no-op returning `SK_OK`.
///
/// A freed plan, a double free, a pointer not made by `sk_fft_plan_*_new` or a handle of another
/// kind (e.g. an STFT stream) returns `SK_ERR_INVALID_HANDLE` and frees nothing; handles are
/// looked up in a registry and never dereferenced, so this is always detected. A call running
/// with the plan on another thread finishes normally. Thread-safe.
///
/// Real-time safe: no (allocates).
///
/// # Safety
/// None beyond passing any pointer value.
#[no_mangle]
pub unsafe extern "C" fn sk_fft_plan_free(plan: *mut SkFftPlan) -> i32 {
    ffi_boundary!("sk_fft_plan_free", {
        handle::free_either::<FftF32, FftF64>("plan", plan, ANY_PLAN)
    })
}

/// Describes a plan: `*kind` (`SK_FFT_REAL`/`SK_FFT_COMPLEX`), `*n` (its length) and
/// `*is_double` (1 for a double plan, 0 for float).
///
/// Returns `SK_OK`, `SK_ERR_INVALID_HANDLE`, `SK_ERR_NULL_POINTER`, `SK_ERR_MISALIGNED`; on error
/// nothing is written. Thread-safe.
///
/// Real-time safe: yes.
///
/// # Safety
/// `kind`, `n`, `is_double` writable.
#[no_mangle]
pub unsafe extern "C" fn sk_fft_plan_info(
    plan: *const SkFftPlan,
    kind: *mut i32,
    n: *mut usize,
    is_double: *mut i32,
) -> i32 {
    ffi_boundary!("sk_fft_plan_info", {
        check_out_scalar("kind", kind)?;
        check_out_scalar("n", n)?;
        check_out_scalar("is_double", is_double)?;
        let (k, len, dbl) =
            handle::with_either_shared::<FftF32, FftF64, _>("plan", plan, ANY_PLAN, |p| {
                Ok(match p {
                    Either::A(p) => (p.kind(), p.len(), 0),
                    Either::B(p) => (p.kind(), p.len(), 1),
                })
            })?;
        // SAFETY: all three checked above.
        unsafe {
            *kind = if k == FftKind::Real {
                SK_FFT_REAL
            } else {
                SK_FFT_COMPLEX
            };
            *n = len;
            *is_double = dbl;
        }
        Ok(())
    })
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Op {
    Rfft,
    Irfft,
    Fft,
    Ifft,
}

impl Op {
    fn kind(self) -> FftKind {
        match self {
            Op::Rfft | Op::Irfft => FftKind::Real,
            Op::Fft | Op::Ifft => FftKind::Complex,
        }
    }
    /// (input row, output row) lengths in stride units (reals or complex values), and whether
    /// input/output are complex.
    fn rows(self, n: usize) -> ((usize, bool), (usize, bool)) {
        let h = n / 2 + 1;
        match self {
            Op::Rfft => ((n, false), (h, true)),
            Op::Irfft => ((h, true), (n, false)),
            Op::Fft | Op::Ifft => ((n, true), (n, true)),
        }
    }
}

/// Extent in `T` elements of `rows` rows of `row` units, `stride` units apart.
pub(crate) fn extent(
    name: &'static str,
    rows: usize,
    row: usize,
    stride: isize,
    complex: bool,
    min_stride: usize,
) -> SkResult<usize> {
    if stride < 0 || (rows > 1 && (stride as usize) < min_stride) {
        return Err(SkError::BadArgument(format!(
            "{name}_stride = {stride} must be >= {min_stride} (rows must not overlap{})",
            if min_stride == 0 {
                ""
            } else {
                " or run backwards"
            }
        )));
    }
    let units = if rows == 0 {
        Some(0)
    } else {
        (rows - 1)
            .checked_mul(stride as usize)
            .and_then(|v| v.checked_add(row))
    };
    units
        .and_then(|u| u.checked_mul(if complex { 2 } else { 1 }))
        .ok_or_else(|| {
            SkError::Length(format!(
                "{rows} rows of {name} with stride {stride} exceed the address space"
            ))
        })
}

fn as_cplx<T>(s: &[T]) -> &[Complex<T>] {
    assert!(s.len().is_multiple_of(2));
    // SAFETY: `Complex<T>` is `#[repr(C)] { re: T, im: T }`: size 2·size_of::<T>(), alignment of
    // T; the length is even (asserted above), so `len / 2` complex values cover exactly `s`,
    // and the result borrows `s`.
    unsafe { std::slice::from_raw_parts(s.as_ptr() as *const Complex<T>, s.len() / 2) }
}

fn as_cplx_mut<T>(s: &mut [T]) -> &mut [Complex<T>] {
    assert!(s.len().is_multiple_of(2));
    // SAFETY: layout as in `as_cplx` (repr(C) pair of T, even length asserted above); the result
    // reborrows `s` exclusively, so no other view of the memory exists while it lives.
    unsafe { std::slice::from_raw_parts_mut(s.as_mut_ptr() as *mut Complex<T>, s.len() / 2) }
}

/// The plan of element type `T` in `obj` for `op` on `n` points: of the op's kind (real or
/// complex) and made for `n`.
fn plan_for<T: FftElem>(p: &FftPlan<T>, op: Op, n: usize) -> SkResult<&FftPlan<T>> {
    if p.kind() != op.kind() {
        return Err(SkError::InvalidHandle(format!(
            "argument plan is a {} FFT plan; this function needs a {} one (SK_FFT_{})",
            p.kind().name(),
            op.kind().name(),
            op.kind().name().to_ascii_uppercase()
        )));
    }
    if n != p.len() {
        return Err(SkError::BadArgument(format!(
            "n = {n} but the plan was made for n = {}",
            p.len()
        )));
    }
    Ok(p)
}

/// The transforms of `rows` rows (the batched entry points), `x_stride` / `y_stride` apart.
///
/// # Safety
/// `x` readable and `y` writable over their spans `(rows − 1)·stride + row length` (in floats)
/// for the duration of the call; NULL, alignment, spans and overlap are checked here.
#[allow(clippy::too_many_arguments)]
unsafe fn exec<T: FftElem>(
    op: Op,
    plan: *const SkFftPlan,
    x: *const T,
    x_stride: isize,
    norm: i32,
    y: *mut T,
    y_stride: isize,
    rows: usize,
    n: usize,
) -> SkResult<()> {
    let norm = parse_norm(norm)?;
    let obj = handle::shared::<T::Plan>("plan", plan)?;
    let p = plan_for::<T>(&obj, op, n)?;
    let ((irow, icx), (orow, ocx)) = op.rows(n);
    let xl = extent("x", rows, irow, x_stride, icx, 0)?;
    let yl = extent("y", rows, orow, y_stride, ocx, orow)?;
    let xb = Buf::new("x", x, xl);
    let yb = Buf::out("y", y, yl);
    xb.check()?;
    yb.check()?;
    let in_place_ok = matches!(op, Op::Fft | Op::Ifft) && x_stride == y_stride;
    let al = alias(&xb, &yb, in_place_ok)?;
    if rows == 0 {
        return Ok(());
    }
    // SAFETY: `yb.check()` passed for the span `extent` computed (overflow checked); writable is
    // the caller's `# Safety` obligation; `alias` above proved `x` either disjoint or exactly `y`,
    // and in the latter case no slice of `x` is made, so this is the only view of `y`.
    let ys = unsafe { yb.slice_mut() };
    let xs: Option<&[T]> = match al {
        // SAFETY: `xb.check()` passed for its `extent` span, `alias` said it shares no byte
        // with `y`, readable is the caller's obligation; the slice dies with this call.
        Alias::Distinct => Some(unsafe { xb.slice() }),
        Alias::Same => None,
    };
    let (xst, yst) = (x_stride as usize, y_stride as usize);
    // rows split over threads; every thread's scratch is taken before anything is written
    match (op, xs) {
        (Op::Rfft, Some(x)) => batch::rfft_rows(p, x, xst, as_cplx_mut(ys), yst, rows, norm),
        (Op::Irfft, Some(x)) => batch::irfft_rows(p, as_cplx(x), xst, ys, yst, rows, norm),
        (Op::Fft | Op::Ifft, x) => batch::fft_rows(
            p,
            x.map(as_cplx),
            xst,
            as_cplx_mut(ys),
            yst,
            rows,
            op == Op::Ifft,
            norm,
        ),
        (Op::Rfft | Op::Irfft, None) => Err(SkError::Internal(
            "a real transform cannot run in place".into(),
        )),
    }
}

/// One transform (the single-row entry points): the checks of [`exec`] for one row without its
/// stride rules, then the transform on this thread's workspace. A plan's `n` is at most 2^28,
/// so the buffer lengths cannot overflow.
unsafe fn exec_one<T: FftElem>(
    op: Op,
    plan: *const SkFftPlan,
    x: *const T,
    norm: i32,
    y: *mut T,
    n: usize,
) -> SkResult<()> {
    let norm = parse_norm(norm)?;
    let obj = handle::shared::<T::Plan>("plan", plan)?;
    let p = plan_for::<T>(&obj, op, n)?;
    let ((irow, icx), (orow, ocx)) = op.rows(n);
    let xb = Buf::new("x", x, irow << u32::from(icx));
    let yb = Buf::out("y", y, orow << u32::from(ocx));
    xb.check()?;
    yb.check()?;
    let al = alias(&xb, &yb, matches!(op, Op::Fft | Op::Ifft))?;
    // SAFETY: `yb.check()` passed (n ≥ 1, so neither buffer is empty); writable is the caller's
    // `# Safety` obligation; `alias` above proved `x` either disjoint or exactly `y` (complex
    // only), and in the latter case no slice of `x` is made, so this is the only view of `y`.
    let ys = unsafe { yb.slice_mut() };
    let xs: Option<&[T]> = match al {
        // SAFETY: `xb.check()` passed, `alias` said it shares no byte with `y`, readable is the
        // caller's obligation; the slice dies with this call.
        Alias::Distinct => Some(unsafe { xb.slice() }),
        Alias::Same => None,
    };
    match (op, xs) {
        (Op::Rfft, Some(x)) => batch::rfft_one(p, x, as_cplx_mut(ys), norm),
        (Op::Irfft, Some(x)) => batch::irfft_one(p, as_cplx(x), ys, norm),
        (Op::Fft | Op::Ifft, x) => {
            batch::fft_one(p, x.map(as_cplx), as_cplx_mut(ys), op == Op::Ifft, norm)
        }
        (Op::Rfft | Op::Irfft, None) => Err(SkError::Internal(
            "a real transform cannot run in place".into(),
        )),
    }
}

/// Real forward FFT: `x` (n floats) → `y` (n/2+1 complex, i.e. 2·(n/2+1) floats interleaved),
/// `y[k] = Σ_j x[j]·e^{−2πijk/n}` scaled per `norm`: `numpy.fft.rfft(x, norm=...)`.
///
/// Arguments: `plan` a live float `SK_FFT_REAL` plan of length `n`; `x`, `y` 4-byte aligned,
/// non-NULL (n ≥ 1), not overlapping.
/// Returns `SK_OK`; `SK_ERR_INVALID_HANDLE` (NULL/freed/other kind or type of plan);
/// `SK_ERR_BAD_ARGUMENT` (n differs from the plan's, bad norm); `SK_ERR_NULL_POINTER`,
/// `SK_ERR_MISALIGNED`, `SK_ERR_LENGTH`, `SK_ERR_OVERLAP`, `SK_ERR_ALLOCATION` (out of memory for
/// the transform's scratch, taken before anything is written). On error `y` is untouched.
/// Thread-safe; the plan may be shared.
///
/// Real-time safe: after a first call with this plan (or one needing more scratch) on the same thread, which grows that thread's FFT workspace (scratch above 64 MB is freed after every call).
///
/// # Safety
/// `x` readable for n floats, `y` writable for 2·(n/2+1).
#[no_mangle]
pub unsafe extern "C" fn sk_rfft_f32(
    plan: *const SkFftPlan,
    x: *const f32,
    norm: i32,
    y: *mut f32,
    n: usize,
) -> i32 {
    ffi_boundary!("sk_rfft_f32", {
        // SAFETY: this function's `# Safety` contract (`x`, `y` valid for the row lengths above) is
        // `exec_one`'s; the plan is a registry token, NULL, alignment and overlap are checked
        // inside.
        unsafe { exec_one::<f32>(Op::Rfft, plan, x, norm, y, n) }
    })
}

/// Real forward FFT of doubles. Rules as `sk_rfft_f32` (double plan, 8-byte alignment).
///
/// Real-time safe: after a first call with this plan (or one needing more scratch) on the same thread, which grows that thread's FFT workspace (scratch above 64 MB is freed after every call).
///
/// # Safety
/// `x` readable for n doubles, `y` writable for 2·(n/2+1).
#[no_mangle]
pub unsafe extern "C" fn sk_rfft_f64(
    plan: *const SkFftPlan,
    x: *const f64,
    norm: i32,
    y: *mut f64,
    n: usize,
) -> i32 {
    ffi_boundary!("sk_rfft_f64", {
        // SAFETY: this function's `# Safety` contract (`x`, `y` valid for the row lengths above) is
        // `exec_one`'s; the plan is a registry token, NULL, alignment and overlap are checked
        // inside.
        unsafe { exec_one::<f64>(Op::Rfft, plan, x, norm, y, n) }
    })
}

/// Real inverse FFT: `x` (n/2+1 complex, interleaved) → `y` (n floats), as
/// `numpy.fft.irfft(x, n, norm=...)`: the imaginary parts of bin 0 and, for even n, bin n/2 are
/// ignored. Rules as `sk_rfft_f32`.
///
/// Real-time safe: after a first call with this plan (or one needing more scratch) on the same thread, which grows that thread's FFT workspace (scratch above 64 MB is freed after every call).
///
/// # Safety
/// `x` readable for 2·(n/2+1) floats, `y` writable for n.
#[no_mangle]
pub unsafe extern "C" fn sk_irfft_f32(
    plan: *const SkFftPlan,
    x: *const f32,
    norm: i32,
    y: *mut f32,
    n: usize,
) -> i32 {
    ffi_boundary!("sk_irfft_f32", {
        // SAFETY: this function's `# Safety` contract (`x`, `y` valid for the row lengths above) is
        // `exec_one`'s; the plan is a registry token, NULL, alignment and overlap are checked
        // inside.
        unsafe { exec_one::<f32>(Op::Irfft, plan, x, norm, y, n) }
    })
}

/// Real inverse FFT of doubles. Rules as `sk_irfft_f32`.
///
/// Real-time safe: after a first call with this plan (or one needing more scratch) on the same thread, which grows that thread's FFT workspace (scratch above 64 MB is freed after every call).
///
/// # Safety
/// `x` readable for 2·(n/2+1) doubles, `y` writable for n.
#[no_mangle]
pub unsafe extern "C" fn sk_irfft_f64(
    plan: *const SkFftPlan,
    x: *const f64,
    norm: i32,
    y: *mut f64,
    n: usize,
) -> i32 {
    ffi_boundary!("sk_irfft_f64", {
        // SAFETY: this function's `# Safety` contract (`x`, `y` valid for the row lengths above) is
        // `exec_one`'s; the plan is a registry token, NULL, alignment and overlap are checked
        // inside.
        unsafe { exec_one::<f64>(Op::Irfft, plan, x, norm, y, n) }
    })
}

/// Complex forward FFT: `x` → `y`, n complex values each (2n floats interleaved),
/// `numpy.fft.fft(x, norm=...)`. `y == x` exactly is in place; other overlap is
/// `SK_ERR_OVERLAP`. Plan: a float `SK_FFT_COMPLEX` plan of length n. Other rules as
/// `sk_rfft_f32`.
///
/// Real-time safe: after a first call with this plan (or one needing more scratch) on the same thread, which grows that thread's FFT workspace (scratch above 64 MB is freed after every call).
///
/// # Safety
/// `x` readable and `y` writable for 2n floats.
#[no_mangle]
pub unsafe extern "C" fn sk_fft_f32(
    plan: *const SkFftPlan,
    x: *const f32,
    norm: i32,
    y: *mut f32,
    n: usize,
) -> i32 {
    ffi_boundary!("sk_fft_f32", {
        // SAFETY: this function's `# Safety` contract (`x`, `y` valid for the row lengths above) is
        // `exec_one`'s; the plan is a registry token, NULL, alignment and overlap are checked
        // inside.
        unsafe { exec_one::<f32>(Op::Fft, plan, x, norm, y, n) }
    })
}

/// Complex forward FFT of doubles (`complex128`). Rules as `sk_fft_f32`.
///
/// Real-time safe: after a first call with this plan (or one needing more scratch) on the same thread, which grows that thread's FFT workspace (scratch above 64 MB is freed after every call).
///
/// # Safety
/// `x` readable and `y` writable for 2n doubles.
#[no_mangle]
pub unsafe extern "C" fn sk_fft_f64(
    plan: *const SkFftPlan,
    x: *const f64,
    norm: i32,
    y: *mut f64,
    n: usize,
) -> i32 {
    ffi_boundary!("sk_fft_f64", {
        // SAFETY: this function's `# Safety` contract (`x`, `y` valid for the row lengths above) is
        // `exec_one`'s; the plan is a registry token, NULL, alignment and overlap are checked
        // inside.
        unsafe { exec_one::<f64>(Op::Fft, plan, x, norm, y, n) }
    })
}

/// Complex inverse FFT (`e^{+2πi…}`), `numpy.fft.ifft(x, norm=...)`. Rules as `sk_fft_f32`.
///
/// Real-time safe: after a first call with this plan (or one needing more scratch) on the same thread, which grows that thread's FFT workspace (scratch above 64 MB is freed after every call).
///
/// # Safety
/// `x` readable and `y` writable for 2n floats.
#[no_mangle]
pub unsafe extern "C" fn sk_ifft_f32(
    plan: *const SkFftPlan,
    x: *const f32,
    norm: i32,
    y: *mut f32,
    n: usize,
) -> i32 {
    ffi_boundary!("sk_ifft_f32", {
        // SAFETY: this function's `# Safety` contract (`x`, `y` valid for the row lengths above) is
        // `exec_one`'s; the plan is a registry token, NULL, alignment and overlap are checked
        // inside.
        unsafe { exec_one::<f32>(Op::Ifft, plan, x, norm, y, n) }
    })
}

/// Complex inverse FFT of doubles. Rules as `sk_fft_f32`.
///
/// Real-time safe: after a first call with this plan (or one needing more scratch) on the same thread, which grows that thread's FFT workspace (scratch above 64 MB is freed after every call).
///
/// # Safety
/// `x` readable and `y` writable for 2n doubles.
#[no_mangle]
pub unsafe extern "C" fn sk_ifft_f64(
    plan: *const SkFftPlan,
    x: *const f64,
    norm: i32,
    y: *mut f64,
    n: usize,
) -> i32 {
    ffi_boundary!("sk_ifft_f64", {
        // SAFETY: this function's `# Safety` contract (`x`, `y` valid for the row lengths above) is
        // `exec_one`'s; the plan is a registry token, NULL, alignment and overlap are checked
        // inside.
        unsafe { exec_one::<f64>(Op::Ifft, plan, x, norm, y, n) }
    })
}

/// Batched real forward FFT over `rows` rows: row `r` of `x` starts at `x + r·x_stride` (floats),
/// row `r` of `y` at `y + 2·r·y_stride` (`y_stride` counts complex values). Equals
/// `numpy.fft.rfft(X, axis=-1)` for a `(rows, n)` array.
///
/// Strides: `x_stride ≥ 0` (0 repeats one row), `y_stride ≥ n/2+1` (when rows > 1), else
/// `SK_ERR_BAD_ARGUMENT`. The whole spans of `x` and `y` must not overlap. `rows = 0` does
/// nothing. Other rules as `sk_rfft_f32`.
///
/// Real-time safe: no (long batches are split over the worker threads; the calling thread's FFT workspace grows on first use).
///
/// # Safety
/// `x`, `y` valid for their spans `(rows−1)·stride + row length`.
#[no_mangle]
pub unsafe extern "C" fn sk_rfft_batch_f32(
    plan: *const SkFftPlan,
    x: *const f32,
    x_stride: isize,
    norm: i32,
    y: *mut f32,
    y_stride: isize,
    rows: usize,
    n: usize,
) -> i32 {
    ffi_boundary!("sk_rfft_batch_f32", {
        // SAFETY: this function's `# Safety` contract (`x`, `y` valid for their spans) is `exec`'s;
        // the plan is a registry token; NULL, alignment, spans and overlap are checked inside.
        unsafe { exec::<f32>(Op::Rfft, plan, x, x_stride, norm, y, y_stride, rows, n) }
    })
}

/// Batched real forward FFT of doubles. Rules as `sk_rfft_batch_f32`.
///
/// Real-time safe: no (long batches are split over the worker threads; the calling thread's FFT workspace grows on first use).
///
/// # Safety
/// `x`, `y` valid for their spans.
#[no_mangle]
pub unsafe extern "C" fn sk_rfft_batch_f64(
    plan: *const SkFftPlan,
    x: *const f64,
    x_stride: isize,
    norm: i32,
    y: *mut f64,
    y_stride: isize,
    rows: usize,
    n: usize,
) -> i32 {
    ffi_boundary!("sk_rfft_batch_f64", {
        // SAFETY: this function's `# Safety` contract (`x`, `y` valid for their spans) is `exec`'s;
        // the plan is a registry token; NULL, alignment, spans and overlap are checked inside.
        unsafe { exec::<f64>(Op::Rfft, plan, x, x_stride, norm, y, y_stride, rows, n) }
    })
}

/// Batched real inverse FFT: `x_stride` counts complex values (≥ 0), `y_stride` floats (≥ n).
/// Other rules as `sk_rfft_batch_f32` and `sk_irfft_f32`.
///
/// Real-time safe: no (long batches are split over the worker threads; the calling thread's FFT workspace grows on first use).
///
/// # Safety
/// `x`, `y` valid for their spans.
#[no_mangle]
pub unsafe extern "C" fn sk_irfft_batch_f32(
    plan: *const SkFftPlan,
    x: *const f32,
    x_stride: isize,
    norm: i32,
    y: *mut f32,
    y_stride: isize,
    rows: usize,
    n: usize,
) -> i32 {
    ffi_boundary!("sk_irfft_batch_f32", {
        // SAFETY: this function's `# Safety` contract (`x`, `y` valid for their spans) is `exec`'s;
        // the plan is a registry token; NULL, alignment, spans and overlap are checked inside.
        unsafe { exec::<f32>(Op::Irfft, plan, x, x_stride, norm, y, y_stride, rows, n) }
    })
}

/// Batched real inverse FFT of doubles. Rules as `sk_irfft_batch_f32`.
///
/// Real-time safe: no (long batches are split over the worker threads; the calling thread's FFT workspace grows on first use).
///
/// # Safety
/// `x`, `y` valid for their spans.
#[no_mangle]
pub unsafe extern "C" fn sk_irfft_batch_f64(
    plan: *const SkFftPlan,
    x: *const f64,
    x_stride: isize,
    norm: i32,
    y: *mut f64,
    y_stride: isize,
    rows: usize,
    n: usize,
) -> i32 {
    ffi_boundary!("sk_irfft_batch_f64", {
        // SAFETY: this function's `# Safety` contract (`x`, `y` valid for their spans) is `exec`'s;
        // the plan is a registry token; NULL, alignment, spans and overlap are checked inside.
        unsafe { exec::<f64>(Op::Irfft, plan, x, x_stride, norm, y, y_stride, rows, n) }
    })
}

/// Batched complex FFT, forward (`inverse = 0`) or inverse (`inverse ≠ 0`); both strides count
/// complex values (`y_stride ≥ n` when rows > 1). In place when `y == x` and
/// `y_stride == x_stride`. Other rules as `sk_rfft_batch_f32` and `sk_fft_f32`.
///
/// Real-time safe: no (long batches are split over the worker threads; the calling thread's FFT workspace grows on first use).
///
/// # Safety
/// `x`, `y` valid for their spans.
#[no_mangle]
pub unsafe extern "C" fn sk_fft_batch_f32(
    plan: *const SkFftPlan,
    x: *const f32,
    x_stride: isize,
    inverse: i32,
    norm: i32,
    y: *mut f32,
    y_stride: isize,
    rows: usize,
    n: usize,
) -> i32 {
    ffi_boundary!("sk_fft_batch_f32", {
        let op = if inverse != 0 { Op::Ifft } else { Op::Fft };
        // SAFETY: this function's `# Safety` contract (`x`, `y` valid for their spans) is `exec`'s;
        // the plan is a registry token; NULL, alignment, spans and overlap are checked inside.
        unsafe { exec::<f32>(op, plan, x, x_stride, norm, y, y_stride, rows, n) }
    })
}

/// Batched complex FFT of doubles. Rules as `sk_fft_batch_f32`.
///
/// Real-time safe: no (long batches are split over the worker threads; the calling thread's FFT workspace grows on first use).
///
/// # Safety
/// `x`, `y` valid for their spans.
#[no_mangle]
pub unsafe extern "C" fn sk_fft_batch_f64(
    plan: *const SkFftPlan,
    x: *const f64,
    x_stride: isize,
    inverse: i32,
    norm: i32,
    y: *mut f64,
    y_stride: isize,
    rows: usize,
    n: usize,
) -> i32 {
    ffi_boundary!("sk_fft_batch_f64", {
        let op = if inverse != 0 { Op::Ifft } else { Op::Fft };
        // SAFETY: this function's `# Safety` contract (`x`, `y` valid for their spans) is `exec`'s;
        // the plan is a registry token; NULL, alignment, spans and overlap are checked inside.
        unsafe { exec::<f64>(op, plan, x, x_stride, norm, y, y_stride, rows, n) }
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::error::*;

    #[test]
    fn lifecycle_and_bad_handles() {
        let mut p: *mut SkFftPlan = std::ptr::null_mut();
        // SAFETY: `&mut p` is a writable plan slot; every transform gets local arrays at least as
        // long as its `n` needs (x: 8 reals, y: 10 = 2·(8/2+1) floats), or is refused by the
        // handle / `n` check before touching them; the freed handle is only passed by value.
        unsafe {
            assert_eq!(sk_fft_plan_f64_new(SK_FFT_REAL, 8, &mut p), SK_OK);
            let x = [1.0f64; 8];
            let mut y = [9.0f64; 10];
            assert_eq!(
                sk_rfft_f64(p, x.as_ptr(), SK_NORM_BACKWARD, y.as_mut_ptr(), 8),
                SK_OK
            );
            assert_eq!(y, [8.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0]);
            y = [9.0; 10];
            assert_eq!(
                sk_rfft_f64(p, x.as_ptr(), SK_NORM_BACKWARD, y.as_mut_ptr(), 7),
                SK_ERR_BAD_ARGUMENT
            );
            assert_eq!(
                sk_fft_f64(p, x.as_ptr(), SK_NORM_BACKWARD, y.as_mut_ptr(), 4),
                SK_ERR_INVALID_HANDLE
            );
            let xf = [1.0f32; 8];
            let mut yf = [9.0f32; 10];
            assert_eq!(
                sk_rfft_f32(p, xf.as_ptr(), SK_NORM_BACKWARD, yf.as_mut_ptr(), 8),
                SK_ERR_INVALID_HANDLE
            );
            assert_eq!(sk_fft_plan_free(p), SK_OK);
            assert_eq!(
                sk_rfft_f64(p, x.as_ptr(), SK_NORM_BACKWARD, y.as_mut_ptr(), 8),
                SK_ERR_INVALID_HANDLE
            );
            assert_eq!(sk_fft_plan_free(p), SK_ERR_INVALID_HANDLE);
            assert_eq!(sk_fft_plan_free(std::ptr::null_mut()), SK_OK);
            assert_eq!(y, [9.0; 10]);
            assert_eq!(yf, [9.0; 10]);
        }
    }
}
