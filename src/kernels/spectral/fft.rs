//! FFT plans over `rustfft`/`realfft`: real forward (n reals → n/2+1 complex) and inverse,
//! complex forward and inverse, every n ≥ 1, f32 and f64, numpy's three normalisations.
//!
//! Scratch. A plan holds only immutable data (`Arc`s of the crates' precomputed twiddles), so one
//! plan may run concurrently on any number of threads. Each call takes its scratch from a
//! per-thread [`Workspace`] (taken out of a thread-local slot for the duration of the call and put
//! back afterwards; a nested call on the same thread simply allocates a fresh one), so repeated
//! calls on a thread do not allocate and threads never share scratch.

use super::Complex;
use crate::error::{SkError, SkResult};
use crate::kernels::Float;
use realfft::{ComplexToReal, RealFftPlanner, RealToComplex};
use rustfft::{Fft, FftNum, FftPlanner};
use std::cell::Cell;
use std::collections::HashMap;
use std::sync::{Arc, Mutex, OnceLock};

/// numpy's `norm=` modes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Norm {
    /// Forward unscaled, inverse scaled by 1/n (numpy's default).
    Backward,
    /// Both directions scaled by 1/sqrt(n).
    Ortho,
    /// Forward scaled by 1/n, inverse unscaled.
    Forward,
}

impl Norm {
    /// The factor applied after a transform of length `n` in the given direction
    /// (`None` for an unscaled transform).
    pub fn scale(self, n: usize, inverse: bool) -> Option<f64> {
        let n = n as f64;
        match (self, inverse) {
            (Norm::Backward, false) | (Norm::Forward, true) => None,
            (Norm::Ortho, _) => Some(1.0 / n.sqrt()),
            (Norm::Backward, true) | (Norm::Forward, false) => Some(1.0 / n),
        }
    }
}

/// What a plan transforms.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FftKind {
    /// Real signal of n samples ↔ n/2+1 complex bins.
    Real,
    /// Complex signal of n samples ↔ n complex bins.
    Complex,
}

impl FftKind {
    pub fn name(self) -> &'static str {
        match self {
            FftKind::Real => "real",
            FftKind::Complex => "complex",
        }
    }
}

/// Per-thread scratch buffers of one element type.
#[derive(Default)]
pub struct Workspace<T> {
    pub real: Vec<T>,
    pub cplx: Vec<Complex<T>>,
    pub cplx2: Vec<Complex<T>>,
}

/// Workspaces above this many bytes are not cached after the call.
const MAX_CACHED_BYTES: usize = 64 << 20;

/// The element types the FFT plans support, with their per-thread workspace.
pub trait FftFloat: Float + FftNum {
    /// Runs `f` with this thread's workspace (or a fresh one when it is already in use).
    fn with_workspace<R>(f: impl FnOnce(&mut Workspace<Self>) -> R) -> R;
}

macro_rules! impl_fft_float {
    ($t:ty) => {
        impl FftFloat for $t {
            fn with_workspace<R>(f: impl FnOnce(&mut Workspace<Self>) -> R) -> R {
                thread_local! {
                    static WS: Cell<Option<Workspace<$t>>> = const { Cell::new(None) };
                }
                let mut ws = WS.with(|c| c.take()).unwrap_or_default();
                let r = f(&mut ws);
                let bytes = ws.real.capacity() * std::mem::size_of::<$t>()
                    + (ws.cplx.capacity() + ws.cplx2.capacity()) * 2 * std::mem::size_of::<$t>();
                if bytes <= MAX_CACHED_BYTES {
                    WS.with(|c| c.set(Some(ws)));
                }
                r
            }
        }
    };
}
impl_fft_float!(f32);
impl_fft_float!(f64);

/// Grows `v` to at least `n` elements (new elements zero) and returns its first `n`.
pub fn grow<T: Clone + Default>(v: &mut Vec<T>, n: usize) -> &mut [T] {
    if v.len() < n {
        v.resize(n, T::default());
    }
    &mut v[..n]
}

enum Inner<T: FftNum> {
    Real {
        fwd: Arc<dyn RealToComplex<T>>,
        inv: Arc<dyn ComplexToReal<T>>,
    },
    Complex {
        fwd: Arc<dyn Fft<T>>,
        inv: Arc<dyn Fft<T>>,
    },
}

/// An FFT plan of one kind and length. Immutable after creation: `Send + Sync`, and
/// [`FftPlan::rfft`] etc. may run concurrently on one plan.
pub struct FftPlan<T: FftFloat> {
    n: usize,
    kind: FftKind,
    inner: Inner<T>,
}

fn scale_slice<T: Float>(y: &mut [T], s: Option<f64>) {
    if let Some(s) = s {
        let s = T::from_f64(s);
        for v in y {
            *v = *v * s;
        }
    }
}

fn scale_cplx<T: Float>(y: &mut [Complex<T>], s: Option<f64>) {
    if let Some(s) = s {
        let s = T::from_f64(s);
        for v in y {
            v.re = v.re * s;
            v.im = v.im * s;
        }
    }
}

impl<T: FftFloat> FftPlan<T> {
    /// Plans a transform of `n ≥ 1` points (`SK_ERR_LENGTH` for n = 0).
    pub fn new(kind: FftKind, n: usize) -> SkResult<Self> {
        if n == 0 {
            return Err(SkError::Length(
                "n = 0: an FFT needs at least one point".into(),
            ));
        }
        let inner = match kind {
            FftKind::Real => {
                let mut p = RealFftPlanner::<T>::new();
                Inner::Real {
                    fwd: p.plan_fft_forward(n),
                    inv: p.plan_fft_inverse(n),
                }
            }
            FftKind::Complex => {
                let mut p = FftPlanner::<T>::new();
                Inner::Complex {
                    fwd: p.plan_fft_forward(n),
                    inv: p.plan_fft_inverse(n),
                }
            }
        };
        Ok(FftPlan { n, kind, inner })
    }

    pub fn len(&self) -> usize {
        self.n
    }

    pub fn is_empty(&self) -> bool {
        false
    }

    pub fn kind(&self) -> FftKind {
        self.kind
    }

    /// Number of complex bins of the forward transform (n/2+1 for real, n for complex).
    pub fn bins(&self) -> usize {
        match self.kind {
            FftKind::Real => self.n / 2 + 1,
            FftKind::Complex => self.n,
        }
    }

    fn real(&self) -> (&Arc<dyn RealToComplex<T>>, &Arc<dyn ComplexToReal<T>>) {
        match &self.inner {
            Inner::Real { fwd, inv } => (fwd, inv),
            Inner::Complex { .. } => panic!("real transform requested from a complex plan"),
        }
    }

    fn cplx(&self) -> (&Arc<dyn Fft<T>>, &Arc<dyn Fft<T>>) {
        match &self.inner {
            Inner::Complex { fwd, inv } => (fwd, inv),
            Inner::Real { .. } => panic!("complex transform requested from a real plan"),
        }
    }

    /// Real forward transform: `x` (n reals) → `y` (n/2+1 bins), `y[k] = Σ x[j] e^{-2πijk/n}`
    /// scaled per `norm`. Panics on a real/complex or length mismatch (the FFI checks first).
    pub fn rfft(&self, x: &[T], y: &mut [Complex<T>], norm: Norm) {
        T::with_workspace(|ws| self.rfft_ws(x, y, norm, ws))
    }

    /// As [`FftPlan::rfft`] with an explicit workspace (used by batched callers).
    pub fn rfft_ws(&self, x: &[T], y: &mut [Complex<T>], norm: Norm, ws: &mut Workspace<T>) {
        self.real();
        assert_eq!(x.len(), self.n, "rfft input length");
        assert_eq!(y.len(), self.n / 2 + 1, "rfft output length");
        let buf = grow(&mut ws.real, self.n);
        buf.copy_from_slice(x);
        self.rfft_inplace_input(buf, y, norm, &mut ws.cplx);
    }

    /// Real forward transform that may destroy its input `x` (no copy).
    pub fn rfft_inplace_input(
        &self,
        x: &mut [T],
        y: &mut [Complex<T>],
        norm: Norm,
        scratch: &mut Vec<Complex<T>>,
    ) {
        let (fwd, _) = self.real();
        let s = grow(scratch, fwd.get_scratch_len());
        fwd.process_with_scratch(x, y, s)
            .expect("realfft forward: buffer lengths were checked");
        scale_cplx(y, norm.scale(self.n, false));
    }

    /// Real inverse transform: `x` (n/2+1 bins) → `y` (n reals), as `numpy.fft.irfft(x, n)`:
    /// the imaginary parts of bin 0 and (for even n) bin n/2 are ignored.
    pub fn irfft(&self, x: &[Complex<T>], y: &mut [T], norm: Norm) {
        T::with_workspace(|ws| self.irfft_ws(x, y, norm, ws))
    }

    /// As [`FftPlan::irfft`] with an explicit workspace.
    pub fn irfft_ws(&self, x: &[Complex<T>], y: &mut [T], norm: Norm, ws: &mut Workspace<T>) {
        assert_eq!(x.len(), self.n / 2 + 1, "irfft input length");
        let buf = grow(&mut ws.cplx2, x.len());
        buf.copy_from_slice(x);
        self.irfft_inplace_input(buf, y, norm, &mut ws.cplx);
    }

    /// Real inverse transform that may destroy its input `x`.
    pub fn irfft_inplace_input(
        &self,
        x: &mut [Complex<T>],
        y: &mut [T],
        norm: Norm,
        scratch: &mut Vec<Complex<T>>,
    ) {
        let (_, inv) = self.real();
        assert_eq!(y.len(), self.n, "irfft output length");
        let s = grow(scratch, inv.get_scratch_len());
        match inv.process_with_scratch(x, y, s) {
            // Non-zero imaginary parts at DC/Nyquist: computed with them ignored, as numpy.
            Ok(()) | Err(realfft::FftError::InputValues(..)) => {}
            Err(e) => panic!("realfft inverse: {e}"),
        }
        scale_slice(y, norm.scale(self.n, true));
    }

    /// Complex transform of `n` points, forward (`e^{-2πi…}`) or inverse (`e^{+2πi…}`).
    /// `x = None` transforms `y` in place.
    pub fn fft(&self, x: Option<&[Complex<T>]>, y: &mut [Complex<T>], inverse: bool, norm: Norm) {
        T::with_workspace(|ws| self.fft_ws(x, y, inverse, norm, ws))
    }

    /// As [`FftPlan::fft`] with an explicit workspace.
    pub fn fft_ws(
        &self,
        x: Option<&[Complex<T>]>,
        y: &mut [Complex<T>],
        inverse: bool,
        norm: Norm,
        ws: &mut Workspace<T>,
    ) {
        let (fwd, inv) = self.cplx();
        let f = if inverse { inv } else { fwd };
        assert_eq!(y.len(), self.n, "fft output length");
        match x {
            Some(x) => {
                assert_eq!(x.len(), self.n, "fft input length");
                let s = grow(&mut ws.cplx, f.get_immutable_scratch_len());
                f.process_immutable_with_scratch(x, y, s);
            }
            None => {
                let s = grow(&mut ws.cplx, f.get_inplace_scratch_len());
                f.process_with_scratch(y, s);
            }
        }
        scale_cplx(y, norm.scale(self.n, inverse));
    }
}

/// A process-wide cache of real plans by length, shared by the STFT, mel and convolution
/// kernels (planning is much slower than one transform). Bounded: cleared when it holds more
/// than 64 lengths.
pub trait PlanCache: FftFloat {
    fn cached_real_plan(n: usize) -> SkResult<Arc<FftPlan<Self>>>;
}

macro_rules! impl_cache {
    ($t:ty) => {
        impl PlanCache for $t {
            fn cached_real_plan(n: usize) -> SkResult<Arc<FftPlan<$t>>> {
                static CACHE: OnceLock<Mutex<HashMap<usize, Arc<FftPlan<$t>>>>> = OnceLock::new();
                let cache = CACHE.get_or_init(Default::default);
                if let Some(p) = cache.lock().unwrap_or_else(|e| e.into_inner()).get(&n) {
                    return Ok(p.clone());
                }
                let plan = Arc::new(FftPlan::new(FftKind::Real, n)?);
                let mut c = cache.lock().unwrap_or_else(|e| e.into_inner());
                if c.len() >= 64 {
                    c.clear();
                }
                Ok(c.entry(n).or_insert(plan).clone())
            }
        }
    };
}
impl_cache!(f32);
impl_cache!(f64);

#[cfg(test)]
mod tests {
    use super::*;
    use crate::kernels::testutil::Rng;

    fn dft(x: &[Complex<f64>], inverse: bool) -> Vec<Complex<f64>> {
        let n = x.len();
        let sign = if inverse { 1.0 } else { -1.0 };
        (0..n)
            .map(|k| {
                let mut acc = Complex::new(0.0, 0.0);
                for (j, v) in x.iter().enumerate() {
                    let ang = sign * 2.0 * std::f64::consts::PI * ((j * k) % n) as f64 / n as f64;
                    acc += v * Complex::new(ang.cos(), ang.sin());
                }
                acc
            })
            .collect()
    }

    fn max_err(a: &[Complex<f64>], b: &[Complex<f64>]) -> f64 {
        a.iter()
            .zip(b)
            .map(|(x, y)| (x - y).norm())
            .fold(0.0, f64::max)
    }

    #[test]
    fn real_and_complex_match_naive_dft_for_small_n() {
        let mut rng = Rng::new(7);
        for n in 1..=40usize {
            let x = rng.vec_f64(n, 1.0);
            let xc: Vec<Complex<f64>> = x.iter().map(|&v| Complex::new(v, 0.0)).collect();
            let want = dft(&xc, false);
            let scale: f64 = x.iter().map(|v| v.abs()).sum::<f64>().max(1.0);
            let p = FftPlan::<f64>::new(FftKind::Real, n).unwrap();
            let mut y = vec![Complex::new(0.0, 0.0); n / 2 + 1];
            p.rfft(&x, &mut y, Norm::Backward);
            assert!(
                max_err(&y, &want[..n / 2 + 1]) < 1e-14 * scale,
                "rfft n={n}"
            );
            let mut back = vec![0.0; n];
            p.irfft(&y, &mut back, Norm::Backward);
            for (a, b) in back.iter().zip(&x) {
                assert!((a - b).abs() < 1e-14 * scale, "irfft n={n}");
            }
            let c = FftPlan::<f64>::new(FftKind::Complex, n).unwrap();
            let z: Vec<Complex<f64>> = (0..n)
                .map(|_| Complex::new(rng.uniform(), rng.uniform()))
                .collect();
            let mut y = vec![Complex::new(0.0, 0.0); n];
            c.fft(Some(&z), &mut y, false, Norm::Ortho);
            let mut want = dft(&z, false);
            want.iter_mut().for_each(|v| *v /= (n as f64).sqrt());
            assert!(max_err(&y, &want) < 1e-13 * n as f64, "fft n={n}");
            c.fft(None, &mut y, true, Norm::Ortho);
            assert!(max_err(&y, &z) < 1e-13 * n as f64, "ifft in place n={n}");
        }
    }

    #[test]
    fn norms_follow_numpy() {
        assert_eq!(Norm::Backward.scale(4, false), None);
        assert_eq!(Norm::Backward.scale(4, true), Some(0.25));
        assert_eq!(Norm::Forward.scale(4, false), Some(0.25));
        assert_eq!(Norm::Forward.scale(4, true), None);
        assert_eq!(Norm::Ortho.scale(4, true), Some(0.5));
    }

    #[test]
    fn zero_length_is_refused_and_nyquist_imag_ignored() {
        assert!(FftPlan::<f32>::new(FftKind::Real, 0).is_err());
        let p = FftPlan::<f64>::new(FftKind::Real, 4).unwrap();
        let x = [
            Complex::new(1.0, 5.0),
            Complex::new(0.0, 0.0),
            Complex::new(1.0, -3.0),
        ];
        let mut y = [0.0; 4];
        p.irfft(&x, &mut y, Norm::Backward);
        assert_eq!(y, [0.5, 0.0, 0.5, 0.0]);
    }

    #[test]
    fn one_plan_runs_on_many_threads() {
        let p = Arc::new(FftPlan::<f32>::new(FftKind::Real, 1000).unwrap());
        std::thread::scope(|s| {
            for t in 0..4 {
                let p = p.clone();
                s.spawn(move || {
                    let mut rng = Rng::new(t);
                    for _ in 0..50 {
                        let x = rng.vec_f32(1000, 1.0);
                        let mut y = vec![Complex::new(0.0f32, 0.0); 501];
                        p.rfft(&x, &mut y, Norm::Ortho);
                        let mut b = vec![0.0f32; 1000];
                        p.irfft(&y, &mut b, Norm::Ortho);
                        for (a, c) in b.iter().zip(&x) {
                            assert!((a - c).abs() < 1e-5);
                        }
                    }
                });
            }
        });
    }
}
