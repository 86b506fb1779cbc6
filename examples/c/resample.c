/*
 * Resampling with sigkern: one-shot 48 kHz -> 44.1 kHz of a stereo tone, the same signal
 * through a streaming resampler in 512-frame blocks (equal to the one-shot output delayed by
 * the reported latency, bit for bit), a clock-drift ratio ramp, a minimum-phase stream of the
 * same preset, and the error paths.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sigkern.h"

#define FS_IN 48000.0
#define FS_OUT 44100.0
#define CH 2
#define N_IN 48000
#define BLOCK 512

static int g_failed = 0;

static void check(const char *what, int ok) {
    printf("%-58s %s\n", what, ok ? "ok" : "FAILED");
    if (!ok) g_failed = 1;
}

static void print_error(void) {
    char msg[256];
    sk_last_error_message(msg, sizeof msg);
    printf("    -> %s\n", msg);
}

int main(void) {
    const double pi = 3.14159265358979323846;
    const double freq[CH] = {1000.0, 15000.0};
    float *x = malloc(sizeof(float) * N_IN * CH);
    for (size_t t = 0; t < N_IN; t++)
        for (int c = 0; c < CH; c++)
            x[t * CH + c] = (float)sin(2.0 * pi * freq[c] * (double)t / FS_IN);

    /* one-shot: delay removed, ceil(n * 44100 / 48000) frames */
    size_t n_out = 0;
    check("sk_resample_size", sk_resample_size(FS_IN, FS_OUT, &n_out, N_IN) == SK_OK);
    check("48000 frames at 48 kHz -> 44100 frames at 44.1 kHz", n_out == 44100);
    float *y = malloc(sizeof(float) * n_out * CH);
    check("one-shot interleaved resample",
          sk_resample_f32_interleaved(x, FS_IN, FS_OUT, SK_RESAMPLE_HIGH, CH, y, N_IN, n_out) ==
              SK_OK);
    double worst = 0.0;
    for (size_t m = 2000; m + 2000 < n_out; m++)
        for (int c = 0; c < CH; c++) {
            double want = sin(2.0 * pi * freq[c] * (double)m / FS_OUT);
            double e = fabs((double)y[m * CH + c] - want);
            if (e > worst) worst = e;
        }
    printf("    worst error against the exact sines: %.2e\n", worst);
    check("output equals the sines at the output instants (< 1e-5)", worst < 1e-5);

    /* streaming in 512-frame blocks */
    SkResampler *h = NULL;
    check("sk_resampler_f32_new", sk_resampler_f32_new(FS_IN, FS_OUT, CH, SK_RESAMPLE_HIGH, &h) ==
                                      SK_OK);
    size_t latency = 0;
    sk_resampler_latency(h, &latency);
    printf("    latency: %zu output frames\n", latency);
    size_t total_cap = latency + n_out + 16;
    float *s = malloc(sizeof(float) * total_cap * CH);
    size_t made = 0;
    int ok = 1;
    for (size_t pos = 0; pos < N_IN;) {
        size_t n = N_IN - pos < BLOCK ? N_IN - pos : BLOCK;
        size_t room = 0, used = 0, got = 0;
        sk_resampler_output_size(h, &room, n);
        ok &= sk_resampler_f32_process_interleaved(h, x + pos * CH, s + made * CH, &used, &got,
                                                   n, room) == SK_OK;
        ok &= used == n && got == room;
        pos += used;
        made += got;
    }
    size_t tail = 0, got = 0;
    sk_resampler_flush_size(h, &tail);
    ok &= sk_resampler_f32_flush_interleaved(h, s + made * CH, &got, tail) == SK_OK;
    made += got;
    check("blocks processed and flushed", ok);
    check("stream length = latency + one-shot length", made == latency + n_out);
    check("stream = one-shot delayed by the latency, bit for bit",
          made == latency + n_out &&
              memcmp(s + latency * CH, y, sizeof(float) * n_out * CH) == 0);

    /* follow a drifting clock: +0.1 % over 4410 output frames (the flush reset the stream;
       output comes per first-stage block, so compare with the same input at the old ratio) */
    size_t used = 0, room0 = 0;
    sk_resampler_output_size(h, &room0, N_IN);
    check("sk_resampler_set_ratio", sk_resampler_set_ratio(h, FS_OUT / FS_IN * 1.001, 4410) ==
                                        SK_OK);
    size_t room = 0;
    sk_resampler_output_size(h, &room, N_IN);
    check("after the ramp, about 0.1 % more output",
          room > room0 + 20 && room < room0 + 60 && room < total_cap);
    check("process after set_ratio",
          sk_resampler_f32_process_interleaved(h, x, s, &used, &got, N_IN, room) == SK_OK &&
              used == N_IN && got == room);

    /* minimum phase: the HIGH preset's magnitude response with a fraction of the latency; the
       1 kHz tone still lands on its instants once that latency is removed */
    SkResampleSpec spec;
    check("sk_resample_quality_spec", sk_resample_quality_spec(SK_RESAMPLE_HIGH, &spec) == SK_OK);
    SkResampler *mp = NULL;
    check("sk_resampler_f32_new_spec_phase (minimum phase)",
          sk_resampler_f32_new_spec_phase(FS_IN, FS_OUT, CH, &spec, SK_RESAMPLE_MINIMUM_PHASE,
                                          &mp) == SK_OK);
    size_t mp_latency = 0;
    sk_resampler_latency(mp, &mp_latency);
    printf("    latency: %zu output frames (linear phase: %zu)\n", mp_latency, latency);
    check("minimum phase: under a quarter of the linear-phase latency",
          4 * mp_latency < latency);
    size_t mp_made = 0, mp_tail = 0;
    ok = sk_resampler_f32_process_interleaved(mp, x, s, &used, &mp_made, N_IN, total_cap) ==
             SK_OK &&
         used == N_IN;
    ok &= sk_resampler_flush_size(mp, &mp_tail) == SK_OK && mp_made + mp_tail <= total_cap;
    ok &= ok && sk_resampler_f32_flush_interleaved(mp, s + mp_made * CH, &got, mp_tail) == SK_OK;
    check("minimum-phase stream: latency + one-shot length",
          ok && mp_made + got == mp_latency + n_out);
    worst = 0.0;
    for (size_t m = 2000; m + 2000 < n_out; m++) {
        double want = sin(2.0 * pi * freq[0] * (double)m / FS_OUT);
        double e = fabs((double)s[(mp_latency + m) * CH] - want);
        if (e > worst) worst = e;
    }
    printf("    worst error of the 1 kHz channel: %.2e\n", worst);
    check("minimum phase: the 1 kHz tone on its instants (< 1e-3)", worst < 1e-3);
    check("free the minimum-phase stream", sk_resampler_free(mp) == SK_OK);

    /* error paths */
    float probe[4] = {0};
    check("flush into too small a buffer -> SK_ERR_BUFFER_TOO_SMALL",
          sk_resampler_flush_size(h, &tail) == SK_OK && tail > 1 &&
              sk_resampler_f32_flush_interleaved(h, s, &got, tail - 1) == SK_ERR_BUFFER_TOO_SMALL);
    print_error();
    check("one-shot into too small a buffer -> SK_ERR_BUFFER_TOO_SMALL",
          sk_resample_f32_interleaved(x, FS_IN, FS_OUT, SK_RESAMPLE_HIGH, CH, y, N_IN,
                                      n_out - 1) == SK_ERR_BUFFER_TOO_SMALL);
    print_error();
    check("rate 0 -> SK_ERR_BAD_ARGUMENT",
          sk_resample_size(0.0, FS_OUT, &n_out, 10) == SK_ERR_BAD_ARGUMENT);
    print_error();
    check("ratio beyond 256 -> SK_ERR_BAD_ARGUMENT",
          sk_resample_size(100.0, 30000.0, &n_out, 10) == SK_ERR_BAD_ARGUMENT);
    print_error();
    check("double call on a float stream -> SK_ERR_INVALID_HANDLE",
          sk_resampler_f64_process_interleaved(h, NULL, NULL, &used, &got, 0, 0) ==
              SK_ERR_INVALID_HANDLE);
    print_error();
    check("free", sk_resampler_free(h) == SK_OK);
    check("freed handle -> SK_ERR_INVALID_HANDLE",
          sk_resampler_f32_process_interleaved(h, probe, probe, &used, &got, 1, 1) ==
              SK_ERR_INVALID_HANDLE);
    print_error();

    free(x);
    free(y);
    free(s);
    printf("%s\n", g_failed ? "FAILED" : "all checks passed");
    return g_failed;
}
