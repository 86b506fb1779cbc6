//! Per-row batches over `(rows, cols)` data with a row stride: sum, mean, peak, rms of every row,
//! and per-row peak normalisation in place, so a `(batch, time)` tensor is one call.
//!
//! Each row is contiguous (`cols` elements); row `r` starts `r·ld` elements after row 0, `ld`
//! may be negative (rows addressed downwards) and `|ld| ≥ cols`, so rows never overlap. Every
//! row goes through the contiguous SIMD reductions of [`super::reduce`], so a per-row result is
//! bit-identical to the single-buffer function on that row.

use super::reduce;
use super::Float;
use crate::simd::Level;

/// Whether rows `first + r·ld .. + cols` (`r < rows`) all lie in `0..span_len` and are disjoint.
fn fits(span_len: usize, first: usize, ld: isize, rows: usize, cols: usize) -> bool {
    if rows == 0 {
        return true;
    }
    if rows > 1 && (ld.unsigned_abs() as u128) < cols as u128 {
        return false;
    }
    let last = first as i128 + (rows as i128 - 1) * ld as i128;
    let lo = (first as i128).min(last);
    let hi = (first as i128).max(last) + cols as i128;
    lo >= 0 && hi <= span_len as i128
}

#[inline(always)]
fn row_start(first: usize, ld: isize, r: usize) -> usize {
    (first as isize + r as isize * ld) as usize
}

/// A read-only `(rows, cols)` view: row `r` is `span[first + r·ld ..][..cols]`.
#[derive(Clone, Copy, Debug)]
pub struct RowsRef<'a, T> {
    span: &'a [T],
    first: usize,
    ld: isize,
    rows: usize,
    cols: usize,
}

impl<'a, T> RowsRef<'a, T> {
    /// `None` unless every row lies in `span` and, for more than one row, `|ld| ≥ cols`.
    pub fn new(span: &'a [T], first: usize, ld: isize, rows: usize, cols: usize) -> Option<Self> {
        fits(span.len(), first, ld, rows, cols).then_some(RowsRef {
            span,
            first,
            ld,
            rows,
            cols,
        })
    }
    pub fn rows(&self) -> usize {
        self.rows
    }
    pub fn cols(&self) -> usize {
        self.cols
    }
    /// Row `r` (panics if `r >= rows`).
    pub fn row(&self, r: usize) -> &'a [T] {
        assert!(r < self.rows, "row {r} out of range {}", self.rows);
        let s = row_start(self.first, self.ld, r);
        &self.span[s..s + self.cols]
    }
}

/// A writable `(rows, cols)` view (rows are disjoint by construction).
#[derive(Debug)]
pub struct RowsMut<'a, T> {
    span: &'a mut [T],
    first: usize,
    ld: isize,
    rows: usize,
    cols: usize,
}

impl<'a, T> RowsMut<'a, T> {
    /// `None` unless every row lies in `span` and, for more than one row, `|ld| ≥ cols`.
    pub fn new(
        span: &'a mut [T],
        first: usize,
        ld: isize,
        rows: usize,
        cols: usize,
    ) -> Option<Self> {
        fits(span.len(), first, ld, rows, cols).then_some(RowsMut {
            span,
            first,
            ld,
            rows,
            cols,
        })
    }
    pub fn rows(&self) -> usize {
        self.rows
    }
    pub fn row(&self, r: usize) -> &[T] {
        assert!(r < self.rows, "row {r} out of range {}", self.rows);
        let s = row_start(self.first, self.ld, r);
        &self.span[s..s + self.cols]
    }
    pub fn row_mut(&mut self, r: usize) -> &mut [T] {
        assert!(r < self.rows, "row {r} out of range {}", self.rows);
        let s = row_start(self.first, self.ld, r);
        &mut self.span[s..s + self.cols]
    }
}

/// Which per-row reduction.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RowOp {
    Sum,
    Mean,
    Peak,
    Rms,
}

impl RowOp {
    pub fn name(self) -> &'static str {
        match self {
            RowOp::Sum => "sum",
            RowOp::Mean => "mean",
            RowOp::Peak => "peak",
            RowOp::Rms => "rms",
        }
    }
}

/// `out[r] = op(row r)`. `None` (nothing written) when `cols == 0` for an op undefined on an
/// empty row (mean, peak, rms) and `rows > 0`.
pub fn reduce_rows<T: Float>(
    level: Level,
    x: RowsRef<'_, T>,
    op: RowOp,
    out: &mut [T],
) -> Option<()> {
    assert_eq!(out.len(), x.rows(), "output length differs from rows");
    if x.rows() > 0 && x.cols() == 0 && op != RowOp::Sum {
        return None;
    }
    // Rows are independent: large batches are split by rows over up to `max_threads()` threads
    // (`SIGKERN_THREADS`; see `par_rows`); each row is reduced exactly as on one thread.
    let work = x.rows().saturating_mul(x.cols());
    crate::kernels::par::par_rows(out, 1, work, |first, chunk| {
        for (k, o) in chunk.iter_mut().enumerate() {
            let row = x.row(first + k);
            // cols > 0 here, so the Option-returning reductions are always Some
            *o = match op {
                RowOp::Sum => reduce::sum(level, row),
                RowOp::Mean => reduce::mean(level, row).unwrap_or(T::NAN),
                RowOp::Peak => reduce::peak(level, row).unwrap_or(T::NAN),
                RowOp::Rms => reduce::rms(level, row).unwrap_or(T::NAN),
            };
        }
    });
    Some(())
}

/// Divides every row by its peak magnitude, so each non-zero row peaks at exactly ±1; all-zero
/// rows are left unchanged. If any element is NaN or ±inf, nothing is written and the
/// `(row, col)` of the first one (row-major order) is returned.
pub fn normalize_rows_peak<T: Float>(
    level: Level,
    x: &mut RowsMut<'_, T>,
) -> Result<(), (usize, usize)> {
    if x.cols == 0 {
        return Ok(());
    }
    // pass 1: every row's peak, before anything is written. They are kept for pass 2 when
    // memory allows (rows ≤ span length: never more than the data); otherwise pass 2 computes
    // each row's peak again, with the same result.
    let mut peaks = Vec::new();
    let keep = peaks.try_reserve_exact(x.rows()).is_ok();
    for r in 0..x.rows() {
        let row = x.row(r);
        let p = reduce::peak(level, row).unwrap_or(T::ZERO);
        if !p.is_finite() {
            let c = row.iter().position(|v| !v.is_finite()).unwrap_or(0);
            return Err((r, c));
        }
        if keep {
            peaks.push(p);
        }
    }
    for r in 0..x.rows() {
        let p = match peaks.get(r) {
            Some(&p) => p,
            None => reduce::peak(level, x.row(r)).unwrap_or(T::ZERO),
        };
        if p > T::ZERO {
            super::elementwise::unary_at(
                level,
                super::Src::Dst,
                x.row_mut(r),
                super::elementwise::DivByOp(p),
            );
        }
    }
    Ok(())
}

#[cfg(test)]
#[allow(clippy::needless_range_loop)]
mod tests {
    use super::*;
    use crate::kernels::testutil::Rng;
    use crate::simd::available;

    #[test]
    fn view_rules() {
        let v = [0.0f32; 20];
        assert!(RowsRef::new(&v, 0, 5, 4, 5).is_some());
        assert!(RowsRef::new(&v, 0, 5, 4, 6).is_none()); // ld < cols
        assert!(RowsRef::new(&v, 0, 3, 1, 20).is_some()); // one row: ld irrelevant
        assert!(RowsRef::new(&v, 15, -5, 4, 5).is_some());
        assert!(RowsRef::new(&v, 14, -5, 4, 5).is_none());
        assert!(RowsRef::new(&v, 16, -5, 4, 5).is_none());
        assert!(RowsRef::new(&v, 0, 6, 4, 5).is_none());
        assert!(RowsRef::<f32>::new(&[], 0, 0, 0, 9).is_some());
    }

    #[test]
    fn per_row_equals_single_buffer_functions() {
        let mut rng = Rng::new(51);
        for (rows, cols, ld) in [
            (3usize, 1000usize, 1003isize),
            (5, 7, -9),
            (1, 0, 0),
            (4, 513, 513),
            // enough work for the row split over threads (>= 2 * 2^18 element-ops)
            (9, 60_001, 60_003),
            (7, 80_000, -80_003),
        ] {
            let span_len = if rows == 0 {
                0
            } else {
                (rows - 1) * ld.unsigned_abs() + cols
            };
            let span = rng.vec_f32(span_len, 5.0);
            let first = if ld < 0 {
                (rows - 1) * ld.unsigned_abs()
            } else {
                0
            };
            let x = RowsRef::new(&span, first, ld, rows, cols).unwrap();
            for level in available() {
                let mut out = vec![0.0f32; rows];
                reduce_rows(level, x, RowOp::Sum, &mut out).unwrap();
                for r in 0..rows {
                    assert_eq!(out[r], reduce::sum(level, x.row(r)));
                }
                for op in [RowOp::Mean, RowOp::Peak, RowOp::Rms] {
                    let mut out = vec![7.0f32; rows];
                    let res = reduce_rows(level, x, op, &mut out);
                    if cols == 0 {
                        assert!(res.is_none());
                        assert!(out.iter().all(|&v| v == 7.0));
                        continue;
                    }
                    for r in 0..rows {
                        let row = x.row(r);
                        let want = match op {
                            RowOp::Mean => reduce::mean(level, row),
                            RowOp::Peak => reduce::peak(level, row),
                            _ => reduce::rms(level, row),
                        };
                        assert_eq!(Some(out[r]), want, "{op:?}");
                    }
                }
                let mut data = span.clone();
                let mut m = RowsMut::new(&mut data, first, ld, rows, cols).unwrap();
                if rows > 1 {
                    m.row_mut(1).fill(0.0);
                }
                normalize_rows_peak(level, &mut m).unwrap();
                for r in 0..rows {
                    let row = m.row(r);
                    let p = row.iter().fold(0.0f32, |a, v| a.max(v.abs()));
                    assert!(p == 1.0 || (r == 1 && p == 0.0) || cols == 0, "{p}");
                }
            }
        }
    }

    #[test]
    fn normalize_refuses_non_finite_and_writes_nothing() {
        let mut data = vec![1.0f64, 2.0, 3.0, 4.0, 5.0, f64::INFINITY, 7.0, 8.0];
        let keep = data.clone();
        let mut m = RowsMut::new(&mut data, 0, 4, 2, 3).unwrap();
        assert_eq!(normalize_rows_peak(Level::Baseline, &mut m), Err((1, 1)));
        assert_eq!(data, keep);
    }
}
