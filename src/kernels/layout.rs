//! Channel layout: interleaved frames (`x[f·C + c]`) ↔ planar channels (one slice per channel)
//! and ↔ one channel-major block (`block[c·frames + f]`, what `x.reshape(-1, C).T.copy()` makes).
//!
//! Any channel count works. For 2, 4, 6 and 8 channels a transposing kernel with the channel
//! count as a constant moves tiles of [`TILE`] frames through fixed-size arrays (no bounds
//! checks; the compiler turns the inner transpose into shuffles); other counts use one strided
//! pass per channel. The scalar reference is the plain index loop.

use super::alloc::try_collect;
use super::Float;
use crate::error::SkResult;
use crate::simd::{multiversion, Level};

/// Where sample `t` of channel `c` lives in a buffer: index `c·ch + t·t`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Layout {
    /// Distance between consecutive channels, in elements.
    pub ch: usize,
    /// Distance between consecutive frames, in elements.
    pub t: usize,
}

impl Layout {
    /// Channel-major blocks: channel `c` starts at `c·stride`, its samples contiguous.
    pub fn planar(stride: usize) -> Self {
        Layout { ch: stride, t: 1 }
    }
    /// Frame-major: frame `t` holds `channels` consecutive samples.
    pub fn interleaved(channels: usize) -> Self {
        Layout { ch: 1, t: channels }
    }
    /// Number of elements a buffer must have for `channels × n` samples (0 when either is 0).
    pub fn extent(&self, channels: usize, n: usize) -> Option<usize> {
        if channels == 0 || n == 0 {
            return Some(0);
        }
        (channels - 1)
            .checked_mul(self.ch)?
            .checked_add((n - 1).checked_mul(self.t)?)?
            .checked_add(1)
    }
}

/// Frames per tile of the fixed-channel-count kernels.
const TILE: usize = 64;

fn check_planar<T, S: AsRef<[T]>>(interleaved: usize, planes: &[S]) -> usize {
    assert!(!planes.is_empty(), "zero channels");
    let frames = planes[0].as_ref().len();
    assert!(
        planes.iter().all(|p| p.as_ref().len() == frames),
        "channel lengths differ"
    );
    assert_eq!(
        Some(interleaved),
        frames.checked_mul(planes.len()),
        "interleaved length is not frames × channels"
    );
    frames
}

#[inline(always)]
fn deint_tile<T: Float, const C: usize>(t: &[[T; C]; TILE], out: &mut [&mut [T]], k: usize) {
    let mut tile = [[T::ZERO; TILE]; C];
    for i in 0..TILE {
        for c in 0..C {
            tile[c][i] = t[i][c];
        }
    }
    for c in 0..C {
        out[c][k * TILE..(k + 1) * TILE].copy_from_slice(&tile[c]);
    }
}

#[inline(always)]
fn deint_fixed<T: Float, const C: usize>(x: &[T], out: &mut [&mut [T]]) {
    let frames = out[0].len();
    let (fr, _) = x.as_chunks::<C>();
    let (tiles, tail) = fr.as_chunks::<TILE>();
    // Two halves visited in lockstep: two independent memory streams keep more cache misses in
    // flight than one (the kernel is bandwidth-bound).
    let half = tiles.len() / 2;
    for k in 0..half {
        deint_tile(&tiles[k], out, k);
        deint_tile(&tiles[half + k], out, half + k);
    }
    for (k, t) in tiles.iter().enumerate().skip(2 * half) {
        deint_tile(t, out, k);
    }
    let done = tiles.len() * TILE;
    for (i, f) in tail.iter().enumerate() {
        for c in 0..C {
            out[c][done + i] = f[c];
        }
    }
    debug_assert_eq!(done + tail.len(), frames);
}

#[inline(always)]
fn int_fixed<T: Float, const C: usize>(planes: &[&[T]], y: &mut [T]) {
    let (fr, _) = y.as_chunks_mut::<C>();
    let (tiles, tail) = fr.as_chunks_mut::<TILE>();
    let mut tile = [[T::ZERO; TILE]; C];
    let ntiles = tiles.len();
    for (k, t) in tiles.iter_mut().enumerate() {
        for c in 0..C {
            tile[c].copy_from_slice(&planes[c][k * TILE..(k + 1) * TILE]);
        }
        for i in 0..TILE {
            for c in 0..C {
                t[i][c] = tile[c][i];
            }
        }
    }
    let done = ntiles * TILE;
    for (i, f) in tail.iter_mut().enumerate() {
        for c in 0..C {
            f[c] = planes[c][done + i];
        }
    }
}

#[inline(always)]
fn deinterleave_lanes<T: Float>(x: &[T], out: &mut [&mut [T]]) {
    if check_planar(x.len(), out) == 0 {
        return;
    }
    let ch = out.len();
    match ch {
        2 => deint_fixed::<T, 2>(x, out),
        4 => deint_fixed::<T, 4>(x, out),
        6 => deint_fixed::<T, 6>(x, out),
        8 => deint_fixed::<T, 8>(x, out),
        1 => out[0].copy_from_slice(x),
        _ => {
            for (c, o) in out.iter_mut().enumerate() {
                for (o, &v) in o.iter_mut().zip(x[c..].iter().step_by(ch)) {
                    *o = v;
                }
            }
        }
    }
}

fn deinterleave_scalar<T: Float>(x: &[T], out: &mut [&mut [T]]) {
    let frames = check_planar(x.len(), out);
    let ch = out.len();
    for f in 0..frames {
        for c in 0..ch {
            out[c][f] = x[f * ch + c];
        }
    }
}

#[inline(always)]
fn interleave_lanes<T: Float>(planes: &[&[T]], y: &mut [T]) {
    if check_planar(y.len(), planes) == 0 {
        return;
    }
    let ch = planes.len();
    match ch {
        2 => int_fixed::<T, 2>(planes, y),
        4 => int_fixed::<T, 4>(planes, y),
        6 => int_fixed::<T, 6>(planes, y),
        8 => int_fixed::<T, 8>(planes, y),
        1 => y.copy_from_slice(planes[0]),
        _ => {
            for (c, p) in planes.iter().enumerate() {
                for (o, &v) in y[c..].iter_mut().step_by(ch).zip(p.iter()) {
                    *o = v;
                }
            }
        }
    }
}

fn interleave_scalar<T: Float>(planes: &[&[T]], y: &mut [T]) {
    let frames = check_planar(y.len(), planes);
    let ch = planes.len();
    for f in 0..frames {
        for c in 0..ch {
            y[f * ch + c] = planes[c][f];
        }
    }
}

multiversion! {
    /// Interleaved `x` (frames × channels) → one slice per channel (`out.len()` channels, each
    /// `frames` long).
    pub fn deinterleave_at<T: Float>(x: &[T], out: &mut [&mut [T]]) -> ();
    scalar = deinterleave_scalar; simd = deinterleave_lanes;
}
multiversion! {
    /// One slice per channel → interleaved `y` (frames × channels).
    pub fn interleave_at<T: Float>(planes: &[&[T]], y: &mut [T]) -> ();
    scalar = interleave_scalar; simd = interleave_lanes;
}

/// Interleaved `x` → channel-major `block` (`block[c·frames + f] = x[f·channels + c]`).
pub fn deinterleave_block<T: Float>(
    level: Level,
    x: &[T],
    channels: usize,
    block: &mut [T],
) -> SkResult<()> {
    assert!(channels > 0, "zero channels");
    assert_eq!(x.len(), block.len(), "block length differs");
    let frames = x.len() / channels;
    if frames == 0 {
        return Ok(());
    }
    let mut planes = try_collect(block.chunks_exact_mut(frames), "the channel list")?;
    deinterleave_at(level, x, &mut planes);
    Ok(())
}

/// Channel-major `block` → interleaved `y`.
pub fn interleave_block<T: Float>(
    level: Level,
    block: &[T],
    channels: usize,
    y: &mut [T],
) -> SkResult<()> {
    assert!(channels > 0, "zero channels");
    assert_eq!(y.len(), block.len(), "block length differs");
    let frames = y.len() / channels;
    if frames == 0 {
        return Ok(());
    }
    let planes = try_collect(block.chunks_exact(frames), "the channel list")?;
    interleave_at(level, &planes, y);
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::kernels::testutil::Rng;
    use crate::simd::available;

    #[test]
    fn round_trips_and_reference_for_every_count_and_level() {
        let mut rng = Rng::new(31);
        for ch in 1..=9usize {
            for frames in [0usize, 1, 2, 63, 64, 65, 129, 1000] {
                let x = rng.vec_f64(frames * ch, 1.0);
                let want: Vec<Vec<f64>> = (0..ch)
                    .map(|c| (0..frames).map(|f| x[f * ch + c]).collect())
                    .collect();
                for level in available() {
                    let mut store = vec![vec![f64::NAN; frames]; ch];
                    let mut planes: Vec<&mut [f64]> =
                        store.iter_mut().map(|v| v.as_mut_slice()).collect();
                    deinterleave_at(level, &x, &mut planes);
                    assert_eq!(store, want, "ch={ch} frames={frames} {level:?}");
                    let refs: Vec<&[f64]> = store.iter().map(|v| v.as_slice()).collect();
                    let mut y = vec![f64::NAN; frames * ch];
                    interleave_at(level, &refs, &mut y);
                    assert_eq!(y, x, "ch={ch} frames={frames} {level:?}");

                    let mut block = vec![0.0; x.len()];
                    deinterleave_block(level, &x, ch, &mut block).unwrap();
                    assert_eq!(block, want.concat());
                    let mut z = vec![0.0; x.len()];
                    interleave_block(level, &block, ch, &mut z).unwrap();
                    assert_eq!(z, x);
                }
            }
        }
    }

    #[test]
    #[should_panic(expected = "interleaved length")]
    fn length_mismatch_is_internal_error() {
        let x = [0.0f32; 5];
        let mut a = [0.0f32; 2];
        let mut b = [0.0f32; 2];
        deinterleave_at(Level::Scalar, &x, &mut [&mut a[..], &mut b[..]]);
    }
}
