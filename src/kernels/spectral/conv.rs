//! Convolution and correlation of two real signals, modes full/same/valid, equal to
//! `scipy.signal.fftconvolve` / `scipy.signal.correlate`; direct summation for short kernels,
//! FFT overlap-save otherwise.
//!
//! Output index `i` is the full convolution's index `start + i`, with `start = 0` (full),
//! `(nb − 1) / 2` (same, length na, centred on `a` as scipy) or `min(na, nb) − 1` (valid,
//! length `|na − nb| + 1`). Correlation is convolution with `b` reversed.

use super::fft::{grow, FftFloat, FftKind, FftPlan, Norm};
use super::{par_rows, Complex};
use crate::error::{SkError, SkResult};

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
        ConvMode::Full => (na + nb - 1, 0),
        ConvMode::Same => (na, (nb - 1) / 2),
        ConvMode::Valid => (na.max(nb) - na.min(nb) + 1, na.min(nb) - 1),
    })
}

/// Whether `Auto` picks the direct method for an output of `ny` samples and a kernel of `m`.
pub fn prefer_direct(ny: usize, m: usize) -> bool {
    m <= 48 || (ny as f64) * (m as f64) < 100_000.0
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
        rev = b.iter().rev().copied().collect();
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
        direct_conv(x, h, start, y);
        Ok(())
    } else {
        fft_conv(x, h, start, y)
    }
}

/// `y[i] = Σ_j h[j] x[start + i − j]` over the valid j, as a sequence of axpys over blocks of
/// outputs (vectorises along i).
fn direct_conv<T: FftFloat>(x: &[T], h: &[T], start: usize, y: &mut [T]) {
    let nx = x.len() as isize;
    par_rows(y, 1, y.len() * h.len(), |first, yc| {
        const B: usize = 2048;
        for (bi, blk) in yc.chunks_mut(B).enumerate() {
            blk.fill(T::ZERO);
            let i0 = (start + first + bi * B) as isize; // full index of blk[0]
            for (j, &hj) in h.iter().enumerate() {
                // x index k = i0 + i - j, need 0 <= k < nx
                let k0 = i0 - j as isize;
                let lo = (-k0).max(0) as usize;
                let hi = ((nx - k0).max(0) as usize).min(blk.len());
                if lo >= hi {
                    continue;
                }
                let xs = &x[(k0 + lo as isize) as usize..(k0 + hi as isize) as usize];
                for (o, &v) in blk[lo..hi].iter_mut().zip(xs) {
                    *o = *o + hj * v;
                }
            }
        }
    });
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
    let mut hp = vec![T::ZERO; n];
    hp[..m].copy_from_slice(h);
    let mut hs = vec![Complex::new(T::ZERO, T::ZERO); nf];
    plan.rfft(&hp, &mut hs, Norm::Forward);
    let nx = x.len() as isize;
    par_rows(y, l, ny * 64, |first_seg, yc| {
        T::with_workspace(|ws| {
            let mut seg = vec![T::ZERO; n];
            let mut spec = vec![Complex::new(T::ZERO, T::ZERO); nf];
            let mut out = vec![T::ZERO; n];
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
                plan.rfft_inplace_input(&mut seg, &mut spec, Norm::Backward, &mut ws.cplx);
                for (s, k) in spec.iter_mut().zip(&hs) {
                    *s = *s * *k;
                }
                let sp = grow(&mut ws.cplx2, nf);
                sp.copy_from_slice(&spec);
                plan.irfft_inplace_input(sp, &mut out, Norm::Forward, &mut ws.cplx);
                yblk.copy_from_slice(&out[m - 1..m - 1 + yblk.len()]);
            }
        })
    });
    Ok(())
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
