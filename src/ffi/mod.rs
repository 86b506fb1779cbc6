//! The C ABI. This is the only module with `extern "C"` functions, caller-supplied raw pointers
//! and the `unsafe` that turns them into slices. Every function follows the same steps:
//! validate every argument (see [`guard`]) → build slices → call the safe core → map the result;
//! every body runs inside [`guard::ffi_boundary!`].

pub mod guard;

pub mod augment;
pub mod chroma;
pub mod cmvn;
pub mod cmvn_stream;
pub mod conv;
pub mod dct;
pub mod delta;
pub mod design;
pub mod dynamics;
pub mod elementwise;
pub mod feature;
pub mod fft;
pub mod filter;
pub mod firwin;
pub mod freqz;
pub mod gain;
pub mod griffinlim;
pub mod handle;
pub mod kaldi;
pub mod kaldi_online;
pub mod layout;
pub mod lfilter;
pub mod loudness;
pub mod mel;
pub mod memory;
pub mod meta;
pub mod onset;
pub mod pcm;
pub mod pcm_dither;
pub mod peaks;
pub mod pitch;
pub mod reduce;
pub mod resample;
pub mod rows;
pub mod seed;
pub mod smooth;
pub mod spec;
pub mod spectral_est;
pub mod stft;
pub mod stretch_stream;
pub mod strided;
pub mod trim;
pub mod vocoder;
pub mod window;
pub mod yin_stream;
