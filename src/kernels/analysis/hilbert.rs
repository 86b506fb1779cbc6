//! The analytic signal (`scipy.signal.hilbert`): `z = x + i·H{x}` of each row, computed over
//! `N` points (the row truncated or zero-padded to `N`, as `fft(x, N)` does).
//!
//! scipy forms `ifft(fft(x, N)·h)` with `h` 1 at bin 0 (and `N/2` for even `N`), 2 on the
//! positive and 0 on the negative frequencies. Its real part is the (padded) signal itself, and
//! its imaginary part is the real inverse transform of `−i·X[k]` on the positive bins (0 at bin
//! 0 and at `N/2`): one real forward and one real inverse transform of `N` points per row (for
//! an even `N ≥ 32768`, two of `N/2` points each way, from the even and odd samples, on two
//! threads when there are).
//! Both run on the fastest plans ([`PlanCache::cached_fast_real_plan`]): scipy's result is
//! met within a few ε·log N of the signal's scale, not bit for bit.

use crate::error::SkResult;
use crate::kernels::alloc::{try_collect, try_vec};
use crate::kernels::par::{par_rows_with, run_parts, threads_for};
use crate::kernels::spectral::fft::{FftFloat, FftPlan, Norm, PlanCache, Workspace};
use crate::kernels::spectral::Complex;
use std::sync::Arc;

/// Even lengths from this many points on are computed from their even and odd samples (two
/// half-length transforms each way, on two threads when there are), whatever the thread count.
const SPLIT_MIN: usize = 1 << 15;

/// The analytic signal of `rows` rows of `n` samples of `x` over `big_n ≥ 1` points into `out`
/// (`rows · big_n` complex values, row after row). Scratch is allocated before anything is
/// written: on an error `out` is untouched. Rows are split over up to `SIGKERN_THREADS`
/// threads, each computed as on one thread.
pub fn hilbert<T: FftFloat + PlanCache>(
    x: &[T],
    rows: usize,
    n: usize,
    big_n: usize,
    out: &mut [Complex<T>],
) -> SkResult<()> {
    assert!(x.len() >= rows * n, "x span");
    assert!(out.len() >= rows * big_n, "output span");
    if rows == 0 || big_n == 0 {
        return Ok(());
    }
    let keep = n.min(big_n);
    if big_n >= SPLIT_MIN && big_n.is_multiple_of(2) {
        return hilbert_split(x, rows, n, big_n, out);
    }
    let plan = T::cached_fast_real_plan(big_n)?;
    let bins = big_n / 2 + 1;
    let make = || -> SkResult<_> {
        Ok((
            plan.workspace()?,
            try_vec(
                if keep < big_n { big_n } else { 0 },
                T::ZERO,
                "a padded row",
            )?,
            try_vec(bins, Complex::new(T::ZERO, T::ZERO), "a row spectrum")?,
            try_vec(big_n, T::ZERO, "the quadrature row")?,
        ))
    };
    let log_n = (usize::BITS - big_n.leading_zeros()) as usize;
    let work = rows.saturating_mul(big_n).saturating_mul(2 * log_n + 4);
    par_rows_with(
        &mut out[..rows * big_n],
        big_n,
        work,
        make,
        |(ws, frame, spec, quad), first, chunk| {
            for (i, o) in chunk.chunks_exact_mut(big_n).enumerate() {
                let r = first + i;
                // the row itself when it has the N points, else a zero-padded copy
                let row: &[T] = if keep == big_n {
                    &x[r * n..r * n + big_n]
                } else {
                    frame[..keep].copy_from_slice(&x[r * n..r * n + keep]);
                    frame[keep..].fill(T::ZERO);
                    &frame[..]
                };
                plan.rfft_ws(row, spec, Norm::Backward, ws);
                // −i·X on the positive bins, 0 at bin 0 and the Nyquist bin of an even length
                let top = if big_n.is_multiple_of(2) {
                    bins - 1
                } else {
                    bins
                };
                spec[0] = Complex::new(T::ZERO, T::ZERO);
                for s in spec[1..top].iter_mut() {
                    *s = Complex::new(s.im, -s.re);
                }
                for s in spec[top..].iter_mut() {
                    *s = Complex::new(T::ZERO, T::ZERO);
                }
                plan.irfft_ws(spec, quad, Norm::Backward, ws);
                for ((z, &re), &im) in o.iter_mut().zip(row.iter()).zip(quad.iter()) {
                    *z = Complex::new(re, im);
                }
            }
        },
    )
}

/// One half (the even or the odd samples) of [`hilbert_split`]'s row: its samples, then their
/// inverse transform; its spectrum; the plan's workspace.
struct Half<T: FftFloat> {
    buf: Vec<T>,
    spec: Vec<Complex<T>>,
    ws: Workspace<T>,
}

/// `W_N^k = e^{−2πik/N}` for `k < m` as the product of two short tables (`k = hi·s + lo`),
/// each entry computed in double: within a few ε of the exact value.
struct Twiddles<T> {
    s: usize,
    lo: Vec<Complex<T>>,
    hi: Vec<Complex<T>>,
}

impl<T: FftFloat> Twiddles<T> {
    fn new(big_n: usize, m: usize) -> SkResult<Self> {
        let s = (m as f64).sqrt().ceil() as usize + 1;
        let w = |k: usize| {
            let a = -2.0 * std::f64::consts::PI * (k as f64) / (big_n as f64);
            (a.cos(), a.sin())
        };
        let lo = try_collect(
            (0..s).map(|j| {
                let (c, si) = w(j);
                Complex::new(
                    <T as crate::kernels::Float>::from_f64(c),
                    <T as crate::kernels::Float>::from_f64(si),
                )
            }),
            "the twiddle table",
        )?;
        let hi = try_collect(
            (0..m / s + 1).map(|i| {
                let (c, si) = w(i * s);
                Complex::new(
                    <T as crate::kernels::Float>::from_f64(c),
                    <T as crate::kernels::Float>::from_f64(si),
                )
            }),
            "the twiddle table",
        )?;
        Ok(Twiddles { s, lo, hi })
    }

    #[inline(always)]
    fn at(&self, k: usize) -> Complex<T> {
        self.hi[k / self.s] * self.lo[k % self.s]
    }
}

/// [`hilbert`] for an even `big_n = 2M` (decimation in time at the first level): the real
/// transforms `E`, `O` of the even and odd samples (M points each) give `X[k] = E[k] + W^k·O[k]`
/// and `X[M−k] = conj(E[k] − W^k·O[k])`; the quadrature spectrum `Y = −i·X` (0 at bins 0 and
/// M) goes back the same way: the even output samples are the inverse transform of
/// `(Y[k] + conj(Y[M−k]))/2`, the odd ones that of `(Y[k] − conj(Y[M−k]))·conj(W^k)/2`. The two
/// halves' transforms run on two threads when there are (a row's result is the same either
/// way).
fn hilbert_split<T: FftFloat + PlanCache>(
    x: &[T],
    rows: usize,
    n: usize,
    big_n: usize,
    out: &mut [Complex<T>],
) -> SkResult<()> {
    let m = big_n / 2;
    let bins = m / 2 + 1;
    let plan: Arc<FftPlan<T>> = T::cached_fast_real_plan(m)?;
    let tw = Twiddles::<T>::new(big_n, m)?;
    let mut halves = Vec::with_capacity(2);
    for _ in 0..2 {
        halves.push(Half {
            buf: try_vec(m, T::ZERO, "a half row")?,
            spec: try_vec(bins, Complex::new(T::ZERO, T::ZERO), "a half spectrum")?,
            ws: plan.workspace()?,
        });
    }
    let keep = n.min(big_n);
    let log_n = (usize::BITS - big_n.leading_zeros()) as usize;
    let two = threads_for(2, big_n.saturating_mul(2 * log_n + 4)) >= 2;
    // runs `f` on both halves (and their index), on two threads when `two`
    let both = |halves: &mut Vec<Half<T>>, f: &(dyn Fn(usize, &mut Half<T>) + Sync)| {
        if two {
            run_parts(halves.iter_mut().enumerate().collect(), |(p, h)| f(p, h));
        } else {
            for (p, h) in halves.iter_mut().enumerate() {
                f(p, h);
            }
        }
    };
    for r in 0..rows {
        let row = &x[r * n..r * n + keep];
        both(&mut halves, &|p, h| {
            // the samples 2j + p of the (zero-padded) row
            let have = (keep + 1 - p) / 2;
            for (b, &v) in h.buf[..have].iter_mut().zip(row[p..].iter().step_by(2)) {
                *b = v;
            }
            h.buf[have..].fill(T::ZERO);
            plan.rfft_ws(&h.buf, &mut h.spec, Norm::Backward, &mut h.ws);
        });
        {
            let (e, o) = halves.split_at_mut(1);
            let (es, os) = (&mut e[0].spec, &mut o[0].spec);
            let half = <T as crate::kernels::Float>::from_f64(0.5);
            let neg_i = |z: Complex<T>| Complex::new(z.im, -z.re);
            for k in 0..bins {
                let w = tw.at(k);
                let t = w * os[k];
                let (xk, xmk) = (es[k] + t, (es[k] - t).conj());
                // Y[k] and Y[M−k]: −i·X, 0 at bins 0 and M
                let zero = Complex::new(T::ZERO, T::ZERO);
                let yk = if k == 0 { zero } else { neg_i(xk) };
                let ymk = if k == 0 { zero } else { neg_i(xmk) };
                let c = ymk.conj();
                es[k] = (yk + c) * half;
                os[k] = (yk - c) * w.conj() * half;
            }
        }
        both(&mut halves, &|_, h| {
            plan.irfft_ws(&h.spec, &mut h.buf, Norm::Backward, &mut h.ws);
        });
        let o = &mut out[r * big_n..(r + 1) * big_n];
        let (qe, qo) = (&halves[0].buf, &halves[1].buf);
        let pairs = o.chunks_exact_mut(2).zip(qe.iter().zip(qo));
        for (j, (z, (&e, &od))) in pairs.enumerate() {
            let (a, b) = if 2 * j + 1 < keep {
                (row[2 * j], row[2 * j + 1])
            } else {
                let re = |i: usize| if i < keep { row[i] } else { T::ZERO };
                (re(2 * j), re(2 * j + 1))
            };
            z[0] = Complex::new(a, e);
            z[1] = Complex::new(b, od);
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cosine_becomes_a_complex_exponential() {
        for big_n in [64usize, 63] {
            let x: Vec<f64> = (0..big_n)
                .map(|j| (2.0 * std::f64::consts::PI * 5.0 * j as f64 / big_n as f64).cos())
                .collect();
            let mut z = vec![Complex::new(0.0, 0.0); big_n];
            hilbert(&x, 1, big_n, big_n, &mut z).unwrap();
            for (j, v) in z.iter().enumerate() {
                let a = 2.0 * std::f64::consts::PI * 5.0 * j as f64 / big_n as f64;
                assert!((v.re - a.cos()).abs() < 1e-13 && (v.im - a.sin()).abs() < 1e-13);
            }
        }
    }

    /// The fast plans against numpy's algorithm (the accurate plans) at lengths that are not
    /// powers of two, a prime among them: within 1e-13 of the largest value.
    #[test]
    fn fast_plans_agree_with_the_accurate_ones() {
        let mut seed = 12345u64;
        for big_n in [441usize, 1000, 4099, 6000] {
            let x: Vec<f64> = (0..big_n)
                .map(|_| {
                    seed = seed
                        .wrapping_mul(6364136223846793005)
                        .wrapping_add(1442695040888963407);
                    (seed >> 11) as f64 / (1u64 << 53) as f64 - 0.5
                })
                .collect();
            let mut z = vec![Complex::new(0.0, 0.0); big_n];
            hilbert(&x, 1, big_n, big_n, &mut z).unwrap();
            let plan = f64::cached_real_plan(big_n).unwrap();
            let mut spec = vec![Complex::new(0.0, 0.0); big_n / 2 + 1];
            plan.rfft(&x, &mut spec, Norm::Backward);
            let top = if big_n % 2 == 0 {
                spec.len() - 1
            } else {
                spec.len()
            };
            for (k, s) in spec.iter_mut().enumerate() {
                *s = if k == 0 || k >= top {
                    Complex::new(0.0, 0.0)
                } else {
                    Complex::new(s.im, -s.re)
                };
            }
            let mut quad = vec![0.0; big_n];
            plan.irfft(&spec, &mut quad, Norm::Backward);
            let scale = quad.iter().fold(1.0f64, |m, v| m.max(v.abs()));
            for j in 0..big_n {
                assert_eq!(z[j].re, x[j]);
                assert!(
                    (z[j].im - quad[j]).abs() <= 1e-13 * scale,
                    "n {big_n} j {j}"
                );
            }
        }
    }

    /// The analytic signal by one full-length transform each way on the accurate plans.
    fn reference(x: &[f64], big_n: usize) -> Vec<f64> {
        let mut row = vec![0.0; big_n];
        let k = x.len().min(big_n);
        row[..k].copy_from_slice(&x[..k]);
        let plan = f64::cached_real_plan(big_n).unwrap();
        let mut spec = vec![Complex::new(0.0, 0.0); big_n / 2 + 1];
        plan.rfft(&row, &mut spec, Norm::Backward);
        let top = if big_n.is_multiple_of(2) {
            spec.len() - 1
        } else {
            spec.len()
        };
        for (k, s) in spec.iter_mut().enumerate() {
            *s = if k == 0 || k >= top {
                Complex::new(0.0, 0.0)
            } else {
                Complex::new(s.im, -s.re)
            };
        }
        let mut quad = vec![0.0; big_n];
        plan.irfft(&spec, &mut quad, Norm::Backward);
        quad
    }

    /// The even/odd split of long even lengths (half lengths even and odd, padded, truncated,
    /// two rows) against one full-length transform: within 1e-13 of the largest value, the
    /// real part the signal itself.
    #[test]
    fn split_lengths_agree_with_one_transform() {
        let mut seed = 777u64;
        let mut rnd = || {
            seed = seed
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            (seed >> 11) as f64 / (1u64 << 53) as f64 - 0.5
        };
        for (n, big_n) in [
            (SPLIT_MIN, SPLIT_MIN),
            (40002, 40002),
            (30001, 40000),
            (50001, 40000),
        ] {
            assert!(big_n >= SPLIT_MIN && big_n.is_multiple_of(2));
            let rows = 2;
            let x: Vec<f64> = (0..rows * n).map(|_| rnd()).collect();
            let mut z = vec![Complex::new(9.0, 9.0); rows * big_n];
            hilbert(&x, rows, n, big_n, &mut z).unwrap();
            for r in 0..rows {
                let xr = &x[r * n..(r + 1) * n];
                let quad = reference(xr, big_n);
                let scale = quad.iter().fold(1.0f64, |m, v| m.max(v.abs()));
                for j in 0..big_n {
                    let v = z[r * big_n + j];
                    assert_eq!(
                        v.re,
                        if j < n { xr[j] } else { 0.0 },
                        "n {n} N {big_n} j {j}"
                    );
                    assert!(
                        (v.im - quad[j]).abs() <= 1e-13 * scale,
                        "n {n} N {big_n} j {j}: {} vs {}",
                        v.im,
                        quad[j]
                    );
                }
            }
        }
    }

    #[test]
    fn padding_and_truncation() {
        let x = [1.0f64, 2.0, 3.0, 4.0, 5.0];
        let mut z = vec![Complex::new(9.0, 9.0); 8];
        hilbert(&x, 1, 5, 8, &mut z).unwrap();
        assert_eq!(z[5].re, 0.0);
        let mut t = vec![Complex::new(9.0, 9.0); 3];
        hilbert(&x, 1, 5, 3, &mut t).unwrap();
        assert_eq!(t[2].re, 3.0);
        // N = 1: the analytic signal of one sample is that sample
        let mut one = vec![Complex::new(9.0, 9.0); 1];
        hilbert(&x, 1, 5, 1, &mut one).unwrap();
        assert_eq!((one[0].re, one[0].im), (1.0, 0.0));
    }
}
