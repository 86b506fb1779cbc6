//! Convolution and correlation of two real signals, modes full/same/valid, equal to
//! `scipy.signal.fftconvolve` / `scipy.signal.correlate`; direct summation for short kernels,
//! FFT overlap-save otherwise.
//!
//! Output index `i` is the full convolution's index `start + i`, with `start = 0` (full),
//! `(nb − 1) / 2` (same, length na, centred on `a` as scipy) or `min(na, nb) − 1` (valid,
//! length `|na − nb| + 1`). Correlation is convolution with `b` reversed.

use super::fft::{grow, FftFloat, FftKind, FftPlan, Norm};
use super::Complex;
use crate::error::{SkError, SkResult};
use crate::kernels::alloc::{try_collect, try_vec};
use crate::kernels::par::{par_rows, par_rows_with};

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ConvMode {
    Full,
    Same,
    Valid,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ConvMethod {
    /// Direct for short kernels or small outputs, FFT otherwise.
    Auto,
    Direct,
    Fft,
}

/// `(output length, start in the full result)`; `SK_ERR_LENGTH` for an empty input.
pub fn out_range(na: usize, nb: usize, mode: ConvMode) -> SkResult<(usize, usize)> {
    if na == 0 || nb == 0 {
        return Err(SkError::Length(format!(
            "na = {na}, nb = {nb}: both signals need at least one sample"
        )));
    }
    Ok(match mode {
        ConvMode::Full => {
            let len = (na - 1).checked_add(nb).ok_or_else(|| {
                SkError::Length(format!(
                    "na = {na} + nb = {nb} - 1 (the full output length) overflows size_t"
                ))
            })?;
            (len, 0)
        }
        ConvMode::Same => (na, (nb - 1) / 2),
        ConvMode::Valid => (na.max(nb) - na.min(nb) + 1, na.min(nb) - 1),
    })
}

/// Whether `Auto` picks the direct method for an output of `ny` samples and a kernel of `m`.
pub fn prefer_direct(ny: usize, m: usize) -> bool {
    m <= 40 || (ny as f64) * (m as f64) < 100_000.0
}

/// `y = (a * b)[start .. start + y.len()]` (or correlation when `correlate`), `y.len()` from
/// [`out_range`].
pub fn convolve<T: FftFloat>(
    a: &[T],
    b: &[T],
    mode: ConvMode,
    method: ConvMethod,
    correlate: bool,
    y: &mut [T],
) -> SkResult<()> {
    let (ny, start) = out_range(a.len(), b.len(), mode)?;
    assert_eq!(y.len(), ny, "convolution output length");
    let rev: Vec<T>;
    let b = if correlate {
        rev = try_collect(b.iter().rev().copied(), "the reversed kernel")?;
        &rev[..]
    } else {
        b
    };
    // the longer signal is streamed, the shorter one is the kernel (convolution commutes)
    let (x, h) = if a.len() >= b.len() { (a, b) } else { (b, a) };
    let direct = match method {
        ConvMethod::Direct => true,
        ConvMethod::Fft => false,
        ConvMethod::Auto => prefer_direct(ny, h.len()),
    };
    if direct {
        direct_conv(x, h, start, y)
    } else {
        fft_conv(x, h, start, y)
    }
}

/// `y[i] = Σ_j h[j] x[start + i − j]` over the valid j: `x` zero-padded into a temporary, then a
/// register-blocked sliding dot product with the reversed kernel (multiversioned).
fn direct_conv<T: FftFloat>(x: &[T], h: &[T], start: usize, y: &mut [T]) -> SkResult<()> {
    let m = h.len();
    let ny = y.len();
    // tmp[q] = x[start + q − (m − 1)], zero outside x
    let mut tmp = try_vec(ny + m - 1, T::ZERO, "the zero-padded signal")?;
    let off = start as isize - (m as isize - 1);
    let lo = (-off).max(0) as usize;
    let hi = ((x.len() as isize - off).max(0) as usize).min(tmp.len());
    if lo < hi {
        tmp[lo..hi].copy_from_slice(&x[(off + lo as isize) as usize..(off + hi as isize) as usize]);
    }
    let hr = try_collect(h.iter().rev().copied(), "the reversed kernel")?;
    let level = crate::simd::current();
    par_rows(y, 1, ny.saturating_mul(m), |first, yc| {
        sliding_dot(level, &tmp[first..first + yc.len() + m - 1], &hr, yc)
    });
    Ok(())
}

/// `out[i] = Σ_j hr[j]·xp[i + j]`, j ascending (the same order in every path, no fused
/// multiply-add: bit-identical at every SIMD level).
#[inline(always)]
fn sliding_dot_body<T: FftFloat>(xp: &[T], hr: &[T], out: &mut [T]) {
    const W: usize = 32;
    assert!(
        xp.len() + 1 >= out.len() + hr.len(),
        "sliding_dot input too short"
    );
    let mut chunks = out.chunks_exact_mut(W);
    let mut base = 0;
    for oc in &mut chunks {
        let mut acc = [T::ZERO; W];
        for (j, &h) in hr.iter().enumerate() {
            let xs: &[T; W] = xp[base + j..base + j + W].try_into().unwrap();
            for l in 0..W {
                acc[l] = acc[l] + h * xs[l];
            }
        }
        oc.copy_from_slice(&acc);
        base += W;
    }
    for (i, o) in chunks.into_remainder().iter_mut().enumerate() {
        let mut a = T::ZERO;
        for (j, &h) in hr.iter().enumerate() {
            a = a + h * xp[base + i + j];
        }
        *o = a;
    }
}

crate::simd::multiversion! {
    /// The sliding dot product at a SIMD level.
    fn sliding_dot<T: FftFloat>(xp: &[T], hr: &[T], out: &mut [T]) -> ();
    scalar = sliding_dot_body; simd = sliding_dot_body;
}

/// FFT length for overlap-save with kernel `m` and `ny` outputs: the power of two (≥ 2m, or the
/// smallest covering everything) with the least estimated work.
fn choose_nfft(ny: usize, m: usize) -> usize {
    let all = (ny + m - 1).next_power_of_two();
    let mut best = all;
    let mut best_cost = f64::INFINITY;
    let mut n = (2 * m).next_power_of_two().max(16);
    while n <= all {
        let l = n - m + 1;
        let blocks = ny.div_ceil(l) as f64;
        let cost = blocks * (n as f64) * ((n as f64).log2() + 1.5);
        if cost < best_cost {
            best_cost = cost;
            best = n;
        }
        n *= 2;
    }
    best
}

fn fft_conv<T: FftFloat>(x: &[T], h: &[T], start: usize, y: &mut [T]) -> SkResult<()> {
    let m = h.len();
    let ny = y.len();
    let n = choose_nfft(ny, m);
    let l = n - m + 1;
    let plan = FftPlan::<T>::new(FftKind::Real, n)?;
    let nf = n / 2 + 1;
    // kernel spectrum, with the 1/n of the inverse folded in
    let zero = Complex::new(T::ZERO, T::ZERO);
    let mut hp = try_vec(n, T::ZERO, "the padded kernel")?;
    hp[..m].copy_from_slice(h);
    let mut hs = try_vec(nf, zero, "the kernel spectrum")?;
    let mut ws = plan.workspace()?;
    plan.rfft_ws(&hp, &mut hs, Norm::Forward, &mut ws);
    drop(hp);
    let nx = x.len() as isize;
    // every part's buffers are allocated before any output is written
    let make = || -> SkResult<_> {
        let what = "a convolution segment";
        Ok((
            plan.workspace()?,
            try_vec(n, T::ZERO, what)?,
            try_vec(nf, zero, what)?,
            try_vec(n, T::ZERO, what)?,
        ))
    };
    par_rows_with(
        y,
        l,
        ny.saturating_mul(64),
        make,
        |(ws, seg, spec, out), first_seg, yc| {
            for (si, yblk) in yc.chunks_mut(l).enumerate() {
                // outputs full[o0 .. o0 + l] need x[o0 - (m-1) .. o0 + l)
                let o0 = (start + (first_seg + si) * l) as isize;
                let s0 = o0 - (m as isize - 1);
                let lo = (-s0).clamp(0, n as isize) as usize;
                let hi = (nx - s0).clamp(0, n as isize) as usize;
                seg.fill(T::ZERO);
                if lo < hi {
                    seg[lo..hi].copy_from_slice(
                        &x[(s0 + lo as isize) as usize..(s0 + hi as isize) as usize],
                    );
                }
                plan.rfft_inplace_input(seg, spec, Norm::Backward, &mut ws.cplx);
                for (s, k) in spec.iter_mut().zip(&hs) {
                    *s = *s * *k;
                }
                let sp = grow(&mut ws.cplx2, nf);
                sp.copy_from_slice(spec);
                plan.irfft_inplace_input(sp, out, Norm::Forward, &mut ws.cplx);
                yblk.copy_from_slice(&out[m - 1..m - 1 + yblk.len()]);
            }
        },
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::kernels::testutil::Rng;

    fn naive(a: &[f64], b: &[f64]) -> Vec<f64> {
        let mut y = vec![0.0; a.len() + b.len() - 1];
        for (i, &x) in a.iter().enumerate() {
            for (j, &h) in b.iter().enumerate() {
                y[i + j] += x * h;
            }
        }
        y
    }

    #[test]
    fn sliding_dot_is_bit_identical_at_every_level() {
        let mut rng = Rng::new(10);
        for (nout, m) in [(0, 1), (1, 1), (31, 3), (32, 5), (100, 31), (257, 64)] {
            let xp = rng.vec_f32(nout + m - 1, 1.0);
            let hr = rng.vec_f32(m, 1.0);
            let mut want = vec![0.0f32; nout];
            sliding_dot(crate::simd::Level::Scalar, &xp, &hr, &mut want);
            for (i, w) in want.iter().enumerate() {
                let r: f64 = (0..m).map(|j| hr[j] as f64 * xp[i + j] as f64).sum();
                assert!((*w as f64 - r).abs() < 1e-5 * m as f64);
            }
            for level in crate::simd::available() {
                let mut got = vec![f32::NAN; nout];
                sliding_dot(level, &xp, &hr, &mut got);
                assert!(
                    crate::kernels::testutil::same(&got, &want),
                    "{nout} {m} {level:?}"
                );
            }
        }
    }

    #[test]
    fn every_mode_and_method_matches_naive() {
        let mut rng = Rng::new(9);
        for (na, nb) in [
            (1, 1),
            (5, 3),
            (3, 5),
            (100, 7),
            (7, 100),
            (300, 200),
            (1000, 97),
            (64, 64),
        ] {
            let a = rng.vec_f64(na, 1.0);
            let b = rng.vec_f64(nb, 1.0);
            let full = naive(&a, &b);
            let brev: Vec<f64> = b.iter().rev().copied().collect();
            let fullc = naive(&a, &brev);
            for mode in [ConvMode::Full, ConvMode::Same, ConvMode::Valid] {
                let (ny, st) = out_range(na, nb, mode).unwrap();
                for method in [ConvMethod::Direct, ConvMethod::Fft, ConvMethod::Auto] {
                    for (corr, want) in [(false, &full), (true, &fullc)] {
                        let mut y = vec![f64::NAN; ny];
                        convolve(&a, &b, mode, method, corr, &mut y).unwrap();
                        for (i, v) in y.iter().enumerate() {
                            assert!(
                                (v - want[st + i]).abs() < 1e-12 * (na.min(nb) as f64),
                                "{na} {nb} {mode:?} {method:?} {corr}"
                            );
                        }
                    }
                }
            }
        }
        assert!(out_range(0, 3, ConvMode::Full).is_err());
    }
}
