/*
 * realtime.c: sigkern inside an audio callback. The host creates its handles and reserves them
 * for the largest block on an ordinary thread, then calls the callback block after block, as an
 * audio driver would; the callback (a stereo low-pass, a compressor, a loudness meter and a
 * 48 kHz -> 44.1 kHz resampler) only uses calls the docs list as real-time safe.
 *
 * Built with clang >= 20 and -fsanitize=realtime (`make rtsan-test`), the callback is marked
 * [[clang::nonblocking]] and RealtimeSanitizer aborts the program at the first allocation, lock
 * or blocking system call made inside it, by this file or by the library. `realtime --probe`
 * allocates inside the callback on purpose, to show the sanitizer is watching. Built with any
 * other compiler, it runs the same callback without the check. Exits 1 if anything is off.
 */
#include "sigkern.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#if defined(__clang__) && defined(__has_c_attribute)
#if __has_c_attribute(clang::nonblocking)
#define NONBLOCKING [[clang::nonblocking]]
#endif
#endif
#ifndef NONBLOCKING
#define NONBLOCKING
#endif

#define RATE 48000
#define MAX_BLOCK 512
#define CH 2
/* room for one call's output: the resampler writes in bursts (its first stage works on blocks
 * of a few thousand input frames), so more than one block's worth; sk_resampler_output_size
 * says how much each call needs */
#define OUT_CAP 8192

typedef struct {
    SkBiquad *lowpass;
    SkDynamics *comp;
    SkMeter *meter;
    SkResampler *resampler;
    float out[CH * OUT_CAP]; /* resampled output, planar with stride OUT_CAP */
    size_t produced_total;
    int status; /* first failing status, SK_OK if none */
    int probe;  /* allocate inside the callback on purpose (the sanitizer's self-test) */
} Plugin;

static void note(Plugin *p, int rc) {
    if (rc != SK_OK && p->status == SK_OK) p->status = rc;
}

/* The audio callback: planar stereo in place, `n` frames (at most MAX_BLOCK). */
static void process_block(Plugin *p, float *buf, size_t n) NONBLOCKING {
    note(p, sk_biquad_f32_process(p->lowpass, buf, MAX_BLOCK, buf, MAX_BLOCK, n));
    note(p, sk_dynamics_process_f32(p->comp, buf, MAX_BLOCK, NULL, 0, buf, MAX_BLOCK, n));
    note(p, sk_meter_add_f32(p->meter, buf, MAX_BLOCK, n));
    size_t need, consumed, produced;
    note(p, sk_resampler_output_size(p->resampler, &need, n));
    if (need > OUT_CAP) note(p, SK_ERR_BUFFER_TOO_SMALL);
    note(p, sk_resampler_f32_process(p->resampler, buf, MAX_BLOCK, p->out, OUT_CAP, &consumed,
                                     &produced, n, OUT_CAP));
    if (consumed != n) note(p, SK_ERR_INTERNAL);
    p->produced_total += produced;
    if (p->probe) {
        void *volatile leak = malloc(64); /* not real-time safe: the sanitizer must stop here */
        free(leak);
    }
}

int main(int argc, char **argv) {
    const double pi = 3.14159265358979323846;
    Plugin *p = calloc(1, sizeof *p);
    if (!p) return 1;
    p->probe = argc > 1 && !strcmp(argv[1], "--probe");
    /* off the audio thread: create, then reserve for the largest block */
    const double sos[12] = {0.0048243433577162, 0.0096486867154325, 0.0048243433577162, 1.0,
                            -1.0485995763626117, 0.2961403575616696, 1.0, 2.0, 1.0, 1.0,
                            -1.3209134308194264, 0.6327387928852763};
    int rc = sk_biquad_f32_new(sos, CH, &p->lowpass, 2);
    if (rc == SK_OK) rc = sk_biquad_reserve(p->lowpass, MAX_BLOCK);
    if (rc == SK_OK) rc = sk_compressor_new(RATE, -20, 4, 6, 5, 50, 0, 1, 0, &p->comp, CH);
    if (rc == SK_OK) rc = sk_dynamics_reserve(p->comp, MAX_BLOCK);
    if (rc == SK_OK) rc = sk_meter_new(NULL, RATE, 1, &p->meter, CH);
    if (rc == SK_OK) rc = sk_meter_reserve(p->meter, MAX_BLOCK);
    if (rc == SK_OK)
        rc = sk_resampler_f32_new(RATE, 44100, CH, SK_RESAMPLE_HIGH, &p->resampler);
    if (rc == SK_OK) rc = sk_resampler_reserve(p->resampler, MAX_BLOCK);
    if (rc != SK_OK) {
        char msg[256];
        sk_last_error_message(msg, sizeof msg);
        printf("FAIL: setup returned %d: %s\n", rc, msg);
        return 1;
    }

    /* the "driver": 3 s of a 440 Hz tone at -12 dBFS in blocks of 1..512 frames */
    static float buf[CH * MAX_BLOCK];
    const size_t sizes[] = {512, 64, 1, 480, 256, 33, 128, 512};
    size_t t = 0, frames = 0, blocks = 0;
    while (t < 3 * RATE) {
        size_t n = sizes[blocks % (sizeof sizes / sizeof sizes[0])];
        for (size_t i = 0; i < n; i++)
            for (int c = 0; c < CH; c++)
                buf[c * MAX_BLOCK + i] = (float)(0.25 * sin(2 * pi * 440.0 * (t + i) / RATE));
        process_block(p, buf, n);
        t += n;
        frames += n;
        blocks++;
    }

    /* back on an ordinary thread: the results */
    int failed = 0;
    if (p->status != SK_OK) {
        printf("FAIL: a call in the callback returned %d (%s)\n", p->status,
               sk_status_name(p->status));
        failed = 1;
    }
    SkLoudnessStats st;
    rc = sk_meter_stats(p->meter, &st);
    /* a -12 dBFS sine on both channels reads about -15 LUFS (-12 - 3 + 3 for two channels, the
     * K-weighting adds little at 440 Hz); the compressor takes a few dB off */
    if (rc != SK_OK || !(st.integrated > -22.0 && st.integrated < -10.0)) {
        printf("FAIL: integrated loudness %.2f LUFS (status %d)\n", st.integrated, rc);
        failed = 1;
    }
    /* the stream holds back its latency and the unfinished first-stage block: flushing it
     * (off the audio thread) completes the one-shot result, delayed by the latency */
    size_t flush_n = 0, flushed = 0, want = 0, latency = 0;
    rc = sk_resampler_flush_size(p->resampler, &flush_n);
    float *tail = rc == SK_OK ? malloc((flush_n + 1) * CH * sizeof *tail) : NULL;
    if (tail)
        rc = sk_resampler_f32_flush(p->resampler, tail, (ptrdiff_t)(flush_n + 1), &flushed,
                                    flush_n + 1);
    if (rc == SK_OK) rc = sk_resample_size(RATE, 44100, &want, frames);
    if (rc == SK_OK) rc = sk_resampler_latency(p->resampler, &latency);
    free(tail);
    if (!tail || rc != SK_OK || p->produced_total + flushed != want + latency) {
        printf("FAIL: resampler wrote %zu + %zu flushed frames for %zu in (expected %zu + %zu "
               "latency; status %d)\n",
               p->produced_total, flushed, frames, want, latency, rc);
        failed = 1;
    }
    printf("%zu callbacks, %zu frames: integrated %.2f LUFS, %zu frames at 44.1 kHz%s\n", blocks,
           frames, st.integrated, p->produced_total, failed ? "" : " (ok)");
    sk_biquad_free(p->lowpass);
    sk_dynamics_free(p->comp);
    sk_meter_free(p->meter);
    sk_resampler_free(p->resampler);
    free(p);
    return failed;
}
