//! Fundamental-frequency estimation as librosa computes it: YIN (`sk_yin_*`, `librosa.yin`) and
//! probabilistic YIN (`sk_pyin_*`, `librosa.pyin`).

use super::guard::{alias, check_capacity, ffi_boundary, Buf};
use crate::error::{SkError, SkResult};
use crate::kernels::pitch::pyin::PyinParams;
use crate::kernels::pitch::{self, YinParams};
use crate::kernels::Float;

/// Whether `pad_mode` (`SK_PAD_CONSTANT` or `SK_PAD_REFLECT`) reflects.
pub(super) fn pad_reflect(pad_mode: i32) -> SkResult<bool> {
    match pad_mode {
        0 => Ok(false),
        1 => Ok(true),
        _ => Err(SkError::BadArgument(format!(
            "pad_mode = {pad_mode} is not SK_PAD_CONSTANT (0) or SK_PAD_REFLECT (1)"
        ))),
    }
}

/// # Safety
/// As `sk_yin_f32`.
#[allow(clippy::too_many_arguments)]
unsafe fn yin_ffi<T: Float>(
    y: *const T,
    batch: usize,
    n: usize,
    sr: f64,
    fmin: f64,
    fmax: f64,
    frame_length: usize,
    hop: usize,
    trough_threshold: f64,
    center: i32,
    pad_mode: i32,
    out: *mut T,
    out_len: usize,
) -> SkResult<()> {
    let reflect = pad_reflect(pad_mode)?;
    let p = YinParams {
        sr,
        fmin,
        fmax,
        frame_length,
        hop,
        trough_threshold,
        center: center != 0,
        reflect,
    };
    p.periods()?;
    let len = batch
        .checked_mul(n)
        .ok_or_else(|| SkError::Length("batch × n overflows".into()))?;
    let xb = Buf::new("y", y, len);
    xb.check()?;
    let frames = p.frames(n)?;
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
    unsafe { pitch::yin(xb.slice(), batch, &p, ob.slice_mut()) }
}

/// `librosa.yin(y, fmin=fmin, fmax=fmax, sr=sr, frame_length=frame_length, hop_length=hop,
/// trough_threshold=trough_threshold, center=center≠0, pad_mode=…)` of every row of `y`
/// (`batch` rows of `n` samples) into `out` (`batch × frames`, `frames = 1 + (n +
/// 2·pad − frame_length) / hop`, `pad = frame_length/2` when centred), in Hz.
///
/// Per frame: the autocorrelation by FFT, the difference `d(τ) = 2·(r₀ − r_τ) − Σ_{j<τ} y_j²`,
/// its cumulative-mean normalisation for periods `floor(sr/fmax) … min(ceil(sr/fmin),
/// frame_length − 1)`, the first local minimum below `trough_threshold` (else the global
/// minimum), refined by parabolic interpolation; computed in double.
/// Arguments: `0 < fmin < fmax ≤ sr/2`, finite; `4 ≤ frame_length ≤ 2^24`; `hop ≥ 1`; the
/// period range must hold two lags; `pad_mode` `SK_PAD_CONSTANT` (librosa's default) or
/// `SK_PAD_REFLECT`; the audio must be finite (`SK_ERR_NON_FINITE`, as librosa's
/// `valid_audio`); a signal shorter than a frame without centring is `SK_ERR_BAD_ARGUMENT`.
/// Returns `SK_OK`, `SK_ERR_BAD_ARGUMENT`, `SK_ERR_LENGTH`, `SK_ERR_NON_FINITE`,
/// `SK_ERR_BUFFER_TOO_SMALL`, `SK_ERR_NULL_POINTER`, `SK_ERR_MISALIGNED`, `SK_ERR_OVERLAP`,
/// `SK_ERR_ALLOCATION`; on error `out` is untouched. Thread-safe.
///
/// Real-time safe: no (allocates its working memory; long inputs may be split over the worker threads).
///
/// # Safety
/// `y` readable for batch·n floats, `out` writable for out_len floats.
#[no_mangle]
#[allow(clippy::too_many_arguments)]
pub unsafe extern "C" fn sk_yin_f32(
    y: *const f32,
    batch: usize,
    n: usize,
    sr: f64,
    fmin: f64,
    fmax: f64,
    frame_length: usize,
    hop: usize,
    trough_threshold: f64,
    center: i32,
    pad_mode: i32,
    out: *mut f32,
    out_len: usize,
) -> i32 {
    ffi_boundary!("sk_yin_f32", {
        // SAFETY: this function's `# Safety` contract is `yin_ffi`'s; NULL, alignment, sizes
        // and overlap are checked inside.
        unsafe {
            yin_ffi::<f32>(
                y,
                batch,
                n,
                sr,
                fmin,
                fmax,
                frame_length,
                hop,
                trough_threshold,
                center,
                pad_mode,
                out,
                out_len,
            )
        }
    })
}

/// `sk_yin_f32` on doubles. Same rules.
///
/// Real-time safe: no (allocates its working memory; long inputs may be split over the worker threads).
///
/// # Safety
/// `y` readable for batch·n doubles, `out` writable for out_len doubles.
#[no_mangle]
#[allow(clippy::too_many_arguments)]
pub unsafe extern "C" fn sk_yin_f64(
    y: *const f64,
    batch: usize,
    n: usize,
    sr: f64,
    fmin: f64,
    fmax: f64,
    frame_length: usize,
    hop: usize,
    trough_threshold: f64,
    center: i32,
    pad_mode: i32,
    out: *mut f64,
    out_len: usize,
) -> i32 {
    ffi_boundary!("sk_yin_f64", {
        // SAFETY: this function's `# Safety` contract is `yin_ffi`'s; NULL, alignment, sizes
        // and overlap are checked inside.
        unsafe {
            yin_ffi::<f64>(
                y,
                batch,
                n,
                sr,
                fmin,
                fmax,
                frame_length,
                hop,
                trough_threshold,
                center,
                pad_mode,
                out,
                out_len,
            )
        }
    })
}

/// # Safety
/// As `sk_pyin_f32`.
#[allow(clippy::too_many_arguments)]
unsafe fn pyin_ffi<T: Float>(
    y: *const T,
    batch: usize,
    n: usize,
    opts: &PyinArgs,
    f0: *mut T,
    voiced_flag: *mut u8,
    voiced_prob: *mut T,
    out_len: usize,
) -> SkResult<()> {
    let reflect = pad_reflect(opts.pad_mode)?;
    let p = PyinParams {
        yin: YinParams {
            sr: opts.sr,
            fmin: opts.fmin,
            fmax: opts.fmax,
            frame_length: opts.frame_length,
            hop: opts.hop,
            trough_threshold: 0.1,
            center: opts.center != 0,
            reflect,
        },
        n_thresholds: opts.n_thresholds,
        beta_a: opts.beta_a,
        beta_b: opts.beta_b,
        boltzmann: opts.boltzmann,
        resolution: opts.resolution,
        max_transition_rate: opts.max_transition_rate,
        switch_prob: opts.switch_prob,
        no_trough_prob: opts.no_trough_prob,
    };
    p.yin.periods()?;
    let len = batch
        .checked_mul(n)
        .ok_or_else(|| SkError::Length("batch × n overflows".into()))?;
    let xb = Buf::new("y", y, len);
    xb.check()?;
    let frames = p.yin.frames(n)?;
    let need = batch
        .checked_mul(frames)
        .ok_or_else(|| SkError::Length("batch × frames overflows".into()))?;
    check_capacity("f0", f0, out_len)?;
    check_capacity("voiced_flag", voiced_flag, out_len)?;
    check_capacity("voiced_prob", voiced_prob, out_len)?;
    if out_len < need {
        return Err(SkError::BufferTooSmall(format!(
            "the outputs hold {out_len} values but batch {batch} × frames {frames} = {need} are needed"
        )));
    }
    let fb = Buf::out("f0", f0, need);
    let vb = Buf::out("voiced_flag", voiced_flag, need);
    let pb = Buf::out("voiced_prob", voiced_prob, need);
    alias(&xb, &fb, false)?;
    alias(&xb, &vb, false)?;
    alias(&xb, &pb, false)?;
    alias(&fb, &vb, false)?;
    alias(&fb, &pb, false)?;
    alias(&vb, &pb, false)?;
    let fill = if opts.fill_na_given != 0 {
        Some(opts.fill_na)
    } else {
        None
    };
    // SAFETY: every buffer checked, pairwise disjoint (`alias`), readable / writable per the
    // caller's contract; the slices die with this call.
    unsafe {
        pitch::pyin::pyin(
            xb.slice(),
            batch,
            &p,
            fill,
            fb.slice_mut(),
            vb.slice_mut(),
            pb.slice_mut(),
        )
    }
}

/// The scalar arguments of `sk_pyin_*`, gathered.
struct PyinArgs {
    sr: f64,
    fmin: f64,
    fmax: f64,
    frame_length: usize,
    hop: usize,
    n_thresholds: usize,
    beta_a: f64,
    beta_b: f64,
    boltzmann: f64,
    resolution: f64,
    max_transition_rate: f64,
    switch_prob: f64,
    no_trough_prob: f64,
    fill_na_given: i32,
    fill_na: f64,
    center: i32,
    pad_mode: i32,
}

/// `librosa.pyin(y, fmin=fmin, fmax=fmax, sr=sr, frame_length=frame_length, hop_length=hop,
/// n_thresholds=n_thresholds, beta_parameters=(beta_a, beta_b),
/// boltzmann_parameter=boltzmann, resolution=resolution,
/// max_transition_rate=max_transition_rate, switch_prob=switch_prob,
/// no_trough_prob=no_trough_prob, fill_na=…, center=center≠0, pad_mode=…)` of every row of
/// `y` (`batch` rows of `n` samples): `f0` (Hz), `voiced_flag` (1 voiced, 0 not) and
/// `voiced_prob`, each `batch × frames` (`frames` as `sk_yin_f32`).
///
/// Per frame (computed in double): the cumulative-mean-normalised difference as `sk_yin_*`,
/// its troughs weighted by a Beta(`beta_a`, `beta_b`) prior over `n_thresholds` thresholds and
/// a Boltzmann(`boltzmann`) prior over trough positions, the global minimum taking
/// `no_trough_prob` of the mass no trough is below, each candidate's period refined by
/// parabolic interpolation and binned into `ceil(1/resolution)` bins per semitone from `fmin`;
/// then the Viterbi path of librosa's voiced/unvoiced HMM (a triangular local transition of
/// `round(max_transition_rate·12·hop/sr)` semitones, voicing switched with `switch_prob`),
/// decoded over the band of the transition matrix with librosa's arithmetic and tie-breaking.
/// Unvoiced frames get `fill_na` in `f0` when `fill_na_given ≠ 0` (NaN is librosa's default),
/// else the frequency of their decoded pitch bin (librosa's `fill_na=None`).
/// Arguments as `sk_yin_f32` (`fmin`, `fmax`, `frame_length`, `hop`, `center`, `pad_mode`),
/// plus `1 ≤ n_thresholds ≤ 65536`; `beta_a`, `beta_b`, `boltzmann` finite and `> 0`;
/// `0 < resolution < 1`; `max_transition_rate ≥ 0` finite; `switch_prob` and `no_trough_prob`
/// in [0, 1]; at most 32767 pitch bins and a transition width not above them; `out_len` the
/// capacity of each output. The audio must be finite (`SK_ERR_NON_FINITE`).
/// Returns `SK_OK`, `SK_ERR_BAD_ARGUMENT`, `SK_ERR_LENGTH`, `SK_ERR_NON_FINITE`,
/// `SK_ERR_BUFFER_TOO_SMALL`, `SK_ERR_NULL_POINTER`, `SK_ERR_MISALIGNED`, `SK_ERR_OVERLAP`,
/// `SK_ERR_ALLOCATION`; on error the outputs are untouched. Thread-safe (the frames, and then
/// the rows, are split over up to `SIGKERN_THREADS` threads).
///
/// Real-time safe: no (allocates its working memory; long inputs may be split over the worker threads).
///
/// # Safety
/// `y` readable for batch·n floats; `f0` and `voiced_prob` writable for out_len floats,
/// `voiced_flag` for out_len bytes.
#[no_mangle]
#[allow(clippy::too_many_arguments)]
pub unsafe extern "C" fn sk_pyin_f32(
    y: *const f32,
    batch: usize,
    n: usize,
    sr: f64,
    fmin: f64,
    fmax: f64,
    frame_length: usize,
    hop: usize,
    n_thresholds: usize,
    beta_a: f64,
    beta_b: f64,
    boltzmann: f64,
    resolution: f64,
    max_transition_rate: f64,
    switch_prob: f64,
    no_trough_prob: f64,
    fill_na_given: i32,
    fill_na: f64,
    center: i32,
    pad_mode: i32,
    f0: *mut f32,
    voiced_flag: *mut u8,
    voiced_prob: *mut f32,
    out_len: usize,
) -> i32 {
    ffi_boundary!("sk_pyin_f32", {
        let a = PyinArgs {
            sr,
            fmin,
            fmax,
            frame_length,
            hop,
            n_thresholds,
            beta_a,
            beta_b,
            boltzmann,
            resolution,
            max_transition_rate,
            switch_prob,
            no_trough_prob,
            fill_na_given,
            fill_na,
            center,
            pad_mode,
        };
        // SAFETY: this function's `# Safety` contract is `pyin_ffi`'s; NULL, alignment, sizes
        // and overlap are checked inside.
        unsafe { pyin_ffi::<f32>(y, batch, n, &a, f0, voiced_flag, voiced_prob, out_len) }
    })
}

/// `sk_pyin_f32` on doubles. Same rules.
///
/// Real-time safe: no (allocates its working memory; long inputs may be split over the worker threads).
///
/// # Safety
/// `y` readable for batch·n doubles; `f0` and `voiced_prob` writable for out_len doubles,
/// `voiced_flag` for out_len bytes.
#[no_mangle]
#[allow(clippy::too_many_arguments)]
pub unsafe extern "C" fn sk_pyin_f64(
    y: *const f64,
    batch: usize,
    n: usize,
    sr: f64,
    fmin: f64,
    fmax: f64,
    frame_length: usize,
    hop: usize,
    n_thresholds: usize,
    beta_a: f64,
    beta_b: f64,
    boltzmann: f64,
    resolution: f64,
    max_transition_rate: f64,
    switch_prob: f64,
    no_trough_prob: f64,
    fill_na_given: i32,
    fill_na: f64,
    center: i32,
    pad_mode: i32,
    f0: *mut f64,
    voiced_flag: *mut u8,
    voiced_prob: *mut f64,
    out_len: usize,
) -> i32 {
    ffi_boundary!("sk_pyin_f64", {
        let a = PyinArgs {
            sr,
            fmin,
            fmax,
            frame_length,
            hop,
            n_thresholds,
            beta_a,
            beta_b,
            boltzmann,
            resolution,
            max_transition_rate,
            switch_prob,
            no_trough_prob,
            fill_na_given,
            fill_na,
            center,
            pad_mode,
        };
        // SAFETY: this function's `# Safety` contract is `pyin_ffi`'s; NULL, alignment, sizes
        // and overlap are checked inside.
        unsafe { pyin_ffi::<f64>(y, batch, n, &a, f0, voiced_flag, voiced_prob, out_len) }
    })
}
