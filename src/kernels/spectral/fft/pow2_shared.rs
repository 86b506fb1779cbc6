//! What the own power-of-two passes share across element types and SIMD levels: which buffer
//! each pass writes ([`writes_dst`], [`stage_dst`], [`destroying_dst`]), when the AVX-512 passes
//! run through the scratch for a misaligned output ([`use_aligned_passes`]), and the AVX-512
//! plans' methods that are the same for f32 and f64, written once over the element type
//! (`real_codelet_methods!`, `destroying_method!`, `windowed_methods!`).

/// Complex lengths from which an out-of-place transform into an output off a 64-byte boundary
/// runs its passes through two scratch halves (see [`use_aligned_passes`]).
pub(super) const ALIGNED_PASSES_MIN: usize = 4096;

/// The scratch of a multi-pass plan of `n` complex values: `n`, or `2n` from
/// [`ALIGNED_PASSES_MIN`] on (room for [`use_aligned_passes`]).
pub(super) fn aligned_passes_scratch(n: usize) -> usize {
    if n >= ALIGNED_PASSES_MIN {
        2 * n
    } else {
        n
    }
}

/// Whether an out-of-place transform of `n` complex values into `dst` runs every stage but the
/// last in two halves of the scratch (which the caller places on a cache line) instead of
/// ping-ponging through `dst`: when `dst` is off a 64-byte boundary, every vector of a pass
/// through it spans two cache lines. From [`ALIGNED_PASSES_MIN`] on, where the passes stream
/// from L2 and beyond; below, the third buffer costs more cache than the alignment saves.
pub(super) fn use_aligned_passes(n: usize, dst: usize, inplace: bool) -> bool {
    !inplace && n >= ALIGNED_PASSES_MIN && !dst.is_multiple_of(64)
}

/// The buffer stage `idx` of a `count`-stage plan writes: `dst` or `tmp` as [`writes_dst`] says,
/// or with `two` ([`use_aligned_passes`]) the scratch's halves `tmp` and `tmp + half` (`half`
/// elements of `T`: n complex values) for every stage but the last, which writes `dst`.
/// Shared by the AVX-512 passes ([`super::pow2_avx512`], [`super::pow2_avx512_f32`]).
pub(super) fn stage_dst<T>(
    idx: usize,
    count: usize,
    inplace: bool,
    two: bool,
    dst: *mut T,
    tmp: *mut T,
    half: usize,
) -> *mut T {
    if two {
        if idx + 1 == count {
            dst
        } else if idx.is_multiple_of(2) {
            tmp
        } else {
            // in the scratch when `two` can hold (`scratch_len()` is 2n then)
            tmp.wrapping_add(half)
        }
    } else if writes_dst(idx, count, inplace) {
        dst
    } else {
        tmp
    }
}

/// The buffer stage `idx` of a `count`-stage `process_destroying` writes: `dst` for the last
/// stage, else the scratch `tmp` and the source `src` in turn (stage 0 reads `src`, so it writes
/// `tmp`).
pub(super) fn destroying_dst<T>(
    idx: usize,
    count: usize,
    src: *mut T,
    dst: *mut T,
    tmp: *mut T,
) -> *mut T {
    if idx + 1 == count {
        dst
    } else if idx.is_multiple_of(2) {
        tmp
    } else {
        src
    }
}

/// Whether stage `idx` of a `count`-stage plan writes the destination (else the scratch), so that
/// the last stage writes the destination. Out of place the stages alternate. In place with an
/// odd count, the first `count − 1` stages ping-pong back into the destination and the last
/// stage (unit twiddles or fused: every q-vector read before it is written) runs there in place.
/// Shared by the AVX-512, AVX2 float and two-lane passes.
pub(super) fn writes_dst(idx: usize, count: usize, inplace: bool) -> bool {
    let pingpong = if inplace && count % 2 == 1 {
        count - 1
    } else {
        count
    };
    idx >= pingpong || (pingpong - 1 - idx).is_multiple_of(2)
}

/// `with_split`, `real_forward`, `split_forward` and `real_inverse` of an AVX-512 plan type with
/// elements `$e` ([`super::pow2_avx512`]'s double plans and [`super::pow2_avx512_f32`]'s float ones share
/// them): fields `n`, `tw` (the plan's table), `split: Vec<$row>` (the forward split step's
/// twiddles in rows of `$width` elements ([`super::split_avx512::split_table_rows`]), the layout
/// `$split_entry` and the forward codelet read, empty until `with_split`),
/// `real_fwd: Option<unsafe fn(x, y, table, split twiddles)>` and
/// `real_inv: Option<unsafe fn(x, y, table, split twiddles, scale)>`, each set by `new` only for
/// the lengths and direction whose fused codelet it is.
macro_rules! real_codelet_methods {
    ($e:ty, $row:ident, $width:expr, $split_entry:path) => {
        /// This plan as the half-length transform of a real forward FFT of `2n` points whose
        /// split step takes the twiddles `v` (`v[k]` = `−i·e^{−πik/n}/2`, at least `k < n/2`):
        /// keeps them for `real_forward` and `split_forward`, spread (twice the bytes of
        /// `v[..n/2]`) up to [`super::split_avx512::SPREAD_MAX`] points, as they are above.
        pub fn with_split(mut self, v: &[Complex<$e>]) -> Self {
            assert!(v.len() >= self.n / 2, "split twiddles too short");
            self.split = super::split_avx512::split_table_rows::<_, $width>(&v[..self.n / 2])
                .into_iter()
                .map($row)
                .collect();
            self
        }

        /// The real forward transform of `2n` points whose even/odd pairs are `x` (n complex
        /// values) into `y` (n + 1 bins) in one codelet, for a forward plan with a fused
        /// codelet and the split twiddles of `with_split`: the transform's stores are read
        /// straight back by the split step, with no call, scratch or workspace between them.
        /// Returns `false`, writing nothing, for every other plan. Bit for bit this plan's
        /// transform followed by the split step ([`super::split::split_fwd_body`]).
        pub fn real_forward(&self, x: &[Complex<$e>], y: &mut [Complex<$e>]) -> bool {
            let Some(f) = self.real_fwd else {
                return false;
            };
            if self.split.is_empty() {
                return false;
            }
            assert_eq!(x.len(), self.n, "input length must equal the FFT length");
            assert_eq!(
                y.len(),
                self.n + 1,
                "output length must be the FFT length + 1"
            );
            // SAFETY: `new` checked the CPU features and chose `f` for exactly this `n`: it
            // reads n complex values at `x`, the table this plan built and the split twiddles
            // `with_split` built for this `n`, and writes n + 1 complex values at `y` (asserted
            // above); `x` is a shared borrow, so it is disjoint from the exclusive `y`.
            unsafe {
                f(
                    x.as_ptr() as *const $e,
                    y.as_mut_ptr() as *mut $e,
                    self.tw.as_ptr() as *const $e,
                    self.split.as_ptr() as *const $e,
                )
            };
            true
        }

        /// The real forward FFT's split step on this plan's transform `z` (`None`: in place in
        /// `y[..n]`), writing the `n + 1` bins to `y`, with the twiddles of `with_split`.
        /// Returns `false`, writing nothing, for a plan without them. Bit for bit the split
        /// step of [`super::split::split_fwd_body`].
        pub fn split_forward(&self, z: Option<&[Complex<$e>]>, y: &mut [Complex<$e>]) -> bool {
            if self.split.is_empty() {
                return false;
            }
            assert_eq!(
                y.len(),
                self.n + 1,
                "output length must be the FFT length + 1"
            );
            let yp = y.as_mut_ptr() as *mut $e;
            let zp = match z {
                Some(z) => {
                    assert_eq!(z.len(), self.n, "input length must equal the FFT length");
                    z.as_ptr() as *const $e
                }
                None => yp as *const $e,
            };
            // SAFETY: `z` holds n complex values and `y` n + 1 (asserted); a given `z` is a
            // shared borrow, so disjoint from the exclusive `y`, else the step runs in place.
            // The table is the one `with_split` built for this `n` in the entry's layout; every
            // plan length is a power of two the aligned step takes, and `new` checked the CPU
            // features (AVX-512 F/DQ among them).
            unsafe { $split_entry(zp, yp, self.n, self.split.as_ptr() as *const $e) };
            true
        }

        /// The unnormalised real inverse transform of the `n + 1` bins `x` of a `2n`-point
        /// signal into `y` (its n even/odd pairs) in one codelet, for an inverse plan with a
        /// fused codelet: the inverse split step (`tw[k]` = `e^{−πik/n}`, k ≤ n/2) stores the
        /// vectors the codelet then reads, and every value is multiplied by `scale` as it is
        /// stored (none for 1). Returns `false`, writing nothing, for every other plan. Bit for
        /// bit the split step, this plan's transform and the scaling one after another.
        pub fn real_inverse(
            &self,
            x: &[Complex<$e>],
            y: &mut [Complex<$e>],
            tw: &[Complex<$e>],
            scale: $e,
        ) -> bool {
            let Some(f) = self.real_inv else {
                return false;
            };
            assert_eq!(
                x.len(),
                self.n + 1,
                "input length must be the FFT length + 1"
            );
            assert_eq!(y.len(), self.n, "output length must equal the FFT length");
            assert!(tw.len() >= self.n / 2, "split twiddles too short");
            // SAFETY: as in `real_forward`: `f` was chosen for exactly this `n`, reads n + 1
            // complex values at `x`, `tw[..n/2]` and this plan's table, and writes n at `y`
            // (asserted above); `x` is shared, so disjoint from the exclusive `y`.
            unsafe {
                f(
                    x.as_ptr() as *const $e,
                    y.as_mut_ptr() as *mut $e,
                    self.tw.as_ptr() as *const $e,
                    tw.as_ptr() as *const $e,
                    scale,
                )
            };
            true
        }
    };
}
pub(super) use real_codelet_methods;

/// `process_destroying` of an AVX-512 plan type with elements `$e` (shared by
/// [`super::pow2_avx512`] and [`super::pow2_avx512_f32`]): fields `n`, `stages` (a single-codelet plan has that one stage)
/// and `tw` (rows of `$row` elements).
macro_rules! destroying_method {
    ($e:ty, $row:expr) => {
        /// Transform of `src` into `dst` that may overwrite `src`: every pass but the last
        /// alternates between the scratch and `src`, and only the last writes `dst`, so an
        /// output off a 64-byte boundary takes one pass of split stores instead of every pass
        /// (`src` and the scratch placed on a line by the caller). Bit for bit
        /// `process_outofplace`.
        pub fn process_destroying(
            &self,
            src: &mut [Complex<$e>],
            dst: &mut [Complex<$e>],
            scratch: &mut [Complex<$e>],
        ) {
            assert_eq!(src.len(), self.n, "input length must equal the FFT length");
            assert_eq!(dst.len(), self.n, "output length must equal the FFT length");
            let count = self.stages.len();
            assert!(scratch.len() >= self.n || count == 1, "scratch too short");
            let tw = self.tw.as_ptr() as *const $e;
            let (s, d) = (src.as_mut_ptr() as *mut $e, dst.as_mut_ptr() as *mut $e);
            let t = scratch.as_mut_ptr() as *mut $e;
            let mut from = s as *const $e;
            for (idx, st) in self.stages.iter().enumerate() {
                let to = super::pow2_shared::destroying_dst(idx, count, s, d, t);
                // SAFETY: `from` and `to` are two of `src`, `dst`, the scratch (n complex
                // values each, asserted, or no scratch for a single codelet, which writes
                // `dst`; distinct borrows), never the same one; the kernel and its table rows
                // are this plan's for stage `idx`; features checked in `new`.
                unsafe { (st.f)(from, to, tw.add($row * st.tw)) };
                from = to;
            }
        }
    };
}
pub(super) use destroying_method;

/// `process_windowed` of an AVX-512 plan type with elements `$e` (shared by
/// [`super::pow2_avx512`] and [`super::pow2_avx512_f32`]): fields `n`, `first_win` and a method
/// `run(src, win, dst, tmp, inplace)`.
macro_rules! windowed_methods {
    ($e:ty) => {
        /// Out-of-place transform of `input` multiplied componentwise (re by re, im by im) by
        /// `win`, the products formed as the first pass loads the input: bit for bit
        /// `process_outofplace` of the products, without writing them anywhere. Returns
        /// `false`, writing nothing, for plans without a windowed first pass (inverse plans,
        /// the single-codelet lengths).
        pub fn process_windowed(
            &self,
            input: &[Complex<$e>],
            win: &[Complex<$e>],
            output: &mut [Complex<$e>],
            scratch: &mut [Complex<$e>],
        ) -> bool {
            if self.first_win.is_none() {
                return false;
            }
            assert_eq!(
                input.len(),
                self.n,
                "input length must equal the FFT length"
            );
            assert_eq!(win.len(), self.n, "window length must equal the FFT length");
            assert_eq!(
                output.len(),
                self.n,
                "output length must equal the FFT length"
            );
            assert!(scratch.len() >= self.scratch_len(), "scratch too short");
            // SAFETY: as in `process_outofplace` (lengths asserted, features checked in `new`,
            // `input` and `win` shared borrows disjoint from the exclusive `output` and
            // `scratch`); `win` holds `n` complex values and this plan has a windowed first
            // stage.
            unsafe {
                self.run(
                    input.as_ptr() as *const $e,
                    win.as_ptr() as *const $e,
                    output.as_mut_ptr() as *mut $e,
                    scratch.as_mut_ptr() as *mut $e,
                    false,
                )
            };
            true
        }
    };
}
pub(super) use windowed_methods;
