//! The element types of the spectral C functions (FFT, STFT, mel), shared by their modules;
//! each module maps them to its own handle kinds.

use crate::kernels::spectral::fft::PlanCache;
use crate::kernels::spectral::logtail::LnFast;

/// `float` and `double`, with what the spectral kernels need of them.
pub(crate) trait SpecFloat: LnFast + PlanCache {}

impl SpecFloat for f32 {}
impl SpecFloat for f64 {}
