//! One channel of a transfer-function filter in the recursive form of its difference equation,
//! for the passes of the zero-phase filters over a single channel.
//!
//! With one channel there are no lanes to fill, and the speed of [`super::lfilter`]'s transposed
//! direct form II is set by its dependency chain: each state value waits for the next one
//! through two multiply-adds (`z[i]' = m(−a[i+1], z0, m(c[i+1], x, z[i+1]))`), so an order-`K`
//! filter pays about `2K − 1` multiply-add latencies every `K` samples. The same filter written
//! for the first state value alone,
//!
//! ```text
//! z0(t+1) = Σ_{j=1..K} −a[j]·z0(t+1−j)  +  v(t),    v(t) = Σ_{j=1..K} c[j]·x(t+1−j)
//! y(t)    = b0·x(t) + z0(t)
//! ```
//!
//! (`c[j] = b[j] − a[j]·b0`, the coefficients of [`super::coeffs::Tf`]), has one multiply-add
//! per sample on its chain when the newest value enters last. Up to order 4, for poles within
//! radius 0.95 ([`LOOK_AHEAD_RADIUS`]), it is run one step further, in its look-ahead form
//! ([`look_ahead`]): multiplied by `A(−z)`, the recursion becomes
//!
//! ```text
//! z0(t+1) = Σ_{i=1..K} −q[i]·z0(t+1−2i)  +  w(t),    w(t) = Σ_{m=0..K} p[m]·v(t−m)
//! ```
//!
//! with `Q(z²) = A(z)·A(−z)` and `p` the coefficients of `A(−z)`, where even and odd samples
//! form two independent chains of one multiply-add every second sample. `v`, `w` and `y` do not
//! depend on the recursion: they are computed for a block of [`BLOCK`] samples at a time, in
//! SIMD registers. In exact arithmetic this is the same filter; in floating point it differs
//! from the transposed form by rounding. The poles of `Q` are the squares of the filter's, so
//! the recursion is as stable as the filter; but `Q`'s coefficients are rounded anew from `a`,
//! which perturbs the filter as much as rounding `a` does, and with poles near the unit circle
//! the result then moves away from scipy's (which keeps `a`'s rounding) further than the
//! transposed form does: hence the radius limit (figures at [`LOOK_AHEAD_RADIUS`]). A
//! look-ahead by four samples was 5–50× further off in a float64 model and is not used. The
//! unit tests compare both forms against a float64 reference at every order, and the Python
//! tests compare one channel against the lane form and scipy on ill-conditioned designs.
//!
//! A pass starts from a transposed-form state `z` (scipy's `zi` for one channel) and ends by
//! writing the transposed-form state back: `z[m](t0)` for `m ≥ 1` enters `v(t0 + m − 1)`, and
//! `z[i](t) = Σ_{j=1..K−i} (−a[i+j]·z0(t−j) + c[i+j]·x(t−j))` at the end. The result of a pass
//! is therefore deterministic but depends on where passes start and end, which is why only the
//! one-shot zero-phase filters use it (the streaming handles keep the transposed form, which is
//! bit-identical however the signal is chunked).

// Block loops index several arrays by the same sample number.
#![allow(clippy::needless_range_loop)]

use super::arith::{Arith, SosElem};
use super::coeffs::Tf;
use super::lanes::Io;
use crate::kernels::Src;
use crate::simd::multiversion;

/// Samples per block.
pub(crate) const BLOCK: usize = 256;
/// Highest order run here (history kept in registers).
pub(crate) const MAX_ORDER: usize = 8;

/// Whether [`pass_at`] runs a filter of this order.
pub(crate) fn supports(order: usize) -> bool {
    (1..=MAX_ORDER).contains(&order)
}

multiversion! {
    /// One pass (`io`, forwards or backwards in time) of a single channel (offset 0 of `x` and
    /// `y`), starting from and updating the transposed-form state `z` (`tf.order()` values,
    /// 1 to [`MAX_ORDER`]).
    pub(crate) fn pass_at<T: SosElem, A: Arith>(tf: &Tf<T>, z: &mut [T], io: Io<'_, T>) -> ();
    scalar = pass; simd = pass;
}

#[cfg_attr(not(debug_assertions), inline(always))]
fn pass<T: SosElem, A: Arith>(tf: &Tf<T>, z: &mut [T], io: Io<'_, T>) {
    let ahead = poles_within(&tf.na[1..], LOOK_AHEAD_RADIUS);
    match (tf.order(), ahead) {
        (1, true) => pass_k::<T, A, 1, 2>(tf, z, io),
        (2, true) => pass_k::<T, A, 2, 2>(tf, z, io),
        (3, true) => pass_k::<T, A, 3, 2>(tf, z, io),
        (4, true) => pass_k::<T, A, 4, 2>(tf, z, io),
        (1, false) => pass_k::<T, A, 1, 1>(tf, z, io),
        (2, false) => pass_k::<T, A, 2, 1>(tf, z, io),
        (3, false) => pass_k::<T, A, 3, 1>(tf, z, io),
        (4, false) => pass_k::<T, A, 4, 1>(tf, z, io),
        (5, _) => pass_k::<T, A, 5, 1>(tf, z, io),
        (6, _) => pass_k::<T, A, 6, 1>(tf, z, io),
        (7, _) => pass_k::<T, A, 7, 1>(tf, z, io),
        (8, _) => pass_k::<T, A, 8, 1>(tf, z, io),
        (k, _) => panic!("order {k} is not run by the single-channel form"),
    }
}

/// The look-ahead form runs only for filters whose poles all lie within this radius. Its
/// recursion coefficients `q` are rounded anew from `a`, which moves the filter by as much as
/// rounding `a` itself does; with poles near the unit circle the transfer function is
/// ill-conditioned and that shows: butter(4, 0.01) (pole radius 0.988) differed from scipy's
/// `filtfilt` by 1.0e-9 of the peak against 2.3e-10 for the transposed form, butter(2, 0.001)
/// (0.998) by 1.4e-11 against 1.3e-12, ellip(4, 1, 60, 0.1) (0.961) by 8.7e-13 against 2.6e-13.
/// Up to 0.95 the differences measured stayed below 1e-11 of the peak (butter(4, 0.05), radius
/// 0.942: 2.5e-12 to 6.0e-12 against 7.1e-13).
const LOOK_AHEAD_RADIUS: f64 = 0.95;

/// Whether every pole of `A(z) = 1 − Σ na[j−1]·z^−j` lies strictly within radius `r`: the
/// Schur–Cohn step-down recursion on `A(r·z)` (its reflection coefficients all below 1 in
/// magnitude). False for NaN coefficients.
fn poles_within<T: SosElem>(na: &[T], r: f64) -> bool {
    let k = na.len();
    assert!(k <= MAX_ORDER, "order");
    let mut a = [0.0f64; MAX_ORDER + 1];
    let mut scale = 1.0;
    for j in 1..=k {
        scale /= r;
        a[j] = -na[j - 1].to_f64() * scale;
    }
    for m in (1..=k).rev() {
        let km = a[m];
        if km.is_nan() || km.abs() >= 1.0 {
            return false;
        }
        let d = 1.0 - km * km;
        let prev = a;
        for j in 1..m {
            a[j] = (prev[j] - km * prev[m - j]) / d;
        }
    }
    true
}

/// Offset of a block's first sample in the input buffer (the `x` history sits before it).
const H: usize = MAX_ORDER;

/// Reads frames `done .. done + dst.len()` of the pass into `dst`, in pass order (contiguous
/// copies for frame stride 1).
#[inline(always)]
fn read_block<T: SosElem>(io: &Io<'_, T>, done: usize, dst: &mut [T]) {
    let m = dst.len();
    let src: &[T] = match io.x {
        Src::Slice(s) => s,
        Src::Dst => &*io.y,
    };
    if io.xl.t == 1 {
        if io.rev {
            let hi = io.n - done;
            for (d, &s) in dst.iter_mut().zip(src[hi - m..hi].iter().rev()) {
                *d = s;
            }
        } else {
            dst.copy_from_slice(&src[done..done + m]);
        }
    } else {
        for (i, d) in dst.iter_mut().enumerate() {
            *d = src[io.frame(done + i) * io.xl.t];
        }
    }
}

/// Writes `y(t) = b0·x(t) + z0(t)` for frames `done .. done + z.len()` of the pass (`x` and
/// `z` in pass order; vectorised for frame stride 1).
#[inline(always)]
fn write_block<T: SosElem, A: Arith>(io: &mut Io<'_, T>, done: usize, b0: T, x: &[T], z: &[T]) {
    let m = z.len();
    let y = |xv: T, zv: T| A::madd(b0, xv, zv);
    if io.yl.t == 1 && io.rev {
        let hi = io.n - done;
        for ((d, &xv), &zv) in io.y[hi - m..hi].iter_mut().rev().zip(x).zip(z) {
            *d = y(xv, zv);
        }
    } else if io.yl.t == 1 {
        for ((d, &xv), &zv) in io.y[done..done + m].iter_mut().zip(x).zip(z) {
            *d = y(xv, zv);
        }
    } else {
        for (i, (&xv, &zv)) in x.iter().zip(z).enumerate() {
            let t = io.frame(done + i);
            io.y[t * io.yl.t] = y(xv, zv);
        }
    }
}

/// One pass of an order-`K` filter, in the look-ahead form (`M = 2`, see [`look_ahead`]) or
/// the plain recursive one (`M = 1`). The look-ahead form is used up to order 4 and for poles
/// within [`LOOK_AHEAD_RADIUS`]: above order 4 its `2K` history values no longer fit the
/// registers beside the coefficients, and the extra multiply-adds cost more than the shorter
/// chain saves (measured at AVX2 and AVX-512).
#[cfg_attr(not(debug_assertions), inline(always))]
fn pass_k<T: SosElem, A: Arith, const K: usize, const M: usize>(
    tf: &Tf<T>,
    z: &mut [T],
    mut io: Io<'_, T>,
) {
    assert_eq!(z.len(), K, "state length");
    let n = io.n;
    if n == 0 {
        return;
    }
    let b0 = tf.b[0];
    // c[j − 1] = c_j, na[j − 1] = −a_j
    let mut c = [T::ZERO; K];
    let mut na = [T::ZERO; K];
    c.copy_from_slice(&tf.c[1..=K]);
    na.copy_from_slice(&tf.na[1..=K]);
    // the recursion's coefficients: −q_i and A(−z)'s p_m (M = 2), or −a_j itself (M = 1)
    let (p, nq) = if M == 2 {
        look_ahead::<T, K>(&na)
    } else {
        ([T::ZERO; K], na)
    };
    // the initial transposed state: z[0] is z0(t0), z[m] enters v(t0 + m − 1)
    let mut init = [T::ZERO; K];
    init.copy_from_slice(z);
    // zh[j] = z0(t − j) at the current sample t (zero before the pass), j < M·K
    let mut zh = [T::ZERO; 2 * MAX_ORDER];
    zh[0] = init[0];
    // xb[H − 1 − q] = x(t − 1 − q) before the block's first sample t; the block at xb[H..];
    // vb the same for v, whose value before the pass is z0(t0) at t0 − 1 (see `look_ahead`)
    let mut xb = [T::ZERO; H + BLOCK];
    let mut vb = [T::ZERO; H + BLOCK];
    vb[H - 1] = init[0];
    let mut w = [T::ZERO; BLOCK];
    let mut zb = [T::ZERO; BLOCK];
    let mut done = 0;
    while done < n {
        let m = (n - done).min(BLOCK);
        read_block(&io, done, &mut xb[H..H + m]);
        // v(t) for the block, the initial state's terms first: z[p](t0) enters v(t0 + p − 1)
        // (written as its own short loop: folded into the fill, it became masked vector loads
        // overlapping the stores just made, stalling every block). Later blocks start from the
        // last tap's products with a zero addend: the same operations as a zero fill followed
        // by that tap, without the fill's pass over the block.
        let v = &mut vb[H..H + m];
        let mut taps = K;
        if done == 0 {
            v.fill(T::ZERO);
            let q = K.min(m + 1);
            v[..q - 1].copy_from_slice(&init[1..q]);
        } else {
            let ck = c[K - 1];
            let src = &xb[H + 1 - K..H + 1 - K + m];
            for (vi, &xv) in v.iter_mut().zip(src) {
                *vi = A::madd(ck, xv, T::ZERO);
            }
            taps = K - 1;
        }
        // one pass per tap (vectorised; one loop over the taps per sample was not)
        for j in (1..=taps).rev() {
            let cj = c[j - 1];
            let src = &xb[H + 1 - j..H + 1 - j + m];
            for (vi, &xv) in v.iter_mut().zip(src) {
                *vi = A::madd(cj, xv, *vi);
            }
        }
        // w(t) = Σ_{m=0..K} p_m·v(t − m), the input of the look-ahead recursion (v itself
        // for M = 1), its first tap reading v(t) as the addend (no copy of v first)
        let w: &[T] = if M == 2 {
            let w = &mut w[..m];
            let p1 = p[0];
            for ((wi, &v1), &v0) in w.iter_mut().zip(&vb[H - 1..H - 1 + m]).zip(&vb[H..H + m]) {
                *wi = A::madd(p1, v1, v0);
            }
            for j in 2..=K {
                let pj = p[j - 1];
                let src = &vb[H - j..H - j + m];
                for (wi, &vv) in w.iter_mut().zip(src) {
                    *wi = A::madd(pj, vv, *wi);
                }
            }
            w
        } else {
            &vb[H..H + m]
        };
        // the recursion z0(t+1) = Σ nq_i·z0(t+1−M·i) + w(t), the newest value entering last:
        // M chains of one multiply-add every M samples; z0(t) kept for the output
        let zb = &mut zb[..m];
        for i in 0..m {
            let mut r = w[i];
            for j in (2..=K).rev() {
                r = A::madd(nq[j - 1], zh[M * j - 1], r);
            }
            zb[i] = zh[0];
            let next = A::madd(nq[0], zh[M - 1], r);
            for q in (1..M * K).rev() {
                zh[q] = zh[q - 1];
            }
            zh[0] = next;
        }
        // y(t) = b0·x(t) + z0(t), off the recursion (vectorised), straight into the output
        write_block::<T, A>(&mut io, done, b0, &xb[H..H + m], zb);
        // the last H inputs (and v values) become the history of the next block (or of the
        // final state): copies of constant length, inlined (`copy_within` compiled to a call
        // to memmove each)
        let hx: [T; H] = xb[m..m + H].try_into().expect("H values");
        xb[..H].copy_from_slice(&hx);
        let hv: [T; H] = vb[m..m + H].try_into().expect("H values");
        vb[..H].copy_from_slice(&hv);
        done += m;
    }
    // back to the transposed form at t_end = t0 + n: z[0] = z0(t_end); for i >= 1,
    // z[i] = Σ_{j=1..K−i} (−a[i+j]·z0(t_end − j) + c[i+j]·x(t_end − j)), plus z[i + n](t0) when
    // the pass was shorter than the state
    z[0] = zh[0];
    for i in 1..K {
        let mut acc = if i + n < K { init[i + n] } else { T::ZERO };
        for j in (1..=K - i).rev() {
            acc = A::madd(c[i + j - 1], xb[H - j], acc);
            acc = A::madd(na[i + j - 1], zh[j], acc);
        }
        z[i] = acc;
    }
}

/// The look-ahead form of `A(z) = 1 − Σ na_j·z^−j`: multiplying the recursion
/// `A(z)·z0 = z^−1·v` by `A(−z)` gives `Q(z²)·z0 = z^−1·A(−z)·v`, with
/// `Q(z²) = A(z)·A(−z)` a polynomial in `z^−2` alone. Returns `p[m − 1] = (−1)^m·a_m`, the
/// coefficients of `A(−z)` (exact: sign changes of `−na`), and `nq[i − 1] = −q_i` (computed in
/// f64 and rounded once). The poles of `Q` are the squares of `A`'s, so the recursion is stable
/// when `A`'s is; the pass starts with `z0` zero before `t0` and `v(t0 − 1) = z0(t0)`, which
/// makes the original recursion hold at every sample, so the look-ahead one does too.
fn look_ahead<T: SosElem, const K: usize>(na: &[T; K]) -> ([T; K], [T; K]) {
    // a[0..=K] in f64
    let mut a = [0.0f64; MAX_ORDER + 1];
    a[0] = 1.0;
    for j in 1..=K {
        a[j] = -na[j - 1].to_f64();
    }
    let mut p = [T::ZERO; K];
    let mut nq = [T::ZERO; K];
    for m in 1..=K {
        p[m - 1] = if m % 2 == 0 { -na[m - 1] } else { na[m - 1] };
    }
    for i in 1..=K {
        // q_i = Σ_{j+l=2i} (−1)^l·a_j·a_l
        let mut q = 0.0;
        for j in (2 * i).saturating_sub(K)..=(2 * i).min(K) {
            let l = 2 * i - j;
            let t = a[j] * a[l];
            q += if l % 2 == 0 { t } else { -t };
        }
        nq[i - 1] = T::from_f64(-q);
    }
    (p, nq)
}

#[cfg(test)]
pub(crate) mod tests {
    use super::super::arith::{Fused, Plain};
    use super::*;
    use crate::kernels::layout::Layout;
    use crate::kernels::testutil::{same, Rng};
    use crate::simd::{available, Level};

    /// Textbook transposed direct form II in f64 (scipy's update order).
    fn reference(b: &[f64], a: &[f64], x: &[f64], z: &mut [f64]) -> Vec<f64> {
        let k = z.len();
        x.iter()
            .map(|&xv| {
                let out = z[0] + b[0] * xv;
                for i in 0..k - 1 {
                    z[i] = z[i + 1] + xv * b[i + 1] - out * a[i + 1];
                }
                z[k - 1] = xv * b[k] - out * a[k];
                out
            })
            .collect()
    }

    /// A stable filter of order `k`: real poles of radius below 0.9, random numerator.
    pub(crate) fn random_tf(rng: &mut Rng, k: usize) -> (Vec<f64>, Vec<f64>) {
        let mut a = vec![1.0];
        for _ in 0..k {
            let p = 0.9 * rng.uniform();
            let mut next = a.clone();
            next.push(0.0);
            for i in 1..next.len() {
                next[i] -= p * a[i - 1];
            }
            a = next;
        }
        (rng.vec_f64(k + 1, 1.0), a)
    }

    fn run<A: Arith>(level: Level, tf: &Tf<f64>, z: &mut [f64], x: &[f64], rev: bool) -> Vec<f64> {
        let n = x.len();
        let l = Layout::planar(n);
        let mut y = vec![f64::NAN; n];
        pass_at::<f64, A>(level, tf, z, Io::new(Src::Slice(x), l, &mut y, l, n, rev));
        y
    }

    fn max_abs(v: &[f64]) -> f64 {
        v.iter().fold(0.0, |m, x| m.max(x.abs()))
    }

    #[test]
    fn matches_transposed_form_every_order_and_length() {
        let mut rng = Rng::new(71);
        for k in 1..=MAX_ORDER {
            for n in [0usize, 1, 2, 3, k - 1, k, k + 1, 255, 256, 257, 700] {
                let (b, a) = random_tf(&mut rng, k);
                let tf = Tf::<f64>::new(&b, &a).unwrap();
                let x = rng.vec_f64(n, 1.0);
                let z0 = rng.vec_f64(k, 1.0);
                for rev in [false, true] {
                    let xs: Vec<f64> = if rev {
                        x.iter().rev().copied().collect()
                    } else {
                        x.clone()
                    };
                    let mut zr = z0.clone();
                    let want = reference(&b, &a, &xs, &mut zr);
                    let mut z = z0.clone();
                    let mut got = run::<Plain>(Level::Scalar, &tf, &mut z, &x, rev);
                    if rev {
                        got.reverse();
                    }
                    let scale = max_abs(&want).max(max_abs(&zr)).max(1.0);
                    for (g, w) in got.iter().zip(&want) {
                        assert!(
                            (g - w).abs() <= 1e-13 * scale,
                            "k={k} n={n} rev={rev}: {g} {w}"
                        );
                    }
                    for (g, w) in z.iter().zip(&zr) {
                        assert!((g - w).abs() <= 1e-13 * scale, "state k={k} n={n}: {g} {w}");
                    }
                }
            }
        }
    }

    #[test]
    fn look_ahead_and_plain_recursions_both_match_the_reference() {
        // pass_at picks one form per order; both are checked at every order here
        fn check<const K: usize>(rng: &mut Rng) {
            let (b, a) = random_tf(rng, K);
            let tf = Tf::<f64>::new(&b, &a).unwrap();
            let x = rng.vec_f64(700, 1.0);
            let z0 = rng.vec_f64(K, 1.0);
            let mut zr = z0.clone();
            let want = reference(&b, &a, &x, &mut zr);
            let scale = max_abs(&want).max(max_abs(&zr)).max(1.0);
            let l = Layout::planar(x.len());
            for form in [1, 2] {
                let mut z = z0.clone();
                let mut y = vec![f64::NAN; x.len()];
                let io = Io::new(Src::Slice(&x), l, &mut y, l, x.len(), false);
                if form == 1 {
                    pass_k::<f64, Plain, K, 1>(&tf, &mut z, io);
                } else {
                    pass_k::<f64, Plain, K, 2>(&tf, &mut z, io);
                }
                for (g, w) in y.iter().zip(&want).chain(z.iter().zip(&zr)) {
                    assert!((g - w).abs() <= 1e-13 * scale, "K={K} M={form}: {g} {w}");
                }
            }
        }
        let mut rng = Rng::new(76);
        check::<1>(&mut rng);
        check::<2>(&mut rng);
        check::<3>(&mut rng);
        check::<4>(&mut rng);
        check::<5>(&mut rng);
        check::<6>(&mut rng);
        check::<7>(&mut rng);
        check::<8>(&mut rng);
    }

    #[test]
    fn pole_radius_test_matches_known_poles() {
        // A(z) = Π (1 − p·z^−1) for real poles, and a complex pair r·e^{±iθ}
        let real = |poles: &[f64]| {
            let mut a = vec![1.0];
            for &p in poles {
                let mut next = a.clone();
                next.push(0.0);
                for i in 1..next.len() {
                    next[i] -= p * a[i - 1];
                }
                a = next;
            }
            a[1..].iter().map(|v| -v).collect::<Vec<f64>>()
        };
        assert!(poles_within(&real(&[0.9, -0.5, 0.3]), 0.95));
        assert!(!poles_within(&real(&[0.9, -0.96, 0.3]), 0.95));
        assert!(!poles_within(&real(&[0.96]), 0.95));
        assert!(poles_within(&real(&[0.94, 0.94, 0.94, 0.94]), 0.95));
        assert!(!poles_within(&real(&[0.94, 0.94, 0.94, 0.951]), 0.95));
        for (r, want) in [(0.949, true), (0.951, false), (1.0, false)] {
            let th: f64 = 0.3;
            // 1 − 2r·cosθ·z^−1 + r²·z^−2
            let na = [2.0 * r * th.cos(), -r * r];
            assert_eq!(poles_within(&na, 0.95), want, "r = {r}");
        }
        assert!(!poles_within(&[f64::NAN], 0.95));
        assert!(poles_within::<f64>(&[], 0.95));
        // butter(4, 0.1) (radius 0.888) and butter(4, 0.01) (0.988), scipy's coefficients
        let b4 = [
            3.180638548874719,
            -3.8611943489942133,
            2.112155355110969,
            -0.43826514226197977,
        ];
        assert!(poles_within(&b4, 0.95) && !poles_within(&b4, 0.88));
        let b4_01 = [
            3.9179078653919865,
            -5.7570763791180655,
            3.7603495076945257,
            -0.921181929191236,
        ];
        assert!(!poles_within(&b4_01, 0.95) && poles_within(&b4_01, 0.99));
    }

    #[test]
    fn passes_chain_like_one_pass_within_rounding() {
        // the state written back at the end of a pass carries on like the transposed form
        let mut rng = Rng::new(72);
        let (b, a) = random_tf(&mut rng, 6);
        let tf = Tf::<f64>::new(&b, &a).unwrap();
        let x = rng.vec_f64(1000, 1.0);
        let mut z1 = vec![0.0; 6];
        let whole = run::<Plain>(Level::Scalar, &tf, &mut z1, &x, false);
        let mut z2 = vec![0.0; 6];
        let mut parts = Vec::new();
        for chunk in x.chunks(3).take(5).chain(x[15..].chunks(333)) {
            parts.extend(run::<Plain>(Level::Scalar, &tf, &mut z2, chunk, false));
        }
        for (g, w) in parts.iter().zip(&whole) {
            assert!((g - w).abs() <= 1e-13 * max_abs(&whole));
        }
    }

    #[test]
    fn every_level_bit_identical_to_scalar() {
        let mut rng = Rng::new(73);
        for k in 1..=MAX_ORDER {
            let (b, a) = random_tf(&mut rng, k);
            let tf = Tf::<f64>::new(&b, &a).unwrap();
            let tf32 = Tf::<f32>::new(&b, &a).unwrap();
            let x = rng.vec_f64(600, 1.0);
            let x32: Vec<f32> = x.iter().map(|&v| v as f32).collect();
            let z0 = rng.vec_f64(k, 1.0);
            for rev in [false, true] {
                let mut zs = z0.clone();
                let want = run::<Fused>(Level::Scalar, &tf, &mut zs, &x, rev);
                let mut zp = z0.clone();
                let want_plain = run::<Plain>(Level::Scalar, &tf, &mut zp, &x, rev);
                let n = x.len();
                let l = Layout::planar(n);
                let mut want32 = vec![0f32; n];
                let mut z32: Vec<f32> = z0.iter().map(|&v| v as f32).collect();
                pass_at::<f32, Fused>(
                    Level::Scalar,
                    &tf32,
                    &mut z32,
                    Io::new(Src::Slice(&x32), l, &mut want32, l, n, rev),
                );
                for level in available() {
                    let mut z = z0.clone();
                    let got = run::<Fused>(level, &tf, &mut z, &x, rev);
                    assert!(same(&got, &want) && same(&z, &zs), "{level:?} k={k}");
                    let mut z = z0.clone();
                    let got = run::<Plain>(level, &tf, &mut z, &x, rev);
                    assert!(same(&got, &want_plain) && same(&z, &zp), "{level:?} k={k}");
                    let mut y32 = vec![0f32; n];
                    let mut zz: Vec<f32> = z0.iter().map(|&v| v as f32).collect();
                    pass_at::<f32, Fused>(
                        level,
                        &tf32,
                        &mut zz,
                        Io::new(Src::Slice(&x32), l, &mut y32, l, n, rev),
                    );
                    assert!(
                        same(&y32, &want32) && same(&zz, &z32),
                        "f32 {level:?} k={k}"
                    );
                }
            }
        }
    }

    #[test]
    fn in_place_matches_out_of_place_and_strides_are_honoured() {
        let mut rng = Rng::new(74);
        let (b, a) = random_tf(&mut rng, 4);
        let tf = Tf::<f64>::new(&b, &a).unwrap();
        let x = rng.vec_f64(777, 1.0);
        for rev in [false, true] {
            let mut z = vec![0.25; 4];
            let want = run::<Plain>(Level::Scalar, &tf, &mut z, &x, rev);
            let mut y = x.clone();
            let mut z2 = vec![0.25; 4];
            let l = Layout::planar(x.len());
            pass_at::<f64, Plain>(
                Level::Scalar,
                &tf,
                &mut z2,
                Io::new(Src::Dst, l, &mut y, l, x.len(), rev),
            );
            assert!(same(&y, &want) && same(&z, &z2));
        }
        // interleaved (frame stride 3): only offset 0 of every frame is read and written
        let xi: Vec<f64> = x.iter().flat_map(|&v| [v, 9.0, 9.0]).collect();
        let mut yi = vec![5.0; xi.len()];
        let li = Layout::interleaved(3);
        let mut z = vec![0.0; 4];
        pass_at::<f64, Plain>(
            Level::Scalar,
            &tf,
            &mut z,
            Io::new(Src::Slice(&xi), li, &mut yi, li, x.len(), false),
        );
        let mut zr = vec![0.0; 4];
        let want = run::<Plain>(Level::Scalar, &tf, &mut zr, &x, false);
        for (t, w) in want.iter().enumerate() {
            assert_eq!(yi[3 * t], *w);
            assert_eq!((yi[3 * t + 1], yi[3 * t + 2]), (5.0, 5.0));
        }
    }
}
