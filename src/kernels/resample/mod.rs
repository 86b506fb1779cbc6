//! Sample-rate conversion.
//!
//! - [`design`]: the Kaiser-windowed sinc kernel, quality presets and custom specs;
//! - [`dot`]: the SIMD inner loop (four dot products of a phase with an input window);
//! - [`poly`]: scipy's `upfirdn` and `resample_poly`;
//! - [`stream`]: the streaming resampler (exact rational phases or interpolated phases,
//!   ratio ramps, flush, latency) and the one-shot conversion built on it.

pub mod design;
pub mod dot;
pub mod poly;
pub mod pre;
pub mod stream;

#[cfg(test)]
mod tests;
