//! Filters: streaming biquad cascades (second-order sections), FIR filters, and filter design.
//!
//! - [`coeffs`]: biquad sections and transfer functions, checked and normalised;
//! - [`arith`]: the element types and the plain / fused multiply-add arithmetic the recursive
//!   filters share;
//! - [`sos`]: the biquad cascade (transposed direct form II, scipy's `sosfilt` state), many
//!   channels in SIMD lanes at once;
//! - [`fir`]: streaming FIR filters, direct form for short filters and FFT overlap-save for long
//!   ones;
//! - [`lfilter`]: general IIR filters in transfer-function form `(b, a)` (scipy's `lfilter`),
//!   `lfilter_zi` and `sosfilt_zi`;
//! - [`filtfilt`]: zero-phase filtering (scipy's `filtfilt` and `sosfiltfilt`);
//! - [`design`]: RBJ cookbook biquads, Butterworth in second-order sections (scipy's `butter`
//!   and `zpk2sos`), windowed-sinc FIR (scipy's `firwin`).

pub mod arith;
pub mod coeffs;
mod cplx;
pub mod design;
pub mod filtfilt;
pub mod fir;
pub mod firwin;
mod iirproto;
pub(crate) mod lanes;
pub mod lfilter;
pub(crate) mod mono;
pub mod sos;
