/*
 * loudness.c: the loudness meter from C (run by `make c-test` and under valgrind). A stereo
 * 1 kHz tone at -23 dBFS reads -23 LUFS; the same signal fed in odd-sized chunks to a streaming
 * meter gives exactly the one-shot values; a 0.5 fs/4 sine at 45 degrees shows a true peak 3 dB
 * above its sample peak; the normalisation gain; and the bad-input cases. Exits 1 if anything
 * is off.
 */
#include "sigkern.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int g_passed, g_failed;

static void check(int ok, const char *what) {
    if (ok) {
        g_passed++;
    } else {
        g_failed++;
        char msg[256];
        sk_last_error_message(msg, sizeof msg);
        printf("  FAIL: %s (last error: %s)\n", what, msg);
    }
}

#define RATE 48000
#define SECS 4
#define FRAMES (RATE * SECS)

int main(void) {
    const double pi = 3.14159265358979323846;
    float *x = malloc(sizeof(float) * 2 * FRAMES); /* interleaved stereo */
    if (!x) return 1;
    double amp = pow(10.0, -23.0 / 20.0);
    for (int t = 0; t < FRAMES; t++) {
        float v = (float)(amp * sin(2.0 * pi * 1000.0 * t / RATE));
        x[2 * t] = v;
        x[2 * t + 1] = v;
    }

    SkLoudnessStats one;
    check(sk_loudness_interleaved_f32(x, NULL, RATE, 1, &one, 2, FRAMES) == SK_OK, "one-shot");
    check(fabs(one.integrated + 23.0) < 0.1, "integrated -23 LUFS");
    check(fabs(one.momentary + 23.0) < 0.1 && fabs(one.short_term + 23.0) < 0.1, "M and S");
    check(fabs(one.sample_peak + 23.0) < 0.01, "sample peak -23 dBFS");
    printf("1 kHz at -23 dBFS: I %.2f LUFS, LRA %.2f LU, M %.2f, S %.2f, TP %.2f dBTP\n",
           one.integrated, one.loudness_range, one.momentary, one.short_term, one.true_peak);

    SkMeter *m = NULL;
    check(sk_meter_new(NULL, RATE, 1, &m, 2) == SK_OK, "meter");
    size_t t = 0, k = 1;
    while (t < FRAMES) {
        size_t n = (k * 7919) % 10007;
        if (n > FRAMES - t) n = FRAMES - t;
        check(sk_meter_add_interleaved_f32(m, x + 2 * t, n) == SK_OK, "add");
        t += n;
        k++;
    }
    SkLoudnessStats s;
    check(sk_meter_stats(m, &s) == SK_OK, "stats");
    check(memcmp(&s, &one, sizeof s) == 0, "chunks give exactly the one-shot values");

    double sp[2], tp[2];
    check(sk_meter_peaks(m, sp, tp, 2) == SK_OK, "peaks");
    check(sp[0] == sp[1] && tp[0] >= sp[0], "per-channel peaks");

    double g;
    check(sk_loudness_normalize_gain(s.integrated, s.true_peak, -16.0, -1.0, &g) == SK_OK, "gain");
    check(fabs(20.0 * log10(g) - (-16.0 - s.integrated)) < 1e-9, "gain reaches -16 LUFS");

    /* a sine at fs/4, 45 degrees: every sample is at 0.707 of the peak */
    for (int i = 0; i < RATE; i++) {
        double fade = i < 960 ? i / 960.0 : 1.0;
        x[i] = (float)(fade * 0.5 * sin(2.0 * pi * i / 4.0 + pi / 4.0));
    }
    SkLoudnessStats q;
    check(sk_loudness_f32(x, RATE, NULL, RATE, 1, &q, 1, RATE) == SK_OK, "mono one-shot");
    check(fabs(q.sample_peak - 20.0 * log10(0.5 * sqrt(0.5))) < 0.01, "sample peak -9.03 dBFS");
    check(q.true_peak - 20.0 * log10(0.5) > -0.4 && q.true_peak - 20.0 * log10(0.5) < 0.2,
          "true peak -6.02 dBTP");
    printf("fs/4 sine at 45 degrees: sample peak %.2f dBFS, true peak %.2f dBTP\n", q.sample_peak,
           q.true_peak);

    /* bad input */
    x[100] = NAN;
    check(sk_meter_add_f32(m, x, RATE, RATE / 2) == SK_ERR_NON_FINITE, "NaN refused");
    SkLoudnessStats after;
    check(sk_meter_stats(m, &after) == SK_OK && memcmp(&after, &s, sizeof s) == 0,
          "a refused call changes nothing");
    check(sk_meter_new(NULL, 1000.0, 1, &m, 2) == SK_ERR_BAD_ARGUMENT, "rate out of range");
    check(sk_loudness_f32(x, RATE, NULL, RATE, 1, &q, 0, RATE) == SK_ERR_LENGTH, "0 channels");
    check(sk_meter_free(m) == SK_OK, "free");
    check(sk_meter_stats(m, &s) == SK_ERR_INVALID_HANDLE, "freed handle");
    check(sk_meter_free(m) == SK_ERR_INVALID_HANDLE, "double free");
    free(x);

    printf("loudness.c: %d passed, %d failed\n", g_passed, g_failed);
    return g_failed ? 1 : 0;
}
