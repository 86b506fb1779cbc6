//! Silence detection as `librosa.effects.trim` / `librosa.effects.split` compute it: the framed
//! `float32` RMS (`sk_silence_rms_*`) and the per-frame non-silent flags against a dB
//! threshold (`sk_silence_flags_f32`). Outputs are written only after every check has passed.

use super::guard::{alias, check_capacity, ffi_boundary, Buf};
use crate::error::{SkError, SkResult};
use crate::kernels::feature::spectral::Framing;
use crate::kernels::feature::trim::{self, Aggregate, RefMode};
use crate::kernels::Float;

/// `sk_silence_flags_f32` reference: the largest RMS of the batch (librosa's `ref=np.max`).
pub const SK_SILENCE_REF_MAX: i32 = 0;
/// `sk_silence_flags_f32` reference: `|ref|` rounded to `float`, the dB offset computed in
/// `float` (librosa with a callable `ref` that returns a `float32` scalar).
pub const SK_SILENCE_REF_F32: i32 = 1;
/// `sk_silence_flags_f32` reference: `|ref|` in double, the dB offset subtracted in double and
/// rounded (librosa with a number `ref`).
pub const SK_SILENCE_REF_F64: i32 = 2;
/// `sk_silence_flags_f32` channel aggregate: the largest dB value (librosa's `np.max`).
pub const SK_SILENCE_AGG_MAX: i32 = 0;
/// `sk_silence_flags_f32` channel aggregate: the smallest dB value (`np.min`).
pub const SK_SILENCE_AGG_MIN: i32 = 1;

/// # Safety
/// As `sk_silence_rms_f32`.
#[allow(clippy::too_many_arguments)]
unsafe fn rms_ffi<T: Float>(
    y: *const T,
    batch: usize,
    n: usize,
    frame_length: usize,
    hop: usize,
    out: *mut f32,
    out_len: usize,
) -> SkResult<()> {
    let fr = Framing {
        frame_length,
        hop,
        center: true,
    };
    let xl = batch
        .checked_mul(n)
        .ok_or_else(|| SkError::Length("batch × n overflows".into()))?;
    let xb = Buf::new("y", y, xl);
    xb.check()?;
    let frames = fr.frames(n)?;
    let need = batch
        .checked_mul(frames)
        .ok_or_else(|| SkError::Length("batch × frames overflows".into()))?;
    check_capacity("out", out, out_len)?;
    if out_len < need {
        return Err(SkError::BufferTooSmall(format!(
            "out holds {out_len} values but batch {batch} × frames {frames} = {need} are needed"
        )));
    }
    let ob = Buf::out("out", out, need);
    alias(&xb, &ob, false)?;
    // SAFETY: both checked, disjoint (`alias`), readable / writable per the caller's contract;
    // the slices die with this call.
    unsafe { trim::silence_rms(xb.slice(), batch, &fr, ob.slice_mut()) }
}

/// The framed RMS behind `librosa.effects.trim` and `librosa.effects.split`:
/// `librosa.feature.rms(y=y, frame_length=frame_length, hop_length=hop)` (centred with
/// `frame_length/2` zeros each side, librosa's default `dtype=np.float32`) of every row of `y`
/// (`batch` rows of `n` samples) into `out` (`batch × frames` floats, `frames` as
/// `sk_feature_frames` with `center = 1`).
///
/// Computed as numpy computes librosa's `float32` arrays: each sample rounded to `float`,
/// squared, each frame summed in `float` by numpy's pairwise summation (eight accumulators per
/// block of at most 128 values), divided by `frame_length` in double and rounded, square-rooted
/// in `float` (so the values equal librosa's bit for bit; `sk_rms_frames_*` accumulates in
/// double instead). NaN and infinities propagate into
/// their frames (librosa does not check).
/// Arguments: `frame_length ≥ 1`, `hop ≥ 1`; the padded signal must hold a frame
/// (`SK_ERR_BAD_ARGUMENT`); `out_len` is `out`'s capacity.
/// Returns `SK_OK`, `SK_ERR_BAD_ARGUMENT`, `SK_ERR_LENGTH`, `SK_ERR_BUFFER_TOO_SMALL`,
/// `SK_ERR_NULL_POINTER`, `SK_ERR_MISALIGNED`, `SK_ERR_OVERLAP`; on error `out` is untouched.
/// Thread-safe (long inputs may be split over up to `SIGKERN_THREADS` threads).
///
/// Real-time safe: no (allocates a frame per worker; long inputs may be split over the worker threads).
///
/// # Safety
/// `y` readable for batch·n floats, `out` writable for out_len floats.
#[no_mangle]
pub unsafe extern "C" fn sk_silence_rms_f32(
    y: *const f32,
    batch: usize,
    n: usize,
    frame_length: usize,
    hop: usize,
    out: *mut f32,
    out_len: usize,
) -> i32 {
    ffi_boundary!("sk_silence_rms_f32", {
        // SAFETY: this function's `# Safety` contract is `rms_ffi`'s; NULL, alignment, sizes
        // and overlap are checked inside.
        unsafe { rms_ffi::<f32>(y, batch, n, frame_length, hop, out, out_len) }
    })
}

/// `sk_silence_rms_f32` on double audio (each sample rounded to `float` first, as librosa's
/// `float32` RMS). Same rules; the output is `float`.
///
/// Real-time safe: no (allocates a frame per worker; long inputs may be split over the worker threads).
///
/// # Safety
/// `y` readable for batch·n doubles, `out` writable for out_len floats.
#[no_mangle]
pub unsafe extern "C" fn sk_silence_rms_f64(
    y: *const f64,
    batch: usize,
    n: usize,
    frame_length: usize,
    hop: usize,
    out: *mut f32,
    out_len: usize,
) -> i32 {
    ffi_boundary!("sk_silence_rms_f64", {
        // SAFETY: this function's `# Safety` contract is `rms_ffi`'s; NULL, alignment, sizes
        // and overlap are checked inside.
        unsafe { rms_ffi::<f64>(y, batch, n, frame_length, hop, out, out_len) }
    })
}

/// The non-silent frames of `librosa.effects.trim` / `split` from the framed RMS `rms`
/// (`batch` channels × `frames`, as `sk_silence_rms_*` writes it):
/// `librosa.amplitude_to_db(rms, ref=…, top_db=None)` per channel and frame, in `float` as
/// librosa (`amin = 1e-5`), written to `db` (`batch × frames`) unless `db` is NULL; the
/// channels of each frame combined by `aggregate` (`SK_SILENCE_AGG_MAX`, librosa's default
/// `np.max`, or `SK_SILENCE_AGG_MIN`; NaN propagates) and compared `> −top_db` (in `float`),
/// giving `flags[t]` 1 (sound) or 0 (silence) unless `flags` is NULL.
///
/// `ref_mode`: `SK_SILENCE_REF_MAX` (the largest RMS of the whole batch; `ref` is ignored),
/// `SK_SILENCE_REF_F32` (`|ref|` as a `float`) or `SK_SILENCE_REF_F64` (`|ref|` in double,
/// as a number `ref` in librosa). NaN RMS values give NaN dB values, never sound; a NaN
/// reference makes every frame silent (as librosa). `top_db` may be any non-NaN value
/// (negative: frames below `ref + |top_db|` dB are silent).
/// Arguments: `batch ≥ 1`; `db_len` / `flags_len` the capacities of `db` / `flags` (at least
/// `batch × frames` / `frames` when the pointer is not NULL).
/// Returns `SK_OK`, `SK_ERR_BAD_ARGUMENT` (NaN `top_db`, unknown mode), `SK_ERR_LENGTH`,
/// `SK_ERR_BUFFER_TOO_SMALL`, `SK_ERR_NULL_POINTER`, `SK_ERR_MISALIGNED`, `SK_ERR_OVERLAP`; on
/// error `db` and `flags` are untouched. Thread-safe.
///
/// Real-time safe: yes.
///
/// # Safety
/// `rms` readable for batch·frames floats, `db` NULL or writable for db_len floats, `flags`
/// NULL or writable for flags_len bytes.
#[no_mangle]
#[allow(clippy::too_many_arguments)]
pub unsafe extern "C" fn sk_silence_flags_f32(
    rms: *const f32,
    batch: usize,
    frames: usize,
    top_db: f64,
    ref_mode: i32,
    reference: f64,
    aggregate: i32,
    db: *mut f32,
    db_len: usize,
    flags: *mut u8,
    flags_len: usize,
) -> i32 {
    ffi_boundary!("sk_silence_flags_f32", {
        let mode = match ref_mode {
            SK_SILENCE_REF_MAX => RefMode::Max,
            SK_SILENCE_REF_F32 => RefMode::ValueF32(reference as f32),
            SK_SILENCE_REF_F64 => RefMode::ValueF64(reference),
            _ => {
                return Err(SkError::BadArgument(format!(
                    "ref_mode = {ref_mode} is not SK_SILENCE_REF_MAX (0), SK_SILENCE_REF_F32 (1) \
                     or SK_SILENCE_REF_F64 (2)"
                )))
            }
        };
        let agg = match aggregate {
            SK_SILENCE_AGG_MAX => Aggregate::Max,
            SK_SILENCE_AGG_MIN => Aggregate::Min,
            _ => {
                return Err(SkError::BadArgument(format!(
                "aggregate = {aggregate} is not SK_SILENCE_AGG_MAX (0) or SK_SILENCE_AGG_MIN (1)"
            )))
            }
        };
        if top_db.is_nan() {
            return Err(SkError::BadArgument("top_db is NaN".into()));
        }
        if batch == 0 || frames == 0 {
            return Err(SkError::Length(format!(
                "batch = {batch}, frames = {frames}: need at least one channel and one frame"
            )));
        }
        let len = batch
            .checked_mul(frames)
            .ok_or_else(|| SkError::Length("batch × frames overflows".into()))?;
        let rb = Buf::new("rms", rms, len);
        rb.check()?;
        let mut dbb = None;
        if !db.is_null() {
            check_capacity("db", db, db_len)?;
            if db_len < len {
                return Err(SkError::BufferTooSmall(format!(
                    "db holds {db_len} values but batch {batch} × frames {frames} = {len} are needed"
                )));
            }
            let b = Buf::out("db", db, len);
            alias(&rb, &b, false)?;
            dbb = Some(b);
        }
        let mut fb = None;
        if !flags.is_null() {
            check_capacity("flags", flags, flags_len)?;
            if flags_len < frames {
                return Err(SkError::BufferTooSmall(format!(
                    "flags holds {flags_len} bytes but frames = {frames} are needed"
                )));
            }
            let b = Buf::out("flags", flags, frames);
            alias(&rb, &b, false)?;
            if let Some(d) = &dbb {
                alias(d, &b, false)?;
            }
            fb = Some(b);
        }
        // SAFETY: every buffer passed `check` (directly or through `check_capacity`), the
        // outputs are disjoint from `rms` and from each other (`alias`); readable / writable
        // per the caller's contract; the slices die with this call.
        unsafe {
            trim::silence_flags(
                rb.slice(),
                batch,
                top_db,
                mode,
                agg,
                dbb.as_ref().map(|b| b.slice_mut()),
                fb.as_ref().map(|b| b.slice_mut()),
            )
        }
    })
}
