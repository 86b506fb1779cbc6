//! Channel layout: interleave / deinterleave between interleaved frames and planar channels
//! (an array of channel pointers) or one channel-major block.
//!
//! `nchannels == 0` is `SK_ERR_BAD_ARGUMENT`; `nchannels · frames` overflowing is
//! `SK_ERR_LENGTH`. None of these work in place: an output sharing a byte with an input (or, for
//! `sk_deinterleave_*`, two output channels sharing a byte) is `SK_ERR_OVERLAP`.

use super::guard::indexed;
use super::guard::{alias, ffi_boundary, Buf};
use crate::error::{SkError, SkResult};
use crate::kernels::alloc::{try_collect, try_with_capacity};
use crate::kernels::layout::{
    deinterleave_at, deinterleave_block, interleave_at, interleave_block,
};
use crate::kernels::Float;
use crate::simd::current;

fn channel_count(nchannels: usize) -> SkResult<()> {
    if nchannels == 0 {
        return Err(SkError::BadArgument(
            "nchannels = 0: at least one channel is needed".into(),
        ));
    }
    Ok(())
}

fn total_len(nchannels: usize, frames: usize) -> SkResult<usize> {
    nchannels.checked_mul(frames).ok_or_else(|| {
        SkError::Length(format!(
            "nchannels = {nchannels} times frames = {frames} overflows size_t"
        ))
    })
}

/// Reads and validates the channel pointer array: each pointer is a buffer of `frames`
/// elements. Returns the pointers as buffers (the array itself is no longer referenced).
///
/// # Safety
/// `channels` readable for `nchannels` pointers.
unsafe fn channel_bufs<T>(
    channels: *const *const T,
    nchannels: usize,
    frames: usize,
) -> SkResult<Vec<Buf<T>>> {
    let arr = Buf::new("channels", channels, nchannels);
    arr.check()?;
    // SAFETY: validated; copied out at once.
    let ptrs = unsafe { arr.slice() }.iter();
    let bufs = try_collect(
        ptrs.map(|&p| Buf::new("channels", p, frames)),
        "the channel list",
    )?;
    for (c, b) in bufs.iter().enumerate() {
        b.check().map_err(|e| indexed(e, "channels", c))?;
    }
    Ok(bufs)
}

/// # Safety
/// As the exported functions.
unsafe fn interleave_ffi<T: Float>(
    channels: *const *const T,
    nchannels: usize,
    y: *mut T,
    frames: usize,
) -> SkResult<()> {
    channel_count(nchannels)?;
    let n = total_len(nchannels, frames)?;
    // SAFETY: the caller guarantees `channels` readable for `nchannels` pointers (this
    // function's contract); channel_bufs checks that array before reading it.
    let ins = unsafe { channel_bufs(channels, nchannels, frames)? };
    let y = Buf::out("y", y, n);
    y.check()?;
    for (c, b) in ins.iter().enumerate() {
        alias(b, &y, false).map_err(|e| indexed(e, "channels", c))?;
    }
    // SAFETY: every buffer validated; y disjoint from every input.
    let planes = try_collect(ins.iter().map(|b| unsafe { b.slice() }), "the channel list")?;
    // SAFETY: y passed Buf::check above and is disjoint from every input channel (alias).
    interleave_at(current(), &planes, unsafe { y.slice_mut() });
    Ok(())
}

/// # Safety
/// As the exported functions.
unsafe fn deinterleave_ffi<T: Float>(
    x: *const T,
    nchannels: usize,
    channels: *const *mut T,
    frames: usize,
) -> SkResult<()> {
    channel_count(nchannels)?;
    let n = total_len(nchannels, frames)?;
    let x = Buf::new("x", x, n);
    x.check()?;
    // SAFETY: the caller guarantees `channels` readable for `nchannels` pointers (this
    // function's contract); channel_bufs checks that array before reading it.
    let outs = unsafe { channel_bufs(channels as *const *const T, nchannels, frames)? };
    for (c, b) in outs.iter().enumerate() {
        alias(&x, b, false).map_err(|e| indexed(e, "channels", c))?;
    }
    // outputs must be pairwise disjoint: sort by address, compare neighbours
    let mut order = try_with_capacity(nchannels, "the channel list")?;
    order.extend((0..nchannels).filter(|&c| outs[c].len > 0));
    order.sort_by_key(|&c| outs[c].ptr as usize);
    for w in order.windows(2) {
        if outs[w[0]].overlaps(&outs[w[1]]) {
            return Err(SkError::Overlap(format!(
                "output channels[{}] ({:#x}) and channels[{}] ({:#x}) overlap ({} frames each)",
                w[0], outs[w[0]].ptr as usize, w[1], outs[w[1]].ptr as usize, frames
            )));
        }
    }
    let mut planes = try_with_capacity(nchannels, "the channel list")?;
    // SAFETY: every output passed Buf::check (channel_bufs), they are pairwise disjoint (the
    // sorted neighbour check above) and disjoint from x (alias), so the slices do not alias.
    planes.extend(outs.iter().map(|b| unsafe { b.slice_mut() }));
    // SAFETY: x passed Buf::check above and no output overlaps it.
    deinterleave_at(current(), unsafe { x.slice() }, &mut planes);
    Ok(())
}

/// # Safety
/// As the exported functions.
unsafe fn block_ffi<T: Float>(
    x: *const T,
    nchannels: usize,
    y: *mut T,
    frames: usize,
    to_block: bool,
) -> SkResult<()> {
    channel_count(nchannels)?;
    let n = total_len(nchannels, frames)?;
    let (xn, yn) = if to_block {
        ("x", "block")
    } else {
        ("block", "y")
    };
    let x = Buf::new(xn, x, n);
    let y = Buf::out(yn, y, n);
    x.check()?;
    y.check()?;
    alias(&x, &y, false)?;
    // SAFETY: validated, disjoint.
    let (xs, ys) = unsafe { (x.slice(), y.slice_mut()) };
    if to_block {
        deinterleave_block(current(), xs, nchannels, ys)?;
    } else {
        interleave_block(current(), xs, nchannels, ys)?;
    }
    Ok(())
}

/// Interleaves `nchannels` planar channels into frames: `y[f·nchannels + c] = channels[c][f]`
/// for `f < frames`.
///
/// Arguments: `channels` is an array of `nchannels` pointers (non-NULL; each channel pointer may
/// be NULL only when `frames == 0`, 4-byte aligned); `y` holds `nchannels·frames` floats.
/// Channels may overlap each other (even repeat); `y` sharing a byte with any channel is
/// `SK_ERR_OVERLAP`. 2, 4, 6 and 8 channels take a dedicated transposing kernel; any count works.
/// Returns `SK_OK`, `SK_ERR_BAD_ARGUMENT` (`nchannels == 0`), `SK_ERR_NULL_POINTER`,
/// `SK_ERR_MISALIGNED`, `SK_ERR_LENGTH`, `SK_ERR_OVERLAP`, `SK_ERR_ALLOCATION` (out of memory for
/// the list of channels); messages name the channel index, e.g.
/// `argument channels[1] is NULL but n = 480`. On error nothing is written. Thread-safe.
///
/// Real-time safe: no (allocates its list of the channel pointers).
///
/// # Safety
/// `channels` readable for `nchannels` pointers, each readable for `frames` floats; `y`
/// writable for `nchannels·frames` floats.
#[no_mangle]
pub unsafe extern "C" fn sk_interleave_f32(
    channels: *const *const f32,
    nchannels: usize,
    y: *mut f32,
    frames: usize,
) -> i32 {
    ffi_boundary!("sk_interleave_f32", {
        // SAFETY: the caller guarantees the pointer array and each channel readable for `frames`
        // and `y` writable (the Safety contract above); interleave_ffi checks all of them and every
        // overlap first.
        unsafe { interleave_ffi(channels, nchannels, y, frames) }
    })
}

/// Interleaves planar doubles. Rules as `sk_interleave_f32` (8-byte alignment).
///
/// Real-time safe: no (allocates its list of the channel pointers).
///
/// # Safety
/// As `sk_interleave_f32`.
#[no_mangle]
pub unsafe extern "C" fn sk_interleave_f64(
    channels: *const *const f64,
    nchannels: usize,
    y: *mut f64,
    frames: usize,
) -> i32 {
    ffi_boundary!("sk_interleave_f64", {
        // SAFETY: the caller guarantees the pointer array and each channel readable for `frames`
        // and `y` writable (the Safety contract above); interleave_ffi checks all of them and every
        // overlap first.
        unsafe { interleave_ffi(channels, nchannels, y, frames) }
    })
}

/// Splits interleaved frames into planar channels: `channels[c][f] = x[f·nchannels + c]`.
///
/// Arguments: `x` holds `nchannels·frames` floats; `channels` is an array of `nchannels`
/// writable channel pointers (each may be NULL only when `frames == 0`; 4-byte aligned).
/// Output channels must be pairwise disjoint and disjoint from `x`, else `SK_ERR_OVERLAP`.
/// Returns as `sk_interleave_f32`. On error nothing is written. Thread-safe.
///
/// Real-time safe: no (allocates its list of the channel pointers).
///
/// # Safety
/// `x` readable for `nchannels·frames` floats; `channels` readable for `nchannels` pointers,
/// each writable for `frames` floats.
#[no_mangle]
pub unsafe extern "C" fn sk_deinterleave_f32(
    x: *const f32,
    nchannels: usize,
    channels: *const *mut f32,
    frames: usize,
) -> i32 {
    ffi_boundary!("sk_deinterleave_f32", {
        // SAFETY: the caller guarantees `x` readable, the pointer array readable and each channel
        // writable for `frames` (the Safety contract above); deinterleave_ffi checks all of them
        // and every overlap first.
        unsafe { deinterleave_ffi(x, nchannels, channels, frames) }
    })
}

/// Splits interleaved doubles into planar channels. Rules as `sk_deinterleave_f32`.
///
/// Real-time safe: no (allocates its list of the channel pointers).
///
/// # Safety
/// As `sk_deinterleave_f32`.
#[no_mangle]
pub unsafe extern "C" fn sk_deinterleave_f64(
    x: *const f64,
    nchannels: usize,
    channels: *const *mut f64,
    frames: usize,
) -> i32 {
    ffi_boundary!("sk_deinterleave_f64", {
        // SAFETY: the caller guarantees `x` readable, the pointer array readable and each channel
        // writable for `frames` (the Safety contract above); deinterleave_ffi checks all of them
        // and every overlap first.
        unsafe { deinterleave_ffi(x, nchannels, channels, frames) }
    })
}

/// Interleaved frames → one channel-major block: `block[c·frames + f] = x[f·nchannels + c]`
/// (numpy: `x.reshape(frames, nchannels).T.copy()`).
///
/// Arguments: `x` and `block` each hold `nchannels·frames` floats, 4-byte aligned, may be NULL
/// only when that is 0; they must not share a byte (`SK_ERR_OVERLAP`).
/// Returns `SK_OK`, `SK_ERR_BAD_ARGUMENT` (`nchannels == 0`), `SK_ERR_NULL_POINTER`,
/// `SK_ERR_MISALIGNED`, `SK_ERR_LENGTH`, `SK_ERR_OVERLAP`, `SK_ERR_ALLOCATION` (out of memory
/// for the list of channels); on error nothing is written.
/// Thread-safe.
///
/// Real-time safe: yes.
///
/// # Safety
/// `x` readable and `block` writable for `nchannels·frames` floats.
#[no_mangle]
pub unsafe extern "C" fn sk_deinterleave_block_f32(
    x: *const f32,
    nchannels: usize,
    block: *mut f32,
    frames: usize,
) -> i32 {
    ffi_boundary!("sk_deinterleave_block_f32", {
        // SAFETY: the caller guarantees `x` readable and the output writable for `nchannels·frames`
        // elements (the Safety contract above); block_ffi checks the size, both Bufs and their
        // overlap first.
        unsafe { block_ffi(x, nchannels, block, frames, true) }
    })
}

/// Interleaved doubles → channel-major block. Rules as `sk_deinterleave_block_f32`.
///
/// Real-time safe: yes.
///
/// # Safety
/// As `sk_deinterleave_block_f32`.
#[no_mangle]
pub unsafe extern "C" fn sk_deinterleave_block_f64(
    x: *const f64,
    nchannels: usize,
    block: *mut f64,
    frames: usize,
) -> i32 {
    ffi_boundary!("sk_deinterleave_block_f64", {
        // SAFETY: the caller guarantees `x` readable and the output writable for `nchannels·frames`
        // elements (the Safety contract above); block_ffi checks the size, both Bufs and their
        // overlap first.
        unsafe { block_ffi(x, nchannels, block, frames, true) }
    })
}

/// Channel-major block → interleaved frames: `y[f·nchannels + c] = block[c·frames + f]`.
/// Rules as `sk_deinterleave_block_f32`.
///
/// Real-time safe: yes.
///
/// # Safety
/// `block` readable and `y` writable for `nchannels·frames` floats.
#[no_mangle]
pub unsafe extern "C" fn sk_interleave_block_f32(
    block: *const f32,
    nchannels: usize,
    y: *mut f32,
    frames: usize,
) -> i32 {
    ffi_boundary!("sk_interleave_block_f32", {
        // SAFETY: the caller guarantees `x` readable and the output writable for `nchannels·frames`
        // elements (the Safety contract above); block_ffi checks the size, both Bufs and their
        // overlap first.
        unsafe { block_ffi(block, nchannels, y, frames, false) }
    })
}

/// Channel-major block of doubles → interleaved frames. Rules as `sk_deinterleave_block_f32`.
///
/// Real-time safe: yes.
///
/// # Safety
/// `block` readable and `y` writable for `nchannels·frames` doubles.
#[no_mangle]
pub unsafe extern "C" fn sk_interleave_block_f64(
    block: *const f64,
    nchannels: usize,
    y: *mut f64,
    frames: usize,
) -> i32 {
    ffi_boundary!("sk_interleave_block_f64", {
        // SAFETY: the caller guarantees `x` readable and the output writable for `nchannels·frames`
        // elements (the Safety contract above); block_ffi checks the size, both Bufs and their
        // overlap first.
        unsafe { block_ffi(block, nchannels, y, frames, false) }
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::error::*;

    #[test]
    fn planar_rules() {
        let x = [1.0f32, 2.0, 3.0, 4.0, 5.0, 6.0];
        let mut l = [0.0f32; 3];
        let mut r = [0.0f32; 3];
        let chans = [l.as_mut_ptr(), r.as_mut_ptr()];
        // SAFETY: `x` holds 6 floats (2 channels × 3 frames) and `chans` two pointers to 3 writable
        // floats each.
        unsafe {
            assert_eq!(sk_deinterleave_f32(x.as_ptr(), 2, chans.as_ptr(), 3), SK_OK);
        }
        assert_eq!((l, r), ([1.0, 3.0, 5.0], [2.0, 4.0, 6.0]));
        let mut y = [0.0f32; 6];
        let ins = [l.as_ptr(), r.as_ptr()];
        // SAFETY: `ins` holds two pointers to 3 readable floats each and `y` 6 writable floats.
        unsafe {
            assert_eq!(sk_interleave_f32(ins.as_ptr(), 2, y.as_mut_ptr(), 3), SK_OK);
        }
        assert_eq!(y, x);
        // two outputs overlapping each other
        let mut buf = [9.0f32; 8];
        let p = buf.as_mut_ptr();
        // SAFETY: `p` points to `buf` of 8 floats, so `p + 2` stays inside it.
        let bad = [p, unsafe { p.add(2) }];
        // SAFETY: the channel pointers point into `buf` (8 floats) with room for 3 frames each; the
        // calls must refuse the overlap before writing.
        unsafe {
            assert_eq!(
                sk_deinterleave_f32(x.as_ptr(), 2, bad.as_ptr(), 3),
                SK_ERR_OVERLAP
            );
            assert_eq!(
                sk_deinterleave_f32(x.as_ptr(), 0, bad.as_ptr(), 3),
                SK_ERR_BAD_ARGUMENT
            );
            let nul = [p, std::ptr::null_mut()];
            assert_eq!(
                sk_deinterleave_f32(x.as_ptr(), 2, nul.as_ptr(), 3),
                SK_ERR_NULL_POINTER
            );
            assert_eq!(
                sk_deinterleave_block_f32(x.as_ptr(), usize::MAX, p, 2),
                SK_ERR_LENGTH
            );
        }
        assert_eq!(buf, [9.0; 8]);
    }
}
