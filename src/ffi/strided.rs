//! Strided variants `sk_<op>_strided_<f32|f64>`: copy, fill, scale, add, mul, axpy, clip and
//! the reductions sum, min, max, peak, rms, dot, on elements `ptr + i·stride` (stride in
//! elements, negative allowed: `ptr` is then logical element 0 and addresses go down).
//!
//! Rules shared by every function here (details in `guard::strided`): a pointer may be NULL only
//! when `n == 0` and must be aligned for its type; an extent `(n−1)·|stride|+1` that overflows is
//! `SK_ERR_LENGTH`; a destination stride of 0 is `SK_ERR_BAD_ARGUMENT`; a source stride of 0
//! reads one element `n` times. A destination may be *exactly* an input (same pointer, same
//! stride) where stated; any other shared byte between the address span of the destination and
//! of an input is `SK_ERR_OVERLAP`. On error nothing is written.

use super::guard::{alias_strided, SBuf};
use super::guard::{check_out_scalar, ffi_boundary, Alias};
use crate::error::{SkError, SkResult};
use crate::kernels::elementwise::{AddOp, AxpyOp, BinOp, ClipOp, MulOp, ScaleOp, UnOp};
use crate::kernels::strided::{self, binary_strided, unary_strided, CopyOp, SSrc, StridedRef};
use crate::kernels::Float;
use crate::simd::{current, Level};

/// # Safety
/// `b` checked; aliased with the destination as `al` says.
unsafe fn operand<'a, T: Copy>(b: &SBuf<T>, al: Alias) -> SSrc<'a, T> {
    match al {
        Alias::Same => SSrc::Dst,
        // SAFETY: validated by the caller; its span is disjoint from the destination's.
        Alias::Distinct => SSrc::View(unsafe { b.view() }),
    }
}

/// # Safety
/// Pointers valid for their strided extents.
unsafe fn unary_s<T: Float, O: UnOp<T>>(x: SBuf<T>, y: SBuf<T>, op: O) -> SkResult<()> {
    x.check()?;
    y.check()?;
    let rx = alias_strided(&x, &y, true)?;
    // SAFETY: validated; the destination span is disjoint from every input it is not exactly.
    unsafe { unary_strided(current(), operand(&x, rx), &mut y.view_mut(), op) };
    Ok(())
}

/// # Safety
/// Pointers valid for their strided extents.
unsafe fn binary_s<T: Float, O: BinOp<T>>(
    a: SBuf<T>,
    b: SBuf<T>,
    y: SBuf<T>,
    op: O,
) -> SkResult<()> {
    a.check()?;
    b.check()?;
    y.check()?;
    let (ra, rb) = (alias_strided(&a, &y, true)?, alias_strided(&b, &y, true)?);
    // SAFETY: as in unary_s.
    unsafe {
        binary_strided(
            current(),
            operand(&a, ra),
            operand(&b, rb),
            &mut y.view_mut(),
            op,
        )
    };
    Ok(())
}

/// # Safety
/// `x` valid for its strided extent, `out` writable.
unsafe fn reduce_s<T: Float>(
    x: SBuf<T>,
    out: *mut T,
    what: &str,
    f: impl FnOnce(Level, StridedRef<'_, T>) -> Option<T>,
) -> SkResult<()> {
    x.check()?;
    check_out_scalar("out", out)?;
    // SAFETY: validated, only read.
    let v = f(current(), unsafe { x.view() }).ok_or_else(|| {
        SkError::Length(format!("n = 0: the {what} of an empty buffer is undefined"))
    })?;
    // SAFETY: validated non-NULL and aligned.
    unsafe { out.write(v) };
    Ok(())
}

fn clip_op<T: Float>(lo: T, hi: T) -> SkResult<ClipOp<T>> {
    if lo.is_nan() || hi.is_nan() {
        return Err(SkError::BadArgument(format!(
            "clip bounds must not be NaN (lo = {lo:?}, hi = {hi:?})"
        )));
    }
    if lo > hi {
        return Err(SkError::BadArgument(format!(
            "lo = {lo:?} is greater than hi = {hi:?}"
        )));
    }
    Ok(ClipOp { lo, hi })
}

/// `y[i·y_stride] = x[i·x_stride]` for `i < n` (strides in elements, negative allowed).
///
/// Strided buffers (every `sk_*_strided_*` function): `ptr` is logical element 0, element `i` is
/// at `ptr + i·stride`; with a negative stride addresses go down from `ptr` (numpy's `x[::-1]`
/// passes its data pointer and stride -1 as they are). `ptr` may be NULL only when `n == 0` and
/// must be aligned for its type. The extent `(n-1)·|stride| + 1` overflowing, or the range
/// running past either end of the address space, is `SK_ERR_LENGTH`. A destination stride of 0
/// is `SK_ERR_BAD_ARGUMENT`; a source stride of 0 reads one element `n` times. Overlap is judged
/// on address spans (first to last byte a view can touch).
///
/// Aliasing: `y` may be exactly `x` (same pointer and stride: a no-op); any other overlap of
/// the two address spans is `SK_ERR_OVERLAP` (use `sk_copy_f32` for memmove on contiguous data).
/// Returns `SK_OK`, `SK_ERR_NULL_POINTER`, `SK_ERR_MISALIGNED`, `SK_ERR_LENGTH`,
/// `SK_ERR_BAD_ARGUMENT` (`y_stride == 0`), `SK_ERR_OVERLAP`; on error nothing is written.
/// Thread-safe (stateless).
///
/// Real-time safe: yes.
///
/// # Safety
/// `x` readable and `y` writable at the `n` strided positions. Each strided buffer's whole address
/// span (first to last position, elements between included) must be valid memory that no other
/// thread writes during the call; only the positions themselves are read or written.
#[no_mangle]
pub unsafe extern "C" fn sk_copy_strided_f32(
    x: *const f32,
    x_stride: isize,
    y: *mut f32,
    y_stride: isize,
    n: usize,
) -> i32 {
    ffi_boundary!("sk_copy_strided_f32", {
        // SAFETY: the caller's contract makes `x` readable and `y` writable over their strided
        // spans (unary_s's `# Safety`); unary_s runs `SBuf::check` on both (NULL, alignment,
        // extent overflow) and `alias_strided` (`y` disjoint from `x` or exactly it) first.
        unsafe {
            unary_s(
                SBuf::new("x", x, x_stride, n),
                SBuf::out("y", y, y_stride, n),
                CopyOp,
            )
        }
    })
}

/// `y[i·y_stride] = value` for `i < n`.
///
/// Returns `SK_OK`, `SK_ERR_NULL_POINTER`, `SK_ERR_MISALIGNED`, `SK_ERR_LENGTH`,
/// `SK_ERR_BAD_ARGUMENT` (`y_stride == 0`); on error nothing is written. Thread-safe.
///
/// Real-time safe: yes.
///
/// # Safety
/// `y` writable at the `n` strided positions. Each strided buffer's whole address span (first to
/// last position, elements between included) must be valid memory that no other thread writes
/// during the call; only the positions themselves are read or written.
#[no_mangle]
pub unsafe extern "C" fn sk_fill_strided_f32(
    value: f32,
    y: *mut f32,
    y_stride: isize,
    n: usize,
) -> i32 {
    ffi_boundary!("sk_fill_strided_f32", {
        let y = SBuf::out("y", y, y_stride, n);
        y.check()?;
        // SAFETY: validated.
        unsafe { y.view_mut() }.fill(value);
        Ok(())
    })
}

/// `y[i·y_stride] = a · x[i·x_stride]` for `i < n`.
///
/// Aliasing: `y` may be exactly `x` (same pointer and stride) for in-place scaling; other span
/// overlap is `SK_ERR_OVERLAP`. Returns as `sk_copy_strided_f32`. Thread-safe.
///
/// Real-time safe: yes.
///
/// # Safety
/// `x` readable and `y` writable at their strided positions. Each strided buffer's whole address
/// span (first to last position, elements between included) must be valid memory that no other
/// thread writes during the call; only the positions themselves are read or written.
#[no_mangle]
pub unsafe extern "C" fn sk_scale_strided_f32(
    x: *const f32,
    x_stride: isize,
    a: f32,
    y: *mut f32,
    y_stride: isize,
    n: usize,
) -> i32 {
    ffi_boundary!("sk_scale_strided_f32", {
        // SAFETY: the caller's contract makes `x` readable and `y` writable over their strided
        // spans (unary_s's `# Safety`); unary_s runs `SBuf::check` on both (NULL, alignment,
        // extent overflow) and `alias_strided` (`y` disjoint from `x` or exactly it) first.
        unsafe {
            unary_s(
                SBuf::new("x", x, x_stride, n),
                SBuf::out("y", y, y_stride, n),
                ScaleOp(a),
            )
        }
    })
}

/// `y[i·y_stride] = a[i·a_stride] + b[i·b_stride]` for `i < n`.
///
/// Aliasing: `y` may be exactly `a` and/or `b` (same pointer and stride); other span overlap
/// with `y` is `SK_ERR_OVERLAP`; `a` and `b` may overlap each other freely.
/// Returns as `sk_copy_strided_f32`. Thread-safe.
///
/// Real-time safe: yes.
///
/// # Safety
/// `a`, `b` readable and `y` writable at their strided positions. Each strided buffer's whole
/// address span (first to last position, elements between included) must be valid memory that no
/// other thread writes during the call; only the positions themselves are read or written.
#[no_mangle]
pub unsafe extern "C" fn sk_add_strided_f32(
    a: *const f32,
    a_stride: isize,
    b: *const f32,
    b_stride: isize,
    y: *mut f32,
    y_stride: isize,
    n: usize,
) -> i32 {
    ffi_boundary!("sk_add_strided_f32", {
        // SAFETY: the caller's contract makes `a`, `b` readable and `y` writable over their
        // strided spans (binary_s's `# Safety`); binary_s runs `SBuf::check` on all three and
        // `alias_strided` (`y` disjoint from each input or exactly it) before any view.
        unsafe {
            binary_s(
                SBuf::new("a", a, a_stride, n),
                SBuf::new("b", b, b_stride, n),
                SBuf::out("y", y, y_stride, n),
                AddOp,
            )
        }
    })
}

/// `y[i·y_stride] = a[i·a_stride] * b[i·b_stride]` for `i < n`.
///
/// Aliasing: `y` may be exactly `a` and/or `b` (same pointer and stride); other span overlap
/// with `y` is `SK_ERR_OVERLAP`; `a` and `b` may overlap each other freely.
/// Returns as `sk_copy_strided_f32`. Thread-safe.
///
/// Real-time safe: yes.
///
/// # Safety
/// `a`, `b` readable and `y` writable at their strided positions. Each strided buffer's whole
/// address span (first to last position, elements between included) must be valid memory that no
/// other thread writes during the call; only the positions themselves are read or written.
#[no_mangle]
pub unsafe extern "C" fn sk_mul_strided_f32(
    a: *const f32,
    a_stride: isize,
    b: *const f32,
    b_stride: isize,
    y: *mut f32,
    y_stride: isize,
    n: usize,
) -> i32 {
    ffi_boundary!("sk_mul_strided_f32", {
        // SAFETY: the caller's contract makes `a`, `b` readable and `y` writable over their
        // strided spans (binary_s's `# Safety`); binary_s runs `SBuf::check` on all three and
        // `alias_strided` (`y` disjoint from each input or exactly it) before any view.
        unsafe {
            binary_s(
                SBuf::new("a", a, a_stride, n),
                SBuf::new("b", b, b_stride, n),
                SBuf::out("y", y, y_stride, n),
                MulOp,
            )
        }
    })
}

/// `y[i·y_stride] += a · x[i·x_stride]` for `i < n` (multiply then add, not fused).
///
/// Aliasing: `x` may be exactly `y` (then `y += a·y`); other span overlap is `SK_ERR_OVERLAP`.
/// Returns as `sk_copy_strided_f32`. Thread-safe.
///
/// Real-time safe: yes.
///
/// # Safety
/// `x` readable and `y` readable and writable at their strided positions. Each strided buffer's
/// whole address span (first to last position, elements between included) must be valid memory that
/// no other thread writes during the call; only the positions themselves are read or written.
#[no_mangle]
pub unsafe extern "C" fn sk_axpy_strided_f32(
    x: *const f32,
    x_stride: isize,
    a: f32,
    y: *mut f32,
    y_stride: isize,
    n: usize,
) -> i32 {
    ffi_boundary!("sk_axpy_strided_f32", {
        let y = SBuf::out("y", y, y_stride, n);
        // SAFETY: the caller's contract makes `x` readable and `y` readable and writable over
        // their strided spans (binary_s's `# Safety`); binary_s runs `SBuf::check` on each and
        // `alias_strided`, which finds `y` exactly the same view as itself (`Alias::Same`, read
        // through the destination) and `x` disjoint from `y` or exactly it, before any view.
        unsafe { binary_s(SBuf::new("x", x, x_stride, n), y, y, AxpyOp(a)) }
    })
}

/// `y[i·y_stride] = min(max(x[i·x_stride], lo), hi)` for `i < n` (NaN data stays NaN).
///
/// `lo <= hi`, neither NaN, else `SK_ERR_BAD_ARGUMENT`. Aliasing as `sk_scale_strided_f32`.
/// Returns as `sk_copy_strided_f32`. Thread-safe.
///
/// Real-time safe: yes.
///
/// # Safety
/// `x` readable and `y` writable at their strided positions. Each strided buffer's whole address
/// span (first to last position, elements between included) must be valid memory that no other
/// thread writes during the call; only the positions themselves are read or written.
#[no_mangle]
pub unsafe extern "C" fn sk_clip_strided_f32(
    x: *const f32,
    x_stride: isize,
    lo: f32,
    hi: f32,
    y: *mut f32,
    y_stride: isize,
    n: usize,
) -> i32 {
    ffi_boundary!("sk_clip_strided_f32", {
        let op = clip_op(lo, hi)?;
        // SAFETY: the caller's contract makes `x` readable and `y` writable over their strided
        // spans (unary_s's `# Safety`); unary_s runs `SBuf::check` on both (NULL, alignment,
        // extent overflow) and `alias_strided` (`y` disjoint from `x` or exactly it) first.
        unsafe {
            unary_s(
                SBuf::new("x", x, x_stride, n),
                SBuf::out("y", y, y_stride, n),
                op,
            )
        }
    })
}

/// `*out = Σ x[i·x_stride]` over `i < n`. `n == 0` gives 0. Pairwise, carried in double
/// precision across 512-element blocks, with `sk_sum_f32`'s error bound (at most about
/// 14·FLT_EPSILON·Σ|x| from the exact sum) and its NaN/±inf and overflow rules. The elements are
/// read in place in address order (a negative stride upwards from the last element), so the
/// result depends only on the elements and |x_stride|, and is deterministic at a given SIMD
/// level: for `x_stride = ±1` it is `sk_sum_f32` of the elements in address order, bit for bit;
/// other strides group the partial sums differently, so the last bits may differ from
/// `sk_sum_f32` on a contiguous copy.
///
/// Arguments: `x` may be NULL only when `n == 0`; `out` non-NULL; both aligned; any `x_stride`
/// (0 reads `x[0]` `n` times). Returns `SK_OK`, `SK_ERR_NULL_POINTER`, `SK_ERR_MISALIGNED`,
/// `SK_ERR_LENGTH`; `*out` is written only on success. Thread-safe (stateless).
///
/// Real-time safe: yes.
///
/// # Safety
/// `x` readable at its strided positions, `out` writable. Each strided buffer's whole address span
/// (first to last position, elements between included) must be valid memory that no other thread
/// writes during the call; only the positions themselves are read or written.
#[no_mangle]
pub unsafe extern "C" fn sk_sum_strided_f32(
    x: *const f32,
    x_stride: isize,
    out: *mut f32,
    n: usize,
) -> i32 {
    ffi_boundary!("sk_sum_strided_f32", {
        // SAFETY: the caller's contract makes `x` readable over its strided span and `out`
        // writable (reduce_s's `# Safety`); reduce_s runs `SBuf::check` on `x` and
        // `check_out_scalar` on `out` (non-NULL, aligned) before reading or writing.
        unsafe {
            reduce_s(SBuf::new("x", x, x_stride, n), out, "sum", |l, x| {
                Some(strided::sum(l, x))
            })
        }
    })
}

/// `*out = min x[i·x_stride]` over `i < n`. NaN if any element is NaN; `n == 0` is `SK_ERR_LENGTH`.
///
/// Arguments: `x` may be NULL only when `n == 0`; `out` non-NULL; both aligned; any `x_stride`
/// (0 reads `x[0]` `n` times). Returns `SK_OK`, `SK_ERR_NULL_POINTER`, `SK_ERR_MISALIGNED`,
/// `SK_ERR_LENGTH`; `*out` is written only on success. Thread-safe (stateless).
///
/// Real-time safe: yes.
///
/// # Safety
/// `x` readable at its strided positions, `out` writable. Each strided buffer's whole address span
/// (first to last position, elements between included) must be valid memory that no other thread
/// writes during the call; only the positions themselves are read or written.
#[no_mangle]
pub unsafe extern "C" fn sk_min_strided_f32(
    x: *const f32,
    x_stride: isize,
    out: *mut f32,
    n: usize,
) -> i32 {
    ffi_boundary!("sk_min_strided_f32", {
        // SAFETY: the caller's contract makes `x` readable over its strided span and `out`
        // writable (reduce_s's `# Safety`); reduce_s runs `SBuf::check` on `x` and
        // `check_out_scalar` on `out` (non-NULL, aligned) before reading or writing.
        unsafe { reduce_s(SBuf::new("x", x, x_stride, n), out, "min", strided::min) }
    })
}

/// `*out = max x[i·x_stride]` over `i < n`. NaN if any element is NaN; `n == 0` is `SK_ERR_LENGTH`.
///
/// Arguments: `x` may be NULL only when `n == 0`; `out` non-NULL; both aligned; any `x_stride`
/// (0 reads `x[0]` `n` times). Returns `SK_OK`, `SK_ERR_NULL_POINTER`, `SK_ERR_MISALIGNED`,
/// `SK_ERR_LENGTH`; `*out` is written only on success. Thread-safe (stateless).
///
/// Real-time safe: yes.
///
/// # Safety
/// `x` readable at its strided positions, `out` writable. Each strided buffer's whole address span
/// (first to last position, elements between included) must be valid memory that no other thread
/// writes during the call; only the positions themselves are read or written.
#[no_mangle]
pub unsafe extern "C" fn sk_max_strided_f32(
    x: *const f32,
    x_stride: isize,
    out: *mut f32,
    n: usize,
) -> i32 {
    ffi_boundary!("sk_max_strided_f32", {
        // SAFETY: the caller's contract makes `x` readable over its strided span and `out`
        // writable (reduce_s's `# Safety`); reduce_s runs `SBuf::check` on `x` and
        // `check_out_scalar` on `out` (non-NULL, aligned) before reading or writing.
        unsafe { reduce_s(SBuf::new("x", x, x_stride, n), out, "max", strided::max) }
    })
}

/// `*out = max |x[i·x_stride]|` over `i < n`. NaN if any element is NaN; `n == 0` is
/// `SK_ERR_LENGTH`.
///
/// Arguments: `x` may be NULL only when `n == 0`; `out` non-NULL; both aligned; any `x_stride`
/// (0 reads `x[0]` `n` times). Returns `SK_OK`, `SK_ERR_NULL_POINTER`, `SK_ERR_MISALIGNED`,
/// `SK_ERR_LENGTH`; `*out` is written only on success. Thread-safe (stateless).
///
/// Real-time safe: yes.
///
/// # Safety
/// `x` readable at its strided positions, `out` writable. Each strided buffer's whole address span
/// (first to last position, elements between included) must be valid memory that no other thread
/// writes during the call; only the positions themselves are read or written.
#[no_mangle]
pub unsafe extern "C" fn sk_peak_strided_f32(
    x: *const f32,
    x_stride: isize,
    out: *mut f32,
    n: usize,
) -> i32 {
    ffi_boundary!("sk_peak_strided_f32", {
        // SAFETY: the caller's contract makes `x` readable over its strided span and `out`
        // writable (reduce_s's `# Safety`); reduce_s runs `SBuf::check` on `x` and
        // `check_out_scalar` on `out` (non-NULL, aligned) before reading or writing.
        unsafe { reduce_s(SBuf::new("x", x, x_stride, n), out, "peak", strided::peak) }
    })
}

/// `*out = sqrt(Σ x[i·x_stride]² / n)` over `i < n`. Squares accumulated in double precision with
/// the overflow/underflow rescaling of `sk_rms_f32`; `n == 0` is `SK_ERR_LENGTH`.
///
/// Arguments: `x` may be NULL only when `n == 0`; `out` non-NULL; both aligned; any `x_stride`
/// (0 reads `x[0]` `n` times). Returns `SK_OK`, `SK_ERR_NULL_POINTER`, `SK_ERR_MISALIGNED`,
/// `SK_ERR_LENGTH`; `*out` is written only on success. Thread-safe (stateless).
///
/// Real-time safe: yes.
///
/// # Safety
/// `x` readable at its strided positions, `out` writable. Each strided buffer's whole address span
/// (first to last position, elements between included) must be valid memory that no other thread
/// writes during the call; only the positions themselves are read or written.
#[no_mangle]
pub unsafe extern "C" fn sk_rms_strided_f32(
    x: *const f32,
    x_stride: isize,
    out: *mut f32,
    n: usize,
) -> i32 {
    ffi_boundary!("sk_rms_strided_f32", {
        // SAFETY: the caller's contract makes `x` readable over its strided span and `out`
        // writable (reduce_s's `# Safety`); reduce_s runs `SBuf::check` on `x` and
        // `check_out_scalar` on `out` (non-NULL, aligned) before reading or writing.
        unsafe { reduce_s(SBuf::new("x", x, x_stride, n), out, "rms", strided::rms) }
    })
}

/// `*out = Σ a[i·a_stride]·b[i·b_stride]` over `i < n`; `n == 0` gives 0. The 512-element blocks
/// of `sk_dot_f32`, combined pairwise in double precision. `a` and `b` may overlap freely.
///
/// Returns `SK_OK`, `SK_ERR_NULL_POINTER`, `SK_ERR_MISALIGNED`, `SK_ERR_LENGTH`; `*out` is
/// written only on success. Thread-safe (stateless).
///
/// Real-time safe: yes.
///
/// # Safety
/// `a`, `b` readable at their strided positions, `out` writable. Each strided buffer's whole
/// address span (first to last position, elements between included) must be valid memory that no
/// other thread writes during the call; only the positions themselves are read or written.
#[no_mangle]
pub unsafe extern "C" fn sk_dot_strided_f32(
    a: *const f32,
    a_stride: isize,
    b: *const f32,
    b_stride: isize,
    out: *mut f32,
    n: usize,
) -> i32 {
    ffi_boundary!("sk_dot_strided_f32", {
        let (a, b) = (
            SBuf::new("a", a, a_stride, n),
            SBuf::new("b", b, b_stride, n),
        );
        a.check()?;
        b.check()?;
        check_out_scalar("out", out)?;
        // SAFETY: validated, only read.
        let v = unsafe { strided::dot(current(), a.view(), b.view()) };
        // SAFETY: validated.
        unsafe { out.write(v) };
        Ok(())
    })
}

/// `y[i·y_stride] = x[i·x_stride]` for `i < n` (strides in elements, negative allowed).
/// Rules as the `f32` function (8-byte alignment).
///
/// Real-time safe: yes.
///
/// # Safety
/// `x` readable and `y` writable at the `n` strided positions. Each strided buffer's whole address
/// span (first to last position, elements between included) must be valid memory that no other
/// thread writes during the call; only the positions themselves are read or written.
#[no_mangle]
pub unsafe extern "C" fn sk_copy_strided_f64(
    x: *const f64,
    x_stride: isize,
    y: *mut f64,
    y_stride: isize,
    n: usize,
) -> i32 {
    ffi_boundary!("sk_copy_strided_f64", {
        // SAFETY: the caller's contract makes `x` readable and `y` writable over their strided
        // spans (unary_s's `# Safety`); unary_s runs `SBuf::check` on both (NULL, alignment,
        // extent overflow) and `alias_strided` (`y` disjoint from `x` or exactly it) first.
        unsafe {
            unary_s(
                SBuf::new("x", x, x_stride, n),
                SBuf::out("y", y, y_stride, n),
                CopyOp,
            )
        }
    })
}

/// `y[i·y_stride] = value` for `i < n`.
/// Rules as the `f32` function (8-byte alignment).
///
/// Real-time safe: yes.
///
/// # Safety
/// `y` writable at the `n` strided positions. Each strided buffer's whole address span (first to
/// last position, elements between included) must be valid memory that no other thread writes
/// during the call; only the positions themselves are read or written.
#[no_mangle]
pub unsafe extern "C" fn sk_fill_strided_f64(
    value: f64,
    y: *mut f64,
    y_stride: isize,
    n: usize,
) -> i32 {
    ffi_boundary!("sk_fill_strided_f64", {
        let y = SBuf::out("y", y, y_stride, n);
        y.check()?;
        // SAFETY: validated.
        unsafe { y.view_mut() }.fill(value);
        Ok(())
    })
}

/// `y[i·y_stride] = a · x[i·x_stride]` for `i < n`.
/// Rules as the `f32` function (8-byte alignment).
///
/// Real-time safe: yes.
///
/// # Safety
/// `x` readable and `y` writable at their strided positions. Each strided buffer's whole address
/// span (first to last position, elements between included) must be valid memory that no other
/// thread writes during the call; only the positions themselves are read or written.
#[no_mangle]
pub unsafe extern "C" fn sk_scale_strided_f64(
    x: *const f64,
    x_stride: isize,
    a: f64,
    y: *mut f64,
    y_stride: isize,
    n: usize,
) -> i32 {
    ffi_boundary!("sk_scale_strided_f64", {
        // SAFETY: the caller's contract makes `x` readable and `y` writable over their strided
        // spans (unary_s's `# Safety`); unary_s runs `SBuf::check` on both (NULL, alignment,
        // extent overflow) and `alias_strided` (`y` disjoint from `x` or exactly it) first.
        unsafe {
            unary_s(
                SBuf::new("x", x, x_stride, n),
                SBuf::out("y", y, y_stride, n),
                ScaleOp(a),
            )
        }
    })
}

/// `y[i·y_stride] = a[i·a_stride] + b[i·b_stride]` for `i < n`.
/// Rules as the `f32` function (8-byte alignment).
///
/// Real-time safe: yes.
///
/// # Safety
/// `a`, `b` readable and `y` writable at their strided positions. Each strided buffer's whole
/// address span (first to last position, elements between included) must be valid memory that no
/// other thread writes during the call; only the positions themselves are read or written.
#[no_mangle]
pub unsafe extern "C" fn sk_add_strided_f64(
    a: *const f64,
    a_stride: isize,
    b: *const f64,
    b_stride: isize,
    y: *mut f64,
    y_stride: isize,
    n: usize,
) -> i32 {
    ffi_boundary!("sk_add_strided_f64", {
        // SAFETY: the caller's contract makes `a`, `b` readable and `y` writable over their
        // strided spans (binary_s's `# Safety`); binary_s runs `SBuf::check` on all three and
        // `alias_strided` (`y` disjoint from each input or exactly it) before any view.
        unsafe {
            binary_s(
                SBuf::new("a", a, a_stride, n),
                SBuf::new("b", b, b_stride, n),
                SBuf::out("y", y, y_stride, n),
                AddOp,
            )
        }
    })
}

/// `y[i·y_stride] = a[i·a_stride] * b[i·b_stride]` for `i < n`.
/// Rules as the `f32` function (8-byte alignment).
///
/// Real-time safe: yes.
///
/// # Safety
/// `a`, `b` readable and `y` writable at their strided positions. Each strided buffer's whole
/// address span (first to last position, elements between included) must be valid memory that no
/// other thread writes during the call; only the positions themselves are read or written.
#[no_mangle]
pub unsafe extern "C" fn sk_mul_strided_f64(
    a: *const f64,
    a_stride: isize,
    b: *const f64,
    b_stride: isize,
    y: *mut f64,
    y_stride: isize,
    n: usize,
) -> i32 {
    ffi_boundary!("sk_mul_strided_f64", {
        // SAFETY: the caller's contract makes `a`, `b` readable and `y` writable over their
        // strided spans (binary_s's `# Safety`); binary_s runs `SBuf::check` on all three and
        // `alias_strided` (`y` disjoint from each input or exactly it) before any view.
        unsafe {
            binary_s(
                SBuf::new("a", a, a_stride, n),
                SBuf::new("b", b, b_stride, n),
                SBuf::out("y", y, y_stride, n),
                MulOp,
            )
        }
    })
}

/// `y[i·y_stride] += a · x[i·x_stride]` for `i < n` (multiply then add, not fused).
/// Rules as the `f32` function (8-byte alignment).
///
/// Real-time safe: yes.
///
/// # Safety
/// `x` readable and `y` readable and writable at their strided positions. Each strided buffer's
/// whole address span (first to last position, elements between included) must be valid memory that
/// no other thread writes during the call; only the positions themselves are read or written.
#[no_mangle]
pub unsafe extern "C" fn sk_axpy_strided_f64(
    x: *const f64,
    x_stride: isize,
    a: f64,
    y: *mut f64,
    y_stride: isize,
    n: usize,
) -> i32 {
    ffi_boundary!("sk_axpy_strided_f64", {
        let y = SBuf::out("y", y, y_stride, n);
        // SAFETY: the caller's contract makes `x` readable and `y` readable and writable over
        // their strided spans (binary_s's `# Safety`); binary_s runs `SBuf::check` on each and
        // `alias_strided`, which finds `y` exactly the same view as itself (`Alias::Same`, read
        // through the destination) and `x` disjoint from `y` or exactly it, before any view.
        unsafe { binary_s(SBuf::new("x", x, x_stride, n), y, y, AxpyOp(a)) }
    })
}

/// `y[i·y_stride] = min(max(x[i·x_stride], lo), hi)` for `i < n` (NaN data stays NaN).
/// Rules as the `f32` function (8-byte alignment).
///
/// Real-time safe: yes.
///
/// # Safety
/// `x` readable and `y` writable at their strided positions. Each strided buffer's whole address
/// span (first to last position, elements between included) must be valid memory that no other
/// thread writes during the call; only the positions themselves are read or written.
#[no_mangle]
pub unsafe extern "C" fn sk_clip_strided_f64(
    x: *const f64,
    x_stride: isize,
    lo: f64,
    hi: f64,
    y: *mut f64,
    y_stride: isize,
    n: usize,
) -> i32 {
    ffi_boundary!("sk_clip_strided_f64", {
        let op = clip_op(lo, hi)?;
        // SAFETY: the caller's contract makes `x` readable and `y` writable over their strided
        // spans (unary_s's `# Safety`); unary_s runs `SBuf::check` on both (NULL, alignment,
        // extent overflow) and `alias_strided` (`y` disjoint from `x` or exactly it) first.
        unsafe {
            unary_s(
                SBuf::new("x", x, x_stride, n),
                SBuf::out("y", y, y_stride, n),
                op,
            )
        }
    })
}

/// `*out = Σ x[i·x_stride]` over `i < n`. `n == 0` gives 0. Pairwise in double precision with
/// `sk_sum_f64`'s error bound and overflow rules; read in address order as `sk_sum_strided_f32`
/// (`x_stride = ±1` is `sk_sum_f64` of the elements in address order, bit for bit).
/// Rules as the `f32` function (8-byte alignment).
///
/// Real-time safe: yes.
///
/// # Safety
/// `x` readable at its strided positions, `out` writable. Each strided buffer's whole address span
/// (first to last position, elements between included) must be valid memory that no other thread
/// writes during the call; only the positions themselves are read or written.
#[no_mangle]
pub unsafe extern "C" fn sk_sum_strided_f64(
    x: *const f64,
    x_stride: isize,
    out: *mut f64,
    n: usize,
) -> i32 {
    ffi_boundary!("sk_sum_strided_f64", {
        // SAFETY: the caller's contract makes `x` readable over its strided span and `out`
        // writable (reduce_s's `# Safety`); reduce_s runs `SBuf::check` on `x` and
        // `check_out_scalar` on `out` (non-NULL, aligned) before reading or writing.
        unsafe {
            reduce_s(SBuf::new("x", x, x_stride, n), out, "sum", |l, x| {
                Some(strided::sum(l, x))
            })
        }
    })
}

/// `*out = min x[i·x_stride]` over `i < n`. NaN if any element is NaN; `n == 0` is `SK_ERR_LENGTH`.
/// Rules as the `f32` function (8-byte alignment).
///
/// Real-time safe: yes.
///
/// # Safety
/// `x` readable at its strided positions, `out` writable. Each strided buffer's whole address span
/// (first to last position, elements between included) must be valid memory that no other thread
/// writes during the call; only the positions themselves are read or written.
#[no_mangle]
pub unsafe extern "C" fn sk_min_strided_f64(
    x: *const f64,
    x_stride: isize,
    out: *mut f64,
    n: usize,
) -> i32 {
    ffi_boundary!("sk_min_strided_f64", {
        // SAFETY: the caller's contract makes `x` readable over its strided span and `out`
        // writable (reduce_s's `# Safety`); reduce_s runs `SBuf::check` on `x` and
        // `check_out_scalar` on `out` (non-NULL, aligned) before reading or writing.
        unsafe { reduce_s(SBuf::new("x", x, x_stride, n), out, "min", strided::min) }
    })
}

/// `*out = max x[i·x_stride]` over `i < n`. NaN if any element is NaN; `n == 0` is `SK_ERR_LENGTH`.
/// Rules as the `f32` function (8-byte alignment).
///
/// Real-time safe: yes.
///
/// # Safety
/// `x` readable at its strided positions, `out` writable. Each strided buffer's whole address span
/// (first to last position, elements between included) must be valid memory that no other thread
/// writes during the call; only the positions themselves are read or written.
#[no_mangle]
pub unsafe extern "C" fn sk_max_strided_f64(
    x: *const f64,
    x_stride: isize,
    out: *mut f64,
    n: usize,
) -> i32 {
    ffi_boundary!("sk_max_strided_f64", {
        // SAFETY: the caller's contract makes `x` readable over its strided span and `out`
        // writable (reduce_s's `# Safety`); reduce_s runs `SBuf::check` on `x` and
        // `check_out_scalar` on `out` (non-NULL, aligned) before reading or writing.
        unsafe { reduce_s(SBuf::new("x", x, x_stride, n), out, "max", strided::max) }
    })
}

/// `*out = max |x[i·x_stride]|` over `i < n`. NaN if any element is NaN; `n == 0` is
/// `SK_ERR_LENGTH`.
/// Rules as the `f32` function (8-byte alignment).
///
/// Real-time safe: yes.
///
/// # Safety
/// `x` readable at its strided positions, `out` writable. Each strided buffer's whole address span
/// (first to last position, elements between included) must be valid memory that no other thread
/// writes during the call; only the positions themselves are read or written.
#[no_mangle]
pub unsafe extern "C" fn sk_peak_strided_f64(
    x: *const f64,
    x_stride: isize,
    out: *mut f64,
    n: usize,
) -> i32 {
    ffi_boundary!("sk_peak_strided_f64", {
        // SAFETY: the caller's contract makes `x` readable over its strided span and `out`
        // writable (reduce_s's `# Safety`); reduce_s runs `SBuf::check` on `x` and
        // `check_out_scalar` on `out` (non-NULL, aligned) before reading or writing.
        unsafe { reduce_s(SBuf::new("x", x, x_stride, n), out, "peak", strided::peak) }
    })
}

/// `*out = sqrt(Σ x[i·x_stride]² / n)` over `i < n`. Squares accumulated in double precision with
/// the overflow/underflow rescaling of `sk_rms_f32`; `n == 0` is `SK_ERR_LENGTH`.
/// Rules as the `f32` function (8-byte alignment).
///
/// Real-time safe: yes.
///
/// # Safety
/// `x` readable at its strided positions, `out` writable. Each strided buffer's whole address span
/// (first to last position, elements between included) must be valid memory that no other thread
/// writes during the call; only the positions themselves are read or written.
#[no_mangle]
pub unsafe extern "C" fn sk_rms_strided_f64(
    x: *const f64,
    x_stride: isize,
    out: *mut f64,
    n: usize,
) -> i32 {
    ffi_boundary!("sk_rms_strided_f64", {
        // SAFETY: the caller's contract makes `x` readable over its strided span and `out`
        // writable (reduce_s's `# Safety`); reduce_s runs `SBuf::check` on `x` and
        // `check_out_scalar` on `out` (non-NULL, aligned) before reading or writing.
        unsafe { reduce_s(SBuf::new("x", x, x_stride, n), out, "rms", strided::rms) }
    })
}

/// `*out = Σ a[i·a_stride]·b[i·b_stride]` over `i < n`; `n == 0` gives 0. Pairwise in double
/// Rules as the `f32` function (8-byte alignment).
///
/// Real-time safe: yes.
///
/// # Safety
/// `a`, `b` readable at their strided positions, `out` writable. Each strided buffer's whole
/// address span (first to last position, elements between included) must be valid memory that no
/// other thread writes during the call; only the positions themselves are read or written.
#[no_mangle]
pub unsafe extern "C" fn sk_dot_strided_f64(
    a: *const f64,
    a_stride: isize,
    b: *const f64,
    b_stride: isize,
    out: *mut f64,
    n: usize,
) -> i32 {
    ffi_boundary!("sk_dot_strided_f64", {
        let (a, b) = (
            SBuf::new("a", a, a_stride, n),
            SBuf::new("b", b, b_stride, n),
        );
        a.check()?;
        b.check()?;
        check_out_scalar("out", out)?;
        // SAFETY: validated, only read.
        let v = unsafe { strided::dot(current(), a.view(), b.view()) };
        // SAFETY: validated.
        unsafe { out.write(v) };
        Ok(())
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::error::*;

    #[test]
    fn strided_errors_write_nothing() {
        let x = [1.0f32, 2.0, 3.0, 4.0, 5.0, 6.0];
        let mut y = [9.0f32; 8];
        let yp = y.as_mut_ptr();
        // SAFETY: `x` (6 elements) and `y` (8) are live local arrays; every call either fails
        // validation before touching memory or stays inside them (`yp.add(1)` is in bounds).
        unsafe {
            assert_eq!(
                sk_scale_strided_f32(x.as_ptr(), 1, 2.0, yp, 0, 3),
                SK_ERR_BAD_ARGUMENT
            );
            assert_eq!(sk_fill_strided_f32(1.0, yp, 0, 0), SK_ERR_BAD_ARGUMENT);
            assert_eq!(
                sk_scale_strided_f32(yp, 2, 2.0, yp.add(1), 2, 3),
                SK_ERR_OVERLAP
            );
            assert_eq!(
                sk_copy_strided_f32(x.as_ptr(), isize::MAX, yp, 1, 3),
                SK_ERR_LENGTH
            );
            assert_eq!(
                sk_clip_strided_f32(x.as_ptr(), 1, f32::NAN, 1.0, yp, 1, 3),
                SK_ERR_BAD_ARGUMENT
            );
        }
        assert_eq!(y, [9.0; 8]);
        // SAFETY: 4 elements back from `x[5]` with stride -1 read `x[5..=2]`; 4 at stride 2 from
        // `y[0]` write `y[0..=6]`: both inside the local arrays, which do not overlap.
        unsafe {
            // reversed source into every other destination element
            assert_eq!(sk_copy_strided_f32(x.as_ptr().add(5), -1, yp, 2, 4), SK_OK);
        }
        assert_eq!(y, [6.0, 9.0, 5.0, 9.0, 4.0, 9.0, 3.0, 9.0]);
        let mut out = 0.0f32;
        // SAFETY: 3 elements back from `x[5]` at stride -2 read `x[5]`, `x[3]`, `x[1]`; `out` is a
        // live local `f32`.
        unsafe {
            assert_eq!(
                sk_sum_strided_f32(x.as_ptr().add(5), -2, &mut out, 3),
                SK_OK
            );
        }
        assert_eq!(out, 12.0);
    }
}
