//! Loudness metering (ITU-R BS.1770-4, EBU R 128, EBU Tech 3341/3342): K-weighting designed
//! for any sample rate, the true-peak oversampler and the streaming meter.

pub mod kweight;
pub mod meter;
pub mod truepeak;

pub use meter::{normalize_gain, standard_weights, Meter, Stats};
