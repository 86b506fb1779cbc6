//! Spectral kernels: FFT plans, windows, STFT/ISTFT, mel filterbanks and spectrograms, and
//! FFT convolution/correlation. Safe Rust on slices; the FFT is `rustfft` + `realfft` (runtime
//! AVX/SSE dispatch of their own) for powers of two and float plans, and sigkern's own
//! accuracy-first mixed-radix/Bluestein transform for double plans of other lengths.
//!
//! Complex data is `Complex<T>` (`#[repr(C)] { re, im }`), i.e. interleaved re/im in memory, the
//! layout of numpy `complex64`/`complex128` and torch complex tensors.

pub mod batch;
pub mod conv;
pub mod dct;
pub mod fft;
pub mod griffinlim;
pub mod logtail;
pub mod mel;
pub mod stft;
pub mod stretch_stream;
pub mod vocoder;
pub mod window;

pub use rustfft::num_complex::Complex;
