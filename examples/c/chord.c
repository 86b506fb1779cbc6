/*
 * chord.c: find the notes of a synthetic chord with sigkern's real FFT.
 *
 * Synthesises one second of a C major chord (C4, E4, G4 with different loudness, plus a little
 * deterministic noise) at 48 kHz, applies a periodic Hann window, takes the real FFT through an
 * SkFftPlan, turns it into a power spectrum and prints the three strongest peaks, refined by
 * parabolic interpolation. Exits 1 if they are not the chord's frequencies (within 0.5 Hz) or if
 * any sigkern call fails.
 *
 * Build and run from the repository root:
 *   cargo build --release
 *   gcc -Wall -Wextra -Werror -Iinclude examples/c/chord.c -Ltarget/release -lsigkern -lm -o chord
 *   LD_LIBRARY_PATH=target/release ./chord
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "sigkern.h"

#define SR 48000
#define N 48000 /* 1 s: bins are exactly 1 Hz apart */
#define NBINS (N / 2 + 1)
#define NOTES 3
#define PI 3.14159265358979323846 /* M_PI is not part of ISO C11 */

static int check(int32_t rc, const char *what)
{
    if (rc != SK_OK) {
        char msg[512];
        sk_last_error_message(msg, sizeof msg);
        fprintf(stderr, "%s failed: %s (%s)\n", what, sk_status_name(rc), msg);
        return 1;
    }
    return 0;
}

int main(void)
{
    const double freqs[NOTES] = {261.63, 329.63, 392.00};
    const double amps[NOTES] = {1.0, 0.7, 0.5};
    const char *names[NOTES] = {"C4", "E4", "G4"};
    double *x = malloc(N * sizeof *x);
    double *w = malloc(N * sizeof *w);
    double *spec = malloc(2 * NBINS * sizeof *spec); /* interleaved re/im */
    double *power = malloc(NBINS * sizeof *power);
    SkFftPlan *plan = NULL;
    int status = 1;
    if (!x || !w || !spec || !power) {
        fprintf(stderr, "out of memory\n");
        goto done;
    }

    unsigned seed = 12345u;
    for (int i = 0; i < N; i++) {
        double t = (double)i / SR, v = 0.0;
        for (int k = 0; k < NOTES; k++)
            v += amps[k] * sin(2.0 * PI * freqs[k] * t + k);
        seed = seed * 1103515245u + 12345u;
        v += 0.01 * ((double)(seed >> 8) / (double)(1u << 24) - 0.5);
        x[i] = v;
    }

    if (check(sk_window_f64(SK_WINDOW_HANN, 0.0, 1, w, N), "sk_window_f64") ||
        check(sk_mul_f64(x, w, x, N), "sk_mul_f64") ||
        check(sk_fft_plan_f64_new(SK_FFT_REAL, N, &plan), "sk_fft_plan_f64_new") ||
        check(sk_rfft_f64(plan, x, SK_NORM_BACKWARD, spec, N), "sk_rfft_f64") ||
        check(sk_spec_power_f64(spec, 2.0, power, NBINS), "sk_spec_power_f64"))
        goto done;

    /* the NOTES largest local maxima */
    int peak[NOTES] = {0};
    for (int k = 0; k < NOTES; k++) {
        int best = -1;
        for (int b = 1; b < NBINS - 1; b++) {
            int taken = 0;
            for (int j = 0; j < k; j++)
                if (abs(b - peak[j]) < 5)
                    taken = 1;
            if (taken || power[b] < power[b - 1] || power[b] < power[b + 1])
                continue;
            if (best < 0 || power[b] > power[best])
                best = b;
        }
        peak[k] = best;
    }

    double found[NOTES];
    for (int k = 0; k < NOTES; k++) {
        int b = peak[k];
        /* parabolic interpolation on log power */
        double a = log(power[b - 1]), c = log(power[b]), d = log(power[b + 1]);
        double off = 0.5 * (a - d) / (a - 2.0 * c + d);
        found[k] = (b + off) * (double)SR / N;
    }
    /* sort ascending for printing */
    for (int i = 0; i < NOTES; i++)
        for (int j = i + 1; j < NOTES; j++)
            if (found[j] < found[i]) {
                double t = found[i];
                found[i] = found[j];
                found[j] = t;
            }

    status = 0;
    printf("dominant frequencies (SIMD level %s):\n", sk_simd_level());
    for (int k = 0; k < NOTES; k++) {
        int ok = fabs(found[k] - freqs[k]) < 0.5;
        printf("  %8.2f Hz  (%s = %.2f Hz) %s\n", found[k], names[k], freqs[k], ok ? "ok" : "WRONG");
        if (!ok)
            status = 1;
    }

done:
    if (plan && sk_fft_plan_free(plan) != SK_OK)
        status = 1;
    free(x);
    free(w);
    free(spec);
    free(power);
    return status;
}
