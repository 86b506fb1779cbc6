//! FFT plans: real forward (n reals → n/2+1 complex) and inverse, complex forward and inverse,
//! every n ≥ 1, f32 and f64, numpy's three normalisations.
//!
//! Laid out by part (docs/spectral.md explains the choices and the measurements behind them):
//!
//! - [`plan`]: [`FftPlan`], the planner that picks each length's algorithm ([`plan::use_crate`]),
//!   the entry points and their normalisation, and the process-wide [`PlanCache`].
//! - [`even_real`]: even real lengths as a complex transform of half the length plus the split
//!   step; [`own_real`]: numpy's real algorithm for the double lengths that are not powers of two.
//! - [`own_pow2`]: which own SIMD power-of-two transform (AVX-512, AVX2, SSE2; f32, f64) runs a
//!   half length at each SIMD level, and the length ranges where it does.
//! - [`split`]: the real transforms' split step (per-level dispatch; the scalar reference of its
//!   ends and pairs is [`split_pair`], the explicit SIMD steps are [`split_avx512`] and
//!   [`split_avx2`]).
//! - [`workspace`]: the per-thread [`Workspace`]; [`scratch`]: the placement of scratch away from
//!   the caller's buffers; [`float`]: the element types ([`FftFloat`], a leaf; their impls are in
//!   [`float_impls`]) and the complex/real slice views.
//! - The transforms themselves: [`mixed`] (accuracy-first mixed radix), [`pocket`] (pocketfft's
//!   Bluestein), [`real`] and [`rows`] (pocketfft's real passes, one row and SIMD lanes of rows),
//!   and the own power-of-two passes `pow2_*`.
//!
//! Scratch. A plan holds only immutable data (`Arc`s of the crates' precomputed twiddles), so one
//! plan may run concurrently on any number of threads. Each call takes its scratch from a
//! per-thread [`Workspace`] (borrowed in place from a thread-local slot for the duration of the
//! call; a nested call on the same thread simply allocates a fresh one), so repeated calls on a
//! thread do not allocate and threads never share scratch.

use super::Complex;

mod even_real;
mod float;
mod float_impls;
mod mixed;
mod own_pow2;
mod own_real;
mod plan;
mod pocket;
#[cfg(target_arch = "x86_64")]
mod pow2_avx2_f32;
#[cfg(target_arch = "x86_64")]
mod pow2_avx2_f64;
#[cfg(target_arch = "x86_64")]
mod pow2_avx512;
#[cfg(target_arch = "x86_64")]
mod pow2_avx512_f32;
#[cfg(target_arch = "x86_64")]
mod pow2_avx512_stages;
#[cfg(all(test, target_arch = "x86_64"))]
mod pow2_check;
#[cfg(target_arch = "x86_64")]
mod pow2_pair;
#[cfg(target_arch = "x86_64")]
mod pow2_shared;
#[cfg(target_arch = "x86_64")]
mod pow2_sse2_f32;
#[cfg(target_arch = "x86_64")]
mod pow2_sse2_f64;
mod real;
mod rows;
mod scratch;
mod split;
#[cfg(target_arch = "x86_64")]
mod split_avx2;
#[cfg(target_arch = "x86_64")]
mod split_avx512;
mod split_pair;
#[cfg(test)]
mod tests;
mod workspace;

pub(crate) use float::as_real;
pub use float::FftFloat;
pub(crate) use plan::MAX_FFT_LEN;
pub use plan::{FftKind, FftPlan, Norm, PlanCache};
pub(crate) use real::{passes_fit as real_passes_fit, RealPasses};
pub(crate) use rows::RowLanes;
pub use scratch::grow;
pub(crate) use workspace::Lanes;
pub use workspace::Workspace;
