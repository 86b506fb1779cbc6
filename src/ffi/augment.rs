//! Data augmentation over a batch of rows: `sk_augment_gain_*`, `sk_augment_clip_*`,
//! `sk_augment_bitcrush_*`, `sk_augment_fade_*`, `sk_augment_mix_*`, `sk_augment_normal_*`,
//! `sk_augment_add_normal_*`, `sk_augment_sosfilt_*`.
//!
//! Every function takes `x` and writes `y`, both `rows × n` row-major (`y == x` is in place; any
//! other overlap is `SK_ERR_OVERLAP`), with one parameter per row. The parameters are chosen by
//! the caller (the Python transforms draw them from a seeded generator), so every call is
//! deterministic. Everything is validated before anything is written.

use super::guard::{alias, ffi_boundary, Alias, Buf};
use crate::error::{SkError, SkResult};
use crate::kernels::augment::{
    bitcrush_rows, clip_rows, fade_rows, gain_rows, mix_rows, MixLevel, RowCascades,
};
use crate::kernels::Float;

/// `SK_AUGMENT_SNR`: `sk_augment_mix_*`'s `level_db` is a signal-to-noise ratio in dB.
pub const SK_AUGMENT_SNR: i32 = 0;
/// `SK_AUGMENT_ABSOLUTE`: `sk_augment_mix_*`'s `level_db` is the noise RMS in dBFS.
pub const SK_AUGMENT_ABSOLUTE: i32 = 1;

fn total(rows: usize, n: usize) -> SkResult<usize> {
    rows.checked_mul(n)
        .ok_or_else(|| SkError::Length(format!("rows = {rows} × n = {n} does not fit in size_t")))
}

/// Checks a per-row parameter array (readable, disjoint from `y`) and returns it as a slice.
///
/// # Safety
/// `p` readable for `rows` elements.
unsafe fn params<'a, P: Float>(
    p: Buf<P>,
    y: &Buf<impl Sized>,
    ok: impl Fn(P) -> bool,
    rule: &str,
) -> SkResult<&'a [P]> {
    p.check()?;
    alias(&p, y, false)?;
    // SAFETY: checked above (non-NULL unless empty, aligned, in the address space).
    let s: &'a [P] = unsafe { p.slice() };
    if let Some((i, v)) = s.iter().enumerate().find(|(_, v)| !ok(**v)) {
        return Err(SkError::BadArgument(format!(
            "{}[{i}] = {v:?}: {rule}; nothing was written",
            p.name
        )));
    }
    Ok(s)
}

/// Validates `x`/`y` (`rows × n`) and copies `x` into `y` unless in place; `f` then works on `y`.
/// `f` runs only after every check of the caller's closure `pre` has passed.
///
/// # Safety
/// `x` readable and `y` writable for `rows·n` elements; `pre` validates everything else.
unsafe fn run<T: Float, K>(
    x: *const T,
    y: *mut T,
    rows: usize,
    n: usize,
    pre: impl FnOnce(&Buf<T>, &Buf<T>) -> SkResult<K>,
    f: impl FnOnce(&mut [T], K),
) -> SkResult<()> {
    let len = total(rows, n)?;
    let xb = Buf::new("x", x, len);
    let yb = Buf::out("y", y, len);
    xb.check()?;
    yb.check()?;
    let al = alias(&xb, &yb, true)?;
    let k = pre(&xb, &yb)?;
    // SAFETY: both validated; y is disjoint from x unless exactly the same buffer.
    let ys = unsafe { yb.slice_mut() };
    if al == Alias::Distinct {
        // SAFETY: validated above, disjoint from y.
        ys.copy_from_slice(unsafe { xb.slice() });
    }
    f(ys, k);
    Ok(())
}

/// Per-row gain: `y[r·n + i] = x[r·n + i] · gains[r]` for `r < rows`, `i < n`, each
/// product rounded once in `float` (numpy's `x * g`). A gain of `-1` inverts the
/// polarity, `1` copies.
///
/// Arguments: `gains` holds `rows` finite values, else `SK_ERR_BAD_ARGUMENT`; it must not
/// overlap `y`; `x` and `y` hold `rows·n` elements (`y == x` is in place); pointers may be
/// NULL only for zero elements and must be aligned. Returns `SK_OK`,
/// `SK_ERR_BAD_ARGUMENT`, `SK_ERR_NULL_POINTER`, `SK_ERR_MISALIGNED`, `SK_ERR_LENGTH`,
/// `SK_ERR_OVERLAP`; on error nothing is written. Thread-safe.
///
/// Real-time safe: yes.
///
/// # Safety
/// `x` readable and `y` writable for `rows·n` elements, `gains` readable for `rows`.
#[no_mangle]
pub unsafe extern "C" fn sk_augment_gain_f32(
    x: *const f32,
    gains: *const f32,
    y: *mut f32,
    rows: usize,
    n: usize,
) -> i32 {
    ffi_boundary!("sk_augment_gain_f32", {
        // SAFETY: the caller guarantees the extents (Safety above); run and params check
        // every pointer and overlap before building slices.
        unsafe {
            run(
                x,
                y,
                rows,
                n,
                |_, yb| {
                    params(
                        Buf::new("gains", gains, rows),
                        yb,
                        |g: f32| g.is_finite(),
                        "not finite",
                    )
                },
                |ys, g| gain_rows(ys, n, g),
            )
        }
    })
}

/// Per-row clipping: `y[r·n + i] = min(max(x[r·n + i], lo[r]), hi[r])`; NaN stays NaN
/// (numpy's `np.clip`).
///
/// Arguments: `lo` and `hi` hold `rows` finite values with `lo[r] <= hi[r]`, else
/// `SK_ERR_BAD_ARGUMENT`; neither may overlap `y`; `x`, `y` as `sk_augment_gain_f32`.
/// Returns `SK_OK`, `SK_ERR_BAD_ARGUMENT`, `SK_ERR_NULL_POINTER`, `SK_ERR_MISALIGNED`,
/// `SK_ERR_LENGTH`, `SK_ERR_OVERLAP`; on error nothing is written. Thread-safe.
///
/// Real-time safe: yes.
///
/// # Safety
/// `x` readable and `y` writable for `rows·n` elements, `lo` and `hi` readable for `rows`.
#[no_mangle]
pub unsafe extern "C" fn sk_augment_clip_f32(
    x: *const f32,
    lo: *const f32,
    hi: *const f32,
    y: *mut f32,
    rows: usize,
    n: usize,
) -> i32 {
    ffi_boundary!("sk_augment_clip_f32", {
        // SAFETY: the caller guarantees the extents (Safety above); run and params check
        // every pointer and overlap before building slices.
        unsafe {
            run(
                x,
                y,
                rows,
                n,
                |_, yb| {
                    let l = params(
                        Buf::new("lo", lo, rows),
                        yb,
                        |v: f32| v.is_finite(),
                        "not finite",
                    )?;
                    let h = params(
                        Buf::new("hi", hi, rows),
                        yb,
                        |v: f32| v.is_finite(),
                        "not finite",
                    )?;
                    if let Some(r) = (0..rows).find(|&r| l[r] > h[r]) {
                        return Err(SkError::BadArgument(format!(
                            "lo[{r}] = {:?} is above hi[{r}] = {:?}; nothing was written",
                            l[r], h[r]
                        )));
                    }
                    Ok((l, h))
                },
                |ys, (l, h)| clip_rows(ys, n, l, h),
            )
        }
    })
}

/// Bit-depth reduction: `y[r·n + i] = round(x[r·n + i] · q[r]) / q[r]`, rounding half to
/// even (numpy's `np.round(x * q) / q`; audiomentations' `BitCrush` uses
/// `q = 2^bits / 2 + 1`). Product and quotient rounded in the element type.
///
/// Arguments: `q` holds `rows` finite values `> 0`, else `SK_ERR_BAD_ARGUMENT`; it may not
/// overlap `y`; `x`, `y` as `sk_augment_gain_f32`. Returns `SK_OK`,
/// `SK_ERR_BAD_ARGUMENT`, `SK_ERR_NULL_POINTER`, `SK_ERR_MISALIGNED`, `SK_ERR_LENGTH`,
/// `SK_ERR_OVERLAP`; on error nothing is written. Thread-safe.
///
/// Real-time safe: yes.
///
/// # Safety
/// `x` readable and `y` writable for `rows·n` elements, `q` readable for `rows`.
#[no_mangle]
pub unsafe extern "C" fn sk_augment_bitcrush_f32(
    x: *const f32,
    q: *const f32,
    y: *mut f32,
    rows: usize,
    n: usize,
) -> i32 {
    ffi_boundary!("sk_augment_bitcrush_f32", {
        // SAFETY: the caller guarantees the extents (Safety above); run and params check
        // every pointer and overlap before building slices.
        unsafe {
            run(
                x,
                y,
                rows,
                n,
                |_, yb| {
                    params(
                        Buf::new("q", q, rows),
                        yb,
                        |v: f32| v.is_finite() && v > 0.0,
                        "must be finite and > 0",
                    )
                },
                |ys, q| bitcrush_rows(ys, n, q),
            )
        }
    })
}

/// Per-row gain transition (audiomentations' `GainTransition`): row `r` is multiplied by
/// `10^(db0[r]/20)` before sample `t0[r]`, by a fade of `len[r]` samples whose gains are
/// `10 ** (linspace(db0[r], db1[r], len[r]) / 20)` from `t0[r]` on, and by `10^(db1[r]/20)`
/// after it. `t0[r]` may be negative and `t0[r] + len[r]` may run past `n`: the fade is cut
/// to the row. Each fade gain is computed as numpy does on arrays of the element type (dB
/// values rounded to it, divided by 20 in it, `10^·` rounded to it once), so results agree
/// with audiomentations' on the same parameters within one rounding of each gain (numpy may
/// use a vectorised float32 power).
///
/// Arguments: `db0`, `db1` hold `rows` finite values, `len` holds `rows` values `>= 1`, else
/// `SK_ERR_BAD_ARGUMENT`; `t0` holds `rows` values (any); none may overlap `y`; `x`, `y` as
/// `sk_augment_gain_f32`. Returns `SK_OK`, `SK_ERR_BAD_ARGUMENT`, `SK_ERR_NULL_POINTER`,
/// `SK_ERR_MISALIGNED`, `SK_ERR_LENGTH`, `SK_ERR_OVERLAP`; on error nothing is written.
/// Thread-safe.
///
/// Real-time safe: yes.
///
/// # Safety
/// `x` readable and `y` writable for `rows·n` elements, `t0`, `len`, `db0`, `db1` readable for
/// `rows`.
#[no_mangle]
pub unsafe extern "C" fn sk_augment_fade_f32(
    x: *const f32,
    t0: *const isize,
    len: *const usize,
    db0: *const f64,
    db1: *const f64,
    y: *mut f32,
    rows: usize,
    n: usize,
) -> i32 {
    ffi_boundary!("sk_augment_fade_f32", {
        // SAFETY: the caller guarantees the extents (Safety above); run, params and the t0/len
        // checks validate every pointer and overlap before building slices.
        unsafe {
            run(
                x,
                y,
                rows,
                n,
                |_, yb| {
                    let a = params(
                        Buf::new("db0", db0, rows),
                        yb,
                        |v: f64| v.is_finite(),
                        "not finite",
                    )?;
                    let b = params(
                        Buf::new("db1", db1, rows),
                        yb,
                        |v: f64| v.is_finite(),
                        "not finite",
                    )?;
                    let tb = Buf::new("t0", t0, rows);
                    tb.check()?;
                    alias(&tb, yb, false)?;
                    let lb = Buf::new("len", len, rows);
                    lb.check()?;
                    alias(&lb, yb, false)?;
                    // SAFETY: both validated above, disjoint from y.
                    let (ts, ls) = (tb.slice(), lb.slice());
                    if let Some(r) = ls.iter().position(|&l| l == 0) {
                        return Err(SkError::BadArgument(format!(
                            "len[{r}] = 0: a fade has at least one sample; nothing was written"
                        )));
                    }
                    Ok((ts, ls, a, b))
                },
                |ys, (ts, ls, a, b)| fade_rows(ys, n, ts, ls, a, b),
            )
        }
    })
}

/// Adds noise at a level: `y[r·n + i] = x[r·n + i] + noise[m·n + i] · s[r]` with `m = 0`
/// when `noise_rows == 1` (one noise shared by every row), else `m = r`.
///
/// The factor `s[r]` (computed in double, then rounded to the element type): with `mode ==
/// SK_AUGMENT_SNR` the wanted noise RMS is `rms(x_r) / 10^(level_db[r]/20)` (a
/// signal-to-noise ratio in dB, as audiomentations' `calculate_desired_noise_rms`); with
/// `SK_AUGMENT_ABSOLUTE` it is `10^(level_db[r]/20)`. With `measure != 0` it is divided by
/// the noise row's RMS (the added noise then has exactly that RMS; a noise RMS below
/// `1e-9` leaves the row unchanged, as audiomentations' `AddBackgroundNoise`); with
/// `measure == 0` the noise is taken as unit RMS (a standard normal draw: audiomentations'
/// `AddGaussianSNR`). RMS values are accumulated in double over the row, in one pass.
///
/// Arguments: `level_db` holds `rows` finite values, else `SK_ERR_BAD_ARGUMENT`; `mode`
/// one of the two constants and `measure` 0 or 1, else `SK_ERR_BAD_ARGUMENT`;
/// `noise_rows` is 1 or `rows` (any value when `rows == 0`), else
/// `SK_ERR_BAD_ARGUMENT`; `noise` holds `noise_rows·n` elements and may not overlap `y`
/// (nor may `level_db`); `x`, `y` as `sk_augment_gain_f32`. Returns `SK_OK`,
/// `SK_ERR_BAD_ARGUMENT`, `SK_ERR_NULL_POINTER`, `SK_ERR_MISALIGNED`, `SK_ERR_LENGTH`,
/// `SK_ERR_OVERLAP`; on error nothing is written. Thread-safe.
///
/// Real-time safe: yes.
///
/// # Safety
/// `x` readable and `y` writable for `rows·n` elements, `noise` readable for
/// `noise_rows·n`, `level_db` readable for `rows`.
#[no_mangle]
pub unsafe extern "C" fn sk_augment_mix_f32(
    x: *const f32,
    noise: *const f32,
    noise_rows: usize,
    level_db: *const f64,
    mode: i32,
    measure: i32,
    y: *mut f32,
    rows: usize,
    n: usize,
) -> i32 {
    ffi_boundary!("sk_augment_mix_f32", {
        let level = match mode {
            SK_AUGMENT_SNR => MixLevel::Snr,
            SK_AUGMENT_ABSOLUTE => MixLevel::Absolute,
            _ => {
                return Err(SkError::BadArgument(format!(
                    "mode = {mode} is neither SK_AUGMENT_SNR (0) nor SK_AUGMENT_ABSOLUTE (1)"
                )))
            }
        };
        if measure != 0 && measure != 1 {
            return Err(SkError::BadArgument(format!(
                "measure = {measure} is neither 0 nor 1"
            )));
        }
        if rows > 0 && noise_rows != 1 && noise_rows != rows {
            return Err(SkError::BadArgument(format!(
                "noise_rows = {noise_rows} is neither 1 nor rows = {rows}"
            )));
        }
        let nlen = total(noise_rows, n)?;
        // SAFETY: the caller guarantees the extents (Safety above); run, params and the
        // noise checks validate every pointer and overlap before building slices.
        unsafe {
            run(
                x,
                y,
                rows,
                n,
                |_, yb| {
                    let nb = Buf::new("noise", noise, nlen);
                    nb.check()?;
                    alias(&nb, yb, false)?;
                    let l = params(
                        Buf::new("level_db", level_db, rows),
                        yb,
                        |v: f64| v.is_finite(),
                        "not finite",
                    )?;
                    // SAFETY: validated above, disjoint from y.
                    Ok((nb.slice(), l))
                },
                |ys, (nz, l)| mix_rows(ys, nz, noise_rows, n, l, level, measure == 1),
            )
        }
    })
}

/// Per-row gain: `y[r·n + i] = x[r·n + i] · gains[r]` for `r < rows`, `i < n`, each
/// product rounded once in `double` (numpy's `x * g`). A gain of `-1` inverts the
/// polarity, `1` copies.
///
/// Arguments: `gains` holds `rows` finite values, else `SK_ERR_BAD_ARGUMENT`; it must not
/// overlap `y`; `x` and `y` hold `rows·n` elements (`y == x` is in place); pointers may be
/// NULL only for zero elements and must be aligned. Returns `SK_OK`,
/// `SK_ERR_BAD_ARGUMENT`, `SK_ERR_NULL_POINTER`, `SK_ERR_MISALIGNED`, `SK_ERR_LENGTH`,
/// `SK_ERR_OVERLAP`; on error nothing is written. Thread-safe.
///
/// Real-time safe: yes.
///
/// # Safety
/// `x` readable and `y` writable for `rows·n` elements, `gains` readable for `rows`.
#[no_mangle]
pub unsafe extern "C" fn sk_augment_gain_f64(
    x: *const f64,
    gains: *const f64,
    y: *mut f64,
    rows: usize,
    n: usize,
) -> i32 {
    ffi_boundary!("sk_augment_gain_f64", {
        // SAFETY: the caller guarantees the extents (Safety above); run and params check
        // every pointer and overlap before building slices.
        unsafe {
            run(
                x,
                y,
                rows,
                n,
                |_, yb| {
                    params(
                        Buf::new("gains", gains, rows),
                        yb,
                        |g: f64| g.is_finite(),
                        "not finite",
                    )
                },
                |ys, g| gain_rows(ys, n, g),
            )
        }
    })
}

/// Per-row clipping: `y[r·n + i] = min(max(x[r·n + i], lo[r]), hi[r])`; NaN stays NaN
/// (numpy's `np.clip`).
///
/// Arguments: `lo` and `hi` hold `rows` finite values with `lo[r] <= hi[r]`, else
/// `SK_ERR_BAD_ARGUMENT`; neither may overlap `y`; `x`, `y` as `sk_augment_gain_f64`.
/// Returns `SK_OK`, `SK_ERR_BAD_ARGUMENT`, `SK_ERR_NULL_POINTER`, `SK_ERR_MISALIGNED`,
/// `SK_ERR_LENGTH`, `SK_ERR_OVERLAP`; on error nothing is written. Thread-safe.
///
/// Real-time safe: yes.
///
/// # Safety
/// `x` readable and `y` writable for `rows·n` elements, `lo` and `hi` readable for `rows`.
#[no_mangle]
pub unsafe extern "C" fn sk_augment_clip_f64(
    x: *const f64,
    lo: *const f64,
    hi: *const f64,
    y: *mut f64,
    rows: usize,
    n: usize,
) -> i32 {
    ffi_boundary!("sk_augment_clip_f64", {
        // SAFETY: the caller guarantees the extents (Safety above); run and params check
        // every pointer and overlap before building slices.
        unsafe {
            run(
                x,
                y,
                rows,
                n,
                |_, yb| {
                    let l = params(
                        Buf::new("lo", lo, rows),
                        yb,
                        |v: f64| v.is_finite(),
                        "not finite",
                    )?;
                    let h = params(
                        Buf::new("hi", hi, rows),
                        yb,
                        |v: f64| v.is_finite(),
                        "not finite",
                    )?;
                    if let Some(r) = (0..rows).find(|&r| l[r] > h[r]) {
                        return Err(SkError::BadArgument(format!(
                            "lo[{r}] = {:?} is above hi[{r}] = {:?}; nothing was written",
                            l[r], h[r]
                        )));
                    }
                    Ok((l, h))
                },
                |ys, (l, h)| clip_rows(ys, n, l, h),
            )
        }
    })
}

/// Bit-depth reduction: `y[r·n + i] = round(x[r·n + i] · q[r]) / q[r]`, rounding half to
/// even (numpy's `np.round(x * q) / q`; audiomentations' `BitCrush` uses
/// `q = 2^bits / 2 + 1`). Product and quotient rounded in the element type.
///
/// Arguments: `q` holds `rows` finite values `> 0`, else `SK_ERR_BAD_ARGUMENT`; it may not
/// overlap `y`; `x`, `y` as `sk_augment_gain_f64`. Returns `SK_OK`,
/// `SK_ERR_BAD_ARGUMENT`, `SK_ERR_NULL_POINTER`, `SK_ERR_MISALIGNED`, `SK_ERR_LENGTH`,
/// `SK_ERR_OVERLAP`; on error nothing is written. Thread-safe.
///
/// Real-time safe: yes.
///
/// # Safety
/// `x` readable and `y` writable for `rows·n` elements, `q` readable for `rows`.
#[no_mangle]
pub unsafe extern "C" fn sk_augment_bitcrush_f64(
    x: *const f64,
    q: *const f64,
    y: *mut f64,
    rows: usize,
    n: usize,
) -> i32 {
    ffi_boundary!("sk_augment_bitcrush_f64", {
        // SAFETY: the caller guarantees the extents (Safety above); run and params check
        // every pointer and overlap before building slices.
        unsafe {
            run(
                x,
                y,
                rows,
                n,
                |_, yb| {
                    params(
                        Buf::new("q", q, rows),
                        yb,
                        |v: f64| v.is_finite() && v > 0.0,
                        "must be finite and > 0",
                    )
                },
                |ys, q| bitcrush_rows(ys, n, q),
            )
        }
    })
}

/// Per-row gain transition (audiomentations' `GainTransition`): row `r` is multiplied by
/// `10^(db0[r]/20)` before sample `t0[r]`, by a fade of `len[r]` samples whose gains are
/// `10 ** (linspace(db0[r], db1[r], len[r]) / 20)` from `t0[r]` on, and by `10^(db1[r]/20)`
/// after it. `t0[r]` may be negative and `t0[r] + len[r]` may run past `n`: the fade is cut
/// to the row. Each fade gain is computed as numpy does on arrays of the element type (dB
/// values rounded to it, divided by 20 in it, `10^·` rounded to it once), so results agree
/// with audiomentations' on the same parameters within one rounding of each gain (numpy may
/// use a vectorised float32 power).
///
/// Arguments: `db0`, `db1` hold `rows` finite values, `len` holds `rows` values `>= 1`, else
/// `SK_ERR_BAD_ARGUMENT`; `t0` holds `rows` values (any); none may overlap `y`; `x`, `y` as
/// `sk_augment_gain_f64`. Returns `SK_OK`, `SK_ERR_BAD_ARGUMENT`, `SK_ERR_NULL_POINTER`,
/// `SK_ERR_MISALIGNED`, `SK_ERR_LENGTH`, `SK_ERR_OVERLAP`; on error nothing is written.
/// Thread-safe.
///
/// Real-time safe: yes.
///
/// # Safety
/// `x` readable and `y` writable for `rows·n` elements, `t0`, `len`, `db0`, `db1` readable for
/// `rows`.
#[no_mangle]
pub unsafe extern "C" fn sk_augment_fade_f64(
    x: *const f64,
    t0: *const isize,
    len: *const usize,
    db0: *const f64,
    db1: *const f64,
    y: *mut f64,
    rows: usize,
    n: usize,
) -> i32 {
    ffi_boundary!("sk_augment_fade_f64", {
        // SAFETY: the caller guarantees the extents (Safety above); run, params and the t0/len
        // checks validate every pointer and overlap before building slices.
        unsafe {
            run(
                x,
                y,
                rows,
                n,
                |_, yb| {
                    let a = params(
                        Buf::new("db0", db0, rows),
                        yb,
                        |v: f64| v.is_finite(),
                        "not finite",
                    )?;
                    let b = params(
                        Buf::new("db1", db1, rows),
                        yb,
                        |v: f64| v.is_finite(),
                        "not finite",
                    )?;
                    let tb = Buf::new("t0", t0, rows);
                    tb.check()?;
                    alias(&tb, yb, false)?;
                    let lb = Buf::new("len", len, rows);
                    lb.check()?;
                    alias(&lb, yb, false)?;
                    // SAFETY: both validated above, disjoint from y.
                    let (ts, ls) = (tb.slice(), lb.slice());
                    if let Some(r) = ls.iter().position(|&l| l == 0) {
                        return Err(SkError::BadArgument(format!(
                            "len[{r}] = 0: a fade has at least one sample; nothing was written"
                        )));
                    }
                    Ok((ts, ls, a, b))
                },
                |ys, (ts, ls, a, b)| fade_rows(ys, n, ts, ls, a, b),
            )
        }
    })
}

/// Adds noise at a level: `y[r·n + i] = x[r·n + i] + noise[m·n + i] · s[r]` with `m = 0`
/// when `noise_rows == 1` (one noise shared by every row), else `m = r`.
///
/// The factor `s[r]` (computed in double, then rounded to the element type): with `mode ==
/// SK_AUGMENT_SNR` the wanted noise RMS is `rms(x_r) / 10^(level_db[r]/20)` (a
/// signal-to-noise ratio in dB, as audiomentations' `calculate_desired_noise_rms`); with
/// `SK_AUGMENT_ABSOLUTE` it is `10^(level_db[r]/20)`. With `measure != 0` it is divided by
/// the noise row's RMS (the added noise then has exactly that RMS; a noise RMS below
/// `1e-9` leaves the row unchanged, as audiomentations' `AddBackgroundNoise`); with
/// `measure == 0` the noise is taken as unit RMS (a standard normal draw: audiomentations'
/// `AddGaussianSNR`). RMS values are accumulated in double over the row, in one pass.
///
/// Arguments: `level_db` holds `rows` finite values, else `SK_ERR_BAD_ARGUMENT`; `mode`
/// one of the two constants and `measure` 0 or 1, else `SK_ERR_BAD_ARGUMENT`;
/// `noise_rows` is 1 or `rows` (any value when `rows == 0`), else
/// `SK_ERR_BAD_ARGUMENT`; `noise` holds `noise_rows·n` elements and may not overlap `y`
/// (nor may `level_db`); `x`, `y` as `sk_augment_gain_f64`. Returns `SK_OK`,
/// `SK_ERR_BAD_ARGUMENT`, `SK_ERR_NULL_POINTER`, `SK_ERR_MISALIGNED`, `SK_ERR_LENGTH`,
/// `SK_ERR_OVERLAP`; on error nothing is written. Thread-safe.
///
/// Real-time safe: yes.
///
/// # Safety
/// `x` readable and `y` writable for `rows·n` elements, `noise` readable for
/// `noise_rows·n`, `level_db` readable for `rows`.
#[no_mangle]
pub unsafe extern "C" fn sk_augment_mix_f64(
    x: *const f64,
    noise: *const f64,
    noise_rows: usize,
    level_db: *const f64,
    mode: i32,
    measure: i32,
    y: *mut f64,
    rows: usize,
    n: usize,
) -> i32 {
    ffi_boundary!("sk_augment_mix_f64", {
        let level = match mode {
            SK_AUGMENT_SNR => MixLevel::Snr,
            SK_AUGMENT_ABSOLUTE => MixLevel::Absolute,
            _ => {
                return Err(SkError::BadArgument(format!(
                    "mode = {mode} is neither SK_AUGMENT_SNR (0) nor SK_AUGMENT_ABSOLUTE (1)"
                )))
            }
        };
        if measure != 0 && measure != 1 {
            return Err(SkError::BadArgument(format!(
                "measure = {measure} is neither 0 nor 1"
            )));
        }
        if rows > 0 && noise_rows != 1 && noise_rows != rows {
            return Err(SkError::BadArgument(format!(
                "noise_rows = {noise_rows} is neither 1 nor rows = {rows}"
            )));
        }
        let nlen = total(noise_rows, n)?;
        // SAFETY: the caller guarantees the extents (Safety above); run, params and the
        // noise checks validate every pointer and overlap before building slices.
        unsafe {
            run(
                x,
                y,
                rows,
                n,
                |_, yb| {
                    let nb = Buf::new("noise", noise, nlen);
                    nb.check()?;
                    alias(&nb, yb, false)?;
                    let l = params(
                        Buf::new("level_db", level_db, rows),
                        yb,
                        |v: f64| v.is_finite(),
                        "not finite",
                    )?;
                    // SAFETY: validated above, disjoint from y.
                    Ok((nb.slice(), l))
                },
                |ys, (nz, l)| mix_rows(ys, nz, noise_rows, n, l, level, measure == 1),
            )
        }
    })
}

/// Fills `y` with seeded standard normal draws.
///
/// # Safety
/// `y` writable for `rows·n` elements.
unsafe fn normal<T: Float>(seed: u64, y: *mut T, rows: usize, n: usize) -> SkResult<()> {
    let yb = Buf::out("y", y, total(rows, n)?);
    yb.check()?;
    // SAFETY: checked above; writable is the caller's obligation.
    let ys = unsafe { yb.slice_mut() };
    crate::kernels::augment::normal::normal_rows(ys, n, seed);
    Ok(())
}

/// Standard normal noise: fills `y` (`rows × n`, row-major) with N(0, 1) draws, row `r` from
/// its own stream of `seed`, so a call is reproducible from the seed and independent of the
/// thread count. The generator: xoshiro256++ whose state is the first four SplitMix64 outputs
/// from `seed + r·0xD1B54A32D192ED03` (wrapping), and Marsaglia and Tsang's 128-layer
/// ziggurat on the upper 32 bits of each output (exact tail; values of 32-bit resolution),
/// computed in double and rounded to float.
///
/// Returns `SK_OK`, `SK_ERR_NULL_POINTER` (y NULL with `rows·n > 0`), `SK_ERR_MISALIGNED`,
/// `SK_ERR_LENGTH` (`rows·n` overflows or passes the address space); on error nothing is
/// written. Thread-safe (large batches are split over up to `SIGKERN_THREADS` threads).
///
/// Real-time safe: no (may use the worker threads).
///
/// # Safety
/// `y` writable for `rows·n` floats.
#[no_mangle]
pub unsafe extern "C" fn sk_augment_normal_f32(
    seed: u64,
    y: *mut f32,
    rows: usize,
    n: usize,
) -> i32 {
    ffi_boundary!("sk_augment_normal_f32", {
        // SAFETY: this function's `# Safety` contract is `normal`'s.
        unsafe { normal(seed, y, rows, n) }
    })
}

/// Standard normal noise in doubles: the values of `sk_augment_normal_f32` before rounding.
/// Rules as `sk_augment_normal_f32` (8-byte alignment).
///
/// Real-time safe: no (may use the worker threads).
///
/// # Safety
/// `y` writable for `rows·n` doubles.
#[no_mangle]
pub unsafe extern "C" fn sk_augment_normal_f64(
    seed: u64,
    y: *mut f64,
    rows: usize,
    n: usize,
) -> i32 {
    ffi_boundary!("sk_augment_normal_f64", {
        // SAFETY: this function's `# Safety` contract is `normal`'s.
        unsafe { normal(seed, y, rows, n) }
    })
}

/// `sk_augment_add_normal_*` through the C arguments.
///
/// # Safety
/// `x` readable and `y` writable for `rows·n` elements, `level_db` readable for `rows`.
unsafe fn add_normal<T: Float>(
    x: *const T,
    seed: u64,
    level_db: *const f64,
    y: *mut T,
    rows: usize,
    n: usize,
) -> SkResult<()> {
    // SAFETY: the caller guarantees the extents (Safety above); run and params check every
    // pointer and overlap before building slices.
    unsafe {
        run(
            x,
            y,
            rows,
            n,
            |_, yb| {
                let lv = params(
                    Buf::new("level_db", level_db, rows),
                    yb,
                    |v: f64| v.is_finite(),
                    "not finite",
                )?;
                let mut s = Vec::new();
                s.try_reserve_exact(rows)
                    .map_err(|_| SkError::Allocation(format!("{rows} scales")))?;
                s.extend(lv.iter().map(|&db| 10f64.powf(db / 20.0)));
                Ok(s)
            },
            |ys, s| crate::kernels::augment::normal::add_normal_rows(ys, n, seed, &s),
        )
    }
}

/// Adds seeded standard normal noise at an absolute level in one pass:
/// `y[r·n + i] = x[r·n + i] + z[r·n + i] · s[r]`, where `z` holds the values
/// `sk_augment_normal_f32(seed, z, rows, n)` writes (row `r` from its own stream of `seed`) and
/// `s[r] = 10^(level_db[r]/20)` computed in double and rounded to float (a row whose factor
/// underflows to 0 in double is left unchanged); product and sum are rounded in float. The same result as `sk_augment_normal_f32` into a buffer followed by
/// `sk_augment_mix_f32(x, z, rows, level_db, SK_AUGMENT_ABSOLUTE, 0, y, rows, n)`, without the
/// buffer (audiomentations' `AddGaussianNoise` and `AddGaussianSNR` with the standard
/// deviation `10^(level_db/20)`).
///
/// Arguments: `level_db` holds `rows` finite values, else `SK_ERR_BAD_ARGUMENT`; it may not
/// overlap `y`; `x` and `y` hold `rows·n` floats (`y == x` is in place; any other overlap is
/// `SK_ERR_OVERLAP`); pointers may be NULL only for zero elements and must be aligned.
/// Returns `SK_OK`, `SK_ERR_BAD_ARGUMENT`, `SK_ERR_NULL_POINTER`, `SK_ERR_MISALIGNED`,
/// `SK_ERR_LENGTH`, `SK_ERR_OVERLAP`, `SK_ERR_ALLOCATION`; on error nothing is written.
/// Thread-safe (large batches are split over up to `SIGKERN_THREADS` threads, with the same
/// values).
///
/// Real-time safe: no (allocates the row factors; may use the worker threads).
///
/// # Safety
/// `x` readable and `y` writable for `rows·n` floats, `level_db` readable for `rows` doubles.
#[no_mangle]
pub unsafe extern "C" fn sk_augment_add_normal_f32(
    x: *const f32,
    seed: u64,
    level_db: *const f64,
    y: *mut f32,
    rows: usize,
    n: usize,
) -> i32 {
    ffi_boundary!("sk_augment_add_normal_f32", {
        // SAFETY: this function's `# Safety` contract is `add_normal`'s.
        unsafe { add_normal(x, seed, level_db, y, rows, n) }
    })
}

/// `sk_augment_add_normal_f32` on doubles (`sk_augment_normal_f64`'s values, factors and
/// arithmetic in double). Rules as `sk_augment_add_normal_f32` (8-byte alignment).
///
/// Real-time safe: no (allocates the row factors; may use the worker threads).
///
/// # Safety
/// `x` readable and `y` writable for `rows·n` doubles, `level_db` readable for `rows` doubles.
#[no_mangle]
pub unsafe extern "C" fn sk_augment_add_normal_f64(
    x: *const f64,
    seed: u64,
    level_db: *const f64,
    y: *mut f64,
    rows: usize,
    n: usize,
) -> i32 {
    ffi_boundary!("sk_augment_add_normal_f64", {
        // SAFETY: this function's `# Safety` contract is `add_normal`'s.
        unsafe { add_normal(x, seed, level_db, y, rows, n) }
    })
}

/// `sk_augment_sosfilt_*` through the C arguments.
///
/// # Safety
/// `x` readable and `y` writable for `rows·n` elements, `sos` readable for
/// `rows·n_sections·6` doubles.
unsafe fn sosfilt_rows_ffi<T: Float>(
    x: *const T,
    sos: *const f64,
    n_sections: usize,
    y: *mut T,
    rows: usize,
    n: usize,
) -> SkResult<()> {
    if n_sections == 0 {
        return Err(SkError::Length(
            "n_sections is 0; a cascade needs at least one section".into(),
        ));
    }
    let sos_len = rows
        .checked_mul(n_sections)
        .and_then(|v| v.checked_mul(6))
        .ok_or_else(|| SkError::Length("rows × n_sections × 6 does not fit in size_t".into()))?;
    // SAFETY: the caller guarantees the extents (Safety above); `run` checks x and y, the
    // closure checks sos (NULL, alignment, extent, no overlap with y) before building a slice.
    unsafe {
        run(
            x,
            y,
            rows,
            n,
            |xb, yb| {
                let sb = Buf::new("sos", sos, sos_len);
                sb.check()?;
                alias(&sb, yb, false)?;
                // SAFETY: both checked above; the cascades are built from x before any write.
                RowCascades::new(xb.slice(), n, sb.slice())
            },
            |ys, k| k.run(crate::simd::current(), ys),
        )
    }
}

/// Each row through its own cascade of second-order sections, in double precision, started in
/// steady state on the row's first sample: row `r` (`x[r·n ..]`, `n` samples) is filtered by
/// the `n_sections` sections `sos[(r·n_sections + s)·6 ..]` (scipy's layout `b0 b1 b2 a0 a1
/// a2`, each divided by its `a0`) from the state `sosfilt_zi(sos_r) · x[r·n]`, i.e.
/// `scipy.signal.sosfilt(sos_r, x_r, zi=sosfilt_zi(sos_r) * x_r[0])` on the row in double
/// (the random-filter augmentations of audiomentations), and the output rounded to float
/// once. Each row gives the same values as `sk_sosfilt_f64` on that row in double with that
/// initial state.
///
/// Arguments: `n_sections >= 1` (else `SK_ERR_LENGTH`); `sos` holds `rows·n_sections·6`
/// finite doubles with `a0 != 0` and stable sections, else `SK_ERR_BAD_ARGUMENT`; it may not
/// overlap `y`; `x` and `y` hold `rows·n` floats (`y == x` is in place; any other overlap is
/// `SK_ERR_OVERLAP`); a first sample that makes the initial state non-finite (NaN, inf) is
/// `SK_ERR_NON_FINITE`. Pointers may be NULL only for zero elements and must be aligned.
/// Returns `SK_OK`, `SK_ERR_BAD_ARGUMENT`, `SK_ERR_NON_FINITE`, `SK_ERR_NULL_POINTER`,
/// `SK_ERR_MISALIGNED`, `SK_ERR_LENGTH`, `SK_ERR_OVERLAP`, `SK_ERR_ALLOCATION`; on error
/// nothing is written. Thread-safe (large batches are split over up to `SIGKERN_THREADS`
/// threads, results independent of the split).
///
/// Real-time safe: no (allocates the cascades and a double buffer per thread; may use the
/// worker threads).
///
/// # Safety
/// `x` readable and `y` writable for `rows·n` floats, `sos` readable for
/// `rows·n_sections·6` doubles.
#[no_mangle]
pub unsafe extern "C" fn sk_augment_sosfilt_f32(
    x: *const f32,
    sos: *const f64,
    n_sections: usize,
    y: *mut f32,
    rows: usize,
    n: usize,
) -> i32 {
    ffi_boundary!("sk_augment_sosfilt_f32", {
        // SAFETY: this function's `# Safety` contract is `sosfilt_rows_ffi`'s.
        unsafe { sosfilt_rows_ffi(x, sos, n_sections, y, rows, n) }
    })
}

/// `sk_augment_sosfilt_f32` on doubles (no rounding of the output). Rules as
/// `sk_augment_sosfilt_f32` (8-byte alignment).
///
/// Real-time safe: no (allocates the cascades and a double buffer per thread; may use the
/// worker threads).
///
/// # Safety
/// `x` readable and `y` writable for `rows·n` doubles, `sos` readable for
/// `rows·n_sections·6` doubles.
#[no_mangle]
pub unsafe extern "C" fn sk_augment_sosfilt_f64(
    x: *const f64,
    sos: *const f64,
    n_sections: usize,
    y: *mut f64,
    rows: usize,
    n: usize,
) -> i32 {
    ffi_boundary!("sk_augment_sosfilt_f64", {
        // SAFETY: this function's `# Safety` contract is `sosfilt_rows_ffi`'s.
        unsafe { sosfilt_rows_ffi(x, sos, n_sections, y, rows, n) }
    })
}
