//! librosa's frame-wise features (`librosa.feature`): spectral descriptors (centroid,
//! bandwidth, roll-off, flatness, contrast, polynomial fit), zero-crossing rate and framed RMS,
//! from audio (through the STFT) or from a magnitude spectrogram, whole batches per call.

pub mod spectral;
