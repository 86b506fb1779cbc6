//! The planner: [`FftPlan`] picks each length's algorithm ([`use_crate`]: the crates'
//! transforms, [`EvenReal`] over them, [`OwnReal`] or [`MixedFft`]), runs the entry points and
//! applies numpy's normalisations; [`PlanCache`] keeps real plans by length.

use super::even_real::EvenReal;
use super::mixed::MixedFft;
use super::own_real::OwnReal;
use super::scratch::{grow, process_immutable, use_immutable, ALIAS_PAD};
use super::workspace::Workspace;
use super::{Complex, FftFloat, RowLanes};
use crate::error::{SkError, SkResult};
use crate::kernels::alloc::{headroom, try_grow};
use crate::kernels::Float;
use realfft::{ComplexToReal, RealFftPlanner, RealToComplex};
use rustfft::{Fft, FftNum, FftPlanner};
use std::collections::BTreeMap;
use std::sync::{Arc, Mutex, OnceLock};

/// Largest transform length accepted (2^28 points): planning allocates O(n) twiddles and
/// scratch that cannot be checked for success, so absurd lengths are refused up front instead of
/// aborting the process on a failed allocation.
pub(crate) const MAX_FFT_LEN: usize = 1 << 28;

/// Complex values per point that must be allocatable before a plan is made (see
/// [`FftPlan::new`]).
pub(super) const PLAN_HEADROOM: usize = 4;

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

/// Whether a length runs on the crate's transforms rather than on [`MixedFft`] /
/// [`super::real::RealFft`]: double plans at powers of two (real ones from
/// [`OWN_REAL_POW2_BELOW`] points), where rustfft is close to numpy's error, the other double
/// lengths on numpy's algorithms for numpy's accuracy; float plans at every length, for speed.
pub(super) fn use_crate<T: FftFloat>(kind: FftKind, n: usize) -> bool {
    let own_real = kind == FftKind::Real && n < OWN_REAL_POW2_BELOW;
    (n.is_power_of_two() && !own_real) || !T::ACCURATE_MIXED
}

/// Double real transforms of fewer points run numpy's real algorithm at powers of two too (numpy's
/// bits; the half-length route's error weighs most there and its speed matters least).
pub(super) const OWN_REAL_POW2_BELOW: usize = 64;

pub(super) enum Inner<T: FftNum> {
    Real {
        fwd: Arc<dyn RealToComplex<T>>,
        inv: Arc<dyn ComplexToReal<T>>,
        even: Option<EvenReal<T>>,
    },
    Complex {
        fwd: Arc<dyn Fft<T>>,
        inv: Arc<dyn Fft<T>>,
    },
    OwnReal(OwnReal<T>),
    OwnComplex(MixedFft<T>),
}

/// An FFT plan of one kind and length. Immutable after creation: `Send + Sync`, and
/// [`FftPlan::rfft`] etc. may run concurrently on one plan.
pub struct FftPlan<T: FftFloat> {
    pub(super) n: usize,
    pub(super) kind: FftKind,
    pub(super) inner: Inner<T>,
    /// Scratch lengths (real, complex, second complex) of [`FftPlan::reserve`].
    pub(super) scratch: (usize, usize, usize),
}

pub(super) fn scale_slice<T: Float>(y: &mut [T], s: Option<f64>) {
    if let Some(s) = s {
        let s = T::from_f64(s);
        for v in y {
            *v = *v * s;
        }
    }
}

pub(super) fn scale_cplx<T: Float>(y: &mut [Complex<T>], s: Option<f64>) {
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
        Self::build(kind, n, false)
    }

    /// Plans a transform of `n ≥ 1` points on the crate's transforms at every length, double
    /// ones too: the fastest plan, for callers that do not promise numpy's bits (its error is of
    /// the same order, a few ε·log n of the signal's scale). Rules as [`FftPlan::new`].
    pub fn new_fast(kind: FftKind, n: usize) -> SkResult<Self> {
        Self::build(kind, n, true)
    }

    fn build(kind: FftKind, n: usize, fast: bool) -> SkResult<Self> {
        if n == 0 {
            return Err(SkError::Length(
                "n = 0: an FFT needs at least one point".into(),
            ));
        }
        if n > MAX_FFT_LEN {
            return Err(SkError::Length(format!(
                "n = {n} exceeds the largest supported FFT length {MAX_FFT_LEN} (2^28)"
            )));
        }
        // The planners allocate their twiddles and inner plans infallibly: check first that
        // about four times n complex values (both directions, with room for the scratch of a
        // transform) can be allocated, so an unaffordable plan is SK_ERR_ALLOCATION.
        headroom::<Complex<T>>(
            n.saturating_mul(PLAN_HEADROOM),
            &format!("an FFT plan of {n} points"),
        )?;
        let inner = match kind {
            FftKind::Real if !fast && !use_crate::<T>(kind, n) => Inner::OwnReal(OwnReal::new(n)?),
            FftKind::Complex if !fast && !use_crate::<T>(kind, n) => {
                Inner::OwnComplex(MixedFft::new(n)?)
            }
            FftKind::Real => {
                let even = if n.is_multiple_of(2) {
                    Some(EvenReal::new(n)?)
                } else {
                    None
                };
                let mut p = RealFftPlanner::<T>::new();
                Inner::Real {
                    fwd: p.plan_fft_forward(n),
                    inv: p.plan_fft_inverse(n),
                    even,
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
        let scratch = Self::scratch_lens(n, &inner);
        Ok(FftPlan {
            n,
            kind,
            inner,
            scratch,
        })
    }

    /// The (real, complex, second complex) scratch lengths the transforms of `inner` need (see
    /// [`FftPlan::reserve`]); computed once per plan, so a call does not ask the crate's
    /// transforms again.
    fn scratch_lens(n: usize, inner: &Inner<T>) -> (usize, usize, usize) {
        let pad = ALIAS_PAD / std::mem::size_of::<Complex<T>>();
        match inner {
            Inner::Real { fwd, inv, even } => {
                let s = fwd.get_scratch_len().max(inv.get_scratch_len());
                let s = even.as_ref().map_or(s, |e| s.max(e.scratch_len()));
                (n, s, n / 2 + 1)
            }
            Inner::Complex { fwd, inv } => {
                let s = [fwd, inv]
                    .iter()
                    .map(|f| (f.get_immutable_scratch_len() + pad).max(f.get_inplace_scratch_len()))
                    .max()
                    .unwrap_or(0);
                (0, s, 0)
            }
            Inner::OwnReal(o) => (n, o.scratch_len(), n / 2 + 1),
            Inner::OwnComplex(c) => (0, c.scratch_len(), 0),
        }
    }

    pub fn len(&self) -> usize {
        self.n
    }

    /// The lane passes a batch of `rows` real transforms of this plan runs on, if any: numpy's
    /// real algorithm on groups of [`RowLanes::LANES`] rows, bit for bit the one-row results.
    /// `None` for fewer than two rows (one row runs the one-row path, so the lane passes are
    /// made only for batches) and for plans without them. Made by the first batch
    /// (`SK_ERR_ALLOCATION` if their twiddles cannot be allocated).
    pub(crate) fn row_lanes(&self, rows: usize) -> SkResult<Option<&RowLanes<T>>> {
        if rows < 2 {
            return Ok(None);
        }
        match &self.inner {
            Inner::OwnReal(o) => o.lanes(),
            _ => Ok(None),
        }
    }

    /// Grows `ws` (fallibly) so that no transform of this plan allocates: after `Ok`, every
    /// `*_ws` / `*_inplace_input` call with this workspace runs without allocating.
    pub fn reserve(&self, ws: &mut Workspace<T>) -> SkResult<()> {
        let (real, cplx, cplx2) = self.scratch;
        if ws.real.len() >= real && ws.cplx.len() >= cplx && ws.cplx2.len() >= cplx2 {
            // the usual case of a repeated call: nothing to grow
            return Ok(());
        }
        let what = "FFT scratch";
        try_grow(&mut ws.real, real, what)?;
        try_grow(&mut ws.cplx, cplx, what)?;
        try_grow(&mut ws.cplx2, cplx2, what)
    }

    /// A fresh workspace holding all the scratch this plan's transforms need.
    pub fn workspace(&self) -> SkResult<Workspace<T>> {
        let mut ws = Workspace::default();
        self.reserve(&mut ws)?;
        Ok(ws)
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

    #[allow(clippy::type_complexity)]
    fn real(
        &self,
    ) -> (
        &Arc<dyn RealToComplex<T>>,
        &Arc<dyn ComplexToReal<T>>,
        Option<&EvenReal<T>>,
    ) {
        match &self.inner {
            Inner::Real { fwd, inv, even } => (fwd, inv, even.as_ref()),
            _ => panic!("real transform requested from a complex plan"),
        }
    }

    fn cplx(&self) -> (&Arc<dyn Fft<T>>, &Arc<dyn Fft<T>>) {
        match &self.inner {
            Inner::Complex { fwd, inv } => (fwd, inv),
            _ => panic!("complex transform requested from a real plan"),
        }
    }

    /// Real forward transform: `x` (n reals) → `y` (n/2+1 bins), `y[k] = Σ x[j] e^{-2πijk/n}`
    /// scaled per `norm`. Panics on a real/complex or length mismatch (the FFI checks first).
    pub fn rfft(&self, x: &[T], y: &mut [Complex<T>], norm: Norm) {
        T::with_workspace(|ws| self.rfft_ws(x, y, norm, ws))
    }

    /// As [`FftPlan::rfft`] with an explicit workspace (used by batched callers).
    pub fn rfft_ws(&self, x: &[T], y: &mut [Complex<T>], norm: Norm, ws: &mut Workspace<T>) {
        assert_eq!(x.len(), self.n, "rfft input length");
        assert_eq!(y.len(), self.n / 2 + 1, "rfft output length");
        if let Inner::OwnReal(o) = &self.inner {
            o.forward(x, y, &mut ws.cplx);
            scale_cplx(y, norm.scale(self.n, false));
            return;
        }
        let (_, _, even) = self.real();
        if let Some(e) = even {
            e.forward(x, y, &mut ws.cplx);
            scale_cplx(y, norm.scale(self.n, false));
            return;
        }
        let buf = grow(&mut ws.real, self.n);
        buf.copy_from_slice(x);
        self.rfft_inplace_input(buf, y, norm, &mut ws.cplx);
    }

    /// The real forward transform of `x` into `y` when this plan does it in one codelet that
    /// needs no workspace (AVX-512: 64 and 128 points, float and double; 256 and 512 points,
    /// double): `true` when `y` holds the result, `false` (nothing written) for every other
    /// plan. A one-transform call then skips the thread's workspace.
    pub fn rfft_fused(&self, x: &[T], y: &mut [Complex<T>], norm: Norm) -> bool {
        assert_eq!(x.len(), self.n, "rfft input length");
        assert_eq!(y.len(), self.n / 2 + 1, "rfft output length");
        if let Inner::Real { even: Some(e), .. } = &self.inner {
            if e.fused_forward(x, y) {
                scale_cplx(y, norm.scale(self.n, false));
                return true;
            }
        }
        false
    }

    /// The real inverse transform of `x` into `y` when this plan does it in one codelet that
    /// needs no workspace (AVX-512, 64 and 128 points, float and double), scaled per `norm` as
    /// it is stored: `true` when `y` holds the result, `false` (nothing written) for every
    /// other plan.
    pub fn irfft_fused(&self, x: &[Complex<T>], y: &mut [T], norm: Norm) -> bool {
        assert_eq!(x.len(), self.n / 2 + 1, "irfft input length");
        assert_eq!(y.len(), self.n, "irfft output length");
        if let Inner::Real { even: Some(e), .. } = &self.inner {
            // the codelet scales as it stores: the same products as `scale_slice`
            return e.fused_inverse(x, y, norm.scale(self.n, true));
        }
        false
    }

    /// The real forward transform of `x` multiplied elementwise by `win` into `y`, the products
    /// formed as the transform's first pass loads `x` (never stored), where this plan does that
    /// (the AVX-512 level's own transforms, 256 … 65536 points, float and double): `true` when
    /// `y` holds the result, bit for bit [`FftPlan::rfft`] of the products; `false`, nothing
    /// written, for every other plan.
    pub fn rfft_windowed(
        &self,
        x: &[T],
        win: &[T],
        y: &mut [Complex<T>],
        norm: Norm,
        scratch: &mut Vec<Complex<T>>,
    ) -> bool {
        assert_eq!(x.len(), self.n, "rfft input length");
        assert_eq!(win.len(), self.n, "rfft window length");
        assert_eq!(y.len(), self.n / 2 + 1, "rfft output length");
        if let Inner::Real { even: Some(e), .. } = &self.inner {
            if e.forward_windowed(x, win, y, scratch) {
                scale_cplx(y, norm.scale(self.n, false));
                return true;
            }
        }
        false
    }

    /// Real forward transform that may destroy its input `x` (no copy).
    pub fn rfft_inplace_input(
        &self,
        x: &mut [T],
        y: &mut [Complex<T>],
        norm: Norm,
        scratch: &mut Vec<Complex<T>>,
    ) {
        assert_eq!(y.len(), self.n / 2 + 1, "rfft output length");
        if let Inner::OwnReal(o) = &self.inner {
            assert_eq!(x.len(), self.n, "rfft input length");
            o.forward(x, y, scratch);
            scale_cplx(y, norm.scale(self.n, false));
            return;
        }
        let (fwd, _, even) = self.real();
        if let Some(e) = even {
            e.forward_destroy(x, y, scratch);
            scale_cplx(y, norm.scale(self.n, false));
            return;
        }
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
        assert_eq!(y.len(), self.n, "irfft output length");
        if let Inner::OwnReal(o) = &self.inner {
            o.inverse(x, y, &mut ws.cplx);
            scale_slice(y, norm.scale(self.n, true));
            return;
        }
        if let (_, _, Some(e)) = self.real() {
            e.inverse(x, y, &mut ws.cplx);
            scale_slice(y, norm.scale(self.n, true));
            return;
        }
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
        assert_eq!(y.len(), self.n, "irfft output length");
        if let Inner::OwnReal(o) = &self.inner {
            assert_eq!(x.len(), self.n / 2 + 1, "irfft input length");
            o.inverse(x, y, scratch);
            scale_slice(y, norm.scale(self.n, true));
            return;
        }
        let (_, inv, even) = self.real();
        if let Some(e) = even {
            e.inverse(x, y, scratch);
            scale_slice(y, norm.scale(self.n, true));
            return;
        }
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
        if let Inner::OwnComplex(c) = &self.inner {
            assert_eq!(y.len(), self.n, "fft output length");
            if let Some(x) = x {
                assert_eq!(x.len(), self.n, "fft input length");
                y.copy_from_slice(x);
            }
            c.process(y, grow(&mut ws.cplx, c.scratch_len()), inverse);
            scale_cplx(y, norm.scale(self.n, inverse));
            return;
        }
        let (fwd, inv) = self.cplx();
        let f = if inverse { inv } else { fwd };
        assert_eq!(y.len(), self.n, "fft output length");
        match x {
            Some(x) if use_immutable(self.n) => {
                assert_eq!(x.len(), self.n, "fft input length");
                process_immutable(&**f, x, y, &mut ws.cplx);
            }
            Some(x) => {
                assert_eq!(x.len(), self.n, "fft input length");
                y.copy_from_slice(x);
                let s = grow(&mut ws.cplx, f.get_inplace_scratch_len());
                f.process_with_scratch(y, s);
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
    /// As [`PlanCache::cached_real_plan`], for [`FftPlan::new_fast`] plans (a cache of its own).
    fn cached_fast_real_plan(n: usize) -> SkResult<Arc<FftPlan<Self>>>;
}

type Cache<T> = OnceLock<Mutex<BTreeMap<usize, Arc<FftPlan<T>>>>>;

/// The plan of `n` points in `cache`, made by `make` on a miss (outside the lock: planning is
/// slow); the cache is cleared when it holds 64 lengths.
fn cached<T: FftFloat>(
    cache: &Cache<T>,
    n: usize,
    make: fn(FftKind, usize) -> SkResult<FftPlan<T>>,
) -> SkResult<Arc<FftPlan<T>>> {
    let cache = cache.get_or_init(Default::default);
    if let Some(p) = cache.lock().unwrap_or_else(|e| e.into_inner()).get(&n) {
        return Ok(p.clone());
    }
    let plan = Arc::new(make(FftKind::Real, n)?);
    let mut c = cache.lock().unwrap_or_else(|e| e.into_inner());
    if c.len() >= 64 {
        c.clear();
    }
    Ok(c.entry(n).or_insert(plan).clone())
}

macro_rules! impl_cache {
    ($t:ty) => {
        impl PlanCache for $t {
            fn cached_real_plan(n: usize) -> SkResult<Arc<FftPlan<$t>>> {
                static CACHE: Cache<$t> = OnceLock::new();
                cached(&CACHE, n, FftPlan::new)
            }
            fn cached_fast_real_plan(n: usize) -> SkResult<Arc<FftPlan<$t>>> {
                static CACHE: Cache<$t> = OnceLock::new();
                cached(&CACHE, n, FftPlan::new_fast)
            }
        }
    };
}
impl_cache!(f32);
impl_cache!(f64);
