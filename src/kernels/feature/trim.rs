//! Silence detection as `librosa.effects.trim` / `librosa.effects.split` compute it: the framed
//! RMS of `librosa.feature.rms(y=y, frame_length, hop_length)` (centred, zero padding, in
//! `float32` as librosa's default `dtype`), its dB value against a reference
//! (`librosa.amplitude_to_db(rms, ref=ref, top_db=None)`), aggregated over the channels and
//! compared with `-top_db`.
//!
//! The arithmetic follows numpy's on librosa's `float32` arrays step by step (the samples cast
//! to `float32`, squared, each frame summed in `float32` by numpy's pairwise summation, the mean
//! divided in double and rounded, `log10` in `float32`), so the frame decisions are librosa's.

use crate::error::{SkError, SkResult};
use crate::kernels::alloc::try_vec;
use crate::kernels::par::par_rows_with;
use crate::kernels::Float;

use super::spectral::Framing;

/// How the dB reference is chosen (librosa's `ref`).
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum RefMode {
    /// `ref=np.max`: the largest RMS of the whole batch (NaN if any RMS is NaN).
    Max,
    /// A `float32` reference value (a callable `ref` returning a `float32` scalar).
    ValueF32(f32),
    /// A double reference value (a number `ref`; librosa takes its absolute value).
    ValueF64(f64),
}

/// How the per-channel dB values of a frame are combined (librosa's `aggregate`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Aggregate {
    /// `np.max` (NaN propagates).
    Max,
    /// `np.min` (NaN propagates).
    Min,
}

/// The framed RMS of every row of `x` (`batch × n`) into `out` (`batch × frames`), centred
/// with zeros, as `librosa.feature.rms(y=x)` computes it in `float32`: each frame's samples cast
/// to `float32`, squared and summed in `float32` pairwise as numpy, divided by `frame_length` in
/// double and rounded, square-rooted in `float32`. NaN and infinities propagate.
pub fn silence_rms<T: Float>(x: &[T], batch: usize, fr: &Framing, out: &mut [f32]) -> SkResult<()> {
    let n = x.len().checked_div(batch).unwrap_or(0);
    let frames = fr.frames(n)?;
    assert_eq!(out.len(), batch * frames, "rms output length");
    let fl = fr.frame_length;
    let pad = if fr.center { fl / 2 } else { 0 };
    par_rows_with(
        out,
        1,
        (batch * frames).saturating_mul(fl),
        || try_vec(fl, 0.0f32, "a frame"),
        |sq, first, chunk| {
            for (i, o) in chunk.iter_mut().enumerate() {
                let g = first + i;
                let (b, t) = (g / frames, g % frames);
                let row = &x[b * n..(b + 1) * n];
                // the frame covers padded samples [t·hop, t·hop + fl), i.e. signal samples
                // [t·hop − pad, t·hop − pad + fl); the padding contributes zeros in place
                let start = (t * fr.hop) as isize - pad as isize;
                for (k, q) in sq.iter_mut().enumerate() {
                    let j = start + k as isize;
                    *q = if (0..n as isize).contains(&j) {
                        let f = row[j as usize].to_f64() as f32;
                        f * f
                    } else {
                        0.0
                    };
                }
                let mean = (f64::from(pairwise_sum_f32(sq)) / fl as f64) as f32;
                *o = mean.sqrt();
            }
        },
    )
}

/// numpy's pairwise summation of a contiguous `float32` run (`np.add.reduce`: eight
/// accumulators per block of at most 128, halves above that), operation for operation.
fn pairwise_sum_f32(a: &[f32]) -> f32 {
    let n = a.len();
    if n < 8 {
        let mut s = -0.0f32;
        for &v in a {
            s += v;
        }
        s
    } else if n <= 128 {
        let mut r = [0.0f32; 8];
        r.copy_from_slice(&a[..8]);
        let mut i = 8;
        while i < n - n % 8 {
            for k in 0..8 {
                r[k] += a[i + k];
            }
            i += 8;
        }
        let mut res = ((r[0] + r[1]) + (r[2] + r[3])) + ((r[4] + r[5]) + (r[6] + r[7]));
        while i < n {
            res += a[i];
            i += 1;
        }
        res
    } else {
        let mut n2 = n / 2;
        n2 -= n2 % 8;
        pairwise_sum_f32(&a[..n2]) + pairwise_sum_f32(&a[n2..])
    }
}

/// `np.max` / `np.min` of `a` and `b` with NaN propagating.
fn agg(mode: Aggregate, a: f32, b: f32) -> f32 {
    if a.is_nan() || b.is_nan() {
        return f32::NAN;
    }
    match mode {
        Aggregate::Max => a.max(b),
        Aggregate::Min => a.min(b),
    }
}

/// librosa's `amin ** 2` of `amplitude_to_db` (`1e-5 ** 2` in double), as numpy casts it
/// next to a `float32` array.
const AMIN_SQ: f64 = 1e-5 * 1e-5;

/// From the framed RMS `rms` (`batch × frames`, `float32`, as [`silence_rms`]):
/// `librosa.amplitude_to_db(rms, ref=ref, top_db=None)` per channel into `db` (when given,
/// `batch × frames`), aggregated over the channels and compared `> -top_db` into `flags`
/// (when given, `frames` values of 0 or 1). NaN dB values are silent frames (`NaN > x` is
/// false), as in librosa.
pub fn silence_flags(
    rms: &[f32],
    batch: usize,
    top_db: f64,
    reference: RefMode,
    aggregate: Aggregate,
    db: Option<&mut [f32]>,
    flags: Option<&mut [u8]>,
) -> SkResult<()> {
    if top_db.is_nan() {
        return Err(SkError::BadArgument("top_db is NaN".into()));
    }
    if batch == 0 {
        return Err(SkError::Length("batch = 0: no channel to measure".into()));
    }
    let frames = rms.len() / batch;
    let amin = AMIN_SQ as f32;
    let db_of = |m: f32| 10.0f32 * (m * m).max(amin).log10();
    // the reference term, subtracted in float32 (a float32 reference) or in double
    let sub: Box<dyn Fn(f32) -> f32> = match reference {
        RefMode::Max | RefMode::ValueF32(_) => {
            let r = match reference {
                RefMode::ValueF32(v) => v.abs(),
                _ => rms.iter().fold(f32::NEG_INFINITY, |a, &v| {
                    if a.is_nan() || v.is_nan() {
                        f32::NAN
                    } else {
                        a.max(v.abs())
                    }
                }),
            };
            let rr = r * r;
            let term = 10.0f32 * (if rr.is_nan() { rr } else { rr.max(amin) }).log10();
            Box::new(move |d| d - term)
        }
        RefMode::ValueF64(v) => {
            let r = v.abs();
            let rr = r * r;
            let term = 10.0 * (if rr.is_nan() { rr } else { rr.max(AMIN_SQ) }).log10();
            Box::new(move |d| (f64::from(d) - term) as f32)
        }
    };
    // numpy's maximum propagates NaN: db_of(NaN) stays NaN (f32::max would drop it)
    let level = |m: f32| if m.is_nan() { f32::NAN } else { sub(db_of(m)) };
    let thr = (-top_db) as f32;
    let mut db = db;
    let mut flags = flags;
    for t in 0..frames {
        let mut a = f32::NAN;
        for b in 0..batch {
            let d = level(rms[b * frames + t]);
            if let Some(o) = db.as_deref_mut() {
                o[b * frames + t] = d;
            }
            a = if b == 0 { d } else { agg(aggregate, a, d) };
        }
        if let Some(f) = flags.as_deref_mut() {
            f[t] = u8::from(a > thr);
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn framing(fl: usize, hop: usize) -> Framing {
        Framing {
            frame_length: fl,
            hop,
            center: true,
        }
    }

    #[test]
    fn rms_of_a_constant_counts_the_zero_padding() {
        let x = vec![2.0f64; 8];
        let fr = framing(4, 2);
        let mut out = vec![0.0f32; fr.frames(8).unwrap()];
        silence_rms(&x, 1, &fr, &mut out).unwrap();
        // frame 0 covers two pad zeros and two samples: sqrt(8 / 4)
        assert_eq!(out[0], 2.0f32.sqrt());
        assert_eq!(out[2], 2.0);
        assert_eq!(out.len(), 5);
    }

    #[test]
    fn flags_against_the_maximum() {
        let rms = [1.0f32, 0.01, 0.0001, f32::NAN];
        let mut db = [0.0f32; 4];
        let mut flags = [9u8; 4];
        silence_flags(
            &rms[..3],
            1,
            60.0,
            RefMode::Max,
            Aggregate::Max,
            Some(&mut db[..3]),
            Some(&mut flags[..3]),
        )
        .unwrap();
        assert_eq!(flags[..3], [1, 1, 0]);
        assert!((db[1] + 40.0).abs() < 1e-4);
        // a NaN anywhere makes the reference NaN: every frame silent
        silence_flags(
            &rms,
            1,
            60.0,
            RefMode::Max,
            Aggregate::Max,
            None,
            Some(&mut flags),
        )
        .unwrap();
        assert_eq!(flags, [0, 0, 0, 0]);
        // a fixed reference
        silence_flags(
            &rms,
            1,
            30.0,
            RefMode::ValueF64(-1.0),
            Aggregate::Max,
            None,
            Some(&mut flags),
        )
        .unwrap();
        assert_eq!(flags, [1, 0, 0, 0]);
    }

    #[test]
    fn channels_aggregate() {
        // two channels, two frames
        let rms = [1.0f32, 1e-4, 1e-4, 1.0];
        let mut flags = [0u8; 2];
        silence_flags(
            &rms,
            2,
            60.0,
            RefMode::Max,
            Aggregate::Max,
            None,
            Some(&mut flags),
        )
        .unwrap();
        assert_eq!(flags, [1, 1]);
        silence_flags(
            &rms,
            2,
            60.0,
            RefMode::Max,
            Aggregate::Min,
            None,
            Some(&mut flags),
        )
        .unwrap();
        assert_eq!(flags, [0, 0]);
        assert!(
            silence_flags(&rms, 2, f64::NAN, RefMode::Max, Aggregate::Min, None, None).is_err()
        );
    }
}
