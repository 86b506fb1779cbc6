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
//! (`c[j] = b[j] − a[j]·b0`, the coefficients of [`super::lfilter::Tf`]), has one multiply-add
//! per sample on its chain when the newest value enters last, and `v` and `y` do not depend on
//! the recursion: they are computed for a block of [`BLOCK`] samples at a time, in SIMD
//! registers. In exact arithmetic this is the same filter; in floating point it differs from the
//! transposed form by rounding, as much as that form differs from scipy's own update order (the
//! unit tests compare both against a float64 reference).
//!
//! A pass starts from a transposed-form state `z` (scipy's `zi` for one channel) and ends by
//! writing the transposed-form state back: `z[m](t0)` for `m ≥ 1` enters `v(t0 + m − 1)`, and
//! `z[i](t) = Σ_{j=1..K−i} (−a[i+j]·z0(t−j) + c[i+j]·x(t−j))` at the end. The result of a pass
//! is therefore deterministic but depends on where passes start and end, which is why only the
//! one-shot zero-phase filters use it (the streaming handles keep the transposed form, which is
//! bit-identical however the signal is chunked).

// Block loops index several arrays by the same sample number.
#![allow(clippy::needless_range_loop)]

use super::lanes::Io;
use super::lfilter::Tf;
use super::sos::{Arith, SosElem};
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
    match tf.order() {
        1 => pass_k::<T, A, 1>(tf, z, io),
        2 => pass_k::<T, A, 2>(tf, z, io),
        3 => pass_k::<T, A, 3>(tf, z, io),
        4 => pass_k::<T, A, 4>(tf, z, io),
        5 => pass_k::<T, A, 5>(tf, z, io),
        6 => pass_k::<T, A, 6>(tf, z, io),
        7 => pass_k::<T, A, 7>(tf, z, io),
        8 => pass_k::<T, A, 8>(tf, z, io),
        k => panic!("order {k} is not run by the single-channel form"),
    }
}

/// Offset of a block's first sample in the input buffer (the `x` history sits before it).
const H: usize = MAX_ORDER;

#[cfg_attr(not(debug_assertions), inline(always))]
fn pass_k<T: SosElem, A: Arith, const K: usize>(tf: &Tf<T>, z: &mut [T], io: Io<'_, T>) {
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
    // the initial transposed state: z[0] is z0(t0), z[m] enters v(t0 + m − 1)
    let mut init = [T::ZERO; K];
    init.copy_from_slice(z);
    // zh[j] = z0(t − j) at the current sample t (zero before the pass)
    let mut zh = [T::ZERO; K];
    zh[0] = init[0];
    // xb[H − 1 − q] = x(t − 1 − q) before the block's first sample t; the block at xb[H..]
    let mut xb = [T::ZERO; H + BLOCK];
    let mut v = [T::ZERO; BLOCK];
    let mut zs = [T::ZERO; BLOCK];
    let (xl, yl) = (io.xl, io.yl);
    let mut done = 0;
    while done < n {
        let m = (n - done).min(BLOCK);
        for i in 0..m {
            xb[H + i] = io.read(io.frame(done + i) * xl.t);
        }
        // v(t) for the block, the initial state's terms first: z[p](t0) enters v(t0 + p − 1)
        // (written as its own short loop: folded into the fill, it became masked vector loads
        // overlapping the stores just made, stalling every block)
        v[..m].fill(T::ZERO);
        if done == 0 {
            let q = K.min(m + 1);
            v[..q - 1].copy_from_slice(&init[1..q]);
        }
        for j in (1..=K).rev() {
            let cj = c[j - 1];
            let src = &xb[H + 1 - j..H + 1 - j + m];
            for (vi, &xv) in v[..m].iter_mut().zip(src) {
                *vi = A::madd(cj, xv, *vi);
            }
        }
        // the recursion: the newest z0 enters last, so the chain is one multiply-add a sample
        for i in 0..m {
            let mut r = v[i];
            for j in (2..=K).rev() {
                r = A::madd(na[j - 1], zh[j - 1], r);
            }
            zs[i] = zh[0];
            let next = A::madd(na[0], zh[0], r);
            for q in (1..K).rev() {
                zh[q] = zh[q - 1];
            }
            zh[0] = next;
        }
        for i in 0..m {
            let t = io.frame(done + i);
            io.y[t * yl.t] = A::madd(b0, xb[H + i], zs[i]);
        }
        // the last H inputs become the history of the next block (or of the final state)
        xb.copy_within(m..m + H, 0);
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

#[cfg(test)]
mod tests {
    use super::super::lfilter::LFilter;
    use super::super::sos::{Fused, Layout, Plain};
    use super::*;
    use crate::kernels::testutil::{same, Rng};
    use crate::kernels::Src;
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
    fn random_tf(rng: &mut Rng, k: usize) -> (Vec<f64>, Vec<f64>) {
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

    #[test]
    fn lfilter_handle_and_mono_pass_agree_within_rounding() {
        let mut rng = Rng::new(75);
        for k in 1..=MAX_ORDER {
            let (b, a) = random_tf(&mut rng, k);
            let tf = Tf::<f64>::new(&b, &a).unwrap();
            let x = rng.vec_f64(2000, 1.0);
            let mut f = LFilter::<f64>::new(&b, &a, 1).unwrap();
            let mut want = vec![0.0; x.len()];
            let l = Layout::planar(x.len());
            f.process_with::<Fused>(Level::Scalar, Src::Slice(&x), l, &mut want, l, x.len());
            let mut z = vec![0.0; k];
            let got = run::<Fused>(Level::Scalar, &tf, &mut z, &x, false);
            let mut zf = vec![0.0; k];
            f.get_state(&mut zf);
            let scale = max_abs(&want);
            for (g, w) in got.iter().zip(&want).chain(z.iter().zip(&zf)) {
                assert!((g - w).abs() <= 1e-13 * scale, "k={k}: {g} {w}");
            }
        }
    }
}
