//! Speech front ends: Kaldi's spectrogram / filterbank / MFCC features ([`kaldi`]), equal to
//! `torchaudio.compliance.kaldi`, offline and streaming ([`kaldi_online`]); librosa's deltas
//! ([`delta`]); cepstral mean and variance normalisation ([`cmvn`]), the sliding one also
//! streaming ([`cmvn_stream`]).

pub mod cmvn;
pub mod cmvn_stream;
pub mod delta;
pub mod kaldi;
pub mod kaldi_online;
