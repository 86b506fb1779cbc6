//! Batched transforms: one plan over many rows, the rows split across up to `SIGKERN_THREADS`
//! threads in contiguous ranges (each range owns the output rows it writes, and in place, reads).
//! Every row is transformed exactly as on one thread, so the output does not depend on the split.
//! Each thread's FFT scratch is allocated (fallibly) before any row is written: on an error the
//! output is untouched.

use super::fft::{FftFloat, FftPlan, Norm, RowLanes, Workspace};
use super::Complex;
use crate::error::SkResult;
use crate::kernels::par::{par_strided_rows_with, threads_for};

/// Rough element-operations of `rows` transforms of `n` points (for the thread split).
fn work(rows: usize, n: usize) -> usize {
    let log_n = (usize::BITS - n.leading_zeros()) as usize;
    rows.saturating_mul(n).saturating_mul(log_n)
}

/// Splits `rows` output rows (row `r` is `y[r·yst..][..orow]`) over up to `SIGKERN_THREADS`
/// threads in contiguous ranges and runs `part(workspace, first row, row count, rows)` on each.
/// Every thread's workspace is prepared by `reserve` before any row is written.
#[allow(clippy::too_many_arguments)]
fn split_rows<T: FftFloat, O: Send>(
    n: usize,
    y: &mut [O],
    yst: usize,
    orow: usize,
    rows: usize,
    reserve: impl Fn(&mut Workspace<T>) -> SkResult<()>,
    part: impl Fn(&mut Workspace<T>, usize, usize, &mut [O]) + Sync,
) -> SkResult<()> {
    if rows == 0 {
        return Ok(());
    }
    assert!(y.len() >= (rows - 1) * yst + orow, "batch output span");
    let body = |ws: &mut Workspace<T>, first: usize, chunk: &mut [O]| {
        let count = if chunk.len() < orow {
            0
        } else {
            (chunk.len() - orow) / yst.max(1) + 1
        };
        part(ws, first, count.min(rows - first), chunk)
    };
    let w = work(rows, n);
    if threads_for(rows, w) <= 1 || yst == 0 {
        // one thread: the thread's cached workspace, grown before anything is written
        return T::with_workspace(|ws| {
            reserve(ws)?;
            body(ws, 0, y);
            Ok(())
        });
    }
    let make = || {
        let mut ws = Workspace::default();
        reserve(&mut ws)?;
        Ok(ws)
    };
    par_strided_rows_with(y, rows, yst, w, make, body)
}

/// Runs `one(input row or None, output row, workspace)` over `rows` rows: input row `r` is
/// `x[r·xst..][..irow]` (in place when `x` is None), output row `r` is `y[r·yst..][..orow]`.
#[allow(clippy::too_many_arguments)]
fn rows_with<T: FftFloat, I: Sync, O: Send>(
    p: &FftPlan<T>,
    x: Option<&[I]>,
    xst: usize,
    irow: usize,
    y: &mut [O],
    yst: usize,
    orow: usize,
    rows: usize,
    one: impl Fn(Option<&[I]>, &mut [O], &mut Workspace<T>) + Sync,
) -> SkResult<()> {
    if let (Some(x), true) = (x, rows > 0) {
        assert!(x.len() >= (rows - 1) * xst + irow, "batch input span");
    }
    let reserve = |ws: &mut Workspace<T>| p.reserve(ws);
    split_rows(
        p.len(),
        y,
        yst,
        orow,
        rows,
        reserve,
        |ws, first, count, chunk| {
            for i in 0..count {
                let r = first + i;
                let xr = x.map(|x| &x[r * xst..r * xst + irow]);
                one(xr, &mut chunk[i * yst..i * yst + orow], ws);
            }
        },
    )
}

/// Runs `group(first row, row count, output rows, workspace)` over `rows` rows in groups of at
/// most [`RowLanes::LANES`] rows (each thread's range of rows split into groups), output row `r`
/// being `y[r·yst..][..orow]`, with the lane buffers of `rl` reserved before any row is written.
fn groups_with<T: FftFloat, O: Send>(
    rl: &RowLanes<T>,
    n: usize,
    y: &mut [O],
    yst: usize,
    orow: usize,
    rows: usize,
    group: impl Fn(usize, usize, &mut [O], &mut Workspace<T>) + Sync,
) -> SkResult<()> {
    let lanes = RowLanes::<T>::LANES;
    let reserve = |ws: &mut Workspace<T>| rl.reserve(n, &mut ws.lanes);
    split_rows(n, y, yst, orow, rows, reserve, |ws, first, count, chunk| {
        let mut i = 0;
        while i < count {
            let c = lanes.min(count - i);
            let end = (i + c - 1) * yst + orow;
            group(first + i, c, &mut chunk[i * yst..end], ws);
            i += c;
        }
    })
}

/// One transform on this thread's workspace, grown (fallibly) before `f` writes anything: the
/// path of every one-row call, without the row split of a batch.
fn one_row<T: FftFloat>(p: &FftPlan<T>, f: impl FnOnce(&mut Workspace<T>)) -> SkResult<()> {
    T::with_workspace(|ws| {
        p.reserve(ws)?;
        f(ws);
        Ok(())
    })
}

/// One real forward transform (`x`: n values, `y`: n/2+1) on this thread's workspace.
pub fn rfft_one<T: FftFloat>(
    p: &FftPlan<T>,
    x: &[T],
    y: &mut [Complex<T>],
    norm: Norm,
) -> SkResult<()> {
    if p.rfft_fused(x, y, norm) {
        return Ok(());
    }
    one_row(p, |ws| p.rfft_ws(x, y, norm, ws))
}

/// One real inverse transform (`x`: n/2+1 values, `y`: n) on this thread's workspace.
pub fn irfft_one<T: FftFloat>(
    p: &FftPlan<T>,
    x: &[Complex<T>],
    y: &mut [T],
    norm: Norm,
) -> SkResult<()> {
    if p.irfft_fused(x, y, norm) {
        return Ok(());
    }
    one_row(p, |ws| p.irfft_ws(x, y, norm, ws))
}

/// One complex transform of `x` into `y` (n values each; `x = None`: `y` in place) on this
/// thread's workspace.
pub fn fft_one<T: FftFloat>(
    p: &FftPlan<T>,
    x: Option<&[Complex<T>]>,
    y: &mut [Complex<T>],
    inverse: bool,
    norm: Norm,
) -> SkResult<()> {
    one_row(p, |ws| p.fft_ws(x, y, inverse, norm, ws))
}

/// `rows` real forward transforms: row `r` of `x` is `x[r·xst..][..n]`, of `y`
/// `y[r·yst..][..n/2+1]` (`yst ≥ n/2+1` when `rows > 1`).
#[allow(clippy::too_many_arguments)]
pub fn rfft_rows<T: FftFloat>(
    p: &FftPlan<T>,
    x: &[T],
    xst: usize,
    y: &mut [Complex<T>],
    yst: usize,
    rows: usize,
    norm: Norm,
) -> SkResult<()> {
    let n = p.len();
    if rows == 1 {
        return rfft_one(p, &x[..n], &mut y[..n / 2 + 1], norm);
    }
    if let Some(rl) = p.row_lanes(rows)? {
        assert!(x.len() >= (rows - 1) * xst + n, "batch input span");
        let scale = norm
            .scale(n, false)
            .map(<T as crate::kernels::Float>::from_f64);
        let lv = crate::simd::current();
        return groups_with(rl, n, y, yst, n / 2 + 1, rows, |r, c, yr, ws| {
            rl.forward(lv, n, &x[r * xst..], xst, yr, yst, c, scale, &mut ws.lanes)
        });
    }
    rows_with(p, Some(x), xst, n, y, yst, n / 2 + 1, rows, |xr, yr, ws| {
        p.rfft_ws(xr.unwrap_or_default(), yr, norm, ws)
    })
}

/// `rows` real inverse transforms: row `r` of `x` is `x[r·xst..][..n/2+1]`, of `y`
/// `y[r·yst..][..n]` (`yst ≥ n` when `rows > 1`).
#[allow(clippy::too_many_arguments)]
pub fn irfft_rows<T: FftFloat>(
    p: &FftPlan<T>,
    x: &[Complex<T>],
    xst: usize,
    y: &mut [T],
    yst: usize,
    rows: usize,
    norm: Norm,
) -> SkResult<()> {
    let n = p.len();
    if rows == 1 {
        return irfft_one(p, &x[..n / 2 + 1], &mut y[..n], norm);
    }
    if let Some(rl) = p.row_lanes(rows)? {
        assert!(x.len() > (rows - 1) * xst + n / 2, "batch input span");
        let scale = norm
            .scale(n, true)
            .map(<T as crate::kernels::Float>::from_f64);
        let lv = crate::simd::current();
        return groups_with(rl, n, y, yst, n, rows, |r, c, yr, ws| {
            rl.inverse(lv, n, &x[r * xst..], xst, yr, yst, c, scale, &mut ws.lanes)
        });
    }
    rows_with(p, Some(x), xst, n / 2 + 1, y, yst, n, rows, |xr, yr, ws| {
        p.irfft_ws(xr.unwrap_or_default(), yr, norm, ws)
    })
}

/// `rows` complex transforms of `n` points; `x = None` transforms `y` in place (rows `yst`
/// apart).
#[allow(clippy::too_many_arguments)]
pub fn fft_rows<T: FftFloat>(
    p: &FftPlan<T>,
    x: Option<&[Complex<T>]>,
    xst: usize,
    y: &mut [Complex<T>],
    yst: usize,
    rows: usize,
    inverse: bool,
    norm: Norm,
) -> SkResult<()> {
    let n = p.len();
    if rows == 1 {
        return fft_one(p, x.map(|x| &x[..n]), &mut y[..n], inverse, norm);
    }
    rows_with(p, x, xst, n, y, yst, n, rows, |xr, yr, ws| {
        p.fft_ws(xr, yr, inverse, norm, ws)
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::kernels::spectral::fft::FftKind;
    use crate::kernels::testutil::Rng;

    /// Enough rows of 400 points that the split uses several threads (when the machine or
    /// `SIGKERN_THREADS` allows more than one): each row equals the single transform bit for bit.
    #[test]
    fn threaded_rows_equal_single_transforms() {
        let mut rng = Rng::new(17);
        let n = 400;
        let rows = 3001;
        let h = n / 2 + 1;
        let p = FftPlan::<f32>::new(FftKind::Real, n).unwrap();
        let x: Vec<f32> = rng.vec_f32(rows * n + 3, 1.0);
        // output rows h + 2 apart, the last row ending the buffer
        let yst = h + 2;
        let mut y = vec![Complex::new(9.0f32, 9.0); (rows - 1) * yst + h];
        rfft_rows(&p, &x, n, &mut y, yst, rows, Norm::Backward).unwrap();
        let mut want = vec![Complex::new(0.0f32, 0.0); h];
        for r in 0..rows {
            p.rfft(&x[r * n..r * n + n], &mut want, Norm::Backward);
            assert_eq!(&y[r * yst..r * yst + h], &want[..], "row {r}");
            if r + 1 < rows {
                assert_eq!(y[r * yst + h], Complex::new(9.0, 9.0), "gap of row {r}");
            }
        }
        // inverse back, rows of n + 1 reals
        let mut back = vec![0.0f32; (rows - 1) * (n + 1) + n];
        irfft_rows(&p, &y, yst, &mut back, n + 1, rows, Norm::Backward).unwrap();
        for r in 0..rows {
            for j in 0..n {
                let (a, b) = (back[r * (n + 1) + j], x[r * n + j]);
                assert!((a - b).abs() < 1e-4, "row {r} sample {j}: {a} vs {b}");
            }
        }
    }

    /// Double lengths that run on the real passes go through lane groups when a batch has two
    /// rows or more: every row, for every group remainder, thread split and norm, equals the
    /// one-row transform bit for bit, and the gaps between output rows stay untouched.
    #[test]
    fn lane_groups_equal_single_transforms() {
        let mut rng = Rng::new(19);
        for n in [3, 97, 400, 1000] {
            let p = FftPlan::<f64>::new(FftKind::Real, n).unwrap();
            assert!(p.row_lanes(2).unwrap().is_some(), "n = {n} has lane passes");
            let h = n / 2 + 1;
            for rows in [2, 7, 8, 9, 17, 1001] {
                for norm in [Norm::Backward, Norm::Ortho, Norm::Forward] {
                    let (xst, yst) = (n + 1, h + 1);
                    let x = rng.vec_f64(rows * xst, 1.0);
                    let mut y = vec![Complex::new(9.0, 9.0); (rows - 1) * yst + h];
                    rfft_rows(&p, &x, xst, &mut y, yst, rows, norm).unwrap();
                    let mut back = vec![9.0; (rows - 1) * xst + n];
                    irfft_rows(&p, &y, yst, &mut back, xst, rows, norm).unwrap();
                    let mut want = vec![Complex::new(0.0, 0.0); h];
                    let mut want_b = vec![0.0; n];
                    for r in 0..rows {
                        p.rfft(&x[r * xst..r * xst + n], &mut want, norm);
                        assert_eq!(&y[r * yst..r * yst + h], &want[..], "n {n} row {r}/{rows}");
                        p.irfft(&y[r * yst..r * yst + h], &mut want_b, norm);
                        let got = &back[r * xst..r * xst + n];
                        assert!(got
                            .iter()
                            .zip(&want_b)
                            .all(|(a, b)| a.to_bits() == b.to_bits()));
                        if r + 1 < rows {
                            assert_eq!(y[r * yst + h], Complex::new(9.0, 9.0));
                            assert_eq!(back[r * xst + n], 9.0);
                        }
                    }
                }
            }
        }
    }

    #[test]
    fn complex_rows_in_place_and_repeated_input() {
        let mut rng = Rng::new(18);
        let n = 256;
        let rows = 2000;
        let p = FftPlan::<f64>::new(FftKind::Complex, n).unwrap();
        let x: Vec<Complex<f64>> = (0..n)
            .map(|_| Complex::new(rng.vec_f64(1, 1.0)[0], rng.vec_f64(1, 1.0)[0]))
            .collect();
        // stride 0 repeats one input row
        let mut y = vec![Complex::new(0.0, 0.0); rows * n];
        fft_rows(&p, Some(&x), 0, &mut y, n, rows, false, Norm::Ortho).unwrap();
        let mut want = vec![Complex::new(0.0, 0.0); n];
        p.fft(Some(&x), &mut want, false, Norm::Ortho);
        for r in 0..rows {
            assert_eq!(&y[r * n..r * n + n], &want[..]);
        }
        // in place inverse restores the input (ortho both ways)
        fft_rows(&p, None, 0, &mut y, n, rows, true, Norm::Ortho).unwrap();
        for r in 0..rows {
            for (a, b) in y[r * n..r * n + n].iter().zip(&x) {
                assert!((a - b).norm() < 1e-12);
            }
        }
        // zero rows: nothing happens
        fft_rows(&p, None, 0, &mut [], n, 0, true, Norm::Ortho).unwrap();
    }
}
