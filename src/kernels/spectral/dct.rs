//! Discrete cosine transforms of types I–IV as `scipy.fft.dct` / `scipy.fft.idct` compute them
//! (unnormalised sums, `norm` backward/ortho/forward, `orthogonalize`), each on one FFT of the
//! library's plans, for any length:
//!
//! - type II (Makhoul): the even samples forward and the odd ones backward, a real FFT of `n`
//!   points, a twiddle `e^{−iπk/(2n)}`;
//! - type III: the same steps reversed (twiddle, real inverse FFT of `n` points, unshuffle);
//! - type I: a real FFT of the even extension of `2(n − 1)` points (`n ≥ 2`, as scipy);
//! - type IV: for even `n` a complex FFT of `n/2` points between two twiddles (samples `2m` and
//!   `n−1−2m` as one complex value); for odd `n` a complex FFT of `2n` points of the
//!   pre-twiddled, zero-padded signal.
//!
//! The unnormalised definitions (scipy's): type I `y_k = x_0 + (−1)^k x_{n−1} + 2Σ_{j=1}^{n−2}
//! x_j cos(πjk/(n−1))`, type II `y_k = 2Σ x_j cos(πk(2j+1)/(2n))`, type III `y_k = x_0 +
//! 2Σ_{j≥1} x_j cos(πj(2k+1)/(2n))`, type IV `y_k = 2Σ x_j cos(π(2j+1)(2k+1)/(4n))`.

use super::fft::{FftFloat, FftKind, FftPlan, Norm, PlanCache, Workspace};
use super::Complex;
use crate::error::{SkError, SkResult};
use crate::kernels::alloc::try_vec;
use crate::kernels::cache::PlanStore;
use crate::kernels::par::par_rows_with;
use crate::kernels::Float;
use std::f64::consts::{PI, SQRT_2};
use std::sync::Arc;

/// Largest DCT length (the FFT's limit, with room for type IV's doubled length).
pub(crate) const MAX_DCT_LEN: usize = 1 << 27;

/// The transform one row needs, after `idct`'s type swap (II ↔ III).
#[allow(clippy::upper_case_acronyms)] // the DCT types' own names
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Raw {
    I,
    II,
    III,
    IvEven,
    IvOdd,
}

/// A DCT of one type and length: its FFT plan and twiddles. Immutable; shared by threads.
pub struct DctPlan<T: FftFloat> {
    ty: u8,
    n: usize,
    fft: Arc<FftPlan<T>>,
    /// II/III: `e^{−iπk/(2n)}`, k ≤ n/2; IV even: `e^{−iπm/n}`, m < n/2; IV odd:
    /// `e^{−iπj/(2n)}`, j < n.
    tw: Vec<Complex<T>>,
    /// IV even: `e^{−iπ(4p+1)/(4n)}`, p < n/2; IV odd: `e^{−iπ(2k+1)/(4n)}`, k < n.
    tw2: Vec<Complex<T>>,
}

/// One thread's buffers for [`DctPlan::run`]; no row allocates once they exist.
pub struct DctScratch<T: FftFloat> {
    x: Vec<T>,
    r: Vec<T>,
    c: Vec<Complex<T>>,
    ws: Workspace<T>,
}

/// `v` in `T` (rounded to nearest for f32).
fn fc<T: FftFloat>(v: f64) -> T {
    <T as Float>::from_f64(v)
}

fn twiddles<T: FftFloat>(count: usize, angle: impl Fn(usize) -> f64) -> SkResult<Vec<Complex<T>>> {
    let mut v = try_vec(count, Complex::new(T::ZERO, T::ZERO), "the DCT twiddles")?;
    for (k, t) in v.iter_mut().enumerate() {
        let (s, c) = angle(k).sin_cos();
        *t = Complex::new(fc::<T>(c), fc::<T>(-s));
    }
    Ok(v)
}

impl<T: FftFloat + PlanCache> DctPlan<T> {
    /// Plans a DCT of `ty` (1 … 4) on `n` points (`n ≥ 1`; `n ≥ 2` for type I).
    pub fn new(ty: u8, n: usize) -> SkResult<Self> {
        if !(1..=4).contains(&ty) {
            return Err(SkError::BadArgument(format!(
                "type = {ty}; the DCT types are 1, 2, 3 and 4"
            )));
        }
        if n == 0 || (ty == 1 && n < 2) {
            return Err(SkError::Length(format!(
                "n = {n}: a DCT of type {ty} needs at least {} point{}",
                if ty == 1 { 2 } else { 1 },
                if ty == 1 { "s" } else { "" }
            )));
        }
        if n > MAX_DCT_LEN {
            return Err(SkError::Length(format!(
                "n = {n} exceeds the largest supported DCT length {MAX_DCT_LEN} (2^27)"
            )));
        }
        let nf = n as f64;
        let (fft, tw, tw2) = match ty {
            1 => (T::cached_real_plan(2 * (n - 1))?, Vec::new(), Vec::new()),
            2 | 3 => (
                T::cached_real_plan(n)?,
                twiddles(n / 2 + 1, |k| PI * k as f64 / (2.0 * nf))?,
                Vec::new(),
            ),
            _ if n.is_multiple_of(2) => (
                Arc::new(FftPlan::new(FftKind::Complex, n / 2)?),
                twiddles(n / 2, |m| PI * m as f64 / nf)?,
                twiddles(n / 2, |p| PI * (4 * p + 1) as f64 / (4.0 * nf))?,
            ),
            _ => (
                Arc::new(FftPlan::new(FftKind::Complex, 2 * n)?),
                twiddles(n, |j| PI * j as f64 / (2.0 * nf))?,
                twiddles(n, |k| PI * (2 * k + 1) as f64 / (4.0 * nf))?,
            ),
        };
        Ok(DctPlan {
            ty,
            n,
            fft,
            tw,
            tw2,
        })
    }

    /// The plan of `(ty, n)` from a process-wide cache (made and cached on a miss).
    pub fn cached(ty: u8, n: usize) -> SkResult<Arc<Self>> {
        static CACHE: PlanStore<(u8, usize)> = PlanStore::new(64);
        CACHE.get_or_make((ty, n), || Self::new(ty, n))
    }

    /// The type (1 … 4).
    pub fn ty(&self) -> u8 {
        self.ty
    }

    /// The length.
    pub fn len(&self) -> usize {
        self.n
    }

    /// Never empty (`n ≥ 1`).
    pub fn is_empty(&self) -> bool {
        false
    }

    fn raw(&self, inverse: bool) -> Raw {
        match (self.ty, inverse) {
            (1, _) => Raw::I,
            (2, false) | (3, true) => Raw::II,
            (2, true) | (3, false) => Raw::III,
            _ if self.n.is_multiple_of(2) => Raw::IvEven,
            _ => Raw::IvOdd,
        }
    }

    /// Fresh buffers for [`DctPlan::run`].
    pub fn scratch(&self) -> SkResult<DctScratch<T>> {
        let n = self.n;
        let (rl, cl) = match self.ty {
            1 => (2 * (n - 1), n),
            2 | 3 => (n, n / 2 + 1),
            _ if n.is_multiple_of(2) => (0, n / 2),
            _ => (0, 2 * n),
        };
        Ok(DctScratch {
            x: try_vec(n, T::ZERO, "the DCT input copy")?,
            r: try_vec(rl, T::ZERO, "the DCT buffer")?,
            c: try_vec(cl, Complex::new(T::ZERO, T::ZERO), "the DCT spectrum")?,
            ws: self.fft.workspace()?,
        })
    }

    /// The scale of the result: `1`, `1/M` or `1/√M` by `norm` and direction, `M = 2(n − 1)`
    /// for type I and `2n` otherwise (scipy's logical FFT length).
    fn scale(&self, norm: Norm, inverse: bool) -> f64 {
        let m = if self.ty == 1 {
            2.0 * (self.n - 1) as f64
        } else {
            2.0 * self.n as f64
        };
        match (norm, inverse) {
            (Norm::Backward, false) | (Norm::Forward, true) => 1.0,
            (Norm::Ortho, _) => 1.0 / m.sqrt(),
            (Norm::Backward, true) | (Norm::Forward, false) => 1.0 / m,
        }
    }

    /// `scipy.fft.dct(x, type, norm=norm, orthogonalize=ortho)` (or `idct` when `inverse`) of
    /// one row `x` (`n` values) into `y` (`n` values). Allocates nothing.
    pub fn run(
        &self,
        x: &[T],
        y: &mut [T],
        inverse: bool,
        norm: Norm,
        ortho: bool,
        s: &mut DctScratch<T>,
    ) {
        let n = self.n;
        let raw = self.raw(inverse);
        let scale = self.scale(norm, inverse);
        // orthogonalize: the inputs that scipy's type I / III scale by √2 before the sum
        let x: &[T] = if ortho && matches!(raw, Raw::I | Raw::III) {
            s.x.copy_from_slice(&x[..n]);
            let r2 = fc::<T>(SQRT_2);
            s.x[0] = s.x[0] * r2;
            if raw == Raw::I {
                s.x[n - 1] = s.x[n - 1] * r2;
            }
            &s.x
        } else {
            &x[..n]
        };
        let y = &mut y[..n];
        match raw {
            Raw::I => {
                let r = &mut s.r;
                r[..n].copy_from_slice(x);
                for j in 1..n - 1 {
                    r[2 * (n - 1) - j] = x[j];
                }
                self.fft.rfft_ws(r, &mut s.c, Norm::Backward, &mut s.ws);
                let g = fc::<T>(scale);
                for (v, c) in y.iter_mut().zip(&s.c) {
                    *v = c.re * g;
                }
            }
            Raw::II => {
                let r = &mut s.r;
                let half = n.div_ceil(2);
                for k in 0..half {
                    r[k] = x[2 * k];
                }
                for k in 0..n / 2 {
                    r[n - 1 - k] = x[2 * k + 1];
                }
                self.fft.rfft_ws(r, &mut s.c, Norm::Backward, &mut s.ws);
                let g = fc::<T>(2.0 * scale);
                for (k, (c, w)) in s.c.iter().zip(&self.tw).enumerate() {
                    let re = c.re * w.re - c.im * w.im;
                    let im = c.re * w.im + c.im * w.re;
                    y[k] = re * g;
                    if k > 0 && n - k != k {
                        y[n - k] = -im * g;
                    }
                }
            }
            Raw::III => {
                for (k, (c, w)) in s.c.iter_mut().zip(&self.tw).enumerate() {
                    let a = x[k];
                    let b = if k == 0 { T::ZERO } else { x[n - k] };
                    // conj(w)·(a − i·b)
                    *c = Complex::new(w.re * a - w.im * b, -w.re * b - w.im * a);
                }
                let r = &mut s.r;
                self.fft.irfft_ws(&s.c, r, Norm::Forward, &mut s.ws);
                let g = fc::<T>(scale);
                let half = n.div_ceil(2);
                for k in 0..half {
                    y[2 * k] = r[k] * g;
                }
                for k in 0..n / 2 {
                    y[2 * k + 1] = r[n - 1 - k] * g;
                }
            }
            Raw::IvEven => {
                let h = n / 2;
                for (m, (c, w)) in s.c.iter_mut().zip(&self.tw).enumerate() {
                    let (a, b) = (x[2 * m], x[n - 1 - 2 * m]);
                    *c = Complex::new(a * w.re - b * w.im, a * w.im + b * w.re);
                }
                self.fft
                    .fft_ws(None, &mut s.c, false, Norm::Backward, &mut s.ws);
                let g = fc::<T>(2.0 * scale);
                for (p, (c, w)) in s.c.iter().zip(&self.tw2).enumerate().take(h) {
                    let re = c.re * w.re - c.im * w.im;
                    let im = c.re * w.im + c.im * w.re;
                    y[2 * p] = re * g;
                    y[n - 1 - 2 * p] = -im * g;
                }
            }
            Raw::IvOdd => {
                let (head, tail) = s.c.split_at_mut(n);
                for ((c, &a), w) in head.iter_mut().zip(x).zip(&self.tw) {
                    *c = Complex::new(a * w.re, a * w.im);
                }
                tail.fill(Complex::new(T::ZERO, T::ZERO));
                self.fft
                    .fft_ws(None, &mut s.c, false, Norm::Backward, &mut s.ws);
                let g = fc::<T>(2.0 * scale);
                for ((v, c), w) in y.iter_mut().zip(&s.c).zip(&self.tw2) {
                    *v = (c.re * w.re - c.im * w.im) * g;
                }
            }
        }
        // orthogonalize: the outputs that scipy's type I / II divide by √2 after the sum
        if ortho && matches!(raw, Raw::I | Raw::II) {
            let r2 = fc::<T>(1.0 / SQRT_2);
            y[0] = y[0] * r2;
            if raw == Raw::I {
                y[n - 1] = y[n - 1] * r2;
            }
        }
    }

    /// The transform of `rows` rows of `n` values, row `r` at `x[r·x_stride..]`, into `y`
    /// (`rows × n`, row-major); rows are split over the library's threads.
    #[allow(clippy::too_many_arguments)]
    pub fn compute(
        &self,
        x: &[T],
        x_stride: usize,
        rows: usize,
        y: &mut [T],
        inverse: bool,
        norm: Norm,
        ortho: bool,
    ) -> SkResult<()> {
        let n = self.n;
        if rows == 0 {
            return Ok(());
        }
        let y = &mut y[..rows * n];
        let work = rows * n * 8;
        par_rows_with(
            y,
            n,
            work,
            || self.scratch(),
            |s, first, chunk| {
                for (k, out) in chunk.chunks_exact_mut(n).enumerate() {
                    let r = first + k;
                    self.run(
                        &x[r * x_stride..r * x_stride + n],
                        out,
                        inverse,
                        norm,
                        ortho,
                        s,
                    );
                }
            },
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::kernels::testutil::Rng;

    /// scipy's unnormalised definitions, summed directly.
    fn naive(ty: u8, x: &[f64]) -> Vec<f64> {
        let n = x.len();
        let nf = n as f64;
        (0..n)
            .map(|k| {
                let kf = k as f64;
                match ty {
                    1 => {
                        let mut s = x[0] + if k % 2 == 0 { x[n - 1] } else { -x[n - 1] };
                        for (j, &v) in x.iter().enumerate().take(n - 1).skip(1) {
                            s += 2.0 * v * (PI * j as f64 * kf / (nf - 1.0)).cos();
                        }
                        s
                    }
                    2 => x
                        .iter()
                        .enumerate()
                        .map(|(j, &v)| {
                            2.0 * v * (PI * kf * (2.0 * j as f64 + 1.0) / (2.0 * nf)).cos()
                        })
                        .sum(),
                    3 => {
                        x[0] + x
                            .iter()
                            .enumerate()
                            .skip(1)
                            .map(|(j, &v)| {
                                2.0 * v * (PI * j as f64 * (2.0 * kf + 1.0) / (2.0 * nf)).cos()
                            })
                            .sum::<f64>()
                    }
                    _ => x
                        .iter()
                        .enumerate()
                        .map(|(j, &v)| {
                            2.0 * v
                                * (PI * (2.0 * j as f64 + 1.0) * (2.0 * kf + 1.0) / (4.0 * nf))
                                    .cos()
                        })
                        .sum(),
                }
            })
            .collect()
    }

    #[test]
    fn raw_transforms_match_the_sums() {
        let mut rng = Rng::new(7);
        for ty in 1..=4u8 {
            for n in [1usize, 2, 3, 4, 5, 7, 8, 12, 13, 16, 31, 64, 97] {
                if ty == 1 && n < 2 {
                    assert!(DctPlan::<f64>::new(ty, n).is_err());
                    continue;
                }
                let x = rng.vec_f64(n, 1.0);
                let p = DctPlan::<f64>::new(ty, n).unwrap();
                let mut s = p.scratch().unwrap();
                let mut y = vec![0.0; n];
                p.run(&x, &mut y, false, Norm::Backward, false, &mut s);
                let want = naive(ty, &x);
                let big = want.iter().fold(1.0f64, |a, &b| a.max(b.abs()));
                for (a, b) in y.iter().zip(&want) {
                    assert!((a - b).abs() <= 1e-12 * big, "type {ty} n {n}: {a} vs {b}");
                }
                // idct(dct(x)) = x for every norm and orthogonalize
                for norm in [Norm::Backward, Norm::Ortho, Norm::Forward] {
                    for ortho in [false, true] {
                        let mut z = vec![0.0; n];
                        let mut w = vec![0.0; n];
                        p.run(&x, &mut z, false, norm, ortho, &mut s);
                        p.run(&z, &mut w, true, norm, ortho, &mut s);
                        for (a, b) in w.iter().zip(&x) {
                            assert!((a - b).abs() < 1e-12, "round trip {ty} {n} {norm:?}");
                        }
                    }
                }
            }
        }
    }

    #[test]
    fn bad_plans_are_refused() {
        assert!(DctPlan::<f32>::new(0, 4).is_err());
        assert!(DctPlan::<f32>::new(5, 4).is_err());
        assert!(DctPlan::<f32>::new(2, 0).is_err());
        assert!(DctPlan::<f32>::new(1, 1).is_err());
        assert!(DctPlan::<f32>::new(2, MAX_DCT_LEN + 1).is_err());
    }
}
