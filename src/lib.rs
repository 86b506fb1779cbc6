//! sigkern: fast, safe buffer-processing kernels for audio and signal work, behind a plain C ABI.
//!
//! Layout:
//! - [`kernels`]: the safe core, generic kernels on slices;
//! - [`simd`]: runtime instruction-set detection and the multiversioning macro;
//! - [`error`]: the one error enum and its stable status codes;
//! - `ffi`: the only module with `extern "C"` functions and caller-supplied raw pointers.

pub mod error;
pub mod kernels;
pub mod simd;

pub mod ffi;

pub use error::{SkError, SkResult};
