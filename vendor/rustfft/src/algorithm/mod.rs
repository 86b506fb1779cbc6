mod bluesteins_algorithm;
mod dft;
mod good_thomas_algorithm;
mod mixed_radix;
mod raders_algorithm;
mod radix3;
mod radix4;
mod radixn;

/// Hardcoded size-specfic FFT algorithms
pub mod butterflies;

pub use self::bluesteins_algorithm::BluesteinsAlgorithm;
pub use self::dft::Dft;
pub use self::good_thomas_algorithm::{GoodThomasAlgorithm, GoodThomasAlgorithmSmall};
pub use self::mixed_radix::{MixedRadix, MixedRadixSmall};
pub use self::raders_algorithm::RadersAlgorithm;
pub use self::radix3::Radix3;
pub use self::radix4::Radix4;
pub(crate) use self::radixn::RadixN;
