//! Signal analysis as `scipy.signal` does it: spectral estimation ([`spectral_est`]: welch,
//! csd, periodogram, spectrogram), the analytic signal ([`hilbert`]), peak finding ([`peaks`])
//! and smoothing/detrending ([`smooth`]: medfilt, the Savitzky-Golay filter, detrend).

pub mod hilbert;
pub mod peaks;
pub mod smooth;
pub mod spectral_est;
