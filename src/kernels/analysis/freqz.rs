//! Frequency responses of digital filters as `scipy.signal` evaluates them: `freqz` (a transfer
//! function `B(z)/A(z)` at given angular frequencies), `freqz_sos` (a cascade of second-order
//! sections) and `group_delay`.
//!
//! Every response is a ratio of polynomials in `z⁻¹ = e^{−iω}` evaluated by Horner's rule from
//! the highest power down, with the operations in numpy's order (`c + acc·z` with numpy's
//! complex product, numpy's scaled complex division), so results agree with scipy's to a few
//! ulps of the values involved. Coefficients are complex (interleaved `re, im`); real filters
//! pass zero imaginary parts (the cost is the same: Horner's products are complex anyway).

use crate::error::SkResult;
use crate::kernels::alloc::try_vec;
use crate::kernels::spectral::Complex;

type C64 = Complex<f64>;

/// numpy's complex product `(ar·br − ai·bi, ar·bi + ai·br)` (no fused multiply-add).
#[inline(always)]
fn mul(a: C64, b: C64) -> C64 {
    C64::new(a.re * b.re - a.im * b.im, a.re * b.im + a.im * b.re)
}

/// numpy's complex division (Smith's algorithm with numpy's branches): `x / 0` gives the
/// componentwise `re/0, im/0` (infinities, or NaN for `0/0`), as numpy does.
#[inline(always)]
pub(crate) fn div(a: C64, b: C64) -> C64 {
    let (abr, abi) = (b.re.abs(), b.im.abs());
    if abr >= abi {
        if abr == 0.0 && abi == 0.0 {
            C64::new(a.re / abr, a.im / abr)
        } else {
            let rat = b.im / b.re;
            let scl = 1.0 / (b.re + b.im * rat);
            C64::new((a.re + a.im * rat) * scl, (a.im - a.re * rat) * scl)
        }
    } else {
        let rat = b.re / b.im;
        let scl = 1.0 / (b.im + b.re * rat);
        C64::new((a.re * rat + a.im) * scl, (a.im * rat - a.re) * scl)
    }
}

/// `Σ c[k]·zᵏ` by Horner's rule from the last coefficient (numpy's `polyval` order). `c` not
/// empty.
#[inline(always)]
fn horner(c: &[C64], z: C64) -> C64 {
    let (last, rest) = c.split_last().expect("at least one coefficient");
    let mut acc = *last;
    for &ck in rest.iter().rev() {
        let p = mul(acc, z);
        acc = C64::new(ck.re + p.re, ck.im + p.im);
    }
    acc
}

/// `e^{−iω}` as numpy computes `exp(-1j·ω)`: `(cos ω, −sin ω)`.
#[inline(always)]
fn zinv(w: f64) -> C64 {
    let (s, c) = w.sin_cos();
    C64::new(c, -s)
}

/// `h[i] = B(z)/A(z)` at `z = e^{−iω}`, `ω = w[i]`, with `B = Σ b[k] zᵏ`, `A = Σ a[k] zᵏ`.
/// Point `i` uses the coefficients `b[i·b_stride ..][..nb]` and `a[i·a_stride ..][..na]`
/// (stride 0: one filter for every point). `nb, na ≥ 1`; the slices hold what the strides
/// reach.
#[allow(clippy::too_many_arguments)]
pub fn freqz(
    b: &[C64],
    nb: usize,
    b_stride: usize,
    a: &[C64],
    na: usize,
    a_stride: usize,
    w: &[f64],
    h: &mut [C64],
) {
    assert!(nb >= 1 && na >= 1, "coefficient counts");
    assert!(h.len() == w.len(), "one output per frequency");
    if w.is_empty() {
        return;
    }
    assert!(b.len() >= (w.len() - 1) * b_stride + nb, "b span");
    assert!(a.len() >= (w.len() - 1) * a_stride + na, "a span");
    for (i, (&wi, hi)) in w.iter().zip(h.iter_mut()).enumerate() {
        let z = zinv(wi);
        let bi = &b[i * b_stride..i * b_stride + nb];
        let ai = &a[i * a_stride..i * a_stride + na];
        *hi = div(horner(bi, z), horner(ai, z));
    }
}

/// The response of a cascade of second-order sections `sos[s] = [b0, b1, b2, a0, a1, a2]` at
/// `z = e^{−iω}`: `h[i] = Π_s B_s(z)/A_s(z)`, each section as [`freqz`] evaluates it, multiplied
/// in section order (scipy's `freqz_sos`). `sos` not empty.
pub fn freqz_sos(sos: &[[f64; 6]], w: &[f64], h: &mut [C64]) {
    assert!(!sos.is_empty(), "at least one section");
    assert!(h.len() == w.len(), "one output per frequency");
    let r = |x: f64| C64::new(x, 0.0);
    for (&wi, hi) in w.iter().zip(h.iter_mut()) {
        let z = zinv(wi);
        let mut acc = C64::new(1.0, 0.0);
        for (k, s) in sos.iter().enumerate() {
            let num = horner(&[r(s[0]), r(s[1]), r(s[2])], z);
            let den = horner(&[r(s[3]), r(s[4]), r(s[5])], z);
            let q = div(num, den);
            // scipy starts from the float 1.0: the first product is the section itself.
            acc = if k == 0 { q } else { mul(acc, q) };
        }
        *hi = acc;
    }
}

/// Group delay of `B(z)/A(z)` at `z = e^{−iω}` as scipy computes it: `c = b ∗ conj(reverse(a))`,
/// `gd = Re(Σ k·c[k]zᵏ / Σ c[k]zᵏ) − na + 1`. A point where the denominator `Σ c[k]zᵏ` is
/// exactly 0 gives a non-finite `gd` (the caller decides, scipy sets 0 and warns);
/// `den_abs[i]` (if given) receives `|Σ c[k]zᵏ|` so the caller can flag near-singular points.
/// `b`, `a` not empty. Allocates the `nb + na − 1` combined coefficients (before writing).
pub fn group_delay(
    b: &[C64],
    a: &[C64],
    w: &[f64],
    gd: &mut [f64],
    mut den_abs: Option<&mut [f64]>,
) -> SkResult<()> {
    assert!(!b.is_empty() && !a.is_empty(), "coefficients");
    assert!(gd.len() == w.len(), "one output per frequency");
    if let Some(d) = den_abs.as_deref() {
        assert!(d.len() == w.len(), "one |den| per frequency");
    }
    let nc = b.len() + a.len() - 1;
    let mut c = try_vec(nc, C64::new(0.0, 0.0), "the combined coefficients")?;
    let mut cr = try_vec(nc, C64::new(0.0, 0.0), "the weighted coefficients")?;
    // c[k] = Σ_j b[j]·conj(a[na−1−(k−j)]), summed with j ascending.
    let na = a.len();
    for (k, ck) in c.iter_mut().enumerate() {
        let lo = k.saturating_sub(na - 1);
        let hi = k.min(b.len() - 1);
        let mut acc = C64::new(0.0, 0.0);
        for j in lo..=hi {
            let ar = a[na - 1 - (k - j)];
            let p = mul(b[j], C64::new(ar.re, -ar.im));
            acc = C64::new(acc.re + p.re, acc.im + p.im);
        }
        *ck = acc;
    }
    for (k, (crk, ck)) in cr.iter_mut().zip(&c).enumerate() {
        *crk = C64::new(ck.re * k as f64, ck.im * k as f64);
    }
    let shift = na as f64;
    for (i, (&wi, g)) in w.iter().zip(gd.iter_mut()).enumerate() {
        let z = zinv(wi);
        let num = horner(&cr, z);
        let den = horner(&c, z);
        *g = div(num, den).re - shift + 1.0;
        if let Some(d) = den_abs.as_deref_mut() {
            d[i] = den.re.hypot(den.im);
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn c(re: f64, im: f64) -> C64 {
        C64::new(re, im)
    }

    #[test]
    fn division_follows_numpy() {
        let q = div(c(1.0, 2.0), c(3.0, -4.0));
        assert!((q.re - (-0.2)).abs() < 1e-16 && (q.im - 0.4).abs() < 1e-16);
        let q = div(c(1.0, 0.0), c(0.0, 0.0));
        assert!(q.re.is_infinite() && q.im.is_nan());
        let q = div(c(0.0, 0.0), c(0.0, 0.0));
        assert!(q.re.is_nan());
    }

    #[test]
    fn one_pole_closed_form() {
        // H = 1 / (1 − p z⁻¹) at ω: 1/(1 − p e^{−iω}).
        let p = 0.9;
        let w = [0.0, 0.3, std::f64::consts::PI];
        let mut h = [c(0.0, 0.0); 3];
        freqz(
            &[c(1.0, 0.0)],
            1,
            0,
            &[c(1.0, 0.0), c(-p, 0.0)],
            2,
            0,
            &w,
            &mut h,
        );
        for (wi, hi) in w.iter().zip(&h) {
            let d = c(1.0 - p * wi.cos(), p * wi.sin());
            let want = div(c(1.0, 0.0), d);
            assert!((hi.re - want.re).abs() < 1e-14 && (hi.im - want.im).abs() < 1e-14);
        }
        // the same as one section
        let mut hs = [c(0.0, 0.0); 3];
        freqz_sos(&[[1.0, 0.0, 0.0, 1.0, -p, 0.0]], &w, &mut hs);
        assert_eq!(h, hs);
    }

    #[test]
    fn pure_delay_group_delay() {
        // z⁻³: group delay 3 everywhere.
        let w = [0.0, 1.0, 2.5];
        let mut gd = [0.0; 3];
        let b = [c(0.0, 0.0), c(0.0, 0.0), c(0.0, 0.0), c(1.0, 0.0)];
        group_delay(&b, &[c(1.0, 0.0)], &w, &mut gd, None).unwrap();
        for g in gd {
            assert!((g - 3.0).abs() < 1e-14, "{g}");
        }
        // one pole at p: τ(ω) = (p·cos ω − p²)/(1 − 2p·cos ω + p²)
        let p = 0.5;
        let mut den = [0.0; 3];
        group_delay(
            &[c(1.0, 0.0)],
            &[c(1.0, 0.0), c(-p, 0.0)],
            &w,
            &mut gd,
            Some(&mut den),
        )
        .unwrap();
        for (wi, g) in w.iter().zip(gd) {
            let want = (p * wi.cos() - p * p) / (1.0 - 2.0 * p * wi.cos() + p * p);
            assert!((g - want).abs() < 1e-14, "{g} vs {want}");
        }
        assert!(den.iter().all(|d| *d > 0.0));
    }
}
