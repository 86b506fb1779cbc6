//! Frequency responses of digital filters (`scipy.signal.freqz`, `freqz_sos`/`sosfreqz`,
//! `group_delay`): `sk_freqz`, `sk_freqz_sos`, `sk_group_delay`.

use super::guard::{ffi_boundary, Buf};
use crate::error::{SkError, SkResult};
use crate::kernels::analysis::freqz::{freqz, freqz_sos, group_delay};
use crate::kernels::spectral::Complex;

fn overflow(what: &str) -> SkError {
    SkError::Length(format!("{what}: the sizes overflow size_t"))
}

/// A checked input buffer of `len` complex values stored as `2·len` interleaved doubles.
///
/// # Safety
/// `p` readable for `2·len` doubles (the caller's contract); no one writes them meanwhile.
unsafe fn complex_in<'a>(
    name: &'static str,
    p: *const f64,
    len: usize,
) -> SkResult<&'a [Complex<f64>]> {
    let doubles = len.checked_mul(2).ok_or_else(|| overflow(name))?;
    let b = Buf::new(name, p, doubles);
    b.check()?;
    // SAFETY: checked for 2·len doubles; `Complex<f64>` is `#[repr(C)] {re, im}` with f64's
    // alignment, so the doubles reinterpret as `len` complex values over the same memory.
    unsafe {
        let s = b.slice();
        Ok(std::slice::from_raw_parts(
            s.as_ptr().cast::<Complex<f64>>(),
            len,
        ))
    }
}

fn nonempty(name: &str, n: usize) -> SkResult<()> {
    if n == 0 {
        return Err(SkError::Length(format!(
            "{name} = 0: a polynomial needs at least one coefficient"
        )));
    }
    Ok(())
}

/// Elements a strided set of `n` coefficient vectors of `len` reaches: `(n−1)·stride + len`.
fn reach(name: &str, n: usize, stride: usize, len: usize) -> SkResult<usize> {
    if n == 0 {
        return Ok(0);
    }
    (n - 1)
        .checked_mul(stride)
        .and_then(|v| v.checked_add(len))
        .ok_or_else(|| overflow(name))
}

/// Frequency response of a digital filter, `scipy.signal.freqz`'s evaluation: for each of the
/// `n` angular frequencies `w[i]` (radians per sample),
/// `h[i] = B(z)/A(z)` at `z = e^{−i·w[i]}`, `B(z) = Σ_k b[k]·z^k` (`nb` coefficients) and
/// `A(z) = Σ_k a[k]·z^k` (`na`). Coefficients and `h` are complex, interleaved `(re, im)`
/// doubles (a real filter passes zero imaginary parts). Point `i` uses the coefficients starting
/// at complex index `i·b_stride` of `b` and `i·a_stride` of `a`: stride 0 evaluates one filter at
/// every frequency, stride `nb` (`na`) a different filter per frequency (scipy's broadcasting of
/// N-D coefficient arrays).
///
/// Evaluated by Horner's rule from the highest power with numpy's complex product and division,
/// so the result agrees with scipy's to a few ulps. A frequency where `A` is exactly 0 gives
/// numpy's `x/0` (infinities, NaN for `0/0`); NaN/inf frequencies or coefficients propagate to
/// the affected points.
///
/// - `nb`, `na` ≥ 1; `b` readable for `2·((n−1)·b_stride + nb)` doubles, `a` for
///   `2·((n−1)·a_stride + na)` (nothing is read when `n == 0`), `w` for `n`, `h` writable for
///   `2·n` doubles and overlapping no input.
/// - Returns `SK_OK`; `SK_ERR_LENGTH` (`nb` or `na` 0, sizes overflowing); `SK_ERR_NULL_POINTER`,
///   `SK_ERR_MISALIGNED`, `SK_ERR_OVERLAP` (`h` overlapping an input). On error `h` is untouched.
///   Thread-safe.
///
/// Real-time safe: yes.
///
/// # Safety
/// The buffers readable/writable for the sizes above.
#[no_mangle]
#[allow(clippy::too_many_arguments)]
pub unsafe extern "C" fn sk_freqz(
    b: *const f64,
    nb: usize,
    b_stride: usize,
    a: *const f64,
    na: usize,
    a_stride: usize,
    w: *const f64,
    n: usize,
    h: *mut f64,
) -> i32 {
    ffi_boundary!("sk_freqz", {
        nonempty("nb", nb)?;
        nonempty("na", na)?;
        let bl = reach("b", n, b_stride, nb)?;
        let al = reach("a", n, a_stride, na)?;
        let wb = Buf::new("w", w, n);
        wb.check()?;
        let hl = n.checked_mul(2).ok_or_else(|| overflow("h"))?;
        let hb = Buf::out("h", h, hl);
        hb.check()?;
        // SAFETY: the caller's contract; complex_in checks the pointers and sizes.
        let (bs, as_) = unsafe { (complex_in("b", b, bl)?, complex_in("a", a, al)?) };
        for (name, len) in [("b", bl), ("a", al)] {
            let p = if name == "b" { b } else { a };
            let ib = Buf::new(name, p, 2 * len);
            if hb.overlaps(&ib) {
                return Err(SkError::Overlap(format!("h overlaps the input {name}")));
            }
        }
        if hb.overlaps(&wb) {
            return Err(SkError::Overlap("h overlaps the input w".into()));
        }
        // SAFETY: w checked for n doubles, h for 2·n (reinterpreted as n complex values as in
        // complex_in) and h overlaps no input.
        let (ws, hs) = unsafe {
            let hs = hb.slice_mut();
            (
                wb.slice(),
                std::slice::from_raw_parts_mut(hs.as_mut_ptr().cast::<Complex<f64>>(), n),
            )
        };
        if n > 0 {
            freqz(bs, nb, b_stride, as_, na, a_stride, ws, hs);
        }
        Ok(())
    })
}

/// Frequency response of a cascade of second-order sections, `scipy.signal.freqz_sos`'s (and
/// `sosfreqz`'s) evaluation: `h[i] = Π_s B_s(z)/A_s(z)` at `z = e^{−i·w[i]}` for `n_sections`
/// rows `sos[6s..6s+6] = b0 b1 b2 a0 a1 a2` (real; `a0` is used as given, scipy requires 1),
/// each section evaluated as `sk_freqz` does and the ratios multiplied in section order. `h`
/// receives `n` complex values, interleaved `(re, im)`. A frequency where a section's
/// denominator is exactly 0 gives numpy's `x/0` there; NaN/inf propagate.
///
/// - `n_sections` ≥ 1; `sos` readable for `6·n_sections` doubles, `w` for `n`, `h` writable for
///   `2·n` doubles and overlapping no input.
/// - Returns `SK_OK`; `SK_ERR_LENGTH` (no sections, sizes overflowing); `SK_ERR_NULL_POINTER`,
///   `SK_ERR_MISALIGNED`, `SK_ERR_OVERLAP`. On error `h` is untouched. Thread-safe.
///
/// Real-time safe: yes.
///
/// # Safety
/// The buffers readable/writable for the sizes above.
#[no_mangle]
pub unsafe extern "C" fn sk_freqz_sos(
    sos: *const f64,
    n_sections: usize,
    w: *const f64,
    n: usize,
    h: *mut f64,
) -> i32 {
    ffi_boundary!("sk_freqz_sos", {
        if n_sections == 0 {
            return Err(SkError::Length(
                "n_sections = 0: cannot compute a response with no sections".into(),
            ));
        }
        let sl = n_sections.checked_mul(6).ok_or_else(|| overflow("sos"))?;
        let sb = Buf::new("sos", sos, sl);
        sb.check()?;
        let wb = Buf::new("w", w, n);
        wb.check()?;
        let hl = n.checked_mul(2).ok_or_else(|| overflow("h"))?;
        let hb = Buf::out("h", h, hl);
        hb.check()?;
        if hb.overlaps(&sb) || hb.overlaps(&wb) {
            return Err(SkError::Overlap("h overlaps the input sos or w".into()));
        }
        // SAFETY: sos checked for 6·n_sections doubles ([f64; 6] has f64's alignment and no
        // padding), w for n, h for 2·n reinterpreted as n complex values; h overlaps no input.
        let (ss, ws, hs) = unsafe {
            let hs = hb.slice_mut();
            (
                std::slice::from_raw_parts(sb.slice().as_ptr().cast::<[f64; 6]>(), n_sections),
                wb.slice(),
                std::slice::from_raw_parts_mut(hs.as_mut_ptr().cast::<Complex<f64>>(), n),
            )
        };
        freqz_sos(ss, ws, hs);
        Ok(())
    })
}

/// Group delay of a digital filter, `scipy.signal.group_delay`'s evaluation: with
/// `c = b ∗ conj(reverse(a))` (`nb + na − 1` coefficients),
/// `gd[i] = Re(Σ k·c[k]·z^k / Σ c[k]·z^k) − na + 1` at `z = e^{−i·w[i]}`, in samples.
/// Coefficients complex, interleaved `(re, im)` doubles (real filters pass zero imaginary
/// parts). Where the denominator `Σ c[k]·z^k` is exactly 0 (a zero or pole on the unit circle
/// at that frequency) `gd[i]` is not finite (numpy's `x/0`; scipy then reports 0 with a
/// warning). `den_abs` (NULL to skip) receives `|Σ c[k]·z^k|` per frequency, for flagging
/// near-singular points (scipy warns below `10·DBL_EPSILON`).
///
/// - `nb`, `na` ≥ 1; `b` readable for `2·nb` doubles, `a` for `2·na`, `w` for `n`; `gd` (and
///   `den_abs`) writable for `n` doubles, overlapping no input nor each other.
/// - Returns `SK_OK`; `SK_ERR_LENGTH` (`nb` or `na` 0, sizes overflowing);
///   `SK_ERR_NULL_POINTER`, `SK_ERR_MISALIGNED`, `SK_ERR_OVERLAP`, `SK_ERR_ALLOCATION`. On error
///   nothing is written. Thread-safe.
///
/// Real-time safe: no (allocates the combined coefficients).
///
/// # Safety
/// The buffers readable/writable for the sizes above; `den_abs` NULL or writable for `n`.
#[no_mangle]
#[allow(clippy::too_many_arguments)]
pub unsafe extern "C" fn sk_group_delay(
    b: *const f64,
    nb: usize,
    a: *const f64,
    na: usize,
    w: *const f64,
    n: usize,
    gd: *mut f64,
    den_abs: *mut f64,
) -> i32 {
    ffi_boundary!("sk_group_delay", {
        nonempty("nb", nb)?;
        nonempty("na", na)?;
        nb.checked_add(na).ok_or_else(|| overflow("nb + na"))?;
        // SAFETY: the caller's contract; complex_in checks the pointers and sizes.
        let (bs, as_) = unsafe { (complex_in("b", b, nb)?, complex_in("a", a, na)?) };
        let wb = Buf::new("w", w, n);
        wb.check()?;
        let gb = Buf::out("gd", gd, n);
        gb.check()?;
        let db = (!den_abs.is_null()).then(|| Buf::out("den_abs", den_abs, n));
        if let Some(d) = &db {
            d.check()?;
        }
        let ins = [Buf::new("b", b, 2 * nb), Buf::new("a", a, 2 * na), wb];
        for o in std::iter::once(&gb).chain(db.as_ref()) {
            if let Some(i) = ins.iter().find(|i| o.overlaps(*i)) {
                return Err(SkError::Overlap(format!(
                    "{} overlaps the input {}",
                    o.name, i.name
                )));
            }
        }
        if db.as_ref().is_some_and(|d| d.overlaps(&gb)) {
            return Err(SkError::Overlap("den_abs overlaps gd".into()));
        }
        // SAFETY: every buffer checked for its size; the outputs overlap no input nor each other.
        let (ws, gs, ds) = unsafe { (wb.slice(), gb.slice_mut(), db.map(|d| d.slice_mut())) };
        group_delay(bs, as_, ws, gs, ds)
    })
}
