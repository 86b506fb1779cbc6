//! Signal analysis as `scipy.signal` does it: spectral estimation ([`spectral_est`]: welch,
//! csd, periodogram, spectrogram), the analytic signal ([`hilbert`]), peak finding ([`peaks`]),
//! smoothing/detrending ([`smooth`]: medfilt, the Savitzky-Golay filter, detrend) and frequency
//! responses of digital filters ([`freqz`]: freqz, freqz_sos, group_delay).

pub mod freqz;
pub mod hilbert;
pub mod peaks;
pub mod smooth;
pub mod spectral_est;
