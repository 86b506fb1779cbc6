//! Delta features as `librosa.feature.delta` computes them: the Savitzky–Golay derivative of
//! `scipy.signal.savgol_filter(x, width, polyorder, deriv=order, mode=...)`, with scipy's edge
//! modes (`interp`: the polynomial fitted to the first / last window, differentiated at the
//! edge samples; `mirror`, `constant`, `nearest`, `wrap`: the signal extended as
//! `scipy.ndimage` extends it).
//!
//! The filter weights come from the monic polynomials orthogonal on the window's points
//! `t = −h … h` (three-term recurrence): the least-squares fit of degree `p` is
//! `Σ_k q_k·⟨x, q_k⟩/‖q_k‖²`, so the weight of sample `t` in the `d`-th derivative at `s` is
//! `Σ_k q_k(t)·q_k⁽ᵈ⁾(s)/‖q_k‖²` — no normal equations, no ill-conditioned Vandermonde.

use crate::error::{SkError, SkResult};
use crate::kernels::alloc::try_vec;
use crate::kernels::par::par_rows_with;
use crate::kernels::Float;

/// How the window is completed past the ends.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum DeltaMode {
    /// scipy's `interp` (librosa's default): edge outputs from the fit to the edge window.
    Interp,
    /// `d c b | a b c d | c b a`.
    Mirror,
    /// The value given outside.
    Constant(f64),
    /// `a a a | a b c d | d d d`.
    Nearest,
    /// `b c d | a b c d | a b c`.
    Wrap,
}

/// The weights of one Savitzky–Golay derivative filter.
#[derive(Clone, Debug)]
pub struct DeltaPlan {
    width: usize,
    mode: DeltaMode,
    /// Interior weights: `y[i] = Σ_j c[j]·x[i − h + j]`.
    c: Vec<f64>,
    /// `interp` only: `h` rows of `width` weights on `x[0..width]` for outputs `0..h`, then
    /// `h` rows on `x[n − width..n]` for outputs `n − h..n`.
    edges: Vec<f64>,
}

/// Weights of the `d`-th derivative at the points `s` of the degree-`p` least-squares fit on
/// `t = −h … h`, divided by `delta^d`; row `r` of the result (`width` values) is for `s[r]`.
fn weights(h: usize, p: usize, d: usize, delta: f64, s: &[f64]) -> Vec<f64> {
    let w = 2 * h + 1;
    let t: Vec<f64> = (0..w).map(|j| j as f64 - h as f64).collect();
    let mut out = vec![0.0; s.len() * w];
    if d > p {
        return out;
    }
    // q_k(t_j) for the current and previous k, and q_k^{(e)}(s_r), e = 0..=d, likewise
    let mut q_prev = vec![0.0; w];
    let mut q = vec![1.0; w];
    let mut der_prev = vec![vec![0.0; d + 1]; s.len()];
    let mut der: Vec<Vec<f64>> = (0..s.len())
        .map(|_| {
            let mut v = vec![0.0; d + 1];
            v[0] = 1.0;
            v
        })
        .collect();
    let mut norm_prev = 1.0;
    let scale = delta.powi(d as i32);
    for k in 0..=p {
        let norm: f64 = q.iter().map(|v| v * v).sum();
        for (r, dv) in der.iter().enumerate() {
            let f = dv[d] / norm / scale;
            for (o, &qj) in out[r * w..(r + 1) * w].iter_mut().zip(&q) {
                *o += qj * f;
            }
        }
        if k == p {
            break;
        }
        // q_{k+1} = (t − α)·q_k − β·q_{k−1}, α = ⟨t q_k, q_k⟩/‖q_k‖² (0 on symmetric points,
        // kept for exactness), β = ‖q_k‖²/‖q_{k−1}‖² (0 for k = 0)
        let alpha = t.iter().zip(&q).map(|(a, b)| a * b * b).sum::<f64>() / norm;
        let beta = if k == 0 { 0.0 } else { norm / norm_prev };
        let next: Vec<f64> = (0..w)
            .map(|j| (t[j] - alpha) * q[j] - beta * q_prev[j])
            .collect();
        for (r, &sr) in s.iter().enumerate() {
            let nd: Vec<f64> = (0..=d)
                .map(|e| {
                    let lower = if e == 0 {
                        0.0
                    } else {
                        e as f64 * der[r][e - 1]
                    };
                    (sr - alpha) * der[r][e] + lower - beta * der_prev[r][e]
                })
                .collect();
            der_prev[r] = std::mem::replace(&mut der[r], nd);
        }
        q_prev = std::mem::replace(&mut q, next);
        norm_prev = norm;
    }
    out
}

impl DeltaPlan {
    /// The filter of `librosa.feature.delta(width, order, mode)` with scipy's `polyorder`
    /// (librosa: `order`) and sample spacing `delta` (1). `width` odd ≥ 3, `order ≥ 1`,
    /// `polyorder < width`, `delta` finite and non-zero.
    pub fn new(
        width: usize,
        order: usize,
        polyorder: usize,
        mode: DeltaMode,
        delta: f64,
    ) -> SkResult<Self> {
        if width < 3 || width.is_multiple_of(2) {
            return Err(SkError::BadArgument(format!(
                "width = {width}; it must be an odd integer >= 3"
            )));
        }
        if width > 4097 {
            return Err(SkError::BadArgument(format!(
                "width = {width} exceeds the largest supported window of 4097 samples"
            )));
        }
        if order == 0 {
            return Err(SkError::BadArgument(
                "order = 0; it must be a positive integer".into(),
            ));
        }
        if polyorder >= width {
            return Err(SkError::BadArgument(format!(
                "polyorder = {polyorder} must be less than width = {width}"
            )));
        }
        if !delta.is_finite() || delta == 0.0 {
            return Err(SkError::BadArgument(format!(
                "delta = {delta}; the sample spacing must be finite and non-zero"
            )));
        }
        if let DeltaMode::Constant(v) = mode {
            if v.is_nan() {
                return Err(SkError::BadArgument("cval is NaN".into()));
            }
        }
        let h = width / 2;
        let c = weights(h, polyorder, order, delta, &[0.0]);
        let edges = if mode == DeltaMode::Interp {
            let s: Vec<f64> = (0..h)
                .map(|i| i as f64 - h as f64)
                .chain((1..=h).map(|i| i as f64))
                .collect();
            weights(h, polyorder, order, delta, &s)
        } else {
            Vec::new()
        };
        Ok(DeltaPlan {
            width,
            mode,
            c,
            edges,
        })
    }

    /// Checks a signal length against the mode (`interp` needs `n ≥ width`, as librosa).
    pub fn check_len(&self, n: usize) -> SkResult<()> {
        if self.mode == DeltaMode::Interp && n < self.width {
            return Err(SkError::BadArgument(format!(
                "mode interp: width = {} cannot exceed the signal's {n} samples",
                self.width
            )));
        }
        Ok(())
    }

    /// Index (or `None`: the constant) of sample `i` of the extended signal of `n ≥ 1` values.
    fn source(&self, i: i64, n: usize) -> Option<usize> {
        let ni = n as i64;
        if (0..ni).contains(&i) {
            return Some(i as usize);
        }
        match self.mode {
            DeltaMode::Constant(_) => None,
            DeltaMode::Nearest => Some(i.clamp(0, ni - 1) as usize),
            DeltaMode::Wrap => Some(i.rem_euclid(ni) as usize),
            DeltaMode::Mirror | DeltaMode::Interp => {
                if n == 1 {
                    return Some(0);
                }
                let period = 2 * (ni - 1);
                let m = i.rem_euclid(period);
                Some(if m >= ni { period - m } else { m } as usize)
            }
        }
    }

    /// The filter of one signal `x` (`n ≥ 1`, checked by [`DeltaPlan::check_len`]) into `y`.
    pub fn run<T: Float>(&self, x: &[T], y: &mut [T], c: &[T], edges: &[T]) {
        let n = x.len();
        let w = self.width;
        let h = w / 2;
        let interior = if n >= w { h..n - h } else { 0..0 };
        for i in interior.clone() {
            let win = &x[i - h..i + h + 1];
            let mut acc = T::ZERO;
            for (&a, &b) in win.iter().zip(c) {
                acc = acc + a * b;
            }
            y[i] = acc;
        }
        if self.mode == DeltaMode::Interp {
            // n ≥ w here
            for (r, out) in y[..h].iter_mut().enumerate() {
                let mut acc = T::ZERO;
                for (&a, &b) in x[..w].iter().zip(&edges[r * w..(r + 1) * w]) {
                    acc = acc + a * b;
                }
                *out = acc;
            }
            for (r, out) in y[n - h..].iter_mut().enumerate() {
                let mut acc = T::ZERO;
                let e = &edges[(h + r) * w..(h + r + 1) * w];
                for (&a, &b) in x[n - w..].iter().zip(e) {
                    acc = acc + a * b;
                }
                *out = acc;
            }
            return;
        }
        let cval = match self.mode {
            DeltaMode::Constant(v) => T::from_f64(v),
            _ => T::ZERO,
        };
        let edge = (0..n).filter(|i| !interior.contains(i));
        for i in edge {
            let mut acc = T::ZERO;
            for (j, &b) in c.iter().enumerate() {
                let v = match self.source(i as i64 - h as i64 + j as i64, n) {
                    Some(k) => x[k],
                    None => cval,
                };
                acc = acc + v * b;
            }
            y[i] = acc;
        }
    }

    /// [`DeltaPlan::run`] over `rows` signals of `n` values, row `r` at `x[r·x_stride..]`,
    /// into `y` (`rows × n`); rows are split over the library's threads.
    pub fn compute<T: Float>(
        &self,
        x: &[T],
        x_stride: usize,
        rows: usize,
        n: usize,
        y: &mut [T],
    ) -> SkResult<()> {
        self.check_len(n)?;
        if rows == 0 || n == 0 {
            return Ok(());
        }
        let mut c = try_vec(self.c.len(), T::ZERO, "the delta weights")?;
        for (a, &b) in c.iter_mut().zip(&self.c) {
            *a = T::from_f64(b);
        }
        let mut e = try_vec(self.edges.len(), T::ZERO, "the delta edge weights")?;
        for (a, &b) in e.iter_mut().zip(&self.edges) {
            *a = T::from_f64(b);
        }
        par_rows_with(
            &mut y[..rows * n],
            n,
            rows * n * self.width,
            || Ok(()),
            |_, first, chunk| {
                for (k, out) in chunk.chunks_exact_mut(n).enumerate() {
                    let r = first + k;
                    self.run(&x[r * x_stride..r * x_stride + n], out, &c, &e);
                }
            },
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(got: &[f64], want: &[f64], scale: f64) {
        for (a, b) in got.iter().zip(want) {
            assert!((a - b / scale).abs() < 1e-13, "{got:?} vs {want:?}/{scale}");
        }
    }

    #[test]
    fn weights_match_the_savitzky_golay_tables() {
        // first derivative, linear or quadratic fit: t / Σt²
        close(
            &weights(2, 1, 1, 1.0, &[0.0]),
            &[-2.0, -1.0, 0.0, 1.0, 2.0],
            10.0,
        );
        close(
            &weights(2, 2, 1, 1.0, &[0.0]),
            &[-2.0, -1.0, 0.0, 1.0, 2.0],
            10.0,
        );
        // second derivative of the 5-point quadratic: (2, −1, −2, −1, 2)/7
        close(
            &weights(2, 2, 2, 1.0, &[0.0]),
            &[2.0, -1.0, -2.0, -1.0, 2.0],
            7.0,
        );
        // first derivative of the 7-point cubic: (22, −67, −58, 0, 58, 67, −22)/252
        let c = [22.0, -67.0, -58.0, 0.0, 58.0, 67.0, -22.0];
        close(&weights(3, 3, 1, 1.0, &[0.0]), &c, 252.0);
        // a line fitted and differentiated anywhere: the slope; spacing 0.5 doubles it
        close(
            &weights(2, 1, 1, 0.5, &[-2.0]),
            &[-2.0, -1.0, 0.0, 1.0, 2.0],
            5.0,
        );
        // the quadratic's value at the window's end (derivative 0): (3, −5, −3, 9, 31)/35
        close(
            &weights(2, 2, 0, 1.0, &[2.0]),
            &[3.0, -5.0, -3.0, 9.0, 31.0],
            35.0,
        );
        // d > p: zero
        assert!(weights(2, 1, 2, 1.0, &[0.0]).iter().all(|&v| v == 0.0));
    }

    #[test]
    fn first_order_is_the_regression_slope_and_modes_extend() {
        let p = DeltaPlan::new(5, 1, 1, DeltaMode::Nearest, 1.0).unwrap();
        let x = [1.0f64, 2.0, 4.0, 8.0, 16.0, 32.0];
        let mut y = [0.0; 6];
        p.compute(&x, 6, 1, 6, &mut y).unwrap();
        // y[0]: window 1 1 1 2 4, slope Σ t·x / 10
        assert!((y[0] - (-2.0 - 1.0 + 2.0 + 8.0) / 10.0).abs() < 1e-12);
        assert!((y[2] - (-2.0 - 2.0 + 8.0 + 32.0) / 10.0).abs() < 1e-12);
        assert!(DeltaPlan::new(4, 1, 1, DeltaMode::Interp, 1.0).is_err());
        assert!(DeltaPlan::new(5, 0, 1, DeltaMode::Interp, 1.0).is_err());
        assert!(DeltaPlan::new(5, 1, 5, DeltaMode::Interp, 1.0).is_err());
        let interp = DeltaPlan::new(5, 1, 1, DeltaMode::Interp, 1.0).unwrap();
        assert!(interp.check_len(4).is_err());
    }
}
