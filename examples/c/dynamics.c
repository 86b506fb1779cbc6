/*
 * dynamics.c: the dynamics processors from C (run by `make c-test` and under valgrind). A
 * compressor on a loud stereo tone reduces it by the expected amount; chunked processing equals
 * one call; a limiter keeps a +6 dBFS tone at or below its ceiling after its latency; bad input
 * gives status codes. Exits 1 if anything is off.
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
#define N 9600

int main(void) {
    const double pi = 3.14159265358979323846;
    static float x[2 * N], y[2 * N], z[2 * N];
    for (int t = 0; t < N; t++) {
        float v = (float)sin(2.0 * pi * 997.0 * t / RATE); /* 0 dBFS peak */
        x[t] = v;
        x[N + t] = 0.5f * v;
    }

    /* compressor: threshold -20 dB, ratio 4 -> a 0 dB peak comes out near -15 dB */
    SkDynamics *c = NULL;
    check(sk_compressor_new(RATE, -20.0, 4.0, 0.0, 1.0, 100.0, 0.0, 0, 1, &c, 2) == SK_OK,
          "sk_compressor_new");
    check(sk_dynamics_process_f32(c, x, N, NULL, 0, y, N, N) == SK_OK, "process");
    float peak = 0.0f;
    for (int t = N / 2; t < N; t++) peak = fmaxf(peak, fabsf(y[t]));
    check(fabs(20.0 * log10(peak) + 15.0) < 1.0, "compressed peak near -15 dBFS");

    /* chunked == one call */
    check(sk_dynamics_reset(c) == SK_OK, "reset");
    int t0 = 0, steps[] = {1, 333, 1000, 4096};
    for (int i = 0; t0 < N; i++) {
        int len = steps[i % 4];
        if (t0 + len > N) len = N - t0;
        check(sk_dynamics_process_f32(c, x + t0, N, NULL, 0, z + t0, N, (size_t)len) == SK_OK,
              "chunk");
        t0 += len;
    }
    check(memcmp(y, z, sizeof y) == 0, "chunked output is bit-identical");

    /* limiter: +6 dB tone, ceiling -1 dBTP */
    SkDynamics *l = NULL;
    size_t lat = 0;
    check(sk_limiter_new(RATE, -1.0, 5.0, 100.0, &l, 2) == SK_OK, "sk_limiter_new");
    check(sk_dynamics_latency(l, &lat) == SK_OK && lat == 240 + 11, "latency");
    for (int i = 0; i < 2 * N; i++) z[i] = 2.0f * x[i];
    check(sk_dynamics_process_f32(l, z, N, NULL, 0, z, N, N) == SK_OK, "limiter in place");
    SkLoudnessStats s;
    check(sk_loudness_f32(z, N, NULL, RATE, 1, &s, 2, N) == SK_OK, "measure");
    check(s.true_peak <= -1.0, "true peak at or below the ceiling");
    printf("limiter: true peak %.3f dBTP (ceiling -1), latency %zu frames\n", s.true_peak, lat);

    /* bad input */
    x[5] = NAN;
    check(sk_dynamics_process_f32(c, x, N, NULL, 0, y, N, N) == SK_ERR_NON_FINITE, "NaN refused");
    check(sk_dynamics_process_f32(l, x, N, x, N, y, N, N) == SK_ERR_BAD_ARGUMENT,
          "limiter takes no sidechain");
    SkDynamics *bad = NULL;
    check(sk_limiter_new(10.0, -1.0, 5.0, 100.0, &bad, 2) == SK_ERR_BAD_ARGUMENT && !bad,
          "rate out of range");
    check(sk_compressor_new(RATE, -20.0, 4.0, 0.0, 1.0, 100.0, 0.0, 0, 0, &bad, 0) == SK_ERR_LENGTH,
          "0 channels");
    check(sk_dynamics_free(c) == SK_OK && sk_dynamics_free(l) == SK_OK, "free");
    check(sk_dynamics_reset(c) == SK_ERR_INVALID_HANDLE, "freed handle");
    check(sk_dynamics_free(NULL) == SK_OK, "free(NULL)");

    printf("dynamics: %d passed, %d failed\n", g_passed, g_failed);
    return g_failed ? 1 : 0;
}
