//! Reductions: sum, mean, min, max, peak (max |x|), rms and dot.
//!
//! Accuracy. Sums, dot products and sums of squares are pairwise: the input is cut into blocks of
//! [`BLOCK`] elements; inside a block, [`LANES`] independent accumulators each add
//! `BLOCK / LANES` = 8 consecutive terms and are then combined as a binary tree down to
//! [`OUT`] lanes, converted to `f64`; the blocks' lane vectors are combined pairwise in `f64`
//! and the final lanes as a tree. The worst-case relative error (to `sum |x_i|`) is about
//! `(8 + 3) ε_T + (log2(n / BLOCK) + 4) ε_64`, below numpy's pairwise summation
//! (`(16 + 3 + log2(n / 128)) ε_T`).
//! `rms` of `f32` squares and adds inside a block in `f32` (the scheme and bound of the sums, all
//! terms positive so relative to the sum of squares itself: about `11 ε_32`), and when that sum
//! overflows (`|x|` near `2^64` and above) or falls below `2^-64` (squares may have underflowed) it
//! is recomputed squaring in `f64`, so `|x|` up to the type's maximum never overflows; `f64`
//! input squares and accumulates in `f64`, and when its sum of squares overflows or underflows,
//! a second pass rescales by a power of two. `mean` of `f64` does the same when the plain sum overflows.
//!
//! NaN semantics are numpy's: `sum`, `mean`, `dot`, `rms` follow IEEE arithmetic (NaN in gives
//! NaN, `inf - inf` gives NaN); `min`, `max` and `peak` return NaN if any element is NaN.

use super::Float;
use crate::simd::{multiversion, Level};

/// Independent accumulators per block (four AVX-512 registers of `f32`, eight of `f64`).
pub(crate) const LANES: usize = 64;
/// Elements per block of the pairwise scheme.
pub(crate) const BLOCK: usize = 512;

/// Lanes a block's result keeps (one AVX-512 register of `f64`): reducing 64 lanes to 8 is
/// vertical adds only, with no shuffles inside a register, and adding lane vectors is as cheap
/// as adding scalars.
pub(crate) const OUT: usize = 8;

/// Lane vector of partial sums in `f64`.
pub(crate) type Lanes = [f64; OUT];

#[inline(always)]
pub(crate) fn tree_out<T: Float>(mut acc: [T; LANES]) -> Lanes {
    let mut w = LANES / 2;
    while w >= OUT {
        for j in 0..w {
            acc[j] = acc[j] + acc[j + w];
        }
        w /= 2;
    }
    let mut out = [0.0; OUT];
    for j in 0..OUT {
        out[j] = acc[j].to_f64();
    }
    out
}

#[inline(always)]
fn add_lanes(a: Lanes, b: Lanes) -> Lanes {
    let mut r = a;
    for j in 0..OUT {
        r[j] += b[j];
    }
    r
}

#[inline(always)]
fn tree<T: Float>(mut acc: [T; LANES]) -> T {
    let mut w = LANES / 2;
    while w > 0 {
        for j in 0..w {
            acc[j] = acc[j] + acc[j + w];
        }
        w /= 2;
    }
    acc[0]
}

/// Levels of the pairwise counter: enough for 2^56 blocks, more than any buffer can hold.
const DEPTH: usize = 56;

/// Pairwise combination of per-block results in `f64`, without recursion: a binary counter of
/// partial sums, so block `k` is merged exactly as a balanced tree would merge it. The levels
/// live in a caller's local array, borrowed: moving a 3.5 KiB struct by value made LLVM emit a
/// `memcpy` per call that cost more than the whole reduction of a few thousand elements.
struct Pairwise<'a> {
    stack: &'a mut [Lanes; DEPTH],
    depth: usize,
    count: usize,
}

impl<'a> Pairwise<'a> {
    #[inline(always)]
    fn new(stack: &'a mut [Lanes; DEPTH]) -> Self {
        Pairwise {
            stack,
            depth: 0,
            count: 0,
        }
    }

    #[inline(always)]
    fn push(&mut self, mut s: Lanes) {
        self.count += 1;
        // merge as many times as the block count has trailing zeros
        let mut m = self.count;
        while m & 1 == 0 {
            self.depth -= 1;
            s = add_lanes(self.stack[self.depth], s);
            m >>= 1;
        }
        self.stack[self.depth] = s;
        self.depth += 1;
    }

    /// Pushes the sum `((b0 + b1) + (b2 + b3))` of four consecutive blocks, at a block count
    /// that is a multiple of 4: exactly what four [`push`](Self::push)es would leave (they make
    /// the same two level-1 sums and the level-2 sum, then merge it the same way), with one
    /// data-dependent merge loop instead of four. The loop's trip count (the trailing zeros of
    /// the block count) changes from block to block, and its mispredicted exit cost about a
    /// tenth of the time of an L2-resident reduction.
    #[inline(always)]
    fn push4(&mut self, mut s: Lanes) {
        debug_assert!(self.count.is_multiple_of(4));
        self.count += 4;
        let mut m = self.count >> 2;
        while m & 1 == 0 {
            self.depth -= 1;
            s = add_lanes(self.stack[self.depth], s);
            m >>= 1;
        }
        self.stack[self.depth] = s;
        self.depth += 1;
    }

    #[inline(always)]
    fn lanes(&self) -> Lanes {
        let mut t = [0.0; OUT];
        for &v in self.stack[..self.depth].iter().rev() {
            t = add_lanes(t, v);
        }
        t
    }
}

/// One blockwise reduction: its input length and the `f64` value of a block of it (`&mut self`:
/// a strided source gathers each block into a buffer it owns, see `strided::sum`).
///
/// A trait with `#[inline(always)]` methods rather than a closure: a closure is compiled as a
/// function of its own, without the `#[target_feature]`s of the multiversioned caller, which
/// would leave the block loops at baseline SIMD.
pub(crate) trait Blocks {
    /// Whether long inputs are read as four streams (see [`SPLIT_MIN`]). Not for `dot`: its two
    /// inputs already make two streams, and eight measured far slower than two.
    const SPLIT: bool = true;
    /// Whether a short input's blocks are summed four at a time before they are counted (see
    /// [`Pairwise::push4`]; the same bits as one at a time).
    const GROUPED: bool = true;
    fn len(&self) -> usize;
    fn block(&mut self, r: std::ops::Range<usize>) -> Lanes;
}

/// Sum of a lane vector as a balanced tree.
#[inline(always)]
fn tree_lanes(mut v: Lanes) -> f64 {
    let mut w = OUT / 2;
    while w > 0 {
        for j in 0..w {
            v[j] += v[j + w];
        }
        w /= 2;
    }
    v[0]
}

/// Inputs at least this long are cut into [`STREAMS`] contiguous parts (multiples of [`BLOCK`])
/// whose blocks are visited in lockstep: independent memory streams keep more cache misses in
/// flight than one (measured here: about 1.2× the DRAM read bandwidth of a single stream). Each
/// part is summed pairwise and the parts' results are added pairwise: two more tree levels.
const SPLIT_MIN: usize = 1 << 18;

/// How many parts [`SPLIT_MIN`] cuts a long input into (a power of two). Measured here: 2 and 4
/// are close, 8 streams run at less than half the bandwidth of 4.
const STREAMS: usize = 4;

/// The pairwise sum of `b`'s blocks (see the module doc): every blockwise reduction, contiguous
/// or strided, runs through this one grouping, so equal blocks give equal bits.
#[inline(always)]
pub(crate) fn pairwise<B: Blocks>(b: &mut B) -> f64 {
    let n = b.len();
    if n <= BLOCK {
        // One block: no counter, nothing to zero.
        return tree_lanes(b.block(0..n));
    }
    if n < SPLIT_MIN || !B::SPLIT {
        let mut stack = [[0.0; OUT]; DEPTH];
        let mut p = Pairwise::new(&mut stack);
        let mut start = 0;
        // four blocks at a time, combined as the counter would combine them (see `push4`)
        while B::GROUPED && start + 4 * BLOCK <= n {
            let b0 = b.block(start..start + BLOCK);
            let b1 = b.block(start + BLOCK..start + 2 * BLOCK);
            let b2 = b.block(start + 2 * BLOCK..start + 3 * BLOCK);
            let b3 = b.block(start + 3 * BLOCK..start + 4 * BLOCK);
            p.push4(add_lanes(add_lanes(b0, b1), add_lanes(b2, b3)));
            start += 4 * BLOCK;
        }
        while start < n {
            let end = (start + BLOCK).min(n);
            p.push(b.block(start..end));
            start = end;
        }
        return tree_lanes(p.lanes());
    }
    let q = n / STREAMS / BLOCK * BLOCK;
    let mut stacks = [[[0.0; OUT]; DEPTH]; STREAMS];
    let mut ps = stacks.each_mut().map(Pairwise::new);
    // An opaque block length keeps each block a rolled loop in address order: with the constant,
    // LLVM unrolled the f64 blocks and scheduled them accumulator by accumulator, jumping through
    // memory in 512-byte strides, which made f64 sums over DRAM three times slower.
    let blk = std::hint::black_box(BLOCK);
    for k in 0..q / BLOCK {
        for (j, p) in ps.iter_mut().enumerate() {
            let s = j * q + k * blk;
            p.push(b.block(s..s + blk));
        }
    }
    // The last part also takes whatever the equal parts left over.
    let mut start = STREAMS * q;
    while start < n {
        let end = (start + BLOCK).min(n);
        ps[STREAMS - 1].push(b.block(start..end));
        start = end;
    }
    let mut parts = ps.map(|p| p.lanes());
    let mut w = STREAMS / 2;
    while w > 0 {
        for j in 0..w {
            parts[j] = add_lanes(parts[j], parts[j + w]);
        }
        w /= 2;
    }
    tree_lanes(parts[0])
}

struct SumBlocks<'a, T>(&'a [T]);
struct DotBlocks<'a, T>(&'a [T], &'a [T]);
struct SumsqBlocks<'a, T>(&'a [T], f64);
struct SqBlocks<'a, T>(&'a [T]);

impl<T: Float> Blocks for SumBlocks<'_, T> {
    #[inline(always)]
    fn len(&self) -> usize {
        self.0.len()
    }
    #[inline(always)]
    fn block(&mut self, r: std::ops::Range<usize>) -> Lanes {
        block_sum(&self.0[r])
    }
}

impl<T: Float> Blocks for DotBlocks<'_, T> {
    const SPLIT: bool = false;
    #[inline(always)]
    fn len(&self) -> usize {
        self.0.len()
    }
    #[inline(always)]
    fn block(&mut self, r: std::ops::Range<usize>) -> Lanes {
        block_dot(&self.0[r.clone()], &self.1[r])
    }
}

impl<T: Float> Blocks for SqBlocks<'_, T> {
    #[inline(always)]
    fn len(&self) -> usize {
        self.0.len()
    }
    #[inline(always)]
    fn block(&mut self, r: std::ops::Range<usize>) -> Lanes {
        block_sq(&self.0[r])
    }
}

impl<T: Float> Blocks for SumsqBlocks<'_, T> {
    #[inline(always)]
    fn len(&self) -> usize {
        self.0.len()
    }
    #[inline(always)]
    fn block(&mut self, r: std::ops::Range<usize>) -> Lanes {
        block_sumsq(&self.0[r], self.1)
    }
}

/// The lanes of one block's sum: [`LANES`] accumulators in `T`, reduced to [`OUT`] in `f64`.
#[inline(always)]
pub(crate) fn block_sum<T: Float>(x: &[T]) -> Lanes {
    let mut acc = [T::ZERO; LANES];
    let mut chunks = x.chunks_exact(LANES);
    for c in &mut chunks {
        for j in 0..LANES {
            acc[j] = acc[j] + c[j];
        }
    }
    for (a, &v) in acc.iter_mut().zip(chunks.remainder()) {
        *a = *a + v;
    }
    tree_out(acc)
}

#[inline(always)]
fn block_dot<T: Float>(a: &[T], b: &[T]) -> Lanes {
    let mut acc = [T::ZERO; LANES];
    let mut ca = a.chunks_exact(LANES);
    let mut cb = b.chunks_exact(LANES);
    for (x, y) in (&mut ca).zip(&mut cb) {
        for j in 0..LANES {
            acc[j] = acc[j] + x[j] * y[j];
        }
    }
    for ((s, &x), &y) in acc.iter_mut().zip(ca.remainder()).zip(cb.remainder()) {
        *s = *s + x * y;
    }
    tree_out(acc)
}

#[inline(always)]
fn block_sumsq<T: Float>(x: &[T], scale: f64) -> Lanes {
    let mut acc = [0.0f64; LANES];
    let mut chunks = x.chunks_exact(LANES);
    for c in &mut chunks {
        for j in 0..LANES {
            let v = c[j].to_f64() * scale;
            acc[j] += v * v;
        }
    }
    for (a, &v) in acc.iter_mut().zip(chunks.remainder()) {
        let v = v.to_f64() * scale;
        *a += v * v;
    }
    tree_out(acc)
}

/// `Σ x²` of a block with the squares and the in-block sums in `T` (see [`rms`]).
#[inline(always)]
fn block_sq<T: Float>(x: &[T]) -> Lanes {
    let mut acc = [T::ZERO; LANES];
    let mut chunks = x.chunks_exact(LANES);
    for c in &mut chunks {
        for j in 0..LANES {
            acc[j] = acc[j] + c[j] * c[j];
        }
    }
    for (a, &v) in acc.iter_mut().zip(chunks.remainder()) {
        *a = *a + v * v;
    }
    tree_out(acc)
}

#[inline(always)]
fn sq_lanes<T: Float>(x: &[T]) -> f64 {
    pairwise(&mut SqBlocks(x))
}

fn sq_scalar<T: Float>(x: &[T]) -> f64 {
    pairwise_scalar(x.len(), &|i| (x[i] * x[i]).to_f64(), 0)
}

#[inline(always)]
fn sum_lanes<T: Float>(x: &[T]) -> f64 {
    pairwise(&mut SumBlocks(x))
}

#[inline(always)]
fn dot_lanes<T: Float>(a: &[T], b: &[T]) -> f64 {
    assert_eq!(a.len(), b.len(), "dot operands differ in length");
    pairwise(&mut DotBlocks(a, b))
}

#[inline(always)]
fn sumsq_lanes<T: Float>(x: &[T], scale: f64) -> f64 {
    pairwise(&mut SumsqBlocks(x, scale))
}

/// Reference: recursive pairwise summation in `f64`, one element at a time below 8.
pub(crate) fn pairwise_scalar(n: usize, term: &dyn Fn(usize) -> f64, lo: usize) -> f64 {
    if n <= 8 {
        let mut s = 0.0;
        for i in lo..lo + n {
            s += term(i);
        }
        s
    } else {
        let h = n / 2;
        pairwise_scalar(h, term, lo) + pairwise_scalar(n - h, term, lo + h)
    }
}

fn sum_scalar<T: Float>(x: &[T]) -> f64 {
    pairwise_scalar(x.len(), &|i| x[i].to_f64(), 0)
}

fn dot_scalar<T: Float>(a: &[T], b: &[T]) -> f64 {
    assert_eq!(a.len(), b.len(), "dot operands differ in length");
    pairwise_scalar(a.len(), &|i| a[i].to_f64() * b[i].to_f64(), 0)
}

fn sumsq_scalar<T: Float>(x: &[T], scale: f64) -> f64 {
    pairwise_scalar(
        x.len(),
        &|i| {
            let v = x[i].to_f64() * scale;
            v * v
        },
        0,
    )
}

/// Which extreme a lane reduction keeps.
pub trait Extreme: Copy {
    /// Maps an element before comparing (identity, or `abs` for peak).
    fn map<T: Float>(x: T) -> T;
    /// Whether `cand` replaces `cur`.
    fn better<T: Float>(cand: T, cur: T) -> bool;
}
#[derive(Clone, Copy)]
pub struct Min;
#[derive(Clone, Copy)]
pub struct Max;
#[derive(Clone, Copy)]
pub struct Peak;
impl Extreme for Min {
    #[inline(always)]
    fn map<T: Float>(x: T) -> T {
        x
    }
    #[inline(always)]
    fn better<T: Float>(c: T, cur: T) -> bool {
        c < cur
    }
}
impl Extreme for Max {
    #[inline(always)]
    fn map<T: Float>(x: T) -> T {
        x
    }
    #[inline(always)]
    fn better<T: Float>(c: T, cur: T) -> bool {
        c > cur
    }
}
impl Extreme for Peak {
    #[inline(always)]
    fn map<T: Float>(x: T) -> T {
        x.abs()
    }
    #[inline(always)]
    fn better<T: Float>(c: T, cur: T) -> bool {
        c > cur
    }
}

/// `x - x`: 0 for finite `x`, NaN for NaN or ±inf.
#[inline(always)]
#[allow(clippy::eq_op)]
fn probe<T: Float>(x: T) -> T {
    x - x
}

/// Extreme of a non-empty slice, NaN if any element is NaN. NaNs are caught by accumulating
/// `x - x` (0 for finite x, NaN for NaN or ±inf) beside the extreme; only when that flags
/// something is the slice scanned for an actual NaN.
#[inline(always)]
fn extreme_lanes<T: Float, E: Extreme>(x: &[T], _e: E) -> T {
    assert!(!x.is_empty(), "extreme of an empty slice");
    let first = E::map(x[0]);
    let mut acc = [first; LANES];
    let mut flag = [T::ZERO; LANES];
    let mut chunks = x.chunks_exact(LANES);
    for c in &mut chunks {
        for j in 0..LANES {
            let v = E::map(c[j]);
            acc[j] = if E::better(v, acc[j]) { v } else { acc[j] };
            flag[j] = flag[j] + probe(c[j]);
        }
    }
    for ((a, f), &v) in acc.iter_mut().zip(flag.iter_mut()).zip(chunks.remainder()) {
        let m = E::map(v);
        *a = if E::better(m, *a) { m } else { *a };
        *f = *f + probe(v);
    }
    if tree(flag).is_nan() && x.iter().any(|v| v.is_nan()) {
        return T::NAN;
    }
    let mut best = acc[0];
    for &a in &acc[1..] {
        if E::better(a, best) {
            best = a;
        }
    }
    best
}

fn extreme_scalar<T: Float, E: Extreme>(x: &[T], _e: E) -> T {
    assert!(!x.is_empty(), "extreme of an empty slice");
    let mut best = E::map(x[0]);
    for &v in x {
        if v.is_nan() {
            return v;
        }
        let m = E::map(v);
        if E::better(m, best) {
            best = m;
        }
    }
    best
}

multiversion! {
    /// Sum of `x` in `f64` (see the module doc for the error bound).
    pub fn sum_f64_at<T: Float>(x: &[T]) -> f64;
    scalar = sum_scalar; simd = sum_lanes;
}
multiversion! {
    /// Dot product of equal-length slices in `f64`.
    pub fn dot_f64_at<T: Float>(a: &[T], b: &[T]) -> f64;
    scalar = dot_scalar; simd = dot_lanes;
}
multiversion! {
    /// `sum((x·scale)²)` in `f64`.
    pub fn sumsq_f64_at<T: Float>(x: &[T], scale: f64) -> f64;
    scalar = sumsq_scalar; simd = sumsq_lanes;
}
multiversion! {
    /// `sum(x²)` with the squares and in-block sums in `T` (the fast `f32` rms).
    pub fn sq_f64_at<T: Float>(x: &[T]) -> f64;
    scalar = sq_scalar; simd = sq_lanes;
}
multiversion! {
    /// Min, max or peak of a non-empty slice; NaN if any element is NaN.
    pub fn extreme_at<T: Float, E: Extreme>(x: &[T], e: E) -> T;
    scalar = extreme_scalar; simd = extreme_lanes;
}

/// A power of two `s` such that `peak·s` lies in `[0.25, 1)` (in `[2^-52, 1)` for a denormal
/// peak, whose inverse is not representable); `peak` must be finite and non-zero.
pub(crate) fn pow2_scale(peak: f64) -> f64 {
    let e = (peak.log2().floor() as i32 + 1).max(-1023);
    // 2^-e, built in two steps so that it neither overflows nor flushes to zero for
    // |e| up to 1075 (the f64 range, subnormals included).
    let h = -e / 2;
    2f64.powi(h) * 2f64.powi(-e - h)
}

/// The sum of `x` as `(v, k)` with the true sum equal to `v / k`, `k` a power of two.
///
/// The fast pairwise sum adds lanes in the element type inside a block, so finite elements whose
/// partial sums exceed the type's maximum (`[MAX, -MAX, MAX, -MAX]`) can overflow to inf or NaN
/// although the exact sum is small. An overflow never returns to a finite value, so a non-finite
/// result over finite elements is exactly that case: the sum is then recomputed in `f64` on
/// `x·k`, with `k` scaling the peak below 1 so nothing can overflow (rare; reference loop).
/// Non-finite elements give the IEEE result (inf, or NaN for NaN or inf − inf), as numpy.
fn sum_parts<T: Float>(level: Level, x: &[T]) -> (f64, f64) {
    let s = sum_f64_at(level, x);
    if s.is_finite() {
        return (s, 1.0);
    }
    let p = extreme_at(level, x, Peak).to_f64();
    if !p.is_finite() {
        return (s, 1.0);
    }
    let k = pow2_scale(p);
    (pairwise_scalar(x.len(), &|i| x[i].to_f64() * k, 0), k)
}

/// Sum (pairwise, see the module doc), returned in `T`; ±inf only if the exact sum is beyond
/// the type's range (or an element is infinite).
pub fn sum<T: Float>(level: Level, x: &[T]) -> T {
    let (v, k) = sum_parts(level, x);
    T::from_f64(v / k)
}

/// Arithmetic mean; `None` for an empty slice. Finite elements always give a finite mean
/// (intermediate overflow is recomputed on scaled data, see [`sum_parts`]).
pub fn mean<T: Float>(level: Level, x: &[T]) -> Option<T> {
    if x.is_empty() {
        return None;
    }
    let (v, k) = sum_parts(level, x);
    Some(T::from_f64(v / x.len() as f64 / k))
}

/// Below this an `f32` sum of squares taken in `f32` may have lost bits to underflowed squares
/// (each loses at most 2^-150; 2^40 of them are below 2^-60 of this), so it is recomputed in f64.
const NARROW_MIN: f64 = 1.0 / 18446744073709551616.0; // 2^-64

/// Root mean square; `None` for an empty slice. Never overflows for finite input.
pub fn rms<T: Float>(level: Level, x: &[T]) -> Option<T> {
    if x.is_empty() {
        return None;
    }
    let n = x.len() as f64;
    if std::mem::size_of::<T>() == 4 {
        // f32: squares and in-block sums in f32 (16 lanes a vector instead of 8), accepted when
        // no square can have overflowed (the sum is finite) or lost bits to underflow (the sum
        // is at least NARROW_MIN); otherwise the f64 path below recomputes it.
        let s = sq_f64_at(level, x);
        if s.is_finite() && s >= NARROW_MIN {
            return Some(T::from_f64((s / n).sqrt()));
        }
    }
    let s = sumsq_f64_at(level, x, 1.0);
    // Below this the sum of squares has lost precision to underflow (or is an overflow).
    const TINY: f64 = f64::MIN_POSITIVE * 18446744073709551616.0; // 2^-958
    if s.is_finite() && s >= TINY {
        return Some(T::from_f64((s / n).sqrt()));
    }
    if s.is_nan() {
        return Some(T::from_f64(s));
    }
    let p = extreme_at(level, x, Peak).to_f64();
    if !p.is_finite() || p == 0.0 {
        // inf input gives inf (NaN input was caught above); all zeros give 0.
        return Some(T::from_f64(if p == 0.0 { 0.0 } else { p }));
    }
    let k = pow2_scale(p);
    let s = sumsq_f64_at(level, x, k);
    Some(T::from_f64((s / n).sqrt() / k))
}

/// Dot product, returned in `T`. As for [`sum`], a non-finite result over finite inputs (an
/// intermediate overflow) is recomputed in `f64` on inputs scaled below 1.
pub fn dot<T: Float>(level: Level, a: &[T], b: &[T]) -> T {
    let s = dot_f64_at(level, a, b);
    if s.is_finite() {
        return T::from_f64(s);
    }
    let (pa, pb) = (
        extreme_at(level, a, Peak).to_f64(),
        extreme_at(level, b, Peak).to_f64(),
    );
    if !pa.is_finite() || !pb.is_finite() {
        return T::from_f64(s);
    }
    let (ka, kb) = (pow2_scale(pa), pow2_scale(pb));
    let v = pairwise_scalar(a.len(), &|i| (a[i].to_f64() * ka) * (b[i].to_f64() * kb), 0);
    T::from_f64(v / ka / kb)
}

/// Minimum, `None` for an empty slice; NaN if any element is NaN.
pub fn min<T: Float>(level: Level, x: &[T]) -> Option<T> {
    (!x.is_empty()).then(|| extreme_at(level, x, Min))
}

/// Maximum, `None` for an empty slice; NaN if any element is NaN.
pub fn max<T: Float>(level: Level, x: &[T]) -> Option<T> {
    (!x.is_empty()).then(|| extreme_at(level, x, Max))
}

/// Peak magnitude `max |x|`, `None` for an empty slice; NaN if any element is NaN.
pub fn peak<T: Float>(level: Level, x: &[T]) -> Option<T> {
    (!x.is_empty()).then(|| extreme_at(level, x, Peak))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::kernels::testutil::{lengths, Rng};
    use crate::simd::available;

    /// Exact sum of f64 values (Shewchuk's algorithm, as Python's math.fsum).
    fn fsum(xs: impl IntoIterator<Item = f64>) -> f64 {
        let mut partials: Vec<f64> = Vec::new();
        for mut x in xs {
            let mut i = 0;
            for j in 0..partials.len() {
                let mut y = partials[j];
                if x.abs() < y.abs() {
                    std::mem::swap(&mut x, &mut y);
                }
                let hi = x + y;
                let lo = y - (hi - x);
                if lo != 0.0 {
                    partials[i] = lo;
                    i += 1;
                }
                x = hi;
            }
            partials.truncate(i);
            partials.push(x);
        }
        partials.iter().sum()
    }

    #[test]
    fn pairwise_counter_is_a_balanced_tree() {
        for n in 0..40usize {
            let mut stack = [[0.0; OUT]; DEPTH];
            let mut p = Pairwise::new(&mut stack);
            for k in 0..n {
                p.push([(k + 1) as f64; OUT]);
            }
            assert_eq!(p.lanes(), [(n * (n + 1) / 2) as f64; OUT]);
            assert!(p.depth <= 6);
        }
    }

    #[test]
    fn blocks_pushed_four_at_a_time_give_the_counters_bits() {
        // Doubles of mixed magnitudes, whose sums round, so any change of order shows in the
        // bits (sums of f32 values are often exact in f64).
        let mut rng = Rng::new(11);
        for blocks in 0..40usize {
            for tail in [0, 1, BLOCK - 1] {
                let n = blocks * BLOCK + tail;
                if n < SPLIT_MIN && n > BLOCK {
                    let x: Vec<f64> = rng
                        .vec_f64(n, 1.0)
                        .iter()
                        .map(|v| v * 2f64.powi((v * 40.0) as i32))
                        .collect();
                    let mut b = SumBlocks(&x);
                    let mut stack = [[0.0; OUT]; DEPTH];
                    let mut p = Pairwise::new(&mut stack);
                    let mut start = 0;
                    while start < n {
                        let end = (start + BLOCK).min(n);
                        p.push(b.block(start..end));
                        start = end;
                    }
                    let want = tree_lanes(p.lanes());
                    assert_eq!(pairwise(&mut b).to_bits(), want.to_bits(), "n={n}");
                    let y = rng.vec_f64(n, 1.0);
                    for level in available().into_iter().filter(|&l| l != Level::Scalar) {
                        // the SIMD levels run the same blocks through the same grouping (the
                        // scalar level is the recursive reference, another order)
                        let got = dot_f64_at(level, &x, &y);
                        let mut d = DotBlocks(&x, &y);
                        let mut stack = [[0.0; OUT]; DEPTH];
                        let mut p = Pairwise::new(&mut stack);
                        for k in 0..n.div_ceil(BLOCK) {
                            p.push(d.block(k * BLOCK..((k + 1) * BLOCK).min(n)));
                        }
                        let want = tree_lanes(p.lanes());
                        assert_eq!(got.to_bits(), want.to_bits(), "n={n} {level:?}");
                    }
                }
            }
        }
    }

    #[test]
    fn four_stream_split_covers_every_element_once() {
        // Integers sum exactly in f64, so any lost or doubled block shows.
        for n in [
            SPLIT_MIN,
            SPLIT_MIN + 1,
            SPLIT_MIN + BLOCK * 3 + 17,
            3 * SPLIT_MIN + 5,
        ] {
            let x: Vec<f64> = (0..n).map(|i| (i % 1000) as f64).collect();
            let want: f64 = (0..n).map(|i| (i % 1000) as f64).sum();
            for level in available() {
                assert_eq!(sum_f64_at(level, &x), want, "n={n} {level:?}");
                let d = dot_f64_at(level, &x, &vec![2.0; n]);
                assert_eq!(d, 2.0 * want, "n={n} {level:?}");
            }
        }
    }

    #[test]
    fn sum_dot_sumsq_against_fsum_at_every_level() {
        let mut rng = Rng::new(3);
        for n in lengths() {
            let x = rng.vec_f32(n, 1000.0);
            let y = rng.vec_f32(n, 1.0);
            let exact_sum = fsum(x.iter().map(|&v| v as f64));
            let abs_sum = fsum(x.iter().map(|&v| (v as f64).abs()));
            let exact_dot = fsum(x.iter().zip(&y).map(|(&a, &b)| a as f64 * b as f64));
            let abs_dot = fsum(x.iter().zip(&y).map(|(&a, &b)| (a as f64 * b as f64).abs()));
            let exact_ss = fsum(x.iter().map(|&v| v as f64 * v as f64));
            let eps = f32::EPSILON as f64;
            for level in available() {
                let s = sum_f64_at(level, &x);
                assert!(
                    (s - exact_sum).abs() <= 16.0 * eps * abs_sum,
                    "sum n={n} {level:?}"
                );
                let d = dot_f64_at(level, &x, &y);
                assert!(
                    (d - exact_dot).abs() <= 16.0 * eps * abs_dot,
                    "dot n={n} {level:?}"
                );
                let q = sumsq_f64_at(level, &x, 1.0);
                assert!(
                    (q - exact_ss).abs() <= 1e-13 * exact_ss,
                    "sumsq n={n} {level:?}"
                );
            }
        }
    }

    #[test]
    fn f64_sum_is_pairwise_accurate_on_ill_conditioned_data() {
        // Large cancelling terms with a small remainder: naive summation loses it entirely.
        let mut rng = Rng::new(4);
        let n = 200_000;
        let mut x = Vec::with_capacity(n);
        for _ in 0..n / 2 {
            let v = rng.uniform() * 1e16;
            x.push(v);
            x.push(-v);
        }
        x.push(1.0);
        let abs_sum = fsum(x.iter().map(|v| v.abs()));
        for level in available() {
            let s = sum_f64_at(level, &x);
            // bound: (8 + 6 + log2(n/512) + 1) eps * sum|x|
            assert!(
                (s - 1.0).abs() <= 25.0 * f64::EPSILON * abs_sum,
                "{level:?} {s}"
            );
        }
    }

    #[test]
    fn extremes_against_reference_with_nan_and_inf() {
        let mut rng = Rng::new(5);
        for n in lengths().into_iter().filter(|&n| n > 0) {
            let mut x = rng.vec_f64(n, 1e300);
            for level in available() {
                let mn = x.iter().cloned().fold(f64::INFINITY, f64::min);
                let mx = x.iter().cloned().fold(f64::NEG_INFINITY, f64::max);
                let pk = x.iter().map(|v| v.abs()).fold(0.0, f64::max);
                assert_eq!(min(level, &x), Some(mn), "n={n} {level:?}");
                assert_eq!(max(level, &x), Some(mx), "n={n} {level:?}");
                assert_eq!(peak(level, &x), Some(pk), "n={n} {level:?}");
            }
            // an infinity (no NaN) is a legitimate extreme
            x[n / 2] = f64::NEG_INFINITY;
            for level in available() {
                assert_eq!(min(level, &x), Some(f64::NEG_INFINITY));
                assert_eq!(peak(level, &x), Some(f64::INFINITY));
                assert!(!max(level, &x).unwrap().is_nan());
            }
            // any NaN, anywhere (including the last, tail element), wins
            for pos in [0, n / 3, n - 1] {
                let mut z = x.clone();
                z[pos] = f64::NAN;
                for level in available() {
                    assert!(
                        min(level, &z).unwrap().is_nan(),
                        "n={n} pos={pos} {level:?}"
                    );
                    assert!(max(level, &z).unwrap().is_nan());
                    assert!(peak(level, &z).unwrap().is_nan());
                }
            }
        }
        for level in available() {
            assert_eq!(min::<f32>(level, &[]), None);
            assert_eq!(peak::<f32>(level, &[]), None);
            assert_eq!(max(level, &[-0.0f32]), Some(-0.0));
        }
    }

    #[test]
    fn rms_near_type_max_and_denormal() {
        for level in available() {
            let big = vec![f32::MAX; 1000];
            assert_eq!(rms(level, &big), Some(f32::MAX));
            let big = vec![-f64::MAX; 1000];
            let r = rms(level, &big).unwrap();
            assert!((r - f64::MAX).abs() <= 4.0 * f64::EPSILON * f64::MAX, "{r}");
            let tiny = vec![5e-324f64; 777];
            assert_eq!(rms(level, &tiny), Some(5e-324));
            let tiny = vec![1e-45f32; 33];
            assert_eq!(rms(level, &tiny), Some(1e-45f32));
            assert_eq!(rms(level, &[0.0f64; 9]), Some(0.0));
            assert_eq!(rms::<f64>(level, &[]), None);
            assert!(rms(level, &[1.0f32, f32::NAN]).unwrap().is_nan());
            assert_eq!(rms(level, &[1.0f64, f64::INFINITY]), Some(f64::INFINITY));
            // closed form: rms of [3, 4] is sqrt(12.5)
            assert_eq!(rms(level, &[3.0f64, 4.0]), Some(12.5f64.sqrt()));
        }
    }

    #[test]
    fn f32_rms_against_f64_reference_across_ranges() {
        let mut rng = Rng::new(77);
        // scales: ordinary, near the f32-square overflow (2^64), beyond it, near the underflow
        // threshold, denormal
        for scale in [1.0f32, 3e18, 1e30, 1e-18, 1e-30, 1e-40] {
            for n in [1usize, 7, 64, 511, 513, 4097, 300_001] {
                let x: Vec<f32> = rng.vec_f32(n, 1.0).iter().map(|v| v * scale).collect();
                let exact =
                    (x.iter().map(|&v| (v as f64) * (v as f64)).sum::<f64>() / n as f64).sqrt();
                for level in available() {
                    let r = rms(level, &x).unwrap() as f64;
                    // 11 ε_32 on the sum of squares: half that on the root, plus the rounding
                    let tol = 8e-7 * exact + 1.5e-45;
                    assert!(
                        (r - exact).abs() <= tol,
                        "scale {scale} n {n} {level:?}: {r} vs {exact}"
                    );
                }
            }
        }
    }

    #[test]
    fn mean_survives_f64_overflow() {
        for level in available() {
            let x = vec![f64::MAX; 10];
            let m = mean(level, &x).unwrap();
            assert!((f64::MAX - m) <= 2.0 * f64::EPSILON * f64::MAX, "{m}");
            let x = [f64::MAX, f64::MAX / 2.0, 1.0];
            let m = mean(level, &x).unwrap();
            assert!(
                (m - f64::MAX / 2.0).abs() <= 2.0 * f64::EPSILON * f64::MAX,
                "{m}"
            );
            assert_eq!(mean::<f32>(level, &[]), None);
            assert_eq!(mean(level, &[1.0f32, 2.0, 4.0]), Some(7.0 / 3.0));
            assert_eq!(mean(level, &[f32::MAX, f32::MAX]), Some(f32::MAX));
        }
    }

    #[test]
    fn intermediate_overflow_is_recomputed() {
        for level in available() {
            let x = [f64::MAX, -f64::MAX, f64::MAX, -f64::MAX];
            assert_eq!(mean(level, &x), Some(0.0), "{level:?}");
            assert_eq!(sum(level, &x), 0.0);
            let x: Vec<f32> = [f32::MAX, -f32::MAX].repeat(5);
            assert_eq!(mean(level, &x), Some(0.0));
            let mut x = vec![0.0f32; 129];
            x[0] = f32::MAX;
            x[64] = f32::MAX;
            x[128] = -f32::MAX;
            assert_eq!(sum(level, &x), f32::MAX, "{level:?}");
            assert_eq!(dot(level, &x, &vec![1.0; 129]), f32::MAX, "{level:?}");
            // a sum truly beyond the range is inf; non-finite elements stay IEEE
            assert_eq!(sum(level, &[f32::MAX, f32::MAX]), f32::INFINITY);
            assert!(sum(level, &[f64::INFINITY, f64::NEG_INFINITY, 1.0]).is_nan());
            assert_eq!(
                dot(level, &[f64::INFINITY, 1.0], &[1.0, 1.0]),
                f64::INFINITY
            );
        }
    }

    #[test]
    fn pow2_scale_covers_the_range() {
        for p in [5e-324, 1e-300, 0.75, 1.0, 3.0, 1e300, f64::MAX] {
            let k = pow2_scale(p);
            assert!(k.is_finite() && k > 0.0);
            let v = p * k;
            let lo = if p < f64::MIN_POSITIVE {
                2f64.powi(-52)
            } else {
                0.25
            };
            assert!((lo..1.0).contains(&v), "{p} {k} {v}");
        }
    }
}
