//! Cepstral mean (and variance) normalisation: per utterance as Kaldi's `apply-cmvn`
//! ([`cmvn`]), and over a sliding window as `torchaudio.functional.sliding_window_cmn`
//! ([`sliding_window_cmn`], the same window rule and running sums step by step).
//!
//! Data are `(channels, frames, feats)` row-major; each channel is normalised on its own.

use crate::error::SkResult;
use crate::kernels::alloc::try_vec;
use crate::kernels::Float;

/// Subtracts each feature's mean over the frames; with `norm_vars` also scales it to unit
/// variance as Kaldi's `apply-cmvn` does (`var = Σx²/n − mean²`, floored at 1e-20, then
/// `(x − mean)/sqrt(var)` computed as `x·s − mean·s`). Sums in f64.
pub fn cmvn<T: Float>(
    x: &[T],
    y: &mut [T],
    channels: usize,
    frames: usize,
    feats: usize,
    norm_vars: bool,
) -> SkResult<()> {
    if frames == 0 || feats == 0 {
        return Ok(());
    }
    let mut sum = try_vec(feats, 0.0f64, "the CMVN sums")?;
    let mut sq = try_vec(feats, 0.0f64, "the CMVN sums of squares")?;
    let per = frames * feats;
    for c in 0..channels {
        let xc = &x[c * per..(c + 1) * per];
        let yc = &mut y[c * per..(c + 1) * per];
        sum.fill(0.0);
        sq.fill(0.0);
        for row in xc.chunks_exact(feats) {
            for ((s, q), &v) in sum.iter_mut().zip(sq.iter_mut()).zip(row) {
                let v = v.to_f64();
                *s += v;
                *q += v * v;
            }
        }
        let n = frames as f64;
        for (yr, xr) in yc.chunks_exact_mut(feats).zip(xc.chunks_exact(feats)) {
            for (j, (o, &v)) in yr.iter_mut().zip(xr).enumerate() {
                let mean = sum[j] / n;
                *o = if norm_vars {
                    let var = (sq[j] / n - mean * mean).max(1.0e-20);
                    let s = 1.0 / var.sqrt();
                    T::from_f64(v.to_f64() * s - mean * s)
                } else {
                    T::from_f64(v.to_f64() - mean)
                };
            }
        }
    }
    Ok(())
}

/// Frame `i` of a `frames × feats` matrix.
fn frame<T>(x: &[T], feats: usize, i: usize) -> &[T] {
    &x[i * feats..(i + 1) * feats]
}

/// The window of frame `t` by torchaudio's rule: `[start, end)`. `frames` only clamps the end:
/// a window that ends within `frames` is the same for every longer signal.
pub(crate) fn window(
    t: usize,
    frames: usize,
    cmn: usize,
    min_cmn: usize,
    center: bool,
) -> (usize, usize) {
    let t = t as i64;
    let (cmn, min_cmn, n) = (cmn as i64, min_cmn as i64, frames as i64);
    let (mut start, mut end) = if center {
        (t - cmn / 2, t - cmn / 2 + cmn)
    } else {
        (t - cmn, t + 1)
    };
    if start < 0 {
        end -= start;
        start = 0;
    }
    if !center && end > t {
        end = (t + 1).max(min_cmn);
    }
    if end > n {
        start -= end - n;
        end = n;
        if start < 0 {
            start = 0;
        }
    }
    (start as usize, end as usize)
}

/// torchaudio's running sums moved from the previous window `last` to `[start, end)` (the
/// first window summed whole, then one frame out and one frame in per step), `row(i)` giving
/// frame `i`.
#[allow(clippy::too_many_arguments)]
pub(crate) fn advance<'a, T: Float + 'a>(
    sum: &mut [T],
    sq: &mut [T],
    last: Option<(usize, usize)>,
    start: usize,
    end: usize,
    norm_vars: bool,
    row: impl Fn(usize) -> &'a [T],
) {
    match last {
        None => {
            for i in start..end {
                for (s, &v) in sum.iter_mut().zip(row(i)) {
                    *s = *s + v;
                }
            }
            if norm_vars {
                for i in start..end {
                    for (q, &v) in sq.iter_mut().zip(row(i)) {
                        *q = *q + v * v;
                    }
                }
            }
        }
        Some((ls, le)) => {
            if start > ls {
                for ((s, q), &v) in sum.iter_mut().zip(sq.iter_mut()).zip(row(ls)) {
                    *s = *s - v;
                    if norm_vars {
                        *q = *q - v * v;
                    }
                }
            }
            if end > le {
                for ((s, q), &v) in sum.iter_mut().zip(sq.iter_mut()).zip(row(le)) {
                    *s = *s + v;
                    if norm_vars {
                        *q = *q + v * v;
                    }
                }
            }
        }
    }
}

/// Output frame `out` of input frame `x` over a window of `len` frames with the running sums
/// (torchaudio's arithmetic).
pub(crate) fn normalise<T: Float>(
    out: &mut [T],
    x: &[T],
    sum: &[T],
    sq: &[T],
    len: usize,
    norm_vars: bool,
    pow: fn(T) -> T,
) {
    let wf = T::from_f64(len as f64);
    for (j, (o, &v)) in out.iter_mut().zip(x).enumerate() {
        *o = v - sum[j] / wf;
        if norm_vars {
            if len == 1 {
                *o = T::ZERO;
            } else {
                let var = sq[j] / wf - (sum[j] * sum[j]) / (wf * wf);
                *o = *o * pow(var);
            }
        }
    }
}

/// `torchaudio.functional.sliding_window_cmn(x, cmn_window, min_cmn_window, center,
/// norm_vars)` for `channels × frames × feats` data, in `T`'s precision with torchaudio's
/// running sums (one frame out, one frame in per step) and its variance
/// `(Σx²/n − (Σx)²/n²)^(−1/2)` (a window of one frame gives zeros with `norm_vars`).
#[allow(clippy::too_many_arguments)]
pub fn sliding_window_cmn<T: Float>(
    x: &[T],
    y: &mut [T],
    channels: usize,
    frames: usize,
    feats: usize,
    cmn_window: usize,
    min_cmn_window: usize,
    center: bool,
    norm_vars: bool,
    pow: fn(T) -> T,
) -> SkResult<()> {
    if frames == 0 || feats == 0 || channels == 0 {
        return Ok(());
    }
    let mut sum = try_vec(feats, T::ZERO, "the CMN sums")?;
    let mut sq = try_vec(feats, T::ZERO, "the CMN sums of squares")?;
    let per = frames * feats;
    for c in 0..channels {
        let xc = &x[c * per..(c + 1) * per];
        let yc = &mut y[c * per..(c + 1) * per];
        sum.fill(T::ZERO);
        sq.fill(T::ZERO);
        let mut last: Option<(usize, usize)> = None;
        for t in 0..frames {
            let (start, end) = window(t, frames, cmn_window, min_cmn_window, center);
            advance(&mut sum, &mut sq, last, start, end, norm_vars, |i| {
                frame(xc, feats, i)
            });
            last = Some((start, end));
            let out = &mut yc[t * feats..(t + 1) * feats];
            normalise(
                out,
                frame(xc, feats, t),
                &sum,
                &sq,
                end - start,
                norm_vars,
                pow,
            );
        }
    }
    Ok(())
}
