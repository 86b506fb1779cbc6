/*
 * seeds.c: the two functions of the original seed documents, called the way a C program would.
 *
 *   void copy(float *in, float *out, int len);        -> copies len floats (memmove semantics)
 *   void process_data(float *data_ptr, int size);     -> peak-normalises data in place
 *
 * sigkern exports them under exactly these names. In sigkern.h they return an int32_t status
 * (SK_OK or an SK_ERR_* code); a program written against the old `void` prototypes keeps
 * working because it simply ignores the returned register. (A C file cannot see both prototypes
 * at once, so this one uses the header's and shows both styles of call.)
 *
 * Checks: the copy equals memmove, also for overlapping ranges; after process_data the peak
 * magnitude is exactly 1.0 and every sample equals the original divided by the old peak
 * (correctly rounded, so exact in float); silence stays silence. Exits 1 on any mismatch.
 */
#include "sigkern.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define RATE 48000
#define LEN 4800 /* 100 ms */
#define PI 3.14159265358979323846

static int g_checks;
static int g_failed;

static void check(int ok, const char *what) {
    g_checks++;
    if (!ok) g_failed++;
    printf("  %-62s %s\n", what, ok ? "ok" : "FAIL");
}

static float peak_of(const float *v, int n) {
    float p = 0;
    for (int i = 0; i < n; i++) p = fmaxf(p, fabsf(v[i]));
    return p;
}

int main(void) {
    printf("sigkern %s: seed functions copy() and process_data()\n\n", sk_version());

    /* A quiet 100 ms clip: 0.3 * a 440 Hz tone with a small 3rd harmonic. */
    static float clip[LEN], work[LEN], expect[LEN], ring[LEN];
    for (int i = 0; i < LEN; i++) {
        double t = (double)i / RATE;
        clip[i] = (float)(0.3 * sin(2 * PI * 440 * t) + 0.02 * sin(2 * PI * 1320 * t));
    }

    /* 1. Seed style: the return value ignored, exactly like the old void functions. */
    copy(clip, work, LEN);
    check(memcmp(clip, work, sizeof clip) == 0, "copy(clip, work, 4800) copies every sample");

    float old_peak = peak_of(work, LEN);
    process_data(work, LEN);
    float new_peak = peak_of(work, LEN);
    printf("  peak before %.7f, after %.7f\n", (double)old_peak, (double)new_peak);
    check(new_peak == 1.0f, "process_data: peak is exactly 1.0 afterwards");
    int same = 1;
    for (int i = 0; i < LEN; i++) {
        /* IEEE division is correctly rounded: the library must match C's float division */
        expect[i] = clip[i] / old_peak;
        if (work[i] != expect[i]) same = 0;
    }
    check(same, "process_data: every sample == original / old peak (exact)");

    /* 2. New style: check the status. */
    int32_t rc = process_data(work, LEN);
    check(rc == SK_OK && memcmp(work, expect, sizeof expect) == 0,
          "process_data again on a normalised clip: SK_OK, unchanged");

    memset(work, 0, sizeof work);
    rc = process_data(work, LEN);
    check(rc == SK_OK && peak_of(work, LEN) == 0.0f, "process_data on silence: SK_OK, silence");
    check(process_data(NULL, 0) == SK_OK, "process_data(NULL, 0): SK_OK (nothing to do)");

    /* copy has memmove semantics: shifting a ring buffer by 10 samples in either direction. */
    memcpy(ring, clip, sizeof ring);
    memcpy(expect, clip, sizeof expect);
    memmove(expect + 10, expect, (LEN - 10) * sizeof(float));
    rc = copy(ring, ring + 10, LEN - 10);
    check(rc == SK_OK && memcmp(ring, expect, sizeof ring) == 0,
          "copy(ring, ring + 10, 4790) == memmove (overlap, forward)");
    memmove(expect, expect + 10, (LEN - 10) * sizeof(float));
    rc = copy(ring + 10, ring, LEN - 10);
    check(rc == SK_OK && memcmp(ring, expect, sizeof ring) == 0,
          "copy(ring + 10, ring, 4790) == memmove (overlap, backward)");

    /* What the old void versions could not tell you: a bad call is refused and explained. */
    memcpy(work, clip, sizeof work);
    work[100] = INFINITY;
    memcpy(expect, work, sizeof expect);
    rc = process_data(work, LEN);
    char msg[160];
    sk_last_error_message(msg, sizeof msg);
    printf("  process_data with an inf sample -> %s: %s\n", sk_status_name(rc), msg);
    check(rc == SK_ERR_NON_FINITE && memcmp(work, expect, sizeof work) == 0,
          "process_data refuses inf and leaves the buffer alone");
    rc = copy(clip, work, -3);
    sk_last_error_message(msg, sizeof msg);
    printf("  copy with len = -3 -> %s: %s\n", sk_status_name(rc), msg);
    check(rc == SK_ERR_LENGTH, "copy refuses a negative length");

    printf("\nseeds: %d passed, %d failed\n", g_checks - g_failed, g_failed);
    return g_failed ? 1 : 0;
}
