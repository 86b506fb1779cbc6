//! Streaming FIR filters: `y[t] = Σ_k h[k]·x[t−k]`, i.e. `scipy.signal.lfilter(h, 1, x)`, with the
//! last `n_taps − 1` inputs carried from one call to the next.
//!
//! Two forms, chosen from the number of taps when the filter is made:
//! - **direct** (`n_taps <=` [`DIRECT_MAX_TAPS`]): each output is `Σ_j hr[j]·e[t+j]` over the
//!   reversed taps `hr` and the history-extended input `e`, accumulated in `j` order; SIMD runs
//!   many outputs in lanes with exactly that order, so every level is bit-identical to the scalar
//!   reference and chunked processing is bit-identical to one call;
//! - **FFT overlap-save** (longer filters): frames of `N` = a power of two ≥ 4·`n_taps` hold the
//!   `n_taps − 1` previous inputs and up to `N − n_taps + 1` new ones; `y = IFFT(FFT(frame)·H)`
//!   keeps the outputs past the first `n_taps − 1`. Results agree with the direct form to
//!   rounding (about `ε·Σ|h|·max|x|·log2 N`), whatever the chunk sizes.

// Lane loops index several fixed-size arrays by the same lane number.
#![allow(clippy::needless_range_loop)]

use super::super::Float;
use crate::error::{SkError, SkResult};
use crate::kernels::alloc::{headroom, try_collect, try_copy, try_vec};
use crate::kernels::spectral::fft::MAX_FFT_LEN;
use crate::simd::{multiversion, Level};
use realfft::num_complex::Complex;
use realfft::{ComplexToReal, FftNum, RealFftPlanner, RealToComplex};
use std::sync::Arc;

/// Longest filter run in direct form.
pub(crate) const DIRECT_MAX_TAPS: usize = 160;

/// `y[t] = Σ_j hr[j]·e[t+j]` for `t < y.len()`; `e.len() >= y.len() + hr.len() − 1`.
fn direct_scalar<T: Float>(hr: &[T], e: &[T], y: &mut [T]) {
    for (t, out) in y.iter_mut().enumerate() {
        let mut acc = T::ZERO;
        for (j, &h) in hr.iter().enumerate() {
            acc = acc + h * e[t + j];
        }
        *out = acc;
    }
}

#[inline(always)]
fn direct_block<T: Float, const L: usize>(hr: &[T], e: &[T], y: &mut [T]) {
    const B: usize = 4;
    let n = y.len();
    let k = hr.len();
    let mut t0 = 0;
    while t0 + B * L <= n {
        let mut acc = [[T::ZERO; L]; B];
        let win = &e[t0..t0 + B * L + k - 1];
        for (j, &h) in hr.iter().enumerate() {
            for (b, a) in acc.iter_mut().enumerate() {
                let c: &[T; L] = win[j + b * L..j + (b + 1) * L]
                    .try_into()
                    .expect("window of L samples");
                for l in 0..L {
                    a[l] = a[l] + h * c[l];
                }
            }
        }
        for (dst, a) in y[t0..t0 + B * L].chunks_exact_mut(L).zip(&acc) {
            dst.copy_from_slice(a);
        }
        t0 += B * L;
    }
    direct_scalar(hr, &e[t0..], &mut y[t0..]);
}

#[inline(always)]
fn direct_lanes<T: Float>(hr: &[T], e: &[T], y: &mut [T]) {
    assert!(
        e.len() + 1 >= y.len() + hr.len(),
        "extended input too short"
    );
    if std::mem::size_of::<T>() == 4 {
        direct_block::<T, 16>(hr, e, y)
    } else {
        direct_block::<T, 8>(hr, e, y)
    }
}

multiversion! {
    /// Direct-form FIR over a history-extended input (see [`direct_scalar`]).
    pub fn direct_at<T: Float>(hr: &[T], e: &[T], y: &mut [T]) -> ();
    scalar = direct_scalar; simd = direct_lanes;
}

/// The FFT overlap-save engine.
struct Ols<T: FftNum> {
    n: usize,
    fwd: Arc<dyn RealToComplex<T>>,
    inv: Arc<dyn ComplexToReal<T>>,
    /// FFT of the zero-padded taps, already scaled by 1/N.
    h: Vec<Complex<T>>,
    frame: Vec<T>,
    spec: Vec<Complex<T>>,
    scratch: Vec<Complex<T>>,
    /// Largest input magnitude a frame may hold for the FFT form (see [`Ols::takes`]).
    limit: T,
}

impl<T: FftNum + Float> Ols<T> {
    fn new(taps: &[T]) -> SkResult<Self> {
        let n = taps
            .len()
            .checked_mul(4)
            .and_then(usize::checked_next_power_of_two)
            .filter(|&n| n <= MAX_FFT_LEN)
            .ok_or_else(|| {
                SkError::Length(format!(
                    "n_taps = {} is too long for the FFT form (at most {} taps)",
                    taps.len(),
                    MAX_FFT_LEN / 4
                ))
            })?;
        // the planner allocates infallibly: check that the plan is affordable first
        headroom::<Complex<T>>(n.saturating_mul(4), "the FIR filter's FFT plan")?;
        let mut planner = RealFftPlanner::<T>::new();
        let fwd = planner.plan_fft_forward(n);
        let inv = planner.plan_fft_inverse(n);
        let zero = Complex::new(T::ZERO, T::ZERO);
        let what = "the FIR filter's FFT buffers";
        let mut frame = try_vec(n, T::ZERO, what)?;
        frame[..taps.len()].copy_from_slice(taps);
        let mut h = try_vec(n / 2 + 1, zero, what)?;
        let scratch_len = fwd.get_scratch_len().max(inv.get_scratch_len());
        let mut scratch = try_vec(scratch_len, zero, what)?;
        fwd.process_with_scratch(&mut frame, &mut h, &mut scratch)
            .expect("FFT sizes match the plan");
        let scale = <T as Float>::from_f64(1.0 / n as f64);
        for v in h.iter_mut() {
            *v = Complex::new(v.re * scale, v.im * scale);
        }
        let spec = try_vec(n / 2 + 1, zero, what)?;
        // The transforms' partial sums stay below n·max|x| (forward) and n·max|x|·Σ|h|
        // (inverse); a margin of 4 keeps them finite in T.
        let t_max = if std::mem::size_of::<T>() == 4 {
            f32::MAX as f64
        } else {
            f64::MAX
        };
        let gain = taps.iter().map(|v| v.abs().to_f64()).sum::<f64>().max(1.0);
        let limit = <T as Float>::from_f64(t_max / (4.0 * n as f64 * gain));
        Ok(Ols {
            n,
            fwd,
            inv,
            h,
            frame,
            spec,
            scratch,
            limit,
        })
    }

    /// Whether the FFT form gives the direct form's result for a frame of inputs `e`: every
    /// value finite and small enough that no partial sum of the transforms overflows. A NaN or
    /// infinity would otherwise spread over the whole frame (the direct form confines it to the
    /// `n_taps` outputs that read it), and values near the top of the range would overflow to
    /// NaN where the direct form gives a finite or infinite result.
    fn takes(&self, e: &[T]) -> bool {
        // false for NaN (no comparison holds) and for ±inf. Blocks of 64 are tested without an
        // early exit inside (a branch-free compare-and vectorises; a short-circuit `all` does not
        // and cost a fifth of the FFT form's time).
        let lim = self.limit;
        let ok = |c: &[T]| c.iter().fold(true, |ok, v| ok & (v.abs() <= lim));
        let mut blocks = e.chunks_exact(64);
        blocks.all(ok) && ok(blocks.remainder())
    }

    /// Outputs for the last `m` samples of `e`'s frame: `e` = `k − 1` history samples followed
    /// by `m <= n − k + 1` new ones.
    fn frame_out(&mut self, e: &[T], k: usize, y: &mut [T]) {
        let m = y.len();
        debug_assert_eq!(e.len(), k - 1 + m);
        self.frame[..e.len()].copy_from_slice(e);
        self.frame[e.len()..].fill(T::ZERO);
        self.fwd
            .process_with_scratch(&mut self.frame, &mut self.spec, &mut self.scratch)
            .expect("FFT sizes match the plan");
        for (s, h) in self.spec.iter_mut().zip(&self.h) {
            *s = *s * *h;
        }
        // the inverse real FFT needs exactly real DC and Nyquist bins
        self.spec[0].im = T::ZERO;
        let last = self.spec.len() - 1;
        self.spec[last].im = T::ZERO;
        self.inv
            .process_with_scratch(&mut self.spec, &mut self.frame, &mut self.scratch)
            .expect("FFT sizes match the plan");
        y.copy_from_slice(&self.frame[k - 1..k - 1 + m]);
    }
}

/// A streaming FIR filter (one channel).
pub struct FirFilter<T: FftNum> {
    taps: Vec<T>,
    /// Reversed taps, for the direct form.
    hr: Vec<T>,
    /// The last `n_taps − 1` inputs (zeros at the start), oldest first.
    history: Vec<T>,
    /// History followed by the current chunk (reused between calls).
    ext: Vec<T>,
    ols: Option<Ols<T>>,
}

impl<T: FftNum + Float> FirFilter<T> {
    /// A filter with zero history. Taps must be finite and at least one.
    pub fn new(taps: &[T]) -> SkResult<Self> {
        if taps.is_empty() {
            return Err(SkError::Length(
                "n_taps is 0; a FIR filter needs at least one tap".into(),
            ));
        }
        if let Some(i) = taps.iter().position(|v| !v.is_finite()) {
            return Err(SkError::BadArgument(format!(
                "taps[{i}] = {:?} is not finite",
                taps[i]
            )));
        }
        Self::with_form(taps, taps.len() > DIRECT_MAX_TAPS)
    }

    /// As [`FirFilter::new`] with the form forced (tests compare the two).
    pub fn with_form(taps: &[T], fft: bool) -> SkResult<Self> {
        let k = taps.len();
        let what = "the FIR filter's taps and history";
        Ok(FirFilter {
            taps: try_copy(taps, what)?,
            hr: try_collect(taps.iter().rev().copied(), what)?,
            history: try_vec(k - 1, T::ZERO, what)?,
            ext: Vec::new(),
            ols: if fft { Some(Ols::new(taps)?) } else { None },
        })
    }

    pub fn n_taps(&self) -> usize {
        self.taps.len()
    }
    /// Whether the FFT overlap-save form runs.
    pub fn uses_fft(&self) -> bool {
        self.ols.is_some()
    }
    /// Zeroes the history.
    pub fn reset(&mut self) {
        self.history.fill(T::ZERO);
    }
    /// The last `n_taps − 1` inputs, oldest first.
    pub fn history(&self) -> &[T] {
        &self.history
    }
    /// Loads the last `n_taps − 1` inputs, oldest first.
    pub fn set_history(&mut self, h: &[T]) {
        self.history.copy_from_slice(h);
    }

    /// Reserves the working buffer for blocks of up to `max_block` samples, so such calls
    /// allocate nothing. Results do not change.
    pub fn reserve(&mut self, max_block: usize) -> SkResult<()> {
        let need = (self.taps.len() - 1).saturating_add(max_block);
        self.ext
            .try_reserve_exact(need.saturating_sub(self.ext.len()))
            .map_err(|_| {
                SkError::Allocation(format!(
                    "out of memory: cannot allocate {need} samples of history and input"
                ))
            })
    }

    /// Filters `x` into `y` (`None` = in place: `y` holds the input).
    pub fn process(&mut self, level: Level, x: Option<&[T]>, y: &mut [T]) -> SkResult<()> {
        let n = y.len();
        if let Some(x) = x {
            assert_eq!(x.len(), n, "FIR input and output lengths differ");
        }
        if n == 0 {
            return Ok(());
        }
        let k = self.taps.len();
        let need = k - 1 + n;
        if self.ext.capacity() < need {
            self.ext
                .try_reserve_exact(need - self.ext.len())
                .map_err(|_| {
                    SkError::Allocation(format!(
                        "out of memory: cannot allocate {need} samples of history and input"
                    ))
                })?;
        }
        self.ext.clear();
        self.ext.extend_from_slice(&self.history);
        self.ext.extend_from_slice(x.unwrap_or(y));
        match &mut self.ols {
            None => direct_at(level, &self.hr, &self.ext, y),
            Some(ols) => {
                let hop = ols.n - k + 1;
                let mut t0 = 0;
                while t0 < n {
                    let m = (n - t0).min(hop);
                    let e = &self.ext[t0..t0 + k - 1 + m];
                    let out = &mut y[t0..t0 + m];
                    if ols.takes(e) {
                        ols.frame_out(e, k, out);
                    } else {
                        // one NaN/inf semantics for both forms: the direct form's
                        direct_at(level, &self.hr, e, out);
                    }
                    t0 += m;
                }
            }
        }
        self.history.copy_from_slice(&self.ext[n..n + k - 1]);
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::kernels::testutil::{same, Rng};
    use crate::simd::available;

    fn conv_ref(h: &[f64], x: &[f64]) -> Vec<f64> {
        (0..x.len())
            .map(|t| {
                (0..h.len())
                    .filter(|&k| k <= t)
                    .map(|k| h[k] * x[t - k])
                    .sum()
            })
            .collect()
    }

    /// The FFT form (used above 160 taps) propagates NaN and infinity exactly like the direct
    /// form (lfilter): a NaN at x[i] reaches y[i..i + n_taps] only, and extreme finite inputs
    /// never overflow to NaN.
    #[test]
    fn fft_form_has_the_direct_forms_nan_and_inf_semantics() {
        let mut rng = Rng::new(77);
        for k in [161usize, 201, 1023] {
            let h32 = rng.vec_f32(k, 0.1);
            let h64: Vec<f64> = h32.iter().map(|&v| v as f64).collect();
            let n = 6000;
            let cases: Vec<Vec<(usize, f64)>> = vec![
                vec![(2000, f64::NAN)],
                vec![(0, f64::INFINITY)],
                vec![(3000, f64::NEG_INFINITY), (3001, f64::INFINITY)],
                vec![
                    (100, f32::MAX as f64),
                    (101, -(f32::MAX as f64)),
                    (102, f32::MAX as f64),
                ],
                vec![(n - 1, f64::NAN)],
            ];
            for (ci, marks) in cases.iter().enumerate() {
                let mut x32 = rng.vec_f32(n, 1.0);
                for &(i, v) in marks {
                    x32[i] = v as f32;
                }
                let x64: Vec<f64> = x32.iter().map(|&v| v as f64).collect();
                for chunk in [n, 777, 64] {
                    let run32 = |fft: bool| {
                        let mut f = FirFilter::with_form(&h32, fft).unwrap();
                        let mut y = vec![0f32; n];
                        for (xc, yc) in x32.chunks(chunk).zip(y.chunks_mut(chunk)) {
                            f.process(Level::Scalar, Some(xc), yc).unwrap();
                        }
                        y
                    };
                    let run64 = |fft: bool| {
                        let mut f = FirFilter::with_form(&h64, fft).unwrap();
                        let mut y = vec![0f64; n];
                        for (xc, yc) in x64.chunks(chunk).zip(y.chunks_mut(chunk)) {
                            f.process(Level::Scalar, Some(xc), yc).unwrap();
                        }
                        y
                    };
                    let (d32, f32_) = (run32(false), run32(true));
                    let (d64, f64_) = (run64(false), run64(true));
                    // FFT rounding is relative to the largest values in a frame
                    let s64 = d64
                        .iter()
                        .filter(|v| v.is_finite())
                        .fold(1.0f64, |m, v| m.max(v.abs()));
                    for t in 0..n {
                        let tag = format!("k={k} case={ci} chunk={chunk} t={t}");
                        assert_eq!(d32[t].is_nan(), f32_[t].is_nan(), "{tag} f32 nan");
                        assert_eq!(d64[t].is_nan(), f64_[t].is_nan(), "{tag} f64 nan");
                        if d32[t].is_infinite() || f32_[t].is_infinite() {
                            assert_eq!(d32[t], f32_[t], "{tag} f32 inf");
                        } else if d32[t].is_finite() {
                            let scale = d32[t].abs().max(1.0);
                            assert!((d32[t] - f32_[t]).abs() <= 1e-3 * scale, "{tag} f32");
                        }
                        if d64[t].is_finite() {
                            assert!((d64[t] - f64_[t]).abs() <= 1e-12 * s64, "{tag} f64");
                        } else {
                            assert!(d64[t] == f64_[t] || d64[t].is_nan(), "{tag} f64 inf");
                        }
                    }
                    // the window of a NaN is exactly [i, i + k)
                    for &(i, v) in marks {
                        if v.is_nan() {
                            let hit: Vec<usize> = (0..n).filter(|&t| f64_[t].is_nan()).collect();
                            assert_eq!(hit, (i..(i + k).min(n)).collect::<Vec<_>>(), "k={k}");
                        }
                    }
                }
                // finite input never gives NaN
                if marks.iter().all(|m| m.1.is_finite()) {
                    let mut f = FirFilter::with_form(&h32, true).unwrap();
                    let mut y = vec![0f32; n];
                    f.process(Level::Scalar, Some(&x32), &mut y).unwrap();
                    assert!(y.iter().all(|v| !v.is_nan()), "k={k} case={ci}");
                }
            }
        }
    }

    #[test]
    fn direct_every_level_bit_identical_and_correct() {
        let mut rng = Rng::new(21);
        for k in [1usize, 2, 3, 7, 16, 63, 64, 65, 160] {
            let h = rng.vec_f64(k, 1.0);
            for n in [0usize, 1, 5, 31, 32, 33, 100, 257] {
                let x = rng.vec_f64(n, 1.0);
                let want = conv_ref(&h, &x);
                let mut yref = vec![0.0; n];
                FirFilter::with_form(&h, false)
                    .unwrap()
                    .process(Level::Scalar, Some(&x), &mut yref)
                    .unwrap();
                for (a, b) in yref.iter().zip(&want) {
                    assert!((a - b).abs() < 1e-13 * k as f64, "k={k} n={n}");
                }
                for level in available() {
                    let mut y = vec![0.0; n];
                    let mut f = FirFilter::with_form(&h, false).unwrap();
                    f.process(level, Some(&x), &mut y).unwrap();
                    assert!(same(&y, &yref), "k={k} n={n} {level:?}");
                    // in place
                    let mut f = FirFilter::with_form(&h, false).unwrap();
                    let mut y2 = x.clone();
                    f.process(level, None, &mut y2).unwrap();
                    assert!(same(&y2, &yref), "in place k={k} n={n} {level:?}");
                }
            }
        }
        let h32: Vec<f32> = rng.vec_f32(63, 1.0);
        let x32: Vec<f32> = rng.vec_f32(1001, 1.0);
        let mut want = vec![0f32; 1001];
        FirFilter::with_form(&h32, false)
            .unwrap()
            .process(Level::Scalar, Some(&x32), &mut want)
            .unwrap();
        for level in available() {
            let mut y = vec![0f32; 1001];
            FirFilter::with_form(&h32, false)
                .unwrap()
                .process(level, Some(&x32), &mut y)
                .unwrap();
            assert!(same(&y, &want), "f32 {level:?}");
        }
    }

    #[test]
    fn chunks_direct_bit_identical_fft_close() {
        let mut rng = Rng::new(22);
        for (k, fft) in [(63usize, false), (5, true), (63, true), (1023, true)] {
            let h = rng.vec_f64(k, 1.0 / k as f64);
            let x = rng.vec_f64(9000, 1.0);
            let want = conv_ref(&h, &x);
            let mut whole = vec![0.0; x.len()];
            let mut f = FirFilter::with_form(&h, fft).unwrap();
            f.process(crate::simd::current(), Some(&x), &mut whole)
                .unwrap();
            let mut f = FirFilter::with_form(&h, fft).unwrap();
            let mut y = vec![0.0; x.len()];
            let mut t0 = 0;
            let mut i = 0;
            while t0 < x.len() {
                let m = [1usize, 0, 17, 600, 5000, 3][i % 6].min(x.len() - t0);
                i += 1;
                f.process(
                    crate::simd::current(),
                    Some(&x[t0..t0 + m]),
                    &mut y[t0..t0 + m],
                )
                .unwrap();
                t0 += m;
            }
            if !fft {
                assert!(same(&y, &whole));
            }
            let sum_h: f64 = h.iter().map(|v| v.abs()).sum();
            for (t, ((a, b), c)) in y.iter().zip(&whole).zip(&want).enumerate() {
                assert!(
                    (a - c).abs() < 1e-13 * sum_h * 16.0,
                    "k={k} fft={fft} t={t} {a} {c}"
                );
                assert!(
                    (b - c).abs() < 1e-13 * sum_h * 16.0,
                    "k={k} fft={fft} t={t}"
                );
            }
        }
    }

    #[test]
    fn form_choice_and_bad_taps() {
        assert!(!FirFilter::<f64>::new(&[0.5; DIRECT_MAX_TAPS])
            .unwrap()
            .uses_fft());
        assert!(FirFilter::<f64>::new(&[0.5; DIRECT_MAX_TAPS + 1])
            .unwrap()
            .uses_fft());
        assert!(FirFilter::<f32>::new(&[]).is_err());
        assert!(FirFilter::<f32>::new(&[1.0, f32::NAN]).is_err());
        let mut f = FirFilter::<f64>::new(&[1.0, 2.0, 3.0]).unwrap();
        let mut y = [1.0, 0.0];
        f.process(Level::Scalar, None, &mut y).unwrap();
        assert_eq!(y, [1.0, 2.0]);
        assert_eq!(f.history(), &[1.0, 0.0]);
        f.reset();
        assert_eq!(f.history(), &[0.0, 0.0]);
    }
}
