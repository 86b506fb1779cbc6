//! The elliptic and Bessel analog low-pass prototypes, step for step as scipy's `ellipap` and
//! `besselap` (scipy.signal 1.17), with the special functions they need:
//!
//! - [`ellipap`]: Orfanidis' nome-based degree equation, the Landen-transform inverse of `sn`
//!   and the Jacobian elliptic functions by the arithmetic-geometric mean (ports of Cephes'
//!   `ellpk` and `ellpj` as scipy ships them);
//! - [`besselap`]: Campos–Calderón starting points, Aberth–Ehrlich iteration and Newton
//!   polishing on the zeros of `K_{N+1/2}(1/x)` (the common factor `sqrt(π x/2)` of the
//!   half-integer Bessel functions is left out: it cancels in every Newton step), then scipy's
//!   phase / delay / magnitude normalisation (the magnitude one by scipy's secant iteration).

use super::cplx::{c, np_div, C};
use crate::error::{SkError, SkResult};
use std::f64::consts::{FRAC_PI_2, LN_10, PI};

/// Cephes' machine epsilon (2⁻⁵³).
const MACHEP: f64 = 1.110_223_024_625_156_5e-16;
/// scipy's `EPSILON` in `_filter_design.py`.
const EPSILON: f64 = 2e-16;

fn polevl(x: f64, coef: &[f64]) -> f64 {
    coef.iter().fold(0.0, |a, &v| a * x + v)
}

/// Cephes `ellpk(x)` = K(1 − x), the complete elliptic integral of the first kind of the
/// complementary parameter (scipy's `ellipkm1`).
fn ellpk(x: f64) -> f64 {
    const P: [f64; 11] = [
        1.379_828_646_062_732_4e-4,
        2.280_257_240_058_756e-3,
        7.974_040_132_204_152e-3,
        9.858_213_790_212_26e-3,
        6.874_896_874_499_499e-3,
        6.189_010_336_376_876e-3,
        8.790_782_739_527_438e-3,
        1.493_804_489_168_052_5e-2,
        3.088_514_652_467_12e-2,
        9.657_359_028_116_9e-2,
        1.386_294_361_119_890_6,
    ];
    const Q: [f64; 11] = [
        2.940_789_550_485_985e-5,
        9.141_847_238_659_172e-4,
        5.940_583_037_531_678e-3,
        1.548_505_166_497_624e-2,
        2.390_896_027_159_249e-2,
        3.012_047_152_276_040_4e-2,
        3.737_743_141_738_232_4e-2,
        4.882_803_475_709_983e-2,
        7.031_249_969_639_575e-2,
        1.249_999_999_998_708_2e-1,
        0.5,
    ];
    const C1: f64 = 1.386_294_361_119_890_6; // log(4)
    if x.is_nan() || x < 0.0 {
        return f64::NAN;
    }
    if x > 1.0 {
        if x.is_infinite() {
            return 0.0;
        }
        return ellpk(1.0 / x) / x.sqrt();
    }
    if x > MACHEP {
        polevl(x, &P) - x.ln() * polevl(x, &Q)
    } else if x == 0.0 {
        f64::INFINITY
    } else {
        C1 - 0.5 * x.ln()
    }
}

/// scipy's `ellipk(m)` = K(m).
fn ellipk(m: f64) -> f64 {
    ellpk(1.0 - m)
}

/// Cephes `ellpj(u, m)` as scipy ships it: `(sn, cn, dn)`; `m` in [0, 1].
fn ellipj(u: f64, m: f64) -> (f64, f64, f64) {
    if !(0.0..=1.0).contains(&m) {
        return (f64::NAN, f64::NAN, f64::NAN);
    }
    if m < 1.0e-9 {
        let t = u.sin();
        let b = u.cos();
        let ai = 0.25 * m * (u - t * b);
        return (t - ai * b, b + ai * t, 1.0 - 0.5 * m * t * t);
    }
    if m >= 0.999_999_999_9 {
        // Abramowitz and Stegun 16.15.4 for the principal part of the amplitude
        let k = ellpk(1.0 - m);
        let uabs = u.abs();
        let j = (uabs / k) as i64;
        let mut du = uabs - j as f64 * k;
        let r = j % 4;
        let mut phi;
        if r == 0 || r == 2 {
            let t = du.cosh();
            phi = 0.25 * (1.0 - m) * (du.sinh() * t - du) / t;
            phi += 2.0 * du.exp().atan() - FRAC_PI_2;
        } else {
            du = k - du;
            let t = du.cosh();
            phi = 0.25 * (1.0 - m) * (du.sinh() * t - du) / t;
            phi += 2.0 * du.exp().atan() - FRAC_PI_2;
            phi = FRAC_PI_2 - phi;
        }
        phi += j as f64 * FRAC_PI_2;
        if u < 0.0 {
            phi = -phi;
        }
        let sn = phi.sin();
        return (sn, phi.cos(), (1.0 - m * sn * sn).sqrt());
    }
    // arithmetic-geometric mean scale (DLMF 22.20(ii))
    let mut a = [0.0f64; 9];
    let mut cc = [0.0f64; 9];
    a[0] = 1.0;
    let mut b = (1.0 - m).sqrt();
    cc[0] = m.sqrt();
    let mut twon = 1.0;
    let mut i = 0;
    while (cc[i] / a[i]).abs() > MACHEP {
        if i > 7 {
            break;
        }
        let ai = a[i];
        i += 1;
        cc[i] = (ai - b) / 2.0;
        let t = (ai * b).sqrt();
        a[i] = (ai + b) / 2.0;
        b = t;
        twon *= 2.0;
    }
    // backward recurrence
    let mut phi = twon * a[i] * u;
    let mut prev;
    loop {
        let t = cc[i] * phi.sin() / a[i];
        prev = phi;
        phi = (t.asin() + phi) / 2.0;
        i -= 1;
        if i == 0 {
            break;
        }
    }
    let sn = phi.sin();
    let cn = phi.cos();
    let dnfac = (phi - prev).cos();
    let dn = if dnfac.abs() < 0.1 {
        (1.0 - m * sn * sn).sqrt()
    } else {
        cn / dnfac
    };
    (sn, cn, dn)
}

/// 10^x − 1 for x near 0 (scipy's `_pow10m1`).
fn pow10m1(x: f64) -> f64 {
    (LN_10 * x).exp_m1()
}

/// numpy's pairwise sum of exactly eight values (its unrolled block).
fn sum8(v: &[f64; 8]) -> f64 {
    ((v[0] + v[1]) + (v[2] + v[3])) + ((v[4] + v[5]) + (v[6] + v[7]))
}

/// scipy's `_ellipdeg(n, m1)`: the degree equation solved with nomes.
fn ellipdeg(n: usize, m1: f64) -> f64 {
    const MMAX: usize = 7;
    let k1 = ellipk(m1);
    let k1p = ellpk(m1);
    let q1 = (-PI * k1p / k1).exp();
    let q = q1.powf(1.0 / n as f64);
    let mut num = [0.0; MMAX + 1];
    let mut den = [0.0; MMAX + 1];
    for i in 0..=MMAX {
        num[i] = q.powf((i * (i + 1)) as f64);
        den[i] = q.powf(((i + 1) * (i + 1)) as f64);
    }
    let num = sum8(&num);
    let den = 1.0 + 2.0 * sum8(&den);
    16.0 * q * (num / den).powf(4.0)
}

/// scipy's `_arc_jac_sc1(w, m)`: the real `z` with `w = sc(z, 1 − m)`, through the Landen
/// transformation of `arc sn(i·w, m)` (the argument stays on the imaginary axis, so the
/// iteration runs on the imaginary part alone, operation for operation as scipy's complex one).
fn arc_jac_sc1(w: f64, m: f64) -> SkResult<f64> {
    let k = m.powf(0.5);
    if k > 1.0 || k.is_nan() {
        return Err(SkError::BadArgument(
            "the elliptic design's modulus is out of range".into(),
        ));
    }
    if k == 1.0 {
        // arctanh(i·w) = i·arctan(w)
        return Ok(w.atan());
    }
    let complement = |kx: f64| ((1.0 - kx) * (1.0 + kx)).powf(0.5);
    let mut ks = vec![k];
    while *ks.last().unwrap_or(&0.0) != 0.0 {
        let k_ = ks[ks.len() - 1];
        let k_p = complement(k_);
        ks.push((1.0 - k_p) / (1.0 + k_p));
        if ks.len() - 1 > 10 {
            return Err(SkError::BadArgument(
                "Landen transformation not converging (the elliptic design's rp and rs are too \
                 extreme)"
                    .into(),
            ));
        }
    }
    let kk = ks[1..].iter().fold(1.0, |a, &v| a * (1.0 + v)) * PI / 2.0;
    let mut t = w;
    for pair in ks.windows(2) {
        let (kn, knext) = (pair[0], pair[1]);
        let a = kn * t;
        let root = (1.0 * 1.0 + a * a).powf(0.5);
        t = 2.0 * t / ((1.0 + knext) * (1.0 + root));
    }
    let u = 2.0 / PI * t.asinh();
    Ok(kk * u)
}

/// scipy's `ellipap(N, rp, rs)`: zeros, poles and gain of the order-`n` elliptic prototype with
/// `rp` dB of pass-band ripple and `rs` dB of stop-band attenuation (both > 0 and finite; order
/// 0 only needs `rp`).
pub(super) fn ellipap(n: usize, rp: f64, rs: f64) -> SkResult<(Vec<C>, Vec<C>, f64)> {
    if n == 0 {
        return Ok((Vec::new(), Vec::new(), 10f64.powf(-rp / 20.0)));
    }
    let eps_sq = pow10m1(0.1 * rp);
    if eps_sq == 0.0 {
        return Err(SkError::BadArgument(format!(
            "rp = {rp} dB: an elliptic filter needs a pass-band ripple above 0"
        )));
    }
    if n == 1 {
        let p = -(1.0 / eps_sq).sqrt();
        return Ok((Vec::new(), vec![c(p, 0.0)], -p));
    }
    let eps = eps_sq.sqrt();
    let rs_term = pow10m1(0.1 * rs);
    if rs_term == 0.0 {
        return Err(SkError::BadArgument(format!(
            "rs = {rs} dB: an elliptic filter needs a stop-band attenuation above 0"
        )));
    }
    let ck1_sq = eps_sq / rs_term;
    if ck1_sq == 0.0 {
        return Err(SkError::BadArgument(
            "Cannot design a filter with given rp and rs specifications.".into(),
        ));
    }
    let val0 = ellipk(ck1_sq);
    let m = ellipdeg(n, ck1_sq);
    let capk = ellipk(m);
    let nf = n as f64;
    let js: Vec<usize> = (1 - n % 2..n).step_by(2).collect();
    let scd: Vec<(f64, f64, f64)> = js
        .iter()
        .map(|&j| ellipj(j as f64 * capk / nf, m))
        .collect();
    let sm = m.sqrt();
    let mut z: Vec<C> = scd
        .iter()
        .filter(|v| v.0.abs() > EPSILON)
        .map(|v| c(0.0, 1.0 / (sm * v.0)))
        .collect();
    let conj: Vec<C> = z.iter().map(|v| v.conj()).collect();
    z.extend(conj);
    let r = arc_jac_sc1(1.0 / eps, ck1_sq)?;
    let v0 = capk * r / (nf * val0);
    let (sv, cv, dv) = ellipj(v0, 1.0 - m);
    let mut p: Vec<C> = scd
        .iter()
        .map(|&(s, cc, d)| {
            // numpy's operations one by one (the signs of zero decide later branch cuts):
            // complex products, then its division by a real cast to complex (Smith's method
            // with the reciprocal)
            let num = c(cc * d * sv * cv, 0.0) + c(0.0, 1.0) * c(s, 0.0) * c(dv, 0.0);
            np_div(-num, c(1.0 - (d * sv).powf(2.0), 0.0))
        })
        .collect();
    if n % 2 == 1 {
        let norm = p
            .iter()
            .map(|v| v.re * v.re + v.im * v.im)
            .sum::<f64>()
            .sqrt();
        let newp: Vec<C> = p
            .iter()
            .filter(|v| v.im.abs() > EPSILON * norm)
            .map(|v| v.conj())
            .collect();
        p.extend(newp);
    } else {
        let conj: Vec<C> = p.iter().map(|v| v.conj()).collect();
        p.extend(conj);
    }
    let prod = |v: &[C]| v.iter().fold(c(1.0, 0.0), |a, &b| a * -b);
    let mut k = (prod(&p) / prod(&z)).re;
    if n.is_multiple_of(2) {
        k /= (1.0 + eps_sq).sqrt();
    }
    Ok((z, p, k))
}

/// Normalisation of the Bessel prototype (scipy's `norm`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BesselNorm {
    /// Phase response reaches its midpoint at 1 rad/s (scipy's default).
    Phase,
    /// Group delay 1 s in the pass band.
    Delay,
    /// Gain −3 dB at 1 rad/s.
    Mag,
}

/// numpy's `polynomial.polynomial.polyval(x, c)` (coefficients lowest first).
fn polyval(x: f64, coef: &[f64]) -> f64 {
    let mut c0 = coef[coef.len() - 1] + x * 0.0;
    for &v in coef[..coef.len() - 1].iter().rev() {
        c0 = v + c0 * x;
    }
    c0
}

/// scipy's `_campos_zeros(n)`: starting points for the zeros of the Bessel polynomial.
fn campos_zeros(n: usize) -> Vec<C> {
    if n == 1 {
        return vec![c(-1.0, 0.0)];
    }
    let nf = n as f64;
    let s = polyval(nf, &[0.0, 0.0, 2.0, 0.0, -3.0, 1.0]);
    let b3 = polyval(nf, &[16.0, -8.0]) / s;
    let b2 = polyval(nf, &[-24.0, -12.0, 12.0]) / s;
    let b1 = polyval(nf, &[8.0, 24.0, -12.0, -2.0]) / s;
    let b0 = polyval(nf, &[0.0, -6.0, 0.0, 5.0, -1.0]) / s;
    let r = polyval(nf, &[0.0, 0.0, 2.0, 1.0]);
    let a1 = polyval(nf, &[-6.0, -6.0]) / r;
    let a2 = 6.0 / r;
    (1..=n)
        .map(|k| {
            let kf = k as f64;
            c(polyval(kf, &[0.0, a1, a2]), polyval(kf, &[b0, b1, b2, b3]))
        })
        .collect()
}

/// A double-double number (`hi + lo`, |lo| ≤ ulp(hi)/2): the half-integer Bessel recurrence
/// runs in it so that `K_{N+1/2}(1/x)` near its zeros (a sum that cancels) comes out correct
/// to double precision, as scipy's `kve` (AMOS) does; in plain double precision the Newton
/// steps stall at about 1e-14 and never meet scipy's 1e-15 tolerance.
#[derive(Clone, Copy, Debug)]
struct Dd {
    hi: f64,
    lo: f64,
}

impl Dd {
    fn new(v: f64) -> Dd {
        Dd { hi: v, lo: 0.0 }
    }
    fn quick(s: f64, e: f64) -> Dd {
        let hi = s + e;
        Dd {
            hi,
            lo: e - (hi - s),
        }
    }
    fn add(self, o: Dd) -> Dd {
        let s = self.hi + o.hi;
        let bb = s - self.hi;
        let e = (self.hi - (s - bb)) + (o.hi - bb) + self.lo + o.lo;
        Dd::quick(s, e)
    }
    fn neg(self) -> Dd {
        Dd {
            hi: -self.hi,
            lo: -self.lo,
        }
    }
    fn mul(self, o: Dd) -> Dd {
        let p = self.hi * o.hi;
        let e = self.hi.mul_add(o.hi, -p) + (self.hi * o.lo + self.lo * o.hi);
        Dd::quick(p, e)
    }
}

/// A complex double-double.
#[derive(Clone, Copy, Debug)]
struct Cdd {
    re: Dd,
    im: Dd,
}

impl Cdd {
    fn from(v: C) -> Cdd {
        Cdd {
            re: Dd::new(v.re),
            im: Dd::new(v.im),
        }
    }
    fn add(self, o: Cdd) -> Cdd {
        Cdd {
            re: self.re.add(o.re),
            im: self.im.add(o.im),
        }
    }
    fn mul(self, o: Cdd) -> Cdd {
        Cdd {
            re: self.re.mul(o.re).add(self.im.mul(o.im).neg()),
            im: self.re.mul(o.im).add(self.im.mul(o.re)),
        }
    }
    fn scale(self, s: f64) -> Cdd {
        let d = Dd::new(s);
        Cdd {
            re: self.re.mul(d),
            im: self.im.mul(d),
        }
    }
    fn round(self) -> C {
        c(self.re.hi + self.re.lo, self.im.hi + self.im.lo)
    }
}

/// Highest order whose Bessel zeros are found with the double-double recurrence of
/// [`bessel_f_dd`]; above it [`bessel_f_split`] evaluates the function.
const BESSEL_DD_MAX_ORDER: usize = 35;

/// `(f(x), f'(x))` of scipy's `_bessel_zeros`: `f = kve(N+1/2, 1/x)` and its derivative
/// (scipy's formula `kve(N-1/2)/(2x²) - kve(N+1/2)/x² + kve(N+3/2)/(2x²)`), each up to a
/// common factor that cancels in `f/f'`.
fn bessel_f(n: usize, x: C) -> (C, C) {
    if n <= BESSEL_DD_MAX_ORDER {
        bessel_f_dd(n, x)
    } else {
        bessel_f_split(n, x)
    }
}

/// [`bessel_f`] by the upward recurrence `K_{v+1} = K_{v-1} + 2v·x·K_v` from `K_{1/2} ∝ 1`,
/// `K_{3/2} ∝ 1 + x` (the common factor `sqrt(π x / 2)` left out), in double-double.
fn bessel_f_dd(n: usize, x: C) -> (C, C) {
    let xd = Cdd::from(x);
    let one = Cdd::from(c(1.0, 0.0));
    let mut prev = one; // v = 1/2
    let mut cur = one.add(xd); // v = 3/2
    if n == 0 {
        cur = one;
    } else {
        for j in 1..n {
            let next = prev.add(xd.mul(cur).scale((2 * j + 1) as f64));
            prev = cur;
            cur = next;
        }
    }
    let up = prev.add(xd.mul(cur).scale((2 * n + 1) as f64)); // K_{n+3/2}
    let (prev, cur, up) = (prev.round(), cur.round(), up.round());
    let x2 = x * x;
    let two_x2 = c(2.0, 0.0) * x2;
    let fp = prev / two_x2 - cur / x2 + up / two_x2;
    (cur, fp)
}

/// [`bessel_f`] the way AMOS evaluates `K_v(z)` in the left half-plane, in double precision:
/// with `z = 1/x = w·e^{iπs}` (`s = ±1`, `Re w ≥ 0` near the zeros), the continuation
/// `K_v(z) = e^{-iπsv}·K_v(w) − iπs·I_v(w)` splits the cancelling sum into two terms that are
/// each computed to a few ulps: `K_v(w)` by the upward recurrence (dominant, so stable) and
/// `I_v(w) = I_{1/2}(w)·∏ I_{j+3/2}/I_{j+1/2}`, the ratios by the backward recurrence
/// (minimal, so stable), `I_{1/2}(w) = sqrt(2/(πw))·sinh w`. The zeros of the difference are
/// well conditioned in `w`, unlike those of the Bessel polynomial in its coefficients. The
/// common factor `sqrt(π/(2w))·e^{-w}` is left out.
fn bessel_f_split(n: usize, x: C) -> (C, C) {
    let one = c(1.0, 0.0);
    let z = one / x;
    let w = -z;
    let iw = one / w;
    // K_{j+1/2}(w) for j = n-1, n, n+1 (scaled so that K_{1/2} = 1)
    let mut k = [one, one + iw, c(0.0, 0.0)];
    for j in 1..=n {
        let next = k[0] + iw * k[1].scale((2 * j + 1) as f64);
        k = [k[0], k[1], next];
        if j < n {
            k = [k[1], k[2], c(0.0, 0.0)];
        }
    }
    // K_{j+1/2}: k[0] = j = n-1, k[1] = n, k[2] = n+1
    // r = I_{j+3/2}/I_{j+1/2} from far above (the start's error decays geometrically)
    let top = n + 48 + w.abs().min(1e6) as usize;
    let mut r = c(0.0, 0.0);
    let mut ratios = [c(0.0, 0.0); 2];
    let mut prod = one; // I_{n-1/2}/I_{1/2} once the loop has run
    for j in (0..=top).rev() {
        r = one / (iw.scale((2 * j + 3) as f64) + r);
        if j == n - 1 || j == n {
            ratios[j + 1 - n] = r;
        }
        if j < n - 1 {
            prod = prod * r;
        }
    }
    let s = if z.im >= 0.0 { 1.0 } else { -1.0 };
    // −iπs·I_v(w) over the common factor: −is·(e^{2w} − 1)·I_v/I_{1/2}
    let e2 = {
        let m = (2.0 * w.re).exp();
        let (sn, cs) = (2.0 * w.im).sin_cos();
        c(m * cs - 1.0, m * sn)
    };
    let b = c(0.0, -s) * e2;
    let i_m = prod;
    let i_0 = i_m * ratios[0];
    let i_p = i_0 * ratios[1];
    // e^{-iπs(j+1/2)} = (−1)^j·(−is)
    let a = |j: usize| c(0.0, if j.is_multiple_of(2) { -s } else { s });
    let km = a(n - 1) * k[0] + b * i_m;
    let k0 = a(n) * k[1] + b * i_0;
    let kp = a(n + 1) * k[2] + b * i_p;
    let x2 = x * x;
    let two_x2 = c(2.0, 0.0) * x2;
    let fp = km / two_x2 - k0 / x2 + kp / two_x2;
    (k0, fp)
}

/// scipy's `_aberth(f, fp, x0, tol=1e-15, maxiter=50)`.
fn aberth(n: usize, x0: Vec<C>) -> SkResult<Vec<C>> {
    let mut x = x0;
    for _ in 0..50 {
        let alpha: Vec<C> = x
            .iter()
            .map(|&v| {
                let (f, fp) = bessel_f(n, v);
                -f / fp
            })
            .collect();
        let beta: Vec<C> = (0..x.len())
            .map(|k| {
                let mut b = x[k + 1..]
                    .iter()
                    .fold(c(0.0, 0.0), |a, &v| a + c(1.0, 0.0) / (x[k] - v));
                b = b + x[..k]
                    .iter()
                    .fold(c(0.0, 0.0), |a, &v| a + c(1.0, 0.0) / (x[k] - v));
                b
            })
            .collect();
        for ((xv, &a), &b) in x.iter_mut().zip(&alpha).zip(&beta) {
            *xv = *xv + a / (c(1.0, 0.0) + a * b);
        }
        if x.iter().any(|v| !(v.re.is_finite() && v.im.is_finite())) {
            return Err(SkError::BadArgument(
                "the Bessel prototype's root finding failed".into(),
            ));
        }
        if alpha.iter().all(|a| a.abs() <= 1e-15) {
            return Ok(x);
        }
    }
    Err(SkError::BadArgument(
        "the Bessel prototype's zeros failed to converge".into(),
    ))
}

/// scipy's `optimize.newton(f, x0, fp, tol=1e-15)` on [`bessel_f`].
fn newton_polish(n: usize, x0: C) -> SkResult<C> {
    let mut p0 = x0;
    for _ in 0..50 {
        let (f, fp) = bessel_f(n, p0);
        if f.re == 0.0 && f.im == 0.0 {
            return Ok(p0);
        }
        if fp.re == 0.0 && fp.im == 0.0 {
            return Err(SkError::BadArgument(
                "the Bessel prototype's Newton step met a zero derivative".into(),
            ));
        }
        let p = p0 - f / fp;
        if (p - p0).abs() <= 1e-15 {
            return Ok(p);
        }
        p0 = p;
    }
    Err(SkError::BadArgument(
        "the Bessel prototype's Newton polishing failed to converge".into(),
    ))
}

/// scipy's `_bessel_zeros(N)`: the zeros of the ordinary Bessel polynomial of degree `n`.
fn bessel_zeros(n: usize) -> SkResult<Vec<C>> {
    let x = aberth(n, campos_zeros(n))?;
    let x: Vec<C> = x
        .into_iter()
        .map(|v| newton_polish(n, v))
        .collect::<SkResult<_>>()?;
    let m = x.len();
    let x: Vec<C> = (0..m)
        .map(|i| (x[i] + x[m - 1 - i].conj()) / c(2.0, 0.0))
        .collect();
    let s = x.iter().fold(c(0.0, 0.0), |a, &v| a + v);
    if (s + c(1.0, 0.0)).abs() > 1e-15 {
        return Err(SkError::BadArgument(
            "the Bessel prototype's zeros are inaccurate (order too high)".into(),
        ));
    }
    Ok(x)
}

/// `(2n)! / (2ⁿ n!)` = 1·3·5···(2n−1), correctly rounded to a double (Python's `float` of
/// scipy's exact integer).
fn odd_factorial(n: usize) -> f64 {
    // little-endian base-2^32 digits
    let mut digits: Vec<u64> = vec![1];
    for f in (1..2 * n as u64).step_by(2) {
        let mut carry = 0u64;
        for d in digits.iter_mut() {
            let v = *d * f + carry;
            *d = v & 0xffff_ffff;
            carry = v >> 32;
        }
        while carry > 0 {
            digits.push(carry & 0xffff_ffff);
            carry >>= 32;
        }
    }
    let top = digits.len() - 1;
    let bits = 32 * top as i32 + (64 - digits[top].leading_zeros() as i32);
    if bits <= 64 {
        let v = digits.iter().rev().fold(0u64, |a, &d| (a << 32) | d);
        return v as f64;
    }
    // the top 64 bits, the rest folded into a sticky bit (no double rounding)
    let shift = bits - 64;
    let mut top64 = 0u64;
    let mut sticky = false;
    for (i, &d) in digits.iter().enumerate() {
        for b in 0..32 {
            if (d >> b) & 1 == 1 {
                let pos = 32 * i as i32 + b;
                if pos >= shift {
                    top64 |= 1 << (pos - shift);
                } else {
                    sticky = true;
                }
            }
        }
    }
    if sticky {
        top64 |= 1;
    }
    top64 as f64 * 2f64.powi(shift)
}

/// scipy's `_norm_factor(p, k)`: the frequency where the delay-normalised filter's gain is
/// −3 dB, by scipy's secant iteration (`optimize.newton(cutoff, 1.5)`).
fn norm_factor(p: &[C], k: f64) -> SkResult<f64> {
    let cutoff = |w: f64| {
        let prod = p
            .iter()
            .skip(1)
            .fold(c(0.0, w) - p[0], |a, &v| a * (c(0.0, w) - v));
        (c(k, 0.0) / prod).abs() - 1.0 / 2f64.sqrt()
    };
    let tol = 1.48e-8;
    let mut p0 = 1.5f64;
    let mut p1 = p0 * (1.0 + 1e-4);
    p1 += if p1 >= 0.0 { 1e-4 } else { -1e-4 };
    let mut q0 = cutoff(p0);
    let mut q1 = cutoff(p1);
    if q1.abs() < q0.abs() {
        std::mem::swap(&mut p0, &mut p1);
        std::mem::swap(&mut q0, &mut q1);
    }
    for _ in 0..50 {
        if q1 == q0 {
            if p1 != p0 {
                break;
            }
            return Ok((p1 + p0) / 2.0);
        }
        let p = if q1.abs() > q0.abs() {
            (-q0 / q1 * p1 + p0) / (1.0 - q0 / q1)
        } else {
            (-q1 / q0 * p0 + p1) / (1.0 - q1 / q0)
        };
        if (p - p1).abs() <= tol {
            return Ok(p);
        }
        p0 = p1;
        q0 = q1;
        p1 = p;
        q1 = cutoff(p1);
    }
    Err(SkError::BadArgument(
        "the Bessel prototype's magnitude normalisation failed to converge".into(),
    ))
}

/// Highest Bessel order: scipy's `besselap` itself fails above it (its Aberth iteration stops
/// converging: `kve` overflows or the zeros miss its sum test), so there is no reference
/// design beyond.
pub(crate) const BESSEL_MAX_ORDER: usize = 84;

/// scipy's `besselap(N, norm)`: no zeros, the poles and gain of the order-`n` Bessel–Thomson
/// prototype.
pub(super) fn besselap(n: usize, norm: BesselNorm) -> SkResult<(Vec<C>, Vec<C>, f64)> {
    if n == 0 {
        return Ok((Vec::new(), Vec::new(), 1.0));
    }
    if n > BESSEL_MAX_ORDER {
        return Err(SkError::BadArgument(format!(
            "order = {n}: Bessel designs are limited to order {BESSEL_MAX_ORDER} (scipy's \
             besselap fails to find the Bessel polynomial's zeros above it)"
        )));
    }
    let mut p: Vec<C> = bessel_zeros(n)?
        .into_iter()
        .map(|v| c(1.0, 0.0) / v)
        .collect();
    let a_last = odd_factorial(n);
    let k = match norm {
        BesselNorm::Delay => a_last,
        BesselNorm::Mag => {
            let nf = norm_factor(&p, a_last)?;
            for v in &mut p {
                *v = *v / c(nf, 0.0);
            }
            nf.powf(-(n as f64)) * a_last
        }
        BesselNorm::Phase => {
            let f = 10f64.powf(-a_last.log10() / n as f64);
            for v in &mut p {
                *v = *v * c(f, 0.0);
            }
            1.0
        }
    };
    Ok((Vec::new(), p, k))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn special_functions_match_scipy() {
        // scipy.special.ellipk(0.3), ellipkm1(1e-3), ellipj(0.7, 0.4)
        assert!((ellipk(0.3) / 1.713_889_448_178_791 - 1.0).abs() < 1e-15);
        assert!((ellpk(1e-3) / 4.841_132_560_550_297 - 1.0).abs() < 1e-15);
        let (s, cc, d) = ellipj(0.7, 0.4);
        assert!((s - 0.628_324_488_751_165_2).abs() < 1e-15, "{s}");
        assert!((cc - 0.777_951_371_767_919).abs() < 1e-15, "{cc}");
        assert!((d - 0.917_650_987_431_624).abs() < 1e-15, "{d}");
        assert_eq!(odd_factorial(5), 945.0);
        // float(1·3···59), Python's correctly rounded conversion
        assert_eq!(odd_factorial(30), 2.921_560_637_147_317e40);
    }

    #[test]
    fn prototypes_match_scipy() {
        // scipy.signal.ellipap(3, 1, 40)
        let (z, p, k) = ellipap(3, 1.0, 40.0).unwrap();
        assert_eq!((z.len(), p.len()), (2, 3));
        assert!((z[0].im - 2.758_343_343_678_097_5).abs() < 1e-13, "{z:?}");
        assert!((z[1].im + 2.758_343_343_678_097_5).abs() < 1e-13, "{z:?}");
        assert!((p[0].re + 0.523_721_030_720_268_8).abs() < 1e-13, "{p:?}");
        assert!((p[1].re + 0.227_259_770_751_384_26).abs() < 1e-13, "{p:?}");
        assert!((p[1].im + 0.976_571_011_653_279_2).abs() < 1e-13, "{p:?}");
        assert!((k - 0.069_201_489_217_500_1).abs() < 1e-14, "{k}");
        // scipy.signal.besselap(4, 'mag')
        let (_, p, k) = besselap(4, BesselNorm::Mag).unwrap();
        assert!((p[1].re + 1.370_067_830_551_442_2).abs() < 1e-13, "{p:?}");
        assert!((p[1].im - 0.410_249_717_493_751_55).abs() < 1e-13, "{p:?}");
        assert!((k - 5.258_199_010_244_144).abs() < 1e-13, "{k}");
        // scipy.signal.besselap(30, 'delay'), besselap(35, 'phase'): ill-conditioned zeros
        let (_, p, k) = besselap(30, BesselNorm::Delay).unwrap();
        let want = c(-4.734_678_500_817_719_5, 27.435_615_334_413_757);
        assert!((p[0] - want).abs() <= 1e-13 * want.abs(), "{:?}", p[0]);
        let want = c(-20.201_029_296_144_06, -0.867_750_093_952_655_3);
        assert!((p[15] - want).abs() <= 1e-13 * want.abs(), "{:?}", p[15]);
        assert_eq!(k, 2.921_560_637_147_317e40);
        let (_, p, _) = besselap(35, BesselNorm::Phase).unwrap();
        let want = c(-0.192_621_657_195_063_74, 1.241_718_154_052_107_8);
        assert!((p[0] - want).abs() <= 1e-13 * want.abs(), "{:?}", p[0]);
        for n in 1..=BESSEL_MAX_ORDER {
            assert_eq!(besselap(n, BesselNorm::Mag).unwrap().1.len(), n);
        }
        match besselap(BESSEL_MAX_ORDER + 1, BesselNorm::Phase) {
            Err(SkError::BadArgument(m)) => assert!(m.contains("limited to order 84"), "{m}"),
            r => panic!("{r:?}"),
        }
        assert!(ellipap(2, 0.0, 40.0).is_err());
    }

    #[test]
    fn bessel_split_evaluation_agrees_with_double_double() {
        // both evaluations of K_{n+1/2}(1/x) give the same Newton steps (away from the zeros,
        // where the double-double recurrence is accurate: the starting points pushed outward)
        for n in [2, 9, 20, 35] {
            for x in campos_zeros(n).into_iter().map(|v| v.scale(1.2)) {
                let (f, fp) = bessel_f_dd(n, x);
                let (g, gp) = bessel_f_split(n, x);
                let (a, b) = (f / fp, g / gp);
                assert!(
                    (a - b).abs() <= 1e-13 * a.abs(),
                    "n = {n}, x = {x:?}: {a:?} {b:?}"
                );
            }
        }
    }

    #[test]
    fn bessel_high_orders_match_scipy() {
        // scipy.signal.besselap(N, norm): k, p[0], p[N // 2]; scipy's zeros are within about
        // 2e-15 relative of the exact ones (mpmath), these within 3e-16
        let cases = [
            (
                40,
                BesselNorm::Delay,
                7.977_794_181_429_167e58,
                c(-5.258_411_255_257_467, 37.163_102_407_364_18),
                c(-26.831_586_166_986_426, -0.867_755_028_855_499_5),
            ),
            (
                51,
                BesselNorm::Phase,
                1.0,
                c(-0.151_903_371_293_726_5, 1.268_138_592_931_131_5),
                c(-0.903_451_603_862_518_8, 0.0),
            ),
            (
                72,
                BesselNorm::Mag,
                2.883_303_315_693_729e52,
                c(-0.652_350_869_697_903_6, 6.889_533_961_997_903),
                c(-4.831_588_432_681_117, -0.087_267_783_868_445_16),
            ),
            (
                84,
                BesselNorm::Phase,
                1.0,
                c(-0.110_354_208_611_311_91, 1.294_102_067_280_532),
                c(-0.902_324_312_743_970_7, -0.013_982_845_240_328_452),
            ),
            (
                84,
                BesselNorm::Delay,
                3.940_422_233_383_797e150,
                c(-6.848_460_908_461_762, 80.310_552_092_725_63),
                c(-55.997_255_205_256_15, -0.867_760_008_634_994_6),
            ),
        ];
        for (n, norm, k, p0, pm) in cases {
            let (z, p, kk) = besselap(n, norm).unwrap();
            assert!(z.is_empty() && p.len() == n);
            assert!((kk - k).abs() <= 1e-13 * k, "{n}: {kk}");
            assert!((p[0] - p0).abs() <= 1e-13 * p0.abs(), "{n}: {:?}", p[0]);
            assert!(
                (p[n / 2] - pm).abs() <= 1e-13 * pm.abs(),
                "{n}: {:?}",
                p[n / 2]
            );
            assert_eq!(p[n - 1], p[0].conj());
        }
        // the zeros pass scipy's test (their sum is −1 within 1e-15) at every order
        for n in BESSEL_DD_MAX_ORDER + 1..=BESSEL_MAX_ORDER {
            let s = bessel_zeros(n)
                .unwrap()
                .iter()
                .fold(c(1.0, 0.0), |a, &v| a + v);
            assert!(s.abs() <= 1e-15, "{n}: {s:?}");
        }
        assert!(ellipap(4, 1.0, 1e300).is_err());
    }
}
