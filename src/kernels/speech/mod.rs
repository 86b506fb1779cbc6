//! Speech front ends: Kaldi's spectrogram / filterbank / MFCC features ([`kaldi`]), equal to
//! `torchaudio.compliance.kaldi`.

pub mod kaldi;
