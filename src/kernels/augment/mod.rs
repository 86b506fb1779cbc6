//! Data augmentation kernels over a batch of rows (`rows × n`, row-major), each row with its own
//! parameter: per-row gain, clipping between two thresholds, bit-depth reduction, and adding
//! noise scaled to a signal-to-noise ratio or an absolute level. All work in place on the output
//! (the FFI layer copies the input there first); the parameters are drawn by the caller, so the
//! kernels are deterministic.

pub mod normal;

use super::alloc::try_vec;
use super::filter::lfilter::sosfilt_zi;
use super::filter::sos::SosFilter;
use super::layout::Layout;
use super::{par, Float, Src};
use crate::error::{SkError, SkResult};
use crate::simd::Level;

/// How [`mix_rows`] scales the noise of a row.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MixLevel {
    /// `level_db` is a signal-to-noise ratio: the noise RMS becomes `rms(x) / 10^(level/20)`.
    Snr,
    /// `level_db` is the noise RMS in dBFS: the noise RMS becomes `10^(level/20)`.
    Absolute,
}

/// Root mean square of a row, accumulated in double precision.
pub fn rms<T: Float>(x: &[T]) -> f64 {
    if x.is_empty() {
        return 0.0;
    }
    let mut acc = 0.0f64;
    for &v in x {
        let d = v.to_f64();
        acc += d * d;
    }
    (acc / x.len() as f64).sqrt()
}

/// `y[r·n + i] *= gains[r]` (one product rounded in `T`, as numpy's `x * g`).
pub fn gain_rows<T: Float>(y: &mut [T], n: usize, gains: &[T]) {
    if n == 0 {
        return;
    }
    for (row, &g) in y.chunks_exact_mut(n).zip(gains) {
        for v in row {
            *v = *v * g;
        }
    }
}

/// `y[r·n + i] = clamp(y, lo[r], hi[r])`, NaN staying NaN (numpy's `np.clip`).
pub fn clip_rows<T: Float>(y: &mut [T], n: usize, lo: &[T], hi: &[T]) {
    if n == 0 {
        return;
    }
    for ((row, &l), &h) in y.chunks_exact_mut(n).zip(lo).zip(hi) {
        for v in row {
            if *v < l {
                *v = l;
            } else if *v > h {
                *v = h;
            }
        }
    }
}

/// `y = round_half_even(y · q[r]) / q[r]` (numpy's `np.round(x * q) / q`, products and the
/// quotient rounded in `T`).
pub fn bitcrush_rows<T: Float>(y: &mut [T], n: usize, q: &[T]) {
    if n == 0 {
        return;
    }
    for (row, &s) in y.chunks_exact_mut(n).zip(q) {
        for v in row {
            // an integer-valued double obtained from a `T` is exactly representable in `T`
            let r = T::from_f64((*v * s).to_f64().round_ties_even());
            *v = r / s;
        }
    }
}

/// The factor the noise of a row is multiplied by: `desired_rms / rms(noise)` (or
/// `desired_rms` alone when `measure` is false: the noise is taken as unit RMS, e.g. a standard
/// normal draw). A measured noise RMS below `1e-9` gives 0 (the row is left unchanged).
pub fn mix_scale<T: Float>(
    x: &[T],
    noise: &[T],
    level_db: f64,
    level: MixLevel,
    measure: bool,
) -> f64 {
    let ratio = 10f64.powf(level_db / 20.0);
    let desired = match level {
        MixLevel::Snr => rms(x) / ratio,
        MixLevel::Absolute => ratio,
    };
    if !measure {
        return desired;
    }
    let nr = rms(noise);
    if nr < 1e-9 {
        0.0
    } else {
        desired / nr
    }
}

/// `y[r] += noise[r or 0] · scale[r]` with `scale[r]` from [`mix_scale`] (`y` holds the signal
/// on entry; `noise` has `noise_rows` rows of `n`, 1 (shared by every row) or as many as `y`).
/// The factor is rounded to `T` and each product and sum rounded in `T` (numpy's
/// `x + noise * float(scale)` on `T` arrays). Returns nothing; rows with a zero factor are
/// left unchanged.
pub fn mix_rows<T: Float>(
    y: &mut [T],
    noise: &[T],
    noise_rows: usize,
    n: usize,
    level_db: &[f64],
    level: MixLevel,
    measure: bool,
) {
    if n == 0 {
        return;
    }
    for (r, (row, &db)) in y.chunks_exact_mut(n).zip(level_db).enumerate() {
        let nr = if noise_rows == 1 { 0 } else { r };
        let nz = &noise[nr * n..(nr + 1) * n];
        let scale = mix_scale(row, nz, db, level, measure);
        if scale == 0.0 {
            continue;
        }
        let s = T::from_f64(scale);
        for (v, &w) in row.iter_mut().zip(nz) {
            *v = *v + w * s;
        }
    }
}

/// The gain of sample `k` of a fade of `len` samples from `db0` to `db1` dB, as numpy's
/// `10 ** (np.linspace(db0, db1, len, dtype=T) / 20)`: the dB value `k·step + db0` in double
/// (`step = (db1 − db0)/(len − 1)`, the last one exactly `db1`) rounded to `T`, divided by 20 in
/// `T`, and `10^·` computed in double and rounded to `T`.
#[inline]
fn fade_gain<T: Float>(k: usize, len: usize, db0: f64, db1: f64) -> T {
    let db = if len > 1 && k == len - 1 {
        db1
    } else if len > 1 {
        k as f64 * ((db1 - db0) / (len - 1) as f64) + db0
    } else {
        db0
    };
    let e = T::from_f64(db) / T::from_f64(20.0);
    T::from_f64(10f64.powf(e.to_f64()))
}

/// audiomentations' `GainTransition` on each row: a fade of `len[r]` samples from `db0[r]` to
/// `db1[r]` dB starting at sample `t0[r]` (may be negative or past the row: the fade is cut to
/// the row), the constant gain `10^(db0/20)` before it and `10^(db1/20)` after it (each rounded
/// to `T` once, numpy's `x *= float`). Every `len[r] >= 1`.
pub fn fade_rows<T: Float>(
    y: &mut [T],
    n: usize,
    t0: &[isize],
    len: &[usize],
    db0: &[f64],
    db1: &[f64],
) {
    if n == 0 {
        return;
    }
    for (r, row) in y.chunks_exact_mut(n).enumerate() {
        let (start, l) = (t0[r] as i128, len[r] as i128);
        let s = start.clamp(0, n as i128) as usize;
        let e = (start + l).clamp(0, n as i128) as usize;
        let (g0, g1) = (
            T::from_f64(10f64.powf(db0[r] / 20.0)),
            T::from_f64(10f64.powf(db1[r] / 20.0)),
        );
        for v in &mut row[..s] {
            *v = *v * g0;
        }
        for (i, v) in row[s..e.max(s)].iter_mut().enumerate() {
            let k = (s as i128 + i as i128 - start) as usize;
            *v = *v * fade_gain::<T>(k, len[r], db0[r], db1[r]);
        }
        for v in &mut row[e.max(s)..] {
            *v = *v * g1;
        }
    }
}

/// Each row of a batch (`n` values per row) through its own cascade of second-order sections,
/// in double precision and started in steady state on the row's first sample: for every row the
/// same operations as `sosfilt(sos_r, x_r as f64, zi = sosfilt_zi(sos_r) · x_r[0])` through
/// [`SosFilter`] (one channel), the output rounded to the element type once.
///
/// [`RowCascades::new`] builds every row's cascade, initial state and the double buffers (all
/// that can fail) from the input before anything is written; [`RowCascades::run`] then filters
/// the rows, split over the worker threads, with results that do not depend on the split.
pub struct RowCascades {
    filters: Vec<SosFilter<f64>>,
    bufs: Vec<Vec<f64>>,
    n: usize,
}

impl RowCascades {
    /// The cascades of the rows of `x` (`n` values per row); `sos` holds row after row of
    /// `sos.len() / (6·rows)` sections in scipy's layout `[b0, b1, b2, a0, a1, a2]`. Bad
    /// sections: `BadArgument`; a non-finite initial state (e.g. a NaN or infinite first
    /// sample): `NonFinite`; `Allocation`.
    pub fn new<T: Float>(x: &[T], n: usize, sos: &[f64]) -> SkResult<Self> {
        let rows = x.len().checked_div(n).unwrap_or(0);
        if rows == 0 {
            return Ok(RowCascades {
                filters: Vec::new(),
                bufs: Vec::new(),
                n,
            });
        }
        let per_row = sos.len() / rows;
        let mut filters = Vec::new();
        filters
            .try_reserve_exact(rows)
            .map_err(|_| SkError::Allocation(format!("{rows} filters")))?;
        for (r, s) in sos.chunks_exact(per_row).enumerate() {
            let mut f = SosFilter::<f64>::new(s, 1).map_err(|e| match e {
                SkError::BadArgument(m) => SkError::BadArgument(format!("row {r}: {m}")),
                other => other,
            })?;
            let zi = sosfilt_zi(s).map_err(|e| match e {
                SkError::BadArgument(m) => SkError::BadArgument(format!("row {r}: {m}")),
                other => other,
            })?;
            let x0 = x[r * n].to_f64();
            let zi: Vec<f64> = zi.iter().map(|z| z * x0).collect();
            if let Some(i) = zi.iter().position(|v| !v.is_finite()) {
                return Err(SkError::NonFinite(format!(
                    "row {r}: the initial state sosfilt_zi · x[{r}, 0] has zi[{i}] = {:?}",
                    zi[i]
                )));
            }
            f.set_state(&zi);
            filters.push(f);
        }
        let work = x.len().saturating_mul(per_row);
        let threads = par::threads_for(rows, work);
        let mut bufs = Vec::with_capacity(threads);
        for _ in 0..threads {
            bufs.push(try_vec(n, 0.0f64, "a row in double")?);
        }
        Ok(RowCascades { filters, bufs, n })
    }

    /// Filters `y` (the batch `new` was given, or a copy of it) in place.
    pub fn run<T: Float>(self, level: Level, y: &mut [T]) {
        let (n, rows) = (self.n, self.filters.len());
        if rows == 0 {
            return;
        }
        let per = rows.div_ceil(self.bufs.len());
        let mut filters = self.filters;
        let parts: Vec<_> = y
            .chunks_mut(per * n)
            .zip(filters.chunks_mut(per))
            .zip(self.bufs)
            .collect();
        par::run_parts(parts, |((c, fs), mut buf)| {
            let pl = Layout::planar(n);
            for (row, f) in c.chunks_exact_mut(n).zip(fs.iter_mut()) {
                for (b, &v) in buf.iter_mut().zip(row.iter()) {
                    *b = v.to_f64();
                }
                f.process(level, Src::Dst, pl, &mut buf, pl, n);
                for (v, &b) in row.iter_mut().zip(buf.iter()) {
                    *v = T::from_f64(b);
                }
            }
        });
    }
}

/// [`RowCascades`] on `y` in place (built from `y`, then run).
pub fn sosfilt_rows<T: Float>(level: Level, y: &mut [T], n: usize, sos: &[f64]) -> SkResult<()> {
    RowCascades::new(y, n, sos)?.run(level, y);
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn gain_clip_crush() {
        let mut y = vec![1.0f32, -2.0, 0.5, 4.0];
        gain_rows(&mut y, 2, &[2.0, -1.0]);
        assert_eq!(y, [2.0, -4.0, -0.5, -4.0]);
        clip_rows(&mut y, 2, &[-3.0, -1.0], &[1.0, 0.0]);
        assert_eq!(y, [1.0, -3.0, -0.5, -1.0]);
        let mut z = vec![0.3f64, -0.3, 0.125, 0.375];
        bitcrush_rows(&mut z, 2, &[5.0, 4.0]);
        // 1.5 → 2 (ties to even), -1.5 → -2; 0.5 → 0, 1.5 → 2
        assert_eq!(z, [0.4, -0.4, 0.0, 0.5]);
        let mut nan = vec![f32::NAN, 2.0];
        clip_rows(&mut nan, 2, &[-1.0], &[1.0]);
        assert!(nan[0].is_nan() && nan[1] == 1.0);
    }

    #[test]
    fn fade_cut_to_the_row() {
        let mut y = vec![1.0f64; 6];
        // fade of 4 samples from -20 to 0 dB starting at sample -1: gains k = 1, 2, 3
        fade_rows(&mut y, 6, &[-1], &[4], &[-20.0], &[0.0]);
        let g = |db: f64| 10f64.powf(db / 20.0);
        let want = [g(-20.0 / 3.0 * 2.0), g(-20.0 / 3.0), 1.0, 1.0, 1.0, 1.0];
        for (a, b) in y.iter().zip(want) {
            assert!((a - b).abs() < 1e-15, "{y:?}");
        }
        let mut y = vec![1.0f32; 4];
        fade_rows(&mut y, 4, &[10], &[3], &[-6.0], &[6.0]);
        assert!(y.iter().all(|&v| v == 10f64.powf(-0.3) as f32));
        let mut y = vec![1.0f32; 4];
        fade_rows(&mut y, 4, &[isize::MIN], &[usize::MAX], &[0.0], &[-6.0]);
        assert!(y.iter().all(|&v| v.is_finite() && v <= 1.0));
    }

    #[test]
    fn mix_reaches_the_snr() {
        let n = 1000;
        let x: Vec<f64> = (0..n).map(|i| (i as f64 * 0.1).sin()).collect();
        let noise: Vec<f64> = (0..n)
            .map(|i| ((i * 7919) % 101) as f64 / 50.0 - 1.0)
            .collect();
        let mut y = x.clone();
        mix_rows(&mut y, &noise, 1, n, &[10.0], MixLevel::Snr, true);
        let added: Vec<f64> = y.iter().zip(&x).map(|(a, b)| a - b).collect();
        let snr = 20.0 * (rms(&x) / rms(&added)).log10();
        assert!((snr - 10.0).abs() < 1e-9, "{snr}");
        let mut y = vec![0.0f64; n];
        mix_rows(&mut y, &noise, 1, n, &[-20.0], MixLevel::Absolute, true);
        assert!((rms(&y) - 0.1).abs() < 1e-12);
        // silent noise leaves the row unchanged
        let mut y = x.clone();
        mix_rows(&mut y, &vec![0.0; n], 1, n, &[10.0], MixLevel::Snr, true);
        assert_eq!(y, x);
    }

    /// The batch equals the one-row route (`sos::sosfilt` in f64 from `sosfilt_zi · x0`, then
    /// rounded) bit for bit, whatever the thread split.
    #[test]
    fn sosfilt_rows_is_the_row_route() {
        use crate::kernels::filter::sos::sosfilt;
        let (rows, n, ns) = (5, 3001, 3);
        let mut rng = crate::kernels::testutil::Rng::new(7);
        let x = rng.vec_f32(rows * n, 1.0);
        let mut sos = Vec::new();
        for r in 0..rows * ns {
            let (p, w) = (
                0.5 + 0.4 * ((r % 4) as f64 / 4.0),
                0.3 + 0.1 * (r % 3) as f64,
            );
            sos.extend([
                1.0,
                -1.2 + 0.1 * r as f64 / 8.0,
                0.5,
                1.0,
                -2.0 * p * w.cos(),
                p * p,
            ]);
        }
        let level = crate::simd::current();
        let mut y = x.clone();
        sosfilt_rows(level, &mut y, n, &sos).unwrap();
        let mut y64: Vec<f64> = x.iter().map(|&v| v as f64).collect();
        sosfilt_rows(level, &mut y64, n, &sos).unwrap();
        for r in 0..rows {
            let s = &sos[r * ns * 6..(r + 1) * ns * 6];
            let row: Vec<f64> = x[r * n..(r + 1) * n].iter().map(|&v| v as f64).collect();
            let zi: Vec<f64> = sosfilt_zi(s).unwrap().iter().map(|z| z * row[0]).collect();
            let mut want = vec![0.0f64; n];
            let pl = Layout::planar(n);
            sosfilt(
                level,
                s,
                1,
                Some(&zi),
                Src::Slice(&row),
                pl,
                &mut want,
                pl,
                n,
                None,
            )
            .unwrap();
            assert_eq!(&y64[r * n..(r + 1) * n], &want[..]);
            let w32: Vec<f32> = want.iter().map(|&v| v as f32).collect();
            assert_eq!(&y[r * n..(r + 1) * n], &w32[..]);
        }
        let mut single = x.clone();
        par::serial_if(true, || sosfilt_rows(level, &mut single, n, &sos)).unwrap();
        assert_eq!(single, y);
        // a NaN first sample: no steady state, nothing written
        let mut bad = x.clone();
        bad[2 * n] = f32::NAN;
        let before = bad.clone();
        assert!(matches!(
            sosfilt_rows(level, &mut bad, n, &sos),
            Err(SkError::NonFinite(_))
        ));
        assert_eq!(bad[..2 * n], before[..2 * n]);
        // a zero a0: rejected before anything is written
        let mut z = sos.clone();
        z[6 * ns + 3] = 0.0;
        let mut y2 = x.clone();
        assert!(matches!(
            sosfilt_rows(level, &mut y2, n, &z),
            Err(SkError::BadArgument(_))
        ));
        assert_eq!(y2, x);
    }
}
