/*
 * audio.c: the audio kernels from C, checked against closed forms (run by `make c-test` at every
 * SIMD level and under valgrind): every int16 code through float and back, 24-bit packing,
 * stereo deinterleave/interleave, a strided view running backwards, a gain ramp in chunks,
 * per-row RMS, and the audio bad-input cases with canaries. Exits 1 if anything is off.
 */
#include "sigkern.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
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

#define FRAMES 1000

int main(void) {
    static int16_t codes[65536], back[65536];
    static float f[65536];
    for (int i = 0; i < 65536; i++) codes[i] = (int16_t)(i - 32768);
    check(sk_pcm_from_i16_f32(codes, f, 65536) == SK_OK, "int16 -> float");
    check(f[0] == -1.0f && f[32768] == 0.0f && f[65535] == 32767.0f / 32768.0f, "int16 scale");
    check(sk_pcm_to_i16_f32(f, back, 65536) == SK_OK, "float -> int16");
    check(memcmp(codes, back, sizeof codes) == 0, "every int16 code survives the round trip");

    /* ties to even and saturation */
    float t[6] = {0.5f / 32768, 1.5f / 32768, -2.5f / 32768, 2.0f, -2.0f, 32766.5f / 32768};
    int16_t q[6];
    check(sk_pcm_to_i16_f32(t, q, 6) == SK_OK, "ties");
    check(q[0] == 0 && q[1] == 2 && q[2] == -2 && q[3] == 32767 && q[4] == -32768 && q[5] == 32766,
          "round half to even, saturate");

    /* 24-bit packed little-endian */
    double d[3] = {-1.0, 0.5, 1.0};
    uint8_t b24[9];
    check(sk_pcm_to_i24_f64(d, b24, 3) == SK_OK, "double -> int24");
    const uint8_t want24[9] = {0x00, 0x00, 0x80, 0x00, 0x00, 0x40, 0xff, 0xff, 0x7f};
    check(memcmp(b24, want24, 9) == 0, "int24 bytes");

    /* NaN into an integer conversion: refused, nothing written */
    float bad[4] = {0.1f, NAN, 0.2f, 0.3f};
    int16_t canary[4] = {7, 7, 7, 7};
    check(sk_pcm_to_i16_f32(bad, canary, 4) == SK_ERR_NON_FINITE, "NaN refused");
    check(canary[0] == 7 && canary[3] == 7, "nothing written on NaN");

    /* stereo: deinterleave to planar and back */
    static float inter[2 * FRAMES], left[FRAMES], right[FRAMES], again[2 * FRAMES];
    for (int i = 0; i < 2 * FRAMES; i++) inter[i] = (float)i;
    float *outs[2] = {left, right};
    check(sk_deinterleave_f32(inter, 2, outs, FRAMES) == SK_OK, "deinterleave");
    check(left[10] == 20.0f && right[10] == 21.0f && right[FRAMES - 1] == 2 * FRAMES - 1,
          "planar channels");
    const float *ins[2] = {left, right};
    check(sk_interleave_f32(ins, 2, again, FRAMES) == SK_OK, "interleave");
    check(memcmp(inter, again, sizeof inter) == 0, "interleave inverts deinterleave");
    check(sk_deinterleave_f32(inter, 0, outs, FRAMES) == SK_ERR_BAD_ARGUMENT, "0 channels");

    /* strided: the left channel, read backwards (stride -2 from the last left sample) */
    float sum = -1.0f;
    check(sk_sum_strided_f32(inter + 2 * (FRAMES - 1), -2, &sum, FRAMES) == SK_OK, "strided sum");
    check(sum == (float)(FRAMES * (FRAMES - 1)), "sum of 0, 2, 4, ...");
    /* scale the right channel in place through its view */
    check(sk_scale_strided_f32(inter + 1, 2, 0.5f, inter + 1, 2, FRAMES) == SK_OK, "in place");
    check(inter[1] == 0.5f && inter[0] == 0.0f && inter[3] == 1.5f, "only the view changed");
    check(sk_scale_strided_f32(inter, 2, 0.5f, inter + 1, 2, FRAMES) == SK_ERR_OVERLAP,
          "interleaved spans overlap");
    check(sk_fill_strided_f32(1.0f, inter, 0, 4) == SK_ERR_BAD_ARGUMENT, "stride 0 destination");

    /* gain ramp in two chunks equals one call */
    static float ones[FRAMES], r1[FRAMES], r2[FRAMES];
    for (int i = 0; i < FRAMES; i++) ones[i] = 1.0f;
    check(sk_gain_ramp_f32(ones, 0.0f, 1.0f, 0, FRAMES, r1, FRAMES) == SK_OK, "ramp");
    check(sk_gain_ramp_f32(ones, 0.0f, 1.0f, 0, FRAMES, r2, 300) == SK_OK &&
              sk_gain_ramp_f32(ones + 300, 0.0f, 1.0f, 300, FRAMES, r2 + 300, FRAMES - 300) ==
                  SK_OK,
          "ramp in chunks");
    check(memcmp(r1, r2, sizeof r1) == 0 && r1[0] == 0.0f && r1[500] == 0.5f, "chunks join");
    check(sk_gain_ramp_f32(ones, NAN, 1.0f, 0, FRAMES, r1, FRAMES) == SK_ERR_BAD_ARGUMENT,
          "NaN gain refused");

    /* per-row RMS of a (3, 4) block with row stride 5 */
    float m[15] = {3, 4, 3, 4, 99, 1, 1, 1, 1, 99, 0, 0, 0, 0, 99};
    float rms[3];
    check(sk_rows_rms_f32(m, 5, rms, 3, 4) == SK_OK, "rows rms");
    check(rms[0] == sqrtf(12.5f) && rms[1] == 1.0f && rms[2] == 0.0f, "per-row values");
    check(sk_rows_rms_f32(m, 3, rms, 3, 4) == SK_ERR_BAD_ARGUMENT, "ld < cols");

    printf("audio: %d passed, %d failed\n", g_passed, g_failed);
    return g_failed ? 1 : 0;
}
