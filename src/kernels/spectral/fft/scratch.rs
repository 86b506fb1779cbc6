//! Scratch: where in the per-thread [`super::Workspace`] a transform's scratch is placed
//! relative to the caller's buffers ([`scratch_offset`]).

use super::{Complex, FftFloat};
use rustfft::Fft;

/// Grows `v` to at least `n` elements (new elements zero) and returns its first `n`.
pub fn grow<T: Clone + Default>(v: &mut Vec<T>, n: usize) -> &mut [T] {
    if v.len() < n {
        v.resize(n, T::default());
    }
    &mut v[..n]
}

/// rustfft's immutable (out-of-place, input untouched) transforms stream through a scratch
/// buffer. When that buffer starts at the same offset within a 4 KiB page as the input or the
/// output, the power-of-two passes (rows a multiple of 4 KiB apart) make loads 4K-alias with
/// earlier stores and stall. So the scratch is placed at least 1 KiB away (mod 4 KiB) from
/// both; this needs [`ALIAS_PAD`] extra bytes of scratch.
pub(super) const PAGE: usize = 4096;
pub(super) const ALIAS_PAD: usize = PAGE;

/// Offset (in elements) into a scratch buffer at `base` at which the scratch should start so that
/// it lies 1–3 KiB (mod 4 KiB) away from both `x` and `y` (see [`PAGE`]), on a 64-byte boundary
/// where `base` allows it (an element-aligned `base`: `f32` pairs always, `f64` pairs when
/// `base` is 16-byte aligned, as the allocator returns it). The own AVX-512 passes stream every
/// vector through the scratch; unaligned, each 64-byte vector would span two cache lines.
pub(super) fn scratch_offset<C>(base: *const C, x: *const C, y: *const C) -> usize {
    let circ = |a: usize, b: usize| {
        let d = a.wrapping_sub(b) % PAGE;
        d.min(PAGE - d)
    };
    let (x, y) = (x as usize % PAGE, y as usize % PAGE);
    let target = [2048, 1024, 3072]
        .into_iter()
        .map(|o| (x + o) % PAGE)
        .max_by_key(|&t| circ(t, y))
        .unwrap_or(x);
    let target = target / CACHE_LINE * CACHE_LINE;
    (target.wrapping_sub(base as usize) % PAGE) / std::mem::size_of::<C>()
}

/// The alignment [`scratch_offset`] gives the scratch (an AVX-512 vector, a cache line).
pub(super) const CACHE_LINE: usize = 64;

/// Whether a transform of `m` points runs as rustfft's immutable transform (with the scratch
/// placed by [`scratch_offset`]) rather than a copy followed by an in-place transform: faster
/// up to 512 points and for powers of two; other lengths keep the copy.
pub(super) fn use_immutable(m: usize) -> bool {
    m <= 512 || m.is_power_of_two()
}

/// `need` elements of `scratch` placed by [`scratch_offset`] away from `x` and `y` (mod 4 KiB),
/// so that where the caller's buffers happen to lie cannot make the transform 4K-alias.
pub(super) fn placed_scratch<C: Clone + Default>(
    scratch: &mut Vec<C>,
    need: usize,
    x: *const C,
    y: *const C,
) -> &mut [C] {
    let buf = grow(scratch, need + ALIAS_PAD / std::mem::size_of::<C>());
    let k = scratch_offset(buf.as_ptr(), x, y);
    &mut buf[k..k + need]
}

/// rustfft's immutable transform of `x` into `y` with a scratch placed by [`scratch_offset`].
pub(super) fn process_immutable<T: FftFloat>(
    f: &dyn Fft<T>,
    x: &[Complex<T>],
    y: &mut [Complex<T>],
    scratch: &mut Vec<Complex<T>>,
) {
    let need = f.get_immutable_scratch_len();
    if need == 0 {
        // nothing to place (rustfft's butterflies)
        f.process_immutable_with_scratch(x, y, &mut []);
        return;
    }
    let buf = grow(
        scratch,
        need + ALIAS_PAD / std::mem::size_of::<Complex<T>>(),
    );
    let k = scratch_offset(buf.as_ptr(), x.as_ptr(), y.as_ptr());
    f.process_immutable_with_scratch(x, y, &mut buf[k..k + need]);
}
